"""The base of the cogs that add to the leagues' commands (cogs/league_event.py,
cogs/league_series.py, cogs/league_reports.py): their commands are moved into the ``/league``
group (the Leagues cog) or the ``/league-admin`` group (the LeagueAdmin cog) when the cog loads —
before the tree would take them as top-level commands — and taken out again when it unloads.
Such a cog loads after Leagues and LeagueAdmin (cogs/__init__.py)."""
from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import NO_PINGS, clip, pings, reply

log = logging.getLogger("cogs.league_part")


class LeaguePart(commands.Cog):
    """A part of the leagues' commands.  ``member_commands``: the callback names that go into
    ``/league`` (what every member may do); every other command goes into ``/league-admin``."""

    member_commands: tuple[str, ...] = ()

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._grafted: list[tuple[app_commands.Group, app_commands.Command]] = []

    @property
    def leagues(self) -> Any:
        return self.bot.get_cog("Leagues")

    async def cog_load(self) -> None:
        leagues, admin = self.bot.get_cog("Leagues"), self.bot.get_cog("LeagueAdmin")
        for command in list(self.__cog_app_commands__):
            group = leagues.league if command.callback.__name__ in self.member_commands else admin.league_admin
            group.add_command(command)
            self._grafted.append((group, command))
        self.__cog_app_commands__ = []

    async def cog_unload(self) -> None:
        for group, command in self._grafted:
            group.remove_command(command.name)
        self._grafted = []

    async def send(self, channel_id: int | None, text: str, *, ping: list[int] | None = None,
                   view: discord.ui.View | None = None) -> discord.Message | None:
        """Post ``text`` in a league's channel or a match thread, pinging only ``ping``; None when
        there is no channel or Discord refuses (logged)."""
        if not channel_id:
            return None
        kwargs: dict[str, Any] = {"allowed_mentions": pings(ping) if ping else NO_PINGS}
        if view is not None:
            kwargs["view"] = view
        try:
            return await self.bot.get_partial_messageable(int(channel_id)).send(clip(text, 2000), **kwargs)
        except discord.HTTPException:
            log.info("cannot post in channel %s", channel_id)
            return None


async def answered(interaction: discord.Interaction, said: str) -> None:
    """A question answered by one of its buttons (a choice, a confirmation): the message keeps its
    words, says the answer and loses its buttons; if it cannot be edited, the answer is a reply."""
    base = (interaction.message.content if interaction.message is not None else "") or ""
    try:
        await interaction.response.edit_message(content=clip(base + "\n" + said, 2000), view=None,
                                                allowed_mentions=NO_PINGS)
    except discord.HTTPException:
        await reply(interaction, said)
