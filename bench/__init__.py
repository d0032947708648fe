"""Benchmarks: latency, picture cost, capacity and start-up for every registered game.

    python -m bench                    # full run, prints a table (figures marked against targets)
    python -m bench --quick            # smaller sample, a few minutes at most
    python -m bench --json out.json    # also write the figures as JSON

Speed is measured here, never asserted in tests.  The JSON::

    {"games": {"<name>": {"p50_ms", "p99_ms", "render_ratio", "png_bytes",
                          "rules_commands_per_s"}},
     "startup_s", "active_matches_rss_mib_per_10k", "loaded_matches_rss_mib", "loop_lag_p99_ms",
     "meta": {...how it was measured: samples, machine, extra figures...}}

The stored matches behind start-up and memory are made by the real host (a few per game
challenged, accepted and played, then copied: :mod:`bench.workload`); the run fails
(:class:`bench.workload.SeedingFailed`, exit status 1, no table) if one of them does not load
or does not play a legal command.

Every game in ``rules.registry.names()`` at the time of the run is covered.
"""
from __future__ import annotations

import asyncio
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent

# key -> (comparison, target, unit label)
GAME_TARGETS = {
    "p99_ms": ("<=", 60.0),
    "render_ratio": ("<=", 2.0),
    "png_bytes": ("<=", 200_000),
    "rules_commands_per_s": (">=", 10_000),
}
TARGETS = {
    "startup_s": ("<=", 2.0),
    "active_matches_rss_mib_per_10k": ("<=", 1024.0),
    "loop_lag_p99_ms": ("<=", 20.0),
}


@dataclass
class Plan:
    """How big a run is."""

    commands_per_game: int = 2000     # measured host commands per game
    view_samples: int = 60            # final pictures per game for render_ratio
    rules_seconds: float = 3.0        # random play per game for rules_commands_per_s
    stored_matches: int = 100_000     # stored unfinished matches, for start-up and memory
    active_matches: int = 10_000      # of those, made active in the state cache (memory)
    loaded_matches: int = 100_000     # of those, loaded once each (the cache bounded as configured)
    seed_templates: int = 100         # matches per game played through the host, then copied
    played_sample: int = 2_000        # stored (not active) matches that must also play a command
    startup_runs: int = 5             # start-up is the median of this many processes
    lag_seconds: float = 20.0
    lag_players: int = 8


PLANS = {
    "full": Plan(),
    "quick": Plan(commands_per_game=400, view_samples=25, rules_seconds=1.0, startup_runs=3,
                  lag_seconds=6.0, loaded_matches=30_000, seed_templates=40, played_sample=500),
    # the smoke test's plan: exercises every path in seconds; its figures mean nothing
    "tiny": Plan(commands_per_game=12, view_samples=3, rules_seconds=0.05, stored_matches=60,
                 active_matches=20, loaded_matches=60, seed_templates=3, played_sample=10, startup_runs=1,
                 lag_seconds=0.5, lag_players=2),
}


def _loadavg() -> list[float] | None:
    """The machine's 1/5/15-minute load averages (other processes skew latency figures)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    return env


def measure_startup(db: str, runs: int, timeout: float = 120.0) -> dict[str, Any]:
    """Seconds from spawning ``python -m bench._child startup DB`` to its ``READY`` line."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "bench._child", "startup", db],
                                cwd=ROOT, env=_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        line = ""
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("READY"):
                    break
            dt = time.perf_counter() - t0
            proc.wait(timeout=timeout)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if not line.startswith("READY"):
            raise RuntimeError(f"start-up child failed: {proc.stderr.read() if proc.stderr else ''}")
        times.append(dt)
    return {"median_s": statistics.median(times), "runs_s": times,
            "resumed": int(line.split()[1])}


