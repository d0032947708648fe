"""The store, on both backends (``backend``: SQLite and PostgreSQL, see conftest): round trips,
optimistic concurrency, durability, quarantine, listings.  Tests that look at the SQLite file
itself (pragmas, migrations) are SQLite-only; the PostgreSQL-only ones are in test_postgres_store.py."""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from data import migrate
from data.sqlite_store import SqliteStore
from data.store import (
    ABORTED,
    ACTIVE,
    DECLINED,
    FINISHED,
    OPEN,
    PENDING,
    QUARANTINED,
    CommandRecord,
    CorruptRow,
    MatchRecord,
    ResultRow,
    StoreError,
    VersionConflict,
    open_store,
)

ALICE, BOB, CAROL, DAVE = 1001, 1002, 1003, 1004
SNOWFLAKE = 1_234_567_890_123_456_789  # Discord ids are this big


def make(**kw) -> MatchRecord:
    base = dict(game="squares", seed=42, seats=[ALICE, BOB], names=["Alice", "Bob"],
                creator=ALICE, status=ACTIVE, guild_id=10, channel_id=20)
    base.update(kw)
    return MatchRecord(**base)


def bump(rec: MatchRecord) -> MatchRecord:
    """The record as the host would write it with one more command."""
    return replace(rec, n_commands=rec.n_commands + 1)


@pytest.fixture
async def store(backend):
    """A store on a fresh database of each backend (closed by ``backend``)."""
    return await backend.open()


@pytest.fixture
async def sqlite_store(tmp_path):
    s = SqliteStore(tmp_path / "store.db")
    await s.open()
    yield s
    await s.close()


