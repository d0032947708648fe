"""A draft pack and a limited pool, drawn as the hands are (render/hand_sheet.py): each card with a
number, its name, its numbers and its whole rules text, so a player on a phone picks by reading
the picture and then tapping the same name (with the same number) in the pick select.

* :func:`pack_image` — the pack in front of a drafter: a heading (round, pick, cards left, the
  time to pick) and one card a slot, numbered 1… in the order the select lists them and read
  in that order: down the first column, then down the second.
* :func:`pool_image` — what a player has drafted or opened: each card once with its copies
  (``×2``), grouped by the kind the set gives it, for deck building.

Cards come as :class:`data.card_sets.model.Entry` (the set's entries: ``Entry.view`` is the card as
a match's views show it) and are drawn by the game's own ``sheet_card`` (as ``/cards show``
draws them).  A card the set does not know (a stale pack after a new version) is drawn by name
alone rather than failing.

>>> from data.card_sets import games
>>> ad = games.adapter("maken")
>>> cs, _ = ad.validate(ad.base_files("extend", None))
>>> entries = {e.id: e for e in ad.entries(cs, set())}
>>> ids = [i for i, e in entries.items() if e.view is not None and not e.deck][:5]
>>> pack_png("maken", ids, entries, title="Draft #3", note="Round 1 · pick 1")[:4] == b"\\x89PNG"
True
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from data import i18n
from render import hand_sheet
from render.base import encode_png, make_ctx
from render.card_pages import _card, _loc, sheet_header

NUMBER_BAND = (52, 92, 140)
UNKNOWN_BAND = (120, 120, 126)


def _one(game: str, card_id: str, entries: Mapping[str, Any], ctx: Any, mark: str) -> hand_sheet.Card:
    entry = entries.get(card_id)
    if entry is None:
        card = hand_sheet.Card(card_id, band=UNKNOWN_BAND)
    else:
        card = _card(game, entry, ctx)
        card.badges = tuple(b for b in card.badges if b != ctx.t("cardset.page.shipped"))
    card.title = f"{mark} {card.title}"
    return card


def pack_image(game: str, pack: Sequence[str], entries: Mapping[str, Any], *, title: str, note: str = "",
               locale: Any = "en") -> Any:
    """The pack ``pack`` (card ids, in the order the pick select lists them) as one picture:
    each card numbered from 1."""
    ctx = make_ctx(game, i18n.locale_of(locale), None, None, None)
    cards = [_one(game, cid, entries, ctx, f"{i}.") for i, cid in enumerate(pack, start=1)]
    section = hand_sheet.Section(ctx.t("draft.pic.pack", n=len(cards)), cards,
                                 empty=ctx.t("draft.pic.empty"), in_order=True)
    return hand_sheet.draw_sheet(ctx, 0, [section], header=sheet_header(title, note, ctx))


def pool_image(game: str, pool: Sequence[str], entries: Mapping[str, Any], *, title: str, note: str = "",
               locale: Any = "en") -> Any:
    """A pool: each card once, with its copies, grouped by kind (the set's entries' ``kind``),
    kinds in the order their first card was taken."""
    ctx = make_ctx(game, i18n.locale_of(locale), None, None, None)
    copies = Counter(pool)
    kinds: dict[str, list[str]] = {}
    for cid in dict.fromkeys(pool):
        entry = entries.get(cid)
        kinds.setdefault(entry.kind if entry is not None else "", []).append(cid)
    sections = []
    for kind, ids in kinds.items():
        cards = [_one(game, cid, entries, ctx, f"×{copies[cid]}") for cid in ids]
        heading = ctx.t("draft.pic.kind", kind=kind or "?", n=sum(copies[c] for c in ids))
        sections.append(hand_sheet.Section(heading, cards, in_order=True))
    if not sections:
        sections = [hand_sheet.Section(ctx.t("draft.pic.pool", n=0), [], empty=ctx.t("draft.pic.empty"))]
    return hand_sheet.draw_sheet(ctx, 0, sections, header=sheet_header(title, note, ctx))


def pack_png(game: str, pack: Sequence[str], entries: Mapping[str, Any], **kw: Any) -> bytes:
    return encode_png(pack_image(game, pack, entries, **kw))


def pool_png(game: str, pool: Sequence[str], entries: Mapping[str, Any], **kw: Any) -> bytes:
    return encode_png(pool_image(game, pool, entries, **kw))


def card_name(entries: Mapping[str, Any], card_id: str, locale: str) -> str:
    """A card's name as players know it (its id only when the set no longer has it)."""
    entry = entries.get(card_id)
    return _loc(entry.name, locale) if entry is not None else card_id


__all__ = ["pack_image", "pack_png", "pool_image", "pool_png", "card_name"]
