"""Registration, check-in, decklists and no-shows of a league: the glue between the league
document (:mod:`host.leagues`) and the pure sign-up rules (:mod:`host.events.registration`).
Pure and synchronous like both: every time is given as ``now``; errors are
:class:`host.leagues.LeagueError` (a catalog key, ``events.err.…`` or ``events.reg.err.…``) and
change nothing that is stored (the caller works on a copy).

The league keys (all optional: a league without them behaves as before)
-----------------------------------------------------------------------
* ``registration``: a :func:`host.events.registration.new` dict — the player cap and its waiting
  list, the start time (``start_at``) and the check-in window (``checkin_minutes`` before it).
  Made by :func:`configure` (``/league-admin settings``) when a cap, a start or a check-in is set;
  the players already signed up are taken into it, in sign-up order.
* ``no_show_minutes``: the no-show rule (None: none).
* ``open_decklists``: decklists become public at the top cut (and at the end).
* ``decklists``: ``{"<user id>": {"spec", "ready", "kind", "label", "hash", "at"}}`` — each player's
  registered deck, locked for the event.
* ``checkin_told``: when the bot announced that check-in is open (once).
* a pairing's ``no_show``: ``{"by", "kind": "game"|"match", "at"}`` — a no-show claim (a game
  claim in a best-of-3 or -5 pairing is one game won in its series: :mod:`host.events.bestof`).

How it fits the league
----------------------
``d["players"]`` holds the players who are in: registered players before the start (status
``"active"``), the event's players after it.  Waiting-list players are only in the registration
(they are not in the league's table, and nobody pairs them) until they move up: when a
registered player leaves (:func:`leave`), when the organiser raises the cap, or at the start
(:func:`admit`) when they checked in and a place is free.  At the start, registered players who
did not check in are taken off ``d["players"]`` (the registration keeps them as
``"no_checkin"``), so they are neither paired nor in the standings.

With a start time, sign-up stays open until the start (``d["signup_until"]`` is the start), so
the bot's clock starts the event then, like a league whose sign-up hours end.

>>> d = {"players": [], "pairings": [], "signup_until": None, "game": "squares"}
>>> configure(d, "signup", 0.0, cap=2)["changed"]
['cap']
>>> [sign_up(d, u, f"p{u}", 1.0) for u in (1, 2, 3)]
['registered', 'registered', 'waiting']
>>> leave(d, 1, 2.0), [p["id"] for p in d["players"]]
(3, [2, 3])
"""
from __future__ import annotations

import hashlib
from typing import Any, Callable

from data import i18n
from host.events import bestof
from host.events import registration as R
from host.events.document import LeagueError, pairing_state, player, round_seconds
from host.types import Msg

KEEP: Any = type("Keep", (), {"__repr__": lambda self: "KEEP"})()   # a setting left as it is
SETTINGS = ("cap", "start_at", "checkin_minutes", "no_show_minutes", "open_decklists")
RUNNING_SETTINGS = ("no_show_minutes", "open_decklists")     # may change while the event runs


def _err(e: R.RegistrationError) -> LeagueError:
    return LeagueError(e.key, **e.params)


def reg(d: dict) -> dict | None:
    """The league's registration, None for a league without cap, start or check-in."""
    return d.get("registration") or None


def has_checkin(d: dict) -> bool:
    r = reg(d)
    return r is not None and r.get("checkin_minutes") is not None


def checkin_open(d: dict, now: float) -> bool:
    r = reg(d)
    return r is not None and R.checkin_open(r, now)


def checked_in(d: dict, user_id: int) -> bool:
    r = reg(d)
    e = R.entry(r, user_id) if r is not None else None
    return e is not None and e.get("checked_in_at") is not None


def waiting(d: dict) -> list[int]:
    """The waiting list, first in line first (empty without a registration)."""
    r = reg(d)
    return [] if r is None else R.waiting(r)


def place(d: dict, user_id: int) -> int | None:
    """A waiting player's place on the waiting list (1: next to move up), else None."""
    r = reg(d)
    return None if r is None else R.place_in_line(r, user_id)


