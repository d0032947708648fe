"""Battle Logic Square: every rule of the rulebook (docs/rules/logic_square.md), every
project ruling and every engine ruling of docs/rules/logic_square.md.

Each test quotes the clause it checks.  Positions are built with ``game.position`` (main phase,
turn 3, 3 AP unless told); seat 0 plays from rank 1 (its area ranks 1–2), seat 1 from rank 5
(its area ranks 4–5); rank 3 is the shared row.
"""
from __future__ import annotations

import json

import pytest

from data import i18n
from rules import IllegalCommand, registry
from rules.logic_square.match import build_text

game = registry.get("logic_square")


def pos(**kw):
    return game.position(**kw)


def act(state, *commands):
    """Apply commands, each by the seat that is asked."""
    for cmd in commands:
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, cmd)
    return state


def rejected(state, seat, command, key=None):
    """Apply must raise IllegalCommand, leave the state unchanged, and use a catalogued key."""
    before = game.dump(state)
    with pytest.raises(IllegalCommand) as info:
        game.apply(state, seat, command)
    assert game.dump(state) == before
    err = info.value
    assert err.key in i18n.catalog("en") and err.key in i18n.catalog("ja"), err.key
    assert i18n.placeholders(i18n.catalog("en")[err.key]) <= set(err.params), err.key
    assert i18n.t(err.key, "en", **err.params) == err.reason
    if key is not None:
        assert err.key == key, (err.key, err.reason)
    return err


def life(state):
    return tuple(state.life)


def square_of(state, seat):
    return game.view(state, None)["board"]["avis"][seat]["square"]


# ============================================================================ set-up (5.)

def test_contract_attributes_and_registry():
    """The engine contract (docs/engine.md): name, min_players, max_players; registry.get("logic_square")."""
    assert game.name == "logic_square" and game.min_players == 2 and game.max_players == 2
    assert "logic_square" in registry.names()


def test_avis_start_on_the_centre_column_nearest_row():
    """5.① お互いに自身の《AVI》カードを自分のエリアの中央の列、もっとも手前のマスに置く。
    project ruling (docs/rules/logic_square.md): "AVIs start on column 3, row 1 of their owner." """
    view = game.view(game.new_match(2, 1, {}), None)
    assert [a["square"] for a in view["board"]["avis"]] == ["c1", "c5"]


def test_decks_are_shuffled_by_the_seeded_prng_and_each_player_draws_five():
    """5.② リソースデッキを裏向きでシャッフル  5.⑤ お互いに自身のリソースデッキを5枚引いて手札にする。
    the engine contract (docs/engine.md): randomness only from a PRNG in the state."""
    a = game.new_match(2, 11, {"first": 0})
    b = game.new_match(2, 11, {"first": 0})
    assert game.dump(a) == game.dump(b)
    orders = {game.new_match(2, seed, {"first": 0}).deck[0] for seed in range(6)}
    assert len(orders) > 1
    # the first player has drawn 1 more in its first draw phase (5 in hand -> draw 1)
    assert len(a.hand[0]) == 6 and len(a.hand[1]) == 5
    assert len(a.deck[0]) == 24 and len(a.deck[1]) == 25
    assert sorted(a.hand[1] + a.deck[1]) == sorted(game.cardset.decks["aegis"].resources)


def test_first_player_is_seeded_random_unless_chosen():
    """5.④ 適当な方法で先攻プレイヤーを決める。 — seeded random; option `first` decides."""
    firsts = {game.new_match(2, seed, {}).first for seed in range(30)}
    assert firsts == {0, 1}
    for first in (0, 1):
        state = game.new_match(2, 5, {"first": first})
        assert game.to_act(state) == [first] and state.player == first


def test_life_starts_at_500():
    """5.⑥ お互いの《AVI》の初期ライフポイントを500にする"""
    assert life(game.new_match(2, 3, {})) == (500, 500)


def test_first_players_first_turn_gives_2_ap_then_3():
    """6.II メインフェイズ開始時、自分は3AP (アクションポイント) を得ます (先攻1ターン目は2APを得ます)。"""
    state = game.new_match(2, 4, {"first": 1})
    assert state.player == 1 and state.ap == 2
    state = act(state, "end")
    while state.phase == "discard":
        state = act(state, game.legal_commands(state, 1)[0])
    assert state.player == 0 and state.ap == 3
    state = act(state, "end")
    while state.phase == "discard":
        state = act(state, game.legal_commands(state, 0)[0])
    assert state.player == 1 and state.ap == 3


# ============================================================================ draw phase (6.I)

def test_draw_phase_draws_until_five():
    """6.I 自分の手札が5枚になるまで、自分のリソースデッキを引きます。"""
    state = pos(player=1, hands={0: ["ac01", "ac02"], 1: []}, decks={0: ["sc01"] * 3 + ["sc02"] * 3})
    state = act(state, "end")
    assert state.player == 0 and list(state.hand[0]) == ["ac01", "ac02", "sc01", "sc01", "sc01"]
    assert list(state.deck[0]) == ["sc02"] * 3


def test_draw_phase_with_five_or_more_draws_one():
    """6.I すでに手札が5枚の場合は、リソースデッキを1枚引きます。"""
    state = pos(player=1, hands={0: ["ac01"] * 3 + ["ac02"] * 2}, decks={0: ["sc01", "sc02"]})
    state = act(state, "end")
    assert list(state.hand[0]) == ["ac01"] * 3 + ["ac02"] * 2 + ["sc01"]


def test_draw_phase_with_an_empty_deck_draws_nothing():
    """Project ruling (docs/rules/logic_square.md): "Draw phase: draw to 5; with 5 or more in hand, draw 1. An empty deck draws nothing." """
    state = pos(player=1, hands={0: ["ac01"]}, decks={0: [], 1: ["sc01"]})
    state = act(state, "end")
    assert state.player == 0 and list(state.hand[0]) == ["ac01"] and game.outcome(state) is None


# ============================================================================ move (6.II A)

def test_move_one_square_orthogonally_for_one_ap():
    """6.II A 1AP消費します。空いている1マス左、右、先、手前のいずれか (面で接しているマス) を選んで移動します。
    …斜め方向には移動できません。"""
    state = pos(pos=("c2", "c5"))
    assert sorted(c for c in game.legal_commands(state, 0) if c.startswith("move")) == \
        ["move b2", "move c1", "move c3", "move d2"]
    after = act(state, "move c3")
    assert square_of(after, 0) == "c3" and after.ap == 2
    rejected(state, 0, "move d3", "logic_square.err.move_not_adjacent")
    rejected(state, 0, "move c4", "logic_square.err.move_not_adjacent")


def test_move_never_into_the_opponents_area():
    """4.③ 相手のエリアには、自分の《AVI》カードは移動して進入できません。
    4.② 共有エリアは、自分と相手の《AVI》カードが移動して進入できます。"""
    state = pos(pos=("c3", "a4"))
    rejected(state, 0, "move c4", "logic_square.err.move_opponent_area")
    state = pos(player=1, pos=("a1", "c3"))
    rejected(state, 1, "move c2", "logic_square.err.move_opponent_area")
    assert "move b3" in game.legal_commands(state, 1)


def test_move_never_onto_an_avi_or_a_placed_card():
    """Project ruling (docs/rules/logic_square.md): "An AVI never enters the opponent's area nor an occupied square." "A placed card
    occupies its square, blocks movement"."""
    state = pos(pos=("c2", "c3"), placed=[("b2", 1, "sc03", 60), ("d2", 0, "sc03", 60)])
    rejected(state, 0, "move c3", "logic_square.err.move_occupied")
    rejected(state, 0, "move b2", "logic_square.err.move_occupied")
    rejected(state, 0, "move d2", "logic_square.err.move_occupied")
    assert [c for c in game.legal_commands(state, 0) if c.startswith("move")] == ["move c1"]


# ============================================================================ use (6.II B)

def test_a_hit_card_needs_an_opponents_avi_or_placed_card_in_its_range():
    """6.II B 公開する時、そのカードのヒット範囲に相手の《AVI》カードか設置されたカードがある必要があります。"""
    state = pos(hands={0: ["ac01"]}, pos=("c1", "c5"))                 # Pulse Jab: reach 2
    rejected(state, 0, "use ac01", "logic_square.err.no_target")
    assert "use ac01" not in game.legal_commands(state, 0)
    near = pos(hands={0: ["ac01"]}, pos=("c2", "c4"))
    assert "use ac01" in game.legal_commands(near, 0)
    wall = pos(hands={0: ["ac01"]}, pos=("c1", "c5"), placed=[("b2", 1, "sc03", 60)])
    assert "use ac01" in game.legal_commands(wall, 0)                  # an opponent's placed card
    own = pos(hands={0: ["ac01"]}, pos=("c1", "c5"), placed=[("b2", 0, "sc03", 60)])
    assert "use ac01" not in game.legal_commands(own, 0)               # not your own placed card


