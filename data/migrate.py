"""A tiny migration runner for the SQLite store.

Migrations are plain SQL files shipped in the :mod:`data.migrations` package, named
``NNNN_description.sql`` and numbered 1, 2, 3, ... without gaps.  The table ``schema_version``
records which ones have been applied.  :func:`apply_migrations` applies the missing ones in
order, each in its own ``BEGIN IMMEDIATE`` transaction together with its ``schema_version`` row,
so a failed migration leaves nothing behind and two processes opening the same file at once
serialise (the second sees the first's work and skips it).  Running it again is a no-op.

A file must not contain ``BEGIN``/``COMMIT`` or PRAGMAs that cannot run in a transaction.

Command line: ``python -m data.migrate path/to/file.db`` migrates a file and prints its version.
"""
from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Iterable

_NAME = re.compile(r"^(\d{4})_([A-Za-z0-9_]+)\.sql$")

SCHEMA_VERSION_DDL = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at REAL NOT NULL
)"""


class MigrationError(Exception):
    pass


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        return split_statements(self.sql)


def split_statements(sql: str) -> list[str]:
    """Split a script into complete statements (``sqlite3.complete_statement`` understands
    comments, quoted semicolons and ``CREATE TRIGGER ... BEGIN ... END``)."""
    out: list[str] = []
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    rest = "\n".join(ln for ln in buf.splitlines() if not ln.strip().startswith("--")).strip()
    if rest:
        raise MigrationError(f"incomplete statement at the end of the script: {rest[:80]!r}")
    return out


def load_migrations(directory: str | Path | None = None,
                    package: str = "data.migrations") -> list[Migration]:
    """The migrations in ``directory`` (default: the ``package``, :mod:`data.migrations` for
    SQLite, ``data.migrations.postgres`` for PostgreSQL), in order.
    Raises :class:`MigrationError` on a bad name, a duplicate or a gap in the numbering."""
    if directory is None:
        files = [(f.name, f) for f in resources.files(package).iterdir()]
    else:
        files = [(f.name, f) for f in Path(directory).iterdir()]
    found: dict[int, Migration] = {}
    for fname, f in files:
        if not fname.endswith(".sql"):
            continue
        m = _NAME.match(fname)
        if not m:
            raise MigrationError(f"bad migration file name {fname!r} (want NNNN_name.sql)")
        version = int(m.group(1))
        if version in found:
            raise MigrationError(f"two migrations numbered {version}: "
                                 f"{found[version].name!r} and {fname!r}")
        found[version] = Migration(version, fname, f.read_text(encoding="utf-8"))
    out = [found[v] for v in sorted(found)]
    for i, mig in enumerate(out, start=1):
        if mig.version != i:
            raise MigrationError(f"migrations must be numbered 1, 2, 3, ... without gaps; "
                                 f"expected {i:04d}, found {mig.name!r}")
    return out


def latest_version(migrations: Iterable[Migration] | None = None) -> int:
    migs = list(migrations) if migrations is not None else load_migrations()
    return max((m.version for m in migs), default=0)


def next_migration(migs: list[Migration], have: int) -> Migration | None:
    """The first of ``migs`` (sorted) not yet applied to a database at schema version ``have``,
    or None when it is up to date.  Raises :class:`MigrationError` if the database is newer
    than the code (both backends)."""
    latest = latest_version(migs)
    if have > latest:
        raise MigrationError(
            f"the database is at schema version {have}, newer than this code "
            f"(latest {latest}); upgrade the code")
    return next((m for m in migs if m.version > have), None)


async def current_version(conn) -> int:
    """The highest applied migration (0 for a fresh database).  ``conn``: aiosqlite."""
    rows = await conn.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
    if not rows:
        return 0
    rows = await conn.execute_fetchall("SELECT COALESCE(MAX(version), 0) FROM schema_version")
    return int(rows[0][0])


async def apply_migrations(conn, migrations: list[Migration] | None = None) -> list[int]:
    """Apply the missing migrations to an aiosqlite connection opened with
    ``isolation_level=None``; returns the versions applied (empty if up to date).
    Raises :class:`MigrationError` if the database is newer than the code."""
    migs = load_migrations() if migrations is None else sorted(migrations, key=lambda m: m.version)
    applied: list[int] = []
    await conn.execute(SCHEMA_VERSION_DDL)
    while True:
        try:
            await conn.execute("BEGIN IMMEDIATE")
            # Re-read under the write lock: another process may have migrated meanwhile.
            rows = await conn.execute_fetchall(
                "SELECT COALESCE(MAX(version), 0) FROM schema_version")
            mig = next_migration(migs, int(rows[0][0]))
            if mig is None:
                await conn.execute("COMMIT")
                return applied
            try:
                for stmt in mig.statements():
                    await conn.execute(stmt)
            except sqlite3.Error as e:
                raise MigrationError(f"migration {mig.name} failed: {e}") from e
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (mig.version, mig.name, time.time()))
            await conn.execute("COMMIT")
            applied.append(mig.version)
        except BaseException:
            try:
                await conn.execute("ROLLBACK")
            except sqlite3.OperationalError:
                pass  # no transaction open: nothing to undo
            raise


def _main(argv: list[str] | None = None) -> int:
    import argparse
    import asyncio

    import aiosqlite

    ap = argparse.ArgumentParser(description="Apply pending migrations to a SQLite store file.")
    ap.add_argument("path")
    args = ap.parse_args(argv)

    async def run() -> None:
        async with aiosqlite.connect(args.path, isolation_level=None, timeout=30) as conn:
            done = await apply_migrations(conn)
            print(f"{args.path}: schema version {await current_version(conn)}"
                  + (f" (applied {', '.join(map(str, done))})" if done else " (up to date)"))

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
