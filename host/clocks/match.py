"""A match's time bank as the host keeps it (``rec.meta["clock"]``), and the arithmetic the host
does with it when a match starts, when a command is applied and when the clock ticks.

The stored form (JSON, checked when it is read by :func:`read`; a damaged one is logged and
the match is treated as having no bank, it never raises out of the host)::

    {"control": {"initial": 259200, "increment": 86400, "cap": 604800},
     "weekend": true,              # the weekend pause, in each player's own time zone
     "vacation": true,             # a player's vacation stops their bank (an event may say no)
     "hours": [[1080, 1380]], "hours_zone": "Asia/Tokyo",   # an event's playing hours (optional)
     "banks": [259200.0, 172800.0],  # seconds left per seat, as of ``since`` (absent before the start)
     "since": [1700000000.0, null],  # per seat: when its current decision began (null: not to act)
     "shown": {...},               # while a secret window is open: what the public still sees
     "away": [[1, 1700600000.0]]}  # seats to act on vacation when last timed, and until when

``since`` is kept per seat so that seats deciding at the same time (several seats to act) are
each charged from when their own decision began.  A bank match also has ``turn_seconds`` set to
the control's starting time, so the store's listing of what is due (reminders within
``REMIND_SHARE`` of it, at most ``REMIND_CAP`` before the deadline) and the claim of a time-out
work as for today's clock.

Everything here is pure (instants are passed in) except :func:`zones`, which reads the players'
time zones from the store.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace
from typing import Any

from data import i18n
from host.types import Msg
from host.clocks import ClockError
from host.clocks import calendar as cal_mod
from host.clocks import control

log = logging.getLogger("host.clocks")

KEY = "clock"
UTC = "UTC"


@dataclass(frozen=True)
class MatchClock:
    """A match's bank clock (module doc).  ``banks``/``since`` are None before the match starts."""

    control: control.TimeControl
    weekend: bool = False
    vacation: bool = True
    hours: tuple[cal_mod.Window, ...] = ()
    hours_zone: str | None = None
    banks: tuple[float, ...] | None = None
    since: tuple[float | None, ...] | None = None
    shown: dict | None = None
    away: tuple[tuple[int, float], ...] = ()

    def to_json(self) -> dict:
        out: dict[str, Any] = {"control": self.control.to_json(), "weekend": self.weekend}
        if not self.vacation:
            out["vacation"] = False
        if self.hours:
            out["hours"] = [list(w) for w in self.hours]
            out["hours_zone"] = self.hours_zone
        if self.banks is not None:
            out["banks"] = list(self.banks)
            out["since"] = list(self.since or ())
        if self.shown is not None:
            out["shown"] = self.shown
        if self.away:
            out["away"] = [[s, t] for s, t in self.away]
        return out


def new(tc: control.TimeControl, weekend: bool = False, *, vacation: bool = True,
        hours: Any = (), hours_zone: str | None = None) -> MatchClock:
    """The clock of a new match (banks are filled when it starts: :func:`start`).  ``vacation``:
    whether a player's vacation stops their bank; ``hours``: an event's playing hours (windows
    of local minutes, :func:`host.clocks.calendar.check_hours`) in ``hours_zone`` — refused
    with a :class:`ClockError` when they cannot be used."""
    if not tc.is_bank:
        raise ClockError("clock.err.control.kind")
    windows = cal_mod.check_hours(tuple(tuple(w) for w in hours or ()))
    zone = None
    if windows:
        zone = cal_mod.check_zone(hours_zone if hours_zone is not None else UTC)
        cal_mod.Calendar(hours=windows, hours_zone=zone)       # the zone can be read
    return MatchClock(control=tc, weekend=bool(weekend), vacation=bool(vacation), hours=windows, hours_zone=zone)


