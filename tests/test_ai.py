"""Practice opponents that never peek (issue 17): ``ai.choose`` is handed a seat's VIEW, never a
state, and returns one of the seat's legal commands, at every level and in every game;
without a time budget the choice is deterministic for a seed."""
from __future__ import annotations

import json
import random
import sys
import time

import pytest

from ai import LEVELS, choose
from rules import registry

GAMES = ["squares", "logic_square", "maken", "art_of_war", "avalon"]


def positions(name: str, count: int, players: int | None = None):
    """(state, seat to act) at some positions of random play."""
    game = registry.get(name)
    players = players or (3 if name == "avalon" else game.min_players)
    out = []
    for seed in range(20):
        state = game.new_match(players=players, seed=seed, options={})
        rng = random.Random(seed)
        for _ in range(10 + 13 * seed):
            if game.outcome(state) is not None:
                break
            seat = rng.choice(game.to_act(state))
            state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
        if game.outcome(state) is None and game.to_act(state):
            seat = game.to_act(state)[0]
            if len(game.legal_commands(state, seat)) > 1:
                out.append((state, seat))
        if len(out) == count:
            break
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_level_returns_a_legal_command_from_the_view_alone(name):
    game = registry.get(name)
    for i, (state, seat) in enumerate(positions(name, 3)):
        legal = game.legal_commands(state, seat)
        view = json.loads(json.dumps(game.view(state, seat)))       # what a seat is shown, as JSON
        for level in LEVELS if i == 0 else ("easy", "normal"):
            first = choose(name, view, legal, seat, level=level, seed=11)
            assert first in legal
            assert choose(name, view, legal, seat, level=level, seed=11) == first, "deterministic for a seed"
            game.apply(state, seat, first)


def test_the_ai_cannot_be_handed_a_state():
    game = registry.get("logic_square")
    state = game.new_match(players=2, seed=1, options={})
    seat = game.to_act(state)[0]
    with pytest.raises(TypeError, match="view"):
        choose("logic_square", state, game.legal_commands(state, seat), seat)


@pytest.mark.parametrize("name", ["logic_square", "maken", "art_of_war", "avalon"])
def test_what_the_seat_cannot_see_does_not_change_the_choice(name):
    """Two matches that differ only in what the seat cannot see (the opponents' hands, the
    decks, the random stream — a second sample of the same view) give the same view, so the AI
    chooses the same move in both: it has nothing else to go on."""
    game = registry.get(name)
    for state, seat in positions(name, 2):
        other = game.determinize(game.view(state, seat), seat, random.Random(99))
        assert game.dump(other) != game.dump(state), "the hidden parts differ"
        view_a, view_b = game.view(state, seat), game.view(other, seat)
        assert view_a == view_b
        legal = game.legal_commands(state, seat)
        assert choose(name, view_a, legal, seat, level="normal", seed=5) == \
            choose(name, view_b, legal, seat, level="normal", seed=5)


def test_a_time_budget_bounds_the_hard_level():
    """With ``budget_s`` the search stops on the clock (measured by the benchmark, not here:
    this only checks it still answers with a legal move when the budget is tiny)."""
    state, seat = positions("squares", 1)[0]
    game = registry.get("squares")
    legal = game.legal_commands(state, seat)
    assert choose("squares", game.view(state, seat), legal, seat, level="hard", budget_s=0.001) in legal


def test_unknown_levels_and_empty_choices_are_refused():
    with pytest.raises(ValueError, match="level"):
        choose("squares", {}, ["pass"], 0, level="grandmaster")
    with pytest.raises(ValueError):
        choose("squares", {}, [], 0)


def test_normal_judges_a_move_by_the_answers_it_draws_up_to_its_next_decision():
    """Level normal plays each candidate on through the others' answers (a cheap random policy)
    until the seat decides again, so a Project Maken bet is judged after the judge it opens, not
    at the instant before the defender answers."""
    import ai

    game = registry.get("maken")
    rng = random.Random(3)
    for state, seat in positions("maken", 3):
        for command in game.legal_commands(state, seat)[:4]:
            after = ai._until_mine(game, game.apply(state, seat, command), seat, rng, 50)
            assert game.outcome(after) is not None or seat in game.to_act(after)
            short = ai._until_mine(game, game.apply(state, seat, command), seat, rng, 0)
            assert game.view(short, None) == game.view(game.apply(state, seat, command), None), "horizon 0: the instant after"


