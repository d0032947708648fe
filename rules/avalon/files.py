"""Avalon's Sanctuary's card files: every ``*.json`` in ``data/cards/avalon/`` (sorted by name).

A file holds ``{"cards": [card, ...]}`` and/or ``{"decks": {deck_id: {"name": {en, ja},
"spec": {"avatar": id, "cards": {id: copies}}}}}`` and/or ``{"editions": {...}}`` (the card and
deck changes of later rules editions, ``rules/avalon/editions.py``).  The files are checked by
``rules.avalon.cards.validate_sources`` (cards, ready-made decks and edition patches); errors
name the file, the card (or deck) and the field.

>>> data = load_avalon()
>>> sum(c["category"] == "creature" for c in data["cards"].values()) >= 30
True
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rules.avalon.cards import CardDataError, validate_sources
from rules.card_files import read_json, shipped

AVALON_DIR = shipped("avalon")


def read_sources(folder: Path) -> list[tuple[str, object]]:
    """``[(label, parsed JSON), …]`` of the folder's card files, in file-name order."""
    sources = []
    for path in sorted(Path(folder).glob("*.json")):
        label = f"data/cards/avalon/{path.name}"
        sources.append((label, read_json(path, label, CardDataError)))
    return sources


def load_avalon_from(folder: Path) -> dict:
    """``{"cards", "decks", "editions"}`` of a folder's files; CardDataError at the first problem."""
    loaded = validate_sources(read_sources(folder))
    assert loaded is not None          # raising mode: a problem raised
    return loaded


@lru_cache(maxsize=1)
def load_avalon() -> dict:
    return load_avalon_from(AVALON_DIR)
