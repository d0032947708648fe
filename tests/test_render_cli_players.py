"""``python -m render --players N``: a picture of a 3- or 4-player match (default: the game's
minimum), and a clear answer for a number the game is not for."""
from __future__ import annotations

import contextlib
import io

import pytest
from PIL import Image

from render.__main__ import main, play


@pytest.mark.parametrize("players", [3, 4])
def test_render_cli_draws_a_three_or_four_player_avalon_match(tmp_path, players):
    """「プレイ人数 2~4名」: every seat's row is drawn."""
    game, state = play("avalon", 5, 20, players)
    assert len(game.view(state, None)["players"]) == players
    out = tmp_path / f"a{players}.png"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["--game", "avalon", "--players", str(players), "--moves", "20", "--seed", "5",
                     "--seat", str(players), "--out", str(out), "--locale", "en"]) == 0
    two = tmp_path / "a2.png"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["--game", "avalon", "--moves", "20", "--seed", "5", "--out", str(two)]) == 0
    with Image.open(out) as big, Image.open(two) as small:
        assert big.height > small.height, "more seats, more rows"


def test_render_cli_defaults_to_the_games_minimum_and_refuses_other_counts(tmp_path, capsys):
    game, state = play("avalon", 5, 0)
    assert len(game.view(state, None)["players"]) == game.min_players == 2
    for bad in ("5", "1"):
        with pytest.raises(SystemExit):
            main(["--game", "avalon", "--players", bad, "--out", str(tmp_path / "x.png"), "--locale", "en"])
        assert f"Avalon's Sanctuary is for 2–4 players, not {bad}" in capsys.readouterr().err
    for seat in ("4", "0"):         # seats count from 1: the last of 3 is --seat 3
        with pytest.raises(SystemExit):
            main(["--game", "avalon", "--players", "3", "--seat", seat, "--out", str(tmp_path / "x.png"),
                  "--locale", "en"])
        assert "--seat must be between 1 and 3" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
