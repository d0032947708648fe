"""Battle Logic Square cards as data: the starter content, the schema and its error messages, the
loader (with an admin folder), the deck rules (rulebook 3 and the project rulings, docs/rules/logic_square.md) and deck codes."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from data import i18n
from rules.logic_square.files import (LOGIC_SQUARE_DIR, LOGIC_SQUARE_ENV, load_logic_square, logic_square_files,
                                     read_logic_square)
from rules import registry
from rules.logic_square import (CardDataError, CardSet, DeckCodeError, LogicSquareGame, decode_deck,
                                encode_deck, parse_range, validate_deck)
from rules.logic_square.cards import BREAKS, EFFECTS, MODS

ROOT = Path(__file__).resolve().parent.parent
cs = load_logic_square(env=False)
game = registry.get("logic_square")


# ============================================================================ the starter content

def test_at_least_three_avis_each_with_an_ap_cost_ability_and_an_awakening():
    """The project's content requirement: "at least 3 AVIs (each with an AP-cost effect and an awakening)". 9. <覚醒 X>"""
    avis = [cs[c] for c in cs.ids("AVI")]
    assert len(avis) >= 3
    for avi in avis:
        assert avi.abilities and all(a.cost >= 1 for a in avi.abilities)
        assert avi.awakening and 0 < avi.awakening["life"] < 500 and avi.awakening["mods"]


def test_at_least_24_resource_cards_covering_every_category_colour_cb_break_and_placement():
    """The project's content requirement: "at least 24 resource cards covering every category, colour, CB, Br with break
    conditions, placed cards with durability"."""
    res = [cs[c] for c in cs.cards if cs[c].is_resource]
    assert len(res) >= 24
    assert {c.category for c in res} == {"Ac", "Sc", "Br"}
    assert {c.colour for c in res} == {"white", "green", "blue", "red"}
    assert any(c.cb for c in res) and any(c.cb and c.category == "Br" for c in res)
    assert all(c.breaks for c in res if c.category == "Br")
    assert any(c.action.durability for c in res)
    for cat in ("Ac", "Sc", "Br"):
        assert any(c.cb for c in res if c.category == cat) or cat == "Sc"


def test_at_least_eight_it_cards_with_build_conditions():
    """The project's content requirement: "at least 8 IT cards with build conditions"."""
    its = [cs[c] for c in cs.ids("IT")]
    assert len(its) >= 8 and all(c.build for c in its)


def test_every_card_has_a_japanese_and_an_english_name_and_text_and_at_most_two_types():
    """2.⑥ カードは最大で2つまでタイプを持っています。  The brief: every card has ja and en name and text."""
    for card in cs.cards.values():
        for lang in ("ja", "en"):
            assert card.name[lang].strip() and card.text[lang].strip()
        assert len(card.types) <= 2
        for ab in card.abilities:
            assert ab.name["ja"] and ab.name["en"] and ab.text["ja"] and ab.text["en"]
    assert all(set(names) == {"ja", "en"} for names in cs.types.values())


def test_the_content_uses_every_effect_modifier_and_break_condition():
    used_effects, used_mods, used_breaks = set(), set(), set()
    for card in cs.cards.values():
        actions = [card.action] if card.action else [a.action for a in card.abilities]
        for act in actions:
            used_effects.update(e["do"] for e in act.effects)
            used_mods.update(m["mod"] for m in act.aura)
        if card.awakening:
            used_mods.update(m["mod"] for m in card.awakening["mods"])
        used_breaks.update(b["when"] for b in card.breaks)
    assert used_effects == set(EFFECTS)
    assert used_mods == set(MODS)
    assert used_breaks == set(BREAKS)


def test_at_least_three_ready_made_decks_all_legal():
    """The project's content requirement: "at least 3 legal ready-made decks". 3. デッキの構築ルール"""
    assert len(cs.decks) >= 3
    for deck in cs.decks.values():
        assert validate_deck(cs, deck.to_spec()) == [], deck.id
        assert deck.name["ja"] and deck.name["en"]
    used = {c for d in cs.decks.values() for c in (d.avi, *d.resources, *d.it)}
    assert used == set(cs.cards)                        # every card is playable in some deck


