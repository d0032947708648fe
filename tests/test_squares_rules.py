"""SQUARES: every rule of the rulebook and every project ruling (docs/rules/squares.md).

Each test quotes the clause it checks.  Positions are built with ``game.position`` (seat ->
{square: label}); seat 0 plays from rank 1, seat 1 from rank 5; rank 3 is the centre row.
"""
from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

from data import i18n
from rules import IllegalCommand, registry

ROOT = Path(__file__).resolve().parent.parent
game = registry.get("squares")


def pos(seat0: dict | None = None, seat1: dict | None = None, player: int = 0, **kw):
    return game.position({0: seat0 or {}, 1: seat1 or {}}, player=player, **kw)


def at(state, square):
    """(owner, label) of the piece on ``square`` or None."""
    for p in game.view(state, None)["pieces"]:
        if p["square"] == square:
            return p["owner"], p["label"]
    return None


def reserve(state, seat):
    return {f'{r["kind"]}{r["number"]}' for r in game.view(state, None)["reserves"][seat]}


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


# ----------------------------------------------------------------------------- setup

def test_contract_attributes_and_registry():
    assert game.name == "squares" and game.min_players == 2 and game.max_players == 2
    assert "squares" in registry.names()


def test_first_player_is_seeded_and_option_first_overrides():
    """Project ruling (docs/rules/squares.md): "First player: random for a first match" — from the seeded PRNG in the state."""
    firsts = {game.new_match(2, seed, {}).first for seed in range(40)}
    assert firsts == {0, 1}
    for seed in range(10):
        assert game.new_match(2, seed, {}).first == game.new_match(2, seed, {}).first
        a, b = game.new_match(2, seed, {}), game.new_match(2, seed, {})
        assert game.dump(a) == game.dump(b)
    for first in (0, 1):
        state = game.new_match(2, 5, {"first": first})
        assert game.to_act(state) == [first] and game.view(state, None)["first"] == first


def test_each_player_starts_with_ten_pieces_in_reserve():
    """1.(1) 各プレイヤーは、10枚(1セット)を手元に持ちます。表援護・裏飛躍1～5、表交換・裏補給1～5のセット
    project ruling (docs/rules/squares.md): "Each player owns 10 pieces: A1–A5 (face Support n, back Leap n) and B1–B5"."""
    state = game.new_match(2, 1, {"first": 0})
    view = game.view(state, None)
    for seat in (0, 1):
        assert view["reserves"][seat] == [{"kind": k, "number": n} for k in "AB" for n in range(1, 6)]
    assert view["pieces"] == [] and view["phase"] == "play" and view["turn"] == 0


# ----------------------------------------------------------------------------- placing

def test_placement_only_on_nearest_row():
    """3.(1) 手元にあるコマのどれかを手前の列のどこかに出せます。
    project ruling (docs/rules/squares.md): "A player's "nearest row" is their row 1." (rank 1 for seat 0, rank 5 for seat 1)"""
    state = game.new_match(2, 1, {"first": 0})
    places = [c for c in game.legal_commands(state, 0) if c.startswith("place")]
    assert {c.split()[2] for c in places} == {"a1", "b1", "c1", "d1", "e1"}
    err = rejected(state, 0, "place S3 c2", "squares.err.not_nearest_row")
    assert "rank 1" in err.reason
    state = game.apply(state, 0, "place S3 c1")
    places = [c for c in game.legal_commands(state, 1) if c.startswith("place")]
    assert {c.split()[2] for c in places} == {"a5", "b5", "c5", "d5", "e5"}
    rejected(state, 1, "place S3 c1", "squares.err.not_nearest_row")
    state = game.apply(state, 1, "place S3 c5")
    assert at(state, "c5") == (1, "S3")


def test_placement_either_side_up_and_a_piece_is_one_physical_piece():
    """3.(2) コマは、裏表どちらでも構いません。
    project ruling (docs/rules/squares.md): "A piece shows the same number on both sides ... The side is chosen when the piece
    is placed and never changes on the board." — so S3 and L3 are the same piece A3."""
    state = game.new_match(2, 1, {"first": 0})
    legal = game.legal_commands(state, 0)
    for label in ("S3", "L3", "X3", "P3"):
        assert f"place {label} a1" in legal
    state = game.apply(state, 0, "place L3 a1")
    state = game.apply(state, 1, "place S1 a5")
    assert "A3" not in reserve(state, 0)
    legal = game.legal_commands(state, 0)
    assert not any(c.startswith(("place S3", "place L3")) for c in legal)
    err = rejected(state, 0, "place S3 b1", "squares.err.not_in_reserve")
    assert "a1" in err.reason
    assert at(state, "a1") == (0, "L3")


def test_row_limit_on_placement():
    """3.(3) 列にある自分のコマの数字の合計値が上限値(基本は8)を超えてしまうコマは出せません。"""
    state = pos({"a1": "S5"}, {"a5": "S1"})
    assert "place S3 b1" in game.legal_commands(state, 0)          # 5 + 3 = 8
    err = rejected(state, 0, "place S4 b1", "squares.err.row_limit")  # 5 + 4 = 9
    assert "would total 9" in err.reason and "limit of 8" in err.reason
    assert err.params["legal"].startswith("place")


def test_supply_raises_its_owners_limit_including_the_arriving_piece():
    """5.(2)(b) 補給 常時能力 列の合計値上限が1増加します。
    project ruling (docs/rules/squares.md): "the sum of that player's own pieces in a row must stay ≤ 8 + (number of that
    player's Supply-up pieces in that row). Supply helps its owner only." """
    state = pos({"a1": "S5"}, {"a5": "S1"})
    assert "place P4 b1" in game.legal_commands(state, 0)          # 9 <= 8 + 1 (P4 itself)
    rejected(state, 0, "place X4 b1", "squares.err.row_limit")
    state = pos({"a1": "S5", "e1": "P1"}, {"a5": "S1"})            # 6, limit 9
    assert "place S3 b1" in game.legal_commands(state, 0)          # 9 <= 9
    rejected(state, 0, "place S4 b1", "squares.err.row_limit")     # 10 > 9
    assert game.view(state, None)["row_limits"][0] == [9, 8, 8, 8, 8]


