"""Limited deck rules: the match option ``deck_rules`` and the check of its shape, shared by the
four card games.

The standing ruling of limited play: a sealed pool or a draft changes what a player may build
from, never how the game is played.  A card set may declare, for limited play only, the deck
size (within the game's own range where the rulebook gives one) and the copies allowed of a
card.  A match played with such decks says so in its options::

    {"decks": [...], "deck_rules": {"size": 15, "copies": 2}}

and every seat's deck is checked with those numbers (``game.decks.validate(spec, rules)``); every
other deck rule of the game stays.  Without ``deck_rules`` a match is constructed play, exactly
as before.

- ``size`` — the main deck's size, counted as the game counts its deck (Battle Logic Square:
  resource cards, the AVI and the IT deck apart; Project Maken: cards besides the character;
  Art of War: basic units besides the KING; Avalon's Sanctuary: cards, the avatar not counted),
  from half the rulebook's number (rounded up) to the rulebook's number
  (:func:`limited_range`; the same range ``data/card_sets/limited.py`` lets a set declare).
- ``copies`` — the most copies of one card, from 1 to ``size``; it replaces the game's per-card
  copy limit (totals across names, such as Battle Logic Square's blue and red totals or Avalon's
  Sanctuary's one ★5 card, stay).  Absent or None: the game's own per-card limits.  Art of War
  has none to declare (an army holds basic units in any mix).

:func:`read` checks the option and names its first problem as a *reason* (``shape``, ``size``,
``copies``, ``no_copies``) with its params; each game turns it into its own catalogued key
``<game>.deck.rules_<reason>`` (its ``check_rules``; pure: rules sits below the catalog), the
one problem ``game.decks.validate(spec, rules)`` reports for bad rules, and the engine's
``new_match`` refuses such options with ValueError.  Public text shows the option as one line
in words (``host.options_text.deck_rules_line``), never a deck.

>>> read({"size": 15, "copies": 2}, 30)
({'size': 15, 'copies': 2}, None)
>>> read({"size": 15}, 30)
({'size': 15, 'copies': None}, None)
>>> read({"size": 14}, 30)
(None, ('size', {'size': 14, 'low': 15, 'high': 30}))
>>> read({"size": 10, "copies": 1}, 20, copies=False)
(None, ('no_copies', {}))
"""
from __future__ import annotations

from typing import Any

OPTION = "deck_rules"          # the match option
FIELDS = ("size", "copies")
REASONS = ("shape", "size", "copies", "no_copies")


def limited_range(deck: int) -> tuple[int, int]:
    """The sizes a limited deck may have: half the rulebook's ``deck`` (rounded up) to ``deck``.

    >>> limited_range(30), limited_range(20), limited_range(40)
    ((15, 30), (10, 20), (20, 40))
    """
    return (deck + 1) // 2, deck


def _shown(value: Any) -> str:
    return repr(value)[:40]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read(rules: Any, deck: int, *, copies: bool = True) -> tuple[dict | None, tuple[str, dict] | None]:
    """``rules`` (the option's value) checked against a game whose rulebook deck holds ``deck``
    cards (``copies``: whether a copy limit may be declared): ``(rules as {"size", "copies"},
    None)`` or ``(None, (reason, params))`` naming the first problem."""
    if not isinstance(rules, dict) or set(rules) - set(FIELDS) or "size" not in rules:
        return None, ("shape", {"value": _shown(rules)})
    size, most = rules["size"], rules.get("copies")
    if not _whole(size) or not (most is None or _whole(most)):
        return None, ("shape", {"value": _shown(rules)})
    low, high = limited_range(deck)
    if not low <= size <= high:
        return None, ("size", {"size": size, "low": low, "high": high})
    if most is not None and not copies:
        return None, ("no_copies", {})
    if most is not None and not 1 <= most <= size:
        return None, ("copies", {"copies": most, "size": size})
    return {"size": size, "copies": most}, None


def from_options(options: dict, check: Any, game: str) -> dict | None:
    """A match's limited deck rules (option ``deck_rules``) checked by the game's ``check``
    (``rules -> (rules, problem)``, a problem with its English ``text`` or ``message``), or None
    for constructed play; ValueError naming the problem (``game``: the game's name, for it)."""
    if options.get(OPTION) is None:
        return None
    rules, problem = check(options[OPTION])
    if problem is not None:
        text = problem["text"] if isinstance(problem, dict) else getattr(problem, "message", str(problem))
        raise ValueError(f"{game} option '{OPTION}': {text}")
    return rules


__all__ = ["OPTION", "FIELDS", "REASONS", "limited_range", "read", "from_options"]
