"""A server's statistics rebuilt (``python bot.py --rebuild-stats GUILD``, issue 46): every
finished match of the server counted again, page by page, to the same facts and counters as the
finished-match hook counts one (:meth:`host.stats.service.Stats.count`), fast enough for 100,000
matches (docs/performance.md) and never holding up the event loop.

- **What the replay says is reused when it can be.**  A match's facts are two parts
  (:mod:`host.stats.facts`): what only the replay of its log says, and what its record says.
  The first part is taken from the facts stored when the match was counted, when they are of
  this :data:`host.stats.facts.VERSION` (raised whenever a replay would say something else);
  the second is made again from the record and its log's late joins.  Every other match (never
  counted, counted under another version, facts that do not read, or ``replay=True``) is
  replayed from its log — in worker processes.
- **A page at a time** (:data:`PAGE` matches, by id): its logs (or only their late joins) read
  a few queries a page; its facts made and its counters summed off the event loop, in up to two
  worker processes at a lower CPU priority (as :mod:`host.gif_worker` draws the GIFs; a thread
  of the bot's process would share its interpreter lock with the loop and hold it up for tens of
  milliseconds), a worker thread for a page of a few matches; then its facts rows and counters
  written in one transaction (:meth:`data.sql_stats.StatsSql.record_stats_page`) — a match the
  hook counted meanwhile is not counted twice.  What the loop does itself is cut in slices of a
  few milliseconds.
- **Seasons**: each match keeps the rating season it was counted in; one never counted takes the
  current one.  A log that does not replay is logged and marked (as the catch-up at start marks
  it) and never stops the others; a match whose engine cannot be had is left out, as the hook
  leaves it.  A rebuild stopped halfway leaves the matches it had not reached uncounted: the
  next start catches them up (replayed, in the season current then), or a rebuild run again.

``tests/test_stats_rebuild.py`` compares the results with counting every match through the
hook's path, on matches of every game.
"""
from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import logging
import os
from typing import Any, NamedTuple

from data.rows import dumps
from data.store import FINISHED, CorruptRow, MatchRecord
from host import worker_process
from host.replay import JOIN
from host.stats import aggregate as A
from host.stats.facts import assemble, counted, joined, replayed_of, with_record

log = logging.getLogger("host.stats")

PAGE = 500              # matches a page: read, made and written together
READ_SLICE = 50         # finished matches one query reads (each record is decoded on the loop)
LOG_SLICE = 32          # matches whose logs one query reads (50-odd entries each, taken apart on the loop)
CHUNK = 16              # replays a task of a worker process
CHUNK_STORED = 125      # matches counted from their stored facts a task (a replay costs about 20 of them)
SLICE = 16              # items the loop readies (for a worker) before it lets others run
POOL_FROM = 32          # a page with fewer matches counts them in a thread (no process is started for them)
WORKERS = 2             # worker processes at most (the machines the bot runs on have 2 cores)
NICE = 10               # the workers' priority below the bot's
SKIPPED = {"v": 1, "skipped": True, "seats": []}        # a match whose log does not replay (as catch_up marks it)

Sums = dict[str, dict[tuple[str, str, str], tuple[int, float]]]      # game -> counter -> (n, score)
#: what a page's work is made of: the record, its engine, its season, the stored facts' text (None:
#: replay it) and its log — the whole log to replay, only its late joins with stored facts
Item = tuple[MatchRecord, Any, int | None, str | None, list[tuple[int, str]]]


class _Command(NamedTuple):
    """A log entry as the replay reads it."""

    seat: int
    command: str


# ------------------------------------------------------------------------------ pure: one part of a page
def add(sums: Sums, game: str, increments: dict, sign: int = 1) -> None:
    """Add (``sign`` -1: take off) one match's increments to a page's sums by game; a counter
    taken back to no game is dropped."""
    into = sums.setdefault(game, {})
    for key, (n, score) in increments.items():
        a, b = into.get(key, (0, 0.0))
        a, b = a + sign * n, b + sign * score
        if a:
            into[key] = (a, b)
        else:
            into.pop(key, None)