def test_opponent_pieces_neither_count_nor_help_in_my_row():
    """Project ruling (docs/rules/squares.md): "Row limit: for each player separately ... Supply helps its owner only." """
    # seat 1 has P5 and S3 on rank 1 (their row 5): seat 0's limit there stays 8, sum 5
    state = pos({"a1": "S5"}, {"c1": "P5", "d1": "S3"})
    assert game.view(state, None)["row_sums"][0][0] == 5
    assert game.view(state, None)["row_limits"][0][0] == 8
    assert "place S3 b1" in game.legal_commands(state, 0)
    rejected(state, 0, "place S4 b1", "squares.err.row_limit")


def test_row_limit_message_counts_rows_from_the_players_side():
    """Project ruling (docs/rules/squares.md): "Rows are counted from each player's side" — seat 1's rank 5 is their row 1."""
    state = pos({"a1": "S1"}, {"a5": "S5"}, player=1)
    err = rejected(state, 1, "place S4 b5", "squares.err.row_limit")
    assert "Rank 5 (your row 1)" in err.reason


# ----------------------------------------------------------------------------- moving

def test_move_one_square_orthogonally():
    """4.(2) コマは縦横どちらかに1マス動かせます。"""
    state = pos({"c2": "S1"}, {"a5": "S1"})
    moves = {c for c in game.legal_commands(state, 0) if c.startswith("move")}
    assert moves == {"move c2 c1", "move c2 b2", "move c2 d2", "move c2 c3"}
    rejected(state, 0, "move c2 d3", "squares.err.not_adjacent")    # diagonal
    rejected(state, 0, "move c2 c4", "squares.err.not_adjacent")    # two squares
    rejected(state, 0, "move a5 a4", "squares.err.no_own_piece")    # not your piece
    rejected(state, 0, "move d4 d3", "squares.err.no_own_piece")    # empty square
    state = game.apply(state, 0, "move c2 c3")
    assert at(state, "c3") == (0, "S1") and at(state, "c2") is None


def test_own_pieces_never_share_a_square():
    """4.(3) 自分のコマは重ねて置けません。
    project ruling (docs/rules/squares.md): "A player's own pieces never share a square." """
    state = pos({"c1": "S1", "c2": "S2"}, {"a5": "S1"})
    assert "move c1 c2" not in game.legal_commands(state, 0)
    rejected(state, 0, "move c1 c2", "squares.err.own_piece_on_target")
    rejected(state, 0, "place S3 c1", "squares.err.own_piece_on_target")


def test_row_limit_on_move():
    """4.(4) 列にある自分のコマの数字の合計値が上限値(基本は8)を超えてしまう場合は動かせません。"""
    state = pos({"a2": "S5", "c2": "S3", "b1": "S1", "d1": "S2"}, {"a5": "S1"})
    legal = game.legal_commands(state, 0)
    assert "move b1 b2" not in legal and "move d1 d2" not in legal      # 8 + 1, 8 + 2
    rejected(state, 0, "move b1 b2", "squares.err.row_limit")
    assert "move b1 c1" in legal                                          # same row: fine
    state = pos({"a2": "S5", "c2": "P2", "b1": "S1"}, {"a5": "S1"})      # 7, limit 9
    assert "move b1 b2" in game.legal_commands(state, 0)


def test_move_into_battle_still_checks_the_movers_row_limit():
    """Project ruling (docs/rules/squares.md): "Place / move are illegal if the moving player's row sum would exceed their limit
    with the piece standing on its target square." (also when the target holds an opponent)"""
    state = pos({"a3": "S5", "c2": "S4"}, {"c3": "S1"})
    rejected(state, 0, "move c2 c3", "squares.err.row_limit")
    state = pos({"a1": "S5"}, {"b1": "S1"})
    rejected(state, 0, "place S4 b1", "squares.err.row_limit")


# ----------------------------------------------------------------------------- battle

def test_battle_higher_number_stays_lower_returns():
    """6.(3)(b) ①数字の小さいコマを、所有者の手元に戻します ②数字の大きいコマは、そのままマスに置きます"""
    state = pos({"c2": "L4"}, {"c3": "X3"})
    state = game.apply(state, 0, "move c2 c3")
    assert at(state, "c3") == (0, "L4")
    assert "B3" in reserve(state, 1) and "A4" not in reserve(state, 0)
    assert game.view(state, None)["last"]["battle"] == {
        "square": "c3", "attacker": 4, "defender": 3, "winner": "attacker"}
    state = pos({"c2": "L2"}, {"c3": "X3"})
    state = game.apply(state, 0, "move c2 c3")
    assert at(state, "c3") == (1, "X3") and "A2" in reserve(state, 0)
    assert game.view(state, None)["last"]["battle"]["winner"] == "defender"


def test_equal_battle_returns_both_pieces():
    """6.(3)(a) 数字が同じ場合 両方のコマを、所有者の手元に戻します。"""
    state = pos({"c2": "S3"}, {"c3": "P3"})
    state = game.apply(state, 0, "move c2 c3")
    assert at(state, "c3") is None and at(state, "c2") is None
    assert "A3" in reserve(state, 0) and "B3" in reserve(state, 1)
    assert game.view(state, None)["last"]["battle"]["winner"] == "both_returned"


