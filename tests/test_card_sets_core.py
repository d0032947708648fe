"""The game-agnostic part of server card sets (issue 36): reading an upload within its limits,
CSV layouts and their cells, problems named where they are in both languages, a version named
by what it holds, export and diff.  The games' own parts: tests/test_card_sets_<game>.py."""
from __future__ import annotations

import io
import json
import zipfile

import pytest

from data.card_sets import csv_layout as cl
from data.card_sets import diff
from data.card_sets.build import build_set
from data.card_sets.model import Entry, Fact, SetContent
from data.card_sets.problems import Problem
from data.card_sets.upload import MAX_FILE, MAX_FILES, MAX_UNPACKED, read_upload, unescape

KINGS = "id,name_ja,name_en,range,attack,defence\nking_owl,梟王,OWL KING,..x../.x.x./x...x,2,3/2\n"


def _zip(members: dict[str, bytes], *, compress: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compress) as z:
        for name, body in members.items():
            z.writestr(name, body)
    return buf.getvalue()


def keys(problems: list) -> list[str]:
    return [p.key for p in problems]


# --------------------------------------------------------------------------- limits and encodings
def test_a_file_over_512_kib_is_refused_before_it_is_read():
    """"a file at most 512 KiB" — named with its size and the limit."""
    files, problems = read_upload("big.csv", b"id\n" + b"a" * MAX_FILE)
    assert files == [] and keys(problems) == ["cardcheck.file_size"]
    assert "512 KiB" in problems[0].render("en")


def test_only_plain_json_csv_or_zip_file_names_are_taken():
    for name, key in (("../x.csv", "cardcheck.file_name"), (".hidden.csv", "cardcheck.file_name"),
                      ("cards.xlsx", "cardcheck.file_type"), ("a/b.json", "cardcheck.file_name")):
        assert keys(read_upload(name, b"{}")[1]) == [key], name


def test_utf8_with_or_without_a_bom_and_semicolon_separators_are_read():
    for data in (KINGS.encode("utf-8"), KINGS.encode("utf-8-sig"), KINGS.replace(",", ";").encode("utf-8")):
        files, problems = read_upload("kings.csv", data)
        assert problems == [] and files[0].rows[0].cells["name_ja"] == "梟王"


def test_invalid_utf8_and_nul_bytes_are_refused_naming_the_line():
    files, problems = read_upload("k.csv", b"id,name_ja\nok,\x82\xa0\n")        # Shift-JIS
    assert keys(problems) == ["cardcheck.utf8"] and problems[0].params["line"] == 2
    assert "CSV UTF-8" in problems[0].render("en")
    assert keys(read_upload("k.csv", b"id\n\x00\n")[1]) == ["cardcheck.nul"]


def test_bad_json_is_refused_naming_line_and_column_and_nan_and_deep_nesting_too():
    problems = read_upload("set.json", b'{\n "cards": [1,,]\n}')[1]
    assert keys(problems) == ["cardcheck.json"] and problems[0].params["line"] == 2
    assert keys(read_upload("set.json", b'{"a": NaN}')[1]) == ["cardcheck.json_number"]
    assert keys(read_upload("set.json", (b"[" * 40) + (b"]" * 40))[1]) == ["cardcheck.json_deep"]


def test_a_zip_holds_at_most_20_plain_files_and_2_mib_unpacked():
    """"a zip at most 2 MiB unpacked, at most 20 files, plain file names only"."""
    many = _zip({f"f{i}.csv": b"id\n" for i in range(MAX_FILES + 1)})
    assert keys(read_upload("set.zip", many)[1]) == ["cardcheck.zip_files"]
    nested = _zip({"dir/kings.csv": KINGS.encode()})
    assert keys(read_upload("set.zip", nested)[1]) == ["cardcheck.zip_member_name"]
    # a zip bomb: each member under 512 KiB packed tiny, together over 2 MiB unpacked
    bomb = _zip({f"f{i}.csv": b"id\n" + b"a" * (MAX_FILE - 10) for i in range(6)})
    assert len(bomb) < 64 * 1024
    assert "cardcheck.zip_unpacked" in keys(read_upload("bomb.zip", bomb)[1])
    assert keys(read_upload("x.zip", b"PK\x03\x04 not really")[1]) == ["cardcheck.zip_bad"]
    assert keys(read_upload("x.zip", b"x" * (MAX_UNPACKED + 1))[1]) == ["cardcheck.file_size"]
    # a Mac's resource forks beside the files are not the designer's: skipped
    files, problems = read_upload("set.zip", _zip({"kings.csv": KINGS.encode(), "__MACOSX/._kings.csv": b"\x00"}))
    assert problems == [] and [f.name for f in files] == ["kings.csv"]