def test_hit_damage_lowers_life_costs_one_ap_and_the_card_goes_to_the_trash():
    """6.II B 1AP消費します。… 相手の《AVI》カードにヒットダメージを与えた場合、その値だけ相手のライフポイントを
    減少させます。… 効果を解決したカードはトラッシュに置きます。"""
    state = pos(hands={0: ["ac01", "ac02"]}, pos=("c2", "c4"))
    state = act(state, "use ac01")
    assert life(state) == (500, 460) and state.ap == 2
    assert list(state.hand[0]) == ["ac02"] and list(state.trash[0]) == ["ac01"]
    last = game.view(state, None)["last"]
    assert last["kind"] == "use" and last["card"] == "ac01" and last["resolved"] == [0]
    assert {"type": "damage", "seat": 1, "square": "c4", "target": "avi", "amount": 40,
            "card": "ac01"} in last["events"]
    assert set(last["chain"][0]["range"]) == {"c4", "b3", "c3", "d3"}


def test_ranges_are_drawn_for_the_user_facing_the_opponent():
    """Project ruling (docs/rules/logic_square.md): "Hit ranges are sets of (forward, sideways) offsets from the user's AVI, drawn for
    the user facing the opponent"."""
    # Long Packet hits 2–4 squares ahead.  Seat 0 on c1 reaches c3–c5; seat 1 on c5 reaches c3–c1.
    s0 = pos(hands={0: ["ac02"]}, pos=("c1", "c4"))
    assert game.view(act(s0, "use ac02"), None)["last"]["chain"][0]["range"] == ["c5", "c4", "c3"]
    s1 = pos(player=1, hands={1: ["ac02"]}, pos=("c2", "c5"))
    assert game.view(act(s1, "use ac02"), None)["last"]["chain"][0]["range"] == ["c1", "c2", "c3"]
    # sideways: Mirror Step goes up to 2 to the side or 1 back; seat 1's "back" is rank 5's side
    m1 = pos(player=1, hands={1: ["ac10"]}, pos=("a1", "c4"))
    assert sorted(c for c in game.legal_commands(m1, 1) if c.startswith("use")) == \
        ["use ac10 a4", "use ac10 b4", "use ac10 c5", "use ac10 d4", "use ac10 e4"]


def test_own_avi_is_never_in_range_unless_the_card_says_so():
    """2.④ 自身の《AVI》カードはヒット範囲に含みません（効果テキストに自身の《AVI》カードを範囲に含める記載が
    ある場合を除く）。 6.II B …自身の使用したカードによるヒットダメージは受けません。"""
    state = pos(hands={0: ["ac03"]}, pos=("c3", "d3"))                  # Sweep Code: the row and sides
    state = act(state, "use ac03")
    assert life(state) == (500, 470)
    nova = pos(hands={0: ["ac15"]}, pos=("c3", "d3"))                   # Overload Nova: "@" includes self
    nova = act(nova, "use ac15")
    assert life(nova) == (380, 380)


def test_a_hit_hits_every_opponents_object_in_range_but_never_own_placed_cards():
    """Engine ruling: a card's hit damage is dealt to every opponent's AVI and placed card in its
    hit range when it resolves; the user's own placed cards are not hit."""
    state = pos(hands={0: ["ac03"]}, pos=("c2", "c3"),
                placed=[("b3", 1, "sc06", 50), ("d3", 0, "sc03", 60), ("a2", 1, "sc03", 60)])
    state = act(state, "use ac03")
    placed = {p["square"]: (p["owner"], p["durability"]) for p in game.view(state, None)["board"]["placed"]}
    assert placed == {"b3": (1, 20), "d3": (0, 60), "a2": (1, 30)}
    assert life(state) == (500, 470)
    fortress = pos(hands={0: ["ac03"]}, pos=("c2", "c3"), placed=[("b3", 1, "sc08", 120)])
    assert life(act(fortress, "use ac03")) == (500, 490)                 # its aura: 20 less per hit


def test_a_placed_card_loses_durability_and_goes_to_its_owners_trash_at_zero():
    """Project ruling (docs/rules/logic_square.md): "A placed card occupies its square, blocks movement and has durability; hit damage
    to it lowers durability; at 0 it goes to its owner's trash." """
    state = pos(hands={0: ["ac06"]}, pos=("c1", "c5"), placed=[("c2", 1, "sc03", 60)])
    state = act(state, "use ac06")                                      # Drive Lance 70 on c2–c3
    assert game.view(state, None)["board"]["placed"] == []
    assert list(state.trash[1]) == ["sc03"] and list(state.trash[0]) == ["ac06"]
    events = game.view(state, None)["last"]["events"]
    assert {"type": "destroyed", "seat": 1, "square": "c2", "card": "sc03"} in events


def test_a_card_that_places_names_an_empty_square_in_range_and_stays_on_the_board():
    """Project ruling (docs/rules/logic_square.md): "A card that places needs an empty square in range. The target is chosen when the
    card is declared." 2.③ 設置するカードは、耐久値が記載されています。"""
    state = pos(hands={0: ["sc03"]}, pos=("c1", "c5"), placed=[("c2", 1, "sc03", 60)], edition=2)
    assert [c for c in game.legal_commands(state, 0) if c.startswith("use")] == ["use sc03 b2", "use sc03 d2"]
    rejected(state, 0, "use sc03", "logic_square.err.square_needed")
    rejected(state, 0, "use sc03 c2", "logic_square.err.bad_square")
    rejected(state, 0, "use sc03 c3", "logic_square.err.bad_square")
    state = act(state, "use sc03 d2")
    assert {"square": "d2", "owner": 0, "card": "sc03", "durability": 60, "max_durability": 60} in \
        game.view(state, None)["board"]["placed"]
    assert list(state.trash[0]) == [] and list(state.hand[0]) == []


def test_a_hit_card_names_no_square():
    """Engine ruling (area hits): "a hit card names no square: `use ac01`"."""
    state = pos(hands={0: ["ac01"]}, pos=("c2", "c4"))
    rejected(state, 0, "use ac01 c4", "logic_square.err.square_not_allowed")


def test_a_card_without_a_range_needs_no_target():
    """Engine ruling: a card with no hit range (an effect card) needs no target."""
    state = pos(hands={0: ["sc02"]}, life=(300, 500))
    state = act(state, "use sc02")
    assert life(state) == (360, 500)


def test_br_cards_are_declared_only_in_a_chain():
    """Engine ruling: a Br card is used only as a chain action when its break condition holds (8.)."""
    state = pos(hands={0: ["br01", "br04"]}, pos=("c2", "c4"), life=(100, 500))
    rejected(state, 0, "use br01", "logic_square.err.br_chain_only")
    assert not [c for c in game.legal_commands(state, 0) if c.startswith("use")]


def test_avi_and_it_cards_are_not_used_from_hand():
    """6.II B 手札にあるカードを1枚を選んで公開して — only hand cards; IT cards use `it` (6.II C)."""
    state = pos(hands={0: ["ac01"]}, it={0: ["it01"]}, pos=("c2", "c4"))
    rejected(state, 0, "use it01", "logic_square.err.not_in_hand")
    rejected(state, 0, "use ac02", "logic_square.err.unknown_card")


# ============================================================================ IT (6.II C)

def test_it_use_puts_the_build_cards_in_the_trash_and_ends_face_up_in_the_it_area():
    """6.II C 《IT》カードデッキにある裏向きの《IT》カード1枚を選んで公開して… 手札にある「使用する《IT》カードの
    【アクション構築条件】で指定された」カードを不足なくトラッシュに置く必要があります。… 効果を解決した《IT》カードは、
    《IT》デッキ置き場に表向きで置きます。"""
    state = pos(hands={0: ["ac01", "ac02", "sc01"]}, it={0: ["it01", "it04"]}, pos=("c1", "c5"))
    legal = game.legal_commands(state, 0)
    assert "it it01 ac01 ac02" in legal and "it it04 ac01 ac02" in legal and "it it04 ac02 sc01" in legal
    assert not [c for c in legal if c.startswith("it it01 ") and "sc01" in c]      # 2 Ac cards only
    state = act(state, "it it01 ac01 ac02")
    assert life(state) == (500, 380) and state.ap == 2
    assert list(state.trash[0]) == ["ac01", "ac02"] and list(state.hand[0]) == ["sc01"]
    assert list(state.it_used[0]) == ["it01"] and list(state.it_left[0]) == ["it04"]
    view = game.view(state, None)
    assert view["players"][0]["it_used"] == ["it01"] and view["players"][0]["it_unused_count"] == 1
    rejected(state, 0, "it it01 sc01", "logic_square.err.it_unknown")          # used up


def test_it_build_condition_must_be_met_exactly():
    """6.II C 指定されたカードを不足なくトラッシュに置く必要があります。"""
    state = pos(hands={0: ["ac01", "sc01", "sc02"]}, it={0: ["it01"]}, pos=("c1", "c5"))
    rejected(state, 0, "it it01 ac01 sc01", "logic_square.err.build")
    rejected(state, 0, "it it01 ac01", "logic_square.err.build")
    rejected(state, 0, "it it01 ac01 ac01", "logic_square.err.cards_not_in_hand")
    assert not [c for c in game.legal_commands(state, 0) if c.startswith("it")]


