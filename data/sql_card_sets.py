"""Servers' card sets, their log and balance runs in the SQL stores (:class:`CardSetsSql`, a part
of :class:`data.sql_store.SqlStore`: the same SQL on both backends).

Every row is checked when read (:func:`_card_set`, :func:`_run`): one that does not fit is
skipped and logged, never served, and never stops the others.
"""
from __future__ import annotations

import json
import logging
from dataclasses import replace
from typing import Any

from data.resilience import ABSENT, STORED
from data.rows import Bad, dumps
from data.card_sets.names import looks_like, same_key
from data.store_interface import (BALANCE_STATUSES, BalanceRun, CardSetLog, CardSetRefused, CardSetRow,
                                   OutcomeUnknown, valid_id)

log = logging.getLogger("data.store")

_SET_COLS = "id, guild_id, game, name, version, digest, mode, summary, created_by, created_at, deleted_at"
_RUN_COLS = ("id, guild_id, set_id, game, requested_by, channel_id, message_id, locale, status, plan, progress, "
             "cpu_s, reason, created_at, updated_at")


def _json(value: Any, name: str) -> dict:
    try:
        out = json.loads(value) if isinstance(value, str) else None
    except ValueError:
        out = None
    if not isinstance(out, dict):
        raise Bad(f"{name}: not a JSON object")
    return out


def _typed(value: Any, kind: type | tuple, name: str, none: bool = False) -> Any:
    if value is None and none:
        return None
    if kind is float and type(value) is int:
        return float(value)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise Bad(f"{name}: expected {getattr(kind, '__name__', kind)}, got {type(value).__name__}")
    return value


def _card_set(row: Any, content: Any = None) -> CardSetRow:
    """A card_sets row (``_SET_COLS``, then the content when asked) -> CardSetRow, or Bad."""
    (id_, guild_id, game, name, version, digest, mode, summary, created_by, created_at, deleted_at) = row[:11]
    if content is not None and not isinstance(content, str):
        raise Bad("content: not text")
    if not isinstance(digest, str) or len(digest) != 64:
        raise Bad("digest: not a SHA-256")
    return CardSetRow(guild_id=_typed(guild_id, int, "guild_id"), game=_typed(game, str, "game"),
                      name=_typed(name, str, "name"), digest=digest, mode=_typed(mode, str, "mode"),
                      created_by=_typed(created_by, int, "created_by"), content=content,
                      summary=_json(summary, "summary"), version=_typed(version, int, "version"),
                      id=_typed(id_, int, "id"), created_at=_typed(created_at, float, "created_at"),
                      deleted_at=_typed(deleted_at, float, "deleted_at", none=True))


def _run(row: Any) -> BalanceRun:
    (id_, guild_id, set_id, game, requested_by, channel_id, message_id, locale, status, plan, progress,
     cpu_s, reason, created_at, updated_at) = row
    if status not in BALANCE_STATUSES:
        raise Bad(f"status: {str(status)[:20]!r} is not a balance run status")
    return BalanceRun(guild_id=_typed(guild_id, int, "guild_id"), set_id=_typed(set_id, int, "set_id"),
                      game=_typed(game, str, "game"), requested_by=_typed(requested_by, int, "requested_by"),
                      locale=_typed(locale, str, "locale"), status=status, plan=_json(plan, "plan"),
                      progress=_json(progress, "progress"),
                      channel_id=_typed(channel_id, int, "channel_id", none=True),
                      message_id=_typed(message_id, int, "message_id", none=True),
                      cpu_s=_typed(cpu_s, float, "cpu_s"), reason=_typed(reason, str, "reason", none=True),
                      id=_typed(id_, int, "id"), created_at=_typed(created_at, float, "created_at"),
                      updated_at=_typed(updated_at, float, "updated_at"))


