"""How the SQL stores live with a database that fails for a moment (issue 31).

* **Transient or not.**  A backend names the failures that say nothing about the stored data
  (``_transient_kind``: a timeout, a lost connection, a server starting up, a full disk, a lock
  held too long); only those become :class:`data.store.TransientStoreError`.  Every other driver
  error becomes a plain :class:`data.store.StoreError`, so callers never see a driver's class.
* **Retried, within the deadline.**  :func:`retried` wraps each public store method: a
  transient failure is tried again after a short pause, at most :data:`ATTEMPTS` times and never
  past the call's deadline (:mod:`data.deadline`).  That is safe because a transient failure of a
  write means it was **not** committed: the one case where that is not known — the connection
  lost or timed out around ``COMMIT`` — raises :class:`data.store.OutcomeUnknown`, which is never
  retried blindly: the write methods settle it by reading back what they wrote (see
  ``SqlStore._settle``).
* **Said once.**  :class:`ErrorNotes` logs each (match, kind) of failure once while it lasts, not
  once per attempt, says when the match's calls work again, and tells listeners (the metrics'
  ``store_errors_total{kind}``) about every failed attempt.
"""
from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from typing import Any, Awaitable, Callable, TypeVar

from data import deadline
from data.store_interface import MatchRecord, OutcomeUnknown, StoreError, TransientStoreError

log = logging.getLogger("data.store")

ATTEMPTS = 4                       # tries of one store call on transient failures
PAUSES = (0.05, 0.2, 0.5)          # seconds between them (the last one repeats)
NOTES_KEPT = 4096                  # (match, kind) pairs remembered as failing
# what reading back a write whose COMMIT was never confirmed found (SqlStore._settle)
STORED, ABSENT, MOVED = "stored", "absent", "moved"

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


def match_key(args: tuple) -> int | None:
    """The match a store call is about (its first argument: an id or a record), if any."""
    if not args:
        return None
    first = args[0]
    if isinstance(first, MatchRecord):
        return first.id
    if type(first) is int:
        return first
    return None


class ErrorNotes:
    """Failures seen by one store: each (match, kind) logged once while it lasts; listeners
    called with the kind of every failed attempt."""

    def __init__(self) -> None:
        self._failing: "OrderedDict[tuple[int | None, str], None]" = OrderedDict()
        self.listeners: list[Callable[[str], None]] = []

    def failed(self, what: str, match_id: int | None, err: StoreError) -> None:
        kind = err.kind
        for listener in list(self.listeners):
            try:
                listener(kind)
            except Exception:  # a metric must never cost a call
                log.exception("store error listener failed")
        key = (match_id, kind)
        if key in self._failing:
            return
        self._failing[key] = None
        while len(self._failing) > NOTES_KEPT:
            self._failing.popitem(last=False)
        where = f"match {match_id}" if match_id is not None else what
        log.warning("database %s (%s): %s", kind, where, err)

    def worked(self, match_id: int | None) -> None:
        if not self._failing:
            return
        gone = [k for k in self._failing if k[0] == match_id]
        for key in gone:
            del self._failing[key]
        if gone:
            where = f"match {match_id}" if match_id is not None else "the store"
            log.warning("database answers again (%s)", where)


def retried(fn: F, idempotent: bool = False) -> F:
    """Wrap a store method: transient failures are tried again (see the module docstring).
    ``idempotent``: writing it twice is writing it once (an upsert, a delete), so even a write
    whose outcome is unknown is simply written again."""

    @functools.wraps(fn)
    async def call(self: Any, *args: Any, **kw: Any) -> Any:
        notes: ErrorNotes = self.notes
        mid = match_key(args)
        attempt = 0
        while True:
            if deadline.expired():
                raise TransientStoreError(f"{fn.__name__}: no time left", kind="timeout")
            try:
                out = await fn(self, *args, **kw)
            except StoreError as e:
                if e.transient or e.kind == "error":
                    notes.failed(fn.__name__, mid, e)
                if not e.transient or (isinstance(e, OutcomeUnknown) and not idempotent):
                    raise
                attempt += 1
                pause = PAUSES[min(attempt - 1, len(PAUSES) - 1)]
                left = deadline.remaining()
                if attempt >= ATTEMPTS or (left is not None and left <= pause + deadline.MIN_SECONDS):
                    raise
                await asyncio.sleep(pause)
                continue
            notes.worked(mid)
            return out

    call.__wrapped_store_call__ = True  # type: ignore[attr-defined]
    return call  # type: ignore[return-value]


def retry_all(cls: type, names: tuple[str, ...], idempotent: tuple[str, ...] = ()) -> type:
    """Wrap each of ``names`` (methods of ``cls``) with :func:`retried`; ``idempotent`` names
    the writes that may simply be written again after an unknown outcome."""
    for name in (*names, *idempotent):
        method = getattr(cls, name)
        if not getattr(method, "__wrapped_store_call__", False):
            setattr(cls, name, retried(method, idempotent=name in idempotent))
    return cls


async def acquire_within(lock: asyncio.Lock, seconds: float | None) -> bool:
    """Acquire ``lock`` within ``seconds`` (None: however long it takes); False if that time
    passed first.  Never leaves the lock held when it says False or is cancelled (which
    ``asyncio.wait_for(lock.acquire(), …)`` can do in Python 3.11)."""
    if seconds is None:
        await lock.acquire()
        return True
    if not lock.locked():
        await lock.acquire()
        return True
    task = asyncio.ensure_future(lock.acquire())
    try:
        await asyncio.wait_for(asyncio.shield(task), max(0.0, seconds))
        return True
    except asyncio.TimeoutError:
        _drop(lock, task)
        return False
    except BaseException:
        _drop(lock, task)
        raise


def _drop(lock: asyncio.Lock, task: "asyncio.Future[bool]") -> None:
    """Give up an acquire: cancel it, or release the lock if it got it after all."""
    if task.cancel():
        return
    if not task.cancelled() and task.exception() is None:
        lock.release()
