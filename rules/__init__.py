"""Pure, deterministic rules engines behind one contract (see ``docs/engine.md``).

>>> from rules import registry
>>> "squares" in registry.names()
True
>>> game = registry.get("squares")
>>> state = game.new_match(players=2, seed=1, options={})
>>> game.outcome(state) is None
True

Nothing in this package imports discord, Pillow, the database, the network or any other part
of the project, and nothing here does I/O but reading the card games' shipped card files
(``rules/<game>/files.py`` through ``rules/card_files.py``, the only modules that read files).
"""
from __future__ import annotations

from rules import art_of_war, avalon, logic_square, maken
from rules.contract import Game, IllegalCommand, Ref, Registry, en_text, english
from rules.squares import SquaresGame

# The games register here, from above: each engine imports the contract (rules.contract), never
# this package, and each card game's ``make_game()`` reads its own shipped card files.
registry = Registry()
registry.register(SquaresGame())
for _game in (logic_square, maken, art_of_war, avalon):
    registry.register(_game.make_game())
del _game

__all__ = ["Game", "IllegalCommand", "Ref", "Registry", "en_text", "english", "registry"]