def test_the_game_is_registered_with_the_packaged_card_set():
    assert isinstance(game, LogicSquareGame) and game.files_cardset == cs
    assert game.cardset == cs.at(game.editions[-1])        # the current rules edition's cards


# ============================================================================ the schema

def test_ranges_as_grids_or_offset_pairs():
    """Project ruling (docs/rules/logic_square.md): "Hit ranges are sets of (forward, sideways) offsets from the user's AVI, drawn for the
    user facing the opponent"; a grid's top row is the farthest forward."""
    class Ctx:
        def fail(self, field, message):
            return CardDataError("f", "c", field, message)
    grid = parse_range([".x.", "xox", "..."], Ctx(), "range")
    assert grid == ((1, 0), (0, -1), (0, 1))
    assert parse_range([[1, 0], [0, -1], [0, 1]], Ctx(), "range") == grid
    assert parse_range(["x@x"], Ctx(), "range") == ((0, -1), (0, 0), (0, 1))
    assert parse_range(["x", "x", ".", "o"], Ctx(), "range") == ((3, 0), (2, 0))


def test_card_set_json_round_trip():
    again = CardSet.from_json(cs.subset(cs.ids()).to_json())
    assert again == cs.subset(cs.ids()) and again.to_json() == cs.subset(cs.ids()).to_json()


def _types():
    return {"strike": {"ja": "ストライク", "en": "Strike"}}


