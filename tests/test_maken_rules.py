"""Project Maken rules: every footnote of the attack phase (seed ``project-maken-attack-phase.txt``),
the five judge outcomes with their formulas, figure 3, the turn and the project rulings (docs/rules/maken.md).

Each test quotes the clause it checks.  Positions are built with ``game.position`` (see
``rules/maken/engine.py``); card ids are from ``data/cards/maken`` (ts = Tsubaki, gu = Gou).
"""
from __future__ import annotations

import json

import pytest

from rules import IllegalCommand, registry

# the rulebook's clauses, checked with the numbers of rules edition 1 (the cards of
# data/cards/maken/0*.json as printed); edition 2's changes: tests/test_maken_balance.py
game = registry.get("maken").for_edition(1)
FILL = ["gu01"] * 12           # neutral stamina filler (top first)


def pos(**kw):
    kw.setdefault("stamina0", list(FILL))
    kw.setdefault("stamina1", list(FILL))
    kw.setdefault("lp0", ["ts01"] * 3)
    kw.setdefault("lp1", ["gu01"] * 3)
    return game.position(**kw)


def legal(state, seat=None):
    seat = game.to_act(state)[0] if seat is None else seat
    return game.legal_commands(state, seat)


def act(state, *commands):
    for c in commands:
        state = game.apply(state, game.to_act(state)[0], c)
    return state


def illegal(state, command, key=None):
    before = game.dump(state)
    with pytest.raises(IllegalCommand) as err:
        game.apply(state, game.to_act(state)[0], command)
    assert game.dump(state) == before
    if key:
        assert err.value.key == key, err.value.reason
    return err.value


def judge(state):
    return state.d["judge"]


# --------------------------------------------------------------------------- A. first bet
def test_fb_reach_zero_only_against_a_defenceless_opponent():
    """A: 「相手が「無防備」でない限り、「間合」又は「先間合」が0のカードはベットできません」;
    ruling: 無防備 = no cards in hand."""
    s = pos(step="before", hand0=["ts10", "ts01"], hand1=["gu01"])
    assert "fb ts10" not in legal(s) and "fb ts01" in legal(s)
    illegal(s, "fb ts10", "maken.err.fb_reach_zero")
    s = pos(step="before", hand0=["ts10"], hand1=[])
    assert "fb ts10" in legal(s)


def test_fb_makes_both_even_and_the_other_player_acts():
    """A: 「状況はTP・非TPとも【拮抗】となり、【B.アクション】に移ります」 / B: 非TPは…選択します"""
    s = act(pos(step="before", hand0=["ts01"], hand1=["gu01"]), "fb ts01")
    assert s.d["situation"] == "even" and game.to_act(s) == [1]
    assert game.view(s, None)["players"][0]["field"][0]["card"] == "ts01"


def test_no_legal_first_bet_skips_the_attack_phase():
    """Ruling: the TP must make a first bet if any attack card is legal, otherwise the attack
    phase is skipped."""
    s = pos(step="before", hand0=["ts12", "ts10"], hand1=["gu01"])
    assert legal(s) == ["set ts12", "skip"]
    s2 = pos(step="before", hand0=["ts01"], hand1=["gu01"])
    illegal(s2, "skip", "maken.err.must_fb")
    s = act(s, "skip")
    assert s.d["tp"] == 1 and s.d["step"] == "draw"


# --------------------------------------------------------------------------- B.1 attack
def test_attack_needs_speed_reach_and_gauge():
    """B.1: 「「ゲージ消費」の数値にゲージ札の枚数が足りない」「「速度」が低い」
    「「間合」(「先間合」)がそれ未満」のカードはベットできません"""
    s = pos(field0=["ts04"], hand1=["gu03", "gu05", "gu07", "gu01"])
    # ts04: speed 3, reach front 3 / back 1
    illegal(s, "attack gu03", "maken.err.too_slow")           # speed 1 < 3
    illegal(s, "attack gu07", "maken.err.gauge_short")        # cost 3, no gauge
    assert "attack gu05" in legal(s)                          # speed 3, front 1 >= back 1
    s = pos(field0=["gu04"], hand1=["ts02", "ts03"])          # gu04: speed 2, back reach 2
    illegal(s, "attack ts02", "maken.err.too_short")          # front 1 < back 2
    assert "attack ts03" in legal(s)


def test_front_and_back_reach_are_used_on_their_sides():
    """B.1: 相手の一番上のカードの「間合」(「後間合」)と比べ、「間合」(「先間合」)がそれ未満 — the
    opponent's BACK reach against my FRONT reach."""
    s = pos(field0=["gu05"], hand1=["ts04", "ts05"])          # gu05: front 1, back 3
    assert "attack ts04" in legal(s)                          # ts04 front 3 >= 3
    illegal(s, "attack ts05", "maken.err.too_short")          # ts05 front 2 < 3


def test_the_attacker_of_a_guard_ignores_speed_and_reach():
    """B.1 ◎: 「ガードさせている」状態なら、「速度」と「間合」に関係なく、好きなカードをベットできます"""
    s = pos(actor=0, situation="guard", guarder=1, field0=["ts01"], guard1=["gu01"], gtype1="stand",
            hand0=["ts03", "ts07"], gauge0=[])
    assert "attack ts03" in legal(s)                          # speed 3 < ts01's own... no check
    assert "attack ts07" not in legal(s)                      # the gauge cost still applies


def test_bets_stack_on_top_and_the_situation_does_not_change():
    """B.1: 既にベットしたカードがある場合は、必ずその上に重ねてベット…状況は変化せず"""
    s = pos(field0=["ts04"], field1=["gu01"], actor=0, hand0=["ts05"])
    s = act(s, "attack ts05")
    assert [e[0] for e in s.d["field"][0]] == ["ts04", "ts05"]
    assert s.d["situation"] == "even" and game.to_act(s) == [1]


def test_gc_only_cards_are_never_bet_face_up():
    """Ruling: a 【GC専用】 card is only ever opened for a GC."""
    s = pos(field0=["ts04"], hand1=["gu08"])
    illegal(s, "attack gu08", "maken.err.gc_only")


