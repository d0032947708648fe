"""Server card sets for Battle Logic Square (issue 36): the CSV layouts, collect mode in the schema,
the generated rules text, the set's engine, export, diff and the card pages.

The issue's words these tests hold the game to: the bot reports EVERY problem at once, each naming
the file, the row, the card (or deck) and the column, in the reader's language, and stores nothing
unless the whole set is valid; "a card's effects are the truth: an unknown effect is refused,
naming it, and the rules text players see is generated from the card's data"; "a set changes
cards, never a rule of the game".
"""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

import ai
from data import i18n
from data.card_sets import diff, export, games
from data.card_sets.build import build_set, open_content
from data.card_sets.logic_square import ADAPTER, AVIS, DECKS, RESOURCES, grid
from data.card_sets.model import SetContent
from data.card_sets.upload import read_upload
from rules.card_errors import CardDataError as SharedCardDataError
from rules.logic_square.card_text import card_text, range_words, rules_text
from rules.logic_square.cards import CardDataError, CardSet

ROOT = Path(__file__).resolve().parent.parent
TEST_SET = ROOT / "tests" / "data" / "card_sets" / "logic_square"
DOCS = ROOT / "docs" / "card_sets"


def uploads(files: dict[str, str | bytes]) -> tuple[list, list]:
    ups, problems = [], []
    for name, text in files.items():
        got, bad = read_upload(name, text.encode("utf-8") if isinstance(text, str) else text)
        ups += got
        problems += bad
    return ups, problems


def folder(path: Path, pattern: str = "*.csv", **replace: bytes) -> dict[str, bytes]:
    return {p.name: replace.get(p.name, p.read_bytes()) for p in sorted(path.glob(pattern))}


def built(files: dict, mode: str = "extend"):
    ups, problems = uploads(files)
    return build_set("logic_square", ups, mode, read_problems=problems)


def english_in(ja: str, params: dict) -> list[str]:
    """Latin words of a Japanese message beyond its params, notation in backticks and the game's
    own marks (AVI, Ac, Sc, Br, IT, CB, AP)."""
    rest = re.sub(r"`[^`]*`", " ", ja)
    values = []
    for v in params.values():
        if isinstance(v, dict):
            values += [str(x) for x in v.values()]
        elif isinstance(v, (list, tuple)):
            values += [str(x) for x in v]
        else:
            values.append(str(v))
    for v in sorted(values, key=len, reverse=True):
        if v:
            rest = rest.replace(v, " ")
    rest = re.sub(r"(?<![A-Za-z])(AVI|Ac|Sc|Br|IT|CB|AP|JSON|CSV|ID)(?![A-Za-z])", " ", rest)
    return re.findall(r"[A-Za-z]{2,}", rest)


def rendered(problem, locale: str) -> str:
    text = problem.render(locale)
    assert "cardcheck." not in text and "logic_square.deck." not in text, text
    return text


# ============================================================================ the files load

def test_the_example_csvs_of_the_docs_load_as_a_set_extending_the_shipped_cards():
    """docs/card_sets/logic_square.md: "The example files beside this page are one small set … They
    load as they are (a test checks it)"."""
    assert games.adapter("logic_square") is ADAPTER
    b = built(folder(DOCS, "logic_square_*.csv"))
    assert b.ok, [p.render() for p in b.problems]
    assert b.counts == {"cards": 7, "decks": 2, "replaced": 0}
    assert ADAPTER.deck_ids(b.cardset, b.own) == ["glitch", "bugstorm"]


def test_the_test_set_loads_and_replaces_a_shipped_card_by_id_in_extend_mode():
    """The issue: a set "extends the shipped cards (adds cards; replaces shipped ones by id)"."""
    b = built(folder(TEST_SET))
    assert b.ok, [p.render() for p in b.problems]
    assert b.counts == {"cards": 8, "decks": 2, "replaced": 1}
    assert b.cardset["ac01"].action.damage == 45                 # shipped Pulse Jab deals 40
    assert "ac01" in b.own and "blitz" in b.cardset.decks        # the shipped decks stay, with the new ac01
    assert b.content.base_edition == ADAPTER.newest_edition()
    assert b.content.untranslated == {"av90": ["text:en"]}       # its text given in Japanese only