class CardSetsSql:
    """The card-set methods of :class:`data.sql_store.SqlStore`."""

    async def _lock_card_sets(self, c: Any) -> None:
        """Inside _write(): one card-set writer at a time, if _write() alone does not serialise
        them (SQLite's ``BEGIN IMMEDIATE`` does; PostgreSQL takes an advisory lock)."""

    async def add_card_set(self, row: CardSetRow, *, max_sets: int | None = None) -> tuple[CardSetRow, bool]:
        if not isinstance(row.content, str):
            raise ValueError("a card set version needs its content")
        summary = dumps(row.summary, "summary")
        guild, game = int(row.guild_id), row.game
        name = row.name
        try:
            async with self._write() as c:
                await self._lock_card_sets(c)
                existing = await c.fetchall(
                    f"SELECT {_SET_COLS} FROM card_sets WHERE guild_id = ? AND game = ? AND deleted_at IS NULL "
                    "ORDER BY id", guild, game)
                visible: dict[str, CardSetRow] = {}       # same_key -> the set's newest visible version
                for got in existing:
                    try:
                        r = _card_set(tuple(got))
                    except (Bad, ValueError, TypeError):
                        continue                           # skipped (and logged) where sets are listed
                    visible[same_key(r.name)] = r
                newest = visible.get(same_key(name))
                if newest is not None:
                    name = newest.name                     # the set's own spelling
                    if newest.digest == row.digest:
                        return newest, False
                else:
                    alike = next((r for r in visible.values() if looks_like(r.name, name)), None)
                    if alike is not None:
                        raise CardSetRefused("looks_like", name=alike.name)
                    if max_sets is not None and len(visible) >= max_sets:
                        raise CardSetRefused("too_many", limit=max_sets)
                top = await c.fetchval(
                    "SELECT MAX(version) FROM card_sets WHERE guild_id = ? AND game = ? AND name = ?",
                    guild, game, name)
                version = int(top or 0) + 1
                new_id = await c.insert(
                    "INSERT INTO card_sets (guild_id, game, name, version, digest, mode, content, summary, "
                    "created_by, created_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                    guild, game, name, version, row.digest, row.mode, row.content, summary, int(row.created_by),
                    float(row.created_at))
        except OutcomeUnknown:
            found: list[Any] = []

            async def check(c: Any) -> str:
                got = await c.fetchone(
                    "SELECT id, version FROM card_sets WHERE guild_id = ? AND game = ? AND name = ? "
                    "AND digest = ? AND created_at = ?" + self._FOR_UPDATE, guild, game, name, row.digest,
                    float(row.created_at))
                if got is None:
                    return ABSENT
                found.extend(got)
                return STORED

            await self._settle(check, f"card set {name!r}")
            new_id, version = found
        return replace(row, name=name, id=new_id, version=version, deleted_at=None), True

    async def card_sets(self, guild_id: int, game: str | None = None, name: str | None = None,
                        *, deleted: bool = False) -> list[CardSetRow]:
        sql = f"SELECT {_SET_COLS} FROM card_sets WHERE guild_id = ?"
        args: list[Any] = [int(guild_id)]
        if game is not None:
            sql += " AND game = ?"
            args.append(game)
        if name is not None:
            sql += " AND name = ?"
            args.append(name)
        if not deleted:
            sql += " AND deleted_at IS NULL"
        async with self._read() as c:
            rows = await c.fetchall(sql + " ORDER BY id", *args)
        out = []
        for row in rows:
            try:
                out.append(_card_set(tuple(row)))
            except (Bad, ValueError, TypeError) as e:
                log.warning("card set row %s cannot be read and is skipped: %s", row[0], e)
        return out

    async def get_card_set(self, set_id: int) -> CardSetRow | None:
        if valid_id(set_id) is None:
            return None
        async with self._read() as c:
            row = await c.fetchone(f"SELECT {_SET_COLS}, content FROM card_sets WHERE id = ?", int(set_id))
        if row is None:
            return None
        try:
            return _card_set(tuple(row), row[11])
        except (Bad, ValueError, TypeError) as e:
            log.warning("card set row %s cannot be read: %s", set_id, e)
            return None

    async def delete_card_set(self, guild_id: int, game: str, name: str, at: float) -> int:
        async with self._write() as c:
            return await c.execute(
                "UPDATE card_sets SET deleted_at = ? WHERE guild_id = ? AND game = ? AND name = ? "
                "AND deleted_at IS NULL", float(at), int(guild_id), game, name)

    async def log_card_set(self, entry: CardSetLog) -> None:
        async with self._write() as c:
            await c.insert(
                "INSERT INTO card_set_log (guild_id, user_id, at, action, game, name, version, detail) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", int(entry.guild_id), int(entry.user_id), float(entry.at),
                entry.action, entry.game, entry.name, entry.version, dumps(entry.detail, "detail"))

    async def card_set_log(self, guild_id: int, limit: int = 50) -> list[CardSetLog]:
        async with self._read() as c:
            rows = await c.fetchall(
                "SELECT id, guild_id, user_id, at, action, game, name, version, detail FROM card_set_log "
                "WHERE guild_id = ? ORDER BY at DESC, id DESC LIMIT ?", int(guild_id), int(limit))
        out = []
        for id_, gid, uid, at, action, game, name, version, detail in rows:
            try:
                out.append(CardSetLog(guild_id=_typed(gid, int, "guild_id"), user_id=_typed(uid, int, "user_id"),
                                      action=_typed(action, str, "action"), game=_typed(game, str, "game"),
                                      name=_typed(name, str, "name", none=True),
                                      version=_typed(version, int, "version", none=True),
                                      detail=_json(detail, "detail"), at=_typed(at, float, "at"), id=id_))
            except Bad as e:
                log.warning("card set log row %s cannot be read and is skipped: %s", id_, e)
        return out

    async def create_balance_run(self, run: BalanceRun) -> BalanceRun:
        async with self._write() as c:
            new_id = await c.insert(
                "INSERT INTO balance_runs (guild_id, set_id, game, requested_by, channel_id, message_id, locale, "
                "status, plan, progress, cpu_s, reason, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                int(run.guild_id), int(run.set_id), run.game, int(run.requested_by), run.channel_id,
                run.message_id, run.locale, run.status, dumps(run.plan, "plan"), dumps(run.progress, "progress"),
                float(run.cpu_s), run.reason, float(run.created_at), float(run.updated_at))
        return replace(run, id=new_id)

    async def update_balance_run(self, run: BalanceRun) -> None:
        if run.status not in BALANCE_STATUSES:
            raise ValueError(f"unknown balance run status {run.status!r}")
        async with self._write() as c:
            await c.execute(
                "UPDATE balance_runs SET channel_id = ?, message_id = ?, status = ?, progress = ?, cpu_s = ?, "
                "reason = ?, updated_at = ? WHERE id = ?", run.channel_id, run.message_id, run.status,
                dumps(run.progress, "progress"), float(run.cpu_s), run.reason, float(run.updated_at), int(run.id))

    async def get_balance_run(self, run_id: int) -> BalanceRun | None:
        if valid_id(run_id) is None:
            return None
        async with self._read() as c:
            row = await c.fetchone(f"SELECT {_RUN_COLS} FROM balance_runs WHERE id = ?", int(run_id))
        if row is None:
            return None
        try:
            return _run(tuple(row))
        except (Bad, ValueError, TypeError) as e:
            log.warning("balance run %s cannot be read: %s", run_id, e)
            return None

    async def balance_runs(self, statuses: tuple[str, ...], guild_id: int | None = None, *,
                           set_id: int | None = None) -> list[BalanceRun]:
        if not statuses:
            return []
        cond, params = self._in("status", list(statuses))
        sql = f"SELECT {_RUN_COLS} FROM balance_runs WHERE {cond}"
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(int(guild_id))
        if set_id is not None:
            sql += " AND set_id = ?"
            params.append(int(set_id))
        async with self._read() as c:
            rows = await c.fetchall(sql + " ORDER BY id", *params)
        out = []
        for row in rows:
            try:
                out.append(_run(tuple(row)))
            except (Bad, ValueError, TypeError) as e:
                log.warning("balance run %s cannot be read and is skipped: %s", row[0], e)
        return out


CARD_SET_READS = ("card_sets", "get_card_set", "card_set_log", "get_balance_run", "balance_runs")
CARD_SET_IDEMPOTENT = ("delete_card_set", "update_balance_run")
CARD_SET_WRITES = ("add_card_set", "log_card_set", "create_balance_run")

__all__ = ["CardSetsSql", "CARD_SET_READS", "CARD_SET_IDEMPOTENT", "CARD_SET_WRITES"]
