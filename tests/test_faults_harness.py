"""The fault-injection harness (``tests/faults.py``) does what it says: each fault is made and then
seen through a plain asyncpg or sqlite3/aiosqlite connection (never the project's store), with
bounded waits.  The exception classes asserted here are the ones the store's failure handling
must expect (see the findings at the top of faults.py).

The PostgreSQL tests that stop or freeze a server use one of their own (``own_pg``); the others use
the session's shared server.  All of them skip without PostgreSQL server binaries."""
from __future__ import annotations

import asyncio
import sqlite3
import time

import aiosqlite
import asyncpg
import pytest

import faults


@pytest.fixture
def own_pg():
    with faults.own_pg_server() as server:
        yield server


class Timer:
    def __enter__(self):
        self.start = time.monotonic()
        self.elapsed = None
        return self

    def __exit__(self, *exc):
        self.elapsed = time.monotonic() - self.start
        return False


async def _connect(url: str, **kw) -> asyncpg.Connection:
    return await asyncpg.connect(url, timeout=10, **kw)


# -- PostgreSQL: a server of the test's own -------------------------------------------------------

async def test_own_pg_server_is_separate_and_goes_away_even_frozen():
    with faults.own_pg_server() as server:
        folder = server.folder
        url = await faults.create_database(server)
        conn = await _connect(url)
        assert await conn.fetchval("SELECT current_database()") == faults.db_name(url)
        await conn.close()
        pids = faults.server_pids(server)
        assert len(pids) >= 2 and pids[0] == faults.postmaster_pid(server)
        faults.freeze(server)  # left frozen: the exit must thaw it, else pg_ctl stop would hang
        start = time.monotonic()
    assert time.monotonic() - start < 10
    assert not folder.exists()
    for pid in pids:
        st = faults._stat(pid)
        assert st is None or st[0] == "Z"  # gone (or a zombie of a parent that has not reaped it)


def test_shared_server_may_not_be_stopped_or_frozen(pg_server):
    with pytest.raises(ValueError):
        faults.freeze(pg_server)
    with pytest.raises(ValueError):
        faults.stop(pg_server)


async def test_freeze_hangs_queries_and_connects_and_thaw_answers(own_pg):
    url = await faults.create_database(own_pg)
    conn = await _connect(url)
    try:
        faults.freeze(own_pg)
        assert faults.is_frozen(own_pg)
        states = {faults._stat(p)[0] for p in faults.server_pids(own_pg)}
        # stopped — or a backend that had already exited (a zombie the frozen postmaster has not
        # reaped yet): neither runs anything
        assert states <= {"T", "t", "Z"}, states
        with Timer() as t, pytest.raises(asyncio.TimeoutError):
            await conn.fetchval("SELECT 1", timeout=1)
        assert 0.9 < t.elapsed < 3
        with Timer() as t, pytest.raises(asyncio.TimeoutError):
            await asyncpg.connect(url, timeout=1)  # the socket accepts; the startup never answers
        assert 0.9 < t.elapsed < 3
        faults.thaw(own_pg)
        assert not faults.is_frozen(own_pg)
        # the timed-out query's cancel request goes through now: the same connection is usable
        assert await conn.fetchval("SELECT 1", timeout=5) == 1
        other = await _connect(url)
        assert await other.fetchval("SELECT 2", timeout=5) == 2
        await other.close()
    finally:
        faults.thaw(own_pg)
        conn.terminate()


