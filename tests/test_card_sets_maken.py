"""Project Maken server card sets (issue 36): CSV layouts, every problem at once in the reader's
language, generated rules text, the set's engine and its pictures, export and diff.

The rulings these tests enforce are quoted where they are checked; the card format is
``docs/cards.md`` ("Project Maken"), the CSV layouts ``docs/card_sets/maken.md``."""
from __future__ import annotations

import copy
import csv
import io
import json
import re
from pathlib import Path

import pytest

from data import i18n
from data.card_sets import csv_layout as cl
from data.card_sets import games
from data.card_sets.build import SHIPPED, build_set, open_content
from data.card_sets.diff import changes, render as diff_lines
from data.card_sets.export import export_files
from data.card_sets.keys import CATALOG_KEYS
from data.card_sets.model import SetContent
from data.card_sets.upload import read_upload
from rules.maken.cards import CardDataError, CardSet, card_text, character_text

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "card_sets"
DATA = Path(__file__).resolve().parent / "data" / "card_sets" / "maken"
ad = games.adapter("maken")


# --------------------------------------------------------------------------- helpers

def uploads(files: dict[str, str | bytes]) -> tuple[list, list]:
    """``{name: text}`` read as an attachment each, in the order given."""
    ups, problems = [], []
    for name, body in files.items():
        got, bad = read_upload(name, body.encode("utf-8") if isinstance(body, str) else body)
        ups += got
        problems += bad
    return ups, problems


def folder(path: Path, pattern: str = "*.csv", edit: dict | None = None) -> dict[str, str]:
    """The CSV files of a folder (sorted by name), ``edit``: ``{file: [[row, column, value], …]}``
    applied to the cells (row as a spreadsheet numbers it: the header is row 1)."""
    out = {}
    for p in sorted(path.glob(pattern)):
        text = p.read_text(encoding="utf-8")
        for row, column, value in (edit or {}).get(p.name, []):
            rows = list(csv.reader(io.StringIO(text)))
            rows[row - 1][rows[0].index(column)] = value
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n").writerows(rows)
            text = buf.getvalue()
        out[p.name] = text
    return out


def build(files: dict, mode: str = "extend"):
    ups, read = uploads(files)
    return build_set("maken", ups, mode, read_problems=read)


def spots(built) -> list[tuple]:
    return [(p.file, p.row, p.field, p.key) for p in built.problems]


def clean_set() -> object:
    """The test data set (tests/data/card_sets/maken/*.csv), checked: it must be valid."""
    built = build(folder(DATA))
    assert built.ok, [p.render("en") for p in built.problems]
    return built




# --------------------------------------------------------------------------- the files load

def test_the_example_csvs_of_the_docs_load_extending_the_shipped_cards_and_standing_alone():
    """docs/card_sets/maken.md's worked example: a new character, its 12 cards and two decks."""
    files = folder(DOCS, "maken_*.csv")
    assert sorted(files) == ["maken_attacks.csv", "maken_characters.csv", "maken_decks.csv", "maken_supports.csv"]
    for mode in ("extend", "alone"):
        built = build(files, mode)
        assert built.ok, [p.render("en") for p in built.problems]
        assert built.counts == {"cards": 13, "decks": 2, "replaced": 0}
        assert ad.deck_ids(built.cardset, built.own) == ["hayate_wind", "hayate_storm"]
    alone = build(files, "alone").cardset
    assert list(alone.characters) == ["hayate"] and len(alone.cards) == 12
    assert {lay.example for lay in ad.layouts} == {f"docs/card_sets/{n}" for n in files}


def test_the_test_data_set_loads_replacing_shipped_cards_by_id():
    """"A set either extends the shipped cards (adds cards; replaces shipped ones by id)"."""
    built = clean_set()
    assert built.counts == {"cards": 5, "decks": 2, "replaced": 2}
    shipped = ad._shipped().at(ad.newest_edition())
    cs = built.cardset
    assert shipped.cards["ts01"]["speed"] == 6 and cs.cards["ts01"]["speed"] == 5       # replaced
    assert cs.characters["tsubaki"]["draw_limit"] == 3 and shipped.characters["tsubaki"]["draw_limit"] == 2
    assert {"ts15", "gu15", "gu16"} <= set(cs.cards) and len(cs.cards) == len(shipped.cards) + 3
    assert set(shipped.decks) <= set(cs.decks)                  # the shipped decks stay legal
    assert ad.deck_ids(cs, built.own) == ["tsubaki_set", "gou_set"]
    assert built.content.wording == {"ts15": {"ja": "ヒットしたら1枚引く。", "en": "Draw a card when it hits."}}


