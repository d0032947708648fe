"""Avalon's Sanctuary: rule tests.  Each test quotes the rulebook clause (アヴァロンの聖域
ルール) or the project or engine ruling (docs/rules/avalon.md) it checks.

Positions are built by editing a fresh match's state (lands are ``[mana, creature, atk_bonus]``,
mana entries ``[card_id, conversions]``); every move then goes through the contract.
"""
from __future__ import annotations

import json

import pytest

from rules import IllegalCommand, registry
from rules.avalon.engine import eff_target, mana_total

game = registry.get("avalon")


# The positions below use the cards as first printed: rules edition 2.  Editions 3 and 4 play the same
# rules with changed card numbers and decks (docs/rules/avalon.md, "Balance (rules edition 3/4)";
# tests/test_avalon_balance.py), so every ruling tested here holds in them too.
PRINTED = 2


def fresh(n: int = 2, leader: int = 0, mode: str = "normal", seed: int = 1):
    return game.new_match(players=n, seed=seed, options={"leader": leader, "mode": mode},
                          edition=PRINTED)


def land(*mana: str, creature: str | None = None, conv: dict | None = None) -> list:
    conv = conv or {}
    return [[[m, conv.get(i, "")] for i, m in enumerate(mana)], creature, 0]


def full_mana() -> list:
    """12 mana (3 × Crown of First Light: 3 yellow + 1 rainbow each) with no creature."""
    return [["c07", ""], ["c07", ""], ["c07", ""]]


def to_main(s, seat=0):
    return game.apply(s, seat, "done")


# --------------------------------------------------------------------------- setup & modes

@pytest.mark.parametrize("mode,players,life,target,proofs", [
    ("intro", 2, 5, 10, 2), ("intro", 3, 6, 10, 2), ("normal", 2, 4, 12, 2), ("normal", 3, 5, 12, 2),
    ("veteran", 4, 5, 12, 2), ("expert", 3, 4, 12, 3), ("complete", 4, 3, 12, 3), ("complete", 3, 3, 12, 3),
])
def test_modes_set_life_target_mana_and_proofs_as_the_mode_table(mode, players, life, target, proofs):
    """「入門モード 人数+3 10 2 / ノーマルモード 人数+2 12 2 / ベテランモード 人数+1 12 2 /
    エキスパート 人数+1 12 3 / コンプリート エクステンド 3 12 3」; project ruling (docs/rules/avalon.md): "Modes exactly as the
    table (life, target mana, proofs). Default: normal mode." """
    s = game.new_match(players=players, seed=3, options={"mode": mode})
    v = game.view(s, None)
    assert (v["mode"], v["life_start"], v["target"], v["proofs_needed"]) == (mode, life, target, proofs)
    for p in v["players"]:
        assert p["life"] == life
    assert game.view(game.new_match(players=2, seed=3, options={}), None)["mode"] == "normal"


def test_setup_draws_six_and_puts_life_from_the_memory():
    """「手札として6枚カードを引きます。2番にメモリーから初期ライフの数だけカードを裏向きのまま置きます」"""
    s = fresh(3)
    v = game.view(s, None)
    for p in v["players"]:
        assert p["life"] == 5
        assert p["memory"] + p["life"] + p["hand_count"] == 40
    assert v["players"][0]["hand_count"] == 6


def test_unknown_options_raise_value_error():
    """The engine contract (docs/engine.md): "Options are validated: an unknown option or value raises ValueError"; the
    rulebook: 「プレイ人数 2~4名」."""
    with pytest.raises(ValueError):
        game.new_match(players=2, seed=1, options={"mode": "hard"})
    with pytest.raises(ValueError):
        game.new_match(players=2, seed=1, options={"colour": 1})
    with pytest.raises(ValueError):
        game.new_match(players=5, seed=1, options={})
    with pytest.raises(ValueError):
        game.new_match(players=2, seed=1, options={"leader": 3})


# --------------------------------------------------------------------------- forging

def test_forging_on_a_land_with_mana_needs_the_top_attribute_or_a_colourless_creature():
    """「既に魔素が素成されている土地には、その土地の一番上にある魔素と同じ属性のクリーチャーカード、
    あるいは無属性クリーチャーカードしか素成できない」"""
    s = fresh()
    p = s.players[0]
    p.hand = ["c02", "c09", "c29", "c16"]
    p.lands[0] = land("c01")                    # top: yellow mana
    legal = game.legal_commands(s, 0)
    assert "forge c02 l1" in legal              # yellow on yellow
    assert "forge c29 l1" in legal              # colourless creature
    assert "forge c09 l1" not in legal          # red on yellow
    assert "forge c09 l2" in legal              # any card on an empty land
    with pytest.raises(IllegalCommand) as err:
        game.apply(s, 0, "forge c09 l1")
    assert err.value.key == "avalon.err.stacking"


def test_colourless_rainbow_vessel_and_no_mana_tops_lift_the_stacking_limit():
    """「この3種類と「魔素を持たないクリーチャーカード」は、原則次に重ねるクリーチャーカードの制限が
    ありません」(colourless, rainbow, rainbow vessel)"""
    for top in ("c29", "c31", "c30", "c34"):      # colourless, rainbow, vessel, no mana
        s = fresh()
        s.players[0].hand = ["c09"]
        s.players[0].lands[0] = land("c02", top)
        assert "forge c09 l1" in game.legal_commands(s, 0), top


