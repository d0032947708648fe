"""Avalon's Sanctuary: the card set, the deck rules and the ``decks`` API, the catalogs."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from data import i18n
from rules.avalon.files import load_avalon, load_avalon_from
from rules import registry
from rules.avalon.cards import KEYWORDS, TIMINGS, CardDataError
from rules.avalon.messages import EN

game = registry.get("avalon")
ROOT = Path(__file__).resolve().parent.parent


def test_the_set_has_the_content_games_md_asks_for():
    """The project's content requirement: "at least 30 creatures over the 5 attributes and originality 1–5, including every
    keyword ... the named battle supports ... and a Ninja Master creature; at least 8 magic cards;
    4 avatars; 4 legal ready-made decks." """
    cards = game.decks.cards()
    creatures = [c for c in cards.values() if c["category"] == "creature"]
    assert len(creatures) >= 30
    assert {c["attr"] for c in creatures} == {"yellow", "red", "blue", "green", "none"}
    assert {c["orig"] for c in creatures} == {1, 2, 3, 4, 5}
    kws = {k for c in creatures for k in c.get("keywords", [])}
    assert kws == set(KEYWORDS)
    assert any(c.get("support") for c in creatures)              # battle-support creatures
    assert any(c.get("ninja") for c in creatures)
    kinds = {c["support"]["kind"] for c in cards.values() if c["category"] == "support"}
    assert {"weapon_replace", "informant", "chaos_panic", "poison_mist", "fingertips"} <= kinds
    assert sum(c["category"] == "magic" for c in cards.values()) >= 8
    assert sum(c["category"] == "avatar" for c in cards.values()) >= 4     # one per ready-made deck
    # every ability timing of the rulebook table (クリーチャーカードが持つ能力) has a card
    assert any(c.get("on_summon") for c in creatures)            # 召喚時
    assert any(c.get("target_minus") for c in creatures)         # 配置中
    assert any(c.get("battle") for c in creatures)               # 戦闘時 (order 4)
    for timing in TIMINGS:                                       # 素成時 … 戦闘開始時 … 証
        assert any(c.get(timing) for c in creatures), timing
    mana = Counter(k for c in creatures for k in c["mana"])
    assert mana["c"] and mana["w"] and mana["v"]                 # colourless, rainbow, vessel
    ready = game.decks.ready()
    assert len(ready) >= 4
    for rid, d in ready.items():
        assert game.decks.validate(d["spec"]) == [], rid
        assert d["name"]["en"] and d["name"]["ja"]
    for c in cards.values():
        assert c["name"]["en"] and c["name"]["ja"] and c["text"]["en"] and c["text"]["ja"]


def test_deck_validation_lists_every_broken_rule():
    """「オリジナリティの星が1つで4枚、2つで3枚まで、3つで2枚、4つは1枚までデッキに入れることが
    できます。星が5つのカードは、カードの名前が違っても、デッキには1枚しか入れることができません」;
    「40枚のカードの山を創りましょう ... アバターカードは40枚に含みません」"""
    spec = {"avatar": "c01", "cards": {"c01": 5, "c03": 4, "c05": 3, "c06": 2, "c07": 1, "c14": 1,
                                       "a2": 1, "zz9": 1}}
    keys = Counter(p["key"] for p in game.decks.validate(spec))
    assert keys == Counter({"avalon.deck.avatar_not_avatar": 1, "avalon.deck.size": 1,
                            "avalon.deck.copies": 4, "avalon.deck.star5": 1,
                            "avalon.deck.avatar_in_deck": 1, "avalon.deck.unknown_card": 1})
    for p in game.decks.validate(spec):
        assert p["text"] == EN[p["key"]].format(**p["params"])
    assert [p["key"] for p in game.decks.validate(game.decks.empty())] == ["avalon.deck.no_avatar", "avalon.deck.size"]


