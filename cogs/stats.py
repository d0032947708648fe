"""``/stats``: what this server's own matches say (issue 37) — decks, characters, AVIs, KINGs,
avatars and cards of a game with their win rates and 95 % intervals, the matchup picture, the
first player and the median length; SQUARES' first player and openings.  With ``export:true``
(Manage Server) the server's finished matches, ratings and statistics as CSV.  Thin: every
figure comes from :class:`host.stats.service.Stats`.

The figures are counted when a match ends (the host's finished-match hook, registered here) and
caught up at start; practice matches and matches against the computer only with ``practice:true``.

custom_id templates (≤ 100 chars; the server is the interaction's own, never in the id)::

    st:<game>:<split>:<scope>:<page>      a page
    st:x:<game>:<scope>                   the split select (values: splits)
"""
from __future__ import annotations

import asyncio
import functools
import io
import logging
import re
from typing import Any, Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (GAME_CHOICES, L, N, clip, game_name, render, reply, reply_error, run_in_cog, safe_text, tr,
                         user_locale)
from data import i18n
from host.stats.aggregate import MIN_CELL, OWN
from host.stats.service import Stats as StatsService
from host.stats.service import opening_words, split_words

log = logging.getLogger("cogs.stats")

PAGE_TEMPLATE = r"st:(?P<game>[a-z_]{2,20}):(?P<split>[0-9-]{1,12}\|[0-9-]{1,19}):(?P<scope>(?:all|s\d{1,6}|l\d{1,19})(?:\|p)?):(?P<page>\d{1,4})"
SPLIT_TEMPLATE = r"st:x:(?P<game>[a-z_]{2,20}):(?P<scope>(?:all|s\d{1,6}|l\d{1,19})(?:\|p)?)"
CARDS_PER_PAGE = 8
DECKS_SHOWN = 12


def stats_of(bot: Any) -> StatsService:
    svc = getattr(bot, "stats", None)
    if svc is None or svc.store is not bot.store:
        svc = bot.stats = StatsService(bot.store, bot.host, now=bot.host.now)
    return svc


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def share_text(s: dict, locale: str) -> str:
    """``58% (95% 35–78%, n = 12)`` in the reader's words."""
    return tr("stats.share", locale, share=_pct(s["share"]), low=_pct(s["ci95"][0]), high=_pct(s["ci95"][1]), n=s["n"])