def good_card(**over):
    card = {"id": "zz01", "category": "Ac", "colour": "white", "types": ["strike"],
            "name": {"ja": "テスト", "en": "Test"}, "text": {"ja": "テスト。", "en": "Test."},
            "damage": 40, "range": ["x", "o"]}
    card.update(over)
    return {k: v for k, v in card.items() if v is not None}


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("card, field, words", [
    (good_card(category="Xx"), "category", "must be one of AVI, Ac, Sc, Br, IT"),
    (good_card(id="C3"), "id", "lowercase"),
    (good_card(id="c3"), "id", "square"),
    (good_card(colour="purple"), "colour", "white, green, blue, red"),
    (good_card(colour=None), "colour", "must be one of"),
    (good_card(cb="yes"), "cb", "true or false"),
    (good_card(types=["strike", "nope"]), "types[1]", "unknown type 'nope'"),
    (good_card(types=["strike", "strike"]), "types", "twice"),
    (good_card(name={"ja": "テスト"}), "name.en", "missing or empty"),
    (good_card(text={"ja": "", "en": "x"}), "text.ja", "missing or empty"),
    (good_card(damage=-5), "damage", "between 0 and 1000"),
    (good_card(damage="40"), "damage", "whole number"),
    (good_card(durability=50), "durability", "either hit damage or durability"),
    (good_card(range=["xx"]), "range", "exactly one 'o'"),
    (good_card(range=["q", "o"]), "range[0]", "unknown grid character"),
    (good_card(range=[[1, 0, 2]]), "range[0]", "[forward, sideways] pair"),
    (good_card(range=[[5, 0]]), "range", "off any 5×5 board"),
    (good_card(range=None), "range", "needs a hit range"),
    (good_card(effects=[{"do": "explode"}]), "effects[0].do", "must be one of damage, heal"),
    (good_card(effects=[{"do": "draw"}]), "effects[0].count", "is required"),
    (good_card(effects=[{"do": "draw", "count": 9}]), "effects[0].count", "between 1 and 5"),
    (good_card(effects=[{"do": "draw", "count": 1, "who": "both"}]), "effects[0].who", "self, opponent"),
    (good_card(effects=[{"do": "heal", "amount": 5, "when": 1}]), "effects[0].when", "unknown parameter"),
    (good_card(effects=[{"do": "heal", "amount": 5, "if": "sometimes"}]), "effects[0].if", "hit_avi, awakened"),
    (good_card(damage=0, range=None, effects=[{"do": "push", "distance": 1}]), "range", "push and pull"),
    (good_card(effects=[{"do": "move_self"}]), "effects", "cannot also hit"),
    (good_card(aura=[{"mod": "damage_bonus", "amount": 5}]), "aura", "only a placed card"),
    (good_card(damage=None, durability=40, range=["x", "o"], aura=[{"mod": "turret", "damage": 5}]),
     "aura[0].range", "is required"),
    (good_card(damage=None, durability=40, range=["@"]), "range", "own square"),
    (good_card(**{"break": [{"when": "in_range"}]}), "break", "only a Br card"),
    (good_card(category="Br"), "break", "needs a break condition"),
    (good_card(category="Br", **{"break": [{"when": "sunny"}]}), "break[0].when", "must be one of in_range"),
    (good_card(category="Br", **{"break": [{"when": "life_at_most"}]}), "break[0].amount", "is required"),
    (good_card(category="IT", colour=None), "build", "needs a build condition"),
    (good_card(category="IT", colour=None, build=[{"count": 4}]), "build[0].count", "between 1 and 3"),
    (good_card(category="IT", colour=None, build=[{"count": 2}, {"count": 2}]), "build", "at most 3"),
    (good_card(category="IT", colour=None, build=[{"category": "IT"}]), "build[0].category", "Ac, Sc, Br"),
    (good_card(category="IT", colour=None, build=[{"shape": "round"}]), "build[0].shape", "unknown requirement"),
    (good_card(category="IT", colour=None, build=[{"card": "nope99"}]), "build[0].card", "not a resource card"),
    (good_card(flavour="x"), "flavour", "is not a field"),
    ({"id": "zz02", "category": "AVI", "name": {"ja": "あ", "en": "A"}, "text": {"ja": "あ", "en": "A"}},
     "abilities", "1 to 9 abilities"),
    ({"id": "zz02", "category": "AVI", "name": {"ja": "あ", "en": "A"}, "text": {"ja": "あ", "en": "A"},
      "abilities": [{"name": {"ja": "あ", "en": "A"}, "text": {"ja": "あ", "en": "A"}}]},
     "abilities[0].cost", "is required"),
    ({"id": "zz02", "category": "AVI", "name": {"ja": "あ", "en": "A"}, "text": {"ja": "あ", "en": "A"},
      "abilities": [{"cost": 1, "name": {"ja": "あ", "en": "A"}, "text": {"ja": "あ", "en": "A"},
                     "durability": 5, "range": ["x", "o"]}]},
     "abilities[0].durability", "unknown field"),
    ({"id": "zz02", "category": "AVI", "name": {"ja": "あ", "en": "A"}, "text": {"ja": "あ", "en": "A"},
      "abilities": [{"cost": 1, "name": {"ja": "あ", "en": "A"}, "text": {"ja": "あ", "en": "A"},
                     "effects": [{"do": "ap", "amount": 2}]}]},
     "abilities[0].effects", "gain AP"),
    ({"id": "zz02", "category": "AVI", "name": {"ja": "あ", "en": "A"}, "text": {"ja": "あ", "en": "A"},
      "abilities": [{"cost": 1, "name": {"ja": "あ", "en": "A"}, "text": {"ja": "あ", "en": "A"},
                     "effects": [{"do": "heal", "amount": 5}]}],
      "awakening": {"life": 600, "mods": [{"mod": "ap_bonus", "amount": 1}], "text": {"ja": "あ", "en": "A"}}},
     "awakening.life", "between 1 and 499"),
    ({"id": "zz02", "category": "AVI", "name": {"ja": "あ", "en": "A"}, "text": {"ja": "あ", "en": "A"},
      "abilities": [{"cost": 1, "name": {"ja": "あ", "en": "A"}, "text": {"ja": "あ", "en": "A"},
                     "effects": [{"do": "heal", "amount": 5}]}],
      "awakening": {"life": 200, "mods": [{"mod": "turret", "damage": 5, "range": ["x", "o"]}],
                    "text": {"ja": "あ", "en": "A"}}},
     "awakening.mods[0].mod", "placed cards only"),
])
def test_bad_card_data_names_the_file_the_card_and_the_field(tmp_path, card, field, words):
    """STYLE.md: "Card sets are data files …, validated by a schema at load time with errors that name
    the file, the card and the field." """
    path = write(tmp_path, "bad_cards.json", {"types": _types(), "cards": [card]})
    with pytest.raises(CardDataError) as info:
        read_logic_square([path])
    err = info.value
    assert err.file == str(path) and err.card == card["id"] and err.field == field, str(err)
    assert words in err.message, str(err)
    assert str(path) in str(err) and repr(card["id"]) in str(err) and repr(field) in str(err)


