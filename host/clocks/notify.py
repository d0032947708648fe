"""How and when a player is told: time zone, quiet hours, ping/DM/digest, reminders.

Pure functions (no wall clock: every function takes ``now``, epoch seconds UTC).  Time zones are
IANA names handled with the standard library's :mod:`zoneinfo` (the ``tzdata`` package supplies
the zone data where the system has none).

Rules the issue leaves open, decided here:

* **Quiet hours follow the clock on the wall.**  An instant is quiet when its local time is in
  ``[start, end)`` (the window may cross midnight: 23:00–07:30).  What is made inside waits
  until the first instant whose local time is outside the window.  On the night the clocks
  go forward, an end time that does not exist (02:30 when 02:00 jumps to 03:00) ends the window
  at the jump; on the night they go back, a repeated hour inside the window is quiet both times,
  and a jump back to a time before the window's start ends it at the jump.
* **A deadline comes first.**  A notification held by quiet hours for a deadline ``due_by`` is
  delivered no later than ``due_by - 1 h`` (:data:`HOLD_LEAD`), so the player has an hour to
  act; if that is already past, at once.
* **The daily digest** comes once per local day at the chosen local hour; on the day that hour
  does not exist it comes when the clocks jump past it (02:00 → 03:00), and on the day it occurs
  twice, the first time only.  The hour is the player's explicit choice: it is kept even inside
  their quiet hours.
* **Reminders**: at most one per match per local day of the player (and one per vacation per
  day); the caller passes the instant the last one was delivered (:func:`deliver_at`'s result,
  not the instant it was made, so a reminder held overnight is not followed by another).
"""
from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from data import i18n
from host.clocks import ClockError

HOUR = 3600.0
HOLD_LEAD = 1 * HOUR                # a held notification still leaves this long before its deadline
HOWS = ("ping", "dm", "digest")
MAX_ZONE_TEXT = 64                  # the longest IANA name is 32 characters
MAX_QUIET_TEXT = 40
CHOICES = 25                        # Discord's limit of autocomplete choices
DAY_MINUTES = 24 * 60
# the areas of the canonical zone names offered by autocomplete (legacy links such as
# "US/Eastern" or "Japan" are still accepted when typed in full)
AREAS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific")
# places people type that are no zone's own name: a city in a zone named after another, a
# country, and the Japanese names of common places
ALIASES = {
    "osaka": "Asia/Tokyo", "kyoto": "Asia/Tokyo", "nagoya": "Asia/Tokyo", "sapporo": "Asia/Tokyo",
    "fukuoka": "Asia/Tokyo", "yokohama": "Asia/Tokyo", "japan": "Asia/Tokyo", "jst": "Asia/Tokyo",
    "beijing": "Asia/Shanghai", "china": "Asia/Shanghai", "korea": "Asia/Seoul", "taiwan": "Asia/Taipei",
    "mumbai": "Asia/Kolkata", "delhi": "Asia/Kolkata", "new_delhi": "Asia/Kolkata", "bangalore": "Asia/Kolkata",
    "india": "Asia/Kolkata", "hanoi": "Asia/Bangkok", "san_francisco": "America/Los_Angeles",
    "seattle": "America/Los_Angeles", "boston": "America/New_York", "washington": "America/New_York",
    "miami": "America/New_York", "atlanta": "America/New_York", "houston": "America/Chicago",
    "dallas": "America/Chicago", "munich": "Europe/Berlin", "frankfurt": "Europe/Berlin",
    "hamburg": "Europe/Berlin", "germany": "Europe/Berlin", "france": "Europe/Paris", "lyon": "Europe/Paris",
    "barcelona": "Europe/Madrid", "milan": "Europe/Rome", "geneva": "Europe/Zurich",
    "manchester": "Europe/London", "edinburgh": "Europe/London", "uk": "Europe/London",
    "hawaii": "Pacific/Honolulu", "gmt": "UTC", "utc": "UTC",
    "東京": "Asia/Tokyo", "大阪": "Asia/Tokyo", "京都": "Asia/Tokyo", "名古屋": "Asia/Tokyo", "札幌": "Asia/Tokyo",
    "福岡": "Asia/Tokyo", "沖縄": "Asia/Tokyo", "日本": "Asia/Tokyo", "ソウル": "Asia/Seoul",
    "北京": "Asia/Shanghai", "上海": "Asia/Shanghai", "台北": "Asia/Taipei", "香港": "Asia/Hong_Kong",
    "シンガポール": "Asia/Singapore", "バンコク": "Asia/Bangkok", "ロンドン": "Europe/London",
    "パリ": "Europe/Paris", "ベルリン": "Europe/Berlin", "ニューヨーク": "America/New_York",
    "ロサンゼルス": "America/Los_Angeles", "シカゴ": "America/Chicago", "ハワイ": "Pacific/Honolulu",
    "シドニー": "Australia/Sydney",
}
POPULAR = ("UTC", "Asia/Tokyo", "Asia/Seoul", "Asia/Shanghai", "Asia/Taipei", "Asia/Singapore", "Asia/Kolkata",
           "Europe/London", "Europe/Paris", "Europe/Berlin", "Europe/Madrid", "Europe/Moscow",
           "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Sao_Paulo",
           "America/Mexico_City", "America/Toronto", "Australia/Sydney", "Pacific/Auckland", "Pacific/Honolulu",
           "Africa/Johannesburg", "Africa/Cairo", "Asia/Dubai")