def test_the_mistakes_of_the_test_data_make_exactly_the_problems_they_expect():
    m = json.loads((DATA / "mistakes.json").read_text(encoding="utf-8"))
    built = build(folder(DATA, edit={m["file"]: m["edits"]}))
    assert built.content is None
    assert [(p.file, p.row, p.field) for p in built.problems] == [(m["file"], r, c) for r, c in m["expect"]]
    assert all(p.column for p in built.problems)
    assert len({r for r, _c, _v in m["edits"]}) == 2            # two rows, one problem each


# --------------------------------------------------------------------------- every problem at once

BAD_ATTACKS = """id,character,name_ja,name_en,speed,reach,attack,guard,posture,unguardable,cost,gain,gc,bet,hit,icon
ts20,tsubaki,速攻,Quick One,fast,1,2,1,stand,,,,,,,dust
ts21,tsubaki,座り斬り,Sitting Cut,3,1,2,1,sit,,,,,,,dust
ts22,tsubaki,癒やし斬り,Healing Cut,3,1,2,1,stand,,,,,,heal 2,dust
ts23,nobody,誰か,Somebody,3,1,2,1,stand,,,,,,,dust
ts24,tsubaki,遠斬り,Far Cut,3,3/12,2,1,stand,,,,,,,dust
ts25,tsubaki,二重斬り,Double Cut,3,1,2,1,stand,stand stand,,,,,,dust
ts26,tsubaki,,,3,1,2,1,stand,,,,,,,dust
"""
BAD_DECKS = """id,name_ja,name_en,character,cards
too_many,多すぎ,Too Many,tsubaki,ts01*4 ts02*3 ts03*3 ts04*3 ts05*3 ts06*3 ts07*2 ts09 ts10*3 ts11 ts12*2 ts13 ts14
names_bad,悪い,Names Bad,tsubaki,ts23*3 ts01*3 ts02*3 ts03*3 ts04*3 ts05*3 ts06*3 ts07*3 ts10*3 ts11*3
"""
EXPECTED = [
    ("attacks.csv", 2, "speed", "cardcheck.cell_int"),
    ("attacks.csv", 3, "posture", "cardcheck.choice"),
    ("attacks.csv", 4, "hit", "cardcheck.unknown_effect"),
    ("attacks.csv", 5, "character", "cardcheck.mk_unknown_character"),
    ("attacks.csv", 6, "reach", "cardcheck.int_range"),
    ("attacks.csv", 7, "unguardable", "cardcheck.mk_unguardable"),
    ("attacks.csv", 8, "name_ja", "cardcheck.required_pair"),
    ("decks.csv", 2, "cards", "maken.deck.copies"),
]


def _english_words(text: str, allowed: set[str]) -> list[str]:
    """Latin words of ``text`` that are not notation (ids, columns, values a designer types)."""
    plain = re.sub(r"「[^」]*」|`[^`]*`", "", text)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z_]*", plain) if w.lower() not in allowed]


def test_a_csv_with_several_mistakes_reports_every_one_with_its_row_and_column_in_both_languages():
    """"The bot reports EVERY problem at once, each naming the file, the row …, the card … and the
    field (the CSV column), in the reader's language"; a deck naming a card left out for its own
    problem (names_bad names ts23) is not blamed again."""
    built = build({"attacks.csv": BAD_ATTACKS, "decks.csv": BAD_DECKS})
    assert built.content is None
    assert spots(built) == EXPECTED
    allowed = {c.name for lay in ad.layouts for c in lay.columns} | {"attacks", "decks", "csv", "n", "if_gauge"}
    allowed |= {"stand", "crouch", "air", "draw", "gauge", "power", "ts", "nobody", "fast", "sit", "heal"}
    allowed |= {f"ts{n:02d}" for n in range(1, 30)} | {"too_many"}
    for p in built.problems:
        en, ja = p.render("en"), p.render("ja")
        assert "cardcheck." not in en + ja and "{" not in en + ja, (en, ja)
        assert en != ja and f"row {p.row}" in en and f"{p.row}行目" in ja
        assert p.field in en and p.field in ja
        assert not _english_words(ja, allowed), ja
    by_row = {p.row: p.render("en") for p in built.problems if p.file == "attacks.csv"}
    assert "“heal”" in by_row[4] and "known: draw, gauge, power" in by_row[4]
    assert "“nobody”" in by_row[5]


