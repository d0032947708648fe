"""Self-play of a server's card set (``/cards balance``, issue 36): pure, no I/O.

A run plays every pairing of the set's own ready-made decks at the computer's level ``normal``,
in both seat orders, :data:`PER_ORDER` matches each (at least 20), the same matches whatever
happens around them (each match's seed follows from the run's and its place in the plan), so a
run that stopped resumes exactly where it was.  The host's worker process plays the plan in
chunks (:func:`play_chunk`); :func:`figures` turns the results into what the run reports — each
pairing's win rate with its 95 % Wilson interval, the first player's rate and the share of
matches that hit a cap (a turn or round limit), each with its interval and its target
(:data:`balance.judge.TARGETS`: every pairing 40–60 %, the first player 42–58 %, caps ≤ 5 %).

A run of a card game's set also measures the set's **card values** for the computer drafter
(:mod:`balance.card_values`): the plan's ``values`` part, :data:`VALUE_MATCHES` self-play matches
with random decks (numbered from 0, seeded like the deck matches from the run's seed).
:func:`next_chunk` interleaves the two kinds in proportion to their sizes, so a run stopped
part-way has measured both about equally far; it depends only on how many of each are played,
so a resumed run plays exactly what it would have.

>>> plan = make_plan(["a", "b", "c"], per_order=2, seed=7)
>>> len(plan["matches"]), plan["matches"][0][:3]
(12, [0, 0, 0])
>>> results = [{"w": [0], "r": "win", "f": 0}] * 12
>>> f = figures(plan, results)
>>> f["pairings"][0]["n"], f["first"]["share"], f["caps"]["share"], f["draws"]["share"]
(4, 1.0, 0.0, 0.0)
>>> plan = make_plan(["a", "b"], per_order=2, seed=7, values=2)
>>> plan["values"], next_chunk(plan, 0, 0, 4), next_chunk(plan, 4, 0, 4), next_chunk(plan, 4, 2, 4)
({'matches': 2, 'seed': 7}, ('decks', [[0, 0, 0, 7000022], [0, 0, 1, 7000023], [0, 1, 0, 7000024], [0, 1, 1, 7000025]]), ('values', [0, 1]), None)
"""
from __future__ import annotations

import time
from typing import Any

from balance.judge import TARGETS, verdict
from data.intervals import wilson

PER_ORDER = 20               # matches per pairing and seat order (the least)
MAX_DECKS = 8                # the set's first decks a run pairs (8 decks: 28 pairings, 1,120 matches)
CAP_REASONS = {"turn_limit", "round_limit"}
SEED_STRIDE = 1_000_003
VALUE_MATCHES = 40           # self-play matches with random decks a run plays for the card values


def make_plan(decks: list[str], *, per_order: int = PER_ORDER, seed: int = 0, values: int = 0) -> dict:
    """Every match of a run: ``[pairing, a's seat, k, seed]`` for each pairing (i < j) of
    ``decks``, each seat order, ``per_order`` times; with ``values`` (> 0) the card values'
    part, ``{"matches": values, "seed": seed}`` (:func:`balance.card_values.play_chunk`'s
    match numbers 0 … values − 1 and seed)."""
    decks = list(decks)[:MAX_DECKS]
    pairings = [[i, j] for i in range(len(decks)) for j in range(i + 1, len(decks))]
    matches = []
    for p, _pair in enumerate(pairings):
        for a_seat in (0, 1):
            for k in range(per_order):
                matches.append([p, a_seat, k, seed * SEED_STRIDE + len(matches) + 1])
    plan = {"decks": decks, "pairings": pairings, "per_order": per_order, "seed": seed, "matches": matches}
    if values > 0:
        plan["values"] = {"matches": int(values), "seed": seed}
    return plan


def value_matches(plan: dict) -> int:
    """The card values' planned matches (0: the plan measures none — a plan from before them)."""
    part = plan.get("values")
    return int(part.get("matches") or 0) if isinstance(part, dict) else 0


