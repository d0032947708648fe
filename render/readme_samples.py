"""Sample inputs of the README's tournament and replay pictures, built without the host (the
renderer may not import it): a bracket view and a match's public steps.

- :func:`bracket_view` is the view :func:`host.events.bracket.view` gives for a single
  elimination with some results in (the shape :func:`render.bracket.draw_bracket` draws); the
  README's test builds the same bracket with the host and asserts the two are equal.
- :func:`public_steps` plays a fixed seeded match through the engine contract and keeps the
  public view after each command, the two fields of a step :func:`render.gif.match_gif` reads
  (``view`` and ``turn``).  For a game of open information (SQUARES) every command is public, so
  these are the steps ``host.replay_steps.public_steps`` would give.
"""
from __future__ import annotations

from typing import Any

from render.__main__ import playout
from rules import registry

BRACKET_NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi"]   # by seed
# winner's seed and score of each match decided so far (the host's match ids): the first round
# (one upset: Erin over Dave), one semifinal; the other semifinal is ready, the final waits
BRACKET_RESULTS: dict[str, tuple[int, str]] = {
    "W1-1": (1, "2–0"), "W1-2": (5, "2–1"), "W1-3": (2, "2–0"), "W1-4": (3, "2–1"),
    "W2-1": (1, "2–1"),
}


def seed_order(n: int) -> list[int]:
    """The seeds of a single elimination of ``n`` (a power of two) in bracket order, so that the
    best seeds meet last: 8 → 1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < n:
        size = 2 * len(order)
        order = [s for t in order for s in (t, size + 1 - t)]
    return order


def _slot(seed: int | None, winner: int | None, score: str | None) -> dict:
    won = seed is not None and seed == winner
    mine: str | None = None
    if score is not None and seed is not None:
        first, second = score.split("–")
        mine = first if won else second
    return {"name": None if seed is None else BRACKET_NAMES[seed - 1], "seed": seed, "won": won, "score": mine}


def bracket_view(results: dict[str, tuple[int, str]] | None = None, n: int = len(BRACKET_NAMES)) -> dict:
    """The bracket view of a single elimination of ``n`` players (a power of two, at most
    :data:`BRACKET_NAMES`) after ``results`` (default :data:`BRACKET_RESULTS`): a match is
    ``done`` with a result, ``ready`` when both players are known, else ``waiting``.  Round
    titles are left "" so the picture names the rounds itself (Semifinals, Final)."""
    results = BRACKET_RESULTS if results is None else results
    order = seed_order(n)
    players: list[tuple[int | None, int | None]] = [(order[i], order[i + 1]) for i in range(0, n, 2)]
    rounds = []
    r = 1
    while players:
        matches, winners = [], []
        for j, (a, b) in enumerate(players, 1):
            mid = f"W{r}-{j}"
            winner, score = results.get(mid, (None, None))
            status = "done" if winner is not None else ("ready" if a is not None and b is not None else "waiting")
            matches.append({"id": mid, "status": status, "slots": [_slot(a, winner, score), _slot(b, winner, score)]})
            winners.append(winner)
        rounds.append({"title": "", "matches": matches})
        players = [(winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]
        r += 1
    return {"kind": "single", "sections": [{"key": "winners", "title": "", "rounds": rounds}]}


def public_steps(game_name: str, seed: int, moves: int, players: int | None = None) -> tuple[dict, list[dict]]:
    """(start view, steps) of a match of ``players`` seats played by ``moves`` random legal
    commands from ``seed`` — the same play as :func:`render.__main__.play` — each step the
    command played, by which seat, and the public view after it with its turn (``{"seat",
    "command", "view", "turn"}``)."""
    game = registry.get(game_name)
    start = game.view(game.new_match(players=players or game.min_players, seed=seed, options={}), None)
    steps: list[dict[str, Any]] = []

    def keep(game: Any, seat: int, command: str, state: Any) -> None:
        view = game.view(state, None)
        steps.append({"seat": seat, "command": command, "view": view, "turn": view.get("turn")})

    playout(game_name, seed, moves, players, on_step=keep)
    return start, steps