def test_collect_mode_reports_card_by_card_and_deck_by_deck_and_without_a_list_raises_the_first():
    """rules/card_errors.py: "a card (or deck) with a problem is reported into the list and left
    out, and the validation goes on"; the operator's loader still stops at the first problem."""
    files = ad.shipped_files(None)
    cards = copy.deepcopy(files[0][1])
    cards["cards"][0]["speed"] = 12                      # ts01
    cards["cards"][1]["posture"] = "sit"                  # ts02
    cards["characters"].append({"id": "x", "name": {"en": "X", "ja": "X"}})       # an id too short
    decks = copy.deepcopy(files[1][1])
    decks["decks"].append({"id": "bad_deck", "name": {"en": "B", "ja": "B"}, "character": "gou",
                           "cards": {"gu01": 3, "ts03": 1}})
    found: list = []
    assert CardSet.from_sources([("c.json", cards), ("d.json", decks)], problems=found) is None
    got = [(e.file, e.card, e.field, e.key) for e in found]
    assert got == [("c.json", "x", "id", "id_format"), ("c.json", "ts01", "speed", "int_range"),
                   ("c.json", "ts02", "posture", "choice"),
                   ("d.json", "deck 'bad_deck'", "cards", "maken.deck.count"),
                   ("d.json", "deck 'bad_deck'", "cards", "maken.deck.other_pool")]
    # tsubaki_basic holds ts01 and ts02: left out for their own problems, it is not blamed
    assert all(isinstance(e, CardDataError) and e.key for e in found)
    with pytest.raises(CardDataError) as err:
        CardSet.from_sources([("c.json", cards), ("d.json", decks)])
    assert str(err.value) == "c.json, card 'x', field 'id': must be 2–16 characters: a–z first, then a–z, 0–9 or _"
    assert isinstance(err.value, ValueError)


def test_every_key_the_schema_raises_is_in_both_catalogs():
    """Every raise reachable from an upload has a catalog key (``cardcheck.<key>``, or a deck
    rule's own ``maken.deck.*``), with the same placeholders in English and Japanese."""
    keys = set()
    for path in ("rules/maken/cards.py", "rules/maken/card_schema.py", "rules/maken/editions.py", "data/card_sets/maken.py"):
        text = (ROOT / path).read_text(encoding="utf-8")
        keys |= set(re.findall(r'key="([a-z_]+)"', text)) | set(re.findall(r'CellError\("([a-z_]+)"', text))
        keys |= set(re.findall(r'key="[a-z_]+" if [^\n]* else "([a-z_]+)"', text))
    keys |= set(CATALOG_KEYS)           # the checks every game shares (data/card_sets/keys.py)
    assert {"int_range", "choice", "mk_unknown_character", "rules_patch", "no_editions", "too_few_decks"} <= keys
    for key in keys:
        for locale in ("en", "ja"):
            assert f"cardcheck.{key}" in i18n.catalog(locale), (key, locale)
    for key in [k for k in i18n.catalog("en") if k.startswith("maken.deck.")]:
        assert key in i18n.catalog("ja") or key.endswith(".one"), key    # an English singular: ja has no plural


def test_an_entry_without_a_usable_id_is_named_by_its_number():
    """An entry without a usable id is named ``#<n>`` (``deck #<n>``): its number in its list."""
    data = {"cards": [{"kind": "attack"}, {"id": "Bad Id"}], "decks": [{"id": 7, "name": {"en": "D", "ja": "D"}}]}
    built = build({"set.json": json.dumps(data)})
    assert [(p.row, p.entry, p.card, p.field, p.key, p.params.get("value")) for p in built.problems] == [
        (1, True, None, "id", "cardcheck.required", "None"),             # card #1
        (1, True, "deck #", "id", "cardcheck.id_format", "7"),           # deck #1
        (2, True, "Bad Id", "id", "cardcheck.id_format", "Bad Id")]      # card #2
    assert all(p.render("ja").startswith("set.json・") for p in built.problems)


# --------------------------------------------------------------------------- what a set may hold

