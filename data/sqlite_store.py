"""The embedded SQLite backend of :class:`data.store.Store` (aiosqlite, WAL, versioned migrations).

Durability and concurrency:

* ``journal_mode=WAL`` (readers never block the writer), ``synchronous=FULL`` (a commit is fsynced
  to the WAL before it returns, so an acknowledged command survives a power cut, not only a
  crash of the process), ``foreign_keys=ON`` and a busy timeout, so a second process sharing the
  file waits for the write lock instead of failing.
* The write-ahead log is copied back into the database file (a checkpoint) by a task of its own,
  every :data:`CHECKPOINT_SECONDS`, on a second connection (its own thread), never by the
  commit that happens to fill the log: a checkpoint writes and syncs up to thousands of pages,
  and the command, reminder or tick whose commit met it would wait for the disk meanwhile
  (``PASSIVE``: it copies what no reader still needs and waits for nobody).
* Every write runs in ``BEGIN IMMEDIATE``, so writers from different processes serialise before
  they read the row they are about to check, and an ``asyncio.Lock`` keeps coroutines of one
  process from interleaving on the single connection.  Reads take the lock too, so they never
  see another coroutine's uncommitted writes.
* Match writes check ``version`` (``UPDATE ... WHERE id = ? AND version = ?``) and raise
  :class:`VersionConflict` with nothing written if it moved.
* A write is all or nothing, also when its task is cancelled.  (Cancelled while ``COMMIT`` runs,
  it may have committed although the caller sees ``CancelledError``; the version check makes
  that safe: the caller's next write with the old version gets :class:`VersionConflict`.)

What is written is exactly what is read back: a record is encoded, decoded again and validated
before the transaction starts (bad input raises ``ValueError`` and touches nothing), and write
methods return that decoded copy, never the caller's object.  So JSON normalisation (tuples
become lists, dict keys become strings) shows up at once, not after a restart.  Timestamps are
the caller's: ``created_at``/``updated_at`` are written as given (the host owns the clock), the
results' ``finished_at`` is the finishing record's ``updated_at``; only a command's ``at`` is
the store's wall-clock time of the append.

The SQL of every method is shared with the PostgreSQL store (:class:`data.sql_store.SqlStore`);
the record codec is :mod:`data.rows`.  This module keeps what is SQLite's own: opening (pragmas,
WAL, migrations), the single connection and its lock, ``BEGIN IMMEDIATE`` transactions and the
adapter (:class:`SqliteConn`) the shared SQL runs on.
"""
from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Iterable, Sequence

import aiosqlite

from data import deadline
from data.migrate import Migration, apply_migrations, current_version
from data.resilience import acquire_within
from data.sql_store import Conn, SqlStore
from data.store_interface import StoreError, TransientStoreError

log = logging.getLogger("data.store")


async def _rollback(db: aiosqlite.Connection) -> None:
    """Roll back if a transaction is open.  Runs on the connection's thread after every
    statement already queued (even one whose await was cancelled), so it needs no racy
    ``in_transaction`` check: "no transaction is active" just means there is nothing to undo."""
    try:
        await db.execute("ROLLBACK")
    except sqlite3.OperationalError:
        pass


