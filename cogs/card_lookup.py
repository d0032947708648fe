"""``/card name``: look up one shipped card of any card game — its picture and its text.

Works wherever the player is: in a server, in the bot's DM, in a DM or group chat with the bot
installed on the player's own account (cogs/app_table.py).  Only the cards the bot ships are
looked up: a server's own card sets stay that server's (``/cards show``).

The ``name`` option is autocompleted in both languages: what the player types is looked for in
each card's English name, its Japanese name and its id, folded so that case, full-width letters,
spaces and dots, and hiragana against katakana do not matter (:func:`fold`); exact names come
first, then names that start so, then names with a word that starts so, then names that merely
hold it (:func:`matching`).  Each suggestion names the card in the reader's language, its other
name, and the game; its value is ``<game>:<card id>``.  A name typed without picking a
suggestion is taken when it names one card (:func:`resolve`).

The answer is one Components V2 layout (cogs/layouts.py): the card's name, its picture as the
card pages draw it (render/card_pages.py) in a media gallery, then in words everything the
picture shows (the card's rules text in the reader's language, its game, its other name), so
nothing is only in the picture.
"""
from __future__ import annotations

import asyncio
import io
import logging
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.common import CHOICE_MAX, L, N, clip, game_name, reply, reply_error, safe_text, tr, user_locale
from cogs.layouts import ALT_MAX, layout
from data import i18n
from data.card_sets import games

log = logging.getLogger("cogs.card_lookup")

PICTURE = "card.png"
ACCENT = 0x11806A           # the card's colour (a dark teal)
VALUE = re.compile(r"(?P<game>[a-z_]{2,20}):(?P<id>.{1,79})")
# spaces and the dots and dashes a name may be written with or without ("Blitz-Vector", "ブリッツ・ベクター")
_GAPS = re.compile(r"[\s\u30fb\u00b7\u2027\u2010-\u2015\-_.'’]+")


def fold(text: Any) -> str:
    """``text`` as the search compares it: NFKC (full-width letters and half-width kana made
    plain), case-folded, katakana as hiragana, without spaces, dots and dashes.

    >>> fold("ブリッツ・ベクター") == fold("ぶりっつ べくたー"), fold("Ｂｌｉｔｚ-Vector")
    (True, 'blitzvector')
    """
    s = unicodedata.normalize("NFKC", str(text or "")).casefold()
    s = "".join(chr(ord(ch) - 0x60) if "\u30a1" <= ch <= "\u30f6" else ch for ch in s)
    return _GAPS.sub("", s)


@dataclass(frozen=True)
class CardRef:
    """One shipped card as the lookup knows it."""

    game: str
    id: str
    name: dict          # {"en": …, "ja": …}
    entry: Any = None   # the card-set entry (data/card_sets/model.py Entry): its text and its view

    @property
    def value(self) -> str:
        return f"{self.game}:{self.id}"[:100]

    def shown(self, locale: str) -> str:
        return str(self.name.get(locale) or self.name.get("en") or self.id)

    def other(self, locale: str) -> str:
        """Its name in the other language, when that differs."""
        other = next((str(self.name.get(k) or "") for k in i18n.LOCALES if k != locale), "")
        return other if other and fold(other) != fold(self.shown(locale)) else ""

    def keys(self) -> tuple[str, ...]:
        return tuple(k for k in (fold(v) for v in (*self.name.values(), self.id)) if k)

    def words(self) -> tuple[str, ...]:
        """The folded words of its names (a name's second word may be what the player types)."""
        out = []
        for name in self.name.values():
            parts = [fold(w) for w in re.split(r"[\s\u30fb\u00b7\u3000]+", unicodedata.normalize("NFKC", str(name)))]
            out += [p for p in parts[1:] if p]
        return tuple(out)


def index(entries_by_game: dict[str, Iterable[Any]]) -> list[CardRef]:
    """The cards (never the ready-made decks) of each game's shipped entries, in the games'
    order."""
    out = []
    for game in games.GAMES:
        for e in entries_by_game.get(game) or []:
            if getattr(e, "deck", False):
                continue
            out.append(CardRef(game, str(e.id), dict(e.name or {}), e))
    return out


def rank(card: CardRef, needle: str) -> int | None:
    """How well ``card`` answers the folded ``needle``: 0 a whole name (or id), 1 a name that
    starts so, 2 a word of a name that does, 3 a name that holds it; None: not at all."""
    if not needle:
        return 3
    keys = card.keys()
    if needle in keys:
        return 0
    if any(k.startswith(needle) for k in keys):
        return 1
    if any(w.startswith(needle) for w in card.words()):
        return 2
    if any(needle in k for k in keys):
        return 3
    return None


def matching(cards: list[CardRef], typed: str) -> list[CardRef]:
    """The cards ``typed`` names, best first (then in the games' order)."""
    needle = fold(typed)
    scored = [(r, i, c) for i, c in enumerate(cards) if (r := rank(c, needle)) is not None]
    return [c for _, _, c in sorted(scored, key=lambda t: (t[0], t[1]))]