def next_chunk(plan: dict, decks_done: int, values_done: int, size: int, *,
               values: bool = True) -> tuple[str, list] | None:
    """What a run plays next, given how many of each kind it has played: ``("decks", [planned
    matches])``, ``("values", [match numbers])``, or None when everything is played.  The kind
    that is proportionally behind goes next (a tie: the decks), so the card values' matches are
    spread through the run.  ``values`` False: the values' part is given up (the set cannot make
    random decks) and only the decks remain."""
    decks_total = len(plan.get("matches", []))
    values_total = value_matches(plan) if values else 0
    decks_left, values_left = decks_done < decks_total, values_done < values_total
    if values_left and (not decks_left or values_done * decks_total < decks_done * values_total):
        return "values", list(range(values_done, min(values_total, values_done + size)))
    if decks_left:
        return "decks", plan["matches"][decks_done:decks_done + size]
    return None


def options_of(game_name: str, plan: dict, match: list) -> dict:
    """The options of one planned match: the two decks in its seat order, seat 0 moving first."""
    from balance import first_seat_options

    i, j = plan["pairings"][match[0]]
    a, b = plan["decks"][i], plan["decks"][j]
    return {"decks": [a, b] if match[1] == 0 else [b, a], **first_seat_options(game_name)}


def play_chunk(game_name: str, engine: Any, plan: dict, matches: list[list]) -> tuple[list[dict], float]:
    """Play ``matches`` (entries of ``plan["matches"]``) with ``engine``: their results
    (``w`` winners, ``r`` reason, ``f`` first seat) and the CPU seconds they took."""
    from balance import ai_player, play_match

    start = time.process_time()
    normal = ai_player("normal", game=engine)
    out = []
    for m in matches:
        res = play_match(game_name, options_of(game_name, plan, m), [normal, normal], m[3], game=engine)
        out.append({"w": list(res["winners"]), "r": str(res["reason"]), "f": int(res["first"])})
    return out, time.process_time() - start


def _share(score: float, n: int, band: tuple[float, float]) -> dict:
    low, high = wilson(score, n)
    return {"share": round(score / n, 3) if n else None, "n": n, "ci95": [round(low, 3), round(high, 3)],
            "target": list(band), "verdict": verdict(low, high, band) if n else "undecided"}


def figures(plan: dict, results: list[dict]) -> dict:
    """What a run measured so far (draws count half): ``pairings`` (deck ``a`` against ``b``: a's
    share), ``first`` (the first player's), ``caps`` (matches that hit a turn or round cap) and
    ``draws`` (matches without a winner, however they ended — both resource decks out with equal
    life, a double knockout, a cap: reported beside the shares, which count each draw half, so a
    set whose matches all end drawn never reads as merely "fair"; no target judges it)."""
    pairings = []
    for p, (i, j) in enumerate(plan["pairings"]):
        score, n = 0.0, 0
        for m, r in zip(plan["matches"], results):
            if m[0] != p:
                continue
            a_seat = m[1]
            score += 0.5 if not r["w"] else (1.0 if a_seat in r["w"] else 0.0)
            n += 1
        pairings.append({"a": plan["decks"][i], "b": plan["decks"][j], **_share(score, n, TARGETS["pairing"])})
    first = sum(0.5 if not r["w"] else (1.0 if r["f"] in r["w"] else 0.0) for r in results)
    caps = sum(1 for r in results if r["r"] in CAP_REASONS)
    draws = sum(1 for r in results if not r["w"])
    low, high = wilson(draws, len(results))
    return {"pairings": pairings, "first": _share(first, len(results), TARGETS["first_player_win"]),
            "caps": _share(caps, len(results), TARGETS["turn_cap_share"]),
            "draws": {"share": round(draws / len(results), 3) if results else None, "n": len(results), "count": draws,
                      "ci95": [round(low, 3), round(high, 3)]},
            "played": len(results), "planned": len(plan["matches"])}


__all__ = ["PER_ORDER", "MAX_DECKS", "VALUE_MATCHES", "make_plan", "value_matches", "next_chunk", "options_of",
           "play_chunk", "figures"]
