"""Records, ratings, leagues and saved decks in the SQL stores (:class:`RecordsSql`, a part of
:class:`data.sql_store.SqlStore`: the same SQL on both backends, with the dialect snippets and
the ``_read()``/``_write()`` transactions of the backend)."""
from __future__ import annotations

import json
import logging
import math
import time
from dataclasses import replace
from typing import Any

from data.resilience import ABSENT, MOVED, STORED
from data.rows import Bad, decode_deck, decode_league, dumps
from data.store_interface import (
    FINISHED, LeagueRecord, MatchRecord, OutcomeUnknown, RatingChange, RatingRow, ResultRow,
    VersionConflict, valid_id,
)

log = logging.getLogger("data.store")


class RecordsSql:
    """The records, ratings, leagues and decks methods of :class:`data.sql_store.SqlStore`."""

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
    def _game_guild(prefix: str, game: str | None, guild_id: int | None,
                    personal: bool = False) -> tuple[str, list[Any]]:
        """The optional ``AND game = ? AND guild_id = ?`` of the results queries (columns of the
        table named by ``prefix``) and their parameters; ``personal``: the server's or no
        server's (``guild_id IS NULL``)."""
        sql, params = "", []
        if game is not None:
            sql += f" AND {prefix}game = ?"
            params.append(game)
        if guild_id is not None:
            sql += f" AND ({prefix}guild_id = ? OR {prefix}guild_id IS NULL)" if personal \
                else f" AND {prefix}guild_id = ?"
            params.append(int(guild_id))
        return sql, params

    async def results_query(self, user_id: int, game: str | None = None, guild_id: int | None = None,
                            offset: int = 0, limit: int = 10, *, personal: bool = False) -> tuple[list[ResultRow], int]:
        more, params = self._game_guild("", game, guild_id, personal)
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
        try:
            async with self._write() as c:
                n = await c.execute(
                    "UPDATE leagues SET status = ?, data = ?, updated_at = ?, version = version + 1 "
                    "WHERE id = ? AND version = ?",
                    league.status, text, float(league.updated_at), int(league.id),
                    int(expected_version))
                if n != 1:
                    raise VersionConflict(f"league {league.id} is not at version {expected_version}")
        except OutcomeUnknown:
            async def check(c: Any) -> str:
                got = await c.fetchone("SELECT version, status, data FROM leagues WHERE id = ?"
                                       + self._FOR_UPDATE, int(league.id))
                if got is not None and tuple(got) == (expected_version + 1, league.status, text):
                    return STORED
                return MOVED if got is not None and got[0] > expected_version else ABSENT

            await self._settle(check, f"league {league.id}")
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
