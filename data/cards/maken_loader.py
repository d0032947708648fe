"""Project Maken card loader: every ``*.json`` in ``data/cards/maken/`` (sorted by name), validated
by :class:`rules.maken.cards.CardSet` (errors name the file, the card and the field).

>>> cs = load_maken()
>>> len(cs.characters) >= 2 and len(cs.decks) >= 2
True
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from rules.maken.cards import CardDataError, CardSet

MAKEN_DIR = Path(__file__).resolve().parent / "maken"


def read_maken(paths: list) -> CardSet:
    """Validate exactly these files into one CardSet (no cache)."""
    sources = []
    for p in paths:
        path = Path(p)
        label = path.name if path.parent == MAKEN_DIR else str(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CardDataError(label, None, None, f"cannot read the file: {exc}") from None
        except json.JSONDecodeError as exc:
            raise CardDataError(label, None, None,
                                f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
        sources.append((label, data))
    return CardSet.from_sources(sources)


@lru_cache(maxsize=4)
def _cached(stamp: tuple) -> CardSet:
    return read_maken([Path(p) for p, _, _ in stamp])


def load_maken() -> CardSet:
    """The packaged Project Maken card set (cached while the files are unchanged)."""
    files = sorted(MAKEN_DIR.glob("*.json"))
    return _cached(tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files))


__all__ = ["load_maken", "read_maken", "MAKEN_DIR", "CardDataError"]
