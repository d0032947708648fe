"""Art of War: every rule of the rulebook (docs/rules/art_of_war.md) and every ruling
(project and engine rulings, docs/rules/art_of_war.md).  Each test quotes the clause it checks.

Positions are built with ``game.position``: squares are absolute (files a–c, ranks 1–4; seat 0
owns ranks 1 (back) and 2 (front), seat 1 owns ranks 3 (front) and 4 (back)).  Field entries:
``"0s"`` seat 0's SOLDIER upright, ``"1g/"`` seat 1's GUARDIAN sideways, ``":1"`` 1 damage.
Default KINGs: seat 0 IRON KING (2 attack, 3/3; 4/3 before rules edition 3), seat 1 FALCON KING (2 attack,
3/2; 3/1 before rules edition 3).
"""
from __future__ import annotations

import doctest
import json

import pytest

from data import i18n
from rules import IllegalCommand, registry
from rules.art_of_war import engine as aow_engine
from rules.art_of_war.engine import SQ_INDEX, SQUARES, reach

game = registry.get("art_of_war")


def pos(**kw):
    return game.position(**kw)


def cell(state, square):
    for u in game.view(state, None)["field"]:
        if u["square"] == square:
            return u
    return None


def rejected(state, seat, command, key=None):
    before = game.dump(state)
    with pytest.raises(IllegalCommand) as info:
        game.apply(state, seat, command)
    assert game.dump(state) == before
    err = info.value
    assert err.key in i18n.catalog("en") and err.key in i18n.catalog("ja"), err.key
    assert i18n.t(err.key, "en", **err.params) == err.reason
    if key is not None:
        assert err.key == key, (err.key, err.reason)
    return err


def run(state, *steps):
    """Apply (seat, command) pairs."""
    for seat, cmd in steps:
        state = game.apply(state, seat, cmd)
    return state


def legal(state, seat):
    return game.legal_commands(state, seat)


# ----------------------------------------------------------------------------- contract, setup

def test_module_doctests_pass():
    assert doctest.testmod(aow_engine).failed == 0


def test_registered_with_contract_attributes_and_options():
    assert "art_of_war" in registry.names()
    assert game.name == "art_of_war" and game.min_players == game.max_players == 2
    schema = game.option_schema()
    assert set(schema) == {"first", "decks"}
    with pytest.raises(ValueError, match="unknown Art of War option"):
        game.new_match(2, 1, {"colour": "red"})
    with pytest.raises(ValueError, match="'first'"):
        game.new_match(2, 1, {"first": 5})
    with pytest.raises(ValueError):
        game.new_match(3, 1, {})


def test_setup_draws_three_each_and_first_player_decides_mulligan_first():
    """④ お互いにデッキから3枚引く。(気に入らない場合一度だけ戻してシャッフルし、引き直すことができる)"""
    state = game.new_match(2, 11, {"first": 1})
    v0, v1 = game.view(state, 0), game.view(state, 1)
    assert len(v0["hand"]) == 3 and len(v1["hand"]) == 3
    assert [p["deck_count"] for p in v0["players"]] == [17, 17]
    assert game.to_act(state) == [1] and legal(state, 1) == ["keep", "mulligan"]
    state = game.apply(state, 1, "mulligan")
    assert game.view(state, None)["players"][1]["deck_count"] == 17
    assert len(game.view(state, 1)["hand"]) == 3
    # only once: seat 1's decision is over, seat 0 decides now
    assert game.to_act(state) == [0]
    rejected(state, 1, "mulligan", "art_of_war.err.not_your_turn")


def test_mulligan_reshuffles_from_the_seeded_prng_only():
    """Determinism: the same seed and commands give the same hands."""
    a = run(game.new_match(2, 5, {"first": 0}), (0, "mulligan"))
    b = run(game.new_match(2, 5, {"first": 0}), (0, "mulligan"))
    assert game.dump(a) == game.dump(b)


def test_king_enters_hand_after_the_mulligan_and_setup_places_three_cards():
    """① お互いに「KING」を開示する。 ⑤ お互いにキングを手札に入れる。⑥ 手札から戦場エリアの任意の場所に1枚(縦向き)、待機エリアに1枚
    デッキトップから1枚王国エリアに表向きで1枚置く。 (first player, then the second)"""
    fresh = game.new_match(2, 3, {"first": 0, "decks": ["sage_court", "iron_wall"]})
    assert [k["id"] for k in game.view(fresh, None)["kings"]] == ["king_sage", "king_iron"]   # ① 開示
    assert [p["king"] for p in game.view(fresh, None)["players"]] == ["king_sage", "king_iron"]
    assert "k" not in game.view(fresh, 0)["hand"]
    state = run(game.new_match(2, 3, {"first": 0}), (0, "keep"), (1, "keep"))
    assert "k" in game.view(state, 0)["hand"] and len(game.view(state, 0)["hand"]) == 4
    assert game.view(state, None)["phase"] == "setup" and game.to_act(state) == [0]
    cmds = legal(state, 0)
    assert all(c.split()[2] in ("a2", "b2", "c2") for c in cmds)     # the battlefield is empty
    state = game.apply(state, 0, "setup k b2 " + [c for c in cmds if c.startswith("setup k b2")][0].split()[3])
    view = game.view(state, None)
    assert cell(state, "b2") == dict(cell(state, "b2"), owner=0, card="k", orientation="upright")
    p0 = view["players"][0]
    assert len(p0["waiting"]) == 1 and p0["kingdom_count"] == 1 and p0["deck_count"] == 16
    assert game.to_act(state) == [1]
    c1 = legal(state, 1)[0]
    assert c1.split()[2] in ("a3", "b3", "c3")
    state = game.apply(state, 1, c1)
    view = game.view(state, None)
    # the first player's turn 1 starts: recovery, then draw
    assert view["phase"] == "play" and view["player"] == 0 and view["turn"] == 1
    assert view["players"][0]["hand_count"] == 3 and view["players"][0]["deck_count"] == 15


# ----------------------------------------------------------------------------- ranges

# seat 0's enemy squares in range, from each of its six squares (the project ruling's ranges, docs/rules/art_of_war.md)
RANGES = {
    "s": {"a1": [], "b1": [], "c1": [], "a2": ["a3"], "b2": ["b3"], "c2": ["c3"]},
    "g": {"a1": [], "b1": [], "c1": [], "a2": ["a3"], "b2": ["b3"], "c2": ["c3"]},
    "a": {"a1": ["b3"], "b1": ["a3", "c3"], "c1": ["b3"], "a2": ["c3", "b4"], "b2": ["a4", "c4"],
          "c2": ["a3", "b4"]},
    "p": {"a1": ["c3"], "b1": [], "c1": ["a3"], "a2": ["b3", "c4"], "b2": ["a3", "c3"],
          "c2": ["b3", "a4"]},
    "w": {"a1": ["a3", "a4"], "b1": ["b3", "b4"], "c1": ["c3", "c4"], "a2": ["a3", "a4"],
          "b2": ["b3", "b4"], "c2": ["c3", "c4"]},
}


def _mirror(sq: str) -> str:
    i = SQ_INDEX[sq]
    r, c = divmod(i, 3)
    return SQUARES[(3 - r) * 3 + (2 - c)]