def test_invalid_json_names_the_file_and_the_line(tmp_path):
    path = write(tmp_path, "broken.json", '{"cards": [\n  {"id": "zz01",}\n]}')
    with pytest.raises(CardDataError) as info:
        read_logic_square([path])
    assert info.value.file == str(path) and "line 2" in str(info.value)


def test_duplicate_ids_and_names_across_files_name_both(tmp_path):
    a = write(tmp_path, "a.json", {"types": _types(), "cards": [good_card()]})
    b = write(tmp_path, "b.json", {"cards": [good_card(name={"ja": "別名", "en": "Other"})]})
    with pytest.raises(CardDataError) as info:
        read_logic_square([a, b])
    assert info.value.file == str(b) and info.value.field == "id" and str(a) in str(info.value)
    c = write(tmp_path, "c.json", {"cards": [good_card(id="zz09")]})
    with pytest.raises(CardDataError) as info:
        read_logic_square([a, c])
    assert info.value.card == "zz09" and info.value.field == "name.ja"


def test_an_illegal_ready_made_deck_is_refused_at_load(tmp_path):
    bad = write(tmp_path, "decks.json", {"decks": [
        {"id": "broken", "name": {"ja": "壊れ", "en": "Broken"}, "avi": "av01",
         "resources": {"ac12": 1, "ac15": 1, "ac01": 4}, "it": ["it01"]}]})
    with pytest.raises(CardDataError) as info:
        read_logic_square(logic_square_files() + [bad])
    text = str(info.value)
    assert info.value.card == "deck 'broken'" and "6 cards" in text and "red cards" in text and "IT deck" in text


def test_unknown_top_level_keys_and_formats_are_refused(tmp_path):
    with pytest.raises(CardDataError) as info:
        read_logic_square([write(tmp_path, "x.json", {"cardz": []})])
    assert info.value.field == "cardz"
    with pytest.raises(CardDataError) as info:
        read_logic_square([write(tmp_path, "y.json", {"format": 2, "cards": []})])
    assert info.value.field == "format"


# ============================================================================ the loader and admin folder

def test_an_admin_adds_a_card_and_a_deck_by_adding_a_data_file(tmp_path, monkeypatch):
    """The brief: a server admin can add a card by adding a data entry — no code (LOGIC_SQUARE_CARDS_DIR)."""
    extra = tmp_path / "server_cards"
    extra.mkdir()
    card = good_card(id="srv01", name={"ja": "サーバー限定ジャブ", "en": "Server Jab"}, damage=55,
                     range=[".x.", "xxx", ".o."])
    deck = dict(cs.decks["blitz"].to_spec())
    res = list(deck["resources"])
    res[res.index("ac01")] = "srv01"
    write(extra, "server.json", {"cards": [card], "decks": [
        {"id": "srvdeck", "name": {"ja": "サーバーデッキ", "en": "Server deck"}, "avi": deck["avi"],
         "resources": res, "it": deck["it"]}]})
    monkeypatch.setenv(LOGIC_SQUARE_ENV, str(extra))
    extended = load_logic_square()
    assert "srv01" in extended and "srvdeck" in extended.decks
    assert extended.sources["srv01"].endswith("server.json")
    g = LogicSquareGame(extended)
    state = g.new_match(2, 1, {"decks": ["srvdeck", "aegis"]})
    assert "srv01" in state.cards
    assert load_logic_square(env=False) == cs                     # the packaged set is unchanged
    monkeypatch.setenv(LOGIC_SQUARE_ENV, str(tmp_path / "missing"))
    with pytest.raises(CardDataError):
        load_logic_square()


def test_the_loader_caches_until_a_file_changes(tmp_path):
    extra = tmp_path / "more"
    extra.mkdir()
    path = write(extra, "one.json", {"cards": [good_card(id="srv02", types=[], name={"ja": "一", "en": "One"})]})
    first = load_logic_square(extra)
    assert load_logic_square(extra) is first
    write(extra, "one.json", {"cards": [good_card(id="srv03", types=[], name={"ja": "二", "en": "Two"})]})
    import os
    os.utime(path, ns=(1, 1))
    assert "srv03" in load_logic_square(extra)


