"""/league …: server leagues (round robin or Swiss) from sign-up to final standings.

Thin: every rule is in :mod:`host.leagues`, every write in :class:`host.league_service.Leagues`.
The league message (embed + Join / Play my match / Standings buttons) is edited in place; its
location is kept in the league document (``message`` = ``"<channel>:<message>"``).  A pairing
started from it is an ordinary bot match whose ``meta`` names the league and pairing, and the
host's ``on_finish`` hook reports its result here.

Only what every member may do is here (join, leave, standings, schedule, play, claim; a
player's report of their own pairing is cogs/league_reports.py).  The organiser commands (create, start, next-round, forfeit, remove,
close, season, role, report for any pairing) are ``/league-admin …`` (cogs/league_admin.py),
shown to Manage Server by default; they use the helpers of this cog (``is_organiser``,
``_resolve``, ``refresh``, ``after_change``).

The standings (text, picture, pages; a Components V2 layout, as is the post that ends a league),
the trail and the exports are shown by cogs/league_records.py.

custom_id template: ``lg:<league>:<join|checkin|play|standings>`` (checkin: cogs/league_event.py;
and ``lgs:<league>:<page>``, the
standings picture's pages: cogs/league_records.py; ``lgb:<league>:<page>``, the bracket
picture's: cogs/league_bracket.py; ``lgc:<league>:<pairing>:<game>:<f|s>``, the choice of who
moves first in a best-of-3 or -5 pairing: cogs/league_series.py).
"""
from __future__ import annotations

import logging
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands, tasks

from cogs.common import (
    CHOICE_MAX, L, N, NO_PINGS, clip, game_name, mention_line, pings, render, render_lines, reply,
    reply_error, safe_text, start_clock, too_old_to_edit, tr, transient, user_locale,
)
from cogs.decks import any_deck_autocomplete
from cogs.guide import command_text
from cogs.league_clock import as_of, digest, pairing_clocks, pairing_text, refresh_clocks
from cogs.league_bracket import (
    announce_matches, announce_replay, champion_line, post_bracket, send_bracket,
)
from cogs.league_records import DYNAMIC_ITEMS as RECORD_ITEMS, post_final_standings, send_standings, table_text
from data.store import LeagueRecord
from host.decks import DeckBook
from host import leagues as LG
from host.events import bestof as BO
from host.events import clock as EC
from host.events import entry as EV
from host.events import scoring as SC
from host.events.words import result_text as _result_text
from host.league_service import ORGANISER_ROLE_KEY, Leagues as LeagueService
from rules import registry

log = logging.getLogger("cogs.leagues")

BUTTON_TEMPLATE = r"lg:(?P<league>\d{1,20}):(?P<action>join|checkin|play|standings)"
OPEN_STATUSES = ("signup", "running", "finished")

FORMAT_CHOICES = [Choice(name=L("leagues.format.rr"), value="rr"),
                  Choice(name=L("leagues.format.swiss"), value="swiss"),
                  Choice(name=L("leagues.format.single"), value="single"),
                  Choice(name=L("leagues.format.double"), value="double")]
RESULT_CHOICES = [Choice(name=L("leagues.result.win"), value="win"),
                  Choice(name=L("leagues.result.loss"), value="loss"),
                  Choice(name=L("leagues.result.draw"), value="draw"),
                  Choice(name=L("leagues.result.first"), value="first"),
                  Choice(name=L("leagues.result.second"), value="second")]
MY_RESULT_CHOICES = RESULT_CHOICES[:3]      # a player reports their own result: win, loss, draw
SCORING_CHOICES = [Choice(name=L(f"events.scoring.{p}"), value=p) for p in SC.PRESETS]


def _game_choices() -> list[Choice[str]]:
    return [Choice(name=app_commands.locale_str(game_name(n, "en"), key=f"game.{n}"), value=n)
            for n in registry.names()[:CHOICE_MAX]]


def _split(ref: str | None) -> tuple[int, int] | None:
    if not ref or ":" not in ref:
        return None
    a, _, b = ref.partition(":")
    try:
        return int(a), int(b)
    except ValueError:
        return None


async def league_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    if interaction.guild_id is None:
        return []
    locale = user_locale(interaction)
    try:
        # open leagues first, then archived ones (their standings and schedule stay readable)
        leagues = await interaction.client.store.leagues(interaction.guild_id, ("closed",))  # type: ignore[attr-defined]
        leagues += await interaction.client.store.leagues(interaction.guild_id, OPEN_STATUSES)  # type: ignore[attr-defined]
    except Exception:
        log.exception("league autocomplete failed")
        return []
    needle = (current or "").strip().lower().lstrip("#")
    out = []
    for lg in reversed(leagues):
        label = tr("leagues.choice", locale, league=lg.id, name=lg.data["name"],
                   game=game_name(lg.data["game"], locale), status=tr(f"leagues.status.{lg.status}", locale))
        if needle and needle not in label.lower():
            continue
        out.append(Choice(name=clip(label, 100), value=int(lg.id)))
    return out[:CHOICE_MAX]


