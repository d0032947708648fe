"""Art of War card loader: reads ``data/cards/art_of_war/*.json`` (sorted by name) and validates
them with :func:`rules.art_of_war.cards.build_cardset`.  All file I/O of the game lives here.

>>> cs = load_art_of_war()
>>> len(cs.kings) >= 3 and len(cs.decks) >= 3
True
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

ART_OF_WAR_DIR = Path(__file__).resolve().parent / "art_of_war"


def read_art_of_war(paths: list[Path]):
    """Validate exactly these files into one ``CardSet`` (no cache)."""
    from rules.art_of_war.cards import CardDataError, build_cardset   # lazy: rules imports us

    sources = []
    for path in paths:
        label = path.name
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CardDataError(label, None, None, f"cannot read the file: {exc}") from None
        except json.JSONDecodeError as exc:
            raise CardDataError(label, None, None,
                                f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
        sources.append((label, data))
    return build_cardset(sources)


@lru_cache(maxsize=1)
def load_art_of_war():
    """The packaged Art of War card set (cached)."""
    return read_art_of_war(sorted(ART_OF_WAR_DIR.glob("*.json")))
