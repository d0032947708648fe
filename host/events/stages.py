"""A league's stages: a Swiss (or round robin) into a top cut, and elimination events — pure
and synchronous, over the league document (:mod:`host.events.document`); :mod:`host.leagues`
calls in here.

Keys of a league made since events have stages (``d["events"] == 1``; a league stored without
it keeps its old behaviour: Swiss rounds by default ``ceil(log2 n)``, never a cut):

* ``format``: ``rr``, ``swiss``, ``single`` (single elimination of everyone) or ``double``
  (double elimination: winners' and losers' brackets, a grand final);
* ``cut``: the top cut after the Swiss rounds, 0 (none), 2, 4 or 8; None when the organiser
  gave none (then :func:`plan` takes MTR Appendix E, :func:`host.events.scoring.swiss_defaults`);
* ``seeding``: how an elimination of everyone is seeded, ``rating`` (the server rating,
  unrated players last, ties in sign-up order) or ``random`` (a draw from the stored seed);
* ``reset``: double elimination, whether the grand final is played again when the player from
  the losers' bracket wins it (default True);
* ``draw_seed``: the league's id and a secret part (the service's ``start_args``), stored at the
  start; every random draw of the event (a Swiss round's pairing, the cut's tie, a random
  seeding, who moves first in a series) is drawn from a seed derived from it, so a draw can be
  replayed from the document but not worked out beforehand from the public league number;
* ``bracket``: None until a bracket starts, then ``{"stage": "cut"|"elimination", "kind",
  "structure" (:func:`host.events.bracket.build`), "results" ({match id: {"winner", "loser",
  "score"}}, kept in step with the pairings), "base" (the league round before its first round),
  "draw" (the cut's tie-break draw, or None), "void" (pairings dropped by a correction)}``.

Rules:

* **Defaults** (:func:`plan`, at the start).  A Swiss whose organiser gave no rounds plays
  ``swiss_defaults(n)`` rounds and, unless the organiser chose a cut, takes that cut; a field of
  2–8 (``swiss_defaults`` gives no rounds) plays a single elimination of everyone straight away,
  seeded by ``seeding``; with a cut chosen it plays ``ceil(log2 n)`` rounds into that cut.
  Rounds given: those rounds, and the cut chosen (none when none was).
* **The cut** (:func:`start_cut`): when the last round is complete, the top ``cut`` players
  still active in the standings (:func:`host.leagues.table`, which the caller passes in;
  :func:`host.events.scoring.cut`: an exact tie across the cut line is broken by a random draw
  from ``f"{draw_seed}-cut"``, recorded in ``bracket["draw"]``) go into a single elimination
  seeded by the standings (1 v 8, 4 v 5, 2 v 7, 3 v 6).
* **Pairings** (:func:`advance`): every match of the bracket whose two players are known is
  paired at once as a league pairing with ``"stage"`` and ``"bracket"`` (the match id); its
  league round is ``base`` plus the match's depth (its first round 1; a match one round after
  the latest match it waits for).  A bye of the bracket is no pairing.  A player who no longer
  plays (dropped, removed) loses a new pairing at once (``how`` ``"drop"``).
* **No draws**: a drawn bot match is played again (the pairing stays open, the drawn match is
  remembered so it never counts twice); a draw or a double forfeit reported or decided by anyone
  is refused (:func:`refuse_draw`).
* **Corrections**: an organiser's new result for an elimination pairing recomputes the bracket;
  a later pairing whose players are no longer the match's, or whose result no longer fits
  (``state()["invalid"]``), is taken out of the pairings into ``bracket["void"]`` with its
  result, and the match is paired again with its players now.
* **The end**: the event finishes when the bracket has a champion.  The final standings
  (:func:`final_rows`) list the bracket's placings first (champion, runner-up, 3rd–4th …;
  double elimination by the round a player went out), then the rest in the standings' order.
"""
from __future__ import annotations

import math

from data import i18n
from host.events import bracket as B
from host.events import scoring
from host.events.document import PLAYED, LeagueError, active_ids, add_pairing
from host.types import Msg

ELIMINATION = ("single", "double")
CUTS = (0, 2, 4, 8)
SEEDINGS = ("rating", "random")
STAGES = ("cut", "elimination")


def is_event(d: dict) -> bool:
    return bool(d.get("events"))


def own_rounds(d: dict) -> int:
    """The rounds before any bracket: the round robin's schedule, or the Swiss rounds."""
    if d["format"] == "rr":
        return len(d.get("schedule") or [])
    return int(d.get("rounds") or 0)


