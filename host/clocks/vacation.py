"""Vacation days: a player's allowance per rolling 365 days, taken whole days at a time.

Pure functions over a player's records (no store, no wall clock: every function takes ``now``,
an instant in epoch seconds, UTC).  A record is a :class:`Vacation` ``[start, end)`` and how it
was taken: ``"asked"`` (``/vacation start``) or ``"auto"`` (a day taken when a bank ran out).

How days are counted, precisely:

* A vacation counts ``ceil((end - start) / 1 day)`` whole days, at least 1: one asked for 3 days
  counts 3; one ended after 2.5 days counts 3; one ended the moment it started counts 1.
* Day ``i`` of a vacation (``i = 0, 1, …``) is *taken* at ``start + i days``; it counts against
  the allowance from the moment the vacation starts (the days not yet begun of a running
  vacation are reserved) until exactly 365 days after it was taken, when it *comes back*.  So a
  day taken at instant ``d`` counts at every ``now`` with ``now < d + 365 days`` and no longer at
  ``now == d + 365 days``; the 14 days of a 14-day vacation come back one a day, a year on.
* A vacation starts at ``now``: never backdated, never in the future.  An automatic day may
  start at the instant the bank ran out (``at``), which the caller knows, but never before the
  end of the player's last vacation and never after ``now``: consecutive automatic days chain
  without a gap.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable

from data import i18n
from host.clocks import ClockError

DAY = 86400.0
WINDOW = 365 * DAY
ALLOWANCE_DEFAULT = 14
ALLOWANCE_MIN, ALLOWANCE_MAX = 0, 60
ASKED, AUTO = "asked", "auto"
HOWS = (ASKED, AUTO)
# float sums (start + 3 days) may land a hair past a whole day: that hair is not a day
_SLACK = 1e-3


class VacationError(ClockError):
    """A refusal in the reader's language (``err.text(locale)``): a :class:`ClockError`."""


@dataclass(frozen=True)
class Vacation:
    """One vacation ``[start, end)``: ``end`` is the planned end while it runs, the actual end
    once it has been ended early."""

    start: float
    end: float
    how: str = ASKED

    @property
    def days(self) -> int:
        """The whole days it counts: rounded up, at least 1."""
        return max(1, math.ceil((self.end - self.start) / DAY - _SLACK / DAY))

    def taken(self) -> list[float]:
        """The instant each of its counted days was taken (day ``i`` at ``start + i days``)."""
        return [self.start + i * DAY for i in range(self.days)]

    def running(self, now: float) -> bool:
        return self.start <= now < self.end

    def to_json(self) -> dict:
        return {"start": self.start, "end": self.end, "how": self.how}

    @classmethod
    def from_json(cls, data: Any) -> "Vacation":
        """A stored record, checked: a JSON object with finite ``start < end`` (or ``start ==
        end``, a vacation ended the moment it started) and a known ``how``."""
        if not isinstance(data, dict):
            raise VacationError("clock.vacation.err.record")
        start, end, how = data.get("start"), data.get("end"), data.get("how", ASKED)
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in (start, end)):
            raise VacationError("clock.vacation.err.record")
        if end < start or end - start > ALLOWANCE_MAX * DAY or how not in HOWS:
            raise VacationError("clock.vacation.err.record")
        return cls(float(start), float(end), how)


def check_allowance(value: Any) -> int:
    """A server's allowance (days per rolling 365 days): a whole number in 0..60."""
    if isinstance(value, bool) or not isinstance(value, int) or not ALLOWANCE_MIN <= value <= ALLOWANCE_MAX:
        raise VacationError("clock.vacation.err.allowance", min=ALLOWANCE_MIN, max=ALLOWANCE_MAX)
    return value


def _sorted(records: Iterable[Vacation]) -> list[Vacation]:
    return sorted(records, key=lambda r: (r.start, r.end))


def current(records: Iterable[Vacation], now: float) -> Vacation | None:
    """The vacation running at ``now``, if any."""
    return next((r for r in records if r.running(now)), None)


def _last_end(records: Iterable[Vacation]) -> float | None:
    return max((r.end for r in records), default=None)


def _returns(records: Iterable[Vacation], now: float) -> list[float]:
    """When each day still counted at ``now`` comes back, earliest first."""
    return sorted(d + WINDOW for r in records for d in r.taken() if d + WINDOW > now)


def used(records: Iterable[Vacation], now: float) -> int:
    """The days counted against the allowance at ``now`` (reserved days of a running vacation
    included)."""
    return len(_returns(records, now))


def remaining(records: Iterable[Vacation], now: float, allowance: int = ALLOWANCE_DEFAULT) -> int:
    return max(0, allowance - used(records, now))


