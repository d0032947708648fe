"""Art of War: hundreds of random matches through the registry contract only (docs/engine.md).

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
    for match in range(MATCHES):
        seed, options, log, final, outcome = play(rng)
        reasons[outcome["reason"]] = reasons.get(outcome["reason"], 0) + 1
        if match % 3 == 0:
            state = game.new_match(players=2, seed=seed, options=options)
            for seat, cmd in log:
                state = game.apply(state, seat, cmd)
            assert game.dump(state) == game.dump(final)
    assert set(reasons) >= {"execution", "nation_building", "end_of_war"}, reasons



def test_random_seeds_pick_both_first_players():
    firsts = {game.view(game.new_match(2, seed, {}), None)["first"] for seed in range(64)}
    assert firsts == {0, 1}


def _invariants(state) -> None:
    pub = game.view(state, None)
    players = pub["players"]
    # 待機エリア 最大5枚 / 戦場エリア 最大6枚
    assert all(len(p["waiting"]) <= 5 for p in players)
    squares = {u["square"]: u for u in pub["field"]}
    for seat, (front, back) in ((0, ("2", "1")), (1, ("3", "4"))):
        assert sum(1 for u in pub["field"] if u["owner"] == seat) <= 6
        for f in "abc":
            # 後列に置かれたユニットの前に前列のユニットが無い…即座に前列へ移動させる (強制)
            if f + back in squares:
                assert f + front in squares, (seat, f, pub["field"])
            for sq in (f + front, f + back):
                if sq in squares:
                    assert squares[sq]["owner"] == seat
    # every card is somewhere: 2 × (KING + 20) while no KING has left the game (the KINGs are
    # only shown, not in hand, until the mulligans are done: ⑤ お互いにキングを手札に入れる)
    total = sum(p["hand_count"] + p["deck_count"] + len(p["waiting"]) + p["graveyard_count"] + p["kingdom_count"]
                for p in players) + len(pub["field"])
    if pub["phase"] == "mulligan":
        assert total == 40, total
    elif game.outcome(state) is None:
        assert total == 42, total
    else:
        assert total in (41, 42)


def test_invariants_hold_in_random_play():
    """Rulebook limits checked after every command of random matches: waiting area ≤ 5, battlefield
    ≤ 6 on its owner's side, no back-row unit without a unit in front, no card lost or duplicated;
    at the start of each turn (after recovery and draw) nothing is damaged and the turn player's
    units stand upright (1、リカバリーフェイズ; ターンの終了時に蓄積したダメージはリセットされる)."""
    rng = random.Random(99)
    for _ in range(60):
        state = game.new_match(2, rng.randrange(1 << 30), {})
        turn = None
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
            _invariants(state)
            pub = game.view(state, None)
            if pub["turn"] != turn and pub["phase"] == "play" and game.outcome(state) is None:
                turn = pub["turn"]
                assert all(u["damage"] == 0 for u in pub["field"])
                assert all(u["orientation"] == "upright" for u in pub["field"] if u["owner"] == pub["player"])