def total_rounds(d: dict) -> int:
    """Every round of the league: the round robin's or the Swiss rounds, then the bracket's."""
    return own_rounds(d) + bracket_rounds(d)


def default_swiss_rounds(n: int) -> int:
    """The Swiss rounds of a league whose organiser gave none: ``ceil(log2 n)``, at least 1."""
    return max(1, math.ceil(math.log2(max(2, n))))


# ---------------------------------------------------------------------------- the start
def plan(d: dict, n: int) -> bool:
    """Fix rounds and cut at the start for ``n`` players; True when the event is a bracket of
    everyone from the start (no rounds before it)."""
    fmt = d["format"]
    if fmt in ELIMINATION:
        _fits(fmt, n)
        d["rounds"], d["cut"] = 0, 0
        return True
    if fmt != "swiss":
        return False
    if not is_event(d):
        if not d["rounds"]:
            d["rounds"] = default_swiss_rounds(n)
        return False
    chosen = d.get("cut") is not None
    if d["rounds"]:                 # the organiser's rounds: their cut, or none
        d["cut"] = int(d.get("cut") or 0)
        return False
    rounds, top = scoring.swiss_defaults(n)
    if not chosen and rounds == 0:
        d["rounds"], d["cut"] = 0, 0
        return True
    d["rounds"] = rounds or default_swiss_rounds(n)
    d["cut"] = int(d["cut"]) if chosen else top
    return False


def seed_key(d: dict, what: str) -> str:
    return f"{d.get('draw_seed', '')}-{what}"


def seeded(d: dict, ids: list[int], ratings: dict[int, float] | None) -> list[int]:
    """Everyone in seeded order for an elimination from the start."""
    if d.get("seeding") == "random":
        return B.seeding(ids, by="random", seed=seed_key(d, "seeding"))
    return B.seeding(ids, by="rating", ratings=dict(ratings or {}))


def _fits(kind: str, n: int) -> None:
    """A bracket of ``kind`` takes ``n`` players, or LeagueError (single 2–128, double 3–64)."""
    low, high = B.SIZES[kind]
    if not low <= n <= high:
        raise LeagueError("events.bracket.err.size", kind=Msg(f"leagues.format.{kind}"), min=low, max=high, n=n)


def _build(d: dict, seeds: list[int], kind: str) -> dict:
    _fits(kind, len(seeds))
    return B.build(seeds, kind=kind, reset=bool(d.get("reset", True)))


def open_elimination(d: dict, now: float, ratings: dict[int, float] | None = None) -> list[dict]:
    """The start of an event that is a bracket of everyone: build it and pair its first matches."""
    kind = d["format"] if d["format"] in ELIMINATION else "single"
    structure = _build(d, seeded(d, active_ids(d), ratings), kind)
    return _open(d, structure, "elimination", None, now)


def _open(d: dict, structure: dict, stage: str, draw: dict | None, now: float) -> list[dict]:
    d["bracket"] = {"stage": stage, "kind": structure["kind"], "structure": structure, "results": {},
                    "base": own_rounds(d) if stage == "cut" else 0, "draw": draw, "void": []}
    return advance(d, now)[1]


def cut_due(d: dict) -> bool:
    return is_event(d) and not d.get("bracket") and int(d.get("cut") or 0) > 0 and len(active_ids(d)) >= 2


def start_cut(d: dict, now: float, rows: list[scoring.Row]) -> tuple[str, list[dict]]:
    """The last round is complete: the top cut (module doc) from the league's standings ``rows``
    (:func:`host.leagues.table`).  ``("paired", pairings)``."""
    chosen, draw = scoring.cut(rows, min(int(d["cut"]), len(active_ids(d))), seed_key(d, "cut"))
    seeds = [r.user_id for r in chosen]
    if len(seeds) < 2:
        return "finished", []
    paired = _open(d, _build(d, seeds, "single"), "cut", draw, now)
    return ("finished" if champion(d) is not None else "paired"), paired


# ---------------------------------------------------------------------------- structure
def _feeders(slot: dict) -> str | None:
    return slot.get("winner") or slot.get("loser")


def depths(structure: dict) -> dict[str, int]:
    """Each match's round in the league: 1 for a first-round match, else one more than the
    latest match it waits for (the reset of a grand final one more than the grand final)."""
    out: dict[str, int] = {}
    matches = structure["matches"]

    def depth(mid: str) -> int:
        if mid not in out:
            if mid == B.RESET:
                out[mid] = depth(B.GRAND_FINAL) + 1
            else:
                fed = [f for f in map(_feeders, matches[mid]["slots"]) if f]
                out[mid] = 1 + max((depth(f) for f in fed), default=0)
        return out[mid]

    for mid in matches:
        depth(mid)
    return out