def _add_player(d: dict, user_id: int, name: str) -> None:
    if player(d, user_id) is None:
        d["players"].append({"id": int(user_id), "name": name, "status": "active"})


def _name(d: dict, user_id: int) -> str:
    p = player(d, user_id)
    e = R.entry(reg(d), user_id) if reg(d) is not None else None
    return (p or e or {}).get("name") or str(user_id)


# ---------------------------------------------------------------------------- settings
def settings(d: dict) -> dict:
    """The event settings as they stand: cap, start_at, checkin_minutes, no_show_minutes,
    open_decklists."""
    r = reg(d) or {}
    return {"cap": r.get("cap"), "start_at": r.get("start_at"), "checkin_minutes": r.get("checkin_minutes"),
            "no_show_minutes": d.get("no_show_minutes"), "open_decklists": bool(d.get("open_decklists"))}


def configure(d: dict, status: str, now: float, **changes: Any) -> dict:
    """``/league-admin settings``: change the given settings (:data:`SETTINGS`; a value of None
    clears one; :data:`KEEP`, or leaving it out, keeps it).  Only during sign-up.  Returns
    ``{"changed": [setting, …], "moved": [user ids moved up from the waiting list]}`` — raising or
    clearing the cap moves waiting players up, first in line first.  While the event runs only
    :data:`RUNNING_SETTINGS` may change.

    Rules: a cap is at least 2 and not below the players already registered; the start is in the
    future; check-in needs a start; minutes are whole numbers, at least 1."""
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise TypeError(f"unknown settings: {sorted(unknown)}")
    old = settings(d)
    new = dict(old)
    new.update({k: v for k, v in changes.items() if v is not KEEP})
    changed = [k for k in SETTINGS if new[k] != old[k]]
    # while the event runs, the no-show time and open decklists may still change; the rest is
    # for sign-up (who plays, and when it starts, are settled by then)
    if status != "signup" and (status != "running" or set(changed) - set(RUNNING_SETTINGS)):
        raise LeagueError("events.reg.err.settings_started")
    if new["no_show_minutes"] is not None:
        try:
            R._minutes(new["no_show_minutes"])
        except R.RegistrationError as e:
            raise _err(e) from None
    if status == "running":
        d["no_show_minutes"] = new["no_show_minutes"]
        d["open_decklists"] = bool(new["open_decklists"])
        return {"changed": changed, "moved": []}
    if new["start_at"] is not None and "start_at" in changed and new["start_at"] <= now:
        raise LeagueError("events.reg.err.start_past", at=int(new["start_at"]))
    r = reg(d)
    if r is None and any(new[k] is not None for k in ("cap", "start_at", "checkin_minutes")):
        r = R.new(cap=None, signup_until=None, start_at=None, checkin_minutes=None)
        for p in d["players"]:
            if p["status"] == "active":
                r["entries"].append({"id": p["id"], "name": p.get("name", ""), "status": "registered",
                                     "signed_up_at": None, "checked_in_at": None, "checked_in_by": None,
                                     "dropped_at": None})
    moved: list[int] = []
    if r is not None:
        try:   # the same checks as a new registration
            R.new(cap=new["cap"], signup_until=None, start_at=new["start_at"], checkin_minutes=new["checkin_minutes"])
        except R.RegistrationError as e:
            raise _err(e) from None
        if new["cap"] is not None and len(R.registered(r)) > new["cap"]:
            raise LeagueError("events.reg.err.cap_below", cap=new["cap"], n=len(R.registered(r)))
        if "start_at" in changed or "checkin_minutes" in changed:
            d.pop("checkin_told", None)                   # a new window is told when it opens
        if "start_at" in changed:
            if new["start_at"] is not None:
                d["signup_until"] = new["start_at"]           # sign-up runs until the start
            elif d.get("signup_until") == old["start_at"]:
                d["signup_until"] = None
        r.update(cap=new["cap"], start_at=new["start_at"], checkin_minutes=new["checkin_minutes"])
        for uid in R.waiting(r):
            if new["cap"] is not None and len(R.registered(r)) >= new["cap"]:
                break
            e = R.entry(r, uid)
            e["status"] = "registered"            # type: ignore[index]
            _add_player(d, uid, e["name"])        # type: ignore[index]
            moved.append(uid)
        d["registration"] = r
    d["no_show_minutes"] = new["no_show_minutes"]
    d["open_decklists"] = bool(new["open_decklists"])
    return {"changed": changed, "moved": moved}