def test_a_build_condition_is_spelled_in_the_readers_language():
    """The issue: "an IT build condition not met" gets "a clear localized message" — the
    condition itself too, not only the sentence around it."""
    state = pos(hands={0: ["ac01", "sc01", "sc02"]}, it={0: ["it01", "it09", "it03"]}, pos=("c1", "c5"))
    err = rejected(state, 0, "it it01 sc01", "logic_square.err.build")
    assert "2 Ac" in err.reason
    assert "Ac 2枚" in i18n.t(err.key, "ja", **err.params)
    for it in ("it09", "it03"):
        card = game.cardset[it]
        need = build_text(card, game.cardset.types)
        assert "枚" in need["ja"] and not any(w in need["ja"] for w in ("any", "blue", "white", "strike", "non-CB"))


def test_it_needs_its_range_and_a_square_when_it_places():
    """6.II C そのカードのヒット範囲に、相手の《AVI》カードか設置されたカードがある必要があります。"""
    state = pos(hands={0: ["ac01", "ac02"]}, it={0: ["it01"]}, pos=("b1", "c5"))
    rejected(state, 0, "it it01 ac01 ac02", "logic_square.err.no_target")
    wall = pos(hands={0: ["sc01"]}, it={0: ["it02"]}, pos=("c1", "c5"))
    rejected(wall, 0, "it it02 sc01", "logic_square.err.square_needed")
    wall = act(wall, "it it02 c2 sc01")
    assert game.view(wall, None)["board"]["placed"][0] == {
        "square": "c2", "owner": 0, "card": "it02", "durability": 150, "max_durability": 150}
    assert list(wall.it_used[0]) == []


def test_build_condition_by_colour_type_and_cb():
    """6.II C 「使用する《IT》カードの【アクション構築条件】で指定された」カード — by colour, type and CB."""
    state = pos(hands={0: ["ac01", "ac02", "ac13", "sc09"]}, it={0: ["it03", "it08", "it10"]},
                pos=("c1", "c5"))
    legal = game.legal_commands(state, 0)
    assert {c for c in legal if c.startswith("it it03")} == {
        "it it03 ac01 sc09", "it it03 ac02 sc09", "it it03 ac13 sc09"}     # 1 blue + any
    assert {c for c in legal if c.startswith("it it08")} == {
        "it it08 ac01 ac02", "it it08 ac01 ac13"}                          # strike + shot
    assert {c for c in legal if c.startswith("it it10")} == {"it it10 ac13"}   # a CB card


# ============================================================================ AVI abilities (6.II D)

def test_avi_ability_costs_its_ap_and_needs_its_range():
    """6.II D 《AVI》カードの効果に記載されたAPを消費します (自分の残りのAPが効果に記載されたAPより少ない場合、
    使用できません)。ヒット範囲を持つ効果の場合、そのカードのヒット範囲に、相手の《AVI》カードか設置された
    カードがある必要があります。"""
    state = pos(avis=("av01", "av02"), pos=("c1", "c5"), edition=2)
    rejected(state, 0, "avi 1", "logic_square.err.no_target")            # reach 3, opponent 4 away
    state = pos(avis=("av01", "av02"), pos=("c2", "c5"), edition=2)
    state = act(state, "avi 1")
    assert life(state) == (500, 450) and state.ap == 1
    rejected(state, 0, "avi 1", "logic_square.err.no_ap")
    rejected(state, 0, "avi 3", "logic_square.err.avi_ability")


def test_avi_abilities_without_range_and_with_effects():
    """6.II D 《AVI》カードに記載された効果を使用します。"""
    state = pos(avis=("av03", "av02"), decks={0: ["sc01", "sc02"]})
    state = act(state, "avi 1")                                          # Packet Sniff: draw 1
    assert list(state.hand[0]) == ["sc01"] and state.ap == 2
    fox = pos(avis=("av04", "av02"), pos=("c1", "c5"))
    moves = [c for c in game.legal_commands(fox, 0) if c.startswith("avi 1")]
    assert "avi 1 c3" in moves and "avi 1 a1" in moves and "avi 1 c4" not in moves
    fox = act(fox, "avi 1 c3")
    assert square_of(fox, 0) == "c3" and fox.ap == 2


def test_avi_abilities_are_not_card_uses_and_open_no_chain():
    """Engine ruling: an AVI ability is not a card use (6.II B/8.), so it opens no chain."""
    state = pos(avis=("av01", "av02"), hands={1: ["br01"]}, pos=("c2", "c4"), edition=2)
    state = act(state, "avi 1")
    assert game.to_act(state) == [0] and life(state) == (500, 450)


# ============================================================================ CAA (6.II E)

def test_caa_trashes_up_to_three_and_draws_twice_as_many_once_per_turn_for_no_ap():
    """6.II E APは消費しません。1ターンに1回まで使用できます。自分の手札を3枚まで選んで、トラッシュに置きます。
    その後、トラッシュに置いたカードの枚数の2倍の枚数、自分のリソースデッキを引きます。"""
    deck = ["sc01", "sc02", "sc03", "sc05", "sc06", "sc07", "ac01"]
    state = pos(hands={0: ["ac01", "ac02", "ac03", "ac04"]}, decks={0: deck})
    assert "caa ac01 ac02 ac03" in game.legal_commands(state, 0)
    assert not [c for c in game.legal_commands(state, 0) if c.startswith("caa") and len(c.split()) > 4]
    state = act(state, "caa ac03 ac01 ac02")
    assert state.ap == 3 and list(state.trash[0]) == ["ac01", "ac02", "ac03"]
    assert list(state.hand[0]) == ["ac04"] + deck[:6] and list(state.deck[0]) == deck[6:]
    assert not [c for c in game.legal_commands(state, 0) if c.startswith("caa")]
    rejected(state, 0, "caa ac04", "logic_square.err.caa_used")
    assert game.view(state, None)["players"][0]["caa_used"] is True


def test_caa_needs_one_to_three_cards_from_hand():
    """Engine ruling: CAA with 0 cards would draw nothing and is not offered; 4 cards are too many."""
    state = pos(hands={0: ["ac01"] * 4}, decks={0: ["sc01"] * 8})
    rejected(state, 0, "caa", "logic_square.err.caa_count")
    rejected(state, 0, "caa ac01 ac01 ac01 ac01", "logic_square.err.caa_count")
    rejected(state, 0, "caa sc01", "logic_square.err.cards_not_in_hand")


def test_caa_with_a_short_deck_draws_what_is_left():
    """6.II E トラッシュに置いたカードの枚数の2倍の枚数、自分のリソースデッキを引きます — project ruling (docs/rules/logic_square.md): "An empty deck draws nothing."."""
    state = pos(hands={0: ["ac01", "ac02"]}, decks={0: ["sc01"]})
    state = act(state, "caa ac01 ac02")
    assert list(state.hand[0]) == ["sc01"] and state.deck[0] == ()


def test_caa_resets_next_turn():
    """6.II E 1ターンに1回まで使用できます — once per turn, again next turn."""
    state = pos(hands={0: ["ac01"]}, decks={0: ["sc01"] * 10, 1: ["sc01"] * 10})
    state = act(state, "caa ac01", "end", "end")
    assert state.player == 0 and not state.caa_used


# ============================================================================ main / end phase

def test_main_phase_ends_when_all_ap_is_spent():
    """6.II APをすべて消費したら、メインフェイズを終了し、エンドフェイズに移行します。"""
    state = pos(ap=1, pos=("c1", "c5"), decks={1: ["sc01"]})
    state = act(state, "move c2")
    assert state.player == 1 and state.turn == 4


def test_end_ends_the_main_phase_early_and_remaining_ap_is_lost():
    """Project ruling (docs/rules/logic_square.md): "the player acts until AP is 0 or declares end of turn (remaining AP is lost)." """
    state = pos(ap=3, decks={0: ["sc01"], 1: ["sc01"]})
    state = act(state, "end")
    assert state.player == 1 and state.ap == 3
    back = act(state, "end")
    assert back.player == 0 and back.ap == 3


def test_end_phase_discards_to_five_chosen_by_the_player():
    """6.III ① 自分の手札が6枚以上の場合、5枚となるまで手札を選んで、トラッシュに置く。 ② 相手のプレイヤーのターンに移行する。"""
    state = pos(hands={0: ["ac01", "ac02", "ac03", "sc01", "sc02", "sc03", "br01"]}, decks={1: ["sc01"]})
    state = act(state, "end")
    assert state.phase == "discard" and game.to_act(state) == [0]
    assert game.legal_commands(state, 0) == [
        "discard ac01", "discard ac02", "discard ac03", "discard br01", "discard sc01",
        "discard sc02", "discard sc03"]
    assert game.view(state, 0)["pending"] == {"kind": "discard", "count": 2}
    rejected(state, 0, "end", "logic_square.err.must_discard")
    state = act(state, "discard sc02")
    assert state.phase == "discard" and state.player == 0
    state = act(state, "discard ac01")
    assert state.player == 1 and state.phase == "main"
    assert list(state.trash[0]) == ["sc02", "ac01"] and len(state.hand[0]) == 5