def test_support_adds_one_for_each_side():
    """5.(2)(a) 援護 常時能力 隣接コマの数字が戦闘時のみ1増加します。
    6.(2)(a) 相手の援護コマが居た場合、相手の数字を、自分の援護コマが居た場合、自分の数字を増加させます。"""
    # attacker 3 + 1 (own Support on b3) = 4 beats defender 3
    state = pos({"c2": "L3", "b3": "S1"}, {"c3": "X3"})
    state = game.apply(state, 0, "move c2 c3")
    assert game.view(state, None)["last"]["battle"]["attacker"] == 4
    assert at(state, "c3") == (0, "L3")
    # defender 3 + 1 (seat 1's Support on d3) = 4 beats attacker 3 + 0
    state = pos({"c2": "L3"}, {"c3": "X3", "d3": "S1"})
    state = game.apply(state, 0, "move c2 c3")
    battle = game.view(state, None)["last"]["battle"]
    assert (battle["attacker"], battle["defender"], battle["winner"]) == (3, 4, "defender")
    # both sides supported: 4 vs 4 -> both return
    state = pos({"c2": "L3", "b3": "S1"}, {"c3": "X3", "d3": "S2"})
    state = game.apply(state, 0, "move c2 c3")
    assert game.view(state, None)["last"]["battle"]["winner"] == "both_returned"


def test_two_supports_stack():
    """6.(2)(b) 援護の効果は重複します。例えば、自分の援護が2枚隣接していた場合、数字の増加は2となります。"""
    state = pos({"c2": "L3", "b3": "S1", "d3": "S2"}, {"c3": "X4"})
    state = game.apply(state, 0, "move c2 c3")
    battle = game.view(state, None)["last"]["battle"]
    assert (battle["attacker"], battle["defender"], battle["winner"]) == (5, 4, "attacker")


def test_support_counts_only_orthogonal_neighbours_and_never_itself():
    """Project ruling (docs/rules/squares.md): "+ 1 for each of that side's own Support-up pieces orthogonally adjacent to the
    battle square" — diagonal Supports and the battling piece itself do not count."""
    state = pos({"c2": "S3", "b2": "S1", "d4": "S2"}, {"c3": "X3"})
    state = game.apply(state, 0, "move c2 c3")
    battle = game.view(state, None)["last"]["battle"]
    assert (battle["attacker"], battle["defender"]) == (3, 3)


def test_supply_and_other_sides_do_not_support():
    """5.(2)(a) only 援護 (Support) boosts battles; Supply/Swap/Leap neighbours add nothing."""
    state = pos({"c2": "L3", "b3": "P1", "d3": "X2", "c4": "L2"}, {"c3": "X3"})
    state = game.apply(state, 0, "move c2 c3")
    assert game.view(state, None)["last"]["battle"]["attacker"] == 3


def test_battle_on_placement():
    """6.(1) 移動(出した)先に相手のコマがあった場合「戦闘」となります。
    project ruling (docs/rules/squares.md): "Moving or placing onto an opponent's piece starts a battle." """
    state = pos({"b1": "S1"}, {"c1": "X2"})
    assert "place S3 c1" in game.legal_commands(state, 0)
    state = game.apply(state, 0, "place S3 c1")
    battle = game.view(state, None)["last"]["battle"]
    assert battle == {"square": "c1", "attacker": 4, "defender": 2, "winner": "attacker"}
    assert at(state, "c1") == (0, "S3") and "B2" in reserve(state, 1)


def test_battle_ignores_limits_and_bonuses_never_count_toward_rows():
    """6.(1) 戦闘が始まって終わるまで各列の上限値は無視します。 — the winner stays with its printed
    number; the Support bonus is only for the comparison."""
    state = pos({"c2": "L4", "b3": "S2", "c4": "S1"}, {"c3": "X5"})
    state = game.apply(state, 0, "move c2 c3")        # 4 + 2 = 6 > 5
    view = game.view(state, None)
    assert at(state, "c3") == (0, "L4") and view["last"]["battle"]["attacker"] == 6
    assert view["row_sums"][0][2] == 2 + 4 and view["phase"] == "play"


# ----------------------------------------------------------------------------- leap

def test_leap_jumps_over_pieces_and_battles_on_landing():
    """5.(3)(a) 飛躍 選択能力 縦横どちらか、2マス先に動かします。間にコマがあっても飛び越えます。
    project ruling (docs/rules/squares.md): "Leap ... jumping anything; may land on an opponent (battle)" """
    state = pos({"c1": "L4", "c2": "S1"}, {"c3": "X3", "e1": "S2"})
    legal = {c for c in game.legal_commands(state, 0) if c.startswith("leap")}
    assert legal == {"leap c1 a1", "leap c1 e1", "leap c1 c3"}
    state = game.apply(state, 0, "leap c1 c3")
    assert at(state, "c3") == (0, "L4") and at(state, "c2") == (0, "S1") and at(state, "c1") is None
    assert game.view(state, None)["last"]["battle"]["attacker"] == 5   # 4 + S1 below


def test_leap_over_an_opponent_piece_to_an_empty_square():
    """5.(3)(a) 間にコマがあっても飛び越えます。 — no battle with the jumped piece."""
    state = pos({"c1": "L4"}, {"c2": "S5"})
    state = game.apply(state, 0, "leap c1 c3")
    assert at(state, "c3") == (0, "L4") and at(state, "c2") == (1, "S5")
    assert game.view(state, None)["last"]["battle"] is None


def test_leap_never_lands_on_own_piece():
    """Project ruling (docs/rules/squares.md): "Leap ... may land on an opponent (battle), never on an own piece." """
    state = pos({"c1": "L4", "c3": "S1"}, {"a5": "S1"})
    assert "leap c1 c3" not in game.legal_commands(state, 0)
    rejected(state, 0, "leap c1 c3", "squares.err.leap_own_piece")