def test_packaged_files_are_in_the_package_folder():
    names = [p.name for p in logic_square_files()]
    assert names == sorted(names) and all((LOGIC_SQUARE_DIR / n).exists() for n in names)


# ============================================================================ deck rules (3.)

def spec(deck="blitz", **over):
    s = cs.decks[deck].to_spec()
    s.update(over)
    return s


def keys(problems):
    return [p.key for p in problems]


def test_deck_needs_one_avi():
    """3.I 《AVI》カードを1枚選びます。"""
    assert keys(validate_deck(cs, spec(avi="ac01"))) == ["logic_square.deck.avi_not_avi"]
    assert keys(validate_deck(cs, spec(avi="nope"))) == ["logic_square.deck.unknown_card"]


def test_resource_deck_is_exactly_30_ac_sc_br_cards():
    """3.II リソースカード（《Ac》カード、《Sc》カード、《Br》カード）から30枚選んで、デッキを構築します。"""
    res = spec()["resources"]
    assert keys(validate_deck(cs, spec(resources=res[:-1]))) == ["logic_square.deck.resource_count"]
    assert keys(validate_deck(cs, spec(resources=res[:-1] + ["it01"]))) == ["logic_square.deck.not_resource"]
    assert keys(validate_deck(cs, spec(resources=res[:-1] + ["av02"]))) == ["logic_square.deck.not_resource"]


@pytest.mark.parametrize("card, copies, key", [
    ("ac01", 4, "logic_square.deck.white_copies"),      # 白カード……同名のカードは3枚まで
    ("ac06", 3, "logic_square.deck.green_copies"),      # 緑カード……同名のカードは2枚まで
    ("ac09", 2, "logic_square.deck.blue_copies"),       # 青カード……同名のカードは1枚まで
])
def test_copy_limits_per_name_by_colour(card, copies, key):
    """3.II 白カード……同名のカードは3枚まで / 緑カード……2枚まで / 青カード……1枚まで"""
    res = [c for c in spec()["resources"] if c != card]
    res = res[: 30 - copies] + [card] * copies
    problems = validate_deck(cs, spec(resources=res))
    assert key in keys(problems)
    p = problems[keys(problems).index(key)]
    assert p.params == {"card": card, "count": copies}


def test_blue_total_and_red_total():
    """3.II 青カード……合計5枚まで  赤カード……同名のカードは1枚まで、合計1枚まで"""
    res = spec()["resources"]
    six_blue = res[:24] + ["ac09", "ac10", "ac11", "ac14", "br03", "br04"]
    assert "logic_square.deck.blue_total" in keys(validate_deck(cs, spec(resources=six_blue)))
    two_red = [c for c in res if c != "ac12"][:28] + ["ac12", "ac15"]
    assert keys(validate_deck(cs, spec(resources=two_red))) == ["logic_square.deck.red_total"]
    two_same_red = [c for c in res if c != "ac12"][:28] + ["ac12", "ac12"]
    assert keys(validate_deck(cs, spec(resources=two_same_red))) == [
        "logic_square.deck.red_copies", "logic_square.deck.red_total"]


def test_it_deck_is_exactly_five_different_it_cards():
    """3.III 《IT》カードのみで構成します。同名のカードは1枚まで、合計5枚まで選んで構築します。
    project ruling (docs/rules/logic_square.md): "IT deck exactly 5 different IT cards." """
    assert keys(validate_deck(cs, spec(it=["it01", "it02", "it03", "it04"]))) == ["logic_square.deck.it_count"]
    assert keys(validate_deck(cs, spec(it=["it01", "it02", "it03", "it04", "it04"]))) == [
        "logic_square.deck.it_duplicate"]
    assert keys(validate_deck(cs, spec(it=["it01", "it02", "it03", "it04", "ac01"]))) == [
        "logic_square.deck.it_not_it"]