def test_an_unknown_effect_is_refused_naming_it_in_csv_and_in_json():
    """"A card's effects are the truth: an unknown effect is refused, naming it"."""
    support = "id,character,name_ja,timing,effect,icon\nts16,tsubaki,気合,before,power 1,dust\n"
    built = build({"supports.csv": support})
    (p,) = built.problems
    assert (p.row, p.field, p.key, p.params["name"]) == (2, "effect", "cardcheck.unknown_effect", "power")
    assert p.params["known"] == ["draw", "gauge", "recover"]
    card = {"id": "ts16", "kind": "attack", "character": "tsubaki", "name": {"en": "Zap", "ja": "雷"}, "speed": 3,
            "reach": 1, "attack": 2, "guard": 1, "posture": "stand", "icon": "dust", "hit": [{"do": "heal", "n": 1}]}
    (p,) = build({"set.json": json.dumps({"cards": [card]})}).problems
    assert (p.row, p.entry, p.card, p.field, p.params["name"]) == (1, True, "ts16", "hit[0].do", "heal")
    assert "“heal”" in p.render("en") and "「heal」" in p.render("ja")


def test_a_rules_patch_and_an_editions_block_are_refused_and_nothing_is_stored():
    """"A set changes cards, never a rule of the game: a rules patch in an upload is refused"
    (docs/rules/maken.md: ``first_draw_limit`` and ``second_hand`` are rules, not card content)."""
    data = {"editions": {"6": {"rules": {"first_draw_limit": 3}, "cards": {"ts01": {"speed": 9}}}},
            "rules": {"second_hand": 6},
            "characters": [{"id": "tsubaki", "name": {"en": "T", "ja": "T"}, "draw_limit": 3, "first_draw_limit": 1}]}
    built = build({"set.json": json.dumps(data)})
    assert built.content is None
    got = sorted((p.key, p.params.get("key"), p.field) for p in built.problems)
    assert ("cardcheck.no_editions", None, "editions") in got
    assert ("cardcheck.rules_patch", "first_draw_limit", "editions.6.rules.first_draw_limit") in got
    assert ("cardcheck.rules_patch", "second_hand", "rules.second_hand") in got
    assert ("cardcheck.rules_patch", "first_draw_limit", "first_draw_limit") in got
    for p in built.problems:
        assert "cardcheck." not in p.render("ja")
    assert "「first_draw_limit」はルール" in next(p.render("ja") for p in built.problems if p.key.endswith("rules_patch"))


def test_extend_replaces_a_shipped_card_by_id_and_the_shipped_decks_keep_it():
    gu01 = {"id": "gu01", "kind": "attack", "character": "gou", "name": {"en": "Iron Palm", "ja": "鉄掌"},
            "speed": 2, "reach": 1, "attack": 3, "guard": 2, "posture": "stand", "icon": "gauge", "gain": 1}
    built = build({"gu01.json": json.dumps({"cards": [gu01]})})
    assert built.ok and built.counts == {"cards": 1, "decks": 0, "replaced": 1}
    assert built.cardset.cards["gu01"]["speed"] == 2 and "gou_basic" in built.cardset.decks
    game = ad.engine(built.cardset, built.own)
    state = game.new_match(2, 1, {"decks": ["gou_basic", "tsubaki_basic"], "first": 0})
    assert state.d["cards"]["gu01"]["speed"] == 2
    # a replacement of another character breaks the shipped deck that held it: named, not stored
    moved = dict(gu01, character="tsubaki", name={"en": "Palm", "ja": "掌"})
    bad = build({"gu01.json": json.dumps({"cards": [moved]})})
    assert [(p.file, p.card, p.key) for p in bad.problems] == [
        (SHIPPED + "decks.json", "deck 'gou_basic'", "maken.deck.other_pool")]


def test_a_set_that_stands_alone_needs_two_ready_made_decks():
    """``alone``: only the set's cards (the rulebook fixes none of this game), and "a set that
    stands alone needs at least 2 ready-made decks"."""
    files = folder(DOCS, "maken_*.csv")
    files["maken_decks.csv"] = "\n".join(files["maken_decks.csv"].splitlines()[:2]) + "\n"
    alone = build(files, "alone")
    assert [(p.key, p.params) for p in alone.problems] == [("cardcheck.too_few_decks", {"n": 2, "count": 1})]
    assert build(files, "extend").ok                    # the shipped decks are there
    assert ad.base_files("alone", None) == [] and ad.fixed_ids == frozenset()