def _num(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ValueError(f"not a finite number: {v!r}"[:80])
    return float(v)


def _opt(v: Any) -> float | None:
    return None if v is None else _num(v)


def _check(raw: Any, seats: int) -> MatchClock:
    if not isinstance(raw, dict) or not set(raw) <= {"control", "weekend", "vacation", "hours", "hours_zone",
                                                     "banks", "since", "shown", "away"}:
        raise ValueError("not a clock object")
    tc = control.TimeControl.from_json(raw.get("control"))
    if not tc.is_bank:
        raise ValueError("a per-move control is kept in turn_seconds")
    weekend = raw.get("weekend", False)
    vacation = raw.get("vacation", True)
    if not isinstance(weekend, bool) or not isinstance(vacation, bool):
        raise ValueError("weekend/vacation: not a bool")
    hours_raw = raw.get("hours", [])
    if not isinstance(hours_raw, list) or len(hours_raw) > cal_mod.MAX_WINDOWS:
        raise ValueError("hours: not a list of windows")
    hours = cal_mod.check_hours(tuple(tuple(w) if isinstance(w, list) else w for w in hours_raw))
    hours_zone = cal_mod.check_zone(raw.get("hours_zone")) if hours else None
    banks = since = shown = None
    if "banks" in raw:
        if not (isinstance(raw["banks"], list) and isinstance(raw.get("since"), list)
                and len(raw["banks"]) == len(raw["since"]) == seats):
            raise ValueError(f"banks/since: not {seats} seats")
        banks = tuple(_num(b) for b in raw["banks"])
        if any(b < 0 or b > tc.cap for b in banks):
            raise ValueError("a bank outside 0..cap")
        since = tuple(_opt(s) for s in raw["since"])
    if raw.get("shown") is not None:
        s = raw["shown"]
        if not (isinstance(s, dict) and isinstance(s.get("banks"), list) and len(s["banks"]) == seats):
            raise ValueError("shown: not a public clock")
        shown = {"banks": [_num(b) for b in s["banks"]], "deadline": _opt(s.get("deadline"))}
    away_raw = raw.get("away", [])
    if not (isinstance(away_raw, list) and len(away_raw) <= seats
            and all(isinstance(a, list) and len(a) == 2 and type(a[0]) is int and 0 <= a[0] < seats for a in away_raw)):
        raise ValueError("away: not a list of [seat, until]")
    away = tuple((a[0], _num(a[1])) for a in away_raw)
    return MatchClock(control=tc, weekend=weekend, vacation=vacation, hours=hours, hours_zone=hours_zone,
                      banks=banks, since=since, shown=shown, away=away)


def read(rec: Any) -> MatchClock | None:
    """The match's bank clock, or None: no bank (today's clock or none), or a damaged one —
    logged, never raised (the match then plays as if it had no bank)."""
    raw = (getattr(rec, "meta", None) or {}).get(KEY)
    if raw is None:
        return None
    try:
        return _check(raw, len(rec.seats))
    except (ClockError, ValueError, TypeError, KeyError, RecursionError) as exc:
        log.warning("match %s: its clock cannot be read and is ignored: %s", getattr(rec, "id", "?"), exc)
        return None


def start(mc: MatchClock, seats: int) -> MatchClock:
    """The clock at the start of the match: every seat's starting bank, nobody deciding yet."""
    return replace(mc, banks=control.start_banks(mc.control, seats), since=(None,) * seats, shown=None)


def calendar_for(mc: MatchClock, zone: str | None, vacations: Any = ()) -> cal_mod.Calendar:
    """When one player's clock runs: always, or not from Saturday 00:00 to Monday 00:00 in
    ``zone`` (the weekend pause; UTC when the player has none or it cannot be read), not outside
    the match's playing hours, and not during the player's ``vacations`` (``[start, end)``
    instants) when the match allows vacation."""
    weekend = None
    if mc.weekend:
        try:
            weekend = cal_mod.check_zone(zone or UTC)
        except ClockError:
            log.warning("time zone %r cannot be used; UTC instead", str(zone)[:40])
            weekend = UTC
    spans = tuple(vacations) if mc.vacation else ()
    if weekend is None and not mc.hours and not spans:
        return cal_mod.ALWAYS
    try:
        return cal_mod.Calendar(weekend_zone=weekend, hours=mc.hours, hours_zone=mc.hours_zone, vacations=spans)
    except (ClockError, ValueError, KeyError, OSError) as exc:      # checked when read: not expected
        log.warning("a calendar cannot be built (%s); the clock runs always", exc)
        return cal_mod.ALWAYS


async def calendars(store: Any, mc: MatchClock, user_ids: list[Any], since: float) -> list[cal_mod.Calendar]:
    """Each seat's calendar (:func:`calendar_for`): the players' own time zones (their stored
    settings, only when the match pauses on weekends) and their vacations ending after
    ``since`` (only when the match allows vacation).  A player without a zone is in UTC; a
    store that fails is logged and the clock runs for this decision as if nothing paused it."""
    ids = sorted({int(u) for u in user_ids if u is not None})
    zones: dict[int, str] = {}
    away: dict[int, list[tuple[float, float]]] = {}
    if mc.weekend and ids:
        try:
            settings = await store.player_settings_many(ids)
        except Exception:
            log.exception("players' time zones could not be read; UTC for this move")
            settings = {}
        for uid, s in (settings or {}).items():
            zone = s.get("zone") if isinstance(s, dict) else None
            if isinstance(zone, str):
                zones[int(uid)] = zone
    if mc.vacation and ids:
        try:
            records = await store.vacations_many(ids, since)
        except Exception:
            log.exception("players' vacations could not be read; none for this move")
            records = {}
        for uid, rows in (records or {}).items():
            away[int(uid)] = [(r["start"], r["end"]) for r in rows if r["end"] > r["start"]]
    return [calendar_for(mc, zones.get(int(u)) if u is not None else None,
                         away.get(int(u), ()) if u is not None else ()) for u in user_ids]


def left_now(mc: MatchClock, seat: int, cal: cal_mod.Calendar, now: float) -> float:
    """What is left of ``seat``'s bank at ``now`` (its clock running since its decision began)."""
    bank = (mc.banks or ())[seat] if mc.banks and seat < len(mc.banks) else 0.0
    began = (mc.since or ())[seat] if mc.since and seat < len(mc.since) else None
    if began is None:
        return bank
    return control.spend(bank, cal_mod.running(cal, began, max(began, now)))


def advance(mc: MatchClock, now: float, cals: list[cal_mod.Calendar], *, actor: int | None,
            responded: bool, after: list[int], public_after: list[int], hidden_after: bool,
            old_deadline: float | None) -> tuple[MatchClock, dict[int, float]]:
    """The clock after a command of ``actor`` (None: no seat's own decision, e.g. a start or a
    late join) and each seat's deadline now: ``{seat: instant}`` for the seats to act.

    - The actor's decision is over when it is no longer to act: its bank is charged the seconds
      its clock ran (its own calendar) and, for a move of its own, gets the increment
      (``after_move``).  A secret response (``responded``) and a declaration after which the
      actor is still the seat everyone sees acting (a secret window opened on it) earn none.
      An actor still to act goes on deciding: nothing is charged yet.
    - A seat that was deciding and no longer is, without acting (another's command took the
      decision away), is charged without increment.
    - Each seat to act has its deadline at ``calendar.deadline(cal, since, bank)``; in a secret
      window (``hidden_after``) at least ``WINDOW_FLOOR`` after the decision began, so a window
      never blocks forever even on an empty bank.
    - While a window is open, ``shown`` keeps the banks and deadline as they stood before it,
      which is all the public clock line shows (nothing public tells the window)."""
    seats = len(cals)
    banks = list(mc.banks or ())[:seats]
    since: list[float | None] = list(mc.since or ())[:seats]
    banks += [float(mc.control.start)] * (seats - len(banks))     # a late joiner starts full
    since += [None] * (seats - len(since))
    before_banks = list(banks)
    for s in range(seats):
        if since[s] is None or s in after:
            continue
        used = cal_mod.running(cals[s], since[s], max(since[s], now))
        earns = s == actor and not responded and s not in public_after
        banks[s] = control.after_move(banks[s], used, mc.control) if earns else control.spend(banks[s], used)
        since[s] = None
    for s in after:
        if 0 <= s < seats and since[s] is None:
            since[s] = float(now)
    deadlines = {}
    for s in after:
        if 0 <= s < seats:
            # a bank never runs out while its clock is stopped: an empty bank at a vacation's
            # start (a day taken automatically when it ran out) times out when the clock runs again
            at = cal_mod.next_running(cals[s], cal_mod.deadline(cals[s], since[s], banks[s]))
            if hidden_after:
                at = max(at, since[s] + control.WINDOW_FLOOR)
            deadlines[s] = at
    shown = None
    if hidden_after:
        shown = mc.shown or {"banks": before_banks, "deadline": old_deadline}
    away = []
    for s in sorted(set(public_after)):     # (a secret window's responder is not said to be away)
        until = cal_mod.vacation_end(cals[s], now) if 0 <= s < seats else None
        if until is not None:
            away.append((s, until))
    return replace(mc, banks=tuple(banks), since=tuple(since), shown=shown, away=tuple(away)), deadlines


def public(mc: MatchClock, deadline: float | None) -> tuple[list[float], float | None]:
    """What everyone may see: each seat's bank (as its current decision began) and the deadline
    of the seat(s) to act — as they stood before a secret window while one is open."""
    if mc.shown is not None:
        return list(mc.shown["banks"]), mc.shown["deadline"]
    return list(mc.banks or ()), deadline


def banks_text(mc: MatchClock, names: list[str], deadline: float | None, now: float | None = None) -> Msg:
    """The board's clock line: each player's bank in words and, while someone is to act, the
    deadline as a Discord timestamp (each reader's own time zone), then who is on vacation — a
    message whose player names are its own ``name`` params, so the front end makes them safe to
    show as it does every name.  ``now``: a vacation over by then is not said (a match is timed
    again when a vacation starts or is ended early, not when it runs out, so ``away`` may
    outlive it)."""
    banks, due = public(mc, deadline)

    def name(s: int) -> str:
        return names[s] if s < len(names) and names[s] else f"#{s + 1}"

    listed: Msg | None = None
    for s, b in enumerate(banks):
        entry = Msg("clock.board.bank", {"name": name(s), "left": left_text(b)})
        listed = entry if listed is None else Msg("clock.board.and", {"a": listed, "b": entry})
    if due is None:
        line = Msg("clock.board.banks", {"banks": listed or ""})
    else:
        line = Msg("clock.board.banks_due", {"banks": listed or "", "deadline": f"<t:{int(due)}:R>"})
    for s, until in mc.away:       # "… is on vacation until …": the opponents see why
        if s < len(names) and (now is None or until > now):
            line = Msg("clock.board.then", {"a": line, "b": Msg("clock.vacation.away", {"name": name(s),
                                                                                       "until": int(until)})})
    return line


def left_text(seconds: float) -> dict[str, str]:
    """A bank left in words in both languages (a message param)."""
    return {loc: control.format_left(seconds, loc) for loc in i18n.LOCALES}
