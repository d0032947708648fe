"""``python -m bench --clock [--quick] [--json FILE] [--database-url URL]``: clocks across days
with many stored matches on time banks (docs/clocks.md, "Numbers").  JSON key ``"clock"``.

- ``tick_s_100k`` — one clock tick (``host.tick()``, what the bot's 30-second clock loop calls)
  with 100,000 stored unfinished matches on time banks (the full plan; :mod:`bench.clock_store`
  says what they are: weekend pauses, vacations, players' zones and quiet hours, the steady
  state of a running bot and what falls due at one tick — reminders, banks run out, vacation
  days taken automatically with the player's other matches timed again).  The host is wired as
  the bot wires it (pictures on; a Result is ready when ``tick`` returns it, its private
  pictures being drawn after) and has run for days: each stored match was verified once by
  this process when it was last played (host/integrity.py).  Its clock is set to each
  measured tick's instant.  The slowest of ``rounds`` ticks, each with its own due matches
  (``meta.ticks``: each tick's time, matches listed, what it announced, and the milliseconds
  spent listing and on the matches by what each came to).  ``meta.cold_tick``: one more tick
  on a host that has just started (each due match's whole log replayed before it is served).
  Target ≤ 0.2 s.
- ``tick_loop_hold_ms`` — the longest the event loop was held while those ticks ran, the
  cold one included (a 5 ms timer on the loop, how late it fired:
  :func:`bench.stats._watching`).  Target ≤ 20 ms.
- ``turns_ms_p99`` — ``/turns`` for a player waited on in 100 matches across three servers: the
  host's list of games waiting on them (``PlayerClock(host).turns``: the waiting rows joined
  with the match records) and its pages in words, p99 over ``turns_calls`` calls (each
  language in turn).  Target ≤ 200 ms.
- ``tick_hang_s`` — how long one tick takes while PostgreSQL is frozen (every process of the
  server stopped, as in a network partition, thawed after 35 s: ``tests/faults.py``), on a
  server of the bench's own with ``hang_stored`` matches: the slower of the server frozen
  before the tick and frozen just after the tick listed what is due.  Target: within the host's
  call deadline, ``TICK_SECONDS`` + 1 s.  ``null`` (``meta.hang.why`` says why) without
  PostgreSQL server binaries, or in the tiny plan.

With ``--database-url`` the first three run on that PostgreSQL database (its schema is made,
then the matches are written into it: use an empty database) instead of a fresh SQLite file
(``synchronous=FULL``, as the bot opens it).  The JSON: ``{"clock": {figure: value}, "meta"}``.
"""
from __future__ import annotations

import asyncio
import collections
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from bench import clock_store as CS
from bench.targets import missed, table_line
from host.clock import TICK_SECONDS

Log = Callable[[str], None]

PLANS: dict[str, dict[str, Any]] = {
    "full": {"stored": 100_000, "templates": 20, "rounds": 3, "turns": 100, "turns_calls": 300,
             "hang_stored": 5_000},
    "quick": {"stored": 20_000, "templates": 6, "rounds": 2, "turns": 100, "turns_calls": 200,
              "hang_stored": 2_000},
    "tiny": {"stored": 120, "templates": 1, "rounds": 1, "turns": 10, "turns_calls": 10, "hang_stored": 0},
}
FREEZE_S = 35.0
TARGETS: dict[str, tuple[str, float]] = {
    "tick_s_100k": ("<=", 0.2),
    "tick_loop_hold_ms": ("<=", 20.0),
    "turns_ms_p99": ("<=", 200.0),
    "tick_hang_s": ("<=", TICK_SECONDS + 1.0),      # the tick's own deadline and a second of slack
}
LABELS: dict[str, tuple[str, str]] = {
    "tick_s_100k": ("one clock tick among the stored bank matches", "s"),
    "tick_loop_hold_ms": ("the event loop held during the tick, max", "ms"),
    "turns_ms_p99": ("/turns, 100 games waiting, p99", "ms"),
    "tick_hang_s": ("one tick while PostgreSQL is frozen 35 s", "s"),
}


def _p99(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.99 * (len(xs) - 1))))] if xs else 0.0


async def _templates(n: int, rng: random.Random) -> list[CS.Shape]:
    from bench.workload import play_templates
    from rules import registry

    return CS.shapes(await play_templates(list(registry.names()), n, rng))


