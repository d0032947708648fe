"""bot.py: configuration, intents, command sync, the --local dispatch."""
from __future__ import annotations

import pytest

import bot as bot_module
from discord_fakes import FakeDiscord, install


def test_config_reads_every_setting_with_defaults():
    cfg = bot_module.Config.from_env({})
    assert cfg.token is None and cfg.database_url == bot_module.DEFAULT_DATABASE_URL
    assert cfg.shard_count is None and cfg.dev_guild_id is None and cfg.sync_commands and cfg.log_level == "INFO"
    cfg = bot_module.Config.from_env({"DISCORD_TOKEN": " abc ", "DATABASE_URL": "sqlite:///x.db", "LOG_LEVEL": "debug",
                                      "SHARD_COUNT": "3", "DEV_GUILD_ID": "42", "SYNC_COMMANDS": "0"})
    assert (cfg.token, cfg.database_url, cfg.log_level, cfg.shard_count, cfg.dev_guild_id, cfg.sync_commands) == \
        ("abc", "sqlite:///x.db", "DEBUG", 3, 42, False)
    with pytest.raises(SystemExit):
        bot_module.Config.from_env({"SHARD_COUNT": "many"})


def test_intents_need_nothing_privileged():
    intents = bot_module.make_intents()
    assert not intents.message_content and not intents.members and not intents.presences
    assert intents.guilds


def test_env_example_lists_every_setting_without_a_token():
    text = (bot_module.__file__.rsplit("/", 1)[0] + "/.env.example")
    content = open(text, encoding="utf-8").read()
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "LOG_LEVEL", "SHARD_COUNT", "DEV_GUILD_ID", "SYNC_COMMANDS"):
        assert f"\n{name}=" in content or f"\n# {name}=" in content     # set, or shown with its default
    assert "\nDISCORD_TOKEN=\n" in content


async def test_start_up_syncs_commands_with_localizations_to_the_dev_guild(tmp_path):
    config = bot_module.Config(token="t", database_url=f"sqlite:///{tmp_path}/b.sqlite3", dev_guild_id=777,
                               sync_commands=True, clock=False)
    bot = bot_module.make_bot(config)
    fake = FakeDiscord()
    install(bot, fake)
    await bot.login("t")
    try:
        [(guild, payload)] = fake.synced
        assert guild == "777"
        play = next(c for c in payload if c["name"] == "play")
        assert play["name_localizations"]["ja"] == "対戦"
        assert bot.get_cog("Game") and bot.get_cog("Delivery") and bot.get_cog("Settings")
    finally:
        await bot.close()


def test_local_dispatches_to_the_console(monkeypatch):
    seen = []
    import host.console

    monkeypatch.setattr(host.console, "main", lambda argv: seen.append(argv) or 0)
    assert bot_module.main(["--local", "--game", "squares", "--out", "boards"]) == 0
    assert seen == [["--game", "squares", "--out", "boards"]]


def test_unknown_arguments_are_refused():
    assert bot_module.main(["--nope"]) == 2


def test_a_broken_card_file_stops_the_start_naming_file_card_and_field(tmp_path):
    """Issue 3: card data is "loaded and validated at start-up with errors that name the file,
    the card and the field" — a server admin's own card file that is wrong stops `python bot.py`
    (and --local) with that message and exit code 2, not a traceback."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "server.json").write_text(
        '{"format": 1, "cards": [{"id": "srv01", "category": "Ac", "name": {"en": "X", "ja": "X"},'
        ' "colour": "white", "cb": false, "range": [[1]]}]}', encoding="utf-8")
    env = {**os.environ, "LOGIC_SQUARE_CARDS_DIR": str(tmp_path), "DISCORD_TOKEN": "x", "LANG": "C"}
    root = Path(bot_module.__file__).parent
    for args in ([], ["--local"]):
        run = subprocess.run([sys.executable, "bot.py", *args], cwd=root, env=env, input="",
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 2
        assert "Traceback" not in run.stderr
        assert "Card data error" in run.stderr
        assert "server.json" in run.stderr and "'srv01'" in run.stderr and "'text'" in run.stderr
