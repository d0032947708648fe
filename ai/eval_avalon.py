"""How a Avalon's Sanctuary position looks for each seat, from the public view (see :mod:`ai.evaluate`)."""
from __future__ import annotations

from ai.evaluate import evaluation


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
