"""An event across days, in Discord's words: what the event message and ``/league schedule`` show of
each open pairing's clock (its deadline, the players' banks and vacations), and the autocomplete of
``/league-admin settings``' ``clock`` (the presets, and what was typed read back) and ``zone`` (the
time zones).

Thin: the rules are :mod:`host.events.clock`, the clocks read by
:meth:`host.league_service.Leagues.pairing_clocks`; user names go through
:func:`cogs.common.safe_text` before they are put into a line.
"""
from __future__ import annotations

import logging
from typing import Any

import discord
from discord.app_commands import Choice

from cogs.common import CHOICE_MAX, clip, too_old_to_edit, tr, user_locale
from data.store import LeagueRecord
from host.clocks import ClockError, control
from host.events import clock as EC

log = logging.getLogger("cogs.league_clock")

CLOCK_REPOST = 6 * 3600      # s: an event message too old to edit is posted again for its clocks at most this often


async def pairing_clocks(service: Any, lg: LeagueRecord, pairings: list[dict] | None = None) -> dict[int, dict]:
    """The open pairings' clocks (:meth:`host.league_service.Leagues.pairing_clocks`); nothing when
    the league is not running or the store cannot say (logged) — the lines are shown without."""
    if lg.status != "running":
        return {}
    try:
        return await service.pairing_clocks(lg, pairings)
    except Exception:
        log.exception("league %s: its pairings' clocks could not be read", lg.id)
        return {}


def pairing_text(d: dict, line: str, p: dict, clocks: dict[int, dict], names: dict[int, str], locale: str) -> str:
    """A pairing's line with its deadline (a Discord timestamp), then a line for the banks of its
    game and one for each player on vacation (``names``: already made safe)."""
    out = [line + EC.pairing_suffix(p, locale)]
    out += EC.clock_lines(d, p, clocks.get(p["id"]), names, locale)
    return "\n".join(out)


def digest(clocks: dict[int, dict]) -> str:
    """What the event message showed of the clocks, to tell when it has changed."""
    return repr(sorted(clocks.items()))


async def refresh_clocks(cog: Any) -> int:
    """(The leagues' minute clock.)  The event message of a running event with a clock is brought
    up to date when what it shows of the games' banks, deadlines and vacations has changed: edited
    in place while it can be (less than an hour old), else reposted at most every
    :data:`CLOCK_REPOST` (a move is not worth a new message each time; the message says when its
    clocks were read, and ``/league schedule`` always shows them now).  The first look after a
    start only notes what is shown.  Returns the messages refreshed."""
    now = cog.bot.host.now()
    shown: dict[int, tuple[str, float]] = cog.clocks_shown
    running = [lg for lg in await cog.service.running() if EC.settings(lg.data)["time_control"] is not None]
    for gone in set(shown) - {lg.id for lg in running}:
        shown.pop(gone, None)
    n = 0
    for lg in running:
        clocks = await pairing_clocks(cog.service, lg)
        seen = shown.get(lg.id)
        if seen is None:
            shown[lg.id] = (digest(clocks), now)
            continue
        if seen[0] == digest(clocks):
            continue
        ref = str(lg.data.get("message") or "")
        editable = ref.partition(":")[2].isdigit() and not too_old_to_edit(int(ref.partition(":")[2]), now)
        if editable or now - seen[1] >= CLOCK_REPOST:
            await cog.refresh(lg)
            n += 1
    return n


def as_of(clocks: dict[int, dict], now: float, locale: str) -> str | None:
    """The event message's note that its banks are as of its last update (None without banks)."""
    if not any(info.get("banks") for info in clocks.values()):
        return None
    return tr("events.clock.embed.as_of", locale, at=int(now))


async def control_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """``clock``: what was typed, read back in words (when it can be read), then the presets, each
    in the reader's words; the value is what the organiser typed or the preset's name."""
    locale = user_locale(interaction)
    typed = (current or "").strip()[:control.MAX_TEXT]
    out: list[Choice[str]] = []
    if typed:
        try:
            out.append(Choice(name=clip(control.describe(control.parse(typed), locale), 100), value=typed))
        except ClockError:
            pass
    needle = typed.casefold()
    for name, tc in control.PRESETS.items():
        said = control.describe(tc, locale)
        if not needle or needle in said.casefold() or needle in name:
            out.append(Choice(name=clip(said, 100), value=name))
    return out[:CHOICE_MAX]
