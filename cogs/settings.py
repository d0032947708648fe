"""/settings: per-server options (Manage Server only).

* ``thread on|off`` — play each match in its own thread under the channel (default on).
* ``language auto|ja|en`` — the language of public match messages (default: the server's
  Discord locale).
* ``gif on|off`` — post an animated picture of every match in its thread when it ends (default
  on; cogs/replay.py).
* ``clock <control>`` — the default time control of new matches and events: a preset, a typed
  control (``3d+1d max 7d``, ``24h per move``) or ``none`` (default: none, as before); a player's
  own ``/play`` choice wins.
* ``weekend on|off`` — new matches on a time bank pause their clocks on weekends by default
  (default off).
* ``vacation_days 0..60`` — each player's vacation days per rolling 365 days (default 14).
"""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.common import L, N, reply, reply_error, safe_text, tr, user_locale
from cogs.delivery import DEFAULT_SETTINGS
from cogs.play_options import control_autocomplete, read_control
from host.clocks import ClockError, control
from host.clocks import vacation as vac

ON_OFF = [Choice(name=app_commands.locale_str("on", key="cmd.choice.on"), value="on"),
          Choice(name=app_commands.locale_str("off", key="cmd.choice.off"), value="off")]
LANGUAGES = [Choice(name=L("cmd.choice.lang_auto"), value="auto"),
             Choice(name=L("cmd.choice.lang_ja"), value="ja"),
             Choice(name=L("cmd.choice.lang_en"), value="en")]


def _may_manage(interaction: discord.Interaction) -> bool:
    return interaction.guild_id is not None and interaction.permissions.manage_guild


