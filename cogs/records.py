"""/profile, /history, /h2h, /leaderboard and the export of match records.

Thin: every number comes from :class:`host.records.Records`.  Pages are persistent buttons
(``custom_id`` carries what is shown and the page), so they keep working after a restart.

custom_id templates (≤ 100 chars)::

    rec:h:<user>:<game|->:<page>          /history page
    rec:lb:<game>:<scope>:<page>          /leaderboard page (scope: g = server, w = global, s<n> = season)
    rec:x                                  export select (values: match ids)
"""
from __future__ import annotations

import asyncio
import io
import json
import functools
import logging
import re
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.common import (CHOICE_MAX, L, N, clip, file_bytes, game_name, render, reply, reply_error, run_in_cog, safe_text,
                         tr, user_locale)
from cogs.authority import check_match, seated
from host import ratings as R
from host.records import PER_PAGE, guild_scope, season_scope
from host.records import Records as RecordsService
from rules import registry

log = logging.getLogger("cogs.records")

HISTORY_TEMPLATE = r"rec:h:(?P<user>\d{1,20}):(?P<game>[a-z0-9_]{1,30}|-):(?P<page>\d{1,5})"
BOARD_TEMPLATE = r"rec:lb:(?P<game>[a-z0-9_]{1,30}):(?P<scope>g|w|s\d{1,5}):(?P<page>\d{1,5})"
EXPORT_TEMPLATE = r"rec:x"


def _game_choices() -> list[Choice[str]]:
    return [Choice(name=app_commands.locale_str(game_name(n, "en"), key=f"game.{n}"), value=n)
            for n in registry.names()[:CHOICE_MAX]]


SCOPE_CHOICES = [Choice(name=L("records.scope.server"), value="server"),
                 Choice(name=L("records.scope.global"), value="global")]


def records_of(bot: Any) -> RecordsService:
    """The bot's records service (one per store; created on first use)."""
    rec = getattr(bot, "records", None)
    if rec is None or rec.store is not bot.store:
        rec = bot.records = RecordsService(bot.store, now=bot.host.now)
    return rec


def outcome_text(outcome: str, locale: str) -> str:
    return tr(f"records.outcome.{outcome}", locale)


def thread_url(guild_id: int | None, rec: Any, refs: dict[str, str] | None = None) -> str | None:
    """Where the match was played: its thread, or (played in a channel) its board message."""
    if rec is None or rec.channel_id is None or guild_id is None:
        return None
    board = (refs or {}).get("board") or ""
    chan, _, message = board.partition(":")
    if not (refs or {}).get("thread") and chan.isdigit() and message.isdigit():
        return f"https://discord.com/channels/{guild_id}/{chan}/{message}"
    return f"https://discord.com/channels/{guild_id}/{rec.channel_id}"


def page_buttons(template: str, page: int, n: int, locale: str) -> list[discord.ui.Item]:
    """◀ ▶ for a paged list (none when everything fits on one page).  ``template`` is a
    custom_id with ``{page}``; a disabled button points at the page shown (ids stay unique)."""
    if n <= 1:
        return []
    prev = discord.ui.Button(label=tr("records.page.prev", locale), style=discord.ButtonStyle.secondary,
                             custom_id=template.format(page=max(page - 1, 0) if page > 0 else page),
                             disabled=page == 0)
    nxt = discord.ui.Button(label=tr("records.page.next", locale), style=discord.ButtonStyle.secondary,
                            custom_id=template.format(page=page + 1 if page + 1 < n else page),
                            disabled=page + 1 >= n)
    kind = HistoryPage if template.startswith("rec:h:") else BoardPage
    return [kind.wrap(prev), kind.wrap(nxt)]