def _host(store: Any, now: list[float]) -> Any:
    """The host as the bot wires it (:func:`bench.latency.bot_host`), its clock at ``now[0]``."""
    from bench.latency import bot_host

    host = bot_host(store)
    host.now = lambda: now[0]
    return host


def _kinds(results: list[Any]) -> dict[str, int]:
    """What a tick announced: its results by ``data["clock"]`` (``retimed``: a match timed again
    because a vacation day was taken)."""
    return dict(collections.Counter(r.data.get("clock") or "retimed" for r in results))


async def _warm(host: Any, plans: list[CS.Plan]) -> None:
    """A running bot has loaded each game and drawn boards before its clock ticks: one board of
    a match of every game that is not due."""
    seen: set[str] = set()
    for i, p in enumerate(plans, 1):
        game = p.shape.template.record.game
        if p.kind == "bulk" and game not in seen:
            seen.add(game)
            res = await host.status(i)
            if not res.ok:
                raise RuntimeError(f"a stored {game} match does not load: {res.error}")


async def _one_tick(host: Any, store: Any, at: float, now: list[float]) -> dict[str, Any]:
    """One ``host.tick()`` at ``at``: its seconds, the longest the loop was held meanwhile, the
    matches the store listed, what it announced, and where the time went (the listing, and the
    matches by what each came to: ``nothing`` for a listed match with nothing to announce — a
    notice already given, a secret window's reminder)."""
    from bench.stats import _watching

    now[0] = at
    parts: collections.Counter = collections.Counter()
    listed: list[int] = []
    due, one = store.matches_due, host._tick_one

    async def listing(*a: Any, **kw: Any) -> Any:
        t0 = time.perf_counter()
        out = await due(*a, **kw)
        parts["listing"] += time.perf_counter() - t0
        listed.append(len(out))
        return out

    async def each(rec: Any, at_: float) -> Any:
        t0 = time.perf_counter()
        res = await one(rec, at_)
        parts[(res.data.get("clock") if res is not None else None) or "nothing"] += time.perf_counter() - t0
        return res

    store.matches_due, host._tick_one = listing, each
    lags: list[float] = []
    try:
        t0 = time.perf_counter()
        results = await _watching(host.tick(), lags)
        seconds = time.perf_counter() - t0
    finally:
        del store.matches_due, host._tick_one
    for r in results:               # the front end waits for the private pictures before it sends
        await r.ready()
    return {"s": seconds, "hold_ms": max(lags, default=0.0), "listed": sum(listed), "announced": _kinds(results),
            "parts_ms": {k: round(v * 1000, 1) for k, v in parts.most_common()}}


async def _ticks(store: Any, plans: list[CS.Plan], rounds: int, log: Log) -> tuple[dict, dict]:
    """``rounds`` ticks of a bot that has run for days (each stored match verified once by this
    process when it was last played: host/integrity.py), then one of a bot that has just
    started (every due match's whole log replayed before it is served)."""
    from host.runtime import settle

    now = [CS.NOW0]
    host = _host(store, now)
    for mid in range(1, len(plans) + 1):
        host._verified.add(mid)
    await _warm(host, plans)
    settle()                        # as bot.py does once it has started
    ticks = []
    for k in range(rounds):
        ticks.append(await _one_tick(host, store, CS.NOW0 + k * CS.TICK_GAP, now))
        t = ticks[-1]
        log(f"clock: tick {k + 1}: {t['s']:.3f} s, loop held {t['hold_ms']:.1f} ms at most; {t['listed']} listed, "
            f"{t['announced']}; ms {t['parts_ms']}")
    cold_host = _host(store, now)
    await _warm(cold_host, plans)
    cold = await _one_tick(cold_host, store, CS.NOW0 + rounds * CS.TICK_GAP, now)
    log(f"clock: a tick just after a restart: {cold['s']:.3f} s, loop held {cold['hold_ms']:.1f} ms; "
        f"ms {cold['parts_ms']}")
    figures = {"tick_s_100k": round(max(t["s"] for t in ticks), 4),
               "tick_loop_hold_ms": round(max(t["hold_ms"] for t in ticks + [cold]), 1)}
    for t in ticks + [cold]:
        t["s"], t["hold_ms"] = round(t["s"], 4), round(t["hold_ms"], 1)
    return figures, {"ticks": ticks, "cold_tick": cold}