def merge(into: Sums, more: Sums) -> None:
    """Add a part's sums to a page's."""
    for game, increments in more.items():
        add(into, game, increments)


def count_items(items: list[Item]) -> tuple[list[tuple], Sums, list[tuple[int, str]], list[int]]:
    """Count matches as the hook counts them (:func:`host.stats.facts.counted`), with the season
    given: from their stored facts when they are this version's (:func:`replayed_of`: what the
    replay said, the rest made from the record and its late joins again), else by replaying
    their logs.  Returns the facts rows (:meth:`record_stats_page`'s, the pairing last), the
    counters summed by game, the ``(id, why)`` of each log that does not replay, and the ids
    whose stored facts cannot be used (to replay: their whole logs were not given)."""
    rows: list[tuple] = []
    sums: Sums = {}
    failed: list[tuple[int, str]] = []
    again: list[int] = []
    for rec, engine, season, text, entries in items:
        log_of = [_Command(seat, command) for seat, command in entries]
        if text is not None:
            try:
                rep = replayed_of(json.loads(text), rec)
                facts = None if rep is None else with_record(engine, rec, assemble(engine, rec, rep, joined(log_of)),
                                                             joined(log_of))
            except Exception:   # whatever these stored facts hold: the log says it again
                facts = None
            if facts is None:
                again.append(int(rec.id))
                continue
        else:
            try:
                facts = counted(engine, rec, log_of)
            except Exception as e:       # this match's own fault: marked, the others go on
                failed.append((int(rec.id), f"{type(e).__name__}: {str(e)[:200]}"))
                continue
        facts["season"] = season
        try:
            increments = A.increments(facts)
            row = (int(rec.id), rec.game, float(facts.get("finished_at") or rec.updated_at), facts.get("league"),
                   season, dumps(facts, "facts"), facts.get("pairing"))
        except Exception as e:
            failed.append((int(rec.id), f"{type(e).__name__}: {str(e)[:200]}"))
            continue
        add(sums, rec.game, increments)
        rows.append(row)
    return rows, sums, failed, again


# ------------------------------------------------------------------------------ worker processes
def _ready() -> int:
    return os.getpid()


def _task(payload: list[tuple[dict, dict | None, int | None, str | None, list[tuple[int, str]]]]) -> tuple:
    """A worker process's task: :func:`count_items` of plain data — each match's record fields,
    its card set version's row fields (its engine built here once, from the same stored content)
    or None, its season, stored facts and log entries.  Also returns the ids of matches whose
    engine cannot be had here (a game a plugin registered in the bot's process only): counted
    there instead."""
    from data.store import CardSetRow
    from host import engines
    from rules import registry

    items, unknown = [], []
    for fields, cards, season, text, entries in payload:
        rec = MatchRecord(**fields)
        try:
            if cards is not None:
                engine = (engines.cached(cards["id"])
                          or engines.remember(cards["id"], engines.build(CardSetRow(**cards)))).engine
            else:
                engine = registry.get(rec.game)
        except Exception:       # a game only the bot's process knows, a set that builds only there
            unknown.append(int(rec.id))
            continue
        items.append((rec, engine, season, text, entries))
    return (*count_items(items), unknown)


def _plain(item: Item) -> tuple | None:
    """What of an item crosses to a worker process: plain data (see :func:`_task`); None when its
    card set version is no longer held here (it is counted in this process instead)."""
    from host import engines

    rec, _engine, season, text, entries = item
    fields = {f.name: getattr(rec, f.name) for f in dataclasses.fields(rec)}
    fields["snapshot"] = None         # counting starts from the seed: the snapshot would only weigh
    ref = engines.card_ref(rec.meta)
    cards = None
    if ref is not None:
        loaded = engines.cached(ref["id"])
        if loaded is None:
            return None
        cards = {f.name: getattr(loaded.row, f.name) for f in dataclasses.fields(loaded.row)}
    return fields, cards, season, text, entries