async def _chosen_or_running(interaction: discord.Interaction) -> list[LeagueRecord]:
    """For autocomplete: the league already chosen in the ``league`` option, else every running
    league of this server."""
    store = interaction.client.store  # type: ignore[attr-defined]
    league_id = getattr(interaction.namespace, "league", None)
    try:
        if league_id is not None:
            lg = await store.get_league(int(league_id))
            return [lg] if lg is not None and lg.guild_id == interaction.guild_id else []
        return await store.leagues(interaction.guild_id, ("running",))
    except Exception:
        log.exception("league autocomplete failed")
        return []


async def pairing_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    """Every pairing of the league (organisers: /league-admin)."""
    return await _pairing_choices(interaction, current, mine=False)


async def my_pairing_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    """Only the caller's own pairings (/league report, /league claim)."""
    return await _pairing_choices(interaction, current, mine=True)


async def _pairing_choices(interaction: discord.Interaction, current: str, *, mine: bool) -> list[Choice[int]]:
    if interaction.guild_id is None:
        return []
    locale = user_locale(interaction)
    leagues = await _chosen_or_running(interaction)
    needle = (current or "").strip().lower().lstrip("#")
    out = []
    for lg in leagues:
        names = {p["id"]: p["name"] for p in lg.data["players"]}
        for p in LG.round_pairings(lg.data):
            if p["b"] is None or (mine and interaction.user.id not in (p["a"], p["b"])):
                continue
            label = tr("leagues.pairing.choice", locale, pairing=p["id"], round=p["round"],
                       a=names.get(p["a"], "?"), b=names.get(p["b"], "?"),
                       state=_result_text(p, names, locale))
            if needle and needle not in label.lower():
                continue
            out.append(Choice(name=clip(label, 100), value=int(p["id"])))
    return out[:CHOICE_MAX]