@pytest.mark.parametrize("code", list(RANGES))
def test_each_unit_range_from_each_square(code):
    """Project ruling (docs/rules/art_of_war.md): "SOLDIER and GUARDIAN: one square forward. ARCHER: (+1 forward, ±2 sideways) and
    (+2 forward, ±1 sideways). PRIEST: (+1, ±1) and (+2, ±2). WIZARD: every square forward in its
    column. Only enemy units can be attacked."  Checked on a full enemy battlefield through
    legal_commands, for seat 0 and (mirrored) for seat 1."""
    enemy_full = {sq: "1s" for sq in ("a3", "b3", "c3", "a4", "b4", "c4")}
    for sq, want in RANGES[code].items():
        field = dict(enemy_full, **{sq: "0" + code})
        if sq[1] == "1":
            field[sq[0] + "2"] = "0g"                  # a unit in front, so it stays in the back row
        state = pos(player=0, field=field, hands={0: "ss"})
        got = sorted(c.split()[2] for c in legal(state, 0) if c.startswith(f"attack {sq} "))
        assert got == sorted(want), (code, sq, got)
        # seat 1: the same shape, seen from the other side
        field1 = {_mirror(k): ("1" if v[0] == "0" else "0") + v[1:] for k, v in field.items()}
        state = pos(player=1, field=field1, hands={1: "ss"})
        got1 = sorted(c.split()[2] for c in legal(state, 1) if c.startswith(f"attack {_mirror(sq)} "))
        assert got1 == sorted(_mirror(t) for t in want), (code, sq, got1)


# seat 0's enemy squares in range of each KING (cards.json ranges), from each of its six squares
KING_RANGES = {
    "king_iron": {"a1": [], "b1": [], "c1": [], "a2": ["a3", "b3"], "b2": ["a3", "b3", "c3"],
                  "c2": ["b3", "c3"]},
    "king_falcon": {"a1": ["a3", "b3", "a4"], "b1": ["a3", "b3", "c3", "b4"], "c1": ["b3", "c3", "c4"],
                    "a2": ["a3", "a4", "b4"], "b2": ["b3", "a4", "b4", "c4"], "c2": ["c3", "b4", "c4"]},
    "king_sage": {"a1": ["c3", "b4"], "b1": ["a4", "c4"], "c1": ["a3", "b4"], "a2": ["c3", "c4"], "b2": [],
                  "c2": ["a3", "a4"]},
}


@pytest.mark.parametrize("king", list(KING_RANGES))
def test_each_king_range_from_each_square(king):
    """KING: 攻撃範囲・攻撃力・防御力 が違うキングが存在する。  project ruling (docs/rules/art_of_war.md): "Ranges use one 4×3 grid …
    "forward" is toward the enemy … Only enemy units can be attacked."  Each KING's range (its card
    data) from each of its owner's six squares, for seat 0 and (mirrored) seat 1."""
    enemy_full = {sq: "1s" for sq in ("a3", "b3", "c3", "a4", "b4", "c4")}
    for sq, want in KING_RANGES[king].items():
        field = dict(enemy_full, **{sq: "0k"})
        if sq[1] == "1":
            field[sq[0] + "2"] = "0g"
        state = pos(player=0, field=field, hands={0: "ss"}, kings=(king, king))
        got = sorted(c.split()[2] for c in legal(state, 0) if c.startswith(f"attack {sq} "))
        assert got == sorted(want), (king, sq, got)
        field1 = {_mirror(k): ("1" if v[0] == "0" else "0") + v[1:] for k, v in field.items()}
        state = pos(player=1, field=field1, hands={1: "ss"}, kings=(king, king))
        got1 = sorted(c.split()[2] for c in legal(state, 1) if c.startswith(f"attack {_mirror(sq)} "))
        assert got1 == sorted(_mirror(t) for t in want), (king, sq, got1)


def test_king_ranges_come_from_the_card_data():
    """The project's content requirement: "Kings: design at least 3 original KINGs with different range/attack/defence"."""
    kings = {cid: c for cid, c in game.decks.cards().items() if c["category"] == "KING"}
    assert len(kings) >= 3
    shapes = {(json.dumps(c["range"]), c["attack"], json.dumps(c["defence"])) for c in kings.values()}
    assert len(shapes) == len(kings)
    iron = kings["king_iron"]
    rng = tuple(tuple(o) for o in iron["range"])
    assert [SQUARES[t] for t in reach(0, SQ_INDEX["b2"], rng)] == ["a3", "b3", "c3"]


def test_only_enemy_units_are_attacked_and_empty_squares_are_not_targets():
    """Project ruling (docs/rules/art_of_war.md): "Only enemy units can be attacked." (the WIZARD's own front unit is not a target)"""
    state = pos(player=0, field={"b1": "0w", "b2": "0s", "b3": "1s", "b4": "1s"}, hands={0: "s"})
    assert [c for c in legal(state, 0) if c.startswith("attack")] == \
        ["attack b1 b3", "attack b1 b4", "attack b2 b3"]              # never its own b2
    state = pos(player=0, field={"a2": "0s", "b2": "0s", "b3": "1s"}, hands={0: "s"})
    rejected(state, 0, "attack a2 a3", "art_of_war.err.out_of_range")


# ----------------------------------------------------------------------------- damage

def test_soldier_attack_equals_hand_size_when_declared():
    """SOLDIER: 攻撃力X (攻撃宣言時点での手札枚数が攻撃力となる。)"""
    state = pos(player=0, field={"b2": "0s", "b3": "1g"}, hands={0: "pp"})     # hand 2 vs defence 3
    after = game.apply(state, 0, "attack b2 b3")
    assert cell(after, "b3")["damage"] == 2
    state = pos(player=0, field={"b2": "0s", "b3": "1g"}, hands={0: "ppp"})    # hand 3 = defence 3
    after = game.apply(state, 0, "attack b2 b3")
    assert cell(after, "b3") is None and game.view(after, None)["players"][0]["kingdom"]["g"] == 1


def test_soldier_support_adds_one_attack_to_every_unit_this_turn():
    """SOLDIER 後方支援: このターンの終わりまで自分の戦場エリアのユニット全てに攻撃力を+1する。"""
    state = pos(player=0, field={"b2": "0a", "a2": "0p", "c3": "1s", "c4": "1g", "b3": "1w/"},
                hands={0: "s"})
    state = game.apply(state, 0, "support s")
    assert game.view(state, None)["boost"] == 1
    state = game.apply(state, 0, "attack b2 c4")       # ARCHER 1 + 1 = 2 against 3: damage
    assert cell(state, "c4")["damage"] == 2
    state = game.apply(state, 0, "attack a2 b3")       # PRIEST 1 + 1 = 2 > 1 (sideways WIZARD)
    assert cell(state, "b3") is None and game.view(state, None)["players"][1]["graveyard"] == ["w"]
    state = game.apply(state, 0, "end")
    assert game.view(state, None)["boost"] == 0


def test_soldier_support_does_not_raise_the_archer_supports_damage():
    """SOLDIER 後方支援 raises the attack (攻撃力) of units; ARCHER 後方支援 deals 1点のダメージ, not an attack."""
    state = pos(player=0, field={"b2": "0s", "b3": "1g", "a3": "1s"}, hands={0: "sa"})
    state = run(state, (0, "support s"), (0, "support a b3"))
    assert game.view(state, None)["boost"] == 1 and cell(state, "b3")["damage"] == 1


