"""rules/editions.py: what the four card games' rules editions share — an edition's number,
folding the changes of every edition up to N oldest first, each edition built once, and an
edition changed in two places refused (a match keeps the edition it started under, so which
change belongs to which edition must be unambiguous)."""
from __future__ import annotations

import json

import pytest

from rules.logic_square.files import LOGIC_SQUARE_DIR
from rules.art_of_war.files import ART_OF_WAR_DIR
from rules.maken.files import MAKEN_DIR
from rules.art_of_war.cards import CardDataError as AowError, build_cardset
from rules.editions import PerEdition, add_patch, edition_number, known, number_error, upto
from rules.logic_square.cards import CardDataError as LsError, CardSet as LsCards
from rules.maken.cards import CardDataError as MakenError, CardSet as MakenCards


@pytest.mark.parametrize("key, first, want", [
    ("3", 3, 3), (4, 2, 4), ("12", 2, 12), ("2", 3, None), ("03", 2, None), ("x", 2, None),
    ("", 2, None), (True, 1, None), (None, 2, None), ("3.0", 2, None), (" 3", 2, None)])
def test_an_edition_is_a_whole_number_from_the_first_patched_one(key, first, want):
    assert edition_number(key, first) == want


def test_a_match_names_one_of_its_games_known_editions():
    assert known(2, (1, 2, 3), "Art of War") == 2
    for bad in (4, 0, True, "2", None):
        with pytest.raises(ValueError, match="unknown Art of War rules edition"):
            known(bad, (1, 2, 3), "Art of War")


def test_the_error_says_which_editions_are_the_files():
    assert "edition 1 is the files' cards" in number_error(2)
    assert "editions 1–2 are the files' cards" in number_error(3)


def test_changes_apply_up_to_the_edition_oldest_first():
    patches = {5: "c", 3: "a", 4: "b"}
    step = lambda acc, ed, p: acc + [(ed, p)]          # noqa: E731
    assert upto([], patches, 2, step) == []
    assert upto([], patches, 4, step) == [(3, "a"), (4, "b")]
    assert upto([], patches, 9, step) == [(3, "a"), (4, "b"), (5, "c")]


def test_each_edition_is_built_once():
    built = []
    at = PerEdition(lambda ed: built.append(ed) or {"edition": ed})
    assert at(3) is at(3) and at(4)["edition"] == 4 and built == [3, 4]


def test_an_edition_changed_twice_is_refused():
    patches: dict = {}
    add_patch(patches, 3, {"a": 1}, ValueError)
    with pytest.raises(ValueError, match="changed twice"):
        add_patch(patches, 3, {"b": 2}, ValueError)
    assert patches == {3: {"a": 1}}


def _files(folder):
    return [(p.name, json.loads(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("*.json"))]


@pytest.mark.parametrize("folder, load, error, patch", [
    (ART_OF_WAR_DIR, build_cardset, AowError, {"3": {"kings": {"king_iron": {"defence": [3, 3]}}}}),
    (LOGIC_SQUARE_DIR, LsCards.from_sources, LsError, {"3": {"cards": {"av02": {"life": 300}}}}),
    (MAKEN_DIR, MakenCards.from_sources, MakenError, {"2": {"characters": {"gou": {"draw_limit": 2}}}}),
])
def test_each_game_refuses_an_edition_changed_in_two_files(folder, load, error, patch):
    files = _files(folder)
    load(files)                                          # the shipped files load
    with pytest.raises(error) as info:
        load(files + [("zz_again.json", {"editions": patch})])
    assert "changed twice" in str(info.value) and "zz_again.json" in str(info.value)


def test_avalon_refuses_a_bad_edition_number_with_the_shared_words():
    from rules.avalon.cards import CardDataError
    from rules.avalon.editions import check
    with pytest.raises(CardDataError) as info:
        check({"2": {"cards": {}}}, {})
    assert "editions 1–2 are the files' cards" in str(info.value)
