"""Clocks across days in the store (both backends, data/sql_clocks.py): a player's own settings,
vacations (one at a time, also when two processes start one at once), the games waiting on each
player (/turns), the notices sent (at most one a day, across processes) and the notices held by
quiet hours (each delivered once); every row checked when read, a bad one skipped with a log
line; the migration on a database of the previous version."""
from __future__ import annotations

import asyncio
import json
import logging
import math
import sqlite3
from dataclasses import replace

import pytest

from data import migrate
from data.sql_clocks import MAX_PAYLOAD_TEXT, MAX_SETTINGS_TEXT, VACATION_HOWS, VACATION_MAX_SECONDS
from data.sql_store import SqlStore
from data.store import FINISHED, MatchRecord, Store, TransientStoreError, VersionConflict
from host.clocks import vacation as V
from host.clocks.notify import NotifySettings
from tests.test_store_faults import failing_driver

DAY = 86400.0
T0 = 1_700_000_000.0               # a Tuesday, 22:13 UTC
ALICE, BOB, CAROL = 101, 202, 303
G1, G2 = 9001, 9002
INF = float("inf")


@pytest.fixture
async def store(backend):
    return await backend.open()


async def _match(store: Store, seats=(ALICE, BOB), guild_id=G1) -> MatchRecord:
    return await store.create_match(MatchRecord(game="squares", seed=1, seats=list(seats),
                                                names=["a", "b"][:len(seats)], creator=seats[0],
                                                guild_id=guild_id, status="active"))


# --------------------------------------------------------------------------- the interface
def test_both_backends_implement_every_store_method_and_retry_the_clock_ones():
    """"Both backends (SQLite and PostgreSQL) must pass the same tests": they run one SQL
    (SqlStore), which leaves no Store method abstract; and "a transient database error is raised
    as the store's TransientStoreError as elsewhere": every clock method is retried."""
    from data.postgres_store import PostgresStore
    from data.sqlite_store import SqliteStore

    clock_methods = {n for n, f in vars(Store).items() if getattr(f, "__isabstractmethod__", False)} & {
        "get_player_settings", "player_settings_many", "set_player_settings", "vacations", "vacations_many",
        "start_vacation", "end_vacation", "on_vacation", "waiting_for", "waiting_users",
        "mark_sent", "last_sent", "claim_notice", "prune_sent", "queue_notice", "due_notices", "drop_notices"}
    assert len(clock_methods) == 17
    for cls in (SqlStore, SqliteStore, PostgresStore):
        assert not {n for n in clock_methods if getattr(getattr(cls, n), "__isabstractmethod__", False)}
    assert not SqliteStore.__abstractmethods__ and not PostgresStore.__abstractmethods__
    for name in clock_methods:
        assert getattr(getattr(SqlStore, name), "__wrapped_store_call__", False), name


def test_the_stores_checks_agree_with_the_pure_vacation_rules():
    """data/ may not import host/: the store's own copy of the vacation rules (the ways one is
    taken, its longest span) is the pure layer's."""
    assert VACATION_HOWS == V.HOWS
    assert VACATION_MAX_SECONDS == V.ALLOWANCE_MAX * V.DAY


# --------------------------------------------------------------------------- player settings
async def test_player_settings_round_trip_across_servers_and_can_be_forgotten(store):
    """"Player settings, across servers (a user's own): get_player_settings(user_id) -> dict ({}
    when none) and set_player_settings(user_id, settings: dict) (the NotifySettings JSON … plus
    room for more keys; size limit)"."""
    assert await store.get_player_settings(ALICE) == {}
    mine = NotifySettings(zone="Asia/Tokyo", quiet=(23 * 60, 7 * 60 + 30), how="dm", digest_hour=8).to_json()
    await store.set_player_settings(ALICE, {**mine, "later": [1, "two"]})
    got = await store.get_player_settings(ALICE)
    assert got == {**mine, "later": [1, "two"]}
    assert NotifySettings.from_json(got).zone == "Asia/Tokyo"
    await store.set_player_settings(BOB, {"zone": "Europe/Paris"})
    await store.set_player_settings(ALICE, mine)                       # replaced whole
    assert await store.player_settings_many([ALICE, BOB, CAROL, -1, "x"]) == {
        ALICE: mine, BOB: {"zone": "Europe/Paris"}}
    await store.set_player_settings(BOB, None)
    await store.set_player_settings(ALICE, {})
    assert await store.player_settings_many([ALICE, BOB]) == {}
    with pytest.raises(ValueError):
        await store.set_player_settings(ALICE, {"x": "y" * MAX_SETTINGS_TEXT})
    with pytest.raises(ValueError):
        await store.set_player_settings(ALICE, {"x": math.nan})
    with pytest.raises(ValueError):
        await store.set_player_settings("101", mine)
    assert await store.get_player_settings(ALICE) == {}