def test_a_name_already_another_cards_is_refused():
    """Deck ruling: "at most 3 copies of a name" — two cards of one name would make it six."""
    attack = "id,character,name_ja,name_en,speed,reach,attack,guard,posture,icon\n" \
             "ts16,tsubaki,疾風斬り,Other Cut,3,1,2,1,stand,dust\n"
    (p,) = build({"a.csv": attack}).problems
    assert (p.row, p.field, p.column, p.key, p.params) == (2, "name_ja", True, "cardcheck.name_taken",
                                                          {"name": "疾風斬り", "other": "ts01"})
    assert p.render("ja") == "a.csv・2行目・カード「ts16」・列「name_ja」：「疾風斬り」はすでにts01の名前です。"


# --------------------------------------------------------------------------- same cards, same version

TEST_SET_JSON = {
    "cards": [
        {"id": "ts01", "kind": "attack", "character": "tsubaki", "name": {"ja": "疾風斬り", "en": "Swift Cut"},
         "speed": 5, "reach": 1, "attack": 2, "guard": 1, "posture": "stand", "cost": 0, "gain": 1, "icon": "gauge"},
        {"id": "ts15", "kind": "attack", "character": "tsubaki", "name": {"ja": "燕返し", "en": "Swallow Return"},
         "speed": 4, "reach": [3, 1], "attack": 3, "guard": 2, "posture": "stand", "unguardable": ["crouch"],
         "cost": 0, "gain": 1, "hit": [{"do": "draw", "n": 1}], "icon": "dust",
         "wording": {"ja": "ヒットしたら1枚引く。", "en": "Draw a card when it hits."}},
        {"id": "gu15", "kind": "attack", "character": "gou", "name": {"ja": "鉄槌", "en": "Iron Hammer"},
         "speed": 2, "reach": 1, "attack": 5, "guard": 3, "posture": "stand", "cost": 2, "gain": 0,
         "bet": [{"do": "gauge", "n": 1, "if_gauge": 2}], "icon": "stamina"},
        {"id": "gu16", "kind": "support", "character": "gou", "name": {"ja": "呼吸法", "en": "Steady Breath"},
         "timing": "before", "effect": [{"do": "draw", "n": 1}, {"do": "gauge", "n": 1}], "icon": "dust"}],
    "characters": [{"id": "tsubaki", "name": {"ja": "柊ツバキ", "en": "Tsubaki Hiiragi"},
                    "text": {"ja": "このセットのツバキは3枚までドローできる。", "en": "In this set Tsubaki draws up to 3."},
                    "draw_limit": 3}],
    "decks": [
        {"id": "tsubaki_set", "name": {"ja": "ツバキ：燕", "en": "Tsubaki: Swallow"}, "character": "tsubaki",
         "cards": {"ts01": 3, "ts02": 3, "ts03": 3, "ts04": 2, "ts05": 3, "ts06": 3, "ts07": 2, "ts08": 1, "ts09": 1,
                   "ts10": 3, "ts11": 1, "ts12": 2, "ts13": 1, "ts15": 2}},
        {"id": "gou_set", "name": {"ja": "ゴウ：鉄槌", "en": "Gou: Hammer"}, "character": "gou",
         "cards": {"gu01": 3, "gu02": 3, "gu03": 3, "gu04": 3, "gu05": 3, "gu06": 2, "gu07": 2, "gu08": 1, "gu09": 1,
                   "gu10": 3, "gu12": 2, "gu15": 2, "gu16": 2}}],
}


def test_a_json_upload_of_the_same_cards_is_the_same_version_as_the_csv_upload():
    csv_set = clean_set()
    js = build({"test_set.json": json.dumps(TEST_SET_JSON, ensure_ascii=False)})
    assert js.ok, [p.render("en") for p in js.problems]
    assert js.content.digest() == csv_set.content.digest()


def test_an_exported_set_reads_back_to_the_same_version():
    content = clean_set().content
    files = export_files(content, "Test set")
    assert sorted(files) == ["Test_set.json", "Test_set_attack.csv", "Test_set_character.csv",
                             "Test_set_deck.csv", "Test_set_support.csv"]
    again = build({n: b for n, b in files.items() if n.endswith(".csv")})
    assert again.ok and again.content.digest() == content.digest()
    back = build({"Test_set.json": files["Test_set.json"]})
    assert back.ok and back.content.digest() == content.digest()
    opened = open_content(SetContent.from_json(content.canonical()))
    assert opened.own == clean_set().own and opened.cardset.cards == clean_set().cardset.cards