def test_capture_when_one_hit_equals_the_defence():
    """捕獲: 攻撃したユニットと攻撃を受けたユニットの防御力が等しい場合、攻撃を受けたユニットを攻撃を行った
    プレイヤーの王国エリアに置く。  project ruling (docs/rules/art_of_war.md): "One hit whose damage equals the defence exactly captures
    the unit (it goes to the attacker's kingdom)"."""
    state = pos(player=0, field={"a2": "0a", "b2": "0s", "c3": "1s/", "b3": "1p"}, hands={0: "s"})
    state = game.apply(state, 0, "attack a2 c3")       # 1 = sideways SOLDIER defence 1
    v = game.view(state, None)
    assert cell(state, "c3") is None and v["players"][0]["kingdom"]["s"] == 1
    assert v["players"][1]["graveyard"] == []


def test_destroy_when_one_hit_exceeds_the_defence():
    """各カードが持っている防御力を超えるダメージを受けた時…そのカードを墓地に送る。"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ppp"})   # 3 > 2
    state = game.apply(state, 0, "attack b2 b3")
    v = game.view(state, None)
    assert cell(state, "b3") is None and v["players"][1]["graveyard"] == ["s"]
    assert v["players"][0]["kingdom_count"] == 0


def test_damage_adds_up_within_a_turn_and_destroys_after_two_hits():
    """1ターン中に受けたダメージは各ユニットごとに蓄積します。…2回以上のダメージ判定で防御力を上回った時
    (例: 2体のユニットで1体のユニットで攻撃し、合計ダメージが防御力以上になった時) — destroyed, not captured."""
    state = pos(player=0, field={"a2": "0a", "c2": "0a", "b3": "1s", "b4": "1p"}, hands={0: "s"})
    state = game.apply(state, 0, "attack a2 b4")
    assert cell(state, "b4")["damage"] == 1
    state = game.apply(state, 0, "attack c2 b4")       # 1 + 1 = 2 = PRIEST defence 2
    v = game.view(state, None)
    assert cell(state, "b4") is None and v["players"][1]["graveyard"] == ["p"]
    assert v["players"][0]["kingdom_count"] == 0


def test_a_second_hit_equal_to_the_defence_destroys_instead_of_capturing():
    """**Ruling** (engine): 2回以上のダメージ判定で防御力を上回った時…墓地に送る — a hit on a unit that
    already took damage this turn destroys it when the total reaches the defence, even if that hit
    alone equals the defence (capture needs one hit on an undamaged unit)."""
    state = pos(player=0, field={"b2": "0k", "b3": "1s:1", "a3": "1g"}, hands={0: "s"})   # IRON KING: 2
    state = game.apply(state, 0, "attack b2 b3")
    v = game.view(state, None)
    assert cell(state, "b3") is None and v["players"][1]["graveyard"] == ["s"]
    assert v["players"][0]["kingdom_count"] == 0


def test_a_hit_of_zero_does_nothing_and_is_not_a_first_hit():
    """**Ruling** (engine): a SOLDIER with an empty hand attacks with 0 (攻撃宣言時点での手札枚数);
    the hit changes nothing, so a later hit equal to the defence still captures (捕獲)."""
    state = pos(player=0, field={"b2": "0s", "a2": "0p", "b3": "1s/", "a3": "1g"}, hands={0: ""})
    state = game.apply(state, 0, "attack b2 b3")
    assert cell(state, "b3")["damage"] == 0 and cell(state, "b2")["orientation"] == "sideways"
    assert [e["n"] for e in game.view(state, None)["last"]["events"]] == [0]
    state = game.apply(state, 0, "attack a2 b3")        # PRIEST 1 = sideways SOLDIER defence 1
    v = game.view(state, None)
    assert cell(state, "b3") is None and v["players"][0]["kingdom"]["s"] == 1 and v["players"][1]["graveyard"] == []


def test_soldier_support_adds_to_a_soldiers_hand_size_attack():
    """SOLDIER: 攻撃力X (攻撃宣言時点での手札枚数) + 後方支援 攻撃力を+1: the hand is counted after the
    support card left it."""
    state = pos(player=0, field={"b2": "0s", "b3": "1g", "a3": "1g"}, hands={0: "sppp"})
    state = game.apply(state, 0, "support s")                  # hand 3 now
    state = game.apply(state, 0, "attack b2 b3")               # 3 + 1 = 4 > 3: destroyed
    v = game.view(state, None)
    assert cell(state, "b3") is None and v["players"][1]["graveyard"] == ["g"]
    assert v["players"][0]["kingdom_count"] == 0


def test_damage_resets_at_the_end_of_the_turn():
    """ターンの終了時に蓄積したダメージはリセットされる。"""
    state = pos(player=0, field={"a2": "0a", "b3": "1s", "b4": "1p"}, hands={0: "s"}, decks={0: "s", 1: "s"})
    state = game.apply(state, 0, "attack a2 b4")
    assert cell(state, "b4")["damage"] == 1
    state = game.apply(state, 0, "end")
    assert cell(state, "b4")["damage"] == 0


def test_archer_support_damage_adds_to_an_attack():
    """例)「ARCHIER」でダメージを与えたユニットに攻撃し、合計ダメージが防御力以上になった時。"""
    state = pos(player=0, field={"a2": "0a", "b3": "1s", "b4": "1p"}, hands={0: "a"})
    state = game.apply(state, 0, "support a b4")
    assert cell(state, "b4")["damage"] == 1
    state = game.apply(state, 0, "attack a2 b4")
    assert cell(state, "b4") is None and game.view(state, None)["players"][1]["graveyard"] == ["p"]


def test_support_damage_never_captures():
    """**Ruling**: capture needs an attacking unit (捕獲: 攻撃したユニット…); the ARCHER support's 1
    damage reaching the defence destroys the unit."""
    state = pos(player=0, field={"b2": "0s", "b3": "1s/"}, hands={0: "a"})
    state = game.apply(state, 0, "support a b3")
    v = game.view(state, None)
    assert v["players"][1]["graveyard"] == ["s"] and v["players"][0]["kingdom_count"] == 0


def test_defence_depends_on_orientation_and_attacking_turns_a_unit_sideways():
    """Project ruling (docs/rules/art_of_war.md): "Defence is "upright/sideways" (e.g. 2/1): the unit's current orientation decides.
    Units enter upright; attacking turns a unit sideways; recovery stands them up."
    1、リカバリーフェイズ ターンプレイヤーの戦場に居るユニットを縦向きにする。"""
    state = pos(player=0, field={"b2": "0a", "a2": "0s", "a3": "1g", "a4": "1a", "b3": "1s"}, hands={0: "s"},
                decks={0: "ss", 1: "ss"})
    state = game.apply(state, 0, "attack b2 a4")       # ARCHER 1 vs upright ARCHER 2: damage 1
    assert cell(state, "b2")["orientation"] == "sideways" and cell(state, "b2")["defence"] == 1
    rejected(state, 0, "attack b2 c4", "art_of_war.err.sideways")
    state = game.apply(state, 0, "end")
    # seat 1 drew 1 card: its SOLDIER attacks with 1 the sideways ARCHER (defence 1)
    assert game.view(state, None)["players"][1]["hand_count"] == 1
    state = game.apply(state, 1, "attack b3 b2")       # 1 = 1: captured
    assert cell(state, "b2") is None and game.view(state, None)["players"][1]["kingdom"]["a"] == 1
    state = game.apply(state, 1, "end")
    assert all(u["orientation"] == "upright" for u in game.view(state, None)["field"] if u["owner"] == 0)


def test_back_row_unit_moves_forward_when_the_front_unit_is_removed():
    """後列に置かれたユニットの前に前列のユニットが無い、または取り除かれた時、即座に前列へ移動させる。(強制)"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s/", "b4": "1w"}, hands={0: "p"})
    state = game.apply(state, 0, "attack b2 b3")
    assert cell(state, "b3") == dict(cell(state, "b3"), owner=1, card="w")
    assert cell(state, "b4") is None


