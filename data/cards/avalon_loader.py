"""Avalon's Sanctuary card loader: every ``*.json`` in ``data/cards/avalon/`` (sorted by name).

A file holds ``{"cards": [card, ...]}`` and/or ``{"decks": {deck_id: {"name": {en, ja},
"spec": {"avatar": id, "cards": {id: copies}}}}}`` and/or ``{"editions": {...}}`` (the card and
deck changes of later rules editions, ``rules/avalon/editions.py``).  Cards are validated by
``rules.avalon.cards.validate_card`` and ready-made decks by the deck rules; errors name the
file, the card (or deck) and the field.

>>> data = load_avalon()
>>> sum(c["category"] == "creature" for c in data["cards"].values()) >= 30
True
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from rules.avalon.cards import CardDataError, validate_card
from rules.avalon.decks import problems
from rules.avalon.editions import check

AVALON_DIR = Path(__file__).resolve().parent / "avalon"


def load_avalon_from(folder: Path) -> dict:
    cards: dict[str, dict] = {}
    decks: dict[str, dict] = {}
    patches: dict = {}
    for path in sorted(Path(folder).glob("*.json")):
        label = f"data/cards/avalon/{path.name}"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise CardDataError(label, None, None, f"cannot read the file: {exc}") from None
        if not isinstance(data, dict) or set(data) - {"cards", "decks", "editions", "comment"}:
            raise CardDataError(label, None, None, 'a card file is {"cards": [...]}, {"decks": {...}} '
                                'and/or {"editions": {...}}')
        if "editions" in data:
            patches[label] = data["editions"]
        for card in data.get("cards", []):
            validate_card(card, label)
            if card["id"] in cards:
                raise CardDataError(label, card["id"], "id", "this id is used twice")
            cards[card["id"]] = card
        for did, deck in data.get("decks", {}).items():
            decks[did] = (label, deck)
    ready = {}
    for did, (label, deck) in decks.items():
        if not isinstance(deck, dict) or "spec" not in deck or "name" not in deck:
            raise CardDataError(label, did, None, "a deck needs name and spec")
        probs = problems(cards, deck["spec"])
        if probs:
            raise CardDataError(label, did, "spec", "; ".join(p["text"] for p in probs))
        ready[did] = deck
    editions: dict = {}
    for label, found in patches.items():
        for ed, patch in check(found, cards, label).items():
            if ed in editions:
                raise CardDataError(label, None, f"editions.{ed}", "edition patched twice")
            editions[ed] = patch
    return {"cards": cards, "decks": ready, "editions": dict(sorted(editions.items()))}


@lru_cache(maxsize=1)
def load_avalon() -> dict:
    return load_avalon_from(AVALON_DIR)
