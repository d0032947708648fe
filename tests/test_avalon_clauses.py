"""Avalon's Sanctuary: clauses of the rulebook (アヴァロンの聖域 ルール) that the first test files
did not quote, and the rulings of docs/rules/avalon.md about them.  Each test quotes its clause.

Positions are built by editing a fresh match's state (lands are ``[mana, creature, atk_bonus]``,
mana entries ``[card_id, conversions]``); every move then goes through the contract.
"""
from __future__ import annotations

import contextlib
import io

import pytest

from rules import IllegalCommand, registry

game = registry.get("avalon")


# The positions below use the cards as first printed: rules edition 2.  Editions 3 and 4 play the same
# rules with changed card numbers and decks (docs/rules/avalon.md, "Balance (rules edition 3/4)";
# tests/test_avalon_balance.py), so every ruling tested here holds in them too.
PRINTED = 2


def fresh(n: int = 2, leader: int = 0, seed: int = 1, mode: str = "normal"):
    return game.new_match(players=n, seed=seed, options={"leader": leader, "mode": mode},
                          edition=PRINTED)


def land(*mana: str, creature: str | None = None) -> list:
    return [[[m, ""] for m in mana], creature, 0]


def keys(s) -> list[str]:
    return [e["key"] for e in s.events]


def pass_declarations(s):
    while s.step == "declare":
        s = game.apply(s, game.to_act(s)[0], "pass")
    return s


def chaser_set_phases(s):
    while s.step == "set" and s.kind == "chaser":
        s = game.apply(s, game.to_act(s)[0], "done")
    return s


def battle(inv, dfn, sup_i="avatar", sup_d="avatar"):
    """Leader (seat 0, the invader) fights seat 1's creature in a ranged battle."""
    s = fresh()
    s.players[0].lands[0] = [[["c02", ""]], inv, 0]
    s.players[1].lands[0] = [[["c02", ""]], dfn, 0]
    s.players[0].hand = [] if sup_i == "avatar" else [sup_i]
    s.players[1].hand = [] if sup_d == "avatar" else [sup_d]
    s = game.apply(game.apply(s, 0, "done"), 0, "ranged l1 p2l1")
    s = game.apply(s, 0, f"support {sup_i}")
    s = game.apply(s, 1, f"support {sup_d}")
    return s, s.last_battle


# --------------------------------------------------------------------------- 戦闘開始時

def test_battle_start_ability_resolves_before_the_supports_are_chosen():
    """「戦闘開始時・・・メインフェイズで発生する戦闘に入る前に発動。」 Drumfire Vanguard (c44): before
    a battle it fights, draw 1 — the card drawn may be chosen as the battle support."""
    s = fresh()
    s.players[0].lands[0] = land("c09", creature="c44")
    s.players[1].lands[0] = land("c02", creature="c44")
    s.players[0].hand = []
    s.players[0].memory[-1] = "s06"                # Battle Hymn on top of the invader's memory
    s.players[1].hand = []
    s = game.apply(game.apply(s, 0, "done"), 0, "ranged l1 p2l1")
    assert s.step == "support" and sorted(game.to_act(s)) == [0, 1]
    assert s.players[0].hand == ["s06"] and len(s.players[1].hand) == 1
    starts = [e["params"]["player"] for e in s.events if e["key"] == "avalon.ev.ab_battle_start"]
    assert starts == ["p1", "p2"]                  # invader's creature first
    assert "support s06" in game.legal_commands(s, 0)
    s = game.apply(s, 0, "support s06")
    s = game.apply(s, 1, "support avatar")
    assert s.last_battle["atk"][0] == 2 + 2


