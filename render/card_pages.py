"""A page of a card set, drawn as the hands are (``/cards show``): each card with its name, its
numbers and its whole rules text (generated from its data), the set's own wording beside it,
a mark on texts given in one language only, and a chip on the shipped cards an ``extend`` set
keeps.  Decks are listed with their cards in words.

Each card game draws one card as its hand picture does: ``sheet_card(definition, ctx)`` in its
render module (:data:`DRAWERS`), from the card as a match's views show it (``Entry.view``).

>>> from data.card_sets import games
>>> ad = games.adapter("art_of_war")
>>> cs, _ = ad.validate(ad.base_files("extend", None))
>>> entries = ad.entries(cs, set())
>>> png = page_png("art_of_war", entries[:4], title="Shipped", page=1, pages=3, locale="ja")
>>> png[:4] == b"\\x89PNG"
True
"""
from __future__ import annotations

import importlib
from typing import Any

from PIL import ImageDraw

from data import i18n
from render import hand_sheet
from render.base import INK, MUTED, encode_png, make_ctx

PER_PAGE = 6
DRAWERS = {"logic_square": "render.logic_square_hand", "maken": "render.maken",
           "art_of_war": "render.art_of_war", "avalon": "render.avalon"}
WORDING = (96, 84, 60)
DECK_BAND = (70, 86, 110)


def _loc(value: Any, locale: str) -> str:
    if isinstance(value, dict):
        return str(value.get(locale) or value.get("en") or "")
    return str(value or "")


def _card(game: str, entry: Any, ctx: Any) -> hand_sheet.Card:
    if entry.deck or entry.view is None:
        card = hand_sheet.Card(_loc(entry.name, ctx.locale), band=DECK_BAND,
                               chip=ctx.t("cardset.page.deck"), body=[(_loc(entry.rules, ctx.locale), INK, False)])
    else:
        module = importlib.import_module(DRAWERS[game])
        card = module.sheet_card(entry.view, ctx)
    badges = list(card.badges)
    if not entry.own:
        badges.append(ctx.t("cardset.page.shipped"))
    if any(u.endswith(":" + ctx.locale) for u in entry.untranslated):
        badges.append(ctx.t("cardset.page.untranslated"))
    card.badges = tuple(badges)
    words = _loc(entry.wording, ctx.locale) if entry.wording else ""
    if words and words != _loc(entry.rules, ctx.locale):
        card.body = list(card.body) + [(ctx.t("cardset.page.wording", text=words), WORDING, False)]
    return card


def page_image(game: str, entries: list, *, title: str, page: int, pages: int, locale: Any = "en",
               note: str = "") -> Any:
    """The picture of one page (``entries``: at most :data:`PER_PAGE` of the set's entries)."""
    ctx = make_ctx(game, i18n.locale_of(locale), None, None, None)
    cards = [_card(game, e, ctx) for e in entries]
    heading = ctx.t("cardset.page.heading", page=page, pages=pages)
    section = hand_sheet.Section(heading, cards, empty=ctx.t("cardset.page.empty"))

    return hand_sheet.draw_sheet(ctx, 0, [section], header=sheet_header(title, note, ctx))


def sheet_header(title: str, note: str, ctx: Any) -> Any:
    """The top of a page of cards (a set's page, a draft's pack or pool): the title, then the
    game and ``note``; a function drawing it that returns the y below it."""
    def header(d: ImageDraw.ImageDraw) -> int:
        from render.textfit import draw_fit, min_px

        least = max(12, min_px(hand_sheet.W))
        draw_fit(d, (hand_sheet.M, 22), title, 22, least, hand_sheet.W - 2 * hand_sheet.M, INK, bold=True,
                 anchor="lm")
        sub = ctx.game_title() + (f" · {note}" if note else "")
        draw_fit(d, (hand_sheet.M, 48), sub, 14, least, hand_sheet.W - 2 * hand_sheet.M, MUTED, anchor="lm")
        return 64
    return header


def page_png(game: str, entries: list, **kw: Any) -> bytes:
    return encode_png(page_image(game, entries, **kw))


__all__ = ["page_png", "page_image", "sheet_header", "PER_PAGE", "DRAWERS"]