class NotifyError(ClockError):
    """A refusal in the reader's language (``err.text(locale)``): a :class:`ClockError`."""


# --------------------------------------------------------------------------- time zones
@lru_cache(maxsize=1)
def _zones() -> tuple[dict[str, str], tuple[tuple[str, str, str], ...]]:
    """({lower-case name: name} of every zone, ((name, lower name, lower city), …) of the
    canonical ones, sorted)."""
    names = {z for z in available_timezones() if not z.startswith(("posix/", "right/"))
             and z not in ("Factory", "localtime", "posixrules")}
    names.add("UTC")
    every = {z.lower(): z for z in names}
    canonical = sorted(z for z in names if z == "UTC" or z.split("/")[0] in AREAS)
    return every, tuple((z, z.lower(), z.rsplit("/", 1)[-1].lower()) for z in canonical)


def _typed(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().casefold().replace(" ", "_")


def parse_zone(text: Any) -> str:
    """An IANA zone name from what a player typed: the name in any case (``asia/tokyo``), a
    city of it (``Tokyo``, ``new york``) or a common place (``Osaka``, ``東京``)."""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_ZONE_TEXT:
        raise NotifyError("clock.notify.err.zone", zone=str(text)[:MAX_ZONE_TEXT])
    typed = _typed(text)
    every, canonical = _zones()
    if typed in every:
        return every[typed]
    if typed in ALIASES:
        return ALIASES[typed]
    cities = [z for z, _, city in canonical if city == typed]
    if len(cities) == 1:
        return cities[0]
    raise NotifyError("clock.notify.err.zone", zone=text.strip())


def zone_choices(prefix: str, limit: int = CHOICES) -> list[str]:
    """Autocomplete: up to ``limit`` zone names matching a typed prefix, case-insensitive, by the
    full name (``america/n``), its city (``tok`` → ``Asia/Tokyo``, ``new y`` → ``America/New_York``)
    or a common place (``osaka``, ``東京`` → ``Asia/Tokyo``).  An exact city or place first, then
    the names in order; the popular zones when nothing is typed."""
    if not isinstance(prefix, str) or len(prefix) > MAX_ZONE_TEXT:
        return []
    typed = _typed(prefix)
    if not typed:
        return list(POPULAR[:limit])
    _, canonical = _zones()
    exact = [zone for alias, zone in ALIASES.items() if alias == typed]
    exact += [z for z, _, city in canonical if city == typed]
    rest = [z for z, name, city in canonical if name.startswith(typed) or city.startswith(typed)]
    rest += sorted({zone for alias, zone in ALIASES.items() if alias.startswith(typed)})
    out: list[str] = []
    for zone in exact + rest:
        if zone not in out:
            out.append(zone)
            if len(out) == limit:
                break
    return out


# --------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class NotifySettings:
    """A player's own settings: ``zone`` (IANA name), ``quiet`` (local minutes after midnight
    ``(start, end)``, or None), ``how`` ("ping" in the thread, "dm", or "digest" only) and
    ``digest_hour`` (local hour 0..23 of a daily digest DM, or None)."""

    zone: str = "UTC"
    quiet: tuple[int, int] | None = None
    how: str = "ping"
    digest_hour: int | None = None

    def __post_init__(self) -> None:
        every, _ = _zones()
        if not isinstance(self.zone, str) or every.get(self.zone.lower()) != self.zone:
            raise NotifyError("clock.notify.err.zone", zone=str(self.zone)[:MAX_ZONE_TEXT])
        if self.quiet is not None:
            q = self.quiet
            if (not isinstance(q, tuple) or len(q) != 2 or not all(_whole(m, 0, DAY_MINUTES - 1) for m in q)):
                raise NotifyError("clock.notify.err.quiet_format", text=str(q)[:MAX_QUIET_TEXT])
            if q[0] == q[1]:
                raise NotifyError("clock.notify.err.quiet_same")
        if self.how not in HOWS:
            raise NotifyError("clock.notify.err.how", how=str(self.how)[:20])
        if self.digest_hour is not None and not _whole(self.digest_hour, 0, 23):
            raise NotifyError("clock.notify.err.digest_hour")

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)

    def to_json(self) -> dict:
        return {"zone": self.zone, "quiet": quiet_text(self.quiet), "how": self.how, "digest_hour": self.digest_hour}

    @classmethod
    def from_json(cls, data: Any) -> "NotifySettings":
        """Stored settings, checked as a player's own input is (a missing field takes its default)."""
        if not isinstance(data, dict):
            raise NotifyError("clock.notify.err.settings")
        quiet = data.get("quiet")
        return cls(zone=data.get("zone", "UTC"), quiet=None if quiet is None else parse_quiet(quiet),
                   how=data.get("how", "ping"), digest_hour=data.get("digest_hour"))


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def quiet_text(quiet: tuple[int, int] | None) -> str | None:
    """``(1380, 450)`` → ``"23:00-07:30"``."""
    if quiet is None:
        return None
    return "-".join(clock_text(m) for m in quiet)