def measure_memory(db: str, n: int, loaded: int | None = None, sample: int = 0,
                   timeout: float = 3600.0) -> dict[str, Any]:
    """Resident memory with ``n`` stored matches active in the host's state cache, then with
    the first ``loaded`` (default ``n``) loaded once, the cache bounded as configured
    (``python -m bench._child memory``).  Raises :class:`bench.workload.SeedingFailed` if a
    stored match did not load, or one of those played (the ``n`` active and ``sample`` others)
    was not shown or refused a legal command: the figures would not be of the matches named."""
    import json

    from bench.workload import SeedingFailed

    loaded = n if loaded is None else loaded
    out = subprocess.run([sys.executable, "-m", "bench._child", "memory", db, str(n), str(loaded),
                          str(sample)], cwd=ROOT, env=_env(), capture_output=True, text=True,
                         timeout=timeout)
    if out.returncode != 0:
        raise RuntimeError(f"memory child failed: {out.stderr[-2000:]}")
    data = json.loads(out.stdout.strip().splitlines()[-1])
    wrong = {k: data[k] for k in ("not_loaded", "not_played") if data[k]}
    if wrong or data["n_quarantined"] or data["matches"] < n or data["loaded"] < loaded:
        raise SeedingFailed(
            f"the stored matches are not all served by the host: {data['matches']:,} of {n:,} "
            f"active and {data['loaded']:,} of {loaded:,} to load found; per game {wrong or 'none'} "
            f"failed; {data['n_quarantined']} quarantined {data['quarantined']}; "
            f"e.g. {data['examples']}")
    # per match held: every one was loaded and cached (checked above)
    per = (data["rss_after"] - data["rss_before"]) / max(1, data["cached"])
    data["mib_per_10k"] = per * 10_000 / 2**20
    return data