def test_a_set_that_stands_alone_needs_two_ready_made_decks():
    """The issue: "a set that stands alone needs at least 2 ready-made decks"; the rulebook fixes no
    card, so a set that stands alone keeps nothing shipped."""
    files = folder(TEST_SET)
    assert ADAPTER.base_files("alone", None) == [] and ADAPTER.fixed_ids == frozenset()
    b = built({**files, "decks.csv": b"id,name_ja,name_en,avi,resources,it\n"}, "alone")
    assert not b.ok
    keys = {p.key for p in b.problems}
    assert "cardcheck.ls_unknown_type" in keys or "cardcheck.too_few_decks" in keys
    # with its own cards only (the shipped types and cards are not there) it needs its own decks
    alone = json.dumps({"types": {"pulse": {"ja": "パルス", "en": "Pulse"}}, "cards": [
        {"id": f"zz{i:02}", "category": "Ac", "colour": "white", "name": {"ja": f"ゼット{i}", "en": f"Zed {i}"},
         "damage": 30, "range": ["x", "o"]} for i in range(10)] + [
        {"id": "zav", "category": "AVI", "name": {"ja": "ゼットアヴィ", "en": "Zed AVI"},
         "abilities": [{"cost": 1, "name": {"ja": "一", "en": "One"}, "effects": [{"do": "heal", "amount": 10}]}]}] + [
        {"id": f"zi{i}", "category": "IT", "name": {"ja": f"アイ{i}", "en": f"Eye {i}"}, "damage": 50,
         "range": ["x", "o"], "build": [{}]} for i in range(5)]})
    b = built({"set.json": alone}, "alone")
    assert [(p.key, p.params) for p in b.problems] == [("cardcheck.too_few_decks", {"n": 2, "count": 0})]
    assert "ready-made decks" in rendered(b.problems[0], "en") and "構築済みデッキが2個以上" in rendered(b.problems[0], "ja")
    data = json.loads(alone)
    res = {f"zz{i:02}": 3 for i in range(10)}
    data["decks"] = [{"id": d, "name": {"ja": d, "en": d}, "avi": "zav", "resources": res,
                      "it": [f"zi{i}" for i in range(5)]} for d in ("one", "two")]
    b = built({"set.json": json.dumps(data)}, "alone")
    assert b.ok, [p.render() for p in b.problems]
    assert set(b.cardset.cards) == set(res) | {"zav"} | {f"zi{i}" for i in range(5)}


# ============================================================================ every problem at once

MISTAKES = {
    "avis.csv": "id,name_ja,name_en,types,awakening_life,awakening_mods\n"
                "av91,テストA,Test A,strike nope,,\n"
                "av92,テストB,Test B,,200,turret 20 x/o\n"
                "av93,テストC,Test C,,,\n",
    "abilities.csv": "avi,name_ja,name_en,cost,damage,range,effects\n"
                     "av91,一,One,2,40,x/o,\n"
                     "av93,二,Two,1,,,ap 1\n"
                     "av92,三,Three,2,,,heal 5\n",
    "resources.csv": "id,name_ja,name_en,category,colour,damage,range,break,effects\n"
                     "zz01,ゼット,Zed,Br,white,30,x/o,,\n"
                     "zz02,ゼット2,Zed 2,Ac,white,30,,,\n"
                     "zz03,ゼット3,Zed 3,Sc,blue,,,,heal 10 if=hit_avi\n"
                     "zz05,ゼット5,Zed 5,Ac,pink,30,x/o,,\n",
    "its.csv": "id,name_ja,name_en,damage,range,build\nzz04,ゼット4,Zed 4,50,x/o,2 ac; 2 sc\n",
    "decks.csv": "id,name_ja,name_en,avi,resources,it\n"
                 "d1,デッキ,Deck,av01,ac01*3 zz02*3,it01\n",
}
EXPECTED = [   # (file, row, column, key) — every mistake above, each where it is
    ("abilities.csv", 3, "effects", "cardcheck.ls_ability_ap"),      # rulebook 6.D: an ability costs its AP
    ("avis.csv", 2, "types", "cardcheck.ls_unknown_type"),           # rulebook 2.⑥: types are the set's
    ("avis.csv", 3, "awakening_mods", "cardcheck.ls_turret_placed"),
    ("decks.csv", 2, "it", "logic_square.deck.it_count"),            # rulebook 3.III: 5 IT cards
    ("decks.csv", 2, "resources", "logic_square.deck.resource_count"),   # rulebook 3.II: 30 cards
    ("its.csv", 2, "build", "cardcheck.ls_build_total"),
    ("resources.csv", 2, "break", "cardcheck.ls_break_missing"),
    ("resources.csv", 3, "range", "cardcheck.ls_damage_range"),      # rulebook 2.④: a hit needs its range
    ("resources.csv", 4, "effects", "cardcheck.ls_hit_avi"),
    ("resources.csv", 5, "colour", "cardcheck.choice"),
]


