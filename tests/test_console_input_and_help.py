"""The console and the command lines (issue 33, "The console"): ``help`` lists one command a line
in words with its notation and explains the game's notation; Ctrl-C ends at once and cleanly;
a wrong token or no network is one line that says what to do; discord.py's voice warning is
silenced; full-width input is read and control characters are never echoed; ``--db`` resumes an
unfinished match; seats are typed from 1 everywhere; ``--help`` is argparse's, with every
environment variable; ``python -m bench``/``balance`` ``--help`` are plain text.
No Discord token and no network: discord.py's login is monkeypatched to fail as it would."""
from __future__ import annotations

import io
import logging
import os
import re
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

import bot
from host.console import main as console_main

ROOT = Path(__file__).resolve().parents[1]


def run(argv: list[str], typed: str = "", code: int = 0) -> str:
    out = io.StringIO()
    assert console_main(argv, stdin=io.StringIO(typed), stdout=out) == code, out.getvalue()[-2000:]
    return out.getvalue()


def refusals(text: str) -> list[str]:
    """The lines that refuse what was typed ("! …", also right after a prompt)."""
    return re.findall(r"(?:^|> )(! .*)$", text, flags=re.M)


def legal_block(text: str) -> list[str]:
    """The indented lines under the first "Legal commands for …" heading."""
    lines = text.split("Legal commands for ", 1)[1].splitlines()[1:]
    block = []
    for line in lines:
        if not line.startswith("  "):
            break
        block.append(line)
    return block


# ------------------------------------------------------------------------------------ help

@pytest.mark.parametrize("game, words", [("maken", ("ready", "mulligan")), ("art_of_war", ("keep", "mulligan"))])
def test_help_lists_one_command_a_line_in_words_with_its_notation(game, words):
    text = run(["--hot-seat", "--game", game, "--seed", "1", "--no-pictures", "--options", "first=1"], "help\nquit\n")
    block = legal_block(text)
    assert len(block) == 2, block                      # not "ready mulligan" on one line
    for line, word in zip(block, words):
        assert line.endswith(": " + word), line        # words first, then what to type
        assert len(line.split(": ")[0].strip()) > len(word)
    assert not any(line.strip() == " ".join(words) for line in block)


def test_typing_a_command_help_offers_works():
    text = run(["--hot-seat", "--game", "maken", "--seed", "1", "--no-pictures", "--options", "first=1"],
               "help\nready\nquit\n")
    assert not refusals(text), text[-800:]
    assert "Player 1: Keep this hand" in text


def test_card_game_help_explains_its_notation():
    aow = run(["--hot-seat", "--game", "art_of_war", "--seed", "1", "--no-pictures", "--options", "first=1"],
              "help\nquit\n")
    for token in ("K1", "A2/", "S0 A0 P0 G0 W0", "setup k a2 p", "WIZARD", "waiting area"):
        assert token in aow.split("Legal commands", 1)[1], token
    ls = run(["--hot-seat", "--game", "logic_square", "--seed", "1", "--no-pictures", "--options", "first=1"], "help\nquit\n")
    tail = ls.split("Legal commands", 1)[1]
    assert "caa ac01 sc02" in tail and "trash" in tail
    # choices that share a line are written a|b and the help says how to type them
    assert re.search(r": move [a-e][1-5](\|[a-e][1-5])+$", tail, flags=re.M), tail[:1500]
    assert "is a choice: type one of them ('move " in tail
    maken = run(["--hot-seat", "--game", "maken", "--seed", "1", "--no-pictures", "--lang", "ja"], "help\nquit\n")
    assert "`guard stand ts03 ts01`" in maken and "ターンプレイヤー" in maken


# ------------------------------------------------------------------------------------ Ctrl-C

class _Interrupting(io.StringIO):
    """Typed lines, then Ctrl-C at the next prompt."""

    def readline(self, *args):  # noqa: ANN002
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_at_the_prompt_leaves_at_once_with_one_line():
    out = io.StringIO()
    code = console_main(["--hot-seat", "--game", "squares", "--no-pictures", "--options", "first=1"],
                        stdin=_Interrupting("place S1 a1\n"), stdout=out)
    text = out.getvalue()
    assert code == 130
    assert text.splitlines()[-1] == "Left match #1 unfinished."
    assert "Traceback" not in text and "KeyboardInterrupt" not in text


