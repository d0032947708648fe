"""Deadlines for database work (issue 31): no call waits on a slow, hung or unreachable database
for longer than it may.

Two numbers, both in seconds:

* :data:`STATEMENT_SECONDS` — one database round trip (a statement, taking a connection from
  the pool, a ``COMMIT``) waits at most this long.  PostgreSQL: the pool's ``command_timeout``
  and each call's ``timeout``; SQLite: the busy timeout (how long a write waits for another
  process's lock).
* a **call's deadline**, set by :func:`within` around a whole piece of work (the host sets
  :data:`host.table.HOST_SECONDS` around every call, waiting for the match lock included).
  Inside it every statement gets ``min(STATEMENT_SECONDS, what is left)``, and the store's
  retries stop when the time is up.

The deadline lives in a :mod:`contextvars` variable, so it follows the asyncio task (and the
tasks it starts) without being passed through every signature.  Pure: no I/O.
"""
from __future__ import annotations

import contextvars
import time
from contextlib import contextmanager
from typing import Iterator

STATEMENT_SECONDS = 5.0
# never hand a driver a timeout this small or smaller: the time is up, say so instead
MIN_SECONDS = 0.01

_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar("db_deadline", default=None)


def clock() -> float:
    return time.monotonic()


@contextmanager
def within(seconds: float) -> Iterator[float]:
    """Everything inside must be done within ``seconds`` (or the enclosing deadline, if that
    is sooner).  Yields the absolute deadline (:func:`clock` time)."""
    outer = _deadline.get()
    mine = clock() + max(0.0, float(seconds))
    at = mine if outer is None else min(outer, mine)
    token = _deadline.set(at)
    try:
        yield at
    finally:
        _deadline.reset(token)


def remaining() -> float | None:
    """Seconds left before the current deadline (may be ≤ 0), or None without one."""
    at = _deadline.get()
    return None if at is None else at - clock()


def expired() -> bool:
    left = remaining()
    return left is not None and left <= MIN_SECONDS


def statement_timeout(limit: float = STATEMENT_SECONDS) -> float:
    """How long the next round trip may wait: ``limit``, or less when the deadline is nearer
    (never less than :data:`MIN_SECONDS`; check :func:`expired` first)."""
    left = remaining()
    if left is None:
        return limit
    return max(MIN_SECONDS, min(limit, left))