def test_battle_start_ability_also_for_chaser_declared_battles_and_not_for_a_skipped_one():
    """「戦闘開始時・・・メインフェイズで発生する戦闘に入る前に発動。」 — a declared battle that is not
    fought (Ruling: its target is gone) never starts, so nothing triggers."""
    s = fresh(3)
    s.players[0].lands[0] = land("c02", creature="c02")
    s.players[1].lands[0] = land("c09", "c09", creature="c14")   # 6/5 first strike
    s.players[2].lands[0] = land("c09", creature="c44")
    s = game.apply(game.apply(s, 0, "done"), 0, "pass")
    s = chaser_set_phases(s)
    s = game.apply(s, 1, "ranged l1 p1l1")          # higher originality sum declares first
    s = game.apply(s, 2, "ranged l1 p1l1")
    s = game.apply(game.apply(s, 1, "support avatar"), 0, "support avatar")
    assert s.last_battle["destroyed"] == [False, True]
    assert "avalon.ev.battle_skipped" in keys(s)
    assert "avalon.ev.ab_battle_start" not in keys(s)


# --------------------------------------------------------------------------- magic

def test_a_magic_card_reaches_the_discard_pile_only_after_its_effect():
    """「効果が解決され次第捨て山に送ります」 — Quiet Grave (m08, shuffle your discard pile into your
    memory) is not shuffled into the memory by its own effect."""
    s = fresh()
    p = s.players[0]
    p.hand = ["m08"]
    p.discard = ["c01", "c02"]
    mem = len(p.memory)
    s = game.apply(s, 0, "magic m08")
    p = s.players[0]
    assert p.discard == ["m08"] and len(p.memory) == mem + 2 and "m08" not in p.memory


def test_magic_is_used_only_in_the_own_set_phase():
    """「魔法カードは、制限のあるカード以外は自分のセットフェイスの間なら、いつ使っても何枚使っても
    かまいません」"""
    s = fresh()
    s.players[0].hand = ["m01", "m01"]
    s = game.apply(s, 0, "magic m01")
    s = game.apply(s, 0, "magic m01")              # any number
    s = game.apply(s, 0, "done")
    s.players[0].hand.append("m01")
    with pytest.raises(IllegalCommand) as err:
        game.apply(s, 0, "magic m01")
    assert err.value.key == "avalon.err.step_main"
    s.players[1].hand.append("m01")
    with pytest.raises(IllegalCommand) as err:      # not in another player's set phase
        game.apply(s, 1, "magic m01")
    assert err.value.key == "avalon.err.not_your_turn"


# --------------------------------------------------------------------------- rainbow vessel

def test_a_vessel_of_two_turns_any_two_icons_of_the_card_below_rainbow():
    """「虹の器:直前に素成した魔素のどれかを虹の器の魔素の数だけ、虹属性に変換する」;「どれを虹属性
    として扱うかは素成したプレイヤーが決めてください」 — Vessel Keeper (c33, 2 vessel icons) on
    Reefcrown Regent (c18: 3 blue, 1 yellow) converts two icons of the player's choice, mixed too."""
    s = fresh()
    s.players[0].hand = ["c33"]
    s.players[0].lands[0] = land("c18")
    legal = [c for c in game.legal_commands(s, 0) if c.startswith("forge c33 l1")]
    assert legal == ["forge c33 l1 yb", "forge c33 l1 bb"]
    s2 = game.apply(s, 0, "forge c33 l1 yb")
    v = game.view(s2, None)["players"][0]["lands"][0]
    assert v["icons"] == {"b": 2, "w": 2, "v": 2} and v["mana_count"] == 4
    s3 = game.apply(s, 0, "forge c33 l1 b")         # short form: as many blue as the vessel allows
    assert game.view(s3, None)["players"][0]["lands"][0]["icons"] == {"y": 1, "b": 1, "w": 2, "v": 2}
    assert game.canonical(s, 0, "forge c33 l1 b") == "forge c33 l1 bb"
    with pytest.raises(IllegalCommand) as err:
        game.apply(s, 0, "forge c33 l1 gg")
    assert err.value.key == "avalon.err.vessel"


