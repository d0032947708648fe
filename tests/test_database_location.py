"""Where the bot keeps its matches, whatever folder it is started from.

Without ``DATABASE_URL`` the SQLite file is ``bot.sqlite3`` next to bot.py — for the bot and for
every operator command (``--backup``, ``--rebuild-stats``, ``--recheck-quarantine``) — and the
settings file read is the ``.env`` next to bot.py, never one of the current folder.  A relative
``sqlite:///x`` written in ``DATABASE_URL`` stays relative to the current folder, as typed, and
the start-up log and the operator commands name the absolute path."""
from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import bot as bot_module
from data import i18n
from data.store import ACTIVE, open_store
from discord_fakes import FakeDiscord, install
from host import Host

ROOT = Path(__file__).resolve().parent.parent
ALICE, BOB = 101, 202


# --------------------------------------------------------------------------- in this process
def test_the_default_database_is_next_to_bot_py_whatever_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = bot_module.Config.from_env({})
    assert config.database_url == f"sqlite:///{ROOT / 'bot.sqlite3'}" == bot_module.Config().database_url
    assert bot_module.sqlite_file(config.database_url) == ROOT / "bot.sqlite3"
    assert bot_module.Config.from_env({"DATABASE_URL": "  "}).database_url == config.database_url
    assert bot_module.ENV_FILE == ROOT / ".env"


def test_a_relative_database_url_stays_relative_to_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = bot_module.Config.from_env({"DATABASE_URL": "sqlite:///data/x.sqlite3"})
    assert config.database_url == "sqlite:///data/x.sqlite3"           # as typed
    assert bot_module.sqlite_file(config.database_url) == tmp_path.resolve() / "data" / "x.sqlite3"
    assert bot_module.absolute_url(config.database_url) == f"sqlite:///{tmp_path.resolve() / 'data' / 'x.sqlite3'}"
    assert bot_module.absolute_url("postgresql://u:secret@db/d") == "postgresql://u:secret@db/d"
    assert bot_module.sqlite_file(":memory:") is None and bot_module.sqlite_file("postgres://h/d") is None


async def test_the_start_up_log_names_the_absolute_path_opened(tmp_path, monkeypatch, caplog):
    """A relative DATABASE_URL opens the file in the current folder, and the log says where."""
    monkeypatch.chdir(tmp_path)
    config = bot_module.Config(token="t", database_url="sqlite:///rel.sqlite3", sync_commands=False, clock=False)
    bot = bot_module.make_bot(config)
    install(bot, FakeDiscord())
    with caplog.at_level(logging.INFO, logger="bot"):
        await bot.login("t")
    try:
        where = tmp_path.resolve() / "rel.sqlite3"
        assert where.is_file()
        assert f"database: {where}" in [r.getMessage() for r in caplog.records if r.name == "bot"]
    finally:
        await bot.close()


# --------------------------------------------------------------------------- the real command line
@pytest.fixture
def app(tmp_path: Path) -> Path:
    """A copy of bot.py in a folder of its own (its code imported from the project), so its own
    ``.env`` and default database are the test's; the project's own files are never touched."""
    folder = tmp_path / "app"
    folder.mkdir()
    shutil.copy(ROOT / "bot.py", folder / "bot.py")
    (tmp_path / "elsewhere").mkdir()
    return folder