def bracket_rounds(d: dict) -> int:
    """The rounds of the bracket (planned from the cut before it exists)."""
    b = d.get("bracket")
    if b:
        return max(depths(b["structure"]).values())
    cut = int(d.get("cut") or 0)
    if is_event(d) and cut > 1 and own_rounds(d):
        return (cut - 1).bit_length()
    return 0


def state(d: dict) -> dict:
    b = d["bracket"]
    return B.state(b["structure"], b["results"])


def champion(d: dict) -> int | None:
    return state(d)["champion"] if d.get("bracket") else None


# ---------------------------------------------------------------------------- results and pairings
def _score(p: dict) -> str | None:
    """The game score of a decided pairing, winner first ("1–0": one game; a forfeit: none)."""
    res = p["result"]
    games = list(p.get("games") or [])
    if not games and p.get("how") in PLAYED:
        games = [res]
    if not games:
        return None
    other = "b" if res == "a" else "a"
    return f"{games.count(res)}–{games.count(other)}"


def _results(d: dict) -> dict[str, dict]:
    out = {}
    for p in d["pairings"]:
        if p.get("bracket") and p["result"] in ("a", "b") and not p.get("held"):
            winner = p[p["result"]]
            out[p["bracket"]] = {"winner": winner, "loser": p["b"] if winner == p["a"] else p["a"],
                                 "score": _score(p)}
    return out


def _sync(d: dict) -> list[dict]:
    """Bring ``bracket["results"]`` in step with the pairings; a pairing that no longer fits its
    match (its players changed, or its result is invalid) is voided.  Returns the voided."""
    b = d["bracket"]
    voided = []
    while True:
        results = _results(d)
        st = B.state(b["structure"], results)
        bad = []
        for p in d["pairings"]:
            mid = p.get("bracket")
            if not mid:
                continue
            m = st["matches"].get(mid)
            if m is None or m["status"] not in ("ready", "done") or {p["a"], p["b"]} != set(m["players"]) \
                    or mid in st["invalid"]:
                bad.append(p)
        if not bad:
            b["results"] = results
            return voided
        for p in bad:
            d["pairings"].remove(p)
            p["void"] = True
            b.setdefault("void", []).append(p)
            voided.append(p)


def _pair_ready(d: dict, now: float) -> list[dict]:
    b = d["bracket"]
    st = B.state(b["structure"], b["results"])
    have = {p["bracket"] for p in d["pairings"] if p.get("bracket")}
    active = set(active_ids(d))
    deep = depths(b["structure"])
    out = []
    for mid in st["ready"]:
        if mid in have:
            continue
        a, other = st["matches"][mid]["players"]
        p = add_pairing(d, int(b["base"]) + deep[mid], a, other, now)
        p["stage"], p["bracket"] = b["stage"], mid
        if a not in active or other not in active:     # no longer playing: the other goes through
            p["result"], p["how"] = ("b" if a not in active and other in active else "a"), "drop"
        d["round"] = max(int(d["round"] or 0), p["round"])
        out.append(p)
    return out


def advance(d: dict, now: float) -> tuple[str, list[dict]]:
    """After any change: results in step, a correction's fallout voided, every match whose
    players are known paired.  ``("finished", paired)`` once there is a champion."""
    paired: list[dict] = []
    while True:
        _sync(d)
        fresh = _pair_ready(d, now)
        paired += fresh
        if not any(p["result"] is not None for p in fresh):
            break
    if champion(d) is not None:
        return "finished", paired
    return ("paired" if paired else "wait"), paired


def refuse_draw(p: dict, outcome: str) -> None:
    """An elimination match has a winner: no draw, no double forfeit."""
    if p.get("bracket") and outcome == "draw":
        raise LeagueError("events.bracket.err.draw", pairing=p["id"])
    if p.get("bracket") and outcome == "double":
        raise LeagueError("events.bracket.err.double", pairing=p["id"])


def replay(p: dict, match_id: int) -> bool:
    """A bot match of an elimination pairing was drawn: the pairing stays open, to be played
    again; the drawn match is remembered (it never counts twice).  False if already counted."""
    drawn = p.setdefault("drawn", [])
    if int(match_id) in drawn:
        return False
    drawn.append(int(match_id))
    return True


