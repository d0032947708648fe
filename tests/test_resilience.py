"""The pure parts of living with a failing database (issue 31): deadlines (data/deadline.py), the
store's retries and its once-only log (data/resilience.py), the lock wait that never leaks a lock,
and which driver errors are transient (each backend's ``_transient_kind``)."""
from __future__ import annotations

import asyncio
import logging
import sqlite3

import asyncpg
import pytest

from data import deadline
from data.postgres_store import PostgresStore
from data.resilience import ATTEMPTS, ErrorNotes, acquire_within, retried
from data.sqlite_store import SqliteStore
from data.store import (
    MatchRecord, OutcomeUnknown, StoreError, TransientStoreError, VersionConflict, looks_transient,
)


# -- deadlines -------------------------------------------------------------------------------------

def test_a_statement_waits_at_most_five_seconds_or_what_is_left_of_the_call():
    """"Every database call has a deadline: each statement at most 5 s … and a host call …
    answers within 10 s" — inside a call, a statement gets min(5 s, what is left)."""
    assert deadline.remaining() is None and deadline.statement_timeout() == 5.0
    with deadline.within(10):
        assert 4.9 < deadline.statement_timeout() <= 5.0
        with deadline.within(2):           # a nearer deadline wins …
            assert 1.9 < deadline.statement_timeout() <= 2.0
            with deadline.within(30):      # … and a farther one never extends it
                assert deadline.remaining() <= 2.0
        assert deadline.remaining() > 9
    assert deadline.remaining() is None
    with deadline.within(0):
        assert deadline.expired() and deadline.statement_timeout() == deadline.MIN_SECONDS


# -- retries ---------------------------------------------------------------------------------------

class Flaky:
    """A fake store: its ``call`` fails with ``errors`` in turn, then answers."""

    def __init__(self, *errors: BaseException) -> None:
        self.errors = list(errors)
        self.calls = 0
        self.notes = ErrorNotes()

    @retried
    async def call(self, match_id: int) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "ok"


async def test_a_transient_failure_is_tried_again_and_logged_once_per_match_and_kind(caplog):
    """"… a transient StoreError that the store retries a bounded number of times …"; "log
    each failing match and kind once, not once per retry"."""
    store = Flaky(*(TransientStoreError("lost", kind="connection") for _ in range(ATTEMPTS - 1)))
    seen: list[str] = []
    store.notes.listeners.append(seen.append)
    with caplog.at_level(logging.INFO, logger="data.store"):
        assert await store.call(7) == "ok"
    assert store.calls == ATTEMPTS
    assert seen == ["connection"] * (ATTEMPTS - 1)          # each failed attempt counted
    failing = [r for r in caplog.records if "database connection (match 7)" in r.getMessage()]
    assert len(failing) == 1                                # … and logged once
    assert any("answers again" in r.getMessage() for r in caplog.records)


async def test_retries_are_bounded_and_stop_at_the_deadline():
    store = Flaky(*(TransientStoreError("lost", kind="connection") for _ in range(10)))
    with pytest.raises(TransientStoreError):
        await store.call(1)
    assert store.calls == ATTEMPTS
    store = Flaky(*(TransientStoreError("slow", kind="timeout") for _ in range(10)))
    with deadline.within(0.1):        # the pauses between attempts never outlast the deadline
        with pytest.raises(TransientStoreError):
            await store.call(1)
    assert store.calls < ATTEMPTS


async def test_data_errors_conflicts_and_unknown_outcomes_are_never_retried_blindly():
    for err in (StoreError("syntax"), VersionConflict("moved"), OutcomeUnknown("commit lost")):
        store = Flaky(err)
        with pytest.raises(type(err)):
            await store.call(1)
        assert store.calls == 1
    # an idempotent write (an upsert) is simply written again after an unknown outcome
    store = Flaky(OutcomeUnknown("commit lost"))
    store.call = retried(Flaky.call.__wrapped__, idempotent=True).__get__(store)
    assert await store.call(1) == "ok" and store.calls == 2


