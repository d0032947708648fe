"""Art of War (ART OF WAR - The DOUJIN Card Game): engine, card schema and deck rules.

- :mod:`rules.art_of_war.cards` — card schema, validation, deck rules and codes, ``game.decks``
- :mod:`rules.art_of_war.engine` — :class:`ArtOfWarGame`, the contract surface and the views (it
  re-exports the names of the two modules below)
- :mod:`rules.art_of_war.board` — squares, ranges, card tables, rules editions, :class:`AowState`
- :mod:`rules.art_of_war.mechanics` — legal commands, executing commands, damage, victory, turns
- :mod:`rules.art_of_war.messages` — English text of every message key
- :mod:`rules.art_of_war.files` — reads the shipped card files into a validated ``CardSet``

Only :mod:`rules.art_of_war.files` reads files; :func:`make_game` builds the registered game from
the set it reads.
"""
from rules.art_of_war.cards import CardDataError, CardSet, Decks, build_cardset
from rules.art_of_war.engine import ArtOfWarGame, AowState, SQUARES, reach
from rules.art_of_war.files import load_art_of_war
from rules.art_of_war.messages import EN


def make_game() -> ArtOfWarGame:
    """The registered game, with the packaged card set."""
    return ArtOfWarGame(load_art_of_war())


__all__ = ["ArtOfWarGame", "AowState", "CardSet", "CardDataError", "Decks", "build_cardset",
           "make_game", "EN", "SQUARES", "reach"]