# ---------------------------------------------------------------------------- standings
def final_rows(d: dict, rows: list) -> list:
    """The standings with the bracket's placings first (module doc): for an elimination of
    everyone always, after a cut once there is a champion; places renumbered (a shared placing
    shares its place: 1, 2, 3, 3, 5 …), the rest after them in the standings' order."""
    b = d.get("bracket")
    if not b:
        return rows
    st = state(d)
    if b["stage"] == "cut" and st["champion"] is None:
        return rows
    by_id = {r.user_id: r for r in rows}
    out: list = []
    for group in st["placings"]:
        place = len(out) + 1
        for uid in group:
            if uid in by_id:
                by_id[uid].place = place
                out.append(by_id[uid])
    placed = {r.user_id for r in out}
    rest = [r for r in rows if r.user_id not in placed]
    start, prev = len(out), None
    for i, r in enumerate(rest):
        old = r.place
        r.place = rest[i - 1].place if i and old == prev else start + i + 1
        prev = old
        out.append(r)
    return out


# ---------------------------------------------------------------------------- words
def names(d: dict) -> dict[int, str]:
    return {p["id"]: p["name"] for p in d["players"]}


def _parse(mid: str) -> tuple[str, int]:
    if mid in (B.GRAND_FINAL, B.RESET):
        return "final", 1 if mid == B.GRAND_FINAL else 2
    head = mid.partition("-")[0]
    return ("winners" if head[0] == "W" else "losers"), int(head[1:])


def match_name(d: dict, mid: str, locale: str) -> str:
    """The name of a bracket match's round: 決勝, 準決勝, 勝者側2回戦, 敗者側決勝, 最終決勝 …"""
    b = d["bracket"]
    structure = b["structure"]
    last = structure["size"].bit_length() - 1
    key, r = _parse(mid)
    if key == "final":
        return i18n.t("events.pic.round.gf" if r == 1 else "events.pic.round.gf_reset", locale)
    if structure["kind"] == "single":
        left = last - r
        named = {0: "final", 1: "semi", 2: "quarter"}
        if left in named:
            return i18n.t(f"events.pic.round.{named[left]}", locale)
        return i18n.t("events.pic.round.n", locale, n=r)
    if key == "winners":
        return i18n.t("events.pic.round.w_final", locale) if r == last else \
            i18n.t("events.bracket.round.winners", locale, n=r)
    return i18n.t("events.pic.round.l_final", locale) if r == 2 * last - 2 else \
        i18n.t("events.bracket.round.losers", locale, n=r)


def view(d: dict) -> dict:
    """The bracket picture's input (:func:`host.events.bracket.view`); the renderer names the
    rounds from the catalog, so no titles are given."""
    b = d["bracket"]
    titles = dict.fromkeys(("winners", "losers", "final", "round", "semifinal", "grand_final", "reset"), "")
    return B.view(b["structure"], b["results"], names(d), titles)


def _place(first: int, last: int, locale: str) -> str:
    if first == last:
        return i18n.t("events.bracket.place", locale, place=first)
    return i18n.t("events.bracket.places", locale, first=first, last=last)


def placings_lines(d: dict, locale: str) -> list[str]:
    """The bracket in words for the standings: its title, then each placing (the players still
    in while it runs), best first."""
    b = d.get("bracket")
    if not b:
        return []
    st = state(d)
    who = names(d)
    sep = i18n.t("core.list_sep", locale)
    title = i18n.t(f"events.bracket.placings.{b['stage']}", locale, kind=i18n.t(f"leagues.format.{b['kind']}", locale),
                   n=len(b["structure"]["seeds"]))
    lines = [title]
    done = 0
    for i, group in enumerate(st["placings"]):
        people = sep.join(who.get(u, str(u)) for u in group)
        if i == 0 and st["champion"] is None:
            lines.append(i18n.t("events.bracket.placings.alive", locale, names=people))
        else:
            lines.append(i18n.t("events.bracket.placings.line", locale,
                                place=_place(done + 1, done + len(group), locale), names=people))
        done += len(group)
    return lines


def configure_pairing(d: dict, status: str, by_hand: object) -> list[str]:
    """``/league-admin settings pair_by_hand``: the next round (or the top cut) is paired as soon
    as a round is complete (False, the default) or when the organiser runs ``/league-admin
    next-round`` (True).  Until the event ends; turned off while a complete round waits, the
    organiser still pairs that one."""
    if status in ("finished", "closed"):
        raise LeagueError("leagues.err.not_running")
    new = bool(by_hand)
    if new == bool(d.get("pair_by_hand")):
        return []
    d["pair_by_hand"] = new
    return ["pair_by_hand"]


def pairing_line(d: dict, locale: str) -> str:
    from data import i18n

    return i18n.t("events.pair.by_hand" if d.get("pair_by_hand") else "events.pair.at_once", locale)