def test_leap_is_exactly_two_squares_orthogonally_and_stays_on_the_board():
    """Project ruling (docs/rules/squares.md): "Leap (active, the piece's own action): move exactly 2 squares orthogonally" """
    state = pos({"a1": "L4"}, {"a5": "S1"})
    rejected(state, 0, "leap a1 a2", "squares.err.leap_distance")
    rejected(state, 0, "leap a1 c3", "squares.err.leap_distance")
    rejected(state, 0, "leap a1 a4", "squares.err.leap_distance")
    rejected(state, 0, "leap a1 a0", "squares.err.leap_off_board")
    rejected(state, 0, "leap a1 f1", "squares.err.leap_off_board")


def test_only_a_leap_up_piece_can_leap():
    """5.(3)(a) 飛躍 選択能力 — the ability of the Leap side; an S-up A piece cannot use it."""
    state = pos({"c1": "S4"}, {"a5": "S1"})
    rejected(state, 0, "leap c1 c3", "squares.err.no_leap")


def test_abilities_may_break_limits_then_the_player_returns_pieces():
    """5.(4)(a) 能力を使う場合は、列毎の数字合計の上限値を超えても構いません
    5.(4)(b) ①上限値以下になるまで、コマを手元に戻します。②どのコマを戻すかは、選択出来ます。"""
    state = pos({"c1": "L5", "a3": "S4"}, {"a5": "S1"})
    state = game.apply(state, 0, "leap c1 c3")          # rank 3: 4 + 5 = 9 > 8
    view = game.view(state, None)
    assert view["phase"] == "return" and view["to_act"] == [0] and view["over_limit"] == [[3], []]
    assert game.legal_commands(state, 0) == ["return a3", "return c3"]
    assert game.legal_commands(state, 1) == []
    assert view["turn"] == 0                          # the turn has not ended yet
    state = game.apply(state, 0, "return a3")
    view = game.view(state, None)
    assert view["phase"] == "play" and view["to_act"] == [1] and view["turn"] == 1
    assert "A4" in reserve(state, 0) and view["last"]["returned"] == ["a3"]


# ----------------------------------------------------------------------------- swap

def test_swap_with_opponent_piece_without_battle():
    """5.(3)(b) 交換 選択能力 隣接するコマと位置を交換出来ます。自分のコマでも、相手のコマでも交換出来ます。
    project ruling (docs/rules/squares.md): "Swap (active): exchange places with an orthogonally adjacent piece, own or
    opponent's, no battle." """
    state = pos({"c2": "X1"}, {"c3": "S5"})
    assert "swap c2 c3" in game.legal_commands(state, 0)
    state = game.apply(state, 0, "swap c2 c3")
    assert at(state, "c3") == (0, "X1") and at(state, "c2") == (1, "S5")
    assert game.view(state, None)["last"]["battle"] is None


def test_swap_with_own_piece():
    """5.(3)(b) 自分のコマでも … 交換出来ます。"""
    state = pos({"c2": "X1", "d2": "S5"}, {"a5": "S1"})
    state = game.apply(state, 0, "swap c2 d2")
    assert at(state, "c2") == (0, "S5") and at(state, "d2") == (0, "X1")


def test_swap_needs_an_adjacent_piece_and_a_swap_up_piece():
    """5.(3)(b) 隣接するコマと位置を交換 — an empty square or a distant piece cannot be swapped."""
    state = pos({"c2": "X1", "a1": "P2"}, {"c4": "S5"})
    rejected(state, 0, "swap c2 c3", "squares.err.swap_empty")
    rejected(state, 0, "swap c2 c4", "squares.err.swap_not_adjacent")
    rejected(state, 0, "swap c2 b1", "squares.err.swap_not_adjacent")     # diagonal
    rejected(state, 0, "swap a1 a2", "squares.err.no_swap")               # Supply-up B piece
    assert not any(c.startswith("swap") for c in game.legal_commands(state, 0))


def test_both_over_limit_opponent_returns_first_then_the_acting_player():
    """5.(4)(b)③ お互いに超えていた場合 ・相手側から、上限値以下になるまで、コマを戻します。
    ・手番側は、その後、上限値以下になるまで、コマを戻します。"""
    state = pos({"a3": "S4", "c2": "X5"}, {"c3": "L5", "a2": "S1", "e2": "L4"})
    state = game.apply(state, 0, "swap c2 c3")
    # seat 0: rank 3 = 4 + 5 = 9 > 8;  seat 1: rank 2 = 1 + 5 + 4 = 10 > 8
    assert game.view(state, None)["over_limit"] == [[3], [2]]
    assert game.to_act(state) == [1]
    assert game.legal_commands(state, 0) == []
    rejected(state, 0, "return a3", "squares.err.not_your_turn")
    state = game.apply(state, 1, "return a2")            # 9: still over -> seat 1 again
    assert game.to_act(state) == [1]
    state = game.apply(state, 1, "return e2")            # 5: within
    assert game.to_act(state) == [0] and game.view(state, None)["phase"] == "return"
    assert game.legal_commands(state, 0) == ["return a3", "return c3"]
    state = game.apply(state, 0, "return c3")
    view = game.view(state, None)
    assert view["phase"] == "play" and view["to_act"] == [1] and view["turn"] == 1
    assert view["last"]["returned"] == ["a2", "e2", "c3"]


def test_only_the_opponent_returns_when_only_the_opponent_is_over():
    """5.(4)(b) 各列の上限値以上のコマが配置されていた場合 … コマを手元に戻します (whoever is over)."""
    state = pos({"c2": "X1"}, {"c3": "L5", "e2": "L4"})
    state = game.apply(state, 0, "swap c2 c3")
    assert game.to_act(state) == [1]
    state = game.apply(state, 1, "return e2")
    assert game.to_act(state) == [1] and game.view(state, None)["phase"] == "play"


