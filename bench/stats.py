"""``python -m bench --stats [--quick] [--json FILE]``: a server's statistics (issue 37) with
many stored finished matches in that server (100,000 in the full plan).

- ``update_ms_p99`` — the statistics of one match counted when it ends (what the host's
  finished-match hook does: :meth:`host.stats.service.Stats.count` — its log read, its public
  facts replayed from it in a worker thread, its counters added in one transaction), over
  ``updates`` matches of every game on the store that already holds the stored ones.  Target
  ≤ 20 ms.
- ``report_ms_p99`` — a ``/stats`` answer with its picture, as the cog makes it
  (:meth:`cogs.stats.Stats.page`: the figures read and summed, every name in the reader's
  language, the matchup picture drawn and encoded), for every game, both languages, the whole
  server and the season, the first page and a page of cards.  Each game's first answer warms
  its fonts and card texts (its time is in ``meta``) and is not counted.  Target ≤ 300 ms.
- ``rebuild_s`` — the server's statistics rebuilt (``python bot.py --rebuild-stats``,
  :mod:`host.stats.rebuild`: every stored match counted again, what its replay says taken from
  the facts stored when it was counted — they are of this facts version — its record read
  again).  Target ≤ 60 s.  The counters and facts after it are compared with those before it
  (``meta.rebuild_same``: the same statistics).
- ``rebuild_loop_ms`` — the longest the event loop was held while the rebuild ran (a 5 ms timer
  on the loop, how late it fired).  Target ≤ 20 ms.
- ``meta.replay`` — what a rebuild costs for matches it must replay (never counted, counted under
  another facts version): ``replay_sample`` stored matches replayed through the rebuild's worker
  processes (``replay=True``'s path, workers started included), milliseconds a match, and that
  rate for every stored match (``all_s``: an extrapolation, not a measurement).

The stored matches are copies of finished matches played through the real host (random legal
play, random ready-made decks; :func:`bench.workload.copy_templates`), each counted as the hook
would have counted it (its facts with its own id and players), written in one set-up
transaction: set-up, not what is measured.  The JSON: ``{"stats": {figure: value}, "meta"}``.
"""
from __future__ import annotations

import asyncio
import os
import random
import statistics
import tempfile
import time
from typing import Any, Callable

from bench.targets import missed, table_line
from bench.workload import GUILD_ID, Template, copy_templates

Log = Callable[[str], None]

PLANS: dict[str, dict[str, Any]] = {
    "full": {"stored": 100_000, "templates": 24, "updates": 200, "rebuild": True, "replay_sample": 2000},
    "quick": {"stored": 10_000, "templates": 10, "updates": 100, "rebuild": True, "replay_sample": 1000},
    "tiny": {"stored": 60, "templates": 2, "updates": 5, "rebuild": True, "replay_sample": 40},
}
TARGETS: dict[str, tuple[str, float]] = {
    "update_ms_p99": ("<=", 20.0),
    "report_ms_p99": ("<=", 300.0),
    "rebuild_s": ("<=", 60.0),              # issue 46: 100,000 stored matches
    "rebuild_loop_ms": ("<=", 20.0),        # issue 46: the loop never held longer while it runs
}
LABELS: dict[str, tuple[str, str]] = {
    "update_ms_p99": ("one finished match counted, p99", "ms"),
    "report_ms_p99": ("a /stats answer with its picture, p99", "ms"),
    "rebuild_s": ("the server's statistics rebuilt", "s"),
    "rebuild_loop_ms": ("the event loop held during the rebuild, max", "ms"),
}
GAMES = ("squares", "logic_square", "maken", "art_of_war", "avalon")
MAX_COMMANDS = 400            # a random match still running then is resigned


def _p99(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.99 * (len(xs) - 1))))] if xs else 0.0


