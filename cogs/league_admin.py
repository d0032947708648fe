"""/league-admin …: the organiser's league commands, in a top-level command of their own.

``/league`` keeps what every member may do (join, leave, standings, schedule, play, report for
their own pairing, claim); this group holds what only an organiser may do: create, start,
next-round, forfeit, remove, close, season, role, report for any pairing, and read the league's
trail of every change (trail) or take its CSV files (export).  The group has
default member permissions **Manage Server**, so members do not even see it; a server admin can
give the organiser role access in Server Settings → Integrations.  Every command still checks
organiser power itself (Manage Server, or the organiser role set with ``/league-admin role``),
and only on the leagues of the server where that power is held.

Thin: the league logic is the :class:`cogs.leagues.Leagues` cog's helpers and
:class:`host.league_service.Leagues`; this module only adds the command group.
"""
from __future__ import annotations

import logging
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.common import L, N, code, render, reply, reply_error, safe_text, tr, user_locale
from cogs.league_records import export_files, trail_content
from cogs.leagues import (
    FORMAT_CHOICES, RESULT_CHOICES, SCORING_CHOICES, _game_choices, league_autocomplete, pairing_autocomplete,
)
from host import leagues as LG
from host.league_service import ORGANISER_ROLE_KEY

log = logging.getLogger("cogs.league_admin")

CUT_CHOICES = [Choice(name=L("events.bracket.cut.none"), value=0)] + [
    Choice(name=L(f"events.bracket.cut.{n}"), value=n) for n in (2, 4, 8)]
SEEDING_CHOICES = [Choice(name=L(f"events.bracket.seeding.{s}"), value=s) for s in ("rating", "random")]