class SqliteConn(Conn):
    """The :class:`data.sql_store.Conn` adapter on an aiosqlite connection (``?`` placeholders
    as they are).  One thread hop per call: reads use ``execute_fetchall``."""

    __slots__ = ("db",)

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def execute(self, sql: str, *args: Any) -> int:
        cur = await self.db.execute(sql, args)
        return cur.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.db.executemany(sql, rows)

    async def fetchall(self, sql: str, *args: Any) -> list:
        return await self.db.execute_fetchall(sql, args)  # a list

    async def fetchone(self, sql: str, *args: Any) -> Any:
        rows = await self.db.execute_fetchall(sql, args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        rows = await self.db.execute_fetchall(sql, args)
        return rows[0][0] if rows else None

    async def insert(self, sql: str, *args: Any) -> int:
        cur = await self.db.execute(sql, args)
        return cur.lastrowid

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error (also cancellation)."""
        try:
            await self.db.execute("BEGIN IMMEDIATE")
            yield
            await self.db.execute("COMMIT")
        except BaseException:
            await _rollback(self.db)
            raise


CHECKPOINT_SECONDS = 5.0        # how often the log is copied back (docs/clocks.md, "Numbers")
CHECKPOINT_TASK = "sqlite-checkpoints"      # the task's name (it lives as long as the store)


class SqliteStore(SqlStore):
    """:class:`Store` on one SQLite file (or ``":memory:"``) through one aiosqlite connection."""

    def __init__(self, path: str | Path, *, busy_timeout: float = deadline.STATEMENT_SECONDS,
                 synchronous: str = "FULL", migrations: list[Migration] | None = None) -> None:
        """``busy_timeout``: seconds to wait for another process's write lock.
        ``synchronous``: FULL (default: every commit is fsynced) or NORMAL (survives a crash
        of the process but may lose the last commits on a power cut).  ``migrations``: for
        tests; default the files of :mod:`data.migrations`."""
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
        self.path = str(path)
        self.migrations = migrations
        self.busy_timeout = busy_timeout
        self.synchronous = synchronous.upper()
        self._db: aiosqlite.Connection | None = None
        self._conn: SqliteConn | None = None
        self._lock = asyncio.Lock()
        self.journal_mode: str | None = None
        self._busy_ms: int | None = None     # the busy timeout set on the connection now
        self._checkpointer: asyncio.Task | None = None

    # lifecycle ---------------------------------------------------------------------------
    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path != ":memory:" and not self.path.startswith("file:"):
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_timeout)
        try:
            self._busy_ms = int(self.busy_timeout * 1000)
            await db.execute(f"PRAGMA busy_timeout = {self._busy_ms}")
            self.journal_mode = await self._set_wal(db)
            if self.path != ":memory:" and self.journal_mode != "wal":
                log.warning("SQLite store %s: journal_mode is %s, not WAL", self.path,
                            self.journal_mode)
            await db.execute(f"PRAGMA synchronous = {self.synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
            applied = await apply_migrations(db, self.migrations)
            if applied:
                log.info("SQLite store %s: applied migrations %s", self.path, applied)
        except BaseException:
            await db.close()
            raise
        self._db, self._conn = db, SqliteConn(db)
        if self.journal_mode == "wal" and self.path != ":memory:" and not self.path.startswith("file:"):
            await db.execute("PRAGMA wal_autocheckpoint = 0")     # the checkpoints are the task's
            self._checkpointer = asyncio.get_running_loop().create_task(self._checkpoints(), name=CHECKPOINT_TASK)

    async def _set_wal(self, db: aiosqlite.Connection) -> str:
        # Switching a new file to WAL needs an exclusive lock, and SQLite answers "database is
        # locked" at once (without the busy handler) if another process is doing the same:
        # retry until the busy timeout.
        deadline = time.monotonic() + self.busy_timeout
        delay = 0.001
        while True:
            try:
                rows = await db.execute_fetchall("PRAGMA journal_mode = WAL")
                return str(rows[0][0]).lower()
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) and "busy" not in str(e):
                    raise
                if time.monotonic() >= deadline:
                    raise StoreError(f"cannot open {self.path}: {e}") from e
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.05)

    async def _checkpoints(self) -> None:
        """Copy the write-ahead log back into the database file every CHECKPOINT_SECONDS, on a
        connection of this task's own (opened at the first one); a failure is logged and tried
        again next time.  (When the store closes, SQLite checkpoints what is left.)"""
        own: aiosqlite.Connection | None = None
        try:
            while True:
                await asyncio.sleep(CHECKPOINT_SECONDS)
                try:
                    if own is None:
                        own = await aiosqlite.connect(self.path, isolation_level=None, timeout=0)
                        await own.execute(f"PRAGMA synchronous = {self.synchronous}")
                    await own.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
                except (sqlite3.Error, OSError, ValueError) as e:
                    log.warning("SQLite store %s: a checkpoint failed (tried again in %.0f s): %s",
                                self.path, CHECKPOINT_SECONDS, e)
        finally:
            if own is not None:
                await own.close()

    async def close(self) -> None:
        task, self._checkpointer = self._checkpointer, None
        if task is not None:
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        async with self._lock:
            db, self._db, self._conn = self._db, None, None
            if db is not None:
                await db.close()

    async def schema_version(self) -> int:
        async with self._read() as c:
            return await current_version(c.db)

    # dialect (the SQL of SqlStore is SQLite's spelling already) ---------------------------
    _DB_ERROR = sqlite3.Error
    _INTEGRITY_ERROR = sqlite3.IntegrityError

    def _transient_kind(self, e: BaseException) -> str | None:
        """SQLite's failures that say nothing about the stored data: another process holds the
        lock longer than the busy timeout (SQLITE_BUSY / SQLITE_LOCKED), the disk is full
        (SQLITE_FULL), the disk failed to read or write (SQLITE_IOERR), an interrupted
        statement.  A value that does not decode is the row's fault, not one of these."""
        if isinstance(e, sqlite3.Error):
            name = str(getattr(e, "sqlite_errorname", "") or "")
            text = str(e).lower()
            if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text \
                    or "table is locked" in text:
                return "locked"
            if name == "SQLITE_FULL" or "disk is full" in text:
                return "full"
            if name.startswith("SQLITE_IOERR") or "disk i/o error" in text:
                return "io"
            if name == "SQLITE_INTERRUPT" or text == "interrupted":
                return "timeout"
            return None
        return super()._transient_kind(e)

    # plumbing ----------------------------------------------------------------------------
    @asynccontextmanager
    async def _read(self) -> AsyncIterator[SqliteConn]:
        """The connection, for this coroutine alone, waiting for it no longer than the call's
        deadline allows; driver errors leave as the store's own (:meth:`_translate`)."""
        if not await acquire_within(self._lock, deadline.remaining()):
            raise TransientStoreError(f"{self.path}: busy with other calls until the deadline",
                                      kind="busy")
        try:
            c = self._conn
            if c is None:
                raise StoreError("the store is not open")
            try:
                yield c
            except (sqlite3.Error, OSError) as e:
                raise self._translate(e) from e
        finally:
            self._lock.release()

    async def _fit_busy_timeout(self, db: aiosqlite.Connection) -> None:
        """A write waits for another process's lock at most the busy timeout — or what is
        left of the call's deadline, if that is less (set only when it changes)."""
        left = deadline.remaining()
        want = self.busy_timeout if left is None else max(0.0, min(self.busy_timeout, left))
        ms = int(want * 1000)
        if ms != self._busy_ms:
            await db.execute(f"PRAGMA busy_timeout = {ms}")
            self._busy_ms = ms

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[SqliteConn]:
        """One ``BEGIN IMMEDIATE`` transaction, committed on success, rolled back on error.  A
        failed ``COMMIT`` (a full disk, a lock) committed nothing: SQLite's commit is atomic."""
        async with self._read() as c:
            db = c.db
            # BEGIN is inside the rollback's reach: if this task is cancelled while waiting for
            # it, the BEGIN still runs on the connection's thread and must be undone.
            try:
                await self._fit_busy_timeout(db)
                try:
                    await db.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as e:
                    raise self._translate(e, f"cannot start a write on {self.path}") from e
                yield c
                await db.execute("COMMIT")
            except BaseException:
                await _rollback(db)
                raise
