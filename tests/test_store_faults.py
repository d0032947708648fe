"""Issue 31: a database hiccup must never cost a match — on both store backends (``backend``).

Here the faults are made inside the process (a driver call that fails as a lost connection or a
timeout would, a commit whose answer is lost), so each case runs on SQLite and PostgreSQL alike.
The faults made to the database itself (a locked table under a statement timeout, connections
terminated mid-load, a stopped or frozen server, a full disk, a locked file) are in
tests/test_db_outages.py.  Every test checks the issue's promises: no acknowledged command lost,
no healthy match quarantined, no call blocked past its deadline, play resuming on the same host,
and nobody told "nothing changed" about a move that was played.
"""
from __future__ import annotations

import asyncio
import time
from contextlib import asynccontextmanager
from dataclasses import replace

import pytest

from data.store import ACTIVE, QUARANTINED, TransientStoreError
from host import Host, resilient
from rules import registry

from discord_fakes import Clock

ALICE, BOB = 101, 202
MOVES = [(ALICE, "place L1 a1"), (BOB, "place X1 e5"), (ALICE, "leap a1 a3"), (BOB, "place X2 d5")]


@pytest.fixture
async def store(backend):
    return await backend.open()


@pytest.fixture
def host(store):
    return Host(store, now=Clock(), render=False)


async def start(host: Host, moves=MOVES[:1]) -> int:
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], options={"first": 0})
    assert res.ok, res.error
    assert (await host.accept(res.match.id, BOB)).ok
    for uid, cmd in moves:
        assert (await host.command(res.match.id, uid, cmd)).ok, cmd
    return res.match.id


def failing_driver(store, backend, times: int, kind: str = "connection"):
    """Patch the store's connection adapter so that its next ``times`` statements fail as the
    backend's driver fails on a lost connection (or a timeout), then work again."""
    left = [times]
    if backend.name == "sqlite":
        import sqlite3

        from data.sqlite_store import SqliteConn as adapter

        def error():
            e = sqlite3.OperationalError("database is locked" if kind != "full" else "database or disk is full")
            e.sqlite_errorname = "SQLITE_BUSY" if kind != "full" else "SQLITE_FULL"
            return e
    else:
        import asyncpg

        from data.postgres_store import PgConn as adapter

        def error():
            if kind == "timeout":
                return asyncpg.exceptions.QueryCanceledError("canceling statement due to statement timeout")
            return asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation")

    originals = {}
    for name in ("execute", "executemany", "fetchall", "fetchone", "fetchval", "insert"):
        original = getattr(adapter, name)
        originals[name] = original

        def make(original):
            async def patched(self, *args, **kw):
                if left[0] > 0:
                    left[0] -= 1
                    raise error()
                return await original(self, *args, **kw)
            return patched

        setattr(adapter, name, make(original))

    def undo():
        for name, original in originals.items():
            setattr(adapter, name, original)

    return left, undo


@pytest.fixture
def no_pauses(monkeypatch):
    """The store's pauses between tries at 0 for a test about what a failure does, not about
    when the next try comes (tests/test_resilience.py): a call that fails every try waited 0.75 s."""
    from data import resilience

    monkeypatch.setattr(resilience, "PAUSES", (0.0, 0.0, 0.0))


async def test_a_read_that_times_out_is_retried_and_quarantines_nothing(host, store, backend, no_pauses):
    """"Only proof that the stored data is wrong … quarantines; a timeout, a lost connection …
    is a transient StoreError that the store retries a bounded number of times"."""
    mid = await start(host)
    host._states.clear()
    host._verified.discard(mid)          # the next load replays the whole log (and reads it)
    left, undo = failing_driver(store, backend, 2, kind="timeout")
    try:
        res = await host.status(mid)
    finally:
        undo()
    assert left[0] == 0 and res.ok, res.error
    assert await store.quarantined() == []


