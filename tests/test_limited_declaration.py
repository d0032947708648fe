"""A card set's limited declaration (data/card_sets/limited.py) through the real upload path:
accepted and stored as its own file, exported and uploaded again as the same version, and every
wrong one refused with each problem named by file and field, in both languages; each game's
pool cards and kept parts; the offline check reports the same problems."""
from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from data.card_sets import check, games
from data.card_sets.build import LIMITED_FILE, build_set, open_content
from data.card_sets.export import export_files
from data.card_sets.limited import (GAME_RULES, MAX_CUBE, Limited, declaration_of, deck_size, default_cube, parse,
                                    slot_problems)
from data.card_sets.upload import read_upload

KINGS = "id,name_ja,name_en,range,attack,defence\nking_owl,梟王,OWL KING,..x../.x.x./x...x,2,3/2\n"


def shipped(game: str) -> tuple[dict[str, str], list]:
    """The shipped cards of ``game``: card id → kind, and the entries."""
    adapter = games.adapter(game)
    cardset, problems = adapter.validate(adapter.shipped_files(None))
    assert not problems
    return adapter.card_kinds(cardset), adapter.entries(cardset, set())


def of_kind(game: str, *kinds: str) -> list[str]:
    return sorted(c for c, k in shipped(game)[0].items() if k in kinds)


def upload(game: str, files: dict[str, object]) -> object:
    """``files`` (name → JSON value or CSV text) uploaded as one zip (or one file), checked."""
    def body(value: object) -> bytes:
        return value.encode("utf-8") if isinstance(value, str) else json.dumps(value).encode("utf-8")
    if len(files) == 1:
        (name, value), = files.items()
        got, read = read_upload(name, body(value))
    else:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            for name, value in files.items():
                z.writestr(name, body(value))
        got, read = read_upload("set.zip", buf.getvalue())
    return build_set(game, got, "extend", read_problems=read)


def problems(game: str, declaration: object, **more: object) -> list[tuple[str | None, str]]:
    built = upload(game, {"limited.json": {"limited": declaration, **more}})
    assert not built.ok
    return [(p.field, p.key) for p in built.problems]


def boosters_ls() -> dict:
    res = of_kind("logic_square", "resource")
    return {"deck": {"size": 20, "copies": 2},
            "rarities": {"common": res[:25], "rare": res[25:]},
            "boosters": {"packs": 3, "size": 8, "slots": [{"rarity": "rare", "count": 1},
                                                          {"rarity": "common", "count": 6},
                                                          {"kind": "it", "count": 1}]}}


# --------------------------------------------------------------------------- accepted and stored
def test_a_set_with_a_declaration_is_accepted_stored_on_its_own_and_read_back():
    decl = boosters_ls()
    built = upload("logic_square", {"limited.json": {"limited": decl}})
    assert built.ok, [p.render("en") for p in built.problems]
    assert built.limited == Limited.from_json(decl, "logic_square")
    assert built.limited.boosters.slots[2].kind == "it" and built.limited.rarity("rare")[0] == "sc02"
    assert [label for label, _data in built.content.files][-1] == LIMITED_FILE
    assert declaration_of(built.content.files, "logic_square") == built.limited
    assert open_content(built.content).limited == built.limited
    plain = upload("logic_square", {"cards.json": {"cards": []}})
    assert plain.ok and plain.limited is None and open_content(plain.content).limited is None
    assert plain.content.digest() != built.content.digest()        # the declaration names the version


def test_a_zip_of_csvs_and_a_declaration_exports_and_uploads_again_as_the_same_version():
    decl = {"cube": ["king_owl", "king_iron", "king_sage"], "deck": {"size": 12}}
    built = upload("art_of_war", {"kings.csv": KINGS, "limited.json": {"limited": decl}})
    assert built.ok and built.limited.cube == ("king_owl", "king_iron", "king_sage")
    exported = export_files(built.content, "owl")
    assert json.loads(exported["owl.json"])["limited"] == decl
    again = upload("art_of_war", {"owl.json": json.loads(exported["owl.json"])})
    assert again.ok and again.content.digest() == built.content.digest()
    csv_only = upload("art_of_war", {"kings.csv": KINGS})
    assert csv_only.content.digest() != built.content.digest()


