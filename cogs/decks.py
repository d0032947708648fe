"""``/deck``: build, check, share and delete decks for every card game (game-agnostic).

Everything about a game's cards comes through ``game.decks`` (docs/engine.md) via
:class:`host.decks.DeckBook`; answers are ephemeral (a deck is its owner's business until used).
"""
from __future__ import annotations

from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.common import (CHOICE_MAX, EMBED_DESC_MAX, L, N, clip, code, game_name, render, render_lines, reply, reply_error,
                         safe_text, tr, user_locale)
from host.decks import DeckBook, card_name, deck_games
from rules import registry


def _book(bot: Any) -> DeckBook:
    book = getattr(bot, "deck_book", None)
    if book is None:
        book = bot.deck_book = DeckBook(bot.store)
    return book


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    locale = user_locale(interaction)
    cur = (current or "").lower()
    out = [Choice(name=game_name(g, locale), value=g) for g in deck_games()
           if cur in g or cur in game_name(g, locale).lower()]
    return out[:CHOICE_MAX]


def _ns_game(interaction: discord.Interaction) -> str | None:
    game = getattr(interaction.namespace, "game", None)
    return game if game in deck_games() else None


async def deck_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    game = _ns_game(interaction)
    if game is None:
        return []
    res = await _book(interaction.client).list(interaction.user.id, game)
    cur = (current or "").lower()
    own = [r for r in res.data["decks"] if not r.get("ready")]
    return [Choice(name=clip(r["name"], 100), value=r["name"]) for r in own if cur in r["name"].lower()][:CHOICE_MAX]


async def any_deck_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The user's own decks, then the ready-made ones."""
    game = _ns_game(interaction)
    if game is None:
        return []
    locale = user_locale(interaction)
    res = await _book(interaction.client).list(interaction.user.id, game)
    cur = (current or "").lower()
    out = []
    for r in res.data["decks"]:
        label = r["name"]
        if r.get("ready"):
            title = r["title"].get(locale) or r["title"].get("en") or r["name"]
            label = tr("deck.ready_label", locale, name=title)
        if cur in label.lower() or cur in r["name"].lower():
            out.append(Choice(name=clip(label, 100), value=r["name"]))
    return out[:CHOICE_MAX]


async def ready_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    game = _ns_game(interaction)
    if game is None:
        return []
    locale = user_locale(interaction)
    cur = (current or "").lower()
    out = []
    for rid, ready in registry.get(game).decks.ready().items():
        title = ready["name"].get(locale) or ready["name"].get("en") or rid
        if cur in title.lower() or cur in rid:
            out.append(Choice(name=clip(title, 100), value=rid))
    return out[:CHOICE_MAX]


async def card_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    game = _ns_game(interaction)
    if game is None:
        return []
    locale = user_locale(interaction)
    cur = (current or "").lower()
    out = []
    for cid, card in registry.get(game).decks.cards().items():
        name = (card.get("name") or {}).get(locale) or (card.get("name") or {}).get("en") or cid
        if cur in cid.lower() or cur in name.lower():
            out.append(Choice(name=clip(f"{name} ({cid})", 100), value=cid))
    return out[:CHOICE_MAX]


def deck_embed(data: dict, locale: str, info: list[Any]) -> discord.Embed:
    game = data["game"]
    lines = []
    for section in data["describe"].get("sections", []):
        title = section["title"].get(locale) or section["title"].get("en", "")
        cards = tr("core.list_sep", locale).join(f"{safe_text(card_name(game, cid, locale))} ×{n}" for cid, n in section["cards"]) or "-"
        lines.append(f"**{title}**\n{cards}")
    lines.append(tr("deck.code_line", locale, code=data["code"]))
    checks = render_lines(info, locale)
    if checks:
        lines.append("\n".join(("✅ " if data["legal"] else "⚠️ ") + c if i == 0 else "• " + c
                               for i, c in enumerate(checks)))
    return discord.Embed(title=clip(f"{game_name(game, locale)} · {safe_text(data['name'], 100)}", 256),
                         description=clip("\n\n".join(lines), EMBED_DESC_MAX),
                         colour=discord.Colour.green() if data["legal"] else discord.Colour.orange())