def test_a_member_that_lies_about_its_size_is_read_only_up_to_the_limit():
    data = bytearray(_zip({"kings.csv": b"id\n" + b"a" * (MAX_FILE + 100)}, compress=zipfile.ZIP_DEFLATED))
    # the central directory's uncompressed size patched down to 10 bytes: the reader still stops
    central = data.rfind(b"PK\x01\x02")
    data[central + 24:central + 28] = (10).to_bytes(4, "little")
    files, problems = read_upload("lie.zip", bytes(data))
    assert files == [] and problems and all(p.key.startswith("cardcheck.") for p in problems)


def test_an_exported_cell_escaped_against_formulas_reads_back_as_it_was():
    assert unescape("'=SUM(A1)") == "=SUM(A1)" and unescape("'plain") == "'plain" and unescape("-1") == "-1"


# --------------------------------------------------------------------------- cells and layouts
def test_cells_parse_what_a_spreadsheet_writes_and_say_what_is_allowed():
    assert cl.integer(0, 9).parse(" ３ ") == 3
    with pytest.raises(cl.CellError) as e:
        cl.integer(0, 9).parse("12")
    assert e.value.key == "int_range" and e.value.params == {"value": 12, "low": 0, "high": 9}
    assert cl.choice(("white", "blue")).parse("Blue") == "blue"
    assert cl.boolean().parse("はい") is True and cl.boolean().parse("") is False
    assert cl.counts().parse("ac01*3, ac02 x2; ac05 box2:2") == {"ac01": 3, "ac02": 2, "ac05": 1, "box2": 2}
    assert cl.counts().write({"ac01": 3, "ac05": 1}) == "ac01*3 ac05"
    with pytest.raises(cl.CellError) as e:
        cl.text(5).parse("toolong")
    assert e.value.key == "too_long"


def test_the_effects_language_reads_positional_and_named_parameters_and_names_an_unknown_effect():
    eff = cl.calls({"draw": [("count", cl.integer(1, 5))], "push": [("distance", cl.integer(1, 4))]},
                   extra={"if": cl.choice(("hit_avi",))})
    assert eff.parse("draw 2; push distance=1 if=hit_avi") == [
        {"do": "draw", "count": 2}, {"do": "push", "distance": 1, "if": "hit_avi"}]
    assert eff.parse(eff.write([{"do": "push", "distance": 3, "if": "hit_avi"}])) == [
        {"do": "push", "distance": 3, "if": "hit_avi"}]
    for text, key in (("heal 3", "unknown_effect"), ("draw 9", "int_range"), ("draw 1 2", "too_many_params"),
                      ("draw size=1", "unknown_param")):
        with pytest.raises(cl.CellError) as e:
            eff.parse(text)
        assert e.value.key == key, text
    with pytest.raises(cl.CellError) as e:
        eff.parse("draw 1; heal 3")
    assert e.value.params["name"] == "heal" and e.value.detail == "#2"