def test_a_stored_declaration_that_no_longer_fits_is_refused_when_read():
    built = upload("art_of_war", {"limited.json": {"limited": {"cube": ["king_iron"]}}})
    content = built.content
    content.files[-1][1]["limited"]["cube"] = ["soldier"]
    with pytest.raises(ValueError, match="limited"):
        open_content(content)
    with pytest.raises(ValueError):
        declaration_of([["a", {"limited": {}}], ["b", {"limited": {}}]])
    with pytest.raises(ValueError):
        Limited.from_json({"deck": {"size": 99}}, "avalon")


def test_to_json_and_from_json_round_trip():
    decl = Limited.from_json(boosters_ls(), "logic_square")
    assert Limited.from_json(decl.to_json(), "logic_square") == decl
    assert Limited.from_json({}) == Limited() and Limited().to_json() == {}


# --------------------------------------------------------------------------- refused
def test_unknown_ids_duplicates_and_a_card_in_two_rarities_are_refused_by_field():
    res = of_kind("logic_square", "resource")
    found = problems("logic_square", {"cube": [res[0], "zz9", res[0], 7],
                                      "rarities": {"common": res[:3], "rare": [res[2]], "Mythic": []}})
    assert ("limited.cube[1]", "cardcheck.unknown_card") in found
    assert ("limited.cube[2]", "cardcheck.limited_listed_twice") in found
    assert ("limited.cube[3]", "cardcheck.limited_not_id") in found
    assert ("limited.rarities.rare[0]", "cardcheck.limited_rarity_twice") in found
    assert ("limited.rarities.Mythic", "cardcheck.limited_rarity_name") in found


def test_booster_limits_are_each_refused():
    res = of_kind("logic_square", "resource")
    rarities = {"common": res}
    for boosters, spot, key in (
            ({"packs": 6, "size": 5, "slots": [{"rarity": "common", "count": 5}]}, "limited.boosters.packs",
             "cardcheck.int_range"),
            ({"packs": 0, "size": 5, "slots": [{"rarity": "common", "count": 5}]}, "limited.boosters.packs",
             "cardcheck.int_range"),
            ({"packs": 1, "size": 4, "slots": [{"rarity": "common", "count": 4}]}, "limited.boosters.size",
             "cardcheck.int_range"),
            ({"packs": 1, "size": 21, "slots": [{"rarity": "common", "count": 21}]}, "limited.boosters.size",
             "cardcheck.int_range"),
            ({"packs": 1, "size": 5, "slots": [{"rarity": "common", "count": 0}]}, "limited.boosters.slots[0].count",
             "cardcheck.int_range"),
            ({"packs": 1, "size": 5, "slots": [{"rarity": "common", "count": 31}]},
             "limited.boosters.slots[0].count", "cardcheck.int_range"),
            ({"packs": 1, "size": 6, "slots": [{"rarity": "common", "count": 5}]}, "limited.boosters.slots",
             "cardcheck.limited_slots_sum"),
            ({"packs": 1, "size": 5, "slots": []}, "limited.boosters.slots", "cardcheck.limited_slots"),
            ({"packs": 1, "size": 5, "slots": [{"count": 5}]}, "limited.boosters.slots[0]",
             "cardcheck.limited_slot_what"),
            ({"packs": 1, "size": 5, "slots": [{"rarity": "rare", "count": 5}]}, "limited.boosters.slots[0].rarity",
             "cardcheck.limited_unknown_rarity"),
            ({"packs": 1, "size": 5, "slots": [{"kind": "deck", "count": 5}]}, "limited.boosters.slots[0].kind",
             "cardcheck.limited_unknown_kind"),
            ({"packs": 1, "size": 5, "slots": [{"rarity": "common", "count": 5, "foil": True}]},
             "limited.boosters.slots[0].foil", "cardcheck.unknown_field"),
            ({"size": 5, "slots": [{"rarity": "common", "count": 5}]}, "limited.boosters.packs", "cardcheck.required")):
        assert (spot, key) in problems("logic_square", {"rarities": rarities, "boosters": boosters}), (boosters, key)
    no_rarities = {"packs": 1, "size": 5, "slots": [{"rarity": "common", "count": 5}]}
    assert problems("logic_square", {"boosters": no_rarities}) == [("limited.boosters.slots[0].rarity",
                                                                    "cardcheck.limited_no_rarities")]


