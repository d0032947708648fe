"""``python bot.py --local --ai 2=hard`` (issue 17): the computer takes a seat in the terminal
and plays through the host like a person (its moves are the match's log, said in words)."""
from __future__ import annotations

import io

from host.console import main


def run(argv: list[str], typed: str = "") -> str:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(typed), stdout=out)
    assert code == 0, out.getvalue()
    return out.getvalue()


def test_the_computer_answers_each_move_of_the_player():
    text = run(["--game", "squares", "--ai", "2=normal", "--no-pictures", "--options", "first=1"],
               "place L1 a1\nplace L2 b1\nquit\n")
    assert "Computer 2 (normal) accepted." in text
    moves = [line for line in text.splitlines() if line.startswith("Computer 2 (normal): ")]
    assert len(moves) == 2, text            # one answer to each of the player's two moves


def test_two_computers_play_a_whole_match_and_say_it_in_japanese():
    text = run(["--game", "art_of_war", "--ai", "1=easy", "--ai", "2=normal", "--no-pictures", "--lang", "ja",
                "--seed", "5"])
    assert "コンピューター1（やさしい）" in text and "コンピューター2（ふつう）" in text
    assert text.splitlines()[-1].replace(" ", "") == "対戦#1は終了しました。", text[-400:]


def test_a_bad_ai_seat_or_level_is_refused_with_what_is_allowed():
    out = io.StringIO()
    assert main(["--game", "squares", "--ai", "3=hard", "--no-pictures"], stdin=io.StringIO(""), stdout=out) == 2
    assert "easy, normal, hard" in out.getvalue()
    out = io.StringIO()
    assert main(["--game", "squares", "--ai", "2=godlike", "--no-pictures"], stdin=io.StringIO(""), stdout=out) == 2


def test_the_computers_hand_stays_hidden_and_its_seat_takes_no_typed_commands():
    """Practising against the computer in the terminal: its private view (its hand) is never
    printed, ``2: …`` cannot act for it or show its hand, and the player's own hand is printed
    when it changes (not again after every one of the computer's moves) or when asked."""
    text = run(["--game", "avalon", "--ai", "2=normal", "--deck", "1=dawn", "--deck", "2=ember", "--no-pictures",
                "--options", "leader=2", "--seed", "3"], "2: hand\n2: done\nhand\nquit\n")
    assert "=== Computer 2 (normal) (private) ===" not in text
    assert text.count("! Seat 2 is played by the computer") == 2, text[-800:]
    moves = [line for line in text.splitlines() if line.startswith("Computer 2 (normal): ")]
    assert len(moves) >= 3                           # its whole leader turn, before the player acts
    assert text.count("=== Player 1 (private) ===") == 2        # at the start, and for 'hand'


def test_a_match_of_computers_only_shows_every_hand_to_the_watcher():
    text = run(["--game", "avalon", "--ai", "1=easy", "--ai", "2=easy", "--no-pictures", "--seed", "2",
                "--options", "max_rounds=5"])
    assert "=== Computer 1 (easy) (private) ===" in text and "=== Computer 2 (easy) (private) ===" in text
