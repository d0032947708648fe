"""The base of the cogs that add to the leagues' commands (cogs/league_event.py,
cogs/league_series.py, cogs/league_reports.py): their commands are moved into the ``/league``
group (the Leagues cog) or the ``/league-admin`` group (the LeagueAdmin cog) when the cog loads —
before the tree would take them as top-level commands — and taken out again when it unloads.
Such a cog loads after Leagues and LeagueAdmin (cogs/__init__.py)."""
from __future__ import annotations

from typing import Any

from discord import app_commands
from discord.ext import commands


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
