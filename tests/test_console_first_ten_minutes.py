"""The local console as a newcomer meets it (``python bot.py --local``): against the computer by
default (``--hot-seat`` for everyone at one keyboard), a first line that says who plays whom,
Ctrl-C that leaves at once while the computer thinks, ``help`` of about a screen in every
position of every game with this game's examples only, no board or "To act:" printed twice, one
move count on resuming, ``python -m render --seat`` counted from 1, and a replay heading that
uses the number its picture shows."""
from __future__ import annotations

import asyncio
import io
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import bot
from data import i18n
from data.store import ACTIVE, open_store
from host.console import LOCAL_OPTIONS, main as console_main
from host.console_help import BUDGET, help_block, help_lines
from render.__main__ import play as random_position
from rules import registry

ROOT = Path(__file__).resolve().parents[1]


def run(argv: list[str], typed: str = "", code: int = 0) -> str:
    out = io.StringIO()
    assert console_main(argv, stdin=io.StringIO(typed), stdout=out) == code, out.getvalue()[-2000:]
    return out.getvalue()


def between_prompts(text: str) -> list[str]:
    """The output cut at every prompt ("[1:Player 1] > "): what one typed line (or the start)
    made the console print."""
    return re.split(r"^\[[^\]\n]*\] > ", text, flags=re.M)


class HelpReader(io.TextIOBase):
    """A player who types ``help`` and then one of the moves it lists (a random choice of each
    line's choices, or its example), ``moves`` times, then ``quit``: what help offers can be
    typed as it is written."""

    def __init__(self, out: io.StringIO, moves: int, seed: int) -> None:
        self.out, self.left, self.rng = out, moves, random.Random(seed)
        self.asked = False

    def readline(self, size: int = -1) -> str:  # noqa: ARG002
        if self.left <= 0:
            return "quit\n"
        if not self.asked:
            self.asked = True
            return "help\n"
        self.asked = False
        self.left -= 1
        block = self.out.getvalue().rsplit("Legal commands for ", 1)[1].splitlines()[1:]
        offered = [line for line in block if line.startswith("  ") and ": " in line
                   and not line.strip().startswith("…")]
        notation = self.rng.choice(offered).rsplit(": ", 1)[1]
        return " ".join(self.rng.choice(word.split("|")) for word in notation.split(" ")) + "\n"


def play_from_help(argv: list[str], moves: int, seed: int) -> str:
    out = io.StringIO()
    code = console_main(argv, stdin=HelpReader(out, moves, seed), stdout=out)
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert not re.findall(r"(?:^|> )(! .*)$", text, flags=re.M), text[-3000:]     # every move typed was taken
    return text


# ------------------------------------------------------------------------ who plays whom

def test_by_default_the_person_plays_seat_1_and_the_computer_the_other():
    text = run(["--game", "squares", "--no-pictures", "--options", "first=1"], "place S1 a1\nquit\n")
    assert text.splitlines()[0] == ("You are seat 1 (Player 1); seat 2 is the computer (normal). "
                                    "Type help for your moves.")
    assert [line for line in text.splitlines() if line.startswith("Computer 2 (normal): ")], text[-1500:]
    assert "=== Computer 2 (normal) (private) ===" not in text          # its hand stays hidden
    ja = run(["--game", "squares", "--no-pictures", "--lang", "ja", "--options", "first=1"], "quit\n")
    assert ja.splitlines()[0].startswith("あなたは席1（プレイヤー1）です。席2はコンピューター（ふつう）。")


def test_in_a_multiplayer_game_every_other_seat_is_the_computer():
    text = run(["--game", "avalon", "--players", "3", "--seed", "2", "--no-pictures"], "quit\n")
    assert text.splitlines()[0] == ("You are seat 1 (Player 1); seat 2 is the computer (normal), "
                                    "seat 3 is the computer (normal). Type help for your moves.")
    assert "Computer 2 (normal)" in text and "Computer 3 (normal)" in text


def test_hot_seat_makes_every_seat_a_person():
    text = run(["--game", "squares", "--no-pictures", "--hot-seat", "--options", "first=2"], "quit\n")
    assert text.splitlines()[0].startswith("Everyone plays at this keyboard: seats 1, 2 (Player 1, Player 2)")
    assert "[2:Player 2] > " in text and "Computer" not in text