async def test_frozen_thaws_when_the_block_fails_and_after_seconds(own_pg):
    url = await faults.create_database(own_pg)
    conn = await _connect(url)
    try:
        with pytest.raises(RuntimeError, match="boom"):
            with faults.frozen(own_pg):
                assert faults.is_frozen(own_pg)
                raise RuntimeError("boom")
        assert not faults.is_frozen(own_pg)
        assert await conn.fetchval("SELECT 1", timeout=5) == 1
        # a hang that ends by itself: the query waits out the freeze, then answers
        with faults.frozen(own_pg, seconds=0.5):
            with Timer() as t:
                assert await conn.fetchval("SELECT 3", timeout=5) == 3
        assert 0.4 < t.elapsed < 4
        # stopping a frozen server thaws it first (a stopped postmaster ignores pg_ctl's signal)
        faults.freeze(own_pg)
        with Timer() as t:
            faults.stop(own_pg)
        assert t.elapsed < 5 and faults.postmaster_pid(own_pg) is None
        assert not faults.is_frozen(own_pg)
    finally:
        conn.terminate()


async def test_stop_then_start_and_restart_keep_the_url(own_pg):
    url = await faults.create_database(own_pg)
    conn = await _connect(url)
    try:
        faults.stop(own_pg)
        assert faults.postmaster_pid(own_pg) is None
        # the loop did not run while the server went down: the query finds the socket dead
        with pytest.raises(asyncpg.ConnectionDoesNotExistError):
            await conn.fetchval("SELECT 1", timeout=2)
        assert conn.is_closed()
        with pytest.raises(FileNotFoundError):  # a Unix socket that is gone (TCP: refused)
            await asyncpg.connect(url, timeout=2)
        faults.stop(own_pg)  # stopping a stopped server does nothing

        faults.start(own_pg, wait=False)
        seen = set()
        deadline = time.monotonic() + 15
        while True:
            try:
                conn = await asyncpg.connect(url, timeout=2)
                break
            except (FileNotFoundError, ConnectionRefusedError, asyncpg.CannotConnectNowError) as e:
                seen.add(type(e).__name__)  # CannotConnectNowError: "... is starting up"
                assert time.monotonic() < deadline, seen
                await asyncio.sleep(0.01)
        assert await conn.fetchval("SELECT 1", timeout=5) == 1

        faults.restart(own_pg)
        with pytest.raises(asyncpg.ConnectionDoesNotExistError):
            await conn.fetchval("SELECT 1", timeout=2)
        conn = await _connect(url)  # same URL, same database, data kept
        assert await conn.fetchval("SELECT 1", timeout=5) == 1
    finally:
        conn.terminate()


async def test_pool_after_restart(own_pg):
    url = await faults.create_database(own_pg)
    pool = await asyncpg.create_pool(url, min_size=2, max_size=3, command_timeout=5)
    try:
        # restarted while the loop did not run: the pool hands out its dead connections, each
        # fails once (how many before the loop notices the rest is a race), then it reconnects
        faults.restart(own_pg)
        failures = 0
        while True:
            try:
                assert await pool.fetchval("SELECT 1") == 1
                break
            except asyncpg.ConnectionDoesNotExistError as e:  # "... closed in the middle of operation"
                # the write to the dead socket failed (BrokenPipeError), or — on a busy machine —
                # the loop read the server's close first and the connection was gone already
                assert e.__cause__ is None or isinstance(e.__cause__, (BrokenPipeError, ConnectionResetError)), e.__cause__
                failures += 1
                assert failures <= 2  # min_size=2: two connections were open
        assert failures >= 1
        # restarted while the loop runs: the pool sees its connections close and reconnects
        await asyncio.to_thread(faults.restart, own_pg)
        assert await pool.fetchval("SELECT 1") == 1
        # stopped: acquiring a new connection fails at once — after, on a busy machine, a
        # connection of the restart the loop had not yet seen closed fails once when it is used
        # (at most the pool's max_size of them; the same race as above)
        await asyncio.to_thread(faults.stop, own_pg)
        stale = 0
        while True:
            try:
                await pool.fetchval("SELECT 1")
            except FileNotFoundError:
                break
            except asyncpg.ConnectionDoesNotExistError:
                stale += 1
                assert stale <= 3, "more dead connections than the pool holds"
            else:
                raise AssertionError("a query succeeded on a stopped server")
        await asyncio.to_thread(faults.start, own_pg)
        assert await pool.fetchval("SELECT 1") == 1
    finally:
        pool.terminate()