def test_discard_only_in_the_end_phase():
    """6.III ① 自分の手札が6枚以上の場合 (end phase only)."""
    state = pos(hands={0: ["ac01"]})
    rejected(state, 0, "discard ac01", "logic_square.err.no_discard")


def test_five_cards_at_the_end_phase_need_no_discard():
    """6.III ① 自分の手札が6枚以上の場合、5枚となるまで — with 5 nothing is discarded."""
    state = pos(hands={0: ["ac01"] * 3 + ["ac02"] * 2}, decks={1: ["sc01"]})
    assert act(state, "end").player == 1


# ============================================================================ chains (8.)

def test_a_cb_card_gives_the_opponent_a_chance_to_answer_with_a_cb_card():
    """8. 自分が《CB》を持つカードを使用した場合、相手はチェーンアクションとして、手札にある
    ヒット範囲を満たす《CB》を持つカードをAPの消費をしないで、使用の宣言ができます。"""
    state = pos(hands={0: ["ac13"], 1: ["ac11", "ac01"]}, pos=("c3", "c4"))
    state = act(state, "use ac13")
    assert game.to_act(state) == [1] and game.public_to_act(state) == [0]
    assert game.legal_commands(state, 1) == ["chain ac11", "pass"]       # ac01 has no CB
    assert game.legal_commands(state, 0) == []
    assert game.view(state, 1)["pending"]["kind"] == "chain"
    rejected(state, 1, "chain ac01", "logic_square.err.not_a_response")
    rejected(state, 1, "use ac11", "logic_square.err.must_respond")
    rejected(state, 0, "end", "logic_square.err.resolving")


def test_no_window_when_the_opponent_holds_no_legal_response():
    """Project ruling (docs/rules/logic_square.md): "offered only when they hold a card that may legally respond"."""
    no_cb = pos(hands={0: ["ac01"], 1: ["ac11"]}, pos=("c3", "c4"))     # Pulse Jab has no CB
    assert game.to_act(act(no_cb, "use ac01")) == [0]
    out_of_range = pos(hands={0: ["ac02"], 1: ["ac11"]}, pos=("c1", "c4"))   # 8.: ヒット範囲を満たす
    assert game.to_act(act(out_of_range, "use ac02")) == [0]
    out_of_range = pos(hands={0: ["ac13"], 1: ["ac11"]}, pos=("c1", "c4"))
    assert game.to_act(act(out_of_range, "use ac13")) == [0]


def test_two_links_both_resolve_the_answer_first():
    """8. …最後にカードの使用を宣言したプレイヤーから順番に、お互いに最後にカードの使用を宣言したカードのみ、
    効果の解決を行います。  With one card each, both are each player's last: the answer resolves first."""
    state = pos(hands={0: ["ac13"], 1: ["ac11"]}, pos=("c3", "c4"))
    state = act(state, "use ac13", "chain ac11")
    assert game.to_act(state) == [0] and life(state) == (450, 470)
    last = game.view(state, None)["last"]
    assert last["resolved"] == [1, 0] and [d["card"] for d in last["chain"]] == ["ac13", "ac11"]
    assert state.ap == 2                                                 # the chain cost no AP
    assert list(state.trash[0]) == ["ac13"] and list(state.trash[1]) == ["ac11"]


def test_three_links_the_first_card_does_not_resolve():
    """8. お互いに最後にカードの使用を宣言したカードのみ、効果の解決を行います。 相手がチェーンアクションによって
    《CB》を持つカードを使用した場合、自分もチェーンアクションとして…《CB》を持つカードを…使用の宣言ができます。"""
    state = pos(hands={0: ["ac13", "ac07"], 1: ["ac11"]}, pos=("c3", "c4"))
    state = act(state, "use ac13", "chain ac11")
    assert game.to_act(state) == [0] and game.legal_commands(state, 0) == ["chain ac07", "pass"]
    state = act(state, "chain ac07")
    # resolves: seat 0's ac07 (last declared) first, then seat 1's ac11; seat 0's ac13 never
    last = game.view(state, None)["last"]
    assert last["resolved"] == [2, 1]
    # ac07: 40 and push 1 (c4 -> c5); then ac11 from c5 reaches c4/b4/d4/b5/d5: misses c3
    assert life(state) == (500, 460) and square_of(state, 1) == "c5"
    assert sorted(state.trash[0]) == ["ac07", "ac13"] and list(state.trash[1]) == ["ac11"]


def test_four_links_deep_only_each_players_last_resolves_last_declarer_first():
    """8. お互いにチェーンアクションを繰り返し、どちらかが使用しないことを選んだ時、チェーンアクションを終了します。"""
    state = pos(hands={0: ["ac13", "ac11"], 1: ["ac13", "ac11"]}, pos=("c3", "c4"))
    state = act(state, "use ac13", "chain ac11", "chain ac11", "chain ac13")
    assert game.to_act(state) == [0]                                     # nothing left to answer with
    last = game.view(state, None)["last"]
    assert [d["seat"] for d in last["chain"]] == [0, 1, 0, 1]
    assert last["resolved"] == [3, 2]                                    # seat 1's ac13, then seat 0's ac11
    assert life(state) == (470, 450)
    assert sorted(state.trash[0]) == ["ac11", "ac13"] and sorted(state.trash[1]) == ["ac11", "ac13"]


def test_a_pass_ends_the_chain_and_resolves():
    """8. どちらかが使用しないことを選んだ時、チェーンアクションを終了します。"""
    state = pos(hands={0: ["ac13"], 1: ["ac11"]}, pos=("c3", "c4"))
    state = act(state, "use ac13", "pass")
    assert life(state) == (500, 470) and list(state.hand[1]) == ["ac11"]


def test_a_br_card_answers_any_card_when_its_break_condition_holds():
    """8. 自分がカードを使用した時、相手の手札に【ブレイク条件】を満たす《Br》カードがある場合、相手はチェーン
    アクションとして手札にある《Br》カードをAPの消費をしないで、使用の宣言ができます。"""
    # Counter Ping: "your AVI is in the hit range of the declared card"; Pulse Jab has no CB
    state = pos(hands={0: ["ac01"], 1: ["br01"]}, pos=("c3", "c4"))
    state = act(state, "use ac01")
    assert game.legal_commands(state, 1) == ["chain br01", "pass"]
    state = act(state, "chain br01")
    assert life(state) == (470, 460) and game.to_act(state) == [0]       # no CB on br01: the chain ends


def test_a_br_card_is_not_offered_when_its_break_condition_fails():
    """8. 相手の手札に【ブレイク条件】を満たす《Br》カードがある場合 — only then."""
    state = pos(hands={0: ["ac02"], 1: ["br01", "br04"]}, pos=("c1", "c3"), placed=[("a4", 1, "sc03", 60)])
    # Long Packet on c3–c5 hits the AVI; br04 needs life <= 200; br01 needs the AVI in range: it is
    state = act(state, "use ac02")
    assert game.legal_commands(state, 1) == ["chain br01", "pass"]
    # a card that does not reach seat 1's AVI: only the placed card is in range -> no in_range Br
    far = pos(hands={0: ["ac01"], 1: ["br01"]}, pos=("a2", "c5"), placed=[("a4", 1, "sc03", 60)])
    far = act(far, "use ac01")
    assert game.to_act(far) == [0]


def test_break_conditions_by_life_colour_category_damage_and_placement():
    """【ブレイク条件】 as data: life_at_most, colour, category, damage_at_least, places, cb."""
    low = pos(hands={0: ["ac01"], 1: ["br04"]}, pos=("c3", "c4"), life=(500, 150))
    assert game.legal_commands(act(low, "use ac01"), 1) == ["chain br04", "pass"]
    red = pos(hands={0: ["ac12"], 1: ["br09"]}, pos=("c2", "c4"))
    assert game.legal_commands(act(red, "use ac12"), 1) == ["chain br09", "pass"]
    script = pos(hands={0: ["sc01"], 1: ["br07"]}, decks={0: ["ac01"] * 3})
    assert game.legal_commands(act(script, "use sc01"), 1) == ["chain br07", "pass"]
    big = pos(hands={0: ["ac06", "ac01"], 1: ["br02"]}, pos=("c3", "c4"))
    assert game.legal_commands(act(big, "use ac06"), 1) == ["chain br02", "pass"]   # 70 >= 50
    assert game.to_act(act(big, "use ac01")) == [0]                                 # 40 < 50
    wall = pos(hands={0: ["sc03"], 1: ["br08"]}, pos=("c2", "c4"))
    assert game.legal_commands(act(wall, "use sc03 c3"), 1) == ["chain br08", "pass"]
    cb = pos(hands={0: ["ac05"], 1: ["br06"]}, decks={1: ["sc01"] * 3})
    assert game.legal_commands(act(cb, "use ac05"), 1) == ["chain br06", "pass"]