class Workers:
    """Up to :data:`WORKERS` worker processes that count a rebuild's pages, started (``spawn``:
    a fork would copy the bot's loop and sockets) in a thread when a page first has enough to
    count — starting a process, like importing what it needs, would hold the loop — and stopped
    with :meth:`close`."""

    def __init__(self, workers: int | None = None) -> None:
        self.n = max(1, min(WORKERS, workers or os.cpu_count() or 1))
        self._pool: Any = None

    def _start(self) -> Any:
        """The pool with every worker running (each given a first task now, not on the loop)."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=self.n, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=worker_process.start, initargs=(NICE,))
        for job in [pool.submit(_ready) for _ in range(self.n)]:
            job.result()
        return pool

    async def pool(self) -> Any:
        if self._pool is None:
            self._pool = await asyncio.to_thread(self._start)
        return self._pool

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    async def count(self, items: list[Item]) -> tuple[list[tuple], Sums, list[tuple[int, str]], list[int]]:
        """:func:`count_items` of ``items``, in the worker processes (a thread when they are few),
        the loop only handing out the tasks and adding up their answers."""
        if len(items) < POOL_FROM:
            return await asyncio.to_thread(count_items, items)
        tasks: list[list[Item]] = []
        for text_given, size in ((True, CHUNK_STORED), (False, CHUNK)):
            part = [it for it in items if (it[3] is not None) == text_given]
            tasks += [part[i:i + size] for i in range(0, len(part), size)]
        pool = await self.pool()
        from concurrent.futures.process import BrokenProcessPool     # imported by the pool's start

        loop = asyncio.get_running_loop()
        jobs = []
        here: set[int] = set()          # counted in this process (see _task, _plain)
        for task in tasks:
            plain = []
            for i in range(0, len(task), SLICE):        # a millisecond at a time
                for it in task[i:i + SLICE]:
                    p = _plain(it)
                    if p is None:
                        here.add(int(it[0].id))
                    else:
                        plain.append(p)
                await asyncio.sleep(0)
            if plain:
                jobs.append(loop.run_in_executor(pool, _task, plain))
        rows: list[tuple] = []
        sums: Sums = {}
        failed: list[tuple[int, str]] = []
        again: list[int] = []
        try:
            for job in asyncio.as_completed(jobs):
                r, s, f, a, u = await job
                rows += r
                failed += f
                again += a
                here.update(u)
                merge(sums, s)              # a task's sums: a millisecond or two
        except BrokenProcessPool:       # a worker died: this page in a thread, the next in new workers
            log.warning("statistics rebuild: a worker process died; this page is counted here", exc_info=True)
            for job in jobs:
                job.cancel()
            await asyncio.to_thread(self.close)
            return await asyncio.to_thread(count_items, items)
        if here:
            r, s, f, a = await asyncio.to_thread(count_items, [it for it in items if int(it[0].id) in here])
            rows += r
            failed += f
            again += a
            merge(sums, s)
        return rows, sums, failed, again


# ------------------------------------------------------------------------------ the rebuild
async def rebuild(stats: Any, guild_id: int, *, replay: bool = False, workers: Workers | None = None) -> int:
    """A server's statistics again from its finished matches (see the module docstring); the
    number of matches counted.  ``replay``: every match replayed from its log, none of its stored
    facts reused."""
    store, guild_id = stats.store, int(guild_id)
    kept: dict[int, tuple[int | None, str]] = {}
    after = 0
    while True:         # read before they are forgotten: the seasons, and the facts to reuse
        got = await store.stats_kept(guild_id, after)
        if not got:
            break
        for match_id, season, text in got:
            kept[match_id] = (season, text)
        after = got[-1][0]
    # what exists now (the process's modules and engines, the facts just read) lives through the
    # rebuild: out of the way of the collector's full passes, which would otherwise walk it all
    # and hold the loop for tens of milliseconds (as host.runtime.settle does for the bot)
    gc.freeze()
    await store.delete_stats(guild_id)
    current = await stats._season(guild_id)
    own = workers is None
    workers = workers or Workers()
    n, after = 0, 0
    try:
        while True:
            page: list[MatchRecord] = []
            while len(page) < PAGE:     # read READ_SLICE records a query: each is decoded on the loop
                part = await store.finished_in_guild(guild_id, after, min(READ_SLICE, PAGE - len(page)))
                if not part:
                    break
                page += part
                after = max(int(rec.id) for rec in part)
            if not page:
                break
            n += await _page(stats, guild_id, page, kept, current, replay, workers)
        while kept:             # facts of matches no longer finished (none, as a rule): let go a slice at a time
            for m in list(kept)[:PAGE]:
                del kept[m]
            await asyncio.sleep(0)
    finally:
        if own:
            await asyncio.to_thread(workers.close)
    return n


async def _page(stats: Any, guild_id: int, page: list[MatchRecord], kept: dict, current: int | None,
                replay: bool, workers: Workers) -> int:
    store = stats.store
    engines: dict[int, Any] = {}
    for i, rec in enumerate(page):
        if i and not i % SLICE:
            await asyncio.sleep(0)
        if rec.status != FINISHED or rec.id is None:
            continue
        try:
            engines[int(rec.id)] = await stats.host.engine(rec)
        except CorruptRow:      # its card set version cannot be had: not counted (as the hook)
            continue
    recs = {int(rec.id): rec for rec in page if rec.id is not None and int(rec.id) in engines}
    mine = {m: kept.pop(m, (None, None)) for m in recs}     # let go of page by page, not all at the end
    season = {m: mine[m][0] or current for m in recs}
    stored = {m: mine[m][1] for m in recs if not replay and mine[m][1]}
    fresh = [m for m in recs if m not in stored]
    joins = await _logs(store, list(stored), JOIN)
    logs = await _logs(store, fresh)
    items = [(recs[m], engines[m], season[m], stored[m], joins.get(m, [])) for m in stored] + \
        [(recs[m], engines[m], season[m], None, logs.get(m, [])) for m in fresh]
    rows, sums, failed, again = await workers.count(items)
    if again:               # stored facts that cannot be used: replayed
        logs = await _logs(store, again)
        r, s, f, _ = await workers.count([(recs[m], engines[m], season[m], None, logs.get(m, [])) for m in again])
        rows += r
        failed += f
        merge(sums, s)
    for match_id, why in failed:
        log.warning("statistics of match %s could not be counted (%s); it is left out", match_id, why)
        rec = recs[match_id]
        rows.append((match_id, rec.game, float(rec.updated_at), None, None, dumps(SKIPPED, "facts"), None))
    if not rows:
        return 0
    skipped = {m for m, _why in failed}
    texts = {row[0]: (row[1], row[5]) for row in rows}

    def increments_of(ids: set[int]) -> Sums:
        missing = [m for m in texts if m not in ids and m not in skipped]
        if not missing:
            return sums
        out = {game: dict(c) for game, c in sums.items()}
        for m in missing:       # counted meanwhile by the hook (or another process): not twice
            game, text = texts[m]
            add(out, game, A.increments(json.loads(text)), -1)
        return out

    written = await store.record_stats_page(guild_id, [row[:6] for row in rows], increments_of)
    pairings = {(row[1], int(row[3]), int(row[6])) for row in rows
                if row[0] in written and row[0] not in skipped and row[3] is not None and row[6] is not None}
    for game, league_id, pairing_id in sorted(pairings):
        await stats.count_pairing(guild_id, game, league_id, pairing_id)
    return len(written - skipped)


async def _logs(store: Any, ids: list[int], prefix: str | None = None) -> dict[int, list[tuple[int, str]]]:
    """The logs of a page's matches (or their entries that start with ``prefix``), read
    :data:`LOG_SLICE` matches a query: each answer is taken apart on the event loop."""
    out: dict[int, list[tuple[int, str]]] = {}
    for i in range(0, len(ids), LOG_SLICE):
        out.update(await store.stats_logs(ids[i:i + LOG_SLICE], prefix))
    return out


__all__ = ["rebuild", "Workers", "count_items", "add", "merge", "PAGE"]
