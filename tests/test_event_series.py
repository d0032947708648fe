"""A pairing played as a series of games, best of 1, 3 or 5 (host/events/series.py).

"The series ends as soon as one player has won a majority of N games (2 of 3, 3 of 5, 1 of 1),
or when N games have been played (draws count as games played).  Game 1 is decided at random in
a Swiss round and by the higher seed's choice in an elimination match; after that, the loser of
a game chooses for the next; after a drawn game, whoever chose for it chooses again.  SQUARES:
the previous game's winner moves second.  When the round's time runs out, an unfinished game
counts as drawn and the pairing's result counts its games so far."
"""
from __future__ import annotations

import json
import random

import pytest

from host.events import scoring, series

A, B = 101, 202


def _elim(best_of: int = 3, game: str = "maken", seeds=(1, 4)) -> dict:
    return series.new(A, B, best_of, elimination=True, seeds=seeds, game=game, seed="s")


def _swiss(best_of: int = 3, game: str = "maken", seed: str = "round-1/pairing-3") -> dict:
    return series.new(A, B, best_of, elimination=False, game=game, seed=seed)


def _play(s: dict, *results: str) -> dict:
    """Plays games in order; whoever must choose chooses to move first."""
    for r in results:
        who = series.chooser(s)
        if who is not None:
            series.choose(s, who, True)
        series.record_game(s, r)
    return s


# -- the length of a series and its result ------------------------------------------------------

def test_needed():
    """"A majority of N games (2 of 3, 3 of 5, 1 of 1)"."""
    assert [series.needed(n) for n in (1, 3, 5)] == [1, 2, 3]


def test_two_nil_ends_a_best_of_three():
    """"The series ends as soon as one player has won a majority": 2-0 ends a best of 3."""
    s = _play(_elim(), "a")
    assert not series.over(s) and series.result(s) is None
    _play(s, "a")
    assert series.over(s) and series.result(s) == "a"
    assert series.score(s) == (2, 0, 0) and series.score_text(s) == "2–0"
    assert series.chooser(s) is None and series.first_player(s) is None


def test_two_one():
    """"The player with more game wins wins the match": 2-1."""
    s = _play(_elim(), "a", "b", "b")
    assert series.over(s) and series.result(s) == "b"
    assert series.score_text(s) == "1–2" and series.score_text(s, a_first=False) == "2–1"


def test_one_one_one_is_final_and_a_draw():
    """"Draws count as games played; e.g. 1-1-1 with a draw is final", "equal wins is a match
    draw"."""
    s = _play(_elim(), "a", "draw", "b")
    assert series.over(s) and series.result(s) == "draw"
    assert series.score(s) == (1, 1, 1) and series.score_text(s) == "1–1–1"


def test_best_of_one():
    """"1 of 1": one game decides; a drawn best of 1 is a match draw."""
    assert series.result(_play(_swiss(1), "b")) == "b"
    s = _play(_swiss(1), "draw")
    assert series.over(s) and series.result(s) == "draw" and series.score_text(s) == "0–0–1"


def test_best_of_five_three_nil_and_three_two():
    """"3 of 5": 3-0 ends after three games; 3-2 after five."""
    s = _play(_elim(5), "b", "b")
    assert not series.over(s)
    _play(s, "b")
    assert series.over(s) and series.result(s) == "b" and series.score_text(s) == "0–3"
    s = _play(_elim(5), "a", "b", "a", "b")
    assert not series.over(s)
    _play(s, "a")
    assert series.over(s) and series.result(s) == "a" and series.score_text(s) == "3–2"


def test_best_of_five_ends_after_five_games_with_draws():
    """"Or when N games have been played": 2-1-2 after five games is final, a win for the 2."""
    s = _play(_elim(5), "a", "draw", "b", "draw", "a")
    assert series.over(s) and series.score(s) == (2, 1, 2) and series.result(s) == "a"


# -- who moves first --------------------------------------------------------------------------