# ----------------------------------------------------------------------------- arrange phase

def test_arrange_deploy_takes_the_front_of_the_waiting_queue():
    """待機エリアの先頭のカードを自分の戦場エリアに1体好きな場所へ配置する。 project ruling (docs/rules/art_of_war.md): "front = oldest"."""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, waiting={0: "gw"}, hands={0: "s"})
    state = game.apply(state, 0, "deploy b1")
    assert cell(state, "b1")["card"] == "g" and game.view(state, None)["players"][0]["waiting"] == ["w"]


def test_arrange_exchange_sends_the_unit_to_the_back_and_takes_the_front():
    """自分の戦場エリアに居るユニット1体を待機エリアの後方へ置き、待機エリアの先頭のカードを同じ場所へ置く。"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, waiting={0: "gw"})
    state = game.apply(state, 0, "exchange b2")
    assert cell(state, "b2")["card"] == "g"
    assert game.view(state, None)["players"][0]["waiting"] == ["w", "s"]


def test_exchange_with_a_full_waiting_area_keeps_five():
    """**Ruling**: the unit goes to the back and the front card leaves at once (never above 5)."""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, waiting={0: "gwapp"})
    state = game.apply(state, 0, "exchange b2")
    assert game.view(state, None)["players"][0]["waiting"] == ["w", "a", "p", "p", "s"]


def test_arrange_move_swaps_with_a_unit_on_the_target():
    """自分の戦場エリアに居るユニット1体を自分の戦場内で好きな場所に移動させる。(…場所を入れ替える)"""
    state = pos(player=0, field={"a2": "0s", "c2": "0g", "b3": "1s"})
    state = game.apply(state, 0, "move a2 c2")
    assert cell(state, "a2")["card"] == "g" and cell(state, "c2")["card"] == "s"
    rejected(state, 0, "move a2 b2", "art_of_war.err.arranged")


def test_arrange_move_to_an_empty_back_square_needs_a_unit_in_front():
    """Back-row units with no unit in front move forward at once — so a back square is a target
    only behind a unit (**Ruling**: no spelling that would move forward again is accepted)."""
    state = pos(player=0, field={"a2": "0s", "b3": "1s"})
    assert "move a2 a1" not in legal(state, 0) and "move a2 b1" not in legal(state, 0)
    rejected(state, 0, "move a2 a1", "art_of_war.err.no_change")
    state = pos(player=0, field={"a2": "0s", "b2": "0g", "b3": "1s"})
    state = game.apply(state, 0, "move a2 b1")
    assert cell(state, "b1")["card"] == "s" and cell(state, "a2") is None


def test_no_unit_is_placed_on_a_back_square_with_nothing_in_front():
    """戦場エリア: 後列に置かれたユニットの前に前列のユニットが無い…即座に前列へ移動させる。(強制) つまり
    戦場エリアで後列のみにカードを置くことはできません。  **Ruling** (engine): such a placement is not
    accepted (write the front square); behind a unit it is."""
    state = pos(player=0, field={"a2": "0s", "b3": "1s"}, waiting={0: "g"})
    rejected(state, 0, "deploy b1", "art_of_war.err.not_placeable")
    assert "deploy a1" in legal(state, 0) and "deploy b2" in legal(state, 0)
    state = pos(player=0, field={"a2": "0s", "b3": "1s"}, hands={0: "g"})
    rejected(state, 0, "play g c1", "art_of_war.err.not_placeable")
    state = game.apply(state, 0, "play g a1")
    assert cell(state, "a1")["card"] == "g" and cell(state, "a2")["card"] == "s"


def test_play_and_swap_from_hand_only_with_an_empty_waiting_area():
    """待機エリアにカードが無い場合のみ、手札から戦場エリアの好きな場所へ1枚配置する。
    待機エリアにカードが無い場合のみ、戦場エリアのユニット1体と手札1枚を入れ替える。"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, waiting={0: "g"}, hands={0: "wk"})
    rejected(state, 0, "play w a2", "art_of_war.err.waiting_not_empty")
    rejected(state, 0, "swap b2 w", "art_of_war.err.waiting_not_empty")
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "wk"})
    after = game.apply(state, 0, "play k a2")
    assert cell(after, "a2")["card"] == "k"
    after = game.apply(state, 0, "swap b2 w")
    assert cell(after, "b2")["card"] == "w" and sorted(game.view(after, 0)["hand"]) == ["k", "s"]


def test_arrange_and_battle_exclude_each_other():
    """アレンジフェイズの行動を行ったターン、バトルフェイズの行動を行えない。
    バトルフェイズの行動を行ったターン、アレンジフェイズの行動を行えない。"""
    state = pos(player=0, field={"a2": "0s", "b2": "0s", "b3": "1g"}, hands={0: "s"})
    after = game.apply(state, 0, "move a2 c2")
    rejected(after, 0, "attack b2 b3", "art_of_war.err.arranged")
    after = game.apply(state, 0, "attack b2 b3")
    rejected(after, 0, "move a2 c2", "art_of_war.err.battle_started")
    # a unit attacks once per turn (戦場エリアに居るユニット1体につき1度ずつ攻撃できる)
    assert not any(c.startswith("attack b2") for c in legal(after, 0))


def test_end_without_acting_is_allowed():
    """アレンジフェイズかバトルフェイズどちらか片方を行うか、何もせずターンエンドを宣言できます。"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, decks={0: "s", 1: "s"})
    state = game.apply(state, 0, "end")
    assert game.view(state, None)["player"] == 1 and game.view(state, None)["players"][1]["hand_count"] == 1


# ----------------------------------------------------------------------------- immigration

def test_immigration_once_per_turn_and_never_the_king():
    """入国: 自分のターン中に任意のタイミングで王国エリアへ手札から1枚だけ表向きに置くことができる。
    王国エリア: 基本ユニットのみ置くことができる。"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ssk"})
    assert "immigrate k" not in legal(state, 0)
    rejected(state, 0, "immigrate k", "art_of_war.err.king_kingdom")
    state = game.apply(state, 0, "immigrate s")
    assert game.view(state, None)["players"][0]["kingdom"]["s"] == 1
    rejected(state, 0, "immigrate s", "art_of_war.err.immigrated")
    state = game.apply(state, 0, "attack b2 b3")       # immigration does not use the arrange/battle choice
    assert cell(state, "b3") is None


def test_immigration_is_allowed_again_in_the_next_own_turn_and_never_in_the_opponents():
    """入国: 自分のターン中に…1枚だけ — once per turn, in your own turn."""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ss", 1: "ss"}, decks={0: "ss", 1: "ss"})
    state = run(state, (0, "immigrate s"), (0, "end"))
    assert "immigrate s" in legal(state, 1) and legal(state, 0) == []
    rejected(state, 0, "immigrate s", "art_of_war.err.not_your_turn")
    state = run(state, (1, "end"))
    assert "immigrate s" in legal(state, 0)


# ----------------------------------------------------------------------------- rear support