def test_ctrl_c_in_a_real_terminal_process_does_not_wait_for_enter():
    env = {**os.environ, "LANG": "C", "PYTHONUNBUFFERED": "1"}
    # Ctrl-C as a terminal sends it to the program in the foreground, whose SIGINT is the
    # default: a test run started in the background of a shell ignores SIGINT, and Python keeps
    # an inherited "ignore" (then no Ctrl-C could ever reach the console)
    proc = subprocess.Popen([sys.executable, "bot.py", "--local", "--game", "squares", "--no-pictures"],
                            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        seen = b""
        deadline = time.monotonic() + 120
        while b"] > " not in seen:                # the prompt: the process now waits for a line
            assert time.monotonic() < deadline and proc.poll() is None, seen[-500:]
            seen += os.read(proc.stdout.fileno(), 4096)
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)           # no Enter follows
        # stdin stays open until the process is gone (communicate() would close it at once, and
        # on a busy machine the end of input could reach the console before the signal does)
        proc.wait(timeout=20)
        out, err = proc.stdout.read(), proc.stderr.read()
        proc.stdin.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = (seen + out).decode()
    assert proc.returncode == 130, (text[-500:], err.decode()[-2000:])
    assert err.decode().strip() == ""             # no traceback
    assert text.rstrip().splitlines()[-1] == "Left match #1 unfinished."


# ------------------------------------------------------------------------------------ input

def test_full_width_input_from_a_japanese_ime_is_read():
    text = run(["--hot-seat", "--game", "logic_square", "--seed", "1", "--no-pictures", "--options", "first=1", "--lang", "ja"],
               "ＭＯＶＥ　Ｃ２\n１：ｈｅｌｐ\nquit\n")
    assert not refusals(text), text[-1500:]
    assert "c1 → c2" in text                       # the AVI moved
    assert "できる行動" in text                   # "１：ｈｅｌｐ" is seat 1's help


def test_control_characters_are_never_echoed_back():
    text = run(["--hot-seat", "--game", "squares", "--no-pictures", "--options", "first=1"],
               "pl\x1b[31mace\x07 S9 zz\x1b]0;title\x07\nquit\n")
    assert "\x1b" not in text and "\x07" not in text
    assert refusals(text)                          # refused, with a reason


# ------------------------------------------------------------------------------------ --db

def test_an_unfinished_match_in_a_db_file_is_resumed_and_new_starts_another(tmp_path):
    db = str(tmp_path / "local.db")
    first = run(["--game", "squares", "--no-pictures", "--options", "first=1", "--ai", "2=easy", "--db", db],
                "place S1 a1\nquit\n")
    assert f"Left match #1 unfinished. It is kept in {db}: start again with --db {db} to resume it." in first
    again = run(["--no-pictures", "--db", db], "place S2 b1\nquit\n")
    assert "Resuming match #1 (SQUARES, after 2 moves). Start a new one with --new." in again
    assert "Which game?" not in again
    assert len([line for line in again.splitlines() if line.startswith("Computer 2 (easy): ")]) == 1
    assert not refusals(again), again[-1500:]
    new = run(["--game", "squares", "--no-pictures", "--db", db, "--new"], "quit\n")
    assert "Resuming" not in new and "Left match #2 unfinished." in new


def test_a_match_in_memory_says_nothing_about_resuming():
    text = run(["--game", "squares", "--no-pictures"], "quit\n")
    assert text.splitlines()[-1].endswith("Left match #1 unfinished.")


# ------------------------------------------------------------------------------------ seats

def test_seats_are_typed_from_one_in_the_console_options():
    text = run(["--hot-seat", "--game", "squares", "--no-pictures", "--options", "first=2"], "quit\n")
    assert "[2:Player 2] > " in text and "[1:Player 1] > " not in text
    refused = run(["--game", "squares", "--no-pictures", "--options", "first=0"], code=2)
    assert "first must be one of random|1|2, not 0." in refused
    assert "Allowed: first=random (random|1|2)" in refused


def test_seats_are_typed_from_one_in_play_options_and_stored_from_zero():
    from cogs.play_options import option_suggestions
    from host import describe_options, read_options
    from host.options_text import public_options
    from rules import registry

    squares, avalon = registry.get("squares"), registry.get("avalon")
    assert read_options(squares, "first=1") == ({"first": 0}, None)
    assert read_options(avalon, "leader=3 max_rounds=10") == ({"leader": 2, "max_rounds": 10}, None)
    assert "leader=random (random|1|2|3|4)" in describe_options(avalon)
    found = dict((value, label) for label, value in option_suggestions(squares, "first", "en"))
    assert set(found) == {"first=random", "first=1", "first=2"}, found
    assert found["first=1"].startswith("first=1") and "seat 1" in found["first=1"]
    assert found["first=2"].startswith("first=2") and "seat 2" in found["first=2"]
    assert public_options(squares, {"first": 0}, None, "en") == "First player: seat 1"


# ------------------------------------------------------------------------------------ bot.py