def test_every_shipped_card_round_trips_through_the_csv_layouts():
    """The layouts cover everything the engine knows: the shipped characters, cards and decks
    written as CSV rows and read back are the same cards."""
    edition = ad.newest_edition()
    shipped = ad._shipped().at(edition)
    content = SetContent("maken", "alone", edition, [[label[len(SHIPPED):], data]
                                                      for label, data in ad.shipped_files(edition)])
    files = {n: b for n, b in export_files(content, "shipped").items() if n.endswith(".csv")}
    assert len(files) == len(ad.layouts)
    built = build(files, "alone")
    assert built.ok, [p.render("en") for p in built.problems[:3]]
    assert built.cardset.cards == shipped.cards and built.cardset.characters == shipped.characters
    assert {d: v["spec"] for d, v in built.cardset.decks.items()} == {d: v["spec"] for d, v in shipped.decks.items()}
    # every field of every card is in a column
    paths = {c.path.split(".")[0] for lay in ad.layouts for c in lay.columns}
    raw = [e for _l, data in ad.shipped_files(edition) for _s, _i, e in ad.own_items(data)]
    assert {k for e in raw for k in e} - {"kind"} <= paths


def test_the_shipped_files_of_an_edition_have_its_numbers_and_no_editions():
    for edition in (1, 2, ad.newest_edition()):
        files = ad.shipped_files(edition)
        assert all(label.startswith(SHIPPED) and "editions" not in data for label, data in files)
        cs, problems = ad.validate(files)
        assert problems == [] and cs.cards == ad._shipped().at(edition).cards
    assert ad.shipped_files(1)[0][1]["cards"][0]["speed"] == 5 and ad.shipped_files(4)[0][1]["cards"][0]["speed"] == 6


# --------------------------------------------------------------------------- words and pictures

def test_diff_of_a_changed_number_names_it_in_words():
    """"compares versions in words ("Firewall Refresh: cost 1 → 2")"."""
    m = json.loads((DATA / "mistakes.json").read_text(encoding="utf-8"))
    row, column, value, says = m["change"]
    first = clean_set()
    second = build(folder(DATA, edit={m["file"]: [[row, column, value]]}))
    assert second.ok and second.content.digest() != first.content.digest()
    found = changes(ad.entries(first.cardset, first.own), ad.entries(second.cardset, second.own))
    assert diff_lines(found, "en") == [says]
    assert diff_lines(found, "ja") == ["燕返し：速度 4 → 5"]
    # against the shipped cards: the replaced ts01 and the new cards
    shipped, _ = ad.validate(ad.base_files("extend", None))
    lines = diff_lines(changes(ad.entries(shipped, set()), ad.entries(first.cardset, first.own)), "en")
    assert "Swift Cut: speed 6 → 5" in lines and "Swift Cut: attack value 1 → 2" in lines
    assert "New card: Swallow Return" in lines and "New deck: Gou: Hammer" in lines
    assert "Tsubaki Hiiragi: draw limit 2 → 3" in lines


def test_an_effects_change_is_told_by_its_effect_and_when():
    before = clean_set()
    edit = {"supports.csv": [[2, "effect", "draw 2; gauge 1"]], "attacks.csv": [[4, "bet", "gauge 1 if_gauge=3"]]}
    after = build(folder(DATA, edit=edit))
    lines = diff_lines(changes(ad.entries(before.cardset, before.own), ad.entries(after.cardset, after.own)), "en")
    assert lines == ["Iron Hammer — on bet: stamina cards to the gauge: only with gauge cards at least 2 → 3",
                     "Steady Breath — effect: draw 1 → 2"]


def test_the_generated_rules_text_states_each_effect():
    """"the rules text players see is GENERATED from the card's data … a card cannot say one
    thing and do another": the text says each effect, condition, cost and destination."""
    cs = clean_set().cardset
    assert cs.cards["ts15"]["text"] == {
        "en": "No crouching guard. Gauge gain 1. On hit: draw 1. Goes to: dust",
        "ja": "屈みガード不可。ゲージ増加1。ヒット時：1枚ドロー。どこいく：ダスト"}
    assert cs.cards["gu15"]["text"] == {
        "en": "Gauge cost 2. On bet: if you have 2+ gauge, move 1 stamina card to your gauge. Goes to: bottom of stamina",
        "ja": "ゲージ消費2。ベット時：ゲージ札が2枚以上ならスタミナ札1枚をゲージ行き。どこいく：スタミナの下"}
    assert cs.cards["gu16"]["text"]["en"] == \
        "Before attack: draw 1; move 1 stamina card to your gauge. Goes to: dust"
    example = build(folder(DOCS, "maken_*.csv"), "alone").cardset
    assert example.cards["hy07"]["text"]["en"] == "[GC only]. Goes to: hand"
    assert example.cards["hy08"]["text"]["ja"] == "【GC可能】。空中ガード不可。ゲージ消費1。どこいく：ダスト"
    assert example.cards["hy06"]["text"]["en"] == \
        "No standing guard. No crouching guard. Gauge cost 3. On hit: attack total +1. Goes to: dust"
    assert example.cards["hy10"]["text"]["ja"] == "アタック後：ダメージ札2枚をスタミナ札の下へ。どこいく：スタミナの下"
    # a character's rules text comes from its draw limit; the set's own words are its wording
    shown = ad.with_rules_text(cs, clean_set().own)
    assert shown.characters["tsubaki"]["text"] == character_text({"draw_limit": 3})
    assert "3" in shown.characters["tsubaki"]["text"]["ja"] and "ドロー上限3枚" in shown.characters["tsubaki"]["text"]["ja"]