def test_a_csv_upload_with_many_mistakes_names_every_one_with_its_row_and_column_in_both_languages():
    """The issue: "The bot reports EVERY problem at once, each naming the file, the row …, the card
    (or deck) and the field (the CSV column), in the reader's language … and stores nothing"."""
    b = built(MISTAKES)
    assert b.content is None and b.cardset is None
    got = [(p.file, p.row, p.field, p.key) for p in b.problems]
    assert got == EXPECTED, got
    for p in b.problems:
        assert p.column, p
        en, ja = rendered(p, "en"), rendered(p, "ja")
        assert p.file in en and p.file in ja and f"{p.row}行目" in ja and f"row {p.row}" in en
        assert not english_in(p.text("ja"), p.params), (ja, english_in(p.text("ja"), p.params))
    deck = next(p for p in b.problems if p.key == "logic_square.deck.resource_count")
    assert rendered(deck, "ja") == ("decks.csv・2行目・デッキ「d1」・列「resources」："
                                    "リソースデッキが6枚です。ちょうど30枚にしてください。")
    ability = b.problems[0]
    assert ability.card == "av93" and "ability cannot gain AP" in rendered(ability, "en")
    # zz02 is left out for its own problem: the deck naming it is not blamed for it again
    assert not any("zz02" in json.dumps(p.params) for p in b.problems if p.card == "deck 'd1'")


def test_decks_are_not_blamed_for_cards_an_upload_left_out_before_the_check():
    """A card whose row could not be read never reaches the schema; ``validate(files, left_out=…)``
    keeps the decks naming it from being blamed for it (rules/card_errors.py: "Problems that follow
    from a card left out … are not reported a second time")."""
    deck = {"id": "d1", "name": {"ja": "デ", "en": "D"}, "avi": "av01", "resources": {"zz09": 3, "ac01": 3, "ac02": 3,
            "ac03": 3, "ac13": 3, "sc01": 3, "sc02": 3, "sc03": 3, "br01": 3, "br06": 3},
            "it": ["it01", "it02", "it03", "it04", "it05"]}
    files = ADAPTER.merge(ADAPTER.base_files("extend", None), [("decks.csv", {"decks": [deck]})])
    _cs, blamed = ADAPTER.validate(files)
    assert [e.key for e in blamed] == ["logic_square.deck.unknown_card"]
    _cs, blamed = ADAPTER.validate(files, left_out={"zz09"})
    assert blamed == []


def test_an_unknown_effect_is_refused_naming_it_in_a_csv_cell_and_in_json():
    """The issue: "an unknown effect is refused, naming it"."""
    b = built({"resources.csv": "id,name_ja,name_en,category,colour,damage,range,effects,aura\n"
                                "zz01,ゼット,Zed,Ac,white,30,x/o,explode 2,\n"
                                "zz02,ゼット2,Zed 2,Sc,white,,xxx/.o.,,shield_wall 10\n"})
    assert [(p.row, p.field, p.key, p.params["name"]) for p in b.problems] == [
        (2, "effects", "cardcheck.unknown_effect", "explode"), (3, "aura", "cardcheck.ls_unknown_mod", "shield_wall")]
    assert "unknown effect “explode”" in rendered(b.problems[0], "en")
    assert "「explode」という効果はありません" in rendered(b.problems[0], "ja")
    card = {"id": "zz01", "category": "Ac", "colour": "white", "name": {"en": "Zed"}, "damage": 30,
            "range": ["x", "o"], "effects": [{"do": "explode"}]}
    b = built({"set.json": json.dumps({"cards": [card]})})
    (p,) = b.problems
    assert (p.row, p.entry, p.card, p.field, p.key, p.params["name"]) == (
        1, True, "zz01", "effects[0].do", "cardcheck.unknown_effect", "explode")