def test_the_search_scores_a_logic_square_leaf_only_once_the_turn_has_passed_on(monkeypatch):
    """Battle Logic Square (ai.TURN_END): a turn is several commands of one player, so the search
    scores no position in the middle of one.  A leaf reached mid-turn is played on — the turn
    player ends the turn, an answer in a chain or an end-of-turn discard is decided on the way —
    and, the tree ending with the root's turn, every position scored is the next turn's (or the
    end of the match), and so is every position the widening ranks moves by.  Without the
    setting the same search scores positions mid-turn."""
    import ai

    game = registry.get("logic_square")
    assert ai.TURN_END.get("logic_square") == "end" and ai.TURN_TREE
    scored: list = []
    real = ai._scores

    def spy(name, game_, state):
        caller = sys._getframe(1).f_code.co_name
        if caller in ("_search", "_value_finished"):
            scored.append((caller, state))
        return real(name, game_, state)

    monkeypatch.setattr(ai, "_scores", spy)
    monkeypatch.setattr(ai, "HARD_ITERATIONS", 40)
    cases = [(state, seat) for state, seat in positions("logic_square", 4)
             if game.view(state, seat)["pending"]["kind"] == "main"]
    assert cases
    for state, seat in cases:
        view, legal = game.view(state, seat), game.legal_commands(state, seat)
        turn = game.public_to_act(state)
        scored.clear()
        assert choose("logic_square", view, legal, seat, level="hard", seed=2) in legal
        assert [c for c, _ in scored].count("_search") == 40, "every iteration scores one leaf"
        assert [c for c, _ in scored].count("_value_finished") >= len(legal), "the root's moves ranked"
        for _, leaf in scored:
            assert game.outcome(leaf) is not None or game.public_to_act(leaf) != turn
            assert leaf.window is None, "no chain left open: its answers are decided"
        monkeypatch.setattr(ai, "TURN_END", {})
        scored.clear()
        choose("logic_square", view, legal, seat, level="hard", seed=2)
        assert any(game.outcome(leaf) is None and game.public_to_act(leaf) == turn for _, leaf in scored)
        monkeypatch.setattr(ai, "TURN_END", {"logic_square": "end"})


def test_hard_is_normals_judgement_over_more_samples_in_a_game_named_for_it(monkeypatch):
    """Where the search is measured weaker than normal (a game in ai.HARD_BY_SAMPLES; none
    today), hard ranks every move by normal's one-ply judgement over more samples and never
    searches a tree."""
    import ai

    def no_search(*args, **kwargs):
        raise AssertionError("searched a tree")

    monkeypatch.setattr(ai, "_ismcts", no_search)
    monkeypatch.setattr(ai, "HARD_BY_SAMPLES", {"logic_square": 12})
    game = registry.get("logic_square")
    for state, seat in positions("logic_square", 3):
        legal = game.legal_commands(state, seat)
        assert choose("logic_square", game.view(state, seat), legal, seat, level="hard", seed=1) in legal
    state, seat = positions("squares", 1)[0]
    legal = registry.get("squares").legal_commands(state, seat)
    with pytest.raises(AssertionError, match="searched a tree"):
        choose("squares", registry.get("squares").view(state, seat), legal, seat, level="hard")


def _avalon_position(step_ok, first_seed=0):
    """(state, seat) of a two-player Avalon's Sanctuary match in random play, at a decision with a
    choice whose step passes ``step_ok``."""
    game = registry.get("avalon")
    for seed in range(first_seed, first_seed + 200):
        state = game.new_match(players=2, seed=seed, options={})
        rng = random.Random(seed)
        for _ in range(300):
            if game.outcome(state) is not None or not game.to_act(state):
                break
            seat = game.to_act(state)[0]
            legal = game.legal_commands(state, seat)
            if len(legal) > 1 and step_ok(game.view(state, seat).get("step")) and rng.random() < 0.3:
                return state, seat
            state = game.apply(state, seat, rng.choice(legal))
    raise AssertionError("no such position")


