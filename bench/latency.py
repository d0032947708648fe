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
from typing import Any, Callable

from bench.workload import USER_BASE, players_for
from data.store import ACTIVE
from host import Host
from rules import registry


GUILD_ID = 1


def bot_host(store: Any, *, render: bool = True) -> Host:
    """A host wired as the bot wires it: the records cog's ``on_finish`` first (ratings in every
    scope of the guild), then the leagues cog's, so a command that ends a match costs what it
    costs in the bot."""
    from host.league_service import Leagues
    from host.records import Records

    host = Host(store, render=render)
    records = Records(store, now=host.now)
    leagues = Leagues(store, host, now=host.now)
    host.on_finish.insert(0, records.on_finish)
    host.on_finish.append(leagues.on_finish)
    return host


def percentile(xs: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    import math

    s = sorted(xs)
    k = math.ceil(q / 100 * len(s) - 1e-9)
    return s[max(0, min(len(s), k) - 1)]


async def _probe(stop: asyncio.Event, lags: list[float], interval: float) -> None:
    """Sleep ``interval`` over and over until ``stop``; append how much later than asked each
    wake-up came (the event loop's lag)."""
    perf = time.perf_counter
    while not stop.is_set():
        t0 = perf()
        await asyncio.sleep(interval)
        lags.append(max(0.0, perf() - t0 - interval))


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
                                        guild_id=GUILD_ID, channel_id=base,
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


async def play_until(stop: asyncio.Event, host: Host, name: str, rng: random.Random, user_base: int,
                     played: Callable[[str], None]) -> None:
    """One player playing random matches of ``name`` as fast as it can until ``stop``: every
    command through ``host.command``, its private pictures awaited; ``played(name)`` after each."""
    table = _Table(host, name, rng, user_base)
    mid, prompts = await table.new_match()
    while not stop.is_set():
        choice = table.pick(prompts)
        if choice is None:
            mid, prompts = await table.new_match()
            continue
        res = await host.command(mid, *choice)
        await res.ready()
        if not res.ok:
            raise RuntimeError(f"{name}: legal command refused: {res.error}")
        played(name)
        if res.match.status != ACTIVE:
            mid, prompts = await table.new_match()
        else:
            prompts = res.prompts


async def game_latency(name: str, store_path: str, n_commands: int, *, warmup: int = 5,
                       concurrent: int = 4, view_samples: int = 40,
                       rng: random.Random | None = None) -> dict[str, Any]:
    """Play ``n_commands`` random legal commands (after ``warmup`` unmeasured ones), one at a
    time, round-robin over ``concurrent`` live matches.

    ``latencies``: from calling ``host.command`` with a legal command until its row is committed
    and the new public picture is encoded (the moment ``render_png`` returns the public view's
    PNG in its worker thread; the host renders it right after the commit).
    ``result_latencies``: until the whole Result is ready (``host.command`` returns once the
    public picture is drawn; ``Result.ready()`` then waits for every seat's private picture,
    when it differs from the public one, as a front end does before sending the DMs).
    ``end_latencies``: the ``latencies`` of the commands that ended their match (those also
    record the result and the ratings, as in the bot: see :func:`bot_host`)."""
    import render
    from data.store import open_store

    rng = rng or random.Random(7)
    store = await open_store(store_path)
    host = bot_host(store)
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
        end_lat: list[float] = []
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
            await res.ready()   # as a front end does before it sends the DMs
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
                if done > warmup:
                    end_lat.append(lat[-1])
                live[i] = await table.new_match()
            else:
                live[i] = (mid, res.prompts)
    finally:
        render.render_png = original
        await store.close()
    step = max(1, len(views) // view_samples)
    return {"latencies": lat, "result_latencies": full, "png_sizes": sizes, "views": views[::step][:view_samples],
            "matches": table.n_matches, "end_latencies": end_lat}


def picture_cost(name: str, views: list[tuple[dict, dict]], reps: int = 3) -> dict[str, float]:
    """For each sampled public view: the picture as the host makes it (``render_png``: draw +
    encode) and the PNG encoding alone of the same final image (``encode_png`` of
    ``render_image``); best of ``reps`` each, taken in turn.  ratio = total picture time /
    total encode time."""
    from render import render_image, render_png
    from render.base import encode_png

    perf = time.perf_counter
    full = enc = 0.0
    for view, kw in views:
        best_full = best_enc = float("inf")
        img = render_image(name, view, **kw)
        for _ in range(reps):   # interleaved, so a burst of load from elsewhere hits both
            t0 = perf()
            render_png(name, view, **kw)
            best_full = min(best_full, perf() - t0)
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
    host = bot_host(store)
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

    def counted(name: str) -> None:
        commands[0] += 1

    async def player(k: int) -> None:
        await play_until(stop, host, games[k % len(games)], random.Random(100 + k),
                         USER_BASE + 2_000_000 + k * 100_000, counted)

    try:
        tasks = [asyncio.create_task(player(k)) for k in range(players)]
        await asyncio.sleep(0.5)          # let every player get going before probing
        probe_task = asyncio.create_task(_probe(stop, lags, probe_interval))
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

    try:
        task = asyncio.create_task(_probe(stop, lags, probe_interval))
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