# ---------------------------------------------------------------------------- sign-up and leaving
def sign_up(d: dict, user_id: int, name: str, now: float) -> str:
    """A sign-up to a league with a registration: ``"registered"`` (in ``d["players"]``) or
    ``"waiting"`` (on the waiting list only)."""
    r = reg(d)
    try:
        st = R.sign_up(r, user_id, name, now)     # type: ignore[arg-type]
    except R.RegistrationError as e:
        raise _err(e) from None
    if st == "registered":
        _add_player(d, user_id, name)
    return st


def leave(d: dict, user_id: int, now: float) -> int | None:
    """A player (registered or waiting) leaves before the start; returns who moved up from the
    waiting list into the free place, if anyone."""
    r = reg(d)
    if r is None or R.entry(r, user_id) is None:
        raise LeagueError("leagues.err.not_member")
    try:
        moved = R.leave(r, user_id, now)
    except R.RegistrationError as e:
        raise _err(e) from None
    p = player(d, user_id)
    if p is not None:
        d["players"].remove(p)
    if moved is not None:
        _add_player(d, moved, R.entry(r, moved)["name"])   # type: ignore[index]
    return moved


def drop(d: dict, user_id: int, now: float) -> None:
    """After the start: the registration says the player dropped too (never an error: the
    league's own drop decides)."""
    r = reg(d)
    if r is not None and R.started(r) and R.status(r, user_id) == "active":
        R.drop(r, user_id, now)


# ---------------------------------------------------------------------------- check-in and the start
def check_in(d: dict, status: str, user_id: int, now: float, *, by_organiser: bool = False) -> str:
    """A signed-up player checks in (or the organiser checks them in, also outside the window);
    returns their status, ``"registered"`` or ``"waiting"``."""
    if status != "signup":
        raise LeagueError("events.err.started")
    r = reg(d)
    if r is None or r.get("checkin_minutes") is None:
        raise LeagueError("events.err.no_checkin")
    try:
        return R.check_in(r, user_id, now, by_organiser=by_organiser)
    except R.RegistrationError as e:
        raise _err(e) from None


def admit(d: dict, now: float) -> None:
    """At the start (:func:`host.leagues.admit`): only checked-in players play; registered ones
    who did not check in are left out, waiting-list players who checked in fill free places.
    ``d["players"]`` becomes the event's players in sign-up order."""
    r = reg(d)
    if r is None or R.started(r):
        return
    try:
        ins = R.close(r, now)
    except R.RegistrationError as e:
        if e.key == "events.err.too_few":
            raise LeagueError("leagues.err.too_few", **e.params) from None
        raise _err(e) from None
    kept = {p["id"]: p for p in d["players"]}
    d["players"] = [kept.get(uid) or {"id": uid, "name": R.entry(r, uid)["name"], "status": "active"}  # type: ignore[index]
                    for uid in ins]


def checkin_due(d: dict, status: str, now: float) -> bool:
    """Whether the bot should now say that check-in is open (once, while it is)."""
    return status == "signup" and checkin_open(d, now) and not d.get("checkin_told")


# ---------------------------------------------------------------------------- decklists
def deck_engine(d: dict) -> Any:
    """The engine whose cards the event's decks are made of: the server's card set version the
    event pinned (``d["cards"]``, loaded by the league service), else the shipped cards."""
    from host.engines import engine_named

    return engine_named(d["game"], d.get("cards"))


