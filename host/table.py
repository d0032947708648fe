"""The match host ("the table").  See :mod:`host` for the API overview.

Every call that changes a match runs under that match's asyncio lock, reads the match row
fresh from the store, and writes it back naming the version it read, so two processes sharing
one database can never apply two commands on the same version.  A command is acknowledged (the
Result returned) only after its log row is committed.

The clock (reminders, expiries) is :mod:`host.clock`; how an engine is driven through a log is
:mod:`host.replay`; typed options are :mod:`host.options`; small texts :mod:`host.texts`.
"""
from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
import weakref
from collections import OrderedDict
from dataclasses import replace
from typing import Any, Awaitable, Callable

from data import i18n
from data.store import (
    ABORTED, ACTIVE, DECLINED, FINISHED, OPEN, PENDING, UNFINISHED, CorruptRow, MatchRecord,
    Store, StoreError, VersionConflict, valid_id,
)
from host.engines import CardSetUnusable, engine_for, engine_of
from host import batch, batch_log, integrity
from host.batch import batch_refusal
from host.clock import CHALLENGE_TTL, Clock  # noqa: F401  (CHALLENGE_TTL: re-exported)
from host.away import Away
from host.clocks import match as bank_clock
from host.metrics import measured_command, measured_picture
from host.options import describe_options, option_problem, parse_options, read_options  # noqa: F401
from host.practice import Practice
from host.queries import Queries
from host.replays import Replays
from host.resilient import MatchLock, Rechecks, bound_host
from host.seating import MAX_TURN_SECONDS, MIN_TURN_SECONDS, Seating  # noqa: F401  (re-exported)
from host.shards import Shards
from host.replay import (  # noqa: F401  (JOIN, _initial_state, own_part: re-exported for tests and tools)
    JOIN, RESIGN, _with_said, _example, _final_view, _hidden, _initial_state,
    _may_rejoin, _public_command, _public_to_act, _step, _strip_seat, own_part, replay_start,
)
from host.texts import (
    _duration, _names, game_msg, illegal_msg, legal_in_words, played_text, with_detail, public_moves, reason_msg, shown_after, told,
    told_lines,
)
from host.types import Msg, PrivateUpdate, Prompt, PublicUpdate, Result, msg
from host.undo import TAKEBACK_KEY, Undo
from host.judging import Judging
from rules import IllegalCommand
from rules import prng as PRNG

log = logging.getLogger("host")

WINDOW_SECONDS = 5 * 60            # a secret response window's limit in a match without a clock
SNAPSHOT_EVERY = 10                # store an engine dump every N commands (replay is the truth)
MAX_COMMAND_LEN = 200


