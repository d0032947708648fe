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


def handed_over(game: Any, state_before: Any, seat: int, state_after: Any) -> bool:
    """The part of ``final`` (docs/engine.md) every game shares: the command ended the match,
    left ``seat`` with no decision to make, gave a decision to a seat that had none, or opened
    a secret decision (a hidden response window) — from then on another player may act on what
    they saw, so the move can no longer be taken back by its player alone."""
    if game.outcome(state_after) is not None:
        return True
    after = set(game.to_act(state_after))
    if seat not in after or after - set(game.to_act(state_before)):
        return True
    pending = getattr(game, "hidden_pending", None)
    if pending is not None and pending(state_after) and not pending(state_before):
        return True
    public = getattr(game, "public_to_act", None)
    if public is not None and set(public(state_after)) != set(public(state_before)):
        return True
    return False
