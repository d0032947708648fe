"""When a player's clock runs: for ONE player in ONE match, a :class:`Calendar` says when their
clock is paused, and :func:`running` / :func:`deadline` turn it into seconds and instants.

The clock does not run

* over the **weekend** (``weekend_zone`` set): from Saturday 00:00 to Monday 00:00 in the
  player's own time zone, by local midnights (a weekend with a daylight-saving change lasts 47
  or 49 hours of real time);
* outside **playing hours** (``hours`` set, an event's option): daily windows of local time in
  the event's zone (``hours_zone``), e.g. 18:00–23:00; a window may cross midnight
  (22:00–02:00) and a day may have several;
* during a **vacation**: the ``[start, end)`` instants the caller gives.

Everything is pure: instants are epoch seconds (UTC floats), zones are IANA names read with
``zoneinfo``.  The work is proportional to the pauses crossed, never to the seconds: each step
jumps to the next boundary (a weekend's end, a window's start, a vacation's end).  A valid
calendar always runs again (every week has weekdays, every day at least an hour of playing time,
vacations end), and the walk raises ``ClockError("clock.calendar.err.never")`` rather than loop
if that were ever untrue.
"""
from __future__ import annotations

import math
import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import lru_cache
from typing import Any, Iterator
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from data import i18n
from host.clocks import ClockError

DAY_MINUTES = 24 * 60
MAX_WINDOWS = 4               # playing-hours windows a day
MIN_WINDOW = 30               # minutes: each window lasts at least this
MIN_DAILY = 60                # minutes: and all of a day's windows together at least this
MAX_HOURS_TEXT = 100          # what an organiser may type for playing hours
MAX_ZONE = 64                 # the longest IANA name is 32 characters
MAX_STEPS = 100_000           # pauses in a row before the walk gives up (never, for a valid calendar)
MAX_INSTANT = 253_402_214_400.0   # 9999-12-31 00:00 UTC: beyond it local dates do not exist
_ZONE_NAME = re.compile(r"[A-Za-z0-9_+\-]+(?:/[A-Za-z0-9_+\-]+)*")

Window = tuple[int, int]      # (start, end) in minutes of the local day; end < start crosses midnight


# --------------------------------------------------------------------------- zones and hours
def check_zone(name: Any) -> str:
    """``name`` if it is a time zone ``zoneinfo`` knows (``Asia/Tokyo``), else ``ClockError``."""
    shown = str(name)[:40]
    if not isinstance(name, str) or not 0 < len(name) <= MAX_ZONE or not _ZONE_NAME.fullmatch(name):
        raise ClockError("clock.calendar.err.zone", zone=shown)
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ClockError("clock.calendar.err.zone", zone=shown) from None
    return name


def _length(window: Window) -> int:
    start, end = window
    return end - start if end > start else end + DAY_MINUTES - start