# --------------------------------------------------------------------------- footnotes 1–4: gauge
def test_footnote_1_gauge_cap_ignores_the_rest_of_a_gain():
    """注1: ゲージ札は10枚が上限です。既に10枚あるか10枚に達した場合は「ゲージ増加」の効果を無視します。"""
    s = pos(step="before", hand0=["gu10"], hand1=[], gauge0=["gu01"] * 9, chars=("gou", "tsubaki"))
    s = act(s, "fb gu10")                                      # gain 2: only 1 fits
    assert len(s.d["gauge"][0]) == 10
    assert len(s.d["stamina"][0]) == len(FILL) - 1 - 1         # 1 to the gauge, 1 drawn (text)


def test_footnote_2_gauge_gain_resolves_before_the_text():
    """注2: カードのテキストに記載されている効果よりも先に「ゲージ増加」の効果を解決します。
    ts10: gauge gain 1; on bet: draw 1 if you have 3+ gauge."""
    s = pos(step="before", hand0=["ts10"], hand1=[], gauge0=["ts01"] * 2)
    s = act(s, "fb ts10")
    assert len(s.d["gauge"][0]) == 3 and len(s.d["hand"][0]) == 1


def test_footnote_3_gauge_gain_moves_stamina_cards_to_the_gauge():
    """注3: カードをゲージ札に移動することを【ゲージ行き】 — 「ゲージ増加」のカードは…スタミナ札をゲージ札に移動"""
    s = pos(step="before", hand0=["ts01"], hand1=["gu01"], stamina0=["ts09", "ts02"])
    s = act(s, "fb ts01")
    assert s.d["gauge"][0] == ["ts09"] and s.d["stamina"][0] == ["ts02"]


def test_footnote_4_bet_order_cost_then_card_then_gain_then_text():
    """注4: ベットの際の処理には順序が定められています — engine ruling: pay the cost, place the
    card, gauge gain, then text.  ts11: cost 2, gain 1; at 10 gauge the gain still counts after
    the cost was paid."""
    s = pos(step="before", hand0=["ts11"], hand1=["gu01"], gauge0=["ts01"] * 10)
    s = act(s, "fb ts11")
    assert len(s.d["gauge"][0]) == 9                           # 10 - 2 + 1
    assert s.d["dust"][0] == ["ts01", "ts01"]                  # paid gauge cards went to the dust


# --------------------------------------------------------------------------- B.2 guard, figure 3
@pytest.mark.parametrize("unguardable,types", [
    ([], ["stand", "crouch"]), (["stand"], ["crouch"]), (["crouch"], ["stand"]),
    (["stand", "crouch"], []), (["air"], ["stand", "crouch"]),
])
def test_figure_3_right_after_the_fb(unguardable, types):
    """B.2: 相手のFBの直後にガードした場合は「立ちガード」か「屈みガード」を選ぶ; 注6/図3: 相手のFB直後で
    「立ちガード不可」と「屈みガード不可」を併せ持つカードはガードできません."""
    top = {(): "ts01", ("stand",): "ts02", ("crouch",): "ts03", ("stand", "crouch"): "ts07",
           ("air",): "ts06"}[tuple(unguardable)]
    s = pos(field0=[top], hand1=["gu01"] * 3, after_fb=True)
    got = sorted({c.split()[1] for c in legal(s) if c.startswith("guard")})
    assert got == sorted(types)


@pytest.mark.parametrize("mine,top,ok", [
    ("gu01", "ts02", False), ("gu01", "ts03", True), ("gu01", "ts06", True),   # stand posture
    ("gu02", "ts02", True), ("gu02", "ts03", False), ("gu02", "ts06", True),   # crouch posture
    ("gu06", "ts02", True), ("gu06", "ts03", True), ("gu06", "ts06", False),   # air posture
    ("gu01", "ts07", False), ("gu02", "ts07", False), ("gu06", "ts07", True),
])
def test_figure_3_later_guards_follow_your_top_cards_posture(mine, top, ok):
    """B.2: それ以外の場合はあなたの「ダスト札」の一番上のカードの姿勢に対応したガード方法; 注6: あなたの
    「アタックフィールド」の一番上のカードの姿勢に対応した「ガード不可」の効果を持つカードはガードできません."""
    s = pos(field0=["ts01", top], field1=[mine], hand1=["gu01"] * 3)
    posture = game.decks.cards()[mine]["posture"]
    guards = {c.split()[1] for c in legal(s) if c.startswith("guard")}
    assert guards == ({posture} if ok else set())


def test_footnote_5_guard_sends_the_field_to_the_dust_in_bet_order_and_needs_enough_cards():
    """注5: ダスト送りにする時は必ずベットした順番通りに…手札の枚数が相手の「ガード難易度」に満たない場合はガードできません。"""
    s = pos(field0=["ts01", "ts03"], field1=["gu04", "gu01"], hand1=["gu02", "gu05"])
    # ts03: guard difficulty 2; gu01 stand posture, ts03 is crouch-unguardable -> standing guard ok
    s2 = act(s, "guard stand gu02 gu05")
    assert s2.d["dust"][1] == ["gu04", "gu01"] and s2.d["field"][1] == []
    assert s2.d["guard"][1][-1] == "gu02" and s2.d["situation"] == "guard" and s2.d["guarder"] == 1
    short = pos(field0=["ts01", "ts03"], field1=["gu01"], hand1=["gu02"])
    assert not any(c.startswith("guard") for c in legal(short))
    illegal(short, "guard stand gu02", "maken.err.hand_short")


def test_footnote_6_and_7_judged_before_the_cards_go_to_the_dust():
    """注7: ガードできるかできないかは、カードをダスト送りにする前に判断します…実際にガードする時は
    このカードが…「ダスト札」の一番上のカードになります。"""
    s = pos(field0=["ts01", "ts06"], field1=["gu04", "gu06"], hand1=["gu01", "gu01"], dust1=["gu02"])
    assert not any(c.startswith("guard") for c in legal(s))         # air top vs air-unguardable
    s = pos(field0=["ts01", "ts03"], field1=["gu02", "gu06"], hand1=["gu01", "gu01"], dust1=["gu02"])
    assert "guard air gu01 gu01" in legal(s)                        # air guard from gu06's posture
    s = act(s, "guard air gu01 gu01")
    assert s.d["dust"][1][-1] == "gu06" and s.d["gtype"][1] == "air"
    illegal(pos(field0=["ts01", "ts03"], field1=["gu02", "gu06"], hand1=["gu01", "gu01"]),
            "guard stand gu01 gu01", "maken.err.guard_type")


