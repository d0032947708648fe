"""The counters behind ``/cards report`` in the SQL stores (:class:`CardCountersSql`, a part of
:class:`data.sql_store.SqlStore`, the same SQL on both backends; the tables of
``data/migrations/0012_card_counters.sql``, the sums of :mod:`data.card_counts`).

``/cards report`` once read every pick, seat-game and survey answer of a set version and counted
them — about three seconds from SQLite for 10,000 matches (``python -m bench --draft``,
``meta.rows_report_ms``).  Now the store keeps, per card of a set version and per version, the
sums its figures are rebuilt from exactly, and :meth:`CardCountersSql.card_counts` reads one row
per card with the version's totals (one statement, so one snapshot): a few milliseconds.

**Kept in step with the rows.**  The writes of data/sql_limited.py add to the counters in the
transaction that keeps the rows, counting only what that transaction newly keeps, so each stays
idempotent (a write repeated after a ``COMMIT`` never confirmed adds nothing more):

* ``add_picks`` (:meth:`_count_picks`): the picks of the draft not yet kept, given the ones kept
  (so a card's drafts offered / taken move on once per draft; the draft row is locked first);
* ``add_limited_games`` (:meth:`_count_games`): the seats not yet kept, a match counted when its
  first seat in that version is kept (the match rows are locked first);
* ``put_survey`` (:meth:`_count_survey`): the earlier answer of the player to the match, if any,
  taken away from its version and the new one added (the match row is locked first).

Each write locks its version's totals row before touching any counter of the version (at most
a few versions a write, in key order), so writers of one version take turns — on PostgreSQL
too — and no two wait on each other's card rows.

**Counted again from the rows** when the counters cannot be trusted: the versions that held
rows before migration 0012 (the migration marks them ``counted = 0``), a write that meets a kept
row that does not read (what it added is unknown), and a counter row that does not read.  For
such a version the writes leave the counters alone, and its next :meth:`card_counts` counts the
whole version from its rows (:meth:`_recount`, the rows read and checked as ``limited_rows``
reads them, bad ones skipped) in one write transaction under the totals row's lock — the
one-off backfill of a version, about two seconds for 10,000 matches on SQLite — and marks it
counted.

**Checked when read**: every counter row (whole, non-negative numbers, halves for wins, and the
sums' own bounds: a card is taken no more often than offered, a win rate's wins no more than its
seat-games, …).  One that does not read is skipped and logged, the others are served, and the
version is counted again at its next report.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Iterable

from data.card_counts import CARD_FIELDS, SET_FIELDS, WIN_FIELDS, CardCounts, SetCounts, Tally, tally_rows
from data.rows import Bad
from data.sql_limited import (CARD_ID_MAX, GAMES, LimitedGameRecord, PickRecord, SurveyRecord, _GAME_COLS,
                              _PICK_COLS, _SURVEY_COLS, _game, _int, _float, _pick, _read_each, _set_key, _survey,
                              _text)
from data.store_interface import StoreError, valid_id

log = logging.getLogger("data.store")

Key = tuple[int, str, str, int]         # (guild, game, set name or '', set version or 0)
COUNT_MAX = 2 ** 62                     # a counter beyond this is not one the store wrote

_KEY_WHERE = "guild_id = ? AND game = ? AND set_name = ? AND set_version = ?"
_UPSERT = (f"INSERT INTO card_counts (guild_id, game, set_name, set_version, card, {', '.join(CARD_FIELDS)}) "
           f"VALUES ({', '.join('?' * (5 + len(CARD_FIELDS)))}) "
           "ON CONFLICT (guild_id, game, set_name, set_version, card) DO UPDATE SET "
           + ", ".join(f"{f} = card_counts.{f} + excluded.{f}" for f in CARD_FIELDS))
# a version's totals added to — made if the version is new (counted from its first row) — only
# while it is counted; its row locked either way; RETURNING says whether it was counted
_ADD_TOTALS = (f"INSERT INTO card_count_totals (guild_id, game, set_name, set_version, {', '.join(SET_FIELDS)}) "
               f"VALUES ({', '.join('?' * (4 + len(SET_FIELDS)))}) "
               "ON CONFLICT (guild_id, game, set_name, set_version) DO UPDATE SET "
               + ", ".join(f"{f} = card_count_totals.{f} + excluded.{f}" for f in SET_FIELDS)
               + " WHERE card_count_totals.counted = 1 RETURNING counted")
_SET_TOTALS = (f"UPDATE card_count_totals SET {', '.join(f'{f} = ?' for f in SET_FIELDS)}, counted = 1 "
               f"WHERE {_KEY_WHERE}")
_READ = (f"SELECT {', '.join('t.' + f for f in SET_FIELDS)}, t.counted, k.card, "
         f"{', '.join('k.' + f for f in CARD_FIELDS)} FROM card_count_totals t LEFT JOIN card_counts k "
         "ON k.guild_id = t.guild_id AND k.game = t.game AND k.set_name = t.set_name AND k.set_version = t.set_version "
         "WHERE t.guild_id = ? AND t.game = ? AND t.set_name = ? AND t.set_version = ?")


def counter_key(guild_id: int, game: str, set_name: str | None, set_version: int | None) -> Key:
    """The key of a set version's counters: the shipped cards (no set) are ``''`` and ``0``."""
    return (guild_id, game, "" if set_name is None else set_name, 0 if set_version is None else set_version)


