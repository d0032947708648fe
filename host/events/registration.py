"""Who plays in an event: sign-up, the waiting list, check-in, no-shows and drops.  Pure and
synchronous: no I/O, no Discord, no clock (every time is given as ``now``, epoch seconds).

The rules
---------
* **Sign-up** is open until ``signup_until`` (epoch seconds; None: until the start), and never
  at or after the start (``start_at``) or once the event has started (:func:`close`).  An event
  may have a player cap: players who sign up past the cap go on a **waiting list**, in the order
  they signed up.  A player signs up once.
* A player may **leave** before the start.  When a registered player leaves, the first player on
  the waiting list moves up and is registered.  A player who leaves and signs up again is a new
  sign-up, at the end of the line.
* **Check-in** (events with ``checkin_minutes``): it opens ``checkin_minutes`` before the start
  and closes at the start, the opening instant included and the start excluded.  Registered
  players and waiting-list players may check in.  The organiser may check a signed-up player in
  by hand at any time before the event starts, also outside the window.
* **At the start** (:func:`close`), only checked-in players are in: registered players who did
  not check in are left out and stay listed as ``"no_checkin"``; then waiting-list players who
  checked in fill the free places, up to the cap, in waiting-list order; the others stay
  ``"waiting"``.  An event without check-in (``checkin_minutes`` None) takes every registered
  player.  The players of the event are returned in sign-up order.  An event needs at least two
  players: with fewer it does not start and nothing changes.
* **No-show**: when a pairing has not started (no game begun) ``no_show_minutes`` after its round
  began, the player who showed up may claim a game win; after twice that time, the match (the
  whole pairing).  The thresholds are inclusive: at exactly ``no_show_minutes`` the game claim
  is open.  Which player showed up is for the caller to know.
* **Drop**: after the start a player may drop: they are never paired again and stay in the
  standings (status ``"dropped"``).  **Ruling**: this module does not know the rounds; a player
  who drops during a round is left out from the next pairing on, and the pairing they are in
  stands (to be played, conceded or claimed as a no-show).

The registration is a JSON-able dict (the host stores it)::

    {"cap", "signup_until", "start_at", "checkin_minutes", "closed_at",
     "entries": [{"id", "name", "status", "signed_up_at", "checked_in_at", "checked_in_by",
                  "dropped_at"}]}

``entries`` is in sign-up order; ``status`` is ``"registered"`` or ``"waiting"`` before the start,
then ``"active"``, ``"no_checkin"``, ``"waiting"`` or ``"dropped"``; ``checked_in_by`` is
``"player"`` or ``"organiser"``.  Errors are :class:`RegistrationError` (a catalog key,
``events.err.…``, and params, like :class:`host.leagues.LeagueError`) and change nothing.

>>> reg = new(cap=2, signup_until=None, start_at=None, checkin_minutes=None)
>>> [sign_up(reg, u, f"p{u}", 0.0) for u in (1, 2, 3)]
['registered', 'registered', 'waiting']
>>> leave(reg, 1, 10.0)
3
>>> close(reg, 20.0)
[2, 3]
"""
from __future__ import annotations

from typing import Any


class RegistrationError(Exception):
    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def _minutes(value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RegistrationError("events.err.bad_minutes", minutes=value)
    return value


def new(*, cap: int | None, signup_until: float | None, start_at: float | None,
        checkin_minutes: int | None) -> dict:
    """A registration with sign-up open.  ``cap``: most players (at least 2) or None;
    ``checkin_minutes``: the check-in window before ``start_at``, or None for no check-in."""
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 2):
        raise RegistrationError("events.err.bad_cap", cap=cap)
    if checkin_minutes is not None:
        _minutes(checkin_minutes)
        if start_at is None:
            raise RegistrationError("events.err.checkin_needs_start")
    if signup_until is not None and start_at is not None and signup_until > start_at:
        raise RegistrationError("events.err.signup_after_start")
    return {"cap": cap, "signup_until": signup_until, "start_at": start_at,
            "checkin_minutes": checkin_minutes, "closed_at": None, "entries": []}


# ---------------------------------------------------------------------------- reading
def entry(reg: dict, user_id: int) -> dict | None:
    return next((e for e in reg["entries"] if e["id"] == int(user_id)), None)


def status(reg: dict, user_id: int) -> str | None:
    e = entry(reg, user_id)
    return None if e is None else e["status"]


def _with(reg: dict, *statuses: str) -> list[int]:
    return [e["id"] for e in reg["entries"] if e["status"] in statuses]


def registered(reg: dict) -> list[int]:
    """Registered players (before the start), in sign-up order."""
    return _with(reg, "registered")


def waiting(reg: dict) -> list[int]:
    """The waiting list, first in line first."""
    return _with(reg, "waiting")


def place_in_line(reg: dict, user_id: int) -> int | None:
    """A waiting player's place on the waiting list (1 is next to move up), else None."""
    line = waiting(reg)
    return line.index(int(user_id)) + 1 if int(user_id) in line else None


def started(reg: dict) -> bool:
    return reg["closed_at"] is not None


def _at_or_after_start(reg: dict, now: float) -> bool:
    return started(reg) or (reg["start_at"] is not None and now >= reg["start_at"])


def signup_open(reg: dict, now: float) -> bool:
    return not _at_or_after_start(reg, now) and (reg["signup_until"] is None or now <= reg["signup_until"])