def test_every_field_a_designer_sets_shows_on_the_card():
    """Each field of a card changes what its picture says: the numbers in the stats line, the
    posture in the chip, everything else in the generated text."""
    from render.base import make_ctx
    from render.maken import sheet_card

    ctx = make_ctx("maken", "en", None, None, None)
    shipped = ad._shipped().at(ad.newest_edition())
    base = dict(shipped.cards["ts05"])          # an attack card: no unguardable, no cost, a hit effect

    def shown(card: dict) -> tuple:
        card = dict(card, text=card_text(card))
        c = sheet_card(card, ctx)
        return c.title, c.chip, c.stats, c.info, c.body
    changes_ = {"speed": 6, "front": 3, "back": 0, "attack": 5, "guard": 3, "posture": "air", "unguardable": ["air"],
                "cost": 2, "gain": 2, "gc": "able", "bet": [{"do": "draw", "n": 1, "if_gauge": 2}],
                "hit": [{"do": "power", "n": 2}], "icon": "hand", "name": {"en": "Other", "ja": "別"}}
    for field, value in changes_.items():
        assert shown(dict(base, **{field: value})) != shown(base), field
    support = dict(shipped.cards["ts13"])
    for field, value in {"timing": "before", "effect": [{"do": "draw", "n": 2}], "icon": "dust"}.items():
        assert shown(dict(support, **{field: value})) != shown(support), field
    assert character_text({"draw_limit": 4}) != character_text({"draw_limit": 3})


def test_entries_carry_the_generated_rules_the_sets_wording_and_the_view_the_engine_shows():
    built = clean_set()
    content = built.content
    entries = {e.id: e for e in ad.entries(built.cardset, built.own, content.wording, content.untranslated)}
    game = ad.engine(built.cardset, built.own)
    ts15 = entries["ts15"]
    assert ts15.own and ts15.kind == "attack" and ts15.rules == built.cardset.cards["ts15"]["text"]
    assert ts15.wording == {"ja": "ヒットしたら1枚引く。", "en": "Draw a card when it hits."}
    assert ts15.view == game.cardset.cards["ts15"]
    assert {f.key for f in ts15.facts} >= {"speed", "reach", "attack", "guard", "posture", "unguardable", "cost",
                                           "gain", "gc", "hit.0.draw", "icon", "character"}
    tsubaki = entries["tsubaki"]
    assert tsubaki.rules == character_text({"draw_limit": 3}) == tsubaki.view["text"]
    assert tsubaki.wording == {"ja": "このセットのツバキは3枚までドローできる。", "en": "In this set Tsubaki draws up to 3."}
    assert not entries["ts02"].own and entries["ts02"].wording is None
    deck = entries["gou_set"]
    assert deck.deck and deck.rules["en"].startswith("Character: Gou Iwakura. Iron Palm ×3")
    assert deck.rules["ja"].startswith("キャラクター：岩倉ゴウ。鉄掌×3、")
    assert {e.kind for e in entries.values()} == {"character", "attack", "support", "deck"}


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_a_page_of_the_set_is_drawn_as_the_hands_are(locale):
    from render.card_pages import page_png

    built = clean_set()
    entries = [e for e in ad.entries(built.cardset, built.own, built.content.wording) if e.own]
    png = page_png("maken", entries[:6], title="Test set", page=1, pages=2, locale=locale)
    assert png[:4] == b"\x89PNG"