# --------------------------------------------------------------------------- B.3 keep, flush
def guarding(**kw):
    base = dict(actor=1, situation="guard", guarder=1, field0=["ts01"], guard1=["gu01"], gtype1="stand")
    base.update(kw)
    return pos(**base)


def test_keep_adds_cards_up_to_the_new_guard_difficulty():
    """B.3: ガードに使用しているカードの枚数が…「ガード難易度」よりも少ない場合は、同じ枚数になるように
    重ねてカードを裏返しにベットします。"""
    s = guarding(field0=["ts01", "ts05"], hand1=["gu02", "gu05"])      # ts05 difficulty 2
    assert {c for c in legal(s) if c.startswith("keep")} == {"keep gu02", "keep gu05"}
    s = act(s, "keep gu05")
    assert s.d["guard"][1] == ["gu01", "gu05"] and game.to_act(s) == [0]
    s = guarding(field0=["ts01", "ts04"], hand1=["gu02"])              # difficulty 1: nothing to add
    assert "keep" in legal(s)


def test_footnote_8_flushing_keeps_the_guarding_situation():
    """注8: 【ガード流し】や…アタックフィールドにカードが無くなっても、「ガードしている」状況は変化しません。
    Ruling: the guard spaces are part of your attack field, so the face-down cards are flushed too."""
    s = guarding(field0=["ts01", "ts02"], guard1=["gu05"], hand1=["gu03"])   # ts02: no standing guard
    s = act(s, "keep crouch gu03")
    assert s.d["dust"][1] == ["gu05"] and s.d["guard"][1] == ["gu03"] and s.d["gtype"][1] == "crouch"
    assert s.d["situation"] == "guard" and s.d["guarder"] == 1


def test_footnote_9_after_a_flush_only_the_other_guard_or_a_guard_break():
    """注9: 「立ちガード」している時にガード流しされた後は必然的に「屈みガード」しかできず、「立ちガード不可」で
    「屈みガード不可」のカードでガード流しされた後は必ず「GB成立」となります。"""
    s = guarding(field0=["ts01", "ts02"], hand1=["gu03", "gu01"])
    keeps = {c.split()[1] for c in legal(s) if c.startswith("keep")}
    assert keeps == {"crouch"}
    illegal(s, "keep stand gu03", "maken.err.guard_type")
    illegal(s, "keep gu03", "maken.err.keep_type")
    s = guarding(field0=["ts01", "ts07"], hand1=["gu03", "gu01", "gu01"])
    assert legal(s) == ["break"]
    s = act(s, "break")
    assert judge(s)["kind"] == "guard_break" and judge(s)["winner"] == 0


def test_an_air_guard_flushed_may_re_guard_standing_or_crouching():
    """B.3: 「ガード流し」された場合は、改めて「立ちガード」か「屈みガード」のどちらかを選ぶことが出来ます."""
    s = guarding(field0=["ts01", "ts06"], gtype1="air", hand1=["gu03", "gu01"])   # ts06: no air guard
    assert {c.split()[1] for c in legal(s) if c.startswith("keep")} == {"stand", "crouch"}


def test_double_attack_bonus_speed_counts_against_the_next_bet():
    """Ruling (engine): the +1 speed of a double attack's top card counts for the next bet's check."""
    s = pos(field0=[["ts05", [], 1], ["ts05", ["spd"], 0]], hand1=["gu06"], chars=("tsubaki", "gou"))
    illegal(s, "attack gu06", "maken.err.too_slow")          # speed 4 < 4 + 1


def test_guard_flushing_then_re_guarding_then_guard_holds():
    """B.3 flow: flush (ガード流し), re-guard crouching, the attacker calls: ガード成立."""
    s = guarding(field0=["ts01"], hand0=["ts02"], actor=0, hand1=["gu03", "gu05"])
    s = act(s, "attack ts02", "keep crouch gu05", "call")
    assert judge(s)["kind"] == "guard_holds" and judge(s)["totals"] == [None, None]
    assert len(s.d["damage"][0]) == len(s.d["damage"][1]) == 0


def test_not_keeping_is_a_guard_break():
    """B.3: あなたが「ガード維持」できなかったか、しなかった場合、相手の「GB」が成立"""
    s = guarding(field0=["ts01", "ts05"], hand1=[])
    assert legal(s) == ["break"]


# --------------------------------------------------------------------------- B.4 GC
def test_footnote_10_only_the_top_guard_card_can_be_opened():
    """注10: 一番上のカード以外は「GC」に使用することが出来ません。"""
    s = guarding(guard1=["gu08", "gu01"])
    assert "gc" not in legal(s)
    illegal(s, "gc", "maken.err.cannot_gc")
    s = guarding(guard1=["gu01", "gu08"])
    assert "gc" in legal(s)


def test_gc_needs_gc_only_or_gc_able_gauge_and_reach():
    """B.4: 【GC専用】又は【GC可能】の効果がついていない／ゲージ札の枚数が足りない／間合がそれ未満のカードは
    オープンできません."""
    assert "gc" in legal(guarding(guard1=["gu09"], gauge1=["gu01"]))
    assert "gc" not in legal(guarding(guard1=["gu09"]))                       # cost 1, no gauge
    assert "gc" not in legal(guarding(field0=["gu04"], guard1=["gu09"], gauge1=["gu01"],
                                      chars=("gou", "gou")))                 # front 1 < back 2


# --------------------------------------------------------------------------- B.5 call
def test_footnote_11_call_is_always_there_when_even():
    """注11: 状況が「拮抗」の場合に攻撃することもガードすることもできなければ、コールしなければなりません。"""
    s = pos(field0=["ts07"], hand1=["gu03"])                   # cannot attack (slow), cannot guard
    assert legal(s) == ["call"]