def test_return_must_be_an_own_piece_in_an_over_limit_row():
    """5.(4)(b)② どのコマを戻すかは、選択出来ます。 — engine ruling: a piece of the over-limit row."""
    state = pos({"c1": "L5", "a3": "S4", "e1": "S1"}, {"a5": "S1", "b3": "S5"})
    state = game.apply(state, 0, "leap c1 c3")
    rejected(state, 0, "return e1", "squares.err.return_not_over")
    rejected(state, 0, "return b3", "squares.err.no_own_piece")
    rejected(state, 0, "return d3", "squares.err.no_own_piece")
    rejected(state, 0, "move a3 a4", "squares.err.must_return")
    rejected(state, 0, "pass", "squares.err.must_return")
    rejected(state, 1, "return b3", "squares.err.not_your_turn")


# ----------------------------------------------------------------------------- winning

def test_three_centre_squares_win_at_turn_end():
    """基本ルール: 盤面中央の列(3列目)の5マス中、3マスを制圧したら勝ちです
    7. 相手の手番に移る際に、中央3列目の5マス中3マスに自分のコマがいれば勝利!"""
    state = pos({"a3": "S1", "b3": "S2", "c2": "S3"}, {"a5": "S1"})
    state = game.apply(state, 0, "move c2 c3")
    assert game.outcome(state) == {"winners": [0], "reason": "centre"}
    view = game.view(state, None)
    assert view["phase"] == "over" and view["to_act"] == [] and view["centre"] == [3, 0]
    assert view["outcome"] == {"winners": [0], "reason": "centre"}
    assert game.legal_commands(state, 0) == [] and game.legal_commands(state, 1) == []
    rejected(state, 1, "place S1 a5", "squares.err.game_over")


def test_win_is_checked_after_returns():
    """Project ruling (docs/rules/squares.md): "Win: when a turn ends, a player occupying at least 3 of the 5 centre squares
    wins" — after all returns: a centre piece returned for the limit no longer counts."""
    state = pos({"a3": "S5", "b3": "S2", "c1": "L3"}, {"a5": "S1"})
    state = game.apply(state, 0, "leap c1 c3")          # 3 centre pieces, rank 3 = 10 > 8
    assert game.outcome(state) is None and game.to_act(state) == [0]
    state = game.apply(state, 0, "return c3")
    assert game.outcome(state) is None and game.view(state, None)["centre"] == [2, 0]
    state = pos({"a3": "S5", "b3": "S2", "c1": "L3"}, {"a5": "S1"})
    state = game.apply(state, 0, "leap c1 c3")
    state = game.apply(state, 0, "return b3")            # 8: within, but only a3 and c3 remain
    assert game.outcome(state) is None


def test_opponent_wins_through_a_swap():
    """Project ruling (docs/rules/squares.md): "Win: when a turn ends, a player occupying at least 3 of the 5 centre squares wins
    (both cannot)." — both players are checked, so the acting player can hand the opponent a win."""
    state = pos({"c3": "X1"}, {"a3": "S1", "b3": "S2", "c4": "S3"})
    state = game.apply(state, 0, "swap c3 c4")
    assert game.outcome(state) == {"winners": [1], "reason": "centre"}


def test_worked_example_1_leap_battle_with_two_supports_wins():
    """Rulebook example: 飛躍2が能力を使用し、中央列相手の交換3がいるマスに移動。戦闘となり、常時能力を確認。
    左隣と下隣に援護が居るので、戦闘時の飛躍2の数字は4となる。相手の交換3より数字が大きくなる為戦闘に勝利、
    マス目に置く。… 補給3が居るので列の上限は8+1=9 左隣の援護4、補給3、今移動した飛躍2で合計9となり
    上限値を超えず、3枚が中央に置かれ、勝利となる。"""
    state = pos({"c1": "L2", "c2": "S1", "b3": "S4", "e3": "P3"}, {"c3": "X3", "a5": "S5"})
    state = game.apply(state, 0, "leap c1 c3")
    view = game.view(state, None)
    assert view["last"]["battle"] == {"square": "c3", "attacker": 4, "defender": 3,
                                      "winner": "attacker"}
    assert view["row_sums"][0][2] == 9 and view["row_limits"][0][2] == 9
    assert view["last"]["returned"] == []
    assert game.outcome(state) == {"winners": [0], "reason": "centre"}


def test_worked_example_2_swap_forces_opponent_return_and_wins():
    """Rulebook example: 交換3が能力を使用し、中央列相手の飛躍5と場所を交換。戦闘にはならずマス目に置かれた…
    相手は飛躍4と5が同列にあり9を超えた為、どちらかを手札に戻す。飛躍1、交換3、援護4の合計8となり上限を
    超えず、3枚が中央に置かれ勝利となる。"""
    for choice in ("c2", "e2"):
        state = pos({"a3": "L1", "b3": "S4", "c2": "X3"}, {"c3": "L5", "e2": "L4"})
        state = game.apply(state, 0, "swap c2 c3")
        assert game.view(state, None)["last"]["battle"] is None
        assert game.to_act(state) == [1]
        assert game.legal_commands(state, 1) == ["return c2", "return e2"]
        assert game.outcome(state) is None
        state = game.apply(state, 1, f"return {choice}")
        assert game.view(state, None)["row_sums"][0][2] == 8
        assert game.outcome(state) == {"winners": [0], "reason": "centre"}


# ----------------------------------------------------------------------------- pass and draws

def test_pass_is_refused_while_any_action_exists():
    """Project ruling (docs/rules/squares.md): "A player with no legal action passes." — so pass is refused otherwise."""
    state = game.new_match(2, 3, {"first": 1})
    err = rejected(state, 1, "pass", "squares.err.pass_not_allowed")
    assert err.params["count"] == len(game.legal_commands(state, 1))


