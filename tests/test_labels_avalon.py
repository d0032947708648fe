"""Avalon's Sanctuary moves in words (issue 14): cards by name, lands as "land 2" or "Bob's land 3",
creatures with attack/durability — never a bare id (docs/rules/avalon.md, "Notation").

Positions are built by editing a fresh match's state as tests/test_avalon_rules.py does (lands
are ``[mana, creature, atk_bonus]``, mana entries ``[card_id, conversions]``); the menu is then
read from ``render.labels.choices`` with the acting seat's own view.
"""
from __future__ import annotations

import random

from render.labels import choices
from rules import registry

game = registry.get("avalon")
NAMES = ["Alice", "Bob", "Carol"]


def fresh(n: int = 3, leader: int = 0, seed: int = 1):
    return game.new_match(players=n, seed=seed, options={"leader": leader})


def land(*mana: str, creature: str | None = None) -> list:
    return [[[m, ""] for m in mana], creature, 0]


def _menu(state, seat, locale, players=3):
    legal = game.legal_commands(state, seat)
    return {c.command: c for c in choices("avalon", game.view(state, seat), seat, legal, locale, NAMES[:players])}


def test_forge_and_summon_name_the_card_and_the_land():
    # "| `forge <card> <land> [icons]` | set phase | …" and "| `summon <card> <land>` | set phase |"
    s = fresh()
    s.players[0].hand = ["c02", "c05"]                       # Lantern Squire (2 yellow), Halo Warden ★3
    s.players[0].lands[1] = land("c02", "c01")               # 3 yellow on land 2
    en, ja = _menu(s, 0, "en"), _menu(s, 0, "ja")
    forge = en["forge c02 l1"]
    assert forge.label == "Forge Lantern Squire on land 1" and forge.group == "Lantern Squire"
    assert forge.description == "+2 yellow (empty land)" and forge.emoji == "🔨"
    assert en["forge c02 l2"].description == "+2 yellow (land has 3 yellow)"
    assert ja["forge c02 l1"].label == "灯籠の従騎士を土地1に素成"
    assert ja["forge c02 l2"].description == "魔素+黄2（土地：黄3）"
    summon = en["summon c05 l2"]
    assert summon.label == "Summon Halo Warden on land 2" and summon.group == "Halo Warden"
    # rules edition 4: every creature but two has "防衛側で戦闘する時 +1 attack / +2 durability"
    assert summon.description == "3/4 ★★★ · on 2 mana cards · Reflect · +1 attack, +2 durability when defending"
    assert ja["summon c05 l2"].label == "光輪の守人を土地2に召喚"
    assert ja["summon c05 l2"].description == "3／4・★★★、魔素カード2枚の上、反射、防衛側で攻撃値+1・耐久値+2"
    assert en["discard c05"].label == "Discard Halo Warden" and en["discard c05"].group == "Discard a card"
    assert en["done"].label == "Done" and ja["done"].label == "セット終了"


def test_a_rainbow_vessel_says_which_icons_turn_rainbow():
    # "`forge c33 l1 yb`": "the letters (`y r b g c`) of the icons below it to turn rainbow"
    s = fresh()
    s.players[0].hand = ["c33"]                               # Vessel Keeper: 2 rainbow vessel
    s.players[0].lands[0] = land("c18")                       # Reefcrown Regent: 3 blue, 1 yellow
    en, ja = _menu(s, 0, "en"), _menu(s, 0, "ja")
    assert en["forge c33 l1 yb"].label == "Forge Vessel Keeper on land 1: 1 yellow, 1 blue → rainbow"
    assert en["forge c33 l1 bb"].label == "Forge Vessel Keeper on land 1: 2 blue → rainbow"
    assert ja["forge c33 l1 bb"].label == "器の番人を土地1に素成（青2を虹に）"


def test_magic_on_another_players_land_names_the_player_and_the_creature():
    # "another player's land `p<seat+1>l<n>` (e.g. `p2l3` = seat 1's land 3)";
    # "| `magic <card> [target]` | set phase | `magic m01`, `magic m06 l2`, `magic m03 p2l1` |"
    s = fresh()
    s.players[0].hand = ["m03", "m01"]                        # Thorn Hex, Starfall Insight
    s.players[1].lands[2] = land("c08", creature="c08")       # Bob's Cinder Pup on land 3
    en, ja = _menu(s, 0, "en"), _menu(s, 0, "ja")
    hex_ = en["magic m03 p2l3"]
    assert hex_.label == "Magic: Thorn Hex → Bob's land 3" and hex_.emoji == "🪄"
    assert hex_.description == "destroys Cinder Pup 2/2 (its mana stays)"
    assert ja["magic m03 p2l3"].label == "魔法：茨の呪詛（対象：Bobの土地3）"
    assert ja["magic m03 p2l3"].description == "燠火の仔犬（2／2）を破壊（魔素は残る）"
    assert en["magic m01"].label == "Magic: Starfall Insight" and en["magic m01"].description == "draw 2 cards"