def test_footnote_12_no_card_counts_as_speed_zero():
    """注12: アタックフィールドに1枚もカードをベットしていない時の速度は「0」として扱います。"""
    s = pos(field0=["ts04"], hand1=["gu01"], after_fb=True)
    s = act(s, "call")
    assert judge(s)["kind"] == "clean_hit" and judge(s)["winner"] == 0


def test_footnote_13_the_guarding_player_cannot_call():
    """注13: あなたがガードしている場合は、自分からコールすることはできません。"""
    s = guarding()
    assert "call" not in legal(s)
    illegal(s, "call", "maken.err.no_call_guarding")


# --------------------------------------------------------------------------- D. judge
def test_clean_hit_sums_every_card_and_applies_hit_effects():
    """D.1: 直撃時の攻撃値合計=アタックフィールドにベットしているカードの攻撃値の合計; 「ヒット時:」効果を適用"""
    s = pos(field0=["ts01", "ts05"], field1=["gu01"], actor=1, hand0=[], hand1=[])
    s = act(s, "call")                                          # speed 4 vs 3: seat 0's clean hit
    assert judge(s)["kind"] == "clean_hit" and judge(s)["totals"][0] == 1 + 2
    assert len(s.d["damage"][1]) == 3
    assert len(s.d["hand"][0]) == 1                            # ts05 on hit: draw 1


def test_clean_hit_with_an_empty_opponent_field_gives_a_bonus_bet():
    """D.1: 相手のアタックフィールドに1枚もカードが無ければ、「直撃」したプレイヤーは1回【ボーナスベット】できます。
    project ruling (docs/rules/maken.md): a bet during the judge, ignoring speed and reach."""
    s = pos(field0=["ts01"], hand0=["ts03"], hand1=["gu01"], after_fb=True)
    s = act(s, "call")
    assert game.to_act(s) == [0] and legal(s) == ["bonus ts03", "pass"]
    s = act(s, "bonus ts03")
    assert judge(s)["totals"][0] == 1 + 3 and judge(s)["bonus"] == "ts03"
    assert len(s.d["damage"][1]) == 4


def test_the_bonus_bet_question_never_reveals_the_hand():
    """Ruling (engine): the bonus-bet decision is asked whenever the winner has cards in hand,
    even when none can be bet (here only a 【GC専用】 card), so asking reveals nothing."""
    s = pos(field0=["ts01"], hand0=["ts08"], hand1=["gu01"], after_fb=True)
    s = act(s, "call")
    assert game.to_act(s) == [0] and legal(s) == ["pass"]
    s = pos(field0=["ts01"], hand0=[], hand1=["gu01"], after_fb=True)
    s = act(s, "call")
    assert judge(s)["kind"] == "clean_hit" and s.d["step"] != "bonus"


def test_trade_reach_correction_and_the_called_player_first():
    """D.2: 相打時「コール」したプレイヤーの攻撃値合計=(合計)−(相手の一番上のカードの間合(後間合))(注15);
    コールされたプレイヤー=合計. No hits."""
    s = pos(field0=["ts04", "ts05"], field1=["gu05", "gu06"], actor=0, hand0=[], hand1=[])
    # speeds: ts05 4 vs gu06 4 -> trade; seat 0 calls.  gu06 back reach 1.
    s = act(s, "call")
    j = judge(s)
    assert j["kind"] == "trade" and j["hits"] == []
    assert j["totals"][0] == (2 + 2) - 1 and j["totals"][1] == 2 + 3
    assert len(s.d["damage"][1]) == 3 and len(s.d["damage"][0]) == 5
    assert len(s.d["hand"][0]) == 0                            # ts05's hit effect did not apply


def test_footnote_14_attack_total_is_never_below_zero():
    """注14: 「攻撃値合計」の最低値は「0」で、0未満にはなりません。"""
    s = pos(field0=["gu10"], field1=["gu05"], actor=0, hand0=[], chars=("gou", "gou"))
    # gu10 speed 3 = gu05 speed 3: trade; caller seat 0: 1 - back reach 3 -> 0
    s = act(s, "call")
    assert judge(s)["totals"][0] == 0 and len(s.d["damage"][1]) == 0


def test_footnote_15_reach_correction_uses_the_last_bet_card():
    """注15: 一番最後にベットされたカードの間合(後間合)の分、その相手の攻撃値合計が軽減される【間合補正】"""
    s = pos(field0=["ts03"], field1=["gu04", "gu05"], actor=0, hand0=[], chars=("tsubaki", "gou"))
    s = act(s, "call")                                          # 3 vs 3; gu05 back reach 3
    assert judge(s)["totals"][0] == 3 - 3


def test_guard_holds_means_no_damage():
    """D.3: 「ガード成立」 両プレイヤーとも「攻撃値合計」は求めず"""
    s = guarding(actor=0, field0=["ts07"])
    s = act(s, "call")
    assert judge(s)["kind"] == "guard_holds" and judge(s)["totals"] == [None, None]


def test_footnote_16_guard_break_correction():
    """D.4: GB成立時の攻撃値合計=(GBを成立させたカードの攻撃値)+(それ以外にベットしているカードの枚数);
    注16: 他のカードの攻撃値は「1」【GB補正】"""
    s = guarding(field0=["ts03", "ts06", "ts05"], hand1=[])
    s = act(s, "break")
    assert judge(s)["kind"] == "guard_break" and judge(s)["totals"][0] == 2 + 2
    assert len(s.d["damage"][1]) == 4
    assert len(s.d["gauge"][0]) == 1 and len(s.d["hand"][0]) == 1     # hits: ts06 gauge, ts05 draw


def test_guard_cancel_hits_with_the_opened_card_and_a_bonus_bet():
    """D.5: GC成立時の攻撃値合計=GCを成立させたカードの攻撃値; project ruling (docs/rules/maken.md): with a guard
    cancel a bonus bet may follow, all those cards hit and the damage adds up."""
    s = guarding(field0=["ts01"], guard1=["gu01", "gu08"], hand1=["gu06"])
    s = act(s, "gc")
    assert game.to_act(s) == [1] and "bonus gu06" in legal(s)
    s = act(s, "pass")
    assert judge(s)["kind"] == "guard_cancel" and judge(s)["totals"][1] == 4
    s = guarding(field0=["ts01"], guard1=["gu01", "gu08"], hand1=["gu06"])
    s = act(s, "gc", "bonus gu06")
    assert judge(s)["totals"][1] == 4 + 3 and len(s.d["damage"][0]) == 7
    assert s.d["hand"][1] == ["gu08"]                          # gu08's icon: back to the hand


