"""Project Maken: hundreds of random matches through the registry contract only (docs/engine.md).

For every match: no exception; it ends; dump/load is exact; replaying seed + options + command
log gives the identical dump; garbage and illegal commands raise IllegalCommand with a catalogued
key and change nothing; views are JSON and keep secrets; every token level of legal_commands
offers at most 25 choices (the Discord menu builds commands token by token).
"""
from __future__ import annotations

import json
import random

from data import i18n
from rules import IllegalCommand, registry

game = registry.get("maken")
MATCHES = 300

_WORDS = ["attack", "guard", "keep", "gc", "call", "break", "fb", "set", "use", "draw", "bonus",
          "pass", "end", "skip", "ready", "mulligan", "stand", "crouch", "air", "double", "triple",
          "atk", "spd", "grd", "ts01", "gu05", "zz99", "0", "3", "9", "", "GUARD", "x2"]


def garbage(rng: random.Random, legal: list[str]) -> str:
    roll = rng.random()
    if roll < 0.4 and legal:
        toks = rng.choice(legal).split()
        i = rng.randrange(len(toks))
        toks[i] = rng.choice(_WORDS)
        if rng.random() < 0.3:
            toks.append(rng.choice(_WORDS))
        return " ".join(toks)
    if roll < 0.55 and legal:
        return "  " + rng.choice(legal).upper().replace(" ", "   ") + " "
    if roll < 0.9:
        return " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(5)))
    return "".join(rng.choice("abgtu0123 -x\t") for _ in range(rng.randrange(12)))


def check_garbage(state, seat: int, text: str) -> None:
    before = game.dump(state)
    legal = game.legal_commands(state, seat)
    try:
        game.apply(state, seat, text)
    except IllegalCommand as err:
        assert game.dump(state) == before
        assert err.key and err.key.startswith("maken.err."), err.key
        for lang in ("en", "ja"):
            template = i18n.catalog(lang)[err.key]
            assert i18n.placeholders(template) <= set(err.params), err.key
        assert i18n.t(err.key, "en", **err.params) == err.reason
        assert all(isinstance(v, (str, int)) for v in err.params.values())
    else:
        assert game.dump(state) == before
        canonical = " ".join(game.public_command(state, seat, text).split())
        assert any(canonical == game.public_command(state, seat, c) for c in legal), text


def token_levels(legal: list[str]) -> int:
    tree: dict[tuple, set] = {}
    for c in legal:
        t = c.split()
        for i in range(len(t)):
            tree.setdefault(tuple(t[:i]), set()).add(t[i])
    return max((len(v) for v in tree.values()), default=0)


def play(rng: random.Random):
    options: dict = {"max_turns": rng.choice([10, 20, 40, 60])}
    if rng.random() < 0.5:
        options["first"] = rng.randrange(2)
    if rng.random() < 0.5:
        options["decks"] = [rng.choice(list(game.decks.ready())) for _ in range(2)]
    seed = rng.randrange(1 << 30)
    state = game.new_match(players=2, seed=seed, options=options)
    log = []
    steps = 0
    while game.outcome(state) is None:
        steps += 1
        assert steps < 5000, "match did not end"
        to_act = game.to_act(state)
        assert len(to_act) == 1
        seat = to_act[0]
        assert game.legal_commands(state, 1 - seat) == []
        legal = game.legal_commands(state, seat)
        assert legal and len(set(legal)) == len(legal)
        assert token_levels(legal) <= 25
        roll = rng.random()
        if roll < 0.03:
            text = game.dump(state)
            again = game.load(text)
            assert again == state and game.dump(again) == text
            pub = game.view(state, None)
            json.dumps(pub)
            assert "hand" not in pub
            mine = game.view(state, seat)
            assert mine["legal"] == legal
        if roll < 0.12:
            check_garbage(state, seat, garbage(rng, legal))
        if roll > 0.99:
            before = game.dump(state)
            try:
                game.apply(state, 1 - seat, rng.choice(legal))
            except IllegalCommand as err:
                assert err.key == "maken.err.not_your_turn"
            else:
                raise AssertionError("a seat that is not asked could act")
            assert game.dump(state) == before
        cmd = rng.choice(legal)
        state = game.apply(state, seat, cmd)
        log.append((seat, cmd))
    outcome = game.outcome(state)
    assert outcome["reason"] in ("lp", "turn_limit")
    assert game.to_act(state) == [] and game.legal_commands(state, 0) == []
    return seed, options, log, state, outcome


def test_hundreds_of_random_matches():
    rng = random.Random(20261121)
    reasons: dict[str, int] = {}
    for match in range(MATCHES):
        seed, options, log, final, outcome = play(rng)
        reasons[outcome["reason"]] = reasons.get(outcome["reason"], 0) + 1
        if match % 3 == 0:
            state = game.new_match(players=2, seed=seed, options=options)
            for seat, cmd in log:
                state = game.apply(state, seat, cmd)
            assert game.dump(state) == game.dump(final)
        if match % 50 == 0:
            check_garbage(final, 0, "call")
    assert set(reasons) == {"lp", "turn_limit"}, reasons



def test_rematch_the_loser_is_first():
    assert game.rematch_options({}, {"winners": [0], "reason": "lp"})["first"] == 1
    assert "first" not in game.rematch_options({"first": 0}, {"winners": [], "reason": "turn_limit"})


def test_options_are_validated():
    import pytest

    with pytest.raises(ValueError):
        game.new_match(2, 1, {"colour": "red"})
    with pytest.raises(ValueError):
        game.new_match(2, 1, {"first": 5})
    with pytest.raises(ValueError):
        game.new_match(2, 1, {"max_turns": 3})
    with pytest.raises(ValueError) as err:
        game.new_match(2, 1, {"decks": [{"character": "gou", "cards": {"ts01": 4}}, "gou_basic"]})
    assert "other_pool" not in str(err.value) and "copies" in str(err.value)
    schema = game.option_schema()
    assert set(schema) == {"decks", "first", "max_turns"}


def test_timeout_command_is_always_legal():
    rng = random.Random(9)
    for m in range(20):
        state = game.new_match(2, m, {"max_turns": 20})
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            auto = game.timeout_command(state, seat)
            if auto is not None:
                assert auto in game.legal_commands(state, seat)
            state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
