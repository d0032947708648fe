"""Several moves of one kind in one go (issue 33: "Taps per turn, not just per move").

"Where the rules let a player make several choices of the same kind at once (discards,
trashing for CAA, the cards of an IT play, sets onto lands), offer them as one multi-select …
that the host applies as one batch under the match lock — all or nothing, one board update."
The engines declare the groups (``batches``, docs/engine.md); host/batch.py checks every batch
one step at a time against the legal commands on copies of the state.
"""
from __future__ import annotations

import itertools
import random

import pytest

from host import batch, batch_log
from host.replay import _step
from rules import registry

LS = registry.get("logic_square")
AV = registry.get("avalon")
ALICE, BOB = 1, 2


def _find(game, players: int, want, seeds=range(40), limit=400):
    """The first state of random play (seed by seed) for which ``want(state, seat)`` holds."""
    for seed in seeds:
        state = game.new_match(players=players, seed=seed, options={})
        rng = random.Random(seed)
        for _ in range(limit):
            if game.outcome(state) is not None:
                break
            seat = game.to_act(state)[0]
            if want(state, seat):
                return seed, state, seat
            state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
    raise AssertionError("no such position in random play")


# ---------------------------------------------------------------------------- Battle Logic Square
def test_logic_square_end_phase_discards_are_one_pick_of_exactly_the_excess():
    """docs/rules/logic_square.md, III. End phase: "With 6 or more cards in hand the player
    chooses cards to put in the trash until 5 remain (a decision: `discard <card>`, one card at
    a time)."  The batch is exactly as many discards as bring the hand to 5, each one legal in
    turn; after it the opponent's turn begins."""
    _, state, seat = _find(LS, 2, lambda s, seat: s.phase == "discard" and len(s.hand[seat]) >= 7)
    excess = len(state.hand[seat]) - 5
    [group] = batch.groups(LS, state, seat)
    assert group["kind"] == "trash" and group["min"] == group["max"] == excess
    assert sorted(c.split()[1] for c in group["commands"]) == sorted(state.hand[seat])
    for pick in itertools.combinations(range(len(group["commands"])), excess):
        commands = batch.compose(group, list(pick))
        walked = batch.walk(LS, state, seat, commands)
        assert walked.ok, commands
        after = walked.states[-1]
        assert len(after.hand[seat]) == 5 and after.phase == "main" and LS.to_act(after) == [1 - seat]
    with pytest.raises(ValueError):
        batch.compose(group, list(range(excess - 1)))      # fewer than the rules ask: not offered


def test_logic_square_caa_cards_are_picked_together_as_one_command():
    """docs/rules/logic_square.md, E. CAA: "put up to 3 hand cards in the trash, then draw twice
    as many" (at least 1).  The cards are picked in one multi-select and joined into the ONE
    command the rules know (`caa ac01 ac01 sc02`), which must be legal."""
    _, state, seat = _find(LS, 2, lambda s, seat: s.phase == "main" and s.window is None
                           and not s.caa_used and len(set(s.hand[seat])) < len(s.hand[seat]))
    [group] = batch.groups(LS, state, seat)
    assert group["kind"] == "caa" and group["join"] == "caa" and (group["min"], group["max"]) == (1, 3)
    legal = LS.legal_commands(state, seat)
    for k in (1, 2, 3):
        for pick in itertools.combinations(range(len(group["commands"])), k):
            [command] = batch.compose(group, list(pick))
            assert command in legal and len(command.split()) == k + 1
    assert batch.covered(group, legal) == {c for c in legal if c.startswith("caa ")}


def test_logic_square_it_play_is_already_one_command_with_its_build_cards():
    """docs/rules/logic_square.md, C. Use an IT card: "the hand cards of its build condition go
    to the trash at once, exactly as many as it asks (不足なく)" — an IT play names its build
    cards in the one command (`it it01 ac01 ac02`), so it needs no batch; the menu groups the
    plays by IT card (one pick of the card, one of the payment)."""
    _, state, seat = _find(LS, 2, lambda s, seat: any(c.startswith("it ") for c in LS.legal_commands(s, seat)))
    plays = [c for c in LS.legal_commands(state, seat) if c.startswith("it ")]
    assert all(len(c.split()) >= 3 for c in plays)
    assert not any(g.get("join") == "it" for g in batch.groups(LS, state, seat))


# ---------------------------------------------------------------------------- Avalon's Sanctuary
def _set_phase(state, seat):
    return state.step == "set" and seat == state.actor and len(state.players[seat].hand) >= 4


def test_avalon_set_phase_discards_and_forges_onto_a_land_in_one_pick():
    """docs/rules/avalon.md, A round: "Set phase: forge, summon, use magic, discard — any order,
    any number; `done` ends it."  Discards are one multi-select (1 to all); the cards forged
    onto one land another, each checked in turn against the stacking rule ("only a creature of
    the top mana's attribute, or a colourless one")."""
    seen = {"discard": 0, "forge": 0}
    refused = 0
    for seed in range(3):
        _, state, seat = _find(AV, 3, _set_phase, seeds=[seed])
        for group in batch.groups(AV, state, seat):
            seen[group["kind"]] += 1
            assert 1 == group["min"] <= group["max"] <= len(group["commands"])
            if group["kind"] == "forge":
                assert len({c.split()[2] for c in group["commands"]}) == 1       # one land
            for k in range(1, min(3, group["max"]) + 1):
                for pick in itertools.combinations(range(len(group["commands"])), k):
                    commands = batch.in_order(AV, state, seat, batch.compose(group, list(pick)))
                    walked = batch.walk(AV, state, seat, commands)
                    if group["kind"] == "discard":
                        assert walked.ok
                    if walked.ok:
                        assert walked.states[-1].acts == state.acts + k and AV.to_act(walked.states[-1]) == [seat]
                    else:   # a card that does not stack on the one below: that step is named
                        refused += 1
                        assert walked.failed >= 1 and commands[walked.failed] not in walked.legal
    assert seen["discard"] and seen["forge"]


