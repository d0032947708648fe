"""An event across days: the clock its games are played on, and how long a round lasts.  Pure and
synchronous like the rest of :mod:`host.events`: errors are :class:`LeagueError` (catalog keys
``events.clock.err.…``, or the clock's own ``clock.…`` keys for what an organiser typed) and the
caller works on a copy.

The organiser chooses (``/league-admin settings``; all stored in ``d["clock"]``, absent: the
defaults)::

    {"time_control": {"initial": 259200, "increment": 86400, "cap": 604800},  # None: no clock
     "vacation": True,            # a player's vacation stops their bank in the event's games
     "weekend_pause": False,      # no clock from Saturday 00:00 to Monday 00:00, each player's zone
     "hours": [[1080, 1380]],     # playing hours (minutes of the day) in "zone"; []: all day
     "zone": "Asia/Tokyo",        # the event's time zone (set with the hours)
     "round_days": 3}             # a round lasts this many days (None: the deadline hours)

* **Time control** (:mod:`host.clocks.control`): today's time per move or a time bank, typed or a
  preset (``daily``, ``3d+1d max 7d``, ``毎日``).  None (the default, and a league stored before
  the setting existed): the games have no clock of their own, as before.
* **Vacation allowed** (default yes), **weekend pause** and **playing hours** are options of a
  bank; a weekend pause or playing hours without a bank are refused.  The hours are read in the
  event's **time zone** (default: Asia/Tokyo for an event made in Japanese, else UTC).
* **Round length**: each pairing's deadline is this many days after it is paired, instead of the
  deadline hours the event was created with (:func:`host.events.document.round_seconds`).  The
  round time limit (``round_minutes``, :mod:`host.events.bestof`) works on top, as before.

Every game of a pairing (game 1 and every later game of a best of 3 or 5) is a match made with
:func:`challenge_args`, and gets a **fresh bank**: each game is a match with its own clock
(docs/tournaments.md, "Events across days", says why).

The clock is set during sign-up; while the event runs only the round length may change (for the
rounds paired from then on), so every game of a round is played on the same clock.
"""
from __future__ import annotations

import logging
import unicodedata
from typing import Any

from data import i18n
from host.clocks import ClockError
from host.clocks import calendar as cal_mod
from host.clocks import control
from host.clocks import match as bank_clock
from host.clocks import notify
from host.events.document import LeagueError

log = logging.getLogger("host.events.clock")

KEY = "clock"
SETTINGS = ("time_control", "vacation", "weekend_pause", "hours", "zone", "round_days")
RUNNING_SETTINGS = ("round_days",)          # may change while the event runs
MAX_ROUND_DAYS = 30
# what an organiser types to clear a time control or the time zone
CLEAR = frozenset({"none", "off", "no", "-", "0", "なし", "無し", "オフ"})
DEFAULT_ZONE = {"ja": "Asia/Tokyo"}
UTC = "UTC"


def _err(e: ClockError) -> LeagueError:
    return LeagueError(e.key, **e.params)


def _cleared(text: str) -> bool:
    return unicodedata.normalize("NFKC", text).strip().casefold() in CLEAR


# ---------------------------------------------------------------------------- settings
def settings(d: dict) -> dict:
    """The event's clock as it stands (module doc), the defaults for what was never set."""
    c = d.get(KEY) or {}
    days = c.get("round_days")
    return {"time_control": c.get("time_control"), "vacation": c.get("vacation", True) is not False,
            "weekend_pause": bool(c.get("weekend_pause")),
            "hours": [list(w) for w in c.get("hours") or []], "zone": c.get("zone"),
            "round_days": int(days) if days else None}


def default_zone(d: dict) -> str:
    """The zone of an event's playing hours when the organiser names none: by the event's language."""
    return DEFAULT_ZONE.get(i18n.locale_of(d.get("locale", "en")), UTC)


def control_of(d: dict) -> control.TimeControl | None:
    """The event's time control, or None (no clock; also a stored one that cannot be read — logged)."""
    raw = settings(d)["time_control"]
    if raw is None:
        return None
    try:
        return control.TimeControl.from_json(raw)
    except ClockError as exc:
        log.warning("event %r: its time control cannot be read and is ignored: %s", d.get("name"), exc)
        return None


def _read_control(value: Any) -> dict | None:
    if value is None or (isinstance(value, str) and _cleared(value)):
        return None
    try:
        tc = control.TimeControl.from_json(value) if isinstance(value, dict) else control.parse(value)
    except ClockError as e:
        raise _err(e) from None
    return tc.to_json()


def _read_hours(value: Any) -> list[list[int]]:
    if value is None:
        return []
    try:
        windows = cal_mod.parse_hours(value) if isinstance(value, str) else cal_mod.check_hours(
            tuple(tuple(w) for w in value))
    except ClockError as e:
        raise _err(e) from None
    except TypeError:
        raise LeagueError("clock.calendar.err.hours_syntax", part=str(value)[:12], at=1) from None
    return [list(w) for w in windows]


