"""Art of War through the host (a real store): decks at accept, full matches to the end, hidden
windows never announced publicly, the clock passes for a responder."""
from __future__ import annotations

import random

import pytest

from data.store import ACTIVE, FINISHED
from rules import registry

from playing import random_log_until

ALICE, BOB = 11, 12
game = registry.get("art_of_war")


@pytest.fixture
async def host(clocked_host):
    return await clocked_host(render=False)


async def test_full_matches_through_the_host_with_chosen_decks(host):
    rng = random.Random(3)
    for n in range(3):
        res = await host.challenge("art_of_war", ALICE, "Alice", opponents=[(BOB, "Bob")],
                                   seed=100 + n, deck="sage_court")
        assert res.ok, res.error
        mid = res.match.id
        res = await host.accept(mid, BOB, deck="aow1-king_iron-4.4.4.4.4")
        assert res.ok, res.error
        for _ in range(3000):
            rec = (await host.store.get_match(mid))
            if rec.status == FINISHED:
                break
            state = await host._state(rec)
            seat = game.to_act(state)[0]
            # the public line names the declaring seat even while a hidden window is open
            shown = game.public_to_act(state)
            if state.window is not None:
                assert shown == [state.player] and "hand" not in game.view(state, None)
            res = await host.command(mid, rec.seats[seat], rng.choice(game.legal_commands(state, seat)))
            assert res.ok, res.error
        rec = await host.store.get_match(mid)
        assert rec.status == FINISHED and rec.result["reason"] in (
            "execution", "nation_building", "end_of_war", "annihilation")


async def test_clock_passes_for_a_responder_in_a_window(host):
    """Issue: windows are offered "privately, with a time limit and a pass": when the responder's
    clock runs out, the host applies the engine's timeout_command (pass) and play goes on."""
    rng = random.Random(1)
    res = await host.challenge("art_of_war", ALICE, "Alice", opponents=[(BOB, "Bob")], seed=5,
                               turn_seconds=60)
    mid = res.match.id
    await host.accept(mid, BOB)
    for _ in range(3000):
        rec = await host.store.get_match(mid)
        state = await host._state(rec)
        if state.window is not None or rec.status == FINISHED:
            break
        seat = game.to_act(state)[0]
        await host.command(mid, rec.seats[seat], rng.choice(game.legal_commands(state, seat)))
    rec = await host.store.get_match(mid)
    state = await host._state(rec)
    assert rec.status == ACTIVE and state.window is not None, "this seeded match opens a window"
    assert game.timeout_command(state, state.window) == "pass"
    before = rec.n_commands
    host.clock.t += 61
    events = await host.tick()
    assert [e.data.get("clock") for e in events] == ["auto"]
    rec = await host.store.get_match(mid)
    assert rec.status == ACTIVE and rec.n_commands == before + 1
    assert (await host._state(rec)).window is None


def _log_to_a_turn_player_window(options: dict) -> tuple[int, list[tuple[int, str]]]:
    """A seed and a command log (random play) ending where the turn player must answer the
    opponent's response (a WIZARD/GUARDIAN answered by a WIZARD) in a private window."""
    return random_log_until(game, options, lambda s: s.window is not None and s.window == s.player,
                            seeds=range(200), max_commands=10_000)


async def test_the_turn_players_answer_window_is_private_too(host):
    """Project ruling (docs/rules/art_of_war.md): WIZARD's support is a response window "on either turn", "offered only when they
    could respond" — privately.  When the turn player answers the opponent's response, the public
    lines must stay held back and the prompt must be secret, as for the first window."""
    options = {"first": 0, "decks": ["iron_wall", "falcon_raid"]}
    seed, log = _log_to_a_turn_player_window(options)
    res = await host.challenge("art_of_war", ALICE, "Alice", opponents=[(BOB, "Bob")], seed=seed,
                               options={"first": 0}, deck="iron_wall")
    mid = res.match.id
    await host.accept(mid, BOB, deck="falcon_raid")
    for seat, cmd in log:
        res = await host.command(mid, (ALICE, BOB)[seat], cmd)
        assert res.ok, res.error
    state = await host._state(await host.store.get_match(mid))
    assert game.hidden_pending(state) and game.to_act(state) == [state.player]
    assert res.public.text == []                      # the declaration and the response stay held
    assert [p.secret for p in res.prompts] == [True]