class Records(commands.Cog):
    """Player records, ratings and leaderboards."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def records(self) -> RecordsService:
        return records_of(self.bot)

    async def cog_load(self) -> None:
        host = getattr(self.bot, "host", None)
        if host is None:   # --dump-commands: no store, no host
            return
        if not any(getattr(cb, "__self__", None) is self.records for cb in host.on_finish):
            host.on_finish.insert(0, self.records.on_finish)
        try:
            n = await self.records.catch_up()
            if n:
                log.info("recorded %d finished matches missed before the restart", n)
        except Exception:
            log.exception("catching up on finished matches failed")

    # ------------------------------------------------------------------ /profile
    @app_commands.command(name=N("profile", "cmd.profile.name"), description=L("cmd.profile.description"))
    @app_commands.guild_only()
    @app_commands.rename(user=N("player", "cmd.records.user.name"), public=N("public", "cmd.records.public.name"))
    @app_commands.describe(user=L("cmd.records.user.description"), public=L("cmd.records.public.description"))
    async def profile(self, interaction: discord.Interaction, user: Optional[discord.User] = None,
                      public: bool = False) -> None:
        locale = user_locale(interaction)
        who = user or interaction.user
        # public: the answer is posted for the channel (the deferred answer decides)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        data = await self.records.profile(who.id, interaction.guild_id)
        embed = discord.Embed(title=clip(tr("records.profile.title", locale, name=safe_text(who.display_name, 100)), 256),
                              colour=discord.Colour.blurple())
        if not data["games"]:
            embed.description = tr("records.profile.empty", locale)
            await reply(interaction, embed=embed, ephemeral=not public)
            return
        decks = await self._profile_decks(who.id, interaction, own=who.id == interaction.user.id and not public)
        for game, g in sorted(data["games"].items(), key=lambda kv: -(kv[1]["win"] + kv[1]["loss"] + kv[1]["draw"])):
            lines = [tr("records.profile.wld", locale, w=g["win"], l=g["loss"], d=g["draw"])]
            if decks.get(game):
                lines.append(tr("records.profile.decks", locale, decks=decks[game]))
            for kind in ("server", "season", "global"):
                row = g["ratings"].get(kind)
                if row is not None:
                    lines.append(tr(f"records.profile.rating.{kind}", locale, rating=R.label(row.mu, row.games),
                                    games=row.games))
            if any(R.provisional(r.games) for r in g["ratings"].values()):
                lines.append(tr("records.profile.provisional", locale, n=R.PROVISIONAL_GAMES))
            embed.add_field(name=clip(game_name(game, locale), 256), value=clip("\n".join(lines), 1024), inline=True)
        kind, n = data["streak"]
        if kind:
            embed.add_field(name=tr("records.profile.streak", locale),
                            value=tr(f"records.streak.{kind}", locale, n=n), inline=False)
        recent = []
        for r in data["recent"]:
            recent.append(tr("records.profile.recent_line", locale, match_id=r.match_id,
                             game=game_name(r.game, locale), outcome=outcome_text(r.outcome, locale),
                             when=f"<t:{int(r.finished_at)}:d>"))
        if recent:
            embed.add_field(name=tr("records.profile.recent", locale), value=clip("\n".join(recent), 1024), inline=False)
        # the chart: the most played rated game, in this server's scope
        file = None
        scope = data["scope"]
        rated = [(game, g) for game, g in data["games"].items() if g["ratings"]]
        if rated:
            game = max(rated, key=lambda kv: max(r.games for r in kv[1]["ratings"].values()))[0]
            series, provisional = await self.records.chart_series(who.id, game, scope)
            if len(series) >= 2:
                from render.charts import W, rating_chart
                from render.fonts import fit, printable

                title = fit(printable(tr("records.chart.title", locale, game=game_name(game, locale),
                                         name=who.display_name)), 18, W - 80, bold=True)
                caption = tr("records.chart.caption", locale, n=len(series) - 1)
                png = await asyncio.to_thread(rating_chart, series, title=title, caption=caption,
                                              provisional=provisional,
                                              provisional_label=tr("records.chart.provisional", locale))
                file = discord.File(io.BytesIO(png), filename="rating.png")
                embed.set_image(url="attachment://rating.png")
        await reply(interaction, embed=embed, file=file, ephemeral=not public)

    async def _profile_decks(self, user_id: int, interaction: discord.Interaction, *, own: bool) -> dict[str, str]:
        """Per game, the player's most played decks with their win rates, in words; their own
        saved decks by name only in their own view (``own``), else together as "own decks"."""
        from cogs.stats import share_text, stats_of
        from host.stats.aggregate import share
        from host.stats.service import own_hash

        locale = user_locale(interaction)
        by_game = await stats_of(self.bot).user_decks(user_id, interaction.guild_id)
        out = {}
        for game, decks in by_game.items():
            names, _cards, _set = await stats_of(self.bot).names(game, "-|-", locale)
            saved = {}
            if own and game in registry:
                engine = registry.get(game)
                for name, spec in await self.bot.store.list_decks(user_id, game):  # type: ignore[attr-defined]
                    h = own_hash(engine, spec)
                    if h:
                        saved[f"own:{h}"] = name
            shown = []
            named = [s for deck, s in decks.items() if deck in saved]
            for deck, s in decks.items():
                if deck.startswith("own:"):
                    if deck not in saved:
                        continue          # a deck code, or a deck no longer saved: under "own decks"
                    label = saved[deck]
                elif deck == "own" and named:
                    # in the player's own view their saved decks are named one by one; the rest
                    # (deck codes, decks no longer saved) stay "own decks"
                    s = share(s["n"] - sum(x["n"] for x in named), s["score"] - sum(x["score"] for x in named))
                    if s["n"] <= 0:
                        continue
                    label = names.get(deck, deck)
                else:
                    label = names.get(deck, deck)
                shown.append(tr("records.profile.deck", locale, name=safe_text(label, 32 if deck.startswith("own:") else None),
                                share=share_text(s, locale)))
            if shown:
                out[game] = tr("core.list_sep", locale).join(shown[:3])
        return out

    # ------------------------------------------------------------------ /history
    @app_commands.command(name=N("history", "cmd.history.name"), description=L("cmd.history.description"))
    @app_commands.guild_only()
    @app_commands.rename(user=N("player", "cmd.records.user.name"), game=N("game", "cmd.records.game.name"))
    @app_commands.describe(user=L("cmd.records.user.description"), game=L("cmd.records.game.description"))
    @app_commands.choices(game=_game_choices())
    async def history(self, interaction: discord.Interaction, user: Optional[discord.User] = None,
                      game: Optional[str] = None) -> None:
        locale = user_locale(interaction)
        if game is not None and game not in registry:
            await reply_error(interaction, tr("cogs.err.unknown_game", locale, game=safe_text(game, 40),
                                              games=", ".join(registry.names())))
            return
        who = user or interaction.user
        content, view = await self.history_page(interaction, who.id, game, 0, locale)
        await reply(interaction, content, view=view)

    async def history_page(self, interaction: discord.Interaction, user_id: int, game: str | None, page: int,
                           locale: str) -> tuple[str, discord.ui.View | None]:
        # your own history also lists your matches of no server (practice in a DM or group chat)
        rows, page, n = await self.records.history(user_id, game, interaction.guild_id, page,
                                                   personal=user_id == interaction.user.id)
        head = tr("records.history.title", locale, user=f"<@{user_id}>",
                  game=game_name(game, locale) if game else tr("records.all_games", locale), page=page + 1, pages=n)
        if not rows:
            return head + "\n" + tr("records.history.empty", locale), None
        lines = [head]
        options = []
        for r, m in rows:
            others = tr("core.list_sep", locale).join(nm for u, nm in zip(m.seats, m.names) if u != user_id and nm) if m else "-"
            url = thread_url(r.guild_id, m, await self.bot.store.get_refs(m.id) if m else None)  # type: ignore[attr-defined]
            line = tr("records.history.line", locale, match_id=r.match_id, game=game_name(r.game, locale),
                      outcome=outcome_text(r.outcome, locale), others=safe_text(others, 60) if others else "-",
                      when=f"<t:{int(r.finished_at)}:d>")
            if m is not None and not m.meta.get("rated", True):
                line += " " + tr("records.unrated_mark", locale)
            if url:
                line += " " + tr("records.history.link", locale, url=url)
            lines.append(line)
            options.append(discord.SelectOption(label=clip(tr("records.export.option", locale, match_id=r.match_id,
                                                                game=game_name(r.game, locale)), 100),
                                                value=str(r.match_id)))
        lines.append(tr("records.history.export_hint", locale))
        view = discord.ui.View(timeout=None)
        g = game or "-"
        for item in page_buttons(f"rec:h:{user_id}:{g}:{{page}}", page, n, locale):
            view.add_item(item)
        view.add_item(ExportSelect(discord.ui.Select(custom_id="rec:x", options=options,
                                                     placeholder=clip(tr("records.export.placeholder", locale), 150))))
        return clip("\n".join(lines), 2000), view

    async def on_history_page(self, interaction: discord.Interaction, user_id: int, game: str, page: int) -> None:
        locale = user_locale(interaction)
        content, view = await self.history_page(interaction, user_id, None if game == "-" else game, page, locale)
        await interaction.response.edit_message(content=content, view=view)

    async def on_export(self, interaction: discord.Interaction, value: str) -> None:
        locale = user_locale(interaction)
        try:
            match_id = int(value)
        except ValueError:
            await reply_error(interaction, tr("cogs.err.bad_value", locale, value=safe_text(value, 20)))
            return
        try:
            rec = await self.bot.store.get_match(match_id)  # type: ignore[attr-defined]
        except Exception:   # unreadable: export says so
            rec = None
        if rec is not None and not await check_match(interaction, rec):   # another server's, not a player
            return
        res = await self.records.export(match_id)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        if rec is not None and rec.meta.get("league") is not None:
            # an event match: the full record (seed, decks) only to organisers, and to its players
            # once the event has ended; anyone else the public record (cogs/league_event.py)
            from cogs.league_event import event_export

            res.data["export"] = await event_export(self.bot, interaction, rec, res.data["export"])
        elif rec is not None and not seated(rec, interaction.user.id):
            # the seed and the hidden commands are its own players' only: anyone else gets the
            # public record (no seed, no decks, only the commands everyone saw)
            from host.events.entry import public_export

            shown = await self.bot.host.log(rec.id)   # type: ignore[attr-defined]
            res.data["export"] = public_export(res.data["export"], shown.data.get("log", []) if shown.ok else [])
        raw = file_bytes(json.dumps(res.data["export"], ensure_ascii=False, indent=2))
        file = discord.File(io.BytesIO(raw), filename=f"match-{match_id}.json")
        await reply(interaction, tr("records.export.done", locale, match_id=match_id), file=file)

    # ------------------------------------------------------------------ /h2h
    @app_commands.command(name=N("h2h", "cmd.h2h.name"), description=L("cmd.h2h.description"))
    @app_commands.guild_only()
    @app_commands.rename(user=N("player", "cmd.records.user.name"), other=N("other", "cmd.h2h.other.name"))
    @app_commands.describe(user=L("cmd.h2h.user.description"), other=L("cmd.h2h.other.description"))
    async def h2h(self, interaction: discord.Interaction, user: discord.User,
                  other: Optional[discord.User] = None) -> None:
        locale = user_locale(interaction)
        a, b = (user, other) if other is not None else (interaction.user, user)
        if a.id == b.id:
            await reply_error(interaction, tr("records.err.same_user", locale))
            return
        data = await self.records.h2h(a.id, b.id)
        s = data["score"]
        lines = [tr("records.h2h.title", locale, a=f"<@{a.id}>", b=f"<@{b.id}>"),
                 tr("records.h2h.score", locale, a=s["a"], b=s["b"], d=s["draw"], n=data["total"])]
        if not data["total"]:
            lines.append(tr("records.h2h.empty", locale))
        for game, g in data["games"].items():
            lines.append(tr("records.h2h.game", locale, game=game_name(game, locale), a=g["a"], b=g["b"], d=g["draw"]))
        for ra, _ in data["recent"]:
            lines.append(tr("records.h2h.recent", locale, match_id=ra.match_id, game=game_name(ra.game, locale),
                            outcome=outcome_text(ra.outcome, locale), name=safe_text(a.display_name),
                            when=f"<t:{int(ra.finished_at)}:d>"))
        await reply(interaction, clip("\n".join(lines), 2000))

    # ------------------------------------------------------------------ /leaderboard
    @app_commands.command(name=N("leaderboard", "cmd.leaderboard.name"), description=L("cmd.leaderboard.description"))
    @app_commands.guild_only()
    @app_commands.rename(game=N("game", "cmd.records.game.name"), season=N("season", "cmd.leaderboard.season.name"),
                         scope=N("scope", "cmd.leaderboard.scope.name"), public=N("public", "cmd.records.public.name"))
    @app_commands.describe(game=L("cmd.leaderboard.game.description"), season=L("cmd.leaderboard.season.description"),
                           scope=L("cmd.leaderboard.scope.description"), public=L("cmd.records.public.description"))
    @app_commands.choices(game=_game_choices(), scope=SCOPE_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          season: Optional[app_commands.Range[int, 1, 99999]] = None,
                          scope: Optional[str] = None, public: bool = False) -> None:
        locale = user_locale(interaction)
        if game not in registry:
            await reply_error(interaction, tr("cogs.err.unknown_game", locale, game=safe_text(game, 40),
                                              games=", ".join(registry.names())))
            return
        if scope not in (None, "server", "global"):
            await reply_error(interaction, tr("cogs.err.bad_value", locale, value=safe_text(scope, 20)))
            return
        if season is not None and scope == "global":
            await reply_error(interaction, tr("records.err.season_global", locale))
            return
        if season is not None:
            current = await self.records.season(interaction.guild_id)
            if season > current:
                await reply_error(interaction, tr("records.err.season", locale, current=current))
                return
        code = f"s{season}" if season is not None else ("w" if scope == "global" else "g")
        content, view = await self.board_page(interaction, game, code, 0, locale)
        await reply(interaction, content, view=view, ephemeral=not public)

    async def board_page(self, interaction: discord.Interaction, game: str, code: str, page: int,
                         locale: str) -> tuple[str, discord.ui.View | None]:
        gid = interaction.guild_id
        if code == "w" or gid is None:
            scope, where = "global", tr("records.scope.global", locale)
        elif code.startswith("s"):
            scope, where = season_scope(gid, int(code[1:])), tr("records.scope.season", locale, season=int(code[1:]))
        else:
            scope, where = guild_scope(gid), tr("records.scope.server", locale)
        rows, page, n, total = await self.records.leaderboard(game, scope, page)
        head = tr("records.board.title", locale, game=game_name(game, locale), scope=where, page=page + 1, pages=n)
        if not rows:
            return head + "\n" + tr("records.board.empty", locale), None
        lines = [head]
        # exactly equal order keys share a place (1, 2, 2, 4), across pages too
        places = await self.records.board_places(game, scope, page * PER_PAGE, rows)
        for i, r in zip(places, rows):
            lines.append(tr("records.board.line", locale, rank=i, user=f"<@{r.user_id}>",
                            rating=R.label(r.mu, r.games), w=r.wins, l=r.losses, d=r.draws))
        lines.append(tr("records.board.footer", locale, n=R.PROVISIONAL_GAMES))
        view = discord.ui.View(timeout=None)
        for item in page_buttons(f"rec:lb:{game}:{code}:{{page}}", page, n, locale):
            view.add_item(item)
        return clip("\n".join(lines), 2000), view if view.children else None

    async def on_board_page(self, interaction: discord.Interaction, game: str, code: str, page: int) -> None:
        locale = user_locale(interaction)
        if game not in registry:
            await reply_error(interaction, tr("cogs.err.unknown_game", locale, game=safe_text(game, 40),
                                              games=", ".join(registry.names())))
            return
        content, view = await self.board_page(interaction, game, code, page, locale)
        await interaction.response.edit_message(content=content, view=view)


# ---------------------------------------------------------------------------- dynamic items
# a Records-cog handler, answered as every persistent component is (cogs.common.run_in_cog)
_run = functools.partial(run_in_cog, "Records")


class HistoryPage(discord.ui.DynamicItem[discord.ui.Button], template=HISTORY_TEMPLATE):
    def __init__(self, item: discord.ui.Button, user: int, game: str, page: int) -> None:
        super().__init__(item)
        self.user, self.game, self.page = user, game, page

    @classmethod
    def wrap(cls, item: discord.ui.Button) -> "HistoryPage":
        m = re.fullmatch(HISTORY_TEMPLATE, item.custom_id or "")
        return cls(item, int(m["user"]), m["game"], int(m["page"]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(item, int(match["user"]), match["game"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda c: c.on_history_page(interaction, self.user, self.game, self.page))


class BoardPage(discord.ui.DynamicItem[discord.ui.Button], template=BOARD_TEMPLATE):
    def __init__(self, item: discord.ui.Button, game: str, scope: str, page: int) -> None:
        super().__init__(item)
        self.game, self.scope, self.page = game, scope, page

    @classmethod
    def wrap(cls, item: discord.ui.Button) -> "BoardPage":
        m = re.fullmatch(BOARD_TEMPLATE, item.custom_id or "")
        return cls(item, m["game"], m["scope"], int(m["page"]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(item, match["game"], match["scope"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda c: c.on_board_page(interaction, self.game, self.scope, self.page))


class ExportSelect(discord.ui.DynamicItem[discord.ui.Select], template=EXPORT_TEMPLATE):
    def __init__(self, item: discord.ui.Select) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or [""]
        await _run(interaction, lambda c: c.on_export(interaction, str(values[0])))


DYNAMIC_ITEMS = (HistoryPage, BoardPage, ExportSelect)