def test_waiting_area_limit_of_five():
    """発動回数に制限は無いが、待機エリアには5枚までしかカードを置くことはできない。"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ssk"}, waiting={0: "gggg"})
    state = game.apply(state, 0, "support s")
    assert len(game.view(state, None)["players"][0]["waiting"]) == 5
    assert not any(c.startswith("support") for c in legal(state, 0))
    rejected(state, 0, "support s", "art_of_war.err.waiting_full")


def test_support_card_goes_to_the_back_of_the_waiting_queue():
    """カードを置く(後方支援を使用した)順番をわかるように置いてください。…左を先頭として、順番に置いていく"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "sk"}, waiting={0: "g"})
    state = game.apply(state, 0, "support s")
    state = game.apply(state, 0, "support k s")
    assert game.view(state, None)["players"][0]["waiting"] == ["g", "s", "k"]
    assert game.view(state, None)["boost"] == 2


def test_priest_support_moves_a_unit_and_swaps():
    """PRIEST 後方支援: 自分の戦場エリアのユニット1枚を選び移動させることができる。移動先に他のユニットが
    いる場合は場所を入れ替える。 (not an arrange action: an attack may follow)"""
    state = pos(player=0, field={"a2": "0s", "c2": "0a", "c3": "1s"}, hands={0: "ppp"})
    state = game.apply(state, 0, "support p a2 c2")
    assert cell(state, "c2")["card"] == "s" and cell(state, "a2")["card"] == "a"
    state = game.apply(state, 0, "attack c2 c3")
    assert cell(state, "c3") is None


def test_own_turn_supports_are_not_offered_on_the_opponents_turn_and_guardian_wizard_not_on_own():
    """この支援は自分のターンにのみ使用できる (SOLDIER, ARCHER, PRIEST);
    GUARDIAN: この支援は相手のターンにのみ使用できる。"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "gw"})
    assert not any(c.startswith("support") for c in legal(state, 0))
    rejected(state, 0, "support g", "art_of_war.err.support_timing")
    rejected(state, 0, "support w", "art_of_war.err.support_timing")


def test_king_can_use_any_rear_support():
    """KING ≪後方支援:使用したい後方支援を宣言して発動できる。つまり万能カード、使えない効果など無い≫"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "k"})
    cmds = legal(state, 0)
    assert "support k s" in cmds and "support k a b3" in cmds
    rejected(state, 0, "support k", "art_of_war.err.king_effect")
    state = game.apply(state, 0, "support k a b3")
    assert cell(state, "b3")["damage"] == 1 and game.view(state, None)["players"][0]["waiting"] == ["k"]


# ----------------------------------------------------------------------------- response windows

def test_guardian_cancels_an_attack_in_a_private_window():
    """GUARDIAN 後方支援: 相手ユニットからの攻撃をキャンセルする。 project ruling (docs/rules/art_of_war.md): "GUARDIAN's support is a
    response to an opponent's attack … real response windows for the other player"."""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ppp", 1: "g"})
    state = game.apply(state, 0, "attack b2 b3")
    assert game.to_act(state) == [1] and game.public_to_act(state) == [0]
    assert legal(state, 1) == ["support g", "pass"] and legal(state, 0) == []
    assert game.timeout_command(state, 1) == "pass"
    after = game.apply(state, 1, "support g")
    assert cell(after, "b3")["card"] == "s"                       # cancelled
    assert cell(after, "b2")["orientation"] == "sideways"         # **Ruling**: the attack is used up
    assert game.view(after, None)["players"][1]["waiting"] == ["g"]
    assert game.to_act(after) == [0]
    after = game.apply(state, 1, "pass")
    assert cell(after, "b3") is None


def test_no_window_without_a_legal_response():
    """Project ruling (docs/rules/art_of_war.md): "offered only when they could respond" — no GUARDIAN/KING in hand, or a full waiting area."""
    state = pos(player=0, field={"b2": "0s", "a3": "1s", "b3": "1s"}, hands={0: "ppp", 1: "sw"})
    assert game.to_act(game.apply(state, 0, "attack b2 b3")) == [0]
    state = pos(player=0, field={"b2": "0s", "a3": "1s", "b3": "1s"}, hands={0: "ppp", 1: "gk"},
                waiting={1: "sssss"})
    assert game.to_act(game.apply(state, 0, "attack b2 b3")) == [0]


def test_no_wizard_window_without_a_wizard_or_king_or_with_a_full_waiting_area():
    """Project ruling (docs/rules/art_of_war.md): "offered only when they could respond" (WIZARD: 相手の発動した後方支援に対し発動できる;
    待機エリアには5枚までしかカードを置くことはできない)."""
    base = dict(player=0, field={"b2": "0s", "b3": "1s", "a3": "1s"})
    state = game.apply(pos(hands={0: "a", 1: "sgp"}, **base), 0, "support a b3")
    assert game.to_act(state) == [0] and cell(state, "b3")["damage"] == 1
    state = game.apply(pos(hands={0: "a", 1: "wk"}, waiting={1: "sssss"}, **base), 0, "support a b3")
    assert game.to_act(state) == [0] and cell(state, "b3")["damage"] == 1
    state = game.apply(pos(hands={0: "a", 1: "k"}, waiting={1: "ssss"}, **base), 0, "support a b3")
    assert game.to_act(state) == [1] and legal(state, 1) == ["support k w", "pass"]


def test_a_guardian_cannot_answer_a_rear_support_only_an_attack():
    """GUARDIAN 後方支援: 相手ユニットからの攻撃をキャンセルする — the ARCHER support's damage is not an
    attack, so a GUARDIAN in hand opens no window; in a WIZARD window it is not a legal answer."""
    state = pos(player=0, field={"b2": "0s", "b3": "1s", "a3": "1s"}, hands={0: "a", 1: "g"})
    assert game.to_act(game.apply(state, 0, "support a b3")) == [0]
    state = pos(player=0, field={"b2": "0s", "b3": "1s", "a3": "1s"}, hands={0: "a", 1: "gw"})
    window = game.apply(state, 0, "support a b3")
    assert legal(window, 1) == ["support w", "pass"]
    rejected(window, 1, "support g", "art_of_war.err.support_timing")
    rejected(window, 1, "end", "art_of_war.err.window")


def test_a_wizard_cannot_answer_an_attack():
    """WIZARD negates a rear support (相手の後方支援が発動した時それを無効にする), not an attack."""
    field = {"b2": "0s", "b3": "1s", "a3": "1s"}
    state = game.apply(pos(player=0, field=field, hands={0: "ppp", 1: "w"}), 0, "attack b2 b3")
    assert game.to_act(state) == [0] and cell(state, "b3") is None
    window = game.apply(pos(player=0, field=field, hands={0: "ppp", 1: "wg"}), 0, "attack b2 b3")
    assert legal(window, 1) == ["support g", "pass"]
    rejected(window, 1, "support w", "art_of_war.err.support_timing")


def test_hidden_pending_is_true_exactly_while_a_window_is_open():
    """The host must hold public lines back while any private window is open — also when the
    turn player answers a response (then public_to_act == to_act)."""
    state = pos(player=0, field={"b2": "0s", "b3": "1s/"}, hands={0: "aw", 1: "w"})
    assert not game.hidden_pending(state)
    state = game.apply(state, 0, "support a b3")
    assert game.hidden_pending(state) and game.to_act(state) == [1]
    state = game.apply(state, 1, "support w")
    assert game.to_act(state) == game.public_to_act(state) == [0] and game.hidden_pending(state)
    state = game.apply(state, 0, "pass")
    assert not game.hidden_pending(state)


