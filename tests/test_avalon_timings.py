"""Avalon's Sanctuary: the timed creature abilities of the rulebook table
「クリーチャーカードが持つ能力」 (素成時, 素成中, 戦闘勝利時, 戦闘敗北時, 戦闘終了時, 手札, 証).
Each test quotes the clause it checks; rulings are in docs/rules/avalon.md ("Timed abilities").

Positions are built by editing a fresh match's state (lands are ``[mana, creature, atk_bonus]``);
every move then goes through the contract.
"""
from __future__ import annotations

import pytest

from rules import IllegalCommand, registry
from rules.avalon.engine import eff_target

game = registry.get("avalon")


def fresh(seed: int = 1):
    return game.new_match(players=2, seed=seed, options={"leader": 0})


def keys(s) -> list[str]:
    return [e["key"] for e in s.events]


def roundtrip(s) -> None:
    assert game.dump(game.load(game.dump(s))) == game.dump(s)


def ranged(s, mine: str, theirs: str):
    """Leader p1 (seat 0) with ``mine`` on l1 battles seat 1's ``theirs`` on its l1; no supports."""
    s.players[0].lands[0] = [[["c29", ""], ["c29", ""]], mine, 0]
    s.players[1].lands[0] = [[["c29", ""], ["c29", ""]], theirs, 0]
    s = game.apply(s, 0, "done")
    s = game.apply(s, 0, "ranged l1 p2l1")
    s = game.apply(s, 0, "support avatar")
    return game.apply(s, 1, "support avatar")


def test_when_forged_triggers_when_put_on_a_land_as_mana():
    """「素成時・・・魔素を素成した時に発動する能力。土地に出したときのみ発動する。」
    Ashvein Sprite (c37): when forged, draw 1.  Summoning it is not forging: no draw."""
    s = fresh()
    p = s.players[0]
    p.hand[0] = "c37"
    n, mem = len(p.hand), len(p.memory)
    s2 = game.apply(s, 0, "forge c37 l1")
    q = s2.players[0]
    assert len(q.hand) == n and len(q.memory) == mem - 1          # -1 forged, +1 drawn
    assert "avalon.ev.ab_on_forge" in keys(s2)
    roundtrip(s2)
    # summoned (put as a creature, not as mana): no trigger
    s.players[0].lands[1] = [[["c37", ""], ["c08", ""]], None, 0]
    s3 = game.apply(s, 0, "summon c37 l2")
    assert len(s3.players[0].hand) == n - 1
    assert "avalon.ev.ab_on_forge" not in keys(s3)

def test_while_forged_lowers_the_target_while_it_is_mana_on_a_land():
    """「素成中・・・土地に魔素としてある間発動する能力。捨て山に行くまで効果がある。」
    Lodestar Pilgrim (c38): while it is mana on your land, your target mana is 1 lower."""
    s = fresh()
    p = s.players[0]
    base = eff_target(s, p)
    p.lands[0] = [[["c38", ""]], None, 0]
    assert eff_target(s, p) == base - 1
    assert game.view(s, None)["players"][0]["target"] == base - 1
    p.lands[0] = [[], None, 0]                     # gone to the discard pile: no effect
    p.discard.append("c38")
    assert eff_target(s, p) == base
    p.hand[0] = "c38"                              # in hand: no effect either
    assert eff_target(s, p) == base


def test_on_battle_win_triggers_only_when_it_destroyed_the_opponent():
    """「戦闘勝利時・・・対戦相手を倒したら発動。ダメージが足りず、倒せなかった場合は発動しない。」
    Trophy-Hungry Raider (c39, 3/2): on battle win, +1 attack while deployed."""
    s = ranged(fresh(), "c39", "c02")              # 3 damage ≥ durability 2: destroyed
    assert s.last_battle["destroyed"] == [False, True]
    assert s.players[0].lands[0][1] == "c39" and s.players[0].lands[0][2] == 1
    assert game.view(s, 0)["players"][0]["lands"][0]["creature"]["atk"] == 4
    assert "avalon.ev.ab_on_win" in keys(s)
    roundtrip(s)
    s = ranged(fresh(), "c39", "c35")              # 3 damage < durability 6: no trigger
    assert s.last_battle["destroyed"][1] is False
    assert "avalon.ev.ab_on_win" not in keys(s)