def _read_zone(value: Any) -> str | None:
    if value is None or (isinstance(value, str) and _cleared(value)):
        return None
    try:
        return cal_mod.check_zone(notify.parse_zone(value))
    except ClockError as e:
        raise _err(e) from None


def _read_days(value: Any) -> int | None:
    if value is None or value == 0:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROUND_DAYS:
        raise LeagueError("events.clock.err.round_days", max=MAX_ROUND_DAYS)
    return value


def configure(d: dict, status: str, **changes: Any) -> list[str]:
    """``/league-admin settings``: the event's clock (module doc).  ``time_control`` (what an
    organiser typed, a stored control, or None / ``none``: no clock), ``vacation`` and
    ``weekend_pause`` (bool), ``hours`` (typed playing hours; ``none`` or None: all day), ``zone``
    (a time zone name or a city; ``none`` or None: the default), ``round_days`` (1 to
    :data:`MAX_ROUND_DAYS`; 0 or None: the deadline hours).  During sign-up; while the event
    runs only the round length.  Returns the settings changed; refuses (nothing changed) what
    cannot be read or does not go together."""
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise TypeError(f"unknown settings: {sorted(unknown)}")
    if not changes:
        return []
    old = settings(d)
    new = dict(old)
    readers = {"time_control": _read_control, "hours": _read_hours, "zone": _read_zone, "round_days": _read_days,
               "vacation": bool, "weekend_pause": bool}
    for k, v in changes.items():
        new[k] = readers[k](v)
    if new["hours"] and new["zone"] is None:
        new["zone"] = default_zone(d)           # the hours are read in a zone everyone can see
    changed = [k for k in SETTINGS if new[k] != old[k]]
    if status != "signup" and (status != "running" or set(changed) - set(RUNNING_SETTINGS)):
        raise LeagueError("events.clock.err.started")
    tc = control.TimeControl.from_json(new["time_control"]) if new["time_control"] is not None else None
    if (new["weekend_pause"] or new["hours"]) and (tc is None or not tc.is_bank):
        raise LeagueError("events.clock.err.needs_bank")
    if tc is not None and tc.is_bank:
        try:       # the host builds the same clock for each game: refused here rather than at play
            bank_clock.new(tc, new["weekend_pause"], vacation=new["vacation"], hours=new["hours"],
                           hours_zone=new["zone"] if new["hours"] else None)
        except ClockError as e:
            raise _err(e) from None
    if changed:
        d[KEY] = {k: new[k] for k in SETTINGS}
    return changed


def apply_defaults(d: dict, time_control: Any, weekend_pause: Any) -> None:
    """A new event takes the server's defaults for new matches and events (``/settings``: the
    stored ``clock_control`` and ``clock_weekend``).  A default that cannot be used is left out
    (logged): the organiser sets the event's own."""
    try:
        tc = control.TimeControl.from_json(time_control) if time_control is not None else None
    except ClockError as exc:
        log.warning("the server's default time control cannot be used for an event: %s", exc)
        return
    if tc is None:
        return
    d[KEY] = dict(settings(d), time_control=tc.to_json(), weekend_pause=bool(weekend_pause) and tc.is_bank)


def challenge_args(d: dict) -> dict[str, Any]:
    """What :meth:`host.Host.challenge` takes for a game of the event: its time control, and with
    a bank whether vacation stops it, the weekend pause and the playing hours in the event's
    zone.  Empty for an event without a clock (its games have none, as before)."""
    tc = control_of(d)
    if tc is None:
        return {}
    if not tc.is_bank:
        return {"time_control": tc.to_json()}
    s = settings(d)
    hours = tuple(tuple(w) for w in s["hours"])
    return {"time_control": tc.to_json(), "weekend_pause": s["weekend_pause"], "vacation": s["vacation"],
            "hours": hours, "hours_zone": (s["zone"] or default_zone(d)) if hours else None}


def no_vacation(d: dict) -> bool:
    """Whether the event says no to vacation (said at sign-up and on the event message)."""
    return not settings(d)["vacation"]


# ---------------------------------------------------------------------------- words
def _hours_words(s: dict, locale: str) -> str:
    return cal_mod.format_hours(tuple(tuple(w) for w in s["hours"]), locale)


def control_words(d: dict, locale: str) -> str | None:
    tc = control_of(d)
    return control.describe(tc, locale) if tc is not None else None


def deadline_words(d: dict, locale: str) -> str:
    """The league message's "how long a round lasts": the round length in days, else the
    deadline hours, else no deadline."""
    days = settings(d)["round_days"]
    if days:
        return i18n.t("events.clock.embed.round_days", locale, n=days)
    if d.get("deadline_hours"):
        return i18n.t("leagues.embed.deadline", locale, n=d["deadline_hours"])
    return i18n.t("leagues.embed.no_deadline", locale)


