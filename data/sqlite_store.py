"""The embedded SQLite backend of :class:`data.store.Store` (aiosqlite, WAL, versioned migrations).

Durability and concurrency:

* ``journal_mode=WAL`` (readers never block the writer), ``synchronous=FULL`` (a commit is fsynced
  to the WAL before it returns, so an acknowledged command survives a power cut, not only a
  crash of the process), ``foreign_keys=ON`` and a busy timeout, so a second process sharing the
  file waits for the write lock instead of failing.
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
"""
from __future__ import annotations

import asyncio
import json
import logging
import math
import sqlite3
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Iterable

import aiosqlite

from data.migrate import Migration, apply_migrations, current_version
from data.store import (
    FINISHED,
    OPEN,
    PENDING,
    QUARANTINED,
    UNFINISHED,
    CommandRecord,
    CorruptRow,
    MatchRecord,
    LeagueRecord,
    RatingChange,
    RatingRow,
    ResultRow,
    Store,
    StoreError,
    VersionConflict,
)

log = logging.getLogger("data.store")

_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1

# Column order of a match row.  _encode produces, and _decode consumes, exactly these.
_COLS = ("id", "game", "status", "version", "guild_id", "channel_id", "creator", "seed",
         "turn_seconds", "deadline", "reminded", "rematch_of", "options", "seats", "names",
         "accepted", "abort_votes", "spectators", "result", "meta", "snapshot", "snapshot_seq",
         "n_commands", "created_at", "updated_at")
_SELECT = "SELECT " + ", ".join(_COLS) + " FROM matches"
_I = {c: i for i, c in enumerate(_COLS)}
_I_SEATS = _I["seats"]
_WRITE_COLS = _COLS[1:]  # everything but id
_INSERT = (f"INSERT INTO matches ({', '.join(_WRITE_COLS)}) "
           f"VALUES ({', '.join('?' * len(_WRITE_COLS))})")
# version is set to version + 1 by the UPDATE itself, not taken from the record.
_UPDATE_COLS = tuple(c for c in _WRITE_COLS if c != "version")
_UPDATE = ("UPDATE matches SET " + ", ".join(f"{c} = ?" for c in _UPDATE_COLS)
           + ", version = version + 1 WHERE id = ? AND version = ?")
_UPDATE_IDX = tuple(_I[c] for c in _UPDATE_COLS)


# Rows decoded between two yields to the event loop when listing many matches (~5 ms of work;
# host.resume() and the clock's tick() list every unfinished match).
_DECODE_SLICE = 128


class _Bad(Exception):
    """A row (or a record about to be written) fails validation; the message says why."""


# -- decoding ----------------------------------------------------------------------------------

def _int(v: Any, name: str) -> int:
    if type(v) is not int:
        raise _Bad(f"{name}: expected an integer, got {type(v).__name__}")
    return v


def _opt_int(v: Any, name: str) -> int | None:
    return None if v is None else _int(v, name)


def _num(v: Any, name: str) -> float:
    if type(v) is float or type(v) is int:
        return float(v)
    raise _Bad(f"{name}: expected a number, got {type(v).__name__}")


def _opt_num(v: Any, name: str) -> float | None:
    return None if v is None else _num(v, name)


def _str(v: Any, name: str) -> str:
    if type(v) is not str:
        raise _Bad(f"{name}: expected text, got {type(v).__name__}")
    return v


def _json(v: Any, name: str) -> Any:
    if type(v) is not str:
        raise _Bad(f"{name}: expected JSON text, got {type(v).__name__}")
    try:
        return json.loads(v)
    except ValueError as e:
        raise _Bad(f"{name}: invalid JSON ({e})") from None


def _json_dict(v: Any, name: str) -> dict:
    d = _json(v, name)
    if type(d) is not dict:
        raise _Bad(f"{name}: expected a JSON object, got {type(d).__name__}")
    return d


def _json_list(v: Any, name: str, item: type, nullable: bool = False) -> list:
    xs = _json(v, name)
    if type(xs) is not list:
        raise _Bad(f"{name}: expected a JSON array, got {type(xs).__name__}")
    for x in xs:
        if type(x) is not item and not (nullable and x is None):
            raise _Bad(f"{name}: expected {item.__name__} items, got {type(x).__name__}")
    return xs


