"""Art of War server card sets (issue 36): KINGs and ready-made decks uploaded as CSV or JSON,
every problem named where it is, the rulebook's basic units never a set's, a KING's rules text
generated from its numbers, the set's engine, pictures, export and diff
(``data/card_sets/art_of_war.py``, ``rules/art_of_war/cards.py``, ``docs/card_sets/art_of_war.md``)."""
from __future__ import annotations

import csv
import io
import json
import random
import re
from pathlib import Path

import pytest

import ai
from data import i18n
from data.card_sets import diff, games
from data.card_sets.build import build_set, open_content
from data.card_sets.export import export_files
from data.card_sets.upload import read_upload
from rules.art_of_war.cards import BASIC_IDS, CardDataError, build_cardset, king_text, range_words

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs/card_sets"
DATA = ROOT / "tests/data/card_sets/art_of_war"
AD = games.adapter("art_of_war")
MISTAKES = json.loads((DATA / "mistakes.json").read_text(encoding="utf-8"))
KING_HEAD = "id,name_ja,name_en,range,attack,defence,text_ja,text_en\n"
DECK_HEAD = "id,name_ja,name_en,king,units\n"


def uploads(folder: Path, pattern: str = "*.csv", edits: dict | None = None) -> tuple[list, list]:
    files, problems = [], []
    for path in sorted(folder.glob(pattern)):
        text = path.read_text(encoding="utf-8")
        if edits and path.name in edits:
            rows = list(csv.reader(io.StringIO(text)))
            for row, column, value in edits[path.name]:
                rows[row - 1][rows[0].index(column)] = value
            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerows(rows)
            text = out.getvalue()
        got, bad = read_upload(path.name, text.encode("utf-8"))
        files += got
        problems += bad
    return files, problems


def build(files_problems: tuple[list, list], mode: str = "extend"):
    files, problems = files_problems
    return build_set("art_of_war", files, mode, read_problems=problems)


def upload(name: str, text: str, mode: str = "extend"):
    return build(read_upload(name, text.encode("utf-8")), mode)


def spots(built) -> set[tuple]:
    return {(p.file, p.row, p.field, p.key) for p in built.problems}


def test_the_example_csvs_of_the_docs_load_in_both_modes():
    for mode in ("extend", "alone"):
        built = build(uploads(DOCS, "art_of_war_*.csv"), mode)
        assert built.ok, [p.render() for p in built.problems]
        assert built.counts["cards"] == 2 and built.counts["decks"] == 2
        assert AD.deck_ids(built.cardset, built.own) == ["owl_watch", "bear_wall"]


def test_the_docs_worked_example_is_what_the_bot_says():
    page = (DOCS / "art_of_war.md").read_text(encoding="utf-8")
    built = build(uploads(DOCS, "art_of_war_kings.csv",
                          {"art_of_war_kings.csv": [[2, "attack", "12"], [3, "defence", "2-2"]]}))
    said = [p.render("en") for p in built.problems] + [p.render("ja") for p in built.problems]
    assert said[0] in page and said[3] in page, said


def test_the_test_set_loads_and_replaces_a_shipped_king_by_id():
    built = build(uploads(DATA))
    assert built.ok, [p.render() for p in built.problems]
    assert built.counts == {"cards": 3, "decks": 2, "replaced": 1}
    # "a KING or deck of the set replaces the shipped one with the same id"
    assert built.cardset.kings["king_iron"]["defence"] == [4, 3]
    assert "iron_wall" in built.cardset.decks      # the shipped decks stay, now with the set's IRON KING
    # one language is enough: the other shows the same words, marked untranslated
    assert built.cardset.kings["king_hawk"]["name"] == {"ja": "鷹王", "en": "鷹王"}
    assert built.content.untranslated["king_hawk"] == ["name:en", "text:en"]


def test_the_mistakes_file_makes_exactly_its_two_problems():
    built = build(uploads(DATA, edits={MISTAKES["file"]: MISTAKES["edits"]}))
    assert [(p.row, p.field) for p in built.problems] == [tuple(x) for x in MISTAKES["expect"]]
    assert built.content is None