def test_pass_when_no_action_is_the_only_command_and_ends_the_turn(monkeypatch):
    """Project ruling (docs/rules/squares.md): "A player with no legal action passes." — no reachable position leaves a player
    without an action (see the rules doc), so the generator is forced here to test the mechanism."""
    import rules.squares as sq

    real = sq._legal_cached
    monkeypatch.setattr(sq, "_legal_cached",
                        lambda board, player, phase, returner:
                        ("pass",) if phase == "play" and player == 0 else real(board, player, phase, returner))
    state = pos({"a1": "S1"}, {"a5": "S1"})
    assert game.legal_commands(state, 0) == ["pass"]
    state = game.apply(state, 0, "pass")
    assert game.to_act(state) == [1] and game.view(state, None)["turn"] == 1
    assert game.view(state, None)["last"]["command"] == "pass"


def test_a_player_always_has_an_action_from_the_opening():
    """Engine note in the rules doc: with the printed rules a pass is never forced."""
    state = game.new_match(2, 1, {"first": 0})
    assert "pass" not in game.legal_commands(state, 0)


def _shuffle(state, times):
    for _ in range(times):
        for seat, cmd in ((0, "move a1 b1"), (1, "move a5 b5"), (0, "move b1 a1"), (1, "move b5 a5")):
            state = game.apply(state, seat, cmd)
    return state


def test_repetition_draw_on_the_third_occurrence():
    """House rule (docs/rules/squares.md): "Draw by house rule when the same position with the same player to
    act occurs a third time" """
    state = game.new_match(2, 1, {"first": 0})
    state = game.apply(state, 0, "place S1 a1")
    state = game.apply(state, 1, "place S1 a5")        # position P, seat 0 to act: 1st
    state = _shuffle(state, 1)                          # 2nd
    assert game.outcome(state) is None
    for seat, cmd in ((0, "move a1 b1"), (1, "move a5 b5"), (0, "move b1 a1")):
        state = game.apply(state, seat, cmd)
        assert game.outcome(state) is None
    state = game.apply(state, 1, "move b5 a5")          # 3rd
    assert game.outcome(state) == {"winners": [], "reason": "repetition"}
    assert game.to_act(state) == [] and game.legal_commands(state, 0) == []


def test_repetition_option_changes_the_count():
    """Options: `repetition` (default 3, range 2..10)."""
    state = game.new_match(2, 1, {"first": 0, "repetition": 2})
    state = game.apply(state, 0, "place S1 a1")
    state = game.apply(state, 1, "place S1 a5")
    state = _shuffle(state, 1)
    assert game.outcome(state) == {"winners": [], "reason": "repetition"}


def test_turn_limit_draw():
    """House rule (docs/rules/squares.md): "Draw ... after 200 turns (both configurable)." """
    state = game.new_match(2, 1, {"first": 0, "max_turns": 10, "repetition": 10})
    cmds = ["place S1 a1", "place S1 a5", "move a1 b1", "move a5 b5", "move b1 c1",
            "move b5 c5", "move c1 d1", "move c5 d5", "move d1 e1"]
    for i, cmd in enumerate(cmds):
        state = game.apply(state, i % 2, cmd)
        assert game.outcome(state) is None
    state = game.apply(state, 1, "move d5 e5")
    assert game.view(state, None)["turn"] == 10
    assert game.outcome(state) == {"winners": [], "reason": "turn_limit"}


def test_default_turn_limit_is_200():
    assert game.new_match(2, 1, {}).max_turns == 200
    assert game.view(game.new_match(2, 1, {}), None)["max_turns"] == 200


def test_a_win_on_the_last_turn_beats_the_turn_limit():
    """Engine ruling: a win at the end of the last allowed turn is a win."""
    state = pos({"a3": "S1", "b3": "S2", "c2": "S3"}, {"a5": "S1"}, turn=9, max_turns=10)
    state = game.apply(state, 0, "move c2 c3")
    assert game.outcome(state) == {"winners": [0], "reason": "centre"}


# ----------------------------------------------------------------------------- options

def test_option_schema():
    schema = game.option_schema()
    assert schema == {
        "first": {"default": None, "choices": [None, 0, 1]},
        "max_turns": {"default": 200, "min": 10, "max": 1000},
        "repetition": {"default": 3, "min": 2, "max": 10},
    }


@pytest.mark.parametrize("options, word", [
    ({"colour": 1}, "first, max_turns, repetition"),
    ({"first": 2}, "0 or 1"),
    ({"first": "left"}, "0 or 1"),
    ({"first": True}, "0 or 1"),
    ({"max_turns": 9}, "between 10 and 1000"),
    ({"max_turns": 1001}, "between 10 and 1000"),
    ({"max_turns": "many"}, "whole number"),
    ({"max_turns": 20.5}, "whole number"),
    ({"repetition": 1}, "between 2 and 10"),
    ({"repetition": 11}, "between 2 and 10"),
    ({"repetition": False}, "whole number"),
])
def test_bad_options_raise_value_error_naming_allowed_values(options, word):
    """The engine contract (docs/engine.md): "Options are validated: an unknown option or value raises ValueError with a
    clear message." """
    with pytest.raises(ValueError) as info:
        game.new_match(2, 1, options)
    assert word in str(info.value)


def test_good_options_are_accepted():
    state = game.new_match(2, 1, {"first": "1", "max_turns": "50", "repetition": 4})
    assert (state.first, state.max_turns, state.repetition) == (1, 50, 4)
    assert game.new_match(2, 1, None).max_turns == 200
    assert game.new_match(2, 1, {"first": None}).first == game.new_match(2, 1, {}).first
    with pytest.raises(ValueError):
        game.new_match(3, 1, {})


