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
    text = run(["--game", "squares", "--ai", "2=normal", "--no-pictures", "--options", "first=0"],
               "place L1 a1\nplace L2 b1\nquit\n")
    assert "Computer 2 (normal) accepted." in text
    moves = [line for line in text.splitlines() if line.startswith("Computer 2 (normal): ")]
    assert len(moves) == 2, text            # one answer to each of the player's two moves


def test_two_computers_play_a_whole_match_and_say_it_in_japanese():
    text = run(["--game", "art_of_war", "--ai", "1=easy", "--ai", "2=normal", "--no-pictures", "--lang", "ja",
                "--seed", "5"])
    assert "コンピューター1(やさしい)" in text and "コンピューター2(ふつう)" in text
    assert text.splitlines()[-1] == "対戦 #1 は終了しました。", text[-400:]


def test_a_bad_ai_seat_or_level_is_refused_with_what_is_allowed():
    out = io.StringIO()
    assert main(["--game", "squares", "--ai", "3=hard", "--no-pictures"], stdin=io.StringIO(""), stdout=out) == 2
    assert "easy, normal, hard" in out.getvalue()
    out = io.StringIO()
    assert main(["--game", "squares", "--ai", "2=godlike", "--no-pictures"], stdin=io.StringIO(""), stdout=out) == 2