class Settings(commands.Cog):
    """Server settings."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def store(self) -> Any:
        return self.bot.store  # type: ignore[attr-defined]

    settings_group = app_commands.Group(
        name=N("settings", "cmd.settings.name"), description=L("cmd.settings.description"),
        guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    async def _check(self, interaction: discord.Interaction) -> bool:
        if not _may_manage(interaction):   # a server's own settings only, never from a DM
            key = "authority.settings.dm" if interaction.guild_id is None else "cogs.err.no_permission"
            await reply_error(interaction, tr(key, user_locale(interaction)))
            return False
        return True

    async def _show(self, interaction: discord.Interaction, changed: str | None = None) -> None:
        locale = user_locale(interaction)
        current = dict(DEFAULT_SETTINGS)
        current.update(await self.store.get_guild_settings(interaction.guild_id))
        lines = [changed] if changed else []
        lines.append(tr("cogs.settings.current", locale,
                        thread=tr("cogs.settings.on" if current.get("thread", True) else "cogs.settings.off", locale),
                        language=tr(f"cogs.settings.lang.{current.get('language', 'auto')}", locale)))
        lines.append(tr("cogs.settings.gif_now", locale,
                        gif=tr("cogs.settings.on" if current.get("gif", True) else "cogs.settings.off", locale)))
        lines += clock_summary(current, locale)
        await reply(interaction, "\n".join(lines))

    @settings_group.command(name=N("thread", "cmd.settings.thread.name"),
                            description=L("cmd.settings.thread.description"))
    @app_commands.rename(value=N("value", "cmd.settings.value.name"))
    @app_commands.describe(value=L("cmd.settings.thread.value.description"))
    @app_commands.choices(value=ON_OFF)
    async def thread(self, interaction: discord.Interaction, value: str) -> None:
        if not await self._check(interaction):
            return
        if value not in ("on", "off"):
            await reply_error(interaction, tr("cogs.err.bad_value", user_locale(interaction), value=safe_text(value, 20)))
            return
        await self.store.set_guild_setting(interaction.guild_id, "thread", value == "on")
        await self._show(interaction, tr("cogs.settings.saved", user_locale(interaction)))

    @settings_group.command(name=N("language", "cmd.settings.language.name"),
                            description=L("cmd.settings.language.description"))
    @app_commands.rename(value=N("value", "cmd.settings.value.name"))
    @app_commands.describe(value=L("cmd.settings.language.value.description"))
    @app_commands.choices(value=LANGUAGES)
    async def language(self, interaction: discord.Interaction, value: str) -> None:
        if not await self._check(interaction):
            return
        if value not in ("auto", "ja", "en"):
            await reply_error(interaction, tr("cogs.err.bad_value", user_locale(interaction), value=safe_text(value, 20)))
            return
        await self.store.set_guild_setting(interaction.guild_id, "language", None if value == "auto" else value)
        await self._show(interaction, tr("cogs.settings.saved", user_locale(interaction)))

    @settings_group.command(name=N("gif", "cmd.settings.gif.name"),
                            description=L("cmd.settings.gif.description"))
    @app_commands.rename(value=N("value", "cmd.settings.value.name"))
    @app_commands.describe(value=L("cmd.settings.gif.value.description"))
    @app_commands.choices(value=ON_OFF)
    async def gif(self, interaction: discord.Interaction, value: str) -> None:
        if not await self._check(interaction):
            return
        if value not in ("on", "off"):
            await reply_error(interaction, tr("cogs.err.bad_value", user_locale(interaction), value=safe_text(value, 20)))
            return
        await self.store.set_guild_setting(interaction.guild_id, "gif", value == "on")
        await self._show(interaction, tr("cogs.settings.saved", user_locale(interaction)))

    @settings_group.command(name=N("clock", "cmd.settings.clock.name"),
                            description=L("cmd.settings.clock.description"))
    @app_commands.rename(value=N("value", "cmd.settings.value.name"))
    @app_commands.describe(value=L("cmd.settings.clock.value.description"))
    @app_commands.autocomplete(value=control_autocomplete)
    async def clock(self, interaction: discord.Interaction, value: app_commands.Range[str, 1, 128]) -> None:
        if not await self._check(interaction):
            return
        locale = user_locale(interaction)
        try:
            tc = read_control(value)
        except ClockError as exc:       # nothing is saved
            await reply_error(interaction, exc.text(locale))
            return
        await self.store.set_guild_setting(interaction.guild_id, "clock_control", tc.to_json() if tc else None)
        await self._show(interaction, tr("cogs.settings.saved", locale))

    @settings_group.command(name=N("weekend", "cmd.settings.weekend.name"),
                            description=L("cmd.settings.weekend.description"))
    @app_commands.rename(value=N("value", "cmd.settings.value.name"))
    @app_commands.describe(value=L("cmd.settings.weekend.value.description"))
    @app_commands.choices(value=ON_OFF)
    async def weekend(self, interaction: discord.Interaction, value: str) -> None:
        if not await self._check(interaction):
            return
        if value not in ("on", "off"):
            await reply_error(interaction, tr("cogs.err.bad_value", user_locale(interaction), value=safe_text(value, 20)))
            return
        await self.store.set_guild_setting(interaction.guild_id, "clock_weekend", value == "on")
        await self._show(interaction, tr("cogs.settings.saved", user_locale(interaction)))

    @settings_group.command(name=N("vacation_days", "cmd.settings.vacation_days.name"),
                            description=L("cmd.settings.vacation_days.description"))
    @app_commands.rename(value=N("value", "cmd.settings.value.name"))
    @app_commands.describe(value=L("cmd.settings.vacation_days.value.description"))
    async def vacation_days(self, interaction: discord.Interaction, value: app_commands.Range[int, vac.ALLOWANCE_MIN, vac.ALLOWANCE_MAX]) -> None:
        if not await self._check(interaction):
            return
        try:
            days = vac.check_allowance(value)
        except ClockError as exc:       # nothing is saved
            await reply_error(interaction, exc.text(user_locale(interaction)))
            return
        await self.store.set_guild_setting(interaction.guild_id, "vacation_days", days)
        await self._show(interaction, tr("cogs.settings.saved", user_locale(interaction)))

    @settings_group.command(name=N("show", "cmd.settings.show.name"),
                            description=L("cmd.settings.show.description"))
    async def show(self, interaction: discord.Interaction) -> None:
        if not await self._check(interaction):
            return
        await self._show(interaction)


def clock_summary(current: dict, locale: str) -> list[str]:
    """The clock settings in words: the default time control (or none, or that the stored one
    cannot be read), the default weekend pause and the vacation days per 365 days."""
    raw = current.get("clock_control")
    if raw is None:
        said = tr("play_clock.settings.control_none", locale)
    else:
        try:
            said = tr("play_clock.settings.control", locale,
                      control=control.describe(control.TimeControl.from_json(raw), locale))
        except ClockError:
            said = tr("play_clock.settings.control_bad", locale)
    weekend = current.get("clock_weekend") is True
    try:
        days = vac.check_allowance(current.get("vacation_days", vac.ALLOWANCE_DEFAULT))
    except ClockError:
        days = vac.ALLOWANCE_DEFAULT
    return [said,
            tr("play_clock.settings.weekend", locale,
               value=tr("cogs.settings.on" if weekend else "cogs.settings.off", locale)),
            tr("play_clock.settings.vacation", locale, n=days)]