def test_forged_cards_fill_at_most_five_lands_and_never_a_land_with_a_creature():
    """「土地に置くカードは5カ所を超えて置くことはできません」; Ruling: no forging or summoning on a
    land where a creature is deployed."""
    s = fresh()
    s.players[0].hand = ["c02"]
    s.players[0].lands[0] = land("c02", creature="c01")
    legal = game.legal_commands(s, 0)
    assert [c for c in legal if c.startswith("forge")] == [f"forge c02 l{i}" for i in range(2, 6)]
    with pytest.raises(IllegalCommand) as err:
        game.apply(s, 0, "forge c02 l1")
    assert err.value.key == "avalon.err.land_occupied"
    with pytest.raises(IllegalCommand) as err:
        game.apply(s, 0, "forge c02 l6")
    assert err.value.key == "avalon.err.bad_land"


def test_rainbow_vessel_turns_mana_below_rainbow_and_counts_zero_itself():
    """「虹の器:直前に素成した魔素のどれかを虹の器の魔素の数だけ、虹属性に変換する。この魔素は、
    これ単体では魔素の数としてカウントしない」; project ruling (docs/rules/avalon.md): "a rainbow vessel itself counts 0"."""
    s = fresh()
    p = s.players[0]
    p.hand = ["c30", "c05"]
    p.lands[0] = land("c02")                      # 2 yellow
    legal = game.legal_commands(s, 0)
    assert "forge c30 l1 y" in legal and "forge c30 l1" not in legal
    s = game.apply(s, 0, "forge c30 l1 y")
    v = game.view(s, 0)["players"][0]["lands"][0]
    assert v["icons"] == {"y": 1, "w": 1, "v": 1}
    assert v["mana_count"] == 2                    # the vessel adds nothing
    # rainbow has every attribute: a red ★2 could now use 1 rainbow only -> not enough
    s.players[0].hand = ["c11"]
    assert "summon c11 l1" not in game.legal_commands(s, 0)
    s.players[0].hand = ["c08"]                   # red ★1: the rainbow icon is enough
    assert "summon c08 l1" in game.legal_commands(s, 0)


def test_rainbow_mana_stands_for_every_attribute_when_summoning():
    """「虹属性魔素:黄・赤・青・緑属性すべての属性を併せ持つ」"""
    s = fresh()
    s.players[0].hand = ["c25"]                   # green ★2
    s.players[0].lands[0] = land("c31", "c31")    # two rainbow
    assert "summon c25 l1" in game.legal_commands(s, 0)


def test_colourless_mana_counts_one_but_never_as_an_attribute():
    """「無属性魔素:黄・赤・青・緑属性のかわりにならない(魔素1つ分としては働く)」"""
    s = fresh()
    s.players[0].hand = ["c09", "c32"]
    s.players[0].lands[0] = land("c29")           # 2 colourless
    legal = game.legal_commands(s, 0)
    assert "summon c09 l1" not in legal           # red ★1 needs red
    assert "summon c32 l1" in legal               # colourless ★2: any 2 mana


# --------------------------------------------------------------------------- summoning

def test_summoning_needs_originality_many_same_attribute_mana_on_one_land():
    """「召喚したいクリーチャーのオリジナリティの数以上の同属性魔素を一つの土地に素成している必要が
    あります」"""
    s = fresh()
    p = s.players[0]
    p.hand = ["c05"]                              # yellow ★3
    p.lands[0] = land("c02")                      # 2 yellow
    p.lands[1] = land("c01")                      # 1 yellow elsewhere: not on one land
    assert not any(c.startswith("summon") for c in game.legal_commands(s, 0))
    with pytest.raises(IllegalCommand) as err:
        game.apply(s, 0, "summon c05 l1")
    assert err.value.key == "avalon.err.summon_mana"
    p.lands[0] = land("c02", "c01")               # 3 yellow on l1
    s2 = game.apply(s, 0, "summon c05 l1")
    c = game.view(s2, None)["players"][0]["lands"][0]["creature"]
    assert (c["card"], c["atk"], c["dur"]) == ("c05", 3, 4)


def test_colourless_creatures_need_only_originality_many_mana_of_any_kind():
    """「無属性クリーチャーは属性の制限がなく、オリジナリティの数以上の魔素が素成された土地であれば
    ... 召喚することが可能です」"""
    s = fresh()
    s.players[0].hand = ["c33"]                   # colourless ★3
    s.players[0].lands[0] = land("c09")           # 2 red
    assert "summon c33 l1" not in game.legal_commands(s, 0)
    s.players[0].lands[0] = land("c09", "c01")    # 3 mana
    assert "summon c33 l1" in game.legal_commands(s, 0)


def test_on_summon_draw_and_only_creatures_summon():
    """「召喚時・・・自分の土地にクリーチャーとして配置した瞬間に発動する」; only creature cards
    are summoned (「クリーチャーを手札から出して召喚する」)."""
    s = fresh()
    p = s.players[0]
    p.hand = ["c15", "m01"]
    p.lands[0] = land("c16")
    n = len(p.hand)
    s2 = game.apply(s, 0, "summon c15 l1")
    assert len(s2.players[0].hand) == n - 1 + 1   # Tidepool Scribe: on summon draw 1
    with pytest.raises(IllegalCommand) as err:
        game.apply(s, 0, "summon m01 l1")
    assert err.value.key == "avalon.err.not_creature"


