"""Art of War: hundreds of random matches through the registry contract only (ENGINE.md).

For every match: no exception; the match ends (no turn cap is needed: every turn draws from a
finite deck and 終戦 ends the match at the end of the turn both decks are empty); dump/load is
exact; replaying seed + options + command log gives the identical dump; garbage and illegal
commands raise IllegalCommand (catalogued key) and change nothing; every token level of
legal_commands has ≤ 25 choices; views are JSON and hide hands; a hidden response window is
invisible in view(None) and in the declaring seat's view.
"""
from __future__ import annotations

import json
import random
import time

from data import i18n
from rules import IllegalCommand, registry

game = registry.get("art_of_war")
MATCHES = 400
TOKENS = ["keep", "mulligan", "setup", "deploy", "exchange", "move", "play", "swap", "attack",
          "support", "immigrate", "draft", "pass", "end", "k", "s", "a", "p", "g", "w", "x", "king",
          "a1", "b2", "c3", "c4", "d1", "a5", "", "-", "B2", "ATTACK"]


def garbage(rng: random.Random, legal: list[str]) -> str:
    roll = rng.random()
    if roll < 0.4:
        toks = rng.choice(legal).split()
        toks[rng.randrange(len(toks))] = rng.choice(TOKENS)
        return " ".join(toks)
    if roll < 0.5:
        return "  " + rng.choice(legal).upper().replace(" ", "   ") + " "
    if roll < 0.9:
        return " ".join(rng.choice(TOKENS) for _ in range(rng.randrange(5)))
    return "".join(rng.choice("abcxyz0123456789 -kspgw\t") for _ in range(rng.randrange(12)))


def check_garbage(state, seat: int, text: str) -> None:
    before = game.dump(state)
    legal = game.legal_commands(state, seat)
    canonical = game.public_command(state, seat, text)
    try:
        new = game.apply(state, seat, text)
    except IllegalCommand as err:
        assert canonical not in legal, (text, err.reason)
        assert err.key and err.key.startswith("art_of_war.err."), err.key
        for lang in ("en", "ja"):
            assert i18n.placeholders(i18n.catalog(lang)[err.key]) <= set(err.params), err.key
        assert i18n.t(err.key, "en", **err.params) == err.reason
        assert all(isinstance(v, (str, int)) for v in err.params.values())
    else:
        assert canonical in legal or (canonical is None and text.lower().split() == ["pass"]), (text, canonical)
        assert game.dump(new) == game.dump(game.apply(state, seat, " ".join(text.lower().split())))
    assert game.dump(state) == before


def check_levels(legal: list[str]) -> None:
    for level in range(5):
        nxt: dict = {}
        for c in legal:
            t = c.split()
            if len(t) > level:
                nxt.setdefault(tuple(t[:level]), set()).add(t[level])
        assert all(len(v) <= 25 for v in nxt.values()), (level, nxt)


def play(rng: random.Random):
    options: dict = {}
    if rng.random() < 0.5:
        options["first"] = rng.randrange(2)
    if rng.random() < 0.5:
        ids = list(game.decks.ready())
        options["decks"] = [rng.choice(ids), rng.choice(ids)]
    seed = rng.randrange(1 << 30)
    state = game.new_match(players=2, seed=seed, options=options)
    log: list[tuple[int, str]] = []
    steps = 0
    prev = None
    while game.outcome(state) is None:
        steps += 1
        assert steps <= 2000, "match did not end"
        to_act = game.to_act(state)
        assert len(to_act) == 1
        seat = to_act[0]
        assert game.legal_commands(state, 1 - seat) == []
        legal = game.legal_commands(state, seat)
        assert legal and len(set(legal)) == len(legal)
        check_levels(legal)
        pub = game.view(state, None)
        assert "hand" not in pub
        if state.window is not None and prev is not None and prev[0].window is None:
            # the declaration that opened a hidden window: nothing visible changed
            before, declarer = prev
            assert game.view(state, None) == game.view(before, None)
            assert game.view(state, declarer) == game.view(before, declarer)
            assert game.public_to_act(state) == [declarer]
            assert game.timeout_command(state, seat) == "pass"
        roll = rng.random()
        if roll < 0.05:
            text = game.dump(state)
            again = game.load(text)
            assert again == state and game.dump(again) == text
            json.dumps(pub)
            json.dumps(game.view(state, seat))
            assert game.view(again, 1 - seat) == game.view(state, 1 - seat)
        if roll < 0.2:
            check_garbage(state, seat, garbage(rng, legal))
        cmd = rng.choice(legal)
        prev = (state, seat)
        state = game.apply(state, seat, cmd)
        log.append((seat, cmd))
    outcome = game.outcome(state)
    assert outcome["reason"] in ("execution", "nation_building", "end_of_war", "annihilation")
    assert outcome["reason"] == "end_of_war" or len(outcome["winners"]) == 1
    assert game.to_act(state) == [] and game.legal_commands(state, 0) == []
    assert game.view(state, None)["outcome"] == outcome
    return seed, options, log, state, outcome


def test_hundreds_of_random_matches_end_and_replay_exactly():
    rng = random.Random(20261121)
    reasons: dict[str, int] = {}
    start = time.perf_counter()
    for match in range(MATCHES):
        seed, options, log, final, outcome = play(rng)
        reasons[outcome["reason"]] = reasons.get(outcome["reason"], 0) + 1
        if match % 3 == 0:
            state = game.new_match(players=2, seed=seed, options=options)
            for seat, cmd in log:
                state = game.apply(state, seat, cmd)
            assert game.dump(state) == game.dump(final)
    assert set(reasons) >= {"execution", "nation_building", "end_of_war"}, reasons
    assert time.perf_counter() - start < 60


def test_apply_throughput_in_random_play():
    """The project target: ≥ 10,000 apply() per second in random play (measured loosely)."""
    rng = random.Random(7)
    n = 0
    start = time.perf_counter()
    while n < 20000:
        state = game.new_match(2, rng.randrange(1 << 20), {})
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
            n += 1
    rate = n / (time.perf_counter() - start)
    assert rate > 5000, rate            # generous bound for slow CI machines; ~60k/s locally


def test_random_seeds_pick_both_first_players():
    firsts = {game.view(game.new_match(2, seed, {}), None)["first"] for seed in range(64)}
    assert firsts == {0, 1}
