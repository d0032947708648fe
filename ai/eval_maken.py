"""How a Project Maken position looks for each seat, from the public view (see :mod:`ai.evaluate`)."""
from __future__ import annotations


def strength(view: dict, seats: int) -> list[float]:
    """LP cards left, less the damage taken towards the next DOWN, plus hand and gauge."""
    out = []
    for p in sorted(view["players"], key=lambda p: p["seat"]):
        out.append(1 + 10 * p["lp_count"] - p["damage_count"] + 0.5 * p["hand_count"] + 0.3 * p["gauge_count"])
    return out
