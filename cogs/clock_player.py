"""A player's own clock: ``/turns``, ``/vacation start|end|status`` and ``/notify
zone|quiet|how|digest|show``.  Every answer is ephemeral; every command works in a server and in
a DM with the bot.

Thin: the host side (:class:`host.player_clock.PlayerClock`) reads and stores, the pure rules are
``host/clocks/``; this cog asks Discord only what the host cannot know — which servers and
channels the caller may see — and hands the Results of the matches a vacation timed again to the
Delivery cog, as the other cogs hand theirs.

* ``/turns``: every game waiting on the caller, across every server the bot shares with them.  A
  server's name is shown only where the caller is a member (looked up once per server per
  answer: the bot holds no member list), the jump link only where they may see the match's
  channel; elsewhere the entry says "a match in another server".  ◀ ▶ when there are several
  pages: persistent buttons (``ct:t:<user>:<page>``), the list read again on every press.
* ``/vacation start [days]``: the allowance is the server's ``vacation_days`` where it is used
  (the default, 14, in a DM).
"""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.common import (
    pager,
    CHOICE_MAX, L, N, clip, reply, reply_error, run_in_cog, safe_text, tr, user_locale,
)
from data import i18n
from host.clocks import ClockError, notify
from host.clocks import turns as T
from host.clocks import vacation as vac
from cogs.play_options import zone_autocomplete
from host.player_clock import HIDDEN, PlayerClock, Seer, Sight

log = logging.getLogger("cogs.clock_player")

TURNS_TEMPLATE = r"ct:t:(?P<user>\d{1,20}):(?P<page>\d{1,4})"
PARAM_MAX = 64          # user words quoted back in a refusal

HOWS = [Choice(name=L("cmd.notify.how.ping"), value="ping"),
        Choice(name=L("cmd.notify.how.dm"), value="dm"),
        Choice(name=L("cmd.notify.how.digest"), value="digest")]


def fit(text: Any, limit: int) -> str:
    """User words made safe (:func:`safe_text`) in at most ``limit`` characters, escapes
    included (the list clips longer names, and must never cut an escape in two)."""
    for n in range(limit, 0, -1):
        out = safe_text(text, n)
        if len(out) <= limit:
            return out
    return ""


def refusal(exc: ClockError, locale: str) -> str:
    """A clock refusal in the reader's words, the user's own words in it made safe (the text
    parameters of a clock refusal are what the player typed)."""
    params = {k: fit(v, PARAM_MAX) if isinstance(v, str) else v for k, v in exc.params.items()}
    return i18n.t(exc.key, locale, **params)


def settings_text(settings: notify.NotifySettings, locale: str) -> str:
    text = notify.settings_text(settings, locale)
    zone = safe_text(settings.zone)     # an IANA name never needs an escape; if it ever did
    return text if zone == settings.zone else text.replace(settings.zone, zone, 1)