# --------------------------------------------------------------------------- magic & discard

def test_magic_cards_resolve_and_go_to_the_discard_pile():
    """「魔法カード...効果を適用したのちに捨て山に送ります。魔法カードの使用にはコストなどの制限は
    ありません」"""
    s = fresh()
    p = s.players[0]
    p.hand = ["m01", "m06", "m07", "m09"]
    p.lands[0] = land("c02", creature="c01")
    s = game.apply(s, 0, "magic m01")
    assert len(s.players[0].hand) == 3 + 2 and "m01" in s.players[0].discard
    s = game.apply(s, 0, "magic m06 l1")
    assert game.view(s, None)["players"][0]["lands"][0]["creature"]["atk"] == 2
    s = game.apply(s, 0, "magic m07 l1")
    assert game.view(s, None)["players"][0]["lands"][0]["icons"] == {"w": 2}
    before = eff_target(s, s.players[0])
    s = game.apply(s, 0, "magic m09")
    assert eff_target(s, s.players[0]) == before - 3


def test_thorn_hex_destroys_a_low_originality_creature_of_another_player():
    """Ruling: "another player's creature" means any other player's; the mana stays behind."""
    s = fresh()
    s.players[0].hand = ["m03"]
    s.players[1].lands[2] = land("c02", creature="c02")
    s.players[1].lands[3] = land("c07", creature="c07")   # ★5: not a target
    assert [c for c in game.legal_commands(s, 0) if c.startswith("magic")] == ["magic m03 p2l3"]
    s = game.apply(s, 0, "magic m03 p2l3")
    assert s.players[1].lands[2][1] is None and s.players[1].lands[2][0]   # mana stays


def test_any_card_may_be_discarded_in_the_set_phase():
    """「不要と感じたカードは使用せずに捨て山に捨てる事も出来ます」"""
    s = fresh()
    s.players[0].hand = ["s01", "c02"]
    s = game.apply(s, 0, "discard s01")
    assert s.players[0].hand == ["c02"] and s.players[0].discard[-1] == "s01"


# --------------------------------------------------------------------------- turn structure

def test_chaser_set_phases_go_clockwise_from_the_leader():
    """「セットフェイズ ※リーダーから時計回りで一人ずつ行います」"""
    s = fresh(4, leader=2)
    s = game.apply(to_main(s, 2), 2, "pass")
    order = []
    while s.step == "set":
        order.append(game.to_act(s)[0])
        s = game.apply(s, order[-1], "done")
    assert order == [3, 0, 1]


def test_declarations_ordered_by_originality_sum_ties_clockwise_from_the_leader():
    """「各チェイサーは、自分の土地の配置クリーチャーを比べ、オリジナリティの合計の多い順に ... 宣言
    します。(合計が同じ場合はリーダーから見た時計回りに行います)」"""
    s = fresh(4, leader=0)
    s.players[1].lands[0] = land("c02", creature="c01")          # sum 1
    s.players[2].lands[0] = land("c02", "c02", creature="c05")   # sum 3
    s.players[3].lands[0] = land("c02", creature="c02")          # sum 1
    s = game.apply(to_main(s), 0, "pass")
    for seat in (1, 2, 3):
        s = game.apply(s, seat, "done")
    order = []
    while s.step == "declare":
        order.append(game.to_act(s)[0])
        s = game.apply(s, order[-1], "pass")
    assert order == [2, 1, 3]


def test_leader_main_phase_is_one_choice_and_chasers_battle_only_the_leader():
    """「※チェイサーが他チェイサーのクリーチャーに戦闘を仕掛けることはできません。また、戦闘は1
    プレイヤーがメインフェイス内で1回しか仕掛けることはできません」"""
    s = fresh(3, leader=0)
    for q in (0, 1, 2):
        s.players[q].lands[0] = land("c02", creature="c02")
    s = to_main(s)
    legal = game.legal_commands(s, 0)
    assert "ranged l1 p2l1" in legal and "ranged l1 p3l1" in legal
    s = game.apply(s, 0, "ranged l1 p2l1")
    s = game.apply(s, 0, "support avatar")
    s = game.apply(s, 1, "support avatar")
    assert s.kind == "chaser"                    # one battle, then the end phase
    s = game.apply(s, 1, "done")
    s = game.apply(s, 2, "done")
    actor = game.to_act(s)[0]
    legal = game.legal_commands(s, actor)
    assert all(("p1l" in c) for c in legal if c.startswith("ranged"))
    other = 3 - actor
    with pytest.raises(IllegalCommand):
        game.apply(s, actor, f"ranged l1 p{other + 1}l1")


def test_leader_advances_with_target_mana_but_never_a_colourless_creature():
    """「その数が、「目標魔力」以上素成に成功していれば、リーダーは自分の場にあるクリーチャー1体を
    選んで、聖地に配置することができます ... 無属性クリーチャーはリーダーのメインフェイスで聖地に
    配置できない」; project ruling (docs/rules/avalon.md): "Mana counted for the target is the sum of mana icons on all of a
    player's lands"."""
    s = fresh()
    p = s.players[0]
    p.lands[0] = [full_mana()[:2], "c02", 0]      # 8
    p.lands[1] = [full_mana()[:1], "c29", 0]      # 4 (colourless creature)
    s = to_main(s)
    assert mana_total(s.defs, s.players[0]) == 12
    legal = game.legal_commands(s, 0)
    assert "advance l1" in legal and "advance l2" not in legal
    with pytest.raises(IllegalCommand) as err:
        game.apply(s, 0, "advance l2")
    assert err.value.key == "avalon.err.advance_colourless"
    s = game.apply(s, 0, "advance l1")
    v = game.view(s, None)
    assert v["sanctuary"]["creature"]["card"] == "c02" and v["kind"] == "chaser"


