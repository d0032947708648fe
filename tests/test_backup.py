"""Backups (issue 18): "python bot.py --backup PATH writes a consistent copy of the SQLite store
while the bot runs (SQLite's online backup API) and README shows how to restore it; for
PostgreSQL README points to pg_dump. Tested."""
from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import bot
from data.backup import BackupError, backup
from data.store import ACTIVE, open_store
from host import Host

ROOT = Path(__file__).resolve().parent.parent
ALICE, BOB = 101, 202


async def _match(host: Host) -> int:
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], options={"first": 0})
    res = await host.accept(res.match.id, BOB)
    assert res.ok and res.match.status == ACTIVE
    return res.match.id


async def test_a_backup_taken_while_commands_are_written_is_one_consistent_state(tmp_path):
    db, copy = tmp_path / "live.db", tmp_path / "backup.db"
    store = await open_store(str(db))
    host = Host(store, render=False)
    mids = [await _match(host) for _ in range(3)]
    stop = asyncio.Event()

    async def play() -> None:        # the bot goes on playing while the copy is taken
        while not stop.is_set():
            for mid in mids:
                rec = await store.get_match(mid)
                if rec.status != ACTIVE:
                    continue
                seat = (await host.to_act(mid))[0]
                legal = await host.legal(mid, rec.seats[seat])
                if legal:
                    await host.command(mid, rec.seats[seat], legal[0])
            await asyncio.sleep(0)

    player = asyncio.create_task(play())
    try:
        await asyncio.sleep(0.2)
        done = await asyncio.to_thread(backup, str(db), str(copy), pages=1)   # page by page
    finally:
        stop.set()
        await player
        await store.close()
    assert done["matches"] == 3 and copy.stat().st_size == done["bytes"]
    assert not Path(str(copy) + ".partial").exists()
    conn = sqlite3.connect(copy)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete", "one self-contained file"
    finally:
        conn.close()
    restored = await open_store(str(copy))          # restoring: the copy opens as the store
    try:
        for mid in mids:
            rec = await restored.get_match(mid)
            log = await restored.commands(mid)
            assert rec is not None and len(log) == rec.n_commands, "every command of the copy's moment, no gap"
        replayed = Host(restored, render=False)
        assert await replayed.legal(mids[0], ALICE) is not None     # its logs replay
    finally:
        await restored.close()


def test_a_postgresql_store_is_pointed_to_pg_dump(tmp_path):
    with pytest.raises(BackupError) as e:
        backup("postgresql://bot@localhost/bot", str(tmp_path / "x.db"))
    assert e.value.key == "bot.backup_postgres"


def test_bad_targets_are_refused_and_nothing_is_written(tmp_path):
    live = tmp_path / "live.db"
    sqlite3.connect(live).execute("CREATE TABLE matches (id INTEGER)").connection.commit()
    for url, target, key in [(str(tmp_path / "none.db"), tmp_path / "a.db", "bot.backup_missing"),
                             (":memory:", tmp_path / "a.db", "bot.backup_missing"),
                             (str(live), live, "bot.backup_same"),
                             (str(live), live / "a.db", "bot.backup_no_folder")]:
        with pytest.raises(BackupError) as e:
            backup(url, str(target))
        assert e.value.key == key
    assert sorted(p.name for p in tmp_path.iterdir()) == ["live.db"]


def test_the_folder_a_backup_goes_to_is_created(tmp_path):
    """The README's own example (``--backup backups/…``) on a fresh install: the folder is made."""
    live = tmp_path / "live.db"
    sqlite3.connect(live).execute("CREATE TABLE matches (id INTEGER)").connection.commit()
    backup(str(live), str(tmp_path / "backups" / "2026" / "a.db"))
    copy = sqlite3.connect(tmp_path / "backups" / "2026" / "a.db")
    assert copy.execute("SELECT name FROM sqlite_master").fetchall() == [("matches",)]
    copy.close()


def _run(args: list[str], env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bot.py"), *args], capture_output=True, text=True,
                          env={**os.environ, "DISCORD_TOKEN": "", **env}, cwd=ROOT, timeout=120)


async def test_the_command_line_backs_up_and_says_so_in_the_terminals_language(tmp_path):
    db = tmp_path / "bot.sqlite3"
    store = await open_store(str(db))
    await _match(Host(store, render=False))
    await store.close()
    out = _run(["--backup", str(tmp_path / "copy.db")], {"DATABASE_URL": f"sqlite:///{db}", "LANG": "C"})
    assert out.returncode == 0 and "Backed up 1 match to" in out.stdout
    assert (tmp_path / "copy.db").is_file()
    ja = _run(["--backup", str(tmp_path / "c2.db")], {"DATABASE_URL": "postgresql://u@h/d", "LANG": "ja_JP.UTF-8"})
    assert ja.returncode == 2 and "pg_dump" in ja.stderr and "バックアップ" in ja.stderr
    usage = _run(["--backup"], {"LANG": "C"})
    assert usage.returncode == 2 and "--backup PATH" in usage.stderr


def test_the_operators_guide_says_how_to_back_up_and_restore():
    text = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8")
    assert "python bot.py --backup" in text and "pg_dump" in text and "-wal" in text
    assert bot.run_backup.__doc__


def test_rebuild_stats_of_a_database_that_does_not_exist_refuses_and_creates_nothing(tmp_path):
    """An operator command on a DATABASE_URL that names no file would open a new, empty database
    and report on nothing: refused, in words, and no file is made."""
    missing = tmp_path / "elsewhere" / "bot.sqlite3"
    proc = _run(["--rebuild-stats", "123"], {"DATABASE_URL": f"sqlite:///{missing}", "LANG": "C"})
    assert proc.returncode == 2, proc.stderr
    assert "There is no database at" in proc.stderr and str(missing) in proc.stderr
    assert not missing.exists() and not missing.parent.exists()