def run(plan: Plan | str = "full", games: list[str] | None = None,
        log: Callable[[str], None] = lambda s: None, database_url: str | None = None) -> dict[str, Any]:
    """Run every benchmark and return the JSON-able result.  ``database_url``: the host latency
    and loop lag run on that store (e.g. ``postgresql://…``) instead of a fresh SQLite file;
    start-up, memory and the clock tick always use a seeded SQLite file."""
    from bench.latency import game_latency, loop_lag, percentile, picture_cost, tick_lag
    from bench.workload import SeedingFailed, rules_speed, seed_database
    from rules import registry

    if isinstance(plan, str):
        plan_name, plan = plan, PLANS[plan]
    else:
        plan_name = "custom"
    games = list(games) if games is not None else registry.names()
    started = time.perf_counter()
    out: dict[str, Any] = {"games": {}}
    meta: dict[str, Any] = {
        "plan": plan_name, "plan_sizes": asdict(plan), "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "games": {}, "errors": {}, "loadavg_start": _loadavg(),
        "store": _redacted(database_url) if database_url else "sqlite (a fresh file per game)",
    }
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        for name in games:
            log(f"[{name}] host latency: {plan.commands_per_game} commands …")
            t0 = time.perf_counter()
            load = _loadavg()
            try:
                lat = asyncio.run(game_latency(name, database_url or f"{tmp}/{name}.db", plan.commands_per_game,
                                               view_samples=plan.view_samples,
                                               rng=random.Random(11)))
                if not lat["png_sizes"]:
                    raise RuntimeError("the host produced no public picture (rendering failed; "
                                       "see the log)")
                log(f"[{name}] picture cost on {len(lat['views'])} final pictures …")
                pic = picture_cost(name, lat["views"])
                log(f"[{name}] rules speed: {plan.rules_seconds:g} s of random play …")
                rs = rules_speed(name, plan.rules_seconds, random.Random(5))
            except Exception as exc:  # one broken engine must not hide the others' figures
                meta["errors"][name] = f"{type(exc).__name__}: {exc}"
                out["games"][name] = {"p50_ms": None, "p99_ms": None, "render_ratio": None,
                                      "png_bytes": None, "rules_commands_per_s": None}
                log(f"[{name}] FAILED: {meta['errors'][name]}")
                continue
            ms = [1000 * x for x in lat["latencies"]]
            full_ms = [1000 * x for x in lat["result_latencies"]]
            out["games"][name] = {
                "p50_ms": round(statistics.median(ms), 2),
                "p99_ms": round(percentile(ms, 99), 2),
                "render_ratio": round(pic["ratio"], 3),
                "png_bytes": int(statistics.median(lat["png_sizes"])),
                "rules_commands_per_s": round(rs["per_s"], 1),
            }
            meta["games"][name] = {
                "commands": len(ms), "matches": lat["matches"], "match_ends": len(lat["end_latencies"]),
                "max_ms": round(max(ms), 2),
                "match_end_p50_ms": (round(1000 * statistics.median(lat["end_latencies"]), 2)
                                     if lat["end_latencies"] else None),
                "result_p50_ms": round(statistics.median(full_ms), 2),
                "result_p99_ms": round(percentile(full_ms, 99), 2),
                "picture_ms": round(pic["picture_ms"], 2), "encode_ms": round(pic["encode_ms"], 2),
                "png_bytes_max": max(lat["png_sizes"], default=0),
                "rules_apply_only_per_s": round(rs["apply_per_s"], 1),
                "rules_cpu_per_s": round(rs["cpu_per_s"], 1),
                "rules_commands": rs["commands"], "seconds": round(time.perf_counter() - t0, 1),
                "loadavg_start": load,
            }

        ok_games = [g for g in games if g not in meta["errors"]] or games
        db = f"{tmp}/stored.db"
        log(f"seeding {plan.stored_matches:,} stored unfinished matches ({', '.join(ok_games)}): "
            f"{plan.seed_templates} a game played through the host, then copied …")
        t0 = time.perf_counter()
        meta["stored_matches"] = seed_database(db, plan.stored_matches, ok_games,
                                               distinct=plan.seed_templates)
        meta["seeding_s"] = round(time.perf_counter() - t0, 1)
        log(f"start-up: median of {plan.startup_runs} processes …")
        st = measure_startup(db, plan.startup_runs)
        if st["resumed"] != plan.stored_matches:
            raise SeedingFailed(f"start-up found {st['resumed']:,} unfinished matches, "
                                f"not the {plan.stored_matches:,} seeded")
        out["startup_s"] = round(st["median_s"], 3)
        meta["startup"] = {"runs_s": [round(x, 3) for x in st["runs_s"]], "resumed": st["resumed"]}
        log(f"memory: {plan.active_matches:,} matches made active, then {plan.loaded_matches:,} "
            f"loaded; each must load, {plan.active_matches + plan.played_sample:,} must play …")
        mem = measure_memory(db, plan.active_matches, plan.loaded_matches, plan.played_sample)
        out["active_matches_rss_mib_per_10k"] = round(mem["mib_per_10k"], 1)
        out["loaded_matches_rss_mib"] = round((mem["rss_after_loaded"] - mem["rss_before"]) / 2**20, 1)
        meta["memory"] = {k: mem[k] for k in ("matches", "cached", "loaded", "cached_loaded",
                                              "cache_size", "played", "rss_before", "rss_after",
                                              "rss_after_loaded")}
        log("clock tick over every stored match …")
        tick = asyncio.run(tick_lag(db))
        meta["tick"] = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in tick.items()}
        log(f"loop lag: {plan.lag_players} concurrent players for {plan.lag_seconds:g} s …")
        lag = asyncio.run(loop_lag(ok_games, database_url or f"{tmp}/lag.db", plan.lag_seconds,
                                   players=plan.lag_players))
        out["loop_lag_p99_ms"] = round(lag["p99_ms"], 2)
        meta["loop_lag"] = {k: (round(v, 2) if isinstance(v, float) else v) for k, v in lag.items()
                            if k != "p99_ms"}
    meta["seconds"] = round(time.perf_counter() - started, 1)
    meta["loadavg_end"] = _loadavg()
    out["meta"] = meta
    return out


def _redacted(url: str) -> str:
    """A database URL without its password (it goes into the printed and JSON figures): the
    PostgreSQL store's own scrubbing; other URLs hold no password."""
    if not url.startswith(("postgres://", "postgresql://")):
        return url
    from data.postgres_store import PgUrl

    return PgUrl(url).scrub(url)


# ---------------------------------------------------------------------------------- the table
def _mark(value: Any, target: tuple[str, float]) -> str:
    if value is None:
        return "n/a"
    op, limit = target
    ok = value <= limit if op == "<=" else value >= limit
    return "ok" if ok else "MISS"