def test_a_header_names_its_layout_or_the_problem_says_which_columns_tell_them():
    from data.card_sets import games

    layouts = games.adapter("art_of_war").layouts
    files, _ = read_upload("k.csv", KINGS.encode())
    assert cl.detect(files[0], layouts)[0].kind == "king"
    files, _ = read_upload("k.csv", (KINGS.replace("defence", "defense")).encode())
    lay, bad = cl.detect(files[0], layouts)
    assert lay is None and bad.key == "cardcheck.csv_layout"
    files, _ = read_upload("k.csv", KINGS.replace("defence\n", "defence,colour\n").replace("3/2\n", "3/2,red\n").encode())
    lay, bad = cl.detect(files[0], layouts)
    assert lay is None and bad.key == "cardcheck.csv_unknown_columns" and bad.params["columns"] == ["colour"]


# --------------------------------------------------------------------------- problems and versions
def test_a_problem_names_file_row_card_and_column_in_the_readers_language():
    p = Problem("kings.csv", 3, "king_owl", "attack", "cardcheck.int_range", {"low": 0, "high": 9, "value": 12},
                column=True)
    assert p.render("en") == "kings.csv, row 3, card “king_owl”, column “attack”: must be a whole number from 0 to 9, not 12."
    assert p.render("ja") == "kings.csv・3行目・カード「king_owl」・列「attack」：0〜9の整数にしてください（12になっています）。"
    deck = Problem("set.json", 2, "deck 'owl'", "units", "cardcheck.required", {})
    assert deck.render("en") == "set.json, row 2, deck “owl”, field “units”: is required."


def test_every_problem_of_an_upload_is_reported_at_once_and_nothing_is_kept():
    bad = KINGS + "king_two,二王,TWO,..x../...../.....,99,3/2\nking_three,三王,THREE,bad,2,0/0\n"
    built = build_set("art_of_war", read_upload("kings.csv", bad.encode())[0], "extend")
    assert built.content is None
    assert [(p.row, p.field) for p in built.problems] == [(3, "attack"), (4, "defence"), (4, "range")]


def test_a_version_is_named_by_what_it_holds_not_by_how_its_files_are_named_or_packed():
    a = SetContent("art_of_war", "extend", 3, [["k.csv", {"kings": [{"id": "k1"}]}], ["d.csv", {"decks": []}]])
    b = SetContent("art_of_war", "extend", 3, [["all.json", {"comment": "x", "kings": [{"id": "k1"}]}]])
    assert a.digest() == b.digest()
    assert SetContent("art_of_war", "alone", 3, a.files).digest() != a.digest()
    with pytest.raises(ValueError):
        SetContent.from_json(json.dumps({"format": "cardset/1", "game": "art_of_war", "mode": "sideways"}))
    with pytest.raises(ValueError):
        SetContent.from_json('{"format": "cardset/1", "game": "x", "mode": "extend", "files": [["a", []]]}')


def test_the_diff_says_each_change_in_words():
    def card(**facts):
        return Entry("k1", "king", {"en": "OWL", "ja": "梟"}, {"en": "", "ja": ""},
                     [Fact(k, {"en": k, "ja": k}, {"en": str(v), "ja": str(v)}) for k, v in facts.items()])
    old = [card(attack=2, range="1 ahead"), Entry("k2", "king", {"en": "GONE", "ja": "消"}, {}, [])]
    new = [card(attack=3, defence="3/2"), Entry("d1", "deck", {"en": "Owls", "ja": "梟"}, {}, [], deck=True)]
    assert diff.render(diff.changes(old, new), "en") == [
        "OWL: attack 2 → 3", "OWL: defence 3/2 (new)", "OWL: no more range (1 ahead)", "New deck: Owls",
        "Removed card: GONE"]


def test_a_name_or_text_that_would_mention_someone_is_stored_neutralised():
    """"names and texts shown with mentions neutralised (no @everyone from a card name)"."""
    rows = KINGS.replace("梟王,OWL KING", "@everyone,<@123> @here") + ""
    built = build_set("art_of_war", read_upload("kings.csv", rows.encode())[0], "extend")
    assert built.ok
    king = built.cardset.kings["king_owl"]
    assert king["name"] == {"ja": "@\u200beveryone", "en": "<\u200b@123> @\u200bhere"}
    assert "@everyone" not in king["name"]["ja"] and "<@" not in king["name"]["en"]