def _rows_key(key: Key) -> tuple[int, str, str | None, int | None]:
    """The key as the rows of 0011 hold it (NULL set for the shipped cards)."""
    guild, game, name, version = key
    return guild, game, name or None, version or None


def _count_row(row: Any) -> CardCounts:
    """One stored card row -> :class:`CardCounts`, checked (raises Bad)."""
    card = _text(row[0], "card", CARD_ID_MAX)
    values = []
    for name, v in zip(CARD_FIELDS, row[1:]):
        if name in WIN_FIELDS:
            v = _float(v, name)
            if not 0 <= v <= COUNT_MAX or (2 * v) % 1:
                raise Bad(f"{name}: expected a sum of wins and half wins, got {v!r}")
        else:
            _int(v, name, 0, COUNT_MAX)
        values.append(v)
    k = CardCounts(card, *values)
    if not (k.drafts_taken <= k.drafts_offered <= k.offered and k.drafts_taken <= k.taken <= k.offered
            and k.taken <= k.pick_sum <= k.pick_squares and k.strong <= k.surveyed and k.weak <= k.surveyed
            and k.game_wins <= k.games and k.drawn_wins <= k.drawn and k.played_wins <= k.played):
        raise Bad("the counters do not fit each other (taken beyond offered, wins beyond games, ...)")
    return k


def _totals_row(row: Any) -> SetCounts:
    """The stored totals of a version -> :class:`SetCounts`, checked (raises Bad)."""
    for name, v in zip(SET_FIELDS, row):
        _int(v, name, 0, COUNT_MAX)
    t = SetCounts(*row[:len(SET_FIELDS)])
    if not (t.matches <= t.seat_games and t.fun_n <= t.surveys and t.fun_n <= t.fun_sum <= t.fun_squares
            and t.fun_sum <= 5 * t.fun_n and t.fun_squares <= 25 * t.fun_n):
        raise Bad("the totals do not fit each other (more matches than seat-games, fun beyond 1-5, ...)")
    return t