def test_below_target_mana_there_is_no_advance():
    """「その数が、「目標魔力」以上素成に成功していれば ... 聖地に配置することができます」"""
    s = fresh()
    s.players[0].lands[0] = land("c02", creature="c02")
    s = to_main(s)
    assert not any(c.startswith("advance") for c in game.legal_commands(s, 0))
    with pytest.raises(IllegalCommand) as err:
        game.apply(s, 0, "advance l1")
    assert err.value.key == "avalon.err.below_target"


def test_yellow_target_minus_lowers_the_target_mana():
    """Yellow: 「聖地に到達するための目標魔力を少なくできる能力を持つカードが多い」"""
    s = fresh()
    s.players[0].lands[0] = land("c02", creature="c06")   # Radiant Archon: target −2
    assert eff_target(s, s.players[0]) == 10


# --------------------------------------------------------------------------- battles

def battle(inv, dfn, sup_i="avatar", sup_d="avatar", inv_bonus=0):
    """Leader (seat 0, the invader) fights seat 1's creature in a ranged battle."""
    s = fresh()
    s.players[0].lands[0] = [[["c02", ""]], inv, inv_bonus]
    s.players[1].lands[0] = [[["c02", ""]], dfn, 0]
    s.players[0].hand = [] if sup_i == "avatar" else [sup_i]
    s.players[1].hand = [] if sup_d == "avatar" else [sup_d]
    s = game.apply(to_main(s), 0, "ranged l1 p2l1")
    assert sorted(game.to_act(s)) == [0, 1]      # both choose together
    s = game.apply(s, 1, f"support {sup_d}")
    s = game.apply(s, 0, f"support {sup_i}")
    return s, s.last_battle


def test_invader_strikes_before_defender():
    """「3 侵略側の攻撃 4 防衛側の攻撃」"""
    _, b = battle("c02", "c02")
    assert b["destroyed"] == [False, True] and b["strikes"] == [[0, "hit", 2]]


def test_first_strike_attacks_before_normal_attacks():
    """「1 侵略側の先制能力クリーチャーの攻撃 2 防衛側の先制能力クリーチャーの攻撃」"""
    _, b = battle("c02", "c09")                   # defender has first strike
    assert b["destroyed"] == [True, False] and b["strikes"][0] == [1, "hit", 2]


def test_last_strike_attacks_after_normal_attacks():
    """「5 侵略側の後攻能力クリーチャーの攻撃 6 防衛側の後攻能力クリーチャーの攻撃」"""
    _, b = battle("c10", "c02")                   # Magma Brute 4/3 last strike
    assert b["strikes"] == [[1, "hit", 2], [0, "hit", 4]]
    assert b["destroyed"] == [False, True]


def test_evade_avoids_a_normal_attack_and_evade_null_cancels_it():
    """「「避け」「避け無効」 相手の通常攻撃を避ける能力です。能力「避け無効」で、無効化できます」"""
    _, b = battle("c02", "c16")
    assert b["strikes"][0] == [0, "evade", 0] and b["destroyed"] == [False, False]
    _, b = battle("c23", "c16")                   # Thicket Stalker: evade-null
    assert b["destroyed"] == [False, True]


def test_instant_death_destroys_regardless_of_durability_unless_death_null():
    """「「即死」「即死無効」 通常攻撃が命中した時に発動し、相手の残り耐久値に関係なく倒すことが
    できる能力です。能力「即死無効」で無効化されます」"""
    _, b = battle("c12", "c28")                   # 2 attack vs 8 durability
    assert b["destroyed"] == [False, True] and b["strikes"][0][1] == "death"
    _, b = battle("c12", "c03")                   # Gilded Pilgrim: death-null
    assert b["destroyed"] == [False, False]


def test_reflect_returns_the_attack_and_reflect_null_cancels_it():
    """「「反射」「反射無効」 相手の通常攻撃が命中した時に発動し、自分はダメージを受けず、相手の攻撃
    ぶん相手に反射ダメージを与えます ... 能力「反射無効」で無効化されます」"""
    _, b = battle("c02", "c05")
    assert b["strikes"][0] == [0, "reflect", 2] and b["destroyed"] == [True, False]
    assert b["damage"] == [2, 0]
    _, b = battle("c14", "c05")                   # Inferno Sovereign: reflect-null
    assert b["destroyed"] == [False, True]


def test_reflect_does_not_trigger_when_the_attack_is_evaded():
    """「(避けてしまった場合は発動しません)」"""
    _, b = battle("c02", "c19", sup_d="s09")      # reflect creature given evade
    assert b["strikes"][0] == [0, "evade", 0]
    assert "reflect" not in [x[1] for x in b["strikes"]] and b["damage"][1] == 0


def test_counter_hits_back_when_the_creature_survives_a_hit():
    """「「反撃」 相手の通常攻撃が命中して破壊されなかった場合に発動し、受けた分と同じだけ相手に反撃
    ダメージを与えます」"""
    _, b = battle("c02", "c24")                   # Bramble Guard 2/4 counter
    assert b["strikes"] == [[0, "hit", 2], [1, "counter", 2]]
    assert b["destroyed"] == [True, False]


