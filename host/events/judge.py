"""Judges at an event: the calls players make to a judge, the penalties judges give, and what a
judge does to a match (put it back some moves, give a player more time) — on the record.  Pure
and synchronous like the rest of :mod:`host.events`: every function takes the league document
``d`` and changes it in place (the service calls them inside its version-checked write, on a
copy); times are given as ``now``; a refusal is :class:`host.events.document.LeagueError` with
a catalog key ``events.judge.err.…`` (or the league's own ``leagues.err.no_pairing``), and
changes nothing.

The rules (the project's rulings)
---------------------------------
* A player of a running event calls a judge to one of their matches (a bot match, by its id):
  any active player of the event, or, when the call names the pairing, one of its two players.
  One call at a time per match (a second is refused and names the first), and at most
  :data:`OPEN_CALLS_MAX` calls open or taken in the event at once.  What the caller wrote is
  cleaned (:func:`clean_text`) and cut to :data:`CALL_TEXT_MAX` characters; it may be empty.
* A call is ``open`` until a judge takes it (``taken``; another judge may take it over, and the
  trail says from whom) and ``taken`` until a judge closes it (``closed``, with an optional
  note).  A closed call is never opened again: the player calls anew.  The event keeps its
  newest :data:`CALLS_MAX` calls: beyond that the oldest *closed* ones are let go
  (``d["calls_cut"]`` counts them); an open or taken call is never dropped.
* A judge who looks at the players' hands during a call (:func:`look`) is on the trail.
* Penalties (:data:`PENALTIES`): a warning, a game loss, a match loss — each to one player of a
  pairing of a running event, with a reason (required, cut to :data:`REASON_MAX`).  A match
  loss decides the pairing exactly as an organiser's forfeit does (:func:`host.leagues.forfeit`:
  the opponent wins, by forfeit — a result already there is replaced, as the organiser's would
  be); a game loss is only the record here: the service ends the live game as a loss for that
  player, and the best-of-N series records it by its usual path.  A game loss in a pairing that
  already has its result is refused (no game is left to lose), and no penalty goes to a bye.
* A judge's action on a match (:func:`judge_action`): ``rewind`` (``n`` moves back) and
  ``time`` (``minutes`` more for ``player``, at most :data:`ADD_TIME_MAX_MINUTES`), with a
  reason; this module only records it, the service does it.

Document keys: ``calls`` (``[{"id", "match", "pairing", "by", "text", "at", "status", "judge",
"taken_at", "closed_at", "closed_by", "note", "staff"}]``, oldest first), ``next_call`` (from
1), ``calls_cut``; ``penalties`` (``[{"id", "kind", "player", "pairing", "match", "reason",
"by", "at", "call"}]``, oldest first), ``next_penalty`` (from 1).  Every change goes on the
trail (:mod:`host.events.trail`) as ``events.judge.trail.<kind>``; its ``params`` hold ints and
strings (:func:`host.events.trail.line` passes them to the catalog text), ``player`` a user id
(shown by name) and, with ``pairing``, its ``round``, ``a`` and ``b``.

>>> clean_text("  Opponent\\x00 drew\\n\\n an extra   card  ", 20)
'Opponent drew an ext'
"""
from __future__ import annotations

import unicodedata
from typing import Any

from data import i18n
from host import leagues
from host.events import trail
from host.events.document import LeagueError, pairing, player as player_of

CALL_TEXT_MAX = 300          # what the caller wrote, cut to this
OPEN_CALLS_MAX = 20          # open or taken calls at once per event
CALLS_MAX = 500              # calls kept per event (oldest CLOSED ones dropped beyond it)
PENALTIES = ("warning", "game_loss", "match_loss")
ADD_TIME_MAX_MINUTES = 7 * 24 * 60
REASON_MAX = 300             # a penalty's or an action's reason, cut to this
NOTE_MAX = CALL_TEXT_MAX     # a judge's note on closing a call
STAFF_REF_MAX = 100          # "channel:message" of the staff post
STATUSES = ("open", "taken", "closed")
LIVE = ("open", "taken")
ACTIONS = {"rewind": ("n",), "time": ("player", "minutes")}
# kept inside a text: the joiner of emoji sequences (👨‍👩‍👧); every other control or format
# character (line breaks, NUL, bidirectional overrides, lone surrogates) becomes a space
_KEEP = {"\u200d"}


