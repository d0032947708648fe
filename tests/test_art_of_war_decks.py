"""Art of War decks through ``game.decks`` (docs/engine.md) and the card files.

Rulebook: 「KING」カード1枚+5種類のカードを20枚選び合計21で1デッキ(国)を構成し遊びます。
"""
from __future__ import annotations

import json

import pytest

from data import i18n
from rules.art_of_war.files import ART_OF_WAR_DIR, read_art_of_war
from rules import registry
from rules.art_of_war.cards import CardDataError, build_cardset

game = registry.get("art_of_war")
d = game.decks


def test_cards_are_the_five_basic_units_and_at_least_three_kings():
    cards = d.cards()
    basic = [c for c, v in cards.items() if v["category"] == "unit"]
    kings = [c for c, v in cards.items() if v["category"] == "KING"]
    assert basic == ["soldier", "archer", "priest", "guardian", "wizard"]
    assert len(kings) >= 3
    for _cid, card in cards.items():
        assert card["name"]["en"] and card["name"]["ja"] and card["text"]["en"] and card["text"]["ja"]
    json.dumps(cards)
    # the rulebook's fixed values of the basic units
    assert [cards[u]["defence"] for u in basic] == [[2, 1], [2, 1], [2, 2], [3, 2], [2, 1]]
    assert [cards[u]["attack"] for u in basic] == ["hand", 1, 1, 1, 1]


def test_ready_made_decks_are_legal_and_play():
    ready = d.ready()
    assert len(ready) >= 3
    for did, deck in ready.items():
        assert d.validate(deck["spec"]) == [], did
        assert d.describe(deck["spec"])["total"] == 21
        state = game.new_match(2, 1, {"decks": [did, deck["spec"]]})
        assert game.view(state, None)["players"][0]["king"] == deck["spec"]["king"]


def test_validate_lists_every_broken_rule():
    spec = {"king": "no_such_king", "units": {"soldier": 3, "dragon": 2, "archer": -1}}
    problems = d.validate(spec)
    keys = [p["key"] for p in problems]
    assert keys == ["art_of_war.deck.unknown_king", "art_of_war.deck.unknown_card",
                    "art_of_war.deck.bad_count", "art_of_war.deck.total"]
    for p in problems:
        assert i18n.t(p["key"], "en", **p["params"]) == p["text"]
        assert i18n.has(p["key"]) and p["key"] in i18n.catalog("ja")
    assert [p["key"] for p in d.validate(d.empty())] == ["art_of_war.deck.no_king", "art_of_war.deck.total"]
    assert [p["key"] for p in d.validate("nonsense")] == ["art_of_war.deck.not_a_deck"]


def test_add_remove_build_a_legal_deck_without_mutating():
    spec = d.empty()
    spec2 = d.add(spec, "king_sage")
    assert spec == d.empty() and spec2["king"] == "king_sage"
    for u in ("soldier", "archer", "priest", "guardian", "wizard"):
        spec2 = d.add(spec2, u, 4)
    assert d.validate(spec2) == []
    spec3 = d.remove(spec2, "wizard", 4)
    assert "wizard" not in spec3["units"] and d.validate(spec3)[0]["key"] == "art_of_war.deck.total"
    with pytest.raises(ValueError):
        d.add(spec2, "dragon")
    with pytest.raises(ValueError):
        d.remove(spec3, "wizard")


def test_deck_codes_round_trip_and_bad_codes_raise():
    for deck in d.ready().values():
        code = d.encode(deck["spec"])
        assert code.startswith("aow1-") and d.decode(code) == deck["spec"]
        state = game.new_match(2, 3, {"decks": [code, None]})
        assert game.view(state, None)["players"][0]["king"] == deck["spec"]["king"]
    for bad in ("", "aow1-king_iron-4.4.4", "xx", "aow1-nobody-4.4.4.4.4", 5):
        with pytest.raises(ValueError):
            d.decode(bad)


def test_illegal_deck_in_options_raises_listing_every_problem():
    with pytest.raises(ValueError) as info:
        game.new_match(2, 1, {"decks": [{"king": None, "units": {"soldier": 19}}, "iron_wall"]})
    text = str(info.value)
    assert "KING" in text and "20 basic units" in text


def test_match_copies_the_card_definitions_it_uses():
    """A match replays exactly even if card files change later."""
    state = game.new_match(2, 1, {})
    dumped = json.loads(game.dump(state))
    assert dumped["cards"]["kings"][0]["id"] == "king_iron"
    assert set(dumped["cards"]["units"]) == set("sapgw")


def test_card_file_errors_name_the_file_card_and_field(tmp_path):
    files = sorted(ART_OF_WAR_DIR.glob("*.json"))
    assert read_art_of_war(files).kings
    data = json.loads(files[0].read_text(encoding="utf-8"))
    data["kings"][0]["defence"] = [0]
    with pytest.raises(CardDataError) as info:
        build_cardset([("cards.json", data)])
    assert "cards.json" in str(info.value) and "king_iron" in str(info.value) and "defence" in str(info.value)


def test_module_doctests():
    import doctest

    import rules.art_of_war.files as loader
    import rules.art_of_war.cards as cards

    assert doctest.testmod(cards).failed == 0
    assert doctest.testmod(loader).failed == 0