def test_a_vessel_converts_at_most_the_icons_below():
    """「虹の器の魔素の数だけ」 — with fewer icons below than the vessel holds, all of them turn."""
    s = fresh()
    s.players[0].hand = ["c33"]
    s.players[0].lands[0] = land("c01")            # 1 yellow
    assert [c for c in game.legal_commands(s, 0) if c.startswith("forge c33 l1")] == ["forge c33 l1 y"]
    s = game.apply(s, 0, "forge c33 l1 y")
    assert game.view(s, None)["players"][0]["lands"][0]["icons"] == {"w": 1, "v": 2}


# --------------------------------------------------------------------------- turn flow

def test_draw_phase_fills_the_hand_up_to_six_and_never_discards():
    """「ドローフェイズ メモリーから手札が6枚になるようにカードを引く」"""
    s = fresh(3)
    s.players[0].hand = s.players[0].hand[:2]
    s.players[1].hand = s.players[1].hand[:1]
    s.players[2].hand = s.players[2].hand + ["m01", "m01"]   # 8 cards: no draw, no discard
    s = game.apply(game.apply(s, 0, "done"), 0, "pass")
    assert len(s.players[1].hand) == 6 and len(s.players[2].hand) == 8
    s = chaser_set_phases(s)
    s = pass_declarations(s)
    assert s.leader == 0 and s.kind == "leader" and len(s.players[0].hand) == 6


def test_the_first_leader_is_drawn_at_random_from_the_seed():
    """「選び終わったらじゃんけんをして、勝った人が「リーダー」となり」 — without the option `leader`
    the seed decides; the same seed always gives the same leader."""
    leaders = {game.new_match(players=4, seed=seed, options={}).leader for seed in range(40)}
    assert leaders == {0, 1, 2, 3}
    assert (game.new_match(players=3, seed=9, options={}).leader
            == game.new_match(players=3, seed=9, options={}).leader)


def test_end_phase_checks_the_sanctuary_before_the_lifespan():
    """「エンドフェイズ ・聖地の確認 ・クリーチャーの寿命処理および魔素の整理 ・ライフの増減 ※上から順に
    すべて実行する」 — the chaser's 12 mana (4 of them loose) are counted before the lifespan throws
    the loose mana away, so it becomes the leader."""
    s = fresh()
    s.players[1].lands[0] = [[["c07", ""], ["c07", ""]], "c02", 0]   # 8 mana under a creature
    s.players[1].lands[1] = land("c07")                                # 4 loose mana
    s = game.apply(game.apply(s, 0, "done"), 0, "pass")
    s = game.apply(game.apply(s, 1, "done"), 1, "pass")
    assert s.leader == 1 and "avalon.ev.leader_change_mana" in keys(s)
    assert s.players[1].lands[1][0] == [] and len(s.players[1].lands[0][0]) == 1


# --------------------------------------------------------------------------- battles

def test_one_battle_support_per_battler_and_then_no_more_choices():
    """「使用できる戦闘支援カードは原則1枚だけです」"""
    s = fresh()
    s.players[0].lands[0] = land("c02", creature="c02")
    s.players[1].lands[0] = land("c02", creature="c02")
    s.players[0].hand = ["s06", "s07"]
    s = game.apply(game.apply(s, 0, "done"), 0, "ranged l1 p2l1")
    s = game.apply(s, 0, "support s06")
    assert game.to_act(s) == [1] and game.legal_commands(s, 0) == []
    with pytest.raises(IllegalCommand):
        game.apply(s, 0, "support s07")


def test_both_creatures_surviving_changes_no_life():
    """「※お互いのクリーチャーが生き残った場合、ライフの増減はありません」"""
    s0 = fresh()
    lives = [len(p.life) for p in s0.players]
    s, b = battle("c02", "c16")                    # the scout evades, 1 attack vs 2 durability
    assert b["destroyed"] == [False, False]
    # the leader's only change is its own end phase (−1); the chaser's life is untouched
    assert [len(p.life) for p in s.players] == [lives[0] - 1, lives[1]]


