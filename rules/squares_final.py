"""SQUARES: which commands are ``final`` and which ``reveal`` (docs/engine.md, docs/rules/squares.md).

SQUARES is a perfect-information game: every piece on the board shows its up side, every
reserve is known (each seat owns A1–A5 and B1–B5 once), and after ``new_match`` (which picks the
first player from the seed, publicly) nothing is random.  So no command ever *reveals*: a
battle's result follows from numbers and Support pieces everyone sees (6.(2)–(3)), a return is
the returner's own choice (5.(4)(b)②).

Whether a command is *final* is then mostly the shared :func:`rules.common.handed_over`:

* ``place``, ``move`` and ``pass`` always end the turn (2.(2) 「行動をしたら、相手の手番になります」):
  final;
* ``leap`` / ``swap`` end the turn, or (a swap) hand the returns to the opponent (5.(4)(b)③
  「相手側から…戻します」): final — except when only the acting player is left over a row
  limit: then the same player must now ``return`` pieces, and the leap or swap may be undone;
* ``return`` while the same player must still return more: not final; the last return of a
  player (the turn ends, or the acting player's returns begin) is final.

One clause is added to the shared ``or``: a command that ends the turn (the turn counter
advances: 2.(2) 「行動をしたら、相手の手番になります」, 7. 「相手の手番に移る際に」 the win is
checked) is final even when the same seat is asked next.  That happens when the *opponent* of the
acting player makes the last return of a turn after a swap (a leap never puts the opponent
over: it can only send their piece back): the turn ends, and the
returner, who was already asked, now starts their own turn, so ``handed_over`` sees no new seat.
An undo is only "within the same turn" (docs/engine.md), so that return is final.

This module does not import ``rules.squares`` (the engine imports it); the game object is passed in.
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING, Any

from rules.common import handed_over

if TYPE_CHECKING:  # pragma: no cover
    from rules.squares import SquaresState

# State fields every player sees and that a command may change without revealing anything.
# Any other field (the seed, the first player, the options, or a random stream a later version
# might add) changing under a command means randomness or hidden data was used: a reveal.
PUBLIC_FIELDS = frozenset({"board", "player", "turn", "phase", "returner", "history", "last",
                           "result"})


def reveals(state_before: SquaresState, seat: int, command: str, state_after: SquaresState) -> bool:
    """True when the command drew, shuffled, showed hidden information or used randomness.

    SQUARES has none of these (docs/rules/squares.md, "Undo: which moves are final"), so this
    is only the safety net: any change of a field outside :data:`PUBLIC_FIELDS`.  Conservative:
    a state that is not the expected dataclass counts as a reveal.
    """
    if not (is_dataclass(state_before) and is_dataclass(state_after)):
        return True
    if type(state_before) is not type(state_after):
        return True
    for f in fields(state_before):
        if f.name not in PUBLIC_FIELDS and getattr(state_before, f.name) != getattr(state_after, f.name):
            return True
    return False


def turn_passed(state_before: SquaresState, state_after: SquaresState) -> bool:
    """True when the command ended a turn (手番): the turn counter advanced."""
    return getattr(state_before, "turn", None) != getattr(state_after, "turn", None)


def final(game: Any, state_before: SquaresState, seat: int, command: str,
          state_after: SquaresState) -> bool:
    """``reveals(...) or handed_over(...)`` (docs/engine.md), or the turn ended
    (:func:`turn_passed`): True when the move cannot be taken back by its player alone."""
    return (reveals(state_before, seat, command, state_after)
            or handed_over(game, state_before, seat, state_after)
            or turn_passed(state_before, state_after))


__all__ = ["PUBLIC_FIELDS", "final", "reveals", "turn_passed"]
