"""Avalon's Sanctuary through the real host: a 3-player match, a fourth player joins late (logged
as ``__join__``), hands go privately, and a restarted host replays the match exactly."""
from __future__ import annotations

import random

import pytest

from data.store import open_store
from host import Host
from host.table import JOIN

A, B, C, D = 11, 12, 13, 14


@pytest.fixture
async def host(tmp_path):
    store = await open_store(str(tmp_path / "av.db"))
    yield Host(store, render=False)
    await store.close()


async def test_a_late_joiner_plays_as_a_chaser_and_the_match_replays(host):
    res = await host.challenge("avalon", A, "Ann", opponents=[(B, "Ben"), (C, "Cy")])
    mid = res.match.id
    for uid in (B, C):
        res = await host.accept(mid, uid)
    assert res.ok
    res = await host.join(mid, D, "Di")
    assert res.ok and len(res.match.seats) == 4
    assert res.public.view["players"][3]["status"] == "waiting"
    assert "hand" not in res.public.view
    rng = random.Random(5)
    uids = [A, B, C, D]
    for _ in range(400):
        to_act = await host.to_act(mid)
        if not to_act:
            break
        seat = rng.choice(to_act)
        from rules import registry
        game = registry.get("avalon")
        state = await host._state(await host.store.get_match(mid))
        cmd = rng.choice(game.legal_commands(state, seat))
        assert (await host.command(mid, uids[seat], cmd)).ok
    cmds = await host.store.commands(mid)
    assert cmds[0].command == JOIN and cmds[0].seat == 3
    fresh = Host(host.store, render=False)
    assert (await fresh.status(mid)).public.view == (await host.status(mid)).public.view