async def test_waiting_for_a_lock_gives_up_at_the_deadline_and_never_leaks_it():
    lock = asyncio.Lock()
    await lock.acquire()
    assert await acquire_within(lock, 0.05) is False
    assert lock.locked()
    lock.release()
    assert not lock.locked()                   # the abandoned wait did not take it
    assert await acquire_within(lock, 0.05) is True and lock.locked()
    lock.release()

    await lock.acquire()                       # cancelled while waiting: not left holding it
    task = asyncio.ensure_future(acquire_within(lock, 5))
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    lock.release()
    assert not lock.locked()


# -- which driver errors are transient --------------------------------------------------------------

def _sqlite_error(message: str, name: str | None) -> sqlite3.OperationalError:
    e = sqlite3.OperationalError(message)
    if name is not None:
        e.sqlite_errorname = name
    return e


@pytest.mark.parametrize("error, kind", [
    (_sqlite_error("database is locked", "SQLITE_BUSY"), "locked"),
    (_sqlite_error("database table is locked", "SQLITE_LOCKED"), "locked"),
    (_sqlite_error("database or disk is full", "SQLITE_FULL"), "full"),
    (_sqlite_error("database or disk is full", None), "full"),
    (_sqlite_error("disk I/O error", "SQLITE_IOERR_WRITE"), "io"),
    (_sqlite_error("Could not decode to UTF-8 column 'names' with text 'x'", None), None),
    (sqlite3.IntegrityError("UNIQUE constraint failed"), None),
    (TimeoutError(), "timeout"),
])
def test_sqlite_tells_a_broken_connection_from_a_broken_row(error, kind):
    """"Only proof that the stored data is wrong … quarantines; a timeout, a lost connection, a
    server starting up or a full disk is a transient StoreError"."""
    store = SqliteStore(":memory:")
    assert store._transient_kind(error) == kind
    translated = store._translate(error)
    assert isinstance(translated, StoreError) and translated.transient is (kind is not None)


@pytest.mark.parametrize("error, kind", [
    (asyncpg.exceptions.QueryCanceledError("canceling statement due to statement timeout"), "timeout"),
    (asyncpg.exceptions.CannotConnectNowError("the database system is starting up"), "starting"),
    (asyncpg.exceptions.AdminShutdownError("terminating connection due to administrator command"),
     "connection"),
    (asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
     "connection"),
    (asyncpg.exceptions.DiskFullError("could not extend file"), "full"),
    (asyncpg.exceptions.TooManyConnectionsError("sorry, too many clients already"), "busy"),
    (asyncpg.exceptions.DeadlockDetectedError("deadlock detected"), "locked"),
    (asyncpg.InterfaceError("connection is closed"), "connection"),
    (ConnectionRefusedError(), "connection"),
    (asyncio.TimeoutError(), "timeout"),
    (asyncpg.exceptions.UntranslatableCharacterError("bad text"), None),
    (asyncpg.exceptions.UndefinedColumnError("no such column"), None),
])
def test_postgres_tells_a_broken_connection_from_a_broken_row(error, kind):
    store = PostgresStore("postgresql://u:secret@/db?host=/nowhere")
    assert store._transient_kind(error) == kind
    translated = store._translate(error)
    assert isinstance(translated, StoreError) and translated.transient is (kind is not None)
    assert "secret" not in str(translated)


def test_old_quarantine_reasons_that_name_a_failing_connection_are_recognised():
    """"a match quarantined by a transient error before this change is re-checked on its next
    load" — the reasons the old code wrote for the issue's two reproductions."""
    assert looks_transient("unreadable (QueryCanceledError: canceling statement due to statement timeout)")
    assert looks_transient("replay failed: StoreError: PostgreSQL database 'x' on /tmp: "
                           "ConnectionDoesNotExistError: connection was closed in the middle of operation")
    assert looks_transient("unreadable (OperationalError: database is locked)")
    assert not looks_transient("n_commands: 3, but the command log's last entry is 2")
    assert not looks_transient("replay failed: IllegalCommand: no such card c99")
    assert not looks_transient("seats: expected a JSON list")
    assert not looks_transient(None)


def test_a_record_or_an_id_names_the_match_of_a_call():
    from data.resilience import match_key
    assert match_key((12,)) == 12
    assert match_key((MatchRecord(game="squares", seed=1, seats=[1, 2], names=["a", "b"], creator=1, id=5),)) == 5
    assert match_key(("12",)) is None and match_key(()) is None