def test_a_br_card_with_cb_lets_the_active_player_chain_back():
    """8. そのカードが《CB》を持っている場合、自分はチェーンアクションを行えます。"""
    state = pos(hands={0: ["ac01", "ac11"], 1: ["br03"]}, pos=("c3", "c4"))
    state = act(state, "use ac01")                                       # Null Break: [Strike] + in range
    state = act(state, "chain br03")
    assert game.to_act(state) == [0] and game.legal_commands(state, 0) == ["chain ac11", "pass"]
    state = act(state, "chain ac11")
    # seat 0's ac11 resolves first (50), then seat 1's br03 (60); seat 0's ac01 does not resolve
    assert life(state) == (440, 450)
    assert sorted(state.trash[0]) == ["ac01", "ac11"] and list(state.trash[1]) == ["br03"]


def test_a_br_card_may_answer_a_card_declared_in_the_chain():
    """Engine ruling: "both kinds of answer may answer any declaration, the first one or one in the
    chain" — 8. お互いにチェーンアクションを繰り返し….  Counter Ping answers the opponent's Chain Breaker
    because the turn player's AVI is in Chain Breaker's hit range."""
    state = pos(hands={0: ["ac13", "br01"], 1: ["ac11"]}, pos=("c3", "c4"))
    state = act(state, "use ac13", "chain ac11")
    assert game.to_act(state) == [0] and game.legal_commands(state, 0) == ["chain br01", "pass"]
    state = act(state, "chain br01")                     # Counter Ping has no CB: the chain ends
    assert game.view(state, None)["last"]["resolved"] == [2, 1]
    assert life(state) == (450, 470)                     # br01 30 on seat 1, then ac11 50 on seat 0
    assert sorted(state.trash[0]) == ["ac13", "br01"]    # ac13 never resolved, trashed all the same


def test_a_br_card_may_answer_a_br_card_but_a_cb_card_may_not_answer_one_without_cb():
    """8. そのカードが《CB》を持っている場合、自分はチェーンアクションを行えます — a Br card without CB gives
    no CB answer; a Br answer needs only its break condition (engine ruling: any declaration)."""
    cb_only = pos(hands={0: ["ac01", "ac11"], 1: ["br01"]}, pos=("c3", "c4"))
    cb_only = act(cb_only, "use ac01", "chain br01")
    assert game.to_act(cb_only) == [0] and "ac11" in cb_only.hand[0]
    assert life(cb_only) == (470, 460)
    br = pos(hands={0: ["ac01", "br01"], 1: ["br01"]}, pos=("c3", "c4"))
    br = act(br, "use ac01", "chain br01")
    assert game.legal_commands(br, 0) == ["chain br01", "pass"]
    br = act(br, "chain br01")
    assert life(br) == (470, 470)                         # each player's last card: both Counter Pings


def test_it_cards_never_answer_a_chain():
    """8. …手札にある…カードを…使用の宣言ができます — answers come from the hand; an IT card (even with CB)
    is used only by its owner in the main phase (6.II C)."""
    state = act(pos(hands={0: ["ac13"], 1: ["ac02"]}, it={1: ["it05"]}, pos=("c3", "c4")), "use ac13")
    assert game.to_act(state) == [0]
    window = act(pos(hands={0: ["ac13"], 1: ["ac11", "br02"]}, it={1: ["it05"]}, pos=("c3", "c4")), "use ac13")
    assert game.legal_commands(window, 1) == ["chain ac11", "chain br02", "pass"]
    rejected(window, 1, "chain it05", "logic_square.err.not_in_hand")
    rejected(window, 1, "it it05 br02", "logic_square.err.must_respond")


def test_every_revealed_card_goes_to_the_trash_used_it_to_the_it_area_placed_cards_stay():
    """8. 効果の解決後、カードの使用からチェーンアクション後の効果の解決までに公開されたお互いのカードすべてを
    トラッシュに置きます。  Engine rulings: a used IT card always ends face up in its owner's IT area; a card
    that was placed stays on the board."""
    state = pos(hands={0: ["br02"], 1: ["ac11", "ac13"]}, it={0: ["it05"]}, pos=("c3", "c4"))
    state = act(state, "it it05 br02")                                   # Storm Grid: CB, 60
    assert game.legal_commands(state, 1) == ["chain ac11", "chain ac13", "pass"]
    state = act(state, "chain ac13")                                     # seat 0 has nothing left
    assert life(state) == (470, 440)
    assert list(state.it_used[0]) == ["it05"] and list(state.trash[0]) == ["br02"]
    assert list(state.trash[1]) == ["ac13"]
    wall = pos(hands={0: ["sc03"], 1: ["br08"]}, pos=("c2", "c4"))
    wall = act(wall, "use sc03 c3", "chain br08")
    assert [p["card"] for p in game.view(wall, None)["board"]["placed"]] == ["sc03"]
    assert list(wall.trash[0]) == [] and list(wall.trash[1]) == ["br08"]
    # project ruling (docs/rules/logic_square.md): "An effect that names the opponent's "next turn" applies to their next turn, never
    # the turn in which it resolved." Wall Breaker 「相手は次のターンに得るAP-1」, answered in seat 0's
    # main phase: seat 0 keeps its AP now (3 - 1 for sc03) and gains 1 AP less next turn
    assert wall.ap == 2 and wall.ap_bank == (-1, 0)
    wall = pos(hands={0: ["sc03"], 1: ["br08"]}, decks={0: ["ac01"] * 6, 1: ["ac01"] * 6}, pos=("c2", "c4"))
    wall = act(wall, "use sc03 c3", "chain br08", "end", "end")   # seat 1's turn passes: seat 0's next
    assert wall.player == 0 and wall.ap_bank == (0, 0)
    from rules.logic_square.match import AP_TURN
    assert game.view(wall, None)["last"]["events"][-1] == {"type": "ap", "seat": 0, "amount": AP_TURN - 1,
                                                           "banked": False}


def test_a_br_card_with_cb_answers_a_cb_card_even_when_its_break_condition_fails():
    """Project ruling (docs/rules/logic_square.md): "A Br card that has CB may answer a CB card as a CB answer (section 8's CB clause),
    whether or not its break condition holds; with its break condition it may also answer as a Br
    card."  Reflect Shell (Br, CB) breaks on a card of hit damage 50 or more; Static Shot (CB) deals 30."""
    state = pos(hands={0: ["ac13"], 1: ["br02"]}, pos=("c2", "c4"))
    state = act(state, "use ac13")
    assert game.legal_commands(state, 1) == ["chain br02", "pass"]
    state = act(state, "chain br02")
    assert list(state.trash[1]) == ["br02"]
    # without CB on the declared card, only the break condition lets a Br card answer: Long Packet
    # (30, no CB) opens no window for Reflect Shell; Null Break (Br, CB) answers Static Shot (CB, a
    # [Shot], not the [Strike] its break condition asks for) all the same
    plain = pos(hands={0: ["ac02"], 1: ["br02"]}, pos=("c1", "c4"))
    assert game.to_act(act(plain, "use ac02")) == [0]
    null = act(pos(hands={0: ["ac13"], 1: ["br03"]}, pos=("c3", "c4")), "use ac13")
    assert game.legal_commands(null, 1) == ["chain br03", "pass"]


def test_an_it_card_a_chain_kept_from_resolving_goes_to_the_trash():
    """Project ruling (docs/rules/logic_square.md): ""Every card revealed in the chain goes to the trash": an IT card revealed in a
    chain that did not resolve goes to its owner's trash; an IT card that resolved goes face up to
    the IT area (6.C)."  8. 公開されたお互いのカードすべてをトラッシュに置きます。"""
    state = pos(hands={0: ["br01", "ac13"], 1: ["ac11"]}, it={0: ["it05"]}, pos=("c3", "c4"))
    state = act(state, "it it05 br01", "chain ac11", "chain ac13")
    assert game.view(state, None)["last"]["resolved"] == [2, 1]
    assert list(state.it_used[0]) == [] and list(state.it_left[0]) == []
    assert "it05" in list(state.trash[0])
    assert life(state) == (450, 470)


def test_a_destroyed_placed_card_goes_to_the_trash_an_it_card_too():
    """Project ruling (docs/rules/logic_square.md): "A placed card of any category destroyed at 0 durability goes to its owner's trash."
    (2.③ 設置するカード … 耐久値が0になるとトラッシュに置きます.)"""
    state = pos(hands={0: ["ac01"]}, placed=[("c3", 1, "it02", 10)], pos=("c1", "c5"))
    state = act(state, "use ac01")
    assert game.view(state, None)["board"]["placed"] == []
    assert list(state.trash[1]) == ["it02"] and list(state.it_used[1]) == []


def test_an_answer_can_dodge_because_ranges_are_checked_again_at_resolution():
    """Engine ruling: each resolving card hits what is in its range when it resolves."""
    state = pos(hands={0: ["ac13"], 1: ["ac04"]}, pos=("c3", "c4"))
    state = act(state, "use ac13")
    assert game.legal_commands(state, 1) == ["chain ac04 b4", "chain ac04 d4", "chain ac04 c5", "pass"]
    state = act(state, "chain ac04 d4")
    assert square_of(state, 1) == "d4" and life(state) == (500, 500)