def test_counter_does_not_trigger_when_the_creature_is_destroyed():
    """「「反撃」 相手の通常攻撃が命中して破壊されなかった場合に発動し」"""
    _, b = battle("c10", "c24")                   # 4 attack destroys the 4-durability counter creature
    assert [x[1] for x in b["strikes"]] == ["hit", "hit"]   # defender's normal strike, then invader's last
    assert b["destroyed"][1]


def test_both_weapon_replace_means_both_survive():
    """「※お互いがウェポンリプレイスを使用した場合、双方とも生き残ります」"""
    _, b = battle("c14", "c29", "s01", "s01")
    assert b["no_damage"] and b["destroyed"] == [False, False]


def test_weapon_replace_exchanges_attack_values_at_order_1():
    """「1. 戦闘支援カード「ウェポンリプレイス」」"""
    _, b = battle("c02", "c27", sup_i="s01")       # 2/2 vs 5/5 counter
    assert b["atk"] == [5, 2] and b["destroyed"] == [False, True]


def test_informant_cancels_a_later_support_but_not_weapon_replace():
    """「2. 戦闘支援カード「密告」」 comes after 「1. ウェポンリプレイス」 and before the rest."""
    _, b = battle("c02", "c02", sup_i="s02", sup_d="s06")
    assert b["cancelled"] == [False, True] and b["atk"][1] == 2
    _, b = battle("c02", "c27", sup_i="s01", sup_d="s02")
    assert b["cancelled"] == [False, False] and b["atk"] == [5, 2]


def test_chaos_panic_swaps_attack_and_durability_at_order_3():
    """「3. 戦闘支援カード「カオスパニック」、ニンジャマスターの持つ能力」"""
    _, b = battle("c02", "c28", sup_i="s03")       # World-Root Titan 6/8 -> 8/6
    assert b["atk"][1] == 8 and b["dur"][1] == 6


def test_stat_changes_come_at_order_4():
    """「4. 各カードによる攻撃値・耐久値変化」"""
    _, b = battle("c08", "c02", sup_i="s06")       # Cinder Pup: +1 attack invading; Battle Hymn +2/+1
    assert b["atk"][0] == 2 + 1 + 2 and b["dur"][0] == 1 + 1


def test_poison_mist_halves_durability_at_order_5():
    """「5. 戦闘支援カード「ポイズンミスト」」"""
    _, b = battle("c02", "c28", sup_i="s04")
    assert b["dur"][1] == 4


def test_magicians_fingertips_removes_keywords_at_order_6_but_later_grants_stay():
    """「6. 戦闘支援カード「奇術師の指先」 7. 先制/後攻 8. 避け/反射/即死」"""
    _, b = battle("c02", "c16", sup_i="s05")       # evade removed
    assert b["destroyed"] == [False, True]
    _, b = battle("c02", "c16", sup_i="s05", sup_d="s09")   # evade granted again at order 8
    assert b["strikes"][0] == [0, "evade", 0]


def test_ninja_master_ability_at_order_3_and_fingertips_remove_it():
    """「3. ... ニンジャマスターの持つ能力」, then 「6. 奇術師の指先」"""
    _, b = battle("c13", "c02")
    assert {"first", "evade"} <= set(b["keywords"][0])
    _, b = battle("c13", "c02", sup_d="s05")
    assert b["keywords"][0] == []


def test_same_order_resolves_invader_support_defender_support_invader_creature_defender_creature():
    """「※同じ処理順番の場合は… 侵略側の戦闘支援カード効果 / 防衛側の戦闘支援カードの効果 /
    侵略側のクリーチャーの持つ能力 / 防衛側のクリーチャーの持つ能力 の順で処理します」"""
    _, b = battle("c13", "c13", sup_i="s03", sup_d="s03")
    assert [x[:3] for x in b["abilities"]] == [[3, 0, "chaos_panic"], [3, 1, "chaos_panic"],
                                               [3, 0, "ninja"], [3, 1, "ninja"]]


def test_support_granted_strike_timing_overrides_the_printed_one():
    """「※もとの先攻・後攻能力持ちクリーチャーに戦闘支援カードの効果などで先制あるいは後攻を付与
    された場合、戦闘支援カードで付与された効果を優先します」"""
    _, b = battle("c10", "c09", sup_i="s07")       # Magma Brute (last) given first strike
    assert "first" in b["keywords"][0] and "last" not in b["keywords"][0]
    assert b["strikes"][0][0] == 0


def test_creature_cards_with_battle_support_can_be_chosen_as_support_and_are_discarded():
    """「戦闘支援:戦闘開始時に戦闘支援カードとして使うことができる」;「使用した戦闘支援カードは捨て山
    に送ります」"""
    s, b = battle("c02", "c02", sup_d="c17")       # Glass Tide Mage: +0/+2
    assert b["dur"][1] == 4 and b["destroyed"] == [True, False]   # 2 damage < 4, then it strikes back
    assert "c17" in s.players[1].discard and "c17" not in s.players[1].hand