def test_king_in_hand_can_answer_as_guardian_or_wizard():
    """A KING can use any rear support (project ruling, docs/rules/art_of_war.md), including the responses."""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ppp", 1: "k"})
    state = game.apply(state, 0, "attack b2 b3")
    assert legal(state, 1) == ["support k g", "pass"]
    state = game.apply(state, 1, "support k g")
    assert cell(state, "b3") is not None and game.view(state, None)["players"][1]["waiting"] == ["k"]


def test_wizard_negates_the_opponents_support_on_the_turn_players_turn():
    """WIZARD 後方支援: 相手の後方支援が発動した時それを無効にする。自分・相手のターンを問わず…"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s/"}, hands={0: "a", 1: "w"})
    state = game.apply(state, 0, "support a b3")
    assert game.to_act(state) == [1] and legal(state, 1) == ["support w", "pass"]
    after = game.apply(state, 1, "support w")
    v = game.view(after, None)
    assert cell(after, "b3") is not None                          # negated: no damage
    assert v["players"][0]["waiting"] == ["a"] and v["players"][1]["waiting"] == ["w"]
    after = game.apply(state, 1, "pass")
    assert cell(after, "b3") is None


def test_wizard_answers_wizard_and_the_original_support_resolves():
    """**Ruling**: a WIZARD support is itself a rear support, so the other player may negate it
    with a WIZARD (相手の発動した後方支援に対し発動できる); each negation cancels the one below it."""
    state = pos(player=0, field={"b2": "0s", "b3": "1s/"}, hands={0: "aw", 1: "w"})
    state = game.apply(state, 0, "support a b3")
    state = game.apply(state, 1, "support w")
    assert game.to_act(state) == [0] and legal(state, 0) == ["support w", "pass"]
    after = game.apply(state, 0, "support w")
    assert cell(after, "b3") is None                              # the ARCHER support resolves
    v = game.view(after, None)
    assert v["players"][0]["waiting"] == ["a", "w"] and v["players"][1]["waiting"] == ["w"]
    after = game.apply(state, 0, "pass")
    assert cell(after, "b3") is not None


def test_attacker_may_negate_the_guardian_cancel_with_a_wizard():
    """WIZARD (自分・相手のターンを問わず): the GUARDIAN cancel is a rear support of the opponent."""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ppw", 1: "g"})
    state = game.apply(state, 0, "attack b2 b3")                  # hand 3 (declared) > 2
    state = game.apply(state, 1, "support g")
    assert game.to_act(state) == [0] and legal(state, 0) == ["support w", "pass"]
    state = game.apply(state, 0, "support w")
    assert cell(state, "b3") is None and game.view(state, None)["players"][1]["graveyard"] == ["s"]


def test_after_a_wizard_negates_a_guardian_the_defender_may_answer_the_attack_again():
    """Project ruling (docs/rules/art_of_war.md): "GUARDIAN may be used any number of times: after a WIZARD negates a GUARDIAN, the
    defender may answer the still-pending attack again (another GUARDIAN, or the KING as GUARDIAN),
    and the attacker may negate again; the windows alternate until one side passes."
    """
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "pww", 1: "gg"})
    state = game.apply(state, 0, "attack b2 b3")                  # hand 3 (declared) > 2
    state = game.apply(state, 1, "support g")
    state = game.apply(state, 0, "support w")                     # the GUARDIAN is negated ...
    assert game.to_act(state) == [1] and legal(state, 1) == ["support g", "pass"]
    again = game.apply(state, 1, "support g")                     # ... and a second one answers
    assert game.to_act(again) == [0] and legal(again, 0) == ["support w", "pass"]
    cancelled = game.apply(again, 0, "pass")
    assert cell(cancelled, "b3") is not None                      # the attack is cancelled
    assert [e["kind"] for e in game.view(cancelled, None)["last"]["events"]][-1] == "cancel"
    through = game.apply(again, 0, "support w")                   # the defender holds nothing more
    assert cell(through, "b3") is None                            # both GUARDIANs negated: it hits
    # the KING as GUARDIAN, or a WIZARD against the WIZARD, are answers too
    king = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "pww", 1: "gk"})
    king = game.apply(game.apply(game.apply(king, 0, "attack b2 b3"), 1, "support g"), 0, "support w")
    assert legal(king, 1) == ["support k g", "support k w", "pass"]
    wiz = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "pww", 1: "gw"})
    wiz = game.apply(game.apply(game.apply(wiz, 0, "attack b2 b3"), 1, "support g"), 0, "support w")
    assert legal(wiz, 1) == ["support w", "pass"]
    saved = game.apply(game.apply(wiz, 1, "support w"), 0, "pass")   # the WIZARD revives the GUARDIAN
    assert cell(saved, "b3") is not None
    # a match started before the ruling (rules edition 1) replays as it was played: no new answer
    old = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "pww", 1: "gg"}, edition=1)
    old = game.apply(game.apply(game.apply(old, 0, "attack b2 b3"), 1, "support g"), 0, "support w")
    assert 1 not in game.to_act(old) and cell(old, "b3") is None
    assert game.load(game.dump(old)).edition == 1 and game.new_match(seed=1).edition == game.editions[-1] >= 2


def test_secrecy_hidden_window_views_equal_the_moment_before():
    """The responder is in to_act; public_to_act, view(None) and the declaring player's own view
    must not reveal that a window is open; hands only in the owner's view."""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ppp", 1: "gws"})
    window = game.apply(state, 0, "attack b2 b3")
    assert game.to_act(window) == [1]
    assert game.view(window, None) == game.view(state, None)
    assert game.view(window, 0) == game.view(state, 0)
    assert game.public_to_act(window) == game.public_to_act(state) == [0]
    assert game.public_command(window, 1, "pass") is None
    responder = game.view(window, 1)
    assert responder["window"]["responses"] == ["support g"] and responder["to_act"] == [1]
    for view in (game.view(window, None), game.view(window, 0)):
        assert "window" not in view
    assert "hand" not in game.view(window, None)
    assert game.view(window, 0)["hand"] == ["p", "p", "p"]


def test_views_never_contain_another_seats_hand_or_deck_order():
    state = game.new_match(2, 9, {"first": 0})
    for seat in (None, 0, 1):
        v = game.view(state, seat)
        assert "decks" not in v
        if seat is None:
            assert "hand" not in v
        else:
            assert sorted(v["hand"]) == sorted(state.hands[seat])
    assert set(game.view(state, 0)) - set(game.view(state, None)) == {"hand"}


# ----------------------------------------------------------------------------- conscription

def _empty_after_capture(waiting: str, kingdom: str):
    """Seat 1's only unit (sideways SOLDIER on b3) is captured by an ARCHER-strength attack."""
    state = pos(player=0, field={"a2": "0a", "c3": "1s/"}, hands={0: "s"},
                waiting={1: waiting}, kingdom={1: kingdom}, decks={0: "s", 1: "s"})
    return game.apply(state, 0, "attack a2 c3")


