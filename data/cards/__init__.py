"""Card data loaders.  Card sets are JSON files under ``data/cards/<game>/`` (format:
``docs/cards.md``), read here and validated by the game's schema in ``rules/``; errors name the
file, the card and the field.

Battle Logic Square: every ``*.json`` in ``data/cards/logic_square/`` (sorted by name), then every
``*.json`` in the folder named by the environment variable ``LOGIC_SQUARE_CARDS_DIR`` (if set) —
a server admin adds cards and decks there without touching code.

>>> cs = load_logic_square()
>>> len(cs.ids("AVI")) >= 3 and len(cs.ids("IT")) >= 8
True
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.logic_square.cards import CardSet

LOGIC_SQUARE_DIR = Path(__file__).resolve().parent / "logic_square"
LOGIC_SQUARE_ENV = "LOGIC_SQUARE_CARDS_DIR"


def _read(path: Path, label: str) -> Any:
    from rules.logic_square.cards import CardDataError

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CardDataError(label, None, None, f"cannot read the file: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardDataError(label, None, None,
                            f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None


def logic_square_files(extra_dir: str | os.PathLike | None = None) -> list[Path]:
    """The card files that make up the set: packaged ones, then those of ``extra_dir``."""
    from rules.logic_square.cards import CardDataError

    files = sorted(LOGIC_SQUARE_DIR.glob("*.json"))
    if extra_dir:
        folder = Path(extra_dir)
        if not folder.is_dir():
            raise CardDataError(str(folder), None, None,
                                f"{LOGIC_SQUARE_ENV} names a folder that does not exist")
        files += sorted(folder.glob("*.json"))
    return files


def read_logic_square(paths: list[str | os.PathLike]) -> "CardSet":
    """Validate exactly these files into one CardSet (no cache)."""
    from rules.logic_square.cards import CardSet

    sources = []
    for p in paths:
        path = Path(p)
        label = path.name if path.parent == LOGIC_SQUARE_DIR else str(path)
        sources.append((label, _read(path, label)))
    return CardSet.from_sources(sources)


@lru_cache(maxsize=8)
def _cached(extra: str | None, stamp: tuple) -> "CardSet":
    return read_logic_square(logic_square_files(extra))


def load_logic_square(extra_dir: str | os.PathLike | None = None, *, env: bool = True) -> "CardSet":
    """The Battle Logic Square card set (cached while the files are unchanged).

    ``extra_dir`` adds a folder of card files; without it the folder named by
    ``LOGIC_SQUARE_CARDS_DIR`` is used (``env=False`` ignores the variable).  Raises
    :class:`CardDataError` naming the file, the card and the field of the first problem.
    """
    extra = str(extra_dir) if extra_dir else (os.environ.get(LOGIC_SQUARE_ENV) or None if env else None)
    files = logic_square_files(extra)
    stamp = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files)
    return _cached(extra, stamp)


def logic_square_game():
    """The registered game: ``LogicSquareGame(load_logic_square())``."""
    from rules.logic_square.engine import LogicSquareGame

    return LogicSquareGame(load_logic_square())


# Imported last: ``rules`` registers its games on import and calls logic_square_game() above,
# so this module must be complete before ``rules`` is first imported from here.
from rules.logic_square.cards import CardDataError  # noqa: E402

__all__ = ["load_logic_square", "read_logic_square", "logic_square_files", "logic_square_game",
           "LOGIC_SQUARE_DIR", "LOGIC_SQUARE_ENV", "CardDataError"]
