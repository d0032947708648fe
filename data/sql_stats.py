"""A server's statistics in the SQL stores (:class:`StatsSql`, a part of
:class:`data.sql_store.SqlStore`, the same SQL on both backends): each finished match's public
facts counted once, and the counters the ``/stats`` answers read (``host/stats/aggregate.py``).

A row that does not read is skipped and logged, never served, and never stops the others.
"""
from __future__ import annotations

import json
import logging
from typing import Any, Callable

from data.rows import dumps
from data.store_interface import FINISHED, MatchRecord

log = logging.getLogger("data.store")

_UPSERT = ("INSERT INTO stats_counts (guild_id, game, split, scope, key, n, score) VALUES (?, ?, ?, ?, ?, ?, ?) "
           "ON CONFLICT (guild_id, game, split, scope, key) "
           "DO UPDATE SET n = stats_counts.n + excluded.n, score = stats_counts.score + excluded.score")


_UPSERT_USER = ("INSERT INTO stats_users (user_id, guild_id, game, key, n, score) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (user_id, guild_id, game, key) "
                "DO UPDATE SET n = stats_users.n + excluded.n, score = stats_users.score + excluded.score")


def _rows(guild_id: int, game: str, increments: dict) -> tuple[list[tuple], list[tuple]]:
    """The server's counter rows and the players' own (``u:<user>:<key>`` increments: summed
    over splits, their scope is always "all")."""
    counts, users = [], []
    for (split, scope, key), (n, score) in increments.items():
        if key.startswith("u:"):
            _u, user, rest = key.split(":", 2)
            users.append((int(user), int(guild_id), game, rest, int(n), float(score)))
        else:
            counts.append((int(guild_id), game, split, scope, key, int(n), float(score)))
    return counts, users


_PAGE_ROWS = 200          # facts rows per INSERT of record_stats_page (7 parameters each)


async def _add(c: Any, guild_id: int, game: str, increments: dict) -> None:
    counts, users = _rows(guild_id, game, increments)
    if counts:
        await c.executemany(_UPSERT, counts)
    if users:
        await c.executemany(_UPSERT_USER, users)