def label(card: CardRef, locale: str) -> str:
    """A suggestion: "Blitz Vector (ブリッツ・ベクター) — Battle Logic Square" (≤ 100 characters)."""
    other = card.other(locale)
    return clip(tr("user_app.card.choice" if other else "user_app.card.choice_one", locale,
                   name=card.shown(locale), other=other, game=game_name(card.game, locale)), 100)


def choices(cards: list[CardRef], typed: str, locale: str) -> list[Choice[str]]:
    return [Choice(name=label(c, locale), value=c.value) for c in matching(cards, typed)[:CHOICE_MAX]]


def resolve(cards: list[CardRef], typed: str) -> CardRef | None:
    """The card of a picked suggestion (``<game>:<id>``), or of a typed name: a whole name, or
    the one card that matches at all."""
    typed = str(typed or "").strip()
    m = VALUE.fullmatch(typed)
    if m:
        found = next((c for c in cards if c.game == m["game"] and c.id == m["id"]), None)
        if found is not None:
            return found
    found = matching(cards, typed)
    if not found or not fold(typed):
        return None
    if rank(found[0], fold(typed)) == 0 or len(found) == 1:
        return found[0]
    return None


def card_png(card: CardRef, locale: str) -> bytes:
    """The card alone, drawn as the card pages draw it, under its name and its game."""
    from render import hand_sheet
    from render.base import INK, MUTED, encode_png, make_ctx
    from render.card_pages import _card as sheet_card
    from render.textfit import draw_fit, min_px

    ctx = make_ctx(card.game, locale, None, None, None)
    section = hand_sheet.Section(ctx.game_title(), [sheet_card(card.game, card.entry, ctx)])
    least = max(12, min_px(hand_sheet.W))

    def header(d: Any) -> int:
        draw_fit(d, (hand_sheet.M, 22), card.shown(ctx.locale), 22, least, hand_sheet.W - 2 * hand_sheet.M, INK,
                 bold=True, anchor="lm")
        draw_fit(d, (hand_sheet.M, 48), card.other(ctx.locale) or card.id, 14, least,
                 hand_sheet.W - 2 * hand_sheet.M, MUTED, anchor="lm")
        return 64
    return encode_png(hand_sheet.draw_sheet(ctx, 0, [section], header=header))


def card_layout(card: CardRef, locale: str, picture: bool = True) -> discord.ui.LayoutView:
    """The card as one layout: its name, its picture (``PICTURE``, when drawn), its whole rules
    text, its game and its other name, where to find a server's own cards in small print."""
    rules = card.entry.rules if card.entry is not None else {}
    text = str((rules or {}).get(locale) or (rules or {}).get("en") or "")
    facts = [tr("layouts.field", locale, label=tr("user_app.card.game", locale), value=game_name(card.game, locale))]
    if card.other(locale):
        facts.append(tr("layouts.field", locale, label=tr("user_app.card.other_name", locale),
                        value=safe_text(card.other(locale))))
    name = safe_text(card.shown(locale))
    return layout(accent=ACCENT, title=name, pictures=[(PICTURE, clip(card.shown(locale), ALT_MAX))] if picture else [],
                  blocks=[safe_text(text, lines=True), "\n".join(facts)], footer=tr("user_app.card.footer", locale))


class CardLookup(commands.Cog):
    """/card: one shipped card, anywhere."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._cards: list[CardRef] | None = None

    async def cards(self) -> list[CardRef]:
        """Every shipped card (read once: the shipped cards change only with the bot)."""
        if self._cards is None:
            sets = self.bot.host.card_sets  # type: ignore[attr-defined]
            self._cards = index({g: await sets.shipped_entries(g) for g in games.GAMES})
        return self._cards

    async def autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        try:
            return choices(await self.cards(), current, user_locale(interaction))
        except Exception:
            log.exception("card autocomplete failed")
            return []

    @app_commands.command(name=N("card", "cmd.card.name"), description=L("cmd.card.description"))
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.rename(name=N("name", "cmd.card.card_name.name"), public=N("public", "cmd.guide.public.name"))
    @app_commands.describe(name=L("cmd.card.card_name.description"), public=L("cmd.guide.public.description"))
    async def card(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100],
                   public: bool = False) -> None:
        locale = user_locale(interaction)
        found = resolve(await self.cards(), name)
        if found is None:
            await reply_error(interaction, tr("user_app.card.none", locale, name=safe_text(name, 60)))
            return
        await interaction.response.defer(ephemeral=not public, thinking=True)
        try:
            png: Optional[bytes] = await asyncio.to_thread(card_png, found, locale)
        except Exception:       # a picture must never cost the card's words
            log.exception("drawing card %s of %s failed", found.id, found.game)
            png = None
        file = discord.File(io.BytesIO(png), filename=PICTURE) if png is not None else None
        await reply(interaction, view=card_layout(found, locale, picture=png is not None), file=file,
                    ephemeral=not public)

    @card.autocomplete("name")
    async def _name_autocomplete(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await self.autocomplete(interaction, current)


__all__ = ["CardLookup", "CardRef", "card_layout", "card_png", "choices", "fold", "index", "matching", "resolve"]