async def _turns(store: Any, calls: int, log: Log) -> tuple[dict, dict]:
    """``/turns`` for :data:`bench.clock_store.TURNS_USER` (see the module doc)."""
    from host.clocks import turns as T
    from host.player_clock import PlayerClock, Sight

    def sight(guild_id: int, channel_id: int | None) -> Sight:
        # what the cog finds in Discord's cache: the player shares each server and channel
        return Sight(True, f"Server {guild_id}", f"https://discord.com/channels/{guild_id}/{channel_id}")

    now = [CS.NOW0]
    service = PlayerClock(_host(store, now))
    times: list[float] = []
    entries = pages = 0
    for i in range(calls + 1):
        locale = "ja" if i % 2 else "en"
        t0 = time.perf_counter()
        rows = await service.turns(CS.TURNS_USER, sight)
        texts = T.pages(rows, locale)
        ms = (time.perf_counter() - t0) * 1000
        if i:                       # the first call loads what a running bot has loaded
            times.append(ms)
        entries, pages = len(rows), len(texts)
    log(f"clock: /turns {calls} calls, p99 {_p99(times):.1f} ms ({entries} games, {pages} pages)")
    return ({"turns_ms_p99": round(_p99(times), 2)},
            {"turns_ms_median": round(statistics.median(times), 2), "turns_entries": entries, "turns_pages": pages})


async def _measure(url: str, plans: list[CS.Plan], cfg: dict, log: Log) -> tuple[dict, dict]:
    from data.store import open_store

    store = await open_store(url)
    try:
        figures, meta = await _ticks(store, plans, cfg["rounds"], log)
        more, extra = await _turns(store, cfg["turns_calls"], log)
        figures.update(more)
        meta.update(extra)
        return figures, meta
    finally:
        await store.close()


def _faults() -> Any:
    """tests/faults.py (a PostgreSQL server of the bench's own, frozen and thawed)."""
    tests = str(Path(__file__).resolve().parent.parent / "tests")
    if tests not in sys.path:
        sys.path.append(tests)         # (last: tests/data must not hide the data package)
    import faults

    return faults


async def _hang_ticks(url: str, server: Any, faults: Any, log: Log) -> dict:
    """One tick with the server frozen before it, one frozen just after the tick listed what is
    due, then one after the thaw."""
    from data.store import open_store

    store = await open_store(url)
    now = [CS.NOW0]
    host = _host(store, now)
    out: dict[str, Any] = {}
    try:
        await host.status(1)
        for case in ("before", "after_listing"):
            due = store.matches_due

            async def then_freeze(*a: Any, _due: Any = due, **kw: Any) -> Any:
                got = await _due(*a, **kw)
                faults.freeze(server)
                return got

            if case == "after_listing":
                store.matches_due = then_freeze
            else:
                faults.freeze(server)
            timer = asyncio.get_running_loop().call_later(FREEZE_S, faults.thaw, server)
            try:
                t0 = time.perf_counter()
                results = await host.tick()
                out[case] = {"s": round(time.perf_counter() - t0, 2), "announced": _kinds(results)}
            finally:
                timer.cancel()
                faults.thaw(server)
                store.__dict__.pop("matches_due", None)
            when = "before the tick" if case == "before" else "just after the tick listed what is due"
            log(f"clock: a tick with PostgreSQL frozen {when}: {out[case]['s']} s")
        t0 = time.perf_counter()
        results = await host.tick()
        out["after_thaw"] = {"s": round(time.perf_counter() - t0, 3), "announced": _kinds(results)}
        for r in results:
            await r.ready()
        log(f"clock: the next tick after the thaw: {out['after_thaw']}")
    finally:
        await store.close()
    return out