def test_a_rules_patch_and_an_editions_block_are_refused():
    """The issue: "A set changes cards, never a rule of the game: a rules patch in an upload is
    refused"; a set's changes are new versions of the set, not rules editions."""
    data = {"rules": {"life_start": 600}, "hand_size": 6,
            "editions": {"5": {"cards": {"ac01": {"damage": 90}}}}, "cards": []}
    b = built({"set.json": json.dumps(data)})
    assert sorted((p.field, p.key) for p in b.problems) == [
        ("editions", "cardcheck.no_editions"), ("hand_size", "cardcheck.rules_patch"), ("rules", "cardcheck.rules_patch")]
    rules = next(p for p in b.problems if p.field == "rules")
    assert "never a rule of the game" in rendered(rules, "en") and "ルールは変えられません" in rendered(rules, "ja")


def test_the_mistakes_file_of_the_test_set_makes_exactly_its_two_problems():
    """tests/data/card_sets/logic_square/mistakes.json, as the end-to-end test applies it."""
    m = json.loads((TEST_SET / "mistakes.json").read_text(encoding="utf-8"))

    def edited(edits) -> bytes:
        rows = list(csv.reader(io.StringIO((TEST_SET / m["file"]).read_text(encoding="utf-8"))))
        for row, column, value in edits:
            rows[row - 1][rows[0].index(column)] = value
        out = io.StringIO()
        csv.writer(out).writerows(rows)
        return out.getvalue().encode("utf-8")
    bad = built(folder(TEST_SET, **{m["file"]: edited(m["edits"])}))
    assert sorted([p.row, p.field] for p in bad.problems) == sorted(m["expect"])
    assert len({p.row for p in bad.problems}) == 2 and len({p.key for p in bad.problems}) == 2
    before, after = built(folder(TEST_SET)), built(folder(TEST_SET, **{m["file"]: edited([m["change"][:3]])}))
    lines = diff.render(diff.changes(ADAPTER.entries(before.cardset, before.own),
                                     ADAPTER.entries(after.cardset, after.own)), "en")
    assert len(lines) == 1 and m["change"][3] in lines[0], lines


# ============================================================================ collect mode in the schema

def test_the_schema_collects_every_problem_card_by_card_and_keeps_raising_without_a_list():
    """rules/card_errors.py: "a card (or deck) with a problem is reported into the list and left
    out … Problems that follow from a card left out (a deck naming it) are not reported a second
    time"; the operator's loader still stops at the first problem."""
    assert issubclass(CardDataError, SharedCardDataError)
    from rules.logic_square.files import LOGIC_SQUARE_DIR
    shipped = [(p.name, json.loads(p.read_text(encoding="utf-8"))) for p in sorted(LOGIC_SQUARE_DIR.glob("*.json"))]
    extra = {"cards": [
        {"id": "zz01", "category": "Ac", "colour": "pink", "name": {"ja": "ゼット", "en": "Zed"},
         "text": {"ja": "ゼット。", "en": "Zed."}, "damage": 30, "range": ["x", "o"]},
        {"id": "zz02", "category": "Ac", "colour": "white", "name": {"ja": "パルスジャブ", "en": "Zed 2"},
         "text": {"ja": "ゼット。", "en": "Zed."}, "damage": 30, "range": ["x", "o"]},
        "not a card"],
        "decks": [{"id": "zd", "name": {"ja": "デ", "en": "D"}, "avi": "av01", "resources": {"zz01": 3, "ac01": 27},
                   "it": ["it01"]}, {"id": "ze", "name": {"ja": "エ", "en": "E"}, "avi": "ac01", "resources": [],
                                    "it": ["it01", "it02", "it03", "it04", "it05"]}]}
    found: list = []
    assert CardSet.from_sources(shipped + [("x.json", extra)], problems=found) is None
    assert [(e.card, e.field, e.key) for e in found] == [
        ("zz01", "colour", "choice"), ("#3", None, "not_object"), ("zz02", "name.ja", "name_taken"),
        # zd names zz01, left out for its colour: zd is told only what else it breaks
        ("deck 'zd'", "resources", "logic_square.deck.white_copies"), ("deck 'zd'", "it", "logic_square.deck.it_count"),
        ("deck 'ze'", "avi", "logic_square.deck.avi_not_avi"), ("deck 'ze'", "resources", "logic_square.deck.resource_count")]
    assert found[2].params == {"name": "パルスジャブ", "other": "ac01"}
    with pytest.raises(CardDataError) as info:
        CardSet.from_sources(shipped + [("x.json", extra)])
    assert str(info.value) == "x.json: card 'zz01': field 'colour': must be one of white, green, blue, red, not 'pink'"
    assert CardSet.from_sources(shipped, problems=[]) is not None


