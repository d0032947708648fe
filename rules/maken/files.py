"""Project Maken's card files: every ``*.json`` in ``data/cards/maken/`` (sorted by name),
validated by :class:`rules.maken.cards.CardSet` (errors name the file, the card and the field).

>>> cs = load_maken()
>>> len(cs.characters) >= 2 and len(cs.decks) >= 2
True
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rules.card_files import read_files, shipped, stamp
from rules.maken.cards import CardDataError, CardSet

MAKEN_DIR = shipped("maken")


def read_maken(paths: list) -> CardSet:
    """Validate exactly these files into one CardSet (no cache)."""
    return CardSet.from_sources(read_files(paths, MAKEN_DIR, CardDataError))


@lru_cache(maxsize=4)
def _cached(key: tuple) -> CardSet:
    return read_maken([Path(p) for p, _, _ in key])


def load_maken() -> CardSet:
    """The packaged Project Maken card set (cached while the files are unchanged)."""
    return _cached(stamp(sorted(MAKEN_DIR.glob("*.json"))))


__all__ = ["load_maken", "read_maken", "MAKEN_DIR", "CardDataError"]
