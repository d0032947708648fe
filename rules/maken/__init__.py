"""Project Maken: the engine, the card schema and the deck rules.

- :mod:`rules.maken.cards` — the card schema, validation, :class:`CardSet`
- :mod:`rules.maken.decks` — deck rules, deck codes, the ``game.decks`` API
- :mod:`rules.maken.engine` — :class:`MakenGame`, the contract surface and the rules
- :mod:`rules.maken.messages` — the English text of every message key
- :mod:`rules.maken.files` — reads the shipped card files into a validated :class:`CardSet`

Only :mod:`rules.maken.files` reads files; :func:`make_game` builds the registered game from
the set it reads.
"""
from rules.maken.cards import CardDataError, CardSet
from rules.maken.engine import MakenGame, MakenState
from rules.maken.files import load_maken
from rules.maken.messages import EN


def make_game() -> MakenGame:
    """The registered game (registered by ``rules``): the engine with the packaged card set."""
    return MakenGame(load_maken())


__all__ = ["MakenGame", "MakenState", "CardSet", "CardDataError", "EN", "make_game"]