def test_hard_in_a_rollout_game_plays_every_move_on_by_normals_judgement(monkeypatch):
    """In a game named in ai.HARD_BY_ROLLOUTS (for the steps named there; none today — tried in
    Avalon's Sanctuary), hard searches no tree: it plays every legal move on each of its
    determinized states and each of those on by the one-ply judgement until the turn has passed
    on the given number of times, and picks the best on average; a time budget that runs out
    leaves only the moves played on as candidates.  In the other steps it searches."""
    import ai

    def no_search(*args, **kwargs):
        raise AssertionError("searched a tree")

    monkeypatch.setattr(ai, "HARD_BY_ROLLOUTS", {"avalon": (2, 2, ("main", "declare", "support"))})
    monkeypatch.setattr(ai, "GREEDY_PLAYOUTS", {})
    monkeypatch.setattr(ai, "HARD_SHORTLIST", {})
    samples, turns, steps = ai.HARD_BY_ROLLOUTS["avalon"]
    game = registry.get("avalon")
    played: list[tuple] = []
    greedy_on = ai._greedy_on

    def spy(name, game_, state, turns_, *args):
        assert turns_ == turns
        end = greedy_on(name, game_, state, turns_, *args)
        played.append((state, end))
        return end

    monkeypatch.setattr(ai, "_greedy_on", spy)
    state, seat = _avalon_position(lambda step: step not in steps)
    legal = game.legal_commands(state, seat)
    assert choose("avalon", game.view(state, seat), legal, seat, level="hard", seed=4) in legal
    assert not played, "a set phase decision is searched, not rolled out"

    monkeypatch.setattr(ai, "_ismcts", no_search)
    for first_seed in (0, 50, 100):
        state, seat = _avalon_position(lambda step: step in steps, first_seed)
        legal = game.legal_commands(state, seat)
        view = game.view(state, seat)
        played.clear()
        choice = choose("avalon", view, legal, seat, level="hard", seed=4)
        assert choice in legal
        assert len(played) == samples * len(legal), "every move on every sample"
        played.clear()
        assert choose("avalon", view, legal, seat, level="hard", seed=4) == choice, "deterministic for a seed"
        played.clear()
        clock = iter(range(0, 10**6, 10))          # a clock that moves 10 s a reading: the budget
        monkeypatch.setattr(ai, "time", type("Clock", (), {"perf_counter": staticmethod(lambda: next(clock))}))
        assert choose("avalon", view, legal, seat, level="hard", seed=4, budget_s=1.0) in legal
        monkeypatch.setattr(ai, "time", time)
        assert len(played) == 1, "the budget ran out after the first playout: only that move is a candidate"
        game.apply(state, seat, choice)


def test_a_greedy_playout_stops_once_the_turn_has_passed_on_the_given_number_of_times():
    """The playout of a rollout is the one-ply judgement for whoever is to act, command by command,
    up to (not past) the second change of whose turn it is."""
    import ai

    game = registry.get("avalon")
    for state, _seat in positions("avalon", 3, players=2):
        end = ai._greedy_on("avalon", game, state, 2)
        changes, turn, cur = 0, ai._turn(game, state), state
        for _ in range(ai.ROLLOUT_LIMIT):
            if game.outcome(cur) is not None or changes == 2:
                break
            mover = game.to_act(cur)[0]
            moves = game.legal_commands(cur, mover)
            move = moves[0] if len(moves) == 1 else max(
                moves, key=lambda c: ai._value_after("avalon", game, cur, mover, c))
            cur = game.apply(cur, mover, move)
            if ai._turn(game, cur) != turn:
                changes, turn = changes + 1, ai._turn(game, cur)
        assert game.outcome(end) is not None or changes == 2, "the turn passed on twice"
        assert game.dump(cur) == game.dump(end)


