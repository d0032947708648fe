"""Quarantine in the SQL stores: setting a damaged match row aside, and giving it back
(:class:`QuarantineSql`, a part of :class:`data.sql_store.SqlStore`).

A row is quarantined only on proof that its stored data is wrong, and the quarantine records
which proof (``kind``, :data:`data.store.QUARANTINE_KINDS`).  A failing connection is never such
proof (issue 31): it is a :class:`data.store.TransientStoreError` and the caller says "try
again".  Rows quarantined before kinds were recorded (``kind`` NULL) for a reason that reads
like a failing connection (:func:`data.store.looks_transient`) are offered for a re-check on
their next load (:class:`data.store.CorruptRow` ``recheck``); :meth:`recheck` reads a
quarantined row again through every check and :meth:`release` gives it its old status back —
the host does both after replaying the log (``Host.recheck``), and so does the operator's
``python bot.py --recheck-quarantine``.
"""
from __future__ import annotations

import logging
import time
from typing import Any

from data.rows import I, SELECT_CHECKED, Bad, check_row
from data.store_interface import QUARANTINE_KINDS, QUARANTINED, STATUSES, CorruptRow, MatchRecord, StoreError, valid_id

log = logging.getLogger("data.store")


class QuarantineSql:
    """The quarantine methods of :class:`data.sql_store.SqlStore` (same SQL on both backends)."""

    # provided by SqlStore / the backend
    _DB_ERROR: Any
    _FOR_UPDATE: str

    async def _quarantine(self, c: Any, match_id: int, reason: str, prev_status: Any = None,
                          strict: bool = True, kind: str = "data") -> bool:
        """Quarantine in its own transaction.  Inside _read(), outside a transaction.  With
        ``strict=False`` a failure to write (e.g. the SQLite file is locked for longer than the
        busy timeout) is logged, not raised; returns whether it was written."""
        log.warning("quarantining match %s (%s): %s", match_id, kind, reason)
        try:
            async with c.transaction():
                await self._quarantine_in_tx(c, match_id, reason, prev_status, kind)
        except (self._DB_ERROR, OSError, TimeoutError) as e:
            if strict:
                raise self._translate(e, f"cannot quarantine match {match_id}") from e
            log.error("could not quarantine match %s: %s", match_id, e)
            return False
        return True

    async def _quarantine_in_tx(self, c: Any, match_id: int, reason: str,
                                prev_status: Any = None, kind: str = "data") -> None:
        if kind not in QUARANTINE_KINDS:
            raise ValueError(f"quarantine kind {kind!r} is not one of {QUARANTINE_KINDS}")
        if prev_status is None:
            prev_status = await c.fetchval(
                "SELECT status FROM matches WHERE id = ?" + self._FOR_UPDATE, match_id)
        if prev_status == QUARANTINED:
            prev_status = None  # keep the earliest known one
        await c.execute("UPDATE matches SET status = ?, version = version + 1 WHERE id = ?",
                        QUARANTINED, match_id)
        await c.execute(
            "INSERT INTO quarantine (match_id, reason, prev_status, at, kind) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (match_id) DO UPDATE SET reason = excluded.reason, at = excluded.at, "
            "kind = excluded.kind, "
            "prev_status = COALESCE(quarantine.prev_status, excluded.prev_status)",
            match_id, reason, None if prev_status is None else str(prev_status), time.time(), kind)

    async def quarantine(self, match_id: int, reason: str, kind: str = "data") -> None:
        if valid_id(match_id) is None:
            return  # no such row
        async with self._read() as c:  # type: ignore[attr-defined]
            await self._quarantine(c, int(match_id), reason, kind=kind)

    async def quarantined(self) -> list[tuple[int, str, float]]:
        """(match_id, reason, at) of every match that is quarantined now, oldest first."""
        async with self._read() as c:  # type: ignore[attr-defined]
            rows = await c.fetchall(
                "SELECT q.match_id, q.reason, q.at FROM quarantine q "
                "LEFT JOIN matches m ON m.id = q.match_id "
                "WHERE m.id IS NULL OR m.status = ? ORDER BY q.at, q.match_id", QUARANTINED)
        return [(r[0], r[1], r[2]) for r in rows]

    async def quarantine_kinds(self) -> dict[int, str | None]:
        async with self._read() as c:  # type: ignore[attr-defined]
            rows = await c.fetchall(
                "SELECT q.match_id, q.kind FROM quarantine q JOIN matches m ON m.id = q.match_id "
                "WHERE m.status = ?", QUARANTINED)
        return {r[0]: r[1] for r in rows}

    async def _quarantine_note(self, c: Any, match_id: int) -> tuple[Any, Any]:
        """(reason, kind) of a quarantined row (None, None if its quarantine row is missing)."""
        row = await c.fetchone("SELECT reason, kind FROM quarantine WHERE match_id = ?", match_id)
        return (None, None) if row is None else (row[0], row[1])

    async def recheck(self, match_id: int) -> MatchRecord | None:
        match_id = valid_id(match_id)
        if match_id is None:
            return None
        async with self._read() as c:  # type: ignore[attr-defined]
            note = await c.fetchone("SELECT prev_status FROM quarantine WHERE match_id = ?", match_id)
            try:
                row = await c.fetchone(SELECT_CHECKED + " WHERE id = ?", match_id)
            except self._DB_ERROR as e:
                if self._transient_kind(e):  # type: ignore[attr-defined]
                    raise
                reason = f"unreadable ({type(e).__name__}: {str(e)[:200]})"
                await self._quarantine(c, match_id, reason, strict=False)
                raise CorruptRow(f"match {match_id} is still unreadable: {reason}") from None
            if row is None or row[I["status"]] != QUARANTINED or note is None:
                return None
            prev = note[0]
            if prev not in STATUSES:
                raise CorruptRow(f"match {match_id}: its status before the quarantine is not known "
                                 f"({prev!r})")
            fixed = list(row)
            fixed[I["status"]] = prev
            try:
                return check_row(fixed)
            except Bad as e:
                await self._quarantine(c, match_id, str(e), strict=False, kind=e.kind)
                raise CorruptRow(f"match {match_id} is still unreadable: {e}") from None

    async def release(self, match_id: int, version: int) -> MatchRecord | None:
        match_id = valid_id(match_id)
        if match_id is None:
            return None
        async with self._write() as c:  # type: ignore[attr-defined]
            row = await c.fetchone(
                "SELECT status, version FROM matches WHERE id = ?" + self._FOR_UPDATE, match_id)
            if row is None or row[0] != QUARANTINED or row[1] != int(version):
                return None
            prev = await c.fetchval("SELECT prev_status FROM quarantine WHERE match_id = ?", match_id)
            if prev not in STATUSES:
                return None
            await c.execute("UPDATE matches SET status = ?, version = version + 1 WHERE id = ?",
                            prev, match_id)
            await c.execute("DELETE FROM quarantine WHERE match_id = ?", match_id)
        log.warning("match %s released from quarantine (status %s again)", match_id, prev)
        try:
            return await self.get_match(match_id)  # type: ignore[attr-defined]
        except StoreError:
            return None