async def finished_templates(games: list[str], per_game: int, rng: random.Random) -> dict[str, list[Template]]:
    """``per_game`` finished matches of every game played through the real host on an in-memory
    store — each seat with a random ready-made deck (card games), random legal commands until
    the game ends or ``MAX_COMMANDS``, then seat 0 resigns — read back as the store holds them."""
    from data.sqlite_store import SqliteStore
    from data.store import FINISHED
    from host import Host
    from host.replay import _initial_state, _step
    from rules import registry

    store = SqliteStore(":memory:")
    await store.open()
    try:
        host = Host(store, render=False, rng=random.Random(rng.randrange(2 ** 63)))
        out: dict[str, list[Template]] = {}
        for name in games:
            game = registry.get(name)
            ready = list(game.decks.ready()) if getattr(game, "decks", None) is not None else []
            out[name] = []
            for t in range(per_game):
                a, b = 10_000_000 + 2 * t, 10_000_001 + 2 * t
                decks = [rng.choice(ready) if ready else None for _ in range(2)]
                res = await host.challenge(name, a, "P1", opponents=[(b, "P2")], guild_id=GUILD_ID, channel_id=5,
                                           seed=rng.randrange(2 ** 31), deck=decks[0], locale="ja" if t % 2 else "en")
                if not res.ok:
                    raise RuntimeError(f"{name}: challenge refused: {res.error}")
                mid = res.match.id
                if not (await host.accept(mid, b, deck=decks[1])).ok:
                    raise RuntimeError(f"{name}: accept refused")
                for _ in range(MAX_COMMANDS):
                    rec = await store.get_match(mid)
                    if rec.status == FINISHED:
                        break
                    state = _initial_state(game, rec)
                    for c in await store.commands(mid):
                        state = _step(game, state, c.seat, c.command)
                    seats = [s for s in game.to_act(state) if game.legal_commands(state, s)]
                    seat = rng.choice(seats)
                    done = await host.command(mid, rec.seats[seat], rng.choice(game.legal_commands(state, seat)))
                    if not done.ok:
                        raise RuntimeError(f"{name}: a legal command refused: {done.error}")
                rec = await store.get_match(mid)
                if rec.status != FINISHED:
                    await host.resign(mid, rec.seats[0])
                    rec = await store.get_match(mid)
                out[name].append(Template(rec, await store.commands(mid)))
        return out
    finally:
        await store.close()


async def _facts_of_templates(templates: dict[str, list[Template]]) -> dict[int, dict]:
    """Each template's public facts, as the hook counts them (by the template's id)."""
    from data.sqlite_store import SqliteStore
    from host import Host
    from host.stats.service import Stats

    store = SqliteStore(":memory:")
    await store.open()
    try:
        stats = Stats(store, Host(store, render=False))
        out = {}
        for pool in templates.values():
            for t in pool:
                facts = await stats.facts_of(t.record, t.commands)
                facts["season"] = 1
                out[t.record.id] = facts
        return out
    finally:
        await store.close()


def seed(path: str, templates: dict[str, list[Template]], facts: dict[int, dict], n: int, counted: int,
         games: list[str]) -> None:
    """``n`` stored finished matches in the SQLite file ``path``, the first ``counted`` of them
    counted as the hook counts them (one transaction; then the summed counters)."""
    import sqlite3

    from data.rows import dumps
    from data.sql_stats import _rows
    from host.stats import aggregate as AG

    sums: dict[tuple, list] = {}

    def each(db: Any, i: int, match_id: int, rec: Any, t: Template) -> None:
        if i >= counted:
            return
        base = facts[t.record.id]
        f = dict(base, match=match_id, names=list(rec.names),
                 seats=[dict(s, user=rec.seats[k]) for k, s in enumerate(base["seats"])])
        db.execute("INSERT INTO stats_matches (match_id, guild_id, game, finished_at, league_id, season, facts) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)", (match_id, rec.guild_id, rec.game, float(f["finished_at"]),
                                                     None, 1, dumps(f, "facts")))
        for key, (k, score) in AG.increments(f).items():
            row = sums.setdefault((rec.game, key), [0, 0.0])
            row[0] += k
            row[1] += score

    copy_templates(path, templates, n, games, each=each)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        for (game, key), (k, score) in sums.items():
            counts, users = _rows(GUILD_ID, game, {key: (k, score)})
            db.executemany("INSERT INTO stats_counts (guild_id, game, split, scope, key, n, score) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?)", counts)
            db.executemany("INSERT INTO stats_users (user_id, guild_id, game, key, n, score) VALUES (?, ?, ?, ?, ?, ?) "
                           "ON CONFLICT (user_id, guild_id, game, key) DO UPDATE SET n = n + excluded.n, "
                           "score = score + excluded.score", users)
        db.execute("COMMIT")
    finally:
        db.close()


