"""Art of War's card files: ``data/cards/art_of_war/*.json`` (sorted by name), validated with
:func:`rules.art_of_war.cards.build_cardset`.

>>> cs = load_art_of_war()
>>> len(cs.kings) >= 3 and len(cs.decks) >= 3
True
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rules.art_of_war.cards import CardDataError, build_cardset
from rules.card_files import read_json, shipped

ART_OF_WAR_DIR = shipped("art_of_war")


def read_art_of_war(paths: list[Path]):
    """Validate exactly these files into one ``CardSet`` (no cache)."""
    return build_cardset([(path.name, read_json(path, path.name, CardDataError)) for path in paths])


@lru_cache(maxsize=1)
def load_art_of_war():
    """The packaged Art of War card set (cached)."""
    return read_art_of_war(sorted(ART_OF_WAR_DIR.glob("*.json")))
