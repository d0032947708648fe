"""How a Battle Logic Square position looks for each seat, from the public view (see :mod:`ai.evaluate`)."""
from __future__ import annotations

from ai.evaluate import evaluation


@evaluation("logic_square")
def _logic_square(view: dict, seats: int) -> list[float]:
    """Life decides (a knockout wins, the higher life wins when the decks run out); cards in
    hand are options."""
    return [max(1, p["life"]) + 15 * p["hand_count"] for p in sorted(view["players"], key=lambda p: p["seat"])]
