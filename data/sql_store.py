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
``$1``...``$n``.  The record codec is :mod:`data.rows`.  The methods are in parts: the
matches here, the quarantine in :mod:`data.sql_quarantine`, records, ratings, leagues and decks
in :mod:`data.sql_records`, card sets in :mod:`data.sql_card_sets`, statistics in
:mod:`data.sql_stats`, the clocks across days (players' settings, vacations, the games
waiting on a player, notices sent and held) in :mod:`data.sql_clocks`, moves taken back in
:mod:`data.sql_undo`, limited play (drafts, seats and decks, picks, games and surveys) in
:mod:`data.sql_limited`, and the counters ``/cards report`` reads in
:mod:`data.sql_card_counters`.

Failures (issue 31, :mod:`data.resilience`): a driver error leaves a backend's ``_read()`` /
``_write()`` as a :class:`data.store.StoreError` — a :class:`data.store.TransientStoreError` for
a failure that says nothing about the data (``_transient_kind``) — and every public method tries
a transient failure again (:func:`data.resilience.retry_all`, at the end of this module).  Only
proof that the data is wrong quarantines a row.  A ``COMMIT`` never confirmed
(:class:`data.store.OutcomeUnknown`) is settled by the write methods themselves: they read back
what they wrote (:meth:`SqlStore._settle`) before answering.
"""
from __future__ import annotations

import abc
import asyncio
import json
import logging
import time
from contextlib import AbstractAsyncContextManager
from typing import Any, Iterable, Sequence

from data import deadline
from data.resilience import ABSENT, MOVED, PAUSES, STORED, ErrorNotes, retry_all
from data.rows import (
    DECODE_SLICE,
    INSERT,
    SELECT,
    I,
    I_SEATS,
    SELECT_CHECKED,
    SELECT_LISTED,
    UPDATE,
    UPDATE_IDX,
    Bad,
    check_row,
    decode,
    dumps,
    players,
    prepare,
    result_rows,
    statuses,
)
from data.store_interface import (
    ACTIVE,
    FINISHED,
    OPEN,
    PENDING,
    QUARANTINED,
    UNFINISHED,
    CommandRecord,
    CorruptRow,
    MatchRecord,
    ResultRow,
    Store,
    OutcomeUnknown,
    StoreError,
    TransientStoreError,
    VersionConflict,
    looks_transient,
    valid_id,
)
from data.sql_clocks import ClocksSql, _waiting_rows
from data.sql_card_sets import CARD_SET_IDEMPOTENT, CARD_SET_READS, CARD_SET_WRITES, CardSetsSql
from data.sql_quarantine import QuarantineSql
from data.sql_stats import STATS_IDEMPOTENT, STATS_READS, STATS_WRITES, StatsSql
from data.sql_records import RecordsSql
from data.sql_undo import UNDO_READS, UNDO_WRITES, UndoSql
from data.sql_limited import LIMITED_IDEMPOTENT, LIMITED_READS, LIMITED_WRITES, LimitedSql
from data.sql_card_counters import COUNTER_IDEMPOTENT, CardCountersSql

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


class SqlStore(QuarantineSql, RecordsSql, CardSetsSql, StatsSql, ClocksSql, UndoSql, LimitedSql, CardCountersSql,
               Store):
    """The SQL of every store method, once; see the module docstring for what a backend adds."""

    # -- dialect (the SQLite spelling; PostgresStore overrides) ----------------------------
    _DB_ERROR: type[BaseException] | tuple[type[BaseException], ...] = ()
    _INTEGRITY_ERROR: type[BaseException] | tuple[type[BaseException], ...] = ()
    # appended to the SELECTs that read a match row before writing it
    _FOR_UPDATE = ""
    # a column written as ``+col`` in a condition is not looked up in its index (SQLite); the
    # PostgreSQL planner needs no such hint (and has no unary + for text)
    _NOT_INDEXED = "+"
    # the status index, named for the lapsed challenges: SQLite's statistics count statuses, not
    # how few matches wait for an answer, and with them it would read the whole table instead
    _STATUS_INDEX = "INDEXED BY matches_status "
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

    # -- failures (issue 31; data/resilience.py) -------------------------------------------
    @property
    def notes(self) -> ErrorNotes:
        """Failures seen by this store (made on first use: a backend's __init__ need not)."""
        notes = self.__dict__.get("_notes")
        if notes is None:
            notes = self.__dict__["_notes"] = ErrorNotes()
        return notes

    def _transient_kind(self, e: BaseException) -> str | None:
        """The kind of a driver error that says nothing about the stored data (a timeout, a
        lost connection, …), else None.  Each backend names its own."""
        if isinstance(e, (TimeoutError, asyncio.TimeoutError)):
            return "timeout"
        if isinstance(e, (ConnectionError, OSError)):
            return "connection"
        return None

    def _translate(self, e: BaseException, what: str = "") -> StoreError:
        """A driver error as the store's own: transient (see :meth:`_transient_kind`) or not."""
        if isinstance(e, StoreError):
            return e
        text = f"{what + ': ' if what else ''}{type(e).__name__}: {self._scrub(str(e))[:300]}"
        kind = self._transient_kind(e)
        if kind is not None:
            return TransientStoreError(text, kind=kind)
        return StoreError(text)

    def _scrub(self, text: str) -> str:
        return text

    async def _settle(self, check: Any, what: str) -> None:
        """After :class:`OutcomeUnknown` writing ``what``: did the write commit?  ``check(c)``
        answers :data:`STORED`, :data:`ABSENT` or :data:`MOVED` (another write got there first)
        inside a transaction whose first statement waits for the row lock the lost write held,
        so its transaction is over, committed or not, when ``check`` reads.  Returns if it was
        stored; raises :class:`VersionConflict` if it moved, :class:`TransientStoreError` if
        nothing was written (so it may be written again), :class:`OutcomeUnknown` if the
        database never answered before the deadline."""
        for pause in (0.0, *PAUSES, *PAUSES[-1:] * 6):
            if deadline.expired():
                break
            if pause:
                await asyncio.sleep(pause)
            try:
                async with self._write() as c:
                    found = await check(c)
            except TransientStoreError as e:
                self.notes.failed("settle", None, e)
                continue
            if found == STORED:
                return
            if found == MOVED:
                raise VersionConflict(f"{what} was written by another call meanwhile")
            raise TransientStoreError(f"{what} was not written", kind="connection")
        raise OutcomeUnknown("the database did not confirm the write, and reading it back failed")

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
        bad: list[tuple[int, str, str, str]] = []
        try:
            rows = await c.fetchall(SELECT_LISTED + " " + where, *params)
        except self._DB_ERROR as e:
            if self._transient_kind(e):  # the database, not a row: nothing to quarantine
                raise self._translate(e) from e
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
                bad.append((row[0], str(e), row[I["status"]], e.kind))
        written = 0
        for match_id, reason, prev, kind in bad:
            written += await self._quarantine(c, match_id, reason, prev, strict=False, kind=kind)
        return out, written

    async def _fetch_each(self, c: Conn, where: str, params: Iterable[Any],
                          bad: list[tuple[int, str, str, str]], first: BaseException) -> list:
        """The rows of ``SELECT_LISTED + where`` read one at a time; a row the driver cannot
        read goes to ``bad``.  Re-raises ``first`` if even the ids cannot be read (the
        database itself is failing, not one row)."""
        try:
            ids = [r[0] for r in await c.fetchall("SELECT id FROM matches " + where, *params)]
        except self._DB_ERROR as e:
            raise self._translate(first if not self._transient_kind(e) else e) from None
        rows = []
        for match_id in ids:
            try:
                row = await c.fetchone(SELECT_LISTED + " WHERE id = ?", match_id)
            except self._DB_ERROR as e:
                if self._transient_kind(e):
                    raise self._translate(e) from e
                status = await c.fetchval("SELECT status FROM matches WHERE id = ?", match_id)
                bad.append((match_id, f"unreadable ({type(e).__name__}: {str(e)[:200]})",
                            status, "data"))
                continue
            if row is not None:
                rows.append(row)
        return rows

    # -- matches -------------------------------------------------------------------------------
    async def create_match(self, rec: MatchRecord) -> MatchRecord:
        row, out = prepare(rec, id=None, version=1)
        if out.n_commands:  # the log is written by append_command, one entry at a time
            raise ValueError(f"a new match has no commands yet, not n_commands={out.n_commands}")
        try:
            async with self._write() as c:
                match_id = await c.insert(INSERT, *self._row_args(row)[1:])
                out.id = match_id
                seated = players(match_id, out.seats)
                if seated:
                    await c.executemany(
                        "INSERT INTO match_players (match_id, seat, user_id) VALUES (?, ?, ?)", seated)
                if out.status == FINISHED and out.result is not None:
                    await self._write_results(c, out)
        except OutcomeUnknown:
            # a new match's seed is 128 random bits: the row with this creator, creation time
            # and seed is the one this call wrote, if any
            async def check(c: Conn) -> str:
                out.id = await c.fetchval(
                    "SELECT id FROM matches WHERE creator = ? AND created_at = ? AND seed = ? "
                    "AND COALESCE(seed_text, '') = ?", row[I["creator"]],
                    self._row_args(row)[I["created_at"]], row[I["seed"]], row[I["seed_text"]] or "")
                return ABSENT if out.id is None else STORED

            await self._settle(check, "the new match")
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
                if self._transient_kind(e):  # … or the database cannot answer: not the row's fault
                    raise self._translate(e) from e
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
                reason, kind = await self._quarantine_note(c, match_id)
                raise CorruptRow(f"match {match_id} is quarantined"
                                 + (f": {reason}" if reason is not None else ""),
                                 recheck=kind is None and looks_transient(reason))
            try:
                return check_row(row)
            except Bad as e:
                await self._quarantine(c, match_id, str(e), row[I["status"]], strict=False,
                                       kind=e.kind)
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
                         expected_version: int, old_seats: Any, waiting: Any = None) -> None:
        """The version-checked UPDATE, the seat index if the seats changed, the players the
        match waits on (``waiting``: :attr:`MatchRecord.waiting`), and the results if this write
        finishes the match.  Inside _write(), after _check_version."""
        args = self._row_args(row)
        n = await c.execute(UPDATE, *[args[i] for i in UPDATE_IDX], row[0], expected_version)
        if n != 1:  # cannot happen under the write/row lock, but never write blind
            raise VersionConflict(f"match {row[0]} changed while being written")
        if out.status != ACTIVE:
            waiting = []
        if waiting is not None:     # (its rows checked before the transaction: _waiting_rows)
            await c.execute("DELETE FROM turns_waiting WHERE match_id = ?", row[0])
            if waiting:
                await c.executemany(
                    "INSERT INTO turns_waiting (match_id, user_id, guild_id, since, deadline, bank_left) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [(row[0], uid, out.guild_id, since, deadline, bank) for uid, since, deadline, bank in waiting])
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
        waiting = None if rec.waiting is None else _waiting_rows(rec.waiting)   # ValueError: nothing written
        try:
            async with self._write() as c:
                _, old_seats = await self._check_version(c, rec.id, expected_version)
                await self._write_row(c, row, out, expected_version, old_seats, waiting)
        except OutcomeUnknown:
            await self._settle_row(out)
        return out

    async def _settle_row(self, out: MatchRecord) -> None:
        """After :class:`OutcomeUnknown` writing ``out``: it was written if the row is exactly
        ``out`` now (see :meth:`_settle`)."""
        async def check(c: Conn) -> str:
            got = await c.fetchone(SELECT + " WHERE id = ?" + self._FOR_UPDATE, out.id)
            if got is None:
                return ABSENT
            try:
                if decode(tuple(got)) == out:
                    return STORED
            except Bad:
                pass
            return MOVED if got[I["version"]] >= out.version else ABSENT

        await self._settle(check, f"match {out.id}")

    async def append_command(self, rec: MatchRecord, expected_version: int, seat: int,
                             command: str) -> MatchRecord:
        match_id = self._check_id(rec)
        if type(seat) is not int or type(command) is not str:
            raise ValueError("seat must be an int and command a str")
        now = time.time()
        row, out = prepare(rec, version=expected_version + 1)
        waiting = None if rec.waiting is None else _waiting_rows(rec.waiting)   # ValueError: nothing written
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
                await self._write_row(c, row, out, expected_version, old_seats, waiting)
        except _Damaged as e:  # rolled back: nothing written; now quarantine it
            async with self._read() as c:
                await self._quarantine(c, match_id, str(e), strict=False, kind="log")
            raise CorruptRow(f"match {match_id} is unreadable and was quarantined: {e}") from None
        except OutcomeUnknown:
            # the command and the row were written in one transaction: the log entry says
            # whether it committed (its time is this call's own)
            async def check(c: Conn) -> str:
                await c.fetchval("SELECT version FROM matches WHERE id = ?" + self._FOR_UPDATE,
                                 match_id)
                got = await c.fetchone("SELECT seat, command, at FROM commands "
                                       "WHERE match_id = ? AND seq = ?", match_id, seq)
                if got is None:
                    return ABSENT
                return STORED if (got[0], got[1], float(got[2])) == (seat, command, float(now)) else MOVED

            await self._settle(check, f"entry {seq} of match {match_id}'s log")
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
                          shards: Any = None, *, now: float | None = None,
                          lead: tuple[float, float] | None = None) -> list[MatchRecord]:
        # two reads, each on its own index: the lapsed challenges by status (named, and
        # ``+created_at`` keeps SQLite off the creation index, which would walk every match ever
        # made), the due matches by deadline (``+status`` keeps it off the status index, which
        # would walk every active match); one statement with OR reads the whole table
        active = f"WHERE {self._NOT_INDEXED}{{statuses}} AND deadline IS NOT NULL AND deadline <= ?"
        params: tuple = (float(deadline_before),)
        if now is not None and lead is not None:
            # only what is due (see Store.matches_due): the deadline passed, or a reminder not
            # yet sent whose time has come; the deadline index still bounds the scan
            share, cap = float(lead[0]), float(lead[1])
            # (a time-out already announced — ``"expired":true`` at the top of the meta JSON, a
            # text no string value can hold unescaped — is not listed again: it waits for a claim)
            active += (" AND ((deadline <= ? AND meta NOT LIKE ?) OR (turn_seconds IS NOT NULL AND NOT reminded AND "
                       "deadline - (CASE WHEN turn_seconds * CAST(? AS DOUBLE PRECISION) < CAST(? AS DOUBLE PRECISION) "
                       "THEN turn_seconds * CAST(? AS DOUBLE PRECISION) ELSE CAST(? AS DOUBLE PRECISION) END) "
                       "<= ?))")
            params += (float(now), '%"expired":true%', share, cap, share, cap, float(now))
        lapsed = f"{self._STATUS_INDEX}WHERE {{statuses}} AND {self._NOT_INDEXED}created_at <= ?"
        lapsed_params: tuple = (float(created_before),)
        if shards is not None:      # this process's guilds: Discord's (guild_id >> 22) % count
            count = int(shards.count)
            cond, args = self._in(f"((guild_id >> 22) % {count})", [int(i) for i in shards.ids], "bigint")
            mine = (" AND (" + ("guild_id IS NULL OR " if 0 in shards.ids else "")
                    + f"(guild_id IS NOT NULL AND {cond}))")
            active, lapsed = active + mine, lapsed + mine
            params, lapsed_params = params + tuple(args), lapsed_params + tuple(args)
        found = {r.id: r for r in await self._list(lapsed, lapsed_params, (PENDING, OPEN))}
        found.update((r.id, r) for r in await self._list(active, params, (ACTIVE,)))
        return [found[i] for i in sorted(found)]

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


_statuses_of = statuses  # count_matches' parameter is called ``statuses``


# Every public method tries again on a transient failure (data/resilience.py).
retry_all(SqlStore, (
    "create_match", "get_match", "update_match", "append_command", "commands", "unfinished_matches",
    "count_matches", "matches_due", "matches_in_channel", "matches_for_user",
    "quarantined", "quarantine_kinds", "recheck", "release", "get_refs",
    "results_for_user", "get_guild_settings", "is_processed",
    "unprocessed_finished", "get_ratings", "ratings_for_user", "leaderboard",
    "rating_history", "results_query", "result_counts", "results_for_match", "head_to_head",
    "create_league", "get_league", "update_league", "leagues", "get_deck", "list_decks",
    *CARD_SET_READS, *CARD_SET_WRITES, *STATS_READS, *STATS_WRITES, *UNDO_READS, *UNDO_WRITES,
    *LIMITED_READS, *LIMITED_WRITES),
    idempotent=("quarantine", "set_ref", "set_guild_setting", "record_processed", "save_deck",
                "delete_deck", *CARD_SET_IDEMPOTENT, *STATS_IDEMPOTENT, *LIMITED_IDEMPOTENT, *COUNTER_IDEMPOTENT))