def test_the_higher_seed_chooses_game_one_in_elimination():
    """"Game 1 is decided ... by the higher seed's choice in an elimination (top cut) match"."""
    assert series.chooser(_elim(seeds=(1, 4))) == A
    assert series.chooser(_elim(seeds=(5, 2))) == B
    assert series.chooser(_elim(seeds=(None, 3))) == B       # a seeded player outranks an unseeded one
    assert series.chooser(_elim(seeds=(None, None))) == A    # unknown seeds: a is the higher seed
    s = _elim(seeds=(5, 2))
    assert series.first_player(s) is None
    series.choose(s, B, False)
    assert series.first_player(s) == A and series.chooser(s) is None


def test_swiss_game_one_is_random_but_deterministic_for_a_seed():
    """"Game 1 is decided at random in a Swiss round (a seeded draw: random.Random(seed) with the
    seed passed in, so it is recorded and replayable)"."""
    firsts = set()
    for i in range(40):
        seed = f"event-7/round-1/pairing-{i}"
        s = _swiss(seed=seed)
        assert series.chooser(s) is None
        assert series.first_player(s) == random.Random(seed).choice((A, B))
        assert series.first_player(_swiss(seed=seed)) == series.first_player(s)
        firsts.add(series.first_player(s))
    assert firsts == {A, B}


def test_the_loser_chooses():
    """"After that, the loser of a game chooses for the next"."""
    s = _elim()
    series.choose(s, A, True)
    series.record_game(s, "a")
    assert series.chooser(s) == B and series.first_player(s) is None
    series.choose(s, B, True)
    assert series.first_player(s) == B
    series.record_game(s, "b")
    assert series.chooser(s) == A
    assert [g["first"] for g in s["games"]] == [A, B]
    assert [g["chosen_by"] for g in s["games"]] == [A, B]


def test_after_a_draw_the_same_chooser_chooses_again():
    """"After a drawn game, whoever chose for it chooses again"."""
    s = _elim(5)
    series.choose(s, A, False)
    series.record_game(s, "b")             # B won: A lost and chooses game 2
    series.choose(s, A, True)
    series.record_game(s, "draw")
    assert series.chooser(s) == A
    series.choose(s, A, False)
    assert series.first_player(s) == B
    series.record_game(s, "draw")
    assert series.chooser(s) == A          # still A after a second draw


def test_after_a_random_drawn_game_the_draw_decides_again():
    """Ruling: "when nobody chose for the drawn game (a Swiss game 1 decided at random), the
    random draw decides again: the next draw of the same seeded generator"."""
    seed = "r2/p1"
    s = series.record_game(_swiss(seed=seed), "draw")
    rng = random.Random(seed)
    draws = [rng.choice((A, B)) for _ in range(2)]
    assert series.chooser(s) is None and series.first_player(s) == draws[1]
    assert s["games"][0]["how"] == "random" and s["games"][0]["chosen_by"] is None
    series.record_game(s, "a")
    assert series.chooser(s) == B          # then the loser chooses as usual


def test_squares_previous_winner_moves_second_and_nobody_is_asked():
    """SQUARES: "the previous game's winner moves second, so for SQUARES there is no choice after
    game 1"."""
    s = _elim(5, game="squares")
    assert series.chooser(s) == A          # game 1: the higher seed's choice, as in any game
    series.choose(s, A, True)
    series.record_game(s, "b")
    assert series.chooser(s) is None and series.first_player(s) == A
    series.record_game(s, "a")
    assert series.chooser(s) is None and series.first_player(s) == B
    with pytest.raises(series.SeriesError) as e:
        series.choose(s, A, True)
    assert e.value.key == "events.err.already_chosen"
    series.record_game(s, "a")             # B moved first and lost: B moves first again
    assert series.first_player(s) == B and s["games"][-1]["how"] == "squares"


