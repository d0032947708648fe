"""The board's clock in words (a part of :mod:`cogs.delivery`): the clock field of a board and
``/match status`` — a time per move or a time bank, only what everyone may see — and how long a
match thread may stay idle before Discord archives it, from the match's clock
(docs/clocks.md, "Choosing a clock")."""
from __future__ import annotations

from typing import Any

from cogs.common import render, tr
from data.store import ACTIVE, MatchRecord
from host.clocks import match as bank_clock
from host.options_text import clock_lines


def clock_field(rec: MatchRecord, public: Any, locale: str) -> tuple[str, str] | None:
    """The board's clock field (name, value), None without a clock.  Today's clock: the time per
    move and, under way, its deadline.  A time bank: the control in words, its weekend pause
    (host.options_text.clock_lines) and, under way, the host's clock line — each player's bank
    in words and the deadline as a Discord timestamp — unless the status line above already
    says it.  Only what everyone may see (``bank_clock.public``): while a secret window is open,
    the banks and deadline as they stood before it; never ``turn_seconds``, which holds a bank's
    starting time."""
    lines = clock_lines(rec, locale)
    mc = bank_clock.read(rec) if rec.turn_seconds else None
    if mc is None:
        if not rec.turn_seconds:
            return None
        if rec.status == ACTIVE and rec.deadline:
            lines.append(f"<t:{int(rec.deadline)}:R>")
        return (tr("cogs.board.clock", locale), "\n".join(lines)) if lines else None
    if rec.status == ACTIVE and mc.banks is not None:
        said = getattr(getattr(public, "status_line", None), "key", None) == "clock.board.status"
        if not said:    # (its user names are made safe as every message's are)
            lines.append(render(bank_clock.banks_text(mc, list(rec.names), rec.deadline), locale))
    return tr("play_clock.board.field", locale), "\n".join(lines)


def turn_span(rec: MatchRecord) -> int | None:
    """The longest one decision's clock may run, for :func:`archive_minutes`: today's time per
    move; a bank's cap (it never holds more) — or None, the longest, when its clock may stop
    (a weekend pause, playing hours, a vacation) and a decision may last days more.  A bank's
    ``turn_seconds`` is only its starting time."""
    if not rec.turn_seconds:
        return None
    mc = bank_clock.read(rec)
    if mc is None:      # (a bank that cannot be read plays as a time per move of its starting time)
        return rec.turn_seconds
    return None if mc.weekend or mc.hours or mc.vacation else mc.control.cap


def archive_minutes(turn_seconds: int | None) -> int:
    """A thread's auto-archive duration (Discord offers 1 h, 1 day, 3 days, 1 week) that outlasts a
    turn: a day for clocks up to an hour, three days up to a day, a week for longer clocks and
    for matches without one.  An idle thread archives anyway; the next board unarchives it."""
    if turn_seconds and turn_seconds <= 3600:
        return 1440
    if turn_seconds and turn_seconds <= 86400:
        return 4320
    return 10080