def checkin_window(reg: dict) -> tuple[float, float] | None:
    """(opens, closes) of check-in, epoch seconds, or None for an event without check-in."""
    if reg["checkin_minutes"] is None:
        return None
    return reg["start_at"] - reg["checkin_minutes"] * 60, reg["start_at"]


def checkin_open(reg: dict, now: float) -> bool:
    window = checkin_window(reg)
    return window is not None and not started(reg) and window[0] <= now < window[1]


# ---------------------------------------------------------------------------- before the start
def sign_up(reg: dict, user_id: int, name: str, now: float) -> str:
    """Signs a player up: ``"registered"``, or ``"waiting"`` when the cap is reached."""
    if _at_or_after_start(reg, now):
        raise RegistrationError("events.err.started")
    if not signup_open(reg, now):
        raise RegistrationError("events.err.signup_closed", until=int(reg["signup_until"]))
    e = entry(reg, user_id)
    if e is not None:
        raise RegistrationError("events.err.already_signed_up", status=e["status"])
    full = reg["cap"] is not None and len(registered(reg)) >= reg["cap"]
    st = "waiting" if full else "registered"
    reg["entries"].append({"id": int(user_id), "name": name, "status": st, "signed_up_at": now,
                           "checked_in_at": None, "checked_in_by": None, "dropped_at": None})
    return st


def leave(reg: dict, user_id: int, now: float) -> int | None:
    """A player leaves before the start; returns who moved up from the waiting list, if anyone."""
    if _at_or_after_start(reg, now):
        raise RegistrationError("events.err.started")
    e = entry(reg, user_id)
    if e is None:
        raise RegistrationError("events.err.not_signed_up")
    reg["entries"].remove(e)
    line = waiting(reg)
    if e["status"] != "registered" or not line:
        return None
    entry(reg, line[0])["status"] = "registered"     # type: ignore[index]
    return line[0]


def check_in(reg: dict, user_id: int, now: float, *, by_organiser: bool = False) -> str:
    """Checks a signed-up player in; returns their status (``"registered"`` or ``"waiting"``).
    The organiser may do it outside the window (but not once the event has started)."""
    if started(reg):
        raise RegistrationError("events.err.started")
    window = checkin_window(reg)
    if window is None:
        raise RegistrationError("events.err.no_checkin")
    e = entry(reg, user_id)
    if e is None:
        raise RegistrationError("events.err.not_signed_up")
    if e["checked_in_at"] is not None:
        raise RegistrationError("events.err.already_checked_in")
    if not by_organiser and now < window[0]:
        raise RegistrationError("events.err.checkin_not_open", opens=int(window[0]))
    if not by_organiser and now >= window[1]:
        raise RegistrationError("events.err.checkin_closed")
    e["checked_in_at"] = now
    e["checked_in_by"] = "organiser" if by_organiser else "player"
    return e["status"]


def close(reg: dict, now: float) -> list[int]:
    """Starts the event: decides who plays (check-in, then the waiting list fills free places up
    to the cap) and returns them in sign-up order.  Fewer than two: nothing changes."""
    if started(reg):
        raise RegistrationError("events.err.started")
    checkin = reg["checkin_minutes"] is not None
    entries = reg["entries"]
    ins = [e for e in entries if e["status"] == "registered" and (not checkin or e["checked_in_at"] is not None)]
    if checkin:
        free = None if reg["cap"] is None else reg["cap"] - len(ins)
        fill = [e for e in entries if e["status"] == "waiting" and e["checked_in_at"] is not None]
        ins += fill if free is None else fill[:free]
    if len(ins) < 2:
        raise RegistrationError("events.err.too_few", n=len(ins))
    chosen = {id(e) for e in ins}
    for e in entries:
        if id(e) in chosen:
            e["status"] = "active"
        elif e["status"] == "registered":
            e["status"] = "no_checkin"
    reg["closed_at"] = now
    return active(reg)


# ---------------------------------------------------------------------------- after the start
def active(reg: dict) -> list[int]:
    """The players still to be paired (not dropped), in sign-up order."""
    return _with(reg, "active")


def players(reg: dict) -> list[dict]:
    """The event's players for the standings (:func:`host.events.scoring.standings`), dropped
    ones included: ``[{"id", "name", "status"}]`` in sign-up order, status ``"active"`` or
    ``"dropped"``."""
    return [{"id": e["id"], "name": e["name"], "status": e["status"]}
            for e in reg["entries"] if e["status"] in ("active", "dropped")]


def drop(reg: dict, user_id: int, now: float) -> None:
    """A player drops after the start: never paired again, kept in the standings."""
    if not started(reg):
        raise RegistrationError("events.err.not_started")
    e = entry(reg, user_id)
    if e is not None and e["status"] == "dropped":
        raise RegistrationError("events.err.already_dropped")
    if e is None or e["status"] != "active":
        raise RegistrationError("events.err.not_playing")
    e["status"] = "dropped"
    e["dropped_at"] = now


def no_show_claim(round_started_at: float, now: float, no_show_minutes: int | None, game_begun: bool) -> str | None:
    """What the player who showed up may claim against an absent opponent: ``"game"`` from
    ``no_show_minutes`` after the round began, ``"match"`` from twice that, None before, once a
    game has begun, or when the event has no no-show rule (``no_show_minutes`` None)."""
    if no_show_minutes is None:
        return None
    limit = _minutes(no_show_minutes) * 60
    if game_begun:
        return None
    waited = now - round_started_at
    if waited >= 2 * limit:
        return "match"
    if waited >= limit:
        return "game"
    return None
