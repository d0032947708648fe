"""Which games take server card sets, and each one's :class:`data.card_sets.model.GameCards`.

>>> GAMES
('logic_square', 'maken', 'art_of_war', 'avalon')
>>> adapter("squares") is None      # SQUARES has no cards to change
True
"""
from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any

GAMES = ("logic_square", "maken", "art_of_war", "avalon")


@lru_cache(maxsize=None)
def adapter(game: str) -> Any:
    """The game's card-set adapter (``data/card_sets/<game>.py``, its ``ADAPTER``), or None."""
    if game not in GAMES:
        return None
    try:
        return importlib.import_module(f"data.card_sets.{game}").ADAPTER
    except ModuleNotFoundError as exc:          # a game whose adapter is not written (yet)
        if exc.name != f"data.card_sets.{game}":
            raise
        return None


__all__ = ["GAMES", "adapter"]