def test_a_move_or_placement_fizzles_when_its_square_is_taken_first():
    """Engine ruling: a card that places or moves whose square is no longer free when it resolves
    does nothing (it still goes to the trash)."""
    state = pos(hands={0: ["ac04"], 1: ["ac04"]}, pos=("c2", "c4"))
    state = act(state, "use ac04 c3", "chain ac04 c3")                  # seat 1 resolves first
    assert square_of(state, 1) == "c3" and square_of(state, 0) == "c2"
    events = game.view(state, None)["last"]["events"]
    assert {"type": "fizzle", "seat": 0, "card": "ac04", "square": "c3"} in events
    assert list(state.trash[0]) == ["ac04"] and list(state.trash[1]) == ["ac04"]


def test_moving_inside_the_range_does_not_dodge():
    """Engine ruling: each resolving card hits what is in its range when it resolves."""
    state = pos(hands={0: ["ac11"], 1: ["ac04"]}, pos=("c2", "d3"))
    state = act(state, "use ac11", "chain ac04 c3")                     # Chain Breaker reaches c3 too
    assert square_of(state, 1) == "c3" and life(state) == (500, 450)


def test_the_match_ends_at_once_when_a_resolving_card_knocks_out():
    """7. ライフポイントが0以下になったプレイヤーが敗北します。 — the other card of the chain does not resolve."""
    state = pos(hands={0: ["ac13"], 1: ["ac11"]}, pos=("c3", "c4"), life=(40, 500))
    state = act(state, "use ac13", "chain ac11")
    assert game.outcome(state) == {"winners": [1], "reason": "knockout"}
    assert life(state) == (-10, 500)
    assert game.view(state, None)["last"]["resolved"] == [1]
    assert list(state.trash[0]) == ["ac13"] and game.to_act(state) == []


def test_responses_cost_no_ap_and_work_on_the_opponents_turn_with_zero_ap():
    """8. APの消費をしないで、使用の宣言ができます。"""
    state = pos(ap=1, hands={0: ["ac13"], 1: ["ac11"]}, pos=("c3", "c4"), decks={1: ["sc01"]})
    state = act(state, "use ac13")
    assert state.ap == 0 and game.to_act(state) == [1]
    state = act(state, "chain ac11")
    assert state.player == 1 and life(state) == (450, 470)               # then the turn passed


# ============================================================================ effects

def test_push_and_pull_stop_at_the_area_edge_and_obstacles():
    """Project ruling (docs/rules/logic_square.md): "An AVI never enters the opponent's area nor an occupied square." (pushes too)"""
    state = pos(hands={0: ["ac07"]}, pos=("c3", "c4"), placed=[("c5", 1, "sc03", 60)])
    state = act(state, "use ac07")
    assert square_of(state, 1) == "c4"                                   # blocked by the placed card
    grapple = pos(hands={0: ["ac08"]}, pos=("c1", "c5"))                 # pull 2: c5 -> c4 -> c3
    grapple = act(grapple, "use ac08")
    assert square_of(grapple, 1) == "c3"
    grapple = pos(hands={0: ["ac08"]}, pos=("c2", "c5"))                 # from c2, reach c4–c5
    grapple = act(grapple, "use ac08")
    assert square_of(grapple, 1) == "c3"                                 # never into seat 0's area


def test_shield_lasts_until_the_start_of_its_owners_next_turn():
    """Engine ruling: shields end when their owner's next turn begins."""
    state = pos(hands={0: ["ac05"]}, decks={0: ["sc01"] * 5, 1: ["sc01"] * 5},
                avis=("av01", "av02"), pos=("c3", "c4"), edition=2)
    state = act(state, "use ac05", "end")
    assert state.shield == (40, 0) and state.player == 1
    state = act(state, "avi 2")                                          # Shield Bash 40
    assert life(state) == (500, 500)
    state = act(state, "end")
    assert state.player == 0 and state.shield == (0, 0)


def test_ap_gained_in_the_main_phase_is_immediate_and_outside_it_is_banked():
    """Engine ruling: AP changes for a player outside their own main phase apply at their next one."""
    state = pos(ap=1, hands={0: ["sc05", "ac01"]}, pos=("c3", "c4"))
    state = act(state, "use sc05")
    assert state.ap == 2 and state.player == 0
    rooted = pos(hands={0: ["sc09", "ac01"]}, it={0: ["it03"]}, decks={1: ["ac01"] * 5})
    rooted = act(rooted, "it it03 ac01 sc09", "end")
    assert rooted.player == 1 and rooted.ap == 2                          # 3 - 1


def test_trash_effects_from_hand_are_random_and_public_from_deck_are_the_top():
    """4.⑤ トラッシュに置くカードはすべて表向きで置き — trashed cards are public; random choices use the
    match's seeded PRNG."""
    state = pos(hands={0: ["sc09"], 1: ["ac01", "ac02", "ac03"]}, pos=("c1", "c5"))
    state = act(state, "use sc09")
    assert len(state.hand[1]) == 1 and len(state.trash[1]) == 2
    ev = [e for e in game.view(state, None)["last"]["events"] if e["type"] == "trash"][0]
    assert ev["seat"] == 1 and sorted(ev["cards"]) == sorted(state.trash[1])
    spike = pos(hands={0: ["ac14", "ac14"]}, decks={1: ["sc01", "sc02"]}, pos=("c3", "c4"))
    spike = act(spike, "use ac14")
    assert list(spike.trash[1]) == ["sc01"] and list(spike.deck[1]) == ["sc02"]
    miss = pos(hands={0: ["ac14"]}, decks={1: ["sc01"]}, pos=("c3", "e4"), placed=[("b4", 1, "sc03", 60)])
    miss = act(miss, "use ac14")                                         # hits only the placed card
    assert list(miss.deck[1]) == ["sc01"]


def test_turrets_fire_and_docks_heal_at_the_start_of_their_owners_main_phase():
    """Engine ruling: auras of the turn player's placed cards act at the start of the main phase."""
    state = pos(player=1, pos=("c1", "c5"), life=(500, 400), decks={0: ["sc01"] * 5},
                placed=[("c2", 0, "sc06", 50), ("b1", 0, "sc12", 60), ("c4", 1, "sc03", 60)])
    state = act(state, "end")
    assert state.player == 0
    assert life(state) == (500, 370)                                     # c3–c5: the wall and the AVI
    placed = {p["square"]: p["durability"] for p in game.view(state, None)["board"]["placed"]}
    assert placed["c4"] == 30                                            # the turret hit the wall
    hurt = pos(player=1, pos=("c1", "c5"), life=(300, 500), decks={0: ["sc01"] * 5},
               placed=[("b1", 0, "sc12", 60)])
    assert life(act(hurt, "end")) == (330, 500)


def test_lose_life_is_never_reduced():
    """Engine ruling: damage reductions apply to damage, never to life a card makes its user lose."""
    state = pos(hands={0: ["ac12"]}, pos=("c2", "c4"), avis=("av02", "av01"), life=(240, 500))
    state = act(state, "use ac12")                                       # Aegis awakened: -20 per hit
    assert life(state) == (190, 350)


# ============================================================================ awakening (9.)

def test_awakening_is_on_while_life_is_at_most_x():
    """9. 自身の《AVI》カードのライフポイントがX以下となった場合、効果が働きます。
    project ruling (docs/rules/logic_square.md): "Awakening <覚醒 X>: the effect is on while the AVI's life ≤ X." """
    state = pos(hands={0: ["ac01"]}, pos=("c2", "c4"), avis=("av01", "av02"), life=(200, 500), edition=2)
    assert game.view(state, None)["board"]["avis"][0]["awakened"] is True
    assert life(act(state, "use ac01")) == (200, 440)                    # 40 + 20
    above = pos(hands={0: ["ac01"]}, pos=("c2", "c4"), avis=("av01", "av02"), life=(201, 500), edition=2)
    assert game.view(above, None)["board"]["avis"][0]["awakened"] is False
    assert life(act(above, "use ac01")) == (201, 460)


def test_awakening_turns_off_again_when_life_rises_above_x():
    """Project ruling (docs/rules/logic_square.md): "the effect is on while the AVI's life ≤ X" — not once awakened, always awakened."""
    state = pos(hands={0: ["sc02", "ac01"]}, pos=("c2", "c4"), avis=("av01", "av02"), life=(180, 500), edition=2)
    state = act(state, "use sc02", "use ac01")
    assert life(state) == (240, 460)


def test_awakening_can_be_switched_off_as_a_house_option():
    """House option `awakening`: false turns every <覚醒 X> effect off."""
    state = pos(hands={0: ["ac01"]}, pos=("c2", "c4"), avis=("av01", "av02"), life=(100, 500),
                awakening=False)
    assert game.view(state, None)["board"]["avis"][0]["awakened"] is False
    assert game.view(state, None)["awakening_rule"] is False
    assert life(act(state, "use ac01")) == (100, 460)
    assert game.new_match(2, 1, {"awakening": False}).awakening is False
    assert game.new_match(2, 1, {}).awakening is True