def jump(guild_id: int, channel_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


async def digest_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """``hour``: what was typed read back (when it is an hour), then "off" and the hours of
    the day that match it."""
    locale = user_locale(interaction)
    typed = (current or "").strip()[:notify.MAX_QUIET_TEXT]
    off = Choice(name=tr("clock_cmd.digest.off", locale), value="off")
    out: list[Choice[str]] = []
    if typed:
        try:
            hour = notify.parse_digest_hour(typed)
            out.append(off if hour is None else Choice(name=notify.clock_text(hour * 60), value=str(hour)))
        except ClockError:
            pass
    hours = [Choice(name=notify.clock_text(h * 60), value=str(h)) for h in range(24)]
    for choice in [off, *hours]:
        if choice.value not in {c.value for c in out} and (
                not typed or choice.name.startswith(typed) or choice.value.startswith(typed)):
            out.append(choice)
    return out[:CHOICE_MAX]


def seer(bot: Any, user_id: int, here: discord.Member | None = None) -> Seer:
    """What ``user_id`` may see of a server's match (:class:`host.player_clock.Sight`): the
    server's name where they are a member of it and the bot still is, a jump link where they may
    also view the match's channel.  ``here``: the caller as a member of the server the command
    was used in.  The bot keeps no member list (no members intent), so membership of another
    server is asked of Discord, once per server for one answer; when Discord cannot say (or
    they are no member), nothing of that server is shown."""
    members: dict[int, discord.Member | None] = {}

    async def member_of(guild: discord.Guild) -> discord.Member | None:
        if here is not None and getattr(here.guild, "id", None) == guild.id:
            return here
        member = guild.get_member(int(user_id))
        if member is not None:
            return member
        try:
            return await guild.fetch_member(int(user_id))
        except discord.NotFound:
            return None
        except discord.HTTPException:
            log.info("guild %s: membership of %s could not be read; its matches are listed without it",
                     guild.id, user_id)
            return None

    async def sight(guild_id: int, channel_id: int | None) -> Sight:
        guild = bot.get_guild(int(guild_id))
        if guild is None:                           # the bot has left that server
            return HIDDEN
        if guild.id not in members:
            members[guild.id] = await member_of(guild)
        member = members[guild.id]
        if member is None:
            return HIDDEN
        url = None
        channel = guild.get_channel_or_thread(int(channel_id)) if channel_id is not None else None
        if channel is not None and channel.permissions_for(member).view_channel:
            url = jump(guild.id, channel.id)
        return Sight(True, guild.name, url)

    return sight


def page_view(user_id: int, page: int, pages: int, locale: str) -> discord.ui.View | None:
    """◀ ▶ under a page of ``/turns`` (none when everything fits one page)."""
    return pager(page, pages, locale, lambda target: f"ct:t:{int(user_id)}:{target}",
                 lambda button, target: TurnsPage(button, int(user_id), target))


class ClockPlayer(commands.Cog):
    """A player's own clock: the games waiting on them, vacations, how they are told."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TurnsPage)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(TurnsPage)

    @property
    def clock(self) -> PlayerClock:
        return PlayerClock(self.bot.host)  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ /turns
    @app_commands.command(name=N("turns", "cmd.turns.name"), description=L("cmd.turns.description"))
    async def turns(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        content, view = await self.turns_page(interaction, 0)
        await reply(interaction, content, view=view)

    async def turns_page(self, interaction: discord.Interaction, page: int) -> tuple[str, discord.ui.View | None]:
        """Page ``page`` (from 0; the last one when there are fewer) of the caller's list."""
        locale = user_locale(interaction)
        here = interaction.user if isinstance(interaction.user, discord.Member) else None
        rows = await self.clock.turns(interaction.user.id, seer(self.bot, interaction.user.id, here))
        safe = [replace(r, opponents=tuple(fit(n, T.NAME_MAX) for n in r.opponents),
                        server=fit(r.server, T.SERVER_MAX) if r.server else None) for r in rows]
        pages = T.pages(safe, locale)
        page = min(max(0, page), len(pages) - 1)
        return pages[page], page_view(interaction.user.id, page, len(pages), locale)

    async def on_turns_page(self, interaction: discord.Interaction, user_id: int, page: int) -> None:
        if interaction.user.id != user_id:          # the list is the caller's own
            await reply_error(interaction, tr("clock_cmd.err.not_yours", user_locale(interaction)))
            return
        content, view = await self.turns_page(interaction, page)
        await interaction.response.edit_message(content=clip(content, 2000), view=view)

    # ------------------------------------------------------------------ /vacation
    vacation = app_commands.Group(name=N("vacation", "cmd.vacation.name"),
                                  description=L("cmd.vacation.description"))

    @vacation.command(name=N("start", "cmd.vacation.start.name"), description=L("cmd.vacation.start.description"))
    @app_commands.rename(days=N("days", "cmd.vacation.days.name"))
    @app_commands.describe(days=L("cmd.vacation.days.description"))
    async def vacation_start(self, interaction: discord.Interaction,
                             days: app_commands.Range[int, 1, vac.ALLOWANCE_MAX] | None = None) -> None:
        locale = user_locale(interaction)
        try:
            change = await self.clock.start_vacation(interaction.user.id, days, interaction.guild_id)
        except ClockError as exc:                   # nothing was stored
            await reply_error(interaction, refusal(exc, locale))
            return
        await reply(interaction, vac.started_text(change.record, locale))
        await self._deliver(change.results, interaction.user.id)

    @vacation.command(name=N("end", "cmd.vacation.end.name"), description=L("cmd.vacation.end.description"))
    async def vacation_end(self, interaction: discord.Interaction) -> None:
        locale = user_locale(interaction)
        try:
            change = await self.clock.end_vacation(interaction.user.id)
        except ClockError as exc:
            await reply_error(interaction, refusal(exc, locale))
            return
        await reply(interaction, vac.ended_text(change.record, locale))
        await self._deliver(change.results, interaction.user.id)

    @vacation.command(name=N("status", "cmd.vacation.status.name"), description=L("cmd.vacation.status.description"))
    async def vacation_status(self, interaction: discord.Interaction) -> None:
        status = await self.clock.vacation_status(interaction.user.id, interaction.guild_id)
        await reply(interaction, status.text(user_locale(interaction)))

    async def _deliver(self, results: list, actor: int) -> None:
        """The boards of the matches a vacation timed again, shown as every host Result is; the
        player who started or ended the vacation is its actor, so a fresh board does not ping
        them that it is their turn (they are right here)."""
        delivery = self.bot.get_cog("Delivery")
        if delivery is None:
            return
        for result in results:
            await delivery.publish(result, actor=actor)

    # ------------------------------------------------------------------ /notify
    notify_group = app_commands.Group(name=N("notify", "cmd.notify.name"), description=L("cmd.notify.description"))

    async def _saved(self, interaction: discord.Interaction, change: Any) -> None:
        locale = user_locale(interaction)
        try:
            settings = await change
        except ClockError as exc:                   # nothing was stored
            await reply_error(interaction, refusal(exc, locale))
            return
        await reply(interaction, tr("clock_cmd.notify.saved", locale) + "\n" + settings_text(settings, locale))

    @notify_group.command(name=N("zone", "cmd.notify.zone.name"), description=L("cmd.notify.zone.description"))
    @app_commands.rename(zone=N("zone", "cmd.notify.zone.value.name"))
    @app_commands.describe(zone=L("cmd.notify.zone.value.description"))
    @app_commands.autocomplete(zone=zone_autocomplete)
    async def notify_zone(self, interaction: discord.Interaction,
                          zone: app_commands.Range[str, 1, notify.MAX_ZONE_TEXT]) -> None:
        await self._saved(interaction, self.clock.set_zone(interaction.user.id, zone))

    @notify_group.command(name=N("quiet", "cmd.notify.quiet.name"), description=L("cmd.notify.quiet.description"))
    @app_commands.rename(hours=N("hours", "cmd.notify.quiet.value.name"))
    @app_commands.describe(hours=L("cmd.notify.quiet.value.description"))
    async def notify_quiet(self, interaction: discord.Interaction,
                           hours: app_commands.Range[str, 1, notify.MAX_QUIET_TEXT]) -> None:
        await self._saved(interaction, self.clock.set_quiet(interaction.user.id, hours))

    @notify_group.command(name=N("how", "cmd.notify.how.name"), description=L("cmd.notify.how.description"))
    @app_commands.rename(how=N("how", "cmd.notify.how.value.name"))
    @app_commands.describe(how=L("cmd.notify.how.value.description"))
    @app_commands.choices(how=HOWS)
    async def notify_how(self, interaction: discord.Interaction, how: str) -> None:
        await self._saved(interaction, self.clock.set_how(interaction.user.id, how))

    @notify_group.command(name=N("digest", "cmd.notify.digest.name"), description=L("cmd.notify.digest.description"))
    @app_commands.rename(hour=N("hour", "cmd.notify.digest.value.name"))
    @app_commands.describe(hour=L("cmd.notify.digest.value.description"))
    @app_commands.autocomplete(hour=digest_autocomplete)
    async def notify_digest(self, interaction: discord.Interaction,
                            hour: app_commands.Range[str, 1, notify.MAX_QUIET_TEXT]) -> None:
        await self._saved(interaction, self.clock.set_digest(interaction.user.id, hour))

    @notify_group.command(name=N("show", "cmd.notify.show.name"), description=L("cmd.notify.show.description"))
    async def notify_show(self, interaction: discord.Interaction) -> None:
        settings = await self.clock.settings(interaction.user.id)
        await reply(interaction, settings_text(settings, user_locale(interaction)))


class TurnsPage(discord.ui.DynamicItem[discord.ui.Button], template=TURNS_TEMPLATE):
    """◀ ▶ under ``/turns``: persistent, the caller and the page in the custom id."""

    def __init__(self, item: discord.ui.Button, user: int, page: int) -> None:
        super().__init__(item)
        self.user, self.page = int(user), int(page)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(item, int(match["user"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_in_cog("ClockPlayer", interaction, lambda c: c.on_turns_page(interaction, self.user, self.page))


DYNAMIC_ITEMS = (TurnsPage,)


async def setup(bot: commands.Bot) -> None:
    """Add the cog (once; its ◀ ▶ are registered when it loads): cogs/__init__.py setup_all."""
    if bot.get_cog(ClockPlayer.__name__) is None:
        await bot.add_cog(ClockPlayer(bot))
