"""Host command latency through the real :class:`host.Host`, a real SQLite file store and
``render=True``; picture cost (draw + encode vs encode only) and size; event-loop lag under
concurrent load."""
from __future__ import annotations

import asyncio
import os
import random
import statistics
import threading
import time
from typing import Any

from bench.workload import USER_BASE, players_for
from data.store import ACTIVE
from host import Host
from rules import registry


def percentile(xs: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    import math

    s = sorted(xs)
    k = math.ceil(q / 100 * len(s) - 1e-9)
    return s[max(0, min(len(s), k) - 1)]


class _Table:
    """A stream of random legal commands over a few concurrent matches of one game, through
    the host (challenge, accept, then whatever the prompts offer)."""

    def __init__(self, host: Host, name: str, rng: random.Random, user_base: int,
                 turn_seconds: int | None = 3600) -> None:
        self.host, self.name, self.rng = host, name, rng
        self.user_base = user_base
        self.turn_seconds = turn_seconds
        self.k = players_for(registry.get(name))
        self.n_matches = 0

    async def new_match(self) -> tuple[int, list]:
        base = self.user_base + self.n_matches * 16
        self.n_matches += 1
        users = [base + j for j in range(self.k)]
        locale = "ja" if self.n_matches % 2 == 0 else "en"
        res = await self.host.challenge(self.name, users[0], "アリス" if locale == "ja" else "Alice",
                                        opponents=[(u, f"Player {j + 2}") for j, u in enumerate(users[1:])],
                                        turn_seconds=self.turn_seconds, locale=locale,
                                        seed=self.rng.randrange(2**31))
        if not res.ok:
            raise RuntimeError(f"{self.name}: challenge failed: {res.error}")
        mid = res.match.id
        for u in users[1:]:
            res = await self.host.accept(mid, u)
            if not res.ok:
                raise RuntimeError(f"{self.name}: accept failed: {res.error}")
        return mid, res.prompts

    def pick(self, prompts: list) -> tuple[int, str] | None:
        options = [p for p in prompts if p.legal]
        if not options:
            return None
        p = self.rng.choice(options)
        return p.user_id, self.rng.choice(p.legal)


async def game_latency(name: str, store_path: str, n_commands: int, *, warmup: int = 5,
                       concurrent: int = 4, view_samples: int = 40,
                       rng: random.Random | None = None) -> dict[str, Any]:
    """Play ``n_commands`` random legal commands (after ``warmup`` unmeasured ones), one at a
    time, round-robin over ``concurrent`` live matches.

    ``latencies``: from calling ``host.command`` with a legal command until its row is committed
    and the new public picture is encoded (the moment ``render_png`` returns the public view's
    PNG in its worker thread; the host renders it right after the commit).
    ``result_latencies``: until ``host.command`` returns its whole Result (also every seat's
    private picture, when it differs from the public one, and the legal-command prompts)."""
    import render
    from data.store import open_store

    rng = rng or random.Random(7)
    store = await open_store(store_path)
    host = Host(store, render=True)
    table = _Table(host, name, rng, USER_BASE + 1_000_000)
    public_done: list[float] = []
    original = render.render_png

    def watched(game: str, view: dict, *a: Any, **kw: Any) -> bytes:
        png = original(game, view, *a, **kw)
        if view.get("seat") is None:
            public_done.append(time.perf_counter())
        return png

    render.render_png = watched
    try:
        live: list[tuple[int, list]] = [await table.new_match() for _ in range(concurrent)]
        lat: list[float] = []
        full: list[float] = []
        sizes: list[int] = []
        views: list[tuple[dict, dict]] = []
        done = 0
        i = 0
        perf = time.perf_counter
        while done < n_commands + warmup:
            i = (i + 1) % len(live)
            mid, prompts = live[i]
            choice = table.pick(prompts)
            if choice is None:
                live[i] = await table.new_match()
                continue
            uid, command = choice
            public_done.clear()
            t0 = perf()
            res = await host.command(mid, uid, command)
            dt = perf() - t0
            if not res.ok:
                raise RuntimeError(f"{name}: legal command {command!r} refused: {res.error}")
            done += 1
            if done > warmup:
                lat.append(public_done[0] - t0 if public_done else dt)
                full.append(dt)
                if res.public is not None and res.public.picture:
                    sizes.append(len(res.public.picture))
                    views.append((res.public.view, {
                        "locale": res.match.meta.get("locale", "en"), "names": list(res.match.names),
                        "clock": ({"deadline_in": res.match.turn_seconds,
                                   "turn_seconds": res.match.turn_seconds}
                                  if res.match.turn_seconds else None)}))
            if res.match.status != ACTIVE:
                live[i] = await table.new_match()
            else:
                live[i] = (mid, res.prompts)
    finally:
        render.render_png = original
        await store.close()
    step = max(1, len(views) // view_samples)
    return {"latencies": lat, "result_latencies": full, "png_sizes": sizes, "views": views[::step][:view_samples],
            "matches": table.n_matches}


def picture_cost(name: str, views: list[tuple[dict, dict]], reps: int = 3) -> dict[str, float]:
    """For each sampled public view: the picture as the host makes it (``render_png``: draw +
    encode) and the PNG encoding alone of the same final image (``encode_png`` of
    ``render_image``); best of ``reps`` each.  ratio = total picture time / total encode time."""
    from render import render_image, render_png
    from render.base import encode_png

    perf = time.perf_counter
    full = enc = 0.0
    for view, kw in views:
        best_full = best_enc = float("inf")
        for _ in range(reps):
            t0 = perf()
            render_png(name, view, **kw)
            best_full = min(best_full, perf() - t0)
        img = render_image(name, view, **kw)
        for _ in range(reps):
            t0 = perf()
            encode_png(img)
            best_enc = min(best_enc, perf() - t0)
        full += best_full
        enc += best_enc
    n = max(1, len(views))
    return {"ratio": full / enc if enc else 0.0, "picture_ms": 1000 * full / n,
            "encode_ms": 1000 * enc / n}


async def loop_lag(games: list[str], store_path: str, seconds: float, *, players: int = 8,
                   probe_interval: float = 0.002) -> dict[str, Any]:
    """Event-loop lag while ``players`` tasks play random matches concurrently (round-robin over
    ``games``) through one host with pictures on.  A probe sleeps ``probe_interval`` over and
    over; lag = how much later than asked it wakes.  Also counts pictures drawn on the loop's
    own thread (must be 0: the host renders in ``asyncio.to_thread``)."""
    import render
    from data.store import open_store

    store = await open_store(store_path)
    host = Host(store, render=True)
    loop_thread = threading.get_ident()
    counts = {"renders": 0, "on_loop": 0}
    original = render.render_png

    def watched(*a: Any, **kw: Any) -> bytes:
        counts["renders"] += 1
        if threading.get_ident() == loop_thread:
            counts["on_loop"] += 1
        return original(*a, **kw)

    render.render_png = watched
    stop = asyncio.Event()
    commands = [0]
    lags: list[float] = []

    async def player(k: int) -> None:
        name = games[k % len(games)]
        table = _Table(host, name, random.Random(100 + k), USER_BASE + 2_000_000 + k * 100_000)
        mid, prompts = await table.new_match()
        while not stop.is_set():
            choice = table.pick(prompts)
            if choice is None:
                mid, prompts = await table.new_match()
                continue
            res = await host.command(mid, *choice)
            if not res.ok:
                raise RuntimeError(f"{name}: legal command refused: {res.error}")
            commands[0] += 1
            if res.match.status != ACTIVE:
                mid, prompts = await table.new_match()
            else:
                prompts = res.prompts

    async def probe() -> None:
        perf = time.perf_counter
        while not stop.is_set():
            t0 = perf()
            await asyncio.sleep(probe_interval)
            lags.append(max(0.0, perf() - t0 - probe_interval))

    try:
        tasks = [asyncio.create_task(player(k)) for k in range(players)]
        await asyncio.sleep(0.5)          # let every player get going before probing
        probe_task = asyncio.create_task(probe())
        await asyncio.sleep(seconds)
        stop.set()
        await probe_task
        results = await asyncio.gather(*tasks, return_exceptions=True)
        errors = [r for r in results if isinstance(r, BaseException)]
        if errors:
            raise errors[0]
    finally:
        render.render_png = original
        await store.close()
    return {"p99_ms": 1000 * percentile(lags, 99) if lags else 0.0,
            "p50_ms": 1000 * statistics.median(lags) if lags else 0.0,
            "max_ms": 1000 * max(lags) if lags else 0.0, "samples": len(lags),
            "commands_per_s": commands[0] / seconds, "renders": counts["renders"],
            "renders_on_loop": counts["on_loop"], "players": players, "cpus": os.cpu_count()}


async def tick_lag(store_path: str, probe_interval: float = 0.002) -> dict[str, Any]:
    """The clock's ``host.tick()`` (every 30 s in the bot) over every stored unfinished match,
    with the same lag probe: how long it takes and how long it holds the event loop."""
    from data.store import open_store

    store = await open_store(store_path)
    host = Host(store, render=False)
    lags: list[float] = []
    stop = asyncio.Event()

    async def probe() -> None:
        perf = time.perf_counter
        while not stop.is_set():
            t0 = perf()
            await asyncio.sleep(probe_interval)
            lags.append(max(0.0, perf() - t0 - probe_interval))

    try:
        task = asyncio.create_task(probe())
        await asyncio.sleep(0.05)
        t0 = time.perf_counter()
        results = await host.tick()
        seconds = time.perf_counter() - t0
        stop.set()
        await task
    finally:
        await store.close()
    return {"seconds": seconds, "results": len(results),
            "loop_lag_p99_ms": 1000 * percentile(lags, 99) if lags else 0.0,
            "loop_lag_max_ms": 1000 * max(lags) if lags else 0.0}
