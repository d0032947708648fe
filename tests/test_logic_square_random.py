"""Battle Logic Square: hundreds of random matches through the registry contract only (docs/engine.md).

Checks, for every match: no exception; the match ends; dump/load is exact; replaying seed +
options + command log gives the identical dump; garbage and illegal commands raise
IllegalCommand (with a catalogued key) and change nothing; every token level offers ≤ 25
choices; views are JSON and never show another seat's hand or unused IT cards; the public view
and the turn player's view never reveal a hidden chain window.
"""
from __future__ import annotations

import json
import random
from dataclasses import replace

from data import i18n
from rules import IllegalCommand, registry

game = registry.get("logic_square")
MATCHES = 400

_WORDS = ["move", "use", "it", "avi", "caa", "end", "chain", "pass", "discard", "USE", "jump", "", "-",
          "ac01", "ac99", "it01", "it11", "av01", "br05", "sc03", "c3", "c9", "z1", "1", "2", "7", "x"]


def garbage(rng: random.Random, legal: list[str]) -> str:
    roll = rng.random()
    if roll < 0.4 and legal:                        # a legal command with one token changed
        toks = rng.choice(legal).split()
        toks[rng.randrange(len(toks))] = rng.choice(_WORDS)
        return " ".join(toks)
    if roll < 0.55 and legal:                       # a legal command, odd spacing/case
        return "  " + rng.choice(legal).upper().replace(" ", "   ") + " "
    if roll < 0.9:
        return " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(1, 5)))
    return "".join(rng.choice("abcxyz0123456789 -+,") for _ in range(rng.randrange(12)))


def check_garbage(state, seat: int, text: str) -> None:
    before = game.dump(state)
    legal = game.legal_commands(state, seat)
    canonical = game.public_command(state, seat, text)
    try:
        new = game.apply(state, seat, text)
    except IllegalCommand as err:
        assert canonical not in legal, (text, canonical, err.reason)
        assert game.dump(state) == before
        assert err.key and err.key.startswith("logic_square.err."), err.key
        for lang in ("en", "ja"):
            assert i18n.placeholders(i18n.catalog(lang)[err.key]) <= set(err.params), err.key
        assert i18n.t(err.key, "en", **err.params) == err.reason
        # plain values, or a card-data text in both languages ({"en": …, "ja": …}), which the
        # catalog renders in the reader's language — never English inside the Japanese line
        for v in err.params.values():
            assert isinstance(v, (str, int)) or (isinstance(v, dict) and set(v) == {"en", "ja"}), v
        if any(isinstance(v, dict) for v in err.params.values()):
            ja = i18n.t(err.key, "ja", **err.params)
            assert all(v["en"] not in ja for v in err.params.values() if isinstance(v, dict)), ja
    else:
        assert game.dump(state) == before
        if canonical is not None:
            assert canonical in legal, (text, canonical)
            assert game.dump(new) == game.dump(game.apply(state, seat, canonical))


def check_tokens(legal: list[str]) -> None:
    groups: dict[tuple, set] = {}
    for cmd in legal:
        toks = cmd.split()
        for depth in range(len(toks)):
            groups.setdefault(tuple(toks[:depth]), set()).add(toks[depth])
    assert all(len(v) <= 25 for v in groups.values())


def public_ids(state) -> set[str]:
    """Card ids anyone may know about from the public zones of the state."""
    ids = set(state.avi)
    for s in (0, 1):
        ids.update(state.trash[s], state.it_used[s])
    ids.update(p[2] for p in state.placed)
    for d in state.chain:
        ids.add(d.card)
        ids.update(d.paid)
    last = state.last or {}
    for key in ("card",):
        if isinstance(last.get(key), str):
            ids.add(last[key])
    ids.update(last.get("cards", []) or [])
    ids.update(last.get("paid", []) or [])
    for d in last.get("chain", []) or []:
        ids.add(d["card"])
        ids.update(d["paid"])
    for ev in last.get("events", []):
        for key in ("card", "placed"):
            if isinstance(ev.get(key), str):
                ids.add(ev[key])
        ids.update(ev.get("cards", []) or [])
    return ids