async def test_pool_under_a_frozen_server(own_pg):
    """The findings (a)–(e) of faults.py, with command_timeout=1 instead of 5 to stay short."""
    url = await faults.create_database(own_pg)
    pool = await asyncpg.create_pool(url, min_size=2, max_size=3, command_timeout=1)
    try:
        await pool.execute("CREATE TABLE t (v int)")
        c = await pool.acquire()
        tr = c.transaction()
        await tr.start()
        await c.execute("INSERT INTO t VALUES (1)")
        faults.freeze(own_pg)
        # (a) an idle connection is handed out at once (no check); a new one times out
        with Timer() as t:
            idle = await pool.acquire(timeout=0.5)
        assert t.elapsed < 0.4
        with Timer() as t, pytest.raises(asyncio.TimeoutError):
            await pool.acquire(timeout=1)
        assert 0.9 < t.elapsed < 2
        # (b) a query raises TimeoutError after command_timeout
        with Timer() as t, pytest.raises(asyncio.TimeoutError):
            await idle.fetchval("SELECT 1")
        assert 0.9 < t.elapsed < 2
        # (c) release waits for the cancel request, which gives up after command_timeout and
        # terminates the connection; with acquire(timeout=0.5) release waits that long at most,
        # then terminates the connection and raises TimeoutError
        with Timer() as t, pytest.raises(asyncio.TimeoutError):
            await pool.release(idle)
        assert 0.4 < t.elapsed < 1.5
        # (d) COMMIT raises TimeoutError after command_timeout; release then waits for the cancel
        with Timer() as t, pytest.raises(asyncio.TimeoutError):
            await tr.commit()
        assert 0.9 < t.elapsed < 2
        with Timer() as t:
            await pool.release(c)  # acquired without a timeout: waits, then returns
        assert 0.9 < t.elapsed < 2.5
        assert pool.get_idle_size() == 0  # both connections were terminated
        faults.thaw(own_pg)
        # (e) the pool reconnects by itself — and the COMMIT that timed out was in the dead
        # connection's socket buffer: the thawed backend runs it, the row is there after all
        deadline = time.monotonic() + 5
        while await pool.fetchval("SELECT count(*) FROM t") != 1:
            assert time.monotonic() < deadline, "the timed-out COMMIT never landed"
            await asyncio.sleep(0.05)
    finally:
        faults.thaw(own_pg)
        pool.terminate()


# -- PostgreSQL: the shared server -----------------------------------------------------------------

async def test_terminate_backends(pg_server, pg_url):
    idle = await _connect(pg_url)
    busy = await _connect(pg_url)
    pool = await asyncpg.create_pool(pg_url, min_size=2, max_size=2, command_timeout=5)
    try:
        running = asyncio.ensure_future(busy.fetchval("SELECT pg_sleep(10)"))
        await asyncio.sleep(0.2)
        n = await faults.terminate_backends(pg_server.base_url, pg_url)
        assert n >= 4
        # a query that was running: the server's FATAL is the cause
        with pytest.raises(asyncpg.ConnectionDoesNotExistError) as e:
            await asyncio.wait_for(running, 5)
        assert isinstance(e.value.__cause__, asyncpg.AdminShutdownError)
        # an idle connection saw its socket close while the loop waited: it is closed
        assert idle.is_closed()
        with pytest.raises(asyncpg.InterfaceError, match="connection is closed"):
            await idle.fetchval("SELECT 1")
        # the pool drops the dead connections and opens new ones
        assert await pool.fetchval("SELECT 1") == 1
    finally:
        idle.terminate()
        busy.terminate()
        pool.terminate()


