"""Vacations at the table (a mixin of :class:`host.table.Host`): a player's vacation stops their
time banks in every match that allows vacation, so when one starts or ends each match waiting
on them is timed again (:meth:`Away.vacation_changed`); and when a bank runs out in such a
match and the player has vacation days left, one day is taken automatically instead of the
time-out (:meth:`Away._auto_vacation`, called by the clock's tick).  docs/clocks.md, "Vacation".
"""
from __future__ import annotations

import logging
from dataclasses import replace

from data import deadline
from data.store import ACTIVE, CorruptRow, MatchRecord, TransientStoreError
from host.clocks import ClockError
from host.clocks import match as bank_clock
from host.clocks import vacation as vac
from host.engines import engine_of
from host.resilient import HOST_SECONDS
from host.types import Msg, Result, msg

log = logging.getLogger("host")

WAITING_MAX = 1000          # the matches one vacation re-times (the store lists at most this many)


class Away:
    """Needs the host's ``store``, ``now``, ``_lock``, ``_get``, ``_state``, ``_write``,
    ``_timed`` and ``_board``."""

    async def allowance(self, guild_id: int | None) -> int:
        """The vacation days per 365 days where ``guild_id`` plays (its ``vacation_days``
        setting; 14 when unset, unreadable, or outside a server)."""
        if guild_id is None:
            return vac.ALLOWANCE_DEFAULT
        try:
            value = (await self.store.get_guild_settings(guild_id)).get("vacation_days", vac.ALLOWANCE_DEFAULT)
            return vac.check_allowance(value)
        except (ClockError, ValueError, TypeError):
            log.warning("guild %s: its vacation days cannot be read; %d instead", guild_id, vac.ALLOWANCE_DEFAULT)
            return vac.ALLOWANCE_DEFAULT

    async def vacation_changed(self, user_id: int, *, skip: int | None = None) -> list[Result]:
        """Time again every match waiting on ``user_id`` that allows vacation, after their
        vacation started or ended: each seat's deadline is its bank's end on the new calendar
        (nothing is charged; the bank runs only outside vacations), and the board says the
        player is away.  One match that fails is logged and the others go on.  ``skip``: a
        match the caller is timing itself (its lock is held)."""
        out: list[Result] = []
        rows = await self.store.waiting_for(user_id, limit=WAITING_MAX)
        for row in rows:
            if row["match_id"] == skip:
                continue
            try:
                with deadline.within(HOST_SECONDS):
                    res = await self._retime(row["match_id"])
            except TransientStoreError:
                continue
            except Exception:
                log.exception("vacation of %s: match %s could not be timed again", user_id, row["match_id"])
                continue
            if res is not None:
                out.append(res)
        return out

    async def _retime(self, match_id: int) -> Result | None:
        async with self._lock(match_id):
            rec, err = await self._get(match_id)
            if err or rec.status != ACTIVE:
                return None
            return await self._shown_again(rec, [], prompts=False)

    async def _shown_again(self, rec: MatchRecord, lines: list[Msg], prompts: bool = True) -> Result | None:
        """``rec`` timed again and written (lock held), and its board as it is now — the public
        board only: a hand shows no clock; None when nothing changed or another write came first."""
        new = await self._timed_again(rec)
        if new is None:
            return None
        written = await self._write(new, rec.version)
        if written is None:
            return None
        return await self._board(written, lines, prompts=prompts, private=False)

    async def _timed_again(self, rec: MatchRecord) -> MatchRecord | None:
        """``rec`` with its deadlines computed again from the banks on today's calendars (lock
        held); None when it has no bank that vacations stop, or nothing changed."""
        mc = bank_clock.read(rec)
        if mc is None or mc.banks is None or not mc.vacation:
            return None
        try:
            state = await self._state(rec)
        except CorruptRow:
            return None
        new = replace(rec, meta=dict(rec.meta))
        await self._timed(rec, new, engine_of(rec), state)
        if new.deadline == rec.deadline and new.meta == rec.meta:
            return None
        if new.deadline != rec.deadline:      # a new deadline: its reminder and time-out to come
            new.reminded = False
            new.meta.pop("expired", None)
        return new

    async def _auto_vacation(self, rec: MatchRecord, to_act: list[int]) -> Result | None:
        """A bank ran out (lock held, ``rec`` fresh): each late player of a match that allows
        vacation takes one vacation day automatically if they have one left, and the match is
        timed again; None when nobody could (the time-out then goes on as without vacation)."""
        mc = bank_clock.read(rec)
        if mc is None or mc.banks is None or not mc.vacation:
            return None
        now = self.now()
        cals = await bank_clock.calendars(self.store, mc, list(rec.seats), rec.deadline or now)
        late = [s for s in to_act if 0 <= s < len(rec.seats) and rec.seats[s] is not None
                and bank_clock.left_now(mc, s, cals[s], now) <= 0]
        allowance = await self.allowance(rec.guild_id)
        lines: list[Msg] = []
        taken: list[int] = []
        for s in late:
            uid = int(rec.seats[s])
            records = await self._records(uid, now)
            day = await self._take_day(uid, records, now, allowance, rec.deadline)
            if day is None:
                return None          # one late player has none left: the time-out stands
            left = vac.remaining(records + [day], now, allowance)
            lines.append(msg("clock.vacation.auto", name=rec.names[s], until=int(day.end), n=left))
            taken.append(uid)
        if not taken:
            return None
        res = await self._shown_again(rec, lines)
        if res is None:
            return None
        res.notify = list(taken)
        res.info = list(lines)
        res.data["clock"] = "auto_vacation"
        # the vacation stops their other banks too: the caller times those matches again after
        # the tick (``vacation_changed(uid, skip=…)``, each its own host call), so one player's
        # many matches never hold up the reminders and time-outs of everyone else
        res.data["away"] = list(taken)
        return res

    async def _records(self, user_id: int, now: float) -> list[vac.Vacation]:
        rows = await self.store.vacations(user_id, now - vac.WINDOW)
        out = []
        for r in rows:
            try:
                out.append(vac.Vacation.from_json(r))
            except ClockError:
                log.warning("player %s: a vacation cannot be read and is skipped", user_id)
        return out

    async def _take_day(self, user_id: int, records: list[vac.Vacation], now: float, allowance: int,
                        at: float | None) -> vac.Vacation | None:
        """One automatic vacation day for ``user_id`` (whose vacations are ``records``) from
        ``at`` (when their bank ran out), stored; None when they have none left (or another
        write came first)."""
        day = vac.auto_day(records, now, allowance, at=at)
        if day is None:
            return None

        def still(records: list[dict]) -> bool:     # decided again inside the store's transaction
            again = vac.auto_day([vac.Vacation.from_json(r) for r in records], now, allowance, at=at)
            return again is not None and again.start == day.start

        stored = await self.store.start_vacation(user_id, day.start, day.end, vac.AUTO, allowance_check=still)
        return day if stored is not None else None
