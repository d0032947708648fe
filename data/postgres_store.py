"""The PostgreSQL backend of :class:`data.store.Store` (asyncpg, a connection pool, versioned
migrations under an advisory lock).

It keeps the semantics of :class:`data.sqlite_store.SqliteStore` method for method — same return
values, exceptions and list orders — because it runs the same code: every method is
:class:`data.sql_store.SqlStore`'s, on the :class:`PgConn` adapter (which rewrites the shared
``?`` placeholders to ``$1``...), and the record codec is :mod:`data.rows`, so a record reads
back exactly as SQLite would give it.  This module keeps what is PostgreSQL's own: the URL, the
pool, migrations, transactions and locks, and the dialect snippets (``= ANY(...)`` lists,
``COLLATE "C"``, ``FOR UPDATE``, ``ON CONFLICT`` upserts, ``RETURNING id``, BOOLEAN and DOUBLE
PRECISION parameters).

Concurrency: every write runs in one transaction on one pooled connection.  A match write first
locks the row (``SELECT ... FOR UPDATE``), checks the version it names, then runs
``UPDATE ... WHERE id = $1 AND version = $2`` (and, for :meth:`append_command`, inserts the
command in the same transaction).  A second writer — another task or another process — blocks on
the row lock, then sees the new version and gets :class:`VersionConflict` with nothing written;
so two processes can never apply two commands on one version.  Rating writes serialise on an
advisory lock (like SQLite's single writer), so two matches cannot both replace one rating.

Durability: a write returns after ``COMMIT``, which PostgreSQL makes durable (with the server's
default ``synchronous_commit = on``).  A write cancelled mid-way is rolled back when asyncpg
resets the connection on its way back to the pool.

URL: ``postgresql://user:password@host:port/database`` (or ``postgres://``; a Unix socket
directory as ``?host=/path``).  Optional query parameters of this store, removed before the
URL goes to asyncpg: ``pool_min_size`` (default 1) and ``pool_max_size`` (default 10).  Errors
and logs name the host and database, never the password.
"""
from __future__ import annotations

import asyncio
import functools
import logging
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Iterable, Sequence
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

import asyncpg

from data import deadline
from data.migrate import Migration
from data.pg_migrate import apply_pg_migrations, current_pg_version
from data.rows import I
from data.sql_store import _HISTORY_COLS, _RATING_COLS, _RESULT_COLS, Conn, SqlStore
from data.store_interface import OutcomeUnknown, StoreError

log = logging.getLogger("data.store")

DEFAULT_POOL_MIN = 1
DEFAULT_POOL_MAX = 10
# Every rating write takes this transaction-level advisory lock (see record_processed).
RATINGS_LOCK = 0x646F756A696E0002
# Every card-set version write takes this one (add_card_set: its limits hold across processes).
CARD_SETS_LOCK = 0x646F756A696E0003

_I_REMINDED = I["reminded"]
_FLOAT_COLS = tuple(I[c] for c in ("deadline", "created_at", "updated_at"))


def _pg_row(row: list) -> list:
    """An encoded match row (SQLite's value types) -> asyncpg parameters: the flag is a
    BOOLEAN, times are DOUBLE PRECISION."""
    out = list(row)
    out[_I_REMINDED] = bool(out[_I_REMINDED])
    for i in _FLOAT_COLS:
        if out[i] is not None:
            out[i] = float(out[i])
    return out


