"""What the SQL stores share: :class:`SqlStore`, every :class:`data.store.Store` method written
once against a tiny connection adapter (:class:`Conn`).

A backend (:class:`data.sqlite_store.SqliteStore`, :class:`data.postgres_store.PostgresStore`)
supplies only what truly differs:

* opening, closing, migrations and :meth:`SqlStore.schema_version`;
* ``_read()`` / ``_write()``: async context managers yielding a :class:`Conn` — ``_write()``
  is one transaction, committed on success and rolled back on error, holding whatever lock
  makes the version checks safe (SQLite ``BEGIN IMMEDIATE``; PostgreSQL row locks, see
  ``_FOR_UPDATE``, and an advisory lock for ratings, see ``_lock_ratings``);
* the adapter: ``execute`` (returns the row count), ``executemany``, ``fetchall``,
  ``fetchone``, ``fetchval``, ``insert`` (returns the new row's id: ``lastrowid`` or
  ``RETURNING id``) and ``transaction()``;
* the dialect snippets, as class attributes and small methods (``_in``, ``_C``,
  ``_FOR_UPDATE``, ``_row_args``, the few upserts written differently, the driver's error
  classes).

SQL is written once with ``?`` placeholders, which the PostgreSQL adapter rewrites to
``$1``...``$n``.  The record codec is :mod:`data.rows`.
"""
from __future__ import annotations

import abc
import asyncio
import json
import logging
import math
import time
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from typing import Any, Iterable, Sequence

from data.rows import (
    DECODE_SLICE,
    INSERT,
    I,
    I_SEATS,
    SELECT_CHECKED,
    SELECT_LISTED,
    UPDATE,
    UPDATE_IDX,
    Bad,
    check_row,
    decode_deck,
    decode_league,
    dumps,
    players,
    prepare,
    result_rows,
    statuses,
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
    valid_id,
)

log = logging.getLogger("data.store")


class Conn(abc.ABC):
    """The common driver API the shared SQL runs on.  SQL uses ``?`` placeholders."""

    @abc.abstractmethod
    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abc.abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    @abc.abstractmethod
    async def fetchall(self, sql: str, *args: Any) -> list: ...

    @abc.abstractmethod
    async def fetchone(self, sql: str, *args: Any) -> Any:
        """The first row, or None."""

    @abc.abstractmethod
    async def fetchval(self, sql: str, *args: Any) -> Any:
        """The first column of the first row, or None."""

    @abc.abstractmethod
    async def insert(self, sql: str, *args: Any) -> int:
        """Run an INSERT of one row; returns its new ``id``."""

    @abc.abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[None]:
        """A transaction on this connection (used outside ``_write()``, for quarantining)."""


class _Damaged(Exception):
    """Raised inside a write transaction (so it rolls back) when the row turns out damaged."""


_RATING_COLS = "scope, game, user_id, mu, sigma, games, wins, losses, draws, updated_at"
_HISTORY_COLS = "match_id, scope, game, user_id, mu_before, sigma_before, mu, sigma, at"
_RESULT_COLS = "match_id, game, guild_id, seat, user_id, outcome, reason, finished_at"


