"""Battle Logic Square's card files: every ``*.json`` in ``data/cards/logic_square/`` (sorted by
name), then every ``*.json`` in the folder named by the environment variable
``LOGIC_SQUARE_CARDS_DIR`` (if set) — a server admin adds cards and decks there without touching
code.  They are validated by the schema of :mod:`rules.logic_square.cards`; errors name the file,
the card and the field.

>>> cs = load_logic_square()
>>> len(cs.ids("AVI")) >= 3 and len(cs.ids("IT")) >= 8
True
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from rules.card_files import read_files, shipped, stamp
from rules.logic_square.cards import CardDataError, CardSet

LOGIC_SQUARE_DIR = shipped("logic_square")
LOGIC_SQUARE_ENV = "LOGIC_SQUARE_CARDS_DIR"


def logic_square_files(extra_dir: str | os.PathLike | None = None) -> list[Path]:
    """The card files that make up the set: packaged ones, then those of ``extra_dir``."""
    files = sorted(LOGIC_SQUARE_DIR.glob("*.json"))
    if extra_dir:
        folder = Path(extra_dir)
        if not folder.is_dir():
            raise CardDataError(str(folder), None, None,
                                f"{LOGIC_SQUARE_ENV} names a folder that does not exist")
        files += sorted(folder.glob("*.json"))
    return files


def read_logic_square(paths: list[str | os.PathLike]) -> CardSet:
    """Validate exactly these files into one CardSet (no cache)."""
    return CardSet.from_sources(read_files(paths, LOGIC_SQUARE_DIR, CardDataError))


@lru_cache(maxsize=8)
def _cached(extra: str | None, key: tuple) -> CardSet:
    return read_logic_square(logic_square_files(extra))


def load_logic_square(extra_dir: str | os.PathLike | None = None, *, env: bool = True) -> CardSet:
    """The Battle Logic Square card set (cached while the files are unchanged).

    ``extra_dir`` adds a folder of card files; without it the folder named by
    ``LOGIC_SQUARE_CARDS_DIR`` is used (``env=False`` ignores the variable).  Raises
    :class:`CardDataError` naming the file, the card and the field of the first problem.
    """
    extra = str(extra_dir) if extra_dir else (os.environ.get(LOGIC_SQUARE_ENV) or None if env else None)
    return _cached(extra, stamp(logic_square_files(extra)))


__all__ = ["load_logic_square", "read_logic_square", "logic_square_files", "LOGIC_SQUARE_DIR",
           "LOGIC_SQUARE_ENV", "CardDataError"]
