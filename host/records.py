"""Records and ratings behind the store: what the cogs call.  Knows no Discord.

* :class:`Records` takes every finished match into the records exactly once (``on_finish`` hook
  of the :class:`host.Host`, plus :meth:`Records.catch_up` after a restart), rates it with
  OpenSkill in three scopes — ``global``, the server (``guild:<id>``, all time) and the server's
  current rating season (``guild:<id>:s<n>``) — unless the match is unrated (``meta.rated`` is
  False), and answers profile / history / head-to-head / leaderboard / export questions.

Every call returns a :class:`host.types.Result`: ``ok`` False means nothing changed and
``error`` says why and what is allowed instead.

Concurrency: the "processed" mark is written in the same transaction as the new ratings, so a
match is never rated twice, and that write checks that every rating it replaces is still the
one it was computed from (else :class:`VersionConflict`, and the match is rated again from the
fresh values) — so two processes sharing one database never lose a rating update.  The
leagues' service is :mod:`host.league_service`.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Callable

from data.store import (
    ABORTED, FINISHED, MatchRecord, RatingChange,
    RatingRow, Store, VersionConflict,
)
from host import ratings as R
from host.types import Result, msg

log = logging.getLogger("host.records")

PER_PAGE = 10
SEASON_KEY = "season"


def guild_scope(guild_id: int) -> str:
    return f"guild:{int(guild_id)}"


def season_scope(guild_id: int, season: int) -> str:
    return f"guild:{int(guild_id)}:s{int(season)}"


def outcome_of(rec: MatchRecord, seat: int) -> str:
    winners = (rec.result or {}).get("winners") or []
    if not winners:
        return "draw"
    return "win" if seat in winners else "loss"


def board_key(row: RatingRow) -> tuple[float, int]:
    """What orders a leaderboard (the store sorts by the same): the conservative estimate
    μ − 3σ, then the number of rated games."""
    return (row.mu - 3 * row.sigma, row.games)


def pages(total: int, per_page: int = PER_PAGE) -> int:
    return max(1, -(-int(total) // per_page))


class Records:
    def __init__(self, store: Store, *, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.now = now
        self._lock = asyncio.Lock()   # rating read-modify-write, one match at a time

    # ------------------------------------------------------------------ seasons
    async def season(self, guild_id: int | None) -> int:
        if guild_id is None:
            return 1
        value = (await self.store.get_guild_settings(int(guild_id))).get(SEASON_KEY, 1)
        return value if isinstance(value, int) and value >= 1 else 1

    async def close_season(self, guild_id: int) -> Result:
        """Archive the current rating season (its leaderboard stays readable) and start the
        next; the server's all-time ratings and every record are kept."""
        old = await self.season(guild_id)
        await self.store.set_guild_setting(int(guild_id), SEASON_KEY, old + 1)
        return Result(ok=True, info=[msg("records.season.closed", old=old, new=old + 1)],
                      data={"old": old, "new": old + 1})

    async def scopes(self, guild_id: int | None) -> list[str]:
        if guild_id is None:
            return ["global"]
        return ["global", guild_scope(guild_id), season_scope(guild_id, await self.season(guild_id))]

    # ------------------------------------------------------------------ recording
    async def on_finish(self, rec: MatchRecord) -> None:
        await self.process(rec)

    async def process(self, rec: MatchRecord) -> bool:
        """Take a finished match into the records once; True if this call did it."""
        if rec.status != FINISHED or rec.result is None or rec.id is None:
            return False
        seats = [u for u in rec.seats if u is not None]
        rated = bool(rec.meta.get("rated", True)) and len(seats) == len(rec.seats) >= 2
        for _ in range(5):
            try:
                return await self._process(rec, seats, rated)
            except VersionConflict:
                continue     # another process rated one of these players meanwhile: recompute
        log.warning("match %s: ratings kept changing; left for the next catch-up", rec.id)
        return False

    async def _process(self, rec: MatchRecord, seats: list[int], rated: bool) -> bool:
        async with self._lock:
            if await self.store.is_processed(rec.id):
                return False
            rows: list[RatingRow] = []
            history: list[RatingChange] = []
            at = rec.updated_at
            if rated:
                ranks = R.ranks_of(rec.result, len(rec.seats))
                for scope in await self.scopes(rec.guild_id):
                    current = await self.store.get_ratings(scope, rec.game, seats)
                    new = R.rate([(uid, ranks[s]) for s, uid in enumerate(rec.seats)],
                                 {u: (r.mu, r.sigma) for u, r in current.items()})
                    for seat, uid in enumerate(rec.seats):
                        old = current.get(uid) or RatingRow(scope, rec.game, uid, R.MU, R.SIGMA)
                        out = outcome_of(rec, seat)
                        mu, sigma = new[uid]
                        rows.append(RatingRow(scope, rec.game, uid, mu, sigma, old.games + 1,
                                              old.wins + (out == "win"), old.losses + (out == "loss"),
                                              old.draws + (out == "draw"), at))
                        history.append(RatingChange(rec.id, scope, rec.game, uid, old.mu, old.sigma,
                                                    mu, sigma, at))
            return await self.store.record_processed(rec.id, rated, rows, history, self.now())

    async def catch_up(self, limit: int = 500) -> int:
        """Process finished matches the hook missed (e.g. the process stopped in between)."""
        n = 0
        for rec in await self.store.unprocessed_finished(limit):
            try:
                n += await self.process(rec)
            except Exception:
                log.exception("recording match %s failed", rec.id)
        return n

    # ------------------------------------------------------------------ reading
    async def profile(self, user_id: int, guild_id: int | None) -> dict[str, Any]:
        """Ratings per game (server and global), W/L/D per game, streak, recent results."""
        scopes = await self.scopes(guild_id)
        ratings = await self.store.ratings_for_user(user_id, scopes)
        results, total = await self.store.results_query(user_id, limit=200)
        per_game: dict[str, dict[str, Any]] = {
            game: {**counts, "ratings": {}} for game, counts in (await self.store.result_counts(user_id)).items()}
        for row in ratings:
            g = per_game.setdefault(row.game, {"win": 0, "loss": 0, "draw": 0, "ratings": {}})
            kind = "global" if row.scope == "global" else ("season" if ":s" in row.scope else "server")
            g["ratings"][kind] = row
        streak_kind, streak = None, 0
        for r in results:
            if streak_kind is None:
                streak_kind, streak = r.outcome, 1
            elif r.outcome == streak_kind:
                streak += 1
            else:
                break
        return {"games": per_game, "streak": (streak_kind, streak), "recent": results[:5],
                "total": total, "scope": scopes[1] if len(scopes) > 1 else "global"}

    async def chart_series(self, user_id: int, game: str, scope: str, limit: int = 200
                           ) -> tuple[list[int], int]:
        """The shown rating before the first charted match and after each (oldest first, the
        last ``limit`` matches), and how many of the charted matches were provisional (the
        chart starts with the player's first rated match when they played ``limit`` or fewer)."""
        hist = await self.store.rating_history(user_id, game, scope, limit=limit)
        if not hist:
            return [], 0
        first = R.display(hist[0].mu_before)
        fresh = hist[0].mu_before == R.MU and hist[0].sigma_before == R.SIGMA
        provisional = min(R.PROVISIONAL_GAMES - 1, len(hist)) if fresh else 0
        return [first] + [R.display(h.mu) for h in hist], provisional

    async def history(self, user_id: int, game: str | None, guild_id: int | None, page: int, *,
                      personal: bool = False) -> tuple[list[tuple[Any, MatchRecord | None]], int, int]:
        """One page of results (with their matches), the page shown and the page count.
        ``personal``: the player's own history, which also holds their matches of no server
        (practice in a DM or a group chat); never another player's."""
        _, total = await self.store.results_query(user_id, game, guild_id, 0, 1, personal=personal)
        n = pages(total)
        page = min(max(0, int(page)), n - 1)
        rows, _ = await self.store.results_query(user_id, game, guild_id, page * PER_PAGE, PER_PAGE,
                                                 personal=personal)
        out = []
        for r in rows:
            try:
                m = await self.store.get_match(r.match_id)
            except Exception:
                m = None
            out.append((r, m))
        return out, page, n

    async def h2h(self, a: int, b: int, guild_id: int | None = None) -> dict[str, Any]:
        pairs = await self.store.head_to_head(a, b, None, guild_id)
        score = {"a": 0, "b": 0, "draw": 0}
        per_game: dict[str, dict[str, int]] = {}
        for ra, rb in pairs:
            key = "draw" if ra.outcome == rb.outcome else ("a" if ra.outcome == "win" else
                                                          "b" if rb.outcome == "win" else "draw")
            score[key] += 1
            per_game.setdefault(ra.game, {"a": 0, "b": 0, "draw": 0})[key] += 1
        return {"score": score, "games": per_game, "recent": pairs[:5], "total": len(pairs)}

    async def leaderboard(self, game: str, scope: str, page: int) -> tuple[list[RatingRow], int, int, int]:
        _, total = await self.store.leaderboard(scope, game, 0, 1)
        n = pages(total)
        page = min(max(0, int(page)), n - 1)
        rows, total = await self.store.leaderboard(scope, game, page * PER_PAGE, PER_PAGE)
        return rows, page, n, total

    async def board_places(self, game: str, scope: str, offset: int, rows: list[RatingRow]) -> list[int]:
        """The place of each leaderboard row (``rows`` start at ``offset``): rows exactly equal on
        the order keys (conservative estimate μ − 3σ, then rated games) share a place and the
        next place skips as many (1, 2, 2, 4); the user id only decides who is printed first.
        A tie reaching back over the page's start is looked up on the pages before."""
        out: list[int] = []
        before = 0          # rows before ``offset`` tied with the first row
        if rows and offset > 0:
            first, start = board_key(rows[0]), offset
            while start > 0:
                size = min(PER_PAGE, start)
                start -= size
                prev, _ = await self.store.leaderboard(scope, game, start, size)
                tied = 0
                for r in reversed(prev):
                    if board_key(r) != first:
                        break
                    tied += 1
                before += tied
                if tied < len(prev) or not prev:
                    break
        for i, r in enumerate(rows):
            if i and board_key(r) == board_key(rows[i - 1]):
                out.append(out[-1])
            else:
                out.append(offset + i + 1 - (before if i == 0 else 0))
        return out

    async def export(self, match_id: int) -> Result:
        """The match record as JSON-able data: game, options, seats, seed, command log, result."""
        try:
            rec = await self.store.get_match(int(match_id))
        except Exception:
            return Result.fail("host.err.quarantined", match_id=match_id)
        if rec is None:
            return Result.fail("host.err.no_match", match_id=match_id)
        if rec.status not in (FINISHED, ABORTED):
            # the seed and the command log reveal every hidden card: only once it is over
            return Result.fail("records.err.export_running", match_id=rec.id)
        commands = await self.store.commands(rec.id)
        data = {"format": "doujin-table/match-1", "id": rec.id, "game": rec.game,
                "options": rec.options, "seed": rec.seed, "prng": rec.prng, "status": rec.status,
                "seats": [{"seat": i, "user_id": str(u) if u is not None else None, "name": n}
                          for i, (u, n) in enumerate(zip(rec.seats, rec.names))],
                "rated": bool(rec.meta.get("rated", True)),
                "league": rec.meta.get("league"),
                "commands": [{"seq": c.seq, "seat": c.seat, "command": c.command, "at": c.at}
                             for c in commands],
                "result": rec.result, "created_at": rec.created_at, "updated_at": rec.updated_at}
        return Result(ok=True, match=rec, data={"export": data})


# ---------------------------------------------------------------------------- leagues
