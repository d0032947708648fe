"""How a SQUARES position looks for each seat, from the public view (see :mod:`ai.evaluate`)."""
from __future__ import annotations


def strength(view: dict, seats: int) -> list[float]:
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