def test_deck_building_and_codes_round_trip():
    d = game.decks
    spec = d.add(d.add(d.empty(), "a3"), "c02", 4)
    spec = d.remove(spec, "c02", 1)
    assert spec == {"avatar": "a3", "cards": {"c02": 3}}
    with pytest.raises(ValueError):
        d.add(spec, "nope")
    with pytest.raises(ValueError):
        d.remove(spec, "c09")
    for _rid, r in d.ready().items():
        assert d.decode(d.encode(r["spec"])) == r["spec"]
        assert d.describe(r["spec"])["total"] == 40
    code = d.encode(spec)
    with pytest.raises(ValueError):
        d.decode(code[:-1] + ("0" if code[-1] != "0" else "1"))
    with pytest.raises(ValueError):
        d.decode("ls1-x")


def test_matches_take_decks_by_id_code_or_spec_and_reject_illegal_ones():
    """docs/engine.md: "an illegal deck raises ValueError listing every broken rule"."""
    ready = game.decks.ready()
    rid = list(ready)[2]
    code = game.decks.encode(ready[list(ready)[3]]["spec"])
    s = game.new_match(players=3, seed=1, options={"decks": [rid, code, None]})
    assert s.players[0].deck == ready[rid]["spec"]
    assert s.players[1].deck == ready[list(ready)[3]]["spec"]
    with pytest.raises(ValueError) as err:
        game.new_match(players=2, seed=1, options={"decks": [{"avatar": "a1", "cards": {"c07": 1, "c14": 1}}]})
    assert "40 cards" in str(err.value) and "★5" in str(err.value)


def test_a_late_joiner_gets_the_deck_given_for_its_seat_in_the_options():
    ready = list(game.decks.ready())
    s = game.new_match(players=2, seed=5, options={"decks": [None, None, ready[3]]})
    s = game.join(s, 2)
    assert s.players[2].deck == game.decks.ready()[ready[3]]["spec"]


def test_the_match_state_holds_the_card_definitions():
    s = game.new_match(players=2, seed=1, options={})
    data = json.loads(game.dump(s))
    assert "c01" in data["defs"] and data["defs"]["c01"]["name"]["en"]


def test_catalogs_match_the_engine_messages_in_both_languages():
    en = json.loads((ROOT / "data/i18n/en/avalon.json").read_text(encoding="utf-8"))
    ja = json.loads((ROOT / "data/i18n/ja/avalon.json").read_text(encoding="utf-8"))
    assert en == EN
    assert set(ja) == set(en)
    for k in en:
        assert i18n.placeholders(ja[k]) == i18n.placeholders(en[k]), k


def test_loader_errors_name_the_file_the_card_and_the_field(tmp_path):
    (tmp_path / "x.json").write_text(json.dumps({"cards": [
        {"id": "c01", "category": "creature", "name": {"en": "A", "ja": "あ"}, "attr": "purple",
         "orig": 1, "atk": 1, "dur": 1, "mana": {}}]}), encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        load_avalon_from(tmp_path)
    assert "x.json" in str(err.value) and "c01" in str(err.value) and "attr" in str(err.value)


def test_rules_package_does_no_file_io():
    """Only the loader (rules/avalon/files.py, through rules/card_files.py) reads files."""
    for path in (ROOT / "rules/avalon").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for bad in ("discord", "PIL") if path.name == "files.py" else ("open(", "pathlib", "read_text",
                                                                        "import os", "discord", "PIL"):
            assert bad not in text, (path.name, bad)


def test_loader_is_cached_and_complete():
    assert set(load_avalon()["decks"]) == set(game.decks.ready())


def test_module_doctests():
    import doctest

    import rules.avalon.files as loader
    import rules.avalon.decks as decks
    import rules.avalon.engine as engine
    for mod in (loader, decks, engine):
        assert doctest.testmod(mod).failed == 0, mod.__name__


def test_the_notation_example_of_the_rules_doc_plays():
    """docs/rules/avalon.md, Notation: the first-turn example."""
    s = game.new_match(players=2, seed=1, options={"leader": 0})
    s.players[0].hand = ["c02", "c01", "c05"]
    for cmd in ("forge c02 l1", "forge c01 l1", "summon c05 l1", "done", "pass"):
        s = game.apply(s, 0, cmd)
    assert game.view(s, None)["players"][0]["lands"][0]["creature"]["card"] == "c05"
