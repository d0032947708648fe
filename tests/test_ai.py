"""Practice opponents that never peek (issue 17): ``ai.choose`` is handed a seat's VIEW, never a
state, and returns one of the seat's legal commands, at every level and in every game;
without a time budget the choice is deterministic for a seed."""
from __future__ import annotations

import hashlib
import json
import random
import sys
import time
from pathlib import Path

import pytest

try:
    from playing import untexted
except ImportError:         # run as ``python -m tests.test_ai --write-moves`` from the root
    from tests.playing import untexted
from ai import LEVELS, choose
from rules import registry

GAMES = ["squares", "logic_square", "maken", "art_of_war", "avalon"]


def _random_play(name: str, players: int, seed: int, commands: int | None = None):
    """Match ``seed`` after ``commands`` (by default 10 + 13 * ``seed``) random legal commands,
    fewer if it ends."""
    game = registry.get(name)
    state = game.new_match(players=players, seed=seed, options={})
    rng = random.Random(seed)
    for _ in range(10 + 13 * seed if commands is None else commands):
        if game.outcome(state) is not None:
            break
        seat = rng.choice(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
    return state


def positions(name: str, count: int, players: int | None = None):
    """(state, seat to act) at some positions of random play."""
    game = registry.get(name)
    players = players or (3 if name == "avalon" else game.min_players)
    out = []
    for seed in range(20):
        state = _random_play(name, players, seed)
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
    assert ai.TURN_END.get("logic_square") == "end"
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


def test_hard_in_a_shortlist_game_lets_rollouts_choose_among_the_searchs_most_visited_moves(monkeypatch):
    """In a game named in ai.HARD_SHORTLIST (game -> k, samples, turns; Avalon's Sanctuary: 3, 3,
    1), hard first searches the tree, then plays only its k most visited root moves on by normal's judgement (every one on
    every sample, until the turn has passed on ``turns`` times) and picks the best of those on
    average — a move the search did not rank among its k best is never chosen."""
    import ai

    assert ai.HARD_SHORTLIST == {"avalon": (3, 3, 1)}
    monkeypatch.setattr(ai, "HARD_SHORTLIST", {"avalon": (2, 2, 1)})
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


def test_the_shortlists_rollouts_play_every_move_on_every_sample_and_stop_on_the_budget(monkeypatch):
    """The rollouts that choose among the shortlist play every move on each determinized state
    and that on by the one-ply judgement until the turn has passed on the given number of times;
    a time budget that runs out leaves only the moves played on as candidates."""
    import ai

    game = registry.get("avalon")
    played: list[tuple] = []
    greedy_on = ai._greedy_on

    def spy(name, game_, state, turns_, *args):
        assert turns_ == 1
        end = greedy_on(name, game_, state, turns_, *args)
        played.append((state, end))
        return end

    monkeypatch.setattr(ai, "_greedy_on", spy)
    checked = 0
    for state, seat in positions("avalon", 6, players=2):
        legal = game.legal_commands(state, seat)[:3]
        view = game.view(state, seat)
        played.clear()
        choice = ai._rollouts("avalon", game, view, legal, seat, random.Random(4), None, 2, 1)
        assert choice in legal
        assert len(played) == 2 * len(legal), "every move on every sample"
        played.clear()
        clock = iter(range(0, 10**6, 10))          # a clock that moves 10 s a reading: the budget
        monkeypatch.setattr(ai, "time", type("Clock", (), {"perf_counter": staticmethod(lambda: next(clock))}))
        assert ai._rollouts("avalon", game, view, legal, seat, random.Random(4), 1.0, 2, 1) in legal
        monkeypatch.setattr(ai, "time", time)
        assert len(played) == 1, "the budget ran out after the first playout: only that move is a candidate"
        checked += 1
    assert checked >= 2


# ------------------------------------------------------------------ the same moves, pinned

MOVES_FIXTURE = Path(__file__).parent / "data" / "ai_moves.json"
# (game, players, steps, hard): MOVE_POSITIONS positions, each the one after 10 + 13 * seed random
# commands (as ``positions``) or, with steps, match seed's first decision with a choice at one of
# those steps in random play; easy and normal are pinned at each, hard (300 iterations: slow) at
# the first ``hard`` of them
MOVE_TABLES = [("squares", 2, None, 2), ("logic_square", 2, None, 2), ("maken", 2, None, 2),
               ("art_of_war", 2, None, 2), ("avalon", 3, None, 1), ("avalon", 2, None, 1),
               ("avalon", 2, ("main", "declare", "support"), 2)]
MOVE_POSITIONS = 5
MOVE_SEEDS = (0, 1)         # choose()'s seeds for easy and normal; hard uses the first


def _digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def _view_digest(view) -> str:
    """The digest of a view without the cards' rules texts (``playing.untexted``): the position
    and what the AI may choose must stay the same while the wording improves."""
    return _digest(untexted(view))


def _decision(game, state):
    """(seat, view, legal) of the first seat to act at ``state``, or None (over, or no choice)."""
    if game.outcome(state) is not None or not game.to_act(state):
        return None
    seat = game.to_act(state)[0]
    legal = game.legal_commands(state, seat)
    return (seat, game.view(state, seat), legal) if len(legal) > 1 else None


def _table_positions(name: str, players: int, steps: tuple | None):
    """(seed, commands) of the table's positions, MOVE_POSITIONS at most."""
    game, out = registry.get(name), []
    for seed in range(60):
        if steps is None:
            if _decision(game, _random_play(name, players, seed)):
                out.append((seed, 10 + 13 * seed))
        else:
            state, rng = game.new_match(players=players, seed=seed, options={}), random.Random(seed)
            for i in range(300):
                found = _decision(game, state)
                if found and found[1].get("step") in steps:
                    out.append((seed, i))
                    break
                if game.outcome(state) is not None or not game.to_act(state):
                    break
                seat = rng.choice(game.to_act(state))     # as _random_play
                state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
        if len(out) == MOVE_POSITIONS:
            break
    return out


def write_moves_fixture(path: Path = MOVES_FIXTURE) -> None:
    """Record what ``choose`` plays today at the pinned positions (tests/data/ai_moves.json).

    Regenerate only when a change is MEANT to change the AI's moves (a rules edition, an
    evaluation, a search setting), from the repository's root::

        python -m tests.test_ai --write-moves

    and say in the change why the moves changed.  A refactoring of ``ai/`` must pass the test
    against the committed file as it is."""
    entries = []
    for name, players, steps, hard in MOVE_TABLES:
        game = registry.get(name)
        for n, (seed, commands) in enumerate(_table_positions(name, players, steps)):
            seat, view, legal = _decision(game, _random_play(name, players, seed, commands))
            levels = ("easy", "normal", "hard") if n < hard else ("easy", "normal")
            moves = {level: {str(s): choose(name, view, legal, seat, level=level, seed=s)
                             for s in (MOVE_SEEDS[:1] if level == "hard" else MOVE_SEEDS)} for level in levels}
            entries.append({"game": name, "players": players, "seed": seed, "commands": commands,
                            "seat": seat, "step": view.get("step"), "view": _view_digest(view),
                            "legal": _digest(legal), "moves": moves})
    text = {"about": "ai.choose's moves at pinned positions of random play; written by "
                     "tests/test_ai.py's write_moves_fixture (python -m tests.test_ai --write-moves)",
            "positions": entries}
    path.write_text(json.dumps(text, indent=1, ensure_ascii=False) + "\n")


def test_choose_plays_the_recorded_moves_for_fixed_seeds():
    """At positions of random play from fixed seeds, every level (hard at its fixed iteration
    count, no time budget) plays exactly the moves recorded in tests/data/ai_moves.json: a change
    to ``ai/`` that is not meant to change how it plays keeps them (regenerating the file is
    ``write_moves_fixture``, for changes meant to play differently)."""
    recorded = json.loads(MOVES_FIXTURE.read_text())["positions"]
    assert {e["game"] for e in recorded} == set(GAMES)
    assert {e["game"] for e in recorded if "hard" in e["moves"]} == set(GAMES)
    differ = []
    for e in recorded:
        name = e["game"]
        where = f"{name} ({e['players']} players) seed {e['seed']} after {e['commands']} commands"
        found = _decision(registry.get(name), _random_play(name, e["players"], e["seed"], e["commands"]))
        assert found is not None, f"{where}: no decision there any more (the rules changed, not ai/)"
        seat, view, legal = found
        assert (seat, _view_digest(view), _digest(legal)) == (e["seat"], e["view"], e["legal"]), \
            f"{where}: the position itself changed (the rules or random play, not ai/)"
        for level, by_seed in e["moves"].items():
            for s, want in by_seed.items():
                got = choose(name, view, legal, seat, level=level, seed=int(s))
                if got != want:
                    differ.append(f"{where}, {level}, seed {s}: {got!r}, recorded {want!r}")
    assert not differ, "choose() plays other moves than recorded:\n" + "\n".join(differ)


if __name__ == "__main__" and sys.argv[1:] == ["--write-moves"]:
    write_moves_fixture()
    print(f"wrote {MOVES_FIXTURE}")
