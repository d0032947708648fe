"""``python -m bench --leagues [--quick] [--json FILE]``: tournament pairing and pictures.

- **Swiss pairing at 256 and 1,024 players** — a Swiss field of ``n`` players plays 7 rounds
  with random results (win, loss, a draw now and then), each round paired by the league's own
  pairer (:func:`host.leagues.swiss_pairings` over :func:`host.events.swiss.pair`, standings by
  :func:`host.leagues.standings`); then pairing round 8 is timed (the pairing call alone, not
  the standings).  The figure is the median over a few fields (``PLANS``: each run is a fresh
  field from its own seed).  Issue targets: ≤ 0.5 s at 256 players, ≤ 5 s at 1,024
  (``TARGETS``; docs/performance.md).  Each timed round is also checked (everyone paired
  exactly once, else the run fails) and its rematches counted (``meta``; 0 expected: after 7
  rounds a field this size always has a rematch-free round).

- **Pictures** — ``bracket_png_ms_64``: a 64-player double elimination (built and played by
  :mod:`host.events.bracket`) drawn, every page of it, in milliseconds (target ≤ 300);
  ``bracket_min_text_px``: the smallest text of the 16-player single-elimination picture shown
  400 px wide, English and Japanese (target ≥ 8); ``standings_png_ms_256``: the ``card`` standings
  of a 256-player Swiss after 8 rounds of best-of-three computed (:mod:`host.events.scoring`) and
  its first page drawn, as a ``/league standings`` answer does (target ≤ 300).  The median of a
  few runs after one warm-up.

The JSON: ``{"leagues": {figure: value}, "meta": {...how it was measured...}}``.  A new
measurement is a function ``(cfg, out, log)`` appended to ``MEASURES``, with its figures' entries
in ``TARGETS`` (if it has one) and ``LABELS``, and its sizes in each of ``PLANS``.  Figures are
measured here, never asserted in tests.
"""
from __future__ import annotations

import os
import random
import statistics
import time
from typing import Any, Callable

from bench.targets import missed, table_line

Log = Callable[[str], None]

# plan -> per measurement, how much to run.  swiss_runs: players -> fields timed (the median).
PLANS: dict[str, dict[str, Any]] = {
    "full": {"swiss_runs": {256: 5, 1024: 3}, "picture_runs": 5},
    "quick": {"swiss_runs": {256: 3, 1024: 2}, "picture_runs": 3},
    "tiny": {"swiss_runs": {256: 3, 1024: 1}, "picture_runs": 1},
}
# figure -> (comparison, target), as in bench/__init__.py
TARGETS: dict[str, tuple[str, float]] = {
    "swiss_pair_256_s": ("<=", 0.5),
    "swiss_pair_1024_s": ("<=", 5.0),
    "bracket_png_ms_64": ("<=", 300.0),
    "bracket_min_text_px": (">=", 8.0),
    "standings_png_ms_256": ("<=", 300.0),
}
# figure -> (label, unit)
LABELS: dict[str, tuple[str, str]] = {
    "swiss_pair_256_s": ("Swiss pairing, round 8 of 256 players", "s"),
    "swiss_pair_1024_s": ("Swiss pairing, round 8 of 1,024 players", "s"),
    "bracket_png_ms_64": ("64-player double elimination drawn, all pages", "ms"),
    "bracket_min_text_px": ("16-player bracket: smallest text at 400 px", "px"),
    "standings_png_ms_256": ("256-player standings computed and drawn", "ms"),
}
SWISS_ROUNDS_PLAYED = 7
RESULT_WEIGHTS = {"a": 45, "b": 45, "draw": 10}


def _swiss_field(n: int, seed: str) -> tuple[list[int], dict[int, float], set[frozenset], set[int]]:
    """A Swiss field of ``n`` after 7 rounds of random results: the inputs to pair round 8
    (ranked, points, played, had_bye)."""
    from host import leagues as L

    rng = random.Random(seed)
    players = [{"id": 10_000 + i, "name": f"p{i}", "status": "active"} for i in range(n)]
    games: list[tuple[int, int | None, str]] = []
    results, weights = list(RESULT_WEIGHTS), list(RESULT_WEIGHTS.values())
    for _ in range(SWISS_ROUNDS_PLAYED):
        ranked, points, played, had_bye = _round_inputs(players, games)
        for a, b in L.swiss_pairings(ranked, played, had_bye, points):
            games.append((a, b, "bye") if b is None else (a, b, rng.choices(results, weights)[0]))
    return _round_inputs(players, games)


def _round_inputs(players: list[dict], games: list[tuple[int, int | None, str]]
                  ) -> tuple[list[int], dict[int, float], set[frozenset], set[int]]:
    from host import leagues as L

    rows = L.standings(players, games)
    played = {frozenset((a, b)) for a, b, _ in games if b is not None}
    had_bye = {a for a, b, _ in games if b is None}
    return [s.user_id for s in rows], {s.user_id: s.points for s in rows}, played, had_bye


def time_swiss(n: int, seed: str) -> dict[str, Any]:
    """Pair round 8 of one random field of ``n``: seconds, rematches, score groups."""
    from host import leagues as L

    ranked, points, played, had_bye = _swiss_field(n, seed)
    t0 = time.perf_counter()
    pairs = L.swiss_pairings(ranked, played, had_bye, points)
    seconds = time.perf_counter() - t0
    seen = sorted(p for pair in pairs for p in pair if p is not None)
    if seen != sorted(ranked):
        raise AssertionError(f"Swiss pairing of {n}: not everyone paired exactly once")
    rematches = sum(frozenset(pair) in played for pair in pairs if pair[1] is not None)
    return {"seconds": seconds, "rematches": rematches, "score_groups": len(set(points.values()))}