# ---------------------------------------------------------------------------- words
def clean_text(text: Any, limit: int) -> str:
    """``text`` made one line: control characters become spaces, runs of spaces one space, no
    space at either end, at most ``limit`` characters (None: "")."""
    s = "" if text is None else str(text)
    s = "".join(" " if unicodedata.category(ch).startswith("C") and ch not in _KEEP else ch for ch in s)
    return " ".join(s.split())[:max(0, int(limit))].rstrip()


def _entry(what: str, at: float, by: int | None, params: dict) -> dict:
    return {"at": float(at), "by": by, "what": f"events.judge.trail.{what}", "params": params,
            "before": None, "after": None}


def _pairing_params(d: dict, pairing_id: int) -> dict:
    p = pairing(d, pairing_id)
    return {"pairing": p["id"], "round": p["round"], "a": p["a"], "b": p["b"]}


def _player_params(d: dict, uid: int) -> dict:
    """``player`` (shown by name) and the name kept with the entry, for a reader's list of names
    that no longer has them."""
    p = player_of(d, uid)
    out: dict[str, Any] = {"player": int(uid)}
    if p is not None and p.get("name"):
        out["name"] = p["name"]
    return out


# ---------------------------------------------------------------------------- calls
def call_of(d: dict, call_id: Any) -> dict:
    """The call ``call_id`` of the event (the dict in ``d``); else ``events.judge.err.no_call``."""
    try:
        cid = int(call_id)
    except (TypeError, ValueError):
        raise LeagueError("events.judge.err.no_call", call=call_id) from None
    found = next((c for c in d.get("calls") or [] if c["id"] == cid), None)
    if found is None:
        raise LeagueError("events.judge.err.no_call", call=cid)
    return found


def open_calls(d: dict) -> list[dict]:
    """The calls open or taken, oldest first."""
    return sorted((c for c in d.get("calls") or [] if c["status"] in LIVE), key=lambda c: (c["at"], c["id"]))


def live_call(d: dict, match_id: Any) -> dict | None:
    """The open or taken call of match ``match_id``, if there is one."""
    mid = int(match_id)
    return next((c for c in d.get("calls") or [] if c["match"] == mid and c["status"] in LIVE), None)


def call(d: dict, status: str, *, match_id: int, pairing_id: int | None, by: int, text: str, now: float) -> dict:
    """Player ``by`` calls a judge to match ``match_id`` (of pairing ``pairing_id`` when known).
    Refused: the event is not running, ``by`` is not a player of that pairing (without one: not
    an active player of the event), the match has a call open or taken already, the event has
    :data:`OPEN_CALLS_MAX` of them.  Returns the new call."""
    if status != "running":
        raise LeagueError("events.judge.err.not_running")
    by, mid = int(by), int(match_id)
    params: dict[str, Any] = {}
    if pairing_id is not None:
        p = pairing(d, pairing_id)
        if by not in (p["a"], p["b"]):
            raise LeagueError("events.judge.err.not_in_match")
        params = _pairing_params(d, p["id"])
    else:
        me = player_of(d, by)
        if me is None or me["status"] != "active":
            raise LeagueError("events.judge.err.not_in_match")
    there = live_call(d, mid)
    if there is not None:
        raise LeagueError("events.judge.err.already_called", call=there["id"])
    if len(open_calls(d)) >= OPEN_CALLS_MAX:
        raise LeagueError("events.judge.err.too_many", n=OPEN_CALLS_MAX)
    said = clean_text(text, CALL_TEXT_MAX)
    cid = int(d.get("next_call") or 1)
    d["next_call"] = cid + 1
    c = {"id": cid, "match": mid, "pairing": None if pairing_id is None else params["pairing"], "by": by,
         "text": said, "at": float(now), "status": "open", "judge": None, "taken_at": None, "closed_at": None,
         "staff": None}
    calls = d.setdefault("calls", [])
    calls.append(c)
    extra = len(calls) - CALLS_MAX
    if extra > 0:           # the oldest closed calls go; an open or taken one stays
        gone = {x["id"] for x in calls if x["status"] == "closed"}
        gone = set(sorted(gone)[:extra])
        calls[:] = [x for x in calls if x["id"] not in gone]
        d["calls_cut"] = int(d.get("calls_cut") or 0) + len(gone)
    params.update({"call": cid, "match": mid})
    if said:
        params["text"] = said
    trail.add(d, [_entry("call_text" if said else "call", now, by, params)])
    return c


