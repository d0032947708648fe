"""Avalon's Sanctuary rules editions as content: the card numbers and ready-made deck lists each
edition plays with.

The card files hold the cards as first printed (editions 1 and 2 play them unchanged); a later
edition's balance changes are patches in ``data/cards/avalon/06_editions.json``:

    {"editions": {"3": {"cards": {"c14": {"atk": 5}},
                        "decks": {"dawn": {"cards": {"c01": 4, ...}}}}}}

A card patch sets numbers of a card (``atk``, ``dur``, ``mana``, ``target_minus``,
``keywords``, ability effects... — the fields of ``rules/avalon/cards.py``; a value ``null``
removes a field); a deck patch replaces the deck's ``cards`` and/or ``avatar``.  Edition N
applies every patch numbered up to N, oldest first.  A match copies its edition's cards into its
state and replays under its own edition (``meta["edition"]``), so a stored match never changes.
Reasons and figures: ``docs/rules/avalon.md``, "Balance (rules edition 3)", "(rules edition 4)"
and "(rules edition 5)".
"""
from __future__ import annotations

import copy
from typing import Any

from rules.avalon.card_schema import CardDataError, keyed, validate_card
from rules.avalon.decks import problems
from rules.editions import PerEdition, add_patch, edition_number, number_error, upto

FILE = "data/cards/avalon/06_editions.json"
FIRST_PATCHED = 3            # editions 1 and 2 changed rulings only, never the cards


def check(patches: Any, cards: dict, label: str = FILE) -> dict[int, dict]:
    """The ``editions`` object of a card file as ``{edition: {"cards": …, "decks": …}}``;
    CardDataError naming the edition and the card for a bad patch."""
    if not isinstance(patches, dict):
        raise CardDataError(label, None, "editions", 'must be {"<edition>": {"cards": {...}, "decks": {...}}}',
                            key="not_object")
    out: dict[int, dict] = {}
    for key, patch in patches.items():
        where = f"editions.{key}"
        ed = edition_number(key, FIRST_PATCHED)
        if ed is None:
            raise CardDataError(label, None, where, number_error(FIRST_PATCHED), key="av_edition_number",
                                first=FIRST_PATCHED)
        if not isinstance(patch, dict) or set(patch) - {"cards", "decks", "comment"}:
            raise CardDataError(label, None, where, "an edition patch has cards, decks (and a comment)",
                                key="unknown_key", allowed=["cards", "decks", "comment"])
        for cid, fields in (patch.get("cards") or {}).items():
            if cid not in cards or not isinstance(fields, dict) or {"id", "category"} & set(fields):
                raise CardDataError(label, cid, where, "patches a known card's fields (not id or category)",
                                    key="av_patch_card")
        for did, deck in (patch.get("decks") or {}).items():
            if not isinstance(deck, dict) or set(deck) - {"cards", "avatar"}:
                raise CardDataError(label, f"deck {did!r}", where, "a deck patch sets cards and/or avatar",
                                    key="unknown_key", allowed=["cards", "avatar"])
        add_patch(out, ed, patch, lambda why, where=where, ed=ed: CardDataError(label, None, where, why,
                                                                                key="av_edition_twice", edition=ed))
    return dict(sorted(out.items()))


class Editions:
    """The cards and ready-made decks of every rules edition (cached)."""

    def __init__(self, cards: dict, ready: dict, patches: dict[int, dict] | None = None) -> None:
        self._cards, self._ready = cards, ready
        self._patches = patches or {}
        self.at = PerEdition(self._build_at)

    def _build_at(self, edition: int) -> tuple[dict, dict]:
        """``(cards, ready)`` as they stand in rules ``edition`` (``at``, kept per edition)."""
        def step(got: tuple[dict, dict], ed: int, patch: dict) -> tuple[dict, dict]:
            cards, ready = got
            if patch.get("cards"):
                cards = dict(cards)
                for cid, fields in patch["cards"].items():
                    card = copy.deepcopy(cards[cid])
                    for k, v in fields.items():
                        if v is None:
                            card.pop(k, None)
                        else:
                            card[k] = copy.deepcopy(v)
                    cards[cid] = validate_card(card, f"{FILE} (edition {ed})")
            if patch.get("decks"):
                ready = dict(ready)
                for did, change in patch["decks"].items():
                    if did not in ready:
                        raise CardDataError(FILE, f"deck {did!r}", f"editions.{ed}", "patches a known ready-made deck",
                                            key="av_patch_deck")
                    deck = copy.deepcopy(ready[did])
                    deck["spec"] = dict(deck["spec"], **{k: copy.deepcopy(v) for k, v in change.items()})
                    ready[did] = deck
            return cards, ready

        return upto((self._cards, self._ready), self._patches, edition, step)

    def check_decks(self, editions: tuple[int, ...]) -> None:
        """Every ready-made deck of every edition is legal with that edition's cards."""
        for ed in editions:
            cards, ready = self.at(ed)
            for did, deck in ready.items():
                probs = problems(cards, deck["spec"])
                if probs:
                    raise keyed(CardDataError(FILE, f"deck {did!r}", f"edition {ed}", "; ".join(p["text"] for p in probs)),
                                probs[0]["key"], probs[0]["params"])
