"""``/rules game``: a player's guide to each game, paged with ◀ ▶ (persistent buttons), with a
picture of a start position on its first page; ``/help``: the bot's commands by task.

The pages are catalog entries of the game, found by key — ``guide.<game>.<n>.title`` and
``guide.<game>.<n>.body`` for n = 1, 2, … (``data/i18n/<lang>/guide_<game>.json``) — so adding a
game touches no cog.  A game without a guide gets a short "no guide yet" page with its player
count and options.  Developer documentation (docs/) never reaches players.  Both answers are
ephemeral unless ``public:`` is set.

``/help`` is catalog text too: ``guide.help.<n>.title`` / ``guide.help.<n>.body`` for n = 1, 2, …,
one section per task, whose ``{placeholders}`` are the bot's commands (``match_status`` for
``/match status``), filled in with each command's name as the reader's client shows it.

Custom id of a page button: ``guide:<game>:<page>`` (the page to show, 0-based).
"""
from __future__ import annotations

import asyncio
import io
import logging
import re
from functools import lru_cache
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import GAME_CHOICES, L, N, clip, game_name, reply, reply_error, safe_text, tr, user_locale
from data import i18n
from rules import registry

log = logging.getLogger("cogs.guide")

GUIDE_TEMPLATE = r"guide:(?P<game>[a-z0-9_]{1,40}):(?P<page>\d{1,2})"
MAX_PAGES = 20
PICTURE = "start.png"
# the organiser's guide to running an event (/help topic): paged like a game's guide
EVENTS = "events"