def test_slots_the_set_cannot_fill_are_refused_counting_the_slots_that_share_cards():
    """Ten IT cards: one slot of 10 fills a pack; with a second IT slot of 1 beside it, the two
    need 11 different IT cards of the same ten, and both are refused."""
    assert upload("logic_square", {"l.json": {"limited": {"boosters": {"packs": 1, "size": 10, "slots": [
        {"kind": "it", "count": 10}]}}}}).ok
    found = problems("logic_square", {"boosters": {"packs": 1, "size": 11, "slots": [
        {"kind": "it", "count": 10}, {"kind": "it", "count": 1}]}})
    assert found == [("limited.boosters.slots[0]", "cardcheck.limited_slot_short"),
                     ("limited.boosters.slots[1]", "cardcheck.limited_slot_short")]
    decl = Limited.from_json({"rarities": {"r": ["it01", "it02"]},
                              "boosters": {"packs": 1, "size": 5, "slots": [{"rarity": "r", "count": 2},
                                                                          {"kind": "resource", "count": 3}]}})
    kinds = shipped("logic_square")[0]
    assert slot_problems(decl.boosters, dict(decl.rarities), kinds) == []       # disjoint slots: each alone


def test_the_deck_size_is_each_games_range_half_to_the_rulebooks_and_copies_from_one():
    for game, low, high in (("logic_square", 15, 30), ("maken", 15, 30), ("art_of_war", 10, 20), ("avalon", 20, 40)):
        assert (GAME_RULES[game].low, GAME_RULES[game].deck) == (low, high)
        for size in (low, high):
            assert parse({"deck": {"size": size}}, game)[1] == [], (game, size)
        for size in (low - 1, high + 1):
            assert [e.key for e in parse({"deck": {"size": size}}, game)[1]] == ["limited_deck_size"], (game, size)
        assert deck_size(None, game) == high
    assert problems("maken", {"deck": {"size": 14}}) == [("limited.deck.size", "cardcheck.limited_deck_size")]
    assert problems("maken", {"deck": {"copies": 0}}) == [("limited.deck.copies", "cardcheck.int_range")]
    assert problems("maken", {"deck": {"size": 20, "copies": 21}}) == [("limited.deck.copies", "cardcheck.int_range")]
    assert problems("maken", {"deck": {"size": "20"}}) == [("limited.deck.size", "cardcheck.whole_number")]
    assert problems("art_of_war", {"deck": {"copies": 1}}) == [("limited.deck.copies", "cardcheck.limited_no_copies")]


def test_a_kind_limited_play_never_deals_is_refused_and_kept_parts_may_be_dealt():
    """Art of War's basic units are the rulebook's: never in a cube.  A kept part (an AVI, an IT
    card, a Maken character, an avatar) may be, by the ruling's "from the pool where the pool has them"."""
    assert problems("art_of_war", {"cube": ["soldier"]}) == [("limited.cube[0]", "cardcheck.limited_kind")]
    for game, cube in (("logic_square", ["av01", "it01", "ac01"]), ("maken", ["gou", "gu01"]),
                       ("art_of_war", ["king_iron"]), ("avalon", ["a1", "c01", "s01", "m01"])):
        assert upload(game, {"l.json": {"limited": {"cube": cube}}}).ok, game