def deck_hash(d: dict, spec: Any) -> str:
    """The hash of a deck's contents: SHA-256 of the game's canonical deck code."""
    code = deck_engine(d).decks.encode(spec)
    return hashlib.sha256(f"{d['game']}:{code}".encode("utf-8")).hexdigest()


def locked_deck(d: dict, user_id: int) -> dict | None:
    """The deck ``user_id`` registered for this event, or None."""
    return (d.get("decklists") or {}).get(str(int(user_id)))


def play_deck(locked: dict) -> Any:
    """What a match takes for a locked deck: the ready-made deck's id, or the spec."""
    return locked.get("ready") or locked["spec"]


def spec_of(d: dict, deck: Any) -> Any:
    """A deck as :meth:`host.decks.DeckBook.for_play` gives it (a ready-made id or a spec) → its spec."""
    if isinstance(deck, str):
        return deck_engine(d).decks.ready()[deck]["spec"]
    return deck


def register_deck(d: dict, status: str, user_id: int, deck: Any, now: float, *, kind: str,
                  label: str | None) -> dict:
    """A player registers their deck (at check-in, or during sign-up): it is locked for the event
    — stored with the hash of its contents and used for every event match.  ``deck``: a ready-made
    deck id or a legal spec; ``kind``: ``"saved"``, ``"ready"`` or ``"code"``; ``label``: the
    saved deck's name (None otherwise)."""
    if status != "signup":
        raise LeagueError("events.reg.err.deck_started")
    if d.get("limited"):          # a sealed or draft event: the deck is built from the pool after the start
        raise LeagueError("events.limited.err.no_register", format=Msg(f"events.limited.format.{d['limited']}"))
    r = reg(d)
    if player(d, user_id) is None and (r is None or R.entry(r, user_id) is None):
        raise LeagueError("events.err.not_signed_up")
    if locked_deck(d, user_id) is not None:
        raise LeagueError("events.reg.err.deck_locked")
    spec = spec_of(d, deck)
    entry = {"spec": spec, "ready": deck if isinstance(deck, str) else None, "kind": kind,
             "label": label, "hash": deck_hash(d, spec), "at": now}
    d.setdefault("decklists", {})[str(int(user_id))] = entry
    return entry


def same_deck(d: dict, user_id: int, deck: Any) -> bool:
    """Whether ``deck`` (a ready-made id or a spec) is the deck ``user_id`` locked."""
    locked = locked_deck(d, user_id)
    return locked is not None and deck_hash(d, spec_of(d, deck)) == locked["hash"]


def top_cut_started(d: dict) -> bool:
    """Whether the event's top cut has begun: a bracket after the Swiss rounds
    (:mod:`host.events.stages`, ``bracket["stage"] == "cut"``).  An elimination of everyone from
    the start is no top cut: its lists open at the end."""
    bracket = d.get("bracket")
    return isinstance(bracket, dict) and bracket.get("stage") == "cut"


def decklists_public(d: dict, status: str) -> bool:
    """Lists are public only with ``open_decklists``, from the top cut on, and once the event
    has ended; never before."""
    if not d.get("open_decklists"):
        return False
    return top_cut_started(d) or status in ("finished", "closed")


def may_see_decklist(d: dict, status: str, viewer: int, owner: int, organiser: bool) -> bool:
    """A list reaches its player and the organisers at any time, everyone else only once the
    lists are public (:func:`decklists_public`)."""
    return organiser or int(viewer) == int(owner) or decklists_public(d, status)


def deck_label(d: dict, entry: dict, locale: str) -> str:
    """A registered deck by the name its player knows: a saved deck's name, a ready-made deck's
    title, or "deck code"."""
    if entry.get("kind") == "saved" and entry.get("label"):
        return str(entry["label"])
    if entry.get("kind") == "limited":
        return i18n.t("events.limited.deck_label", locale, draft=entry.get("draft", "?"))
    if entry.get("ready"):
        from host.options_text import deck_name

        return deck_name(deck_engine(d), entry["ready"], locale)
    return i18n.t("events.reg.deck.code", locale)