def take(d: dict, call_id: int, judge: int, now: float) -> dict:
    """Judge ``judge`` takes call ``call_id``: an open call becomes taken; a taken one is taken
    over from the judge who had it (the trail names them); the same judge again changes
    nothing.  Refused when the call is closed."""
    c = call_of(d, call_id)
    judge = int(judge)
    if c["status"] == "closed":
        raise LeagueError("events.judge.err.closed", call=c["id"])
    if c["status"] == "taken" and c["judge"] == judge:
        return c
    params: dict[str, Any] = {"call": c["id"], "match": c["match"]}
    what = "take"
    if c["status"] == "taken" and c["judge"] is not None:
        what = "take_over"
        params["previous"] = [c["judge"]]        # a list of user ids: shown by name
    c["status"], c["judge"], c["taken_at"] = "taken", judge, float(now)
    trail.add(d, [_entry(what, now, judge, params)])
    return c


def close(d: dict, call_id: int, judge: int, now: float, note: str = "") -> dict:
    """Judge ``judge`` closes call ``call_id`` (open or taken), with an optional note (cleaned,
    cut to :data:`NOTE_MAX`).  A call nobody took is the closing judge's.  Refused when it is
    closed already."""
    c = call_of(d, call_id)
    judge = int(judge)
    if c["status"] == "closed":
        raise LeagueError("events.judge.err.closed", call=c["id"])
    said = clean_text(note, NOTE_MAX)
    c["status"], c["closed_at"], c["closed_by"], c["note"] = "closed", float(now), judge, said
    if c["judge"] is None:
        c["judge"] = judge
    params: dict[str, Any] = {"call": c["id"], "match": c["match"]}
    if said:
        params["note"] = said
    trail.add(d, [_entry("close_note" if said else "close", now, judge, params)])
    return c


def set_staff_ref(d: dict, call_id: int, ref: str) -> None:
    """Where the call's post in the staff channel is (``"channel:message"``), for the bot to
    update it."""
    call_of(d, call_id)["staff"] = clean_text(ref, STAFF_REF_MAX) or None


def look(d: dict, call_id: int, judge: int, now: float) -> None:
    """Judge ``judge`` looked at the players' hands during call ``call_id`` (the service refuses
    a judge who plays in that match before this).  Refused when the call is closed."""
    c = call_of(d, call_id)
    if c["status"] == "closed":
        raise LeagueError("events.judge.err.closed", call=c["id"])
    trail.add(d, [_entry("look", now, int(judge), {"call": c["id"], "match": c["match"]})])


# ---------------------------------------------------------------------------- penalties
def penalty(d: dict, status: str, *, kind: str, player: int, pairing_id: int, match_id: int | None,
            reason: str, by: int, now: float, call_id: int | None = None) -> dict:
    """Judge ``by`` gives ``player`` of pairing ``pairing_id`` a penalty (:data:`PENALTIES`)
    for ``reason``.  A match loss decides the pairing as an organiser's forfeit does; a game
    loss is only recorded (the service ends the live game).  Returns the penalty."""
    if status != "running":
        raise LeagueError("events.judge.err.not_running")
    if kind not in PENALTIES:
        raise LeagueError("events.judge.err.kind")
    p = pairing(d, pairing_id)
    uid = int(player)
    if uid not in (p["a"], p["b"]):
        raise LeagueError("events.judge.err.not_in_match")
    if p["b"] is None:
        raise LeagueError("events.judge.err.bye", pairing=p["id"])
    said = clean_text(reason, REASON_MAX)
    if not said:
        raise LeagueError("events.judge.err.reason")
    if call_id is not None:
        call_of(d, call_id)
    if kind == "game_loss" and p["result"] is not None and not p.get("held"):
        raise LeagueError("events.judge.err.decided", pairing=p["id"])
    if kind == "match_loss":
        leagues.forfeit(d, status, p["id"], uid)        # checks before it changes anything
    pid = int(d.get("next_penalty") or 1)
    d["next_penalty"] = pid + 1
    pen = {"id": pid, "kind": kind, "player": uid, "pairing": p["id"],
           "match": None if match_id is None else int(match_id), "reason": said, "by": int(by), "at": float(now),
           "call": None if call_id is None else int(call_id)}
    d.setdefault("penalties", []).append(pen)
    params = {**_pairing_params(d, p["id"]), **_player_params(d, uid), "reason": said, "penalty": pid}
    if pen["match"] is not None:
        params["match"] = pen["match"]
    if pen["call"] is not None:
        params["call"] = pen["call"]
    trail.add(d, [_entry(kind, now, int(by), params)])
    return pen


