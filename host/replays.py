"""Replays (issue 35): a played match stepped through from its stored record and log — the
position after any public step, drawn from what everyone saw, and for a seated player on request
their own view of that moment.  A mixin of :class:`host.table.Host` (its store and pictures).

    res = await host.replay(match_id, viewer=user_id, step=k, own=False, locale="ja")
    res.data == {"n": …, "k": …, "turn": …, "entry": step or None, "turns": [[turn, k], …],
                 "own": bool, "picture": png bytes | None, "hand": png bytes (own only),
                 "final": bool, "result": Msg | None}

Step 0 is the starting position; step k (1…n) the position after the k-th public step of
:func:`host.replay_steps.public_steps` (what ``/match log`` numbers).  Nothing is kept between
calls but a small cache of replayed matches (a match is replayed once, then each step is a
lookup and a picture; a finished match never changes, a running one is keyed by its log length),
so a replay's buttons work the same after a restart: each carries its match and step.
"""
from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any

from data.store import ABORTED, ACTIVE, FINISHED, CorruptRow, MatchRecord
from host.replay import _final_view, _initial_state, _strip_seat
from host.replay_steps import public_steps
from host.types import Result

log = logging.getLogger("host.replays")

CACHE_SIZE = 16           # replayed matches kept (a few people reviewing at once)
PLAYED = (ACTIVE, FINISHED, ABORTED)


class Replays:
    _replay_cache: "OrderedDict[tuple, tuple[dict, list[dict]]] | None" = None

    async def replay_book(self, rec: MatchRecord, own_seat: int | None = None) -> tuple[dict, list[dict]]:
        """``(start, steps)`` of a played match: the public view of the starting position (with
        the seat's own view as ``start["own"]``) and :func:`public_steps` (``own``: that seat's
        view at each step); the last step's views carry the result when the host ended the
        match itself.  Replayed in a thread (a long match takes tens of milliseconds), cached."""
        if self._replay_cache is None:
            self._replay_cache = OrderedDict()
        key = (rec.id, rec.n_commands, rec.status, own_seat)
        hit = self._replay_cache.get(key)
        if hit is not None:
            self._replay_cache.move_to_end(key)
            return hit
        game = await self._engine(rec)
        commands = await self.store.commands(rec.id)
        book = await asyncio.to_thread(_book, rec, commands, own_seat, game)
        self._replay_cache[key] = book
        while len(self._replay_cache) > CACHE_SIZE:
            self._replay_cache.popitem(last=False)
        return book

    async def replay(self, match_id: int, viewer: int | None, step: int | None, *, own: bool = False,
                     locale: Any = "en", picture: bool = True) -> Result:
        """The position after public step ``step`` (None: the last) of a match: its words, its
        turn, where each turn starts, and its picture in ``locale``.  ``own``: the viewer's own
        view of each moment if they hold a seat (never anyone else's); else the public view."""
        rec, err = await self._get(match_id)
        if err:
            return err
        if rec.status not in PLAYED or not rec.n_commands:
            return Result.fail("replay.err.nothing", match=rec, match_id=rec.id)
        seat = self._seat_of(rec, viewer) if (own and viewer is not None) else None
        if seat is not None and seat in self.ai_seats(rec):
            seat = None
        try:
            start, steps = await self.replay_book(rec, seat)
            if seat is not None and not start.get("secrets"):    # nothing of theirs others did not see
                seat = None
        except CorruptRow:
            return Result.fail("host.err.quarantined", match_id=rec.id)
        n = len(steps)
        k = n if step is None else max(0, min(int(step), n))
        entry = steps[k - 1] if k else None
        shown = entry or start
        turns: list[list[int]] = []
        for i, e in enumerate([start, *steps]):
            t = e.get("turn")
            if isinstance(t, int) and (not turns or turns[-1][0] != t):
                turns.append([t, i])
        data = {"n": n, "k": k, "turn": (entry or start).get("turn"), "entry": entry, "turns": turns,
                "own": seat is not None, "final": k == n and rec.status != ACTIVE, "picture": None,
                "result": self._outcome_msg(rec) if rec.status == FINISHED and rec.result else None}
        if picture and self.render_enabled:
            from render import render_png

            try:      # the board everyone saw; for its own player also their hand of that moment
                data["picture"] = await asyncio.to_thread(render_png, rec.game, shown["view"], locale=locale,
                                                          names=list(rec.names))
                if seat is not None:
                    data["hand"] = await asyncio.to_thread(render_png, rec.game, shown["own"], locale=locale,
                                                           names=list(rec.names), part="hand")
            except Exception:      # the words still tell the step
                log.exception("drawing step %s of match %s failed", k, rec.id)
        return Result(ok=True, match=rec, data=data)


def _book(rec: MatchRecord, commands: list[Any], own_seat: int | None, game: Any) -> tuple[dict, list[dict]]:
    state = _initial_state(game, rec)
    start = {"view": game.view(state, None), "seq": 0}
    start["turn"] = start["view"].get("turn")
    if own_seat is not None:
        start["own"] = game.view(state, own_seat)
    steps = public_steps(game, rec, commands, own=own_seat)
    if own_seat is not None:     # did the seat ever see more than everyone (a hand, a secret)?
        start["secrets"] = any(_strip_seat(e["own"]) != _strip_seat(e["view"]) for e in [start, *steps])
    if rec.status == FINISHED and steps:      # the result on the last position, however it ended
        last = steps[-1] = dict(steps[-1])
        last["view"] = _final_view(rec, last["view"])
        if "own" in last:
            last["own"] = _final_view(rec, last["own"])
    return start, steps