def test_every_broken_rule_is_listed_at_once():
    """The brief: a deck validator that lists EVERY broken rule at once."""
    bad = {"avi": "it01", "resources": ["ac01"] * 4 + ["ac12", "ac15", "zz99"] + ["ac09"] * 2,
           "it": ["it01", "it01", "ac02"]}
    problems = validate_deck(cs, bad)
    assert keys(problems) == [
        "logic_square.deck.avi_not_avi", "logic_square.deck.resource_count",
        "logic_square.deck.white_copies", "logic_square.deck.blue_copies",
        "logic_square.deck.unknown_card", "logic_square.deck.red_total",
        "logic_square.deck.it_count", "logic_square.deck.it_duplicate", "logic_square.deck.it_not_it"]
    for p in problems:
        for lang in ("en", "ja"):
            assert i18n.placeholders(i18n.catalog(lang)[p.key]) <= set(p.params), p.key
        assert i18n.t(p.key, "en", **p.params) == p.message
    assert {p.field for p in problems} == {"avi", "resources", "it"}


def test_a_malformed_deck_is_one_problem():
    assert keys(validate_deck(cs, "blitz")) == ["logic_square.deck.malformed"]
    assert keys(validate_deck(cs, {"avi": "av01", "resources": {"ac01": "three"}, "it": []})) == [
        "logic_square.deck.malformed"]


def test_resources_may_be_given_as_copies_per_id():
    counts = Counter(spec()["resources"])
    assert validate_deck(cs, spec(resources=dict(counts))) == []


# ============================================================================ deck codes

def test_deck_codes_round_trip_for_every_ready_made_deck():
    """The brief: a short shareable deck code, round-trip tested."""
    for deck in cs.decks.values():
        code = encode_deck(deck.to_spec())
        assert decode_deck(code) == deck.to_spec() and decode_deck(code.upper()) == deck.to_spec()
        assert len(code) < 140 and " " not in code and "," not in code and "=" not in code
        assert validate_deck(cs, decode_deck(code)) == []


def test_deck_code_errors_are_catalogued():
    code = encode_deck(cs.decks["fox"].to_spec())
    broken = code.replace("av04", "av03")
    for text, key in ((broken, "logic_square.deck.code_checksum"), ("hello", "logic_square.deck.code_invalid"),
                      ("ls1-av01-ac01-it01", "logic_square.deck.code_invalid"), (None, "logic_square.deck.code_invalid")):
        with pytest.raises(DeckCodeError) as info:
            decode_deck(text)
        assert info.value.key == key
        assert i18n.t(key, "ja", **info.value.params) != key


# ============================================================================ catalogs and docs

def _file(lang):
    return json.loads((ROOT / "data" / "i18n" / lang / "logic_square.json").read_text(encoding="utf-8"))


def test_catalogs_have_identical_keys_and_placeholders():
    en, ja = _file("en"), _file("ja")
    singular = {k for k in en if k.endswith(".one") and k[:-4] in en}     # English only: ja has no plural
    assert set(en) - singular == set(ja)
    for key in set(en) - singular:
        assert i18n.placeholders(en[key]) == i18n.placeholders(ja[key]), key
        assert ja[key].strip(), key


def test_english_catalog_matches_the_engine_messages():
    from rules.logic_square import EN
    assert _file("en") == EN


def test_every_error_key_the_engine_raises_is_catalogued():
    import re
    src = "".join((ROOT / "rules" / "logic_square" / f).read_text(encoding="utf-8")
                  for f in ("engine.py", "decks.py"))
    used = set(re.findall(r'"(logic_square\.(?:err|deck)\.[a-z_]+)"', src))
    used |= {f"logic_square.deck.{c}_copies" for c in ("white", "green", "blue", "red")}
    assert used and used <= set(_file("en")) and used <= set(_file("ja"))


def test_outcome_reasons_are_catalogued():
    for reason in ("knockout", "double_knockout", "decks_out", "turn_limit"):
        assert i18n.has(f"reason.{reason}")


def test_rules_doc_examples_run():
    """docs/rules/logic_square.md: the worked examples as doctests."""
    import doctest
    result = doctest.testfile(str(ROOT / "docs" / "rules" / "logic_square.md"), module_relative=False)
    assert result.failed == 0 and result.attempted >= 20


def test_rules_doc_has_the_view_format_first_and_marks_every_ruling():
    text = (ROOT / "docs" / "rules" / "logic_square.md").read_text(encoding="utf-8")
    assert text.index("## View format") < text.index("## Terms")
    assert text.count("**Ruling:**") >= 10 and text.count("Engine ruling:") >= 15
    assert "**House rule:**" in text and "**House option:**" in text
    for term in ("チェーンアクション", "覚醒", "ブレイク条件", "move c2", "use ac01", "use sc03 d2",
                 "it it01 ac01 ac02", "avi 1", "caa ac01 ac01 sc02", "end", "chain ac11", "pass",
                 "discard sc02", "max_turns", "awakening", "public_to_act", "timeout_command", "ls1-"):
        assert term in text, term


