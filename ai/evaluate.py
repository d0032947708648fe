"""How good a position looks for each seat, from the PUBLIC view only: a score in [0, 1] per
seat (shares of a per-game strength, so they sum to 1).  Used to score playouts that stop before
the end and to rank moves at level ``normal``.  A game without an evaluation scores every seat
the same (only finished matches then tell the search anything)."""
from __future__ import annotations

from typing import Callable

from ai import eval_art_of_war, eval_avalon, eval_logic_square, eval_maken, eval_squares

# each game's evaluation lives in its own module (ai/eval_<game>.py): a strength per seat
_EVAL: dict[str, Callable[[dict, int], list[float]]] = {
    "squares": eval_squares.strength,
    "logic_square": eval_logic_square.strength,
    "maken": eval_maken.strength,
    "art_of_war": eval_art_of_war.strength,
    "avalon": eval_avalon.strength,
}


def evaluate(game: str, view: dict, seats: int) -> list[float]:
    fn = _EVAL.get(game)
    if fn is None:
        return [1.0 / seats] * seats
    try:
        strength = fn(view, seats)
    except (KeyError, TypeError, ValueError, IndexError):
        return [1.0 / seats] * seats
    strength = [max(0.0, float(x)) for x in strength] + [0.0] * (seats - len(strength))
    total = sum(strength[:seats])
    return [x / total for x in strength[:seats]] if total > 0 else [1.0 / seats] * seats

