"""The PostgreSQL twin of :mod:`data.migrate`.

The migrations are the files of the :mod:`data.migrations.postgres` package, named and numbered
like the SQLite ones (``NNNN_description.sql``, 1, 2, 3, ... without gaps) and mirroring them one
for one.  :func:`apply_pg_migrations` applies the missing ones in order, each in its own
transaction together with its ``schema_version`` row.  Every such transaction first takes a
transaction-level advisory lock (``pg_advisory_xact_lock``) and only then reads the schema
version, so two processes starting at once serialise: the second waits, sees the first's work
and skips it.  A failed migration leaves nothing behind; running it again on an up-to-date
database applies nothing.  A file may contain several statements (and ``$$`` function bodies):
it is sent as one simple query.  It must not contain ``BEGIN``/``COMMIT``.
"""
from __future__ import annotations

import time

from data.migrate import Migration, MigrationError, load_migrations, next_migration

PACKAGE = "data.migrations.postgres"

# The advisory lock every migration transaction takes (any fixed 64-bit number, unique to this
# application within the database; ``doujin`` in ASCII).
MIGRATION_LOCK = 0x646F756A696E0001

SCHEMA_VERSION_DDL = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at DOUBLE PRECISION NOT NULL
)"""


def load_pg_migrations() -> list[Migration]:
    return load_migrations(package=PACKAGE)


async def current_pg_version(conn) -> int:
    """The highest applied migration (0 for a fresh database).  ``conn``: asyncpg."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def apply_pg_migrations(conn, migrations: list[Migration] | None = None) -> list[int]:
    """Apply the missing migrations through an asyncpg connection (outside a transaction);
    returns the versions applied (empty if up to date).  Raises :class:`MigrationError` if the
    database is newer than the code or a migration fails."""
    import asyncpg

    migs = load_pg_migrations() if migrations is None else sorted(migrations, key=lambda m: m.version)
    applied: list[int] = []
    while True:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            # Under the lock: another process may have migrated meanwhile.
            await conn.execute(SCHEMA_VERSION_DDL)
            mig = next_migration(migs, int(await conn.fetchval(
                "SELECT COALESCE(MAX(version), 0) FROM schema_version")))
            if mig is None:
                return applied
            try:
                await conn.execute(mig.sql)
            except asyncpg.PostgresError as e:
                raise MigrationError(f"migration {mig.name} failed: {e}") from e
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                mig.version, mig.name, time.time())
        applied.append(mig.version)