def test_squares_after_a_draw_the_second_player_moves_first():
    """Ruling: "after a drawn SQUARES game, the player who moved second in it moves first"."""
    s = _swiss(5, game="squares", seed="sq")
    first = series.first_player(s)
    series.record_game(s, "draw")
    assert series.chooser(s) is None and series.first_player(s) == (B if first == A else A)
    series.record_game(s, "draw")
    assert series.first_player(s) == first


# -- time limit ---------------------------------------------------------------------------------

def test_time_out_one_nil_with_an_unfinished_game_is_a_win():
    """"1-0 with an unfinished game -> that game a draw -> result 1-0-1 -> a match win for the 1"."""
    s = series.time_out(_play(_elim(), "a"), unfinished=True, match_id=77)
    assert series.over(s) and series.score_text(s) == "1–0–1" and series.result(s) == "a"
    assert s["games"][-1]["unfinished"] and s["games"][-1]["match"] == 77
    assert series.chooser(s) is None and series.first_player(s) is None


def test_time_out_nil_nil_with_an_unfinished_game_is_a_draw():
    """"0-0 with an unfinished game -> a draw"."""
    s = series.time_out(_swiss(), unfinished=True)
    assert series.over(s) and series.score(s) == (0, 0, 1) and series.result(s) == "draw"


def test_time_out_one_one_with_an_unfinished_game_is_a_draw():
    """"1-1 + unfinished -> 1-1-1 draw"."""
    s = series.time_out(_play(_elim(5), "a", "b"), unfinished=True)
    assert series.score_text(s) == "1–1–1" and series.result(s) == "draw"


def test_time_out_between_games_counts_the_games_so_far():
    """"The pairing's result counts its games so far": 1-0 with no game under way is a win;
    0-0 is a draw with no games (given to the scoring as an explicit draw)."""
    s = series.time_out(_play(_elim(), "b"), unfinished=False)
    assert series.result(s) == "b" and series.score_text(s) == "0–1"
    s = series.time_out(_elim(), unfinished=False)
    assert series.result(s) == "draw" and s["games"] == []
    pairing = {"a": A, "b": B, **series.for_scoring(s)}
    assert scoring.match_result(pairing) == "draw"
    with pytest.raises(series.SeriesError):
        series.record_game(s, "a")


def test_time_out_of_a_finished_series():
    """A series already over keeps its result; an unfinished game there is an error."""
    s = _play(_elim(), "a", "a")
    assert series.time_out(s, unfinished=False)["games"] == s["games"] and series.result(s) == "a"
    with pytest.raises(series.SeriesError) as e:
        series.time_out(s, unfinished=True)
    assert e.value.key == "events.err.series_over"


def test_extend_and_deadline():
    """"A round has a time limit (minutes, organiser's choice, with extensions per pairing)"."""
    end = series.deadline(1_000.0, 50)
    assert end == 4_000.0
    assert series.extend(end, 5) == 4_300.0
    for bad in (0, -3, 1.5, True):
        with pytest.raises(series.SeriesError) as e:
            series.extend(end, bad)
        assert e.value.key == "events.err.bad_minutes"


# -- storage, forfeits, errors -------------------------------------------------------------------

def test_series_is_json_able():
    """The host stores a series as JSON: a round trip changes nothing."""
    s = _play(_elim(5, seeds=(3, 2)), "a", "draw")
    back = json.loads(json.dumps(s))
    assert back == s
    assert series.chooser(back) == series.chooser(s) == B
    assert series.result(series.time_out(back, unfinished=False)) == "a"


def test_forfeit_game_before_the_choice():
    """A game awarded without being played (a no-show claim) may be recorded before anyone chose;
    it is a win, and the loser chooses next as after any won game."""
    s = _elim(seeds=(1, 2))                    # A must choose, but A did not show up
    series.record_game(s, "b", forfeit=True)
    assert s["games"][0]["forfeit"] and s["games"][0]["first"] is None
    assert series.chooser(s) == A
    with pytest.raises(series.SeriesError) as e:
        series.record_game(s, "draw", forfeit=True)
    assert e.value.key == "events.err.forfeit_draw"


