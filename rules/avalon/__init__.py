"""Avalon's Sanctuary (アヴァロンの聖域), 2–4 players with late join.  See ``docs/rules/avalon.md``.

``make_game()`` builds the engine from the card set loaded by :mod:`rules.avalon.files` (the
only place that reads files); the engine itself does no I/O and copies the card definitions
into every match state.
"""
from __future__ import annotations

from rules.avalon.engine import AvalonGame, State
from rules.avalon.files import load_avalon


def make_game(cards: dict | None = None, ready: dict | None = None,
              editions: dict | None = None) -> AvalonGame:
    """``editions``: the card and deck patches of later rules editions (default: the files' when
    the cards come from the files, none for cards passed in)."""
    if cards is None or ready is None:
        loaded = load_avalon()
        if cards is None and editions is None:
            editions = loaded["editions"]
        cards = loaded["cards"] if cards is None else cards
        ready = loaded["decks"] if ready is None else ready
    return AvalonGame(cards, ready, editions)


__all__ = ["AvalonGame", "State", "make_game"]