async def test_a_bad_settings_row_is_logged_and_ignored_and_stops_nothing(store, backend, caplog):
    """"JSON checked on read: a bad row is logged and ignored like guild settings, one bad row
    never stops anything"."""
    await store.set_player_settings(CAROL, {"zone": "UTC"})
    for uid, text in ((ALICE, "{not json"), (BOB, "[1, 2]"), (ALICE + 1, json.dumps({"x": "y" * MAX_SETTINGS_TEXT}))):
        await backend.raw("INSERT INTO player_settings (user_id, settings) VALUES (?, ?)", uid, text)
    with caplog.at_level(logging.WARNING, logger="data.store"):
        assert await store.get_player_settings(ALICE) == {}
        assert await store.player_settings_many([ALICE, BOB, ALICE + 1, CAROL]) == {CAROL: {"zone": "UTC"}}
    assert sum("settings cannot be read" in r.getMessage() for r in caplog.records) == 4
    await store.set_player_settings(ALICE, {"zone": "UTC"})           # a new write mends it
    assert await store.get_player_settings(ALICE) == {"zone": "UTC"}


# --------------------------------------------------------------------------- vacations
async def test_vacations_start_refuse_a_second_running_one_and_end_early(store):
    """"start_vacation … atomically refuse a second running vacation for the same user",
    "end_vacation(user_id, now) (shortens the running one …: take the new end as a parameter)",
    "vacations(user_id, since) -> list[dict] (those ending after since, ordered)"."""
    old = await store.start_vacation(ALICE, T0 - 400 * DAY, T0 - 397 * DAY, "asked", allowance_check=None)
    first = await store.start_vacation(ALICE, T0, T0 + 3 * DAY, "asked", allowance_check=None)
    assert first == {"start": T0, "end": T0 + 3 * DAY, "how": "asked"} and old["how"] == "asked"
    assert await store.start_vacation(ALICE, T0 + DAY, T0 + 2 * DAY, "asked", allowance_check=None) is None
    assert await store.start_vacation(ALICE, T0 + DAY, T0 + 2 * DAY, "auto", allowance_check=None) is None
    assert await store.vacations(ALICE, T0 - 365 * DAY) == [first]
    assert await store.vacations(ALICE, 0) == [old, first]
    assert V.Vacation.from_json(first) == V.Vacation(T0, T0 + 3 * DAY, "asked")

    # ended after 1.5 days: the caller gives the end (here: now)
    ended = await store.end_vacation(ALICE, T0 + 1.5 * DAY)
    assert ended == {"start": T0, "end": T0 + 1.5 * DAY, "how": "asked"}
    assert await store.end_vacation(ALICE, T0 + 1.6 * DAY) is None            # none runs now
    assert await store.vacations(ALICE, T0) == [ended]

    # an automatic day chains on at the end of the last one, without a gap
    auto = await store.start_vacation(ALICE, T0 + 1.5 * DAY, T0 + 2.5 * DAY, "auto", allowance_check=None)
    assert auto == {"start": T0 + 1.5 * DAY, "end": T0 + 2.5 * DAY, "how": "auto"}
    assert [r["how"] for r in await store.vacations(ALICE, T0)] == ["asked", "auto"]
    # the new end lies between the start and the planned end
    with pytest.raises(ValueError):
        await store.end_vacation(ALICE, T0 + 2 * DAY, T0 + 3 * DAY)
    with pytest.raises(ValueError):
        await store.end_vacation(ALICE, T0 + 2 * DAY, T0)
    assert (await store.end_vacation(ALICE, T0 + 2 * DAY, T0 + 2.25 * DAY))["end"] == T0 + 2.25 * DAY
    # what cannot be a vacation is refused before anything is written
    for start, end, how in ((T0, T0 - 1, "asked"), (T0, T0 + 61 * DAY, "asked"), (T0, T0 + DAY, "sick"),
                            (T0, INF, "asked")):
        with pytest.raises(ValueError):
            await store.start_vacation(BOB, start, end, how, allowance_check=None)
    assert await store.vacations(BOB, 0) == []