async def test_statement_timeout_in_the_url_and_lock_table(pg_url):
    url = faults.with_params(pg_url, statement_timeout=1000)
    conn = await _connect(url)
    try:
        assert await conn.fetchval("SHOW statement_timeout") == "1s"  # a server setting
        await conn.execute("CREATE TABLE locked_t (v int)")
        async with faults.lock_table(pg_url, "locked_t") as holder:
            assert not holder.is_closed()
            with Timer() as t, pytest.raises(asyncpg.QueryCanceledError):
                await conn.fetch("SELECT * FROM locked_t", timeout=10)
            assert 0.9 < t.elapsed < 5
            with pytest.raises(asyncpg.QueryCanceledError):
                await conn.execute("INSERT INTO locked_t VALUES (1)", timeout=10)
            assert await conn.fetchval("SELECT 1") == 1  # the connection itself is fine
        assert holder.is_closed()
        assert await conn.fetch("SELECT * FROM locked_t") == []
        # held for `seconds` only: a query without a statement timeout waits, then succeeds
        plain = await _connect(pg_url)
        try:
            async with faults.lock_table(pg_url, "locked_t", seconds=0.5):
                with Timer() as t:
                    assert await plain.fetch("SELECT * FROM locked_t", timeout=10) == []
                assert 0.4 < t.elapsed < 5
        finally:
            await plain.close()
    finally:
        await conn.close()


# -- SQLite ----------------------------------------------------------------------------------------

BIG_ROW = "x" * 10000  # larger than a page: the insert needs new pages


def _wal(path, timeout: float = 5.0) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, timeout=timeout)
    assert conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    conn.execute("PRAGMA synchronous=FULL")
    return conn


def test_sqlite_full_with_max_page_count(tmp_path):
    path = tmp_path / "full.db"
    conn = _wal(path)
    try:
        conn.execute("CREATE TABLE t (v TEXT)")
        conn.execute("INSERT INTO t VALUES ('a')")
        old = faults.set_sqlite_full(conn)
        with pytest.raises(sqlite3.OperationalError, match="database or disk is full") as e:
            conn.execute("INSERT INTO t VALUES (?)", (BIG_ROW,))
        assert e.value.sqlite_errorname == "SQLITE_FULL"
        # inside a transaction, SQLITE_FULL rolls the whole transaction back
        conn.execute("BEGIN")
        conn.execute("INSERT INTO t VALUES ('in the transaction')")
        with pytest.raises(sqlite3.OperationalError):
            conn.execute("INSERT INTO t VALUES (?)", (BIG_ROW,))
        assert not conn.in_transaction
        # only this connection is limited
        other = _wal(path)
        other.execute("INSERT INTO t VALUES (?)", (BIG_ROW,))
        other.close()
        faults.clear_sqlite_full(conn, old)
        conn.execute("INSERT INTO t VALUES (?)", (BIG_ROW,))
        with faults.sqlite_full(conn):
            with pytest.raises(sqlite3.OperationalError):
                conn.execute("INSERT INTO t VALUES (?)", (BIG_ROW,))
        conn.execute("INSERT INTO t VALUES (?)", (BIG_ROW,))
        assert [r[0][:1] for r in conn.execute("SELECT v FROM t")] == ["a", "x", "x", "x"]
    finally:
        conn.close()


async def test_aiosqlite_full_with_max_page_count(tmp_path):
    db = await aiosqlite.connect(tmp_path / "afull.db", isolation_level=None, timeout=5)
    try:
        assert (await db.execute_fetchall("PRAGMA journal_mode=WAL"))[0][0] == "wal"
        await db.execute("PRAGMA synchronous=FULL")
        await db.execute("CREATE TABLE t (v TEXT)")
        async with faults.asqlite_full(db):
            with pytest.raises(sqlite3.OperationalError) as e:
                await db.execute("INSERT INTO t VALUES (?)", (BIG_ROW,))
            assert e.value.sqlite_errorname == "SQLITE_FULL"
        await db.execute("INSERT INTO t VALUES (?)", (BIG_ROW,))
        old = await faults.aset_sqlite_full(db)
        with pytest.raises(sqlite3.OperationalError):
            await db.execute("INSERT INTO t VALUES (?)", (BIG_ROW,))
        await faults.aclear_sqlite_full(db, old)
        await db.execute("INSERT INTO t VALUES (?)", (BIG_ROW,))
        assert (await db.execute_fetchall("SELECT count(*) FROM t"))[0][0] == 2
    finally:
        await db.close()


