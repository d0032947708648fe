"""Fault injection for the database failure tests: a PostgreSQL server that stops, restarts,
hangs or drops its connections, a table someone else holds locked, an SQLite database that is
full or locked.  Everything is local: Unix sockets and files, no network.  Each helper is proven
by ``tests/test_faults_harness.py`` with plain asyncpg / sqlite3 connections.

PostgreSQL (a server of the test's own; never stop or freeze the session's shared ``pg_server``)::

    own_pg_server(*, durable=False, skip=True)   -> ContextManager[PgServer]   (stopped+removed after)
    await create_database(server, name=None)     -> str (its URL)
    create_database_sync(server, name=None)      -> str (its URL; safe inside a running loop)
    with_params(url, **params)                   -> str (url with query parameters added)
    postmaster_pid(server) -> int | None;  server_pids(server) -> list[int]
    stop(server);  start(server, wait=True);  restart(server)          (blocking: pg_ctl)
    freeze(server);  thaw(server);  is_frozen(server) -> bool
    frozen(server, seconds=None)                 -> ContextManager[None]   (thaws on exit, always)
    await terminate_backends(admin_url, dbname_or_url, wait=5.0) -> int  (how many were terminated)
    db_name(url) -> str
    lock_table(url, table, seconds=None)         -> AsyncContextManager[asyncpg.Connection]

SQLite::

    set_sqlite_full(conn: sqlite3.Connection) -> int;   clear_sqlite_full(conn, limit=None)
    await aset_sqlite_full(conn: aiosqlite.Connection) -> int;  await aclear_sqlite_full(conn, limit=None)
    sqlite_full(conn: sqlite3.Connection)        -> ContextManager[None]
    asqlite_full(conn: aiosqlite.Connection)     -> AsyncContextManager[None]
    full_disk_dir(size="1M", *, skip=True)       -> ContextManager[FullDisk]  (.path, .fill(), .free())
    sqlite_locked(path, seconds=None, mode="EXCLUSIVE", timeout=5.0) -> ContextManager[sqlite3.Connection]

``stop``/``start``/``restart`` call ``pg_ctl`` and block for up to a few seconds: from a test that
must keep its event loop running meanwhile, ``await asyncio.to_thread(faults.restart, server)``.
``freeze``/``thaw`` only send signals (milliseconds).

What the faults look like to asyncpg 0.32.0 (PostgreSQL 15, SQLite 3.40.1, Python 3.11), measured
here with tiny scripts on this machine (see tests/test_faults_harness.py for the ones that are
asserted); `TimeoutError` is `asyncio.TimeoutError` (the same class on 3.11):

PostgreSQL frozen (freeze), pool = create_pool(url, min_size=2, max_size=3, command_timeout=5):
  (a) pool.acquire(timeout=T): an idle connection is handed out at once (0.000 s: the pool does no
      liveness check).  One it must open (none idle, size < max) hangs — the socket is accepted
      into the listen backlog, the startup is never answered — and raises TimeoutError after T
      (2.003 s for T=2).  Without T: after the pool's connect timeout, create_pool(timeout=...),
      default 60 s (measured 60.008 s; 3.001 s with timeout=3).
  (b) a query on an acquired connection (no per-call timeout) raises TimeoutError after
      command_timeout: 5.003-5.007 s.  The connection is not closed then; asyncpg sends a
      CancelRequest on a new connection in the background, which hangs too and gives up after
      another command_timeout, then terminates the connection.  A second query on it meanwhile
      also raises TimeoutError after 5.007 s.  (fetchval(..., timeout=1): TimeoutError after
      1.005 s; asyncpg.connect(timeout=1): TimeoutError after 1.002 s.)
  (c) release waits for that background cancel.  Acquired without a timeout: pool.release
      returns normally ~command_timeout after the query's timeout (5.003-5.006 s) and the
      connection is terminated (the pool's size drops; the holder is reused empty).  Acquired
      with acquire(timeout=T): release waits at most T — T=2: raises TimeoutError after 2.003 s
      (the connection terminated too); T=10: returns at 5.005 s.  Released later than that:
      returns at once (already terminated).  It never hangs for good (it would without
      command_timeout: the cancel then waits forever).  So under a frozen server
      `async with pool.acquire() as c: await c.fetchval(...)` raises TimeoutError only after
      10.01 s (query 5 s + release 5 s), and pool.fetchval(...) likewise after 10.008 s.  If
      the server thaws during the wait, the cancel goes through, release returns at once and
      the connection is kept (thawed 1 s into the release: it returned after 1.014 s).
  (d) tr.start() (BEGIN), tr.commit() and the exit of `async with conn.transaction():` each
      raise TimeoutError after command_timeout (5.006 / 5.005 / 5.009 s).  BUT the COMMIT is
      already in the backend's socket buffer: once thawed the backend runs it and the
      transaction IS committed (5 runs out of 5), though the client saw TimeoutError and
      terminated the connection.  A timed-out COMMIT, or any statement sent by the simple
      protocol (execute() without arguments), has an unknown outcome; a statement with
      arguments (extended protocol: asyncpg waits for Parse/Describe before it sends Execute)
      that timed out while frozen was never run (5 of 5).
  (e) after thaw the pool recovers by itself: the next acquire+query works (0.017 s; it opens
      new connections for the terminated ones).  Idle connections not used meanwhile just work.

PostgreSQL stopped (stop: pg_ctl stop -m immediate) and restarted on the same socket:
  * while stopped: asyncpg.connect, pool.acquire(timeout=2) and pool.fetchval raise
    FileNotFoundError at once (0.001 s: the Unix socket file is gone; over TCP it would be
    ConnectionRefusedError).  A query on a connection that was open: asyncpg.
    ConnectionDoesNotExistError "connection was closed in the middle of operation" (when the
    loop had not yet seen the EOF) or asyncpg.InterfaceError "connection is closed" (when it had).
  * starting (start(wait=False)): FileNotFoundError until the socket is there, then
    asyncpg.CannotConnectNowError "the database system is starting up" / "... is not yet
    accepting connections" (crash recovery), then connections work (~0.1 s in all here).
    restart() returns once the server accepts connections (0.23-0.34 s).
  * the pool's next query after the restart: if the event loop ran while the server went down
    (the realistic case; here `await asyncio.to_thread(restart, server)`), asyncpg saw the EOF
    at once, dropped those connections and reconnects (asyncpg 0.32 logs "Failed to restore the
    pool connection floor; retrying" with CannotConnectNowError "the database system is
    shutting down" while it is down): the first query after the restart succeeds (36 of 36).
    If the loop did not run meanwhile (a blocking restart), the first query raises
    asyncpg.ConnectionDoesNotExistError "connection was closed in the middle of operation"
    (__cause__ BrokenPipeError) after 0.002 s, and so does each further attempt that gets
    another pooled connection from before the restart, until the loop has polled their sockets:
    retried at once (or after asyncio.sleep(0)), both min_size=2 connections failed (8 of 8);
    retried after asyncio.sleep(0.01) or inside asyncio.wait_for, only the first failed (26 of
    26).  After those failures the pool reconnects and the query works.  So: retry
    ConnectionDoesNotExistError with a short sleep, at most pool size + 1 times.  A connection
    held (acquired) across a restart goes back to the pool by itself: any call on it raises
    asyncpg.InterfaceError "cannot call Connection.fetchval(): connection has been released back
    to the pool"; releasing it is fine.

terminate_backends: a query running then raises asyncpg.ConnectionDoesNotExistError "connection
  was closed in the middle of operation: terminating connection due to administrator command"
  (__cause__ asyncpg.AdminShutdownError, SQLSTATE 57P01); an idle connection is closed as soon
  as the loop runs, its next call raises asyncpg.InterfaceError "connection is closed"; a pool
  drops its killed connections and the next pool query works.

lock_table: asyncpg sends unknown URL query parameters as server settings (verified:
  ?statement_timeout=1000 gives SHOW statement_timeout = '1s').  A read or write of the locked
  table then raises asyncpg.QueryCanceledError ("canceling statement due to statement timeout")
  after ~1.0 s, the connection stays usable.  With only command_timeout=2: TimeoutError after
  2.003 s and the connection stays usable (the server is alive: the CancelRequest works).

SQLite:
  * max_page_count = page_count (set_sqlite_full): a write that needs a new page raises
    sqlite3.OperationalError "database or disk is full", sqlite_errorname 'SQLITE_FULL'
    (code 13); a small row that fits in an existing page still succeeds.  Inside an explicit
    transaction SQLITE_FULL rolls the WHOLE transaction back (in_transaction is False after it,
    its earlier statements are gone).  Other connections are not limited; raising the limit
    again makes writes work.  Same in WAL + synchronous=FULL, with sqlite3 and aiosqlite.
  * a full tmpfs (full_disk_dir: mounting works here, as root): once filled, the very first
    small INSERT in WAL mode fails with SQLITE_FULL (the WAL must grow), so does a checkpoint;
    free() and writes work again.
  * sqlite_locked: a writer on another connection (measured in the same process; SQLite's file
    locks work the same across processes) gets OperationalError "database is locked",
    'SQLITE_BUSY', after its busy timeout (0.30 s for timeout=0.3).  WAL mode: readers
    still read the last committed state, with EXCLUSIVE as with IMMEDIATE; rollback-journal
    mode: EXCLUSIVE makes readers fail with SQLITE_BUSY too.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import os
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Iterator
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

import pg_server as _pg
from pg_server import PgServer, Unavailable

__all__ = [
    "FullDisk", "PgServer", "Unavailable", "aclear_sqlite_full", "aset_sqlite_full",
    "asqlite_full", "clear_sqlite_full", "create_database", "create_database_sync", "db_name", "freeze",
    "frozen", "full_disk_dir", "is_frozen", "lock_table", "own_pg_server", "postmaster_pid",
    "restart", "server_pids", "set_sqlite_full", "sqlite_full", "sqlite_locked", "start", "stop",
    "terminate_backends", "thaw", "with_params",
]

# folders of the servers own_pg_server started (only those may be stopped or frozen) and, for a
# frozen one, the pids it stopped
_own: set[Path] = set()
_frozen: dict[Path, set[int]] = {}
_frozen_lock = threading.Lock()
_db_numbers = itertools.count(1)


# -- PostgreSQL: a server of the test's own ------------------------------------------------------

@contextmanager
def own_pg_server(*, durable: bool = False, skip: bool = True) -> Iterator[PgServer]:
    """A throw-away PostgreSQL server of this test's own (never the session's shared one, even
    when ``TEST_POSTGRES_URL`` is set): the test may stop, restart or freeze it.  At the end,
    even when the test fails, it is thawed, stopped and its folder removed.  Without server
    binaries it skips the test (``skip=False``: raises :class:`pg_server.Unavailable`).

    As a fixture::

        @pytest.fixture
        def own_pg():
            with faults.own_pg_server() as server:
                yield server
    """
    try:
        server = _pg.start_local(durable)
    except Unavailable as e:
        if skip and not os.environ.get("REQUIRE_POSTGRES"):   # .ci/run requires them to run
            pytest.skip(f"PostgreSQL fault tests need a server of their own: {e}")
        raise
    assert server.folder is not None
    _own.add(server.folder)
    try:
        yield server
    finally:
        try:
            thaw(server)
        finally:
            _own.discard(server.folder)
            server.stop()


async def create_database(server: PgServer, name: str | None = None) -> str:
    """Creates a database on ``server`` and returns its URL (no need to drop it on a server of
    the test's own: the whole server goes)."""
    import asyncpg

    name = name or f"fault_{os.getpid()}_{next(_db_numbers)}"
    conn = await asyncpg.connect(server.base_url, timeout=10)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return server.url(name)


def create_database_sync(server: PgServer, name: str | None = None) -> str:
    """:func:`create_database` from synchronous code (a fixture), on a thread of its own so that
    it also works while an event loop is running."""
    with concurrent.futures.ThreadPoolExecutor(1) as ex:
        return ex.submit(asyncio.run, create_database(server, name)).result()


def with_params(url: str, **params: Any) -> str:
    """``url`` with query parameters added (replacing those of the same name).  asyncpg sends a
    query parameter it does not know itself as a server setting, so
    ``with_params(url, statement_timeout=1000)`` gives every connection of that URL a 1 s
    statement timeout (checked by the harness tests)."""
    p = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(p.query, keep_blank_values=True) if k not in params]
    query += [(k, str(v)) for k, v in params.items()]
    return urlunsplit((p.scheme, p.netloc, p.path, urlencode(query, safe="/"), p.fragment))