def test_the_hand_picture_draws_its_cards_with_sheet_card():
    from render import maken as pic
    from render.base import make_ctx

    ctx = make_ctx("maken", "ja", None, None, None)
    card = ad._shipped().cards["ts05"]
    assert pic.hand_card(card, ctx) == pic.sheet_card(card, ctx)
    view = {"seat": 0, "hand": ["ts05"], "cards": {"ts05": card}}
    assert pic._hand_sections(view, ctx)[0].cards == [pic.sheet_card(card, ctx)]
    assert pic.sheet_card(dict(ad._shipped().characters["gou"]), ctx).chip == "キャラクター"


# --------------------------------------------------------------------------- the set's engine plays

def _ai_match(game, decks: list[str], seed: int) -> tuple[dict, int, object]:
    import ai

    state = game.new_match(players=2, seed=seed, options={"decks": decks, "first": 0})
    n = 0
    while game.outcome(state) is None and game.to_act(state) and n < 2000:
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        command = ai.choose("maken", game.view(state, seat), legal, seat, level="normal", seed=seed * 7919 + n,
                            game=game)
        state = game.apply(state, seat, command)
        n += 1
    return game.outcome(state), n, state


def test_a_full_match_is_played_with_the_sets_engine_and_its_decks_by_the_ai_from_views():
    """"The bot then plays matches with the set's cards (the engine built from the set)"; the AI
    sees views only and samples the rest with the set's ``determinize`` (``ai.choose(game=…)``)."""
    built = clean_set()
    game = ad.engine(built.cardset, built.own)
    decks = ad.deck_ids(built.cardset, built.own)
    outcome, n, state = _ai_match(game, decks, 5)
    assert outcome is not None and outcome["reason"] in ("lp", "turn_limit") and n > 20
    assert state.d["cards"]["ts15"]["text"] == built.cardset.cards["ts15"]["text"]
    assert state.d["cards"]["tsubaki"]["draw_limit"] == 3 and state.d["edition"] == ad.newest_edition()
    again, m, _ = _ai_match(game, decks, 5)
    assert (again, m) == (outcome, n)                     # seeded: the same match
    # determinize samples the set's own cards for a seat's hidden piles
    view = game.view(state, 0)
    sampled = game.determinize(view, 0, __import__("random").Random(1))
    assert set(sampled.d["stamina"][1]) <= set(built.cardset.pool("gou"))


def test_the_sets_decks_are_balance_tested_by_self_play_with_its_engine():
    """"balance-tests its ready-made decks by AI self-play" (balance/sets.py plays the set's own
    decks against each other with the set's engine)."""
    from balance.sets import make_plan, play_chunk

    built = clean_set()
    plan = make_plan(ad.deck_ids(built.cardset, built.own), per_order=1, seed=3)
    assert plan["decks"] == ["tsubaki_set", "gou_set"] and len(plan["matches"]) == 2
    results, _cpu = play_chunk("maken", ad.engine(built.cardset, built.own), plan, plan["matches"][:1])
    assert results[0]["r"] in ("lp", "turn_limit") and results[0]["w"]


def test_a_set_with_a_character_of_its_own_plays_to_the_end():
    built = build(folder(DOCS, "maken_*.csv"), "alone")
    game = ad.engine(built.cardset, built.own)
    outcome, n, state = _ai_match(game, ad.deck_ids(built.cardset, built.own), 2)
    assert outcome is not None and state.d["chars"] == ["hayate", "hayate"]
    assert state.d["cards"]["hayate"]["text"] == character_text({"draw_limit": 2})


# --------------------------------------------------------------------------- the layouts and their docs

def test_the_docs_describe_every_column_and_every_effect():
    doc = (DOCS / "maken.md").read_text(encoding="utf-8")
    assert "../shared" not in doc and "shared/" not in doc
    for lay in ad.layouts:
        for col in lay.columns:
            assert f"`{col.name}`" in doc, col.name
    for word in ("draw", "gauge", "power", "recover", "if_gauge", "stand", "crouch", "air", "dust", "hand",
                 "stamina", "only", "able", "none", "before", "after"):
        assert f"`{word}" in doc, word
    for name in ("maken_characters.csv", "maken_attacks.csv", "maken_supports.csv", "maken_decks.csv"):
        assert name in doc


def test_a_layout_is_told_by_its_header():
    for lay in ad.layouts:
        header = ",".join(lay.names)
        (up,), _ = read_upload("x.csv", (header + "\n").encode())
        got, bad = cl.detect(up, ad.layouts)
        assert got is lay and bad is None, lay.kind