def test_battle_results_on_life():
    """「◎自分のクリーチャーが破壊されたとき…ライフとして置いている好きなカードを1枚、捨て山に送り
    ます。◎相手のクリーチャーを破壊したとき…メモリーの一番上のカードを裏のままライフに加えて
    ください」"""
    s0 = fresh()
    l0, l1 = len(s0.players[0].life), len(s0.players[1].life)
    s, b = battle("c02", "c02")
    assert b["destroyed"] == [False, True]
    # leader: +1 for the kill, −1 at its own end phase (no advance); chaser: −1
    assert len(s.players[0].life) == l0 + 1 - 1
    assert len(s.players[1].life) == l1 - 1
    assert s.players[1].lands[0][1] is None and s.players[1].lands[0][0] == []


def test_damage_resets_after_each_battle():
    """「生き残ったクリーチャーが受けたダメージは、戦闘が終了するたびにリセットされます」"""
    s, b = battle("c02", "c16")
    assert b["destroyed"] == [False, False]
    assert game.view(s, None)["players"][0]["lands"][0]["creature"]["dur"] == 2


# --------------------------------------------------------------------------- secrecy

def test_support_choices_are_secret_until_both_have_chosen():
    """Project ruling (docs/rules/avalon.md): "A battle's support choice is secret until both have chosen: both choose, then both
    reveal." """
    s = fresh()
    s.players[0].lands[0] = land("c02", creature="c02")
    s.players[1].lands[0] = land("c02", creature="c02")
    s.players[0].hand = ["s06"]
    s = game.apply(to_main(s), 0, "ranged l1 p2l1")
    assert game.public_to_act(s) == [0, 1]
    s = game.apply(s, 0, "support s06")
    assert game.public_command(s, 0, "support s06") == "support"
    for seat in (None, 1):
        text = json.dumps(game.view(s, seat))
        assert "s06" not in text
        assert game.view(s, seat)["battle"]["chosen"] == [True, False]
    assert game.view(s, 0)["battle"]["my_choice"] == "s06"
    s = game.apply(s, 1, "support avatar")
    assert game.view(s, None)["last_battle"]["supports"] == ["s06", "avatar"]


def test_hands_are_private():
    """The engine contract (docs/engine.md): "view(state, s) never contains what seat s may not know (other hands ...)"."""
    s = fresh(3)
    pub = game.view(s, None)
    assert "hand" not in pub
    for seat in range(3):
        v = game.view(s, seat)
        assert v["hand"] == sorted(s.players[seat].hand)
        for other in range(3):
            if other != seat:
                assert "hand" not in v["players"][other]
    assert all("memory" in p and isinstance(p["memory"], int) for p in pub["players"])


# --------------------------------------------------------------------------- end phase

def test_lifespan_discards_the_bottom_mana_and_destroys_a_creature_with_none():
    """「エンドフェイズを迎えるたびに自身を素成している魔素として素成したカードを、一番下からそれぞれ
    一枚ずつ捨て山に送ります。エンドフェイズで捨てられる素成カードがないのであるなら、クリーチャー
    は破壊され」"""
    s = fresh()
    p = s.players[0]
    p.lands[0] = land("c01", "c02", creature="c02")
    p.lands[1] = [[], "c09", 0]
    s = game.apply(to_main(s), 0, "pass")
    p = s.players[0]
    assert [e[0] for e in p.lands[0][0]] == ["c02"] and p.lands[0][1] == "c02"
    assert p.lands[1][1] is None and "c09" in p.discard


def test_loose_mana_is_discarded_at_the_end_phase():
    """「クリーチャーが召喚されていない、魔素だけの土地があった場合 ... エンドフェイズのタイミングで
    すべて捨て山に送られます」"""
    s = fresh()
    s.players[0].lands[2] = land("c01", "c02")
    s = game.apply(to_main(s), 0, "pass")
    assert s.players[0].lands[2][0] == []


def test_chasers_lifespan_runs_at_the_chaser_end_phase_only():
    """「(リーダーはリーダーターンのエンドフェイズに、チェイサーはチェイサーターンのエンドフェイズに
    行います)」"""
    s = fresh()
    s.players[1].lands[0] = land("c01", "c02", creature="c02")
    s = game.apply(to_main(s), 0, "pass")
    assert len(s.players[1].lands[0][0]) == 2      # untouched by the leader's end phase
    s = game.apply(s, 1, "done")
    s = game.apply(s, 1, "pass")
    assert len(s.players[1].lands[0][0]) == 1


def test_each_player_loses_one_life_at_their_own_end_phase():
    """「自分の番を終了したプレイヤーは、自身のエンドフェイズでライフを1枚捨て山に送る」"""
    s = fresh(3)
    lives = [len(p.life) for p in s.players]
    s = game.apply(to_main(s), 0, "pass")
    assert [len(p.life) for p in s.players] == [lives[0] - 1, lives[1], lives[2]]
    for seat in (1, 2):
        s = game.apply(s, seat, "done")
    while s.step == "declare":
        s = game.apply(s, game.to_act(s)[0], "pass")
    assert [len(p.life) for p in s.players] == [lives[0] - 1, lives[1] - 1, lives[2] - 1]


def _advance_position(n=2, proofs=0, mode="normal"):
    s = fresh(n, mode=mode)
    s.players[0].lands[0] = [full_mana(), "c02", 0]
    s.players[0].proofs = ["c01"] * proofs
    return game.apply(to_main(s), 0, "advance l1")