def raw(path: Path) -> sqlite3.Connection:
    """A second, plain connection to the file (as an admin or another process would have)."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=10)
    return conn


# -- connection settings ------------------------------------------------------------------------

async def test_pragmas(sqlite_store):
    db = sqlite_store._db
    assert (await db.execute_fetchall("PRAGMA journal_mode"))[0][0] == "wal"
    assert (await db.execute_fetchall("PRAGMA synchronous"))[0][0] == 2  # FULL
    assert (await db.execute_fetchall("PRAGMA foreign_keys"))[0][0] == 1
    assert (await db.execute_fetchall("PRAGMA busy_timeout"))[0][0] >= 1000


async def test_the_log_is_checkpointed_by_its_own_task_not_by_a_commit(tmp_path, monkeypatch):
    """A commit never copies the write-ahead log back itself (``wal_autocheckpoint = 0``: the
    command whose commit filled the log would wait for the disk): the store's own task does, on
    a connection of its own — so the log stays small however much is written."""
    import data.sqlite_store as sqlite_module

    monkeypatch.setattr(sqlite_module, "CHECKPOINT_SECONDS", 0.02)
    s = SqliteStore(tmp_path / "ckpt.db")
    await s.open()
    try:
        assert (await s._db.execute_fetchall("PRAGMA wal_autocheckpoint"))[0][0] == 0
        wal = tmp_path / "ckpt.db-wal"
        written, biggest = 0, 0
        for i in range(30):
            rec = await s.create_match(MatchRecord(game="squares", seed=i, seats=[1, 2], names=["a", "b"],
                                                   creator=1, meta={"pad": "x" * 100_000}))
            written += 100_000
            await asyncio.sleep(0.06)
            biggest = max(biggest, wal.stat().st_size)
        assert written >= 3_000_000 and biggest < 1_000_000, (written, biggest)
        assert (await s.get_match(rec.id)).meta["pad"] == "x" * 100_000
    finally:
        await s.close()
    assert s._checkpointer is None


# -- matches ------------------------------------------------------------------------------------

async def test_create_get_round_trip_every_field(store):
    rec = MatchRecord(
        game="battle_logic_square", seed=2 ** 62 + 7, seats=[SNOWFLAKE, None, CAROL],
        names=["あかり", "", "Carol"], creator=SNOWFLAKE, options={"size": 5, "variant": "x",
                                                                 "nested": {"a": [1, 2.5, None]}},
        status=OPEN, id=None, version=0, guild_id=SNOWFLAKE - 1, channel_id=SNOWFLAKE - 2,
        turn_seconds=3600, deadline=1_700_000_123.25, reminded=True, accepted=[CAROL],
        abort_votes=[SNOWFLAKE], spectators=[DAVE, BOB],
        result={"winners": [0], "reason": "resign", "score": [3, 1]},
        snapshot='{"state": "…"}', snapshot_seq=0, n_commands=0, rematch_of=None,
        meta={"lang": "ja", "flags": [True, False]}, created_at=1_700_000_000.5,
        updated_at=1_700_000_001.5)
    created = await store.create_match(rec)
    assert created.id is not None and created.version == 1
    assert rec.id is None and rec.version == 0  # the caller's object is untouched
    got = await store.get_match(created.id)
    assert got == created
    expected = replace(rec, id=created.id, version=1)
    for f in dataclasses.fields(MatchRecord):
        assert getattr(got, f.name) == getattr(expected, f.name), f.name
        assert type(getattr(got, f.name)) is type(getattr(expected, f.name)), f.name

    # a rematch pointing at it, and defaults
    other = await store.create_match(make(rematch_of=created.id, result=None))
    got2 = await store.get_match(other.id)
    assert got2.rematch_of == created.id and got2.result is None and got2.snapshot is None
    assert got2.deadline is None and got2.turn_seconds is None and got2.reminded is False
    assert other.id != created.id


async def test_get_missing_is_none(store):
    assert await store.get_match(12345) is None


async def test_returned_records_are_copies(store):
    rec = make(options={"a": [1]})
    created = await store.create_match(rec)
    assert created is not rec
    created.seats.append(999)
    created.options["a"].append(2)
    assert rec.seats == [ALICE, BOB] and rec.options == {"a": [1]}
    got = await store.get_match(created.id)
    assert got.seats == [ALICE, BOB] and got.options == {"a": [1]}
    again = await store.get_match(created.id)
    assert again is not got and again.seats is not got.seats


async def test_update_bumps_version(store):
    created = await store.create_match(make())
    changed = replace(created, status=FINISHED, deadline=123.0, meta={"x": 1},
                      seats=[ALICE, CAROL], names=["Alice", "Carol"], updated_at=5.0)
    updated = await store.update_match(changed, expected_version=1)
    assert updated.version == 2 and updated is not changed
    assert changed.version == 1  # the caller's object is untouched
    assert updated.updated_at == 5.0  # timestamps are the caller's (the host owns the clock)
    got = await store.get_match(created.id)
    assert got == updated
    assert got.status == FINISHED and got.seats == [ALICE, CAROL] and got.meta == {"x": 1}
    again = await store.update_match(replace(got, reminded=True), expected_version=2)
    assert again.version == 3 and (await store.get_match(created.id)).reminded is True


async def test_stale_version_raises_and_changes_nothing(store):
    created = await store.create_match(make())
    await store.update_match(replace(created, meta={"first": True}), 1)
    before = await store.get_match(created.id)
    with pytest.raises(VersionConflict):
        await store.update_match(replace(created, meta={"stale": True}, status=ABORTED), 1)
    with pytest.raises(VersionConflict):
        await store.append_command(bump(created), 1, 0, "stale")
    assert await store.get_match(created.id) == before
    assert await store.commands(created.id) == []
    with pytest.raises(VersionConflict):  # absent row: nothing to write
        await store.update_match(replace(created, id=999_999), 1)


async def test_bad_records_raise_value_error_and_write_nothing(store):
    with pytest.raises(ValueError):
        await store.create_match(make(options={"f": object()}))
    with pytest.raises(ValueError):
        await store.create_match(make(seats=[ALICE, "bob"]))
    with pytest.raises(ValueError):   # a legacy (prng 1) seed lives in a 64-bit column
        await store.create_match(make(seed=2 ** 64, prng=1))
    with pytest.raises(ValueError):   # a keyed-stream seed is 128 bits, never 300
        await store.create_match(make(seed=2 ** 300))
    with pytest.raises(ValueError):
        await store.create_match(make(prng=3))
    with pytest.raises(ValueError):
        await store.create_match(make(meta={"x": float("nan")}))
    assert await store.unfinished_matches() == []
    created = await store.create_match(make())
    with pytest.raises(ValueError):
        await store.update_match(replace(created, names=[1, 2]), 1)
    with pytest.raises(ValueError):
        await store.update_match(replace(created, id=None), 1)
    assert (await store.get_match(created.id)).version == 1


async def test_commands_in_order(store):
    rec = await store.create_match(make())
    moves = [(0, "a1"), (1, "b2"), (0, "c3 x"), (1, "resign")]
    for seat, cmd in moves:
        rec = await store.append_command(bump(rec), rec.version, seat, cmd)
    assert rec.version == 1 + len(moves) and rec.n_commands == len(moves)
    log = await store.commands(rec.id)
    assert [(c.seq, c.seat, c.command) for c in log] == [
        (i + 1, s, c) for i, (s, c) in enumerate(moves)]
    assert all(isinstance(c, CommandRecord) and c.match_id == rec.id for c in log)
    assert [c.at for c in log] == sorted(c.at for c in log)
    assert await store.get_match(rec.id) == rec
    assert await store.commands(999) == []


async def test_append_with_wrong_n_commands_writes_nothing(store):
    rec = await store.create_match(make())
    with pytest.raises(ValueError):
        await store.append_command(rec, 1, 0, "forgot to count it")  # n_commands still 0
    with pytest.raises(ValueError):
        await store.append_command(replace(rec, n_commands=2), 1, 0, "skipped one")
    assert await store.get_match(rec.id) == rec
    assert await store.commands(rec.id) == []


async def test_command_log_is_append_only(store, backend):
    rec = await store.create_match(make())
    await store.append_command(bump(rec), 1, 0, "a1")
    with pytest.raises(Exception, match="append-only"):
        await backend.raw("UPDATE commands SET command = 'b2'")
    assert [c.command for c in await store.commands(rec.id)] == ["a1"]


async def test_concurrent_appends_one_instance(store):
    rec = await store.create_match(make())
    for _ in range(5):
        outcomes = await asyncio.gather(
            store.append_command(bump(rec), rec.version, 0, "from A"),
            store.append_command(bump(rec), rec.version, 1, "from B"),
            return_exceptions=True)
        ok = [o for o in outcomes if isinstance(o, MatchRecord)]
        lost = [o for o in outcomes if isinstance(o, VersionConflict)]
        assert len(ok) == 1 and len(lost) == 1, outcomes
        rec = ok[0]
    log = await store.commands(rec.id)
    assert [c.seq for c in log] == [1, 2, 3, 4, 5]
    assert (await store.get_match(rec.id)).version == 6


async def test_concurrent_appends_two_processes(backend):
    a, b = await backend.open(), await backend.open()
    try:
        rec = await a.create_match(make())
        assert await b.get_match(rec.id) == rec
        for _ in range(10):
            outcomes = await asyncio.gather(
                a.append_command(bump(rec), rec.version, 0, "from A"),
                b.append_command(bump(rec), rec.version, 1, "from B"),
                return_exceptions=True)
            ok = [o for o in outcomes if isinstance(o, MatchRecord)]
            lost = [o for o in outcomes if isinstance(o, VersionConflict)]
            assert len(ok) == 1 and len(lost) == 1, outcomes
            rec = ok[0]
        for s in (a, b):
            assert [c.seq for c in await s.commands(rec.id)] == list(range(1, 11))
            assert (await s.get_match(rec.id)).version == 11
    finally:
        await a.close()
        await b.close()


async def test_update_race_two_processes(backend):
    a, b = await backend.open(), await backend.open()
    try:
        rec = await a.create_match(make())
        outcomes = await asyncio.gather(
            a.update_match(replace(rec, meta={"by": "a"}), 1),
            b.update_match(replace(rec, meta={"by": "b"}), 1), return_exceptions=True)
        winners = [o for o in outcomes if isinstance(o, MatchRecord)]
        assert len(winners) == 1 and sum(isinstance(o, VersionConflict) for o in outcomes) == 1
        assert (await b.get_match(rec.id)).meta == winners[0].meta
    finally:
        await a.close()
        await b.close()


# -- durability ---------------------------------------------------------------------------------

async def test_close_and_reopen_keeps_everything(backend):
    s = await backend.open()
    active = await s.create_match(make())
    active = await s.append_command(bump(active), 1, 0, "a1")
    active = await s.append_command(bump(active), 2, 1, "b2")
    pending = await s.create_match(make(status=PENDING, seats=[ALICE, CAROL]))
    opened = await s.create_match(make(status=OPEN, seats=[ALICE, None], names=["Alice", ""]))
    done = await s.create_match(make(status=ACTIVE))
    done = await s.update_match(replace(done, status=FINISHED,
                                        result={"winners": [1], "reason": "resign"}), 1)
    await s.create_match(make(status=ABORTED))
    await s.create_match(make(status=DECLINED))
    await s.set_ref(active.id, "board_message", "555")
    await s.set_guild_setting(10, "locale", "ja")
    await s.close()

    s2 = await backend.open()
    try:
        unfinished = await s2.unfinished_matches()
        assert {m.id for m in unfinished} == {active.id, pending.id, opened.id}
        assert {m.id: m for m in unfinished}[active.id] == active
        assert [c.command for c in await s2.commands(active.id)] == ["a1", "b2"]
        assert await s2.get_match(done.id) == done
        assert await s2.get_refs(active.id) == {"board_message": "555"}
        assert await s2.get_guild_settings(10) == {"locale": "ja"}
        assert [r.outcome for r in await s2.results_for_user(BOB)] == ["win"]
        # the store keeps going after a restart
        again = await s2.append_command(bump(active), active.version, 0, "c3")
        assert again.n_commands == 3
    finally:
        await s2.close()


async def test_committed_command_visible_to_another_connection(store, backend):
    """When append_command returns, the command is committed: a fresh connection sees it."""
    rec = await store.create_match(make())
    await store.append_command(bump(rec), 1, 0, "a1")
    assert await backend.raw("SELECT command FROM commands") == [("a1",)]


# -- migrations ---------------------------------------------------------------------------------

def _versions(path: Path) -> list[int]:
    conn = raw(path)
    try:
        return [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    finally:
        conn.close()


async def test_fresh_database_gets_latest_schema(tmp_path):
    latest = migrate.latest_version()
    assert latest >= 1
    path = tmp_path / "fresh.db"
    async with SqliteStore(path) as s:
        assert await s.schema_version() == latest
    assert _versions(path) == list(range(1, latest + 1))
    # reopening is a no-op
    async with SqliteStore(path) as s:
        assert await s.schema_version() == latest
        assert await migrate.apply_migrations(s._db) == []
    assert _versions(path) == list(range(1, latest + 1))


def test_migration_files_are_well_formed():
    migs = migrate.load_migrations()
    assert [m.version for m in migs] == list(range(1, len(migs) + 1))
    for m in migs:
        assert m.statements(), m.name
        for stmt in m.statements():
            assert sqlite3.complete_statement(stmt + ";" if not stmt.endswith(";") else stmt)
            assert "BEGIN TRANSACTION" not in stmt.upper() and not stmt.upper().startswith(
                ("COMMIT", "PRAGMA"))


def _copy_migrations(dest: Path, upto: int) -> Path:
    dest.mkdir()
    for m in migrate.load_migrations()[:upto]:
        (dest / m.name).write_text(m.sql, encoding="utf-8")
    return dest


async def test_old_database_is_upgraded(tmp_path):
    latest = migrate.latest_version()
    old_dir = _copy_migrations(tmp_path / "old", 1)
    path = tmp_path / "old.db"
    async with SqliteStore(path, migrations=migrate.load_migrations(old_dir)) as s:
        assert await s.schema_version() == 1
    # a match as the code of schema 1 wrote it (today's code writes columns it lacks)
    conn = raw(path)
    conn.execute("INSERT INTO matches (game, status, version, creator, seed, seats, names, "
                 "n_commands, created_at, updated_at) VALUES ('squares', 'active', 2, ?, 42, ?, "
                 "'[\"Alice\",\"Bob\"]', 1, 0, 0)", (ALICE, f"[{ALICE}, {BOB}]"))
    conn.execute("INSERT INTO commands (match_id, seq, seat, command, at) VALUES (1, 1, 0, 'a1', 0)")
    conn.close()
    rec = make(id=1)

    # the shipped migrations bring it to the latest version, keeping the data; the match keeps
    # the random stream it was dealt with (prng 1, its seed in the 64-bit column)
    async with SqliteStore(path) as s:
        assert await s.schema_version() == latest
        got = await s.get_match(rec.id)
        assert (got.n_commands, got.seed, got.prng) == (1, 42, 1)

    # a later migration (simulated) is applied on the next open, once, in order
    new_dir = _copy_migrations(tmp_path / "new", latest)
    nxt = latest + 1
    (new_dir / f"{nxt:04d}_add_notes.sql").write_text(
        "-- a comment; with a semicolon\n"
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);\n"
        "INSERT INTO notes (text) VALUES ('it''s; here');\n", encoding="utf-8")
    migs = migrate.load_migrations(new_dir)
    async with SqliteStore(path, migrations=migs) as s:
        assert await s.schema_version() == nxt
        assert await s._db.execute_fetchall("SELECT text FROM notes") == [("it's; here",)]
        assert (await s.get_match(rec.id)).n_commands == 1
    async with SqliteStore(path, migrations=migs) as s:  # no-op the second time
        assert await s._db.execute_fetchall("SELECT count(*) FROM notes") == [(1,)]
    assert _versions(path) == list(range(1, nxt + 1))

    # the code without that migration refuses a database that has it
    with pytest.raises(migrate.MigrationError, match="newer"):
        await SqliteStore(path).open()


async def test_failed_migration_rolls_back(tmp_path):
    latest = migrate.latest_version()
    d = _copy_migrations(tmp_path / "m", latest)
    (d / f"{latest + 1:04d}_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nTHIS IS NOT SQL;\n", encoding="utf-8")
    path = tmp_path / "db.db"
    with pytest.raises(migrate.MigrationError, match="broken"):
        await SqliteStore(path, migrations=migrate.load_migrations(d)).open()
    assert _versions(path) == list(range(1, latest + 1))
    conn = raw(path)
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'half_done'").fetchall() == []
    conn.close()
    async with SqliteStore(path) as s:  # the good migrations stay applied
        assert await s.schema_version() == latest


def test_migration_numbering_is_checked(tmp_path):
    (tmp_path / "0002_gap.sql").write_text("SELECT 1;")
    with pytest.raises(migrate.MigrationError, match="gaps"):
        migrate.load_migrations(tmp_path)
    (tmp_path / "bad name.sql").write_text("SELECT 1;")
    with pytest.raises(migrate.MigrationError, match="name"):
        migrate.load_migrations(tmp_path)


async def test_two_processes_migrating_at_once(tmp_path):
    path = tmp_path / "race.db"
    stores = [SqliteStore(path) for _ in range(3)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        assert _versions(path) == list(range(1, migrate.latest_version() + 1))
    finally:
        for s in stores:
            await s.close()


# -- quarantine ---------------------------------------------------------------------------------

@pytest.mark.parametrize("column,garbage", [
    ("options", "{not json"),
    ("seats", '"not a list"'),
    ("names", "[1, 2]"),
    ("meta", "[]"),
    ("result", "{\"winners\": [0]"),
    ("seed", "'abc'"),
    ("reminded", "7"),
])
async def test_corrupt_row_is_quarantined(store, backend, caplog, column, garbage):
    good = await store.create_match(make(channel_id=77))
    bad = await store.create_match(make(channel_id=77))
    if column in ("seed", "reminded"):
        sql = f"UPDATE matches SET {column} = {garbage} WHERE id = ?"
        if backend.name == "postgres":
            # typed columns: PostgreSQL refuses the garbage itself, the row stays readable
            with pytest.raises(Exception, match="bigint|boolean"):
                await backend.raw(sql, bad.id)
            assert await store.get_match(bad.id) == bad
            assert await store.quarantined() == []
            return
        await backend.raw(sql, bad.id)
    else:
        await backend.raw(f"UPDATE matches SET {column} = ? WHERE id = ?", garbage, bad.id)

    with caplog.at_level(logging.WARNING, logger="data.store"):
        unfinished = await store.unfinished_matches()
    assert [m.id for m in unfinished] == [good.id]
    assert any(r.name == "data.store" and str(bad.id) in r.getMessage() for r in caplog.records)
    q = await store.quarantined()
    assert [(mid, column in reason) for mid, reason, _ in q] == [(bad.id, True)]
    assert isinstance(q[0][2], float)
    with pytest.raises(CorruptRow):
        await store.get_match(bad.id)
    assert [m.id for m in await store.matches_in_channel(77)] == [good.id]
    assert [m.id for m in await store.matches_for_user(ALICE)] == [good.id]
    assert [m.id for m in await store.matches_in_channel(77, (ACTIVE, QUARANTINED))] == [good.id]
    # a stale writer cannot resurrect it
    with pytest.raises(VersionConflict):
        await store.update_match(bad, bad.version)
    assert len(await store.quarantined()) == 1


async def test_get_match_quarantines_unreadable_row(store, backend, caplog):
    bad = await store.create_match(make())
    await backend.raw("UPDATE matches SET spectators = 'garbage' WHERE id = ?", bad.id)
    with caplog.at_level(logging.WARNING, logger="data.store"):
        with pytest.raises(CorruptRow, match="spectators"):
            await store.get_match(bad.id)
    assert any(r.name == "data.store" for r in caplog.records)
    assert [q[0] for q in await store.quarantined()] == [bad.id]
    assert await backend.raw("SELECT status FROM matches WHERE id = ?", bad.id) == [
        (QUARANTINED,)]
    assert await backend.raw("SELECT prev_status FROM quarantine") == [(ACTIVE,)]
    with pytest.raises(CorruptRow):  # still refused, not re-logged as new
        await store.get_match(bad.id)
    assert await store.unfinished_matches() == []


async def test_limited_listing_refills_after_skipping_corrupt_rows(store, backend):
    ms = [await store.create_match(make(created_at=float(i))) for i in range(4)]
    await backend.raw("UPDATE matches SET meta = 'oops' WHERE id = ?", ms[3].id)  # the newest
    got = await store.matches_for_user(ALICE, limit=2)
    assert [m.id for m in got] == [ms[2].id, ms[1].id]
    assert [q[0] for q in await store.quarantined()] == [ms[3].id]


async def test_cancelled_writes_leave_the_store_consistent(store):
    rec = await store.create_match(make())
    for delay in range(24):  # cancel at different points: before, inside, after the transaction
        task = asyncio.ensure_future(store.append_command(bump(rec), rec.version, 0, "x"))
        await asyncio.sleep(delay * 0.00005)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        rec = await store.get_match(rec.id)  # whatever happened, all or nothing
        assert len(await store.commands(rec.id)) == rec.n_commands
        assert rec.version == 1 + rec.n_commands
    rec = await store.append_command(bump(rec), rec.version, 1, "still works")
    assert (await store.commands(rec.id))[-1].command == "still works"


async def test_explicit_quarantine(store):
    rec = await store.create_match(make())
    await store.quarantine(rec.id, "replay failed: illegal command at seq 3")
    assert [(q[0], q[1]) for q in await store.quarantined()] == [
        (rec.id, "replay failed: illegal command at seq 3")]
    with pytest.raises(CorruptRow, match="replay failed"):
        await store.get_match(rec.id)
    assert await store.unfinished_matches() == []
    with pytest.raises(VersionConflict):
        await store.append_command(bump(rec), rec.version, 0, "x")


# -- results ------------------------------------------------------------------------------------

async def test_results_written_once_on_finish(store):
    rec = await store.create_match(make(seats=[ALICE, BOB, None], names=["A", "B", ""],
                                        game="squares"))
    assert await store.results_for_user(ALICE) == []
    rec = await store.update_match(replace(rec, status=ACTIVE, result={"winners": [0]}), 1)
    assert await store.results_for_user(ALICE) == []  # not finished yet: nothing
    rec = await store.append_command(
        replace(bump(rec), status=FINISHED, result={"winners": [0], "reason": "checkmate"}),
        rec.version, 1, "resign")
    rows = await store.results_for_user(ALICE)
    assert rows == [ResultRow(rec.id, "squares", 10, 0, ALICE, "win", "checkmate",
                              rec.updated_at)]
    assert [(r.seat, r.outcome) for r in await store.results_for_user(BOB)] == [(1, "loss")]
    # writing the finished match again (e.g. a reminder flag) adds/changes nothing
    await store.update_match(replace(rec, reminded=True, result={"winners": [1]}), rec.version)
    assert [(r.outcome, r.reason) for r in await store.results_for_user(ALICE)] == [
        ("win", "checkmate")]
    assert len(await store.results_for_user(BOB)) == 1


async def test_results_draw_and_game_filter(store):
    a = await store.create_match(make(game="squares"))
    await store.update_match(replace(a, status=FINISHED, result={"winners": []}), 1)
    b = await store.create_match(make(game="art_of_war", seats=[BOB, ALICE]))
    await store.update_match(replace(b, status=FINISHED,
                                     result={"winners": [1], "reason": "timeout"}), 1)
    c = await store.create_match(make(game="squares"))
    await store.update_match(replace(c, status=ABORTED, result=None), 1)

    all_rows = await store.results_for_user(ALICE)
    assert [(r.game, r.outcome) for r in all_rows] == [("art_of_war", "win"), ("squares", "draw")]
    assert all_rows[1].reason == ""
    assert [r.outcome for r in await store.results_for_user(ALICE, game="squares")] == ["draw"]
    assert [r.outcome for r in await store.results_for_user(BOB, game="art_of_war")] == ["loss"]
    assert await store.results_for_user(ALICE, game="maken") == []
    assert len(await store.results_for_user(ALICE, limit=1)) == 1


# -- refs and settings --------------------------------------------------------------------------

async def test_refs(store):
    rec = await store.create_match(make())
    assert await store.get_refs(rec.id) == {}
    await store.set_ref(rec.id, "board_message", "111")
    await store.set_ref(rec.id, f"dm:{ALICE}", "222")
    await store.set_ref(rec.id, "board_message", "333")
    assert await store.get_refs(rec.id) == {"board_message": "333", f"dm:{ALICE}": "222"}
    await store.set_ref(rec.id, "board_message", None)
    await store.set_ref(rec.id, "never_set", None)
    assert await store.get_refs(rec.id) == {f"dm:{ALICE}": "222"}
    # refs are not versioned
    assert (await store.get_match(rec.id)).version == 1
    with pytest.raises(StoreError):
        await store.set_ref(987654, "board_message", "1")


async def test_guild_settings(store):
    assert await store.get_guild_settings(1) == {}
    await store.set_guild_setting(1, "locale", "ja")
    await store.set_guild_setting(1, "channels", [5, 6])
    await store.set_guild_setting(1, "turn", {"default": 3600, "reminder": True})
    await store.set_guild_setting(2, "locale", "en")
    await store.set_guild_setting(1, "locale", "en")
    assert await store.get_guild_settings(1) == {
        "locale": "en", "channels": [5, 6], "turn": {"default": 3600, "reminder": True}}
    await store.set_guild_setting(1, "channels", None)
    await store.set_guild_setting(1, "absent", None)
    assert await store.get_guild_settings(1) == {
        "locale": "en", "turn": {"default": 3600, "reminder": True}}
    assert await store.get_guild_settings(2) == {"locale": "en"}
    await store.set_guild_setting(2, "falsy", 0)
    assert (await store.get_guild_settings(2))["falsy"] == 0
    with pytest.raises(ValueError):
        await store.set_guild_setting(1, "bad", {1, 2})


# -- listings -----------------------------------------------------------------------------------

async def test_matches_for_user_and_channel(store):
    m1 = await store.create_match(make(status=ACTIVE, channel_id=1, created_at=100.0))
    m2 = await store.create_match(make(status=PENDING, channel_id=1, seats=[CAROL, ALICE],
                                       created_at=200.0))
    m3 = await store.create_match(make(status=FINISHED, channel_id=2, created_at=300.0))
    m4 = await store.create_match(make(status=OPEN, channel_id=1, seats=[BOB, None],
                                       names=["Bob", ""], created_at=400.0))

    assert [m.id for m in await store.matches_for_user(ALICE)] == [m2.id, m1.id]
    assert [m.id for m in await store.matches_for_user(ALICE, (FINISHED,))] == [m3.id]
    assert [m.id for m in await store.matches_for_user(ALICE, (ACTIVE, FINISHED, PENDING))] == [
        m3.id, m2.id, m1.id]
    assert [m.id for m in await store.matches_for_user(ALICE, (ACTIVE, FINISHED, PENDING),
                                                        limit=2)] == [m3.id, m2.id]
    assert [m.id for m in await store.matches_for_user(CAROL)] == [m2.id]
    assert [m.id for m in await store.matches_for_user(DAVE)] == []
    assert await store.matches_for_user(ALICE, ()) == []

    assert [m.id for m in await store.matches_in_channel(1)] == [m1.id, m2.id, m4.id]
    assert [m.id for m in await store.matches_in_channel(1, (OPEN,))] == [m4.id]
    assert [m.id for m in await store.matches_in_channel(2)] == []
    assert [m.id for m in await store.matches_in_channel(2, (FINISHED,))] == [m3.id]

    # the seat index follows seat changes (someone joins, someone is replaced)
    m4 = await store.update_match(replace(m4, seats=[BOB, DAVE], names=["Bob", "Dave"]), 1)
    assert [m.id for m in await store.matches_for_user(DAVE, (OPEN,))] == [m4.id]
    m4 = await store.update_match(replace(m4, seats=[BOB, CAROL], names=["Bob", "Carol"]), 2)
    assert await store.matches_for_user(DAVE, (OPEN,)) == []
    assert [m.id for m in await store.matches_for_user(CAROL, (OPEN, PENDING))] == [m4.id, m2.id]


async def test_user_in_two_seats_is_refused(store):
    # a row with one user in two seats does not read (issue 13): it is not written either
    with pytest.raises(ValueError, match="two seats"):
        await store.create_match(make(seats=[ALICE, ALICE]))
    assert await store.matches_for_user(ALICE) == []


async def test_many_unfinished_matches_load_in_one_query(store):
    rows = []
    for i in range(500):
        rows.append(make(seats=[ALICE + i, BOB + i], status=(ACTIVE, OPEN, FINISHED)[i % 3]))
    for r in rows:
        await store.create_match(r)
    loaded = await store.unfinished_matches()
    assert len(loaded) == sum(1 for r in rows if r.status != FINISHED)


# -- open_store ---------------------------------------------------------------------------------

async def test_open_store_urls(tmp_path):
    for url in (f"sqlite:///{tmp_path / 'a.db'}", str(tmp_path / "b.db"),
                str(tmp_path / "nested" / "dir" / "c.db"), ":memory:"):
        s = await open_store(url)
        try:
            assert isinstance(s, SqliteStore)
            rec = await s.create_match(make())
            assert (await s.get_match(rec.id)) == rec
        finally:
            await s.close()
    assert (tmp_path / "a.db").exists() and (tmp_path / "b.db").exists()
    assert (tmp_path / "nested" / "dir" / "c.db").exists()


async def test_closed_store_refuses(backend):
    s = await backend.open()
    await s.close()
    with pytest.raises(StoreError):
        await s.get_match(1)
    await s.open()
    await s.open()  # idempotent
    await s.close()
    await s.close()
    with pytest.raises(StoreError):
        await s.create_match(make())


async def test_count_and_due_matches_for_the_clock(store):
    try:
        def rec(status, **kw):
            return MatchRecord(game="squares", seed=1, seats=[1, 2], names=["a", "b"], creator=1,
                               status=status, **kw)
        due = await store.create_match(rec(ACTIVE, deadline=100.0))
        await store.create_match(rec(ACTIVE, deadline=900.0))           # not yet
        await store.create_match(rec(ACTIVE))                           # no clock
        old = await store.create_match(rec(PENDING, created_at=10.0))
        await store.create_match(rec(OPEN, created_at=500.0))           # fresh challenge
        await store.create_match(rec("finished", deadline=50.0))        # over
        assert await store.count_matches() == 5
        assert await store.count_matches(("finished",)) == 1
        assert [m.id for m in await store.matches_due(200.0, 20.0)] == [due.id, old.id]
    finally:
        await store.close()


def test_sqlite_users_never_import_asyncpg(tmp_path):
    """open_store imports the PostgreSQL driver only for a postgresql:// URL."""
    import subprocess
    import sys

    code = ("import asyncio, sys\n"
            "from data.store import open_store\n"
            "async def main():\n"
            f"    s = await open_store({str(tmp_path / 'lazy.db')!r})\n"
            "    await s.close()\n"
            "asyncio.run(main())\n"
            "print('asyncpg' in sys.modules, 'data.postgres_store' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parent.parent,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"]