def clock_text(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


# --------------------------------------------------------------------------- parsing
OFF = {"off", "none", "no", "なし", "オフ", "無し", "-"}
SEPARATOR = re.compile(r"\s*(?:-|–|—|~|〜|to|から)\s*")
LATIN_TIME = re.compile(r"(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?")
JA_TIME = re.compile(r"(午前|午後)?(\d{1,2})時(?:(半)|(\d{1,2})分)?")


def parse_time(part: str) -> int | None:
    """A local time of day in minutes after midnight, or None: ``23``, ``23:00``, ``7:30``,
    ``7.30``, ``11pm``, ``7:30 am``, ``23時``, ``7時半``, ``7時30分``, ``午後11時`` (``24:00`` is
    midnight).  ``part`` is already normalised (NFKC, lower case)."""
    m = LATIN_TIME.fullmatch(part)
    if m:
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), m.group(3)
        if half:
            if not 1 <= hour <= 12:
                return None
            hour = hour % 12 + (12 if half.startswith("p") else 0)
    else:
        m = JA_TIME.fullmatch(part)
        if not m:
            return None
        half, hour = m.group(1), int(m.group(2))
        minute = 30 if m.group(3) else int(m.group(4) or 0)
        if half:
            if not 0 <= hour <= 12:
                return None
            hour = hour % 12 + (12 if half == "午後" else 0)
    if minute > 59 or hour > 24 or (hour == 24 and minute):
        return None
    return (hour * 60 + minute) % DAY_MINUTES