def test_damage_from_several_sources_adds_up_during_a_battle():
    """「戦闘中にクリーチャーが受けるダメージは、反射能力などにより複数回ダメージが発生した場合、
    合計した値でダメージを計算します」 — Bramble Guard (2/4) strikes a reflecting Halo Warden: 2
    reflected, then 3 from the Warden's own strike: 5 ≥ 4."""
    _, b = battle("c24", "c05")
    assert b["strikes"] == [[0, "reflect", 2], [1, "hit", 3]]
    assert b["damage"] == [5, 0] and b["destroyed"] == [True, False]


def test_reflect_damage_is_never_evaded_countered_or_reflected():
    """「反射ダメージは「避け」「反射」「反撃」されず、即死効果は発動しません」 — the counter creature
    takes the reflected 2 without countering; an evading creature cannot evade its reflection."""
    _, b = battle("c24", "c05")
    assert "counter" not in [x[1] for x in b["strikes"]]
    _, b = battle("c16", "c05")                    # Mistveil Scout (evade, 1/1) strikes the Warden
    assert b["strikes"][0] == [0, "reflect", 1] and b["destroyed"] == [True, False]


def test_counter_damage_is_never_evaded_and_never_instant_death():
    """「反撃ダメージは「避け」「反撃」「反射」されず、即死効果は発動しません」"""
    _, b = battle("c16", "c24")                    # evading scout hits Bramble Guard, is countered
    assert b["strikes"] == [[0, "hit", 1], [1, "counter", 1]] and b["destroyed"] == [True, False]
    # Bramble Guard given instant death (Deathmark Dagger): its counter is plain damage, its
    # normal strike is instant death
    _, b = battle("c26", "c24", sup_d="s10")       # Elderbark Keeper 2/6
    assert b["strikes"] == [[0, "hit", 2], [1, "counter", 2], [1, "death", 2]]
    assert b["damage"][0] == 4 and b["destroyed"] == [True, False]


def test_at_step_8_the_printed_tie_order_decides_between_instant_death_and_reflect():
    """Project ruling (docs/rules/avalon.md): "The printed tie order (invader's support, defender's support, invader's ability,
    defender's ability) decides between effects at the same step of the ability order, at every
    step including 8: an invader's instant death resolves before a defender's reflect."
    (8. 避け/反射/即死; ※同じ処理順番の場合は…侵略側の戦闘支援カード効果→防衛側の戦闘支援カードの効果→
    侵略側のクリーチャーの持つ能力→防衛側のクリーチャーの持つ能力)"""
    _, b = battle("c12", "c05")                    # Pyre Executioner 2/3 death vs Halo Warden reflect
    assert b["strikes"][0] == [0, "death", 2]      # the invader's instant death first: destroyed
    assert b["destroyed"] == [False, True] and len(b["strikes"]) == 1   # it strikes no more
    # the defender's instant death comes after the invader's reflect: reflected
    _, b = battle("c19", "c12")                    # Mirror Reef Oracle 2/3 reflect vs Pyre Executioner
    assert b["strikes"] == [[0, "hit", 2], [1, "reflect", 2]]
    assert b["destroyed"] == [False, True]         # 2 + 2 reflected >= 3; the Oracle takes nothing
    # a defender's support comes before the invader's creature: Backlash Sigil (reflect) wins
    _, b = battle("c12", "c32", sup_d="s08")       # vs Empty Helm Sentinel 2/3
    assert b["strikes"][0] == [0, "reflect", 2] and b["destroyed"][1] is False


def test_a_lasting_attack_bonus_is_an_attack_change_of_order_4():
    """Ruling (docs/rules/avalon.md): a lasting attack bonus on a land (Empower-like magic, 「攻撃値+1」
    abilities) is "4. 各カードによる攻撃値・耐久値変化": it counts after 1. Weapon Replace, not before."""
    s = fresh()
    s.players[0].lands[0] = [[["c02", ""]], "c12", 2]     # Pyre Executioner 2 (+2 lasting)
    s.players[1].lands[0] = [[["c02", ""]], "c05", 0]     # Halo Warden 3
    s.players[0].hand, s.players[1].hand = ["s01"], []
    s = game.apply(game.apply(s, 0, "done"), 0, "ranged l1 p2l1")
    s = game.apply(game.apply(s, 0, "support s01"), 1, "support avatar")
    assert s.last_battle["atk"] == [3 + 2, 2]             # exchanged 2 <-> 3, then +2
    assert [a[1:] for a in s.last_battle["abilities"]] == [[0, "weapon_replace"], [0, "bonus"]]