async def test_a_lost_connection_between_the_row_and_its_log_quarantines_nothing(host, store, backend, no_pauses):
    """The issue's reproduction (2): connections lost between reading a match's row and
    reading its log, for a match this process has not replayed yet — it was quarantined with
    "replay failed: StoreError: … ConnectionDoesNotExistError"."""
    mid = await start(host, MOVES)
    fresh = Host(store, now=Clock(), render=False)   # another process: nothing verified yet
    real = store.commands
    calls = []

    async def commands_after_a_failover(match_id):
        calls.append(match_id)
        if len(calls) == 1:
            left, undo = failing_driver(store, backend, 100)   # every attempt fails …
            try:
                return await real(match_id)
            finally:
                undo()
        return await real(match_id)

    store.commands = commands_after_a_failover
    try:
        res = await fresh.status(mid)
        assert not res.ok and res.error.key == "host.err.transient"     # … so: try again
        assert await store.quarantined() == []
        assert (await store.get_match(mid)).status == ACTIVE
        res = await fresh.status(mid)
        assert res.ok, res.error                                          # and now it works
    finally:
        del store.commands
    assert (await fresh.command(mid, ALICE, "place L2 b1")).ok


async def test_a_write_that_fails_is_answered_try_again_and_changes_nothing(host, store, backend, no_pauses):
    """"… the host answers with a clear, localized "try again in a moment — nothing was
    changed""" + '"' + """ — and it is true: the move is not in the log; played again, it plays."""
    mid = await start(host)
    before = await store.get_match(mid)
    left, undo = failing_driver(store, backend, 1000, kind="full")
    try:
        res = await host.command(mid, BOB, "place X1 e5")
    finally:
        undo()
    assert not res.ok and res.error.key == "host.err.transient"
    from data import i18n
    for lang in ("en", "ja"):
        text = i18n.t(res.error.key, lang, **res.error.params)
        assert text and "{" not in text
    assert "nothing was changed" in i18n.t(res.error.key, "en")
    after = await store.get_match(mid)
    assert (after.n_commands, after.version) == (before.n_commands, before.version)
    assert len(await store.commands(mid)) == before.n_commands
    assert await store.quarantined() == []
    res = await host.command(mid, BOB, "place X1 e5")     # the same host plays on
    assert res.ok and res.match.n_commands == before.n_commands + 1


@asynccontextmanager
async def commit_answer_lost(store, backend, committed: bool):
    """The next write's COMMIT is carried out (``committed``) or not, and either way its answer
    never reaches the store: :class:`data.store.OutcomeUnknown`, as a connection lost or timed
    out around COMMIT gives."""
    from data.store import OutcomeUnknown

    real = store._write
    used = []

    @asynccontextmanager
    async def write():
        if used:
            async with real() as c:
                yield c
            return
        used.append(1)
        if committed:
            async with real() as c:
                yield c
        else:
            class Rollback(Exception):
                pass
            try:
                async with real() as c:
                    yield c
                    raise Rollback
            except Rollback:
                pass
        raise OutcomeUnknown("COMMIT not confirmed (the connection was lost)")

    store._write = write
    try:
        yield used
    finally:
        del store._write


@pytest.mark.parametrize("committed", [True, False])
async def test_a_move_whose_commit_was_not_confirmed_is_read_back_before_the_player_is_told(
        host, store, backend, committed):
    """"A write whose outcome is unknown (a timeout or a lost connection around the commit) is
    re-read before the player is answered: a move is never acknowledged unless it is stored,
    never applied twice, and the player is told truthfully whether it was played.\""""
    mid = await start(host)
    before = await store.get_match(mid)
    async with commit_answer_lost(store, backend, committed) as used:
        res = await host.command(mid, BOB, "place X1 e5")
    assert used
    # committed: read back and acknowledged; not committed: known to be unwritten, so the
    # store wrote it again — either way it is played exactly once and the player is told so
    assert res.ok, res.error
    log = await store.commands(mid)
    assert [c.command for c in log] == ["place L1 a1", "place X1 e5"]
    assert (await store.get_match(mid)).n_commands == before.n_commands + 1
    assert await store.quarantined() == []


@pytest.mark.parametrize("committed", [True, False])
async def test_an_accept_whose_commit_was_not_confirmed_is_read_back(host, store, backend, committed):
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], options={"first": 0})
    mid = res.match.id
    async with commit_answer_lost(store, backend, committed):
        res = await host.accept(mid, BOB)
    rec = await store.get_match(mid)
    assert res.ok and rec.status == ACTIVE and rec.version == 2