# --------------------------------------------------------------------------- E. damage, downs
def test_damage_comes_from_stamina_then_from_the_dust():
    """E: スタミナ札が一枚も無くなった場合は、足りない分をダスト札の一番上から順番に…ダメージ札へ移します。"""
    s = pos(field0=["ts03"], field1=["gu03"], actor=1, hand1=[], stamina1=["gu02"],
            dust1=["gu09", "gu05"])
    s = act(s, "call")                                         # 3 vs 1: seat 0's clean hit for 3
    assert s.d["damage"][1] == ["gu02", "gu05", "gu09"]
    assert s.d["dust"][1] == ["gu03"]                          # only gu03 from the field, afterwards


def test_down_when_nothing_is_left_ends_the_damage_resolution():
    """【ダウン】: 「ダメージ解決」中、まだ相手の「攻撃値合計」が残っているがスタミナ札とダスト札が無くなった;
    その時点で「ダメージ解決」を終了; LP札を1枚手札に引き、全てのダメージ札をスタミナ札の下に戻す."""
    s = pos(field0=["ts03"], field1=["gu03"], actor=1, hand1=[], stamina1=["gu02"], dust1=[],
            damage1=["gu01"] * 3)
    s = act(s, "call")
    assert len(s.d["lp"][1]) == 2 and "gu01" in s.d["hand"][1]
    assert s.d["damage"][1] == [] and s.d["stamina"][1] == ["gu01"] * 3 + ["gu02"]


def test_footnote_18_ten_damage_cards_is_a_down_at_once():
    """注18: ダメージ札が10枚に達したら「ダウン」処理; ダウンした場合は、まだ「攻撃値合計」が残っていても
    その時点で「ダメージ解決」を終了します。"""
    s = pos(field0=["ts03"], field1=["gu03"], actor=1, hand1=[], damage1=["gu09"] * 8)
    stamina_before = len(s.d["stamina"][1])
    s = act(s, "call")                                         # 3 damage: the 10th card downs
    assert len(s.d["lp"][1]) == 2 and s.d["damage"][1] == []
    assert len(s.d["stamina"][1]) == stamina_before - 2 + 10   # only 2 were taken


def test_footnote_17_the_called_player_resolves_first_and_the_caller_wins():
    """注17: 「相打」だった場合は、「コール」されたプレイヤーが先に「ダメージ解決」…両プレイヤーとも残りLP札1枚で
    「ダウン」するときは、先に「コール」したプレイヤーが勝利します。  Ruling: taking the last LP card loses."""
    s = pos(field0=["ts05"], field1=["gu06"], actor=1, hand0=[], hand1=[], lp0=["ts01"], lp1=["gu01"],
            damage0=["ts01"] * 9, damage1=["gu01"] * 9)
    s = act(s, "call")                                         # seat 1 calls a trade (4 vs 4)
    assert game.outcome(s) == {"winners": [1], "reason": "lp"}
    assert len(s.d["damage"][1]) == 9                          # the caller never resolved


def test_downs_with_lp_left_continue_the_match():
    """Ruling: only the down that takes the LAST LP card loses."""
    s = pos(field0=["ts05"], field1=["gu06"], actor=1, hand0=[], hand1=[], lp0=["ts01", "ts02"],
            lp1=["gu01", "gu02"], damage0=["ts01"] * 9, damage1=["gu01"] * 9)
    s = act(s, "call")
    assert game.outcome(s) is None
    assert len(s.d["lp"][0]) == len(s.d["lp"][1]) == 1


# --------------------------------------------------------------------------- F. end of the attack phase
def test_footnote_19_destination_icons_and_the_gauge_cap():
    """F: 表向きの「アタックフィールド」のカードは「どこいくのアイコン」の示す場所に移動し、裏向きのカードはダスト送り;
    注19: 「ゲージ札」は10枚が上限で、11枚目以降はダスト送りとなります。"""
    s = guarding(field0=["ts01", "ts04", "ts10", "ts03"], hand1=[], gauge0=["ts02"] * 9,
                 guard1=["gu05", "gu02"])
    s = act(s, "break")
    assert len(s.d["gauge"][0]) == 10                          # ts01 (gauge icon) fills the gauge
    assert s.d["stamina"][0][-1] == "ts04"                     # stamina icon: under the stamina
    assert "ts10" in s.d["hand"][0]                            # hand icon
    assert s.d["dust"][0][-1] == "ts03"
    assert s.d["dust"][1][-2:] == ["gu05", "gu02"]              # face-down cards: dust
    s = guarding(field0=["ts01", "ts01"], hand1=[], gauge0=["ts02"] * 10)
    s = act(s, "break")
    assert len(s.d["gauge"][0]) == 10 and s.d["dust"][0][-2:] == ["ts01", "ts01"]


# --------------------------------------------------------------------------- double / triple attack
def test_double_attack_draws_one_adds_a_bonus_and_text_applies_once():
    """Project ruling (docs/rules/maken.md): double attack — two copies at once: draw 1 at once and pick one bonus (+1 attack,
    +1 speed, +1 guard difficulty); the card text does not double."""
    s = pos(field0=["ts04"], actor=1, hand1=["gu05", "gu05"], chars=("tsubaki", "gou"))
    assert "attack gu05 double spd" in legal(s)
    s = act(s, "attack gu05 double atk")
    assert [e[0] for e in s.d["field"][1]] == ["gu05", "gu05"] and len(s.d["hand"][1]) == 1
    assert game.view(s, None)["players"][1]["top"]["attack"] == 3
    s = act(s, "call")                                         # speed 3 = 3: trade, seat 0 calls
    assert judge(s)["totals"][1] == 2 + 3


