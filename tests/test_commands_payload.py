"""`python bot.py --dump-commands` prints every application command exactly as it would be
synced — without a token and without a network — and every payload keeps Discord's limits."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NAME = re.compile(r"^[-_\w]{1,32}$")
SUBCOMMAND, GROUP = 1, 2


@pytest.fixture(scope="module")
def payload() -> list[dict]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}   # no token at all
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run([sys.executable, "bot.py", "--dump-commands"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert isinstance(data, list) and data
    return data


def walk(commands: list[dict], path: str = ""):
    """Yield (path, object, kind) for every command, option and choice."""
    for c in commands:
        here = f"{path} {c['name']}".strip()
        yield here, c, "command"
        for opt in c.get("options") or []:
            if opt["type"] in (SUBCOMMAND, GROUP):
                yield from walk([opt], here)
            else:
                yield f"{here}:{opt['name']}", opt, "option"
                for ch in opt.get("choices") or []:
                    yield f"{here}:{opt['name']}={ch['value']}", ch, "choice"


def check_name(where: str, name: str) -> None:
    assert NAME.match(name), f"{where}: bad name {name!r}"
    assert name == name.lower(), f"{where}: name {name!r} must be lowercase"


def test_dump_commands_lists_the_front_end(payload):
    assert {c["name"] for c in payload} == {"play", "move", "match", "rules", "help", "settings",
                                            "profile", "history", "h2h", "leaderboard", "league", "league-admin",
                                            "deck", "practice", "cards", "stats", "turns", "vacation", "notify",
                                            "card", "draft"}
    match = next(c for c in payload if c["name"] == "match")
    assert {o["name"] for o in match["options"]} == {
        "status", "resign", "abort", "hand", "log", "rematch", "spectate", "claim",
        "replay", "gif", "record", "judge"}
    settings = next(c for c in payload if c["name"] == "settings")
    assert settings["default_member_permissions"] == str(1 << 5) or settings["default_member_permissions"] == 1 << 5
    assert settings["dm_permission"] is False


def test_every_name_and_description_keeps_discords_limits(payload):
    assert len(payload) <= 100
    for where, obj, kind in walk(payload):
        if kind == "choice":
            assert 1 <= len(obj["name"]) <= 100, where
            for loc, text in (obj.get("name_localizations") or {}).items():
                assert 1 <= len(text) <= 100, f"{where} [{loc}]"
            assert not isinstance(obj["value"], str) or len(obj["value"]) <= 100
            continue
        check_name(where, obj["name"])
        for loc, text in (obj.get("name_localizations") or {}).items():
            check_name(f"{where} [{loc}]", text)
        assert 1 <= len(obj["description"]) <= 100, f"{where}: description {len(obj['description'])}"
        for loc, text in (obj.get("description_localizations") or {}).items():
            assert 1 <= len(text) <= 100, f"{where} [{loc}]: description {len(text)}"
        options = obj.get("options") or []
        assert len(options) <= 25, where
        assert len([o for o in options if o["type"] in (SUBCOMMAND, GROUP)]) <= 25, where
        assert len(obj.get("choices") or []) <= 25, where
        names = [o["name"] for o in options]
        assert len(names) == len(set(names)), f"{where}: duplicate option names"
        for loc in {l for o in options for l in (o.get("name_localizations") or {})}:
            local = [(o.get("name_localizations") or {}).get(loc, o["name"]) for o in options]
            assert len(local) == len(set(local)), f"{where}: duplicate {loc} option names"
        required_seen_optional = False
        for o in options:
            if o["type"] in (SUBCOMMAND, GROUP):
                continue
            if not o.get("required"):
                required_seen_optional = True
            else:
                assert not required_seen_optional, f"{where}: required option after optional"


def test_every_name_and_description_has_a_japanese_localization(payload):
    for where, obj, kind in walk(payload):
        assert "ja" in (obj.get("name_localizations") or {}), f"{where}: no ja name"
        if kind != "choice":
            assert "ja" in (obj.get("description_localizations") or {}), f"{where}: no ja description"
            assert obj["description_localizations"]["ja"] != obj["description"], where


def test_the_whole_payload_fits_discords_size_limit(payload):
    for c in payload:
        text = c["name"] + c["description"]
        for _where, obj, kind in walk([c]):
            if kind != "command" or obj is not c:
                text += obj["name"] + obj.get("description", "")
                if kind == "choice":
                    text += str(obj["value"])
        assert len(text) <= 4000, c["name"]


def _no_token_run(tmp_path, **env_extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISCORD_TOKEN", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(PYTHONPATH=str(ROOT), **env_extra)
    return subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)


def test_without_a_token_bot_py_explains_how_to_get_one_and_exits_2(tmp_path):
    proc = _no_token_run(tmp_path, LANG="C.UTF-8")
    assert proc.returncode == 2
    out = proc.stderr + proc.stdout
    for needle in ("DISCORD_TOKEN", "developers", "bot applications.commands", "View Channels",
                   "Send Messages in Threads", "Create Public Threads", "Attach Files", "--local",
                   "Message Content"):
        assert needle in out, needle


def test_without_a_token_a_japanese_terminal_gets_the_help_in_japanese(tmp_path):
    proc = _no_token_run(tmp_path, LANG="ja_JP.UTF-8")
    assert proc.returncode == 2
    assert "トークンが見つかりません" in proc.stderr and "python bot.py --local" in proc.stderr