def test_advancing_leader_gains_a_life_instead_of_losing_one():
    """「リーダーは、自分のクリーチャーを聖地に配置できたのならば、自身のエンドフェイズ処理時に
    「聖地到達報酬」として、メモリーから1枚裏のままライフに加え、上記の制約を免除されます」"""
    before = len(fresh().players[0].life)
    s = _advance_position()
    assert len(s.players[0].life) == before + 1
    assert len(s.sanct[0]) == 2                    # the sanctuary creature's lifespan ran too


def test_a_surviving_sanctuary_creature_becomes_a_proof_and_its_mana_is_discarded():
    """「●生き残った場合 ・・・そのクリーチャー自身を表のまま、リーダーの証として「証」置き場に置き
    ます。その後、そのクリーチャーに魔素としてついていたカードは捨て山に送ります」"""
    s = _advance_position()
    s = game.apply(s, 1, "done")
    s = game.apply(s, 1, "pass")
    assert s.players[0].proofs == ["c02"] and s.sanct is None
    assert s.leader == 0 and game.outcome(s) is None


@pytest.mark.parametrize("mode,needed", [("normal", 2), ("intro", 2), ("veteran", 2), ("expert", 3), ("complete", 3)])
def test_collecting_the_modes_proofs_wins(mode, needed):
    """「このとき、対戦モードで設定された証の数を満たした場合、リーダーの勝利となります」"""
    n = 3 if mode == "complete" else 2
    s = _advance_position(n=n, proofs=needed - 1, mode=mode)
    for seat in range(1, n):
        s = game.apply(s, seat, "done")
    while s.step == "declare":
        s = game.apply(s, game.to_act(s)[0], "pass")
    o = game.outcome(s)
    assert (o["winners"], o["reason"]) == ([0], "proofs")
    assert o["ranks"][0] == 1 and min(o["ranks"][1:]) == 2          # the winner places first


def test_holy_battle_winner_becomes_leader_and_keeps_its_life():
    """「●配置クリーチャーを聖戦で倒した ・・・聖戦を勝利したチェイサーが次のターンのリーダーとなり
    ます」;「チェイサーも、聖地のクリーチャーを倒して聖戦を勝利した場合、「リーダー奪取報酬」として
    本来ターン終了時に支払うライフを免除されます」;「侵略戦闘で勝利すると、残りの戦闘は行われず、
    ただちにメインフェイズは終了します」"""
    s = fresh(3)
    s.players[0].lands[0] = [full_mana(), "c02", 0]
    for q in (1, 2):
        s.players[q].lands[0] = [full_mana(), "c14", 0]           # 6/5 first strike
    s = game.apply(to_main(s), 0, "advance l1")
    lives = [len(p.life) for p in s.players]
    for q in (1, 2):
        s = game.apply(s, q, "done")
    s = game.apply(s, 1, "invade l1")
    s = game.apply(s, 2, "invade l1")
    s = game.apply(s, 1, "support avatar")
    s = game.apply(s, 0, "support avatar")
    # seat 1 won the holy battle: seat 2's invasion is not fought, seat 1 leads
    assert s.leader == 1 and s.kind == "leader"
    assert len(s.players[1].life) == lives[1] + 1              # +1 for the kill, no end-phase loss
    assert len(s.players[2].life) == lives[2] - 1
    assert len(s.players[0].life) == lives[0] - 1              # its creature was destroyed


def test_empty_sanctuary_leadership_goes_to_the_chaser_with_most_mana_over_target():
    """「●配置クリーチャーがない ・・・目標魔力を達成し、かつ土地の魔素が最も多いチェイサーにリーダー
    の権利が移動(リーダーチェンジ)します。複数人いた場合はリーダーから見て時計回りのチェイサーが
    優先されます。だれも目標魔力を達成していない場合のみ、現リーダーがリーダーを続行します」"""
    def run(mana):
        s = fresh(4)
        for q, m in mana.items():
            s.players[q].lands[0] = [full_mana()[:m], "c02", 0]
        s = game.apply(to_main(s), 0, "pass")
        for q in (1, 2, 3):
            s = game.apply(s, q, "done")
        while s.step == "declare":
            s = game.apply(s, game.to_act(s)[0], "pass")
        return s.leader
    assert run({1: 2, 2: 3, 3: 3}) == 2            # most mana; tie -> clockwise from the leader
    assert run({1: 3, 3: 3}) == 1
    assert run({1: 2, 2: 2}) == 0                  # nobody reached 12: the leader continues


# --------------------------------------------------------------------------- deck out, elimination

def test_running_out_of_memory_costs_a_life_and_reshuffles_the_discard_pile():
    """「※プレイ中メモリーが0枚になったら、その時点でライフを1枚捨て山に送り、その後捨て山をよく
    切ってからメモリーとしてプレイシートに戻してください」"""
    s = fresh()
    p = s.players[0]
    p.discard = p.memory[1:]
    p.memory = p.memory[:1]
    p.hand = ["m01"]
    life = len(p.life)
    s = game.apply(s, 0, "magic m01")
    p = s.players[0]
    assert len(p.life) == life - 1
    # the discard pile (with the lost life card) became the memory; Starfall Insight itself was
    # still on the play sheet and reaches the discard pile after it resolved
    assert len(p.hand) == 2 and p.discard == ["m01"] and len(p.memory) > 0


