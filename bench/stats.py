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
- ``rebuild_s`` — the server's statistics rebuilt from the logs (``python bot.py
  --rebuild-stats``: every stored match replayed into its public facts again).  Reported.

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
    "full": {"stored": 100_000, "templates": 24, "updates": 200, "rebuild": True},
    "quick": {"stored": 10_000, "templates": 10, "updates": 100, "rebuild": True},
    "tiny": {"stored": 60, "templates": 2, "updates": 5, "rebuild": True},
}
TARGETS: dict[str, tuple[str, float]] = {
    "update_ms_p99": ("<=", 20.0),
    "report_ms_p99": ("<=", 300.0),
}
LABELS: dict[str, tuple[str, str]] = {
    "update_ms_p99": ("one finished match counted, p99", "ms"),
    "report_ms_p99": ("a /stats answer with its picture, p99", "ms"),
    "rebuild_s": ("the server's statistics rebuilt from the logs", "s"),
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


async def _measure(path: str, counted: int, updates: int, rebuild: bool, log: Log) -> tuple[dict, dict]:
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
            t0 = time.perf_counter()
            n = await stats.rebuild(GUILD_ID)
            figures["rebuild_s"] = round(time.perf_counter() - t0, 1)
            meta["rebuilt_matches"] = n
            log(f"stats: rebuilt {n} matches in {figures['rebuild_s']} s")
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
        figures, meta = asyncio.run(_measure(path, cfg["stored"], cfg["updates"], cfg["rebuild"], log))
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
    lines.append(f"plan {meta.get('plan')} · {meta.get('stored')} stored finished matches in one server · "
                 f"{meta.get('cpus')} CPUs")
    return "\n".join(lines)


__all__ = ["run_stats", "format_stats", "misses", "TARGETS", "finished_templates", "seed"]