class Stats(commands.Cog):
    """A server's statistics."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def service(self) -> StatsService:
        return stats_of(self.bot)

    async def cog_load(self) -> None:
        host = getattr(self.bot, "host", None)
        if host is None or getattr(self.bot, "store", None) is None:
            return                  # a bot made only to list its commands
        if self.service.on_finish not in host.on_finish:
            host.on_finish.append(self.service.on_finish)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if getattr(self, "_caught_up", False):
            return
        self._caught_up = True
        try:
            n = await self.service.catch_up()
            if n:
                log.info("statistics: %d finished matches counted at start", n)
        except Exception:
            log.warning("statistics: the catch-up at start failed; the next start tries again", exc_info=True)

    # ------------------------------------------------------------------ /stats
    @app_commands.command(name=N("stats", "cmd.stats.name"), description=L("cmd.stats.description"))
    @app_commands.guild_only()
    @app_commands.rename(game=N("game", "cmd.stats.game.name"), season=N("season", "cmd.stats.season.name"),
                         league=N("league", "cmd.stats.league.name"), practice=N("practice", "cmd.stats.practice.name"),
                         public=N("public", "cmd.stats.public.name"), export=N("export", "cmd.stats.export.name"))
    @app_commands.describe(game=L("cmd.stats.game.description"), season=L("cmd.stats.season.description"),
                           league=L("cmd.stats.league.description"), practice=L("cmd.stats.practice.description"),
                           public=L("cmd.stats.public.description"), export=L("cmd.stats.export.description"))
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(self, interaction: discord.Interaction, game: str,
                    season: Optional[app_commands.Range[int, 1, 100000]] = None,
                    league: Optional[app_commands.Range[int, 1, 10 ** 12]] = None,
                    practice: Optional[bool] = None, public: Optional[bool] = None,
                    export: Optional[bool] = None) -> None:
        locale = user_locale(interaction)
        if export:
            await self._export(interaction, game, locale)
            return
        if league is not None:
            lg = await self.bot.store.get_league(int(league))  # type: ignore[attr-defined]
            if lg is None or lg.guild_id != interaction.guild_id:
                await reply_error(interaction, tr("leagues.err.no_league", locale, league=league))
                return
        scope = ("l" + str(int(league))) if league else ("s" + str(int(season))) if season else "all"
        if practice:
            scope += "|p"
        await interaction.response.defer(ephemeral=not public, thinking=True)
        embed, file, view = await self.page(interaction.guild_id, game, None, scope, 0, locale)
        await interaction.followup.send(embed=embed, file=file, view=view, ephemeral=not public,
                                        allowed_mentions=discord.AllowedMentions.none())

    def _scope_args(self, scope: str) -> dict:
        base, practice = scope.split("|")[0], scope.endswith("|p")
        return {"season": int(base[1:]) if base.startswith("s") else None,
                "league": int(base[1:]) if base.startswith("l") else None, "practice": practice}

    async def page(self, guild_id: int | None, game: str, split: str | None, scope: str, page: int,
                   locale: str) -> tuple:
        res = await self.service.report(guild_id, game, split=split, **self._scope_args(scope))
        title = tr("stats.title", locale, game=game_name(game, locale))
        if not res.ok or res.data["figures"] is None:
            embed = discord.Embed(title=clip(title, 256), description=tr("stats.none", locale,
                                                                         game=game_name(game, locale)))
            return embed, discord.utils.MISSING, discord.utils.MISSING
        figures, split = res.data["figures"], res.data["split"]
        decks, cards, set_name = await self.service.names(game, split, locale)
        split_msg = split_words(split, {int(split.split("|")[1]): set_name} if set_name else None)
        where = render(split_msg, locale)           # the set's name made safe, for the message
        subtitle = split_msg.render(locale)         # as named, for the picture
        pages = 1 + -(-sum(len(c) for c in figures["cards"].values()) // CARDS_PER_PAGE)
        page = max(0, min(page, pages - 1))
        lines = [tr("stats.head", locale, games=figures["games"], where=where,
                    by=tr(f"stats.by.{figures['by']}", locale))]
        file = discord.utils.MISSING
        if page == 0:
            lines += self._overview(game, figures, decks, cards, locale)
            if len(figures["decks"]) >= 2 and figures["matchups"]:
                from render.stats_chart import chart_png

                png = await asyncio.to_thread(chart_png, game, figures, {d: decks.get(d, d) for d in figures["decks"]},
                                              locale=locale, title=title, subtitle=subtitle)
                file = discord.File(io.BytesIO(png), filename="stats.png")
        else:
            lines += self._cards(figures, decks, cards, page - 1, locale)
        lines.append(tr("stats.page", locale, page=page + 1, pages=pages))
        embed = discord.Embed(title=clip(title, 256), description=clip("\n".join(lines), 4000),
                              colour=discord.Colour.teal())
        if file is not discord.utils.MISSING:
            embed.set_image(url="attachment://stats.png")
        view = discord.ui.View(timeout=None)
        if pages > 1:
            for target, label, disabled in ((page - 1 if page > 0 else page, "◀", page == 0),
                                            (page + 1 if page + 1 < pages else page, "▶", page + 1 >= pages)):
                button = discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"st:{game}:{split}:{scope}:{target}")
                view.add_item(StatsPage(button, game, split, scope, target))
        if len(res.data["splits"]) > 1:
            options = []
            for sp, n in res.data["splits"][:25]:
                _d, _c, name = await self.service.names(game, sp, locale)
                words = split_words(sp, {int(sp.split("|")[1]): name} if name else None).render(locale)  # a label: no markdown
                options.append(discord.SelectOption(label=clip(f"{words} ({n})", 100), value=sp, default=sp == split))
            select = discord.ui.Select(custom_id=f"st:x:{game}:{scope}", options=options,
                                       placeholder=tr("stats.pick_split", locale))
            view.add_item(StatsSplit(select, game, scope))
        return embed, file, view if view.children else discord.utils.MISSING

    def _overview(self, game: str, figures: dict, decks: dict, cards: dict, locale: str) -> list[str]:
        out = []
        shown = sorted(figures["decks"].items(), key=lambda kv: (-kv[1]["n"], kv[0]))
        if shown:
            out.append(tr("stats.decks", locale))
            for d, s in shown[:DECKS_SHOWN]:
                out.append(tr("stats.line", locale, name=safe_text(decks.get(d, d), 40), share=share_text(s, locale)))
        ids = sorted(figures["identities"].items(), key=lambda kv: (-kv[1]["n"], kv[0]))
        if ids:
            out.append(tr(f"stats.identities.{game}", locale))
            for i, s in ids[:DECKS_SHOWN]:
                out.append(tr("stats.line", locale, name=safe_text(cards.get(i, i), 40), share=share_text(s, locale)))
        if figures["first"]["n"]:
            out.append(tr(i18n.game_key("stats.first", game), locale, share=share_text(figures["first"], locale)))
        if figures["median_length"] is not None:
            out.append(tr("stats.length", locale, n=f"{figures['median_length']:g}"))
        openings = sorted(figures.get("openings", {}).items(), key=lambda kv: (-kv[1]["n"], kv[0]))
        if openings:
            out.append(tr("stats.openings", locale))
            for o, s in openings[:10]:
                out.append(tr("stats.line", locale, name=safe_text(opening_words(o, locale)), share=share_text(s, locale)))
        if len(figures["decks"]) >= 2:
            out.append(tr("stats.matrix_note", locale, min=MIN_CELL))
        return out

    def _cards(self, figures: dict, decks: dict, cards: dict, page: int, locale: str) -> list[str]:
        rows = []
        for d, by_card in sorted(figures["cards"].items(), key=lambda kv: kv[0] == OWN):
            for c, f in sorted(by_card.items(), key=lambda kv: (-kv[1]["played"]["n"], kv[0])):
                rows.append((d, c, f))
        chunk = rows[page * CARDS_PER_PAGE:(page + 1) * CARDS_PER_PAGE]
        out = [tr("stats.cards_head", locale)]
        for d, c, f in chunk:
            out.append(tr("stats.card_line", locale, card=safe_text(cards.get(c, c), 40),
                          deck=safe_text(decks.get(d, d), 30), played=share_text(f["played"], locale),
                          not_played=share_text(f["not_played"], locale)))
        return out

    async def on_page(self, interaction: discord.Interaction, game: str, split: str, scope: str, page: int) -> None:
        locale = user_locale(interaction)
        embed, file, view = await self.page(interaction.guild_id, game, split, scope, page, locale)
        kwargs: dict[str, Any] = {"embed": embed, "view": view if view is not discord.utils.MISSING else None,
                                  "attachments": [file] if file is not discord.utils.MISSING else []}
        await interaction.response.edit_message(**kwargs)

    # ------------------------------------------------------------------ exports
    async def _export(self, interaction: discord.Interaction, game: str, locale: str) -> None:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await reply_error(interaction, tr("stats.err.export_manage", locale))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        from host.stats.exports import export_files

        files = await export_files(self.bot.store, self.service, interaction.guild_id, game, locale)
        await reply(interaction, tr("stats.exported", locale, game=game_name(game, locale)),
                    files=[discord.File(io.BytesIO(body), filename=name) for name, body in files.items()])


_run = functools.partial(run_in_cog, "Stats")


class StatsPage(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    def __init__(self, item: discord.ui.Button, game: str, split: str, scope: str, page: int) -> None:
        super().__init__(item)
        self.game, self.split, self.scope, self.page = game, split, scope, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(item, match["game"], match["split"], match["scope"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, lambda c: c.on_page(interaction, self.game, self.split, self.scope, self.page))


class StatsSplit(discord.ui.DynamicItem[discord.ui.Select], template=SPLIT_TEMPLATE):
    def __init__(self, item: discord.ui.Select, game: str, scope: str) -> None:
        super().__init__(item)
        self.game, self.scope = game, scope

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any):
        return cls(item, match["game"], match["scope"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or [""]
        split = str(values[0])
        if not re.fullmatch(r"[0-9-]{1,12}\|[0-9-]{1,19}", split):
            split = None
        await _run(interaction, lambda c: c.on_page(interaction, self.game, split, self.scope, 0))


DYNAMIC_ITEMS = (StatsPage, StatsSplit)

__all__ = ["Stats", "DYNAMIC_ITEMS", "stats_of"]