@pytest.mark.parametrize("committed", [True, False])
async def test_a_new_match_and_a_league_whose_commit_was_not_confirmed_are_read_back(
        host, store, backend, committed):
    """The same read-back for a new match (found by its 128-bit seed: stored once, never twice)
    and for a league's version-checked write."""
    from data.store import LeagueRecord

    async with commit_answer_lost(store, backend, committed):
        res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], options={"first": 0})
    assert res.ok, res.error
    assert [r[0] for r in await backend.raw("SELECT id FROM matches")] == [res.match.id]
    assert (await store.get_match(res.match.id)).seed == res.match.seed

    league = await store.create_league(LeagueRecord(guild_id=7, status="signup", data={"name": "autumn"}))
    async with commit_answer_lost(store, backend, committed):
        written = await store.update_league(
            LeagueRecord(guild_id=7, status="running", data={"name": "autumn", "round": 1},
                         id=league.id, version=league.version), league.version)
    again = await store.get_league(league.id)
    assert written.version == again.version == 2
    assert (again.status, again.data) == ("running", {"name": "autumn", "round": 1})


async def test_a_write_the_database_never_confirms_is_not_called_unchanged(host, store, backend, monkeypatch):
    """When even reading it back fails, the player is told it may have been played — never
    "nothing was changed"."""
    from data.store import OutcomeUnknown

    mid = await start(host)

    async def never_settles(check, what):
        raise OutcomeUnknown("reading it back failed too")

    monkeypatch.setattr(store, "_settle", never_settles)
    async with commit_answer_lost(store, backend, True):
        res = await host.command(mid, BOB, "place X1 e5")
    assert not res.ok and res.error.key == "host.err.unconfirmed"
    from data import i18n
    en = i18n.t(res.error.key, "en", **res.error.params)
    assert "nothing was changed" not in en and "may or may not" in en and f"#{mid}" in en
    assert "何も変更されていません" not in i18n.t(res.error.key, "ja", **res.error.params)
    monkeypatch.undo()
    res = await host.status(mid)          # the truth, once the database answers
    assert res.ok and res.match.n_commands == 2


async def test_a_call_waiting_for_a_stuck_match_lock_answers_within_its_deadline(host, store, monkeypatch):
    """"… a host call, waiting for the match lock included, answers within 10 s" (here the
    deadline is shortened to 0.3 s to keep the test quick)."""
    monkeypatch.setattr(resilient, "HOST_SECONDS", 0.3)
    mid = await start(host)
    lock = host._lock(mid).lock
    await lock.acquire()                    # another call on this match, stuck on the database
    try:
        started = time.monotonic()
        res = await host.command(mid, BOB, "place X1 e5")
        took = time.monotonic() - started
    finally:
        lock.release()
    assert not res.ok and res.error.key == "host.err.transient"
    assert took < 0.3 + 0.25
    assert (await host.command(mid, BOB, "place X1 e5")).ok


async def test_a_store_call_that_hangs_is_cut_off_at_the_deadline(host, store, backend, monkeypatch):
    """No call blocks longer than its deadline, even when the database never answers: on
    PostgreSQL a statement that runs for 30 s, on SQLite a write lock another connection holds
    (the busy timeout shrinks to what is left of the call's deadline).  Here the deadline is
    0.5 s instead of 10 to keep the test quick."""
    import faults

    monkeypatch.setattr(resilient, "HOST_SECONDS", 0.5)
    mid = await start(host)
    if backend.name == "postgres":
        from data import deadline
        from data.postgres_store import PgConn

        async def hangs(self, sql, *args):
            return await self.conn.fetchrow("SELECT pg_sleep(30)", timeout=deadline.statement_timeout())

        monkeypatch.setattr(PgConn, "fetchone", hangs)
        started = time.monotonic()
        res = await host.status(mid)
        took = time.monotonic() - started
        monkeypatch.undo()
    else:
        with faults.sqlite_locked(backend.path):
            started = time.monotonic()
            res = await host.command(mid, BOB, "place X1 e5")
            took = time.monotonic() - started
    assert not res.ok and res.error.key == "host.err.transient" and took < 0.5 + 0.4
    assert (await host.status(mid)).ok and await store.quarantined() == []
    assert (await host.command(mid, BOB, "place X1 e5")).ok


# -- quarantines recorded before kinds were -----------------------------------------------------------