def deck_sections(d: dict, spec: Any, locale: str) -> list[tuple[str, list[tuple[str, int]]]]:
    """A deck's sections with card names (never ids) in ``locale``: [(title, [(card, count)])]."""
    from host.decks import card_name

    engine = deck_engine(d)
    out = []
    for section in engine.decks.describe(spec).get("sections", []):
        title = section["title"].get(locale) or section["title"].get("en", "")
        out.append((title, [(card_name(d["game"], cid, locale, engine=engine), int(n)) for cid, n in section["cards"]]))
    return out


def decklist_text(d: dict, user_id: int, locale: str, words: Callable[[Any], str] = str) -> str:
    """One player's registered list in words: name, deck, hash, then each section's cards (a
    section's title in bold).  ``words``: how a player's, deck's or card's name is made safe for
    the message (a front end's own; the markdown of the titles is the bot's)."""
    entry = locked_deck(d, user_id)
    name = words(_name(d, user_id))
    if entry is None:
        return i18n.t("events.reg.decklist.none", locale, name=name)
    lines = [i18n.t("events.reg.decklist.head", locale, name=name, deck=words(deck_label(d, entry, locale)),
                    hash=entry["hash"][:12], at=int(entry.get("at") or 0))]
    sep = i18n.t("core.list_sep", locale)
    for title, cards in deck_sections(d, entry["spec"], locale):
        lines.append(f"**{words(title)}**")
        lines.append(sep.join(i18n.t("events.reg.decklist.card", locale, card=words(c), n=n) for c, n in cards) or "-")
    if entry.get("kind") == "limited":       # a sealed or draft event: the pool it was built from
        lines.append(f"**{words(i18n.t('events.limited.pool', locale, n=len(entry.get('pool') or [])))}**")
        lines.append(sep.join(i18n.t("events.reg.decklist.card", locale, card=words(c), n=n)
                              for c, n in pool_cards(d, entry, locale)) or "-")
    return "\n".join(lines)


def pool_cards(d: dict, entry: dict, locale: str) -> list[tuple[str, int]]:
    """A limited decklist entry's pool by card name (in the order first dealt), with counts."""
    from collections import Counter

    from host.decks import card_name

    engine = deck_engine(d)
    counts = Counter(str(c) for c in entry.get("pool") or [])
    return [(card_name(d["game"], cid, locale, engine=engine), n) for cid, n in counts.items()]


def decklists_table(d: dict, locale: str) -> tuple[list[str], list[list[Any]]]:
    """``decklists.csv`` (:mod:`host.events.exports`): one row per card of each registered deck —
    player, deck, hash, section, card (by name, in the reader's language), count; a player without
    a registered deck has one row with the deck empty."""
    header = [i18n.t(f"events.reg.csv.col.{k}", locale) for k in ("name", "deck", "hash", "section", "card", "count")]
    rows: list[list[Any]] = []
    seen: list[int] = [p["id"] for p in d.get("players", [])]
    seen += [int(u) for u in (d.get("decklists") or {}) if int(u) not in seen]
    for uid in seen:
        entry = locked_deck(d, uid)
        name = _name(d, uid)
        if entry is None:
            rows.append([name, "", "", "", "", ""])
            continue
        label = deck_label(d, entry, locale)
        for title, cards in deck_sections(d, entry["spec"], locale):
            rows += [[name, label, entry["hash"], title, card, n] for card, n in cards]
        if entry.get("kind") == "limited":
            title = i18n.t("events.limited.pool", locale, n=len(entry.get("pool") or []))
            rows += [[name, label, entry["hash"], title, card, n] for card, n in pool_cards(d, entry, locale)]
    return header, rows