def test_a_match_started_before_the_rulings_keeps_edition_1():
    """A ruling never changes a match under way: a match stored before these rulings (rules
    edition 1) replays as it was played — reflect beat instant death, and a lasting bonus counted
    before Weapon Replace."""
    assert game.editions == (1, 2, 3, 4, 5) and fresh().edition == PRINTED == 2
    assert game.new_match(players=2, seed=1).edition == 5
    s = fresh()
    s.edition = 1
    s.players[0].lands[0] = [[["c02", ""]], "c12", 2]
    s.players[1].lands[0] = [[["c02", ""]], "c05", 0]
    s.players[0].hand, s.players[1].hand = ["s01"], []
    s = game.apply(game.apply(s, 0, "done"), 0, "ranged l1 p2l1")
    s = game.apply(game.apply(s, 0, "support s01"), 1, "support avatar")
    assert s.last_battle["atk"] == [3, 4]                 # 2 + 2 = 4 <-> 3
    assert s.last_battle["strikes"][0] == [0, "reflect", 3] and s.edition == 1
    assert game.load(game.dump(s)).edition == 1
    with pytest.raises(ValueError):
        game.new_match(players=2, seed=1, edition=0)


# --------------------------------------------------------------------------- leader out

def test_a_leader_out_in_its_own_turn_ends_it_and_the_chaser_turn_follows():
    """「ライフが0になってしまった時点で、敗北」;「ターンはリーダーターン→チェイサーターンの順」 —
    Ruling: the rest of the leader turn is skipped, the chaser turn follows as printed (nobody to
    battle), and its sanctuary check (「配置クリーチャーがない」) chooses the next leader; with nobody at
    the target mana, the next player in play clockwise leads."""
    s = fresh(3)
    s.players[0].life = s.players[0].life[:1]
    lives = [len(p.life) for p in s.players]
    s = game.apply(game.apply(s, 0, "done"), 0, "pass")
    assert s.players[0].status == "out" and s.kind == "chaser" and game.outcome(s) is None
    s = chaser_set_phases(s)
    assert s.step == "declare" and game.legal_commands(s, game.to_act(s)[0]) == ["pass"]
    s = pass_declarations(s)
    assert s.leader == 1 and s.kind == "leader"
    assert [len(p.life) for p in s.players[1:]] == [lives[1] - 1, lives[2] - 1]   # their end phase ran
    assert "avalon.ev.leader_out" in keys(s)


def test_a_leader_out_in_its_own_turn_the_chaser_with_target_mana_leads():
    """「●配置クリーチャーがない ・・・目標魔力を達成し、かつ土地の魔素が最も多いチェイサーにリーダー
    の権利が移動」 — also when the old leader is out."""
    s = fresh(3)
    s.players[0].life = s.players[0].life[:1]
    s.players[2].lands[0] = [[["c07", ""]] * 3, "c02", 0]
    s = game.apply(game.apply(s, 0, "done"), 0, "pass")
    s = pass_declarations(chaser_set_phases(s))
    assert s.leader == 2 and "avalon.ev.leader_change_mana" in keys(s)


