"""Whether a run of ``python -m balance`` measured a figure enough to judge it (issue 32): pure.

Every judged figure is a share of ``n`` matches (draws count half) with its 95 % Wilson score
interval, printed beside it in every plan.  The verdict:

* **the full plan** judges each figure as docs/balance.md states its target — the measured share against
  the band (a pairing "wins 40–60 %") — because its sample sizes are the ones the targets are
  measured with (``FULL_PER_ORDER``, the strength and one-rule plans): **met** inside the band,
  **missed** outside it;
* **any smaller plan** (``--quick``, ``--per-order`` below the plan's) judges a figure only when its
  sample decides it: **met** only when the whole interval lies inside the band, **missed** only when
  the whole interval lies outside it, **undecided** otherwise — printed with its interval as "not
  enough matches to judge (n = …)".

A one-sided target is a band up to or from its line (≤ 30 % is 0–30 %, ≥ 95 % is 95–100 %).  A
figure with no known sample is undecided, and so are ``hard``'s checks played at a time budget (the
quick plan's): the targets are for ``hard`` at its fixed number of iterations, so such a figure
measures another player.  SQUARES' first player is reported, not judged (the content targets of
docs/balance.md are for the card games).
"""
from __future__ import annotations

import functools
from typing import Any

from data.intervals import wilson      # in data/: host/stats and render use it too (balance.judge.wilson stays)

MET, MISSED, UNDECIDED = "met", "missed", "undecided"
RULE = ("the full plan judges each figure's share against its target, as the targets are stated, on the "
        "sample sizes they are measured with; a smaller plan (--quick, a smaller --per-order) meets a "
        "target only when the whole 95 % Wilson interval lies inside it, misses it only when the whole "
        "interval lies outside, and is otherwise undecided (not enough matches to judge)")

# docs/balance.md, "Content balance, measured", as bands of a share: every pairing 40–60 %, first
# player 42–58 %, turn caps ≤ 5 %; hard ≥ 95 % against random and ≥ 70 % against greedy; no one-rule
# bot above 30 % against normal
TARGETS: dict[str, tuple[float, float]] = {
    "pairing": (0.40, 0.60), "first_player_win": (0.42, 0.58), "turn_cap_share": (0.0, 0.05),
    "vs_random": (0.95, 1.0), "vs_greedy": (0.70, 1.0), "trivial_vs_ai": (0.0, 0.30)}


def verdict(low: float, high: float, band: tuple[float, float]) -> str:
    """``met`` if the interval [low, high] lies inside the band (its edges included), ``missed`` if
    it lies wholly outside, else ``undecided``."""
    lo, hi = band
    if lo <= low and high <= hi:
        return MET
    if high < lo or low > hi:
        return MISSED
    return UNDECIDED


def judge(value: float | None, n: int | None, band: tuple[float, float],
          interval: tuple[float, float] | list[float] | None = None, *,
          full: bool = False) -> dict[str, Any]:
    """A figure's record: its value, sample, 95 % interval (``interval`` if the run computed it from
    the exact score, else Wilson's from ``value × n``), target band and verdict — ``full``: the
    full plan's, the share against the band; else the interval's (:func:`verdict`)."""
    if value is None or not n or n <= 0:
        return {"value": value, "n": n or 0, "ci95": [0.0, 1.0], "target": list(band),
                "verdict": UNDECIDED, "why": "no sample"}
    low, high = interval if interval is not None else wilson(value * n, n)
    if full:
        decided = MET if band[0] <= value <= band[1] else MISSED
    else:
        decided = verdict(low, high, band)
    return {"value": value, "n": n, "ci95": [round(low, 3), round(high, 3)], "target": list(band),
            "verdict": decided}


def describe(band: tuple[float, float] | list[float]) -> str:
    """The target as docs/balance.md writes it: ``40–60 %``, ``≤ 5 %``, ``≥ 95 %``."""
    lo, hi = band
    if lo <= 0.0:
        return f"≤ {hi * 100:g} %"
    if hi >= 1.0:
        return f"≥ {lo * 100:g} %"
    return f"{lo * 100:g}–{hi * 100:g} %"


def full_plan(meta: dict | None) -> bool:
    """Did the run play the full plan at its own sample sizes (so its figures are judged as the
    targets state them)?  ``meta`` is the run's (``plan``, ``full_sample``)."""
    meta = meta or {}
    return meta.get("plan", "full") == "full" and bool(meta.get("full_sample", True))


def judge_game(row: dict, budget: float | None = None, full: bool = False
               ) -> tuple[list[dict], dict[str, dict]]:
    """One game's row of :func:`balance.run` judged: a record per pairing (in order) and one per
    game-wide figure (``first_player_win``, ``turn_cap_share``, ``vs_random``, ``vs_greedy``,
    ``trivial_vs_ai``; a figure the run left out, e.g. under ``--no-hard``, has none).  ``budget``
    is the plan's time budget for ``hard`` (None: its fixed iterations); ``full``: the full plan
    (see the module docstring)."""
    rate = functools.partial(judge, full=full)
    pairings = [rate(p["a_win"], p.get("n"), TARGETS["pairing"], p.get("ci95")) for p in row["pairings"]]
    figures: dict[str, dict] = {}
    # the content targets (docs/balance.md) are for the card games: SQUARES has no content to change, its first
    # player's share is the rulebook's own and is reported, not judged
    if row["pairings"] and row.get("first_player_win") is not None:
        figures["first_player_win"] = rate(row.get("first_player_win"), row.get("matches"),
                                            TARGETS["first_player_win"])
    if row.get("turn_cap_share") is not None:
        figures["turn_cap_share"] = rate(row["turn_cap_share"], row.get("matches"), TARGETS["turn_cap_share"])
    for key in ("vs_random", "vs_greedy"):
        if row.get(key) is None:
            continue
        figures[key] = rate(row[key], row.get(f"{key}_n"), TARGETS[key])
        if budget is not None:
            figures[key].update(verdict=UNDECIDED, why=f"hard at a {budget:g} s budget, not its fixed iterations")
    if row.get("trivial_vs_ai") is not None:
        figures["trivial_vs_ai"] = rate(row["trivial_vs_ai"], row.get("trivial_n"), TARGETS["trivial_vs_ai"],
                                         row.get("trivial_ci95"))
    return pairings, figures


def outside(record: dict) -> bool:
    """Whether the figure's point estimate lies outside its target band."""
    lo, hi = record["target"]
    return record["value"] is not None and not lo <= record["value"] <= hi


def tally(result: dict) -> dict[str, int]:
    """How many figures of the run are met, missed and undecided."""
    counts = {MET: 0, MISSED: 0, UNDECIDED: 0}
    budget = (result.get("meta") or {}).get("budget")
    for row in result["games"].values():
        pairings, figures = judge_game(row, budget, full_plan(result.get("meta")))
        for record in [*pairings, *figures.values()]:
            counts[record["verdict"]] += 1
    return counts