# ============================================================================ digests, export, diff

DIGEST_CSV = {
    "types.csv": "type,name_ja,name_en\npulse,パルス,Pulse\n",
    "avis.csv": "id,name_ja,name_en,types,awakening_life,awakening_mods\nav90,ネオン,Neon,pulse,250,damage_bonus 10\n",
    "abilities.csv": "avi,name_ja,name_en,cost,damage,range,effects\n"
                     "av90,突き,Thrust,2,50,x/x/o,\nav90,充電,Charge,1,,,heal 30\n",
    "resources.csv": "id,name_ja,name_en,category,colour,cb,types,damage,durability,range,effects,aura,break\n"
                     "ac90,ジャブ,Jab,Ac,white,,pulse,40,,.x./xxx/.o.,draw 1 if=hit_avi,,\n"
                     "sc90,タレット,Turret,Sc,green,,wall,,50,xxx/.o.,,turret 20 x/x/o,\n"
                     "br90,カウンター,Counter,Br,white,yes,,30,,x/x/x/o,,,in_range; life_at_most 250\n",
    "its.csv": "id,name_ja,name_en,cb,damage,range,build\nit90,バースト,Burst,yes,70,xxx/xxx/.o.,pulse; any\n",
}
DIGEST_JSON = {
    "types": {"pulse": {"ja": "パルス", "en": "Pulse"}},
    "cards": [
        {"id": "av90", "category": "AVI", "name": {"ja": "ネオン", "en": "Neon"}, "types": ["pulse"],
         "awakening": {"life": 250, "mods": [{"mod": "damage_bonus", "amount": 10}]},
         "abilities": [{"name": {"ja": "突き", "en": "Thrust"}, "cost": 2, "damage": 50, "range": ["x", "x", "o"]},
                       {"name": {"ja": "充電", "en": "Charge"}, "cost": 1, "effects": [{"do": "heal", "amount": 30}]}]},
        {"id": "ac90", "category": "Ac", "colour": "white", "types": ["pulse"], "name": {"ja": "ジャブ", "en": "Jab"},
         "damage": 40, "range": [".x.", "xxx", ".o."], "effects": [{"do": "draw", "count": 1, "if": "hit_avi"}]},
        {"id": "sc90", "category": "Sc", "colour": "green", "types": ["wall"], "name": {"ja": "タレット", "en": "Turret"},
         "durability": 50, "range": ["xxx", ".o."], "aura": [{"mod": "turret", "damage": 20, "range": ["x", "x", "o"]}]},
        {"id": "br90", "category": "Br", "colour": "white", "cb": True, "name": {"ja": "カウンター", "en": "Counter"},
         "damage": 30, "range": ["x", "x", "x", "o"],
         "break": [{"when": "in_range"}, {"when": "life_at_most", "amount": 250}]},
        {"id": "it90", "category": "IT", "cb": True, "name": {"ja": "バースト", "en": "Burst"}, "damage": 70,
         "range": ["xxx", "xxx", ".o."], "build": [{"type": "pulse"}, {}]},
    ]}


def test_a_json_upload_of_the_same_cards_has_the_digest_of_the_csv_upload():
    """model.py: a version's name is "a hash of what it holds, not of how its files were named"."""
    by_csv = built({k: DIGEST_CSV[k] for k in ("types.csv", "avis.csv", "abilities.csv", "resources.csv", "its.csv")})
    by_json = built({"neon.json": json.dumps(DIGEST_JSON, ensure_ascii=False)})
    assert by_csv.ok and by_json.ok, [p.render() for p in by_csv.problems + by_json.problems]
    assert by_csv.content.digest() == by_json.content.digest()
    assert by_csv.cardset == by_json.cardset