def _tables(path: str) -> dict[str, tuple[int, str]]:
    """The statistics tables of the SQLite file as ``(rows, digest)`` each (each match's facts
    decoded and written back in one order): what a rebuild must give again.  Only digests are
    kept: holding every row would make the garbage collector's passes during the rebuild long."""
    import hashlib
    import json
    import sqlite3

    db = sqlite3.connect(path)
    out = {}
    try:
        for name, sql in (("counts", "SELECT guild_id, game, split, scope, key, n, score FROM stats_counts "
                                     "ORDER BY 1, 2, 3, 4, 5"),
                          ("users", "SELECT user_id, guild_id, game, key, n, score FROM stats_users ORDER BY 1, 2, 3, 4"),
                          ("matches", "SELECT match_id, guild_id, game, finished_at, league_id, season, facts "
                                      "FROM stats_matches ORDER BY match_id")):
            digest, n = hashlib.sha256(), 0
            for row in db.execute(sql):
                if name == "matches":
                    row = (*row[:6], json.dumps(json.loads(row[6]), sort_keys=True))
                digest.update(repr(row).encode("utf-8"))
                n += 1
            out[name] = (n, digest.hexdigest())
    finally:
        db.close()
    return out


async def _watching(job: Any, lags: list[float], every: float = 0.005, gcs: list[float] | None = None) -> Any:
    """Await ``job`` while a timer on the loop fires every ``every`` seconds; ``lags`` gets how
    late each firing was, in ms (the loop held by something else); ``gcs`` how long each of the
    garbage collector's passes took meanwhile, in ms."""
    import gc

    done = False
    started: list[float] = []

    def collected(phase: str, _info: dict) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started and gcs is not None:
            gcs.append((time.perf_counter() - started[0]) * 1000)

    async def tick() -> None:
        while not done:
            t = time.perf_counter()
            await asyncio.sleep(every)
            lags.append(max(0.0, (time.perf_counter() - t - every) * 1000))
    ticker = asyncio.create_task(tick())
    gc.callbacks.append(collected)
    try:
        return await job
    finally:
        gc.callbacks.remove(collected)
        done = True
        await ticker


async def _replay_sample(store: Any, host: Any, k: int, total: int) -> dict:
    """``k`` stored matches replayed into their facts through the rebuild's worker processes
    (nothing written): ms a match, and that for ``total`` matches (an extrapolation)."""
    from host.stats.rebuild import Workers

    recs = await store.finished_in_guild(GUILD_ID, 0, limit=k)
    logs = await store.stats_logs([r.id for r in recs])
    items = [(r, await host.engine(r), 1, None, logs.get(r.id, [])) for r in recs]
    workers = Workers()
    try:
        t0 = time.perf_counter()
        rows, _sums, failed, _again = await workers.count(items)
        seconds = time.perf_counter() - t0
    finally:
        await asyncio.to_thread(workers.close)
    if failed or len(rows) != len(items):
        raise RuntimeError(f"stored matches did not replay: {failed[:3]}")
    per = seconds / max(1, len(items))
    return {"matches": len(items), "seconds": round(seconds, 2), "ms_per_match": round(per * 1000, 2),
            "all_s": round(per * total, 0), "workers": workers.n}


