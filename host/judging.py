"""What a judge does at the table (docs/undo.md, "Judge calls"): look at every seat's hand, give
a player time, end the game as a loss.  The judge's authority, the call and the event's trail are
the caller's (:mod:`host.judge_service`); a judge's rewind is :meth:`host.undo.Undo.rewind`.

:class:`Judging` is a mixin of :class:`host.table.Host` (it uses its lock, ``_get``,
``_private``, ``_write``, ``_board``, ``_finish`` and ``_status_line``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from data.store import ACTIVE
from host.clocks import match as bank_clock
from host.engines import engine_of
from host.types import PrivateUpdate, PublicUpdate, Result, msg

MAX_ADD_SECONDS = 7 * 24 * 3600


class Judging:
    """A judge's powers over one match (a mixin of :class:`host.table.Host`)."""

    async def _judged(self, match_id: int, seat: int) -> tuple[Any, Result | None]:
        """(the match, None) when it is being played and has ``seat`` (lock held); else the refusal."""
        rec, err = await self._get(match_id)
        if err:
            return rec, err
        if rec.status != ACTIVE:
            return rec, Result.fail("undo.err.not_active", match=rec)
        if not 0 <= seat < len(rec.seats):
            return rec, Result.fail("judge.err.seat", match=rec)
        return rec, None

    async def seat_views(self, match_id: int) -> Result:
        """Every seat's own view and hand picture (for a judge who is not seated: the caller
        checks that and writes the look into the event's trail)."""
        rec, err = await self._get(match_id)
        if err:
            return err
        if rec.status != ACTIVE:
            return Result.fail("undo.err.not_active", match=rec)
        private: list[PrivateUpdate] = []
        for seat, uid in enumerate(rec.seats):
            if uid is not None:
                private.append(await self._private(rec, seat))
        return Result(ok=True, match=rec, private=private)

    async def add_time(self, match_id: int, seat: int, seconds: float, *, lines: list | None = None) -> Result:
        """Give ``seat`` ``seconds`` more: on a bank clock, added to their bank (and to the
        deadline when the decision is theirs); on a turn clock, added to the running deadline
        when the decision is theirs.  Refused in a match without a clock, or when a turn clock
        is running for somebody else (there is nothing of theirs to add to)."""
        seconds = float(seconds)
        if not 0 < seconds <= MAX_ADD_SECONDS:
            return Result.fail("judge.err.seconds")
        async with self._lock(int(match_id)):
            rec, err = await self._judged(match_id, seat)
            if err:
                return err
            if not rec.turn_seconds:
                return Result.fail("judge.err.no_clock", match=rec)
            game = engine_of(rec)
            acting = seat in game.to_act(await self._state(rec))
            mc = bank_clock.read(rec)
            new = replace(rec, reminded=False)
            if mc is not None and mc.banks is not None:
                banks = list(mc.banks)
                banks[seat] += seconds
                new.meta = {**rec.meta, bank_clock.KEY: replace(mc, banks=tuple(banks)).to_json()}
            elif not acting:
                return Result.fail("judge.err.not_acting", match=rec, name=rec.names[seat])
            if acting and rec.deadline is not None:
                new.deadline = rec.deadline + seconds
            written = await self._write(new, rec.version)
            if written is None:
                return Result.fail("host.err.conflict", match=rec)
            said = list(lines or []) + [msg("judge.time_added", name=rec.names[seat], time=bank_clock.left_text(seconds))]
            return Result(ok=True, match=written, info=said,
                          public=PublicUpdate(text=said, view={}, status_line=None))

    async def judge_loss(self, match_id: int, seat: int, *, lines: list | None = None) -> Result:
        """End the match as a loss for ``seat`` (a judge's game loss): every other seat wins, the
        result says why, and the match reports itself as any finished match does (a series
        records the game, the standings follow).  ``lines``: what the thread is told (by
        default, that a judge gave the player a game loss)."""
        async with self._lock(int(match_id)):
            rec, err = await self._judged(match_id, seat)
            if err:
                return err
            winners = [s for s in range(len(rec.seats)) if s != seat]
            # the caller's lines say it (with the reason); else the plain line — never both
            said = list(lines) if lines else [msg("judge.game_loss", name=rec.names[seat])]
            return await self._finish(rec, {"winners": winners, "reason": "game_loss", "penalised": seat}, said)