def test_an_exported_set_reads_back_as_the_same_version_as_csv_and_as_json():
    """export.py: "Uploading these files again gives the same cards"."""
    b = built(folder(TEST_SET))
    files = export.export_files(b.content, "Neon set")
    assert len(files) == 1 + len(ADAPTER.layouts) and "Neon_set.json" in files   # a CSV for every layout
    again = built({k: v for k, v in reversed(files.items()) if k.endswith(".csv")})    # in any order
    assert again.ok and again.content.digest() == b.content.digest()
    as_json = built({"Neon_set.json": files["Neon_set.json"]})
    assert as_json.ok and as_json.content.digest() == b.content.digest()
    assert as_json.content.untranslated == b.content.untranslated == {"av90": ["text:en"]}


def test_every_shipped_card_and_deck_round_trips_through_the_csv_layouts():
    """The layouts cover everything the engine knows: the shipped set written as rows and read
    back is the same cards and decks."""
    shipped_files = ADAPTER.shipped_files(None)
    assert all("editions" not in data for _label, data in shipped_files)
    content = SetContent("logic_square", "alone", ADAPTER.newest_edition(),
                         [[label.split("/")[-1], data] for label, data in shipped_files])
    files = export.export_files(content, "shipped")
    b = built({k: v for k, v in sorted(files.items()) if k.endswith(".csv")}, "alone")
    assert b.ok, [p.render() for p in b.problems][:5]
    shipped = ADAPTER.validate(ADAPTER.base_files("extend", None))[0]
    assert {c: card.raw for c, card in b.cardset.cards.items()} == {c: card.raw for c, card in shipped.cards.items()}
    assert b.cardset.types == shipped.types
    assert {d: x.to_spec() for d, x in b.cardset.decks.items()} == {d: x.to_spec() for d, x in shipped.decks.items()}
    assert b.content.untranslated == {}


def test_the_shipped_files_are_the_cards_of_their_edition():
    """rules edition 3 made Vector Lance 60 (was 50): a set on edition 2 builds on the older card."""
    def lance(edition):
        cards = ADAPTER.shipped_files(edition)[0][1]["cards"]
        return next(c for c in cards if c["id"] == "av01")["abilities"][0]["damage"]
    assert (lance(2), lance(3), lance(None)) == (50, 60, 60)


def test_diff_names_a_changed_number_in_words():
    """The issue: the bot "compares versions in words ("Firewall Refresh: cost 1 → 2")"."""
    before = built(DIGEST_CSV)
    changed = dict(DIGEST_CSV, **{"abilities.csv": DIGEST_CSV["abilities.csv"].replace("Charge,1,", "Charge,2,"),
                                  "resources.csv": DIGEST_CSV["resources.csv"].replace(",40,", ",50,")})
    after = built(changed)
    lines = diff.render(diff.changes(ADAPTER.entries(before.cardset, before.own),
                                     ADAPTER.entries(after.cardset, after.own)), "en")
    assert lines == ["Neon — Charge: cost 1 → 2", "Jab: hit damage 40 → 50"]
    ja = diff.render(diff.changes(ADAPTER.entries(before.cardset, before.own),
                                  ADAPTER.entries(after.cardset, after.own)), "ja")
    assert ja[0].startswith("ネオン") and "充電" in ja[0] and "コスト" in ja[0] and "1 → 2" in ja[0]


# ============================================================================ generated rules text