def parse_quiet(text: Any) -> tuple[int, int] | None:
    """Quiet hours from what a player typed: ``23:00-07:30``, ``23-7``, ``11pm to 7am``,
    ``23時〜7時半``, ``２３：００～０７：３０``; ``off``/``なし`` for none.  The length is checked
    first; an error names the part that is wrong (the start or the end)."""
    if not isinstance(text, str) or len(text) > MAX_QUIET_TEXT:
        raise NotifyError("clock.notify.err.quiet_long", max=MAX_QUIET_TEXT)
    typed = unicodedata.normalize("NFKC", text).strip().casefold()
    if typed in OFF:
        return None
    parts = SEPARATOR.split(typed, maxsplit=1)
    if len(parts) != 2 or not parts[0] or not parts[1]:
        raise NotifyError("clock.notify.err.quiet_format", text=text.strip())
    start, end = parse_time(parts[0]), parse_time(parts[1])
    if start is None:
        raise NotifyError("clock.notify.err.quiet_start", part=parts[0])
    if end is None:
        raise NotifyError("clock.notify.err.quiet_end", part=parts[1])
    if start == end:
        raise NotifyError("clock.notify.err.quiet_same")
    return start, end


def parse_digest_hour(text: Any) -> int | None:
    """The digest hour from what a player typed: ``8``, ``8:00``, ``8am``, ``8時``; ``off`` for
    none.  A whole hour."""
    if not isinstance(text, str) or len(text) > MAX_QUIET_TEXT:
        raise NotifyError("clock.notify.err.digest_hour")
    typed = unicodedata.normalize("NFKC", text).strip().casefold()
    if typed in OFF:
        return None
    minutes = parse_time(typed)
    if minutes is None or minutes % 60:
        raise NotifyError("clock.notify.err.digest_hour")
    return minutes // 60


def parse_how(text: Any) -> str:
    if text not in HOWS:
        raise NotifyError("clock.notify.err.how", how=str(text)[:20])
    return text


# --------------------------------------------------------------------------- local time
def _wall(zone: ZoneInfo, t: float) -> datetime:
    return datetime.fromtimestamp(t, zone)


def _minute_of_day(local: datetime) -> float:
    return local.hour * 60 + local.minute + (local.second + local.microsecond / 1e6) / 60


def local_instants(zone: ZoneInfo, day: date, minutes: int) -> list[float]:
    """The instants whose local clock reads ``day`` at ``minutes`` after midnight, earliest
    first: one; two on the night the clocks go back; none in the hour skipped when they go
    forward — then the instant of the jump, the first whose local time is past it."""
    hour, minute = divmod(minutes, 60)
    first = datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone, fold=0).timestamp()
    second = datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone, fold=1).timestamp()
    if first == second:
        return [first]
    if first < second:
        return [first, second]
    # skipped: fold=1 reads it with the offset after the jump (earlier), fold=0 with the one
    # before (later); the jump is between them, where the offset changes
    jump = _jump(zone, second, first)
    return [first if jump is None else jump]


def in_quiet(settings: NotifySettings, t: float) -> bool:
    """Is instant ``t`` inside the player's quiet hours (local ``[start, end)``)?"""
    if settings.quiet is None:
        return False
    start, end = settings.quiet
    m = _minute_of_day(_wall(settings.tz, t))
    return start <= m < end if start < end else (m >= start or m < end)


def quiet_end(settings: NotifySettings, now: float) -> float:
    """The first instant after ``now`` outside the quiet hours (``now`` itself when outside)."""
    if not in_quiet(settings, now):
        return now
    zone = settings.tz
    start, end = settings.quiet or (0, 0)
    local = _wall(zone, now)
    day = local.date()
    if start > end and _minute_of_day(local) >= start:
        day += timedelta(days=1)            # the window crosses midnight: it ends tomorrow
    for offset in range(3):
        later = [t for t in local_instants(zone, day + timedelta(days=offset), end) if t > now]
        if later:
            # the clocks going back may take the wall out of the window before it reads the end
            jump = _jump(zone, now, later[0])
            return jump if jump is not None and not in_quiet(settings, jump) else later[0]
    raise AssertionError("a quiet window always ends within two days")  # pragma: no cover


