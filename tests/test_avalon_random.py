"""Avalon's Sanctuary: random matches at 2, 3 and 4 players through the registry contract only
(plus the late-join additions of docs/engine.md).

Checks, for every match: no exception; the match ends; dump/load is exact; replaying seed +
options + command log (joins logged as ``__join__``) gives the identical dump; garbage and
illegal commands raise IllegalCommand with a catalogued key and change nothing; views are JSON
and the public view holds no hand; every token level of the legal commands has ≤ 25 choices.
"""
from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest

from data import i18n
from rules import IllegalCommand, registry

game = registry.get("avalon")
MATCHES = 110
JOIN = "__join__"

_NOISE = ["forge", "summon", "magic", "discard", "done", "advance", "ranged", "invade", "pass",
          "support", "avatar", "c01", "c99", "m03", "s01", "a1", "l0", "l6", "l1", "p5l1", "p1l9",
          "y", "x", "", "FORGE", "zz"]


def garbage(rng: random.Random, legal: list[str]) -> str:
    roll = rng.random()
    if roll < 0.5 and legal:
        toks = rng.choice(legal).split()
        toks[rng.randrange(len(toks))] = rng.choice(_NOISE)
        return " ".join(toks)
    if roll < 0.6 and legal:
        return "  " + rng.choice(legal).upper() + "  "
    if roll < 0.9:
        return " ".join(rng.choice(_NOISE) for _ in range(rng.randrange(5)))
    return "".join(rng.choice("abclmp0123456789 -") for _ in range(rng.randrange(10)))


def check_garbage(state, seat: int, text: str) -> None:
    before = game.dump(state)
    legal = game.legal_commands(state, seat)
    canonical = game.canonical(state, seat, text)       # aliases and short forms spelled out
    try:
        new = game.apply(state, seat, text)
    except IllegalCommand as err:
        assert canonical not in legal, (text, err.reason)
        assert game.dump(state) == before
        assert err.key and err.key.startswith("avalon.err."), err.key
        for lang in ("en", "ja"):
            assert i18n.placeholders(i18n.catalog(lang)[err.key]) <= set(err.params), err.key
        assert i18n.t(err.key, "en", **err.params) == err.reason
        assert all(isinstance(v, (str, int)) for v in err.params.values())
    else:
        assert canonical in legal, text
        assert game.dump(state) == before
        assert game.dump(new) == game.dump(game.apply(state, seat, canonical))


def token_levels_ok(legal: list[str]) -> None:
    nxt: dict[tuple, set] = defaultdict(set)
    for c in legal:
        toks = c.split()
        assert c == " ".join(toks) and c == c.lower()
        for i in range(len(toks)):
            nxt[tuple(toks[:i])].add(toks[i])
    assert max(len(v) for v in nxt.values()) <= 25, max(nxt.items(), key=lambda kv: len(kv[1]))


def replay(players, seed, options, log):
    s = game.new_match(players=players, seed=seed, options=options)
    for seat, cmd in log:
        s = game.join(s, seat) if cmd == JOIN else game.apply(s, seat, cmd)
    return s


def play(players: int, rng: random.Random, late_join: bool) -> dict:
    options = {"mode": rng.choice(["intro", "normal", "veteran", "expert", "complete"])}
    if rng.random() < 0.3:
        options["max_rounds"] = rng.choice([5, 8, 12])
    seed = rng.randrange(1 << 30)
    state = game.new_match(players=players, seed=seed, options=options)
    log: list[tuple[int, str]] = []
    steps = 0
    while game.outcome(state) is None:
        steps += 1
        assert steps < 5000, "match did not end"
        if late_join and game.can_join(state) and rng.random() < 0.02:
            n = len(state.players)
            outs = [i for i, p in enumerate(state.players) if p.status == "out"]
            seat = n if n < 4 and (not outs or rng.random() < 0.5) else (outs[0] if outs else n)
            if seat < 4:
                state = game.join(state, seat)
                log.append((seat, JOIN))
                continue
        to_act = game.to_act(state)
        assert to_act and set(game.public_to_act(state)) == set(to_act)
        seat = rng.choice(to_act)
        legal = game.legal_commands(state, seat)
        assert legal
        token_levels_ok(legal)
        for other in range(len(state.players)):
            if other not in to_act:
                assert game.legal_commands(state, other) == []
        if rng.random() < 0.08:
            check_garbage(state, seat, garbage(rng, legal))
        if rng.random() < 0.02 and len(to_act) < len(state.players):
            idle = next(i for i in range(len(state.players)) if i not in to_act)
            with pytest.raises(IllegalCommand):
                game.apply(state, idle, legal[0])
        if rng.random() < 0.05:
            loaded = game.load(game.dump(state))
            assert game.dump(loaded) == game.dump(state)
            assert game.view(loaded, seat) == game.view(state, seat)
            pub = game.view(state, None)
            json.dumps(pub)
            assert "hand" not in pub
            json.dumps(game.view(state, seat))
        auto = game.timeout_command(state, seat)
        assert auto in legal
        cmd = rng.choice(legal) if rng.random() > 0.05 else auto
        state = game.apply(state, seat, cmd)
        log.append((seat, cmd))
    out = game.outcome(state)
    assert game.legal_commands(state, 0) == [] and game.to_act(state) == []
    assert game.dump(replay(players, seed, options, log)) == game.dump(state)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_through_the_contract(players):
    rng = random.Random(1000 + players)
    reasons = defaultdict(int)
    for m in range(MATCHES):
        out = play(players, rng, late_join=(m % 3 == 0))
        reasons[out["reason"]] += 1
        assert set(out["winners"]) <= set(range(4))
    assert sum(reasons.values()) == MATCHES


def test_a_four_player_match_with_a_late_joiner_plays_to_the_end():
    """「このゲームは後からゲームに参加できる途中参加(乱入)も可能」: 3 players start, a fourth joins
    as a chaser when the leader turn ends, and the match replays from seed + log."""
    rng = random.Random(44)
    s = game.new_match(players=3, seed=44, options={"leader": 0})
    log = []
    s = game.join(s, 3)
    log.append((3, JOIN))
    assert s.players[3].status == "waiting" and 3 not in game.to_act(s)
    s = game.apply(s, 0, "done")
    s = game.apply(s, 0, "pass")
    log += [(0, "done"), (0, "pass")]
    assert s.players[3].status == "play" and 3 in s.queue
    while game.outcome(s) is None:
        seat = rng.choice(game.to_act(s))
        cmd = rng.choice(game.legal_commands(s, seat))
        s = game.apply(s, seat, cmd)
        log.append((seat, cmd))
    assert len(s.players) == 4
    assert game.dump(replay(3, 44, {"leader": 0}, log)) == game.dump(s)