def guide_pages(game: str, locale: str, names: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """(title, body) of each page of ``game``'s guide (or :data:`EVENTS`) in ``locale``
    (English where a page is missing in it); [] when there is no guide.  ``names``: the
    commands' placeholders (:func:`command_names`) a page may name."""
    pages = []
    for n in range(1, MAX_PAGES + 1):
        title, body = f"guide.{game}.{n}.title", f"guide.{game}.{n}.body"
        if not (i18n.has(title) and i18n.has(body)):
            break
        pages.append((i18n.t(title, locale), i18n.t(body, locale, **(names or {}))))
    return pages


def _options_text(engine: Any, locale: str) -> str:
    from host.options import options_guide

    return options_guide(engine, locale)


def _fallback_page(game: str, locale: str) -> tuple[str, str]:
    """A game without a guide: a short "no guide yet" (its player count and options are the
    fields of the first page)."""
    return (tr("cogs.rules.title", locale, game=game_name(game, locale)),
            tr("cogs.rules.missing", locale, game=game_name(game, locale)))


@lru_cache(maxsize=32)
def start_picture(game: str, locale: str) -> bytes | None:
    """The public picture of a new match (its start position), drawn once per game and language."""
    from render import render_png

    try:
        engine = registry.get(game)
        players = engine.min_players
        state = engine.new_match(players=players, seed=1, options={})
        names = [i18n.t("render.seat_default", locale, n=i + 1) for i in range(players)]
        return render_png(game, engine.view(state, None), locale=locale, names=names)
    except Exception:   # a picture must never cost the guide
        log.exception("drawing the start picture of %s failed", game)
        return None


def guide_message(game: str, page: int, locale: str, picture: bytes | None, names: dict[str, str] | None = None
                  ) -> tuple[discord.Embed, discord.File | None, discord.ui.View | None]:
    """Page ``page`` (0-based, clamped) of the guide of ``game`` (or the organiser's guide,
    :data:`EVENTS`, whose pages name commands from ``names``): its embed, the start picture
    (a game's first page only) and the ◀ ▶ buttons (none for a one-page guide)."""
    pages = guide_pages(game, locale, names) or [_fallback_page(game, locale)]
    page = max(0, min(int(page), len(pages) - 1))
    title, body = pages[page]
    heading = tr("guide.events.title", locale) if game == EVENTS else game_name(game, locale)
    embed = discord.Embed(title=clip(f"{heading} — {title}", 256),
                          description=clip(body, 4000), colour=discord.Colour.blurple())
    engine = registry.get(game) if game != EVENTS else None
    if page == 0 and engine is not None:
        embed.add_field(name=tr("cogs.rules.players", locale),
                        value=f"{engine.min_players}–{engine.max_players}", inline=True)
        embed.add_field(name=tr("cogs.board.options", locale), value=clip(_options_text(engine, locale), 1024),
                        inline=True)
    embed.set_footer(text=tr("guide.page", locale, page=page + 1, pages=len(pages)))
    file = None
    if page == 0 and picture is not None:
        file = discord.File(io.BytesIO(picture), filename=PICTURE)
        embed.set_image(url=f"attachment://{PICTURE}")
    view = None
    if len(pages) > 1:
        view = discord.ui.View(timeout=None)
        prev = discord.ui.Button(label=tr("records.page.prev", locale), style=discord.ButtonStyle.secondary,
                                 custom_id=f"guide:{game}:{max(page - 1, 0)}", disabled=page == 0)
        # a disabled button points at the page shown, so the two custom ids stay distinct
        nxt = discord.ui.Button(label=tr("records.page.next", locale), style=discord.ButtonStyle.secondary,
                                custom_id=f"guide:{game}:{page + 1 if page + 1 < len(pages) else page}",
                                disabled=page + 1 >= len(pages))
        view.add_item(GuidePage.wrap(prev))
        view.add_item(GuidePage.wrap(nxt))
    return embed, file, view


class Guide(commands.Cog):
    """/rules: the players' guides."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name=N("rules", "cmd.rules.name"), description=L("cmd.rules.description"))
    @app_commands.allowed_installs(guilds=True, users=True)      # anywhere, also on a player's own
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)   # account (cogs/app_table.py)
    @app_commands.rename(game=N("game", "cmd.rules.game.name"), public=N("public", "cmd.guide.public.name"))
    @app_commands.describe(game=L("cmd.rules.game.description"), public=L("cmd.guide.public.description"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str, public: bool = False) -> None:
        locale = user_locale(interaction)
        if game not in registry:
            await reply_error(interaction, tr("cogs.err.unknown_game", locale, game=safe_text(game, 40),
                                              games=tr("core.list_sep", locale).join(game_name(g, locale) for g in registry.names())))
            return
        await interaction.response.defer(ephemeral=not public, thinking=True)
        picture = await asyncio.to_thread(start_picture, game, locale)
        embed, file, view = guide_message(game, 0, locale, picture)
        kwargs: dict[str, Any] = {"embed": embed, "ephemeral": not public}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        await reply(interaction, **kwargs)

    async def on_page(self, interaction: discord.Interaction, game: str, page: int) -> None:
        locale = user_locale(interaction)
        if game not in registry and game != EVENTS:
            await reply_error(interaction, tr("cogs.err.generic", locale))
            return
        picture = await asyncio.to_thread(start_picture, game, locale) if page == 0 and game != EVENTS else None
        names = command_names(self.bot.tree, locale) if game == EVENTS else None
        embed, file, view = guide_message(game, page, locale, picture, names)
        await interaction.response.edit_message(embed=embed, attachments=[file] if file else [], view=view)

    # ------------------------------------------------------------------ /help
    @app_commands.command(name=N("help", "cmd.help.name"), description=L("cmd.help.description"))
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.rename(topic=N("topic", "cmd.help.topic.name"), public=N("public", "cmd.guide.public.name"))
    @app_commands.describe(topic=L("cmd.help.topic.description"), public=L("cmd.guide.public.description"))
    @app_commands.choices(topic=[app_commands.Choice(name=L("cmd.help.topic.commands"), value="commands"),
                                 app_commands.Choice(name=L("cmd.help.topic.events"), value=EVENTS)])
    async def help(self, interaction: discord.Interaction, topic: str = "commands", public: bool = False) -> None:
        """``topic``: the commands by task, or the organiser's guide to running an event (paged)."""
        locale = user_locale(interaction)
        if topic != EVENTS:
            await reply(interaction, embed=help_embed(self.bot.tree, locale), ephemeral=not public)
            return
        embed, _, view = guide_message(EVENTS, 0, locale, None, command_names(self.bot.tree, locale))
        kwargs: dict[str, Any] = {"embed": embed, "ephemeral": not public}
        if view is not None:
            kwargs["view"] = view
        await reply(interaction, **kwargs)


def command_names(tree: app_commands.CommandTree, locale: str) -> dict[str, str]:
    """``{placeholder: "`/name sub`"}`` for every command and group of the tree, named as the
    reader's client shows it (the Japanese names are the commands' localized names)."""
    ja = i18n.catalog("ja")

    def local(cmd: Any) -> str:
        key = getattr(getattr(cmd, "_locale_name", None), "extras", {}).get("key")
        return ja.get(key, cmd.name) if (locale == "ja" and key) else cmd.name

    out: dict[str, str] = {}

    def walk(cmd: Any, path: list[str], shown: list[str]) -> None:
        path, shown = path + [cmd.name], shown + [local(cmd)]
        out[re.sub(r"[^a-z0-9]+", "_", " ".join(path).lower())] = "`/" + " ".join(shown) + "`"
        for sub in getattr(cmd, "commands", None) or []:
            walk(sub, path, shown)

    for cmd in tree.get_commands():
        walk(cmd, [], [])
    return out


def command_text(tree: app_commands.CommandTree, path: str, locale: str, **options: tuple[str, Any]) -> str:
    """One command as the reader types it, named as their client shows it: ``path`` "match
    replay" with ``match=("cmd.opt.match.name", 12)`` is `` `/match replay match:12` `` in
    English and `` `/対局 再生 対戦:12` `` in Japanese (the options' catalog keys)."""
    name = command_names(tree, locale).get(re.sub(r"[^a-z0-9]+", "_", path.lower()), f"`/{path}`").strip("`")
    ja = i18n.catalog("ja")
    shown = [f"{ja.get(key, opt) if locale == 'ja' else opt}:{value}" for opt, (key, value) in options.items()]
    return "`" + " ".join([name] + shown) + "`"


def help_sections(tree: app_commands.CommandTree, locale: str) -> list[tuple[str, str]]:
    """(title, body) of each /help section (a task), command names filled in."""
    names = command_names(tree, locale)
    sections = []
    for n in range(1, MAX_PAGES + 1):
        title, body = f"guide.help.{n}.title", f"guide.help.{n}.body"
        if not (i18n.has(title) and i18n.has(body)):
            break
        sections.append((tr(title, locale), tr(body, locale, **names)))
    return sections


def help_embed(tree: app_commands.CommandTree, locale: str) -> discord.Embed:
    embed = discord.Embed(title=clip(tr("guide.help.title", locale), 256),
                          description=clip(tr("guide.help.intro", locale), 1000), colour=discord.Colour.blurple())
    for title, body in help_sections(tree, locale)[:25]:
        embed.add_field(name=clip(title, 256), value=clip(body, 1024), inline=False)
    return embed


class GuidePage(discord.ui.DynamicItem[discord.ui.Button], template=GUIDE_TEMPLATE):
    def __init__(self, item: discord.ui.Button, game: str, page: int) -> None:
        super().__init__(item)
        self.game, self.page = game, page

    @classmethod
    def wrap(cls, item: discord.ui.Button) -> "GuidePage":
        m = re.fullmatch(GUIDE_TEMPLATE, item.custom_id or "")
        return cls(item, m["game"], int(m["page"]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any):
        return cls(item, match["game"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Guide")  # type: ignore[union-attr]
        if cog is None:
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))
            return
        try:
            await cog.on_page(interaction, self.game, self.page)
        except Exception:
            log.exception("guide page %s/%s failed", self.game, self.page)
            await reply_error(interaction, tr("cogs.err.generic", user_locale(interaction)))


DYNAMIC_ITEMS = (GuidePage,)