def test_ai_says_exactly_which_seats_the_computer_plays():
    text = run(["--game", "avalon", "--players", "3", "--ai", "3=hard", "--seed", "2", "--no-pictures"], "quit\n")
    assert text.splitlines()[0] == ("People at this keyboard play seats 1, 2 (Player 1, Player 2); seat 3 is the "
                                    "computer (hard). Type help for the moves of the seat to act.")
    watch = run(["--game", "squares", "--ai", "1=easy", "--ai", "2=easy", "--no-pictures", "--seed", "3"])
    assert watch.splitlines()[0].startswith("The computer plays every seat")
    assert watch.rstrip().endswith("Match #1 is over.")


def test_a_resumed_match_keeps_who_plays_it(tmp_path):
    people = str(tmp_path / "people.db")
    run(["--game", "squares", "--hot-seat", "--no-pictures", "--options", "first=1", "--db", people],
        "place S1 a1\nquit\n")
    again = run(["--no-pictures", "--db", people], "place s2 e5\nquit\n")      # seat 2 is typed, not played
    assert "Everyone plays at this keyboard" in again and "Computer" not in again
    assert not re.findall(r"(?:^|> )(! .*)$", again, flags=re.M), again[-1500:]
    computer = str(tmp_path / "computer.db")
    run(["--game", "squares", "--no-pictures", "--options", "first=1", "--db", computer], "place S1 a1\nquit\n")
    again = run(["--no-pictures", "--db", computer], "quit\n")
    assert "You are seat 1 (Player 1); seat 2 is the computer (normal)." in again


def test_hot_seat_is_an_option_of_local_only_and_listed_in_both_languages(capsys):
    assert "hot_seat" in LOCAL_OPTIONS
    assert bot.main(["--hot-seat"]) == 2
    assert "--hot-seat: only with --local" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        console_main(["--help", "--lang", "ja"])
    assert "--hot-seat" in capsys.readouterr().out
    assert "--hot-seat" in bot.parser("en").format_help()


def test_no_token_suggests_playing_against_the_computer_first():
    for lang in ("en", "ja"):
        text = i18n.t("bot.no_token", lang)
        against = text.index("python bot.py --local --game squares\n")
        assert against < text.index("--hot-seat"), lang
        assert "--hot-seat" in i18n.t("bot.cli.local", lang)


# ------------------------------------------------------------------------ Ctrl-C while thinking

def test_ctrl_c_while_the_computer_thinks_leaves_at_once_and_keeps_the_match(tmp_path, monkeypatch):
    """The computer thinks in the console's own thread: Ctrl-C there ends its task with
    KeyboardInterrupt (before, the console then waited for a task that had already ended, for
    ever).  The move it had not finished is not stored."""
    import ai

    def interrupted(*args, **kwargs):  # noqa: ANN002, ANN003 - Ctrl-C arrives while it thinks
        raise KeyboardInterrupt

    monkeypatch.setattr(ai, "choose", interrupted)
    db = str(tmp_path / "local.db")
    out, done = io.StringIO(), []
    argv = ["--game", "squares", "--ai", "2=hard", "--no-pictures", "--options", "first=1", "--db", db]
    worker = threading.Thread(target=lambda: done.append(console_main(argv, io.StringIO("place S1 a1\n"), out)),
                              daemon=True)
    worker.start()
    worker.join(timeout=300)            # a guard against a hang, not a measure of speed
    assert not worker.is_alive(), out.getvalue()[-1000:]
    assert done == [130]
    assert out.getvalue().rstrip().splitlines()[-1] == "Stopped."
    assert "Computer 2 (hard) is thinking…" in out.getvalue()

    async def stored():
        store = await open_store(db)
        try:
            rec = (await store.matches_for_user(1))[0]
            return rec.status, rec.n_commands
        finally:
            await store.close()
    assert asyncio.run(stored()) == (ACTIVE, 1)        # the person's move, not the computer's
    monkeypatch.undo()
    again = run(["--no-pictures", "--db", db], "quit\n")
    assert "Resuming match #1 (SQUARES, after 1 move)." in again
    assert [line for line in again.splitlines() if line.startswith("Computer 2 (hard): ")]


