"""Shared fixtures: a host on a fresh SQLite file with a hand-driven clock; the bot on discord.py's
real objects with the HTTP layer faked (``env``); a throw-away PostgreSQL server (``pg_server``,
started on first use, see :mod:`pg_server`) with a fresh database per test (``pg_url``); and
``backend``, one database of each store backend for tests that must hold on both."""
from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from data.store import Store, open_store
from host import Host

import pg_server as _pg
from discord_fakes import Clock, make_env

# Compiled bytecode is kept (in __pycache__, which git ignores) even where the environment says
# not to write it (PYTHONDONTWRITEBYTECODE): the suite starts over a hundred processes — the
# end-to-end bots, the console, benchmark and balance workers — and each would otherwise compile
# the whole project again, about a second of CPU apiece.  Workers and subprocesses inherit this.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


@pytest.fixture
async def clocked_host(tmp_path):
    """``await clocked_host(render=…)``: a :class:`host.Host` on its own SQLite file, with
    ``host.clock`` (a hand-driven :class:`discord_fakes.Clock`) as its time."""
    stores = []

    async def make(render: bool = False) -> Host:
        store = await open_store(str(tmp_path / f"host{len(stores)}.db"))
        stores.append(store)
        clock = Clock()
        h = Host(store, now=clock, render=render)
        h.clock = clock
        return h

    yield make
    for store in stores:
        await store.close()


_HELPER_STORES: list = []


def close_after_test(store: Store) -> Store:
    """``store``, opened by a test module's helper rather than a fixture, closed after the test
    by :func:`close_helper_stores` (a module uses it with ``pytestmark``): an open store keeps
    its database thread alive, and pytest without ``-n`` would wait for it at exit."""
    _HELPER_STORES.append(store)
    return store


@pytest.fixture
async def close_helper_stores():
    yield
    while _HELPER_STORES:
        await _HELPER_STORES.pop().close()


@pytest.fixture
async def env(tmp_path):
    """The bot with its cogs on a fake Discord (``discord_fakes.make_env``), pictures off."""
    e = await make_env(tmp_path)
    yield e
    await e.close()


# -- what each test is (pyproject.toml, markers) ----------------------------------------------

# Modules by kind; every test of tests/e2e is ``e2e``.  A module that plays hundreds of random
# matches is ``fuzz``, one where the computer plays itself or a benchmark runs is ``selfplay``,
# one that stops, freezes, locks or fills a real database is ``outage``.  Each of them is also
# ``slow``: ``pytest -m "not slow"`` is the everyday subset (README, "Quick start").
KINDS = {
    "outage": {"test_db_outages.py", "test_faults_harness.py"},
    "fuzz": {"test_squares_random.py", "test_logic_square_random.py", "test_maken_random.py",
             "test_art_of_war_random.py", "test_avalon_random.py", "test_determinize.py",
             "test_window_secrecy.py", "test_card_sets_fuzz.py", "test_card_sets_hostile_fuzz.py"},
    "selfplay": {"test_ai.py", "test_balance.py", "test_bench.py", "test_balance_runs.py"},
}


