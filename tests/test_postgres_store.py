"""The PostgreSQL store beyond what test_store.py checks on both backends: its migrations (the
SQLite schema's twin, idempotent, safe when processes start at once), connection errors that
never show the password, snowflake-size ids in every table, the pool size setting, and a whole
SQUARES match through the host that a fresh host and store on the same database resume and finish.

Every test runs against a real PostgreSQL server started by the ``pg_server`` fixture (conftest)
and is skipped, with the reason, on a machine without PostgreSQL server binaries."""
from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from dataclasses import replace
from pathlib import Path

import asyncpg
import pytest

from data import migrate, pg_migrate
from data.postgres_store import PostgresStore
from data.store import (
    ACTIVE,
    FINISHED,
    LeagueRecord,
    MatchRecord,
    RatingChange,
    RatingRow,
    StoreError,
    open_store,
)
from host import Host
from host.records import Records
from rules import registry

from discord_fakes import Clock

BIG = 2 ** 63 - 1          # the largest signed 64-bit integer (Discord snowflakes stay below it)
SMALL = -(2 ** 63)


async def _fetch(url: str, sql: str, *args) -> list[tuple]:
    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(sql, *args)]
    finally:
        await conn.close()


async def _versions(url: str) -> list[int]:
    return [r[0] for r in await _fetch(url, "SELECT version FROM schema_version ORDER BY version")]


# -- migrations ---------------------------------------------------------------------------------

def test_postgres_migrations_mirror_the_sqlite_ones():
    sq, pg = migrate.load_migrations(), pg_migrate.load_pg_migrations()
    assert [m.name for m in pg] == [m.name for m in sq]
    for m in pg:  # the runner owns the transaction (a plpgsql body's BEGIN ... END is fine)
        code = re.sub(r"--[^\n]*", "", m.sql)
        assert not re.search(r"^\s*(COMMIT|ROLLBACK|BEGIN\s*(TRANSACTION|WORK)?\s*;)", code,
                             re.M | re.I), m.name


