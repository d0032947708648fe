"""``python bot.py --backup PATH`` (issue 18): a consistent copy of the SQLite store, taken while
the bot runs.

SQLite's online backup API (``sqlite3.Connection.backup``) copies the database page by page and
restarts a step whenever a writer changes it meanwhile, so the copy is one committed state: every
acknowledged command up to some moment, nothing half-written.  The WAL is included (the copy
reads through SQLite, not the files), and the copy is written to a temporary file first and then
renamed, so a crash mid-copy never leaves a half-written backup under ``PATH``.

Restoring: stop the bot, put the copy where ``DATABASE_URL`` points (and remove that file's
``-wal`` and ``-shm`` companions), start the bot.  PostgreSQL has its own tool: ``pg_dump``.
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path


class BackupError(Exception):
    """The backup cannot be made; ``key``/``params`` name the catalog message saying why."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite ``DATABASE_URL`` (None for PostgreSQL)."""
    if url.startswith(("postgres://", "postgresql://")):
        return None
    return url[len("sqlite:///"):] if url.startswith("sqlite:///") else url


def backup(url: str, target: str, *, pages: int = 256) -> dict:
    """Copy the SQLite store of ``url`` to ``target``; returns what was copied (path, bytes,
    matches).  Raises :class:`BackupError` for PostgreSQL, an in-memory or missing database,
    or a target that is the database itself."""
    source = sqlite_path(url)
    if source is None:
        raise BackupError("bot.backup_postgres")
    if source == ":memory:" or not Path(source).is_file():
        raise BackupError("bot.backup_missing", path=source)
    dest = Path(target)
    if dest.exists() and dest.resolve() == Path(source).resolve():
        raise BackupError("bot.backup_same", path=target)
    if dest.parent and not dest.parent.is_dir():
        try:        # the folder a backup goes to is made when it is missing (backups/2026-12-07.db)
            dest.parent.mkdir(parents=True, exist_ok=True)
        except OSError:     # a file in the way, no permission: said, and nothing written
            raise BackupError("bot.backup_no_folder", path=str(dest.parent)) from None
    tmp = dest.with_name(dest.name + ".partial")
    if tmp.exists():
        tmp.unlink()
    # an ordinary connection (a read-only one cannot open a WAL database whose -shm is gone);
    # it only reads: no migration, no statement that writes
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(str(tmp))
        try:
            src.backup(dst, pages=pages)
            check = dst.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise BackupError("bot.backup_corrupt", detail=str(check)[:200])
            dst.execute("PRAGMA journal_mode=DELETE")   # one self-contained file
            matches = dst.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
        finally:
            dst.close()
    except BaseException:
        if tmp.exists():
            tmp.unlink()
        raise
    finally:
        src.close()
    os.replace(tmp, dest)
    return {"path": str(dest), "bytes": dest.stat().st_size, "matches": int(matches)}