def test_rematch_options_winner_moves_second_and_draw_is_random():
    """1.(3) 前回のプレイで勝利したプレイヤーが後番になります。
    project ruling (docs/rules/squares.md): "in a rematch the previous winner moves second." """
    opts = {"max_turns": 100}
    assert game.rematch_options(opts, {"winners": [0], "reason": "centre"}) == {"max_turns": 100, "first": 1}
    assert game.rematch_options({"first": 1}, {"winners": [1], "reason": "centre"}) == {"first": 0}
    assert game.rematch_options({"first": 0, "repetition": 4},
                                {"winners": [], "reason": "repetition"}) == {"repetition": 4}
    assert opts == {"max_turns": 100}                      # not mutated
    game.new_match(2, 1, game.rematch_options(opts, {"winners": [0], "reason": "centre"}))


# ----------------------------------------------------------------------------- notation

@pytest.mark.parametrize("typed, canonical", [
    ("place S3 c1", "place S3 c1"),
    ("PLACE s3 C1", "place S3 c1"),
    ("  place   S3    c1  ", "place S3 c1"),
    ("S3 c1", "place S3 c1"),
    ("p2 e1", "place P2 e1"),
    ("place c1 S3", "place S3 c1"),
])
def test_friendly_place_spellings(typed, canonical):
    state = game.new_match(2, 1, {"first": 0})
    assert game.public_command(state, 0, typed) == canonical
    assert game.dump(game.apply(state, 0, typed)) == game.dump(game.apply(state, 0, canonical))


@pytest.mark.parametrize("typed, canonical", [
    ("move c1 c2", "move c1 c2"), ("c1-c2", "move c1 c2"), ("c1 c2", "move c1 c2"),
    ("C1 - C2", "move c1 c2"), ("c1->c2", "move c1 c2"), ("c1 c3", "leap c1 c3"),
    ("LEAP c1 c3", "leap c1 c3"),
])
def test_friendly_move_and_leap_spellings(typed, canonical):
    state = pos({"c1": "L3"}, {"a5": "S1"})
    assert game.public_command(state, 0, typed) == canonical
    assert game.dump(game.apply(state, 0, typed)) == game.dump(game.apply(state, 0, canonical))


def test_bare_square_means_return_while_returning():
    state = pos({"c1": "L5", "a3": "S4"}, {"a5": "S1"})
    state = game.apply(state, 0, "leap c1 c3")
    assert game.dump(game.apply(state, 0, "A3")) == game.dump(game.apply(state, 0, "return a3"))


def test_public_command_is_the_canonical_command():
    """SQUARES has no secrets: the log shows the command itself."""
    state = game.new_match(2, 1, {"first": 0})
    for cmd in game.legal_commands(state, 0):
        assert game.public_command(state, 0, cmd) == cmd


def test_each_token_level_offers_at_most_25_choices():
    """The Discord UI builds commands token by token: ≤ 25 distinct next tokens per level."""
    state = pos({"a1": "X1", "c2": "L3", "b2": "S2", "e1": "P4"}, {"c3": "S1", "b3": "X2"})
    for seat_state in (game.new_match(2, 1, {"first": 0}), state):
        legal = game.legal_commands(seat_state, game.to_act(seat_state)[0])
        for depth in range(3):
            groups: dict[tuple, set] = {}
            for cmd in legal:
                toks = cmd.split()
                if len(toks) > depth:
                    groups.setdefault(tuple(toks[:depth]), set()).add(toks[depth])
            assert all(len(v) <= 25 for v in groups.values())


# ----------------------------------------------------------------------------- bad input

@pytest.fixture
def midgame():
    """Seat 0 to act with pieces of every side on the board."""
    return pos({"a1": "S5", "c1": "L3", "c2": "X1", "e2": "P2"},
               {"c3": "S4", "d2": "X5", "a5": "L1"})


@pytest.mark.parametrize("seat, command, key", [
    (1, "place S1 a5", "squares.err.not_your_turn"),
    (2, "place S1 b1", "squares.err.not_your_turn"),
    (0, "", "squares.err.empty"),
    (0, "   ", "squares.err.empty"),
    (0, "place", "squares.err.syntax"),
    (0, "place S1", "squares.err.syntax"),
    (0, "move c1", "squares.err.syntax"),
    (0, "pass now", "squares.err.syntax"),
    (0, "12 34", "squares.err.syntax"),
    (0, "c1", "squares.err.syntax"),
    (0, "jump c1 c3", "squares.err.unknown_verb"),
    (0, "place Q1 b1", "squares.err.unknown_piece"),
    (0, "place S6 b1", "squares.err.unknown_piece"),
    (0, "place A2 b1", "squares.err.side_missing"),
    (0, "place S2 z9", "squares.err.unknown_square"),
    (0, "move c1 c9", "squares.err.unknown_square"),
    (0, "place S5 b1", "squares.err.not_in_reserve"),
    (0, "place L3 b1", "squares.err.not_in_reserve"),
    (0, "place S1 b2", "squares.err.not_nearest_row"),
    (0, "place S1 a1", "squares.err.own_piece_on_target"),
    (0, "move c1 c2", "squares.err.own_piece_on_target"),
    (0, "place S4 b1", "squares.err.row_limit"),
    (0, "move c1 d2", "squares.err.not_adjacent"),
    (0, "move c1 c3", "squares.err.not_adjacent"),
    (0, "move d2 d3", "squares.err.no_own_piece"),
    (0, "leap a1 a3", "squares.err.no_leap"),
    (0, "leap c1 c2", "squares.err.leap_distance"),
    (0, "leap c1 c0", "squares.err.leap_off_board"),
    (0, "swap c1 b1", "squares.err.no_swap"),
    (0, "swap c2 b2", "squares.err.swap_empty"),
    (0, "swap c2 d3", "squares.err.swap_not_adjacent"),
    (0, "return c1", "squares.err.no_return"),
    (0, "pass", "squares.err.pass_not_allowed"),
    (0, None, "squares.err.syntax"),
])
def test_bad_input_is_refused_and_changes_nothing(midgame, seat, command, key):
    """The engine contract (docs/engine.md): apply "raises IllegalCommand(reason) for anything not legal: wrong seat, bad
    syntax, rule violation — with a message a player can act on (which rule, what is allowed
    instead)"; the old state is not changed."""
    err = rejected(midgame, seat, command, key)
    if "legal" in err.params:
        legal = game.legal_commands(midgame, 0)
        assert err.params["legal"].split(", ")[0] in legal


