"""Small helpers several engines share (pure; no I/O)."""
from __future__ import annotations

import re
from typing import Any

_INT = re.compile(r"\s*[+-]?\d+\s*")


def int_option(game_title: str, name: str, value: Any) -> int:
    """An option that must be a whole number (``"7"`` from a typed option is accepted).

    >>> int_option("SQUARES", "max_turns", "120")
    120
    """
    if isinstance(value, bool):
        raise ValueError(f"{game_title} option {name!r} must be a whole number, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _INT.fullmatch(value):
        return int(value)
    raise ValueError(f"{game_title} option {name!r} must be a whole number, not {value!r}")


def loser_first(options: dict | None, outcome: dict | None) -> dict:
    """Rematch options for two-player games: the loser of the last match moves first; after a
    draw the first player is chosen at random again.  Everything else (decks…) stays.

    >>> loser_first({"first": 0, "decks": ["a", "b"]}, {"winners": [1]})
    {'first': 0, 'decks': ['a', 'b']}
    >>> loser_first({"first": 0}, {"winners": []})
    {}
    """
    new = dict(options or {})
    winners = (outcome or {}).get("winners") or []
    if len(winners) == 1:
        new["first"] = 1 - int(winners[0])
    else:
        new.pop("first", None)
    return new


def copy_json(x: Any) -> Any:
    """A deep copy of JSON-like data (faster than a JSON round trip for small objects)."""
    if isinstance(x, dict):
        return {k: copy_json(v) for k, v in x.items()}
    if isinstance(x, list):
        return [copy_json(v) for v in x]
    return x
