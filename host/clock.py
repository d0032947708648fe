"""The clock's side of the host (a mixin of :class:`host.table.Host`): reminders before a turn
clock runs out, the notice or the game's default when it has, lapsed challenges — each due match
handled on its own, so one that fails never holds up the others."""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from data import deadline
from data.store import ACTIVE, DECLINED, OPEN, PENDING, CorruptRow, MatchRecord, TransientStoreError
from host.engines import engine_of
from host import integrity
from host.clocks import match as bank_clock
from host.resilient import HOST_SECONDS
from host.replay import _hidden, _public_to_act
from host.texts import _duration, _names
from host.types import PublicUpdate, Result, msg

log = logging.getLogger("host")

CHALLENGE_TTL = 24 * 3600          # an unanswered challenge lapses after a day
# a reminder comes when this share of the turn clock is left, at most this long before the deadline
REMIND_SHARE, REMIND_CAP = 0.2, 12 * 3600
TICK_SECONDS = HOST_SECONDS        # one whole tick, however many matches are due


class Clock:
    """Needs the host's ``store``, ``now``, ``shards``, ``_lock``, ``_get``, ``_state``, ``_write``,
    ``_board``, ``_apply`` and ``_auto_vacation`` (host/away.py)."""

    async def tick(self) -> list[Result]:
        """Reminders before a turn clock runs out, a notice when it has, lapsed challenges."""
        out: list[Result] = []
        now = self.now()
        # the tick keeps its own deadline, as a player's call does: while the database hangs it
        # gives up after TICK_SECONDS in all, and what it did not reach waits for the next tick
        with deadline.within(TICK_SECONDS):
            # only what can be due: deadlines within the longest reminder lead, old challenges;
            # and with several processes only this one's guilds (host/shards.py).  Each event is
            # then claimed by a versioned write (``_write``) before it is announced, so it is
            # announced once even if another process looked at the same match.
            # (The listing never raises for a bad row: the store quarantines and skips it.)
            try:
                due = await self.store.matches_due(now + REMIND_CAP, now - CHALLENGE_TTL, shards=self.shards,
                                                   now=now, lead=(REMIND_SHARE, REMIND_CAP))
            except TransientStoreError:
                return out      # the database failed for a moment (the store logged it): next tick
            for rec in due:
                if deadline.expired():
                    log.warning("clock: the tick ran out of time; %d due matches wait for the next one",
                                len(due) - due.index(rec))
                    break
                # each match on its own: one that fails is logged (and quarantined if its row is
                # what is wrong), and the others still get their reminders and expiries
                try:
                    with deadline.within(HOST_SECONDS):
                        res = await self._tick_one(rec, now)
                except TransientStoreError:
                    continue    # the database, not the match (the store logged it): next tick
                except Exception:
                    log.exception("clock: match %s failed; the other matches carry on", rec.id)
                    await integrity.after_failure(self, rec.id)
                    continue
                if res is not None:
                    out.append(res)
        return out

    async def _tick_one(self, rec: MatchRecord, now: float) -> Result | None:
        """The clock's work on one listed match: a lapsed challenge, a reminder, an expiry."""
        if rec.status in (PENDING, OPEN) and now - rec.created_at > CHALLENGE_TTL:
            async with self._lock(rec.id):
                fresh, err = await self._get(rec.id)
                if err or fresh.status not in (PENDING, OPEN):
                    return None
                written = await self._write(replace(fresh, status=DECLINED), fresh.version)
                if written:
                    return await self._board(written, [msg("host.lapsed")])
            return None
        if rec.status != ACTIVE or rec.deadline is None:
            return None
        left = rec.deadline - now
        # no reminder for a window's limit in a match without a clock (it is secret)
        remind_at = min(REMIND_SHARE * rec.turn_seconds, REMIND_CAP) if rec.turn_seconds else 0
        if left <= 0 and not rec.meta.get("expired"):
            return await self._clock_event(rec, "expired")
        if 0 < left <= remind_at and not rec.reminded:
            return await self._clock_event(rec, "reminder")
        return None

    async def _clock_event(self, rec: MatchRecord, kind: str) -> Result | None:
        async with self._lock(rec.id):
            fresh, err = await self._get(rec.id)
            if err or fresh.status != ACTIVE or fresh.deadline != rec.deadline:
                return None
            # the claim: the event is still due in the database's truth.  Another process (or
            # an earlier tick) that got there first has written ``reminded``/``expired`` with
            # the match's next version, and this one says nothing.
            if (kind == "reminder" and fresh.reminded) or (kind == "expired" and fresh.meta.get("expired")):
                return None
            game = engine_of(fresh)
            try:
                state = await self._state(fresh)
            except CorruptRow:
                return None
            to_act = game.to_act(state)
            if kind == "expired" and not _hidden(game, state):
                # a bank out of time with vacation days left: a day is taken instead (host/away.py)
                res = await self._auto_vacation(fresh, list(to_act))
                if res is not None:
                    return res
            if kind == "expired":   # e.g. "pass" in a response window: the match goes on
                res = await self._default_move(fresh, game, state, to_act)
                if res is not None:
                    return res
            if _hidden(game, state) or not fresh.turn_seconds:
                # a secret decision: its clock must not announce it; the default applies on
                # expiry (above) and no public reminder is posted.  (Without a turn clock the
                # only deadline is a window's, whose default has applied.)
                if kind == "expired":
                    await self._write(replace(fresh, meta={**fresh.meta, "expired": True}), fresh.version)
                return None
            if kind == "expired":
                new = replace(fresh, meta={**fresh.meta, "expired": True}, reminded=True)
                others = [s for s in range(len(fresh.seats)) if s not in to_act]
                line = msg("host.clock.expired", names=_names(fresh, to_act),
                           claimers=_names(fresh, others))
                notify = [fresh.seats[s] for s in others]
            else:
                new = replace(fresh, reminded=True)
                line = msg("host.clock.reminder", names=_names(fresh, to_act),
                           left=await self._left_words(fresh, to_act))
                notify = [fresh.seats[s] for s in to_act]
            written = await self._write(new, fresh.version)
            if written is None:
                return None
            return Result(ok=True, match=written, info=[line], notify=notify,
                          public=PublicUpdate(text=[line], view={}), data={"clock": kind})

    async def _default_move(self, rec: MatchRecord, game: Any, state: Any, to_act: list[int]
                            ) -> Result | None:
        """The game's default for a seat whose time ran out (``timeout_command``, e.g. a pass),
        applied so the match goes on (lock held); None when the game has none now."""
        if self.fills(rec):      # fill:ai — the computer takes the late seat and plays on
            return await self._fill_seats(rec, list(to_act), "host.filled_timeout")
        auto = getattr(game, "timeout_command", None)
        seat = next((s for s in to_act if auto(state, s)), None) if auto is not None else None
        if seat is None:
            return None
        res = await self._apply(rec, game, state, seat, auto(state, seat),
                                lead=[msg("host.clock.auto", name=rec.names[seat])])
        if not res.ok:
            return None
        res.data["clock"] = "auto"
        return res

    # ------------------------------------------------------------------ time banks
    async def _left_words(self, rec: MatchRecord, to_act: list[int]) -> Any:
        """What a reminder says is left: the bank of the seat to act that runs out first, in
        words (a bank match), else today's ``h:mm:ss`` to the deadline."""
        mc = bank_clock.read(rec)
        if mc is None or mc.banks is None:
            return _duration(rec.deadline - self.now())
        now = self.now()
        cals = await bank_clock.calendars(self.store, mc, list(rec.seats), _began(mc, now))
        left = [bank_clock.left_now(mc, s, cals[s], now) for s in to_act if 0 <= s < len(rec.seats)]
        return bank_clock.left_text(min(left, default=max(0.0, rec.deadline - now)))

    async def _timed(self, old: MatchRecord, new: MatchRecord, game: Any, new_state: Any, *,
                     actor: int | None = None, state_before: Any = None) -> dict[int, float]:
        """Set ``new.deadline`` for the decision now awaited (and, in a bank match, charge the
        banks in ``new.meta["clock"]``: host/clocks/match.py); the deadline of each seat to act.
        A match without a bank keeps today's clock (``_deadline``)."""
        hidden = _hidden(game, new_state)
        mc = bank_clock.read(new)
        to_act = list(game.to_act(new_state))
        if mc is None or mc.banks is None:
            new.deadline = self._deadline(new, hidden=hidden)
            new.waiting = waiting_rows(new, to_act, self.now(), {}, None)
            return {}
        now = self.now()
        cals = await bank_clock.calendars(self.store, mc, list(new.seats), _began(mc, now))
        responded = state_before is not None and _hidden(game, state_before)
        mc, deadlines = bank_clock.advance(
            mc, now, cals, actor=actor, responded=responded, after=to_act,
            public_after=list(_public_to_act(game, new_state)), hidden_after=hidden, old_deadline=old.deadline)
        new.meta = {**new.meta, bank_clock.KEY: mc.to_json()}
        new.deadline = min(deadlines.values()) if deadlines else None
        new.waiting = waiting_rows(new, to_act, now, deadlines, mc)
        return deadlines