def test_avalon_batches_only_in_ones_own_set_phase():
    _, state, seat = _find(AV, 3, lambda s, seat: s.step != "set")
    assert all(batch.groups(AV, state, s) == [] for s in range(3))


# ---------------------------------------------------------------------------- the pure part
def test_a_batch_is_one_log_entry_that_replays_step_by_step():
    _, state, seat = _find(LS, 2, lambda s, seat: s.phase == "discard" and len(s.hand[seat]) >= 7)
    [group] = batch.groups(LS, state, seat)
    commands = batch.compose(group, list(range(group["min"])))
    text = batch_log.entry(commands)
    assert text.startswith(batch_log.BATCH + " ") and batch_log.steps_of(text) == commands
    assert batch_log.entry(commands[:1]) == commands[0] and batch_log.steps_of(commands[0]) is None
    assert LS.dump(_step(LS, state, seat, text)) == LS.dump(batch.walk(LS, state, seat, commands).states[-1])


def test_walk_refuses_a_step_that_is_not_legal_then_and_changes_nothing():
    _, state, seat = _find(LS, 2, lambda s, seat: s.phase == "discard" and len(s.hand[seat]) == 6)
    dumped = LS.dump(state)
    card = state.hand[seat][0]
    walked = batch.walk(LS, state, seat, [f"discard {card}", f"discard {state.hand[seat][1]}"])
    # after one discard the hand is 5 and the turn passed: the second is not this seat's to make
    assert not walked.ok and walked.failed == 1 and walked.legal == []
    assert LS.dump(state) == dumped
    with pytest.raises(ValueError):
        batch.compose({"commands": ["a", "b"], "min": 1, "max": 2}, [0, 0])


# ---------------------------------------------------------------------------- through the host
@pytest.fixture
async def host(clocked_host):
    return await clocked_host(render=False)


async def _to_discard(host):
    """A Battle Logic Square match played through the host up to an end-phase discard of 2+."""
    seed, _, _ = _find(LS, 2, lambda s, seat: s.phase == "discard" and len(s.hand[seat]) >= 7)
    res = await host.challenge("logic_square", ALICE, "Alice", opponents=[(BOB, "Bob")], options={}, seed=seed)
    mid = res.match.id
    assert (await host.accept(mid, BOB)).ok
    state = LS.new_match(players=2, seed=seed, options={})
    rng = random.Random(seed)
    while not (state.phase == "discard" and len(state.hand[LS.to_act(state)[0]]) >= 7):
        seat = LS.to_act(state)[0]
        cmd = rng.choice(LS.legal_commands(state, seat))
        assert (await host.command(mid, (ALICE, BOB)[seat], cmd)).ok
        state = LS.apply(state, seat, cmd)
    return mid, state, LS.to_act(state)[0]


async def test_the_host_plays_a_batch_as_one_entry_and_one_board_update(host):
    mid, state, seat = await _to_discard(host)
    user = (ALICE, BOB)[seat]
    before = (await host.status(mid)).match.n_commands
    [(group, options)] = await host.batch_choices(mid, user, "en")
    assert len(options) == len(group["commands"]) and all(o.label.startswith("Discard") for o in options)
    commands = batch.compose(group, list(range(group["min"])))
    res = await host.batch(mid, user, commands)
    assert res.ok, res.error and res.error.render("en")
    assert res.match.n_commands == before + 1                       # one entry of the log
    played = [line.render("en") for line in res.public.text if line.key == "host.played"]
    assert len(played) == 1 and played[0].count("Discard") == group["min"]
    assert "、" in [line.render("ja") for line in res.public.text if line.key == "host.played"][0]
    rec = (await host.status(mid)).match
    host._states.clear()
    host._verified.discard(mid)
    assert LS.dump(await host._state(rec)) == LS.dump(batch.walk(LS, state, seat, commands).states[-1])
    log = (await host.log(mid)).data["log"]
    assert " ; ".join(commands) == log[-1]["command"] or log[-1]["command"].startswith("discard")


async def test_a_batch_with_a_step_the_rules_refuse_stores_nothing_and_says_which(host):
    mid, state, seat = await _to_discard(host)
    user = (ALICE, BOB)[seat]
    before = (await host.status(mid)).match.n_commands
    hand = state.hand[seat]
    excess = len(hand) - 5
    commands = [f"discard {c}" for c in hand[:excess]] + [f"discard {hand[excess]}"]   # one too many
    res = await host.batch(mid, user, commands)
    assert not res.ok and res.error.key == "host.err.batch_step"
    assert res.error.params["n"] == excess + 1 and res.error.params["total"] == excess + 1
    en, ja = res.error.render("en"), res.error.render("ja")
    assert "Nothing was played" in en and "何も実行していません" in ja and "discard " not in ja
    assert (await host.status(mid)).match.n_commands == before