def _local(server: PgServer) -> Path:
    if server.folder is None or server.bin_dir is None:
        raise ValueError("this needs a server in a folder of its own (own_pg_server), not "
                         "TEST_POSTGRES_URL")
    if server.folder not in _own:
        raise ValueError(f"{server.folder} was not started by own_pg_server: never stop or freeze "
                         "a server other tests share")
    return server.folder


def postmaster_pid(server: PgServer) -> int | None:
    """The pid of the server's postmaster (first line of ``data/postmaster.pid``), or None when
    the server is not running."""
    folder = _local(server)
    try:
        pid = int((folder / "data" / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None
    return pid if _stat(pid) is not None else None


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, ppid) of a process from /proc, None when it is gone."""
    try:
        s = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = s[s.rindex(")") + 2:].split()  # the name in parentheses may hold spaces
    return fields[0], int(fields[1])


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None:
                children.setdefault(st[1], []).append(int(entry))
    out, todo = [], [root]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def server_pids(server: PgServer) -> list[int]:
    """The postmaster and all its descendants (backends, checkpointer, wal writer, ...)."""
    pm = postmaster_pid(server)
    return [] if pm is None else [pm, *_descendants(pm)]


def _pg_ctl(server: PgServer, *args: str, timeout: float = 90) -> subprocess.CompletedProcess:
    return subprocess.run([str(server.bin_dir / "pg_ctl"), "-D", str(server.folder / "data"), *args],
                          cwd=server.folder, capture_output=True, text=True, timeout=timeout,
                          **server.run_as)


def stop(server: PgServer) -> None:
    """``pg_ctl stop -m immediate`` (a crash: no checkpoint, clients' connections cut).  Thaws a
    frozen server first (a stopped postmaster would never handle the signal).  Does nothing
    when the server is not running.  Blocks until it is down (tens of milliseconds)."""
    _local(server)
    thaw(server)
    if postmaster_pid(server) is None:
        return
    p = _pg_ctl(server, "-m", "immediate", "-w", "-t", "60", "stop")
    if p.returncode != 0 and postmaster_pid(server) is not None:
        raise RuntimeError(f"pg_ctl stop failed ({p.returncode}): {p.stderr.strip() or p.stdout.strip()}")


def start(server: PgServer, wait: bool = True) -> None:
    """Starts a stopped server again on the same data folder and socket with the options
    :func:`pg_server.start_local` used, so its URLs stay valid.  ``wait``: return once it
    accepts connections (after its crash recovery); ``wait=False`` returns at once, and while
    it starts up a connection fails with ``asyncpg.CannotConnectNowError`` (or with
    ``FileNotFoundError``/``ConnectionRefusedError`` before the socket is there)."""
    folder = _local(server)
    if postmaster_pid(server) is not None:
        raise RuntimeError(f"the server in {folder} is running")
    try:  # the options the postmaster last ran with tell whether it was a durable one
        durable = "fsync=off" not in (folder / "data" / "postmaster.opts").read_text()
    except OSError:
        durable = False
    args = ["-l", str(folder / "server.log"), "-o", _pg.server_options(folder, durable)]
    p = _pg_ctl(server, *args, *(["-w", "-t", "60"] if wait else ["-W"]), "start")
    if p.returncode != 0:
        log = folder / "server.log"
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        raise RuntimeError(f"pg_ctl start failed ({p.returncode}): {p.stderr.strip() or p.stdout.strip()}"
                           + (f"\n{tail}" if tail else ""))


def restart(server: PgServer) -> None:
    """:func:`stop` (immediate) then :func:`start`: a crashed and restarted server at the same
    address.  Clients' open connections are dead; new ones work once this returns."""
    stop(server)
    start(server)


def _wait_stopped(pid: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        st = _stat(pid)
        if st is None or st[0] in ("T", "t", "Z", "X"):
            return
        time.sleep(0.001)


def freeze(server: PgServer) -> None:
    """SIGSTOP to the postmaster and every process under it: the server hangs as in a network
    partition — connections stay open, nothing answers, new connections are not accepted
    (their connect hangs).  The postmaster is stopped first so that it forks nothing new, then
    its descendants, until none is left running.  Undo with :func:`thaw` (or use
    :func:`frozen`); :func:`own_pg_server` and :func:`stop` thaw first."""
    folder = _local(server)
    pm = postmaster_pid(server)
    if pm is None:
        raise RuntimeError(f"the server in {folder} is not running")
    with _frozen_lock:
        stopped = _frozen.setdefault(folder, set())
        deadline = time.monotonic() + 5
        os.kill(pm, signal.SIGSTOP)
        stopped.add(pm)
        _wait_stopped(pm, deadline)
        while True:
            new = [p for p in _descendants(pm) if p not in stopped]
            if not new:
                break
            for p in new:
                try:
                    os.kill(p, signal.SIGSTOP)
                except ProcessLookupError:
                    continue
                stopped.add(p)
            for p in new:
                _wait_stopped(p, deadline)
            if time.monotonic() > deadline:
                raise RuntimeError("could not freeze every process of the server")


def thaw(server: PgServer) -> None:
    """SIGCONT to every process :func:`freeze` stopped and every process of the server (harmless
    when it is not frozen, or not running).  The children first, the postmaster last."""
    folder = _local(server)
    with _frozen_lock:
        pids = _frozen.pop(folder, set())
        pm = postmaster_pid(server)
        if pm is not None:
            pids |= {pm, *_descendants(pm)}
        for p in sorted(pids, key=lambda p: p == pm):
            try:
                os.kill(p, signal.SIGCONT)
            except ProcessLookupError:
                pass


def is_frozen(server: PgServer) -> bool:
    return _local(server) in _frozen


@contextmanager
def frozen(server: PgServer, seconds: float | None = None) -> Iterator[None]:
    """The server frozen for the block, thawed when it ends however it ends; with ``seconds``,
    thawed after that long even if the block is still running (a hang that ends by itself)."""
    freeze(server)
    timer = threading.Timer(seconds, thaw, (server,)) if seconds is not None else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
        thaw(server)


def db_name(url: str) -> str:
    """The database name in a ``postgresql://…/NAME?…`` URL."""
    from urllib.parse import unquote
    return unquote(urlsplit(url).path.lstrip("/"))


async def terminate_backends(admin_url: str, dbname: str, wait: float = 5.0) -> int:
    """``pg_terminate_backend`` of every connection to ``dbname`` (a name, or a URL of that
    database) other than this one (as a failover or a restarted pooler does), then waits (up to
    ``wait`` s) until they are gone.  Returns how many were terminated.  Works on the session's
    shared server too."""
    import asyncpg

    if "://" in dbname:
        dbname = db_name(dbname)
    conn = await asyncpg.connect(admin_url, timeout=10)
    try:
        pids = [r[0] for r in await conn.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", dbname)]
        for pid in pids:
            await conn.fetchval("SELECT pg_terminate_backend($1)", pid)
        deadline = time.monotonic() + wait
        while pids and time.monotonic() < deadline:
            left = await conn.fetchval("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1::int[])",
                                       pids)
            if not left:
                break
            await asyncio.sleep(0.01)
        return len(pids)
    finally:
        await conn.close()


@asynccontextmanager
async def lock_table(url: str, table: str, seconds: float | None = None) -> AsyncIterator[Any]:
    """Another session holds ``table`` (an SQL name, put in the statement as it is) in ACCESS
    EXCLUSIVE mode: its own connection runs ``BEGIN; LOCK TABLE … IN ACCESS EXCLUSIVE MODE``
    (waiting for the lock if need be) and holds it for the block — or, with ``seconds``, until
    that long has passed if that is sooner — then rolls back.  Every read or write of the table
    from elsewhere waits meanwhile; with a ``statement_timeout`` (``with_params(url,
    statement_timeout=1000)``) it fails with ``asyncpg.QueryCanceledError``.  Yields the
    holding connection."""
    import asyncpg

    conn = await asyncpg.connect(url, timeout=10)
    tr = conn.transaction()
    released = asyncio.Lock()
    done = False

    async def release() -> None:
        nonlocal done
        async with released:
            if not done:
                done = True
                try:
                    await tr.rollback()
                finally:
                    await conn.close()

    async def later() -> None:
        await asyncio.sleep(seconds)
        await release()

    timer = None
    try:
        await tr.start()
        await conn.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        if seconds is not None:
            timer = asyncio.ensure_future(later())
        yield conn
    finally:
        if timer is not None:
            timer.cancel()
            try:
                await timer
            except asyncio.CancelledError:
                pass
        await release()


# -- SQLite: full --------------------------------------------------------------------------------
#
# PRAGMA max_page_count is per connection: set it on the connection the code under test writes
# with.  SQLite will not set it below the current page count, so it is set to exactly that: a
# write that needs one more page fails with SQLITE_FULL ("database or disk is full").  A write
# that fits in the free space of existing pages (a small row in a half-empty page, or pages on
# the freelist — PRAGMA freelist_count) still succeeds: make the failing write one that grows
# the file (e.g. a value larger than a page, 4096 bytes), or use full_disk_dir, where any write
# fails once the WAL file must grow.

def _pages(rows: list) -> int:
    return int(rows[0][0])


def _default_max_pages() -> int:
    conn = sqlite3.connect(":memory:")
    try:
        return _pages(conn.execute("PRAGMA max_page_count").fetchall())
    finally:
        conn.close()


def set_sqlite_full(conn: sqlite3.Connection) -> int:
    """From now on this connection's writes that need a new page fail with SQLITE_FULL.
    Returns the previous limit, for :func:`clear_sqlite_full`."""
    old = _pages(conn.execute("PRAGMA max_page_count").fetchall())
    count = _pages(conn.execute("PRAGMA page_count").fetchall())
    conn.execute(f"PRAGMA max_page_count = {count}").fetchall()
    return old


def clear_sqlite_full(conn: sqlite3.Connection, limit: int | None = None) -> None:
    """Undoes :func:`set_sqlite_full`: ``limit`` is what it returned (default: SQLite's
    maximum, which is what a new connection has)."""
    conn.execute(f"PRAGMA max_page_count = {int(limit or _default_max_pages())}").fetchall()


async def aset_sqlite_full(conn: Any) -> int:
    """:func:`set_sqlite_full` on an ``aiosqlite.Connection``."""
    old = _pages(await conn.execute_fetchall("PRAGMA max_page_count"))
    count = _pages(await conn.execute_fetchall("PRAGMA page_count"))
    await conn.execute_fetchall(f"PRAGMA max_page_count = {count}")
    return old


async def aclear_sqlite_full(conn: Any, limit: int | None = None) -> None:
    """:func:`clear_sqlite_full` on an ``aiosqlite.Connection``."""
    await conn.execute_fetchall(f"PRAGMA max_page_count = {int(limit or _default_max_pages())}")


@contextmanager
def sqlite_full(conn: sqlite3.Connection) -> Iterator[None]:
    """The database is full for ``conn`` during the block (see :func:`set_sqlite_full`)."""
    old = set_sqlite_full(conn)
    try:
        yield
    finally:
        clear_sqlite_full(conn, old)


@asynccontextmanager
async def asqlite_full(conn: Any) -> AsyncIterator[None]:
    """The database is full for the ``aiosqlite.Connection`` during the block."""
    old = await aset_sqlite_full(conn)
    try:
        yield
    finally:
        await aclear_sqlite_full(conn, old)


@dataclass
class FullDisk:
    """A small tmpfs at ``path``: put the database there, then :meth:`fill` takes all its free
    space (any write that must grow a file then fails with ENOSPC, which SQLite reports as
    SQLITE_FULL) and :meth:`free` gives it back."""

    path: Path

    @property
    def _filler(self) -> Path:
        return self.path / ".filler"

    def fill(self) -> None:
        with open(self._filler, "ab", buffering=0) as f:
            chunk = b"\0" * 65536
            while True:
                try:
                    f.write(chunk)
                except OSError:
                    if len(chunk) == 512:
                        break
                    chunk = chunk[: len(chunk) // 2]

    def free(self) -> None:
        self._filler.unlink(missing_ok=True)

    def available(self) -> int:
        st = os.statvfs(self.path)
        return st.f_bavail * st.f_frsize


@contextmanager
def full_disk_dir(size: str = "1M", *, skip: bool = True) -> Iterator[FullDisk]:
    """A folder on a tmpfs of ``size`` mounted for the block (root only), unmounted and removed
    afterwards.  Where mounting is not permitted (not root, no CAP_SYS_ADMIN) it skips the test
    (``skip=False``: raises :class:`pg_server.Unavailable`).  Close the connections to files in
    it before the block ends (else the unmount is lazy: the files live on until closed)."""
    why = None
    folder = Path(tempfile.mkdtemp(prefix="doujin-full-"))
    if os.geteuid() != 0 or shutil.which("mount") is None:
        why = "mounting a tmpfs needs root and mount(8)"
    else:
        p = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(folder)],
                           capture_output=True, text=True, timeout=30)
        if p.returncode != 0:
            why = f"cannot mount a tmpfs: {p.stderr.strip() or p.returncode}"
    if why is not None:
        folder.rmdir()
        if skip:
            pytest.skip(why)
        raise Unavailable(why)
    try:
        yield FullDisk(folder)
    finally:
        p = subprocess.run(["umount", str(folder)], capture_output=True, timeout=30)
        if p.returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True, timeout=30)
        try:
            folder.rmdir()
        except OSError:
            pass


# -- SQLite: locked ------------------------------------------------------------------------------

@contextmanager
def sqlite_locked(path: str | os.PathLike, seconds: float | None = None, mode: str = "EXCLUSIVE",
                  timeout: float = 5.0) -> Iterator[sqlite3.Connection]:
    """Another connection holds ``BEGIN <mode>`` (EXCLUSIVE or IMMEDIATE) on the database for
    the block — or, with ``seconds``, until that long has passed if that is sooner — then rolls
    back.  Meanwhile a writer elsewhere (this process or another) gets SQLITE_BUSY "database is
    locked" after its busy timeout.  In WAL mode EXCLUSIVE is the same as IMMEDIATE: readers
    still read (the last committed state); in rollback-journal mode EXCLUSIVE locks readers out
    too.  ``timeout``: how long taking the lock may wait for a writer that is already there.
    Yields the holding connection (it may write in its open transaction; all is rolled back)."""
    mode = mode.upper()
    if mode not in ("EXCLUSIVE", "IMMEDIATE"):
        raise ValueError(f"mode must be EXCLUSIVE or IMMEDIATE, not {mode!r}")
    conn = sqlite3.connect(path, isolation_level=None, timeout=timeout, check_same_thread=False)
    guard = threading.Lock()
    done = False

    def release() -> None:
        nonlocal done
        with guard:
            if not done:
                done = True
                try:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                finally:
                    conn.close()

    timer = None
    try:
        conn.execute(f"BEGIN {mode}")
        if seconds is not None:
            timer = threading.Timer(seconds, release)
            timer.daemon = True
            timer.start()
        yield conn
    finally:
        if timer is not None:
            timer.cancel()
        release()
