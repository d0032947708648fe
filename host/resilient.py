"""The host's side of a failing database (issue 31): every call answers within its deadline,
and a failing connection is never mistaken for a damaged match.

* **A deadline per call.**  :func:`bound_host` wraps the host's entry points: each runs within
  :data:`HOST_SECONDS`, waiting for the match lock included (:class:`MatchLock`), and every
  database statement inside gets what is left of it (:mod:`data.deadline`).
* **"Try again", truthfully.**  A :class:`data.store.TransientStoreError` (the store already
  tried a few times) becomes ``host.err.transient``: *nothing was changed*, which is true — the
  store raises it only for a write it knows was not committed.  A write whose outcome the
  database never confirmed, and which the store could not read back in time
  (:class:`data.store.OutcomeUnknown`), becomes ``host.err.unconfirmed``: the player is told
  that it may have been played and where to look, never that nothing changed.
* **Re-check and release.**  :meth:`Rechecks.recheck` reads a quarantined match again through every
  check, replays its whole log, and lifts the quarantine when all of that passes (a match
  quarantined by a failing connection before kinds were recorded, on its next load; any
  quarantined match, by the operator's ``python bot.py --recheck-quarantine``).
"""
from __future__ import annotations

import functools
import logging
from typing import Any, Awaitable, Callable

from data import deadline
from data.resilience import acquire_within
from data.store import CorruptRow, OutcomeUnknown, TransientStoreError, valid_id
from host import integrity
from host.types import Result

log = logging.getLogger("host")

HOST_SECONDS = 10.0     # a host call answers within this, waiting for the match lock included

# The entry points that answer with a Result: a failing database becomes a Result saying so.
RESULT_CALLS = (
    "challenge", "accept", "decline", "join", "join_check", "start", "command", "resign",
    "abort", "claim_timeout", "spectate", "batch", "rematch", "status", "hand", "log", "practice",
    "ai_move", "replay",
)
# The other entry points: bounded by the deadline too; a failing database raises
# TransientStoreError to the caller (a front end answers "try again").
OTHER_CALLS = ("legal", "choices", "batch_choices", "to_act", "match_for", "set_channel", "ai_to_act", "recheck")


class MatchLock:
    """``async with host._lock(match_id)``: the match's asyncio lock, waited for no longer than
    the call's deadline (then :class:`TransientStoreError` ``busy``: another call on the match
    is still waiting for the database)."""

    __slots__ = ("lock",)

    def __init__(self, lock: Any) -> None:
        self.lock = lock

    async def __aenter__(self) -> None:
        if not await acquire_within(self.lock, deadline.remaining()):
            raise TransientStoreError("another call on this match is still waiting for the "
                                      "database", kind="busy")

    async def __aexit__(self, *exc: Any) -> None:
        self.lock.release()


def _match_id(args: tuple) -> int | None:
    return valid_id(args[0]) if args and not isinstance(args[0], str) else None


def bounded(method: Callable[..., Awaitable[Any]], result: bool = True) -> Callable[..., Awaitable[Any]]:
    """Run a host entry point within :data:`HOST_SECONDS` (or the caller's nearer deadline);
    with ``result``, answer a failing database with a Result instead of raising."""

    @functools.wraps(method)
    async def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        with deadline.within(HOST_SECONDS):
            try:
                return await method(self, *args, **kwargs)
            except OutcomeUnknown as e:
                mid = _match_id(args)
                if mid is not None:
                    self._states.pop(mid, None)   # which state is true is not known here
                log.warning("%s(%s): the database did not confirm a write: %s",
                            method.__name__, mid, e)
                if not result:
                    raise
                return Result.fail("host.err.unconfirmed", match_id=mid if mid is not None else "?")
            except TransientStoreError as e:
                if not result:
                    raise
                # (the store logged it once per match and kind; this is every answer)
                log.debug("%s: the database could not answer (%s): %s", method.__name__, e.kind, e)
                return Result.fail("host.err.transient")

    call.__host_bounded__ = True  # type: ignore[attr-defined]
    return call


def bound_host(cls: type) -> type:
    """Wrap the host's entry points with :func:`bounded` (see the module docstring)."""
    for names, result in ((RESULT_CALLS, True), (OTHER_CALLS, False)):
        for name in names:
            method = getattr(cls, name, None)
            if method is not None and not getattr(method, "__host_bounded__", False):
                setattr(cls, name, bounded(method, result))
    return cls


# What a re-check found (:meth:`Rechecks.recheck`): the first word of its answer.
RELEASED, NOT_QUARANTINED, STILL_BAD, MOVED, UNANSWERED = (
    "released", "not_quarantined", "still_bad", "moved", "unanswered")


class Rechecks:
    """The host's re-check of quarantined matches (a mixin of :class:`host.table.Host`; needs
    ``store``, ``_state``, ``_states`` and ``_verified``)."""

    async def recheck(self, match_id: int) -> tuple[str, str]:
        """Read a quarantined match again through every check and replay its whole log; if all
        of it passes, lift the quarantine.  Returns (what was found: :data:`RELEASED`,
        :data:`NOT_QUARANTINED`, :data:`STILL_BAD` or :data:`MOVED`; the reason, for an
        operator).  Raises :class:`TransientStoreError` when the database cannot answer (nothing
        changed)."""
        mid = valid_id(match_id)
        if mid is None:
            return NOT_QUARANTINED, ""
        store = self.store  # type: ignore[attr-defined]
        try:
            rec = await store.recheck(mid)
        except CorruptRow as e:
            return STILL_BAD, str(e)
        if rec is None:
            return NOT_QUARANTINED, ""
        problem = integrity.row_problem(rec)
        if problem is not None:
            await integrity.quarantine(self, rec, problem, kind="game")
            return STILL_BAD, problem
        if integrity.needs_replay(rec):
            self._states.pop(mid, None)  # type: ignore[attr-defined]  # nothing cached: replay
            self._verified.discard(mid)  # type: ignore[attr-defined]
            try:
                # the whole log from the seed, checked against the snapshot; a log that does not
                # replay is quarantined again (kind "replay") by Host._state
                await self._state(rec)  # type: ignore[attr-defined]
            except CorruptRow as e:
                return STILL_BAD, f"replay failed: {e}"
        if await store.release(mid, rec.version) is None:
            return MOVED, ""
        log.warning("match %s: re-checked, reads and replays cleanly; released from quarantine", mid)
        return RELEASED, ""

    async def recheck_all(self) -> list[tuple[int, str, str]]:
        """Every quarantined match re-checked (no deadline for the whole run: each match has
        its own): (match id, what was found, the reason)."""
        out = []
        for match_id, _reason, _at in await self.store.quarantined():  # type: ignore[attr-defined]
            try:
                found, why = await self.recheck(match_id)
            except TransientStoreError as e:
                found, why = UNANSWERED, e.kind
            out.append((match_id, found, why))
        return out