def test_the_generated_rules_text_states_every_effect_of_a_card():
    """The issue: "the rules text players see is GENERATED from the card's data … a card cannot say
    one thing and do another"."""
    shipped = ADAPTER.validate(ADAPTER.base_files("extend", None))[0]
    text = {c: card_text(shipped[c], shipped.types) for c in ("ac14", "br03", "it03", "sc11", "ac15", "ac10")}
    assert text["ac14"]["ja"] == ("ヒットダメージ60。ヒット範囲：前方3マス。相手の《AVI》にヒットしたら、"
                                  "相手のリソースデッキの上から1枚をトラッシュに置く。")
    assert text["br03"]["en"] == ("CB. Hit damage 60. Hit range: the 3 columns ahead, 3 squares deep. Break condition: "
                                  "your opponent declared a [Strike] card and your AVI is in the hit range of the card "
                                  "your opponent declared.")
    assert text["it03"]["ja"] == ("ヒット範囲：前方5列×4マス（相手の《AVI》か設置されたカードがある必要がある）。"
                                  "相手の手札をランダムに2枚トラッシュに置く。相手は次のターンに得るAP-1。"
                                  "【アクション構築条件】手札から次のカードをトラッシュに置く：青1枚、任意1枚。")
    assert text["sc11"]["en"] == ("Place it on an empty square in range (durability 40). Range: the 3 squares in front. "
                                  "At the start of your main phase it deals hit damage 20 to the 2 squares straight "
                                  "ahead of it.")
    assert "自身の《AVI》のマスも含む" in text["ac15"]["ja"]                # rulebook 2.④: only when the card says so
    assert text["ac10"]["en"].startswith("CB. Move your AVI to an empty square in range")
    avi = rules_text(shipped["av02"], shipped.types)
    assert avi["ja"].splitlines() == [
        "《AVI》・[ガード]・[リペア]",
        "1. ファイアウォール・リフレッシュ【2AP】自身の《AVI》のライフを40回復する。",
        "2. シールドバッシュ【2AP】ヒットダメージ60。ヒット範囲：前方3列×2マス。相手の《AVI》がヒット範囲にいれば1マス押し出す。",
        "<覚醒 150> 自身の《AVI》が受けるダメージ-10。"]
    marks = rules_text(shipped["br02"], shipped.types)["en"].splitlines()[0]
    assert marks == "Br · green · CB · [Guard]"


def test_ranges_are_told_in_words():
    assert range_words([(3, 0), (2, 0), (1, 0)]) == {"en": "the 3 squares straight ahead", "ja": "正面3マス"}
    assert range_words([(4, 0), (3, 0), (2, 0)])["ja"] == "2〜4マス先"
    assert range_words([(1, s) for s in range(-2, 3)] + [(0, -2), (0, -1), (0, 1), (0, 2)])["en"] == \
        "the 5 squares in front and 2 squares on each side"
    assert grid([[2, 0], [1, 0], [0, -1], [0, 1], [-1, 0]]) == [".x.", ".x.", "xox", ".x."]


def test_the_sets_engine_shows_the_generated_text_and_the_entries_keep_the_sets_own_words():
    """The issue: "In the set's engine the set's own cards' text … is replaced by the generated
    text; the set's own text is its wording"."""
    b = built(folder(TEST_SET))
    engine = ADAPTER.engine(b.cardset, b.own)
    av90 = engine.cardset["av90"]
    assert av90.text == card_text(b.cardset["av90"], b.cardset.types)
    assert av90.abilities[0].text["ja"] == "【2AP】ヒットダメージ50。ヒット範囲：正面2マス。"
    assert av90.awakening["text"]["en"] == "<Awakening 250> Your cards and AVI abilities deal +10 hit damage."
    assert engine.cardset["ac02"].text == b.cardset["ac02"].text          # a shipped card keeps its text
    entries = {e.id: e for e in ADAPTER.entries(b.cardset, b.own)}
    assert entries["av90"].wording == {"ja": "ネオンの槍で正面を貫く突撃型アバター。", "en": "ネオンの槍で正面を貫く突撃型アバター。"}
    assert entries["ac90"].wording is None                                # no text of its own: the generated one
    assert entries["ac90"].view["text"]["en"].startswith("Hit damage 40.") and entries["ac90"].own
    assert not entries["ac02"].own and entries["neon"].deck and "Neon Lancer" in entries["neon"].rules["en"]
    assert entries["ac90"].kind == "resource" and entries["it90"].kind == "it" and entries["av90"].kind == "avi"
    keys = [f.key for f in entries["av90"].facts]
    assert {"abilities.0.cost", "abilities.1.effects.0", "awakening.life", "awakening.mods.0"} <= set(keys)


# ============================================================================ playing and drawing the set