async def _measure(path: str, counted: int, updates: int, rebuild: bool, log: Log,
                   replay_sample: int = 0) -> tuple[dict, dict]:
    from types import SimpleNamespace

    from cogs.stats import Stats as StatsCog
    from data.store import open_store
    from host import Host
    from host.stats.service import Stats

    from host.runtime import settle

    store = await open_store(path)
    try:
        host = Host(store, render=False)
        stats = Stats(store, host)
        settle()                # as bot.py does once it has started
        # one match's end: the matches after the counted ones, as the hook counts them
        rows = (await store.finished_in_guild(GUILD_ID, 0, limit=counted + updates + len(GAMES)))[counted:]
        # a running bot has played each game (its engine loaded, the worker thread started)
        # before one of its matches ends: the first match of each game warms that, apart
        warm, first_count = set(), {}
        ts, slowest = [], []
        for rec in rows:
            t0 = time.perf_counter()
            await stats.count(rec)
            ms = (time.perf_counter() - t0) * 1000
            if rec.game not in warm:
                warm.add(rec.game)
                first_count[rec.game] = round(ms, 1)
                continue
            ts.append(ms)
            slowest.append((round(ms, 1), rec.game, rec.id))
        slowest = sorted(slowest, reverse=True)[:5]
        log(f"stats: {len(ts)} matches counted, p99 {_p99(ts):.1f} ms; slowest {slowest}")
        # /stats answers, as the cog makes them
        cog = StatsCog(SimpleNamespace(store=store, host=host, stats=stats))
        answers, first = [], {}
        for game in GAMES:
            t0 = time.perf_counter()
            await cog.page(GUILD_ID, game, None, "all", 0, "en")
            first[game] = round((time.perf_counter() - t0) * 1000, 1)
            for locale in ("en", "ja"):
                for scope in ("all", "s1"):
                    for page in (0, 1):
                        t0 = time.perf_counter()
                        embed, _file, _view = await cog.page(GUILD_ID, game, None, scope, page, locale)
                        answers.append((time.perf_counter() - t0) * 1000)
                        if not embed.description:
                            raise RuntimeError(f"{game}: /stats said nothing")
        log(f"stats: {len(answers)} /stats answers, p99 {_p99(answers):.1f} ms")
        figures = {"update_ms_p99": round(_p99(ts), 2), "report_ms_p99": round(_p99(answers), 1)}
        meta = {"update_ms_median": round(statistics.median(ts), 2) if ts else None,
                "report_ms_median": round(statistics.median(answers), 1) if answers else None,
                "first_answer_ms": first, "first_count_ms": first_count, "slowest_counts": slowest}
        if rebuild:
            before = await asyncio.to_thread(_tables, path)
            lags: list[float] = []
            gcs: list[float] = []
            t0 = time.perf_counter()
            n = await _watching(stats.rebuild(GUILD_ID), lags, gcs=gcs)
            figures["rebuild_s"] = round(time.perf_counter() - t0, 1)
            figures["rebuild_loop_ms"] = round(max(lags, default=0.0), 1)
            meta["rebuilt_matches"] = n
            meta["rebuild_same"] = await asyncio.to_thread(_tables, path) == before
            meta["rebuild_loop_ms_p99"] = round(_p99(lags), 1)
            meta["rebuild_gc_ms_max"] = round(max(gcs, default=0.0), 1)
            log(f"stats: rebuilt {n} matches in {figures['rebuild_s']} s (the same statistics: "
                f"{meta['rebuild_same']}); the loop held {figures['rebuild_loop_ms']} ms at most")
            if not meta["rebuild_same"]:
                raise RuntimeError("the rebuild changed the statistics")
            meta["replay"] = await _replay_sample(store, host, replay_sample, n)
            log(f"stats: replayed {meta['replay']['matches']} matches, {meta['replay']['ms_per_match']} ms a match "
                f"(all {n}: about {meta['replay']['all_s']} s)")
        return figures, meta
    finally:
        await store.close()


def run_stats(plan: str = "full", log: Log = lambda s: None) -> dict[str, Any]:
    cfg = PLANS[plan]
    games = list(GAMES)
    rng = random.Random(37)
    t0 = time.perf_counter()
    templates = asyncio.run(finished_templates(games, cfg["templates"], rng))
    facts = asyncio.run(_facts_of_templates(templates))
    log(f"stats: {sum(map(len, templates.values()))} finished matches played in {time.perf_counter() - t0:.0f} s")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "stats.db")

        async def schema() -> None:
            from data.store import open_store

            await (await open_store(path)).close()
        asyncio.run(schema())
        t0 = time.perf_counter()
        seed(path, templates, facts, cfg["stored"] + cfg["updates"] + len(games), cfg["stored"], games)
        log(f"stats: {cfg['stored']} counted matches stored in {time.perf_counter() - t0:.0f} s")
        figures, meta = asyncio.run(_measure(path, cfg["stored"], cfg["updates"], cfg["rebuild"], log,
                                             cfg.get("replay_sample", 0)))
    meta.update(plan=plan, stored=cfg["stored"], updates=cfg["updates"], cpus=os.cpu_count(),
                templates_per_game=cfg["templates"])
    return {"stats": figures, "meta": meta}


def misses(result: dict[str, Any]) -> list[str]:
    """The targets missed, in words (empty: every target holds)."""
    return missed(result.get("stats") or {}, TARGETS, LABELS)


def format_stats(result: dict[str, Any]) -> str:
    lines = [table_line(key, value, TARGETS, LABELS, width=46) for key, value in (result.get("stats") or {}).items()]
    meta = result.get("meta") or {}
    lines.append(f"  medians: counted {meta.get('update_ms_median')} ms, answer {meta.get('report_ms_median')} ms; "
                 f"first answer per game (fonts, card texts) {meta.get('first_answer_ms')}")
    if meta.get("replay"):
        r = meta["replay"]
        lines.append(f"  rebuild: the same statistics {meta.get('rebuild_same')}; matches it must replay: "
                     f"{r['ms_per_match']} ms each in {r['workers']} worker processes "
                     f"(all {meta.get('rebuilt_matches')}: about {r['all_s']:g} s, extrapolated from {r['matches']})")
    lines.append(f"plan {meta.get('plan')} · {meta.get('stored')} stored finished matches in one server · "
                 f"{meta.get('cpus')} CPUs")
    return "\n".join(lines)


__all__ = ["run_stats", "format_stats", "misses", "TARGETS", "finished_templates", "seed"]