def test_each_starter_awakening_works():
    """9. <覚醒 X> … 効果が働きます — each starter AVI's awakening modifier."""
    aegis = pos(hands={0: ["ac01"]}, pos=("c2", "c4"), avis=("av01", "av02"), life=(500, 250), edition=2)
    assert life(act(aegis, "use ac01")) == (500, 230)                    # -20 damage
    cipher = pos(player=1, avis=("av03", "av02"), life=(150, 500), decks={0: ["sc01"] * 5}, edition=2)
    assert act(cipher, "end").ap == 4                                    # +1 AP
    fox = pos(avis=("av04", "av02"), pos=("c3", "c4"), life=(200, 500), edition=2)
    fox = act(fox, "avi 2")                                              # Tail Whip 2 -> 1 AP
    assert fox.ap == 2
    assert act(fox, "avi 1 a3").ap == 1                                  # Slipstream stays at 1


def test_life_is_capped_at_500():
    """5.⑥ ※ ライフポイントの上限は500です。"""
    state = pos(hands={0: ["sc02"]}, life=(470, 500))
    assert life(act(state, "use sc02")) == (500, 500)


# ============================================================================ the end of the match (7.)

def test_a_player_at_zero_life_or_below_loses():
    """7. ライフポイントが0以下になったプレイヤーが敗北します。"""
    state = pos(hands={0: ["ac01"]}, pos=("c2", "c4"), life=(500, 40), avis=("av01", "av03"))
    state = act(state, "use ac01")
    assert game.outcome(state) == {"winners": [0], "reason": "knockout"}
    assert state.phase == "over" and game.to_act(state) == [] and game.public_to_act(state) == []
    rejected(state, 0, "end", "logic_square.err.game_over")


def test_both_avis_at_zero_at_the_same_moment_is_a_draw():
    """Project ruling (docs/rules/logic_square.md): "Both AVIs at ≤ 0 life at the same moment: draw." """
    state = pos(hands={0: ["ac15"]}, pos=("c3", "d3"), life=(100, 100))
    state = act(state, "use ac15")
    assert game.outcome(state) == {"winners": [], "reason": "double_knockout"}


def test_losing_life_by_your_own_card_can_lose_the_match():
    """7. ライフポイントが0以下になったプレイヤーが敗北します。"""
    state = pos(hands={0: ["ac12"]}, pos=("c2", "c4"), life=(40, 500))
    assert game.outcome(act(state, "use ac12")) == {"winners": [1], "reason": "knockout"}


def test_a_lethal_card_wins_and_what_it_does_then_does_not_happen():
    """Project ruling (docs/rules/logic_square.md): "A card's effects resolve in printed order, and the match ends
    the moment an AVI's life is 0 or less; what a card does "then" (その後) after knocking the
    opponent out does not happen (a lethal Zero-Day-Burst-like card wins, it is not a double
    knockout)."  Zero-Day Burst: 「ヒットダメージ150。その後、自身の《AVI》のライフを50失う。」"""
    state = pos(hands={0: ["ac12"]}, pos=("c2", "c4"), life=(40, 100))
    state = act(state, "use ac12")
    assert game.outcome(state) == {"winners": [0], "reason": "knockout"}
    assert life(state)[0] == 40 and life(state)[1] <= 0   # the 50 life is never lost
    # not lethal: the "then" happens, and can knock its own user out
    state = pos(hands={0: ["ac12"]}, pos=("c2", "c4"), life=(40, 500))
    after = act(state, "use ac12")
    assert life(after)[0] == -10 and 0 < life(after)[1] < 500
    assert game.outcome(after) == {"winners": [1], "reason": "knockout"}


def test_both_decks_empty_higher_life_wins_at_the_end_of_that_turn():
    """7. お互いのライフポイントが0より大きい場合でも、両者のリソースデッキが0枚になった場合、そのターンの
    終了時にライフポイントの多いプレイヤーが勝利します。"""
    state = pos(hands={0: ["ac01", "sc01"]}, decks={0: ["sc02"], 1: []}, pos=("c2", "c4"), life=(300, 400), edition=2)
    state = act(state, "use sc01")                                       # draws the last card
    assert state.deck == ((), ()) and game.outcome(state) is None        # not before the turn ends
    state = act(state, "use ac01")
    assert life(state) == (300, 360) and game.outcome(state) is None
    state = act(state, "end")
    assert game.outcome(state) == {"winners": [1], "reason": "decks_out"}


def test_both_decks_empty_with_equal_life_is_a_draw():
    """Project ruling (docs/rules/logic_square.md): "Both resource decks empty: at the end of that turn the higher life wins; equal life is a draw." """
    state = pos(life=(300, 300))
    assert game.outcome(act(state, "end")) == {"winners": [], "reason": "decks_out"}


def test_one_empty_deck_does_not_end_the_match():
    """7. 両者のリソースデッキが0枚になった場合 — both, not one."""
    state = pos(decks={0: [], 1: ["sc01"]})
    state = act(state, "end")
    assert game.outcome(state) is None and state.player == 1


def test_turn_limit_house_rule_ends_with_the_higher_life():
    """House rule `max_turns` (default 100 turns in all): then the higher life wins, equal draws."""
    state = pos(turn=10, max_turns=10, decks={0: ["sc01"] * 5, 1: ["sc01"] * 5}, life=(200, 100))
    assert game.outcome(act(state, "end")) == {"winners": [0], "reason": "turn_limit"}
    state = pos(turn=9, max_turns=10, decks={0: ["sc01"] * 5, 1: ["sc01"] * 5})
    state = act(state, "end")
    assert game.outcome(state) is None and state.turn == 10
    assert game.outcome(act(state, "end")) == {"winners": [], "reason": "turn_limit"}
    assert game.new_match(2, 1, {}).max_turns == 100


# ============================================================================ options

def test_option_schema():
    """docs/engine.md option_schema: {name: {"default", "choices"} | {"default", "min", "max"}}."""
    assert game.option_schema() == {
        "decks": {"default": ["blitz", "aegis"], "choices": ["blitz", "aegis", "cipher", "fox"]},
        "first": {"default": None, "choices": [None, 0, 1]},
        "max_turns": {"default": 100, "min": 10, "max": 1000},
        "awakening": {"default": True, "choices": [True, False]},
    }


def test_default_decks_are_the_first_two_ready_made_decks_by_seat():
    """The brief: default = two ready-made decks chosen by seat."""
    state = game.new_match(2, 1, {})
    assert state.avi == ("av01", "av02")


def test_decks_by_id_code_spec_and_text():
    """The brief: each deck spec is a ready-made deck id or {"avi", "resources", "it"} (or a deck code)."""
    from rules.logic_square import encode_deck
    fox = game.cardset.decks["fox"].to_spec()
    for decks in (["cipher", "fox"], "cipher/fox", ["cipher", encode_deck(fox)], ["CIPHER", fox]):
        state = game.new_match(2, 1, {"decks": decks})
        assert state.avi == ("av03", "av04")


@pytest.mark.parametrize("options, words", [
    ({"colour": 1}, ["decks, first, max_turns, awakening"]),
    ({"first": 2}, ["0 or 1"]),
    ({"first": True}, ["0 or 1"]),
    ({"max_turns": 9}, ["between 10 and 1000"]),
    ({"max_turns": "lots"}, ["whole number"]),
    ({"awakening": "maybe"}, ["true or false"]),
    ({"decks": ["blitz"]}, ["2 decks"]),
    ({"decks": ["blitz", "nope"]}, ["seat 1", "unknown deck 'nope'", "blitz, aegis"]),
    ({"decks": ["blitz", "ls1-av01-ac01-it01-0000"]}, ["seat 1", "typo"]),
    ({"decks": [{"avi": "ac01", "resources": ["ac12", "ac15"] + ["ac01"] * 5, "it": ["it01", "it01"]}, "fox"]},
     ["seat 0", "illegal deck", "AVI", "7 cards", "red cards", "ac01 is white", "5 IT", "twice"]),
])
def test_bad_options_raise_value_error_naming_the_problem(options, words):
    """The engine contract (docs/engine.md): "Options are validated: an unknown option or value raises ValueError with a clear message." """
    with pytest.raises(ValueError) as info:
        game.new_match(2, 1, options)
    for word in words:
        assert word in str(info.value), (word, str(info.value))


def test_rematch_the_loser_moves_first():
    """Ruling (5.④ 適当な方法で先攻プレイヤーを決める): in a rematch the loser moves first; after a draw, random."""
    opts = {"max_turns": 50, "decks": ["fox", "cipher"]}
    assert game.rematch_options(opts, {"winners": [0], "reason": "knockout"}) == dict(opts, first=1)
    assert game.rematch_options({"first": 1}, {"winners": [1], "reason": "knockout"}) == {"first": 0}
    assert game.rematch_options({"first": 0}, {"winners": [], "reason": "decks_out"}) == {}
    assert opts == {"max_turns": 50, "decks": ["fox", "cipher"]}
    game.new_match(2, 1, game.rematch_options(opts, {"winners": [0], "reason": "knockout"}))


# ============================================================================ notation

