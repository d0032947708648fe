"""The computer drafter (ai.drafter): the pick by value, the pool adjustment (copy limits, totals,
a Project Maken character, Avalon's Sanctuary attributes), the tie-break, the fallback from the
cards' own data, and the deck it builds from its pool."""
from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest

from ai.drafter import (OFF_PLAN, SPARE, USELESS, DeckRules, Drafter, fallback_values, power)
from rules import registry


def _cards(game: str) -> dict:
    return registry.get(game).decks.cards()


def _spec(game: str, deck: list[str]) -> dict:
    decks = registry.get(game).decks
    spec = decks.empty()
    for cid in deck:
        spec = decks.add(spec, cid, 1)
    return spec


def _full_pool(drafter: Drafter, cards: dict) -> list[str]:
    """Every card of the set, as many copies as a deck may hold (8 of an Art of War unit)."""
    return [c for c in sorted(cards) for _ in range(drafter.limit(c) or 8)]


def test_it_picks_the_most_valuable_card_of_the_pack():
    values = {"soldier": 0.48, "archer": 0.61, "priest": 0.55, "wizard": 0.40}
    d = Drafter(values, "art_of_war", cards=_cards("art_of_war"))
    assert d.pick(["soldier", "archer", "priest", "wizard"], []) == "archer"
    assert d.pick(("wizard", "priest"), ["archer"]) == "priest"
    # a card the values do not name is worth 0.5: above 0.48, below 0.55
    assert d.pick(["soldier", "guardian"], []) == "guardian"
    assert d.pick(["priest", "guardian"], []) == "priest"
    assert [c for c, _ in d.ranked(["wizard", "priest", "archer"], [])] == ["archer", "priest", "wizard"]
    with pytest.raises(ValueError):
        d.pick([], [])


def test_ties_go_to_the_smaller_card_id_whatever_the_pack_order():
    d = Drafter({"priest": 0.6, "archer": 0.6, "wizard": 0.6}, "art_of_war", cards=_cards("art_of_war"))
    assert d.pick(["wizard", "priest", "archer"], []) == "archer"
    assert d.pick(["priest", "wizard", "archer"], ["soldier"]) == "archer"
    assert d.pick(["wizard", "priest"], []) == "priest"


def test_in_project_maken_it_commits_to_the_character_it_has_most_cards_of():
    cards = _cards("maken")
    values = {c: (0.60 if cards[c].get("character") == "gou" else 0.50) for c in cards}
    d = Drafter(values, "maken", cards=cards)
    # before 3 picks nothing is committed: the better gou card
    assert d.pick(["gu05", "ts05"], ["ts01", "ts02"]) == "gu05"
    # with 3 tsubaki cards it is a tsubaki drafter: a gou card counts a quarter
    pool = ["ts01", "ts02", "ts03"]
    assert d.character(pool) == "tsubaki"
    assert d.pick(["gu05", "ts05"], pool) == "ts05"
    assert d.adjusted("gu05", pool) == pytest.approx(0.60 * OFF_PLAN)
    # its own character card is worth taking once; another character's, nearly nothing
    assert d.adjusted("tsubaki", pool) == 0.50
    assert d.adjusted("gou", pool) == pytest.approx(0.50 * USELESS)
    assert d.adjusted("tsubaki", pool + ["tsubaki"]) == pytest.approx(0.50 * USELESS)
    # the character with most cards wins, even against better-valued ones
    assert d.character(["gu01", "ts01", "ts02"]) == "tsubaki"
    # a tie in cards goes to the higher summed value, then to the smaller id
    assert d.character(["gu01", "ts01"]) == "gou"
    flat = Drafter({}, "maken", cards=cards)
    assert flat.character(["ts01", "gu01"]) == "gou"
    # the greedy style never looks at its pool; the focused one commits after one pick
    assert Drafter(values, "maken", "greedy", cards=cards).pick(["gu05", "ts05"], pool) == "gu05"
    assert Drafter(values, "maken", "focused", cards=cards).pick(["gu05", "ts05"], ["ts01"]) == "ts05"


