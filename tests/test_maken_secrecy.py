"""Project Maken secrecy: the public view and the opponent's view are the same whatever cards a
seat holds in its hidden zones (hand, face-down guard cards, set support cards, LP cards, gauge,
damage, stamina order).

the engine contract (docs/engine.md): "view(state, s) never contains what seat s may not know (other hands, deck order,
face-down cards …), and view(state, None) contains only public facts."  The issue: "face-down
guard cards are private"; seed B.2: 手札から…カードを裏返しにベットします.
"""
from __future__ import annotations

import json
import random

from rules import registry

game = registry.get("maken")
HIDDEN = ("hand", "guard", "stamina", "lp", "gauge", "damage")


def relabel(state, seat: int, rng: random.Random):
    """The same state with every hidden card of ``seat`` replaced by another card of its deck."""
    d = json.loads(game.dump(state))
    pool = sorted(c for c, v in d["cards"].items() if v.get("character") == d["chars"][seat])
    for zone in HIDDEN:
        d[zone][seat] = [rng.choice(pool) for _ in d[zone][seat]]
    d["support"][seat] = [[rng.choice(pool), t] for _, t in d["support"][seat]]
    return game.load(json.dumps(d))


def sample_states(n_matches: int = 12):
    rng = random.Random(77)
    for m in range(n_matches):
        state = game.new_match(2, 500 + m, {"max_turns": 30})
        k = 0
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            legal = game.legal_commands(state, seat)
            hidden = [c for c in legal if c.split()[0] in ("guard", "keep", "set")]
            state = game.apply(state, seat, rng.choice(hidden if hidden and rng.random() < 0.5 else legal))
            k += 1
            if k % 7 == 0:
                yield state
        yield state


def test_views_do_not_depend_on_the_other_seats_hidden_cards():
    rng = random.Random(5)
    checked = 0
    for state in sample_states():
        for hidden_seat in (0, 1):
            other = relabel(state, hidden_seat, rng)
            assert game.view(other, None) == game.view(state, None)
            assert game.view(other, 1 - hidden_seat) == game.view(state, 1 - hidden_seat)
            checked += 1
    assert checked > 100


def test_face_down_guard_cards_are_private_until_the_end_of_the_attack_phase():
    """B.2 (bet face down) / F: 裏向きにベットされているカードはダスト送り — only then are they seen."""
    s = game.position(actor=1, field0=["ts03"], field1=["gu01"], hand1=["gu08", "gu11"],
                      stamina0=["ts01"] * 5, stamina1=["gu01"] * 5, lp0=["ts01"] * 3, lp1=["gu01"] * 3)
    s = game.apply(s, 1, "guard stand gu08 gu11")
    for seat in (None, 0):
        text = json.dumps(game.view(s, seat))
        assert "gu08" not in text and "gu11" not in text
    assert game.view(s, 1)["guard_cards"] == ["gu11", "gu08"]
    assert game.public_command(s, 1, "keep gu05") == "keep ?"
    s = game.apply(s, 0, "call")                               # guard holds: the attack phase ends
    assert game.view(s, None)["players"][1]["dust"][-2:] == ["gu11", "gu08"]