@pytest.mark.parametrize("kwargs, key", [
    ({"best_of": 2}, "events.err.best_of"),
    ({"best_of": 7}, "events.err.best_of"),
    ({"b": A}, "events.err.same_player"),
    ({"seeds": (1,)}, "events.err.seeds"),
])
def test_new_rejects_nonsense(kwargs, key):
    """"ValueError on nonsense: best_of not in 1/3/5" (and a player against themselves)."""
    args = {"a": A, "b": B, "best_of": 3, "seeds": (None, None)} | kwargs
    with pytest.raises(ValueError) as e:
        series.new(args["a"], args["b"], args["best_of"], elimination=True, seeds=args["seeds"],
                   game="maken", seed="x")
    assert e.value.key == key
    with pytest.raises(series.SeriesError):
        series.needed(4)


def test_errors():
    """"ValueError with a catalog-ish key string when `by` is not the chooser or a choice was
    already made"; a result not a/b/draw; a game recorded after the series is over; a game
    recorded before its first player was decided.  Errors change nothing."""
    s = _elim(seeds=(1, 2))
    before = json.dumps(s)
    cases = [
        (lambda: series.choose(s, B, True), "events.err.not_chooser"),
        (lambda: series.choose(s, 999, True), "events.err.not_chooser"),
        (lambda: series.record_game(s, "a"), "events.err.choose_first"),
        (lambda: series.record_game(s, "A"), "events.err.bad_result"),
        (lambda: series.record_game(s, "win"), "events.err.bad_result"),
    ]
    for call, key in cases:
        with pytest.raises(ValueError) as e:
            call()
        assert e.value.key == key and str(e.value) == key
        assert json.dumps(s) == before
    series.choose(s, A, True)
    with pytest.raises(series.SeriesError) as e:
        series.choose(s, A, False)
    assert e.value.key == "events.err.already_chosen"
    _play(s, "a", "a")
    for call in (lambda: series.record_game(s, "b"), lambda: series.choose(s, B, True)):
        with pytest.raises(series.SeriesError) as e:
            call()
        assert e.value.key == "events.err.series_over"
    assert series.score(s) == (2, 0, 0)


# -- decisive series (an event's elimination matches) ---------------------------------------------

def test_a_decisive_series_does_not_count_drawn_games_and_ends_only_with_a_winner():
    """"In elimination a drawn series is not possible: drawn games do not count toward the wins
    needed" — 1-1-1 goes on to a fourth game, and the series ends when someone has 2 wins; after a
    drawn game whoever chose for it chooses again."""
    s = series.new(A, B, 3, elimination=True, decisive=True, seeds=(1, 2), game="maken", seed="d")
    _play(s, "a", "draw", "b")
    assert not series.over(s) and series.result(s) is None and series.score_text(s) == "1–1–1"
    assert series.chooser(s) == A            # B won game 3: A lost and chooses game 4
    _play(s, "draw", "draw")
    assert not series.over(s) and len(s["games"]) == 5 and series.chooser(s) == A
    _play(s, "b")
    assert series.over(s) and series.result(s) == "b" and series.score_text(s, a_first=False) == "2–1–3"
    back = json.loads(json.dumps(s))
    assert series.over(back) and back["decisive"] is True


def test_a_decisive_series_refuses_a_time_out():
    """"In elimination a time-out does not decide a pairing: the organiser is pinged to decide" —
    the series does not end at the time limit."""
    s = series.new(A, B, 3, elimination=True, decisive=True, seeds=(1, 2), game="maken", seed="d")
    with pytest.raises(series.SeriesError) as e:
        series.time_out(s, unfinished=True)
    assert e.value.key == "events.err.decisive_time_out" and s["games"] == [] and not s["timed_out"]
    plain = series.new(A, B, 3, elimination=True, seeds=(1, 2), game="maken", seed="d")
    assert "decisive" not in plain, "a series made without it is stored as before"
