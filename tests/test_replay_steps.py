"""Issue 35 (first part): a played match as the public steps everyone saw
(host/replay_steps.py) — random matches of all five games played through a real host and store to
their end, then replayed from the stored record.  Each test's docstring quotes the rule it checks."""
from __future__ import annotations

import random

import pytest

from data.store import FINISHED, open_store
from conftest import close_after_test
from discord_fakes import Clock
from host import Host
from host.replay import _public_command, _initial_state, _step
from host.replay_steps import public_steps
from rules import registry

A, B = 101, 102
pytestmark = pytest.mark.usefixtures("close_helper_stores")     # the stores the helper below opens


async def _played(tmp_path, game: str, seed: int, max_moves: int = 400, *, match_seed: int | None = None,
                  finish: bool = True):
    """A match of ``game`` between A and B on ``tmp_path/<game>-<seed>.db``, random legal moves
    drawn with ``seed`` until it ends (or, with ``finish``, A resigns); the match's own seed is
    ``match_seed`` (default ``seed``).  Returns (store, engine, record, commands)."""
    store = close_after_test(await open_store(str(tmp_path / f"{game}-{seed}.db")))
    host = Host(store, now=Clock(), render=False)
    res = await host.challenge(game, A, "Ann", opponents=[(B, "Ben")], guild_id=1, channel_id=2,
                               seed=seed if match_seed is None else match_seed)
    assert res.ok, res.error
    assert (await host.accept(res.match.id, B)).ok
    eng = registry.get(game)
    rng = random.Random(seed)
    mid = res.match.id
    state, replayed = None, 0           # the position after the first ``replayed`` log entries
    for _ in range(max_moves):
        rec = await store.get_match(mid)
        if rec.status == FINISHED:
            break
        if state is None:
            state = _initial_state(eng, rec)
        log = await store.commands(mid)
        for c in log[replayed:]:        # only what the host logged since (each move once, not all again)
            state = _step(eng, state, c.seat, c.command)
        replayed = len(log)
        seats = list(eng.to_act(state))
        seat = rng.choice(seats)
        command = rng.choice(eng.legal_commands(state, seat))
        done = await host.command(mid, rec.seats[seat], command)
        assert done.ok, (command, done.error)
    rec = await store.get_match(mid)
    if finish and rec.status != FINISHED:
        assert (await host.resign(mid, A)).ok
        rec = await store.get_match(mid)
    return store, eng, rec, await store.commands(mid)


@pytest.mark.parametrize("game", list(registry.names()))
async def test_the_steps_are_the_public_changes_numbered_as_everyone_saw_them(tmp_path, game):
    """"A step is a public change (what /match log numbers), so a hidden decision never shows as
    a step of its own" — steps numbered 1…n without gaps, one per command everyone may see, each
    with the public view of the moment it was released and that view's turn, never going back."""
    store, eng, rec, commands = await _played(tmp_path, game, seed=7)
    steps = public_steps(eng, rec, commands)
    assert [s["seq"] for s in steps] == list(range(1, len(steps) + 1))
    state = _initial_state(eng, rec)
    shown = 0
    views = [eng.view(state, None)]
    for c in commands:
        if c.command.startswith("__") or _public_command(eng, state, c.seat, c.command) is not None:
            shown += 1
        state = _step(eng, state, c.seat, c.command)
        views.append(eng.view(state, None))
    assert len(steps) == shown
    turns = [s["turn"] for s in steps]
    assert turns == sorted(turns), "a replay never goes back a turn"
    for s in steps:                      # every step's picture is a public view of the match
        assert s["view"] in views
    # /match log is the same steps, without their views
    logged = (await Host(store, now=Clock(), render=False).log(rec.id)).data["log"]
    assert logged == [{k: v for k, v in s.items() if k not in ("view", "turn")} for s in steps]