def measure_swiss(cfg: dict[str, Any], out: dict[str, Any], log: Log) -> None:
    meta = out["meta"].setdefault("swiss", {"rounds_played": SWISS_ROUNDS_PLAYED, "result_weights": RESULT_WEIGHTS,
                                            "fields": {}})
    for n, runs in cfg["swiss_runs"].items():
        times, rematches, groups = [], 0, []
        for k in range(runs):
            log(f"leagues: Swiss of {n:,} players, field {k + 1}/{runs}: 7 rounds, then round 8 timed …")
            r = time_swiss(n, f"bench-swiss-{n}-{k}")
            times.append(r["seconds"])
            rematches += r["rematches"]
            groups.append(r["score_groups"])
        out["leagues"][f"swiss_pair_{n}_s"] = round(statistics.median(times), 6)
        meta["fields"][str(n)] = {"runs": runs, "seconds": [round(t, 6) for t in times], "max_s": round(max(times), 6),
                                  "rematches": rematches, "score_groups": groups}


def _timed_ms(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    """(median milliseconds over ``runs`` calls after one warm-up, the last call's value)."""
    value = fn()
    times = []
    for _ in range(max(1, runs)):
        t0 = time.perf_counter()
        value = fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), value


def _standings_field(n: int, seed: str) -> tuple[list[dict], list[dict]]:
    """A ``card`` Swiss of ``n`` after 8 rounds of best-of-three with random game results:
    (players, pairings) as :func:`host.events.scoring.standings` takes them."""
    from host import leagues as L
    from host.events import scoring

    rng = random.Random(seed)
    players = [{"id": 10_000 + i, "name": f"Player {i + 1}", "status": "active"} for i in range(n)]
    pairings: list[dict] = []
    for rnd in range(1, 9):
        rows = scoring.standings(players, pairings, "card")
        ranked = [r.user_id for r in rows]
        points = {r.user_id: r.points for r in rows}
        played = {frozenset((p["a"], p["b"])) for p in pairings if p["b"] is not None}
        had_bye = {p["a"] for p in pairings if p["b"] is None}
        for a, b in L.swiss_pairings(ranked, played, had_bye, points):
            games: list[str] = []
            while b is not None and len(games) < 3 and max(games.count("a"), games.count("b")) < 2:
                games.append(rng.choices(("a", "b", "draw"), (45, 45, 10))[0])
            pairings.append({"round": rnd, "a": a, "b": b, "games": games, "result": None})
    return players, pairings


def measure_pictures(cfg: dict[str, Any], out: dict[str, Any], log: Log) -> None:
    from host.events import scoring
    from bench.event_samples import sample_view
    from render.bracket import draw_bracket, min_text_px
    from render.standings import draw_standings

    runs = cfg["picture_runs"]
    log("leagues: a 64-player double elimination drawn, every page …")
    view = sample_view(64, "double")
    ms, pages = _timed_ms(lambda: draw_bracket(view, "en"), runs)
    out["leagues"]["bracket_png_ms_64"] = round(ms, 1)
    log("leagues: the 16-player bracket's smallest text at 400 px …")
    single = sample_view(16, "single")
    out["leagues"]["bracket_min_text_px"] = round(min(min_text_px(single, loc) for loc in ("en", "ja")), 2)
    log("leagues: 256-player standings computed and drawn …")
    players, pairings = _standings_field(256, "bench-standings-256")
    columns = list(scoring.TIEBREAKS["card"])

    def standings_answer() -> bytes:
        rows = scoring.standings(players, pairings, "card")
        shown = [{"place": r.place, "name": r.name, "status": r.status, "points": r.points, "wins": r.wins,
                  "losses": r.losses, "draws": r.draws, "tiebreaks": r.tiebreaks} for r in rows]
        return draw_standings(shown, columns, "en", title="Standings", page=0)

    ms2, png = _timed_ms(standings_answer, runs)
    out["leagues"]["standings_png_ms_256"] = round(ms2, 1)
    out["meta"]["pictures"] = {"runs": runs, "bracket_pages_64": len(pages),
                               "bracket_bytes_64": sum(len(p) for p in pages), "standings_png_bytes": len(png)}


MEASURES: list[Callable[[dict[str, Any], dict[str, Any], Log], None]] = [measure_swiss, measure_pictures]


def run_leagues(plan: str = "full", log: Log = lambda s: None) -> dict[str, Any]:
    cfg = PLANS[plan]
    out: dict[str, Any] = {"leagues": {}, "meta": {"plan": plan, "cpus": os.cpu_count()}}
    for measure in MEASURES:
        measure(cfg, out, log)
    return out


def misses(result: dict[str, Any]) -> list[str]:
    """The targets missed, in words (empty: every target holds)."""
    return missed(result.get("leagues") or {}, TARGETS, LABELS)


def format_leagues(result: dict[str, Any]) -> str:
    lines = [table_line(key, value, TARGETS, LABELS) for key, value in (result.get("leagues") or {}).items()]
    meta = result.get("meta") or {}
    for n, row in ((meta.get("swiss") or {}).get("fields") or {}).items():
        lines.append(f"  {int(n):,} players: {row['runs']} field(s), slowest {row['max_s']:.4f} s, "
                     f"rematches {row['rematches']}, score groups {row['score_groups']}")
    lines.append(f"plan {meta.get('plan')} · {meta.get('cpus')} CPUs · the median over the fields")
    return "\n".join(lines)