def test_a_full_match_is_played_with_the_sets_engine_and_decks_by_the_computer_from_views():
    """The issue: "The bot then plays matches with the set's cards (the engine built from the
    set)"; the computer sees only views and samples the rest with the engine's determinize."""
    b = built(folder(TEST_SET))
    content = open_content(SetContent.from_json(b.content.canonical()))
    engine = ADAPTER.engine(content.cardset, content.own)
    decks = ADAPTER.deck_ids(content.cardset, content.own)
    state = engine.new_match(2, 5, {"decks": decks, "first": 0})
    commands = []
    for n in range(3000):
        if engine.outcome(state) is not None:
            break
        seat = engine.to_act(state)[0]
        view = engine.view(state, seat)
        assert "av90" in view["cards"] or view["players"][seat]["avi"] != "av90"
        command = ai.choose("logic_square", view, engine.legal_commands(state, seat), seat, level="normal",
                            seed=n, game=engine)
        commands.append((seat, command))
        state = engine.apply(state, seat, command)
    assert engine.outcome(state) is not None
    again = engine.new_match(2, 5, {"decks": decks, "first": 0})
    for seat, command in commands:
        again = engine.apply(again, seat, command)
    assert engine.dump(again) == engine.dump(state)                      # seeded: the same match again
    assert state.cards["av90"].text["en"].startswith("1. Neon Thrust [2 AP]")


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_a_page_of_the_set_is_drawn_as_the_hand_pictures_draw_cards(locale):
    """render/card_pages.py draws each card with render.logic_square_hand.sheet_card."""
    from render.card_pages import page_png
    from render.logic_square_hand import sheet_card
    from render.base import make_ctx

    b = built(folder(TEST_SET))
    entries = [e for e in ADAPTER.entries(b.cardset, b.own) if e.own][:6]
    png = page_png("logic_square", entries, title="Neon", page=1, pages=2, locale=locale)
    assert png[:4] == b"\x89PNG"
    ctx = make_ctx("logic_square", locale, None, None, None)
    avi = sheet_card(entries[0].view, ctx)
    assert entries[0].id == "av90" and len(avi.body) == 3           # two abilities and the awakening
    assert avi.body[0][0].startswith("1. ")


# ============================================================================ catalog and docs

def test_every_key_the_game_reports_is_in_both_catalogs():
    src = "".join((ROOT / f).read_text(encoding="utf-8") for f in (
        "rules/logic_square/cards.py", "rules/logic_square/card_schema.py", "rules/logic_square/editions.py", "data/card_sets/logic_square.py"))
    keys = set(re.findall(r'"(ls_[a-z_]+)"', src))
    assert len(keys) > 30
    for locale in ("en", "ja"):
        catalog = i18n.catalog(locale)
        missing = sorted(k for k in keys if f"cardcheck.{k}" not in catalog)
        assert not missing, (locale, missing)


def test_the_docs_name_every_column_of_every_layout_and_stand_alone():
    text = (DOCS / "logic_square.md").read_text(encoding="utf-8")
    assert "../shared" not in text and "GAMES.md" not in text
    for layout in ADAPTER.layouts:
        for column in layout.names:
            assert f"`{column}`" in text or f"`{column.rsplit('_', 1)[0]}_ja`" in text, (layout.kind, column)
        assert (ROOT / layout.example).is_file(), layout.example
    for name in ("damage", "heal", "lose_life", "draw", "trash", "push", "pull", "move_self", "ap", "shield",
                 "damage_bonus", "turret", "in_range", "life_at_most", "places"):
        assert f"`{name}`" in text, name
    assert AVIS.section == RESOURCES.section == "cards" and DECKS.section == "decks"


def test_the_worked_example_of_the_docs_is_what_the_bot_says():
    text = (DOCS / "logic_square.md").read_text(encoding="utf-8")
    res = (DOCS / "logic_square_resources.csv").read_text(encoding="utf-8")
    res = res.replace(",70,,x/x/o,", ",70,,,").replace("glitch wall,,60,", "glitch wall,30,60,")
    b = built(folder(DOCS, "logic_square_*.csv", **{"logic_square_resources.csv": res.encode("utf-8")}))
    assert len(b.problems) == 2
    for p in b.problems:
        assert rendered(p, "en") in text and rendered(p, "ja") in text
    card = built(folder(DOCS, "logic_square_*.csv")).cardset["gl05"]
    assert card_text(card)["ja"] in text
