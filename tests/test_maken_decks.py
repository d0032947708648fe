"""Project Maken decks and card data: the ``game.decks`` API (docs/engine.md) and the ruling
"one character card plus 30 cards from that character's own pool, at most 3 copies of a name;
support cards count toward the 30" (GAMES.md)."""
from __future__ import annotations

import json

import pytest

from data import i18n
from data.cards.maken_loader import MAKEN_DIR, load_maken, read_maken
from rules import registry
from rules.maken.cards import CardDataError, CardSet

game = registry.get("maken")
decks = game.decks


def test_ready_made_decks_are_legal_and_there_are_at_least_two_characters():
    cs = load_maken()
    assert len(cs.characters) >= 2
    ready = decks.ready()
    assert len(ready) >= 2
    for did, deck in ready.items():
        assert decks.validate(deck["spec"]) == [], did
        assert decks.describe(deck["spec"])["total"] == 30


def test_every_pool_covers_the_mechanics():
    """GAMES.md content: 12–16 cards per pool covering speed/reach/front-back reach, postures, each
    unguardable kind, gauge cost and gain, GC-only and GC-able, hit effects, each destination icon
    and support cards."""
    cs = load_maken()
    for ch in cs.characters:
        pool = [cs.cards[c] for c in cs.pool(ch)]
        assert 12 <= len(pool) <= 16, ch
        attacks = [c for c in pool if c["kind"] == "attack"]
        assert any(c["front"] != c["back"] for c in attacks)
        assert {c["posture"] for c in attacks} == {"stand", "crouch", "air"}
        kinds = {tuple(c["unguardable"]) for c in attacks}
        assert {("stand",), ("crouch",), ("air",), ("stand", "crouch")} <= kinds
        assert any(c["cost"] for c in attacks) and any(c["gain"] for c in attacks)
        assert {c["gc"] for c in attacks} >= {"only", "able"}
        assert any(c["hit"] for c in attacks)
        assert {c["icon"] for c in pool} == {"dust", "gauge", "hand", "stamina"}
        assert any(c["kind"] == "support" for c in pool)
        assert len({c["speed"] for c in attacks}) >= 3


def test_validate_lists_every_broken_rule():
    spec = {"character": "gou", "cards": {"gu01": 5, "ts01": 1, "zz99": 1, "tsubaki": 1}}
    keys = sorted(p["key"] for p in decks.validate(spec))
    assert keys == sorted(["maken.deck.count", "maken.deck.copies", "maken.deck.other_pool",
                           "maken.deck.unknown_card", "maken.deck.character_in_cards"])
    assert [p["key"] for p in decks.validate(decks.empty())] == ["maken.deck.no_character", "maken.deck.count"]
    for p in decks.validate(spec):
        assert i18n.t(p["key"], "en", **p["params"]) == p["text"]
        assert i18n.placeholders(i18n.catalog("ja")[p["key"]]) <= set(p["params"])


def test_add_remove_and_codes_round_trip():
    spec = decks.empty()
    spec = decks.add(spec, "tsubaki")
    spec2 = decks.add(spec, "ts01", 3)
    assert spec == {"character": "tsubaki", "cards": {}}              # the old spec is unchanged
    assert spec2["cards"] == {"ts01": 3}
    spec3 = decks.remove(spec2, "ts01")
    assert spec3["cards"] == {"ts01": 2}
    with pytest.raises(ValueError):
        decks.add(spec, "nope")
    with pytest.raises(ValueError):
        decks.remove(spec, "ts02")
    for deck in decks.ready().values():
        code = decks.encode(deck["spec"])
        assert decks.decode(code) == deck["spec"]
    with pytest.raises(ValueError):
        decks.decode("mk1-gou-3gu01-0000")
    with pytest.raises(ValueError):
        decks.decode("hello")


def test_a_deck_code_plays():
    code = decks.encode(decks.ready()["gou_basic"]["spec"])
    state = game.new_match(2, 5, {"decks": [code, "tsubaki_basic"]})
    assert state.d["chars"] == ["gou", "tsubaki"]


def test_cards_api_is_json_and_names_both_languages():
    cards = decks.cards()
    json.dumps(cards)
    for cid, c in cards.items():
        assert set(c["name"]) == {"en", "ja"} and set(c["text"]) == {"en", "ja"}
        assert c["category"] in ("character", "attack", "support")


def test_card_errors_name_the_file_the_card_and_the_field():
    data = json.loads((MAKEN_DIR / "01_tsubaki.json").read_text(encoding="utf-8"))
    data["cards"][2]["posture"] = "flying"
    with pytest.raises(CardDataError) as err:
        CardSet.from_sources([("x.json", data)])
    assert err.value.file == "x.json" and err.value.card == "ts03" and err.value.field == "posture"
    assert read_maken(sorted(MAKEN_DIR.glob("*.json"))).decks.keys() == load_maken().decks.keys()


def test_a_match_copies_its_card_definitions():
    """docs/engine.md: the definitions of the cards in play are copied into the match state."""
    state = game.new_match(2, 1, {})
    text = game.dump(state)
    assert '"ts01"' in text and '"speed"' in text
    assert game.load(text) == state


def test_catalog_matches_the_engine_messages_in_both_languages():
    """Every user-facing string is in data/i18n/{en,ja}/maken.json with the same placeholders."""
    from pathlib import Path

    from rules.maken.messages import EN

    root = Path(i18n.__file__).resolve().parent
    en = json.loads((root / "en" / "maken.json").read_text(encoding="utf-8"))
    ja = json.loads((root / "ja" / "maken.json").read_text(encoding="utf-8"))
    assert en == EN
    assert set(ja) == set(en)
    for key in en:
        assert i18n.placeholders(en[key]) == i18n.placeholders(ja[key]), key
    for kind in ("clean_hit", "trade", "guard_holds", "guard_break", "guard_cancel"):
        assert f"maken.judge.{kind}" in en