def _rowcount(status: str) -> int:
    """The row count of an asyncpg command status (``UPDATE 1``, ``INSERT 0 1``)."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except (ValueError, AttributeError):
        return 0


class PgUrl:
    """A PostgreSQL URL split into what asyncpg gets and what this store reads; ``safe`` names
    the server and database without the password (for errors and logs)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("postgres", "postgresql"):
            raise StoreError("a PostgreSQL URL starts with postgresql:// or postgres://")
        query = parse_qsl(parts.query, keep_blank_values=True)
        own = {k: v for k, v in query if k in ("pool_min_size", "pool_max_size")}
        rest = [(k, v) for k, v in query if k not in own]
        try:
            self.pool_min = int(own.get("pool_min_size", DEFAULT_POOL_MIN))
            self.pool_max = int(own.get("pool_max_size", max(DEFAULT_POOL_MAX, self.pool_min)))
        except ValueError:
            raise StoreError("pool_min_size and pool_max_size must be whole numbers") from None
        if not 0 <= self.pool_min <= self.pool_max or self.pool_max < 1:
            raise StoreError("need 0 <= pool_min_size <= pool_max_size and pool_max_size >= 1")
        self.dsn = urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(rest),
                               parts.fragment))
        self.password = unquote(parts.password) if parts.password else None
        host = parts.hostname or dict(rest).get("host") or "localhost (default)"
        port = f":{parts.port}" if parts.port else ""
        user = unquote(parts.username) if parts.username else None
        db = unquote(parts.path.lstrip("/")) or (user or "(default)")
        self.safe = f"database {db!r} on {host}{port}" + (f" as {user!r}" if user else "")

    def scrub(self, text: str) -> str:
        """``text`` with the password (if any) blanked out."""
        if self.password:
            text = text.replace(self.password, "***")
        return text


@functools.lru_cache(maxsize=512)
def pg_sql(sql: str) -> str:
    """SQL with ``?`` placeholders -> PostgreSQL's ``$1``...``$n``.  Our SQL has no ``?`` (and
    no ``$``) of its own, in string literals or elsewhere; this is asserted, not handled."""
    if "$" in sql or _quoted_mark(sql):
        raise AssertionError(f"SQL with a literal ? or $: {sql!r}")
    parts = sql.split("?")
    out = [parts[0]]
    for n, p in enumerate(parts[1:], start=1):
        out.append(f"${n}")
        out.append(p)
    return "".join(out)


def _quoted_mark(sql: str) -> bool:
    """Whether a ``?`` stands inside a '...' literal."""
    inside = False
    for ch in sql:
        if ch == "'":
            inside = not inside
        elif ch == "?" and inside:
            return True
    return False


_t = deadline.statement_timeout
# what the driver raises when the server, the connection or a statement fails
_DRIVER_ERRORS = (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)

# asyncpg's errors that say nothing about the stored data (issue 31), by kind.  Checked in
# order: QueryCanceledError (a statement timeout, a cancelled query) and CannotConnectNowError
# ("the database system is starting up") are OperatorInterventionErrors too.
_TRANSIENT: tuple[tuple[Any, str], ...] = (
    (asyncpg.exceptions.QueryCanceledError, "timeout"),
    (asyncpg.exceptions.CannotConnectNowError, "starting"),
    (asyncpg.exceptions.OperatorInterventionError, "connection"),   # admin / crash shutdown
    (asyncpg.exceptions.PostgresConnectionError, "connection"),     # lost, refused, protocol
    (asyncpg.exceptions.DiskFullError, "full"),
    (asyncpg.exceptions.OutOfMemoryError, "full"),
    (asyncpg.exceptions.InsufficientResourcesError, "busy"),        # too many connections
    (asyncpg.exceptions.TransactionRollbackError, "locked"),        # deadlock, serialization
    (asyncpg.exceptions.LockNotAvailableError, "locked"),
    (asyncpg.exceptions.PostgresSystemError, "io"),                 # the server's I/O failed
    (asyncpg.InterfaceError, "connection"),                         # closed, pool closing
)


def _kill(conn: Any) -> None:
    """Close a pooled connection at once, without a word to the server (which may not answer).
    A connection the pool already took back (it noticed the loss first) is left to the pool."""
    try:
        conn.terminate()
    except asyncpg.InterfaceError:
        pass