def _clock_text(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def check_hours(windows: Any) -> tuple[Window, ...]:
    """Playing-hours windows, checked and sorted by start: each ``(start, end)`` in minutes of
    the day (end 1440 or 0 is midnight), at least ``MIN_WINDOW`` minutes, none overlapping
    (across midnight too), at most ``MAX_WINDOWS``, together at least ``MIN_DAILY`` minutes."""
    try:
        pairs = [(w[0], w[1]) for w in windows]
    except (TypeError, IndexError, KeyError):
        raise ClockError("clock.calendar.err.hours_syntax", part=str(windows)[:12], at=1) from None
    if len(pairs) > MAX_WINDOWS:
        raise ClockError("clock.calendar.err.hours_count", max=MAX_WINDOWS)
    out: list[Window] = []
    for start, end in pairs:
        if type(start) is not int or type(end) is not int or not (0 <= start < DAY_MINUTES and 0 <= end <= DAY_MINUTES):
            raise ClockError("clock.calendar.err.hours_time", part=f"{start}-{end}"[:12], at=1)
        end = DAY_MINUTES if end == 0 else end
        window = (start, end)
        if start == end:
            raise ClockError("clock.calendar.err.hours_same", window=_both(window))
        if _length(window) < MIN_WINDOW:
            raise ClockError("clock.calendar.err.hours_short", window=_both(window), min=MIN_WINDOW, total=MIN_DAILY)
        out.append(window)
    out.sort()
    for i, a in enumerate(out):
        for b in out[i + 1:]:
            for shift in (-DAY_MINUTES, 0, DAY_MINUTES):
                if a[0] < b[0] + shift + _length(b) and b[0] + shift < a[0] + _length(a):
                    raise ClockError("clock.calendar.err.hours_overlap", a=_both(a), b=_both(b))
    if out and sum(map(_length, out)) < MIN_DAILY:
        raise ClockError("clock.calendar.err.hours_short", window=_both(out[0]), min=MIN_WINDOW, total=MIN_DAILY)
    return tuple(out)


def format_window(window: Window, locale: Any = "en") -> str:
    """``18:00–23:00`` (``18:00〜23:00`` in Japanese); midnight as an end is ``24:00``."""
    return i18n.t("clock.calendar.hours.window", locale, start=_clock_text(window[0]), end=_clock_text(window[1]))


def _both(window: Window) -> dict[str, str]:
    """A window in both languages: an error's param, said in the reader's language."""
    return {loc: format_window(window, loc) for loc in i18n.LOCALES}


def format_hours(windows: tuple[Window, ...], locale: Any = "en") -> str:
    """Every window, in the reader's words: ``18:00–23:00, 22:00–02:00``; none: all day."""
    if not windows:
        return i18n.t("clock.calendar.hours.all_day", locale)
    return i18n.t("core.list_sep", locale).join(format_window(w, locale) for w in sorted(windows))


_RANGE = ("-", "–", "—", "〜", "~", "から", "to")
_SEPARATORS = (",", "、", ";", "/", "と", "and")
_NONE = ("none", "なし", "all day", "終日")


def parse_hours(text: Any) -> tuple[Window, ...]:
    """Playing hours an organiser typed: ``18:00-23:00``, ``22:00–02:00, 12:00-13:00``,
    ``18時〜23時``, ``19時半から22時``; empty, ``none`` or ``なし``: no playing hours (the clock runs
    all day).  The length is checked first and the reading is linear in it."""
    if not isinstance(text, str):
        raise ClockError("clock.calendar.err.hours_syntax", part="", at=1)
    if len(text) > MAX_HOURS_TEXT:
        raise ClockError("clock.calendar.err.hours_too_long", max=MAX_HOURS_TEXT)
    s = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    if len(s) > 4 * MAX_HOURS_TEXT:
        raise ClockError("clock.calendar.err.hours_too_long", max=MAX_HOURS_TEXT)
    if not s or s in _NONE:
        return ()
    i, n = 0, len(s)
    windows: list[Window] = []

    def skip(words: tuple[str, ...]) -> bool:
        nonlocal i
        while i < n and s[i] == " ":
            i += 1
        word = next((w for w in words if s.startswith(w, i)), None)
        if word is None:
            return False
        i += len(word)
        while i < n and s[i] == " ":
            i += 1
        return True

    def number() -> int:
        nonlocal i
        start = i
        while i < n and "0" <= s[i] <= "9" and i - start < 3:
            i += 1
        if i == start:
            raise ClockError("clock.calendar.err.hours_syntax", part=s[start:start + 12].strip() or s[start:start + 1],
                             at=start + 1)
        if i - start > 2:
            raise ClockError("clock.calendar.err.hours_time", part=s[start:i], at=start + 1)
        return int(s[start:i])

    def clock() -> int:
        nonlocal i
        start = i
        hour = number()
        minute = 0
        if i < n and s[i] == ":":
            i += 1
            minute = number()
        elif i < n and s[i] == "時":
            i += 1
            if i < n and s[i] == "半":
                i += 1
                minute = 30
            elif i < n and "0" <= s[i] <= "9":
                minute = number()
                if i < n and s[i] == "分":
                    i += 1
                else:
                    raise ClockError("clock.calendar.err.hours_syntax", part=s[i:i + 12] or s[start:i], at=i + 1)
        if hour > 24 or minute > 59 or (hour == 24 and minute):
            raise ClockError("clock.calendar.err.hours_time", part=s[start:i], at=start + 1)
        return hour * 60 + minute

    while True:
        opened = i
        begin = clock()
        if not skip(_RANGE):       # "18:00" alone, "18:00 23:00": a window needs its end
            at = i if i < n else opened
            raise ClockError("clock.calendar.err.hours_syntax", part=s[at:at + 12].strip(), at=at + 1)
        end = clock()
        windows.append((0 if begin == DAY_MINUTES else begin, end))
        if len(windows) > MAX_WINDOWS:
            raise ClockError("clock.calendar.err.hours_count", max=MAX_WINDOWS)
        spaced = i < n and s[i] == " "
        if not skip(_SEPARATORS) and not (spaced and i < n and "0" <= s[i] <= "9"):
            if i >= n:
                break
            raise ClockError("clock.calendar.err.hours_syntax", part=s[i:i + 12], at=i + 1)
        if i >= n:
            raise ClockError("clock.calendar.err.hours_syntax", part=s[-1], at=n)
    return check_hours(windows)


# --------------------------------------------------------------------------- the calendar
def _instant_ok(t: Any) -> float:
    if not (isinstance(t, (int, float)) and math.isfinite(t) and -MAX_INSTANT < t < MAX_INSTANT):
        raise ValueError(f"an instant must be finite epoch seconds, not {t!r}")
    return float(t)


@dataclass(frozen=True)
class Calendar:
    """When ONE player's clock in ONE match does not run (module doc).  ``vacations`` are
    ``(start, end)`` instants, given in any order; they are kept sorted and merged."""

    weekend_zone: str | None = None
    hours: tuple[Window, ...] = ()
    hours_zone: str | None = None
    vacations: tuple[tuple[float, float], ...] = ()
    _wz: Any = field(default=None, init=False, repr=False, compare=False)
    _hz: Any = field(default=None, init=False, repr=False, compare=False)
    _vac_starts: tuple[float, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.weekend_zone is not None:
            object.__setattr__(self, "_wz", ZoneInfo(check_zone(self.weekend_zone)))
        object.__setattr__(self, "hours", check_hours(self.hours))
        if self.hours:
            if self.hours_zone is None:
                raise ClockError("clock.calendar.err.hours_zone")
            object.__setattr__(self, "_hz", ZoneInfo(check_zone(self.hours_zone)))
        merged: list[tuple[float, float]] = []
        try:
            spans = sorted((_instant_ok(a), _instant_ok(b)) for a, b in self.vacations)
        except (TypeError, ValueError):
            raise ClockError("clock.calendar.err.vacation") from None
        for a, b in spans:
            if not a < b:
                raise ClockError("clock.calendar.err.vacation")
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        object.__setattr__(self, "vacations", tuple(merged))
        object.__setattr__(self, "_vac_starts", tuple(a for a, _ in merged))


ALWAYS = Calendar()      # a clock that always runs (no pause of any kind)


@lru_cache(maxsize=65536)
def _instant(zone: ZoneInfo, ordinal: int, minute: int) -> float:
    """The instant of local ``minute`` (0..1440) on the local date ``ordinal`` in ``zone``.
    A local time that does not exist (a spring-forward gap) is read with the offset before the
    change, one that occurs twice (fall back) is its first occurrence (``fold=0``)."""
    day = date.fromordinal(ordinal + minute // DAY_MINUTES)
    minute %= DAY_MINUTES
    return datetime(day.year, day.month, day.day, minute // 60, minute % 60, tzinfo=zone).timestamp()


def _ordinal(zone: ZoneInfo, t: float) -> int:
    return datetime.fromtimestamp(t, zone).toordinal()


def _scan(spans: Iterator[tuple[float, float]], t: float) -> tuple[bool, float]:
    """(inside, boundary) against the pauses or windows ``spans``: inside one, its end (the
    latest of those holding ``t``); outside all, the next start (inf when none)."""
    inside, end, nxt = False, -math.inf, math.inf
    for a, b in spans:
        if b <= a:
            continue            # a window a daylight-saving change left empty
        if a <= t < b:
            inside, end = True, max(end, b)
        elif t < a:
            nxt = min(nxt, a)
    return (True, end) if inside else (False, nxt)


def _weekend(cal: Calendar, t: float) -> tuple[bool, float]:
    """In a weekend pause: (True, its end); else (False, the next one's start)."""
    zone = cal._wz
    today = _ordinal(zone, t)
    monday = today - (today - 1) % 7          # date.fromordinal(1) is a Monday
    return _scan(((_instant(zone, monday + k + 5, 0), _instant(zone, monday + k + 7, 0)) for k in (-7, 0, 7)), t)


@lru_cache(maxsize=65536)
def _day_windows(zone: ZoneInfo, hours: tuple[Window, ...], ordinal: int) -> tuple[tuple[float, float], ...]:
    return tuple((_instant(zone, ordinal, s), _instant(zone, ordinal + (1 if e < s else 0), e)) for s, e in hours)


def _hours(cal: Calendar, t: float) -> tuple[bool, float]:
    """Inside playing hours: (True, the window's end); else (False, the next window's start)."""
    zone, today = cal._hz, _ordinal(cal._hz, t)
    spans = [w for day in (today - 1, today, today + 1) for w in _day_windows(zone, cal.hours, day)]
    found = _scan(iter(spans), t)
    day = today + 2
    while not found[0] and found[1] == math.inf and day < today + 9:     # a day a change emptied
        found = _scan(iter(_day_windows(zone, cal.hours, day)), t)
        day += 1
    return found


def _vacation(cal: Calendar, t: float) -> tuple[bool, float]:
    """On vacation: (True, its end); else (False, the next vacation's start, inf when none)."""
    k = bisect_right(cal._vac_starts, t) - 1
    if k >= 0 and t < cal.vacations[k][1]:
        return True, cal.vacations[k][1]
    return False, cal.vacations[k + 1][0] if k + 1 < len(cal.vacations) else math.inf


def _run_from(cal: Calendar, t: float) -> tuple[float, float]:
    """The first stretch ``[a, b)`` with ``a >= t`` in which the clock runs (``b`` may be inf)."""
    for _ in range(MAX_STEPS):
        if t >= MAX_INSTANT:
            break
        end = math.inf
        if cal.vacations:
            inside, bound = _vacation(cal, t)
            if inside:
                t = bound
                continue
            end = bound
        if cal._wz is not None:
            inside, bound = _weekend(cal, t)
            if inside:
                t = bound
                continue
            end = min(end, bound)
        if cal._hz is not None:
            inside, bound = _hours(cal, t)
            if not inside:
                t = bound
                continue
            end = min(end, bound)
        return t, end
    raise ClockError("clock.calendar.err.never")


def stretches(cal: Calendar, start: float, end: float) -> Iterator[tuple[float, float]]:
    """The stretches of ``[start, end)`` in which the clock runs, in order."""
    t, end = _instant_ok(start), _instant_ok(end)
    while t < end:
        a, b = _run_from(cal, t)
        if a >= end:
            return
        yield a, min(b, end)
        t = b


def running(cal: Calendar, start: float, end: float) -> float:
    """Seconds the clock runs between the instants ``start`` and ``end`` (0 if end <= start)."""
    return sum(b - a for a, b in stretches(cal, start, end))


def deadline(cal: Calendar, start: float, budget: float) -> float:
    """The earliest instant ``t`` with ``running(cal, start, t) == budget``: when a bank of
    ``budget`` seconds, started at ``start``, runs out (``start`` itself for an empty bank)."""
    t = _instant_ok(start)
    if not (isinstance(budget, (int, float)) and math.isfinite(budget)):
        raise ValueError(f"budget must be finite seconds, not {budget!r}")
    left = float(budget)
    if left <= 0:
        return t
    while True:
        a, b = _run_from(cal, t)
        if b - a >= left:
            return a + left
        left -= b - a
        t = b


def next_running(cal: Calendar, t: float) -> float:
    """When the clock next runs at or after ``t`` (``t`` itself if it runs now)."""
    return _run_from(cal, _instant_ok(t))[0]


def vacation_end(cal: Calendar, t: float) -> float | None:
    """The end of the vacation ``t`` falls in (touching ones merged), or None when it falls in none."""
    if not cal.vacations:
        return None
    inside, end = _vacation(cal, _instant_ok(t))
    return end if inside else None


def pause_at(cal: Calendar, t: float) -> str | None:
    """Why the clock is paused at ``t`` — ``"vacation"``, ``"weekend"`` or ``"hours"`` (outside
    playing hours), in that order — or None when it runs; the board's words are the catalog's
    ``clock.calendar.pause.<why>``."""
    t = _instant_ok(t)
    if cal.vacations and _vacation(cal, t)[0]:
        return "vacation"
    if cal._wz is not None and _weekend(cal, t)[0]:
        return "weekend"
    if cal._hz is not None and not _hours(cal, t)[0]:
        return "hours"
    return None