def test_the_declaration_twice_misspelt_or_not_an_object_is_refused():
    built = upload("art_of_war", {"a.json": {"limited": {"cube": ["king_iron"]}},
                                  "b.json": {"limited": {"cube": ["king_sage"]}}})
    assert [(p.file, p.key) for p in built.problems] == [("b.json", "cardcheck.limited_twice")]
    assert ("Limited", "cardcheck.key_spelling") in [(p.field, p.key) for p in upload(
        "art_of_war", {"a.json": {"Limited": {}}}).problems]
    assert problems("art_of_war", {"Cube": ["king_iron"]}) == [("limited.Cube", "cardcheck.key_spelling")]
    assert problems("art_of_war", ["king_iron"]) == [("limited", "cardcheck.not_object")]
    assert problems("art_of_war", {"cube": []}) == [("limited.cube", "cardcheck.limited_cube_empty")]


def test_a_cube_past_its_limit_is_refused_before_its_ids_are_looked_at():
    found = problems("avalon", {"cube": [f"x{i}" for i in range(MAX_CUBE + 1)]})
    assert found == [("limited.cube", "cardcheck.cell_too_many")]


def test_problems_name_file_and_field_in_both_languages():
    built = upload("maken", {"rules.json": {"limited": {"cube": ["gu01", "nope"], "deck": {"size": 40}}}})
    en = [p.render("en") for p in built.problems]
    ja = [p.render("ja") for p in built.problems]
    assert en == ["rules.json, field “limited.cube[1]”: “nope” is not a card of this set.",
                  "rules.json, field “limited.deck.size”: a limited deck holds 15 to 30 attack and support cards "
                  "(the character apart): from the rulebook's 30 down to half of it; not 40."]
    assert ja[1] == ("rules.json・項目「limited.deck.size」：リミテッドのデッキは15〜30枚の攻撃カードと補助カード"
                     "（キャラクターは別）にしてください（ルールブックの30枚からその半分まで。40になっています）。")


def test_the_offline_check_reports_the_declarations_problems(tmp_path: Path):
    path = tmp_path / "owl.json"
    path.write_text(json.dumps({"kings": [], "limited": {"cube": ["soldier"]}}), encoding="utf-8")
    out = io.StringIO()
    assert check.main([str(path), "--lang", "en"], out, io.StringIO()) == 1
    assert out.getvalue().splitlines()[1] == ("owl.json, field “limited.cube[0]”: “soldier” is a card of kind unit, "
                                              "which limited play never deals; a cube, a rarity or a slot may name king.")
    checked = check.check_file(path)
    assert checked.game == "art_of_war"             # told from the file: a limited key fits every game
    assert [(p.field, p.key) for p in checked.problems] == [("limited.cube[0]", "cardcheck.limited_kind")]


# --------------------------------------------------------------------------- each game's parts
def test_the_default_cube_is_every_pool_card_once_in_id_order():
    expected = {"logic_square": ("resource",), "maken": ("attack", "support"), "art_of_war": ("king",),
                "avalon": ("creature", "support", "magic")}
    for game, pool in expected.items():
        kinds, entries = shipped(game)
        cube = default_cube(entries, game)
        assert cube == sorted(c for c, k in kinds.items() if k in pool), game
        assert len(cube) == len(set(cube)) and cube
    assert "av01" not in default_cube(shipped("logic_square")[1], "logic_square")       # a kept part
    assert "soldier" not in default_cube(shipped("art_of_war")[1], "art_of_war")        # the rulebook's


def test_card_kinds_are_the_entries_kinds():
    for game in games.GAMES:
        kinds, entries = shipped(game)
        assert kinds == {e.id: e.kind for e in entries if not e.deck}, game


def test_the_modules_examples_hold():
    import doctest

    from data.card_sets import keys, limited
    assert doctest.testmod(limited).failed == 0 and doctest.testmod(keys).failed == 0


def test_the_example_of_the_docs_is_a_valid_declaration():
    """docs/card_sets.md's complete example uploads as it stands (Battle Logic Square, shipped cards)."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "card_sets.md").read_text(encoding="utf-8")
    part = text[text.index("### The declaration"):]
    example = json.loads(part[part.index("```json") + 7:part.index("```", part.index("```json") + 7)])
    built = upload("logic_square", {"limited.json": example})
    assert built.ok, [p.render("en") for p in built.problems]
    assert built.limited.boosters.size == 10 and built.limited.deck_size == 20