def settings_lines(d: dict, locale: str) -> list[str]:
    """Every clock setting in words (the answer of ``/league-admin settings``)."""
    s = settings(d)
    t = i18n.t
    said = control_words(d, locale)
    out = [t("events.clock.set.control", locale, control=said) if said else t("events.clock.set.control_none", locale),
           t("events.clock.set.vacation_on" if s["vacation"] else "events.clock.set.vacation_off", locale),
           t("events.clock.set.weekend_on" if s["weekend_pause"] else "events.clock.set.weekend_off", locale),
           t("events.clock.set.hours", locale, hours=_hours_words(s, locale), zone=s["zone"] or default_zone(d))
           if s["hours"] else t("events.clock.set.hours_none", locale)]
    if s["round_days"]:
        out.append(t("events.clock.set.round_days", locale, n=s["round_days"]))
    elif d.get("deadline_hours"):
        out.append(t("events.clock.set.round_hours", locale, n=d["deadline_hours"]))
    else:
        out.append(t("events.clock.set.round_none", locale))
    return out


def summary_lines(d: dict, locale: str) -> list[str]:
    """The league message's lines about the event's clock (none for an event without one)."""
    s = settings(d)
    t = i18n.t
    out = []
    said = control_words(d, locale)
    if said:
        out.append(t("events.clock.embed.control", locale, control=said))
    if s["weekend_pause"]:
        out.append(t("events.clock.embed.weekend", locale))
    if s["hours"]:
        out.append(t("events.clock.embed.hours", locale, hours=_hours_words(s, locale),
                     zone=s["zone"] or default_zone(d)))
    if not s["vacation"]:
        out.append(t("events.clock.embed.no_vacation", locale))
    return out


def signup_note(d: dict, locale: str) -> str | None:
    """What a player is told when signing up to an event that allows no vacation; else None."""
    return i18n.t("events.clock.signup.no_vacation", locale) if no_vacation(d) else None


def pairing_suffix(p: dict, locale: str) -> str:
    """An open pairing's deadline (and its round time limit) in words, Discord timestamps, to
    put after its line; empty for a pairing with a result, a bye or no deadline."""
    if p.get("b") is None or p.get("result") is not None:
        return ""
    out = ""
    if p.get("deadline"):
        out += i18n.t("events.clock.pairing.due", locale, at=int(p["deadline"]))
    if p.get("ends_at"):
        out += i18n.t("events.clock.pairing.limit", locale, at=int(p["ends_at"]))
    return out


def clock_lines(d: dict, p: dict, info: dict | None, names: dict[int, str], locale: str) -> list[str]:
    """What an open pairing's game shows of its clock (``info``: :meth:`host.league_service.Leagues.
    pairing_clocks`): each player's bank and the game's deadline, as the board's clock line says
    them, and each player on vacation, "on vacation until …" (in an event that allows no vacation,
    with the reminder that their bank runs all the same).  ``names`` are shown as given."""
    if not info:
        return []
    out = []
    banks = info.get("banks")
    if banks:
        sep = i18n.t("core.list_sep", locale)
        listed = sep.join(i18n.t("clock.board.bank", locale, name=names.get(u, "?"), left=control.format_left(b, locale))
                          for u, b in banks)
        due = info.get("deadline")
        out.append(i18n.t("events.clock.pairing.banks_due", locale, banks=listed, at=int(due)) if due
                   else i18n.t("events.clock.pairing.banks", locale, banks=listed))
    key = "events.clock.pairing.away_running" if no_vacation(d) else "events.clock.pairing.away"
    for u, until in info.get("away") or []:
        out.append(i18n.t(key, locale, text=i18n.t("clock.vacation.away", locale, name=names.get(u, "?"),
                                                   until=int(until))))
    return out


# ---------------------------------------------------------------------------- the trail
def _window_text(w: list[int]) -> str:
    return "-".join(f"{m // 60:02d}:{m % 60:02d}" for m in w)


def trail_changes(before: dict, after: dict, *, at: float, by: int | None) -> list[dict]:
    """The trail entries of a change of the event's clock (:func:`host.events.trail.changes` adds
    them): one per setting changed, its new value in ``params["value"]`` (a time control in its
    short notation, the hours as ``18:00-23:00``)."""
    s0, s1 = settings(before), settings(after)
    out = []
    for k in SETTINGS:
        if s0[k] == s1[k]:
            continue
        value = s1[k]
        params: dict[str, Any] = {}
        if k in ("vacation", "weekend_pause"):
            what = f"events.clock.trail.{k}_{'on' if value else 'off'}"
        elif value is None or value == []:
            what = f"events.clock.trail.{k}_off"
        else:
            what = f"events.clock.trail.{k}"
            if k == "time_control":
                params["value"] = control.notation(control.TimeControl.from_json(value))
            elif k == "hours":
                params["value"] = ", ".join(_window_text(w) for w in value)
            else:
                params["value"] = value
        out.append({"at": float(at), "by": by, "what": what, "params": params, "before": s0[k], "after": value})
    return out
