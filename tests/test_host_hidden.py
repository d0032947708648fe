"""Host support for secret decisions: ``public_to_act`` (a hidden response window is never
announced) and ``timeout_command`` (a clock running out applies the default choice)."""
from __future__ import annotations

import json

import pytest

from data.store import ACTIVE, FINISHED
from host import msg
from rules import IllegalCommand, registry

ALICE, BOB = 1, 2


class WindowGame:
    """Seat 0 plays 'go' three times; if seat 1 holds a counter, seat 1 gets a secret window
    ('counter' or 'pass') before the go resolves.  Nobody else may know the window is open."""

    name, min_players, max_players = "window_test", 2, 2

    def new_match(self, players, seed, options=None):
        return {"gos": 0, "window": False, "counter": bool((options or {}).get("counter", True)),
                "auto_go": bool((options or {}).get("auto_go", False))}

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

    def public_command(self, s, seat, cmd):
        return None if cmd == "pass" else cmd   # a pass in the window is never shown

    def timeout_command(self, s, seat):
        if s["window"] and seat == 1:
            return "pass"
        return "go" if s["auto_go"] and seat == 0 and not s["window"] else None


@pytest.fixture
async def host(clocked_host):
    registry.register(WindowGame())
    yield await clocked_host(render=False)
    registry._games.pop("window_test")


async def started(host, **kw):
    res = await host.challenge("window_test", ALICE, "Alice", opponents=[(BOB, "Bob")], **kw)
    return (await host.accept(res.match.id, BOB)).match.id


async def test_a_hidden_window_is_never_announced_publicly(host):
    mid = await started(host)
    res = await host.command(mid, ALICE, "go")
    assert res.ok
    # the secret decision is Bob's, but the public line still names Alice only, and Alice's
    # declaration is held back until the window closes (it would reveal the window otherwise)
    assert res.public.status_line.render("en") == "To act: Alice (after 0 moves)"
    assert res.public.text == []
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
    # the default was a hidden pass: nothing public says so (no "ran out of time" line);
    # only Alice's held declaration is released
    assert [m.render("en") for m in events[0].public.text] == ["Alice: go"]
    assert [e["command"] for e in (await host.log(mid)).data["log"]] == ["go"]
    assert [c.command for c in await host.store.commands(mid)] == ["go", "pass"]


async def test_clock_expiry_without_a_default_still_lets_the_other_side_claim(host):
    mid = await started(host, turn_seconds=60, options={"counter": False})
    host.clock.t += 61
    events = await host.tick()
    assert [e.data.get("clock") for e in events] == ["expired"]
    res = await host.claim_timeout(mid, BOB)
    assert res.ok and res.match.status == FINISHED and res.match.result["winners"] == [1]


async def test_a_hidden_pass_looks_exactly_like_no_window_at_all(host):
    with_window = await started(host)
    without = await started(host, options={"counter": False})
    await host.command(with_window, ALICE, "go")
    res_a = await host.command(with_window, BOB, "pass")
    res_b = await host.command(without, ALICE, "go")
    # the pass prints nothing; the held declaration appears exactly as without a window
    assert res_a.public.text == res_b.public.text == [msg("host.played", name="Alice", command="go")]
    assert res_a.public.view == res_b.public.view
    assert res_a.public.status_line == res_b.public.status_line   # same public move count
    log = (await host.log(with_window)).data["log"]
    assert [e["command"] for e in log] == ["go"]


async def test_the_responder_prompt_is_marked_secret(host):
    mid = await started(host)
    res = await host.command(mid, ALICE, "go")
    assert [(p.user_id, p.secret) for p in res.prompts] == [(BOB, True)]
    res = await host.command(mid, BOB, "counter")
    assert [(p.user_id, p.secret) for p in res.prompts] == [(ALICE, False)]


async def test_no_public_reminder_names_a_hidden_decider(host):
    mid = await started(host, turn_seconds=300)
    await host.command(mid, ALICE, "go")
    host.clock.t += 250                                   # inside the reminder window
    assert await host.tick() == []


async def test_a_public_default_on_expiry_is_announced(host):
    await started(host, turn_seconds=60, options={"counter": False, "auto_go": True})
    host.clock.t += 61
    events = await host.tick()
    assert [e.data.get("clock") for e in events] == ["auto"]
    assert [m.key for m in events[0].public.text[:2]] == ["host.clock.auto", "host.played"]
    assert events[0].public.text[0].render("en").startswith("Alice ran out of time")


async def test_the_log_holds_back_a_declaration_while_its_window_is_open(host):
    mid = await started(host)
    await host.command(mid, ALICE, "go")
    assert (await host.log(mid)).data["log"] == []          # asked mid-window: nothing shows
    await host.command(mid, BOB, "counter")
    assert [e["command"] for e in (await host.log(mid)).data["log"]] == ["go", "counter"]


async def test_the_log_is_numbered_by_what_everyone_sees_so_a_hidden_pass_leaves_no_gap(host):
    """Issue 13, finding 4: "Entries 15, 16, 17, 19 with 18 missing tell everyone that a player
    had a legal secret response and passed."  The public log is numbered by its own entries."""
    with_window = await started(host)
    without = await started(host, options={"counter": False})
    for _ in range(2):
        await host.command(with_window, ALICE, "go")
        await host.command(with_window, BOB, "pass")        # a hidden pass: stored, never shown
    await host.command(with_window, ALICE, "go")
    await host.command(with_window, BOB, "counter")          # a shown response
    for _ in range(3):
        await host.command(without, ALICE, "go")
    assert [c.seq for c in await host.store.commands(with_window)] == [1, 2, 3, 4, 5, 6]
    seen = (await host.log(with_window)).data["log"]
    assert [(e["seq"], e["command"]) for e in seen] == [(1, "go"), (2, "go"), (3, "go"), (4, "counter")]
    plain = (await host.log(without)).data["log"]
    assert [(e["seq"], e["command"]) for e in plain] == [(1, "go"), (2, "go"), (3, "go")]
    # what the two logs show up to the counter is the same: nothing tells the passes apart
    assert [{k: v for k, v in e.items()} for e in seen[:3]] == plain