def test_conscription_with_two_waiting_cards():
    """徴兵: 戦場エリアのカードが0枚になった時即座に行う。待機エリアの先頭から2枚を順番に戦場エリアの好きな
    場所へ配置する。"""
    state = _empty_after_capture("gwa", "")
    assert game.to_act(state) == [1] and game.view(state, None)["phase"] == "draft"
    assert legal(state, 1) == ["draft a3", "draft b3", "draft c3"]
    state = game.apply(state, 1, "draft b3")
    assert "draft b4" in legal(state, 1) and "draft a4" not in legal(state, 1)
    state = game.apply(state, 1, "draft b4")
    assert cell(state, "b3")["card"] == "g" and cell(state, "b4")["card"] == "w"
    assert game.view(state, None)["players"][1]["waiting"] == ["a"]
    assert game.to_act(state) == [0] and game.view(state, None)["phase"] == "play"


def test_conscription_with_one_waiting_card_takes_one_from_the_kingdom():
    """待機エリアに1枚しかカードが無かった場合、そのカードを戦場へ配置した後に王国エリアから1枚選び戦場へ配置する。"""
    state = _empty_after_capture("g", "pw")
    state = game.apply(state, 1, "draft a3")
    assert legal(state, 1)[:3] == ["draft p b3", "draft p c3", "draft p a4"]
    assert "draft w c3" in legal(state, 1) and "draft s c3" not in legal(state, 1)
    rejected(state, 1, "draft s c3", "art_of_war.err.no_kingdom_card")
    state = game.apply(state, 1, "draft w c3")
    v = game.view(state, None)
    assert cell(state, "a3")["card"] == "g" and cell(state, "c3")["card"] == "w"
    assert v["players"][1]["kingdom"] == {"s": 0, "a": 0, "p": 1, "g": 0, "w": 0}


def test_conscription_with_no_waiting_cards_takes_two_from_the_kingdom():
    """待機エリアにカードが無い場合、王国エリアから2枚選び戦場へ配置する。"""
    state = _empty_after_capture("", "ss")
    state = run(state, (1, "draft s b3"), (1, "draft s b4"))
    assert game.view(state, None)["players"][1]["kingdom_count"] == 0
    assert cell(state, "b4")["card"] == "s"


def test_annihilation_when_two_units_cannot_be_conscripted():
    """4、滅亡 戦場エリアのユニットが無くなり徴兵を行うとき、2枚のユニットを展開できない場合
    展開できなかったプレイヤーは敗北する。"""
    state = _empty_after_capture("", "g")
    assert game.outcome(state) == {"winners": [0], "reason": "annihilation"}
    assert game.to_act(state) == [] and legal(state, 0) == []
    rejected(state, 0, "end", "art_of_war.err.game_over")


def test_annihilation_with_one_waiting_card_and_an_empty_kingdom():
    """滅亡: 2枚のユニットを展開できない場合 — 1 waiting card and no kingdom card is one unit short."""
    state = _empty_after_capture("g", "")
    assert game.outcome(state) == {"winners": [0], "reason": "annihilation"}


def test_conscription_during_the_opponents_turn_then_the_turn_goes_on():
    """徴兵: 戦場エリアのカードが0枚になった時即座に行う — in the middle of the attacker's turn; then the
    attacker continues (its other units may still attack)."""
    state = pos(player=0, field={"a2": "0a", "b2": "0s", "c3": "1s/"}, hands={0: "ss"},
                waiting={1: "gw"}, decks={0: "s", 1: "s"})
    state = game.apply(state, 0, "attack a2 c3")
    assert game.to_act(state) == [1]
    rejected(state, 0, "attack b2 b3", "art_of_war.err.not_your_turn")
    state = run(state, (1, "draft b3"), (1, "draft b4"))
    assert game.to_act(state) == [0] and "attack b2 b3" in legal(state, 0)
    assert game.view(state, None)["mode"] == "battle" and game.view(state, None)["player"] == 0


# ----------------------------------------------------------------------------- victory

def test_execution_by_capturing_the_king():
    """1、処刑 相手の「KING」を墓地送り、または捕獲する。 (FALCON KING sideways defence 1 — its
    number in rules editions 1–2; edition 3 is tested in test_art_of_war_balance.py)"""
    state = pos(player=0, field={"a2": "0a", "c3": "1k/"}, hands={0: "s"}, edition=2)
    state = game.apply(state, 0, "attack a2 c3")
    assert game.outcome(state) == {"winners": [0], "reason": "execution"}
    assert game.view(state, None)["players"][0]["kingdom_count"] == 0   # only basic units enter


def test_execution_by_destroying_the_king_with_an_attack():
    """1、処刑 相手の「KING」を墓地送り… — a SOLDIER with 4 cards in hand hits the upright FALCON KING
    (defence 3) for 4: destroyed, the game is won."""
    state = pos(player=0, field={"b2": "0s", "b3": "1k"}, hands={0: "pppp"})
    state = game.apply(state, 0, "attack b2 b3")
    assert game.outcome(state) == {"winners": [0], "reason": "execution"}
    assert game.view(state, None)["players"][1]["graveyard"] == ["k"]


def test_execution_by_destroying_the_king_with_support_damage():
    # FALCON KING sideways defence 1 (rules editions 1–2)
    state = pos(player=0, field={"a2": "0a", "c3": "1k/"}, hands={0: "a"}, edition=2)
    state = game.apply(state, 0, "support a c3")
    assert game.outcome(state) == {"winners": [0], "reason": "execution"}


def test_nation_building_not_yet_with_three_types_ahead():
    """2、建国 …その時枚数の上回っている種類が4種類になったプレイヤーが勝利します。 (3 is not enough)"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "w"}, kingdom={0: "sa", 1: "g"})
    state = game.apply(state, 0, "immigrate w")
    assert game.outcome(state) is None


def test_nation_building_win_on_the_fourth_type():
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "w"}, kingdom={0: "sapp", 1: "gg"})
    state = game.apply(state, 0, "immigrate w")
    assert game.outcome(state) == {"winners": [0], "reason": "nation_building"}


def test_nation_building_when_a_capture_grows_the_kingdom():
    """2、建国 お互いの王国エリアにカードが置かれるたびに各種類の枚数を比較する。 (a capture places a card too)"""
    state = pos(player=0, field={"a2": "0a", "c3": "1s/", "b3": "1s"}, hands={0: "s"},
                kingdom={0: "apg", 1: "w"})
    state = game.apply(state, 0, "attack a2 c3")
    assert game.outcome(state) == {"winners": [0], "reason": "nation_building"}


def test_nation_building_wins_for_the_second_player_on_its_own_placement():
    state = pos(player=1, field={"b2": "0s", "b3": "1s"}, hands={1: "a"}, kingdom={0: "s", 1: "pgw"})
    state = game.apply(state, 1, "immigrate a")
    assert game.outcome(state) == {"winners": [1], "reason": "nation_building"}


def test_nation_building_is_checked_only_when_a_card_is_placed_and_for_both_players():
    """2、建国 お互いの王国エリアにカードが置かれるたびに各種類の枚数を比較する。その時枚数の上回っている
    種類が4種類になったプレイヤーが勝利します。  **Ruling** (engine): taking cards out of a kingdom
    (conscription) is no placement, so it triggers no comparison; the next placement into either
    kingdom does, and it compares for both players — even a placement by the player who is behind."""
    state = pos(player=1, field={"c3": "1a", "a2": "0w/"}, hands={0: "s", 1: "s"}, decks={0: "ss", 1: "ss"},
                kingdom={0: "sa", 1: "sapg"})
    state = game.apply(state, 1, "attack c3 a2")           # captured: seat 1 ahead in p, g, w (3)
    v = game.view(state, None)
    assert v["players"][1]["kingdom"]["w"] == 1 and game.outcome(state) is None
    state = run(state, (0, "draft s a2"), (0, "draft a b2"))  # seat 0's kingdom is empty now
    assert game.view(state, None)["players"][0]["kingdom_count"] == 0
    assert game.outcome(state) is None                        # seat 1 is ahead in 5 types, but no placement
    state = run(state, (1, "end"), (0, "immigrate s"))         # seat 0 places: seat 1 ahead in a, p, g, w
    assert game.outcome(state) == {"winners": [1], "reason": "nation_building"}


def test_end_of_war_kingdom_count_decides():
    """3、終戦 勝負が着かずにお互いの山札が無くなったターンの終了時に判定する。お互いの王国エリアにある
    カードの枚数が多い方が勝利する。"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, kingdom={0: "ss", 1: "a"})
    state = game.apply(state, 0, "end")
    assert game.outcome(state) == {"winners": [0], "reason": "end_of_war"}