def next_day_back(records: Iterable[Vacation], now: float, allowance: int = ALLOWANCE_DEFAULT) -> float | None:
    """The instant the player has one more day to take than at ``now``; None when no day comes
    back that would (nothing used, or an allowance of 0).  With days left this is the next
    return; with none left (or more used than a lowered allowance), the return that brings the
    count of days used below the allowance."""
    back = _returns(records, now)
    left = max(0, allowance - len(back))
    need = len(back) - allowance + left + 1      # 1 with days left, else enough to go below
    return back[need - 1] if 1 <= need <= len(back) else None


def start(records: Iterable[Vacation], now: float, days: int | None = None,
          allowance: int = ALLOWANCE_DEFAULT) -> Vacation:
    """A vacation asked for at ``now`` (``/vacation start [days]``, 1 day when not said):
    whole days, 1 to the days remaining; refused while one runs and when no day remains."""
    records = list(records)
    days = 1 if days is None else days
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise VacationError("clock.vacation.err.days")
    last = _last_end(records)
    if last is not None and last > now:
        raise VacationError("clock.vacation.err.running", until=int(last))
    left = remaining(records, now, allowance)
    if left == 0:
        back = next_day_back(records, now, allowance)
        if back is None:
            raise VacationError("clock.vacation.err.none_allowed")
        raise VacationError("clock.vacation.err.none_left", at=math.ceil(back))
    if days > left:
        raise VacationError("clock.vacation.err.too_many", n=left, days=days)
    return Vacation(now, now + days * DAY, ASKED)


def end(records: Iterable[Vacation], now: float) -> list[Vacation]:
    """The records with the running vacation ended at ``now`` (it then counts its whole days,
    rounded up); refused when none runs."""
    records = list(records)
    running = current(records, now)
    if running is None:
        raise VacationError("clock.vacation.err.not_running")
    return [Vacation(r.start, now, r.how) if r is running else r for r in records]


def auto_day(records: Iterable[Vacation], now: float, allowance: int = ALLOWANCE_DEFAULT,
             at: float | None = None) -> Vacation | None:
    """One vacation day taken automatically because a bank ran out (at ``at``, default ``now``),
    if a day remains; None when none does or a vacation already covers ``now``.  Called again
    when that day is over and the bank is still out, it takes the next day, starting where the
    last one ended.  Whether the match allows vacation is the caller's decision."""
    records = list(records)
    when = now if at is None else min(at, now)
    last = _last_end(records)
    if last is not None and last > now:
        return None                         # on vacation already: the bank does not run
    begin = when if last is None else max(when, last)
    if remaining(records, begin, allowance) < 1:
        return None
    return Vacation(begin, begin + DAY, AUTO)


def intervals(records: Iterable[Vacation]) -> list[tuple[float, float]]:
    """The player's vacations as ``[start, end)`` intervals for the calendar: sorted, the
    touching or overlapping ones merged, the empty ones left out."""
    out: list[tuple[float, float]] = []
    for r in _sorted(records):
        if r.end <= r.start:
            continue
        if out and r.start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], r.end))
        else:
            out.append((r.start, r.end))
    return out


def prune(records: Iterable[Vacation], now: float) -> list[Vacation]:
    """The records that still matter at ``now``: a vacation whose every day has come back
    counts for nothing and can be forgotten."""
    return [r for r in _sorted(records) if r.end > now or r.taken()[-1] + WINDOW > now]


# --------------------------------------------------------------------------- words
def status_text(records: Iterable[Vacation], now: float, allowance: int, locale: Any) -> str:
    """``/vacation status``: on vacation until when, the days left, when the next one comes back."""
    records = list(records)
    lines = []
    running = current(records, now)
    if running is not None:
        lines.append(i18n.t("clock.vacation.status.on", locale, until=int(running.end)))
    else:
        lines.append(i18n.t("clock.vacation.status.off", locale))
    if allowance == 0:
        lines.append(i18n.t("clock.vacation.status.none_allowed", locale))
        return "\n".join(lines)
    left = remaining(records, now, allowance)
    lines.append(i18n.t("clock.vacation.status.left", locale, n=left, allowance=allowance))
    back = next_day_back(records, now, allowance)
    if back is not None:
        lines.append(i18n.t("clock.vacation.status.next", locale, at=math.ceil(back)))
    return "\n".join(lines)


def away_text(name: str, records: Iterable[Vacation], now: float, locale: Any) -> str | None:
    """What opponents see beside a player on vacation ("on vacation until …"); None otherwise."""
    running = current(records, now)
    if running is None:
        return None
    return i18n.t("clock.vacation.away", locale, name=name, until=int(running.end))


def started_text(record: Vacation, locale: Any) -> str:
    return i18n.t("clock.vacation.started", locale, n=record.days, until=int(record.end))


def ended_text(record: Vacation, locale: Any) -> str:
    return i18n.t("clock.vacation.ended", locale, n=record.days)


def auto_text(name: str, record: Vacation, left: int, locale: Any) -> str:
    """The player is told that a day was taken for them."""
    return i18n.t("clock.vacation.auto", locale, name=name, until=int(record.end), n=left)