def test_a_player_at_zero_life_is_out_and_the_last_one_standing_wins():
    """「・敗北条件 ライフが0になってしまった時点で、敗北となります」; project ruling (docs/rules/avalon.md): "A player at 0 life
    is out; the last one standing also wins." """
    s = fresh(2)
    s.players[0].life = s.players[0].life[:1]
    s = game.apply(to_main(s), 0, "pass")
    assert game.outcome(s) == {"winners": [1], "reason": "last_standing", "ranks": [2, 1]}


def test_a_defeated_player_rejoins_as_a_chaser_when_the_leader_turn_ends():
    """「敗北しても、すぐに途中参加可能です」;「途中参加する場合は、チェイサーとして**リーダーターンが
    終了し次第プレイ**してください」"""
    s = fresh(3)
    s.players[2].life = s.players[2].life[:1]
    s = game.apply(to_main(s), 0, "pass")
    s = game.apply(s, 1, "done")
    s = game.apply(s, 2, "done")
    while s.step == "declare":
        s = game.apply(s, game.to_act(s)[0], "pass")
    assert s.players[2].status == "out" and game.can_join(s)
    with pytest.raises(IllegalCommand):
        game.join(s, 1)                            # still playing
    s = game.join(s, 2)
    assert s.players[2].status == "waiting" and len(s.players[2].life) == s.life0
    assert 2 not in game.to_act(s)
    leader = s.leader
    s = game.apply(to_main(s, leader), leader, "pass")
    assert s.players[2].status == "play" and s.kind == "chaser"
    assert 2 in s.queue                            # it takes its set phase in this chaser turn


def test_a_new_player_joins_a_running_match_and_the_join_replays():
    """docs/engine.md: "join(state, seat) ... seat == number of seats so far adds a new seat"."""
    s0 = fresh(3)
    s = game.join(s0, 3)
    assert len(s.players) == 4 and s.players[3].status == "waiting" and len(s0.players) == 3
    with pytest.raises(IllegalCommand):
        game.join(s, 4)
    again = game.join(fresh(3), 3)
    assert game.dump(again) == game.dump(s)
    assert not game.can_join(s)                    # 4 seats, nobody out


def test_invasion_needs_target_mana_and_a_creature_in_the_sanctuary():
    """「チェイサーは目標魔力に到達していれば、聖地に配置されたリーダーのクリーチャーに侵略戦闘を
    仕掛けることができます」; Ruling: the sanctuary creature is reached only by invasion."""
    s = fresh(2)
    s.players[0].lands[0] = [full_mana(), "c02", 0]
    s.players[1].lands[0] = land("c02", creature="c02")
    s = game.apply(to_main(s), 0, "advance l1")
    s = game.apply(s, 1, "done")
    assert game.legal_commands(s, 1) == ["pass"]              # below target; nothing on the leader's lands
    with pytest.raises(IllegalCommand) as err:
        game.apply(s, 1, "invade l1")
    assert err.value.key == "avalon.err.below_target"
    s2 = fresh(2)
    s2.players[0].lands[0] = [full_mana(), "c02", 0]
    s2.players[1].lands[0] = [full_mana(), "c29", 0]          # a colourless creature may invade
    s2 = game.apply(to_main(s2), 0, "advance l1")
    s2 = game.apply(s2, 1, "done")
    assert "invade l1" in game.legal_commands(s2, 1)


def test_timeout_defaults_keep_the_match_going():
    """docs/rules/avalon.md, Clock: done / pass / support avatar."""
    s = fresh(2)
    assert game.timeout_command(s, 0) == "done" and game.timeout_command(s, 1) is None
    s = to_main(s)
    assert game.timeout_command(s, 0) == "pass"


def test_wrong_seat_garbage_and_wrong_phase_commands_raise_and_change_nothing():
    """The engine contract (docs/engine.md): "raises IllegalCommand(reason) for anything not legal: wrong seat, bad syntax, rule
    violation"; the set phase offers 「魔素を素成する・クリーチャーを召喚する・魔法カードを使う・カード
    を捨てる」 only."""
    s = fresh(2)
    before = game.dump(s)
    for seat, cmd, key in [(1, "done", "avalon.err.not_your_turn"), (0, "fly", "avalon.err.unknown_verb"),
                           (0, "pass", "avalon.err.step_set"), (0, "", "avalon.err.empty"),
                           (0, "forge zz l1", "avalon.err.not_in_hand")]:
        with pytest.raises(IllegalCommand) as err:
            game.apply(s, seat, cmd)
        assert err.value.key == key, cmd
    assert game.dump(s) == before


def test_a_chaser_out_during_its_own_set_phase_is_skipped():
    """「ライフが0になってしまった時点で、敗北となります」 — at once, even in the middle of a set phase."""
    s = fresh(3)
    s = game.apply(to_main(s), 0, "pass")
    p = s.players[1]
    p.life = p.life[:1]
    p.discard, p.memory = p.memory[1:], p.memory[:1]
    p.hand = ["m01"]
    s = game.apply(s, 1, "magic m01")          # draws the last memory card: one life lost -> out
    assert s.players[1].status == "out"
    assert game.to_act(s) == [2] and s.step == "set"


def test_house_rule_a_set_phase_ends_after_sixty_actions():
    """House rule (termination): after 60 forge/summon/magic/discard actions only `done` is left."""
    s = fresh()
    s.acts = 60
    assert game.legal_commands(s, 0) == ["done"]
    s.players[0].hand = ["c02"]
    with pytest.raises(IllegalCommand) as err:
        game.apply(s, 0, "forge c02 l1")
    assert err.value.key == "avalon.err.set_limit"