@pytest.mark.parametrize("typed, canonical", [
    ("USE ac01", "use ac01"),
    ("  use   ac01 ", "use ac01"),
    ("caa ac02+ac01", "caa ac01 ac02"),
    ("caa ac02,ac01", "caa ac01 ac02"),
    ("it it01 ac02 ac01", "it it01 ac01 ac02"),
    ("it it01 ac02+ac01", "it it01 ac01 ac02"),
    ("c3", "move c3"),
    ("MOVE C3", "move c3"),
    ("avi 01", "avi 1"),
])
def test_friendly_spellings(typed, canonical):
    """The engine contract (docs/engine.md): "apply accepts it (and may accept friendly variants)"."""
    state = pos(hands={0: ["ac01", "ac02"]}, it={0: ["it01"]}, pos=("c2", "c4"), avis=("av01", "av02"))
    assert game.public_command(state, 0, typed) == canonical
    assert game.dump(game.apply(state, 0, typed)) == game.dump(game.apply(state, 0, canonical))


def test_each_token_level_offers_at_most_25_choices():
    """The Discord UI builds commands token by token: ≤ 25 distinct next tokens per level."""
    hand = ["ac01", "ac02", "ac03", "ac13", "sc01", "sc02", "sc09", "br01", "ac06", "ac07", "ac11"]
    state = pos(hands={0: hand}, it={0: ["it01", "it03", "it04", "it06", "it08"]}, pos=("c2", "c4"),
                avis=("av04", "av02"))
    legal = game.legal_commands(state, 0)
    assert len(legal) > 100
    for depth in range(6):
        groups: dict[tuple, set] = {}
        for cmd in legal:
            toks = cmd.split()
            if len(toks) > depth:
                groups.setdefault(tuple(toks[:depth]), set()).add(toks[depth])
        assert all(len(v) <= 25 for v in groups.values())


def test_legal_commands_apply_and_are_canonical():
    """The engine contract (docs/engine.md): "legal_commands returns the canonical spelling; apply accepts it"."""
    state = pos(hands={0: ["ac01", "sc03", "sc05"]}, it={0: ["it02", "it06"]}, pos=("c2", "c4"),
                avis=("av04", "av02"), decks={0: ["sc01"] * 6, 1: ["sc01"] * 6})
    for cmd in game.legal_commands(state, 0):
        assert game.public_command(state, 0, cmd) == cmd
        game.apply(state, 0, cmd)


# ============================================================================ bad input

@pytest.fixture
def midgame():
    return pos(hands={0: ["ac01", "sc03", "br01"], 1: ["ac11"]}, it={0: ["it01"]}, pos=("c2", "c4"),
               avis=("av01", "av02"), placed=[("b3", 1, "sc03", 60)])


@pytest.mark.parametrize("seat, command, key", [
    (1, "end", "logic_square.err.not_your_turn"),
    (2, "end", "logic_square.err.not_your_turn"),
    (0, "", "logic_square.err.empty"),
    (0, "   ", "logic_square.err.empty"),
    (0, None, "logic_square.err.syntax"),
    (0, "12 34", "logic_square.err.syntax"),
    (0, "jump c3", "logic_square.err.unknown_verb"),
    (0, "move", "logic_square.err.syntax"),
    (0, "move c3 c4", "logic_square.err.syntax"),
    (0, "move z9", "logic_square.err.unknown_square"),
    (0, "end now", "logic_square.err.syntax"),
    (0, "use", "logic_square.err.syntax"),
    (0, "use c3", "logic_square.err.syntax"),
    (0, "use zz99", "logic_square.err.unknown_card"),
    (0, "use ac02", "logic_square.err.unknown_card"),
    (0, "use ac11", "logic_square.err.not_in_hand"),
    (0, "use sc03 q1", "logic_square.err.unknown_square"),
    (0, "use br01", "logic_square.err.br_chain_only"),
    (0, "use av01", "logic_square.err.not_in_hand"),
    (0, "avi", "logic_square.err.syntax"),
    (0, "avi x", "logic_square.err.syntax"),
    (0, "avi 9", "logic_square.err.avi_ability"),
    (0, "avi 1 c3", "logic_square.err.square_not_allowed"),
    (0, "it", "logic_square.err.syntax"),
    (0, "it ac01", "logic_square.err.it_unknown"),
    (0, "it it01 ac01 sc03", "logic_square.err.build"),
    (0, "caa ac01 ac01", "logic_square.err.cards_not_in_hand"),
    (0, "chain ac01", "logic_square.err.no_window"),
    (0, "pass", "logic_square.err.no_window"),
])
def test_bad_input_is_refused_and_changes_nothing(midgame, seat, command, key):
    """The engine contract (docs/engine.md): apply "raises IllegalCommand(reason) for anything not legal: wrong seat, bad
    syntax, rule violation — with a message a player can act on"; the old state is not changed."""
    err = rejected(midgame, seat, command, key)
    if "legal" in err.params:
        assert err.params["legal"].split(", ")[0] in game.legal_commands(midgame, 0)


def test_apply_returns_a_new_state_and_never_mutates_the_old(midgame):
    """The engine contract (docs/engine.md): "-> new state; the old one is not changed"."""
    before = game.dump(midgame)
    for cmd in game.legal_commands(midgame, 0):
        new = game.apply(midgame, 0, cmd)
        assert new is not midgame
        assert game.dump(midgame) == before


def test_timeout_command_passes_in_a_window_and_discards_the_newest_card():
    """Contract addition timeout_command: the host's default for a seat whose clock ran out."""
    state = pos(hands={0: ["ac13"], 1: ["ac11"]}, pos=("c3", "c4"))
    assert game.timeout_command(state, 0) is None                        # main phase: none
    window = act(state, "use ac13")
    assert game.timeout_command(window, 1) == "pass" and game.timeout_command(window, 0) is None
    full = pos(hands={0: ["ac01", "ac02", "ac03", "sc01", "sc02", "sc03"]}, decks={1: ["sc01"]})
    full = act(full, "end")
    assert game.timeout_command(full, 0) == "discard sc03"
    game.apply(full, 0, game.timeout_command(full, 0))


# ============================================================================ dump / load

def test_dump_load_round_trip_is_exact_also_mid_chain():
    """The engine contract (docs/engine.md): "dump(state) -> str; load(s) … JSON text round-trip, exact"."""
    state = pos(hands={0: ["ac13"], 1: ["ac11"]}, pos=("c3", "c4"), placed=[("a2", 1, "sc03", 60)])
    for s in (state, act(state, "use ac13"), act(state, "use ac13", "chain ac11"), game.new_match(2, 5, {})):
        text = game.dump(s)
        again = game.load(text)
        assert again == s and game.dump(again) == text
        json.loads(text)
    with pytest.raises(ValueError):
        game.load(json.dumps({"game": "squares", "version": 1}))


def test_a_match_keeps_its_own_card_definitions():
    """The brief: new_match copies the definitions of the cards of both decks into the state, so a
    match replays identically even if card files change later."""
    from rules.logic_square import LogicSquareGame
    state = game.new_match(2, 9, {"decks": ["fox", "cipher"]})
    used = set(game.cardset.decks["fox"].resources) | set(game.cardset.decks["cipher"].resources)
    assert used <= set(state.cards.cards) and "av04" in state.cards and "av01" not in state.cards
    other = LogicSquareGame(game.cardset.subset(["av01"]))              # a game without those cards
    again = other.load(game.dump(state))
    seat = other.to_act(again)[0]
    cmd = game.legal_commands(state, seat)[0]
    assert other.dump(other.apply(again, seat, cmd)) == game.dump(game.apply(state, seat, cmd))


def test_a_match_started_before_the_rulings_plays_on_under_its_own_edition():
    """A ruling never changes a match already under way: the project rulings of issue 16 (docs/rules/logic_square.md) are rules
    edition 2; a match started before them keeps edition 1 in its record and replays exactly as it
    was played (docs/rules/logic_square.md, "Rules editions")."""
    assert game.editions[:2] == (1, 2)          # edition 3: the balance numbers (test_logic_square_balance.py)
    assert game.new_match(seed=3, edition=2).edition == 2
    # edition 1: a lethal Zero-Day Burst still did its "then" — both AVIs at 0 or less, a draw
    old = act(pos(hands={0: ["ac12"]}, pos=("c2", "c4"), life=(40, 100), edition=1), "use ac12")
    assert life(old)[0] == -10 and game.outcome(old)["winners"] == []
    # edition 1: Wall Breaker took the AP from the turn in which it resolved
    wall = act(pos(hands={0: ["sc03"], 1: ["br08"]}, pos=("c2", "c4"), edition=1), "use sc03 c3", "chain br08")
    assert wall.ap == 1 and wall.ap_bank == (0, 0)
    # the edition survives a dump (a snapshot) and a state stored before editions loads as edition 1
    assert game.load(game.dump(wall)).edition == 1
    data = json.loads(game.dump(game.new_match(seed=3, edition=2)))
    assert data.pop("edition") == 2 and game.load(json.dumps(data)).edition == 1
    with pytest.raises(ValueError):
        game.new_match(seed=3, edition=game.editions[-1] + 1)
