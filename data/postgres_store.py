"""The PostgreSQL backend of :class:`data.store.Store` (asyncpg, a connection pool, versioned
migrations under an advisory lock).

It keeps the semantics of :class:`data.sqlite_store.SqliteStore` method for method — same return
values, exceptions and list orders — and shares its record codec (``_prepare``/``_decode``), so
a record reads back exactly as SQLite would give it.

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
import json
import logging
import math
import time
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Iterable
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

import asyncpg

from data.migrate import Migration
from data.pg_migrate import apply_pg_migrations, current_pg_version
from data.sqlite_store import (
    _COLS,
    _DECODE_SLICE,
    _I,
    _I_SEATS,
    _Bad,
    _decode,
    _dumps,
    _players,
    _prepare,
    _result_rows,
    _statuses,
)
from data.store import (
    FINISHED,
    OPEN,
    PENDING,
    QUARANTINED,
    UNFINISHED,
    CommandRecord,
    CorruptRow,
    LeagueRecord,
    MatchRecord,
    RatingChange,
    RatingRow,
    ResultRow,
    Store,
    StoreError,
    VersionConflict,
)

log = logging.getLogger("data.store")

DEFAULT_POOL_MIN = 1
DEFAULT_POOL_MAX = 10
# Every rating write takes this transaction-level advisory lock (see record_processed).
RATINGS_LOCK = 0x646F756A696E0002

_SELECT = "SELECT " + ", ".join(_COLS) + " FROM matches"
_WRITE_COLS = _COLS[1:]  # everything but id
_INSERT = (f"INSERT INTO matches ({', '.join(_WRITE_COLS)}) "
           f"VALUES ({', '.join(f'${i}' for i in range(1, len(_WRITE_COLS) + 1))}) RETURNING id")
_UPDATE_COLS = tuple(c for c in _WRITE_COLS if c != "version")
_UPDATE = ("UPDATE matches SET "
           + ", ".join(f"{c} = ${i}" for i, c in enumerate(_UPDATE_COLS, start=1))
           + f", version = version + 1 WHERE id = ${len(_UPDATE_COLS) + 1} "
           f"AND version = ${len(_UPDATE_COLS) + 2}")
_UPDATE_IDX = tuple(_I[c] for c in _UPDATE_COLS)
_I_REMINDED = _I["reminded"]
_FLOAT_COLS = tuple(_I[c] for c in ("deadline", "created_at", "updated_at"))

# Text is ordered by code point, as SQLite's BINARY collation does, whatever the database's locale.
_C = 'COLLATE "C"'


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


class PostgresStore(Store):
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
                pool = await asyncpg.create_pool(self._url.dsn, min_size=self._url.pool_min,
                                                 max_size=self._url.pool_max)
            except (OSError, asyncio.TimeoutError, asyncpg.PostgresError,
                    asyncpg.InterfaceError, ValueError) as e:
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

    async def __aenter__(self) -> "PostgresStore":
        await self.open()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def schema_version(self) -> int:
        async with self._read() as conn:
            return await current_pg_version(conn)

    # plumbing ----------------------------------------------------------------------------
    @asynccontextmanager
    async def _read(self) -> AsyncIterator[asyncpg.Connection]:
        pool = self._pool
        if pool is None:
            raise StoreError("the store is not open")
        try:
            async with pool.acquire() as conn:
                yield conn
        except (OSError, asyncpg.InterfaceError, asyncpg.exceptions.PostgresConnectionError) as e:
            raise StoreError(f"PostgreSQL {self._url.safe}: "
                             + self._url.scrub(f"{type(e).__name__}: {e}")) from e

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[asyncpg.Connection]:
        """One transaction, committed on success, rolled back on error."""
        async with self._read() as conn:
            async with conn.transaction():
                yield conn

    async def _fetch_matches(self, conn: asyncpg.Connection, where: str,
                             params: Iterable[Any]) -> tuple[list[MatchRecord], int]:
        """Decode every row of ``_SELECT + where``; quarantine (and skip) unreadable ones.
        Returns (records, number newly quarantined)."""
        rows = await conn.fetch(_SELECT + " " + where, *params)
        out: list[MatchRecord] = []
        bad: list[tuple[int, str, str]] = []
        for i, row in enumerate(rows):
            if i and not i % _DECODE_SLICE:
                await asyncio.sleep(0)  # thousands of rows: let the event loop breathe
            try:
                out.append(_decode(tuple(row)))
            except _Bad as e:
                bad.append((row[0], str(e), row[_I["status"]]))
        written = 0
        for match_id, reason, prev in bad:
            written += await self._quarantine(conn, match_id, reason, prev, strict=False)
        return out, written

    async def _quarantine(self, conn: asyncpg.Connection, match_id: int, reason: str,
                          prev_status: Any = None, strict: bool = True) -> bool:
        """Quarantine in its own transaction.  With ``strict=False`` a failure to write is
        logged, not raised; returns whether it was written."""
        log.warning("quarantining match %s: %s", match_id, reason)
        try:
            async with conn.transaction():
                await self._quarantine_in_tx(conn, match_id, reason, prev_status)
        except asyncpg.PostgresError as e:
            if strict:
                raise StoreError(f"cannot quarantine match {match_id}: {e}") from e
            log.error("could not quarantine match %s: %s", match_id, e)
            return False
        return True

    @staticmethod
    async def _quarantine_in_tx(conn: asyncpg.Connection, match_id: int, reason: str,
                                prev_status: Any = None) -> None:
        if prev_status is None:
            prev_status = await conn.fetchval(
                "SELECT status FROM matches WHERE id = $1 FOR UPDATE", match_id)
        if prev_status == QUARANTINED:
            prev_status = None  # keep the earliest known one
        await conn.execute("UPDATE matches SET status = $1, version = version + 1 WHERE id = $2",
                           QUARANTINED, match_id)
        await conn.execute(
            "INSERT INTO quarantine (match_id, reason, prev_status, at) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT (match_id) DO UPDATE SET reason = excluded.reason, at = excluded.at, "
            "prev_status = COALESCE(quarantine.prev_status, excluded.prev_status)",
            match_id, reason, None if prev_status is None else str(prev_status), time.time())

    # matches -----------------------------------------------------------------------------
    async def create_match(self, rec: MatchRecord) -> MatchRecord:
        row, out = _prepare(rec, id=None, version=1)
        async with self._write() as conn:
            match_id = await conn.fetchval(_INSERT, *_pg_row(row)[1:])
            out.id = match_id
            players = _players(match_id, out.seats)
            if players:
                await conn.executemany(
                    "INSERT INTO match_players (match_id, seat, user_id) VALUES ($1, $2, $3)",
                    players)
            if out.status == FINISHED and out.result is not None:
                await self._write_results(conn, out)
        return out

    async def get_match(self, match_id: int) -> MatchRecord | None:
        async with self._read() as conn:
            row = await conn.fetchrow(_SELECT + " WHERE id = $1", int(match_id))
            if row is None:
                return None
            if row["status"] == QUARANTINED:
                reason = await conn.fetchval("SELECT reason FROM quarantine WHERE match_id = $1",
                                             int(match_id))
                raise CorruptRow(f"match {match_id} is quarantined"
                                 + (f": {reason}" if reason is not None else ""))
            try:
                return _decode(tuple(row))
            except _Bad as e:
                await self._quarantine(conn, int(match_id), str(e), row["status"], strict=False)
                raise CorruptRow(f"match {match_id} is unreadable and was quarantined: {e}") \
                    from None

    @staticmethod
    async def _check_version(conn: asyncpg.Connection, match_id: int, expected_version: int
                             ) -> tuple[int, Any]:
        """Lock the row and raise VersionConflict unless it is at ``expected_version``; returns
        its (n_commands, seats JSON).  Inside a transaction: the row lock is held until it
        ends, so the row cannot move meanwhile."""
        row = await conn.fetchrow(
            "SELECT version, n_commands, seats FROM matches WHERE id = $1 FOR UPDATE", match_id)
        if row is None:
            raise VersionConflict(f"match {match_id} does not exist")
        version, n_commands, seats = row
        if version != expected_version:
            raise VersionConflict(f"match {match_id} is at version {version}, "
                                  f"not {expected_version}")
        return n_commands, seats

    async def _write_row(self, conn: asyncpg.Connection, row: list, out: MatchRecord,
                         expected_version: int, old_seats: Any) -> None:
        """The version-checked UPDATE, the seat index if the seats changed, and the results if
        this write finishes the match.  Inside _write(), after _check_version."""
        args = _pg_row(row)
        status = await conn.execute(_UPDATE, *[args[i] for i in _UPDATE_IDX],
                                    row[0], expected_version)
        if _rowcount(status) != 1:  # cannot happen under the row lock, but never write blind
            raise VersionConflict(f"match {row[0]} changed while being written")
        if row[_I_SEATS] != old_seats:
            await conn.execute("DELETE FROM match_players WHERE match_id = $1", row[0])
            players = _players(row[0], out.seats)
            if players:
                await conn.executemany(
                    "INSERT INTO match_players (match_id, seat, user_id) VALUES ($1, $2, $3)",
                    players)
        if out.status == FINISHED and out.result is not None:
            await self._write_results(conn, out)

    @staticmethod
    async def _write_results(conn: asyncpg.Connection, rec: MatchRecord) -> None:
        # Once per match: the first finish wins; later writes of a finished match add nothing.
        if await conn.fetchval("SELECT 1 FROM results WHERE match_id = $1 LIMIT 1", rec.id):
            return
        rows = _result_rows(rec, float(rec.updated_at))
        if rows:
            await conn.executemany(
                "INSERT INTO results (match_id, game, guild_id, seat, user_id, outcome, reason, "
                "finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
                rows)

    def _check_id(self, rec: MatchRecord) -> int:
        if rec.id is None:
            raise ValueError("the match has no id; create_match it first")
        return rec.id

    async def update_match(self, rec: MatchRecord, expected_version: int) -> MatchRecord:
        self._check_id(rec)
        row, out = _prepare(rec, version=expected_version + 1)
        async with self._write() as conn:
            _, old_seats = await self._check_version(conn, rec.id, expected_version)
            await self._write_row(conn, row, out, expected_version, old_seats)
        return out

    async def append_command(self, rec: MatchRecord, expected_version: int, seat: int,
                             command: str) -> MatchRecord:
        match_id = self._check_id(rec)
        if type(seat) is not int or type(command) is not str:
            raise ValueError("seat must be an int and command a str")
        now = time.time()
        row, out = _prepare(rec, version=expected_version + 1)
        seq = out.n_commands
        async with self._write() as conn:
            n_old, old_seats = await self._check_version(conn, rec.id, expected_version)
            if seq != n_old + 1:
                raise ValueError(f"match {match_id} has {n_old} commands; the record to write "
                                 f"with a new command must have n_commands={n_old + 1}, "
                                 f"not {seq}")
            await conn.execute(
                "INSERT INTO commands (match_id, seq, seat, command, at) VALUES ($1, $2, $3, $4, $5)",
                match_id, seq, seat, command, now)
            await self._write_row(conn, row, out, expected_version, old_seats)
        return out

    async def commands(self, match_id: int) -> list[CommandRecord]:
        async with self._read() as conn:
            rows = await conn.fetch(
                "SELECT match_id, seq, seat, command, at FROM commands WHERE match_id = $1 "
                "ORDER BY seq", int(match_id))
        return [CommandRecord(*r) for r in rows]

    async def _list(self, where: str, params: tuple, statuses: tuple[str, ...],
                    limited: bool = False) -> list[MatchRecord]:
        """``where`` uses ``$1`` for the list of statuses and ``$2``... for ``params``."""
        sts = _statuses(statuses)
        if not sts:
            return []
        async with self._read() as conn:
            for _ in range(3):
                recs, n_bad = await self._fetch_matches(conn, where, (list(sts),) + params)
                if not n_bad or not limited:
                    break
                # a LIMIT query came up short by the rows just quarantined: run it again
            return recs

    async def unfinished_matches(self) -> list[MatchRecord]:
        return await self._list("WHERE status = ANY($1::text[]) ORDER BY id", (), UNFINISHED)

    async def count_matches(self, statuses: tuple[str, ...] = UNFINISHED) -> int:
        sts = _statuses(statuses)
        if not sts:
            return 0
        async with self._read() as conn:
            n = await conn.fetchval("SELECT COUNT(*) FROM matches WHERE status = ANY($1::text[])",
                                    list(sts))
        return int(n)

    async def matches_due(self, deadline_before: float, created_before: float) -> list[MatchRecord]:
        return await self._list(
            "WHERE (status = ANY($1::text[]) AND created_at <= $2) "
            "OR (status = 'active' AND deadline IS NOT NULL AND deadline <= $3) ORDER BY id",
            (float(created_before), float(deadline_before)), (PENDING, OPEN))

    async def matches_in_channel(self, channel_id: int, statuses: tuple[str, ...] = UNFINISHED
                                 ) -> list[MatchRecord]:
        return await self._list("WHERE status = ANY($1::text[]) AND channel_id = $2 ORDER BY id",
                                (int(channel_id),), statuses)

    async def matches_for_user(self, user_id: int, statuses: tuple[str, ...] = UNFINISHED,
                               limit: int = 25) -> list[MatchRecord]:
        """Matches where the user holds a seat, newest (``created_at``, then id) first."""
        return await self._list(
            "WHERE status = ANY($1::text[]) AND id IN "
            "(SELECT match_id FROM match_players WHERE user_id = $2) "
            "ORDER BY created_at DESC, id DESC LIMIT $3", (int(user_id), int(limit)), statuses,
            limited=True)

    async def quarantine(self, match_id: int, reason: str) -> None:
        async with self._read() as conn:
            await self._quarantine(conn, int(match_id), reason)

    async def quarantined(self) -> list[tuple[int, str, float]]:
        """(match_id, reason, at) of every match that is quarantined now, oldest first."""
        async with self._read() as conn:
            rows = await conn.fetch(
                "SELECT q.match_id, q.reason, q.at FROM quarantine q "
                "LEFT JOIN matches m ON m.id = q.match_id "
                "WHERE m.id IS NULL OR m.status = $1 ORDER BY q.at, q.match_id", QUARANTINED)
        return [(r[0], r[1], r[2]) for r in rows]

    # front-end references ----------------------------------------------------------------
    async def set_ref(self, match_id: int, key: str, value: str | None) -> None:
        async with self._write() as conn:
            if value is None:
                await conn.execute("DELETE FROM match_refs WHERE match_id = $1 AND key = $2",
                                   int(match_id), key)
            else:
                try:
                    await conn.execute(
                        "INSERT INTO match_refs (match_id, key, value) VALUES ($1, $2, $3) "
                        "ON CONFLICT (match_id, key) DO UPDATE SET value = excluded.value",
                        int(match_id), key, str(value))
                except asyncpg.IntegrityConstraintViolationError as e:
                    raise StoreError(f"cannot set a reference on match {match_id}: {e}") from e

    async def get_refs(self, match_id: int) -> dict[str, str]:
        async with self._read() as conn:
            rows = await conn.fetch("SELECT key, value FROM match_refs WHERE match_id = $1",
                                    int(match_id))
        return {k: v for k, v in rows}

    # results -----------------------------------------------------------------------------
    _RATING_COLS = "scope, game, user_id, mu, sigma, games, wins, losses, draws, updated_at"
    _HISTORY_COLS = "match_id, scope, game, user_id, mu_before, sigma_before, mu, sigma, at"
    _RESULT_COLS = "match_id, game, guild_id, seat, user_id, outcome, reason, finished_at"

    async def results_for_user(self, user_id: int, game: str | None = None,
                               limit: int = 50) -> list[ResultRow]:
        """Newest first."""
        sql = f"SELECT {self._RESULT_COLS} FROM results WHERE user_id = $1"
        params: list[Any] = [int(user_id)]
        if game is not None:
            params.append(game)
            sql += f" AND game = ${len(params)}"
        params.append(int(limit))
        sql += f" ORDER BY finished_at DESC, match_id DESC LIMIT ${len(params)}"
        async with self._read() as conn:
            rows = await conn.fetch(sql, *params)
        return [ResultRow(*r) for r in rows]

    # guild settings ----------------------------------------------------------------------
    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]:
        async with self._read() as conn:
            rows = await conn.fetch("SELECT key, value FROM guild_settings WHERE guild_id = $1",
                                    int(guild_id))
        out: dict[str, Any] = {}
        for key, value in rows:
            try:
                out[key] = json.loads(value)
            except (TypeError, ValueError):
                log.warning("guild %s: setting %r is not valid JSON; ignored", guild_id, key)
        return out

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        if value is None:
            async with self._write() as conn:
                await conn.execute("DELETE FROM guild_settings WHERE guild_id = $1 AND key = $2",
                                   int(guild_id), key)
            return
        try:
            text = _dumps(value, key)
        except _Bad as e:
            raise ValueError(f"guild setting {e}") from None
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, key, value) VALUES ($1, $2, $3) "
                "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                int(guild_id), key, text)

    # ======================================================================================
    # records, ratings and leagues
    # ======================================================================================
    async def is_processed(self, match_id: int) -> bool:
        async with self._read() as conn:
            return bool(await conn.fetchval(
                "SELECT 1 FROM processed_matches WHERE match_id = $1", int(match_id)))

    async def record_processed(self, match_id: int, rated: bool, ratings: list[RatingRow],
                               history: list[RatingChange], at: float) -> bool:
        for r in ratings:
            if not (math.isfinite(r.mu) and math.isfinite(r.sigma) and r.sigma > 0):
                raise ValueError(f"rating of user {r.user_id} is not finite: {r.mu}, {r.sigma}")
        async with self._write() as conn:
            # One rating writer at a time (as SQLite's write lock gives): a rating that does not
            # exist yet cannot be row-locked, and two matches must not both create it.
            await conn.execute("SELECT pg_advisory_xact_lock($1)", RATINGS_LOCK)
            status = await conn.execute(
                "INSERT INTO processed_matches (match_id, rated, at) VALUES ($1, $2, $3) "
                "ON CONFLICT (match_id) DO NOTHING", int(match_id), bool(rated), float(at))
            if _rowcount(status) != 1:
                return False
            before = {(h.scope, h.game, int(h.user_id)): (h.mu_before, h.sigma_before)
                      for h in history}
            for r in ratings:
                now_row = await conn.fetchrow(
                    "SELECT mu, sigma FROM ratings WHERE scope = $1 AND game = $2 AND user_id = $3",
                    r.scope, r.game, int(r.user_id))
                expected = before.get((r.scope, r.game, int(r.user_id))) if r.games > 1 else None
                current = (now_row[0], now_row[1]) if now_row is not None else None
                if current != expected:
                    raise VersionConflict(f"the {r.game} rating of user {r.user_id} in {r.scope} "
                                          "changed since it was read")
            if ratings:
                await conn.executemany(
                    f"INSERT INTO ratings ({self._RATING_COLS}) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
                    "ON CONFLICT (scope, game, user_id) DO UPDATE SET mu = excluded.mu, "
                    "sigma = excluded.sigma, games = excluded.games, wins = excluded.wins, "
                    "losses = excluded.losses, draws = excluded.draws, "
                    "updated_at = excluded.updated_at",
                    [(r.scope, r.game, int(r.user_id), float(r.mu), float(r.sigma), int(r.games),
                      int(r.wins), int(r.losses), int(r.draws), float(r.updated_at))
                     for r in ratings])
            if history:
                await conn.executemany(
                    f"INSERT INTO rating_history ({self._HISTORY_COLS}) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
                    "ON CONFLICT (match_id, scope, user_id) DO UPDATE SET game = excluded.game, "
                    "mu_before = excluded.mu_before, sigma_before = excluded.sigma_before, "
                    "mu = excluded.mu, sigma = excluded.sigma, at = excluded.at",
                    [(int(h.match_id), h.scope, h.game, int(h.user_id), float(h.mu_before),
                      float(h.sigma_before), float(h.mu), float(h.sigma), float(h.at))
                     for h in history])
        return True

    async def unprocessed_finished(self, limit: int = 100) -> list[MatchRecord]:
        return await self._list(
            "WHERE status = ANY($1::text[]) AND id NOT IN (SELECT match_id FROM processed_matches) "
            "ORDER BY updated_at, id LIMIT $2", (int(limit),), (FINISHED,), limited=True)

    async def get_ratings(self, scope: str, game: str, user_ids: list[int]) -> dict[int, RatingRow]:
        ids = [int(u) for u in user_ids]
        if not ids:
            return {}
        async with self._read() as conn:
            rows = await conn.fetch(
                f"SELECT {self._RATING_COLS} FROM ratings WHERE scope = $1 AND game = $2 "
                "AND user_id = ANY($3::bigint[])", scope, game, ids)
        return {r[2]: RatingRow(*r) for r in rows}

    async def ratings_for_user(self, user_id: int, scopes: list[str]) -> list[RatingRow]:
        if not scopes:
            return []
        async with self._read() as conn:
            rows = await conn.fetch(
                f"SELECT {self._RATING_COLS} FROM ratings WHERE user_id = $1 "
                f"AND scope = ANY($2::text[]) ORDER BY game {_C}, scope {_C}",
                int(user_id), list(scopes))
        return [RatingRow(*r) for r in rows]

    async def leaderboard(self, scope: str, game: str, offset: int = 0, limit: int = 10
                          ) -> tuple[list[RatingRow], int]:
        async with self._read() as conn:
            rows = await conn.fetch(
                f"SELECT {self._RATING_COLS} FROM ratings WHERE scope = $1 AND game = $2 "
                "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT $3 OFFSET $4",
                scope, game, int(limit), max(0, int(offset)))
            total = await conn.fetchval(
                "SELECT COUNT(*) FROM ratings WHERE scope = $1 AND game = $2", scope, game)
        return [RatingRow(*r) for r in rows], int(total)

    async def rating_history(self, user_id: int, game: str, scope: str,
                             limit: int = 200) -> list[RatingChange]:
        async with self._read() as conn:
            rows = await conn.fetch(
                f"SELECT {self._HISTORY_COLS} FROM rating_history WHERE user_id = $1 AND game = $2 "
                "AND scope = $3 ORDER BY at DESC, match_id DESC LIMIT $4",
                int(user_id), game, scope, int(limit))
        return [RatingChange(*r) for r in reversed(rows)]

    async def results_query(self, user_id: int, game: str | None = None, guild_id: int | None = None,
                            offset: int = 0, limit: int = 10) -> tuple[list[ResultRow], int]:
        where = " WHERE user_id = $1"
        params: list[Any] = [int(user_id)]
        if game is not None:
            params.append(game)
            where += f" AND game = ${len(params)}"
        if guild_id is not None:
            params.append(int(guild_id))
            where += f" AND guild_id = ${len(params)}"
        n = len(params)
        async with self._read() as conn:
            rows = await conn.fetch(
                f"SELECT {self._RESULT_COLS} FROM results" + where
                + f" ORDER BY finished_at DESC, match_id DESC LIMIT ${n + 1} OFFSET ${n + 2}",
                *params, int(limit), max(0, int(offset)))
            total = await conn.fetchval("SELECT COUNT(*) FROM results" + where, *params)
        return [ResultRow(*r) for r in rows], int(total)

    async def result_counts(self, user_id: int) -> dict[str, dict[str, int]]:
        async with self._read() as conn:
            rows = await conn.fetch(
                "SELECT game, outcome, COUNT(*) FROM results WHERE user_id = $1 "
                "GROUP BY game, outcome", int(user_id))
        out: dict[str, dict[str, int]] = {}
        for game, outcome, n in rows:
            out.setdefault(game, {"win": 0, "loss": 0, "draw": 0})[outcome] = int(n)
        return out

    async def results_for_match(self, match_id: int) -> list[ResultRow]:
        async with self._read() as conn:
            rows = await conn.fetch(
                f"SELECT {self._RESULT_COLS} FROM results WHERE match_id = $1 ORDER BY seat",
                int(match_id))
        return [ResultRow(*r) for r in rows]

    async def head_to_head(self, a: int, b: int, game: str | None = None,
                           guild_id: int | None = None) -> list[tuple[ResultRow, ResultRow]]:
        cols = ", ".join(f"x.{c.strip()}" for c in self._RESULT_COLS.split(",")) + ", " + \
            ", ".join(f"y.{c.strip()}" for c in self._RESULT_COLS.split(","))
        sql = (f"SELECT {cols} FROM results x JOIN results y ON x.match_id = y.match_id "
               "WHERE x.user_id = $1 AND y.user_id = $2")
        params: list[Any] = [int(a), int(b)]
        if game is not None:
            params.append(game)
            sql += f" AND x.game = ${len(params)}"
        if guild_id is not None:
            params.append(int(guild_id))
            sql += f" AND x.guild_id = ${len(params)}"
        sql += " ORDER BY x.finished_at DESC, x.match_id DESC"
        async with self._read() as conn:
            rows = await conn.fetch(sql, *params)
        return [(ResultRow(*tuple(r)[:8]), ResultRow(*tuple(r)[8:])) for r in rows]

    @staticmethod
    def _league(row: Any) -> LeagueRecord:
        id_, guild_id, status, version, data, created_at, updated_at = row
        return LeagueRecord(id=id_, guild_id=guild_id, status=status, version=version,
                            data=json.loads(data), created_at=created_at, updated_at=updated_at)

    _LEAGUE_SELECT = "SELECT id, guild_id, status, version, data, created_at, updated_at FROM leagues"

    async def create_league(self, league: LeagueRecord) -> LeagueRecord:
        try:
            text = _dumps(league.data, "data")
        except _Bad as e:
            raise ValueError(f"cannot store league: {e}") from None
        async with self._write() as conn:
            new_id = await conn.fetchval(
                "INSERT INTO leagues (guild_id, status, version, data, created_at, updated_at) "
                "VALUES ($1, $2, 1, $3, $4, $5) RETURNING id",
                int(league.guild_id), league.status, text, float(league.created_at),
                float(league.updated_at))
        return LeagueRecord(id=new_id, guild_id=int(league.guild_id), status=league.status,
                            version=1, data=json.loads(text), created_at=league.created_at,
                            updated_at=league.updated_at)

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        async with self._read() as conn:
            row = await conn.fetchrow(self._LEAGUE_SELECT + " WHERE id = $1", int(league_id))
        return self._league(row) if row is not None else None

    async def update_league(self, league: LeagueRecord, expected_version: int) -> LeagueRecord:
        if league.id is None:
            raise ValueError("the league has no id; create_league it first")
        try:
            text = _dumps(league.data, "data")
        except _Bad as e:
            raise ValueError(f"cannot store league {league.id}: {e}") from None
        async with self._write() as conn:
            status = await conn.execute(
                "UPDATE leagues SET status = $1, data = $2, updated_at = $3, "
                "version = version + 1 WHERE id = $4 AND version = $5",
                league.status, text, float(league.updated_at), int(league.id),
                int(expected_version))
            if _rowcount(status) != 1:
                raise VersionConflict(f"league {league.id} is not at version {expected_version}")
        return LeagueRecord(id=league.id, guild_id=league.guild_id, status=league.status,
                            version=expected_version + 1, data=json.loads(text),
                            created_at=league.created_at, updated_at=league.updated_at)

    async def leagues(self, guild_id: int | None = None,
                      statuses: tuple[str, ...] = ("signup", "running", "finished")) -> list[LeagueRecord]:
        sts = list(statuses)
        if not sts:
            return []
        sql = self._LEAGUE_SELECT + " WHERE status = ANY($1::text[])"
        params: list[Any] = [sts]
        if guild_id is not None:
            params.append(int(guild_id))
            sql += " AND guild_id = $2"
        async with self._read() as conn:
            rows = await conn.fetch(sql + " ORDER BY id", *params)
        return [self._league(r) for r in rows]

    # ======================================================================================
    # saved decks (/deck)
    # ======================================================================================
    async def save_deck(self, user_id: int, game: str, name: str, spec: dict[str, Any]) -> None:
        try:
            text = _dumps(spec, "spec")
        except _Bad as e:
            raise ValueError(f"deck {e}") from None
        now = time.time()
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO decks (user_id, game, name, spec, created_at, updated_at) "
                "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id, game, name) "
                "DO UPDATE SET spec = excluded.spec, updated_at = excluded.updated_at",
                int(user_id), game, name, text, now, now)

    async def get_deck(self, user_id: int, game: str, name: str) -> dict[str, Any] | None:
        async with self._read() as conn:
            spec = await conn.fetchval(
                "SELECT spec FROM decks WHERE user_id = $1 AND game = $2 AND name = $3",
                int(user_id), game, name)
        return None if spec is None else json.loads(spec)

    async def list_decks(self, user_id: int, game: str) -> list[tuple[str, dict[str, Any]]]:
        async with self._read() as conn:
            rows = await conn.fetch(
                f"SELECT name, spec FROM decks WHERE user_id = $1 AND game = $2 ORDER BY name {_C}",
                int(user_id), game)
        return [(name, json.loads(spec)) for name, spec in rows]

    async def delete_deck(self, user_id: int, game: str, name: str) -> bool:
        async with self._write() as conn:
            status = await conn.execute(
                "DELETE FROM decks WHERE user_id = $1 AND game = $2 AND name = $3",
                int(user_id), game, name)
        return _rowcount(status) > 0