async def league_deck_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The caller's decks (then the ready-made ones) for the game of the chosen league, or of
    the league where they have a pairing to play."""
    if interaction.guild_id is None:
        return []
    leagues = await _chosen_or_running(interaction)
    mine = [lg for lg in leagues if LG.pairing_of(lg.data, interaction.user.id) is not None] or leagues
    if not mine:
        return []
    interaction.namespace.game = mine[0].data["game"]   # any_deck_autocomplete reads the game there
    return await any_deck_autocomplete(interaction, current)


class Leagues(commands.Cog):
    """Server leagues."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._service: LeagueService | None = None
        # the league message's edits, one at a time per league: the newest version waiting
        self._to_show: dict[int, LeagueRecord] = {}
        self._showing: set[int] = set()
        # what each event message last showed of its games' clocks, and when (cogs/league_clock.py)
        self.clocks_shown: dict[int, tuple[str, float]] = {}

    @property
    def service(self) -> LeagueService:
        bot = self.bot
        if self._service is None or self._service.store is not bot.store:  # type: ignore[attr-defined]
            self._service = LeagueService(bot.store, bot.host, now=bot.host.now)  # type: ignore[attr-defined]
        return self._service

    async def cog_load(self) -> None:
        host = getattr(self.bot, "host", None)
        if host is None:   # --dump-commands: no store, no host
            return
        if self._on_match_finished not in host.on_finish:
            host.on_finish.append(self._on_match_finished)
        start_clock(self.bot, self.deadlines)

    async def cog_unload(self) -> None:
        self.deadlines.cancel()
        try:
            self.bot.host.on_finish.remove(self._on_match_finished)  # type: ignore[attr-defined]
        except (AttributeError, ValueError):
            pass

    @property
    def delivery(self) -> Any:
        return self.bot.get_cog("Delivery")

    # ------------------------------------------------------------------ helpers
    async def is_organiser(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            return False
        if interaction.permissions.manage_guild:
            return True
        role = (await self.bot.store.get_guild_settings(interaction.guild_id)).get(ORGANISER_ROLE_KEY)  # type: ignore[attr-defined]
        if not role:
            return False
        roles = getattr(interaction.user, "_roles", None) or [r.id for r in getattr(interaction.user, "roles", [])]
        return int(role) in {int(r) for r in roles}

    async def _need_organiser(self, interaction: discord.Interaction) -> bool:
        if await self.is_organiser(interaction):
            return True
        key = "authority.league.dm" if interaction.guild_id is None else "leagues.err.not_organiser"
        await reply_error(interaction, tr(key, user_locale(interaction)))
        return False

    async def _resolve(self, interaction: discord.Interaction, league_id: int | None,
                       organiser: bool = False) -> LeagueRecord | None:
        """The league meant, always this server's (none from a DM): organiser power stays home."""
        locale = user_locale(interaction)
        if interaction.guild_id is None:
            await reply_error(interaction, tr("authority.league.dm", locale))
            return None
        if league_id is not None:
            lg = await self.bot.store.get_league(int(league_id))  # type: ignore[attr-defined]
            if lg is None or lg.guild_id != interaction.guild_id:
                key = "authority.league.foreign" if organiser and lg is not None else "leagues.err.no_league"
                await reply_error(interaction, tr(key, locale, league=league_id))
                return None
            return lg
        leagues = await self.bot.store.leagues(interaction.guild_id, OPEN_STATUSES)  # type: ignore[attr-defined]
        if len(leagues) == 1:
            return leagues[0]
        if not leagues:
            await reply_error(interaction, tr("leagues.err.none", locale))
        else:
            await reply_error(interaction, tr("leagues.err.which", locale,
                                              leagues=", ".join(f"#{lg.id} {lg.data['name']}" for lg in leagues)))
        return None

    async def _fail(self, interaction: discord.Interaction, result: Any) -> bool:
        if result.ok:
            return False
        await reply_error(interaction, render(result.error, user_locale(interaction)))
        return True

    async def public_locale(self, guild_id: int | None, fallback: Any = None) -> str:
        """The language of public league messages: the server setting, else the language the
        league was created in (``fallback``: a league record, or a Discord locale)."""
        if isinstance(fallback, LeagueRecord):
            fallback = fallback.data.get("locale", "en")
        if self.delivery is not None:
            return await self.delivery.locale_for_guild(guild_id, fallback)
        return "en"

    def league_embed(self, lg: LeagueRecord, locale: str, clocks: dict[int, dict] | None = None) -> discord.Embed:
        """The event message.  ``clocks``: the open pairings' clocks (cogs/league_clock.py), shown
        under their pairings with the time they were read."""
        d = lg.data
        clocks = clocks or {}
        fmt = tr(f"leagues.format.{d['format']}", locale)
        embed = discord.Embed(title=clip(tr("leagues.embed.title", locale, league=lg.id, name=safe_text(d["name"])), 256),
                              colour=discord.Colour.gold() if lg.status == "signup" else discord.Colour.green())
        rounds = LG.total_rounds(d) or d["rounds"]
        cut = d.get("cut") if d["format"] == "swiss" and d.get("rounds") else None
        info = [tr("leagues.embed.info", locale, game=game_name(d["game"], locale), format=fmt,
                   rounds=tr("leagues.embed.rounds_cut", locale, rounds=d["rounds"], cut=cut) if cut
                   else tr("leagues.embed.rounds", locale, n=rounds) if rounds
                   else tr("leagues.embed.rounds_later", locale),
                   deadline=EC.deadline_words(d, locale),      # the round length in days, or hours
                   rated=tr("leagues.embed.rated" if d["rated"] else "leagues.embed.unrated", locale))]
        if lg.status == "signup":
            # no round yet: how many have signed up, and until when
            info.append(tr("leagues.embed.status_signup", locale, n=len(LG.active_ids(d))))
            info.append(tr("leagues.embed.signup_until", locale, when=f"<t:{int(d['signup_until'])}:R>")
                        if d["signup_until"] else tr("leagues.embed.signup_open", locale))
        else:
            info.append(tr("leagues.embed.status", locale, status=tr(f"leagues.status.{lg.status}", locale),
                           round=d["round"] or "-"))
        if d.get("cancelled"):
            info.append(tr("leagues.embed.cancelled_checkin" if d["cancelled"] == "too_few_checkin"
                           else "leagues.embed.cancelled", locale))
        info += EV.summary_lines(d, lg.status, locale, self.bot.host.now())   # cap, start, check-in, decklists
        info += BO.summary_lines(d, locale)                                    # best of N, the round time limit
        info += EC.summary_lines(d, locale)                   # the games' clock, vacation, weekends, hours
        if d.get("edition") is not None:                                       # pinned for every match
            info.append(tr("events.edition", locale, n=d["edition"]))
        if isinstance(d.get("cards"), dict):                                   # the server's card set, pinned too
            info.append(tr("events.cards", locale, name=safe_text(f"{d['cards'].get('name')} v{d['cards'].get('version')}")))
        embed.description = "\n".join(info)
        players = [f"<@{p['id']}>" + ("" if p["status"] == "active" else " " + tr(f"leagues.player.{p['status']}", locale))
                   for p in d["players"]]
        embed.add_field(name=tr("leagues.embed.players", locale, n=len(LG.active_ids(d))),
                        value=clip(" ".join(players) or "-", 1024), inline=False)
        if lg.status in ("running", "finished", "closed") and d["round"]:
            names = {p["id"]: safe_text(p["name"]) for p in d["players"]}
            lines = [self._pairing_line(d, p, names, locale, clocks) for p in LG.round_pairings(d)]
            note = as_of(clocks, self.bot.host.now(), locale)      # banks: as of this update
            embed.add_field(name=tr("leagues.embed.round", locale, round=d["round"]),
                            value=clip("\n".join(lines + ([note] if note else [])) or "-", 1024), inline=False)
        if lg.status in ("finished", "closed") and not d.get("cancelled"):
            embed.add_field(name=tr("leagues.embed.final", locale),
                            value=self._table_text(lg, locale, limit=10, budget=1000), inline=False)
        return embed

    def _pairing_line(self, d: dict, p: dict, names: dict, locale: str, clocks: dict[int, dict] | None = None) -> str:
        """A pairing in one line; an open one with its deadline, and under it its game's banks and
        the players on vacation (``clocks``: cogs/league_clock.py)."""
        if p["b"] is None:
            return tr("leagues.schedule.bye_line", locale, pairing=p["id"], name=names.get(p["a"], "?"))
        line = tr("leagues.schedule.line", locale, pairing=p["id"], a=names.get(p["a"], "?"),
                  b=names.get(p["b"], "?"), state=_result_text(p, names, locale))
        if p.get("match"):
            line += " " + tr("leagues.schedule.match", locale, match_id=p["match"])
        return pairing_text(d, line, p, clocks or {}, names, locale)

    def _table_text(self, lg: LeagueRecord, locale: str, limit: int = 50, budget: int = 1700) -> str:
        """The standings as a monospaced block (cogs/league_records.py)."""
        return table_text(lg, locale, limit=limit, budget=budget)

    def league_view(self, lg: LeagueRecord, locale: str) -> discord.ui.View | None:
        view = discord.ui.View(timeout=None)
        if lg.status == "signup":
            view.add_item(LeagueButton(lg.id, "join", label=tr("leagues.button.join", locale)))
            if EV.checkin_open(lg.data, self.bot.host.now()):     # while check-in is open
                view.add_item(LeagueButton(lg.id, "checkin", label=tr("events.reg.button.checkin", locale)))
        if lg.status == "running":
            view.add_item(LeagueButton(lg.id, "play", label=tr("leagues.button.play", locale)))
        if lg.status != "closed":
            view.add_item(LeagueButton(lg.id, "standings", label=tr("leagues.button.standings", locale)))
        return view if view.children else None

    async def refresh(self, lg: LeagueRecord) -> None:
        """Edit the league message in place (post a new one if it is gone).  One edit at a time
        per league: a refresh asked for while one is under way only leaves the newest version
        to show, and the edit under way shows it next — so a burst of sign-ups, check-ins or
        results makes two edits, not one each (a channel's edits share one rate limit bucket,
        5 per 5 s, and a queue of them would overrun it)."""
        waiting = self._to_show.get(lg.id)
        if waiting is None or waiting.version <= lg.version:
            self._to_show[lg.id] = lg
        if lg.id in self._showing:
            return
        self._showing.add(lg.id)
        try:
            while lg.id in self._to_show:
                await self._show(self._to_show.pop(lg.id))
        finally:
            self._showing.discard(lg.id)

    async def _show(self, lg: LeagueRecord) -> None:
        calendar = self.bot.get_cog("LeagueCalendar")    # its entry in the server's calendar (cogs/league_calendar.py)
        if calendar is not None:
            await calendar.sync(lg)
        locale = await self.public_locale(lg.guild_id, lg)
        clocks = await pairing_clocks(self.service, lg)       # the open games' banks, the vacations
        self.clocks_shown[lg.id] = (digest(clocks), self.bot.host.now())
        embed, view = self.league_embed(lg, locale, clocks), self.league_view(lg, locale)
        where = _split(lg.data.get("message"))
        old = where is not None and too_old_to_edit(where[1], self.bot.host.now())
        if where is not None and not old:
            try:
                await self.bot.get_partial_messageable(where[0]).get_partial_message(where[1]).edit(
                    embed=embed, view=view, allowed_mentions=NO_PINGS)
                return
            except discord.HTTPException:
                log.info("league %s: message gone, posting a new one", lg.id)
        cid = lg.data.get("channel_id")
        if not cid:
            return
        try:
            kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": NO_PINGS}
            if view is not None:
                kwargs["view"] = view
            message = await self.bot.get_partial_messageable(int(cid)).send(**kwargs)
        except discord.HTTPException:
            log.warning("league %s: cannot post in channel %s", lg.id, cid)
            return
        await self.service.set_message(lg.id, f"{message.channel.id}:{message.id}")
        if old:     # the message it replaces was too old to edit (Discord rations such edits)
            try:
                await self.bot.get_partial_messageable(where[0]).get_partial_message(where[1]).delete()
            except discord.HTTPException:
                log.info("league %s: the old message could not be deleted", lg.id)

    async def announce(self, lg: LeagueRecord, text: str, ping: list[int] | None = None) -> None:
        cid = lg.data.get("channel_id")
        if not cid:
            return
        try:
            await self.bot.get_partial_messageable(int(cid)).send(
                clip(text, 2000), allowed_mentions=pings(ping) if ping else NO_PINGS)
        except discord.HTTPException:
            log.info("league %s: cannot announce in %s", lg.id, cid)

    async def after_change(self, res: Any) -> None:
        """Refresh the message; announce a new round or the final standings.  In a bracket:
        the bracket picture posted or brought up to date, every new match announced to its two
        players, a drawn match to be played again (cogs/league_bracket.py)."""
        lg: LeagueRecord = res.data["league"]
        payload = res.data.get("payload") or {}
        await self.refresh(lg)
        draft_cog = self.bot.get_cog("Draft")
        if res.data.get("drafts") and draft_cog is not None:   # a sealed or draft event's pods (cogs/draft.py)
            await draft_cog.show_event(lg, res.data["drafts"])
        for stopped in res.data.get("stopped") or []:    # a decided pairing's game still on the board
            if self.delivery is not None:
                await self.delivery.publish(stopped)
        locale = await self.public_locale(lg.guild_id, lg)
        paired = payload.get("paired") or [] if isinstance(payload, dict) else (
            payload if isinstance(payload, list) else [])
        if isinstance(payload, dict) and payload.get("state") == "replay":
            await announce_replay(self, lg, payload, locale)
        fresh = list(paired)
        if lg.data.get("bracket"):
            await post_bracket(self, lg)
            await announce_matches(self, lg, paired, locale)
            paired = [p for p in paired if not p.get("bracket")]
        if paired:
            names = {p["id"]: safe_text(p["name"]) for p in lg.data["players"]}
            lines = [tr("leagues.round.paired", locale, league=lg.id, name=safe_text(lg.data["name"]), round=lg.data["round"])]
            if lg.data.get("limited") in ("sealed", "draft") and lg.data["round"] == 1:   # decks come from the pools
                lines.append(tr(f"events.limited.first_round.{lg.data['limited']}", locale))
            lines += [self._pairing_line(lg.data, p, names, locale) for p in paired]
            who = [u for p in paired for u in (p["a"], p["b"]) if u is not None and p["result"] is None]
            lines.append(mention_line(who))
            await self.announce(lg, "\n".join(lines), ping=who)
        await self._tell_ready(lg, locale)
        series = self.bot.get_cog("LeagueSeries")
        if fresh and series is not None:    # best of 3 or 5: game 1's draw, a bracket's choice
            await series.announce(lg, fresh, locale)
        if lg.status == "finished" and res.data.get("was") == "running":
            crown = champion_line(lg, locale)
            stats = command_text(self.bot.tree, "stats", locale, game=("cmd.stats.game.name",
                                                                        game_name(lg.data["game"], locale)),
                                 league=("cmd.stats.league.name", lg.id))
            await post_final_standings(self.bot, lg, locale, tr("leagues.finished", locale, league=lg.id,
                                                                 name=safe_text(lg.data["name"])),
                                       lead=(crown,) if crown else (),
                                       more=(tr("leagues.finished_stats", locale, command=stats),))

    async def _tell_ready(self, lg: LeagueRecord, locale: str) -> None:
        """Pairing by hand (``pair_by_hand``): a complete round is told to the organiser, once."""
        d = lg.data
        rnd = d.get("round")
        if lg.status != "running" or not d.get("pair_by_hand") or d.get("round_ready") != rnd \
                or d.get("round_ready_told") == rnd or d.get("bracket") or not LG.round_complete(d):
            return
        if not await self.service.told_ready(lg.id, rnd):
            return
        who = [u for u in (d.get("organiser"),) if u]
        await self.announce(lg, tr("events.pair.ready", locale, league=lg.id, name=safe_text(d["name"]), round=rnd,
                                   mentions=mention_line(who)), ping=who)

    # ------------------------------------------------------------------ match hook and clock
    async def _on_match_finished(self, rec: Any) -> None:
        res = await self.service.on_finish(rec)
        if res is not None and res.ok:
            await self.after_change(res)

    @tasks.loop(seconds=60)
    async def deadlines(self) -> None:
        """The leagues' one clock, every minute: sign-up windows, deadlines and unreported
        matches (:meth:`tick_once`), then the check-ins that opened (cogs/league_event.py),
        what a best-of-N pairing waits for (cogs/league_series.py), the reports the bot
        confirms (cogs/league_reports.py) and the calendar's entries and reminders
        (cogs/league_calendar.py) — each on its own, so one failing never stops the others."""
        for name, cog in (("deadlines", self), ("check-ins", self.bot.get_cog("LeagueEvent")),
                          ("series", self.bot.get_cog("LeagueSeries")), ("reports", self.bot.get_cog("LeagueReports")),
                          ("calendar", self.bot.get_cog("LeagueCalendar"))):
            if cog is None:
                continue
            try:
                await cog.tick_once()
            except Exception as e:
                if transient(e):    # the database failed for a moment (the store logged it once)
                    continue
                log.exception("league %s failed", name)

    @deadlines.before_loop
    async def _before(self) -> None:
        await self.bot.wait_until_ready()

    async def tick_once(self) -> int:
        n = 0
        for res in await self.service.tick():
            lg: LeagueRecord = res.data["league"]
            if res.data.get("started") or res.data.get("caught_up") or res.data.get("drafts"):
                await self.after_change(res)
                n += 1
                continue
            series = self.bot.get_cog("LeagueSeries")
            if res.data.get("time_up") and series is not None:     # the round time limit
                await series.on_time_up(res)
                n += 1
                continue
            locale = await self.public_locale(lg.guild_id, lg)
            if res.data.get("cancelled"):
                await self.refresh(lg)
                organiser = lg.data.get("organiser")
                who = [u for u in [organiser, *LG.active_ids(lg.data)] if u]
                key = "leagues.cancelled.no_checkin" if lg.data.get("cancelled") == "too_few_checkin" \
                    else "leagues.cancelled.too_few"
                await self.announce(lg, tr(key, locale, league=lg.id, name=safe_text(lg.data["name"]),
                                           n=res.data["payload"], mentions=mention_line(who)), ping=who)
                n += 1
                continue
            names = {p["id"]: safe_text(p["name"]) for p in lg.data["players"]}
            for p in res.data["payload"]:
                await self.announce(lg, tr("leagues.deadline.passed", locale, pairing=p["id"], a=names.get(p["a"], "?"),
                                           b=names.get(p["b"], "?"), mentions=mention_line([p["a"], p["b"]])),
                                    ping=[p["a"], p["b"]])
                n += 1
        await refresh_clocks(self)      # the event messages of games on a clock, when theirs changed
        return n

    # ------------------------------------------------------------------ commands
    league = app_commands.Group(name=N("league", "cmd.league.name"), description=L("cmd.league.description"),
                                guild_only=True)

    @league.command(name=N("join", "cmd.league.join.name"), description=L("cmd.league.join.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(league=L("cmd.league.opt.league.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def join(self, interaction: discord.Interaction, league: Optional[int] = None) -> None:
        lg = await self._resolve(interaction, league)
        if lg is not None:
            await self._join(interaction, lg.id)

    async def _join(self, interaction: discord.Interaction, league_id: int) -> None:
        res = await self.service.join(league_id, interaction.guild_id, interaction.user.id, interaction.user.display_name)
        if await self._fail(interaction, res):
            return
        lg: LeagueRecord = res.data["league"]
        if res.data.get("waiting"):      # past the player cap: on the waiting list
            text = tr("events.reg.joined_waiting", user_locale(interaction), league=league_id, name=safe_text(lg.data["name"]),
                      place=res.data["waiting"])
        else:
            text = tr("leagues.joined", user_locale(interaction), league=league_id, name=safe_text(lg.data["name"]),
                      n=res.data["payload"])
        if EV.has_checkin(lg.data):      # and when to check in
            text += "\n" + tr("events.reg.joined_checkin", user_locale(interaction),
                               opens=int(EV.reg(lg.data)["start_at"] - EV.reg(lg.data)["checkin_minutes"] * 60))
        note = EC.signup_note(lg.data, user_locale(interaction))    # an event that allows no vacation
        if note:
            text += "\n" + note
        await reply(interaction, text)
        await self.refresh(lg)

    @league.command(name=N("leave", "cmd.league.leave.name"), description=L("cmd.league.leave.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(league=L("cmd.league.opt.league.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def leave(self, interaction: discord.Interaction, league: Optional[int] = None) -> None:
        lg = await self._resolve(interaction, league)
        if lg is None:
            return
        res = await self.service.leave(lg.id, interaction.guild_id, interaction.user.id)
        if await self._fail(interaction, res):
            return
        key = "leagues.left" if lg.status == "signup" else "leagues.dropped"
        await reply(interaction, tr(key, user_locale(interaction), league=lg.id, name=safe_text(lg.data["name"])))
        await self.after_change(res)
        event = self.bot.get_cog("LeagueEvent")
        if event is not None:      # the first on the waiting list moved up: told, with a ping
            await event.announce_moves(res.data["league"], res.data["payload"].get("moved") or [])

    @league.command(name=N("standings", "cmd.league.standings.name"), description=L("cmd.league.standings.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(league=L("cmd.league.opt.league.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def standings(self, interaction: discord.Interaction, league: Optional[int] = None) -> None:
        lg = await self._resolve(interaction, league)
        if lg is not None:
            await self._standings(interaction, lg)

    async def _standings(self, interaction: discord.Interaction, lg: LeagueRecord) -> None:
        """The table in text with every tiebreak of the league's preset, and its picture."""
        await send_standings(interaction, lg)

    @league.command(name=N("bracket", "cmd.league.bracket.name"), description=L("cmd.league.bracket.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"),
                         page=N("page", "cmd.league.bracket.opt.page.name"),
                         public=N("public", "cmd.records.public.name"))
    @app_commands.describe(league=L("cmd.league.opt.league.description"),
                           page=L("cmd.league.bracket.opt.page.description"),
                           public=L("cmd.records.public.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def bracket(self, interaction: discord.Interaction, league: Optional[int] = None,
                      page: Optional[app_commands.Range[int, 1, 99]] = None, public: bool = False) -> None:
        """The bracket picture of an elimination or a top cut (cogs/league_bracket.py)."""
        lg = await self._resolve(interaction, league)
        if lg is not None:
            await send_bracket(interaction, lg, (page or 1) - 1, public=public)

    @league.command(name=N("schedule", "cmd.league.schedule.name"), description=L("cmd.league.schedule.description"))
    @app_commands.rename(league=N("league", "cmd.league.opt.league.name"), round=N("round", "cmd.league.opt.round.name"))
    @app_commands.describe(league=L("cmd.league.opt.league.description"), round=L("cmd.league.opt.round.description"))
    @app_commands.autocomplete(league=league_autocomplete)
    async def schedule(self, interaction: discord.Interaction, league: Optional[int] = None,
                       round: Optional[app_commands.Range[int, 1, 99]] = None) -> None:
        locale = user_locale(interaction)
        lg = await self._resolve(interaction, league)
        if lg is None:
            return
        d = lg.data
        names = {p["id"]: safe_text(p["name"]) for p in d["players"]}
        total = LG.total_rounds(d)
        if round is not None and total and round > total:
            await reply_error(interaction, tr("leagues.err.round", locale, max=total))
            return
        lines = [tr("leagues.schedule.title", locale, league=lg.id, name=safe_text(d["name"]))]
        rounds = [round] if round is not None else list(range(1, max(total, d["round"]) + 1))
        # the open pairings' deadlines, their games' banks and the players on vacation, now
        clocks = await pairing_clocks(self.service, lg, [p for r in rounds for p in LG.round_pairings(d, r)])
        for r in rounds:
            played = LG.round_pairings(d, r)
            if played:
                lines.append(tr("leagues.schedule.round", locale, round=r))
                lines += [self._pairing_line(d, p, names, locale, clocks) for p in played]
            elif d["format"] == "rr" and r <= len(d["schedule"]):
                lines.append(tr("leagues.schedule.round_planned", locale, round=r))
                lines += [tr("leagues.schedule.planned", locale, a=names.get(a, "?"), b=names.get(b, "?") if b else "-")
                          for a, b in d["schedule"][r - 1]]
            elif d["format"] == "swiss":
                lines.append(tr("leagues.schedule.round_later", locale, round=r))
        if len(lines) == 1:
            lines.append(tr("leagues.schedule.empty", locale))
        await reply(interaction, clip("\n".join(lines), 2000))

    @league.command(name=N("claim", "cmd.league.claim.name"), description=L("cmd.league.claim.description"))
    @app_commands.rename(pairing=N("pairing", "cmd.league.opt.pairing.name"), league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(pairing=L("cmd.league.opt.pairing.description"), league=L("cmd.league.opt.league.description"))
    @app_commands.autocomplete(pairing=my_pairing_autocomplete, league=league_autocomplete)
    async def claim(self, interaction: discord.Interaction, pairing: int, league: Optional[int] = None) -> None:
        locale = user_locale(interaction)
        lg = await self._resolve(interaction, league)
        if lg is None:
            return
        # the catch-up below may edit messages on Discord before the claim is answered
        await interaction.response.defer(ephemeral=True, thinking=True)
        for caught in await self.service.catch_up(lg):   # a finished match decides, not a claim
            await self.after_change(caught)
        res = await self.service.claim(lg.id, interaction.guild_id, pairing, interaction.user.id)
        if await self._fail(interaction, res):
            return
        withdrawn = res.data.get("withdrawn")
        if withdrawn is not None and self.delivery is not None:
            await self.delivery.publish(withdrawn)      # the unanswered challenge is withdrawn
        await self.after_change(res)
        state = res.data["payload"]["state"]
        no_show = res.data["payload"].get("no_show")
        if no_show is None:
            await reply(interaction, tr(f"leagues.claim.{state}", locale, pairing=pairing))
            return
        # a no-show claim (host/events/entry.py): said to the claimant, and to the opponent with a ping
        kind = "noted" if state == "noted" else no_show["kind"]
        minutes = no_show.get("minutes") or 0
        await reply(interaction, tr(f"events.reg.claim.{kind}", locale, pairing=pairing, minutes=minutes,
                                    twice=2 * minutes))
        new: LeagueRecord = res.data["league"]
        p = LG.pairing(new.data, pairing)
        other = p["b"] if p["a"] == interaction.user.id else p["a"]
        public = await self.public_locale(new.guild_id, new)
        await self.announce(new, tr(f"events.reg.no_show.public_{kind}", public, mention=f"<@{other}>",
                                    name=safe_text(interaction.user.display_name), pairing=pairing, league=new.id,
                                    minutes=minutes, twice=2 * minutes), ping=[other])
        series = self.bot.get_cog("LeagueSeries")
        if state == "noted" and series is not None:     # one game won: the next game's choice
            await series.after_claim(new, pairing)

    # ------------------------------------------------------------------ buttons
    async def on_button(self, interaction: discord.Interaction, league_id: int, action: str) -> None:
        locale = user_locale(interaction)
        lg = await self.bot.store.get_league(league_id)  # type: ignore[attr-defined]
        if lg is None or lg.guild_id != interaction.guild_id:
            await reply_error(interaction, tr("leagues.err.no_league", locale, league=league_id))
            return
        if action == "join":
            await self._join(interaction, lg.id)
        elif action == "checkin":
            event = self.bot.get_cog("LeagueEvent")
            if event is None:
                await reply_error(interaction, tr("cogs.err.generic", locale))
                return
            await event.checkin_button(interaction, lg)
        elif action == "standings":
            await self._standings(interaction, lg)
        else:
            await self._play(interaction, lg)

    async def _play(self, interaction: discord.Interaction, lg: LeagueRecord, deck: Any = None) -> None:
        """Start the caller's pairing; a deck registered for the event (host/events/entry.py) is
        the caller's deck, without asking."""
        locale = user_locale(interaction)
        locked = EV.locked_deck(lg.data, interaction.user.id)
        if locked is not None:
            deck = EV.play_deck(locked)
        await interaction.response.defer(ephemeral=True, thinking=True)
        public_locale = await self.public_locale(interaction.guild_id, interaction.guild_locale)
        res = await self.service.play(lg.id, interaction.guild_id, interaction.user.id, interaction.channel_id,
                                      locale=public_locale, deck=deck)
        if await self._fail(interaction, res):
            return
        rec = res.match
        series = self.bot.get_cog("LeagueSeries")
        if res.data.get("prev") is not None and series is not None:
            # a later game of a best-of-3 or -5 pairing: started in the previous game's thread
            await series.show_next(res, actor=interaction.user.id)
            await reply(interaction, tr("leagues.play.posted", locale, match_id=rec.id, pairing=res.data.get("pairing")))
            return
        game_cog = self.bot.get_cog("Game")
        if game_cog is not None:
            await game_cog._setup_refs(rec.id, interaction.channel, interaction.channel_id)
        if self.delivery is not None:
            await self.delivery.remember_locale(rec.id, interaction.user.id, locale)
            if await self.delivery.publish(res, actor=interaction.user.id) is None:
                # nowhere to show it: withdraw, so the pairing can be started again elsewhere
                await self.bot.host.decline(rec.id, interaction.user.id)  # type: ignore[attr-defined]
                await reply_error(interaction, tr("cogs.err.cannot_post", locale))
                return
        text = tr("leagues.play.posted", locale, match_id=rec.id, pairing=res.data.get("pairing"))
        if res.data.get("first") is not None:     # best of 3 or 5: who moves first, and why
            p = LG.pairing(lg.data, res.data["pairing"])
            text += "\n" + BO.first_text(lg.data, p, locale)
        await reply(interaction, text)

    @league.command(name=N("play", "cmd.league.play.name"), description=L("cmd.league.play.description"))
    @app_commands.rename(deck=N("deck", "cmd.league.opt.deck.name"), league=N("league", "cmd.league.opt.league.name"))
    @app_commands.describe(deck=L("cmd.league.opt.deck.description"), league=L("cmd.league.opt.league.description"))
    @app_commands.autocomplete(deck=league_deck_autocomplete, league=league_autocomplete)
    async def play(self, interaction: discord.Interaction, deck: Optional[app_commands.Range[str, 1, 1000]] = None,
                   league: Optional[int] = None) -> None:
        """Like the Play my match button, with a deck of one's own for a card game."""
        lg = await self._resolve(interaction, league)
        if lg is None:
            return
        chosen, err = await DeckBook(self.bot.store).for_play(interaction.user.id, lg.data["game"], deck)  # type: ignore[attr-defined]
        if err is not None:
            locale = user_locale(interaction)
            await reply_error(interaction, "\n".join([render(err.error, locale)]
                                                      + ["• " + t for t in render_lines(err.info, locale)]))
            return
        locked = EV.locked_deck(lg.data, interaction.user.id)
        if locked is not None and chosen is not None and not EV.same_deck(lg.data, interaction.user.id, chosen):
            # the deck registered for the event is locked: another one is refused
            locale = user_locale(interaction)
            await reply_error(interaction, tr("events.reg.err.other_deck", locale,
                                              deck=safe_text(EV.deck_label(lg.data, locked, locale))))
            return
        await self._play(interaction, lg, deck=chosen)


class LeagueButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    def __init__(self, league_id: int, action: str, *, label: str | None = None) -> None:
        style = {"join": discord.ButtonStyle.success, "play": discord.ButtonStyle.primary}.get(
            action, discord.ButtonStyle.secondary)
        super().__init__(discord.ui.Button(label=clip(label or action, 80), style=style,
                                           custom_id=f"lg:{int(league_id)}:{action}"))
        self.league_id, self.action = int(league_id), action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(int(match["league"]), match["action"], label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Leagues")  # type: ignore[union-attr]
        if cog is None:
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))
            return
        try:
            await cog.on_button(interaction, self.league_id, self.action)
        except Exception:
            log.exception("league button %s failed", self.action)
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))


DYNAMIC_ITEMS = (LeagueButton, *RECORD_ITEMS)