def check_views(state) -> None:
    """Views hold only what each seat may know.  While a chain window is open everyone but the
    deciding seat sees ``state.base``, the moment before the command that opened the chain."""
    pub = game.view(state, None)
    json.dumps(pub)
    assert "hand" not in pub and "it_unused" not in pub and "pending" not in pub
    assert pub["to_act"] == game.public_to_act(state)
    for seat in (0, 1):
        v = game.view(state, seat)
        json.dumps(v)
        shown = state if state.window in (None, seat) else state.base
        real_pub = game.view(replace(shown, base=None, window=None), None)
        assert set(real_pub["cards"]) <= public_ids(shown)
        assert v["hand"] == list(shown.hand[seat]) and v["it_unused"] == list(shown.it_left[seat])
        assert set(v["cards"]) <= public_ids(shown) | set(shown.hand[seat]) | set(shown.it_left[seat])
        shared = {k: x for k, x in v.items() if k not in ("seat", "hand", "it_unused", "pending", "cards")}
        assert shared == {k: x for k, x in real_pub.items() if k not in ("seat", "cards")}
    if state.window is not None:                    # a hidden window: nothing public shows it
        watcher = 1 - state.window                  # the seat that declared the card being answered
        assert state.base is not None and state.base.window is None and not state.base.chain
        assert pub == game.view(state.base, None)
        assert game.view(state, watcher) == game.view(state.base, watcher)
        assert game.view(state, state.window)["pending"]["kind"] == "chain"
        assert game.public_to_act(state) == [state.player] and game.to_act(state) == [state.window]
    else:
        assert state.base is None


def choose(rng: random.Random, legal: list[str]) -> str:
    """Mostly uniform over verbs (so matches see chains, IT, AVI abilities and knockouts)."""
    by: dict[str, list[str]] = {}
    for c in legal:
        by.setdefault(c.split()[0], []).append(c)
    verbs = list(by)
    if "end" in verbs and len(verbs) > 1 and rng.random() < 0.85:
        verbs.remove("end")
    if "caa" in verbs and len(verbs) > 1 and rng.random() < 0.6:
        verbs.remove("caa")
    return rng.choice(by[rng.choice(verbs)])


def play(rng: random.Random):
    decks = list(game.cardset.decks)
    options: dict = {"decks": [rng.choice(decks), rng.choice(decks)],
                     "max_turns": rng.choice([10, 20, 40, 100]), "awakening": rng.random() < 0.75}
    if rng.random() < 0.6:
        options["first"] = rng.randrange(2)
    seed = rng.randrange(1 << 30)
    state = game.new_match(players=2, seed=seed, options=options)
    log: list[tuple[int, str]] = []
    steps = 0
    while game.outcome(state) is None:
        steps += 1
        assert steps <= options["max_turns"] * 150, "match did not end"
        to_act = game.to_act(state)
        assert len(to_act) == 1
        seat = to_act[0]
        other = 1 - seat
        assert game.legal_commands(state, other) == []
        legal = game.legal_commands(state, seat)
        assert legal and len(set(legal)) == len(legal)
        if state.window is not None:
            assert legal[-1] == "pass" and len(legal) >= 2 and all(c.startswith("chain ") for c in legal[:-1])
            assert game.timeout_command(state, seat) == "pass"
        elif state.phase == "discard":
            assert all(c.startswith("discard ") for c in legal)
            assert game.timeout_command(state, seat) in legal
        else:
            assert "end" in legal and game.timeout_command(state, seat) is None
        roll = rng.random()
        if roll < 0.05:
            text = game.dump(state)
            again = game.load(text)
            assert again == state and game.dump(again) == text
        if roll < 0.06 or (state.window is not None and roll < 0.5):
            check_views(state)
            check_tokens(legal)
        if roll < 0.15:
            check_garbage(state, seat, garbage(rng, legal))
        if roll > 0.99:
            before = game.dump(state)
            try:
                game.apply(state, other, rng.choice(legal))
            except IllegalCommand as err:
                assert err.key in ("logic_square.err.not_your_turn", "logic_square.err.resolving")
            else:
                raise AssertionError("a seat that is not asked could act")
            assert game.dump(state) == before
        cmd = choose(rng, legal)
        state = game.apply(state, seat, cmd)
        log.append((seat, cmd))
    outcome = game.outcome(state)
    assert outcome["reason"] in ("knockout", "double_knockout", "decks_out", "turn_limit")
    if outcome["reason"] == "knockout":
        assert len(outcome["winners"]) == 1 and state.life[1 - outcome["winners"][0]] <= 0
    if outcome["reason"] == "double_knockout":
        assert outcome["winners"] == [] and max(state.life) <= 0
    if outcome["reason"] in ("decks_out", "turn_limit"):
        a, b = state.life
        assert outcome["winners"] == ([] if a == b else [0 if a > b else 1])
    assert game.to_act(state) == [] and game.legal_commands(state, 0) == [] == game.legal_commands(state, 1)
    assert state.turn <= options["max_turns"]
    check_views(state)
    return seed, options, log, state, outcome