async def damage_log(backend, match_id: int) -> None:
    """Entry 3 of the log becomes a command no engine accepts (the log is append-only for the
    store: an admin's delete and insert)."""
    row = await backend.raw("SELECT seat, at FROM commands WHERE match_id = ? AND seq = 3", match_id)
    await backend.raw("DELETE FROM commands WHERE match_id = ? AND seq = 3", match_id)
    await backend.raw("INSERT INTO commands (match_id, seq, seat, command, at) VALUES (?, ?, ?, ?, ?)",
                      match_id, 3, row[0][0], "jump z9 z0", row[0][1])


async def quarantine_as_before(backend, match_id: int, reason: str) -> None:
    """A quarantine as the old code wrote it: no kind."""
    await backend.raw("UPDATE matches SET status = 'quarantined', version = version + 1 WHERE id = ?", match_id)
    await backend.raw("INSERT INTO quarantine (match_id, reason, prev_status, at) VALUES (?, ?, ?, ?)",
                      match_id, reason, ACTIVE, time.time())


async def test_a_match_quarantined_by_a_timeout_before_this_change_is_released_on_its_next_load(
        host, store, backend):
    """"A match quarantined by a transient error before this change is re-checked on its next
    load and released when it reads and replays cleanly.\""""
    mid = await start(host, MOVES)
    await quarantine_as_before(backend, mid, "unreadable (QueryCanceledError: canceling statement due "
                                             "to statement timeout)")
    other = await start(host)
    await quarantine_as_before(backend, other, "replay failed: IllegalCommand: no such piece")
    fresh = Host(store, now=Clock(), render=False)
    res = await fresh.status(mid)
    assert res.ok and res.match.status == ACTIVE and res.match.n_commands == len(MOVES)
    assert (await fresh.command(mid, ALICE, "place L2 b1")).ok
    # a quarantine for bad data stays
    assert (await fresh.status(other)).error.key == "host.err.quarantined"
    assert [q[0] for q in await store.quarantined()] == [other]


async def test_a_legacy_quarantine_whose_log_does_not_replay_stays_and_records_its_kind(host, store, backend):
    mid = await start(host, MOVES)
    await damage_log(backend, mid)
    await quarantine_as_before(backend, mid, "replay failed: StoreError: connection lost")
    fresh = Host(store, now=Clock(), render=False)
    res = await fresh.status(mid)
    assert not res.ok and res.error.key == "host.err.quarantined"
    assert (await store.quarantine_kinds())[mid] == "replay"     # not re-checked again and again


async def test_new_quarantines_record_their_kind(host, store, backend):
    mid = await start(host, MOVES)
    await backend.raw("UPDATE matches SET n_commands = n_commands + 1 WHERE id = ?", mid)
    assert (await host.status(mid)).error.key == "host.err.quarantined"
    bad_game = await start(host)
    await backend.raw("UPDATE matches SET game = 'chess' WHERE id = ?", bad_game)
    assert (await host.status(bad_game)).error.key == "host.err.quarantined"
    assert await store.quarantine_kinds() == {mid: "log", bad_game: "game"}