def test_full_disk_dir_fails_any_write():
    with faults.full_disk_dir("1M") as disk:
        conn = _wal(disk.path / "disk.db")
        try:
            conn.execute("CREATE TABLE t (v TEXT)")
            conn.execute("INSERT INTO t VALUES ('a')")
            disk.fill()
            assert disk.available() == 0
            with pytest.raises(sqlite3.OperationalError) as e:
                conn.execute("INSERT INTO t VALUES ('b')")  # a small row: the WAL must grow
            assert e.value.sqlite_errorname == "SQLITE_FULL"
            disk.free()
            conn.execute("INSERT INTO t VALUES ('c')")
        finally:
            conn.close()
        folder = disk.path
    assert not folder.exists()


def test_sqlite_locked(tmp_path):
    path = tmp_path / "locked.db"
    conn = _wal(path, timeout=0.3)
    try:
        conn.execute("CREATE TABLE t (v TEXT)")
        conn.execute("INSERT INTO t VALUES ('a')")
        for mode in ("EXCLUSIVE", "IMMEDIATE"):
            with faults.sqlite_locked(path, mode=mode) as holder:
                holder.execute("INSERT INTO t VALUES ('not committed')")
                with Timer() as t, pytest.raises(sqlite3.OperationalError, match="database is locked") as e:
                    conn.execute("INSERT INTO t VALUES ('b')")
                assert e.value.sqlite_errorname == "SQLITE_BUSY"
                assert 0.25 < t.elapsed < 2  # after the busy timeout
                # WAL: readers still read the last committed state, even with EXCLUSIVE
                assert conn.execute("SELECT v FROM t").fetchall() == [("a",)]
        conn.execute("INSERT INTO t VALUES ('b')")  # released (and rolled back)
        # held for `seconds`: a writer with a longer busy timeout waits, then succeeds
        with faults.sqlite_locked(path, seconds=0.5):
            patient = _wal(path, timeout=5)
            with Timer() as t:
                patient.execute("INSERT INTO t VALUES ('c')")
            patient.close()
            assert 0.4 < t.elapsed < 4
        assert [r[0] for r in conn.execute("SELECT v FROM t")] == ["a", "b", "c"]
    finally:
        conn.close()


async def test_sqlite_locked_seen_by_aiosqlite(tmp_path):
    path = tmp_path / "alocked.db"
    setup = _wal(path)
    setup.execute("CREATE TABLE t (v TEXT)")
    setup.close()
    db = await aiosqlite.connect(path, isolation_level=None, timeout=0.3)
    try:
        with faults.sqlite_locked(path):
            with pytest.raises(sqlite3.OperationalError) as e:
                await db.execute("INSERT INTO t VALUES ('a')")
            assert e.value.sqlite_errorname == "SQLITE_BUSY"
        await db.execute("INSERT INTO t VALUES ('a')")
    finally:
        await db.close()


def test_sqlite_locked_exclusive_blocks_readers_in_rollback_journal_mode(tmp_path):
    path = tmp_path / "journal.db"
    conn = sqlite3.connect(path, isolation_level=None, timeout=0.3)
    try:
        conn.execute("CREATE TABLE t (v TEXT)")
        with faults.sqlite_locked(path, mode="EXCLUSIVE"):
            with pytest.raises(sqlite3.OperationalError) as e:
                conn.execute("SELECT * FROM t").fetchall()
            assert e.value.sqlite_errorname == "SQLITE_BUSY"
        assert conn.execute("SELECT * FROM t").fetchall() == []
    finally:
        conn.close()
