"""Art of War through the host (a real store): decks at accept, full matches to the end, hidden
windows never announced publicly, the clock passes for a responder."""
from __future__ import annotations

import random

import pytest

from data.store import ACTIVE, FINISHED, open_store
from host import Host
from rules import registry

ALICE, BOB = 11, 12
game = registry.get("art_of_war")


class Clock:
    t = 10000.0

    def __call__(self):
        return self.t


@pytest.fixture
async def host(tmp_path):
    store = await open_store(str(tmp_path / "aow.db"))
    clock = Clock()
    h = Host(store, now=clock, render=False)
    h.clock = clock
    yield h
    await store.close()


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
    # find a seed whose first attack opens a window, by playing until one opens
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
    if rec.status == FINISHED:
        pytest.skip("no window opened in this match")
    before = rec.n_commands
    host.clock.t += 61
    events = await host.tick()
    assert [e.data.get("clock") for e in events] == ["auto"]
    rec = await host.store.get_match(mid)
    assert rec.status == ACTIVE and rec.n_commands == before + 1
    assert (await host._state(rec)).window is None
