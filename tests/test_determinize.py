"""``determinize`` (docs/engine.md, issue 17): a full state consistent with one seat's view, with what
that seat cannot see sampled.  The law, at every reachable position, tested by random play for
every game that has it and every player count:

    view(determinize(view(s, seat), seat, rng), seat) == view(s, seat)

and, because an AI plays on from it: the seat has the same legal commands in the sampled state,
and any of them can be applied to it.
"""
from __future__ import annotations

import json
import random

import pytest

from rules import registry

GAMES = [name for name in registry.names() if hasattr(registry.get(name), "determinize")]


def _cases():
    for name in GAMES:
        game = registry.get(name)
        for players in range(game.min_players, game.max_players + 1):
            yield pytest.param(name, players, id=f"{name}-{players}p")


@pytest.mark.parametrize("name,players", list(_cases()))
def test_the_determinize_law_holds_at_every_position_of_random_play(name, players):
    game = registry.get(name)
    checked = 0
    for seed in range(4):
        state = game.new_match(players=players, seed=seed, options={})
        rng = random.Random(seed)
        for step in range(160):
            for seat in range(players):
                view = json.loads(json.dumps(game.view(state, seat)))   # as an AI gets it: JSON
                sampled = game.determinize(view, seat, random.Random(step * 31 + seat))
                assert game.view(sampled, seat) == view, (name, seed, step, seat)
                if seat in game.to_act(state):
                    legal = game.legal_commands(state, seat)
                    assert game.legal_commands(sampled, seat) == legal
                    game.apply(sampled, seat, random.Random(step).choice(legal))
                if step % 5 == 0:       # a sample plays on, whoever acts in it (an AI's playout)
                    _play_on(game, sampled, random.Random(step), 12)
                checked += 1
            if game.outcome(state) is not None or not game.to_act(state):
                break
            seat = rng.choice(game.to_act(state))
            state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
    assert checked > 100


def _play_on(game, state, rng, commands: int) -> None:
    for _ in range(commands):
        if game.outcome(state) is not None or not game.to_act(state):
            return
        seat = rng.choice(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))


def test_a_sample_differs_only_in_what_the_seat_cannot_see():
    """Two samples of the same view agree on everything the seat sees (the law) and, in a game
    with hidden cards, may differ in what it does not (the opponent's hand, the deck order)."""
    for name in GAMES:
        game = registry.get(name)
        state = game.new_match(players=game.min_players, seed=7, options={})
        view = game.view(state, 0)
        a = game.determinize(view, 0, random.Random(1))
        b = game.determinize(view, 0, random.Random(2))
        assert game.view(a, 0) == game.view(b, 0) == view
