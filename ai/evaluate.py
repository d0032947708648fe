"""How good a position looks for each seat, from the PUBLIC view only: a score in [0, 1] per
seat (shares of a per-game strength, so they sum to 1).  Used to score playouts that stop before
the end and to rank moves at level ``normal``.  A game without an evaluation scores every seat
the same (only finished matches then tell the search anything)."""
from __future__ import annotations

from typing import Callable

_EVAL: dict[str, Callable[[dict, int], list[float]]] = {}


def evaluation(game: str):
    def deco(fn):
        _EVAL[game] = fn
        return fn
    return deco


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


@evaluation("squares")
def _squares(view: dict, seats: int) -> list[float]:
    """Three pieces in the centre row win: pieces there count most, then pieces on the board
    (a piece in the reserve does nothing) and how far they stand forward."""
    out = [1.0, 1.0]
    for p in view["pieces"]:
        rank = int(p["square"][1])
        ahead = rank - 1 if p["owner"] == 0 else 5 - rank          # 0 on one's own first row
        out[p["owner"]] += 1.0 + 0.5 * min(ahead, 2)
    for seat in (0, 1):
        out[seat] += 4.0 * view["centre"][seat] ** 2
    return out


@evaluation("logic_square")
def _logic_square(view: dict, seats: int) -> list[float]:
    """Life decides (a knockout wins, the higher life wins when the decks run out); cards in
    hand are options."""
    return [max(1, p["life"]) + 15 * p["hand_count"] for p in sorted(view["players"], key=lambda p: p["seat"])]


@evaluation("maken")
def _maken(view: dict, seats: int) -> list[float]:
    """LP cards left, less the damage taken towards the next DOWN, plus hand and gauge."""
    out = []
    for p in sorted(view["players"], key=lambda p: p["seat"]):
        out.append(1 + 10 * p["lp_count"] - p["damage_count"] + 0.5 * p["hand_count"] + 0.3 * p["gauge_count"])
    return out


@evaluation("art_of_war")
def _art_of_war(view: dict, seats: int) -> list[float]:
    """The kingdom decides the end of war; units on the battlefield hold it; a damaged KING is
    in danger (its capture or destruction loses at once)."""
    out = [1.0, 1.0]
    for p in view["players"]:
        out[p["seat"]] += 2.0 * p["kingdom_count"] + 0.3 * p["hand_count"]
    for u in view["field"]:
        out[u["owner"]] += 1.0 - (1.5 * u["damage"] if u["card"] == "k" else 0.2 * u["damage"])
    return out


@evaluation("avalon")
def _avalon(view: dict, seats: int) -> list[float]:
    """Proofs win, life keeps a player in; mana towards the target makes a leader."""
    out = []
    for p in sorted(view["players"], key=lambda p: p["seat"]):
        if p["status"] == "out":
            out.append(0.0)
            continue
        reach = min(1.0, p["mana_total"] / max(1, p["target"]))
        out.append(1 + 6 * len(p["proofs"]) + 2 * p["life"] + 2 * reach + (1.5 if p["leader"] else 0))
    return out
