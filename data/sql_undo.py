"""Moves taken back, in the SQL stores (:class:`UndoSql`, a part of
:class:`data.sql_store.SqlStore`; the table of ``data/migrations/0010_undone.sql``).

:meth:`UndoSql.rewind_log` takes the last entries off a match's command log and keeps them in
``undone``, in ONE transaction with the version-checked write of the match row: the log stays
gap-free and append-only in every other respect, so every reader of it (replays, pictures,
records, statistics) sees the position as it stands, and the undone entries are still there for
the match's log and text record (:meth:`UndoSql.undone`).  Every row read back is checked; one
that does not read is skipped with a log line, never served and never stopping the others.
"""
from __future__ import annotations

import json
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from data.resilience import ABSENT, MOVED, STORED
from data.rows import Bad, prepare
from data.sql_clocks import _waiting_rows
from data.store_interface import MatchRecord, OutcomeUnknown, valid_id

log = logging.getLogger("data.store")

KINDS = ("undo", "takeback", "judge")
REASON_MAX = 500
WORDS_MAX = 4000


@dataclass(frozen=True)
class UndoneRecord:
    """One entry taken off a match's log: the ``undo``-th rewind of the match took it back."""
    match_id: int
    undo: int
    seq: int            # its place in the log when it was played
    seat: int
    command: str
    at: float           # when it was played
    kind: str           # "undo" (its player, within the turn), "takeback" (agreed), "judge"
    by_user: int | None
    undone_at: float
    reason: str = ""
    words: dict | None = None   # the move as the thread told it, {"en": …, "ja": …}


def _words(text: Any) -> dict | None:
    if text is None:
        return None
    if type(text) is not str or len(text) > WORDS_MAX:
        raise Bad("words")
    value = json.loads(text)
    if not isinstance(value, dict) or not all(type(k) is str and type(v) is str for k, v in value.items()):
        raise Bad("words")
    return value


def _checked(row: Any) -> UndoneRecord:
    match_id, undo, seq, seat, command, at, kind, by_user, undone_at, reason, words = row
    if not all(type(v) is int for v in (match_id, undo, seq, seat)) or undo < 1 or seq < 1:
        raise Bad("numbers")
    if type(command) is not str or kind not in KINDS or type(reason) is not str:
        raise Bad("text")
    if by_user is not None and type(by_user) is not int:
        raise Bad("by_user")
    at, undone_at = float(at), float(undone_at)
    if not (math.isfinite(at) and math.isfinite(undone_at)):
        raise Bad("times")
    return UndoneRecord(match_id, undo, seq, seat, command, at, kind, by_user, undone_at, reason, _words(words))


class UndoSql:
    """The store's undo methods (mixed into :class:`data.sql_store.SqlStore`)."""

    async def rewind_log(self, rec: MatchRecord, expected_version: int, *, undo: int, kind: str,
                         by_user: int | None, reason: str = "",
                         words: dict[int, dict] | None = None) -> MatchRecord:
        """In one transaction: move the entries of ``rec.id``'s log after ``rec.n_commands``
        (the entries the match keeps) into ``undone`` as its ``undo``-th rewind, and write ``rec``
        as :meth:`update_match` does.  Raises :class:`VersionConflict` and writes nothing if the
        version moved; ``ValueError`` (nothing written) for arguments that cannot be stored.
        ``words``: per log position, the move as the thread told it (kept for the match's log)."""
        match_id = self._check_id(rec)            # type: ignore[attr-defined]
        if kind not in KINDS or type(undo) is not int or undo < 1:
            raise ValueError(f"bad rewind: kind {kind!r}, number {undo!r}")
        reason = str(reason or "")[:REASON_MAX]
        said = {int(k): json.dumps(v, ensure_ascii=False) for k, v in (words or {}).items() if v is not None}
        if any(len(v) > WORDS_MAX for v in said.values()):
            raise ValueError("the words of an undone move are too long")
        keep = rec.n_commands
        row, out = prepare(rec, version=expected_version + 1)
        waiting = None if rec.waiting is None else _waiting_rows(rec.waiting)
        now = time.time()
        try:
            async with self._write() as c:        # type: ignore[attr-defined]
                n_old, old_seats = await self._check_version(c, match_id, expected_version)   # type: ignore[attr-defined]
                if not 0 <= keep < n_old:
                    raise ValueError(f"match {match_id} has {n_old} entries; cannot keep {keep}")
                taken = await c.fetchall(
                    "SELECT seq, seat, command, at FROM commands WHERE match_id = ? AND seq > ? "
                    "ORDER BY seq", match_id, keep)
                await c.executemany(
                    "INSERT INTO undone (match_id, undo, seq, seat, command, at, kind, by_user, "
                    "undone_at, reason, words) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(match_id, undo, int(s), int(seat), cmd, float(at), kind,
                      None if by_user is None else int(by_user), now, reason, said.get(int(s)))
                     for s, seat, cmd, at in taken])
                await c.execute("DELETE FROM commands WHERE match_id = ? AND seq > ?", match_id, keep)
                await self._write_row(c, row, out, expected_version, old_seats, waiting)   # type: ignore[attr-defined]
        except OutcomeUnknown:
            async def check(c: Any) -> str:
                version = await c.fetchval("SELECT version FROM matches WHERE id = ?" + self._FOR_UPDATE,   # type: ignore[attr-defined]
                                           match_id)
                if version is None:
                    return ABSENT
                done = await c.fetchval("SELECT COUNT(*) FROM undone WHERE match_id = ? AND undo = ?",
                                        match_id, undo)
                return STORED if done else (MOVED if version >= out.version else ABSENT)

            await self._settle(check, f"rewind {undo} of match {match_id}")   # type: ignore[attr-defined]
        return out

    async def undone(self, match_id: int) -> list[UndoneRecord]:
        """The entries taken off ``match_id``'s log, in the order they were undone (each rewind's
        entries in log order).  A row that does not read is skipped and logged."""
        mid = valid_id(match_id)
        if mid is None:
            return []
        async with self._read() as c:             # type: ignore[attr-defined]
            rows = await c.fetchall(
                "SELECT match_id, undo, seq, seat, command, at, kind, by_user, undone_at, reason, words "
                "FROM undone WHERE match_id = ? ORDER BY undo, seq", mid)
        out = []
        for r in rows:
            try:
                out.append(_checked(tuple(r)))
            except (Bad, TypeError, ValueError) as e:   # (json's errors are ValueErrors)
                log.warning("match %s: an undone entry does not read (%s); skipped", mid, e)
        return out


UNDO_READS = ("undone",)
UNDO_WRITES = ("rewind_log",)
__all__ = ["UndoSql", "UndoneRecord", "UNDO_READS", "UNDO_WRITES", "KINDS"]