class SqlStore(Store):
    """The SQL of every store method, once; see the module docstring for what a backend adds."""

    # -- dialect (the SQLite spelling; PostgresStore overrides) ----------------------------
    _DB_ERROR: type[BaseException] | tuple[type[BaseException], ...] = ()
    _INTEGRITY_ERROR: type[BaseException] | tuple[type[BaseException], ...] = ()
    # appended to the SELECTs that read a match row before writing it
    _FOR_UPDATE = ""
    # appended to text columns in ORDER BY, for code-point order
    _C = ""
    _RATING_COLS = _RATING_COLS
    _HISTORY_COLS = _HISTORY_COLS
    _RESULT_COLS = _RESULT_COLS
    _SQL_PROCESSED = "INSERT OR IGNORE INTO processed_matches (match_id, rated, at) VALUES (?, ?, ?)"
    _SQL_RATINGS = (f"INSERT OR REPLACE INTO ratings ({_RATING_COLS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    _SQL_HISTORY = (f"INSERT OR REPLACE INTO rating_history ({_HISTORY_COLS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
    _SQL_RESULTS = (f"INSERT OR IGNORE INTO results ({_RESULT_COLS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")

    @staticmethod
    def _in(column: str, values: Sequence[Any], sqltype: str = "text") -> tuple[str, list]:
        """``column`` is one of ``values``: (SQL, parameters).  ``values`` is not empty."""
        return f"{column} IN ({', '.join('?' * len(values))})", list(values)

    @staticmethod
    def _row_args(row: list) -> list:
        """An encoded match row (:func:`data.rows.encode`) -> the driver's parameters."""
        return row

    async def _lock_ratings(self, c: Conn) -> None:
        """Inside _write(): serialise rating writers, if _write() alone does not."""

    async def __aenter__(self) -> SqlStore:
        await self.open()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    @abc.abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Conn]: ...

    @abc.abstractmethod
    def _write(self) -> AbstractAsyncContextManager[Conn]: ...

    # -- plumbing ------------------------------------------------------------------------------
    async def _fetch_matches(self, c: Conn, where: str,
                             params: Iterable[Any]) -> tuple[list[MatchRecord], int]:
        """Decode and check every row of ``SELECT_LISTED + where`` (the row itself, and its
        n_commands against the command log's last entry: :func:`data.rows.check_row`);
        quarantine (and skip) the ones that fail.  Returns (records, number newly
        quarantined).  Inside _read(), outside a transaction."""
        bad: list[tuple[int, str, str]] = []
        try:
            rows = await c.fetchall(SELECT_LISTED + " " + where, *params)
        except self._DB_ERROR as e:
            # the driver could not read a value (SQLite: text that is not UTF-8): read the rows
            # one by one, so only the ones it cannot read are left out (and quarantined)
            rows = await self._fetch_each(c, where, params, bad, e)
        out: list[MatchRecord] = []
        for i, row in enumerate(rows):
            if i and not i % DECODE_SLICE:
                await asyncio.sleep(0)  # thousands of rows: let the event loop breathe
            try:
                out.append(check_row(row))
            except Bad as e:
                bad.append((row[0], str(e), row[I["status"]]))
        written = 0
        for match_id, reason, prev in bad:
            written += await self._quarantine(c, match_id, reason, prev, strict=False)
        return out, written

    async def _fetch_each(self, c: Conn, where: str, params: Iterable[Any],
                          bad: list[tuple[int, str, str]], first: BaseException) -> list:
        """The rows of ``SELECT_LISTED + where`` read one at a time; a row the driver cannot
        read goes to ``bad``.  Re-raises ``first`` if even the ids cannot be read (the
        database itself is failing, not one row)."""
        try:
            ids = [r[0] for r in await c.fetchall("SELECT id FROM matches " + where, *params)]
        except self._DB_ERROR:
            raise first from None
        rows = []
        for match_id in ids:
            try:
                row = await c.fetchone(SELECT_LISTED + " WHERE id = ?", match_id)
            except self._DB_ERROR as e:
                status = await c.fetchval("SELECT status FROM matches WHERE id = ?", match_id)
                bad.append((match_id, f"unreadable ({type(e).__name__}: {str(e)[:200]})",
                            status))
                continue
            if row is not None:
                rows.append(row)
        return rows

    async def _quarantine(self, c: Conn, match_id: int, reason: str,
                          prev_status: Any = None, strict: bool = True) -> bool:
        """Quarantine in its own transaction.  Inside _read(), outside a transaction.  With
        ``strict=False`` a failure to write (e.g. the SQLite file is locked for longer than the
        busy timeout) is logged, not raised; returns whether it was written."""
        log.warning("quarantining match %s: %s", match_id, reason)
        try:
            async with c.transaction():
                await self._quarantine_in_tx(c, match_id, reason, prev_status)
        except self._DB_ERROR as e:
            if strict:
                raise StoreError(f"cannot quarantine match {match_id}: {e}") from e
            log.error("could not quarantine match %s: %s", match_id, e)
            return False
        return True

    async def _quarantine_in_tx(self, c: Conn, match_id: int, reason: str,
                                prev_status: Any = None) -> None:
        if prev_status is None:
            prev_status = await c.fetchval(
                "SELECT status FROM matches WHERE id = ?" + self._FOR_UPDATE, match_id)
        if prev_status == QUARANTINED:
            prev_status = None  # keep the earliest known one
        await c.execute("UPDATE matches SET status = ?, version = version + 1 WHERE id = ?",
                        QUARANTINED, match_id)
        await c.execute(
            "INSERT INTO quarantine (match_id, reason, prev_status, at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (match_id) DO UPDATE SET reason = excluded.reason, at = excluded.at, "
            "prev_status = COALESCE(quarantine.prev_status, excluded.prev_status)",
            match_id, reason, None if prev_status is None else str(prev_status), time.time())

    # -- matches -------------------------------------------------------------------------------
    async def create_match(self, rec: MatchRecord) -> MatchRecord:
        row, out = prepare(rec, id=None, version=1)
        if out.n_commands:  # the log is written by append_command, one entry at a time
            raise ValueError(f"a new match has no commands yet, not n_commands={out.n_commands}")
        async with self._write() as c:
            match_id = await c.insert(INSERT, *self._row_args(row)[1:])
            out.id = match_id
            seated = players(match_id, out.seats)
            if seated:
                await c.executemany(
                    "INSERT INTO match_players (match_id, seat, user_id) VALUES (?, ?, ?)", seated)
            if out.status == FINISHED and out.result is not None:
                await self._write_results(c, out)
        return out

    async def get_match(self, match_id: int) -> MatchRecord | None:
        """Also checks the row against its command log (n_commands = its length and its last
        seq); a row that fails any check is quarantined (:class:`CorruptRow`).  An id no table
        can hold (beyond 64 bits, negative) is no match (None)."""
        match_id = valid_id(match_id)
        if match_id is None:
            return None
        async with self._read() as c:
            try:
                row = await c.fetchone(SELECT_CHECKED + " WHERE id = ?", match_id)
            except self._DB_ERROR as e:  # the driver cannot read a value (SQLite: not UTF-8)
                status = await c.fetchval("SELECT status FROM matches WHERE id = ?", match_id)
                if status is None:
                    raise
                reason = f"unreadable ({type(e).__name__}: {str(e)[:200]})"
                if status != QUARANTINED:
                    await self._quarantine(c, match_id, reason, status, strict=False)
                raise CorruptRow(f"match {match_id} is unreadable and was quarantined: "
                                 f"{reason}") from None
            if row is None:
                return None
            if row[I["status"]] == QUARANTINED:
                reason = await c.fetchval("SELECT reason FROM quarantine WHERE match_id = ?",
                                          match_id)
                raise CorruptRow(f"match {match_id} is quarantined"
                                 + (f": {reason}" if reason is not None else ""))
            try:
                return check_row(row)
            except Bad as e:
                await self._quarantine(c, match_id, str(e), row[I["status"]], strict=False)
                raise CorruptRow(f"match {match_id} is unreadable and was quarantined: {e}") \
                    from None

    async def _check_version(self, c: Conn, match_id: int, expected_version: int
                             ) -> tuple[int, Any]:
        """Raise VersionConflict unless the row is at ``expected_version``; returns its
        (n_commands, seats JSON).  Inside _write(): the write lock (SQLite) or the row lock
        taken here (PostgreSQL, ``FOR UPDATE``) is held until the transaction ends, so the row
        cannot move meanwhile."""
        row = await c.fetchone(
            "SELECT version, n_commands, seats FROM matches WHERE id = ?" + self._FOR_UPDATE,
            match_id)
        if row is None:
            raise VersionConflict(f"match {match_id} does not exist")
        version, n_commands, seats = row
        if version != expected_version:
            raise VersionConflict(f"match {match_id} is at version {version}, "
                                  f"not {expected_version}")
        return n_commands, seats

    async def _write_row(self, c: Conn, row: list, out: MatchRecord,
                         expected_version: int, old_seats: Any) -> None:
        """The version-checked UPDATE, the seat index if the seats changed, and the results if
        this write finishes the match.  Inside _write(), after _check_version."""
        args = self._row_args(row)
        n = await c.execute(UPDATE, *[args[i] for i in UPDATE_IDX], row[0], expected_version)
        if n != 1:  # cannot happen under the write/row lock, but never write blind
            raise VersionConflict(f"match {row[0]} changed while being written")
        if row[I_SEATS] != old_seats:
            await c.execute("DELETE FROM match_players WHERE match_id = ?", row[0])
            seated = players(row[0], out.seats)
            if seated:
                await c.executemany(
                    "INSERT INTO match_players (match_id, seat, user_id) VALUES (?, ?, ?)", seated)
        if out.status == FINISHED and out.result is not None:
            await self._write_results(c, out)

    async def _write_results(self, c: Conn, rec: MatchRecord) -> None:
        # Once per match: the first finish wins; later writes of a finished match add nothing.
        if await c.fetchone("SELECT 1 FROM results WHERE match_id = ? LIMIT 1", rec.id) is not None:
            return
        rows = result_rows(rec, float(rec.updated_at))
        if rows:
            await c.executemany(self._SQL_RESULTS, rows)

    def _check_id(self, rec: MatchRecord) -> int:
        if rec.id is None:
            raise ValueError("the match has no id; create_match it first")
        return rec.id

    async def update_match(self, rec: MatchRecord, expected_version: int) -> MatchRecord:
        self._check_id(rec)
        row, out = prepare(rec, version=expected_version + 1)
        async with self._write() as c:
            _, old_seats = await self._check_version(c, rec.id, expected_version)
            await self._write_row(c, row, out, expected_version, old_seats)
        return out

    async def append_command(self, rec: MatchRecord, expected_version: int, seat: int,
                             command: str) -> MatchRecord:
        match_id = self._check_id(rec)
        if type(seat) is not int or type(command) is not str:
            raise ValueError("seat must be an int and command a str")
        now = time.time()
        row, out = prepare(rec, version=expected_version + 1)
        seq = out.n_commands
        try:
            async with self._write() as c:
                n_old, old_seats = await self._check_version(c, rec.id, expected_version)
                last = await c.fetchval("SELECT MAX(seq) FROM commands WHERE match_id = ?",
                                        match_id)
                if (last or 0) != n_old:  # a damaged row: never leave a gap (or a clash)
                    raise _Damaged(f"n_commands: {n_old}, but the command log's last entry "
                                   f"is {last or 0}")
                if seq != n_old + 1:
                    raise ValueError(f"match {match_id} has {n_old} commands; the record to "
                                     f"write with a new command must have "
                                     f"n_commands={n_old + 1}, not {seq}")
                # in the same transaction as the version-checked update of the match row
                await c.execute(
                    "INSERT INTO commands (match_id, seq, seat, command, at) "
                    "VALUES (?, ?, ?, ?, ?)", match_id, seq, seat, command, now)
                await self._write_row(c, row, out, expected_version, old_seats)
        except _Damaged as e:  # rolled back: nothing written; now quarantine it
            async with self._read() as c:
                await self._quarantine(c, match_id, str(e), strict=False)
            raise CorruptRow(f"match {match_id} is unreadable and was quarantined: {e}") from None
        return out

    async def commands(self, match_id: int) -> list[CommandRecord]:
        match_id = valid_id(match_id)
        if match_id is None:
            return []
        async with self._read() as c:
            rows = await c.fetchall(
                "SELECT match_id, seq, seat, command, at FROM commands WHERE match_id = ? "
                "ORDER BY seq", match_id)
        return [CommandRecord(*r) for r in rows]

    async def _list(self, where: str, params: tuple, wanted: tuple[str, ...],
                    limited: bool = False) -> list[MatchRecord]:
        """``where`` names the status condition ``{statuses}``, before any other ``?``."""
        sts = statuses(wanted)
        if not sts:
            return []
        cond, args = self._in("status", sts)
        where = where.replace("{statuses}", cond)
        async with self._read() as c:
            for _ in range(3):
                recs, n_bad = await self._fetch_matches(c, where, (*args, *params))
                if not n_bad or not limited:
                    break
                # a LIMIT query came up short by the rows just quarantined: run it again
                # (they no longer match, so this ends)
            return recs

    async def unfinished_matches(self) -> list[MatchRecord]:
        return await self._list("WHERE {statuses} ORDER BY id", (), UNFINISHED)

    async def count_matches(self, statuses: tuple[str, ...] = UNFINISHED) -> int:
        sts = _statuses_of(statuses)
        if not sts:
            return 0
        cond, args = self._in("status", sts)
        async with self._read() as c:
            n = await c.fetchval("SELECT COUNT(*) FROM matches WHERE " + cond, *args)
        return int(n)

    async def matches_due(self, deadline_before: float, created_before: float,
                          shards: Any = None) -> list[MatchRecord]:
        where = ("WHERE (({statuses} AND created_at <= ?) "
                 "OR (status = 'active' AND deadline IS NOT NULL AND deadline <= ?))")
        params: tuple = (float(created_before), float(deadline_before))
        if shards is not None:      # this process's guilds: Discord's (guild_id >> 22) % count
            count = int(shards.count)
            cond, args = self._in(f"((guild_id >> 22) % {count})", [int(i) for i in shards.ids], "bigint")
            where += (" AND (" + ("guild_id IS NULL OR " if 0 in shards.ids else "")
                      + f"(guild_id IS NOT NULL AND {cond}))")
            params += tuple(args)
        return await self._list(where + " ORDER BY id", params, (PENDING, OPEN))

    async def matches_in_channel(self, channel_id: int, statuses: tuple[str, ...] = UNFINISHED
                                 ) -> list[MatchRecord]:
        return await self._list("WHERE {statuses} AND channel_id = ? ORDER BY id",
                                (int(channel_id),), statuses)

    async def matches_for_user(self, user_id: int, statuses: tuple[str, ...] = UNFINISHED,
                               limit: int = 25) -> list[MatchRecord]:
        """Matches where the user holds a seat, newest (``created_at``, then id) first."""
        return await self._list(
            "WHERE {statuses} AND id IN "
            "(SELECT match_id FROM match_players WHERE user_id = ?) "
            "ORDER BY created_at DESC, id DESC LIMIT ?", (int(user_id), int(limit)), statuses,
            limited=True)

    async def quarantine(self, match_id: int, reason: str) -> None:
        if valid_id(match_id) is None:
            return  # no such row
        async with self._read() as c:
            await self._quarantine(c, int(match_id), reason)

    async def quarantined(self) -> list[tuple[int, str, float]]:
        """(match_id, reason, at) of every match that is quarantined now, oldest first."""
        async with self._read() as c:
            rows = await c.fetchall(
                "SELECT q.match_id, q.reason, q.at FROM quarantine q "
                "LEFT JOIN matches m ON m.id = q.match_id "
                "WHERE m.id IS NULL OR m.status = ? ORDER BY q.at, q.match_id", QUARANTINED)
        return [(r[0], r[1], r[2]) for r in rows]

    # -- front-end references ------------------------------------------------------------------
    async def set_ref(self, match_id: int, key: str, value: str | None) -> None:
        if valid_id(match_id) is None:
            if value is None:
                return
            raise StoreError(f"cannot set a reference on match {match_id}: no such match")
        async with self._write() as c:
            if value is None:
                await c.execute("DELETE FROM match_refs WHERE match_id = ? AND key = ?",
                                int(match_id), key)
            else:
                try:
                    await c.execute(
                        "INSERT INTO match_refs (match_id, key, value) VALUES (?, ?, ?) "
                        "ON CONFLICT (match_id, key) DO UPDATE SET value = excluded.value",
                        int(match_id), key, str(value))
                except self._INTEGRITY_ERROR as e:
                    raise StoreError(f"cannot set a reference on match {match_id}: {e}") from e

    async def get_refs(self, match_id: int) -> dict[str, str]:
        if valid_id(match_id) is None:
            return {}
        async with self._read() as c:
            rows = await c.fetchall("SELECT key, value FROM match_refs WHERE match_id = ?",
                                    int(match_id))
        return {k: v for k, v in rows}

    # -- results -------------------------------------------------------------------------------
    async def results_for_user(self, user_id: int, game: str | None = None,
                               limit: int = 50) -> list[ResultRow]:
        """Newest first."""
        sql = f"SELECT {self._RESULT_COLS} FROM results WHERE user_id = ?"
        params: list[Any] = [int(user_id)]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        sql += " ORDER BY finished_at DESC, match_id DESC LIMIT ?"
        params.append(int(limit))
        async with self._read() as c:
            rows = await c.fetchall(sql, *params)
        return [ResultRow(*r) for r in rows]

    # -- guild settings ------------------------------------------------------------------------
    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]:
        async with self._read() as c:
            rows = await c.fetchall("SELECT key, value FROM guild_settings WHERE guild_id = ?",
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
            async with self._write() as c:
                await c.execute("DELETE FROM guild_settings WHERE guild_id = ? AND key = ?",
                                int(guild_id), key)
            return
        try:
            text = dumps(value, key)
        except Bad as e:
            raise ValueError(f"guild setting {e}") from None
        async with self._write() as c:
            await c.execute(
                "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                int(guild_id), key, text)

    # ==========================================================================================
    # records, ratings and leagues
    # ==========================================================================================
    async def is_processed(self, match_id: int) -> bool:
        if valid_id(match_id) is None:
            return False
        async with self._read() as c:
            row = await c.fetchone("SELECT 1 FROM processed_matches WHERE match_id = ?",
                                   int(match_id))
        return row is not None

    async def record_processed(self, match_id: int, rated: bool, ratings: list[RatingRow],
                               history: list[RatingChange], at: float) -> bool:
        for r in ratings:
            if not (math.isfinite(r.mu) and math.isfinite(r.sigma) and r.sigma > 0):
                raise ValueError(f"rating of user {r.user_id} is not finite: {r.mu}, {r.sigma}")
        async with self._write() as c:
            await self._lock_ratings(c)
            if await c.execute(self._SQL_PROCESSED, int(match_id), bool(rated), float(at)) != 1:
                return False
            before = {(h.scope, h.game, int(h.user_id)): (h.mu_before, h.sigma_before)
                      for h in history}
            for r in ratings:
                now_row = await c.fetchone(
                    "SELECT mu, sigma FROM ratings WHERE scope = ? AND game = ? AND user_id = ?",
                    r.scope, r.game, int(r.user_id))
                expected = before.get((r.scope, r.game, int(r.user_id))) if r.games > 1 else None
                current = (now_row[0], now_row[1]) if now_row is not None else None
                if current != expected:
                    raise VersionConflict(f"the {r.game} rating of user {r.user_id} in {r.scope} "
                                          "changed since it was read")
            if ratings:
                await c.executemany(
                    self._SQL_RATINGS,
                    [(r.scope, r.game, int(r.user_id), float(r.mu), float(r.sigma), int(r.games),
                      int(r.wins), int(r.losses), int(r.draws), float(r.updated_at))
                     for r in ratings])
            if history:
                await c.executemany(
                    self._SQL_HISTORY,
                    [(int(h.match_id), h.scope, h.game, int(h.user_id), float(h.mu_before),
                      float(h.sigma_before), float(h.mu), float(h.sigma), float(h.at))
                     for h in history])
        return True

    async def unprocessed_finished(self, limit: int = 100) -> list[MatchRecord]:
        return await self._list(
            "WHERE {statuses} AND id NOT IN (SELECT match_id FROM processed_matches) "
            "ORDER BY updated_at, id LIMIT ?", (int(limit),), (FINISHED,), limited=True)

    async def get_ratings(self, scope: str, game: str, user_ids: list[int]) -> dict[int, RatingRow]:
        ids = [int(u) for u in user_ids]
        if not ids:
            return {}
        cond, args = self._in("user_id", ids, "bigint")
        async with self._read() as c:
            rows = await c.fetchall(
                f"SELECT {self._RATING_COLS} FROM ratings WHERE scope = ? AND game = ? AND "
                + cond, scope, game, *args)
        return {r[2]: RatingRow(*r) for r in rows}

    async def ratings_for_user(self, user_id: int, scopes: list[str]) -> list[RatingRow]:
        if not scopes:
            return []
        cond, args = self._in("scope", list(scopes))
        async with self._read() as c:
            rows = await c.fetchall(
                f"SELECT {self._RATING_COLS} FROM ratings WHERE user_id = ? AND {cond} "
                f"ORDER BY game{self._C}, scope{self._C}", int(user_id), *args)
        return [RatingRow(*r) for r in rows]

    async def leaderboard(self, scope: str, game: str, offset: int = 0, limit: int = 10
                          ) -> tuple[list[RatingRow], int]:
        async with self._read() as c:
            rows = await c.fetchall(
                f"SELECT {self._RATING_COLS} FROM ratings WHERE scope = ? AND game = ? "
                "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ? OFFSET ?",
                scope, game, int(limit), max(0, int(offset)))
            total = await c.fetchval(
                "SELECT COUNT(*) FROM ratings WHERE scope = ? AND game = ?", scope, game)
        return [RatingRow(*r) for r in rows], int(total)

    async def rating_history(self, user_id: int, game: str, scope: str,
                             limit: int = 200) -> list[RatingChange]:
        async with self._read() as c:
            rows = await c.fetchall(
                f"SELECT {self._HISTORY_COLS} FROM rating_history WHERE user_id = ? AND game = ? "
                "AND scope = ? ORDER BY at DESC, match_id DESC LIMIT ?",
                int(user_id), game, scope, int(limit))
        return [RatingChange(*r) for r in reversed(rows)]

    @staticmethod
    def _game_guild(prefix: str, game: str | None, guild_id: int | None) -> tuple[str, list[Any]]:
        """The optional ``AND game = ? AND guild_id = ?`` of the results queries (columns of the
        table named by ``prefix``) and their parameters."""
        sql, params = "", []
        if game is not None:
            sql += f" AND {prefix}game = ?"
            params.append(game)
        if guild_id is not None:
            sql += f" AND {prefix}guild_id = ?"
            params.append(int(guild_id))
        return sql, params

    async def results_query(self, user_id: int, game: str | None = None, guild_id: int | None = None,
                            offset: int = 0, limit: int = 10) -> tuple[list[ResultRow], int]:
        more, params = self._game_guild("", game, guild_id)
        where = " WHERE user_id = ?" + more
        params.insert(0, int(user_id))
        async with self._read() as c:
            rows = await c.fetchall(
                f"SELECT {self._RESULT_COLS} FROM results" + where
                + " ORDER BY finished_at DESC, match_id DESC LIMIT ? OFFSET ?",
                *params, int(limit), max(0, int(offset)))
            total = await c.fetchval("SELECT COUNT(*) FROM results" + where, *params)
        return [ResultRow(*r) for r in rows], int(total)

    async def result_counts(self, user_id: int) -> dict[str, dict[str, int]]:
        async with self._read() as c:
            rows = await c.fetchall(
                "SELECT game, outcome, COUNT(*) FROM results WHERE user_id = ? "
                "GROUP BY game, outcome", int(user_id))
        out: dict[str, dict[str, int]] = {}
        for game, outcome, n in rows:
            out.setdefault(game, {"win": 0, "loss": 0, "draw": 0})[outcome] = int(n)
        return out

    async def results_for_match(self, match_id: int) -> list[ResultRow]:
        if valid_id(match_id) is None:
            return []
        async with self._read() as c:
            rows = await c.fetchall(
                f"SELECT {self._RESULT_COLS} FROM results WHERE match_id = ? ORDER BY seat",
                int(match_id))
        return [ResultRow(*r) for r in rows]

    async def head_to_head(self, a: int, b: int, game: str | None = None,
                           guild_id: int | None = None) -> list[tuple[ResultRow, ResultRow]]:
        cols = ", ".join(f"x.{c.strip()}" for c in self._RESULT_COLS.split(",")) + ", " + \
            ", ".join(f"y.{c.strip()}" for c in self._RESULT_COLS.split(","))
        sql = (f"SELECT {cols} FROM results x JOIN results y ON x.match_id = y.match_id "
               "WHERE x.user_id = ? AND y.user_id = ?")
        more, params = self._game_guild("x.", game, guild_id)
        sql += more
        params[:0] = [int(a), int(b)]
        sql += " ORDER BY x.finished_at DESC, x.match_id DESC"
        async with self._read() as c:
            rows = await c.fetchall(sql, *params)
        return [(ResultRow(*tuple(r)[:8]), ResultRow(*tuple(r)[8:])) for r in rows]

    @staticmethod
    def _league(row: Any) -> LeagueRecord | None:
        """The row as a LeagueRecord, or None (logged) if it cannot be read: one bad league
        never stops the listing, the clock or the other leagues."""
        try:
            return decode_league(tuple(row))
        except Bad as e:
            log.warning("league %s cannot be read and is skipped: %s", row[0], e)
            return None

    _LEAGUE_SELECT = "SELECT id, guild_id, status, version, data, created_at, updated_at FROM leagues"

    @staticmethod
    def _league_text(league: LeagueRecord, what: str) -> str:
        """The league's data as stored (ValueError naming ``what`` if it cannot be)."""
        try:
            return dumps(league.data, "data")
        except Bad as e:
            raise ValueError(f"cannot store {what}: {e}") from None

    async def create_league(self, league: LeagueRecord) -> LeagueRecord:
        text = self._league_text(league, "league")
        async with self._write() as c:
            new_id = await c.insert(
                "INSERT INTO leagues (guild_id, status, version, data, created_at, updated_at) "
                "VALUES (?, ?, 1, ?, ?, ?)",
                int(league.guild_id), league.status, text, float(league.created_at),
                float(league.updated_at))
        return replace(league, id=new_id, guild_id=int(league.guild_id), version=1, data=json.loads(text))

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        if valid_id(league_id) is None:
            return None
        async with self._read() as c:
            row = await c.fetchone(self._LEAGUE_SELECT + " WHERE id = ?", int(league_id))
        return self._league(row) if row is not None else None   # unreadable: as if absent

    async def update_league(self, league: LeagueRecord, expected_version: int) -> LeagueRecord:
        if league.id is None:
            raise ValueError("the league has no id; create_league it first")
        text = self._league_text(league, f"league {league.id}")
        async with self._write() as c:
            n = await c.execute(
                "UPDATE leagues SET status = ?, data = ?, updated_at = ?, version = version + 1 "
                "WHERE id = ? AND version = ?",
                league.status, text, float(league.updated_at), int(league.id),
                int(expected_version))
            if n != 1:
                raise VersionConflict(f"league {league.id} is not at version {expected_version}")
        return replace(league, version=expected_version + 1, data=json.loads(text))

    async def leagues(self, guild_id: int | None = None,
                      statuses: tuple[str, ...] = ("signup", "running", "finished")) -> list[LeagueRecord]:
        sts = list(statuses)
        if not sts:
            return []
        cond, params = self._in("status", sts)
        sql = self._LEAGUE_SELECT + " WHERE " + cond
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(int(guild_id))
        async with self._read() as c:
            rows = await c.fetchall(sql + " ORDER BY id", *params)
        return [lg for lg in map(self._league, rows) if lg is not None]

    # ==========================================================================================
    # saved decks (/deck)
    # ==========================================================================================
    async def save_deck(self, user_id: int, game: str, name: str, spec: dict[str, Any]) -> None:
        try:
            text = dumps(spec, "spec")
        except Bad as e:
            raise ValueError(f"deck {e}") from None
        now = time.time()
        async with self._write() as c:
            await c.execute(
                "INSERT INTO decks (user_id, game, name, spec, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, game, name) "
                "DO UPDATE SET spec = excluded.spec, updated_at = excluded.updated_at",
                int(user_id), game, name, text, now, now)

    async def get_deck(self, user_id: int, game: str, name: str) -> dict[str, Any] | None:
        async with self._read() as c:
            spec = await c.fetchval(
                "SELECT spec FROM decks WHERE user_id = ? AND game = ? AND name = ?",
                int(user_id), game, name)
        return None if spec is None else self._deck(user_id, name, spec)

    async def list_decks(self, user_id: int, game: str) -> list[tuple[str, dict[str, Any]]]:
        async with self._read() as c:
            rows = await c.fetchall(
                f"SELECT name, spec FROM decks WHERE user_id = ? AND game = ? ORDER BY name{self._C}",
                int(user_id), game)
        decks = [(name, self._deck(user_id, name, spec)) for name, spec in rows]
        return [(name, spec) for name, spec in decks if spec is not None]

    @staticmethod
    def _deck(user_id: int, name: Any, spec: Any) -> dict[str, Any] | None:
        """A saved deck's spec, or None (logged) if the row cannot be read."""
        try:
            return decode_deck(spec)
        except Bad as e:
            log.warning("deck %r of user %s cannot be read and is skipped: %s", name, user_id, e)
            return None

    async def delete_deck(self, user_id: int, game: str, name: str) -> bool:
        async with self._write() as c:
            n = await c.execute("DELETE FROM decks WHERE user_id = ? AND game = ? AND name = ?",
                                int(user_id), game, name)
        return n > 0


_statuses_of = statuses  # count_matches' parameter is called ``statuses``