def test_a_copy_the_deck_could_not_hold_is_nearly_worthless_in_battle_logic_square():
    cards = _cards("logic_square")
    colour = {c: cards[c].get("colour") for c in cards}
    whites = sorted(c for c in cards if colour[c] == "white")
    blues = sorted(c for c in cards if colour[c] == "blue")
    reds = sorted(c for c in cards if colour[c] == "red")
    values = {c: 0.5 for c in cards} | {blues[5]: 0.7, reds[1]: 0.7, whites[0]: 0.7, "it01": 0.7}
    d = Drafter(values, "logic_square", cards=cards)
    # a fourth copy of a white card (at most 3)
    assert d.pick([whites[0], whites[1]], [whites[0]] * 2) == whites[0]
    assert d.pick([whites[0], whites[1]], [whites[0]] * 3) == whites[1]
    # a sixth blue card (at most 5 in all) and a second red one (at most 1)
    assert d.pick([blues[5], whites[1]], blues[:4]) == blues[5]
    assert d.pick([blues[5], whites[1]], blues[:5]) == whites[1]
    assert d.pick([reds[1], whites[1]], [reds[0]]) == whites[1]
    assert d.adjusted(reds[1], [reds[0]]) == pytest.approx(0.7 * USELESS)
    # the IT deck holds 5 different IT cards: a second copy is useless, a sixth IT a spare
    assert d.adjusted("it01", ["it01"]) == pytest.approx(0.7 * USELESS)
    assert d.adjusted("it01", ["it02", "it03", "it04", "it05", "it06"]) == pytest.approx(0.7 * SPARE)
    # a second AVI is a spare
    assert d.adjusted("av01", ["av02"]) == pytest.approx(0.5 * SPARE)
    assert d.adjusted("av01", []) == 0.5


def test_avalon_commits_to_two_attributes_and_counts_one_star5_card():
    cards = _cards("avalon")
    attr = {c: cards[c].get("attr") for c in cards}
    yellow = sorted(c for c in cards if attr[c] == "yellow")
    red = sorted(c for c in cards if attr[c] == "red")
    blue = sorted(c for c in cards if attr[c] == "blue")
    d = Drafter({c: 0.5 for c in cards} | {blue[0]: 0.6}, "avalon", cards=cards)
    pool = yellow[:3] + red[:3]
    assert d.attributes(pool) == ("red", "yellow")         # 3 each: the tie goes by value, then name
    assert d.adjusted(blue[0], pool) == pytest.approx(0.6 * OFF_PLAN)
    assert d.adjusted(blue[0], pool[:5]) == 0.6              # fewer than 6 picks: not committed yet
    star5 = sorted(c for c in cards if cards[c].get("orig") == 5)
    assert d.adjusted(star5[1], [star5[0]]) == pytest.approx(0.5 * USELESS)


def test_without_self_play_values_it_falls_back_on_the_cards_own_data():
    cards = _cards("art_of_war")
    fb = fallback_values("art_of_war", cards)
    assert set(fb) == set(cards) and all(0.45 <= v <= 0.55 for v in fb.values())
    d = Drafter(None, "art_of_war", cards=cards)
    assert d.fallback and d.values == fb
    units = [c for c in cards if cards[c]["category"] == "unit"]
    strongest = max(units, key=lambda c: (power("art_of_war", cards[c]), -ord(c[0])))
    assert d.pick(units, []) == strongest
    # within a category the ranks are spread from 0.45 to 0.55; equal power, equal value
    toy = {"a": {"category": "attack", "attack": 5, "guard": 1}, "b": {"category": "attack", "attack": 1, "guard": 1},
           "c": {"category": "attack", "attack": 3, "guard": 1}, "d": {"category": "attack", "attack": 3, "guard": 1},
           "x": {"category": "support", "effect": [{}]}}
    assert fallback_values("maken", toy) == {"a": 0.55, "b": 0.45, "c": 0.5, "d": 0.5, "x": 0.5}
    assert Drafter({}, "maken", cards=toy).pick(["b", "c", "a"], []) == "a"
    # a field a card lacks, or of the wrong type, counts 0 rather than failing
    assert power("logic_square", {"category": "Ac", "damage": "lots", "range": None}) == 0.0


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        Drafter({}, "squares")
    with pytest.raises(ValueError):
        Drafter({}, "maken", "reckless")
    with pytest.raises(ValueError):
        Drafter({"ts01": 1.5}, "maken")
    with pytest.raises(ValueError):
        DeckRules.of({"size": 0})
    with pytest.raises(ValueError):
        DeckRules.of({"copies": True})
    assert DeckRules.of(None) == DeckRules() and DeckRules.of({"size": 20}) == DeckRules(20, None)
    # a whole declaration, as JSON or as an object with deck_size and copies
    assert DeckRules.of({"deck": {"size": 20, "copies": 1}, "cube": []}) == DeckRules(20, 1)
    assert DeckRules.of(SimpleNamespace(deck_size=24, copies=None)) == DeckRules(24, None)