def test_double_attack_speed_bonus_counts_for_the_call():
    """Double attack +1 speed raises the top card's speed for later comparisons."""
    s = pos(field0=["ts04"], actor=1, hand1=["gu05", "gu05"], chars=("tsubaki", "gou"))
    s = act(s, "attack gu05 double spd", "call")
    assert judge(s)["kind"] == "clean_hit" and judge(s)["winner"] == 1
    assert len(s.d["hand"][1]) == 2                            # draw 1 (double) + on hit draw 1, once


def test_triple_attack_picks_two_bonuses():
    """Project ruling (docs/rules/maken.md): triple attack: choose two (of +1 attack, +1 speed, +1 guard difficulty)."""
    s = pos(field0=["ts04"], actor=1, hand1=["gu01"] * 3, chars=("tsubaki", "gou"))
    assert "attack gu01 triple atk grd" in legal(s)
    s = act(s, "attack gu01 x3 grd atk")                       # friendly spelling
    top = game.view(s, None)["players"][1]["top"]
    assert top["attack"] == 3 and top["guard"] == 3


# --------------------------------------------------------------------------- the turn
def test_opening_lp_cards_hand_and_mulligan():
    """Project ruling (docs/rules/maken.md): top 3 cards become face-down LP cards, the rest is stamina; each draws 5; each may
    mulligan once.  Ruling: the first TP decides first."""
    s = game.new_match(2, 11, {"first": 1})
    v = game.view(s, None)
    assert [p["lp_count"] for p in v["players"]] == [3, 3]
    assert [p["hand_count"] for p in v["players"]] == [5, 5]
    assert [p["stamina_count"] for p in v["players"]] == [22, 22]
    assert game.to_act(s) == [1]
    s = act(s, "mulligan")
    assert game.to_act(s) == [0] and len(s.d["hand"][1]) == 5
    s = act(s, "ready")
    assert s.d["step"] == "draw" and s.d["tp"] == 1 and s.d["turn"] == 1


def test_declared_draw_one_to_the_limit_first_tp_two():
    """Project ruling (docs/rules/maken.md): the TP declares how many cards (1 to the draw limit, normally 3; the very first TP
    of the game at most 2); with no stamina, no draw."""
    s = act(game.new_match(2, 3, {"first": 0}), "ready", "ready")
    assert legal(s) == ["draw 1", "draw 2"]
    illegal(s, "draw 3", "maken.err.draw_count")
    s = pos(step="draw", turn=4, hand0=[])
    assert legal(s) == ["draw 1", "draw 2", "draw 3"]
    s = act(s, "draw 3")
    assert len(s.d["hand"][0]) == 3 and s.d["step"] == "before"


def test_the_newest_edition_lets_the_very_first_tp_draw_two():
    """Project ruling (docs/rules/maken.md): the TP declares how many cards (1 to the draw limit, normally 3; the very first TP
    of the game at most 2) — a rule of the game, which no rules edition changes (issue 32: editions
    2–4 let the very first TP draw at most 1; from edition 5 the rule holds again)."""
    newest = registry.get("maken")
    assert newest.edition == newest.editions[-1] >= 5
    for first in (0, 1):
        s = newest.new_match(players=2, seed=3, options={"first": first})
        s = newest.apply(newest.apply(s, first, "ready"), 1 - first, "ready")
        assert s.d["turn"] == 1 and s.d["tp"] == first and "rules" not in s.d
        assert newest.legal_commands(s, first) == ["draw 1", "draw 2"]
        s = newest.apply(s, first, "draw 2")
        assert len(s.d["hand"][first]) == 7
    # later turns: 1 to the character's draw limit (2 in this edition's character cards) …
    assert newest.cardset.characters["tsubaki"]["draw_limit"] == 2
    s = newest.position(step="draw", turn=4, hand0=[], stamina0=list(FILL), chars=("tsubaki", "gou"))
    assert newest.legal_commands(s, 0) == ["draw 1", "draw 2"]
    # … and the clause's two numbers apart: a character card printing draw limit 3 lets the very
    # first TP draw at most 2 and every later TP 3
    for turn, want in ((1, 2), (2, 3), (7, 3)):
        s = newest.position(step="draw", turn=turn, hand0=[], stamina0=list(FILL), chars=("tsubaki", "gou"))
        s.d["cards"]["tsubaki"]["draw_limit"] = 3
        assert newest.legal_commands(s, 0) == [f"draw {n}" for n in range(1, want + 1)], turn


def test_support_cards_max_six_set_and_used_on_a_later_turn():
    """Project ruling (docs/rules/maken.md): support cards can be set; at most 6 set at once.  Ruling: a support card is used
    from a later turn on, at its timing (before / after attack)."""
    s = pos(step="before", hand0=["ts12", "ts01"], hand1=["gu01"], support0=[["ts14", 1]] * 6, turn=5)
    assert "set ts12" not in legal(s)
    illegal(s, "set ts12", "maken.err.support_full")
    s = pos(step="before", hand0=["ts12", "ts01"], hand1=["gu01"], turn=5, support0=[["ts12", 5]])
    assert "use ts12" not in legal(s)                          # set this turn: not yet
    s = pos(step="before", hand0=["ts01"], hand1=["gu01"], turn=5, support0=[["ts12", 3]])
    s = act(s, "use ts12")
    assert len(s.d["gauge"][0]) == 2 and s.d["dust"][0] == ["ts12"] and s.d["support"][0] == []


def test_after_attack_support_and_turn_passes():
    """Project ruling (docs/rules/maken.md): after attack, "after attack" effects; then the other player becomes TP."""
    s = pos(field0=["ts03"], field1=["gu03"], actor=1, hand1=[], turn=5, support0=[["ts13", 2]],
            damage0=["ts01"] * 4)
    s = act(s, "call")
    assert s.d["step"] == "after" and legal(s) == ["use ts13", "end"]
    s = act(s, "use ts13")
    assert len(s.d["damage"][0]) == 2 and s.d["stamina"][0][-1] == "ts13"
    s = act(s, "end")
    assert s.d["tp"] == 1 and s.d["turn"] == 6