def test_the_search_scores_a_leaf_after_a_greedy_playout_in_a_game_named_for_it(monkeypatch):
    """In a game named in ai.GREEDY_PLAYOUTS, each iteration of the search plays its new leaf on by
    the one-ply judgement until the turn has passed on the given number of times (instead of
    scoring it as it stands), and does the given number of iterations without a budget."""
    import ai

    monkeypatch.setattr(ai, "GREEDY_PLAYOUTS", {"avalon": (5, 2)})
    monkeypatch.setattr(ai, "HARD_BY_ROLLOUTS", {})
    monkeypatch.setattr(ai, "HARD_SHORTLIST", {})
    game = registry.get("avalon")
    played = []
    greedy_on = ai._greedy_on

    def spy(name, game_, state, turns_, *args):
        played.append(turns_)
        return greedy_on(name, game_, state, turns_, *args)

    monkeypatch.setattr(ai, "_greedy_on", spy)
    state, seat = _avalon_position(lambda step: step == "set")
    legal = game.legal_commands(state, seat)
    assert choose("avalon", game.view(state, seat), legal, seat, level="hard", seed=2) in legal
    assert played == [2] * 5, "one greedy playout an iteration, five iterations"
    played.clear()
    monkeypatch.setattr(ai, "GREEDY_PLAYOUTS", {})
    state, seat = positions("squares", 1)[0]
    sq = registry.get("squares")
    choose("squares", sq.view(state, seat), sq.legal_commands(state, seat), seat, level="hard", seed=2)
    assert not played, "elsewhere the leaf is scored as it stands"


def test_hard_in_a_shortlist_game_lets_rollouts_choose_among_the_searchs_most_visited_moves(monkeypatch):
    """In a game named in ai.HARD_SHORTLIST (game -> k, samples, turns; Avalon's Sanctuary: 3, 3,
    1), hard first searches the tree, then plays only its k most visited root moves on by normal's judgement (every one on
    every sample, until the turn has passed on ``turns`` times) and picks the best of those on
    average — a move the search did not rank among its k best is never chosen."""
    import ai

    assert ai.HARD_SHORTLIST == {"avalon": (3, 3, 1)}
    monkeypatch.setattr(ai, "HARD_SHORTLIST", {"avalon": (2, 2, 1)})
    monkeypatch.setattr(ai, "HARD_BY_ROLLOUTS", {})
    monkeypatch.setattr(ai, "GREEDY_PLAYOUTS", {})
    monkeypatch.setattr(ai, "HARD_ITERATIONS", 30)
    game = registry.get("avalon")
    ranked_by_search: list[list[str]] = []
    rolled: list[str] = []
    real_ranked = ai._ranked

    def ranked(root, legal):
        out = real_ranked(root, legal)
        ranked_by_search.append(out)
        return out

    def rollouts(name, game_, view, legal, seat, rng, budget_s, samples, turns):
        rolled.extend(legal)
        assert (samples, turns) == (2, 1)
        return real_rollouts(name, game_, view, legal, seat, rng, budget_s, samples, turns)

    real_rollouts = ai._rollouts
    monkeypatch.setattr(ai, "_ranked", ranked)
    monkeypatch.setattr(ai, "_rollouts", rollouts)
    checked = 0
    for state, seat in positions("avalon", 6, players=2):
        legal = game.legal_commands(state, seat)
        if len(legal) < 3:
            continue
        view = game.view(state, seat)
        ranked_by_search.clear()
        rolled.clear()
        choice = choose("avalon", view, legal, seat, level="hard", seed=3)
        top = ranked_by_search[0][:2]
        assert sorted(rolled) == sorted(top), "only the search's k best are played on"
        assert choice in top
        ranked_by_search.clear()
        assert choose("avalon", view, legal, seat, level="hard", seed=3) == choice, "deterministic for a seed"
        checked += 1
    assert checked >= 2