def test_ctrl_c_in_a_terminal_while_the_computer_thinks_exits_130(tmp_path):
    """A real process: Avalon's Sanctuary with the computer leading at ``hard`` (it thinks for a
    while at every command); Ctrl-C once it has said it is thinking."""
    env = {**os.environ, "LANG": "C", "PYTHONUNBUFFERED": "1"}
    db = tmp_path / "local.db"
    proc = subprocess.Popen([sys.executable, "bot.py", "--local", "--game", "avalon", "--ai", "2=hard", "--seed", "3",
                             "--options", "leader=2", "--no-pictures", "--db", str(db)],
                            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        seen = b""
        deadline = time.monotonic() + 300          # a hang guard
        while b"is thinking" not in seen:
            assert time.monotonic() < deadline and proc.poll() is None, seen[-500:]
            seen += os.read(proc.stdout.fileno(), 4096)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=120)                      # a hang guard, not a measure of speed
        out, err = proc.stdout.read(), proc.stderr.read()
        proc.stdin.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = (seen + out).decode()
    assert proc.returncode == 130, (text[-800:], err.decode()[-2000:])
    assert err.decode().strip() == ""
    assert text.rstrip().splitlines()[-1] == "Stopped."
    again = run(["--no-pictures", "--db", str(db), "--ai", "2=easy"], "quit\n")
    assert "Resuming match #1 (Avalon's Sanctuary" in again


# ------------------------------------------------------------------------ help

GAMES = [(name, None) for name in registry.names()] + [("avalon", 4)]


@pytest.mark.parametrize("name, players", GAMES)
def test_help_fits_a_screen_in_every_position_and_quotes_only_this_game(name, players):
    """Seeded random playouts of each game: help is at most 20 lines, its command lines at most
    BUDGET, and its example of a choice is two legal commands of this very position."""
    game = registry.get(name)
    n = players or game.min_players
    names = [f"Player {i + 1}" for i in range(n)]
    # the examples help quoted for every game: Avalon's forge, a pass no game has
    other_games = {"'2: pass'"} | ({"forge c01"} if name != "avalon" else set()) | \
        ({"setup k"} if name != "art_of_war" else set())
    seen = 0
    for seed in range(12):
        for moves in (0, 2, 5, 11, 20, 33, 50, 80):
            game, state = random_position(name, seed, moves, players)
            if game.outcome(state) is not None:
                continue
            for seat in game.to_act(state):
                legal = game.legal_commands(state, seat)
                for lang in ("en", "ja"):
                    block = help_block(game, name, game.view(state, seat), seat, legal, lang, names)
                    text = "\n".join(block)
                    assert len(text.splitlines()) <= 20, text
                    lines, _ = help_lines(name, game.view(state, seat), seat, legal, lang, names)
                    assert len(lines) <= BUDGET
                    assert not any(example in text for example in other_games), text
                    found = re.search(r"means '([^']+)' or '([^']+)'", text)
                    if found:
                        assert set(found.groups()) <= set(legal), found.groups()
                seen += 1
    assert seen > 30


def test_long_lists_are_grouped_by_kind_with_a_count():
    game, state = random_position("art_of_war", 38, 3)          # a set-up: 36 moves
    seat = game.to_act(state)[0]
    legal = game.legal_commands(state, seat)
    assert len(legal) == 36
    lines, folded = help_lines("art_of_war", game.view(state, seat), seat, legal, "en", ["Player 1", "Player 2"])
    assert len(lines) == 4 and folded
    assert all(re.search(r"\(9 moves\): setup [kspagw] [a-c][1-4](\|[a-c][1-4])+ [kspagw](\|[kspagw])+$", line)
               for line in lines), lines
    game, state = random_position("logic_square", 22, 3)        # IT cards and CAA trash combinations
    legal = game.legal_commands(state, 1)
    lines, _ = help_lines("logic_square", game.view(state, 1), 1, legal, "en", ["Player 1", "Player 2"])
    assert len(legal) > 90 and len(lines) <= BUDGET
    assert any(line.startswith("  Trash 2 cards to draw 4 (CAA)") and "for example: caa " in line for line in lines)


def test_help_explains_what_the_screen_shows():
    squares = run(["--game", "squares", "--no-pictures", "--options", "first=1"], "help\nquit\n")
    assert "A3 is placed as S3 or L3, B3 as X3 or P3" in squares            # the reserve's letters
    assert "In a reserve, A3 is piece A" in squares.split("Legal commands", 1)[0]      # and under the board
    maken = run(["--game", "maken", "--seed", "1", "--no-pictures", "--options", "first=1"], "help\nquit\n")
    assert "The line 'even' under the players says the attack phase is even: neither player is guarding" in maken