class Decks(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    deck = app_commands.Group(name=N("deck", "cmd.deck.name"), description=L("cmd.deck.description"))

    async def _show(self, interaction: discord.Interaction, res: Any) -> None:
        locale = user_locale(interaction)
        if not res.ok:
            extra = render_lines(res.info, locale)
            await reply_error(interaction, "\n".join([render(res.error, locale)] + ["• " + e for e in extra]))
            return
        if "spec" in res.data:
            await reply(interaction, embed=deck_embed(res.data, locale, res.info))
        else:
            await reply(interaction, "\n".join(render_lines(res.info, locale)) or "✅")

    @deck.command(name=N("new", "cmd.deck.new.name"), description=L("cmd.deck.new.description"))
    @app_commands.rename(game=N("game", "cmd.deck.game.name"), name=N("name", "cmd.deck.deckname.name"),
                         copy=N("copy", "cmd.deck.copy.name"))
    @app_commands.describe(game=L("cmd.deck.game.description"), name=L("cmd.deck.deckname.description"),
                           copy=L("cmd.deck.copy.description"))
    @app_commands.autocomplete(game=game_autocomplete, copy=ready_autocomplete)
    async def deck_new(self, interaction: discord.Interaction, game: str,
                       name: app_commands.Range[str, 1, 32], copy: Optional[str] = None) -> None:
        await self._show(interaction, await _book(self.bot).new(interaction.user.id, game, name, copy_of=copy))

    @deck.command(name=N("edit", "cmd.deck.edit.name"), description=L("cmd.deck.edit.description"))
    @app_commands.rename(game=N("game", "cmd.deck.game.name"), name=N("name", "cmd.deck.deckname.name"),
                         action=N("action", "cmd.deck.action.name"), card=N("card", "cmd.deck.card.name"),
                         count=N("count", "cmd.deck.count.name"))
    @app_commands.describe(game=L("cmd.deck.game.description"), name=L("cmd.deck.deckname.description"),
                           action=L("cmd.deck.action.description"), card=L("cmd.deck.card.description"),
                           count=L("cmd.deck.count.description"))
    @app_commands.choices(action=[Choice(name=app_commands.locale_str("add", key="cmd.deck.action.add"), value="add"),
                                  Choice(name=app_commands.locale_str("remove", key="cmd.deck.action.remove"),
                                         value="remove")])
    @app_commands.autocomplete(game=game_autocomplete, name=deck_autocomplete, card=card_autocomplete)
    async def deck_edit(self, interaction: discord.Interaction, game: str, name: str, action: str, card: str,
                        count: Optional[app_commands.Range[int, 1, 40]] = 1) -> None:
        res = await _book(self.bot).edit(interaction.user.id, game, name, action, card, count or 1)
        await self._show(interaction, res)

    @deck.command(name=N("show", "cmd.deck.show.name"), description=L("cmd.deck.show.description"))
    @app_commands.rename(game=N("game", "cmd.deck.game.name"), name=N("name", "cmd.deck.deckname.name"))
    @app_commands.describe(game=L("cmd.deck.game.description"), name=L("cmd.deck.anyname.description"))
    @app_commands.autocomplete(game=game_autocomplete, name=any_deck_autocomplete)
    async def deck_show(self, interaction: discord.Interaction, game: str, name: str) -> None:
        await self._show(interaction, await _book(self.bot).show(interaction.user.id, game, name))

    @deck.command(name=N("validate", "cmd.deck.validate.name"), description=L("cmd.deck.validate.description"))
    @app_commands.rename(game=N("game", "cmd.deck.game.name"), name=N("name", "cmd.deck.deckname.name"))
    @app_commands.describe(game=L("cmd.deck.game.description"), name=L("cmd.deck.deckname.description"))
    @app_commands.autocomplete(game=game_autocomplete, name=deck_autocomplete)
    async def deck_validate(self, interaction: discord.Interaction, game: str, name: str) -> None:
        await self._show(interaction, await _book(self.bot).validate(interaction.user.id, game, name))

    @deck.command(name=N("list", "cmd.deck.list.name"), description=L("cmd.deck.list.description"))
    @app_commands.rename(game=N("game", "cmd.deck.game.name"))
    @app_commands.describe(game=L("cmd.deck.game.description"))
    @app_commands.autocomplete(game=game_autocomplete)
    async def deck_list(self, interaction: discord.Interaction, game: Optional[str] = None) -> None:
        locale = user_locale(interaction)
        res = await _book(self.bot).list(interaction.user.id, game)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        lines = []
        for r in res.data["decks"]:
            mark = "📦" if r.get("ready") else ("✅" if r["legal"] else "⚠️")
            title = (r.get("title") or {}).get(locale) or r["name"]
            lines.append(f"{mark} {game_name(r['game'], locale)} · {safe_text(title)}"
                         + (f" ({code(r['name'])})" if r.get("ready") else ""))
        await reply(interaction, clip("\n".join(lines) or tr("deck.none", locale), 2000))

    @deck.command(name=N("delete", "cmd.deck.delete.name"), description=L("cmd.deck.delete.description"))
    @app_commands.rename(game=N("game", "cmd.deck.game.name"), name=N("name", "cmd.deck.deckname.name"))
    @app_commands.describe(game=L("cmd.deck.game.description"), name=L("cmd.deck.deckname.description"))
    @app_commands.autocomplete(game=game_autocomplete, name=deck_autocomplete)
    async def deck_delete(self, interaction: discord.Interaction, game: str, name: str) -> None:
        await self._show(interaction, await _book(self.bot).delete(interaction.user.id, game, name))

    @deck.command(name=N("import", "cmd.deck.import.name"), description=L("cmd.deck.import.description"))
    @app_commands.rename(game=N("game", "cmd.deck.game.name"), name=N("name", "cmd.deck.deckname.name"),
                         code=N("code", "cmd.deck.code.name"))
    @app_commands.describe(game=L("cmd.deck.game.description"), name=L("cmd.deck.deckname.description"),
                           code=L("cmd.deck.code.description"))
    @app_commands.autocomplete(game=game_autocomplete)
    async def deck_import(self, interaction: discord.Interaction, game: str,
                          name: app_commands.Range[str, 1, 32], code: app_commands.Range[str, 1, 1000]) -> None:
        await self._show(interaction, await _book(self.bot).import_code(interaction.user.id, game, name, code))

    @deck.command(name=N("export", "cmd.deck.export.name"), description=L("cmd.deck.export.description"))
    @app_commands.rename(game=N("game", "cmd.deck.game.name"), name=N("name", "cmd.deck.deckname.name"))
    @app_commands.describe(game=L("cmd.deck.game.description"), name=L("cmd.deck.anyname.description"))
    @app_commands.autocomplete(game=game_autocomplete, name=any_deck_autocomplete)
    async def deck_export(self, interaction: discord.Interaction, game: str, name: str) -> None:
        locale = user_locale(interaction)
        res = await _book(self.bot).export(interaction.user.id, game, name)
        if not res.ok:
            await reply_error(interaction, render(res.error, locale))
            return
        await reply(interaction, tr("deck.export", locale, name=safe_text(name), code=res.data["code"]))