# ---------------------------------------------------------------------------- no-shows
def started_at(d: dict, p: dict) -> float | None:
    """When pairing ``p`` was paired: the trail's ``paired`` entry that lists it (every write
    records one), else a deadline less the round's length; None when neither says."""
    for e in reversed(d.get("trail") or []):
        if e.get("what") != "events.trail.paired":
            continue
        made = (e.get("after") or {}).get("pairings") or []
        if any(x.get("pairing") == p["id"] for x in made):
            return float(e["at"])
    span = round_seconds(d)
    if span and p.get("deadline") is not None:
        return float(p["deadline"]) - span
    return None


def best_of(d: dict, p: dict) -> int:
    """Best of how many games pairing ``p`` is played (:func:`host.events.bestof.stage_best_of`)."""
    return int(p.get("best_of") or bestof.stage_best_of(d, p))


def no_show(d: dict, p: dict, by: int, now: float, *, begun: bool, challenger: int | None) -> str | None:
    """A no-show claim by ``by`` (who showed up) in pairing ``p`` of the current round, if the
    league has the no-show rule: from ``no_show_minutes`` after the pairing was made (its round
    began: :func:`started_at`), a game win —
    in a best-of-one that decides the match; from twice that, the match.  Returns ``"final"``
    (decided), ``"noted"`` (a game claim stored in a longer match), or None when the rule does
    not apply (no rule, a game has begun, or the deadline claim is open) and the ordinary
    deadline claim is asked instead.  Refused: before the time, and while the opponent's own
    challenge for this pairing waits for the claimant (they did show up)."""
    minutes = d.get("no_show_minutes")
    if not minutes or begun:
        return None
    started = started_at(d, p)
    if started is None:
        return None
    other = p["b"] if by == p["a"] else p["a"]
    kind = R.no_show_claim(started, now, int(minutes), begun)
    deadline_open = p.get("deadline") is not None and now >= p["deadline"]
    if kind is None:
        if deadline_open:
            return None
        raise LeagueError("events.reg.err.no_show_early", at=int(started + int(minutes) * 60))
    if challenger is not None and int(challenger) == int(other):
        raise LeagueError("events.reg.err.challenged", match_id=p.get("match") or "-")
    was = p.get("no_show") or {}
    if was.get("by") == by and was.get("kind") == kind:
        raise LeagueError("leagues.err.already_claimed")
    side = "a" if by == p["a"] else "b"
    p["no_show"] = {"by": int(by), "kind": kind, "at": now}
    if kind == "game" and best_of(d, p) > 1:     # one game won in the series (best of 3 or 5)
        return bestof.forfeit_game(d, p, int(by))
    p["result"], p["how"], p["held"] = side, "forfeit", False
    p["games"] = [side] if kind == "game" else []
    return "final"


# ---------------------------------------------------------------------------- match exports
def export_access(d: dict, status: str, viewer: int, organiser: bool, seats: list[Any]) -> str:
    """Who gets an event match's full record (seed, every command, both decks): ``"full"`` for
    the organisers, and for the match's own players once the event has ended; ``"public"``
    (what everyone saw) for anyone else."""
    if organiser:
        return "full"
    if status in ("finished", "closed") and int(viewer) in {int(u) for u in seats if u is not None}:
        return "full"
    return "public"


PUBLIC_KEYS = ("format", "id", "game", "status", "seats", "rated", "league", "result", "created_at", "updated_at")


def public_export(full: dict, public_log: list[dict]) -> dict:
    """An event match's public record: no seed, no decks, and only the commands everyone saw
    (``public_log``: :meth:`host.queries.Queries.log`'s entries)."""
    out = {k: full.get(k) for k in PUBLIC_KEYS}
    out["options"] = {k: v for k, v in (full.get("options") or {}).items() if k != "decks"}
    out["commands"] = [{"seq": e["seq"], "seat": e["seat"], "command": e["command"]} for e in public_log]
    out["public"] = True
    return out


# ---------------------------------------------------------------------------- words
MENTIONS_SHOWN = 30      # players named on the league message per list (an embed holds 4,096 characters)


