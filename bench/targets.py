"""What the benchmark modes share about their targets: whether a figure meets its target, the
targets missed in words, and a figure's line of the printed table.  A mode keeps its own
``TARGETS`` (figure -> (``"<="`` or ``">="``, limit)) and ``LABELS`` (figure -> (label, unit)).

>>> T = {"x_ms": ("<=", 10.0)}
>>> met(T, "x_ms", 12.0), met(T, "y", 1.0)
(False, None)
>>> missed({"x_ms": 12.0}, T, {"x_ms": ("the x", "ms")})
['the x: 12 ms (target <= 10 ms)']
"""
from __future__ import annotations

from typing import Any


def met(targets: dict[str, tuple[str, float]], key: str, value: float) -> bool | None:
    """Whether ``value`` meets the figure's target (None: the figure has no target)."""
    if key not in targets:
        return None
    op, limit = targets[key]
    return value <= limit if op == "<=" else value >= limit


def missed(figures: dict[str, Any], targets: dict, labels: dict) -> list[str]:
    """The targets ``figures`` miss, in words (empty: every target holds)."""
    out = []
    for key, value in figures.items():
        if value is not None and met(targets, key, value) is False:
            label, unit = labels.get(key, (key, ""))
            op, limit = targets[key]
            out.append(f"{label}: {value:g} {unit} (target {op} {limit:g} {unit})")
    return out


def table_line(key: str, value: float | None, targets: dict, labels: dict, width: int = 44) -> str:
    """One figure as the table prints it: label, value, unit, target and verdict."""
    label, unit = labels.get(key, (key, ""))
    if key not in targets:
        mark = "(no target)"
    else:
        op, limit = targets[key]
        ok = None if value is None else met(targets, key, value)
        verdict = "n/a" if ok is None else "ok" if ok else "MISS"
        mark = f"({'≤' if op == '<=' else '≥'} {limit:g} {unit})  {verdict}"
    shown = "—" if value is None else f"{value:.4f}"
    return f"{label:<{width}} {shown:>9} {unit:<3} {mark}"


__all__ = ["met", "missed", "table_line"]