class LeagueAdmin(commands.Cog):
    """Organiser commands of server leagues."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def leagues(self) -> Any:
        """The Leagues cog: its helpers (organiser check, league resolution, refresh, announce)."""
        return self.bot.get_cog("Leagues")

    async def _ready(self, interaction: discord.Interaction) -> Any:
        """The Leagues cog if the caller is an organiser here (answers otherwise)."""
        cog = self.leagues
        if cog is None:
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))
            return None
        return cog if await cog._need_organiser(interaction) else None

    league_admin = app_commands.Group(name=N("league-admin", "cmd.league_admin.name"),
                                      description=L("cmd.league_admin.description"), guild_only=True,
                                      default_permissions=discord.Permissions(manage_guild=True))

    @league_admin.command(name=N("create", "cmd.league.create.name"), description=L("cmd.league.create.description"))
    @app_commands.rename(name=N("name", "cmd.league.opt.name.name"), game=N("game", "cmd.records.game.name"),
                         format=N("format", "cmd.league.opt.format.name"), rounds=N("rounds", "cmd.league.opt.rounds.name"),
                         deadline_hours=N("deadline_hours", "cmd.league.opt.deadline.name"),
                         rated=N("rated", "cmd.play.rated.name"),
                         signup_hours=N("signup_hours", "cmd.league.opt.signup.name"),
                         scoring=N("scoring", "cmd.league.opt.scoring.name"),
                         cut=N("cut", "cmd.league.bracket.opt.cut.name"),
                         seeding=N("seeding", "cmd.league.bracket.opt.seeding.name"),
                         reset=N("reset", "cmd.league.bracket.opt.reset.name"))
    @app_commands.describe(name=L("cmd.league.opt.name.description"), game=L("cmd.league.opt.game.description"),
                           format=L("cmd.league.bracket.opt.format.description"),
                           rounds=L("cmd.league.bracket.opt.rounds.description"),
                           deadline_hours=L("cmd.league.opt.deadline.description"),
                           rated=L("cmd.league.opt.rated.description"),
                           signup_hours=L("cmd.league.opt.signup.description"),
                           scoring=L("cmd.league.opt.scoring.description"),
                           cut=L("cmd.league.bracket.opt.cut.description"),
                           seeding=L("cmd.league.bracket.opt.seeding.description"),
                           reset=L("cmd.league.bracket.opt.reset.description"))
    @app_commands.choices(game=_game_choices(), format=FORMAT_CHOICES, scoring=SCORING_CHOICES, cut=CUT_CHOICES,
                          seeding=SEEDING_CHOICES)
    async def create(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60], game: str,
                     format: str, rounds: Optional[app_commands.Range[int, 1, 30]] = None,
                     deadline_hours: Optional[app_commands.Range[int, 0, 720]] = None,
                     rated: Optional[bool] = None, signup_hours: Optional[app_commands.Range[int, 0, 720]] = None,
                     scoring: Optional[str] = None, cut: Optional[int] = None, seeding: Optional[str] = None,
                     reset: Optional[bool] = None) -> None:
        """``scoring``: the preset (default: chess for SQUARES, card for the card games); ``cut``,
        ``seeding``, ``reset``: the event's stages (host/events/stages.py)."""
        cog = await self._ready(interaction)
        if cog is None:
            return
        locale = user_locale(interaction)
        public = await cog.public_locale(interaction.guild_id, interaction.guild_locale)
        res = await cog.service.create(guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                                       organiser=interaction.user.id, name=name, game=game, fmt=format,
                                       rounds=rounds, deadline_hours=72 if deadline_hours is None else deadline_hours,
                                       rated=True if rated is None else rated, signup_hours=signup_hours,
                                       locale=public, scoring=scoring, cut=cut, seeding=seeding, reset=reset)
        if await cog._fail(interaction, res):
            return
        lg = res.data["league"]
        await reply(interaction, tr("leagues.created", locale, league=lg.id, name=safe_text(lg.data["name"])))
        await cog.refresh(lg)

    @league_admin.command(name=N("start", "cmd.league.start.name"), description=L("cmd.league.start.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(league=L("cmd.league_admin.opt.league.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def start(self, interaction: discord.Interaction, league: Optional[int] = None) -> None:
        cog = await self._ready(interaction)
        lg = cog and await cog._resolve(interaction, league, organiser=True)
        if not lg:
            return
        res = await cog.service.start(lg.id, interaction.guild_id, by=interaction.user.id)
        if await cog._fail(interaction, res):
            return
        rounds = LG.total_rounds(res.data["league"].data)
        await reply(interaction, tr("leagues.started", user_locale(interaction), league=lg.id,
                                    rounds=rounds, count=rounds))
        await cog.after_change(res)

    @league_admin.command(name=N("report", "cmd.league.report.name"), description=L("cmd.league_admin.report.description"))
    @app_commands.rename(pairing=N("pairing", "cmd.league.opt.pairing.name"), result=N("result", "cmd.league.opt.result.name"),
                         league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(pairing=L("cmd.league_admin.opt.pairing.description"), result=L("cmd.league_admin.opt.result.description"),
                           league=L("cmd.league_admin.opt.league.description"))
    @app_commands.choices(result=RESULT_CHOICES)
    @app_commands.autocomplete(pairing=pairing_autocomplete, league=league_autocomplete)
    async def report(self, interaction: discord.Interaction, pairing: int, result: str,
                     league: Optional[int] = None) -> None:
        """An organiser's result for any pairing: it counts at once (it also settles a held one)."""
        cog = await self._ready(interaction)
        lg = cog and await cog._resolve(interaction, league, organiser=True)
        if not lg:
            return
        locale = user_locale(interaction)
        if result not in ("win", "loss", "draw", "first", "second"):
            await reply_error(interaction, tr("leagues.err.bad_result", locale))
            return
        me = interaction.user.id
        p = next((q for q in lg.data["pairings"] if q["id"] == pairing), None)
        if p is None:
            await reply_error(interaction, tr("leagues.err.no_pairing", locale, pairing=pairing))
            return
        mine = me in (p["a"], p["b"])
        if result in ("win", "loss") and not mine:
            await reply_error(interaction, tr("leagues.err.say_first_second", locale))
            return
        if result in ("win", "loss"):
            side = "a" if p["a"] == me else "b"
            outcome = side if result == "win" else ("b" if side == "a" else "a")
        else:
            outcome = {"first": "a", "second": "b", "draw": "draw"}[result]
        res = await cog.service.report(lg.id, interaction.guild_id, pairing, me, outcome, organiser=True)
        if await cog._fail(interaction, res):
            return
        state = res.data["payload"]["state"]
        text = tr(f"leagues.report.{state}", locale, pairing=pairing)
        void = res.data["payload"].get("void")
        if void:     # a correction in a bracket: later pairings no longer fit and are voided
            text += "\n" + tr("events.bracket.voided", locale,
                               pairings=tr("core.list_sep", locale).join(f"#{v}" for v in void))
        await reply(interaction, text)
        await cog.after_change(res)

    @league_admin.command(name=N("forfeit", "cmd.league.forfeit.name"), description=L("cmd.league.forfeit.description"))
    @app_commands.rename(pairing=N("pairing", "cmd.league.opt.pairing.name"), loser=N("loser", "cmd.league.opt.loser.name"),
                         league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(pairing=L("cmd.league_admin.opt.pairing.description"), loser=L("cmd.league.opt.loser.description"),
                           league=L("cmd.league_admin.opt.league.description"))
    @app_commands.autocomplete(pairing=pairing_autocomplete, league=league_autocomplete)
    async def forfeit(self, interaction: discord.Interaction, pairing: int, loser: Optional[discord.User] = None,
                      league: Optional[int] = None) -> None:
        cog = await self._ready(interaction)
        lg = cog and await cog._resolve(interaction, league, organiser=True)
        if not lg:
            return
        res = await cog.service.forfeit(lg.id, interaction.guild_id, pairing, loser.id if loser else None,
                                        by=interaction.user.id)
        if await cog._fail(interaction, res):
            return
        await reply(interaction, tr("leagues.forfeited", user_locale(interaction), pairing=pairing))
        await cog.after_change(res)

    @league_admin.command(name=N("remove", "cmd.league.remove.name"), description=L("cmd.league.remove.description"))
    @app_commands.rename(user=N("player", "cmd.records.user.name"), league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(user=L("cmd.league.opt.user.description"), league=L("cmd.league_admin.opt.league.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def remove(self, interaction: discord.Interaction, user: discord.User, league: Optional[int] = None) -> None:
        # works for a user who has left the server too: only the id is needed
        cog = await self._ready(interaction)
        lg = cog and await cog._resolve(interaction, league, organiser=True)
        if not lg:
            return
        res = await cog.service.leave(lg.id, interaction.guild_id, user.id, removed=True, by=interaction.user.id)
        if await cog._fail(interaction, res):
            return
        await reply(interaction, tr("leagues.removed", user_locale(interaction), user=f"<@{user.id}>", league=lg.id))
        await cog.after_change(res)
        event = self.bot.get_cog("LeagueEvent")      # the first on the waiting list moved up: told
        if event is not None:
            await event.announce_moves(res.data["league"], res.data["payload"].get("moved") or [])

    @league_admin.command(name=N("next-round", "cmd.league.next_round.name"),
                          description=L("cmd.league.next_round.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(league=L("cmd.league_admin.opt.league.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def next_round(self, interaction: discord.Interaction, league: Optional[int] = None) -> None:
        cog = await self._ready(interaction)
        lg = cog and await cog._resolve(interaction, league, organiser=True)
        if not lg:
            return
        res = await cog.service.next_round(lg.id, interaction.guild_id, by=interaction.user.id)
        if await cog._fail(interaction, res):
            return
        new = res.data["league"]
        key = "leagues.next.finished" if new.status == "finished" else "leagues.next.paired"
        await reply(interaction, tr(key, user_locale(interaction), league=lg.id, round=new.data["round"]))
        await cog.after_change(res)

    @league_admin.command(name=N("close", "cmd.league.close.name"), description=L("cmd.league.close.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(league=L("cmd.league_admin.opt.league.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def close(self, interaction: discord.Interaction, league: Optional[int] = None) -> None:
        cog = await self._ready(interaction)
        lg = cog and await cog._resolve(interaction, league, organiser=True)
        if not lg:
            return
        res = await cog.service.close(lg.id, interaction.guild_id, by=interaction.user.id)
        if await cog._fail(interaction, res):
            return
        await reply(interaction, tr("leagues.closed", user_locale(interaction), league=lg.id, name=safe_text(lg.data["name"])))
        await cog.refresh(res.data["league"])

    @league_admin.command(name=N("season", "cmd.league.season.name"), description=L("cmd.league.season.description"))
    async def season(self, interaction: discord.Interaction) -> None:
        if await self._ready(interaction) is None:
            return
        from cogs.records import records_of

        res = await records_of(self.bot).close_season(interaction.guild_id)
        await reply(interaction, render(res.info[0], user_locale(interaction)))

    @league_admin.command(name=N("role", "cmd.league.role.name"), description=L("cmd.league.role.description"))
    @app_commands.rename(role=N("role", "cmd.league.opt.role.name"))
    @app_commands.describe(role=L("cmd.league.opt.role.description"))
    async def role(self, interaction: discord.Interaction, role: Optional[discord.Role] = None) -> None:
        locale = user_locale(interaction)
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            key = "authority.league.dm" if interaction.guild_id is None else "cogs.err.no_permission"
            await reply_error(interaction, tr(key, locale))
            return
        await self.bot.store.set_guild_setting(interaction.guild_id, ORGANISER_ROLE_KEY, role.id if role else None)  # type: ignore[attr-defined]
        if role is None:
            await reply(interaction, tr("leagues.role.cleared", locale))
            return
        # /league-admin is shown to Manage Server only: the role needs access given by an admin
        await reply(interaction, tr("leagues.role.set", locale, role=f"<@&{role.id}>") + "\n"
                    + tr("league_admin.role.access", locale, role=f"<@&{role.id}>"))

    @league_admin.command(name=N("trail", "cmd.league_admin.trail.name"),
                          description=L("cmd.league_admin.trail.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"),
                         page=N("page", "cmd.league_admin.opt.page.name"))
    @app_commands.describe(league=L("cmd.league_admin.opt.league.description"),
                           page=L("cmd.league_admin.opt.page.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def trail(self, interaction: discord.Interaction, league: Optional[int] = None,
                    page: Optional[app_commands.Range[int, 1, 999]] = None) -> None:
        """Every change of a result or a standing, newest first, ten to a page (only you see it)."""
        cog = await self._ready(interaction)
        lg = cog and await cog._resolve(interaction, league, organiser=True)
        if not lg:
            return
        await reply(interaction, trail_content(lg, page or 1, user_locale(interaction)))

    @league_admin.command(name=N("export", "cmd.league_admin.export.name"),
                          description=L("cmd.league_admin.export.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(league=L("cmd.league_admin.opt.league.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def export(self, interaction: discord.Interaction, league: Optional[int] = None) -> None:
        """The league's standings and pairings as CSV files, headers in your language (only you see them)."""
        cog = await self._ready(interaction)
        lg = cog and await cog._resolve(interaction, league, organiser=True)
        if not lg:
            return
        locale = user_locale(interaction)
        files = export_files(lg, locale)
        await reply(interaction, tr("events.export.done", locale, league=lg.id, name=safe_text(lg.data["name"]),
                                    files=tr("core.list_sep", locale).join(code(f.filename) for f in files)), files=files)