def _decode(row: tuple | list) -> MatchRecord:
    """A match row (in _COLS order) -> MatchRecord; raises _Bad if anything is off."""
    (id_, game, status, version, guild_id, channel_id, creator, seed, turn_seconds, deadline,
     reminded, rematch_of, options, seats, names, accepted, abort_votes, spectators, result,
     meta, snapshot, snapshot_seq, n_commands, created_at, updated_at) = row
    if reminded not in (0, 1) or type(reminded) not in (int, bool):
        raise _Bad(f"reminded: expected 0 or 1, got {reminded!r}")
    if result is None:
        res = None
    else:
        res = _json(result, "result")
        if res is not None and type(res) is not dict:
            raise _Bad(f"result: expected a JSON object or null, got {type(res).__name__}")
    rec = MatchRecord(
        id=_opt_int(id_, "id"),
        game=_str(game, "game"),
        status=_str(status, "status"),
        version=_int(version, "version"),
        guild_id=_opt_int(guild_id, "guild_id"),
        channel_id=_opt_int(channel_id, "channel_id"),
        creator=_int(creator, "creator"),
        seed=_int(seed, "seed"),
        turn_seconds=_opt_int(turn_seconds, "turn_seconds"),
        deadline=_opt_num(deadline, "deadline"),
        reminded=bool(reminded),
        rematch_of=_opt_int(rematch_of, "rematch_of"),
        options=_json_dict(options, "options"),
        seats=_json_list(seats, "seats", int, nullable=True),
        names=_json_list(names, "names", str),
        accepted=_json_list(accepted, "accepted", int),
        abort_votes=_json_list(abort_votes, "abort_votes", int),
        spectators=_json_list(spectators, "spectators", int),
        result=res,
        meta=_json_dict(meta, "meta"),
        snapshot=None if snapshot is None else _str(snapshot, "snapshot"),
        snapshot_seq=_int(snapshot_seq, "snapshot_seq"),
        n_commands=_int(n_commands, "n_commands"),
        created_at=_num(created_at, "created_at"),
        updated_at=_num(updated_at, "updated_at"),
    )
    for name in ("id", "version", "guild_id", "channel_id", "creator", "seed", "rematch_of"):
        v = getattr(rec, name)
        if v is not None and not _INT64_MIN <= v <= _INT64_MAX:
            raise _Bad(f"{name}: {v} does not fit in a signed 64-bit integer")
    return rec


# -- encoding ----------------------------------------------------------------------------------

def _dumps(v: Any, name: str) -> str:
    try:
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise _Bad(f"{name}: not JSON-serialisable ({e})") from None


def _encode(rec: MatchRecord) -> list:
    """MatchRecord -> row values in _COLS order."""
    def num(v: Any, name: str) -> Any:
        if isinstance(v, float) and not math.isfinite(v):
            raise _Bad(f"{name}: {v} is not a finite number")
        return v

    return [
        rec.id, rec.game, rec.status, rec.version, rec.guild_id, rec.channel_id, rec.creator,
        rec.seed, rec.turn_seconds, num(rec.deadline, "deadline"),
        1 if rec.reminded else 0, rec.rematch_of,
        _dumps(rec.options, "options"), _dumps(list(rec.seats), "seats"),
        _dumps(list(rec.names), "names"), _dumps(list(rec.accepted), "accepted"),
        _dumps(list(rec.abort_votes), "abort_votes"), _dumps(list(rec.spectators), "spectators"),
        None if rec.result is None else _dumps(rec.result, "result"),
        _dumps(rec.meta, "meta"), rec.snapshot, rec.snapshot_seq, rec.n_commands,
        num(rec.created_at, "created_at"), num(rec.updated_at, "updated_at"),
    ]


def _prepare(rec: MatchRecord, **overrides: Any) -> tuple[list, MatchRecord]:
    """Encode ``rec`` (with ``overrides``), and decode it again: the row to write and the copy
    to hand back.  Raises ValueError (nothing written) if the record cannot be stored."""
    try:
        row = _encode(rec)
        for k, v in overrides.items():
            row[_I[k]] = v
        out = _decode(row)
    except _Bad as e:
        raise ValueError(f"cannot store match {rec.id}: {e}") from None
    return row, out


def _players(match_id: int, seats: list[int | None]) -> list[tuple[int, int, int]]:
    return [(match_id, seat, uid) for seat, uid in enumerate(seats) if uid is not None]


