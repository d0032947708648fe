"""SQUARES: thousands of random matches through the registry contract only (docs/engine.md).

Checks, for every match: no exception; the match ends within its turn cap; dump/load is exact;
replaying seed + options + command log gives the identical dump; random garbage and illegal
commands raise IllegalCommand (with a catalogued key) and change nothing; views are JSON;
a seat that is not asked has no legal commands.
"""
from __future__ import annotations

import json
import random

from data import i18n
from rules import IllegalCommand, registry

game = registry.get("squares")
MATCHES = 2000

_VERBS = ["place", "move", "leap", "swap", "return", "pass", "PLACE", "jump", "", "-"]
_PIECES = [s + str(n) for s in "SLXPslxpABQ" for n in range(0, 7)]
_SQUARES = [f + str(r) for f in "abcdefzA" for r in range(0, 7)] + ["c10", "3c"]


def garbage(rng: random.Random, legal: list[str]) -> str:
    """A random command: mostly near misses of legal ones, sometimes noise."""
    roll = rng.random()
    if roll < 0.35 and legal:                       # a legal command with one token changed
        toks = rng.choice(legal).split()
        i = rng.randrange(len(toks))
        toks[i] = rng.choice(_VERBS + _PIECES + _SQUARES)
        return " ".join(toks)
    if roll < 0.5 and legal:                        # a legal command, odd spacing/case
        cmd = rng.choice(legal)
        return "  " + cmd.upper().replace(" ", "   ") + " "
    if roll < 0.9:
        verb = rng.choice(_VERBS)
        args = [rng.choice(_PIECES + _SQUARES) for _ in range(rng.randrange(4))]
        return " ".join([verb, *args])
    return "".join(rng.choice("abcxyz0123456789 -SLXP\t") for _ in range(rng.randrange(12)))


def check_garbage(state, seat: int, text: str) -> None:
    before = game.dump(state)
    legal = game.legal_commands(state, seat)
    canonical = game.public_command(state, seat, text)
    try:
        new = game.apply(state, seat, text)
    except IllegalCommand as err:
        assert canonical not in legal, (text, canonical, err.reason)
        assert game.dump(state) == before
        assert err.key and err.key.startswith("squares.err."), err.key
        for lang in ("en", "ja"):
            template = i18n.catalog(lang)[err.key]
            assert i18n.placeholders(template) <= set(err.params), err.key
        assert i18n.t(err.key, "en", **err.params) == err.reason
        assert all(isinstance(v, (str, int)) for v in err.params.values())
    else:
        assert canonical in legal, (text, canonical)
        assert game.dump(state) == before
        assert game.dump(new) == game.dump(game.apply(state, seat, canonical))


def play(match: int, rng: random.Random):
    options: dict = {}
    if rng.random() < 0.6:
        options["first"] = rng.randrange(2)
    options["max_turns"] = rng.choice([10, 12, 20, 30, 50, 80, 120, 200])
    options["repetition"] = rng.randint(2, 4)
    seed = rng.randrange(1 << 30)
    state = game.new_match(players=2, seed=seed, options=options)
    log: list[tuple[int, str]] = []
    steps = 0
    bound = options["max_turns"] * 11 + 1          # a turn is one action + at most 10 returns
    while game.outcome(state) is None:
        steps += 1
        assert steps <= bound, "match did not end"
        to_act = game.to_act(state)
        assert len(to_act) == 1
        seat = to_act[0]
        other = 1 - seat
        assert game.legal_commands(state, other) == []
        legal = game.legal_commands(state, seat)
        assert legal and ("pass" not in legal or legal == ["pass"])
        assert len(set(legal)) == len(legal)
        view = game.view(state, None)
        if view["phase"] == "play":
            assert view["over_limit"] == [[], []]
        else:
            assert view["phase"] == "return" and view["over_limit"][seat]
            assert all(c.startswith("return ") for c in legal)
        roll = rng.random()
        if roll < 0.04:
            text = game.dump(state)
            again = game.load(text)
            assert again == state and game.dump(again) == text
            json.dumps(view)
            assert game.view(again, 0) == dict(view, seat=0)
        if roll < 0.15:
            check_garbage(state, seat, garbage(rng, legal))
        if roll > 0.985:
            cmd = rng.choice(legal)
            before = game.dump(state)
            try:
                game.apply(state, other, cmd)
            except IllegalCommand as err:
                assert err.key == "squares.err.not_your_turn"
            else:
                raise AssertionError("a seat that is not asked could act")
            assert game.dump(state) == before
        cmd = rng.choice(legal)
        state = game.apply(state, seat, cmd)
        log.append((seat, cmd))
    outcome = game.outcome(state)
    assert outcome["reason"] in ("centre", "repetition", "turn_limit")
    assert (outcome["reason"] == "centre") == (len(outcome["winners"]) == 1)
    assert game.to_act(state) == [] and game.legal_commands(state, 0) == [] \
        and game.legal_commands(state, 1) == []
    view = game.view(state, None)
    assert view["phase"] == "over" and view["outcome"] == outcome and view["turn"] <= options["max_turns"]
    json.dumps(view)
    return seed, options, log, state, outcome


def test_thousands_of_random_matches():
    rng = random.Random(20240601)
    reasons: dict[str, int] = {}
    for match in range(MATCHES):
        seed, options, log, final, outcome = play(match, rng)
        reasons[outcome["reason"]] = reasons.get(outcome["reason"], 0) + 1
        if match % 4 == 0:                              # a match = seed + options + command log
            state = game.new_match(players=2, seed=seed, options=options)
            for seat, cmd in log:
                state = game.apply(state, seat, cmd)
            assert game.dump(state) == game.dump(final)
        if match % 50 == 0:
            check_garbage(final, 0, "place S1 a1")
    assert set(reasons) >= {"centre", "turn_limit"}, reasons


def test_random_seeds_without_first_option_pick_both_seats():
    firsts = {game.view(game.new_match(2, seed, {}), None)["first"] for seed in range(64)}
    assert firsts == {0, 1}


def test_rematch_options_chain_stays_valid():
    rng = random.Random(5)
    options: dict = {}
    for _ in range(30):
        state = game.new_match(2, rng.randrange(1000), options)
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
        outcome = game.outcome(state)
        options = game.rematch_options(options, outcome)
        if outcome["winners"]:
            assert options["first"] == 1 - outcome["winners"][0]
        else:
            assert "first" not in options