def _mentions(ids: list[int], locale: str) -> str:
    shown = " ".join(f"<@{u}>" for u in ids[:MENTIONS_SHOWN])
    more = len(ids) - MENTIONS_SHOWN
    return shown + (" " + i18n.t("events.reg.embed.more", locale, n=more) if more > 0 else "")


def summary_lines(d: dict, status: str, locale: str, now: float) -> list[str]:
    """The league message's lines about the event settings (none for a league without them)."""
    s = settings(d)
    r = reg(d)
    out: list[str] = []
    t = i18n.t
    if s["start_at"] is not None:
        out.append(t("events.reg.embed.start", locale, at=int(s["start_at"])))
    if r is not None and status == "signup":
        if s["cap"] is not None:
            out.append(t("events.reg.embed.cap", locale, n=len(R.registered(r)), cap=s["cap"], waiting=len(R.waiting(r))))
        if s["checkin_minutes"] is not None:
            opens, _ = R.checkin_window(r)     # type: ignore[misc]
            n = sum(1 for e in r["entries"] if e.get("checked_in_at") is not None)
            key = "events.reg.embed.checkin_open" if R.checkin_open(r, now) else "events.reg.embed.checkin"
            out.append(t(key, locale, opens=int(opens), n=n))
        line = R.waiting(r)
        if line:
            out.append(t("events.reg.embed.waiting", locale, players=_mentions(line, locale)))
    if r is not None and status != "signup":
        left = [e["id"] for e in r["entries"] if e["status"] == "no_checkin"]
        if left:
            out.append(t("events.reg.embed.no_checkin", locale, players=_mentions(left, locale)))
    if s["no_show_minutes"] is not None:
        out.append(t("events.reg.embed.no_show", locale, minutes=s["no_show_minutes"], twice=2 * s["no_show_minutes"]))
    fmt = d.get("limited")
    if fmt in ("sealed", "draft"):      # a sealed or draft event (host/events/limited.py)
        if status == "signup":
            out.append(t(f"events.limited.embed.{fmt}", locale))
        else:
            players = [p["id"] for p in d.get("players", [])]
            built = sum(1 for u in players if str(int(u)) in (d.get("decklists") or {}))
            out.append(t(f"events.limited.embed.{fmt}_running", locale, built=built, n=len(players)))
    if d.get("decklists") or s["open_decklists"]:
        out.append(t("events.reg.embed.decklists_open" if s["open_decklists"] else "events.reg.embed.decklists_closed",
                     locale, n=len(d.get("decklists") or {})))
    return out


def has_decklists(d: dict) -> bool:
    """Does the event's game use decks (the card games), so that its players register one?
    SQUARES has none: its events have no decklists to register, show or open."""
    from host.decks import deck_games

    return d.get("game") in deck_games()


def settings_lines(d: dict, locale: str) -> list[str]:
    """Every setting in words (the answer of ``/league-admin settings``); the decklists only
    for a game that has decks."""
    s = settings(d)
    t = i18n.t
    out = [t("events.reg.set.cap", locale, cap=s["cap"]) if s["cap"] is not None else t("events.reg.set.cap_none", locale),
           t("events.reg.set.start", locale, at=int(s["start_at"])) if s["start_at"] is not None
           else t("events.reg.set.start_none", locale),
           t("events.reg.set.checkin", locale, minutes=s["checkin_minutes"]) if s["checkin_minutes"] is not None
           else t("events.reg.set.checkin_none", locale),
           t("events.reg.set.no_show", locale, minutes=s["no_show_minutes"], twice=2 * s["no_show_minutes"])
           if s["no_show_minutes"] is not None else t("events.reg.set.no_show_none", locale),
           t("events.reg.set.decklists_open" if s["open_decklists"] else "events.reg.set.decklists_closed", locale)]
    if not has_decklists(d):
        return out[:-1]
    fmt = d.get("limited")
    out.append(t("events.limited.set." + (fmt if fmt in ("sealed", "draft") else "none"), locale))
    return out


