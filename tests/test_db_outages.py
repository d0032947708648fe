"""Issue 31, reproduced against the database itself: faults made to a real PostgreSQL server (a
table locked under a statement timeout, connections terminated between a match's row and its log,
the server stopped and started again, the server frozen with SIGSTOP for longer than the host's
deadline — each stop and freeze on a server of the test's own, ``tests/faults.py``) and to a real
SQLite file (a full disk, a file locked by another process).

The outage tests play matches of every game at once through one host, as players would (each
tries a legal move, reads the answer, goes on), while the fault lasts and after it has cleared,
and then check the issue's promises:

* **0 acknowledged commands lost, none applied twice, nobody told "nothing changed" about a move
  that was played**: each match's stored log is exactly the commands the host acknowledged, plus
  only commands it answered "may or may not have been played" (``host.err.unconfirmed``); a
  command answered "try again — nothing was changed" (``host.err.transient``) is never stored;
* **no healthy match quarantined**;
* **no call blocked longer than its deadline** (10 s, the host's own, plus scheduling slack);
* **play resumes on the same host** once the database is back.
"""
from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

import pytest

import faults
from data.store import ACTIVE, FINISHED, TransientStoreError
from host import Host, resilient
from rules import registry

from discord_fakes import Clock

GAMES = ("squares", "logic_square", "maken", "art_of_war", "avalon")
SLACK = 1.5          # seconds a call may take beyond its deadline (scheduling, a picture-less board)


@dataclass
class Table:
    """One match being played, and what its players were told."""

    game: str
    players: tuple[int, int]
    match_id: int = 0
    acked: list[str] = field(default_factory=list)        # answered "played"
    unconfirmed: list[str] = field(default_factory=list)  # answered "may or may not have been played"
    refused_transient: int = 0                            # answered "try again — nothing was changed"
    finished: list[int] = field(default_factory=list)     # earlier matches of this table, checked too
    logs: dict[int, tuple[list[str], list[str]]] = field(default_factory=dict)


@dataclass
class Play:
    host: Host
    tables: list[Table]
    slowest: float = 0.0
    calls: int = 0
    felt: int = 0          # answers "try again" / "may have been played", of any call
    acks_at: list[float] = field(default_factory=list)

    async def timed(self, coro):
        started = time.monotonic()
        try:
            res = await coro
            if getattr(res, "error", None) is not None and res.error.key in (
                    "host.err.transient", "host.err.unconfirmed"):
                self.felt += 1
            return res
        except TransientStoreError:
            self.felt += 1
            raise
        finally:
            took = time.monotonic() - started
            self.calls += 1
            self.slowest = max(self.slowest, took)

    async def new_match(self, t: Table, rng: random.Random) -> None:
        a, b = t.players
        while True:
            res = await self.timed(self.host.challenge(t.game, a, f"P{a}", opponents=[(b, f"P{b}")],
                                                       seed=rng.getrandbits(64)))
            if res.ok:
                break
            assert res.error.key in ("host.err.transient", "host.err.unconfirmed"), res.error
            await asyncio.sleep(0.05)
        mid = res.match.id
        while True:
            res = await self.timed(self.host.accept(mid, b))
            if res.ok or res.error.key == "host.err.already_accepted":
                break
            assert res.error.key in ("host.err.transient", "host.err.unconfirmed"), res.error
            await asyncio.sleep(0.05)
        if t.match_id:
            t.logs[t.match_id] = (t.acked, t.unconfirmed)
            t.finished.append(t.match_id)
        t.match_id, t.acked, t.unconfirmed = mid, [], []

    async def player(self, t: Table, stop: asyncio.Event, seed: int) -> None:
        rng = random.Random(seed)
        await self.new_match(t, rng)
        while not stop.is_set():
            try:
                status = await self.timed(self.host.status(t.match_id))
                if status.ok and status.match.status != ACTIVE:
                    await self.new_match(t, rng)
                    continue
                legal, uid = [], None
                for uid in t.players:
                    legal = await self.timed(self.host.legal(t.match_id, uid))
                    if legal:
                        break
            except TransientStoreError:
                await asyncio.sleep(0.05)
                continue
            if not legal:
                await asyncio.sleep(0.02)
                continue
            cmd = rng.choice(sorted(legal))
            res = await self.timed(self.host.command(t.match_id, uid, cmd))
            if res.ok:
                t.acked.append(cmd)
                self.acks_at.append(time.monotonic())
            elif res.error.key == "host.err.transient":
                t.refused_transient += 1
                await asyncio.sleep(0.05)
            elif res.error.key == "host.err.unconfirmed":
                t.unconfirmed.append(cmd)
                await asyncio.sleep(0.05)
            else:
                assert res.error.key in ("host.err.conflict", "host.err.not_your_turn",
                                         "host.err.not_active", "host.err.resolving"), res.error
            await asyncio.sleep(0)