def _jump(zone: ZoneInfo, low_t: float, high_t: float) -> float | None:
    """The instant in ``(low_t, high_t]`` where the zone's offset changes, if it does (the first
    such whole second; one change at most in the day or two this looks at)."""
    before = _wall(zone, low_t).utcoffset()
    if _wall(zone, high_t).utcoffset() == before:
        return None
    low, high = math.floor(low_t), math.ceil(high_t)
    while high - low > 1:
        mid = (low + high) // 2
        if _wall(zone, mid).utcoffset() == before:
            low = mid
        else:
            high = mid
    return float(high)


def deliver_at(settings: NotifySettings, now: float, due_by: float | None = None,
               lead: float = HOLD_LEAD) -> float:
    """When a notification made at ``now`` may be delivered (a ping or a DM alike): at once
    outside quiet hours, else when they end — unless a deadline ``due_by`` comes first: then
    at the later of ``now`` and ``due_by - lead`` (an hour to act by default)."""
    held = quiet_end(settings, now)
    if held == now:
        return now
    if due_by is not None and held > due_by - lead:
        return max(now, due_by - lead)
    return held


def next_digest(settings: NotifySettings, now: float) -> float | None:
    """The next daily digest after ``now``: the chosen local hour, once per local day (the jump
    when the hour is skipped, the first time when it occurs twice); None without one."""
    if settings.digest_hour is None:
        return None
    zone = settings.tz
    day = _wall(zone, now).date()
    for offset in range(3):
        at = local_instants(zone, day + timedelta(days=offset), settings.digest_hour * 60)[0]
        if at > now:
            return at
    raise AssertionError("a digest hour comes within two days")  # pragma: no cover


def same_local_day(a: float, b: float, zone: str = "UTC") -> bool:
    tz = ZoneInfo(zone)
    return _wall(tz, a).date() == _wall(tz, b).date()


# --------------------------------------------------------------------------- reminders
def reminder_due(bank_left: float, bank_initial_or_turn: float, share: float, hours: float,
                 last_sent: float | None, now: float, zone: str = "UTC") -> bool:
    """A "your time is running out" reminder is due: the bank (or a per-move clock) has some
    time left but no more than ``share`` of its initial time or ``hours`` (whichever is more;
    0 turns one off), and none was delivered this local day of the player."""
    if bank_left <= 0:
        return False
    if bank_left > max(share * bank_initial_or_turn, hours * HOUR):
        return False
    return last_sent is None or not same_local_day(last_sent, now, zone)


def vacation_reminder_due(vacation_end: float, last_sent: float | None, now: float,
                          zone: str = "UTC", hours: float = 24) -> bool:
    """A "your vacation ends soon" reminder is due: the vacation ends within ``hours`` and none
    was delivered for it this local day of the player."""
    if not 0 < vacation_end - now <= hours * HOUR:
        return False
    return last_sent is None or not same_local_day(last_sent, now, zone)


# --------------------------------------------------------------------------- words
def settings_text(settings: NotifySettings, locale: Any) -> str:
    """The player's settings in words, one line each."""
    lines = [i18n.t("clock.notify.show.zone", locale, zone=settings.zone)]
    if settings.quiet is None:
        lines.append(i18n.t("clock.notify.show.quiet_off", locale))
    else:
        lines.append(i18n.t("clock.notify.show.quiet", locale, start=clock_text(settings.quiet[0]),
                            end=clock_text(settings.quiet[1])))
    lines.append(i18n.t(f"clock.notify.show.how.{settings.how}", locale))
    if settings.digest_hour is None:
        lines.append(i18n.t("clock.notify.show.digest_off", locale))
    else:
        lines.append(i18n.t("clock.notify.show.digest", locale, at=clock_text(settings.digest_hour * 60)))
    return "\n".join(lines)


def reminder_text(game: str, match_id: int, deadline: float, locale: Any) -> str:
    """The reminder itself: which match, and its deadline as a Discord timestamp."""
    return i18n.t("clock.notify.reminder", locale, game=i18n.t(f"game.{game}", locale), match_id=match_id,
                  at=int(deadline))


def vacation_reminder_text(vacation_end: float, locale: Any) -> str:
    return i18n.t("clock.notify.vacation_ends", locale, at=int(vacation_end))
