"""Deck problems name cards by their names, never by their ids (issue 33: "Every label shows
names people know … never a bare id")."""
from __future__ import annotations

from host.decks import problems_msgs
from rules import registry


def _said(game: str, spec: dict, locale: str) -> list[str]:
    problems = registry.get(game).decks.validate(spec)
    return [m.render(locale) for m in problems_msgs(problems, game)]


def test_a_copy_limit_names_the_card_in_both_languages():
    game = registry.get("avalon")
    cards = game.decks.cards()
    cid = next(c for c, d in cards.items() if d.get("category") != "avatar" and d.get("orig") == 2)
    name = cards[cid]["name"]
    spec = {"avatar": None, "cards": {cid: 5}}
    en, ja = _said("avalon", spec, "en"), _said("avalon", spec, "ja")
    line_en = next(x for x in en if "★2" in x)
    line_ja = next(x for x in ja if "★2" in x)
    assert line_en.startswith(name["en"]) and cid not in line_en.split()
    assert line_ja.startswith("「" + name["ja"] + "」") and cid not in line_ja


def test_an_unknown_card_stays_as_it_was_typed():
    said = _said("maken", {"character": None, "cards": {"zz99": 1}}, "en")
    assert any("zz99" in line for line in said)