@bound_host   # every entry point answers within its deadline (host/resilient.py)
class Host(Seating, Clock, Away, Queries, Practice, Rechecks, Replays, Undo, Judging):
    metrics: Any = None   # host.metrics.Metrics when METRICS_PORT is set (cogs/metrics.py)

    def __init__(self, store: Store, *, now: Callable[[], float] = time.time,
                 render: bool = True, rng: random.Random | None = None,
                 cache_size: int = 20_000, shards: Shards | None = None) -> None:
        self.store = store
        self.shards = shards  # several processes: the gateway shards whose clock work is ours
        self.now = now
        self.render_enabled = render
        self._rng = rng  # None: seeds come from secrets (see _new_seed)
        self._locks: "weakref.WeakValueDictionary[int, asyncio.Lock]" = weakref.WeakValueDictionary()
        # match id -> (n_commands, undos, state): the engine state after that many commands
        # since the match's last rewind (host/undo.py: the same count can follow another log) (LRU)
        self._states: "OrderedDict[int, tuple[int, int, Any]]" = OrderedDict()
        self.cache_size = cache_size
        # match ids whose whole log this process has replayed and checked (host/integrity.py)
        self._verified = integrity.Verified(max(4 * cache_size, 100_000))
        # match id -> private pictures of its last Result still being drawn
        self._drawing: dict[int, list[asyncio.Future]] = {}
        # Called with the MatchRecord after a FINISHED result is committed (records, leagues).
        # An exception in a callback is logged and never reaches the player.
        self.on_finish: list[Callable[[MatchRecord], Awaitable[None]]] = []
        from host.card_sets import CardSets

        self.card_sets = CardSets(store, now=now)     # servers' own card sets (issue 36)

    # ------------------------------------------------------------------ internals
    def _new_seed(self) -> int:
        """A new match's seed: 128 random bits from the operating system (``secrets``), so no
        player can search the seeds for the one that deals their own opening hand (see
        rules/prng.py).  A test may inject ``rng`` to make seeds reproducible."""
        if self._rng is None:
            return secrets.randbits(PRNG.SEED_BITS)
        return self._rng.getrandbits(PRNG.SEED_BITS)

    def _lock(self, match_id: int) -> MatchLock:
        """The match's lock, waited for no longer than the call's deadline."""
        # an id no row can have shares one lock; _get answers "no such match" for it
        match_id = valid_id(match_id)
        match_id = -1 if match_id is None else match_id
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return MatchLock(lock)

    async def _get(self, match_id: int) -> tuple[MatchRecord | None, Result | None]:
        """The match, or the Result refusing it: no such match (also for an id no row can
        have: beyond 64 bits, negative, not a number), or quarantined — by the store (a row
        that does not read or does not fit its log) or here (host/integrity.py: a game that is
        not registered, a log that does not replay behind its snapshot)."""
        mid = valid_id(match_id)
        if mid is None:
            return None, Result.fail("host.err.no_match", match_id=str(match_id)[:24])
        try:
            rec = await self.store.get_match(mid)
        except CorruptRow as e:
            self._states.pop(mid, None)
            # quarantined long ago by what looks like a failing connection: look again
            if not (e.recheck and (await self.recheck(mid))[0] == "released"):
                return None, Result.fail("host.err.quarantined", match_id=mid)
            rec = await self.store.get_match(mid)
        if rec is None:
            return None, Result.fail("host.err.no_match", match_id=mid)
        if not await integrity.admit(self, rec):
            return None, Result.fail("host.err.quarantined", match_id=mid)
        return rec, None

    async def _seated(self, match_id: int, user_id: int,
                      statuses: tuple[str, ...] = (ACTIVE,)) -> tuple[MatchRecord | None, int | None, Result | None]:
        """The match, the caller's seat, or the Result refusing the call."""
        rec, err = await self._get(match_id)
        if err:
            return None, None, err
        if rec.status not in statuses:
            return rec, None, Result.fail("host.err.not_active", match=rec,
                                          status=Msg(f"host.state.{rec.status}"))
        seat = self._seat_of(rec, user_id)
        if seat is None:
            return rec, None, Result.fail("host.err.not_a_player", match=rec)
        return rec, seat, None

    async def _challenged(self, match_id: int, user_id: int
                          ) -> tuple[MatchRecord | None, int | None, Result | None]:
        """A match still waiting for players, and the caller's seat in it (or the refusal)."""
        rec, err = await self._get(match_id)
        if err:
            return None, None, err
        if rec.status not in (PENDING, OPEN):
            return rec, None, Result.fail("host.err.not_waiting", match=rec, match_id=rec.id)
        seat = self._seat_of(rec, user_id)
        if seat is None:
            hint = Msg("host.hint.join") if rec.status == OPEN else Msg("host.hint.none")
            return rec, None, Result.fail("host.err.not_challenged", match=rec, hint=hint)
        return rec, seat, None

    @staticmethod
    def _seat_of(rec: MatchRecord, user_id: int) -> int | None:
        for i, uid in enumerate(rec.seats):
            if uid is not None and int(uid) == int(user_id):
                return i
        return None

    async def _engine(self, rec: MatchRecord) -> Any:
        """The engine that plays ``rec`` (:mod:`host.engines`: the registered game, or the game
        built from the server's card set version it was started with), loaded if need be;
        :class:`CorruptRow` (the match quarantined) when that version cannot be used."""
        try:
            return await engine_for(self.store, rec)
        except CardSetUnusable as exc:
            await integrity.quarantine(self, rec, f"cards: {exc}", kind="game")
            raise CorruptRow(str(exc)) from None

    engine = _engine       # for front ends: the engine of a match they hold (e.g. to draw its GIF)

    async def _state(self, rec: MatchRecord) -> Any:
        """The engine state after every logged command (cached; rebuilt by replay)."""
        game = engine_of(rec)
        cached = self._states.get(rec.id)
        if cached is not None and cached[:2] == (rec.n_commands, _undos(rec)):
            self._states.move_to_end(rec.id)
            return cached[2]
        try:
            if rec.id not in self._verified:
                # first load in this process: the whole log from the seed, checked against
                # the snapshot (host/integrity.py)
                log_ = await self.store.commands(rec.id) if rec.n_commands else []
                state = integrity.replay(game, rec, log_, _initial_state, _step)
                self._verified.add(rec.id)
            else:
                state, done = replay_start(game, rec, rec.n_commands)
                if done < rec.n_commands:
                    for c in (await self.store.commands(rec.id))[done:rec.n_commands]:
                        state = _step(game, state, c.seat, c.command)
        except StoreError:  # the database could not answer: nothing is known about the row
            raise
        except Exception as exc:  # an engine that cannot replay this log: quarantine, never crash
            await integrity.quarantine(self, rec, f"replay failed: {type(exc).__name__}: {exc}",
                                       kind="replay")
            raise CorruptRow(str(exc)) from exc
        self._remember(rec.id, rec.n_commands, state, undos=_undos(rec))
        return state

    def _remember(self, match_id: int, n_commands: int, state: Any, *, undos: int = 0) -> None:
        self._states[match_id] = (n_commands, undos, state)
        self._states.move_to_end(match_id)
        while len(self._states) > self.cache_size:
            self._states.popitem(last=False)

    def _deadline(self, rec: MatchRecord, hidden: bool = False) -> float | None:
        """When the awaited decision times out: the turn clock if the match has one; a secret
        response window always has a limit (``WINDOW_SECONDS`` in a match without a clock),
        after which the game's default (``timeout_command``, e.g. a pass) applies."""
        if rec.turn_seconds:
            return self.now() + rec.turn_seconds
        return self.now() + WINDOW_SECONDS if hidden else None

    def _locale(self, rec: MatchRecord) -> str:
        return i18n.locale_of(rec.meta.get("locale", "en"))

    @measured_picture
    async def _picture(self, rec: MatchRecord, view: dict, *, hand: bool = False) -> bytes | None:
        """The picture of ``view``; ``hand``: a seat's hand picture for its DM (no clock: it
        changes only when the seat's own view does, so the DM is not edited as time passes)."""
        if not self.render_enabled:
            return None
        from render import render_png

        clock = None
        mc = bank_clock.read(rec) if rec.turn_seconds and not hand else None
        if mc is not None and mc.banks is not None:
            # a bank: each player's bank and the public deadline (never a secret window's)
            banks, due = bank_clock.public(mc, rec.deadline)
            left = None if due is None or rec.status != ACTIVE else max(0.0, due - self.now())
            clock = {"deadline_in": left, "turn_seconds": None, "banks": banks}
        elif rec.turn_seconds and not hand:
            left = None if rec.deadline is None else max(0.0, rec.deadline - self.now())
            clock = {"deadline_in": left, "turn_seconds": rec.turn_seconds}
        try:
            return await asyncio.to_thread(render_png, rec.game, view, locale=self._locale(rec),
                                           names=list(rec.names), clock=clock,
                                           part="hand" if hand else "full")
        except Exception:  # a picture must never cost a player their move
            log.exception("rendering match %s failed", rec.id)
            return None

    def _status_line(self, rec: MatchRecord, state: Any | None) -> Msg:
        if rec.status == FINISHED and rec.result is not None:
            return self._outcome_msg(rec)
        if rec.status == ABORTED:
            return msg("host.status.aborted")
        if rec.status == DECLINED:
            return msg("host.status.declined")
        if rec.status in (PENDING, OPEN):
            waiting = [s for s, u in enumerate(rec.seats) if u is not None and u not in rec.accepted]
            free = sum(1 for u in rec.seats if u is None)
            if waiting and free:
                return msg("host.status.waiting_open", names=_names(rec, waiting), open=free)
            if waiting:
                return msg("host.status.waiting", names=_names(rec, waiting))
            return msg("host.status.open", open=free)
        line = msg("host.status.to_act", names=_names(rec, _public_to_act(engine_of(rec), state)),
                   n=public_moves(rec))
        mc = bank_clock.read(rec) if rec.status == ACTIVE else None
        if mc is not None and mc.banks is not None:    # a bank match: each player's bank, the deadline
            line = msg("clock.board.status", status=line,
                       clock=bank_clock.banks_text(mc, list(rec.names), rec.deadline, self.now()))
        return line

    def _outcome_msg(self, rec: MatchRecord) -> Msg:
        res = rec.result or {}
        winners = res.get("winners", [])
        if not winners:
            return msg("host.outcome.draw", reason=reason_msg(res.get("reason", ""), rec.game, res.get("detail")))
        return msg("host.outcome.win", names=_names(rec, winners),
                   reason=reason_msg(res.get("reason", ""), rec.game, res.get("detail")))

    async def _board(self, rec: MatchRecord, text: list[Msg], *, prompts: bool = True,
                     private: bool = True, notify: list[int] | None = None,
                     info: list[Msg] | None = None, data: dict | None = None) -> Result:
        """A full Result for the match as it stands: public update, private updates, prompts."""
        game = engine_of(rec)
        if rec.status not in (ACTIVE, FINISHED) and not (rec.status == ABORTED and rec.n_commands):
            return Result(ok=True, match=rec, info=info or [], notify=notify or [], data=data or {},
                          public=PublicUpdate(text=text, view={}, picture=None,
                                              status_line=self._status_line(rec, None)))
        state = await self._state(rec)
        public_view = _with_said(rec, _final_view(rec, game.view(state, None)))
        public = PublicUpdate(text=text, view=public_view, picture=await self._picture(rec, public_view),
                              status_line=self._status_line(rec, state),
                              joinable=self._joinable(rec, game, state),
                              awaited=[rec.seats[s] for s in _public_to_act(game, state)
                                       if rec.status == ACTIVE and 0 <= s < len(rec.seats) and rec.seats[s]])
        result = Result(ok=True, match=rec, public=public, info=info or [], notify=notify or [],
                        data=data or {})
        if private:
            # At most one Result's private pictures in flight per match: a front end that
            # never waits for them cannot pile up pictures nobody will send.
            earlier = [f for f in self._drawing.pop(rec.id, ()) if not f.done()]
            if earlier:
                await asyncio.gather(*earlier)
            bare = _strip_seat({k: v for k, v in public_view.items() if k != "said"})
            for seat, uid in enumerate(rec.seats):
                if uid is None:
                    continue
                pv = _final_view(rec, game.view(state, seat))
                if _strip_seat(pv) == bare:
                    continue  # nothing private to tell (e.g. SQUARES): no DM spam
                update = PrivateUpdate(seat=seat, user_id=uid, text=[], view=pv,
                                       own=own_part(pv, public_view))
                if self.render_enabled:
                    # Drawn after the public picture, in a worker thread, while the caller
                    # already delivers the public update; ``update.ready()`` waits for it.
                    update.pending = asyncio.ensure_future(self._picture(rec, pv, hand=True))
                result.private.append(update)
            self._track_drawing(rec.id, [u.pending for u in result.private if u.pending is not None])
        if prompts and rec.status == ACTIVE:
            shown = set() if _hidden(game, state) else set(_public_to_act(game, state))
            for seat in game.to_act(state):
                uid = rec.seats[seat]
                if uid is not None:
                    result.prompts.append(Prompt(seat=seat, user_id=uid, secret=seat not in shown,
                                                 legal=game.legal_commands(state, seat)))
        return result

    @staticmethod
    def _joinable(rec: MatchRecord, game: Any, state: Any) -> bool:
        """May somebody join this match now, so a front end offers Join?  A running match of a
        game that takes late joiners (``can_join``), not a league match, with a free seat
        (fewer than ``max_players``) or a defeated player who may rejoin their seat."""
        if rec.status != ACTIVE or not hasattr(game, "can_join") or rec.meta.get("league") is not None:
            return False
        if game.outcome(state) is not None:
            return False
        if len(rec.seats) < game.max_players:
            return True
        return bool(game.can_join(state)) and any(_may_rejoin(game, state, s) for s in range(len(rec.seats)))

    def _track_drawing(self, match_id: int, futures: list) -> None:
        if not futures:
            return
        self._drawing[match_id] = futures

        def done(_: Any) -> None:
            if self._drawing.get(match_id) is futures and all(f.done() for f in futures):
                del self._drawing[match_id]

        for f in futures:
            f.add_done_callback(done)

    async def _finished(self, rec: MatchRecord) -> None:
        for callback in list(self.on_finish):
            try:
                await callback(rec)
            except Exception:
                log.exception("on_finish callback failed for match %s", rec.id)

    async def _write(self, rec: MatchRecord, expected: int) -> MatchRecord | None:
        try:
            return await self.store.update_match(replace(rec, updated_at=self.now()), expected)
        except VersionConflict:
            self._states.pop(rec.id, None)
            return None

    # ------------------------------------------------------------------ start-up
    async def resume(self) -> int:
        """Count the unfinished matches; their states load lazily on first use."""
        n = await self.store.count_matches()
        log.info("resuming %d unfinished matches", n)
        return n

    # ------------------------------------------------------------------ play
    @measured_command
    async def command(self, match_id: int, user_id: int, text: str) -> Result:
        text = " ".join(str(text or "").split())
        async with self._lock(int(match_id)):
            rec, seat, game, state, err = await self._to_act(match_id, user_id)
            if err:
                return err
            if not text:
                return Result.fail("host.err.empty", match=rec, example=_example(game, state, seat))
            if len(text) > MAX_COMMAND_LEN:
                return Result.fail("host.err.too_long", match=rec, max=MAX_COMMAND_LEN)
            return await self._apply(rec, game, state, seat, text)

    async def _to_act(self, match_id: int, user_id: int) -> tuple[Any, Any, Any, Any, Result | None]:
        """(record, seat, game, state, None) when ``user_id`` may act in the match now (lock
        held), else (…, the Result refusing it): not seated, the computer's seat, an unreadable
        match, or not their decision (a hidden decision of another seat: said no more)."""
        rec, seat, err = await self._seated(match_id, user_id)
        if err:
            return rec, seat, None, None, err
        if seat in self.ai_seats(rec):          # fill:ai took it over: the computer plays it
            return rec, seat, None, None, Result.fail("host.err.computer_seat", match=rec, match_id=rec.id)
        game = engine_of(rec)
        try:
            state = await self._state(rec)
        except CorruptRow:
            return rec, seat, game, None, Result.fail("host.err.quarantined", match=rec, match_id=rec.id)
        if seat not in game.to_act(state):
            shown = _public_to_act(game, state)
            if seat in shown:  # a hidden decision of another seat is pending: say no more
                return rec, seat, game, state, Result.fail("host.err.resolving", match=rec)
            return rec, seat, game, state, Result.fail("host.err.not_your_turn", match=rec,
                                                       names=_names(rec, shown))
        return rec, seat, game, state, None

    async def _apply(self, rec: MatchRecord, game: Any, state: Any, seat: int, text: str,
                     lead: list[Msg] | None = None, *, entry: Callable[[], Any] | None = None,
                     announce: list[Msg] | None = None) -> Result:
        """Apply one command (lock held), commit it, then answer.  ``entry``: a host entry of
        the log (``text`` is e.g. ``RESIGN``) made by calling it instead of ``game.apply``;
        it prints no ``played`` line, ``announce`` says what happened."""
        steps = None if entry is not None else batch_log.steps_of(text)
        walked = batch.walk(game, state, seat, steps) if steps is not None else None
        try:
            if walked is not None:      # a batch (host/batch.py): checked step by step
                if not walked.ok:
                    return batch_refusal(rec, game, walked, seat, steps)
                new_state = walked.states[-1]
            else:
                new_state = entry() if entry is not None else game.apply(state, seat, text)
        except IllegalCommand as exc:
            return Result(ok=False, match=rec, error=legal_in_words(illegal_msg(exc), rec.game, game, state, seat,
                                                                   list(rec.names)))
        public_text = None if entry is not None else _public_command(game, state, seat, text)
        outcome = game.outcome(new_state)
        # (an open takeback request lapses with any new entry: host/undo.py)
        meta = {k: v for k, v in rec.meta.items() if k not in ("expired", "held", TAKEBACK_KEY)}
        # What everyone may read.  A hidden decision prints nothing.  While a hidden decision
        # is pending (a secret response window), even the public lines are held back and
        # released together when it closes, so nothing public shows the window was opened.
        released = list(rec.meta.get("held", []))
        public_before = game.view(state, None) if entry is None else None
        story = [] if entry is not None or walked is not None else told(
            rec.game, public_before, game.view(new_state, None), list(rec.names), seat)
        if walked is not None:          # one line for the batch, then what each step did
            shown, story = batch.told_batch(rec.game, game, walked.states, seat, steps, list(rec.names))
        if public_text is not None:
            if walked is None:
                shown = played_text(rec.game, game, state, seat, public_text, list(rec.names), public_before)
            released.append([rec.names[seat], shown, public_text, story])
        elif entry is not None:     # a host entry (a resignation): an entry of the log, no line
            released.append([rec.names[seat], None, text, []])
        elif story:     # a secret decision's public consequences (e.g. the chain it let resolve)
            released.append([None, None, None, story])
        if outcome is None and _hidden(game, new_state):
            meta["held"], released = released, []
        said = [line for line in released if line[1] is not None]
        if said:        # the last public move in words, for the pictures ("Last: …")
            meta["said"] = (list(said[-1]) + [""])[:3]     # (lines held by an older version: no command)
        # "after N moves" counts what /match log numbers (host/queries.py): its entries, as they
        # are released — never a secret decision, whose consequences join the entry before
        meta["shown"] = shown_after(rec, released)
        new = replace(rec, n_commands=rec.n_commands + 1, reminded=False, meta=meta)
        if outcome is not None:
            new.status, new.result, new.deadline = FINISHED, with_detail(dict(outcome), game, new_state), None
        else:
            await self._timed(rec, new, game, new_state, actor=seat, state_before=state)
        if new.n_commands % SNAPSHOT_EVERY == 0 or outcome is not None:
            new.snapshot, new.snapshot_seq = game.dump(new_state), new.n_commands
        new.updated_at = self.now()
        written, refusal = await self._append(rec, new, seat, text, new_state)
        if refusal is not None:
            return refusal
        lines = told_lines(released)
        if lines and public_text is not None:
            lines = list(lead or []) + lines
        lines = list(announce or []) + lines
        if outcome is not None:
            lines.append(self._outcome_msg(written))
            await self._finished(written)
        return await self._board(written, lines, data={"seat": seat, "command": text})

    @measured_command
    async def batch(self, match_id: int, user_id: int, commands: list[str]) -> Result:
        """Several commands of the caller played as one (host/batch.py): checked one at a time
        against the rules on copies of the state, stored as ONE log entry under the match lock
        — all or nothing — and told as one board update.  A single command is :meth:`command`."""
        commands = [" ".join(str(c or "").split()) for c in commands]
        async with self._lock(int(match_id)):
            rec, seat, game, state, err = await self._to_act(match_id, user_id)
            if err:
                return err
            if not commands or not all(commands) or len(commands) > batch.MAX_PICK \
                    or any(len(c) > MAX_COMMAND_LEN for c in commands):
                return Result.fail("host.err.batch_bad", match=rec, max=batch.MAX_PICK)
            commands = batch.in_order(game, state, seat, commands)
            return await self._apply(rec, game, state, seat, batch_log.entry(commands))

    async def _append(self, rec: MatchRecord, new: MatchRecord, seat: int, entry: str,
                      new_state: Any) -> tuple[MatchRecord | None, Result | None]:
        """Commit ``entry`` as the next log entry with the row ``new`` (lock held) and remember
        ``new_state``: (the written record, None), or (None, the Result refusing it)."""
        try:
            written = await self.store.append_command(new, rec.version, seat, entry)
        except VersionConflict:
            self._states.pop(rec.id, None)
            return None, Result.fail("host.err.conflict", match=rec)
        except CorruptRow:  # the row does not fit its log after all: quarantined, nothing written
            self._states.pop(rec.id, None)
            return None, Result.fail("host.err.quarantined", match=rec, match_id=rec.id)
        self._remember(rec.id, written.n_commands, new_state, undos=_undos(written))
        return written, None

    async def _finish(self, rec: MatchRecord, result: dict, lines: list[Msg]) -> Result:
        new = replace(rec, status=FINISHED, result=result, deadline=None)
        written = await self._write(new, rec.version)
        if written is None:
            return Result.fail("host.err.conflict", match=rec)
        await self._finished(written)
        return await self._board(written, lines + [self._outcome_msg(written)], prompts=False)

    async def resign(self, match_id: int, user_id: int) -> Result:
        """The caller gives up.  A game with ``resign(state, seat)`` (docs/engine.md) plays the
        resignation out itself — in a free-for-all only that player is out and the others play
        on — logged as the host entry ``__resign__`` so seed + log replay it; otherwise the
        match ends at once and every other seat wins."""
        async with self._lock(int(match_id)):
            rec, seat, err = await self._seated(match_id, user_id)
            if err:
                return err
            if seat in self.ai_seats(rec):
                return Result.fail("host.err.computer_seat", match=rec, match_id=rec.id)
            filled = await self._fill_seats(rec, [seat], "host.filled_resign") if self.fills(rec) else None
            if filled is not None:       # fill:ai — the computer plays their seat from here on
                return filled
            game = engine_of(rec)
            if hasattr(game, "resign"):
                try:
                    state = await self._state(rec)
                except CorruptRow:
                    return Result.fail("host.err.quarantined", match=rec, match_id=rec.id)
                try:
                    new_state = game.resign(state, seat)
                except IllegalCommand as exc:
                    return Result(ok=False, match=rec, error=illegal_msg(exc))
                key = "host.resigned" if game.outcome(new_state) is not None else "host.resigned_out"
                return await self._apply(rec, game, state, seat, RESIGN, entry=lambda: new_state,
                                         announce=[msg(key, name=rec.names[seat])])
            winners = [s for s in range(len(rec.seats)) if s != seat]
            return await self._finish(rec, {"winners": winners, "reason": "resign", "resigned": seat},
                                      [msg("host.resigned", name=rec.names[seat])])

    async def abort(self, match_id: int, user_id: int, *, moderator_guild: int | None = None,
                    said: str | None = None) -> Result:
        """A player's vote to abort (every player still in must ask), or a moderator's abort.

        ``moderator_guild``: the server in which the caller holds moderator permissions (None:
        none, or a DM).  Moderator power counts only in the match's own server; a moderator of
        another server who is not seated is refused and nothing changes.  ``said``: the catalog
        key the board says instead of "a moderator aborted the match" — the bot's own abort with
        moderator power (an event's round time limit, host/series_table.py)."""
        async with self._lock(int(match_id)):
            rec, err = await self._get(match_id)
            if err:
                return err
            if rec.status not in UNFINISHED:
                return Result.fail("host.err.not_active", match=rec, status=Msg(f"host.state.{rec.status}"))
            seat = self._seat_of(rec, user_id)
            moderator = self._moderates(rec, moderator_guild)
            if seat is None and not moderator:
                if moderator_guild is not None:
                    return Result.fail("authority.abort.foreign", match=rec, match_id=rec.id)
                return Result.fail("host.err.not_a_player", match=rec)
            # the votes are the players' own: a moderator who is not seated (the bot's own abort
            # at an event's time limit included) ends the match without being counted among them
            votes = sorted(set(rec.abort_votes) | ({int(user_id)} if seat is not None else set()))
            voters = await self._voters(rec)
            players = {rec.seats[s] for s in voters}
            if moderator or players <= set(votes) or rec.status != ACTIVE:
                new = replace(rec, status=ABORTED, abort_votes=votes, deadline=None)
                written = await self._write(new, rec.version)
                if written is None:
                    return Result.fail("host.err.conflict", match=rec)
                key = "host.aborted_by_mod" if moderator and seat is None else "host.aborted"
                if said and moderator and seat is None:
                    key = said
                return await self._board(written, [msg(key)], prompts=False, private=False)
            if int(user_id) in rec.abort_votes:
                return Result.fail("host.err.already_voted", match=rec)
            written = await self._write(replace(rec, abort_votes=votes), rec.version)
            if written is None:
                return Result.fail("host.err.conflict", match=rec)
            waiting = [s for s in voters if rec.seats[s] not in votes]
            return Result(ok=True, match=written, notify=[rec.seats[s] for s in waiting],
                          info=[msg("host.abort_vote", name=rec.names[seat], waiting=_names(rec, waiting))],
                          public=PublicUpdate(text=[msg("host.abort_vote", name=rec.names[seat],
                                                        waiting=_names(rec, waiting))], view={}))

    async def claim_timeout(self, match_id: int, user_id: int) -> Result:
        async with self._lock(int(match_id)):
            rec, seat, err = await self._seated(match_id, user_id)
            if err:
                return err
            if not rec.turn_seconds or rec.deadline is None:
                return Result.fail("host.err.no_clock", match=rec)
            left = rec.deadline - self.now()
            if left > 0:
                return Result.fail("host.err.time_left", match=rec, left=_duration(left))
            game = engine_of(rec)
            state = await self._state(rec)
            to_act = game.to_act(state)
            if seat in to_act:
                return Result.fail("host.err.own_clock", match=rec)
            # a game with a default for the late seat (Avalon's Sanctuary: done / pass / no
            # support) plays it, as the clock does at expiry: the match goes on for everyone
            res = await self._default_move(rec, game, state, to_act)
            if res is not None:
                return res
            winners = [s for s in range(len(rec.seats)) if s not in to_act]
            return await self._finish(rec, {"winners": winners, "reason": "timeout", "timed_out": to_act},
                                      [msg("host.timeout", names=_names(rec, to_act))])

    async def spectate(self, match_id: int, user_id: int) -> Result:
        async with self._lock(int(match_id)):
            rec, err = await self._get(match_id)
            if err:
                return err
            if self._seat_of(rec, user_id) is None and user_id not in rec.spectators:
                written = await self._write(replace(rec, spectators=rec.spectators + [user_id]), rec.version)
                rec = written or rec
            return await self._board(rec, [], prompts=False, private=False,
                                     info=[msg("host.spectating", match_id=rec.id)])

    async def rematch(self, match_id: int, user_id: int) -> Result:
        """Offer a rematch; if another player of the match already offered one, accept that
        offer instead (``data["accepted_rematch"]``), so a match has one rematch at a time."""
        async with self._lock(int(match_id)):
            return await self._rematch(match_id, user_id)

    async def _rematch(self, match_id: int, user_id: int) -> Result:
        rec, err = await self._get(match_id)
        if err:
            return err
        if rec.status not in (FINISHED, ABORTED):
            return Result.fail("host.err.not_over", match=rec)
        seat = self._seat_of(rec, user_id)
        if seat is None:
            return Result.fail("host.err.not_a_player", match=rec)
        offers = [m for m in await self.store.matches_for_user(int(user_id), (PENDING,))
                  if m.rematch_of == rec.id]
        if offers:
            offer = max(offers, key=lambda m: m.id)
            if int(user_id) in offer.accepted:
                return Result.fail("host.err.rematch_offered", match=offer, match_id=offer.id)
            res = await self.accept(offer.id, user_id)
            if res.ok:
                res.data.update(match_id=offer.id, accepted_rematch=True)
            return res
        game = engine_of(rec)
        options = dict(rec.options)
        if rec.result is not None and hasattr(game, "rematch_options"):
            options = game.rematch_options(options, rec.result)
        # same seats, same order: the game's rematch rule decides who moves first
        others = [u for i, u in enumerate(rec.seats) if i != seat]
        # keep seat order identical to the previous match (challenge() puts the creator first)
        new = MatchRecord(game=rec.game, seed=self._new_seed(), seats=list(rec.seats),
                          names=list(rec.names), creator=user_id, options=options, status=PENDING,
                          guild_id=rec.guild_id, channel_id=rec.channel_id,
                          turn_seconds=rec.turn_seconds, accepted=[user_id],
                          meta={"locale": rec.meta.get("locale", "en"),
                                **({"rated": rec.meta["rated"]} if "rated" in rec.meta else {}),
                                # the same cards: a rematch is played with the set version of its match
                                **({"cards": rec.meta["cards"]} if "cards" in rec.meta else {}),
                                # the same time bank, full again
                                **({"clock": bank_clock.new(mc.control, mc.weekend, vacation=mc.vacation, hours=mc.hours,
                                                            hours_zone=mc.hours_zone).to_json()}
                                   if (mc := bank_clock.read(rec)) is not None else {})},
                          rematch_of=rec.id,
                          created_at=self.now(), updated_at=self.now())
        new = await self.store.create_match(new)
        text = [msg("host.rematch", name=rec.names[seat], game=game_msg(rec.game))]
        return Result(ok=True, match=new, notify=[u for u in others if u is not None],
                      public=PublicUpdate(text=text, view={}, status_line=self._status_line(new, None)),
                      data={"match_id": new.id})

    async def set_channel(self, match_id: int, channel_id: int) -> MatchRecord | None:
        async with self._lock(int(match_id)):
            for _ in range(3):
                rec, err = await self._get(match_id)
                if err:
                    return None
                written = await self._write(replace(rec, channel_id=int(channel_id)), rec.version)
                if written is not None:
                    return written
        return None


def _undos(rec: MatchRecord) -> int:
    """How many times the match was put back (host/undo.py): with ``n_commands`` it names one
    log, so a cached state is never of a log that was taken back and played differently."""
    try:
        return int((rec.meta or {}).get("undos", 0))
    except (TypeError, ValueError):
        return -1