@pytest.mark.parametrize("name", ["squares", "logic_square", "maken", "art_of_war", "avalon"])
def test_what_help_offers_can_be_typed(name):
    text = play_from_help(["--game", name, "--seed", "4", "--no-pictures"], moves=12, seed=4)
    assert text.count("Legal commands for Player 1") >= 1


# ------------------------------------------------------------------------ nothing twice

def test_art_of_war_prints_the_board_once_a_turn_of_the_computer():
    """The computer's declarations (a rear support waiting for an answer) left the board as it
    was and printed it again; now its moves are said as they are made and the board once, when
    it is the person's turn."""
    for seed in (1, 2, 3):
        text = play_from_help(["--game", "art_of_war", "--seed", str(seed), "--no-pictures"], moves=14, seed=seed)
        for part in between_prompts(text):
            assert len(re.findall(r"^Turn \d+", part, flags=re.M)) <= 1, part


def test_a_match_of_computers_never_prints_the_same_board_twice_in_a_row():
    text = run(["--game", "art_of_war", "--ai", "1=easy", "--ai", "2=normal", "--no-pictures", "--seed", "3",
                "--options", "first=1"])
    boards = re.findall(r"^(Turn \d+.*?)(?=^Turn \d+|^=== |^Computer \d \(\w+\): |\Z)", text, flags=re.M | re.S)
    assert len(boards) > 10
    assert all(a != b for a, b in zip(boards, boards[1:]))


def test_avalon_says_who_acts_once_a_board():
    text = play_from_help(["--game", "avalon", "--seed", "5", "--no-pictures"], moves=14, seed=5)
    for part in between_prompts(text):
        boards = len(re.findall(r"^Avalon's Sanctuary — ", part, flags=re.M))
        assert len(re.findall(r"^To act: ", part, flags=re.M)) == boards <= 1, part
    ja = run(["--game", "avalon", "--seed", "5", "--no-pictures", "--lang", "ja"], "quit\n")
    assert not re.search(r"の番です（これまで", ja)          # the host's line, under a board that says it


def test_a_resumed_match_says_one_move_count(tmp_path):
    db = str(tmp_path / "local.db")
    run(["--game", "squares", "--no-pictures", "--options", "first=1", "--db", db], "place S1 a1\nquit\n")
    again = run(["--no-pictures", "--db", db], "quit\n")
    assert "Resuming match #1 (SQUARES, after 2 moves)." in again
    assert "To act: Player 1 (after 2 moves)" in again and "move 3" not in again
    ja = run(["--no-pictures", "--db", db, "--lang", "ja"], "quit\n")
    assert "これまで2回の操作）を再開します" in ja and "これまで2回の操作）" in ja.split("再開します", 1)[1]


# ------------------------------------------------------------------------ python -m render --seat

def test_render_seat_counts_from_one(tmp_path, capsys):
    from render import render_png
    from render.__main__ import main

    out = tmp_path / "first.png"
    assert main(["--game", "squares", "--seed", "7", "--moves", "6", "--seat", "1", "--out", str(out),
                 "--locale", "en"]) == 0
    game, state = random_position("squares", 7, 6)
    assert out.read_bytes() == render_png("squares", game.view(state, 0), locale="en")
    said = capsys.readouterr().out
    assert "after 6 random moves" in said and "turn" not in said
    for bad in ("0", "3"):
        with pytest.raises(SystemExit):
            main(["--game", "squares", "--seat", bad, "--out", str(tmp_path / "x.png"), "--locale", "en"])
        assert "--seat must be between 1 and 2" in capsys.readouterr().err


# ------------------------------------------------------------------------ replay headings

def test_an_avalon_replay_is_headed_by_the_round_its_picture_shows(tmp_path):
    db = str(tmp_path / "local.db")
    run(["--game", "avalon", "--ai", "1=easy", "--ai", "2=easy", "--seed", "2", "--options", "max_rounds=5",
         "--no-pictures", "--db", db])
    said = run(["--db", db, "--replay", "1", "--no-pictures"], "t 2\nq\n")
    headings = re.findall(r"Step (\d+) of \d+ · (\w+) (\d+)", said)
    assert headings and {kind for _, kind, _ in headings} == {"round"}, headings
    assert headings[-1][2] == "2"
    step = int(headings[-1][0])
    assert re.search(rf"Step {step} of \d+ · round 2\n(?:.*\n)*?.*Round 2/5", said)
    assert "t N the first step of round N" in said