def _env_vars_read_by_the_code() -> set[str]:
    names: set[str] = set()
    pattern = re.compile(r"""(?:environ(?:\.get)?\(|environ\[|getenv\(|env\.get\()\s*["']([A-Z][A-Z0-9_]+)["']""")
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT).parts
        if rel[0] in ("tests", ".venv") or "site-packages" in rel:
            continue
        names.update(pattern.findall(path.read_text(encoding="utf-8")))
    for path in (ROOT / "data" / "cards").glob("*.py"):   # the card folder's variable is a constant
        names.update(re.findall(r"""_ENV\s*=\s*["']([A-Z_]+)["']""", path.read_text(encoding="utf-8")))
    return names


def test_bot_help_is_argparse_with_every_option_and_environment_variable(capsys):
    assert bot.main(["--help"]) == 0
    text = capsys.readouterr().out
    for flag in ("--local", "--dump-commands", "--backup PATH", "--recheck-quarantine", "--ai SEAT=LEVEL",
                 "--deck SEAT=DECK", "--db", "--new", "--lang", "--replay FILE|N"):
        assert flag in text, flag
    read = _env_vars_read_by_the_code() - {"PYTHONPATH"}
    assert {"METRICS_PORT", "METRICS_HOST", "LOGIC_SQUARE_CARDS_DIR", "DISCORD_TOKEN"} <= read | set(bot.ENVIRONMENT)
    for name in read | set(bot.ENVIRONMENT) | set(bot.TEST_ENVIRONMENT) | {"LC_ALL", "LC_MESSAGES"}:
        assert name in text, name
    ja = bot.parser("ja").format_help()
    assert "環境変数" in ja and "METRICS_PORT" in ja and "使い方：" in ja


def test_bot_refuses_console_options_without_local(capsys):
    assert bot.main(["--game", "squares"]) == 2
    assert "--game: only with --local" in capsys.readouterr().err


@pytest.mark.parametrize("module", ["bench", "balance"])
def test_bench_and_balance_help_are_plain_text(module, capsys):
    main = __import__(f"{module}.__main__", fromlist=["main"]).main
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert f"usage: python -m {module}" in text
    assert "``" not in text and ":mod:" not in text and "--quick" in text


@pytest.fixture
def token_env(monkeypatch, tmp_path):
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    monkeypatch.setenv("LANG", "C")
    for name in ("LC_ALL", "LC_MESSAGES", "DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "BOT_TEST_PLUGINS",
                 "BOT_TEST_CLOCK_FILE", "BOT_TEST_CLOCK_LOOP", "BOT_TEST_GUILD_READY", "SHARD_COUNT", "SHARD_IDS", "METRICS_PORT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(bot, "setup_logging", lambda level: None)
    monkeypatch.chdir(tmp_path)                  # no .env of the working tree


def test_a_wrong_token_is_one_line_that_says_what_to_do(token_env, monkeypatch, capsys):
    import discord

    async def refused(self, token):  # noqa: ANN001 - what discord.py raises on HTTP 401
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.Client, "login", refused)
    # 78 (EX_CONFIG): the systemd unit does not restart it (RestartPreventExitStatus), a retry
    # every 10 s would only be refused again
    assert bot.main([]) == 78 == bot.EXIT_CONFIG
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "401" in err[0] and "DISCORD_TOKEN" in err[0] and "Reset Token" in err[0]


def test_the_service_unit_restarts_a_lost_network_but_not_a_refused_token_or_bad_settings():
    import re
    from pathlib import Path

    unit = (Path(bot.__file__).parent / "deploy" / "doujin-table.service").read_text(encoding="utf-8")
    assert re.search(r"^Restart=on-failure$", unit, re.M)
    prevented = re.search(r"^RestartPreventExitStatus=(.+)$", unit, re.M).group(1).split()
    assert set(prevented) == {"2", str(bot.EXIT_CONFIG)}        # 1 (no network) is restarted


@pytest.mark.parametrize("error", [
    lambda: __import__("aiohttp").ClientConnectorError(
        types.SimpleNamespace(host="discord.com", port=443, is_ssl=True, ssl=True),
        OSError(-3, "Temporary failure in name resolution")),
    lambda: OSError(101, "Network is unreachable"),
])
def test_no_network_is_one_line_that_says_what_to_do(token_env, monkeypatch, capsys, error):
    import discord

    async def offline(self, token):  # noqa: ANN001
        raise error()

    monkeypatch.setattr(discord.Client, "login", offline)
    assert bot.main([]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("Cannot reach Discord (") and "network connection" in err[0]


def test_the_voice_warning_is_silenced_and_other_warnings_are_not(caplog, monkeypatch):
    import discord

    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    if hasattr(discord.VoiceClient, "warn_dave"):
        monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.WARNING):
        bot.make_bot(bot.Config(sync_commands=False, clock=False))
        logging.getLogger("discord.client").warning("something else went wrong")
    said = [r.getMessage() for r in caplog.records if r.name == "discord.client"]
    assert said == ["something else went wrong"], said