def penalties(d: dict, player: int | None = None) -> list[dict]:
    """Every penalty of the event, or ``player``'s, oldest first."""
    out = d.get("penalties") or []
    return [x for x in out if player is None or x["player"] == int(player)]


# ---------------------------------------------------------------------------- a judge's actions
def judge_action(d: dict, *, kind: str, call_id: int | None, match_id: int, by: int, now: float,
                 reason: str, **params: Any) -> None:
    """The trail entry of what judge ``by`` did to match ``match_id``: ``rewind`` (``n``: the
    moves put back) or ``time`` (``player``, ``minutes`` more: at most
    :data:`ADD_TIME_MAX_MINUTES`); a reason is required.  ``pairing`` may be given too."""
    if kind not in ACTIONS:
        raise ValueError(f"unknown judge action: {kind!r}")
    extra = set(params) - set(ACTIONS[kind]) - {"pairing"}
    missing = set(ACTIONS[kind]) - set(params)
    if extra or missing:
        raise TypeError(f"judge action {kind}: unknown {sorted(extra)}, missing {sorted(missing)}")
    said = clean_text(reason, REASON_MAX)
    if not said:
        raise LeagueError("events.judge.err.reason")
    out: dict[str, Any] = {}
    if params.get("pairing") is not None:
        out.update(_pairing_params(d, params["pairing"]))
    if kind == "rewind":
        n = int(params["n"])
        if n < 1:
            raise LeagueError("events.judge.err.moves")
        out["n"] = n
    else:
        minutes = int(params["minutes"])
        if not 1 <= minutes <= ADD_TIME_MAX_MINUTES:
            raise LeagueError("events.judge.err.minutes", max=ADD_TIME_MAX_MINUTES)
        out.update(_player_params(d, int(params["player"])))
        out["minutes"] = minutes
    if call_id is not None:
        out["call"] = call_of(d, call_id)["id"]
    out.update({"match": int(match_id), "reason": said})
    trail.add(d, [_entry(kind, now, int(by), out)])


# ---------------------------------------------------------------------------- lines for lists
def call_line(c: dict, locale: str, words_of: Any = str) -> str:
    """A call in a list (``/league-admin`` and the staff post): number, match, status, what the
    caller wrote (``words_of`` makes it safe for the message)."""
    text = words_of(c["text"]) if c.get("text") else i18n.t("events.judge.call.no_text", locale)
    return i18n.t("events.judge.call.line", locale, id=c["id"], match=c["match"],
                  status=i18n.t(f"events.judge.status.{c['status']}", locale), text=text)


def penalty_line(pen: dict, names: dict[int, str], locale: str, words_of: Any = str) -> str:
    """A penalty in a list (``/league-admin penalties``): ``names`` shown as given (made safe by
    the caller), someone not in them as a mention."""
    def name(uid: int) -> str:
        return names.get(uid) or f"<@{uid}>"

    return i18n.t("events.judge.penalty.line", locale, id=pen["id"],
                  kind=i18n.t(f"events.judge.kind.{pen['kind']}", locale), player=name(pen["player"]),
                  pairing=pen["pairing"], reason=words_of(pen["reason"]), by=name(pen["by"]))


# ---------------------------------------------------------------------------- takebacks
def configure_takebacks(d: dict, status: str, allowed: bool) -> list[str]:
    """``/league-admin settings takebacks``: may the players of the event's matches ask each
    other for takebacks (off by default; an undo within one's own turn is always allowed)?
    Until the event ends; the matches started from then on follow it.  Returns the settings
    changed."""
    if status not in ("signup", "running"):
        raise LeagueError("events.judge.err.not_running")
    if bool(d.get("takebacks")) == bool(allowed):
        return []
    d["takebacks"] = bool(allowed)
    return ["takebacks"]