def test_end_of_war_only_when_both_decks_are_empty():
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, kingdom={0: "ss"}, decks={1: "s"})
    state = game.apply(state, 0, "end")
    assert game.outcome(state) is None and game.view(state, None)["players"][1]["deck_count"] == 0
    state = game.apply(state, 1, "end")
    assert game.outcome(state) == {"winners": [0], "reason": "end_of_war"}


def test_end_of_war_tie_broken_by_fewer_graveyard_cards():
    """王国エリアの枚数が同じ場合墓地の数が少ない方が勝利する。"""
    state = pos(player=1, field={"b2": "0s", "b3": "1s"}, kingdom={0: "s", 1: "a"}, grave={0: "pp", 1: "p"})
    state = game.apply(state, 1, "end")
    assert game.outcome(state) == {"winners": [1], "reason": "end_of_war"}


def test_end_of_war_draw_when_everything_ties():
    """すべて同じ場合引き分けとなる。唯一引き分けになる方法。"""
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, kingdom={0: "s", 1: "a"}, grave={0: "p", 1: "g"})
    state = game.apply(state, 0, "end")
    assert game.outcome(state) == {"winners": [], "reason": "end_of_war"}


def test_deck_out_means_no_draw():
    """Project ruling (docs/rules/art_of_war.md): "Deck out: no draw." """
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, decks={0: "s"}, hands={1: "g"})
    state = game.apply(state, 0, "end")
    assert game.view(state, None)["players"][1]["hand_count"] == 1 and game.outcome(state) is None


# ----------------------------------------------------------------------------- errors, notation

def test_commands_are_case_insensitive_and_accept_card_words():
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ss"})
    a = game.apply(state, 0, "  IMMIGRATE   Soldier ")
    assert game.dump(a) == game.dump(game.apply(state, 0, "immigrate s"))
    assert game.public_command(state, 0, "Immigrate SOLDIER") == "immigrate s"


def test_garbage_is_rejected_with_catalogued_keys():
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "s"})
    rejected(state, 0, "", "art_of_war.err.empty")
    rejected(state, 0, "fly b2", "art_of_war.err.unknown_verb")
    rejected(state, 0, "attack b2 z9", "art_of_war.err.unknown_square")
    rejected(state, 0, "immigrate x", "art_of_war.err.unknown_card")
    rejected(state, 0, "attack b2", "art_of_war.err.syntax")
    rejected(state, 1, "end", "art_of_war.err.not_your_turn")
    rejected(state, 0, "pass", "art_of_war.err.nothing_to_pass")
    rejected(state, 0, "attack b3 b2", "art_of_war.err.not_own_square")
    rejected(state, 0, 42)


def test_token_levels_have_at_most_25_choices():
    """The Discord UI builds commands token by token from legal_commands."""
    state = pos(player=0, field={"a2": "0k", "b2": "0p", "c2": "0w", "a1": "0a", "b1": "0s", "c1": "0g",
                                 "a3": "1s", "b3": "1s", "c3": "1s", "a4": "1s", "b4": "1s", "c4": "1s"},
                hands={0: "ksapgw"})
    cmds = legal(state, 0)
    for level in range(4):
        nxt: dict = {}
        for c in cmds:
            t = c.split()
            if len(t) > level:
                nxt.setdefault(tuple(t[:level]), set()).add(t[level])
        assert all(len(v) <= 25 for v in nxt.values()), level


def test_rematch_options_loser_goes_first():
    """**Ruling** (③ 適当な方法で先攻後攻を決める): in a rematch the loser goes first."""
    assert game.rematch_options({"first": 0}, {"winners": [0], "reason": "execution"})["first"] == 1
    assert "first" not in game.rematch_options({"first": 0}, {"winners": [], "reason": "end_of_war"})


def test_dump_load_round_trip_with_an_open_window():
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ppp", 1: "g"})
    window = game.apply(state, 0, "attack b2 b3")
    again = game.load(game.dump(window))
    assert again == window and game.dump(again) == game.dump(window)
    assert game.view(again, None) == game.view(window, None)
    with pytest.raises(ValueError):
        game.load(json.dumps({"game": "squares"}))


def test_english_catalog_matches_the_engine_texts_and_japanese_has_the_same_placeholders():
    from pathlib import Path

    from rules.art_of_war.messages import EN

    root = Path(i18n.__file__).resolve().parent
    en = json.loads((root / "en" / "art_of_war.json").read_text(encoding="utf-8"))
    ja = json.loads((root / "ja" / "art_of_war.json").read_text(encoding="utf-8"))
    assert en == EN
    assert set(ja) == set(en)
    for key in en:
        assert i18n.placeholders(en[key]) == i18n.placeholders(ja[key]), key


def test_timeout_commands_keep_the_match_going_only_for_forced_decisions():
    state = game.new_match(2, 4, {"first": 0})
    assert game.timeout_command(state, 0) == "keep" and game.timeout_command(state, 1) is None
    state = run(state, (0, "keep"), (1, "keep"))
    assert game.timeout_command(state, 0) == legal(state, 0)[0]
    drafting = _empty_after_capture("g", "s")
    assert game.timeout_command(drafting, 1) == "draft a3"
    main = pos(player=0, field={"b2": "0s", "b3": "1s"})
    assert game.timeout_command(main, 0) is None


def test_public_command_is_canonical_and_hides_only_a_window_pass():
    state = pos(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ppp", 1: "g"})
    assert game.public_command(state, 0, "ATTACK B2 B3") == "attack b2 b3"
    window = game.apply(state, 0, "attack b2 b3")
    assert game.public_command(window, 1, "pass") is None
    assert game.public_command(window, 1, "support guardian") == "support g"


def test_rules_doc_marks_rulings_and_documents_every_verb():
    from pathlib import Path

    from rules.art_of_war.engine import VERBS

    doc = (Path(__file__).resolve().parent.parent / "docs" / "rules" / "art_of_war.md").read_text(encoding="utf-8")
    assert doc.count("**Ruling:** *(project ruling)*") >= 9 and doc.count("**Ruling:** *(engine)*") >= 8
    for verb in VERBS:
        assert f"`{verb}" in doc, verb
    for term in ("後方支援", "待機エリア", "王国エリア", "戦場エリア", "墓地", "捕獲", "入国", "徴兵",
                 "処刑", "建国", "終戦", "滅亡"):
        assert term in doc, term