def _fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "—"
    if isinstance(value, int) or (isinstance(value, float) and value >= 1000):
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def targets_met(result: dict[str, Any]) -> dict[str, bool]:
    """figure -> whether it meets its target (per game as "game.key")."""
    out = {}
    for name, figs in result["games"].items():
        for key, target in GAME_TARGETS.items():
            out[f"{name}.{key}"] = _mark(figs.get(key), target) == "ok"
    for key, target in TARGETS.items():
        out[key] = _mark(result.get(key), target) == "ok"
    return out


def format_table(result: dict[str, Any]) -> str:
    head = ["game", "p50 ms", "p99 ms (≤60)", "render ratio (≤2.0)", "png kB (≤200)",
            "rules cmd/s (≥10,000)", "whole Result p50/p99 ms"]
    rows = [head]
    detail = (result.get("meta") or {}).get("games") or {}
    for name, f in result["games"].items():
        png = f.get("png_bytes")
        d = detail.get(name) or {}
        rows.append([
            name, _fmt(f.get("p50_ms")),
            f"{_fmt(f.get('p99_ms'))} {_mark(f.get('p99_ms'), GAME_TARGETS['p99_ms'])}",
            f"{_fmt(f.get('render_ratio'), 2)} {_mark(f.get('render_ratio'), GAME_TARGETS['render_ratio'])}",
            f"{_fmt(None if png is None else png / 1000)} {_mark(png, GAME_TARGETS['png_bytes'])}",
            f"{_fmt(f.get('rules_commands_per_s'))} "
            f"{_mark(f.get('rules_commands_per_s'), GAME_TARGETS['rules_commands_per_s'])}",
            f"{_fmt(d.get('result_p50_ms'))} / {_fmt(d.get('result_p99_ms'))}",
        ])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("p50/p99: legal command received -> row committed -> public picture encoded.  "
                 "Whole Result: until the Result is ready (host.command, then Result.ready(): private pictures, prompts).")
    cpu = [f"{name} {_fmt(d['rules_cpu_per_s'])}" for name, d in detail.items()
           if d.get("rules_cpu_per_s") is not None]
    if cpu:
        lines.append("rules cmd/s per CPU-second (other processes' load taken out): " + ", ".join(cpu))
    lines.append("")
    sizes = (result.get("meta") or {}).get("plan_sizes") or {}
    n, active = sizes.get("stored_matches", 10_000), sizes.get("active_matches", 10_000)
    labels = {"startup_s": (f"start-up, {n:,} stored matches", "s", "≤ 2 s", 2),
              "active_matches_rss_mib_per_10k": ("10,000 active matches, resident"
                                                 + ("" if active == 10_000 else f" (×{10_000 / active:g})"),
                                                 "MiB", "≤ 1024 MiB", 1),
              "loop_lag_p99_ms": ("event-loop lag p99 while rendering", "ms", "≤ 20 ms", 1)}
    for key, (label, unit, target, digits) in labels.items():
        v = result.get(key)
        lines.append(f"{label:<38} {_fmt(v, digits):>8} {unit:<4} ({target})  "
                     f"{_mark(v, TARGETS[key])}")
        if key == "active_matches_rss_mib_per_10k" and result.get("loaded_matches_rss_mib") is not None:
            mem = (result.get("meta") or {}).get("memory") or {}
            label = f"{mem.get('loaded', 0):,} stored matches loaded, resident"
            lines.append(f"{label:<38} "
                         f"{_fmt(result['loaded_matches_rss_mib'], 1):>8} MiB  "
                         f"(state cache bounded at {mem.get('cache_size', 0):,}; no target)")
    meta = result.get("meta") or {}
    tick = meta.get("tick")
    if tick:
        lines.append(f"{'clock tick over the stored matches':<38} {_fmt(tick['seconds'], 2):>8} s    "
                     f"(loop held at most {_fmt(tick['loop_lag_max_ms'])} ms; no target)")
    for name, err in (meta.get("errors") or {}).items():
        lines.append(f"error in {name}: {err}")
    if meta:
        lines.append(f"plan {meta.get('plan')} · {meta.get('machine')} · Python {meta.get('python')}"
                     f" · {meta.get('seconds')} s · load average {meta.get('loadavg_start')} -> "
                     f"{meta.get('loadavg_end')}")
        if meta.get("store"):
            lines.append(f"host latency and loop lag on: {meta['store']}")
    return "\n".join(lines)