def test_a_csv_with_several_mistakes_reports_every_one_with_its_row_and_column_in_both_languages():
    kings = KING_HEAD + "\n".join([
        "king_a,A王,A KING,..x../...../.....,10,3/2,,",           # attack over 9
        "king_b,B王,B KING,..x../...../.....,2,0/2,,",            # defence 0
        "king_c,C王,C KING,..x/...../.....,2,3/2,,",              # a row of 3 squares
        "King D,D王,D KING,..x../...../.....,2,3/2,,",            # an id with capitals and a space
        ",,,..x../...../.....,2,3/2,,",                           # no id, no name
    ]) + "\n"
    decks = DECK_HEAD + "\n".join([
        "d1,D1,D1,king_a,soldier*20",             # its KING has a problem of its own: not blamed
        "d2,D2,D2,king_iron,soldier*19",          # 19 units
        "d3,D3,D3,dragon,soldier*20",             # no such KING
        "d4,D4,D4,king_iron,soldier*10 knight*10",  # no such unit
    ]) + "\n"
    files, problems = read_upload("kings.csv", kings.encode())
    f2, p2 = read_upload("decks.csv", decks.encode("utf-8-sig"))
    built = build((files + f2, problems + p2))
    got = sorted((p.file, p.row, p.field) for p in built.problems)
    assert got == sorted([("kings.csv", 2, "attack"), ("kings.csv", 3, "defence"), ("kings.csv", 4, "range"),
                          ("kings.csv", 5, "id"), ("kings.csv", 6, "id"), ("kings.csv", 6, "name_ja"),
                          ("decks.csv", 3, "units"), ("decks.csv", 4, "king"), ("decks.csv", 5, "units"),
                          ("decks.csv", 5, "units")]), [p.render() for p in built.problems]
    for p in built.problems:
        en, ja = p.render("en"), p.render("ja")
        assert "cardcheck." not in en + ja, en
        assert not re.search(r"[A-Za-z]{4,} [a-z]{3,} [a-z]{3,}", re.sub(r"“[^”]*”|「[^」]*」|`[^`]*`", "", ja)), ja


def test_the_rulebooks_basic_units_are_never_a_sets():
    """「KING」カード1枚＋5種類のカード: the five basic units are printed by the rulebook."""
    built = upload("set.json", json.dumps({"units": [{"id": "soldier"}]}))
    assert any(p.key == "cardcheck.fixed_card" for p in built.problems)
    built = upload("kings.csv", KING_HEAD + "soldier,兵,SOLDIER,..x../...../.....,2,3/2,,\n")
    assert ("kings.csv", 2, "id", "cardcheck.fixed_card") in spots(built)


def test_an_editions_block_is_refused():
    built = upload("set.json", json.dumps({"editions": {"4": {"kings": {"king_iron": {"attack": 9}}}}}))
    assert [p.key for p in built.problems] == ["cardcheck.no_editions"]


def test_a_set_that_stands_alone_needs_two_ready_made_decks():
    kings = (DATA / "kings.csv").read_text(encoding="utf-8")
    one_deck = DECK_HEAD + "owl_watch,梟,Owl,king_owl,soldier*4 archer*4 priest*4 guardian*4 wizard*4\n"
    files, _ = read_upload("kings.csv", kings.encode())
    f2, _ = read_upload("decks.csv", one_deck.encode())
    built = build((files + f2, []), "alone")
    assert [p.key for p in built.problems] == ["cardcheck.too_few_decks"]
    assert built.problems[0].render("ja") == "項目「decks」：単独のセットには構築済みデッキが2個以上必要です（1個です）。"
    assert build((files + f2, []), "extend").ok          # beside the shipped decks it is fine


def test_json_and_csv_uploads_of_the_same_cards_are_one_version_and_export_reads_back():
    csv_built = build(uploads(DATA))
    files = export_files(csv_built.content, "Playtest")
    assert sorted(files) == ["Playtest.json", "Playtest_deck.csv", "Playtest_king.csv"]
    as_json = upload("Playtest.json", files["Playtest.json"].decode("utf-8"))
    assert as_json.ok and as_json.content.digest() == csv_built.content.digest()
    back = []
    for name in ("Playtest_king.csv", "Playtest_deck.csv"):
        back += read_upload(name, files[name])[0]
    again = build((back, []))
    assert again.ok and again.content.digest() == csv_built.content.digest()
    assert again.content.untranslated == csv_built.content.untranslated
    # the exported CSV is the project's: UTF-8 with a byte-order mark
    assert files["Playtest_king.csv"].startswith(b"\xef\xbb\xbf")


def test_every_shipped_king_and_deck_round_trips_through_the_csv_layouts():
    from data.card_sets.export import layout_rows
    from data.card_sets.model import SetContent

    shipped = AD.shipped_files(None)
    own = [(label, {k: v for k, v in data.items() if k != "units"}) for label, data in shipped]
    content = SetContent("art_of_war", "alone", None, [list(f) for f in own])
    from data.card_sets.export import combined
    data = combined(content)
    files = []
    for layout in AD.layouts:
        header, rows = layout_rows(content, layout, data)
        out = io.StringIO()
        csv.writer(out).writerows([header] + [["" if v is None else v for v in r] for r in rows])
        files += read_upload(f"{layout.kind}.csv", out.getvalue().encode())[0]
    built = build((files, []), "alone")
    assert built.ok, [p.render() for p in built.problems]
    cs = AD.validate(AD.base_files("extend", None))[0]

    def same(kings: dict) -> dict:      # a range is a set of squares: the CSV writes it row by row
        return {k: {**c, "range": sorted(map(tuple, c["range"]))} for k, c in kings.items()}
    assert same(built.cardset.kings) == same(cs.kings) and built.cardset.decks == cs.decks


