"""How a Art of War position looks for each seat, from the public view (see :mod:`ai.evaluate`)."""
from __future__ import annotations

from ai.evaluate import evaluation


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