async def play_through(host: Host, fault, *, warmup: float = 1.0, after: float = 2.0, seed: int = 7) -> Play:
    """Matches of every game played at once; ``await fault(play)`` runs once play is under way;
    play goes on ``after`` seconds once it has returned, then everything is checked."""
    tables = [Table(g, (1000 + 2 * i, 1001 + 2 * i)) for i, g in enumerate(GAMES)]
    play = Play(host, tables)
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(play.player(t, stop, seed + i)) for i, t in enumerate(tables)]
    try:
        await asyncio.sleep(warmup)
        await fault(play)
        back = time.monotonic()
        await asyncio.sleep(after)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks), resilient.HOST_SECONDS * 4)
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
    await check(play, back)
    return play


async def felt(play: Play, at_least: float, at_most: float = 20.0) -> None:
    """Let the fault last ``at_least`` seconds, and longer (up to ``at_most``) until some call
    has felt it (on a busy machine the players may be slow to reach the database)."""
    await asyncio.sleep(at_least)
    for _ in range(int(max(0.0, at_most - at_least) / 0.1)):
        if play.felt:
            break
        await asyncio.sleep(0.1)


async def check(play: Play, back: float) -> None:
    store = play.host.store
    assert play.slowest <= resilient.HOST_SECONDS + SLACK, f"a call took {play.slowest:.2f} s"
    assert await store.quarantined() == [], "a healthy match was quarantined"
    for t in play.tables:
        t.logs[t.match_id] = (t.acked, t.unconfirmed)
        for mid, (acked, unconfirmed) in t.logs.items():
            stored = [c.command for c in await store.commands(mid)]
            # every acknowledged command is stored, in order, once; anything else stored is a
            # command its player was told "may or may not have been played" — never one told
            # "nothing was changed"
            extra = list(stored)
            for cmd in acked:
                assert cmd in extra, f"{t.game} match {mid}: acknowledged {cmd!r} was lost"
                extra.remove(cmd)
            for cmd in extra:
                assert cmd in unconfirmed, f"{t.game} match {mid}: {cmd!r} stored but never acknowledged"
            assert len(stored) == len(acked) + len(extra)
            rec = await store.get_match(mid)
            assert rec.status in (ACTIVE, FINISHED) and rec.n_commands == len(stored)
    # play resumed on the same host once the database was back
    assert [a for a in play.acks_at if a > back], "no command was played after the database came back"


# -- PostgreSQL ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def own_pg():
    # durable: fsync and synchronous commit on, as a real server has them (the shared test
    # server turns them off for speed, and then a crash loses commits it already confirmed)
    with faults.own_pg_server(durable=True) as server:
        yield server


@pytest.fixture
def own_url(own_pg):
    if faults.postmaster_pid(own_pg) is None:     # an earlier test's outage left it stopped
        faults.start(own_pg)
    return faults.create_database_sync(own_pg)


async def open_host(url: str) -> Host:
    from data.postgres_store import PostgresStore

    store = PostgresStore(url)
    await store.open()
    return Host(store, now=Clock(), render=False)


async def test_a_locked_table_under_a_statement_timeout_is_try_again_not_quarantine(pg_url):
    """Reproduction (1): ``statement_timeout=1s`` and the ``commands`` table locked for a moment
    (a migration, ``VACUUM FULL``, a ``LOCK``) — ``status()`` answered ``host.err.quarantined``
    "unreadable (QueryCanceledError: …)" and the match stayed quarantined for good."""
    url = faults.with_params(pg_url, statement_timeout=1000)
    host = await open_host(url)
    try:
        res = await host.challenge("squares", 1, "A", opponents=[(2, "B")], options={"first": 0})
        mid = res.match.id
        assert (await host.accept(mid, 2)).ok and (await host.command(mid, 1, "place L1 a1")).ok
        host._states.clear()
        host._verified.discard(mid)
        async with faults.lock_table(pg_url, "commands"):      # held for the whole call
            started = time.monotonic()
            res = await host.status(mid)
            took = time.monotonic() - started
        assert not res.ok and res.error.key == "host.err.transient", res.error
        assert took <= resilient.HOST_SECONDS + SLACK
        assert await host.store.quarantined() == []
        assert (await host.status(mid)).ok                   # the lock is gone: it reads again
        async with faults.lock_table(pg_url, "commands", seconds=1.6):   # a short lock: retried
            res = await host.command(mid, 2, "place X1 e5")
        assert res.ok, res.error
        assert [c.command for c in await host.store.commands(mid)] == ["place L1 a1", "place X1 e5"]
        assert await host.store.quarantined() == []
    finally:
        await host.store.close()