def test_a_turn_without_any_decision_passes_at_once():
    """Ruling (engine): with no stamina (project ruling: no draw), no hand (no first bet is possible)
    and no support card set on an earlier turn, the TP has nothing to decide: the turn passes."""
    s = pos(step="after", turn=5, support0=[["ts13", 2]], hand1=[], stamina1=[], hand0=["ts01"],
            stamina0=[])
    s = act(s, "end")
    assert s.d["tp"] == 0 and s.d["turn"] == 7 and s.d["step"] == "before"
    assert [e["t"] for e in s.d["log"][-3:]] == ["turn", "skip", "turn"]


def test_turn_limit_house_rule_decides_by_lp_cards():
    """House rule: after max_turns the player with more LP cards wins (equal: draw)."""
    s = pos(step="after", turn=10, max_turns=10, lp0=["ts01"], lp1=["gu01", "gu02"],
            support0=[["ts13", 2]])
    s = act(s, "end")
    assert game.outcome(s) == {"winners": [1], "reason": "turn_limit"}


# --------------------------------------------------------------------------- secrecy
def test_hands_and_face_down_guard_cards_are_secret():
    """The engine contract (docs/engine.md): view(None) only public facts; the opponent never sees face-down cards or the hand."""
    s = guarding(field0=["ts01"], guard1=["gu11", "gu08"], hand1=["gu13", "gu12"], hand0=["ts14"],
                 support1=[["gu14", 1]])
    for seat in (None, 0):
        text = json.dumps(game.view(s, seat))
        for secret in ("gu11", "gu08", "gu13", "gu12", "gu14"):
            assert secret not in text, (seat, secret)
    assert game.view(s, None)["players"][1]["guard"]["count"] == 2
    mine = game.view(s, 1)
    assert mine["guard_cards"] == ["gu11", "gu08"] and mine["hand"] == ["gu12", "gu13"]
    assert "ts14" not in json.dumps(game.view(s, 1)) and "hand" not in game.view(s, None)


def test_public_command_hides_face_down_cards():
    s = pos(field0=["ts03"], field1=["gu01"], hand1=["gu05", "gu02"])
    assert game.public_command(s, 1, "guard stand gu05 gu02") == "guard stand ? ?"
    assert game.public_command(s, 1, "call") == "call"


# --------------------------------------------------------------------------- errors
def test_illegal_commands_explain_and_change_nothing():
    s = pos(field0=["ts04"], hand1=["gu01"])
    illegal(s, "", "maken.err.empty")
    illegal(s, "dance", "maken.err.unknown_verb")
    illegal(s, "attack zz99", "maken.err.unknown_card")
    illegal(s, "attack gu02", "maken.err.not_in_hand")
    illegal(s, "draw 2", "maken.err.wrong_step")
    with pytest.raises(IllegalCommand) as err:
        game.apply(s, 0, "call")
    assert err.value.key == "maken.err.not_your_turn"


# --------------------------------------------------------------------------- figure 2: which action when
def verbs(state):
    return {c.split()[0] for c in legal(state)}


def test_figure_2_while_even_attack_guard_or_call():
    """B: アクションには5種類あり、状況によって選べるものが変わります — even (拮抗): attack, guard or call;
    keep and GC need a guard of your own, break is only for the guarding player."""
    s = pos(field0=["ts01", "ts04"], field1=["gu01"], actor=1, hand1=["gu05", "gu01", "gu02"])
    assert verbs(s) == {"attack", "guard", "call"}
    illegal(s, "keep gu05", "maken.err.cannot_keep")
    illegal(s, "gc", "maken.err.cannot_gc")
    illegal(s, "break", "maken.err.cannot_break")


def test_figure_2_while_making_guard_attack_or_call():
    """B.1 ◎ 「ガードさせている」状態なら…好きなカードをベットできます; B.5: the attacker may call
    (ガード成立); B.2 guarding is only possible while even."""
    s = guarding(actor=0, field0=["ts01", "ts05"], hand0=["ts02", "ts03"])
    assert verbs(s) == {"attack", "call"}
    illegal(s, "guard stand ts02 ts03", "maken.err.cannot_guard")
    illegal(s, "keep ts02", "maken.err.cannot_keep")
    illegal(s, "gc", "maken.err.cannot_gc")
    illegal(s, "break", "maken.err.cannot_break")


def test_footnote_8_once_guarding_only_keep_gc_or_guard_break():
    """注8: 一度ガードしたら【GC(ガードキャンセル)】する以外は殴られっぱなしになります; 注13: no call;
    B.3: not keeping is a guard break."""
    s = guarding(field0=["ts01", "ts05"], guard1=["gu09"], gauge1=["gu01"], hand1=["gu02"])
    assert verbs(s) == {"keep", "gc", "break"}
    illegal(s, "attack gu02", "maken.err.no_attack_guarding")
    illegal(s, "call", "maken.err.no_call_guarding")
    illegal(s, "guard stand gu02", "maken.err.cannot_guard")
    illegal(s, "keep stand gu02", "maken.err.keep_no_type")     # not flushed: the guard type stays


def test_gc_is_possible_when_the_top_card_would_flush_the_guard():
    """Ruling (engine): B.4 lists every card that cannot be opened (no GC mark, gauge, reach); an
    unguardable top card is not among them, so a GC is an alternative to being flushed (B.3)."""
    s = guarding(field0=["ts01", "ts02"], guard1=["gu09"], gauge1=["gu01"], hand1=["gu03"])
    assert "gc" in legal(s) and "keep crouch gu03" in legal(s)          # ts02: no standing guard
    s = act(s, "gc", "pass")
    assert judge(s)["kind"] == "guard_cancel" and judge(s)["totals"][1] == 2      # gu09: attack 2
    assert len(s.d["damage"][0]) == 2 and s.d["gauge"][1] == [] and s.d["dust"][1][0] == "gu01"


