"""Project Maken: the engine, the card schema and the deck rules.

- :mod:`rules.maken.cards` — the card schema, validation, :class:`CardSet`
- :mod:`rules.maken.decks` — deck rules, deck codes, the ``game.decks`` API
- :mod:`rules.maken.engine` — :class:`MakenGame`, the contract surface and the rules
- :mod:`rules.maken.messages` — the English text of every message key

Nothing here reads files: ``data.cards.maken_loader.load_maken()`` reads the card files and
returns a validated :class:`CardSet`; :func:`make_game` builds the registered game from it.
"""
from rules.maken.cards import CardDataError, CardSet
from rules.maken.engine import MakenGame, MakenState
from rules.maken.messages import EN


def make_game() -> MakenGame:
    """The registered game (``rules.DISCOVERED``): the engine with the packaged card set."""
    from data.cards.maken_loader import load_maken

    return MakenGame(load_maken())


__all__ = ["MakenGame", "MakenState", "CardSet", "CardDataError", "EN", "make_game"]