def test_hundreds_of_random_matches():
    rng = random.Random(20240613)
    reasons: dict[str, int] = {}
    verbs: dict[str, int] = {}
    for match in range(MATCHES):
        seed, options, log, final, outcome = play(rng)
        reasons[outcome["reason"]] = reasons.get(outcome["reason"], 0) + 1
        for _, cmd in log:
            verbs[cmd.split()[0]] = verbs.get(cmd.split()[0], 0) + 1
        if match % 3 == 0:                              # a match = seed + options + command log
            state = game.new_match(players=2, seed=seed, options=options)
            for seat, cmd in log:
                state = game.apply(state, seat, cmd)
            assert game.dump(state) == game.dump(final)
        if match % 50 == 0:
            check_garbage(final, 0, "end")
    assert set(reasons) >= {"knockout", "decks_out", "turn_limit"}, reasons
    assert set(verbs) == {"move", "use", "it", "avi", "caa", "end", "chain", "pass", "discard"}, verbs


def test_random_seeds_without_first_option_pick_both_seats():
    assert {game.new_match(2, seed, {}).first for seed in range(64)} == {0, 1}


def test_rematch_options_chain_stays_valid():
    rng = random.Random(5)
    options: dict = {"max_turns": 20}
    for _ in range(20):
        state = game.new_match(2, rng.randrange(1000), options)
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            state = game.apply(state, seat, choose(rng, game.legal_commands(state, seat)))
        outcome = game.outcome(state)
        options = game.rematch_options(options, outcome)
        if outcome["winners"]:
            assert options["first"] == 1 - outcome["winners"][0]
        else:
            assert "first" not in options



def test_build_payments_are_exactly_the_multisets_that_pay_the_build():
    """6.II C 指定されたカードを不足なくトラッシュに置く: the fast enumeration of payments (each hand
    card matched to the build slots once) gives exactly the hand multisets :func:`pays_build`
    accepts, in the same order — over every IT card and many random hands."""
    from collections import Counter

    from rules.logic_square.match import build_payments, build_slots, multisets, pays_build

    cards = game.cardset
    rng = random.Random(5)
    resources = [c for c, card in cards.cards.items() if card.category in ("Ac", "Sc", "Br")]
    its = [c for c, card in cards.cards.items() if card.category == "IT"]
    checked = 0
    for _ in range(1500):
        hand = tuple(rng.choice(resources) for _ in range(rng.randint(0, 8)))
        it_card = cards[rng.choice(its)]
        slow = [p for p in multisets(dict(Counter(hand)), len(build_slots(it_card)))
                if pays_build(cards, it_card, p)]
        assert build_payments(cards, it_card, hand) == slow, (it_card.id, hand)
        checked += bool(slow)
    assert checked > 300          # many hands can pay, not only the empty answer