async def test_the_allowance_is_checked_inside_the_write_with_the_records_that_count(store):
    """"start_vacation(user_id, start, end, how, *, allowance_check)": the check sees the
    player's records that can still count (a day counts for 365 days) and may refuse."""
    await store.start_vacation(ALICE, T0 - 400 * DAY, T0 - 390 * DAY, "asked", allowance_check=None)
    await store.start_vacation(ALICE, T0 - 100 * DAY, T0 - 90 * DAY, "asked", allowance_check=None)
    seen = []

    def pure_rule(records):          # what the host passes: the pure layer's own rule
        seen.append(records)
        return V.start([V.Vacation.from_json(r) for r in records], T0, days=5, allowance=14)

    with pytest.raises(V.VacationError) as err:
        await store.start_vacation(ALICE, T0, T0 + 5 * DAY, "asked", allowance_check=pure_rule)
    assert err.value.key == "clock.vacation.err.too_many" and err.value.params["n"] == 4
    assert seen == [[{"start": T0 - 100 * DAY, "end": T0 - 90 * DAY, "how": "asked"}]]
    assert len(await store.vacations(ALICE, T0 - 500 * DAY)) == 2          # nothing written
    assert await store.start_vacation(ALICE, T0, T0 + 4 * DAY, "asked", allowance_check=lambda rs: False) is None
    got = await store.start_vacation(ALICE, T0, T0 + 4 * DAY, "asked", allowance_check=lambda rs: True)
    assert got["end"] == T0 + 4 * DAY
    assert V.remaining([V.Vacation.from_json(r) for r in await store.vacations(ALICE, T0 - 365 * DAY)],
                       T0, 14) == 0


async def test_two_processes_starting_a_vacation_at_once_store_one(backend):
    """"a constraint or a check inside the write transaction, so two concurrent starts store
    one: test it with concurrent calls on both backends"."""
    stores = [await backend.open(), await backend.open()]
    for round_, uid in enumerate((ALICE, BOB, CAROL)):
        now = T0 + round_
        calls = []

        def check(records, calls=calls, now=now):
            calls.append(1)
            V.start([V.Vacation.from_json(r) for r in records], now, days=2)

        async def one(i: int, now=now, uid=uid, check=check):
            try:
                return await stores[i % 2].start_vacation(uid, now, now + 2 * DAY, "asked", allowance_check=check)
            except V.VacationError as e:
                return e
        out = await asyncio.gather(*(one(i) for i in range(8)))
        stored = [o for o in out if isinstance(o, dict)]
        assert len(stored) == 1, out
        assert all(isinstance(o, V.VacationError) and o.key == "clock.vacation.err.running" or o is None
                   for o in out if not isinstance(o, dict))
        for s in stores:
            assert await s.vacations(uid, 0) == stored
        assert len(calls) >= 8


