"""Host support for secret decisions: ``public_to_act`` (a hidden response window is never
announced) and ``timeout_command`` (a clock running out applies the default choice)."""
from __future__ import annotations

import json

import pytest

from data.store import ACTIVE, FINISHED, open_store
from host import Host
from rules import IllegalCommand, registry

ALICE, BOB = 1, 2


class WindowGame:
    """Seat 0 plays 'go' three times; if seat 1 holds a counter, seat 1 gets a secret window
    ('counter' or 'pass') before the go resolves.  Nobody else may know the window is open."""

    name, min_players, max_players = "window_test", 2, 2

    def new_match(self, players, seed, options=None):
        return {"gos": 0, "window": False, "counter": bool((options or {}).get("counter", True))}

    def to_act(self, s):
        if s["gos"] >= 3:
            return []
        return [1] if s["window"] else [0]

    def public_to_act(self, s):
        return [] if s["gos"] >= 3 else [0]

    def legal_commands(self, s, seat):
        if seat not in self.to_act(s):
            return []
        return ["counter", "pass"] if s["window"] else ["go"]

    def apply(self, s, seat, cmd):
        if cmd not in self.legal_commands(s, seat):
            raise IllegalCommand(f"{cmd!r} is not legal; legal: {self.legal_commands(s, seat)}")
        s = dict(s)
        if cmd == "go" and s["counter"]:
            s["window"] = True
        else:
            s["window"], s["gos"] = False, s["gos"] + 1
            if cmd == "counter":
                s["counter"] = False
        return s

    def view(self, s, seat):
        return {"game": self.name, "seat": seat, "gos": s["gos"] + 0,
                **({"counter": s["counter"], "window": s["window"]} if seat == 1 else {})}

    def outcome(self, s):
        return {"winners": [0], "reason": "resign"} if s["gos"] >= 3 else None

    def dump(self, s):
        return json.dumps(s)

    def load(self, t):
        return json.loads(t)

    def timeout_command(self, s, seat):
        return "pass" if s["window"] and seat == 1 else None


class Clock:
    t = 5000.0

    def __call__(self):
        return self.t


@pytest.fixture
async def host(tmp_path):
    registry.register(WindowGame())
    store = await open_store(str(tmp_path / "w.db"))
    clock = Clock()
    h = Host(store, now=clock, render=False)
    h.clock = clock
    yield h
    await store.close()
    registry._games.pop("window_test")


async def started(host, **kw):
    res = await host.challenge("window_test", ALICE, "Alice", opponents=[(BOB, "Bob")], **kw)
    return (await host.accept(res.match.id, BOB)).match.id


async def test_a_hidden_window_is_never_announced_publicly(host):
    mid = await started(host)
    res = await host.command(mid, ALICE, "go")
    assert res.ok
    # the secret decision is Bob's, but the public line still names Alice only
    assert res.public.status_line.render("en") == "To act: Alice (after 1 moves)"
    assert [p.user_id for p in res.prompts] == [BOB]       # Bob alone is asked, privately
    assert res.public.view == {"game": "window_test", "seat": None, "gos": 0}
    # Alice trying to act is told only that something is resolving, not who decides
    err = (await host.command(mid, ALICE, "go")).error
    assert err.key == "host.err.resolving" and "Bob" not in err.render("en")


async def test_clock_expiry_in_a_window_applies_the_default_and_play_goes_on(host):
    mid = await started(host, turn_seconds=60)
    await host.command(mid, ALICE, "go")
    host.clock.t += 61
    events = await host.tick()
    assert [e.data.get("clock") for e in events] == ["auto"]
    rec = events[0].match
    assert rec.status == ACTIVE and rec.n_commands == 2
    assert events[0].public.text[0].key == "host.clock.auto"
    assert (await host.log(mid)).data["log"][-1]["command"] == "pass"


async def test_clock_expiry_without_a_default_still_lets_the_other_side_claim(host):
    mid = await started(host, turn_seconds=60, options={"counter": False})
    host.clock.t += 61
    events = await host.tick()
    assert [e.data.get("clock") for e in events] == ["expired"]
    res = await host.claim_timeout(mid, BOB)
    assert res.ok and res.match.status == FINISHED and res.match.result["winners"] == [1]