def test_gc_pays_its_gauge_cost_and_applies_no_gauge_gain():
    """B.4: この際、「ゲージ消費」のカードは記載されている数値と同じ枚数のゲージ札をダスト送りにします
    (only the cost is printed for a GC).  gu11: cost 2, gain 1, icon gauge."""
    s = guarding(field0=["ts01"], guard1=["gu11"], gauge1=["gu01", "gu01"], hand1=[])
    stamina = len(s.d["stamina"][1])
    s = act(s, "gc")
    assert judge(s)["totals"][1] == 3 and s.d["dust"][1][:2] == ["gu01", "gu01"]
    assert s.d["gauge"][1] == ["gu11"]                   # 0 after the cost; then its icon (F)
    assert len(s.d["stamina"][1]) == stamina             # no gain moved a stamina card


def test_bonus_bet_ignores_speed_and_reach():
    """Project ruling (docs/rules/maken.md): bonus bet (a bet during the judge, ignoring speed and reach).  After a GC the
    opponent's top card is ts04 (speed 3, back reach 1): gu03 (speed 1) and gu10 (reach 0) may
    still be bet."""
    s = guarding(field0=["ts01", "ts04"], guard1=["gu01", "gu08"], hand1=["gu03", "gu10"])
    s = act(s, "gc")
    assert legal(s) == ["bonus gu03", "bonus gu10", "pass"]
    s = act(s, "bonus gu03")
    assert judge(s)["hits"] == ["gu08", "gu03"] and judge(s)["totals"][1] == 4 + 4


# --------------------------------------------------------------------------- 注17 / 注18 more
def test_footnote_17_the_caller_downs_second_and_can_lose():
    """注17: 「相打」だった場合は、「コール」されたプレイヤーが先に「ダメージ解決」.  The called player downs with
    an LP card left, then the caller takes the last LP card: the caller loses."""
    s = pos(field0=["ts05"], field1=["gu06"], actor=1, hand0=[], hand1=[], lp0=["ts01", "ts02"],
            lp1=["gu01"], damage0=["ts01"] * 9, damage1=["gu01"] * 9)
    s = act(s, "call")
    assert [e["t"] for e in s.d["log"] if e["t"] in ("damage", "down")] == ["damage", "down", "damage", "down"]
    assert [e["seat"] for e in s.d["log"] if e["t"] == "down"] == [0, 1]
    assert game.outcome(s) == {"winners": [0], "reason": "lp"}


def test_footnote_18_ten_damage_cards_down_even_outside_damage_resolution():
    """注18: 「ダメージ解決」中でなくとも、ダメージ札が10枚に達したら「ダウン」処理を行います。
    (Checked after every command; no shipped card adds damage outside the judge.)"""
    s = pos(step="draw", turn=4, hand0=[], damage0=["ts01"] * 10, lp0=["ts02", "ts03"])
    s = act(s, "draw 1")
    assert s.d["damage"][0] == [] and s.d["lp"][0] == ["ts03"] and "ts02" in s.d["hand"][0]
    assert game.outcome(s) is None
    s = pos(step="draw", turn=4, hand0=[], damage1=["gu01"] * 10, lp1=["gu02"])
    s = act(s, "draw 1")
    assert game.outcome(s) == {"winners": [0], "reason": "lp"} and game.to_act(s) == []


# --------------------------------------------------------------------------- double / triple, more
def test_double_attack_as_first_bet():
    """Project ruling (docs/rules/maken.md): double attack (betting two copies of the same card at once: draw 1 at once and pick
    one bonus); ruling (engine): possible as the first bet too."""
    s = pos(step="before", hand0=["ts04", "ts04"], hand1=["gu01"])
    assert "fb ts04 double spd" in legal(s)
    s = act(s, "fb ts04 double spd")
    assert [e[0] for e in s.d["field"][0]] == ["ts04", "ts04"] and len(s.d["hand"][0]) == 1
    assert game.view(s, None)["players"][0]["top"]["speed"] == 4 and game.to_act(s) == [1]


def test_triple_attack_pays_each_cost_draws_one_and_the_guard_break_counts_copies_as_one():
    """Project ruling (docs/rules/maken.md): triple attack: choose two (distinct) bonuses; ruling (engine): each copy pays its
    cost, a triple draws 1, the copies below the top count 1 each in a GB (注16 GB補正)."""
    s = pos(actor=1, situation="guard", guarder=0, field1=["gu04"], guard0=["ts01"], gtype0="stand",
            hand1=["gu09"] * 3, gauge1=["gu01"] * 3, hand0=[], chars=("tsubaki", "gou"))
    illegal(s, "attack gu09 triple atk atk", "maken.err.syntax")
    s = act(s, "attack gu09 triple atk grd")
    assert s.d["gauge"][1] == [] and s.d["dust"][1] == ["gu01"] * 3 and len(s.d["hand"][1]) == 1
    assert legal(s) == ["break"]                      # difficulty 1 + 1 = 2, one guard card, no hand
    s = act(s, "break")
    assert judge(s)["totals"][1] == (2 + 1) + 3 and len(s.d["damage"][0]) == 6


# --------------------------------------------------------------------------- the turn, more
def test_turn_start_the_tp_character_stands_upright():
    """Project ruling (docs/rules/maken.md): Turn start: the TP's character card stands upright, the other's turns sideways."""
    s = act(game.new_match(2, 8, {"first": 1}), "ready", "ready")
    assert [p["upright"] for p in game.view(s, None)["players"]] == [False, True]


def test_no_stamina_no_draw_and_the_draw_stops_at_the_stamina_left():
    """Project ruling (docs/rules/maken.md): draws that many from stamina; with no stamina, no draw.  Ruling (engine): the
    declared number stops at the stamina left."""
    s = pos(step="after", turn=5, support0=[["ts13", 2]], stamina1=[], hand1=["gu01"])
    s = act(s, "end")
    assert s.d["tp"] == 1 and s.d["step"] == "before"
    s = pos(step="draw", turn=4, stamina0=["ts01", "ts02"])
    assert legal(s) == ["draw 1", "draw 2"]


def test_every_footnote_is_quoted_by_a_test():
    """The issue: each footnote of the seed (注1–注19) as at least one test."""
    import inspect
    import re
    import sys

    docs = " ".join(inspect.getdoc(f) or "" for name, f in vars(sys.modules[__name__]).items()
                    if name.startswith("test_") and callable(f))
    missing = [n for n in range(1, 20) if not re.search(rf"注{n}(?!\d)", docs)]
    assert missing == []