# ---------------------------------------------------------------------------- the trail
def _entry(kind: str, at: float, by: int | None, params: dict, before: Any = None, after: Any = None) -> dict:
    return {"at": float(at), "by": by, "what": f"events.reg.trail.{kind}", "params": params,
            "before": before, "after": after}


def trail_changes(before: dict, after: dict, *, at: float, by: int | None, act: str | None
                  ) -> tuple[list[dict], set[int], set[int]]:
    """The trail entries of one write about the event (:func:`host.events.trail.changes` adds
    them): settings changed, a place on the waiting list, a move up, a check-in (the player's or
    the organiser's), a deck registered (its hash, never its cards), a player left out for no
    check-in or admitted from the waiting list at the start, a no-show claim.  Also returns the
    players and the pairings these entries already tell, so the trail does not tell them twice
    (a move up is not "signed up", a player left out is not "left")."""
    out: list[dict] = []
    told_players: set[int] = set()
    told_pairings: set[int] = set()
    s0, s1 = settings(before), settings(after)
    for k in SETTINGS:
        if s0[k] == s1[k]:
            continue
        short = {"start_at": "start", "checkin_minutes": "checkin", "no_show_minutes": "no_show",
                 "open_decklists": "open"}.get(k, k)
        value = s1[k]
        if k == "open_decklists":
            out.append(_entry(f"set.{short}_{'on' if value else 'off'}", at, by, {}, s0[k], value))
        elif value is None:
            out.append(_entry(f"set.{short}_off", at, by, {}, s0[k], None))
        else:
            out.append(_entry(f"set.{short}", at, by, {"value": int(value)}, s0[k], value))
    r0, r1 = reg(before) or {"entries": []}, reg(after) or {"entries": []}
    old = {e["id"]: e for e in r0["entries"]}
    new = {e["id"]: e for e in r1["entries"]}
    line = [e["id"] for e in r1["entries"] if e["status"] == "waiting"]
    for uid, e in new.items():
        was = old.get(uid)
        who = {"player": uid, "name": e.get("name", "")}
        if was is None and e["status"] == "waiting":
            out.append(_entry("waitlisted", at, by, {**who, "place": line.index(uid) + 1}))
            continue
        if was is None:
            continue
        if was["status"] == "waiting" and e["status"] == "registered":
            out.append(_entry("moved_up", at, by if act == "settings" else None, who))
            told_players.add(uid)
        elif was["status"] == "registered" and e["status"] == "no_checkin":
            out.append(_entry("no_checkin", at, None, who))
            told_players.add(uid)
        elif was["status"] == "waiting" and e["status"] == "active":
            out.append(_entry("filled", at, None, who))
            told_players.add(uid)
        if was.get("checked_in_at") is None and e.get("checked_in_at") is not None:
            kind = "checkin_organiser" if e.get("checked_in_by") == "organiser" else "checkin"
            out.append(_entry(kind, at, by, {**who, "status": e["status"]}))
    for uid, was in old.items():
        if uid not in new and was["status"] == "waiting":
            out.append(_entry("waitlist_removed" if act == "remove" else "waitlist_left", at, by,
                              {"player": uid, "name": was.get("name", "")}))
    decks0, decks1 = before.get("decklists") or {}, after.get("decklists") or {}
    for uid, entry in decks1.items():
        if uid not in decks0:
            out.append(_entry("deck", at, by, {"player": int(uid), "name": _name(after, int(uid)),
                                               "hash": entry["hash"][:12]}, None, {"hash": entry["hash"]}))
    was_pairings = {p["id"]: p for p in before.get("pairings", [])}
    for q in after.get("pairings", []):
        p = was_pairings.get(q["id"])
        if p is None or not q.get("no_show") or q.get("no_show") == p.get("no_show"):
            continue
        ns = q["no_show"]
        out.append(_entry(f"no_show_{ns['kind']}", at, by, {"pairing": q["id"], "round": q["round"],
                                                           "a": q["a"], "b": q["b"]},
                          pairing_state(p), pairing_state(q)))
        told_pairings.add(q["id"])
    return out, told_players, told_pairings