async def test_connections_terminated_between_the_row_and_its_log_quarantine_nothing(pg_server, pg_url):
    """Reproduction (2): the pool's connections terminated between reading a match's row and
    reading its log (a failover, a restarted pooler), for a match this process has not replayed
    yet — it was quarantined with "replay failed: StoreError: … ConnectionDoesNotExistError"."""
    host = await open_host(pg_url)
    try:
        res = await host.challenge("logic_square", 1, "A", opponents=[(2, "B")])
        mid = res.match.id
        assert (await host.accept(mid, 2)).ok
        for _ in range(6):
            for uid in (1, 2):
                legal = await host.legal(mid, uid)
                if legal:
                    assert (await host.command(mid, uid, sorted(legal)[0])).ok
                    break
        n = (await host.store.get_match(mid)).n_commands
        fresh = await open_host(pg_url)                  # another process: nothing replayed yet
        try:
            real = fresh.store.commands
            terminated = []

            async def after_a_failover(match_id):
                if not terminated:
                    terminated.append(await faults.terminate_backends(pg_server.base_url, pg_url))
                return await real(match_id)

            fresh.store.commands = after_a_failover
            res = await fresh.status(mid)
            assert terminated and terminated[0] >= 1
            assert res.ok, res.error
            assert res.match.n_commands == n
            assert await fresh.store.quarantined() == []
        finally:
            await fresh.store.close()
    finally:
        await host.store.close()


async def test_postgres_stopped_for_a_few_seconds_loses_nothing_and_play_resumes(own_pg, own_url):
    """"PostgreSQL stopped (``pg_ctl stop -m immediate``) and started again": every call answers
    within its deadline, every acknowledged command is stored, nothing else is, no match is
    quarantined, and the same host plays on (a server starting up answers ``CannotConnectNow``:
    transient too)."""
    host = await open_host(own_url)
    try:
        async def outage(play):
            await asyncio.to_thread(faults.stop, own_pg)
            await felt(play, 3)
            await asyncio.to_thread(faults.start, own_pg, False)   # answers "starting up" a while

        play = await play_through(host, outage, after=4.0)
        assert play.felt > 0, "the outage was never felt"
    finally:
        await host.store.close()


async def test_postgres_frozen_longer_than_the_deadline_blocks_no_call_past_it(own_pg, own_url):
    """"With the PostgreSQL server frozen (SIGSTOP for 35 s — a hung server, a network
    partition), every host call blocked for the whole 35 s while holding that match's lock."  Now
    every call answers within the 10 s deadline (a move whose commit was in flight is read back,
    or reported as possibly played), and play resumes when the server is thawed."""
    host = await open_host(own_url)
    try:
        async def hang(play):
            with faults.frozen(own_pg):
                await felt(play, resilient.HOST_SECONDS + 2)

        play = await play_through(host, hang, after=4.0)
        assert play.felt > 0, "the hang was never felt"
        # nothing about the matches was concluded from the hang: all still play
        for t in play.tables:
            assert (await host.status(t.match_id)).ok
    finally:
        await host.store.close()


# -- SQLite -------------------------------------------------------------------------------------------

async def open_sqlite_host(path) -> Host:
    from data.sqlite_store import SqliteStore

    store = SqliteStore(path)
    await store.open()
    return Host(store, now=Clock(), render=False)


async def test_sqlite_on_a_full_disk_loses_nothing_and_play_resumes(tmp_path):
    """"SQLite on a full disk": a write that needs room fails with SQLITE_FULL ("database or disk
    is full") — a transient failure, answered "try again"; nothing half-written, nothing lost."""
    host = await open_sqlite_host(tmp_path / "full.db")
    try:
        async def full_disk(play):
            async with faults.asqlite_full(host.store._db):
                await felt(play, 3)

        play = await play_through(host, full_disk, after=2.0)
        assert play.felt > 0, "the full disk was never felt"
    finally:
        await host.store.close()


async def test_sqlite_locked_by_another_process_answers_within_the_deadline(tmp_path):
    """"SQLite: … a locked file": another process holds the write lock longer than the busy
    timeout (5 s) and the host's deadline allow; writes answer "try again" within 10 s, reads go
    on (WAL), nothing is lost, and play resumes when the lock is gone."""
    path = tmp_path / "locked.db"
    host = await open_sqlite_host(path)
    try:
        async def locked(play):
            # take the write lock while the store's own connection is idle (SQLite's busy handler
            # is not fair: between the players' short writes it might wait for ever)
            async with host.store._lock:
                held = faults.sqlite_locked(path, timeout=30)
                held.__enter__()
            try:
                await felt(play, resilient.HOST_SECONDS + 1)
            finally:
                held.__exit__(None, None, None)

        play = await play_through(host, locked, after=2.0)
        assert play.felt > 0, "the lock was never felt"
    finally:
        await host.store.close()


def test_every_game_is_played_in_the_outage_tests():
    assert set(GAMES) == set(registry.names())