@pytest.mark.parametrize("game", ["logic_square", "maken", "art_of_war", "avalon"])
def test_from_a_full_pool_it_builds_a_legal_deck_of_the_best_cards(game):
    cards = _cards(game)
    values = fallback_values(game, cards)
    d = Drafter(values, game, cards=cards)
    deck = d.build_deck(_full_pool(d, cards))
    assert registry.get(game).decks.validate(_spec(game, deck)) == []
    assert deck == d.build_deck(_full_pool(d, cards))        # the same pool, the same deck


def test_the_deck_keeps_the_limited_size_and_copies_and_takes_the_best_cards():
    cards = _cards("avalon")
    values = {c: 0.3 + 0.005 * i for i, c in enumerate(sorted(cards))}
    d = Drafter(values, "avalon", cards=cards)
    pool = [c for c in cards if cards[c]["category"] != "avatar" for _ in range(3)] + ["a2", "a5"]
    deck = d.build_deck(pool, {"size": 12, "copies": 2})
    head, main = deck[0], deck[1:]
    assert head == "a5"                                       # the pool's better avatar
    assert len(main) == 12 and max(Counter(main).values()) == 2
    assert sum(1 for c in main if cards[c]["orig"] == 5) <= 1
    # the main deck is the best of what its attributes allow, best first
    assert main == sorted(main, key=lambda c: (-values[c], c))
    # a rules object with size and copies attributes works the same
    assert d.build_deck(pool, DeckRules(size=12, copies=2)) == deck


def test_the_kept_parts_come_from_the_set_when_the_pool_has_none():
    cards = _cards("logic_square")
    values = {c: 0.5 for c in cards} | {"av03": 0.9, "it07": 0.8, "it02": 0.7}
    d = Drafter(values, "logic_square", cards=cards)
    pool = ["it01", "it01", "ac01", "ac01", "ac01", "ac01", "ac02"]
    deck = d.build_deck(pool, {"size": 30})
    assert deck[0] == "av03"                                  # no AVI in the pool: the set's best
    assert deck[1:6] == ["it01", "it07", "it02", "it03", "it04"]    # the pool's IT, topped up by value
    assert deck[6:] == ["ac01", "ac01", "ac01", "ac02"]       # 3 copies of a white card; short of 30


def test_a_project_maken_deck_takes_only_its_characters_cards():
    cards = _cards("maken")
    d = Drafter({c: 0.5 for c in cards} | {"gu01": 0.9}, "maken", cards=cards)
    pool = ["ts01", "ts01", "ts02", "ts03", "gu01", "kotetsu"]
    deck = d.build_deck(pool, {"size": 4, "copies": 1})
    assert deck == ["tsubaki", "ts01", "ts02", "ts03"]


def test_an_art_of_war_army_from_a_pool_of_kings_gets_an_even_mix_of_the_basic_units():
    cards = _cards("art_of_war")
    values = {"king_iron": 0.52, "king_sage": 0.58, "archer": 0.6, "wizard": 0.55}
    d = Drafter(values, "art_of_war", cards=cards)
    # a pack of KINGs: the best one first, then another is only a spare
    assert d.pick(["king_iron", "king_sage"], []) == "king_sage"
    assert d.adjusted("king_iron", ["king_sage"]) == pytest.approx(0.52 * SPARE)
    deck = d.build_deck(["king_iron", "king_sage"])
    assert deck[0] == "king_sage" and Counter(deck[1:]) == {u: 4 for u in
                                                            ("soldier", "archer", "priest", "guardian", "wizard")}
    assert registry.get("art_of_war").decks.validate(_spec("art_of_war", deck)) == []
    # a smaller limited army: the remainder goes to the most valuable units
    small = d.build_deck(["king_iron"], {"size": 12})
    assert Counter(small[1:]) == {"archer": 3, "wizard": 3, "guardian": 2, "priest": 2, "soldier": 2}


def test_the_shipped_cards_are_drafted_by_their_values_from_self_play():
    """``data/cards/card_values.json`` (``python -m balance --card-values``) gives every shipped
    card of each card game a value from 0 to 1, and a draft of the shipped cards drafts by them
    (the fallback only for a server's own cards)."""
    from host.limited.cards import DraftCards, shipped_values
    from rules import registry

    for game in ("logic_square", "maken", "art_of_war", "avalon"):
        values = shipped_values(game)
        cards = registry.get(game).decks.cards()
        assert set(cards) <= set(values), f"{game}: cards without a value {sorted(set(cards) - set(values))[:5]}"
        assert all(0.0 <= v <= 1.0 for v in values.values())
        drafter = DraftCards(game, registry.get(game), {}, None, None).drafter
        best = max(cards, key=lambda c: (values[c], c))
        assert drafter.value(best) == values[best], "the measured value, not the card's own data"