async def test_a_start_whose_number_another_start_took_reads_again_and_is_refused(backend):
    """The race itself, made to happen: another writer's vacation is in flight (not committed)
    when a start reads; when it commits, the start must not store a second running vacation."""
    store = await backend.open()
    calls = []

    def check(records):
        calls.append(list(records))

    if backend.name == "sqlite":
        held = sqlite3.connect(backend.path, isolation_level=None, timeout=10)
        held.execute("BEGIN IMMEDIATE")
        held.execute("INSERT INTO vacations (user_id, seq, start_at, end_at, how) VALUES (?, 1, ?, ?, 'asked')",
                     (ALICE, T0, T0 + DAY))
        task = asyncio.create_task(store.start_vacation(ALICE, T0 + 5, T0 + DAY, "asked", allowance_check=check))
        await asyncio.sleep(0.3)
        held.execute("COMMIT")
        held.close()
    else:
        import asyncpg
        held = await asyncpg.connect(backend.url)
        tr = held.transaction()
        await tr.start()
        await held.execute("INSERT INTO vacations (user_id, seq, start_at, end_at, how) VALUES ($1, 1, $2, $3, 'asked')",
                           ALICE, T0, T0 + DAY)
        task = asyncio.create_task(store.start_vacation(ALICE, T0 + 5, T0 + DAY, "asked", allowance_check=check))
        for _ in range(200):                     # until the start waits for the uncommitted row
            waiting = await held.fetchval("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                          "AND datname = current_database()")
            if waiting:
                break
            await asyncio.sleep(0.05)
        assert waiting and calls == [[]]         # it read before the other committed …
        await tr.commit()
        await held.close()
    assert await task is None                    # … and still stored nothing
    assert calls[-1] == [{"start": T0, "end": T0 + DAY, "how": "asked"}]
    assert len(calls) == (1 if backend.name == "sqlite" else 2)
    assert await store.vacations(ALICE, 0) == [{"start": T0, "end": T0 + DAY, "how": "asked"}]


async def test_ending_a_vacation_twice_at_once_ends_it_once(backend):
    """end_vacation in two processes at once: one ends it, the other finds none running."""
    a, b = await backend.open(), await backend.open()
    await a.start_vacation(ALICE, T0, T0 + 3 * DAY, "asked", allowance_check=None)
    out = await asyncio.gather(a.end_vacation(ALICE, T0 + DAY), b.end_vacation(ALICE, T0 + DAY))
    assert sorted(out, key=lambda o: o is None) == [{"start": T0, "end": T0 + DAY, "how": "asked"}, None]


async def test_on_vacation_answers_for_many_players_at_once(store):
    """"on_vacation(user_ids, now) -> dict[user_id, end] for many users at once (one query)"."""
    await store.start_vacation(ALICE, T0, T0 + 2 * DAY, "asked", allowance_check=None)
    await store.start_vacation(BOB, T0 - 3 * DAY, T0 - DAY, "asked", allowance_check=None)
    await store.start_vacation(BOB, T0 - DAY, T0 + DAY, "auto", allowance_check=None)
    await store.start_vacation(CAROL, T0 + DAY, T0 + 2 * DAY, "asked", allowance_check=None)
    assert await store.on_vacation([ALICE, BOB, CAROL, 404], T0) == {ALICE: T0 + 2 * DAY, BOB: T0 + DAY}
    assert await store.on_vacation([ALICE, BOB, CAROL], T0 + 2 * DAY) == {}
    assert await store.on_vacation([], T0) == {}
    many = list(range(5000, 7000)) + [ALICE]       # more players than one statement takes
    assert await store.on_vacation(many, T0) == {ALICE: T0 + 2 * DAY}
    assert (await store.vacations_many([ALICE, BOB, CAROL], T0))[BOB] == [{"start": T0 - DAY, "end": T0 + DAY,
                                                                           "how": "auto"}]


async def test_bad_vacation_rows_are_skipped_with_a_log_line(store, backend, caplog):
    """"Every row read is checked (types, sizes); bad rows are skipped with a log line …, never
    raising out of a listing" — and a bad row does not block a new vacation."""
    good = await store.start_vacation(ALICE, T0 - 10 * DAY, T0 - 9 * DAY, "asked", allowance_check=None)
    for seq, start, end, how in ((2, T0, INF, "asked"), (3, T0, T0 - 5, "asked"), (4, T0, T0 + DAY, "sick"),
                                 (5, T0, T0 + 90 * DAY, "asked")):
        await backend.raw("INSERT INTO vacations (user_id, seq, start_at, end_at, how) VALUES (?, ?, ?, ?, ?)",
                          ALICE, seq, start, end, how)
    with caplog.at_level(logging.WARNING, logger="data.store"):
        assert await store.vacations(ALICE, 0) == [good]
        assert await store.on_vacation([ALICE], T0 + 1) == {}
        got = await store.start_vacation(ALICE, T0 + 1, T0 + DAY, "asked", allowance_check=None)
    assert got == {"start": T0 + 1, "end": T0 + DAY, "how": "asked"}
    assert await store.on_vacation([ALICE], T0 + 2) == {ALICE: T0 + DAY}
    assert sum("cannot be read and is skipped" in r.getMessage() for r in caplog.records) >= 8


# --------------------------------------------------------------------------- games waiting
async def _waits(store: Store, m: MatchRecord, rows: list) -> MatchRecord:
    """The match written with the players it waits on (``MatchRecord.waiting``)."""
    return await store.update_match(replace(m, waiting=rows), m.version)


async def test_waiting_rows_are_replaced_per_match_and_listed_by_time_left(store):
    """A match's rows are replaced with each write of the match, in its transaction, and
    "waiting_for(user_id, limit=100) -> list[dict] ordered by deadline (NULL last)" — the order
    of /turns: deadline, then paused by bank left, then none."""
    m = [await _match(store, guild_id=g) for g in (G1, G2, None, G1, G1)]
    m[0] = await _waits(store, m[0], [{"user_id": ALICE, "since": T0, "deadline": T0 + 9 * 3600}])
    m[1] = await _waits(store, m[1], [(ALICE, T0, T0 + 3600, 7200.0), (BOB, T0, T0 + 60, 5.0)])
    m[2] = await _waits(store, m[2], [{"user_id": ALICE, "since": T0, "bank_left": 50.0}])
    m[3] = await _waits(store, m[3], [{"user_id": ALICE, "since": T0}])
    m[4] = await _waits(store, m[4], [{"user_id": ALICE, "since": T0, "bank_left": 10.0}])
    got = await store.waiting_for(ALICE)
    assert [r["match_id"] for r in got] == [m[1].id, m[0].id, m[4].id, m[2].id, m[3].id]
    assert got[0] == {"match_id": m[1].id, "user_id": ALICE, "guild_id": G2, "since": T0,
                      "deadline": T0 + 3600, "bank_left": 7200.0}
    assert got[3]["guild_id"] is None and got[4]["deadline"] is None and got[4]["bank_left"] is None
    assert [r["match_id"] for r in await store.waiting_for(ALICE, limit=2)] == [m[1].id, m[0].id]
    # after a move the match waits on Bob alone
    m[1] = await _waits(store, m[1], [{"user_id": BOB, "since": T0 + 5, "deadline": T0 + 99}])
    assert m[1].id not in [r["match_id"] for r in await store.waiting_for(ALICE)]
    assert [(r["match_id"], r["since"]) for r in await store.waiting_for(BOB)] == [(m[1].id, T0 + 5)]
    m[1] = await _waits(store, m[1], [])                                               # nobody
    assert await store.waiting_for(BOB) == []
    m[0] = await _waits(store, m[0], [])
    assert m[0].id not in [r["match_id"] for r in await store.waiting_for(ALICE)]
    for rows in ([{"user_id": BOB, "since": T0}, {"user_id": BOB, "since": T0}],       # twice
                 [{"user_id": BOB, "since": INF}], [{"user_id": BOB, "since": T0, "bank_left": -1.0}],
                 [{"user_id": "bob", "since": T0}]):
        with pytest.raises(ValueError):
            await _waits(store, m[4], rows)
    assert [r["bank_left"] for r in await store.waiting_for(ALICE) if r["match_id"] == m[4].id] == [10.0]
    assert (await store.get_match(m[4].id)).version == m[4].version         # nothing written


async def test_rows_computed_from_an_older_version_never_overwrite_newer_ones(store):
    """Several processes: the host writes a match's rows with each write of the match; rows
    computed from a version the match has moved past are not written (the write is refused)."""
    m = await _match(store)
    newer = await _waits(store, m, [{"user_id": ALICE, "since": T0}])
    newer = await _waits(store, newer, [{"user_id": BOB, "since": T0 + 1}])
    with pytest.raises(VersionConflict):
        await _waits(store, m, [{"user_id": ALICE, "since": T0}])
    assert await store.waiting_for(ALICE) == [] and len(await store.waiting_for(BOB)) == 1


async def test_the_waiting_rows_go_with_the_match_row_in_one_write(store):
    """The host writes a match's rows "in the same transaction as the match row": a record's
    ``waiting`` replaces them with the row (update and command alike); None leaves them; a
    match that is no longer active waits on nobody."""
    m = await _match(store)
    m.waiting = [(ALICE, T0, T0 + 60, 30.0)]
    m = await store.update_match(m, m.version)
    assert m.waiting is None            # a record read back carries no rows
    assert [(r["match_id"], r["guild_id"], r["bank_left"]) for r in await store.waiting_for(ALICE)] == [(m.id, m.guild_id, 30.0)]
    m = await store.update_match(m, m.version)                       # None: left as they are
    assert len(await store.waiting_for(ALICE)) == 1
    nxt = replace(m, n_commands=m.n_commands + 1, waiting=[(BOB, T0 + 1, None, None)])
    m = await store.append_command(nxt, m.version, 0, "x")
    assert await store.waiting_for(ALICE) == [] and [r["match_id"] for r in await store.waiting_for(BOB)] == [m.id]
    assert await store.waiting_users() == [BOB]
    m = await store.update_match(replace(m, status=FINISHED, result={"winners": [0], "reason": "resign"}), m.version)
    assert await store.waiting_for(BOB) == [] and await store.waiting_users() == []


async def test_turns_reads_a_players_100_matches_among_100000_through_the_index(store, backend):
    """"with an index so /turns is fast for a user with 100 waiting matches among 100,000 stored
    matches": the plan reads the player's rows by the index, not the table."""
    rows = [(mid, 10_000 + mid % 997, G1, T0, T0 + mid, None) for mid in range(1, 100_001)]
    rows += [(mid, ALICE, G1, T0, T0 + 10 * DAY - mid, None) for mid in range(100_001, 100_101)]
    if backend.name == "sqlite":
        db = sqlite3.connect(backend.path, isolation_level=None, timeout=10)
        db.execute("BEGIN")
        db.executemany("INSERT INTO turns_waiting VALUES (?, ?, ?, ?, ?, ?)", rows)
        db.execute("COMMIT")
        db.execute("ANALYZE")
        plan = " ".join(str(r) for r in db.execute(
            "EXPLAIN QUERY PLAN SELECT * FROM turns_waiting WHERE user_id = ? ORDER BY deadline", (ALICE,)))
        db.close()
        assert "turns_waiting_user" in plan, plan
    else:
        import asyncpg
        db = await asyncpg.connect(backend.url)
        try:
            await db.copy_records_to_table("turns_waiting", records=rows)
            await db.execute("ANALYZE turns_waiting")
            plan = " ".join(r[0] for r in await db.fetch(
                "EXPLAIN SELECT * FROM turns_waiting WHERE user_id = $1 ORDER BY deadline", ALICE))
        finally:
            await db.close()
        assert "turns_waiting_user" in plan and "Seq Scan" not in plan, plan
    got = await store.waiting_for(ALICE)
    assert [r["match_id"] for r in got] == list(range(100_100, 100_000, -1))


async def test_bad_waiting_rows_are_skipped_with_a_log_line(store, backend, caplog):
    """"bad rows are skipped with a log line …, never raising out of a listing"."""
    await _waits(store, await _match(store), [{"user_id": ALICE, "since": T0, "deadline": T0 + 5}])
    for mid, since, deadline, bank in ((2, INF, None, None), (3, T0, -INF, None), (4, T0, None, -3.0)):
        await backend.raw("INSERT INTO turns_waiting VALUES (?, ?, ?, ?, ?, ?)", mid, ALICE, G1, since, deadline, bank)
    with caplog.at_level(logging.WARNING, logger="data.store"):
        assert [r["match_id"] for r in await store.waiting_for(ALICE)] == [1]
    assert sum("waiting match" in r.getMessage() for r in caplog.records) == 3


# --------------------------------------------------------------------------- notices sent
async def test_notices_sent_are_remembered_and_claimed_once_a_day(store):
    """"mark_sent(kind, key, at) / last_sent(kind, key) … an atomic 'claim if not sent since T'
    returning whether this caller claimed it: claim_notice(kind, key, now, not_since) -> bool"."""
    key = "match:12:user:5"
    assert await store.last_sent("remind", key) is None
    await store.mark_sent("remind", key, T0)
    assert await store.last_sent("remind", key) == T0 and await store.last_sent("digest", key) is None
    assert not await store.claim_notice("remind", key, T0 + 3600, not_since=T0 - 60)      # sent since
    assert await store.claim_notice("remind", key, T0 + DAY, not_since=T0 + 1)            # a new day
    assert await store.last_sent("remind", key) == T0 + DAY
    assert await store.claim_notice("vacation_end", "user:5", T0, not_since=T0 - DAY)      # never sent
    assert not await store.claim_notice("vacation_end", "user:5", T0 + 1, not_since=T0 - DAY)
    assert await store.prune_sent(T0 + 1) == 1                                            # vacation_end's
    assert await store.last_sent("vacation_end", "user:5") is None
    for kind, k in (("", key), ("x" * 33, key), ("remind", ""), ("remind", "k" * 201), ("remind", "a\nb")):
        with pytest.raises(ValueError):
            await store.claim_notice(kind, k, T0, T0)


async def test_one_of_many_processes_claims_a_notice(backend):
    """"so at most one per day survives restarts and several processes … test the concurrency on
    both backends"."""
    stores = [await backend.open(), await backend.open()]
    for day in range(3):
        now = T0 + day * DAY
        out = await asyncio.gather(*(stores[i % 2].claim_notice("remind", "match:1:user:2", now + i, now - 1)
                                     for i in range(12)))
        assert sum(out) == 1, out


async def test_a_damaged_time_sent_never_blocks_a_notice(store, backend, caplog):
    """"one bad row never stops anything": a time sent that is no time (an infinity) reads as
    never sent, and the next claim mends it."""
    await backend.raw("INSERT INTO notices_sent (kind, key, at) VALUES (?, ?, ?)", "digest", "user:1", INF)
    with caplog.at_level(logging.WARNING, logger="data.store"):
        assert await store.last_sent("digest", "user:1") is None
    assert any("cannot be read" in r.getMessage() for r in caplog.records)
    assert await store.claim_notice("digest", "user:1", T0, T0 - DAY)
    assert await store.last_sent("digest", "user:1") == T0


# --------------------------------------------------------------------------- held notices
async def test_held_notices_come_due_in_order_and_a_match_that_ends_drops_its_own(store):
    """"queue_notice(user_id, deliver_at, payload: dict), due_notices(now, limit) -> list[(id,
    user_id, payload)] …, drop_notices(match_id) when a match ends (payload has match_id)"."""
    a = await store.queue_notice(ALICE, T0 + 30, {"kind": "turn", "match_id": 7})
    b = await store.queue_notice(BOB, T0 + 10, {"kind": "turn", "match_id": 8})
    c = await store.queue_notice(ALICE, T0 + 20, {"kind": "digest"})
    d = await store.queue_notice(CAROL, T0 + 5000, {"kind": "turn", "match_id": 7})
    assert await store.due_notices(T0) == []
    assert await store.due_notices(T0 + 25, limit=1) == [(b, BOB, {"kind": "turn", "match_id": 8})]
    assert await store.due_notices(T0 + 25) == [(c, ALICE, {"kind": "digest"})]
    assert await store.drop_notices(7) == 2                      # a and d
    assert await store.due_notices(T0 + 10_000) == []
    assert a < b < c < d
    for uid, at, payload in ((ALICE, INF, {}), (ALICE, T0, {"x": "y" * MAX_PAYLOAD_TEXT}), (ALICE, T0, [1]),
                             ("1", T0, {})):
        with pytest.raises(ValueError):
            await store.queue_notice(uid, at, payload)


async def test_each_held_notice_is_taken_by_exactly_one_process(backend):
    """"claim-once semantics across processes": processes taking due notices at once never take
    one twice, and together take them all."""
    stores = [await backend.open(), await backend.open()]
    ids = [await stores[0].queue_notice(ALICE + i % 3, T0 + i, {"n": i, "match_id": i}) for i in range(60)]
    out = await asyncio.gather(*(stores[i % 2].due_notices(T0 + 100, limit=7) for i in range(12)))
    taken = [n[0] for got in out for n in got]
    assert sorted(taken) == ids and len(set(taken)) == 60
    for got in out:
        assert [n[0] for n in got] == sorted(n[0] for n in got)           # earliest first
        assert all(n[2] == {"n": ids.index(n[0]), "match_id": ids.index(n[0])} for n in got)


async def test_a_held_notice_that_does_not_read_is_dropped_with_a_log_line(store, backend, caplog):
    """"bad rows are skipped with a log line …, never raising out of a listing"."""
    good = await store.queue_notice(ALICE, T0, {"kind": "turn"})
    await backend.raw("INSERT INTO notice_queue (user_id, deliver_at, match_id, payload) VALUES (?, ?, ?, ?)",
                      ALICE, T0 - 1, None, "{broken")
    await backend.raw("INSERT INTO notice_queue (user_id, deliver_at, match_id, payload) VALUES (?, ?, ?, ?)",
                      ALICE, T0 - 2, None, '"a string"')
    with caplog.at_level(logging.WARNING, logger="data.store"):
        assert await store.due_notices(T0) == [(good, ALICE, {"kind": "turn"})]
    assert sum("held notice" in r.getMessage() for r in caplog.records) == 2
    assert await store.due_notices(T0 + 1) == []


# --------------------------------------------------------------------------- failures
async def test_a_database_that_fails_for_a_moment_is_retried_and_one_that_stays_down_is_transient(store, backend,
                                                                                                  monkeypatch):
    """"a transient database error is raised as the store's TransientStoreError as elsewhere".
    (The pauses between tries are the store's own business, tested in tests/test_resilience.py:
    here they are 0, so the calls that never succeed do not wait 0.75 s each.)"""
    from data import resilience

    monkeypatch.setattr(resilience, "PAUSES", (0.0, 0.0, 0.0))
    await store.set_player_settings(ALICE, {"zone": "UTC"})
    left, undo = failing_driver(store, backend, 2)
    try:
        assert await store.get_player_settings(ALICE) == {"zone": "UTC"}      # retried
        assert await store.claim_notice("remind", "k", T0, T0 - 1)
    finally:
        undo()
    left, undo = failing_driver(store, backend, 1000)
    try:
        for call in (store.waiting_for(ALICE), store.on_vacation([ALICE], T0), store.due_notices(T0),
                     store.start_vacation(ALICE, T0, T0 + DAY, "asked", allowance_check=None)):
            with pytest.raises(TransientStoreError):
                await call
    finally:
        undo()
    assert await store.vacations(ALICE, 0) == []


# --------------------------------------------------------------------------- the migration
async def _upgrade(make, old_migrations) -> None:
    """A database made by the code of schema 7 (with a match and a setting in it), opened by
    today's code: migrated to the latest version, what was stored kept, the clock tables usable."""
    s7 = make(old_migrations)
    await s7.open()
    try:
        assert await s7.schema_version() == 7
        rec = await _match(s7)
        await s7.set_guild_setting(G1, "locale", "ja")
    finally:
        await s7.close()
    s = make(None)
    await s.open()
    try:
        assert await s.schema_version() == migrate.latest_version() >= 8
        assert (await s.get_match(rec.id)).seats == [ALICE, BOB]
        assert await s.get_guild_settings(G1) == {"locale": "ja"}
        await s.set_player_settings(ALICE, {"zone": "Asia/Tokyo"})
        assert await s.get_player_settings(ALICE) == {"zone": "Asia/Tokyo"}
        assert await s.start_vacation(ALICE, T0, T0 + DAY, "asked", allowance_check=None)
        await s.update_match(replace(rec, waiting=[{"user_id": ALICE, "since": T0}]), rec.version)
        assert [r["match_id"] for r in await s.waiting_for(ALICE)] == [rec.id]
        assert await s.claim_notice("digest", "user:1", T0, T0 - DAY)
        note = await s.queue_notice(ALICE, T0, {"match_id": rec.id})
        assert await s.due_notices(T0) == [(note, ALICE, {"match_id": rec.id})]
    finally:
        await s.close()


async def test_the_migration_applies_to_a_sqlite_database_of_the_previous_version(tmp_path):
    """"the migration applies on an existing database of the previous version (see the migration
    tests in tests/test_store.py)"."""
    from data.sqlite_store import SqliteStore

    path = tmp_path / "v7.db"
    await _upgrade(lambda migs: SqliteStore(path, migrations=migs), migrate.load_migrations()[:7])


async def test_the_migration_applies_to_a_postgres_database_of_the_previous_version(pg_url):
    """"… and on PostgreSQL"."""
    from data import pg_migrate
    from data.postgres_store import PostgresStore

    await _upgrade(lambda migs: PostgresStore(pg_url, migrations=migs), pg_migrate.load_pg_migrations()[:7])