class StatsSql:
    """The statistics methods of :class:`data.sql_store.SqlStore`."""

    async def record_stats(self, match_id: int, guild_id: int | None, game: str, finished_at: float,
                           league_id: int | None, facts: dict, increments: dict) -> bool:
        """Count one finished match: its facts stored and its increments added, in one
        transaction; False (nothing added) when it was counted already."""
        return (await self.record_stats_many([(match_id, guild_id, game, finished_at, league_id, facts,
                                               increments)]))[0]

    async def record_stats_many(self, items: list[tuple]) -> list[bool]:
        """:meth:`record_stats` for several matches (``(match_id, guild_id, game, finished_at,
        league_id, facts, increments)`` each) in one transaction (a rebuild writes a page so)."""
        texts = [dumps(item[5], "facts") for item in items]
        out = []
        async with self._write() as c:
            for (match_id, guild_id, game, finished_at, league_id, facts, increments), text in zip(items, texts):
                season = facts.get("season")
                # counted once, also when two processes count it at once (both catching up): the
                # second insert waits for the first and adds nothing
                added = await c.execute(
                    "INSERT INTO stats_matches (match_id, guild_id, game, finished_at, league_id, season, facts) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING", int(match_id), guild_id, game,
                    float(finished_at), league_id, season if type(season) is int else None, text)
                if not added:
                    out.append(False)
                    continue
                if guild_id is not None and increments:
                    await _add(c, guild_id, game, increments)
                out.append(True)
        return out

    async def record_stats_page(self, guild_id: int, rows: list[tuple],
                                increments_of: Callable[[set[int]], dict[str, dict]]) -> set[int]:
        """Count a page of one server's finished matches at once (a rebuild): their facts rows
        ``(match_id, game, finished_at, league_id, season, facts as JSON text)`` inserted and
        their counters added, in one transaction, with one statement per few hundred rows and
        one per counter table.  A match counted already (by the hook meanwhile) is not counted
        again: ``increments_of(counted ids)`` is called once the rows are in and gives the sums of
        the counted ones' increments by game (``{game: {(split, scope, key): (n, score)}}``).
        Returns the ids counted."""
        counted: set[int] = set()
        async with self._write() as c:
            for i in range(0, len(rows), _PAGE_ROWS):
                part = rows[i:i + _PAGE_ROWS]
                args: list[Any] = []
                for match_id, game, finished_at, league_id, season, text in part:
                    args += [int(match_id), int(guild_id), game, float(finished_at), league_id,
                             season if type(season) is int else None, text]
                got = await c.fetchall(
                    "INSERT INTO stats_matches (match_id, guild_id, game, finished_at, league_id, season, facts) "
                    "VALUES " + ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * len(part))
                    + " ON CONFLICT (match_id) DO NOTHING RETURNING match_id", *args)
                counted.update(int(r[0]) for r in got)
            for game, increments in (increments_of(counted) if counted else {}).items():
                if increments:
                    await _add(c, guild_id, game, increments)
        return counted

    async def record_pairing_stats(self, guild_id: int, game: str, league_id: int, pairing_id: int,
                                   increments: dict) -> bool:
        """Count a decided league pairing as one match (once: False when it was already)."""
        async with self._write() as c:
            if not await c.execute("INSERT INTO stats_pairings (league_id, pairing_id) VALUES (?, ?) "
                                   "ON CONFLICT (league_id, pairing_id) DO NOTHING", int(league_id), int(pairing_id)):
                return False
            if increments:
                await _add(c, guild_id, game, increments)
        return True

    async def stats_counts(self, guild_id: int, game: str, split: str | None, scopes: list[str],
                           prefix: str | None = None) -> list[tuple[str, str, int, float]]:
        """``(split, key, n, score)`` of a server's game in these scopes (summed over them), of one
        split or all; ``prefix``: only the keys that start so."""
        if not scopes:
            return []
        cond, args = self._in("scope", list(scopes))
        sql = f"SELECT split, key, SUM(n), SUM(score) FROM stats_counts WHERE guild_id = ? AND game = ? AND {cond}"
        params: list[Any] = [int(guild_id), game, *args]
        if split is not None:
            sql += " AND split = ?"
            params.append(split)
        if prefix:
            sql += " AND key LIKE ?"
            params.append(prefix.replace("%", "") + "%")
        async with self._read() as c:
            rows = await c.fetchall(sql + " GROUP BY split, key", *params)
        return [(r[0], r[1], int(r[2]), float(r[3])) for r in rows]

    async def stats_splits(self, guild_id: int, game: str, scopes: list[str]) -> list[tuple[str, int]]:
        """The splits a server's game has figures in (scopes summed): ``(split, games)``, newest
        edition first."""
        if not scopes:
            return []
        cond, args = self._in("scope", list(scopes))
        async with self._read() as c:
            rows = await c.fetchall(
                f"SELECT split, SUM(n) FROM stats_counts WHERE guild_id = ? AND game = ? AND {cond} "
                "AND key LIKE 'len:%' GROUP BY split", int(guild_id), game, *args)
        return [(r[0], int(r[1])) for r in rows]

    async def stats_user(self, user_id: int, guild_id: int | None = None) -> list[tuple[str, str, int, float]]:
        """``(game, key, n, score)`` of one player's deck counters (``/profile``), in one server or all."""
        sql = "SELECT game, key, SUM(n), SUM(score) FROM stats_users WHERE user_id = ?"
        params: list[Any] = [int(user_id)]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(int(guild_id))
        async with self._read() as c:
            rows = await c.fetchall(sql + " GROUP BY game, key", *params)
        return [(r[0], f"u:{int(user_id)}:{r[1]}", int(r[2]), float(r[3])) for r in rows]

    async def stats_facts(self, guild_id: int, game: str | None = None, *, league_id: int | None = None,
                          limit: int = 1_000_000) -> list[dict]:
        """The stored facts of a server's counted matches, oldest first (each checked: a row that
        does not read is skipped and logged)."""
        sql = "SELECT match_id, facts FROM stats_matches WHERE guild_id = ?"
        params: list[Any] = [int(guild_id)]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        if league_id is not None:
            sql += " AND league_id = ?"
            params.append(int(league_id))
        async with self._read() as c:
            rows = await c.fetchall(sql + " ORDER BY finished_at, match_id LIMIT ?", *params, int(limit))
        out = []
        for match_id, text in rows:
            try:
                facts = json.loads(text)
                if not isinstance(facts, dict) or not isinstance(facts.get("seats"), list):
                    raise ValueError("not a facts object")
                out.append(facts)
            except (TypeError, ValueError) as e:
                log.warning("statistics of match %s cannot be read and are skipped: %s", match_id, e)
        return out

    async def stats_seasons(self, guild_id: int) -> dict[int, int]:
        """The rating season each of a server's counted matches was counted in (a rebuild keeps
        them), without reading their facts."""
        async with self._read() as c:
            rows = await c.fetchall("SELECT match_id, season FROM stats_matches WHERE guild_id = ? "
                                    "AND season IS NOT NULL", int(guild_id))
        return {int(m): int(s) for m, s in rows}

    async def stats_kept(self, guild_id: int, after_id: int = 0, limit: int = 1000) -> list[tuple[int, int | None, str]]:
        """``(match_id, season, facts as stored)`` of a server's counted matches, by id from
        ``after_id`` (a rebuild reads them before it forgets them: the season each was counted
        in, and the facts it may reuse).  The text is not read here."""
        async with self._read() as c:
            rows = await c.fetchall("SELECT match_id, season, facts FROM stats_matches WHERE guild_id = ? "
                                    "AND match_id > ? ORDER BY match_id LIMIT ?", int(guild_id), int(after_id),
                                    int(limit))
        return [(int(m), int(s) if s is not None else None, t) for m, s, t in rows]

    async def stats_logs(self, match_ids: list[int], prefix: str | None = None) -> dict[int, list[tuple[int, str]]]:
        """The command logs of several matches at once, ``match id → [(seat, command)]`` in order
        (a rebuild replays a page of matches); ``prefix``: only the entries that start so (a
        page's late joins).  A match without entries is absent."""
        ids = sorted({int(m) for m in match_ids})
        if not ids:
            return {}
        cond, args = self._in("match_id", ids, "bigint")
        sql = f"SELECT match_id, seat, command FROM commands WHERE {cond}"
        if prefix:
            sql += " AND substr(command, 1, ?) = ?"
            args += [len(prefix), prefix]
        async with self._read() as c:
            rows = await c.fetchall(sql + " ORDER BY match_id, seq", *args)
        out: dict[int, list[tuple[int, str]]] = {}
        for match_id, seat, command in rows:
            out.setdefault(int(match_id), []).append((int(seat), command))
        return out

    async def unprocessed_stats(self, limit: int = 200) -> list[MatchRecord]:
        """Finished matches not counted yet (a crash between a match's end and its count)."""
        return await self._list(
            "WHERE {statuses} AND id NOT IN (SELECT match_id FROM stats_matches) "
            "ORDER BY updated_at, id LIMIT ?", (int(limit),), (FINISHED,), limited=True)

    async def finished_in_guild(self, guild_id: int, after_id: int = 0, limit: int = 500) -> list[MatchRecord]:
        """A server's finished matches, by id from ``after_id`` (a rebuild pages through them)."""
        return await self._list("WHERE {statuses} AND guild_id = ? AND id > ? ORDER BY id LIMIT ?",
                                (int(guild_id), int(after_id), int(limit)), (FINISHED,), limited=True)

    async def delete_stats(self, guild_id: int) -> int:
        """Forget a server's statistics (before they are rebuilt from the logs)."""
        async with self._write() as c:
            n = await c.execute("DELETE FROM stats_matches WHERE guild_id = ?", int(guild_id))
            await c.execute("DELETE FROM stats_counts WHERE guild_id = ?", int(guild_id))
            await c.execute("DELETE FROM stats_users WHERE guild_id = ?", int(guild_id))
            await c.execute("DELETE FROM stats_pairings WHERE league_id IN (SELECT id FROM leagues WHERE guild_id = ?)",
                            int(guild_id))
        return n


STATS_READS = ("stats_counts", "stats_splits", "stats_user", "stats_facts", "stats_seasons", "stats_kept",
               "stats_logs", "unprocessed_stats", "finished_in_guild")
STATS_WRITES: tuple[str, ...] = ()
# counting is idempotent: a match (a pairing) already counted is not counted again
STATS_IDEMPOTENT = ("record_stats", "record_stats_many", "record_stats_page", "record_pairing_stats", "delete_stats")

__all__ = ["StatsSql", "STATS_READS", "STATS_WRITES", "STATS_IDEMPOTENT"]
