"""``python -m bench --ai [--quick] [--json FILE] [--game NAME ...]``: how long the computer player
takes to decide (issue 17), per game and level, at positions met in random play.

- ``normal`` is timed without a budget (its fixed work): the target is p99 ≤ 200 ms, so a
  practice match feels live;
- ``hard`` is timed with ``budget_s`` = 1 s (its default in practice): it must decide within its
  budget (p99 ≤ 1 s plus the last iteration);
- ``easy`` is a random legal move and is not timed.

Figures are measured, never asserted in tests.
"""
from __future__ import annotations

import random
import time
from typing import Any, Callable

from ai import choose
from rules import registry

PLANS = {"full": (40, 12), "quick": (12, 4), "tiny": (2, 1)}   # (positions for normal, for hard)
HARD_BUDGET_S = 1.0


def _positions(name: str, count: int, seed: int = 0) -> list[tuple[Any, int]]:
    game = registry.get(name)
    players = 3 if name == "avalon" else game.min_players
    out: list[tuple[Any, int]] = []
    k = 0
    while len(out) < count and k < count * 20:
        rng = random.Random(f"bench-ai-{seed}-{k}")
        state = game.new_match(players=players, seed=k, options={})
        for _ in range(rng.randrange(0, 120)):
            if game.outcome(state) is not None:
                break
            seat = rng.choice(game.to_act(state))
            state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
        k += 1
        if game.outcome(state) is None and game.to_act(state):
            seat = game.to_act(state)[0]
            if len(game.legal_commands(state, seat)) > 1:
                out.append((state, seat))
    return out


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def run_ai(plan: str = "full", games: list[str] | None = None, log: Callable[[str], None] = lambda s: None,
           hard_budget_s: float = HARD_BUDGET_S) -> dict:
    n_normal, n_hard = PLANS[plan]
    out: dict[str, Any] = {"meta": {"plan": plan, "hard_budget_s": hard_budget_s}, "ai": {}}
    for name in games or registry.names():
        game = registry.get(name)
        if not hasattr(game, "determinize"):
            continue
        row: dict[str, Any] = {}
        for level, count, budget in (("normal", n_normal, None), ("hard", n_hard, hard_budget_s)):
            times = []
            for i, (state, seat) in enumerate(_positions(name, count)):
                legal = game.legal_commands(state, seat)
                view = game.view(state, seat)
                t = time.perf_counter()
                command = choose(name, view, legal, seat, level=level, seed=i, budget_s=budget)
                times.append((time.perf_counter() - t) * 1000)
                assert command in legal
            row[level] = {"positions": len(times), "p50_ms": round(_pct(times, 0.5), 1),
                          "p99_ms": round(_pct(times, 0.99), 1), "max_ms": round(max(times, default=0), 1)}
            log(f"{name} {level}: p99 {row[level]['p99_ms']} ms over {len(times)} positions")
        out["ai"][name] = row
    return out


def misses(result: dict) -> list[str]:
    budget_ms = result["meta"]["hard_budget_s"] * 1000
    out = []
    for name, row in result["ai"].items():
        if row["normal"]["p99_ms"] > 200:
            out.append(f"{name}: normal p99 {row['normal']['p99_ms']} ms > 200 ms")
        if row["hard"]["p99_ms"] > budget_ms * 1.1:
            out.append(f"{name}: hard p99 {row['hard']['p99_ms']} ms > its budget {budget_ms:.0f} ms")
    return out


def format_ai(result: dict) -> str:
    lines = ["| game | normal p50 ms | normal p99 ms | hard p50 ms | hard p99 ms (budget "
             f"{result['meta']['hard_budget_s'] * 1000:.0f}) |", "|---|---|---|---|---|"]
    for name, row in result["ai"].items():
        lines.append(f"| {name} | {row['normal']['p50_ms']} | {row['normal']['p99_ms']} | "
                     f"{row['hard']['p50_ms']} | {row['hard']['p99_ms']} |")
    return "\n".join(lines)
