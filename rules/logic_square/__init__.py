"""Battle Logic Square: the engine, the card schema and the deck rules.

- :mod:`rules.logic_square.cards` — the card schema, validation, :class:`CardSet`
- :mod:`rules.logic_square.decks` — :func:`validate_deck`, deck codes
- :mod:`rules.logic_square.match` — the state and the rule mechanics (turns, effects, chains)
- :mod:`rules.logic_square.engine` — :class:`LogicSquareGame`, the contract surface

Nothing here reads files: ``data.cards.load_logic_square()`` reads the card files and returns a
validated :class:`CardSet`; ``LogicSquareGame(cardset)`` is the game.
"""
from rules.logic_square.cards import (Ability, Action, Card, CardDataError, CardSet, Deck,
                                      parse_range)
from rules.logic_square.decks import (DeckCodeError, DeckProblem, decode_deck, encode_deck,
                                      normalise_deck, validate_deck)
from rules.logic_square.engine import LogicSquareGame
from rules.logic_square.match import LSState
from rules.logic_square.messages import EN

__all__ = ["LogicSquareGame", "LSState", "CardSet", "Card", "Action", "Ability", "Deck",
           "CardDataError", "parse_range", "DeckProblem", "DeckCodeError", "validate_deck",
           "normalise_deck", "encode_deck", "decode_deck", "EN"]