class CardCountersSql:
    """The counter methods of :class:`data.sql_store.SqlStore` (see the module docstring)."""

    # -- the writes' part (inside the transaction of add_picks, add_limited_games, put_survey) --
    async def _add_counts(self, c: Any, tallies: dict[Key, Tally]) -> None:
        """Inside _write(): add each version's tally to its counters, in key order — its totals
        row first (made if the version is new; locked, so that writers of a version take turns
        and a recount waits for them), then, if the version is counted, its cards' rows.  A
        version to be counted again from its rows is left alone (its recount will see them)."""
        for key in sorted(tallies):
            tally = tallies[key]
            rows = [(*key, card, *values) for card, values in sorted(tally.cards.items()) if any(values)]
            if not rows and not any(tally.totals):
                continue
            if await c.fetchval(_ADD_TOTALS, *key, *tally.totals) == 1 and rows:
                await c.executemany(_UPSERT, rows)

    async def _recount_later(self, c: Any, keys: Iterable[Key], why: str) -> None:
        """Inside _write(): these versions' counters are to be counted again from the rows (a
        version new to the counters too: its totals row is made, marked)."""
        for key in sorted(set(keys)):
            log.warning("counters of guild %s %s set %r v%s: %s; counted again at the next report", *key, why)
            await c.execute("INSERT INTO card_count_totals (guild_id, game, set_name, set_version, counted) "
                            "VALUES (?, ?, ?, ?, 0) ON CONFLICT (guild_id, game, set_name, set_version) "
                            "DO UPDATE SET counted = 0", *key)

    async def _count_picks(self, c: Any, draft_id: int, version: tuple, picks: list[PickRecord]
                           ) -> list[PickRecord]:
        """Inside add_picks' transaction, the draft row locked: count the picks of ``picks`` not
        kept yet, given the draft's picks kept before; returns them (the ones to insert).
        ``version``: the draft's (guild, game, set name, set version)."""
        key = counter_key(*version)
        kept_rows = await c.fetchall(f"SELECT {_PICK_COLS} FROM limited_picks WHERE draft_id = ?", draft_id)
        kept_seqs = {r[1] for r in kept_rows}
        new = [p for p in picks if p.seq not in kept_seqs]
        if not new:
            return []
        kept = _read_each(kept_rows, _pick, f"draft {draft_id}: picks")
        if len(kept) < len(kept_rows):
            await self._recount_later(c, [key], f"a kept pick of draft {draft_id} does not read")
        else:
            tally = Tally()
            tally.draft(new, kept)
            await self._add_counts(c, {key: tally})
        return new

    async def _count_games(self, c: Any, games: list[LimitedGameRecord]) -> list[LimitedGameRecord]:
        """Inside add_limited_games' transaction, the matches' rows locked: count the seats of
        ``games`` not kept yet (the first of a seat given twice), each match once per version;
        returns them (the ones to insert)."""
        cond, args = self._in("match_id", sorted({g.match_id for g in games}), "bigint")  # type: ignore[attr-defined]
        kept_rows = await c.fetchall(f"SELECT {_GAME_COLS} FROM limited_games WHERE {cond}", *args)
        kept = _read_each(kept_rows, _game, "limited games of the matches written")
        seats = {(r[0], r[1]) for r in kept_rows}
        counted_in = {(g.match_id, counter_key(g.guild_id, g.game, g.set_name, g.set_version)) for g in kept}
        new, tallies = [], {}
        for g in games:
            if (g.match_id, g.seat) in seats:
                continue
            seats.add((g.match_id, g.seat))
            new.append(g)
            key = counter_key(g.guild_id, g.game, g.set_name, g.set_version)
            tallies.setdefault(key, Tally()).seat_game(g, (g.match_id, key) not in counted_in)
            counted_in.add((g.match_id, key))
        if not new:
            return []
        if len(kept) < len(kept_rows):
            await self._recount_later(c, tallies, "a kept seat of the match does not read")
        else:
            await self._add_counts(c, tallies)
        return new

    async def _count_survey(self, c: Any, answer: SurveyRecord) -> None:
        """Inside put_survey's transaction, the match row locked: take the player's earlier
        answer to the match (if any) away from its version's counters and add ``answer``."""
        rows = await c.fetchall(f"SELECT {_SURVEY_COLS} FROM card_surveys WHERE match_id = ? AND user_id = ?",
                                answer.match_id, answer.user_id)
        old = _read_each(rows, _survey, f"match {answer.match_id}: survey")
        key = counter_key(answer.guild_id, answer.game, answer.set_name, answer.set_version)
        tallies = {key: Tally()}
        if old:
            old_key = counter_key(old[0].guild_id, old[0].game, old[0].set_name, old[0].set_version)
            tallies.setdefault(old_key, Tally()).survey(old[0], -1)
        tallies[key].survey(answer)
        if rows and not old:       # what the earlier answer added is unknown: its version and this
            stale = {key}
            try:
                stale.add(counter_key(*_set_key_of(rows[0])))
            except (Bad, TypeError, ValueError):
                pass
            await self._recount_later(c, stale, f"the earlier survey answer to match {answer.match_id} does not read")
        else:
            await self._add_counts(c, tallies)

    # -- the report's read ------------------------------------------------------------------------
    async def card_counts(self, guild_id: int, game: str, set_name: str | None, set_version: int | None
                          ) -> tuple[list[CardCounts], SetCounts]:
        """The counters of one server's set version (``set_name`` None: the shipped cards): one
        :class:`CardCounts` per card something named (by card id) and the version's
        :class:`SetCounts` — what host.stats.card_figures.report_from_counts builds the report
        from.  A version whose counters are marked for counting again (rows kept before
        migration 0012, a row that did not read) is first counted from its rows
        (:meth:`_recount`: the one-off backfill).  A row that does not read is skipped and
        logged, and the version counted again at the next call."""
        gid = valid_id(guild_id)
        if gid is None or game not in GAMES:
            return [], SetCounts()
        try:
            _set_key(game, set_name, set_version)
        except Bad:
            return [], SetCounts()
        key = counter_key(gid, game, set_name, set_version)
        async with self._read() as c:                              # type: ignore[attr-defined]
            rows = await c.fetchall(_READ, *key)
        if rows and rows[0][len(SET_FIELDS)] != 1:
            await self._recount(key)
            async with self._read() as c:                          # type: ignore[attr-defined]
                rows = await c.fetchall(_READ, *key)
        if not rows:
            return [], SetCounts()
        what = f"guild {gid} {game} set {set_name!r} v{set_version}: card counters"
        n = len(SET_FIELDS) + 1
        bad = False
        try:
            totals = _totals_row(tuple(rows[0][:len(SET_FIELDS)]))
        except (Bad, TypeError, ValueError) as e:
            log.warning("%s: the totals do not read (%s); skipped", what, e)
            totals, bad = SetCounts(), True
        cards = [tuple(r[n:]) for r in rows if r[n] is not None]
        counts = _read_each(cards, _count_row, what)
        if bad or len(counts) < len(cards):
            try:
                async with self._write() as c:                     # type: ignore[attr-defined]
                    await self._recount_later(c, [key], "a counter row does not read")
            except StoreError as e:
                log.warning("%s: could not be marked to count again (%s)", what, e)
        return counts, totals

    async def _recount(self, key: Key) -> None:
        """Count a version again from all its rows, in one write transaction holding its totals
        row's lock (writers of the version wait; a write that came first is in the rows read),
        unless another call did meanwhile."""
        async with self._write() as c:                             # type: ignore[attr-defined]
            counted = await c.fetchval(f"SELECT counted FROM card_count_totals WHERE {_KEY_WHERE}"
                                       + self._FOR_UPDATE, *key)  # type: ignore[attr-defined]
            if counted is None or counted == 1:
                return
            picks, games, answers = await self._limited_rows_in(c, *_rows_key(key))  # type: ignore[attr-defined]
            tally = await asyncio.to_thread(tally_rows, picks, games, answers)    # (not on the loop)
            await c.execute(f"DELETE FROM card_counts WHERE {_KEY_WHERE}", *key)
            rows = [(*key, card, *values) for card, values in sorted(tally.cards.items()) if any(values)]
            if rows:
                await c.executemany(_UPSERT, rows)
            await c.execute(_SET_TOTALS, *tally.totals, *key)
        log.info("counters of guild %s %s set %r v%s counted from %d picks, %d seat-games, %d answers", *key,
                 len(picks), len(games), len(answers))


def _set_key_of(row: Any) -> tuple[int, str, str | None, int | None]:
    """The server and set of a stored survey row that does not read as a whole (raises Bad)."""
    guild_id, game, set_name, set_version = row[2:6]
    _int(guild_id, "guild_id")
    return (guild_id, *_set_key(game, set_name, set_version))


COUNTER_IDEMPOTENT = ("card_counts",)   # a read that may count a version again: doing it twice is once
__all__ = ["CardCountersSql", "COUNTER_IDEMPOTENT", "counter_key"]