async def test_the_schema_has_the_sqlite_tables_columns_and_indexes(pg_url, tmp_path):
    async with PostgresStore(pg_url):
        pass
    lite = sqlite3.connect(tmp_path / "s.db")
    conn = await asyncpg.connect(pg_url)
    try:
        for m in migrate.load_migrations():
            for stmt in m.statements():
                lite.execute(stmt)
        tables = sorted(r[0] for r in lite.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
        pg_tables = sorted(r[0] for r in await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' "
            "AND table_name <> 'schema_version'"))
        assert pg_tables == tables
        for t in tables:
            cols = [r[1] for r in lite.execute(f"PRAGMA table_info({t})")]
            pg_cols = [r[0] for r in await conn.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_name = $1 "
                "ORDER BY ordinal_position", t)]
            assert pg_cols == cols, t
        indexes = sorted(r[0] for r in lite.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"))
        pg_indexes = sorted(r[0] for r in await conn.fetch(
            "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' "
            "AND indexname NOT LIKE '%_pkey'"))
        assert pg_indexes == indexes
        # ids and snowflakes are 64-bit, times double precision
        types = dict(await conn.fetch(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = 'matches'"))
        assert {types[c] for c in ("id", "guild_id", "channel_id", "creator", "seed")} == {"bigint"}
        assert {types[c] for c in ("deadline", "created_at", "updated_at")} == {"double precision"}
    finally:
        lite.close()
        await conn.close()


async def test_fresh_database_is_migrated_once_and_reopening_applies_nothing(pg_url, caplog):
    latest = migrate.latest_version(pg_migrate.load_pg_migrations())
    assert latest == migrate.latest_version()
    with caplog.at_level(logging.INFO, logger="data.store"):
        async with PostgresStore(pg_url) as s:
            assert await s.schema_version() == latest
    assert any("applied migrations" in r.getMessage() for r in caplog.records)
    applied_at = await _fetch(pg_url, "SELECT version, applied_at FROM schema_version ORDER BY 1")
    assert [v for v, _ in applied_at] == list(range(1, latest + 1))
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="data.store"):
        async with PostgresStore(pg_url) as s:
            assert await s.schema_version() == latest
            async with s._pool.acquire() as conn:
                assert await pg_migrate.apply_pg_migrations(conn) == []
    assert not any("applied migrations" in r.getMessage() for r in caplog.records)
    # nothing was applied again: the same rows, the same times
    assert await _fetch(pg_url, "SELECT version, applied_at FROM schema_version ORDER BY 1") \
        == applied_at


async def test_processes_starting_at_once_migrate_exactly_once(pg_url):
    stores = [PostgresStore(pg_url) for _ in range(4)]
    try:
        await asyncio.gather(*(s.open() for s in stores))
        assert await _versions(pg_url) == list(range(1, migrate.latest_version() + 1))
        rec = await stores[0].create_match(MatchRecord(game="squares", seed=1, seats=[1, 2],
                                                        names=["a", "b"], creator=1))
        assert [await s.get_match(rec.id) for s in stores] == [rec] * 4
    finally:
        for s in stores:
            await s.close()


def _copy(dest: Path, upto: int) -> Path:
    dest.mkdir()
    for m in pg_migrate.load_pg_migrations()[:upto]:
        (dest / m.name).write_text(m.sql, encoding="utf-8")
    return dest


async def test_old_database_is_upgraded_and_newer_code_is_required_for_a_newer_one(pg_url, tmp_path):
    latest = migrate.latest_version()
    async with PostgresStore(pg_url, migrations=migrate.load_migrations(_copy(tmp_path / "old", 1))) as s:
        assert await s.schema_version() == 1
    # a match as the code of schema 1 wrote it (today's code writes columns it lacks)
    conn = await asyncpg.connect(pg_url)
    try:
        match_id = await conn.fetchval(
            "INSERT INTO matches (game, status, version, creator, seed, seats, names, n_commands, "
            "created_at, updated_at) VALUES ('squares', 'active', 2, 1, 7, '[1, 2]', "
            "'[\"a\", \"b\"]', 1, 0, 0) RETURNING id")
        await conn.execute("INSERT INTO commands (match_id, seq, seat, command, at) "
                           "VALUES ($1, 1, 0, 'a1', 0)", match_id)
    finally:
        await conn.close()
    async with PostgresStore(pg_url) as s:
        assert await s.schema_version() == latest
        got = await s.get_match(match_id)
        assert (got.n_commands, got.seed, got.prng) == (1, 7, 1)

    d = _copy(tmp_path / "new", latest)
    (d / f"{latest + 1:04d}_notes.sql").write_text(
        "CREATE TABLE notes (id BIGINT PRIMARY KEY, text TEXT NOT NULL);\n"
        "INSERT INTO notes VALUES (1, 'it''s; here');\n"
        "CREATE FUNCTION two() RETURNS int LANGUAGE sql AS $$ SELECT 1; SELECT 2 $$;\n",
        encoding="utf-8")
    migs = migrate.load_migrations(d)
    for _ in range(2):  # applied once, then a no-op
        async with PostgresStore(pg_url, migrations=migs) as s:
            assert await s.schema_version() == latest + 1
    assert await _fetch(pg_url, "SELECT text, two() FROM notes") == [("it's; here", 2)]
    with pytest.raises(migrate.MigrationError, match="newer"):
        await PostgresStore(pg_url).open()


async def test_a_failed_migration_leaves_nothing_behind(pg_url, tmp_path):
    latest = migrate.latest_version()
    d = _copy(tmp_path / "m", latest)
    (d / f"{latest + 1:04d}_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nTHIS IS NOT SQL;\n", encoding="utf-8")
    with pytest.raises(migrate.MigrationError, match="broken"):
        await PostgresStore(pg_url, migrations=migrate.load_migrations(d)).open()
    assert await _versions(pg_url) == list(range(1, latest + 1))
    assert await _fetch(pg_url, "SELECT to_regclass('half_done')") == [(None,)]


# -- connecting ---------------------------------------------------------------------------------

async def test_a_server_that_cannot_be_reached_is_named_without_the_password(tmp_path, caplog):
    nowhere = tmp_path / "no-server-here"
    nowhere.mkdir()
    url = f"postgresql://bob:s3cret-Pa55@/bots_db?host={nowhere}"
    with caplog.at_level(logging.DEBUG):
        with pytest.raises(StoreError) as info:
            await open_store(url)
    msg = str(info.value)
    assert "bots_db" in msg and str(nowhere) in msg and "'bob'" in msg
    assert "s3cret-Pa55" not in msg and "s3cret-Pa55" not in repr(info.value)
    assert not any("s3cret-Pa55" in r.getMessage() for r in caplog.records)


async def test_a_missing_database_is_named_without_the_password(pg_server):
    url = pg_server.url("no_such_db").replace("postgres@", "postgres:hunter2-xyz@", 1)
    assert "hunter2-xyz" in url
    with pytest.raises(StoreError) as info:
        await open_store(url)
    msg = str(info.value)
    assert "no_such_db" in msg and "hunter2-xyz" not in msg
    assert "hunter2-xyz" not in repr(PostgresStore(url))


async def test_open_store_gives_a_postgres_store_sized_by_the_url(pg_url):
    for scheme in ("postgresql://", "postgres://"):
        s = await open_store(pg_url.replace("postgresql://", scheme, 1) + "&pool_max_size=3")
        try:
            assert isinstance(s, PostgresStore)
            assert s._pool.get_max_size() == 3 and s._pool.get_min_size() == 1
        finally:
            await s.close()
    s = await open_store(pg_url)
    try:
        assert s._pool.get_max_size() == 10
    finally:
        await s.close()
    for bad in ("pool_max_size=many", "pool_max_size=0", "pool_min_size=5&pool_max_size=2"):
        with pytest.raises(StoreError, match="pool"):
            await open_store(pg_url + "&" + bad)


# -- 64-bit ids ---------------------------------------------------------------------------------

async def test_snowflake_size_ids_round_trip_in_every_table(pg_url):
    async with PostgresStore(pg_url) as s:
        rec = await s.create_match(MatchRecord(
            game="squares", seed=SMALL, seats=[BIG, BIG - 1], names=["a", "b"], creator=BIG,
            guild_id=BIG - 2, channel_id=BIG - 3, accepted=[BIG], abort_votes=[BIG - 1],
            spectators=[SMALL], status=ACTIVE))
        got = await s.get_match(rec.id)
        assert got == rec and got.seats == [BIG, BIG - 1] and got.seed == SMALL
        assert [m.id for m in await s.matches_for_user(BIG - 1)] == [rec.id]
        assert [m.id for m in await s.matches_in_channel(BIG - 3)] == [rec.id]
        done = await s.update_match(replace(rec, status=FINISHED,
                                            result={"winners": [0], "reason": "resign"}), 1)
        assert [(r.user_id, r.guild_id, r.outcome) for r in await s.results_for_user(BIG)] == [
            (BIG, BIG - 2, "win")]
        assert [(a.user_id, b.user_id) for a, b in await s.head_to_head(BIG, BIG - 1)] == [
            (BIG, BIG - 1)]
        await s.set_ref(done.id, f"dm:{BIG}", str(BIG))
        assert await s.get_refs(done.id) == {f"dm:{BIG}": str(BIG)}
        await s.set_guild_setting(BIG, "locale", "ja")
        assert await s.get_guild_settings(BIG) == {"locale": "ja"}
        row = RatingRow("global", "squares", BIG, 27.0, 7.5, 1, 1, 0, 0, 5.0)
        hist = RatingChange(done.id, "global", "squares", BIG, 25.0, 8.3, 27.0, 7.5, 5.0)
        assert await s.record_processed(done.id, True, [row], [hist], 5.0)
        assert await s.get_ratings("global", "squares", [BIG]) == {BIG: row}
        assert await s.rating_history(BIG, "squares", "global") == [hist]
        league = await s.create_league(LeagueRecord(guild_id=BIG, status="signup",
                                                    data={"players": [str(BIG)]}))
        assert [lg.id for lg in await s.leagues(BIG)] == [league.id]
        await s.save_deck(BIG, "maken", "mine", {"cards": {"x": 2}})
        assert await s.list_decks(BIG, "maken") == [("mine", {"cards": {"x": 2}})]
        with pytest.raises(ValueError):   # a legacy seed lives in the BIGINT column
            await s.create_match(replace(rec, seed=2 ** 63, prng=1))
        keyed = await s.create_match(replace(rec, seed=2 ** 128 - 1))   # a keyed one in text
        assert (await s.get_match(keyed.id)).seed == 2 ** 128 - 1


async def test_text_sorts_by_code_point_as_in_sqlite(pg_url, tmp_path):
    names = ["b", "B", "a", "Z", "é", "あ", "_x", "10", "9"]
    results = []
    for url in (str(tmp_path / "s.db"), pg_url):
        s = await open_store(url)
        try:
            for n in names:
                await s.save_deck(1, "maken", n, {"n": n})
            results.append([n for n, _ in await s.list_decks(1, "maken")])
        finally:
            await s.close()
    assert results[0] == results[1] == sorted(names)


# -- a whole match through the host -------------------------------------------------------------

ALICE, BOB = 101, 202


async def test_a_squares_match_on_postgres_survives_a_restart_and_finishes(pg_url):
    """A SQUARES match through the real host on PostgreSQL (records wired as the bot wires them);
    a fresh host and store on the same database resume it mid-match with nothing lost, finish
    it, and the replayed log gives the stored result."""
    import random

    game = registry.get("squares")
    clock = Clock()
    rng = random.Random(11)
    s1 = await open_store(pg_url)
    try:
        h1 = Host(s1, now=clock, render=True)
        h1.on_finish.append(Records(s1).on_finish)
        res = await h1.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")],
                                 options={"first": 0, "max_turns": 60}, guild_id=7, channel_id=8)
        assert res.ok, res.error
        mid = res.match.id
        res = await h1.accept(mid, BOB)
        assert res.ok and res.match.status == ACTIVE
        played = []
        for _ in range(12):
            rec = await s1.get_match(mid)
            uid = rec.seats[(await h1.to_act(mid))[0]]
            cmd = rng.choice(await h1.legal(mid, uid))
            res = await h1.command(mid, uid, cmd)
            assert res.ok, res.error
            assert res.public.picture[:8] == b"\x89PNG\r\n\x1a\n"
            played.append(cmd)
        before = (await h1.status(mid)).public.view
        version = (await s1.get_match(mid)).version
    finally:
        await s1.close()

    s2 = await open_store(pg_url)
    try:
        h2 = Host(s2, now=clock, render=False)
        h2.on_finish.append(Records(s2).on_finish)
        assert await h2.resume() == 1
        assert (await h2.status(mid)).public.view == before
        assert [c.command for c in await s2.commands(mid)] == played
        assert (await s2.get_match(mid)).version == version
        while (rec := await s2.get_match(mid)).status == ACTIVE:
            uid = rec.seats[(await h2.to_act(mid))[0]]
            res = await h2.command(mid, uid, rng.choice(await h2.legal(mid, uid)))
            assert res.ok, res.error
        assert rec.status == FINISHED and rec.result is not None
        log = await s2.commands(mid)
        assert [c.seq for c in log] == list(range(1, rec.n_commands + 1))
        state = game.new_match(players=2, seed=rec.seed, options=rec.options)
        for c in log:
            state = game.apply(state, c.seat, c.command)
        assert game.outcome(state) == rec.result
        rows = await s2.results_for_match(mid)
        assert [(r.user_id, r.guild_id) for r in rows] == [(ALICE, 7), (BOB, 7)]
        assert await s2.is_processed(mid)
        assert set(await s2.get_ratings("global", "squares", [ALICE, BOB])) == {ALICE, BOB}
        assert await h2.resume() == 0
    finally:
        await s2.close()


# -- the bot on PostgreSQL ----------------------------------------------------------------------

async def test_the_bot_starts_on_postgres_from_database_url(pg_url, tmp_path):
    import bot as bot_module
    from discord_fakes import FakeDiscord, install

    config = replace(bot_module.Config.from_env({"DATABASE_URL": pg_url, "SYNC_COMMANDS": "0"}),
                     token="t", clock=False)
    assert config.database_url == pg_url
    bot = bot_module.make_bot(config)
    install(bot, FakeDiscord())
    await bot.login("t")
    try:
        assert isinstance(bot.store, PostgresStore)
        assert bot.get_cog("Game") and bot.get_cog("Settings")
        res = await bot.host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")])
        assert res.ok
    finally:
        await bot.close()
    s = await open_store(pg_url)
    try:
        assert [m.id for m in await s.unfinished_matches()] == [res.match.id]
    finally:
        await s.close()


async def test_the_bot_refuses_to_start_on_an_unreachable_server_without_showing_the_password(tmp_path):
    import bot as bot_module
    from discord_fakes import FakeDiscord, install

    url = f"postgresql://doujin:pa55-W0rd@/doujin?host={tmp_path}"
    bot = bot_module.make_bot(bot_module.Config(token="t", database_url=url, sync_commands=False,
                                                clock=False))
    install(bot, FakeDiscord())
    try:
        with pytest.raises(StoreError) as info:
            await bot.login("t")
        assert "'doujin'" in str(info.value) and str(tmp_path) in str(info.value)
        assert "pa55-W0rd" not in str(info.value)
    finally:
        await bot.close()


# -- the placeholder rewriter ------------------------------------------------------------------

def test_pg_sql_numbers_the_placeholders_in_order():
    from data.postgres_store import pg_sql
    assert pg_sql("SELECT 1") == "SELECT 1"
    assert pg_sql("UPDATE t SET a = ?, b = ? WHERE id = ? AND v = ?") == \
        "UPDATE t SET a = $1, b = $2 WHERE id = $3 AND v = $4"
    assert pg_sql("WHERE status = ANY(?::text[]) AND x IN (?, ?) LIMIT ?") == \
        "WHERE status = ANY($1::text[]) AND x IN ($2, $3) LIMIT $4"
    assert pg_sql("WHERE status = 'active' AND deadline <= ?") == \
        "WHERE status = 'active' AND deadline <= $1"


def test_pg_sql_refuses_a_literal_question_mark_or_dollar():
    from data.postgres_store import pg_sql
    with pytest.raises(AssertionError):
        pg_sql("SELECT 'what?' FROM t WHERE id = ?")
    with pytest.raises(AssertionError):
        pg_sql("SELECT $1")


def test_every_shared_statement_rewrites():
    """All SQL the shared store runs on PostgreSQL goes through pg_sql without tripping it."""
    from data import rows
    from data.postgres_store import PostgresStore, pg_sql
    for sql in (rows.SELECT, rows.INSERT, rows.UPDATE, PostgresStore._SQL_PROCESSED,
                PostgresStore._SQL_RATINGS, PostgresStore._SQL_HISTORY,
                PostgresStore._SQL_RESULTS):
        out = pg_sql(sql)
        assert "?" not in out
        assert out.count("$") == sql.count("?")


def test_the_local_console_keeps_its_match_in_postgres(pg_url):
    """``python bot.py --local --db postgresql://…``: the console opens any store URL; every
    move it accepted is in PostgreSQL's command log when it quits."""
    import io

    from host.console import main as console_main

    game = registry.get("squares")
    state = game.new_match(players=2, seed=5, options={})
    lines = []
    for _ in range(4):
        seat = game.to_act(state)[0]
        cmd = game.legal_commands(state, seat)[0]
        lines.append(f"{seat + 1}: {cmd}")
        state = game.apply(state, seat, cmd)
    out = io.StringIO()
    code = console_main(["--hot-seat", "--game", "squares", "--seed", "5", "--no-pictures", "--db", pg_url],
                        stdin=io.StringIO("\n".join(lines + ["quit"]) + "\n"), stdout=out)
    assert code == 0 and not [l for l in out.getvalue().splitlines() if l.startswith("! ")]

    async def logged() -> list[tuple[int, str]]:
        store = await open_store(pg_url)
        try:
            rec = (await store.matches_for_user(1))[0]
            return [(c.seat, c.command) for c in await store.commands(rec.id)]
        finally:
            await store.close()
    assert asyncio.run(logged()) == [(int(l.split(":")[0]) - 1, l.split(": ", 1)[1]) for l in lines]