def test_cards_doc_documents_every_field_and_its_example_loads(tmp_path):
    text = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
    for name in list(EFFECTS) + list(MODS) + list(BREAKS) + ["durability", "damage", "range", "cb",
                                                             "colour", "build", "break", "aura",
                                                             "abilities", "awakening", LOGIC_SQUARE_ENV]:
        assert f"`{name}`" in text, name
    example = text.split("## A complete example (a server card)", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    path = write(tmp_path, "example.json", example)
    card = read_logic_square(logic_square_files() + [path])["srv01"]
    assert card.cb and card.action.damage == 50 and card.action.effects[0]["if"] == "hit_avi"


def test_module_doctests():
    import doctest
    import rules.logic_square.board
    import rules.logic_square.cards
    import rules.logic_square.decks
    import rules.logic_square.engine
    import rules.logic_square.files
    for module in (rules.logic_square.board, rules.logic_square.cards, rules.logic_square.decks,
                   rules.logic_square.engine, rules.logic_square.files):
        assert doctest.testmod(module).failed == 0, module.__name__


# ============================================================================ game.decks (docs/engine.md)

def test_game_decks_api():
    """docs/engine.md "Decks": cards, ready, empty, add, remove, validate, encode, decode, describe."""
    d = game.decks
    assert set(d.cards()) == set(cs.cards) and d.cards()["ac01"]["name"]["en"] == "Pulse Jab"
    ready = d.ready()
    assert list(ready) == ["blitz", "aegis", "cipher", "fox"]
    for _rid, deck in ready.items():
        assert d.validate(deck["spec"]) == [] and deck["name"]["ja"]
        assert d.describe(deck["spec"])["total"] == 36
        assert d.decode(d.encode(deck["spec"])) == deck["spec"]
    empty = d.empty()
    assert [p["key"] for p in d.validate(empty)] == [
        "logic_square.deck.avi_missing", "logic_square.deck.resource_count", "logic_square.deck.it_count"]
    assert d.decode(d.encode(empty)) == empty
    spec = d.add(d.add(d.add(empty, "av01"), "ac01", 3), "it01")
    assert spec == {"avi": "av01", "resources": ["ac01"] * 3, "it": ["it01"]} and empty == d.empty()
    assert d.add(spec, "av02")["avi"] == "av02"                       # an AVI replaces the AVI
    assert d.remove(spec, "ac01", 2)["resources"] == ["ac01"]
    assert d.remove(spec, "av01")["avi"] is None
    assert d.remove(spec, "ac01", 9)["resources"] == []
    with pytest.raises(ValueError):
        d.add(spec, "zz99")
    with pytest.raises(ValueError):
        d.remove(spec, "ac02")
    with pytest.raises(ValueError):
        d.decode("ls1-nonsense")
    problems = d.validate(d.add(spec, "ac01", 2))
    assert [p["key"] for p in problems] == ["logic_square.deck.resource_count",
                                            "logic_square.deck.white_copies", "logic_square.deck.it_count"]
    for p in problems:
        assert i18n.t(p["key"], "en", **p["params"]) == p["text"]
        assert i18n.placeholders(i18n.catalog("ja")[p["key"]]) <= set(p["params"])
    desc = d.describe(ready["blitz"]["spec"])
    assert [s["title"]["en"] for s in desc["sections"]] == [
        "AVI", "Resource deck: white", "Resource deck: green", "Resource deck: blue", "Resource deck: red", "IT deck"]
    assert desc["sections"][0]["cards"] == [["av01", 1]]


def test_a_seat_without_a_deck_choice_gets_its_default():
    """docs/engine.md: "Without decks, each seat gets a ready-made deck." (host passes None)"""
    state = game.new_match(2, 1, {"decks": [None, "fox"]})
    assert state.avi == ("av01", "av04")
    state = game.new_match(2, 1, {"decks": ["cipher", None]})
    assert state.avi == ("av03", "av02")