def _began(mc: bank_clock.MatchClock, now: float) -> float:
    """The earliest instant a seat's current decision began (the vacations that can matter end
    after it)."""
    return min((s for s in (mc.since or ()) if s is not None), default=now)


def waiting_rows(rec: MatchRecord, to_act: list[int], now: float, deadlines: dict[int, float],
                 mc: bank_clock.MatchClock | None) -> list[tuple[int, float, float | None, float | None]]:
    """The rows of the list of games waiting on each player (``/turns``): one per player to act
    — since when, their deadline (the match's, or their own bank's) and their bank left.  The
    store writes them with the match row (``MatchRecord.waiting``)."""
    rows: dict[int, tuple[int, float, float | None, float | None]] = {}
    for s in to_act:
        if not 0 <= s < len(rec.seats) or rec.seats[s] is None or rec.seats[s] in rows:
            continue        # (a player in two seats is listed once, for the first)
        began = now
        bank = None
        if mc is not None and mc.banks is not None and s < len(mc.banks):
            bank = float(mc.banks[s])
            if mc.since and s < len(mc.since) and mc.since[s] is not None:
                began = float(mc.since[s])
        rows[rec.seats[s]] = (int(rec.seats[s]), began, deadlines.get(s, rec.deadline), bank)
    return list(rows.values())