def test_on_battle_loss_triggers_when_it_itself_is_destroyed():
    """「戦闘敗北時・・・戦闘ダメージなどで自分自身が倒されたら発動。」
    Mossgrave Warden (c40): on battle loss, add the top card of your memory to your life."""
    s = fresh()
    life, mem = len(s.players[0].life), len(s.players[0].memory)
    s = ranged(s, "c40", "c35")                    # 5 damage ≥ 3: the Warden is destroyed
    assert s.last_battle["destroyed"] == [True, False]
    assert "avalon.ev.ab_on_loss" in keys(s)
    # −1 battle lost, +1 Warden, −1 leader end without advancing
    assert len(s.players[0].life) == life - 1
    assert len(s.players[0].memory) == mem - 1
    s = ranged(fresh(), "c40", "c29")              # it survives: no trigger
    assert "avalon.ev.ab_on_loss" not in keys(s)


# Prism Wisp 0/1 (edition 4: 1/3 as the defender) strikes back too weakly, Stone Colossus too hard
@pytest.mark.parametrize("foe,destroyed", [("c31", False), ("c35", True)])
def test_at_battle_end_triggers_when_the_battle_ends(foe, destroyed):
    """「戦闘終了時・・・戦闘フェイズが終わったら発動。」
    Tidelog Scribe (c41): when a battle it fought ends, draw 1 — whether it survived or not."""
    s = fresh()
    hand = len(s.players[0].hand)
    s = ranged(s, "c41", foe)
    assert s.last_battle["destroyed"][0] is destroyed
    assert "avalon.ev.ab_battle_end" in keys(s)
    assert len(s.players[0].hand) == hand + 1


def test_in_hand_ability_is_a_legal_command_only_while_in_hand():
    """「手札・・・手札にある時にのみ使える能力。」
    Whispering Courier (c42): in your set phase, discard it from your hand: draw 2."""
    s = fresh()
    p = s.players[0]
    p.hand[0] = "c42"
    p.memory[-2:] = ["s07", "s08"]                 # the cards it will draw
    legal = game.legal_commands(s, 0)
    assert "use c42" in legal
    assert len({c.split()[0] for c in legal}) <= 25 and len({c.split()[1] for c in legal if c.startswith("use")}) <= 25
    assert all(not c.startswith("use") or c == "use c42" for c in legal)
    with pytest.raises(IllegalCommand) as exc:
        game.apply(s, 0, f"use {p.hand[1]}" if p.hand[1] != "c42" else "use c01")
    assert exc.value.key in ("avalon.err.no_hand_ability", "avalon.err.not_in_hand")
    n = len(p.hand)
    s2 = game.apply(s, 0, "use c42")
    q = s2.players[0]
    assert len(q.hand) == n + 1 and q.discard[-1] == "c42" and {"s07", "s08"} <= set(q.hand)
    assert "avalon.ev.ab_in_hand" in keys(s2)
    assert game.public_command(s, 0, "use c42") == "use c42"
    # secrecy: the other seat's view shows the used card but not the drawn ones
    other = game.view(s2, 1)
    assert "c42" in other["cards"]
    assert other["players"][0]["hand_count"] == n + 1 and "s07" not in str(other["hand"])
    roundtrip(s2)
    # not usable outside the set phase (the main phase has no use)
    s3 = game.apply(s, 0, "done")
    assert not any(c.startswith("use") for c in game.legal_commands(s3, 0))
    with pytest.raises(IllegalCommand):
        game.apply(s3, 0, "use c42")


def test_as_proof_lowers_the_target_while_in_the_proof_area():
    """「証・・・証として自分の場にある時に発動する能力。」
    Oathbound Paladin (c43): while it is in your proof area, your target mana is 2 lower."""
    s = fresh()
    p = s.players[0]
    base = eff_target(s, p)
    p.proofs = ["c02"]
    assert eff_target(s, p) == base
    p.proofs = ["c43"]
    assert eff_target(s, p) == base - 2
    assert eff_target(s, s.players[1]) == base     # only its owner's target
    p.lands[0] = [[["c29", ""]], "c43", 0]         # deployed, not a proof: no effect
    p.proofs = []
    assert eff_target(s, p) == base


def test_when_forged_also_triggers_for_mana_surge_which_forges_from_the_memory():
    """「素成時・・・魔素を素成した時に発動する能力。土地に出したときのみ発動する。」 — Mana Surge
    (m04) "メモリーの一番上のカードを…魔素として素成する" puts Ashvein Sprite (c37) on a land: draw 1."""
    s = fresh()
    p = s.players[0]
    p.hand[0] = "m04"
    p.memory[-1] = "c37"
    n = len(p.hand)
    s2 = game.apply(s, 0, "magic m04 l1")
    q = s2.players[0]
    assert q.lands[0][0][-1][0] == "c37"
    assert len(q.hand) == n                        # −1 magic used, +1 drawn by c37
    assert "avalon.ev.ab_on_forge" in keys(s2)