class _Counted(logging.Handler):
    """The warnings logged while the server is frozen, counted by logger instead of printed
    (the store's "database timeout", asyncpg's pool): the figure is what matters here."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: collections.Counter = collections.Counter()

    def emit(self, record: logging.LogRecord) -> None:
        self.seen[record.name] += 1


def _hang(cfg: dict, shapes: list[CS.Shape], rng: random.Random, log: Log) -> tuple[float | None, dict]:
    """``tick_hang_s`` (module doc) and how it was measured; None and why when it cannot be."""
    if not cfg["hang_stored"]:
        return None, {"why": "not measured in the tiny plan (it freezes a server for up to 35 s)"}
    try:
        faults = _faults()
    except ImportError as e:
        return None, {"why": f"tests/faults.py cannot be loaded: {e}"}
    counted = _Counted()
    logging.getLogger().addHandler(counted)
    try:
        return _hang_on_own_server(cfg, shapes, rng, faults, log, counted)
    finally:
        logging.getLogger().removeHandler(counted)


def _hang_on_own_server(cfg: dict, shapes: list[CS.Shape], rng: random.Random, faults: Any, log: Log,
                        counted: _Counted) -> tuple[float | None, dict]:
    try:
        with faults.own_pg_server(skip=False) as server:
            url = faults.create_database_sync(server)

            async def build() -> None:
                from data.store import open_store

                await (await open_store(url)).close()
                plans, world = CS.plans(shapes, cfg["hang_stored"], 1, 0, rng)
                await CS.write_postgres(url, plans, world)

            asyncio.run(build())
            got = asyncio.run(_hang_ticks(url, server, faults, log))
    except faults.Unavailable as e:
        return None, {"why": f"no PostgreSQL server: {e}"}
    got.update(stored=cfg["hang_stored"], frozen_s=FREEZE_S, tick_seconds=TICK_SECONDS, warnings=dict(counted.seen))
    return max(got["before"]["s"], got["after_listing"]["s"]), got


def run_clock(plan: str = "full", log: Log = lambda s: None, database_url: str | None = None) -> dict[str, Any]:
    cfg = PLANS[plan]
    rng = random.Random(48)
    t0 = time.perf_counter()
    shapes = asyncio.run(_templates(cfg["templates"], rng))
    log(f"clock: {len(shapes)} unfinished matches played in {time.perf_counter() - t0:.0f} s")
    t0 = time.perf_counter()
    plans, world = CS.plans(shapes, cfg["stored"], cfg["rounds"] + 1, cfg["turns"], rng)
    kinds = dict(collections.Counter(p.kind for p in plans))
    log(f"clock: {len(plans)} matches planned in {time.perf_counter() - t0:.0f} s: {kinds}")
    with tempfile.TemporaryDirectory() as tmp:
        url = database_url or os.path.join(tmp, "clock.db")

        async def schema() -> None:
            from data.store import open_store

            await (await open_store(url)).close()
            if database_url:
                await CS.write_postgres(url, plans, world, log)
        t0 = time.perf_counter()
        asyncio.run(schema())
        if not database_url:
            CS.write_sqlite(url, plans, world, log)
        log(f"clock: {len(plans)} matches stored in {time.perf_counter() - t0:.0f} s")
        figures, meta = asyncio.run(_measure(url, plans, cfg, log))
    figures["tick_hang_s"], meta["hang"] = _hang(cfg, shapes, rng, log)
    meta.update(plan=plan, stored=cfg["stored"], kinds=kinds, due_per_tick=CS.due_counts(cfg["stored"]),
                players=len(world.users), with_settings=len(world.settings),
                with_vacations=len(world.vacations), store="postgresql" if database_url else "sqlite",
                cpus=os.cpu_count())
    return {"clock": figures, "meta": meta}


def misses(result: dict[str, Any]) -> list[str]:
    """The targets missed, in words (empty: every target holds)."""
    return missed(result.get("clock") or {}, TARGETS, LABELS)


def format_clock(result: dict[str, Any]) -> str:
    lines = [table_line(key, value, TARGETS, LABELS, width=46) for key, value in (result.get("clock") or {}).items()]
    meta = result.get("meta") or {}
    for t in meta.get("ticks") or []:
        lines.append(f"  tick {t['s']} s: {t['listed']} listed, announced {t['announced']}; ms {t['parts_ms']}")
    if meta.get("cold_tick"):
        c = meta["cold_tick"]
        lines.append(f"  just after a restart {c['s']} s (every due match's log replayed); ms {c['parts_ms']}")
    hang = meta.get("hang") or {}
    if "why" in hang:
        lines.append(f"  tick_hang_s not measured: {hang['why']}")
    elif hang:
        lines.append(f"  frozen before the tick {hang['before']['s']} s, just after its listing "
                     f"{hang['after_listing']['s']} s; the next tick after the thaw {hang['after_thaw']['s']} s")
    lines.append(f"plan {meta.get('plan')} · {meta.get('stored')} stored bank matches · due per tick "
                 f"{meta.get('due_per_tick')} · {meta.get('store')} · {meta.get('cpus')} CPUs")
    return "\n".join(lines)


__all__ = ["run_clock", "format_clock", "misses", "TARGETS", "LABELS", "PLANS"]
