"""The games' shipped card files: where they are and how one is read.

The JSON files ship as package data in ``data/cards/<game>/`` (format: ``docs/cards.md``); the
engines' own loaders (``rules/<game>/files.py``) read them by path, next to this package, and
validate them with the game's schema.  Nothing here imports ``data``, so ``rules`` builds its
registry by itself (``from rules import registry``).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from rules.card_errors import CardDataError

SHIPPED = Path(__file__).resolve().parent.parent / "data" / "cards"


def shipped(game: str) -> Path:
    """The folder of a game's shipped card files (``data/cards/<game>``)."""
    return SHIPPED / game


def read_json(path: Path, label: str, error: type[CardDataError] = CardDataError) -> Any:
    """The parsed JSON of one card file; ``error`` (the game's CardDataError) naming ``label``
    when the file cannot be read or is not JSON."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(label, None, None, f"cannot read the file: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(label, None, None,
                    f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None


def read_files(paths: Iterable, folder: Path, error: type[CardDataError] = CardDataError) -> list[tuple[str, Any]]:
    """``[(label, parsed JSON), …]`` of ``paths``, in order: a file of the game's shipped
    ``folder`` labelled by its name, any other by its path."""
    sources = []
    for p in paths:
        path = Path(p)
        label = path.name if path.parent == folder else str(path)
        sources.append((label, read_json(path, label, error)))
    return sources


def stamp(files: Iterable[Path]) -> tuple:
    """What changes when one of ``files`` changes: a cache key for a loaded set."""
    return tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files)