def test_leap_own_piece_and_game_over_errors(midgame):
    state = pos({"c1": "L3", "c3": "S1"}, {"a5": "S1"})
    rejected(state, 0, "leap c1 c3", "squares.err.leap_own_piece")
    won = game.apply(pos({"a3": "S1", "b3": "S2", "c2": "S3"}, {"a5": "S1"}), 0, "move c2 c3")
    rejected(won, 0, "move c3 c4", "squares.err.game_over")
    rejected(won, 1, "pass", "squares.err.game_over")


def test_apply_returns_a_new_state_and_never_mutates_the_old(midgame):
    before = game.dump(midgame)
    for cmd in game.legal_commands(midgame, 0):
        new = game.apply(midgame, 0, cmd)
        assert new is not midgame
        assert game.dump(midgame) == before


# ----------------------------------------------------------------------------- view, dump

def test_view_has_exactly_the_agreed_keys_and_is_public():
    """SQUARES: nothing is secret, so view(None) == view(0) == view(1) except "seat"."""
    state = pos({"c1": "L5", "a3": "S4", "e1": "P1"}, {"a5": "S1", "b4": "X2"})
    state = game.apply(state, 0, "leap c1 c3")
    views = {s: game.view(state, s) for s in (None, 0, 1)}
    keys = {"game", "seat", "first", "turn", "max_turns", "to_act", "phase", "pieces", "reserves",
            "row_sums", "row_limits", "over_limit", "centre", "last", "outcome",
            "repetition", "history", "player"}       # (what determinize needs to go on: issue 17)
    for seat, view in views.items():
        assert set(view) == keys and view["seat"] == seat
        json.dumps(view)
        assert {k: v for k, v in view.items() if k != "seat"} == \
            {k: v for k, v in views[None].items() if k != "seat"}
    view = views[None]
    assert view["game"] == "squares" and view["phase"] == "return" and view["to_act"] == [0]
    assert {"square": "c3", "owner": 0, "kind": "A", "number": 5, "side": "L", "label": "L5"} in view["pieces"]
    assert {"square": "b4", "owner": 1, "kind": "B", "number": 2, "side": "X", "label": "X2"} in view["pieces"]
    assert view["reserves"][0] == [{"kind": k, "number": n} for k, n in
                                   [("A", 1), ("A", 2), ("A", 3), ("B", 2), ("B", 3), ("B", 4), ("B", 5)]]
    assert view["row_sums"] == [[1, 0, 9, 0, 0], [0, 0, 0, 2, 1]]
    assert view["row_limits"] == [[9, 8, 8, 8, 8], [8, 8, 8, 8, 8]]
    assert view["over_limit"] == [[3], []]
    assert view["centre"] == [2, 0]
    assert view["last"] == {"seat": 0, "command": "leap c1 c3", "from": "c1", "to": "c3",
                            "battle": None, "returned": []}
    assert view["outcome"] is None
    # the view is a copy: changing it does not touch the state
    view["last"]["returned"].append("zz")
    assert game.view(state, None)["last"]["returned"] == []


def test_view_last_for_placement_has_no_origin():
    state = game.apply(game.new_match(2, 1, {"first": 0}), 0, "place S3 c1")
    assert game.view(state, 1)["last"] == {"seat": 0, "command": "place S3 c1", "from": None,
                                           "to": "c1", "battle": None, "returned": []}


def test_dump_load_round_trip_is_exact():
    state = pos({"c1": "L5", "a3": "S4"}, {"a5": "S1"})
    state = game.apply(state, 0, "leap c1 c3")
    text = game.dump(state)
    again = game.load(text)
    assert again == state and game.dump(again) == text
    json.loads(text)
    with pytest.raises(ValueError):
        game.load(json.dumps({"game": "chess"}))


# ----------------------------------------------------------------------------- catalogs, docs

def _file(lang):
    return json.loads((ROOT / "data" / "i18n" / lang / "squares.json").read_text(encoding="utf-8"))


def test_catalogs_have_identical_keys_and_placeholders():
    en, ja = _file("en"), _file("ja")
    assert set(en) == set(ja)
    assert all(k.startswith("squares.") for k in en)
    for key in en:
        assert i18n.placeholders(en[key]) == i18n.placeholders(ja[key]), key
        assert ja[key].strip(), key


def test_english_catalog_matches_the_engine_messages():
    """The engine builds English reasons from the same texts the catalog holds."""
    from rules.squares import EN
    assert _file("en") == EN


def test_outcome_reasons_are_catalogued():
    for reason in ("centre", "repetition", "turn_limit"):
        assert i18n.has(f"squares.reason.{reason}")


def test_rules_doc_examples_run():
    """docs/rules/squares.md: the worked examples as doctests."""
    result = doctest.testfile(str(ROOT / "docs" / "rules" / "squares.md"), module_relative=False)
    assert result.failed == 0 and result.attempted >= 8


def test_rules_doc_marks_every_ruling():
    text = (ROOT / "docs" / "rules" / "squares.md").read_text(encoding="utf-8")
    assert text.count("**Ruling:**") >= 12 and "**House rule:**" in text
    for term in ("援護", "飛躍", "交換", "補給", "place S3 c1", "move c1 c2", "leap c1 c3",
                 "swap c2 d2", "return c3", "max_turns", "repetition"):
        assert term in text


def test_engine_module_doctests():
    import rules.squares as sq
    assert doctest.testmod(sq).failed == 0