async def test_the_operator_recheck_releases_what_reads_and_replays_and_keeps_the_rest(
        host, store, backend, monkeypatch, capsys):
    """"An operator command re-checks and releases quarantined matches" (``python bot.py
    --recheck-quarantine``)."""
    import bot

    good = await start(host, MOVES)
    await host.store.quarantine(good, "replay failed: looked wrong to an admin", kind="replay")
    bad = await start(host, MOVES)
    await damage_log(backend, bad)
    await host.store.quarantine(bad, "replay failed: IllegalCommand", kind="replay")
    monkeypatch.setenv("DATABASE_URL", backend.url)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    code = await asyncio.to_thread(bot.main, ["--recheck-quarantine"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"match {good}: released" in out and f"match {bad}: still quarantined" in out
    assert "1 of 2 quarantined matches released." in out
    assert [q[0] for q in await store.quarantined()] == [bad]
    assert (await store.get_match(good)).status == ACTIVE
    rows = await backend.raw("SELECT status FROM matches WHERE id = ?", bad)
    assert rows == [(QUARANTINED,)]
    assert registry.get("squares") is not None


async def test_the_computer_tries_its_move_again_when_the_database_fails_for_a_moment(monkeypatch):
    """A practice match must not stall because the database failed once: the computer's move
    is tried again after a pause (cogs/practice.py) instead of being dropped."""
    from types import SimpleNamespace

    from cogs import practice
    from host.types import Result

    monkeypatch.setattr(practice, "THINK_S", 0)
    monkeypatch.setattr(practice, "RETRY_S", (0, 0, 0))
    answers = [TransientStoreError("down", kind="connection"), Result.fail("host.err.transient"),
               Result(ok=True)]
    published = []

    class FakeHost:
        async def ai_to_act(self, match_id):
            return bool(answers)

        async def ai_move(self, match_id):
            answer = answers.pop(0)
            if isinstance(answer, Exception):
                raise answer
            return answer

    cog = practice.Practice(SimpleNamespace(host=FakeHost(), get_cog=lambda name: SimpleNamespace(
        publish=lambda result, actor=None: _note(published, result)), user=None))
    await cog._turn(5)
    assert answers == [] and len(published) == 1 and published[0].ok


async def _note(into: list, item) -> None:
    into.append(item)


async def test_the_clock_lists_only_matches_with_something_due(host, store, backend):
    """The clock's listing is chosen by the database (``matches_due(now=…, lead=…)``): of many
    matches on long turn clocks, only those whose deadline passed or whose reminder time came
    are read — the same ones the clock would act on (host/clock.py) — so a tick over 100,000
    stored matches does not decode them all every 30 s."""
    from host.clock import REMIND_CAP, REMIND_SHARE

    clock = host.now
    ids = {}
    for turn in (3600, 3600, 7 * 24 * 3600, 600):
        res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], options={"first": 0},
                                   turn_seconds=turn)
        assert (await host.accept(res.match.id, BOB)).ok
        ids.setdefault(turn, []).append(res.match.id)
    hour_a, hour_b = ids[3600]
    week, ten_min = ids[7 * 24 * 3600][0], ids[600][0]
    await backend.raw("UPDATE matches SET deadline = ? WHERE id = ?", clock.t + 3000, hour_a)  # reminder in 6 min
    await backend.raw("UPDATE matches SET deadline = ? WHERE id = ?", clock.t + 600, hour_b)   # reminder due
    await backend.raw("UPDATE matches SET deadline = ? WHERE id = ?", clock.t + 11 * 3600, week)  # 12 h lead: due
    await backend.raw("UPDATE matches SET deadline = ? WHERE id = ?", clock.t - 5, ten_min)    # expired

    def listed(recs):
        return sorted(r.id for r in recs)

    now = clock.t
    due = await store.matches_due(now + REMIND_CAP, now - 86400, now=now, lead=(REMIND_SHARE, REMIND_CAP))
    assert listed(due) == sorted([hour_b, week, ten_min])
    everything = await store.matches_due(now + REMIND_CAP, now - 86400)
    assert listed(everything) == sorted([hour_a, hour_b, week, ten_min])
    # a reminder already sent is not due again; the expired match stays listed (the clock decides)
    await backend.raw("UPDATE matches SET reminded = ? WHERE id = ?", True if backend.name == "postgres" else 1, hour_b)
    due = await store.matches_due(now + REMIND_CAP, now - 86400, now=now, lead=(REMIND_SHARE, REMIND_CAP))
    assert listed(due) == sorted([week, ten_min])
    events = await host.tick()
    assert sorted((e.match.id, e.data.get("clock")) for e in events) == sorted(
        [(week, "reminder"), (ten_min, "expired")])
    # a time-out announced is not listed again: it waits for a claim (or the late player's move)
    due = await store.matches_due(now + REMIND_CAP, now - 86400, now=now, lead=(REMIND_SHARE, REMIND_CAP))
    assert listed(due) == [] and (await store.get_match(ten_min)).meta["expired"] is True
    assert listed(await store.matches_due(now + REMIND_CAP, now - 86400)) == sorted([hour_a, hour_b, week, ten_min])
    # a player whose name spells the flag does not hide a match from the clock (a string value
    # holds its quotes escaped in the JSON)
    rec = await store.get_match(hour_a)
    await store.update_match(replace(rec, names=['"expired":true', "Bob"],
                                     meta={**rec.meta, "note": '"expired":true'}), rec.version)
    await backend.raw("UPDATE matches SET deadline = ? WHERE id = ?", clock.t - 1, hour_a)
    due = await store.matches_due(now + REMIND_CAP, now - 86400, now=now, lead=(REMIND_SHARE, REMIND_CAP))
    assert listed(due) == [hour_a]
