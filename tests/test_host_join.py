"""Late join through the host: a new seat joins a running match when the game allows it, a
defeated player rejoins their seat, and both replay exactly from seed + log."""
from __future__ import annotations

import json

import pytest

from data.store import ACTIVE, open_store
from host import Host
from host.table import JOIN
from rules import IllegalCommand, registry

A, B, C, D, E = 1, 2, 3, 4, 5


class JoinGame:
    """Seats take turns saying 'go' (or 'fall' to be defeated); joining is allowed only at
    the start of a round (when seat 0 is to act)."""

    name, min_players, max_players = "join_test", 2, 4

    def new_match(self, players, seed, options=None):
        return {"n": players, "gos": 0, "turn": 0, "out": []}

    def _live(self, s):
        return [i for i in range(s["n"]) if i not in s["out"]]

    def to_act(self, s):
        return [] if s["gos"] >= 20 else [s["turn"]]

    def legal_commands(self, s, seat):
        return ["go", "fall"] if seat in self.to_act(s) else []

    def apply(self, s, seat, cmd):
        if cmd not in self.legal_commands(s, seat):
            raise IllegalCommand(f"{cmd!r} not legal")
        s = json.loads(json.dumps(s))
        s["gos"] += 1
        if cmd == "fall":
            s["out"].append(seat)
        live = self._live(s)
        s["turn"] = next((i for i in live if i > seat), live[0])
        return s

    def can_join(self, s):
        return s["turn"] == self._live(s)[0]

    def join(self, s, seat):
        s = json.loads(json.dumps(s))
        if seat == s["n"]:
            s["n"] += 1
        elif seat in s["out"]:
            s["out"].remove(seat)
        else:
            raise IllegalCommand("seat is playing")
        return s

    def view(self, s, seat):
        return {"game": self.name, "seat": seat, **s}

    def outcome(self, s):
        return {"winners": self._live(s), "reason": "turn_limit"} if s["gos"] >= 20 else None

    def dump(self, s):
        return json.dumps(s)

    def load(self, t):
        return json.loads(t)


@pytest.fixture
async def host(tmp_path):
    registry.register(JoinGame())
    store = await open_store(str(tmp_path / "j.db"))
    yield Host(store, render=False)
    await store.close()
    registry._games.pop("join_test")


async def test_a_new_player_joins_at_a_round_boundary_and_the_log_replays(host):
    res = await host.challenge("join_test", A, "Ann", opponents=[(B, "Ben")])
    mid = (await host.accept(res.match.id, B)).match.id
    await host.command(mid, A, "go")
    assert (await host.join(mid, C, "Cy")).error.key == "host.err.join_later"   # mid-round
    await host.command(mid, B, "go")
    res = await host.join(mid, C, "Cy")
    assert res.ok and res.match.seats == [A, B, C] and res.match.names[2] == "Cy"
    assert res.public.view["n"] == 3
    assert (await host.join(mid, C, "Cy")).error.key == "host.err.already_seated"
    await host.command(mid, A, "go")
    await host.command(mid, B, "go")
    assert (await host.to_act(mid)) == [2]
    assert (await host.command(mid, C, "go")).ok
    log = (await host.log(mid)).data["log"]
    assert [e["command"] for e in log] == ["go", "go", "join", "go", "go", "go"]
    # a fresh host (a restart) replays the join from the log
    fresh = Host(host.store, render=False)
    assert (await fresh.status(mid)).public.view == (await host.status(mid)).public.view
    cmds = await host.store.commands(mid)
    assert cmds[2].command == JOIN and cmds[2].seat == 2


async def test_a_defeated_player_rejoins_their_own_seat_and_the_table_fills_up(host):
    res = await host.challenge("join_test", A, "Ann", opponents=[(B, "Ben")])
    mid = (await host.accept(res.match.id, B)).match.id
    await host.command(mid, A, "go")
    await host.command(mid, B, "fall")
    res = await host.join(mid, B, "Ben")
    assert res.ok and res.match.seats == [A, B] and res.public.view["out"] == []
    assert res.public.text[0].key == "host.rejoined"
    for uid, name in ((C, "Cy"), (D, "Di")):
        assert (await host.join(mid, uid, name)).ok
    assert (await host.join(mid, E, "Ed")).error.key == "host.err.full_running"
    rec = await host.store.get_match(mid)
    assert rec.status == ACTIVE and len(rec.seats) == 4 and rec.meta["players0"] == 2


async def test_games_without_late_join_refuse_it(host):
    res = await host.challenge("squares", A, "Ann", opponents=[(B, "Ben")])
    mid = (await host.accept(res.match.id, B)).match.id
    assert (await host.join(mid, C, "Cy")).error.key == "host.err.not_open"


@pytest.mark.skipif("avalon" not in registry, reason="Avalon's Sanctuary not registered")
async def test_a_late_joiner_brings_a_deck_and_the_join_replays_exactly(host):
    d = registry.get("avalon").decks
    rids = list(d.ready())
    res = await host.challenge("avalon", A, "Ann", opponents=[(B, "Ben")])
    mid = (await host.accept(res.match.id, B)).match.id
    res = await host.join(mid, C, "Cy", deck=rids[-1])
    assert res.ok and len(res.match.seats) == 3
    spec = d.ready()[rids[0]]["spec"]
    res = await host.join(mid, D, "Di", deck=spec)
    assert res.ok and len(res.match.seats) == 4
    log = [c.command for c in await host.store.commands(mid)]
    assert log[-2] == f"{JOIN} {rids[-1]}" and log[-1] == f"{JOIN} {d.encode(spec)}"
    fresh = Host(host.store, render=False)
    game = registry.get("avalon")
    rec = await host.store.get_match(mid)
    assert game.dump(await fresh._state(rec)) == game.dump(await host._state(rec))