class PgConn(Conn):
    """The :class:`data.sql_store.Conn` adapter on a pooled asyncpg connection."""

    __slots__ = ("conn",)

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    # Each statement waits at most the statement timeout, or what is left of the call's
    # deadline (data/deadline.py); asyncpg raises TimeoutError and cancels it on the server.
    async def execute(self, sql: str, *args: Any) -> int:
        return _rowcount(await self.conn.execute(pg_sql(sql), *args, timeout=_t()))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(pg_sql(sql), rows, timeout=_t())

    async def fetchall(self, sql: str, *args: Any) -> list:
        return await self.conn.fetch(pg_sql(sql), *args, timeout=_t())

    async def fetchone(self, sql: str, *args: Any) -> Any:
        return await self.conn.fetchrow(pg_sql(sql), *args, timeout=_t())

    async def fetchval(self, sql: str, *args: Any) -> Any:
        return await self.conn.fetchval(pg_sql(sql), *args, timeout=_t())

    async def insert(self, sql: str, *args: Any) -> int:
        return await self.conn.fetchval(pg_sql(sql + " RETURNING id"), *args, timeout=_t())

    def transaction(self) -> Any:
        return self.conn.transaction()


class PostgresStore(SqlStore):
    """:class:`Store` on one PostgreSQL database through an asyncpg connection pool."""

    def __init__(self, url: str, *, migrations: list[Migration] | None = None) -> None:
        """``url``: ``postgresql://user:password@host:port/database[?pool_max_size=N]``.
        ``migrations``: for tests; default the files of :mod:`data.migrations.postgres`."""
        self._url = PgUrl(url)
        self.url = url  # for another store on the same database (tests, tools); holds the password
        self.migrations = migrations
        self._pool: asyncpg.Pool | None = None
        self._open_lock = asyncio.Lock()

    def __repr__(self) -> str:
        return f"<PostgresStore {self._url.safe}>"

    @property
    def where(self) -> str:
        """The database this store uses, without the password."""
        return self._url.safe

    # lifecycle ---------------------------------------------------------------------------
    async def open(self) -> None:
        async with self._open_lock:
            if self._pool is not None:
                return
            try:
                pool = await asyncpg.create_pool(
                    self._url.dsn, min_size=self._url.pool_min, max_size=self._url.pool_max,
                    # no statement, and no connection attempt, waits longer than this
                    command_timeout=deadline.STATEMENT_SECONDS, timeout=deadline.STATEMENT_SECONDS)
            except (*_DRIVER_ERRORS, ValueError) as e:
                raise StoreError(f"cannot connect to PostgreSQL {self._url.safe}: "
                                 + self._url.scrub(f"{type(e).__name__}: {e}")) from None
            try:
                async with pool.acquire() as conn:
                    applied = await apply_pg_migrations(conn, self.migrations)
                if applied:
                    log.info("PostgreSQL store %s: applied migrations %s", self._url.safe, applied)
            except BaseException:
                await pool.close()
                raise
            self._pool = pool

    async def close(self) -> None:
        async with self._open_lock:
            pool, self._pool = self._pool, None
            if pool is not None:
                await pool.close()

    async def schema_version(self) -> int:
        async with self._read() as c:
            return await current_pg_version(c.conn)

    # dialect -------------------------------------------------------------------------------
    _DB_ERROR = asyncpg.PostgresError
    _INTEGRITY_ERROR = asyncpg.IntegrityConstraintViolationError
    # A match write locks the row it checks: a second writer waits, then sees the new version.
    _FOR_UPDATE = " FOR UPDATE"
    _NOT_INDEXED = ""
    _STATUS_INDEX = ""
    # Text is ordered by code point, as SQLite's BINARY collation does, whatever the locale.
    _C = ' COLLATE "C"'
    _SQL_PROCESSED = ("INSERT INTO processed_matches (match_id, rated, at) VALUES (?, ?, ?) "
                      "ON CONFLICT (match_id) DO NOTHING")
    _SQL_RATINGS = (f"INSERT INTO ratings ({_RATING_COLS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (scope, game, user_id) DO UPDATE SET mu = excluded.mu, "
                    "sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, "
                    "losses = excluded.losses, draws = excluded.draws, "
                    "updated_at = excluded.updated_at")
    _SQL_HISTORY = (f"INSERT INTO rating_history ({_HISTORY_COLS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (match_id, scope, user_id) DO UPDATE SET game = excluded.game, "
                    "mu_before = excluded.mu_before, sigma_before = excluded.sigma_before, "
                    "mu = excluded.mu, sigma = excluded.sigma, at = excluded.at")
    _SQL_RESULTS = (f"INSERT INTO results ({_RESULT_COLS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")

    @staticmethod
    def _in(column: str, values: Sequence[Any], sqltype: str = "text") -> tuple[str, list]:
        return f"{column} = ANY(?::{sqltype}[])", [list(values)]

    _row_args = staticmethod(_pg_row)

    async def _lock_ratings(self, c: PgConn) -> None:  # type: ignore[override]
        # One rating writer at a time (as SQLite's write lock gives): a rating that does not
        # exist yet cannot be row-locked, and two matches must not both create it.
        await c.execute("SELECT pg_advisory_xact_lock(?)", RATINGS_LOCK)

    async def _lock_card_sets(self, c: PgConn) -> None:  # type: ignore[override]
        # add_card_set decides a new set against the sets that exist: rows a concurrent upload
        # has not committed yet cannot be row-locked, so one card-set writer at a time.
        await c.execute("SELECT pg_advisory_xact_lock(?)", CARD_SETS_LOCK)

    def _transient_kind(self, e: BaseException) -> str | None:
        for cls, kind in _TRANSIENT:
            if isinstance(e, cls):
                return kind
        return super()._transient_kind(e)

    def _scrub(self, text: str) -> str:
        return self._url.scrub(text)

    def _translate(self, e: BaseException, what: str = "") -> StoreError:
        return super()._translate(e, what or f"PostgreSQL {self._url.safe}")

    # plumbing ----------------------------------------------------------------------------
    @asynccontextmanager
    async def _read(self) -> AsyncIterator[PgConn]:
        """A pooled connection, taken within the statement timeout.  A driver error leaves as
        the store's own (:meth:`_translate`); after a transient one the connection is closed
        rather than put back (it may be half way through a cancelled query, and putting it
        back would wait for the cancellation on a server that may not answer)."""
        pool = self._pool
        if pool is None:
            raise StoreError("the store is not open")
        if deadline.expired():
            raise self._translate(TimeoutError("no time left for the database"))
        try:
            conn = await pool.acquire(timeout=_t())
        except _DRIVER_ERRORS as e:
            raise self._translate(e) from e
        broken = False
        try:
            yield PgConn(conn)
        except _DRIVER_ERRORS as e:
            broken = self._transient_kind(e) is not None
            raise self._translate(e) from e
        except StoreError as e:
            broken = e.transient
            raise
        except BaseException:
            broken = True   # cancelled mid-way: do not wait on this connection again
            raise
        finally:
            await self._put_back(pool, conn, broken)

    async def _put_back(self, pool: asyncpg.Pool, conn: Any, broken: bool) -> None:
        if broken:
            _kill(conn)
        try:
            await pool.release(conn, timeout=deadline.STATEMENT_SECONDS)
        except Exception as e:  # the pool closes a connection it cannot reset; nothing lost
            log.debug("PostgreSQL: a connection could not be put back: %r", e)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[PgConn]:
        """One transaction, committed on success, rolled back on error.  A ``COMMIT`` that the
        server does not confirm (the connection lost or timed out around it) may have been
        carried out: that raises :class:`OutcomeUnknown`, which the write methods settle by
        reading back what they wrote.  Any earlier failure committed nothing."""
        async with self._read() as c:
            await c.conn.execute("BEGIN", timeout=_t())
            try:
                yield c
            except BaseException:
                if not c.conn.is_closed():
                    try:
                        await c.conn.execute("ROLLBACK", timeout=_t())
                    except Exception:  # the connection is closed on its way out (_read)
                        _kill(c.conn)
                raise
            try:
                await c.conn.execute("COMMIT", timeout=_t())
            except _DRIVER_ERRORS as e:
                kind = self._transient_kind(e)
                if kind in ("timeout", "connection", "starting", "io"):
                    _kill(c.conn)
                    raise OutcomeUnknown(self._url.scrub(
                        f"PostgreSQL {self._url.safe}: COMMIT not confirmed ({type(e).__name__}: {e})")) from e
                raise