def test_a_changed_number_is_named_in_words_in_the_diff():
    row, column, value, words = MISTAKES["change"]
    v1 = build(uploads(DATA))
    v2 = build(uploads(DATA, edits={MISTAKES["file"]: [[row, column, value]]}))
    lines = diff.render(diff.changes(AD.entries(v1.cardset, v1.own), AD.entries(v2.cardset, v2.own)), "en")
    assert lines == ["OWL KING: attack 2 → 3"], lines
    ja = diff.render(diff.changes(AD.entries(v1.cardset, v1.own), AD.entries(v2.cardset, v2.own)), "ja")
    assert ja == ["梟王：攻撃力 2 → 3"], ja


def test_a_kings_rules_text_is_generated_from_its_numbers():
    """A card's data is its text: range, attack, defence and the KING's any rear support (万能)."""
    text = king_text({"range": [[1, -1], [1, 0], [1, 1], [2, 0]], "attack": "hand", "defence": [4, 3]})
    assert text["en"] == ("Attack your hand size, defence 4 upright / 3 sideways. Attacks 1 ahead: left, centre, "
                          "right; 2 ahead: centre. Rear support: declare any rear support.")
    assert text["ja"] == ("攻撃力手札の枚数、防御力 縦4／横3。攻撃範囲：1マス先（左・正面・右）、2マス先（正面）。"
                          "後方支援：使用したい後方支援を宣言して発動できる。")
    assert range_words([[3, 0], [1, -2]])["en"] == "1 ahead: 2 left; 3 ahead: centre"
    built = build(uploads(DATA))
    engine = AD.engine(built.cardset, built.own)
    assert engine.cardset.kings["king_owl"]["text"] == king_text(built.cardset.kings["king_owl"])
    # the set's own words are kept beside it, the shipped units keep their printed text
    entries = {e.id: e for e in AD.entries(built.cardset, built.own)}
    assert entries["king_owl"].wording["en"] == "A king who sees through the night."
    assert entries["soldier"].own is False and "hand size" in entries["soldier"].rules["en"]


def test_the_sets_own_decks_are_the_seats_defaults():
    built = build(uploads(DATA))
    engine = AD.engine(built.cardset, built.own)
    assert list(engine.decks.ready())[:2] == ["owl_watch", "hawk_dive"]
    assert engine.option_schema()["decks"]["default"] == ["owl_watch", "hawk_dive"]


def test_a_full_match_plays_with_the_sets_engine_and_its_decks_from_views():
    built = build(uploads(DATA))
    engine = AD.engine(open_content(built.content).cardset, built.own)
    state = engine.new_match(players=2, seed=5, options={"decks": ["owl_watch", "hawk_dive"]})
    assert engine.view(state, 0)["kings"][0]["name"]["en"] == "OWL KING"
    rng = random.Random(5)
    for _ in range(2000):
        if engine.outcome(state) is not None:
            break
        seat = engine.to_act(state)[0]
        legal = engine.legal_commands(state, seat)
        command = ai.choose("art_of_war", engine.view(state, seat), legal, seat, level="normal",
                            seed=rng.randrange(1 << 30), game=engine)
        state = engine.apply(state, seat, command)
    assert engine.outcome(state) is not None
    assert engine.load(engine.dump(state)).kings == state.kings if hasattr(state, "kings") else True


def test_collect_mode_reports_every_problem_and_plain_mode_raises_the_first():
    bad = [("a.json", {"kings": [{"id": "k1", "range": [[5, 0]], "attack": 2, "defence": [3, 2],
                                  "name": {"en": "A", "ja": "A"}, "text": {"en": "a", "ja": "a"}},
                                 {"id": "k2", "range": [[1, 0]], "attack": "x", "defence": [3, 2],
                                  "name": {"en": "B", "ja": "B"}, "text": {"en": "b", "ja": "b"}}]})]
    base = AD.base_files("alone", None)
    problems: list = []
    assert build_cardset(base + bad, problems=problems) is None
    assert [(e.card, e.key) for e in problems] == [("k1", "aow_offset"), ("k2", "aow_attack")]
    with pytest.raises(CardDataError, match="k1"):
        build_cardset(base + bad)
    for key in {e.key for e in problems}:
        assert i18n.has(f"cardcheck.{key}") and f"cardcheck.{key}" in i18n.catalog("ja")


def test_a_page_of_the_set_is_drawn_600_px_wide_with_every_text_inside(tmp_path):
    from render.card_pages import page_image

    built = build(uploads(DATA))
    entries = AD.entries(built.cardset, built.own)
    for locale in ("en", "ja"):
        img = page_image("art_of_war", entries[:6], title="Playtest v1", page=1, pages=2, locale=locale)
        assert img.width == 600 and img.height <= 2 * 600 + 200
    assert all(u in BASIC_IDS for u in [e.id for e in entries if e.kind == "unit"])