def _result_rows(rec: MatchRecord, finished_at: float) -> list[tuple]:
    res = rec.result or {}
    winners = res.get("winners") or []
    reason = str(res.get("reason", "") or "")
    rows = []
    for seat, uid in enumerate(rec.seats):
        if uid is None:
            continue
        outcome = "draw" if not winners else ("win" if seat in winners else "loss")
        rows.append((rec.id, rec.game, rec.guild_id, seat, uid, outcome, reason, finished_at))
    return rows


def _statuses(statuses: Iterable[str]) -> tuple[str, ...]:
    # Quarantined rows are never loaded.
    return tuple(dict.fromkeys(s for s in statuses if s != QUARANTINED))


async def _rollback(db: aiosqlite.Connection) -> None:
    """Roll back if a transaction is open.  Runs on the connection's thread after every
    statement already queued (even one whose await was cancelled), so it needs no racy
    ``in_transaction`` check: "no transaction is active" just means there is nothing to undo."""
    try:
        await db.execute("ROLLBACK")
    except sqlite3.OperationalError:
        pass


class SqliteStore(Store):
    """:class:`Store` on one SQLite file (or ``":memory:"``) through one aiosqlite connection."""

    def __init__(self, path: str | Path, *, busy_timeout: float = 10.0,
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
        self._lock = asyncio.Lock()
        self.journal_mode: str | None = None

    # lifecycle ---------------------------------------------------------------------------
    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path != ":memory:" and not self.path.startswith("file:"):
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_timeout)
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
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
        self._db = db

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

    async def close(self) -> None:
        async with self._lock:
            db, self._db = self._db, None
            if db is not None:
                await db.close()

    async def __aenter__(self) -> "SqliteStore":
        await self.open()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def schema_version(self) -> int:
        async with self._read() as db:
            return await current_version(db)

    # plumbing ----------------------------------------------------------------------------
    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            if self._db is None:
                raise StoreError("the store is not open")
            yield self._db

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction, committed on success, rolled back on error."""
        async with self._lock:
            db = self._db
            if db is None:
                raise StoreError("the store is not open")
            # BEGIN is inside the rollback's reach: if this task is cancelled while waiting for
            # it, the BEGIN still runs on the connection's thread and must be undone.
            try:
                try:
                    await db.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as e:
                    raise StoreError(f"cannot start a write on {self.path}: {e}") from e
                yield db
                await db.execute("COMMIT")
            except BaseException:
                await _rollback(db)
                raise

    async def _fetch_matches(self, db: aiosqlite.Connection, where: str,
                             params: Iterable[Any]) -> tuple[list[MatchRecord], int]:
        """Decode every row of ``_SELECT + where``; quarantine (and skip) unreadable ones.
        Returns (records, number newly quarantined).  Call with the lock held."""
        rows = await db.execute_fetchall(_SELECT + " " + where, tuple(params))
        out: list[MatchRecord] = []
        bad: list[tuple[int, str, str]] = []
        for i, row in enumerate(rows):
            if i and not i % _DECODE_SLICE:
                await asyncio.sleep(0)  # thousands of rows: let the event loop breathe
            try:
                out.append(_decode(row))
            except _Bad as e:
                bad.append((row[0], str(e), row[_I["status"]]))
        written = 0
        for match_id, reason, prev in bad:
            written += await self._quarantine(db, match_id, reason, prev, strict=False)
        return out, written

    async def _quarantine(self, db: aiosqlite.Connection, match_id: int, reason: str,
                          prev_status: Any = None, strict: bool = True) -> bool:
        """Quarantine in its own transaction.  Call with the lock held, outside a transaction.
        With ``strict=False`` a failure to write (e.g. the file is locked for longer than the
        busy timeout) is logged, not raised; returns whether it was written."""
        log.warning("quarantining match %s: %s", match_id, reason)
        try:
            try:
                await db.execute("BEGIN IMMEDIATE")
                await self._quarantine_in_tx(db, match_id, reason, prev_status)
                await db.execute("COMMIT")
            except BaseException:
                await _rollback(db)
                raise
        except sqlite3.Error as e:
            if strict:
                raise StoreError(f"cannot quarantine match {match_id}: {e}") from e
            log.error("could not quarantine match %s: %s", match_id, e)
            return False
        return True

    @staticmethod
    async def _quarantine_in_tx(db: aiosqlite.Connection, match_id: int, reason: str,
                                prev_status: Any = None) -> None:
        if prev_status is None:
            rows = await db.execute_fetchall("SELECT status FROM matches WHERE id = ?",
                                             (match_id,))
            prev_status = rows[0][0] if rows else None
        if prev_status == QUARANTINED:
            prev_status = None  # keep the earliest known one
        await db.execute(
            "UPDATE matches SET status = ?, version = version + 1 WHERE id = ?",
            (QUARANTINED, match_id))
        await db.execute(
            "INSERT INTO quarantine (match_id, reason, prev_status, at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (match_id) DO UPDATE SET reason = excluded.reason, at = excluded.at, "
            "prev_status = COALESCE(quarantine.prev_status, excluded.prev_status)",
            (match_id, reason, None if prev_status is None else str(prev_status), time.time()))

    # matches -----------------------------------------------------------------------------
    async def create_match(self, rec: MatchRecord) -> MatchRecord:
        row, out = _prepare(rec, id=None, version=1)
        async with self._write() as db:
            cur = await db.execute(_INSERT, row[1:])
            match_id = cur.lastrowid
            out.id = match_id
            players = _players(match_id, out.seats)
            if players:
                await db.executemany(
                    "INSERT INTO match_players (match_id, seat, user_id) VALUES (?, ?, ?)",
                    players)
            if out.status == FINISHED and out.result is not None:
                await self._write_results(db, out)
        return out

    async def get_match(self, match_id: int) -> MatchRecord | None:
        async with self._read() as db:
            rows = await db.execute_fetchall(_SELECT + " WHERE id = ?", (match_id,))
            if not rows:
                return None
            row = rows[0]
            if row[_I["status"]] == QUARANTINED:
                q = await db.execute_fetchall("SELECT reason FROM quarantine WHERE match_id = ?",
                                              (match_id,))
                raise CorruptRow(f"match {match_id} is quarantined"
                                 + (f": {q[0][0]}" if q else ""))
            try:
                return _decode(row)
            except _Bad as e:
                await self._quarantine(db, match_id, str(e), row[_I["status"]], strict=False)
                raise CorruptRow(f"match {match_id} is unreadable and was quarantined: {e}") \
                    from None

    @staticmethod
    async def _check_version(db: aiosqlite.Connection, match_id: int, expected_version: int
                             ) -> tuple[int, Any]:
        """Raise VersionConflict unless the row is at ``expected_version``; returns its
        (n_commands, seats JSON).  Call inside _write(): the write lock is held, so the row
        cannot move before the transaction ends."""
        cur = await db.execute_fetchall(
            "SELECT version, n_commands, seats FROM matches WHERE id = ?", (match_id,))
        if not cur:
            raise VersionConflict(f"match {match_id} does not exist")
        version, n_commands, seats = cur[0]
        if version != expected_version:
            raise VersionConflict(f"match {match_id} is at version {version}, "
                                  f"not {expected_version}")
        return n_commands, seats

    async def _write_row(self, db: aiosqlite.Connection, row: list, out: MatchRecord,
                         expected_version: int, old_seats: Any) -> None:
        """The version-checked UPDATE, the seat index if the seats changed, and the results if
        this write finishes the match.  Call inside _write(), after _check_version."""
        c = await db.execute(_UPDATE, [row[i] for i in _UPDATE_IDX]
                             + [row[0], expected_version])
        if c.rowcount != 1:  # cannot happen under BEGIN IMMEDIATE, but never write blind
            raise VersionConflict(f"match {row[0]} changed while being written")
        if row[_I_SEATS] != old_seats:
            await db.execute("DELETE FROM match_players WHERE match_id = ?", (row[0],))
            players = _players(row[0], out.seats)
            if players:
                await db.executemany(
                    "INSERT INTO match_players (match_id, seat, user_id) VALUES (?, ?, ?)",
                    players)
        if out.status == FINISHED and out.result is not None:
            await self._write_results(db, out)

    @staticmethod
    async def _write_results(db: aiosqlite.Connection, rec: MatchRecord) -> None:
        # Once per match: the first finish wins; later writes of a finished match add nothing.
        exists = await db.execute_fetchall("SELECT 1 FROM results WHERE match_id = ? LIMIT 1",
                                           (rec.id,))
        if exists:
            return
        rows = _result_rows(rec, rec.updated_at)
        if rows:
            await db.executemany(
                "INSERT OR IGNORE INTO results (match_id, game, guild_id, seat, user_id, "
                "outcome, reason, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def _check_id(self, rec: MatchRecord) -> int:
        if rec.id is None:
            raise ValueError("the match has no id; create_match it first")
        return rec.id

    async def update_match(self, rec: MatchRecord, expected_version: int) -> MatchRecord:
        self._check_id(rec)
        row, out = _prepare(rec, version=expected_version + 1)
        async with self._write() as db:
            _, old_seats = await self._check_version(db, rec.id, expected_version)
            await self._write_row(db, row, out, expected_version, old_seats)
        return out

    async def append_command(self, rec: MatchRecord, expected_version: int, seat: int,
                             command: str) -> MatchRecord:
        match_id = self._check_id(rec)
        if type(seat) is not int or type(command) is not str:
            raise ValueError("seat must be an int and command a str")
        now = time.time()
        row, out = _prepare(rec, version=expected_version + 1)
        seq = out.n_commands
        async with self._write() as db:
            n_old, old_seats = await self._check_version(db, rec.id, expected_version)
            if seq != n_old + 1:
                raise ValueError(f"match {match_id} has {n_old} commands; the record to write "
                                 f"with a new command must have n_commands={n_old + 1}, "
                                 f"not {seq}")
            await db.execute(
                "INSERT INTO commands (match_id, seq, seat, command, at) VALUES (?, ?, ?, ?, ?)",
                (match_id, seq, seat, command, now))
            await self._write_row(db, row, out, expected_version, old_seats)
        return out

    async def commands(self, match_id: int) -> list[CommandRecord]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT match_id, seq, seat, command, at FROM commands WHERE match_id = ? "
                "ORDER BY seq", (match_id,))
        return [CommandRecord(*r) for r in rows]

    async def _list(self, where: str, params: tuple, statuses: tuple[str, ...],
                    limited: bool = False) -> list[MatchRecord]:
        sts = _statuses(statuses)
        if not sts:
            return []
        where = where.replace("{statuses}", ", ".join("?" * len(sts)))
        async with self._read() as db:
            for _ in range(3):
                recs, n_bad = await self._fetch_matches(db, where, sts + params)
                if not n_bad or not limited:
                    break
                # a LIMIT query came up short by the rows just quarantined: run it again
                # (they no longer match, so this ends)
            return recs

    async def unfinished_matches(self) -> list[MatchRecord]:
        return await self._list("WHERE status IN ({statuses}) ORDER BY id", (), UNFINISHED)

    async def count_matches(self, statuses: tuple[str, ...] = UNFINISHED) -> int:
        sts = _statuses(statuses)
        if not sts:
            return 0
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT COUNT(*) FROM matches WHERE status IN ({', '.join('?' * len(sts))})", sts)
        return int(rows[0][0])

    async def matches_due(self, deadline_before: float, created_before: float) -> list[MatchRecord]:
        return await self._list(
            "WHERE (status IN ({statuses}) AND created_at <= ?) "
            "OR (status = 'active' AND deadline IS NOT NULL AND deadline <= ?) ORDER BY id",
            (float(created_before), float(deadline_before)), (PENDING, OPEN))

    async def matches_in_channel(self, channel_id: int, statuses: tuple[str, ...] = UNFINISHED
                                 ) -> list[MatchRecord]:
        return await self._list("WHERE status IN ({statuses}) AND channel_id = ? ORDER BY id",
                                (channel_id,), statuses)

    async def matches_for_user(self, user_id: int, statuses: tuple[str, ...] = UNFINISHED,
                               limit: int = 25) -> list[MatchRecord]:
        """Matches where the user holds a seat, newest (``created_at``, then id) first."""
        return await self._list(
            "WHERE status IN ({statuses}) AND id IN "
            "(SELECT match_id FROM match_players WHERE user_id = ?) "
            "ORDER BY created_at DESC, id DESC LIMIT ?", (user_id, int(limit)), statuses,
            limited=True)

    async def quarantine(self, match_id: int, reason: str) -> None:
        async with self._read() as db:
            await self._quarantine(db, match_id, reason)

    async def quarantined(self) -> list[tuple[int, str, float]]:
        """(match_id, reason, at) of every match that is quarantined now, oldest first."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT q.match_id, q.reason, q.at FROM quarantine q "
                "LEFT JOIN matches m ON m.id = q.match_id "
                "WHERE m.id IS NULL OR m.status = ? ORDER BY q.at, q.match_id", (QUARANTINED,))
        return [(r[0], r[1], r[2]) for r in rows]

    # front-end references ----------------------------------------------------------------
    async def set_ref(self, match_id: int, key: str, value: str | None) -> None:
        async with self._write() as db:
            if value is None:
                await db.execute("DELETE FROM match_refs WHERE match_id = ? AND key = ?",
                                 (match_id, key))
            else:
                try:
                    await db.execute(
                        "INSERT INTO match_refs (match_id, key, value) VALUES (?, ?, ?) "
                        "ON CONFLICT (match_id, key) DO UPDATE SET value = excluded.value",
                        (match_id, key, str(value)))
                except sqlite3.IntegrityError as e:
                    raise StoreError(f"cannot set a reference on match {match_id}: {e}") from e

    async def get_refs(self, match_id: int) -> dict[str, str]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT key, value FROM match_refs WHERE match_id = ?", (match_id,))
        return {k: v for k, v in rows}

    # results -----------------------------------------------------------------------------
    async def results_for_user(self, user_id: int, game: str | None = None,
                               limit: int = 50) -> list[ResultRow]:
        """Newest first."""
        sql = ("SELECT match_id, game, guild_id, seat, user_id, outcome, reason, finished_at "
               "FROM results WHERE user_id = ?")
        params: list[Any] = [user_id]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        sql += " ORDER BY finished_at DESC, match_id DESC LIMIT ?"
        params.append(int(limit))
        async with self._read() as db:
            rows = await db.execute_fetchall(sql, params)
        return [ResultRow(*r) for r in rows]

    # guild settings ----------------------------------------------------------------------
    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
        out: dict[str, Any] = {}
        for key, value in rows:
            try:
                out[key] = json.loads(value)
            except (TypeError, ValueError):
                log.warning("guild %s: setting %r is not valid JSON; ignored", guild_id, key)
        return out

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        if value is None:
            async with self._write() as db:
                await db.execute("DELETE FROM guild_settings WHERE guild_id = ? AND key = ?",
                                 (guild_id, key))
            return
        try:
            text = _dumps(value, key)
        except _Bad as e:
            raise ValueError(f"guild setting {e}") from None
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                (guild_id, key, text))

    # ======================================================================================
    # records, ratings and leagues (issue 4)
    # ======================================================================================
    _RATING_COLS = "scope, game, user_id, mu, sigma, games, wins, losses, draws, updated_at"
    _HISTORY_COLS = "match_id, scope, game, user_id, mu_before, sigma_before, mu, sigma, at"
    _RESULT_COLS = "match_id, game, guild_id, seat, user_id, outcome, reason, finished_at"

    async def is_processed(self, match_id: int) -> bool:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT 1 FROM processed_matches WHERE match_id = ?", (int(match_id),))
        return bool(rows)

    async def record_processed(self, match_id: int, rated: bool, ratings: list[RatingRow],
                               history: list[RatingChange], at: float) -> bool:
        for r in ratings:
            if not (math.isfinite(r.mu) and math.isfinite(r.sigma) and r.sigma > 0):
                raise ValueError(f"rating of user {r.user_id} is not finite: {r.mu}, {r.sigma}")
        async with self._write() as db:
            cur = await db.execute(
                "INSERT OR IGNORE INTO processed_matches (match_id, rated, at) VALUES (?, ?, ?)",
                (int(match_id), 1 if rated else 0, float(at)))
            if cur.rowcount != 1:
                return False
            before = {(h.scope, h.game, int(h.user_id)): (h.mu_before, h.sigma_before) for h in history}
            for r in ratings:
                now_rows = await db.execute_fetchall(
                    "SELECT mu, sigma FROM ratings WHERE scope = ? AND game = ? AND user_id = ?",
                    (r.scope, r.game, int(r.user_id)))
                expected = before.get((r.scope, r.game, int(r.user_id))) if r.games > 1 else None
                current = (now_rows[0][0], now_rows[0][1]) if now_rows else None
                if current != expected:
                    raise VersionConflict(f"the {r.game} rating of user {r.user_id} in {r.scope} "
                                          "changed since it was read")
            if ratings:
                await db.executemany(
                    f"INSERT OR REPLACE INTO ratings ({self._RATING_COLS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(r.scope, r.game, int(r.user_id), float(r.mu), float(r.sigma), int(r.games),
                      int(r.wins), int(r.losses), int(r.draws), float(r.updated_at)) for r in ratings])
            if history:
                await db.executemany(
                    f"INSERT OR REPLACE INTO rating_history ({self._HISTORY_COLS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(h.match_id, h.scope, h.game, int(h.user_id), h.mu_before, h.sigma_before,
                      h.mu, h.sigma, h.at) for h in history])
        return True

    async def unprocessed_finished(self, limit: int = 100) -> list[MatchRecord]:
        return await self._list(
            "WHERE status IN ({statuses}) AND id NOT IN (SELECT match_id FROM processed_matches) "
            "ORDER BY updated_at, id LIMIT ?", (int(limit),), (FINISHED,), limited=True)

    async def get_ratings(self, scope: str, game: str, user_ids: list[int]) -> dict[int, RatingRow]:
        ids = [int(u) for u in user_ids]
        if not ids:
            return {}
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT {self._RATING_COLS} FROM ratings WHERE scope = ? AND game = ? "
                f"AND user_id IN ({', '.join('?' * len(ids))})", [scope, game] + ids)
        return {r[2]: RatingRow(*r) for r in rows}

    async def ratings_for_user(self, user_id: int, scopes: list[str]) -> list[RatingRow]:
        if not scopes:
            return []
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT {self._RATING_COLS} FROM ratings WHERE user_id = ? "
                f"AND scope IN ({', '.join('?' * len(scopes))}) ORDER BY game, scope",
                [int(user_id)] + list(scopes))
        return [RatingRow(*r) for r in rows]

    async def leaderboard(self, scope: str, game: str, offset: int = 0, limit: int = 10
                          ) -> tuple[list[RatingRow], int]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT {self._RATING_COLS} FROM ratings WHERE scope = ? AND game = ? "
                "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ? OFFSET ?",
                (scope, game, int(limit), max(0, int(offset))))
            total = await db.execute_fetchall(
                "SELECT COUNT(*) FROM ratings WHERE scope = ? AND game = ?", (scope, game))
        return [RatingRow(*r) for r in rows], int(total[0][0])

    async def rating_history(self, user_id: int, game: str, scope: str,
                             limit: int = 200) -> list[RatingChange]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT {self._HISTORY_COLS} FROM rating_history WHERE user_id = ? AND game = ? "
                "AND scope = ? ORDER BY at DESC, match_id DESC LIMIT ?",
                (int(user_id), game, scope, int(limit)))
        return [RatingChange(*r) for r in reversed(rows)]

    async def results_query(self, user_id: int, game: str | None = None, guild_id: int | None = None,
                            offset: int = 0, limit: int = 10) -> tuple[list[ResultRow], int]:
        where = " WHERE user_id = ?"
        params: list[Any] = [int(user_id)]
        if game is not None:
            where += " AND game = ?"
            params.append(game)
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(int(guild_id))
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT {self._RESULT_COLS} FROM results" + where
                + " ORDER BY finished_at DESC, match_id DESC LIMIT ? OFFSET ?",
                params + [int(limit), max(0, int(offset))])
            total = await db.execute_fetchall("SELECT COUNT(*) FROM results" + where, params)
        return [ResultRow(*r) for r in rows], int(total[0][0])

    async def result_counts(self, user_id: int) -> dict[str, dict[str, int]]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT game, outcome, COUNT(*) FROM results WHERE user_id = ? GROUP BY game, outcome",
                (int(user_id),))
        out: dict[str, dict[str, int]] = {}
        for game, outcome, n in rows:
            out.setdefault(game, {"win": 0, "loss": 0, "draw": 0})[outcome] = int(n)
        return out

    async def results_for_match(self, match_id: int) -> list[ResultRow]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT {self._RESULT_COLS} FROM results WHERE match_id = ? ORDER BY seat",
                (int(match_id),))
        return [ResultRow(*r) for r in rows]

    async def head_to_head(self, a: int, b: int, game: str | None = None,
                           guild_id: int | None = None) -> list[tuple[ResultRow, ResultRow]]:
        cols = ", ".join(f"x.{c.strip()}" for c in self._RESULT_COLS.split(",")) + ", " + \
            ", ".join(f"y.{c.strip()}" for c in self._RESULT_COLS.split(","))
        sql = (f"SELECT {cols} FROM results x JOIN results y ON x.match_id = y.match_id "
               "WHERE x.user_id = ? AND y.user_id = ?")
        params: list[Any] = [int(a), int(b)]
        if game is not None:
            sql += " AND x.game = ?"
            params.append(game)
        if guild_id is not None:
            sql += " AND x.guild_id = ?"
            params.append(int(guild_id))
        sql += " ORDER BY x.finished_at DESC, x.match_id DESC"
        async with self._read() as db:
            rows = await db.execute_fetchall(sql, params)
        return [(ResultRow(*r[:8]), ResultRow(*r[8:])) for r in rows]

    @staticmethod
    def _league(row: tuple) -> LeagueRecord:
        id_, guild_id, status, version, data, created_at, updated_at = row
        return LeagueRecord(id=id_, guild_id=guild_id, status=status, version=version,
                            data=json.loads(data), created_at=created_at, updated_at=updated_at)

    _LEAGUE_SELECT = "SELECT id, guild_id, status, version, data, created_at, updated_at FROM leagues"

    async def create_league(self, league: LeagueRecord) -> LeagueRecord:
        try:
            text = _dumps(league.data, "data")
        except _Bad as e:
            raise ValueError(f"cannot store league: {e}") from None
        async with self._write() as db:
            cur = await db.execute(
                "INSERT INTO leagues (guild_id, status, version, data, created_at, updated_at) "
                "VALUES (?, ?, 1, ?, ?, ?)",
                (int(league.guild_id), league.status, text, league.created_at, league.updated_at))
            new_id = cur.lastrowid
        return LeagueRecord(id=new_id, guild_id=int(league.guild_id), status=league.status,
                            version=1, data=json.loads(text), created_at=league.created_at,
                            updated_at=league.updated_at)

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        async with self._read() as db:
            rows = await db.execute_fetchall(self._LEAGUE_SELECT + " WHERE id = ?", (int(league_id),))
        return self._league(rows[0]) if rows else None

    async def update_league(self, league: LeagueRecord, expected_version: int) -> LeagueRecord:
        if league.id is None:
            raise ValueError("the league has no id; create_league it first")
        try:
            text = _dumps(league.data, "data")
        except _Bad as e:
            raise ValueError(f"cannot store league {league.id}: {e}") from None
        async with self._write() as db:
            cur = await db.execute(
                "UPDATE leagues SET status = ?, data = ?, updated_at = ?, version = version + 1 "
                "WHERE id = ? AND version = ?",
                (league.status, text, league.updated_at, int(league.id), int(expected_version)))
            if cur.rowcount != 1:
                raise VersionConflict(f"league {league.id} is not at version {expected_version}")
        return LeagueRecord(id=league.id, guild_id=league.guild_id, status=league.status,
                            version=expected_version + 1, data=json.loads(text),
                            created_at=league.created_at, updated_at=league.updated_at)

    async def leagues(self, guild_id: int | None = None,
                      statuses: tuple[str, ...] = ("signup", "running", "finished")) -> list[LeagueRecord]:
        sts = tuple(statuses)
        if not sts:
            return []
        sql = self._LEAGUE_SELECT + f" WHERE status IN ({', '.join('?' * len(sts))})"
        params: list[Any] = list(sts)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(int(guild_id))
        async with self._read() as db:
            rows = await db.execute_fetchall(sql + " ORDER BY id", params)
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
        async with self._write() as db:
            await db.execute(
                "INSERT INTO decks (user_id, game, name, spec, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, game, name) "
                "DO UPDATE SET spec = excluded.spec, updated_at = excluded.updated_at",
                (int(user_id), game, name, text, now, now))

    async def get_deck(self, user_id: int, game: str, name: str) -> dict[str, Any] | None:
        async with self._read() as db:
            cur = await db.execute("SELECT spec FROM decks WHERE user_id = ? AND game = ? AND name = ?",
                                   (int(user_id), game, name))
            row = await cur.fetchone()
        return None if row is None else json.loads(row[0])

    async def list_decks(self, user_id: int, game: str) -> list[tuple[str, dict[str, Any]]]:
        async with self._read() as db:
            cur = await db.execute("SELECT name, spec FROM decks WHERE user_id = ? AND game = ? ORDER BY name",
                                   (int(user_id), game))
            rows = await cur.fetchall()
        return [(name, json.loads(spec)) for name, spec in rows]

    async def delete_deck(self, user_id: int, game: str, name: str) -> bool:
        async with self._write() as db:
            cur = await db.execute("DELETE FROM decks WHERE user_id = ? AND game = ? AND name = ?",
                                   (int(user_id), game, name))
            return cur.rowcount > 0
