"""Art of War (ART OF WAR - The DOUJIN Card Game): engine, card schema and deck rules.

- :mod:`rules.art_of_war.cards` — card schema, validation, deck rules and codes, ``game.decks``
- :mod:`rules.art_of_war.engine` — :class:`ArtOfWarGame`, the contract surface and the views (it
  re-exports the names of the two modules below)
- :mod:`rules.art_of_war.board` — squares, ranges, card tables, rules editions, :class:`AowState`
- :mod:`rules.art_of_war.mechanics` — legal commands, executing commands, damage, victory, turns
- :mod:`rules.art_of_war.messages` — English text of every message key

Nothing here reads files: ``data.cards.art_of_war_loader.load_art_of_war()`` reads the card files
and returns a validated ``CardSet``; :func:`make_game` builds the registered game from it.
"""
from rules.art_of_war.cards import CardDataError, CardSet, Decks, build_cardset
from rules.art_of_war.engine import ArtOfWarGame, AowState, SQUARES, reach
from rules.art_of_war.messages import EN


def make_game() -> ArtOfWarGame:
    """The registered game, with the packaged card set."""
    from data.cards.art_of_war_loader import load_art_of_war

    return ArtOfWarGame(load_art_of_war())


__all__ = ["ArtOfWarGame", "AowState", "CardSet", "CardDataError", "Decks", "build_cardset",
           "make_game", "EN", "SQUARES", "reach"]