def test_ranged_battles_name_both_creatures_and_group_by_the_attacker():
    # "| `ranged <land> <pNlM>` | leader main phase or chaser declaration | `ranged l1 p2l3` |"
    s = fresh()
    s.players[0].lands[0] = land("c05", "c05", creature="c05")    # Alice's Halo Warden
    s.players[1].lands[2] = land("c08", creature="c08")           # Bob's Cinder Pup
    s.players[2].lands[1] = land("c24", creature="c24")           # Carol's Bramble Guard
    s = game.apply(s, 0, "done")
    en, ja = _menu(s, 0, "en"), _menu(s, 0, "ja")
    r = en["ranged l1 p2l3"]
    assert r.label == "Ranged: Halo Warden → Bob's Cinder Pup" and r.emoji == "🏹"
    assert r.description == "land 1 → Bob's land 3 · 3/4 (Reflect) vs 2/2"
    assert r.group == en["ranged l1 p3l2"].group == "Ranged battle with Halo Warden (land 1)"
    assert en["ranged l1 p3l2"].description == "land 1 → Carol's land 2 · 3/4 (Reflect) vs 2/4 (Counter)"
    assert ja["ranged l1 p2l3"].label == "遠距離戦闘：光輪の守人→Bobの燠火の仔犬"
    assert en["pass"].label == "Pass" and en["pass"].description == "no advance and no battle this turn"
    assert ja["pass"].label == "パス"


def test_advance_and_support_choices():
    # "| `advance <land>` | leader main phase | `advance l1` |" and
    # "| `support <card>` / `support avatar` | both battlers, secretly | `support s06`, `support avatar` |"
    s = fresh()
    s.players[0].lands[0] = [[["c07", ""], ["c07", ""], ["c07", ""]], "c05", 0]   # 12 mana, Halo Warden
    s.players[1].lands[0] = land("c02", creature="c02")
    s.players[0].hand = ["s06", "c32"]                        # Battle Hymn; Empty Helm Sentinel (support: evade)
    s = game.apply(s, 0, "done")
    en, ja = _menu(s, 0, "en"), _menu(s, 0, "ja")
    assert en["advance l1"].label == "Advance Halo Warden from land 1"
    assert en["advance l1"].description == "3/4 (Reflect) · to the sanctuary with 3 mana cards"
    assert ja["advance l1"].label == "土地1の光輪の守人で進軍"
    s = game.apply(s, 0, "ranged l1 p2l1")
    en, ja = _menu(s, 0, "en"), _menu(s, 0, "ja")
    assert en["support avatar"].label == "Support: your avatar (no card)"
    assert en["support s06"].label == "Support: Battle Hymn" and en["support s06"].description == "+2 attack, +1 durability"
    assert en["support c32"].description == "your creature gains Evade"
    assert ja["support s06"].label == "戦闘支援：戦いの賛歌" and ja["support s06"].description == "攻撃値+2・耐久値+1"


def test_use_and_unknown_commands_read_as_words():
    # "| `use <card>` | set phase; a card with an in-hand (手札) ability | `use c42` |"
    s = fresh()
    s.players[0].hand = ["c42"]                               # Whispering Courier: in hand, draw 2
    view = game.view(s, 0)
    out = choices("avalon", view, 0, ["use c42", "frobnicate x9"], "en", NAMES)
    assert out[0].label == "Use Whispering Courier (in-hand ability)" and out[0].description == "discard it: draw 2"
    assert out[1].label == "Play frobnicate x9"
    ja = choices("avalon", view, 0, ["use c42"], "ja", NAMES)
    assert ja[0].label == "囁きの伝令の手札能力を使う" and ja[0].description == "このカードを捨ててカードを2枚引く"


def test_another_players_land_is_named_by_the_player_in_random_play():
    # "another player's land `p<seat+1>l<n>` (e.g. `p2l3` = seat 1's land 3)"
    rng = random.Random(3)
    state = game.new_match(players=3, seed=3, options={})
    for _ in range(600):
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        other = [c for c in legal if c.startswith("ranged ")]
        if other:
            c = _menu(state, seat, "en")[other[0]]
            tok = other[0].split()[2]
            assert f"{NAMES[int(tok[1]) - 1]}'s land {tok[3]}" in c.description, c.description
            assert c.label.startswith("Ranged: ") and f" → {NAMES[int(tok[1]) - 1]}'s " in c.label, c.label
            return
        state = game.apply(state, seat, rng.choice(legal))
        if game.outcome(state) is not None:
            state = game.new_match(players=3, seed=rng.randrange(100), options={})
    raise AssertionError("no ranged battle aimed at another player's land")
