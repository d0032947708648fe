"""Avalon's Sanctuary: the contract additions ``resign(state, seat)`` and ``outcome()["ranks"]``
(docs/engine.md), with the rulings they follow (docs/rules/avalon.md, "Resigning" and "Finishing
order")."""
from __future__ import annotations

import json

import pytest

from rules import IllegalCommand, registry

game = registry.get("avalon")


def fresh(n: int = 2, leader: int = 0, seed: int = 1):
    return game.new_match(players=n, seed=seed, options={"leader": leader})


def full_mana() -> list:
    return [["c07", ""], ["c07", ""], ["c07", ""]]


def play_round(s):
    """The leader passes its turn, every chaser passes its set phase and declares nothing."""
    leader = s.leader
    s = game.apply(game.apply(s, leader, "done"), leader, "pass")
    while s.step == "set" and s.kind == "chaser":
        s = game.apply(s, s.actor, "done")
    while s.step == "declare":
        s = game.apply(s, s.actor, "pass")
    return s


# --------------------------------------------------------------------------- resigning

def test_a_resigning_chaser_is_out_like_a_player_at_zero_life_and_the_match_goes_on():
    """「・敗北条件 ライフが0になってしまった時点で、敗北となります」; project ruling (docs/rules/avalon.md): "A player at 0
    life is out"; **Ruling:** a player who resigns is out at once, exactly like a player at 0 life,
    and the others play on."""
    s = fresh(3)
    r = game.resign(s, 2)
    assert s.players[2].status == "play", "the old state is not changed"
    p = r.players[2]
    assert p.status == "out" and (p.hand, p.life, p.memory) == ([], [], [])
    assert game.outcome(r) is None and game.to_act(r) == [0]
    assert r.events[-1] == {"key": "avalon.ev.resigned", "params": {"player": "p3"}}
    r = play_round(r)
    assert r.kind == "leader" and r.round == 2, "the chaser turn had only seat 1 in it"


def test_a_resigned_player_may_rejoin_like_any_defeated_player():
    """「(敗北しても、すぐに途中参加可能です)」 — a resignation is a defeat."""
    s = game.resign(fresh(3), 1)
    assert game.can_join(s)
    s = game.join(s, 1)
    assert s.players[1].status == "waiting" and len(s.players[1].hand) == 6
    s = game.apply(game.apply(s, 0, "done"), 0, "pass")
    assert s.players[1].status == "play" and s.actor == 1, "plays as a chaser once the leader turn ended"


def test_the_leader_resigning_in_its_own_turn_ends_that_turn_and_the_chasers_go_on():
    """Ruling (the leader is out during its own leader turn): "the rest of that leader turn is
    skipped; the chaser turn follows as printed" — a resigning leader is out the same way."""
    s = fresh(3)
    s.players[1].lands[0] = [full_mana(), "c02", 0]            # seat 1 reached the target mana
    s = game.resign(s, 0)
    assert s.kind == "chaser" and s.actor == 1 and s.sanct is None
    while s.step == "set":
        s = game.apply(s, s.actor, "done")
    assert game.legal_commands(s, s.actor) == ["pass"], "nobody left to battle"
    while s.step == "declare":
        s = game.apply(s, s.actor, "pass")
    assert s.leader == 1, "the sanctuary is empty: the chaser with the target mana leads"


def test_resigning_from_a_battle_waiting_for_supports_means_it_is_not_fought():
    """A battle needs both battlers (「自分のクリーチャーと対立相手とそのクリーチャーを必ず指名します」):
    when one resigns before the supports are revealed it is not fought, and the other's chosen
    support card stays in its hand."""
    s = fresh(3)
    s.players[0].lands[0] = [full_mana(), "c02", 0]
    s.players[1].lands[0] = [full_mana(), "c14", 0]
    s = game.apply(game.apply(s, 0, "done"), 0, "ranged l1 p2l1")
    assert s.step == "support" and game.to_act(s) == [0, 1]
    support = next(c for c in game.legal_commands(s, 0) if c != "support avatar")
    s = game.apply(s, 0, support)
    hand = list(s.players[0].hand)
    s = game.resign(s, 1)
    assert s.battle is None and s.last_battle is None and s.players[0].hand == hand
    assert s.players[0].lands[0][1] == "c02"
    assert game.outcome(s) is None and s.kind == "chaser" and s.actor == 2


