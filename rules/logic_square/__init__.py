"""Battle Logic Square: the engine, the card schema and the deck rules.

- :mod:`rules.logic_square.cards` — the card schema, validation, :class:`CardSet`
- :mod:`rules.logic_square.decks` — :func:`validate_deck`, deck codes
- :mod:`rules.logic_square.match` — the state and the rule mechanics (turns, effects, chains)
- :mod:`rules.logic_square.engine` — :class:`LogicSquareGame`, the contract surface
- :mod:`rules.logic_square.files` — reads the shipped card files (and an operator's folder) into a
  validated :class:`CardSet`

Only :mod:`rules.logic_square.files` reads files; ``LogicSquareGame(cardset)`` is the game and
:func:`make_game` the registered one.
"""
from rules.logic_square.cards import (Ability, Action, Card, CardDataError, CardSet, Deck,
                                      parse_range)
from rules.logic_square.decks import (DeckCodeError, DeckProblem, decode_deck, encode_deck,
                                      normalise_deck, validate_deck)
from rules.logic_square.engine import LogicSquareGame
from rules.logic_square.files import load_logic_square
from rules.logic_square.match import LSState
from rules.logic_square.messages import EN


def make_game() -> LogicSquareGame:
    """The registered game (registered by ``rules``): ``LogicSquareGame(load_logic_square())``."""
    return LogicSquareGame(load_logic_square())


__all__ = ["make_game", "LogicSquareGame", "LSState", "CardSet", "Card", "Action", "Ability", "Deck",
           "CardDataError", "parse_range", "DeckProblem", "DeckCodeError", "validate_deck",
           "normalise_deck", "encode_deck", "decode_deck", "EN"]