def test_a_leader_out_during_the_chaser_turn_the_chasers_finish_their_turn():
    """「各チェイサーは ... 順次、戦闘処理を行います」;「エンドフェイズ ・聖地の確認 ・クリーチャーの寿命
    処理 ・ライフの増減」 — Ruling: the leader goes out in a battle; the remaining battles against it
    are not fought, the chasers' end phase runs (lifespan, life) and the sanctuary check chooses the
    next leader."""
    s = fresh(3)
    s.players[0].lands[0] = land("c02", creature="c02")
    s.players[0].lands[1] = land("c02", creature="c02")
    s.players[1].lands[0] = land("c09", "c09", creature="c14")   # ★5: declares first
    s.players[2].lands[0] = land("c09", "c08", creature="c09")
    s = game.apply(game.apply(s, 0, "done"), 0, "pass")
    s.players[0].life = s.players[0].life[:1]
    lives = [len(p.life) for p in s.players]
    s = chaser_set_phases(s)
    s = game.apply(s, 1, "ranged l1 p1l1")
    s = game.apply(s, 2, "ranged l1 p1l2")
    s = game.apply(game.apply(s, 1, "support avatar"), 0, "support avatar")
    assert s.players[0].status == "out"
    assert "avalon.ev.battle_skipped" in keys(s)   # seat 2's battle: nobody to fight
    assert s.kind == "leader" and s.leader == 1     # nobody at the target mana: next clockwise
    assert len(s.players[1].life) == lives[1] + 1 - 1          # +1 for the kill, −1 end phase
    assert len(s.players[2].life) == lives[2] - 1
    assert len(s.players[2].lands[0][0]) == 1                  # its lifespan ran


def test_a_new_leader_out_in_the_same_end_phase_passes_the_lead_clockwise():
    """「聖地の確認」 comes before 「ライフの増減」: the chaser who takes the lead by mana may lose its
    last life in the same end phase. Ruling: then the next player in play clockwise leads."""
    s = fresh(3)
    s.players[1].lands[0] = [[["c07", ""]] * 3, "c02", 0]
    s.players[1].life = s.players[1].life[:1]
    s = game.apply(game.apply(s, 0, "done"), 0, "pass")
    s = pass_declarations(chaser_set_phases(s))
    assert s.players[1].status == "out" and s.leader == 2 and s.kind == "leader"


# --------------------------------------------------------------------------- late join

def test_a_joiner_of_a_leader_turn_that_ends_by_elimination_plays_the_chaser_turn():
    """「途中参加する場合は、チェイサーとしてリーダーターンが終了し次第プレイしてください」 — also when
    the leader turn ended because the leader went out; the joiner does not lead at once."""
    s = fresh(3)
    s = game.join(s, 3)
    s.players[0].life = s.players[0].life[:1]
    s = game.apply(game.apply(s, 0, "done"), 0, "pass")
    assert s.players[3].status == "play" and s.kind == "chaser" and 3 in s.queue
    s = pass_declarations(chaser_set_phases(s))
    assert s.leader == 1


def test_a_waiting_joiner_is_not_yet_in_play_for_magic():
    """Ruling: a player who joined is set up at once but plays only from the next chaser turn
    (「リーダーターンが終了し次第プレイ」), so Scatterwind (every other player discards) skips them."""
    s = fresh(2)
    s = game.join(s, 2)
    hand = list(s.players[2].hand)
    s.players[0].hand = ["m05"]
    s = game.apply(s, 0, "magic m05")
    assert s.players[2].hand == hand and len(s.players[1].hand) == 5


# --------------------------------------------------------------------------- view: turn number

def test_the_view_counts_turns_leader_then_chaser():
    """「ターンはリーダーターン→チェイサーターンの順に進めていきます」 — the view's ``turn`` counts
    both kinds (round 1: turns 1 and 2), and ``python -m render`` prints it."""
    s = fresh()
    assert (game.view(s, None)["round"], game.view(s, None)["turn"]) == (1, 1)
    s = game.apply(game.apply(s, 0, "done"), 0, "pass")
    assert game.view(s, None)["turn"] == 2
    s = game.apply(game.apply(s, 1, "done"), 1, "pass")
    assert (game.view(s, None)["round"], game.view(s, None)["turn"]) == (2, 3)


def test_render_cli_prints_the_turn(tmp_path):
    from render.__main__ import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["--game", "avalon", "--moves", "12", "--out", str(tmp_path / "a.png")]) == 0
    # the line names what the picture shows: the position after the random moves played (the
    # picture itself reads the game's own round), never an unknown "turn ?"
    assert "turn ?" not in out.getvalue() and "after 12 random moves" in out.getvalue()