def pytest_xdist_auto_num_workers(config):
    """``pytest -n auto``: three workers per core (at most eight more than the cores).  The
    end-to-end tests spend four fifths of their time waiting — for the bot process, a quiet
    spell, a rate-limit window — and with two a core both cores still sat half idle whenever
    the workers were in those scenarios together; with three they stay busy in every
    half-minute but the first and the last (docs/testing.md has the figures).  ``PYTEST_XDIST_AUTO_NUM_WORKERS``
    still decides when it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "").strip().isdigit():
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:          # not on Linux
        cores = os.cpu_count() or 1
    if "notslow" in (config.getoption("markexpr", "") or "").replace(" ", ""):
        return cores                # the everyday subset computes all the time: one worker a core
    return min(3 * cores, cores + 8)


# The modules whose tests take longest (docs/testing.md), longest first.  ``--dist worksteal``
# hands each worker one slice of the list in order and lets an idle worker take the end of a
# busy one's queue, so these go to the front of every worker's slice in turn: each worker starts
# with its share of the long scenarios, and what is left to take at the end is short.
LONGEST_FIRST = ("test_card_sets_e2e.py", "test_tournament_e2e.py", "test_card_sets_hostile_fuzz.py",
                 "test_shards_e2e.py", "test_event_read_through_e2e.py", "test_read_through_e2e.py",
                 "test_window_secrecy.py", "test_stats_e2e.py", "test_every_game_e2e.py",
                 "test_finished_thread_e2e.py", "test_bench.py", "test_logic_square_random.py",
                 "test_db_outages.py", "test_card_sets_fuzz.py", "test_faults_harness.py")


def spread_longest(items: list, workers: int, rank: dict, waiting=lambda item: False) -> list:
    """``items`` ordered so that the slices worksteal cuts for ``workers`` workers (the first
    gets ``n // workers``, the next ``(n - that) // (workers - 1)``, …) each begin with every
    ``workers``-th of the long tests, longest first.  The other tests that mostly wait
    (``waiting``: the end-to-end and outage tests) are dealt round the slices too and spread
    over the first three quarters of each, between the tests that compute: a slice ends with
    short computing tests — what an idle worker takes from a busy one's end — so the last
    minute keeps both cores busy instead of every worker waiting on a scenario at once.  The
    rest keep their order."""
    long_tests = sorted((it for it in items if _module(it) in rank), key=lambda it: rank[_module(it)])
    others = [it for it in items if _module(it) not in rank]
    slots = max(1, workers)
    waits = [it for it in others if waiting(it)]
    busy = iter([it for it in others if not waiting(it)])
    heads: list[list] = [long_tests[j::slots] for j in range(slots)]
    wait_parts: list[list] = [waits[j::slots] for j in range(slots)]
    out: list = []
    left = len(items)
    for i in range(slots):
        size = left // (slots - i)
        left -= size
        fill = list(itertools.islice(busy, max(0, size - len(heads[i]) - len(wait_parts[i]))))
        out += heads[i] + _spread(wait_parts[i], fill, 0.75)
    return out + list(busy)


def _spread(few: list, many: list, share: float) -> list:
    """``many`` in order with ``few`` (in order) placed evenly over its first ``share``."""
    if not few or not many:
        return few + many
    span = share * len(many)
    at = [int(j * span / len(few)) for j in range(len(few))]
    out, k = [], 0
    for i, item in enumerate(many):
        while k < len(few) and at[k] <= i:
            out.append(few[k])
            k += 1
        out.append(item)
    return out + few[k:]


def _module(item) -> str:
    return Path(str(item.fspath)).name


def _waiting(item) -> bool:
    """An end-to-end or outage test: most of its time is spent waiting on processes and clocks."""
    path = Path(str(item.fspath))
    return "e2e" in path.parts or path.name in KINDS["outage"]


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    items[:] = spread_longest(items, workers, rank, waiting=_waiting)
    for item in items:
        path = Path(str(item.fspath))
        kinds = [kind for kind, names in KINDS.items() if path.name in names]
        if "e2e" in path.parts:
            kinds.append("e2e")
        for kind in kinds:
            item.add_marker(getattr(pytest.mark, kind))
        if kinds:
            item.add_marker(pytest.mark.slow)


# -- PostgreSQL -------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def pg_server():
    """The test PostgreSQL server (``TEST_POSTGRES_URL``, or one started in a temporary folder
    on a Unix socket only).  Skips the test when there are no server binaries — fails it
    instead when ``REQUIRE_POSTGRES`` is set (as ``.ci/run`` does)."""
    try:
        server = _pg.start()
    except _pg.Unavailable as e:
        if os.environ.get("REQUIRE_POSTGRES"):   # .ci/run: these tests must run, not skip
            pytest.fail(f"REQUIRE_POSTGRES is set but there is no PostgreSQL server: {e}")
        pytest.skip(f"PostgreSQL tests need a server: {e}")
    yield server
    server.stop()


_db_numbers = itertools.count(1)


async def _admin(server: _pg.PgServer, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(server.base_url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _admin_sync(server: _pg.PgServer, sql: str) -> None:
    # on a thread of its own: this may run while the test's event loop is running
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _admin(server, sql)).result()


@pytest.fixture
def pg_url(pg_server):
    """The URL of a fresh, empty database on the test server (dropped after the test)."""
    name = f"doujin_test_{os.getpid()}_{next(_db_numbers)}"
    _admin_sync(pg_server, f'CREATE DATABASE "{name}"')
    yield pg_server.url(name)
    _admin_sync(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_template(pg_server):
    """A database migrated to the latest schema, made once per test process, to copy: a store test
    starts from a copy of it (``CREATE DATABASE … TEMPLATE``) instead of migrating a fresh database
    every time.  Its fingerprint (:data:`_FINGERPRINT`) is what a copy must still show to be used
    again (:func:`pg_migrated_url`)."""
    name = f"doujin_template_{os.getpid()}"
    _admin_sync(pg_server, f'CREATE DATABASE "{name}"')

    async def migrate() -> str:
        import asyncpg

        from data.postgres_store import PostgresStore

        store = PostgresStore(pg_server.url(name))
        await store.open()
        await store.close()
        conn = await asyncpg.connect(pg_server.url(name))
        try:
            return await conn.fetchval(_FINGERPRINT)
        finally:
            await conn.close()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        fingerprint = pool.submit(asyncio.run, migrate()).result()
    return name, fingerprint


# The schema of a database as one text: its tables, columns, indexes, constraints, triggers,
# sequences and migration versions.  A copy whose fingerprint is still the template's can be
# emptied and used by the next test; one a test altered is dropped.
_FINGERPRINT = """
SELECT md5(concat_ws('|',
  (SELECT string_agg(table_name || '.' || column_name || ':' || data_type || ':' || is_nullable || ':'
                     || coalesce(column_default, ''), ',' ORDER BY table_name, column_name)
     FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')),
  (SELECT string_agg(indexdef, ',' ORDER BY indexdef) FROM pg_indexes
     WHERE schemaname NOT IN ('pg_catalog', 'information_schema')),
  (SELECT string_agg(conname || pg_get_constraintdef(oid), ',' ORDER BY conname, pg_get_constraintdef(oid))
     FROM pg_constraint WHERE connamespace = 'public'::regnamespace),
  (SELECT string_agg(tgname, ',' ORDER BY tgname) FROM pg_trigger WHERE NOT tgisinternal),
  (SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class
     WHERE relkind IN ('r', 'S', 'v', 'm', 'f', 'p') AND relnamespace = 'public'::regnamespace),
  (SELECT string_agg(nspname, ',' ORDER BY nspname) FROM pg_namespace),
  (SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_version)))
"""
_pg_free: list[str] = []        # emptied copies of the template, ready for the next test


async def _empty(server: _pg.PgServer, name: str, fingerprint: str) -> bool:
    """Make the database ``name`` as a fresh copy of the template would be — every connection a
    test left closed, every table but the migration versions emptied, every sequence back at its
    start — and say whether it may be used again (its schema is still the template's)."""
    import asyncpg

    conn = await asyncpg.connect(server.url(name))
    try:
        await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        if await conn.fetchval(_FINGERPRINT) != fingerprint:
            return False
        tables = [r[0] for r in await conn.fetch(
            "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_version'")]
        async with conn.transaction():
            await conn.execute("SET LOCAL session_replication_role = replica")     # no foreign-key order
            await conn.execute("".join(f"DELETE FROM {t};" for t in tables))
            await conn.execute("SELECT setval(c.oid, s.seqstart, false) FROM pg_class c "
                               "JOIN pg_sequence s ON s.seqrelid = c.oid WHERE c.relnamespace = 'public'::regnamespace")
        return True
    except asyncpg.PostgresError:
        return False
    finally:
        await conn.close()


@pytest.fixture
def pg_migrated_url(pg_server, pg_template):
    """The URL of a database at the latest schema holding nothing, as a store opened on a fresh
    database would have made it.  A copy of :func:`pg_template`, emptied after each test and
    used again (a new database costs the server ~90 ms of work in its first queries, an emptied
    one ~5 ms); a copy whose schema a test changed is dropped instead."""
    template, fingerprint = pg_template
    if _pg_free:
        name = _pg_free.pop()
    else:
        name = f"doujin_test_{os.getpid()}_{next(_db_numbers)}"
        _admin_sync(pg_server, f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    yield pg_server.url(name)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        again = pool.submit(asyncio.run, _empty(pg_server, name, fingerprint)).result()
    if again:
        _pg_free.append(name)
    else:
        _admin_sync(pg_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Backend:
    """One database of one store backend: ``name`` is ``sqlite`` or ``postgres``, ``url`` what
    :func:`open_store` takes, ``await open()`` another store on the same database (as a second
    process would have), ``await raw(sql, *args)`` runs SQL outside the store (``?``
    placeholders on both backends) and returns the rows as tuples."""

    def __init__(self, name: str, url: str, path: Path | None = None) -> None:
        self.name, self.url, self.path = name, url, path
        self.stores: list[Store] = []

    async def open(self, **kw: Any) -> Store:
        if self.name == "sqlite":
            from data.sqlite_store import SqliteStore
            store: Store = SqliteStore(self.path, **kw)
        else:
            from data.postgres_store import PostgresStore
            store = PostgresStore(self.url, **kw)
        await store.open()
        self.stores.append(store)
        return store

    async def raw(self, sql: str, *args: Any) -> list[tuple]:
        if self.name == "sqlite":
            import sqlite3
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=10)
            try:
                return [tuple(r) for r in conn.execute(sql, args).fetchall()]
            finally:
                conn.close()
        import asyncpg
        n = itertools.count(1)
        pg_sql = "".join(f"${next(n)}" if ch == "?" else ch for ch in sql)
        conn = await asyncpg.connect(self.url)
        try:
            return [tuple(r) for r in await conn.fetch(pg_sql, *args)]
        finally:
            await conn.close()

    async def close(self) -> None:
        for s in self.stores:
            await s.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request, tmp_path):
    if request.param == "sqlite":
        path = tmp_path / "store.db"
        b = Backend("sqlite", str(path), path)
    else:
        b = Backend("postgres", request.getfixturevalue("pg_migrated_url"))
    yield b
    await b.close()