def run(app: Path, cwd: Path, args: list[str], env: dict | None = None) -> subprocess.CompletedProcess:
    """``python app/bot.py ARGS`` started in ``cwd``; no setting of this process leaks in."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DATABASE_URL", "DISCORD_TOKEN", "LC_ALL", "LC_MESSAGES", "LANG")}
    clean.update({"PYTHONPATH": str(ROOT), "HOME": str(cwd), "LANG": "C", **(env or {})})
    return subprocess.run([sys.executable, str(app / "bot.py"), *args], capture_output=True, text=True,
                          env=clean, cwd=cwd, timeout=120)


async def one_match(path: Path) -> None:
    store = await open_store(str(path))
    try:
        host = Host(store, render=False)
        res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], options={"first": 0})
        res = await host.accept(res.match.id, BOB)
        assert res.ok and res.match.status == ACTIVE
    finally:
        await store.close()


async def test_operator_commands_from_another_folder_use_the_database_next_to_bot_py(app, tmp_path):
    """--backup (into a folder that does not exist yet), --rebuild-stats and --recheck-quarantine,
    started elsewhere with no DATABASE_URL, all work on app/bot.sqlite3 and make no database in
    the folder they run in."""
    await one_match(app / "bot.sqlite3")
    elsewhere = tmp_path / "elsewhere"
    backup = run(app, elsewhere, ["--backup", "backups/2026/12/copy.sqlite3"])
    assert backup.returncode == 0, backup.stderr
    copy = elsewhere / "backups" / "2026" / "12" / "copy.sqlite3"
    assert copy.is_file() and "Backed up 1 match to" in backup.stdout
    stats = run(app, elsewhere, ["--rebuild-stats", "123"])
    assert stats.returncode == 0, stats.stderr
    recheck = run(app, elsewhere, ["--recheck-quarantine"])
    assert recheck.returncode == 0, recheck.stderr
    assert "0 of 0" in recheck.stdout
    assert sorted(p.name for p in elsewhere.iterdir()) == ["backups"]        # no bot.sqlite3 made here


def test_without_the_database_next_to_bot_py_the_commands_refuse_naming_its_absolute_path(app, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    for args in (["--rebuild-stats", "123"], ["--recheck-quarantine"]):
        proc = run(app, elsewhere, args)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.strip() == i18n.t("bot.no_database", "en", path=str(app / "bot.sqlite3"))
    backup = run(app, elsewhere, ["--backup", "copy.sqlite3"])
    assert backup.returncode == 2 and str(app / "bot.sqlite3") in backup.stderr
    assert list(elsewhere.iterdir()) == [] and not (app / "bot.sqlite3").exists()


def test_a_relative_database_url_is_read_from_the_current_folder_and_named_absolute(app, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    proc = run(app, elsewhere, ["--rebuild-stats", "123"], {"DATABASE_URL": "sqlite:///mine.sqlite3"})
    assert proc.returncode == 2
    assert proc.stderr.strip() == i18n.t("bot.no_database", "en", path=str(elsewhere / "mine.sqlite3"))


async def test_the_env_file_next_to_bot_py_is_read_and_the_current_folders_is_not(app, tmp_path):
    """.env beside bot.py sets DATABASE_URL for a start from anywhere; a .env in the folder the
    command runs in changes nothing (it would otherwise pick another database)."""
    elsewhere = tmp_path / "elsewhere"
    theirs = tmp_path / "theirs.sqlite3"
    (elsewhere / ".env").write_text(f"DATABASE_URL=sqlite:///{theirs}\n", encoding="utf-8")
    ours = tmp_path / "ours.sqlite3"
    await one_match(ours)
    (app / ".env").write_text(f"DATABASE_URL=sqlite:///{ours}\n", encoding="utf-8")
    proc = run(app, elsewhere, ["--backup", "copy.sqlite3"])
    assert proc.returncode == 0, proc.stderr
    assert (elsewhere / "copy.sqlite3").is_file() and not theirs.exists()
    # the environment wins over .env
    other = tmp_path / "other.sqlite3"
    proc = run(app, elsewhere, ["--rebuild-stats", "5"], {"DATABASE_URL": f"sqlite:///{other}"})
    assert proc.returncode == 2 and str(other) in proc.stderr


@pytest.mark.skipif((ROOT / "bot.sqlite3").exists() or (ROOT / ".env").exists(),
                    reason="the project folder has its own database or .env: not touched")
def test_the_project_bot_py_started_elsewhere_looks_next_to_itself(tmp_path):
    proc = run(ROOT, tmp_path, ["--rebuild-stats", "123"])
    assert proc.returncode == 2
    assert proc.stderr.strip() == i18n.t("bot.no_database", "en", path=str(ROOT / "bot.sqlite3"))
    assert not (ROOT / "bot.sqlite3").exists() and list(tmp_path.iterdir()) == []


def test_docker_keeps_the_database_in_its_volume_and_the_examples_use_the_default():
    """The image runs bot.py from /app: its DATABASE_URL points into the /data volume; .env.example
    leaves DATABASE_URL out (an empty value would override the image's); the systemd unit's
    working folder is bot.py's."""
    docker = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "DATABASE_URL=sqlite:////data/bot.sqlite3" in docker and 'VOLUME ["/data"]' in docker
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert "\nDATABASE_URL=" not in example and "\n# DATABASE_URL=" in example
    unit = (ROOT / "deploy" / "doujin-table.service").read_text(encoding="utf-8")
    assert "WorkingDirectory=/opt/doujin-table\n" in unit
    assert "ExecStart=/opt/doujin-table/.venv/bin/python bot.py" in unit
