"""``python -m bench --scale`` (issue 18, docs/scale.md): what one bot process can carry.

- **commands/s** — ``players`` tasks play random matches of every game as fast as they can
  through one :class:`host.Host` wired as the bot wires it (SQLite file with
  ``synchronous=FULL``, or ``--database-url``; pictures on, private pictures awaited), for
  ``seconds``: the commands committed per second, i.e. the ceiling of one process's host
  (Discord's side is measured by ``--discord``: REST calls per command).
  The same is measured with pictures off: the host and the database alone.
- **database per command** — write transactions and read sessions the host opens per command
  (counted on the store's own ``_write``/``_read``), and the rows a command appends.
- **pictures per command** — public and private pictures drawn per command, and the render
  slot's busy share: the time spent drawing and encoding ÷ wall time (one slot per process,
  ``render.SLOTS``, so 100 % is the picture worker's ceiling).
- **memory per active match** — resident memory per match in the state cache (the same child
  process as the main benchmark's "10,000 active matches").
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from bench.latency import bot_host, play_until
from bench.workload import USER_BASE, seed_database
from rules import registry

# ``templates``: matches a game played through the host before the stored ones are copied from
# them (bench.workload.seed_database); the smoke test's few are enough to prove every figure is made
PLANS = {"full": {"seconds": 30.0, "players": 16, "stored": 10_000, "templates": 100},
         "quick": {"seconds": 8.0, "players": 16, "stored": 2_000, "templates": 100},
         "tiny": {"seconds": 1.0, "players": 4, "stored": 50, "templates": 5}}


def _count(store: Any, name: str, counter: dict[str, int]) -> None:
    """Count the store's ``name`` sessions (its own context manager) as they open."""
    original = getattr(store, name)

    @contextlib.asynccontextmanager
    async def counted(*a: Any, **kw: Any):
        counter[name] += 1
        async with original(*a, **kw) as c:
            yield c

    setattr(store, name, counted)


async def throughput(games: list[str], seconds: float, players: int, database_url: str | None = None,
                     pictures_on: bool = True) -> dict[str, Any]:
    import render
    from data.store import open_store

    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(database_url or str(Path(tmp) / "scale.db"))
        host = bot_host(store, render=pictures_on)
        counter = {"_write": 0, "_read": 0}
        for name in counter:
            _count(store, name, counter)
        pictures = {"n": 0, "busy": 0.0}
        originals = {"render_image": render.render_image, "encode_png": render.encode_png}

        def timed(fn: Callable, counts: bool) -> Callable:
            def inner(*a: Any, **kw: Any) -> Any:      # inside the render slot: drawing, encoding
                t0 = time.perf_counter()
                try:
                    return fn(*a, **kw)
                finally:
                    pictures["busy"] += time.perf_counter() - t0
                    pictures["n"] += counts
            return inner

        render.render_image = timed(originals["render_image"], True)
        render.encode_png = timed(originals["encode_png"], False)
        stop = asyncio.Event()
        done = {"commands": 0}
        per_game: dict[str, int] = {g: 0 for g in games}

        def played(name: str) -> None:
            if counting[0]:
                done["commands"] += 1
                per_game[name] += 1

        async def player(k: int) -> None:
            await play_until(stop, host, games[k % len(games)], random.Random(500 + k),
                             USER_BASE + 5_000_000 + k * 100_000, played)

        counting = [False]
        try:
            tasks = [asyncio.create_task(player(k)) for k in range(players)]
            await asyncio.sleep(min(1.0, seconds / 4))          # warm up: matches started
            base = dict(counter), dict(pictures)
            counting[0] = True
            t0, cpu0 = time.perf_counter(), time.process_time()
            await asyncio.sleep(seconds)
            counting[0] = False
            wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
            after = dict(counter), dict(pictures)
            stop.set()
            results = await asyncio.gather(*tasks, return_exceptions=True)
            errors = [r for r in results if isinstance(r, BaseException)]
            if errors:
                raise errors[0]
        finally:
            render.render_image, render.encode_png = originals["render_image"], originals["encode_png"]
            await store.close()
    n = max(1, done["commands"])
    return {"commands_per_s": round(done["commands"] / wall, 1),
            "commands_per_cpu_s": round(done["commands"] / max(cpu, 1e-9), 1),
            "write_transactions_per_command": round((after[0]["_write"] - base[0]["_write"]) / n, 2),
            "read_sessions_per_command": round((after[0]["_read"] - base[0]["_read"]) / n, 2),
            "pictures_per_command": round((after[1]["n"] - base[1]["n"]) / n, 2),
            "picture_busy_share": round((after[1]["busy"] - base[1]["busy"]) / wall, 2),
            "commands": done["commands"], "per_game": per_game, "players": players,
            "seconds": round(wall, 1), "cpus": os.cpu_count(),
            "store": "postgresql" if database_url else "sqlite"}


def run_scale(plan: str = "full", games: list[str] | None = None, log: Callable[[str], None] = lambda s: None,
              database_url: str | None = None) -> dict[str, Any]:
    from bench import measure_memory

    cfg = PLANS[plan]
    games = list(games or registry.names())
    log(f"scale: {cfg['players']} players for {cfg['seconds']} s …")
    out: dict[str, Any] = {"meta": {"plan": plan, **cfg, "loadavg": _load()}}
    out["throughput"] = asyncio.run(throughput(games, cfg["seconds"], cfg["players"], database_url))
    log("scale: the same without pictures (the host and the database alone) …")
    out["without_pictures"] = asyncio.run(throughput(games, cfg["seconds"] / 2, cfg["players"], database_url,
                                                     pictures_on=False))
    log(f"scale: memory with {cfg['stored']} active matches …")
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "stored.db")
        seed_database(db, cfg["stored"], games, distinct=cfg["templates"])
        mem = measure_memory(db, cfg["stored"])
    out["memory_kib_per_active_match"] = round(mem["mib_per_10k"] * 1024 / 10_000, 1)
    out["meta"]["loadavg_after"] = _load()
    return out


def _load() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def format_scale(result: dict[str, Any]) -> str:
    t = result["throughput"]
    lines = [
        f"commands/s one process carries ({t['players']} players, {t['store']}, pictures on)   "
        f"{t['commands_per_s']:,.1f}  ({t['commands_per_cpu_s']:,.1f} per CPU-second)",
        f"  without pictures (the host and the database alone)      "
        f"{result['without_pictures']['commands_per_s']:,.1f}",
        f"write transactions per command                          {t['write_transactions_per_command']}",
        f"read sessions per command                               {t['read_sessions_per_command']}",
        f"pictures per command (public + private)                 {t['pictures_per_command']}",
        f"picture worker busy share                               {t['picture_busy_share']:.0%}",
        f"resident memory per active match                        {result['memory_kib_per_active_match']} KiB",
        f"plan {result['meta']['plan']} · {t['cpus']} CPUs · {t['seconds']} s · "
        f"load average {result['meta']['loadavg']} -> {result['meta'].get('loadavg_after')}",
    ]
    return "\n".join(lines)


def misses(result: dict[str, Any]) -> list[str]:
    return []       # no targets: the figures feed docs/scale.md