def test_the_last_player_left_wins_by_resignation():
    """Project ruling (docs/rules/avalon.md): "the last one standing also wins" — also when the others resigned."""
    s = game.resign(fresh(2), 0)
    assert game.outcome(s) == {"winners": [1], "reason": "resign", "ranks": [2, 1]}
    s = game.resign(game.resign(fresh(3), 1), 0)
    assert game.outcome(s) == {"winners": [2], "reason": "resign", "ranks": [2, 3, 1]}
    with pytest.raises(IllegalCommand):
        game.resign(s, 2)


def test_resigning_twice_or_from_a_seat_that_does_not_exist_is_refused_clearly():
    s = game.resign(fresh(3), 1)
    with pytest.raises(IllegalCommand) as exc:
        game.resign(s, 1)
    assert exc.value.key == "avalon.err.resign_out" and exc.value.params == {"player": "p2"}
    for bad in (3, -1, "1", True):
        with pytest.raises(IllegalCommand) as exc:
            game.resign(s, bad)
        assert exc.value.key == "avalon.err.resign_seat"


def test_a_resignation_replays_exactly_and_dumps_round_trip():
    """The engine contract (docs/engine.md): "The same seed and the same command sequence always give the same match"."""
    s = game.resign(fresh(4, seed=9), 2)
    again = game.resign(fresh(4, seed=9), 2)
    assert game.dump(s) == game.dump(again) == game.dump(game.load(game.dump(s)))


def test_a_snapshot_from_before_the_finishing_order_still_loads():
    """Stored snapshots written before ``moves``/``out_at`` existed load (nothing is quarantined)."""
    s = game.resign(fresh(3), 1)
    d = json.loads(game.dump(s))
    del d["moves"]
    for p in d["players"]:
        del p["out_at"]
    old = game.load(json.dumps(d))
    assert old.moves == 0 and old.players[1].out_at is None and old.players[1].status == "out"
    assert game.outcome(game.resign(old, 0))["ranks"] == [2, 3, 1]


# --------------------------------------------------------------------------- finishing order

def test_players_out_later_finish_higher_and_players_out_together_tie():
    """**Ruling (finishing order, for ratings):** the winners first; then players still in the
    match; then the players who are out, the later out the better; out in the same command:
    a tie.  「ライフが0になってしまった時点で、敗北となります」 fixes the moment each one lost."""
    s = game.resign(fresh(4), 2)                        # seat 2 out first
    s.players[3].life = s.players[3].life[:1]           # seat 3 goes out at this chaser turn's end
    s = play_round(s)
    assert s.players[3].status == "out" and game.outcome(s) is None
    s = game.resign(s, 0)                               # seat 0 out last
    assert game.outcome(s)["winners"] == [1]
    assert game.outcome(s)["ranks"] == [2, 1, 4, 3]

    s = fresh(3)
    for q in (1, 2):
        s.players[q].life = s.players[q].life[:1]       # both chasers lose their last life together
    s = play_round(s)
    assert game.outcome(s) == {"winners": [0], "reason": "last_standing", "ranks": [1, 2, 2]}


def test_at_the_round_limit_the_rest_finish_by_proofs_then_life():
    """House rule: "the match ends after max_rounds leader turns: most proofs wins, then most
    life; otherwise a draw" — the same tie-breaks place everyone else."""
    s = fresh(4)
    s.max_rounds = 1
    s.players[1].proofs = ["c02"]
    s.players[0].life = s.players[0].life[:3]           # after this round: 2 (leader loses 1)
    s.players[2].life = s.players[2].life[:5]           # 4
    s.players[3].life = s.players[3].life[:4]           # 3
    s = play_round(s)
    o = game.outcome(s)
    assert (o["winners"], o["reason"]) == ([1], "round_limit")
    assert o["ranks"] == [4, 1, 2, 3]

    s = fresh(3)
    s.max_rounds = 1
    s.players[0].life = s.players[0].life[:2]           # 1 after the round; the chasers tie
    s = play_round(s)
    o = game.outcome(s)
    assert (o["winners"], o["reason"]) == ([], "round_limit")
    assert o["ranks"] == [3, 1, 1], "no winner: the tied best share first place"
