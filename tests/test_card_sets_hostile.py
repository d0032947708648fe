"""Issue 45: "A hostile designer cannot crash, stall or bloat the bot with a card-set upload".

One test (or a few) per finding of the upload path — crashes (finding 1), quadratic work
(finding 2), memory (finding 3), the mention neutraliser skipping Battle Logic Square's type
names (finding 5) — and the checks the issue asks for: every decoder error of every zip member
format a located problem, text NFC and free of lone surrogates, control, direction and
invisible characters before anything is hashed, limits checked as early as the data allows,
one upload within 64 MiB of Python allocations.  The 20,000-upload fuzz is
tests/test_card_sets_hostile_fuzz.py (slow); the corpus of hostile shapes is
:mod:`bench.hostile_uploads`, which ``python -m bench --cards`` measures too.

Work is measured by counting the lines the upload path runs (``sys.settrace``), never by the
clock; memory by tracemalloc's peak.
"""
from __future__ import annotations

import json
import sys
import tracemalloc
import unicodedata
import zipfile
from pathlib import Path

import pytest

from bench import hostile_uploads as hostile
from data.card_sets import build as build_mod
from data.card_sets import games
from data.card_sets.build import MAX_DECKS, MAX_ENTRIES, build_set, neutral, text_problem
from data.card_sets.csv_layout import read_rows
from data.card_sets.export import export_files
from data.card_sets.model import MAX_OWN_CARDS, SetContent
from data.card_sets.upload import (MAX_COLUMNS, MAX_JSON_KEYS, MAX_JSON_VALUES, MAX_PROBLEMS, MAX_TOTAL_ROWS,
                                   read_upload)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "card_sets"
BUDGET = 64 * 2 ** 20          # "a hard memory budget for one upload (say 64 MiB)"
KINGS = (DATA / "art_of_war" / "kings.csv").read_bytes()


def keys(problems: list) -> list[str]:
    return [p.key for p in problems]


def check(game: str, name: str, body: bytes, mode: str = "extend"):
    files, read = read_upload(name, body)
    return build_set(game, files, mode, read_problems=read)


def peak_of(shape: hostile.Shape) -> tuple[float, dict]:
    """The peak of Python allocations while ``shape`` is read and checked, in bytes."""
    got = hostile.measure(shape, memory=True)
    return got["mib"] * 2 ** 20, got


def lines_run(fn, *files: str) -> int:
    """How many lines of ``files`` (module file names) run while ``fn()`` runs: the work done,
    counted instead of timed."""
    count = 0
    wanted = tuple(files)

    def tracer(frame, event, arg):
        nonlocal count
        if frame.f_code.co_filename.endswith(wanted):
            if event == "line":
                count += 1
            return tracer
        return None
    sys.settrace(tracer)
    try:
        fn()
    finally:
        sys.settrace(None)
    return count


def shape(label: str, game: str | None = None) -> hostile.Shape:
    return next(s for s in hostile.shapes() if s.label == label and (game is None or s.game == game))


# --------------------------------------------------------------------------- finding 1: crashes
@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_a_damaged_zip_member_of_every_method_is_a_located_problem(method):
    """Issue 45, finding 1: "a zip member with corrupted deflate or LZMA data raises `zlib.error` /
    `LZMAError` out of `data/card_sets/upload.py` (bzip2 is handled)" — every decoder's error is
    the located problem ``zip_member_bad`` naming the member, and nothing escapes."""
    damaged = hostile._damaged({"kings.csv": KINGS * 20}, method)
    files, problems = read_upload("set.zip", damaged)
    assert files == [] and keys(problems) == ["cardcheck.zip_member_bad"]
    assert problems[0].file == "kings.csv"
    built = build_set("art_of_war", files, read_problems=problems)
    assert built.content is None and keys(built.problems) == ["cardcheck.zip_member_bad"]


def test_a_wrong_crc_an_encrypted_member_an_unknown_method_and_broken_lzma_properties_are_refused_too():
    """Issue 45, "every decoder error of every member format answered as a located problem":
    a CRC that does not match, an encrypted member, a method no reader shares, LZMA properties
    out of range — each ``zip_member_bad``, naming the member."""
    stored = hostile.zip_of({"kings.csv": KINGS}, zipfile.ZIP_STORED)
    encrypted = bytearray(stored)
    for sig, off in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = encrypted.find(sig)
        encrypted[at + off] |= 0x1
    unknown = bytearray(stored)
    for sig, off in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        at = unknown.find(sig)
        unknown[at + off:at + off + 2] = (99).to_bytes(2, "little")
    lzma_zip = bytearray(hostile.zip_of({"kings.csv": KINGS}, zipfile.ZIP_LZMA))
    props = lzma_zip.find(b"kings.csv") + len(b"kings.csv") + 4
    lzma_zip[props] = 250                       # lc/lp/pb past what LZMA allows
    for body in (hostile._wrong_crc({"kings.csv": KINGS}), bytes(encrypted), bytes(unknown), bytes(lzma_zip)):
        files, problems = read_upload("set.zip", body)
        assert files == [] and keys(problems) == ["cardcheck.zip_member_bad"], problems
        assert problems[0].file == "kings.csv"


def test_an_lzma_member_asking_for_a_4_gib_dictionary_is_read_within_the_budget():
    """Issue 45, "a hard memory budget for one upload": a zip's LZMA member names its own
    dictionary size; one that asks for 4 GiB was allocated as asked (4 GiB of Python
    allocations).  The member unpacks to at most 512 KiB, so a 1 MiB dictionary reads it the same."""
    body = hostile._lzma_dictionary({"kings.csv": KINGS})
    tracemalloc.start()
    try:
        files, problems = read_upload("set.zip", body)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert problems == [] and files[0].rows[0].cells["id"] == "king_owl"
    assert peak < 8 * 2 ** 20, peak


@pytest.mark.parametrize("method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA, zipfile.ZIP_DEFLATED])
def test_a_zip_bomb_of_every_method_is_never_unpacked_past_the_limit(method):
    """Issue 45, "every upload path bounded ... a hard memory budget for one upload (say 64 MiB)":
    Python's zipfile unpacks a bzip2 or LZMA member's whole chunk at once, so 96 MiB of zeros
    said to be 100 bytes (bzip2 packs them in under 200 bytes) came out whole; here every method
    is unpacked with a limit and the member refused as too big."""
    zeros = bytes(96 * 2 ** 20) if method == zipfile.ZIP_BZIP2 else bytes(8 * 2 ** 20)
    bomb = hostile.lie_about_sizes(hostile.zip_of({"kings.csv": zeros}, method))
    tracemalloc.start()
    try:
        files, problems = read_upload("bomb.zip", bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert files == [] and keys(problems) == ["cardcheck.file_size"] and problems[0].file == "kings.csv"
    assert peak < 8 * 2 ** 20, peak


def test_a_lone_surrogate_is_a_located_problem_found_before_anything_is_hashed():
    """Issue 45, finding 1: "a JSON string with a lone surrogate (`"A\\ud800B"`) is accepted and
    then crashes `SetContent.digest` with `UnicodeEncodeError`" — in a value, a key or an
    effect's name, it is the problem ``surrogate`` naming the file and the field, and nothing
    is built (so nothing is hashed)."""
    for label, field in (("JSON: a lone surrogate in a name", "kings[0].name.en"),
                         ("JSON: a lone surrogate in a key", "cards[0].i\ufffdd"),
                         ("JSON: a lone surrogate in an effect's name", None)):
        s = shape(label)
        files, problems = read_upload(s.filename, s.body)
        assert files == [] and keys(problems) == ["cardcheck.surrogate"], (label, problems)
        p = problems[0]
        assert p.file == s.filename and p.field and p.params["char"].startswith("U+D")
        if field:
            assert p.field == field
        else:
            assert p.field.startswith("cards[") and p.field.endswith(".do")
        for locale in ("en", "ja"):
            p.render(locale).encode("utf-8")       # the problem itself can be written to problems.txt
        assert build_set(s.game, files, read_problems=problems).content is None


def test_a_surrogate_pair_is_one_character_and_is_taken():
    """Only a *lone* surrogate is broken: ``"\\ud83c\\udccf"`` is 🃏 and reads as it."""
    body = hostile.with_name("art_of_war", "OWL").replace(b'"OWL"', b'"OWL \\ud83c\\udccf"')
    built = check("art_of_war", "set.json", body)
    assert built.ok and "OWL 🃏" in json.dumps(built.content.to_json(), ensure_ascii=False)


def test_every_text_is_nfc_before_it_is_checked_hashed_or_stored():
    """Issue 45: "text normalised (NFC) ... before anything is hashed or shown" — a name typed
    with a combining accent (NFD, as a Mac's file names are) is the same version as the same
    name precomposed, from JSON or CSV."""
    nfc, nfd = "Café", unicodedata.normalize("NFD", "Café")
    assert nfc != nfd
    digests = set()
    for text in (nfc, nfd):
        built = check("art_of_war", "set.json", hostile.with_name("art_of_war", text))
        assert built.ok
        digests.add(built.content.digest())
        assert nfc in json.dumps(built.content.to_json(), ensure_ascii=False)
        csv_body = KINGS.decode().replace("OWL KING", text).encode()
        files, problems = read_upload("kings.csv", csv_body)
        assert problems == [] and files[0].rows[0].cells["name_en"] == nfc
    assert len(digests) == 1


# --------------------------------------------------------------------------- finding 2: quadratic work
def _stub_cards(n: int) -> bytes:
    return json.dumps({"cards": [{"id": f"c{i}"} for i in range(n)]}, separators=(",", ":")).encode()


def test_30000_stub_cards_are_refused_before_any_is_checked_and_cards_are_counted_as_a_file_is_read(monkeypatch):
    """Issue 45, finding 2: "30,000 stub cards in 450 KiB cost 12–16 s of CPU before the
    500-card limit is even checked" — they are refused as the file is read (60,000 values, past
    what an upload may hold), and 10,000 stubs (within it) are counted as the file is read: one
    located ``too_many_cards``, and no card is tidied or checked by the game."""
    s = shape("JSON: 30,000 stub cards (450 KiB)")
    files, problems = read_upload(s.filename, s.body)
    assert files == [] and keys(problems) == ["cardcheck.json_values"] and problems[0].file == "stubs.json"
    adapter = games.adapter(s.game)

    def never(*_a, **_k):
        raise AssertionError("a card was checked before the upload was counted")
    monkeypatch.setattr(build_mod, "_tidy", never)
    monkeypatch.setattr(type(adapter), "upload_rules", never)
    built = check(s.game, "stubs.json", _stub_cards(10_000))
    assert keys(built.problems) == ["cardcheck.too_many_cards"] and built.content is None
    p = built.problems[0]
    assert p.file == "stubs.json" and p.params == {"count": 10_000, "limit": MAX_OWN_CARDS}
    files, _read = read_upload("stubs.json", _stub_cards(10_000))
    work = lines_run(lambda: build_set(s.game, files), "data/card_sets/build.py")
    assert work < 500, work                   # counting 10,000 entries is C's len(), not a loop


def test_numbering_and_locating_entries_is_linear_in_the_cards():
    """Issue 45, finding 2: "`build.py` numbers each JSON entry by scanning the list for it" (and
    locates each problem by scanning every card): four times the cards, four times the work —
    not sixteen.  Stub cards (each with problems of its own) under the limit, lines counted."""
    def work(n: int) -> int:
        files, _read = read_upload("stubs.json", _stub_cards(n))
        return lines_run(lambda: build_set("logic_square", files), "data/card_sets/build.py")
    small, big = work(100), work(400)
    assert big < 5 * small, (small, big)


def test_a_header_of_30000_names_is_refused_before_any_name_is_counted():
    """Issue 45, finding 2: "`_read_csv` counts each header name across the header —
    `b"a," * 30000` (60 KiB) costs 10 s" — a header wider than the widest layout is refused
    at once, naming its width and the limit; a duplicate name in a header that fits is found
    in one pass."""
    files, problems = read_upload("wide.csv", b"a," * 30_000)
    assert files == [] and keys(problems) == ["cardcheck.csv_columns"]
    assert problems[0].params == {"count": 30_000, "limit": MAX_COLUMNS} and problems[0].row == 1
    work = lines_run(lambda: read_upload("wide.csv", b"a," * 30_000), "data/card_sets/upload.py")
    assert work < 200, work
    files, problems = read_upload("twice.csv", b"id,name_ja,ID\nk1,a,b\n")
    assert keys(problems) == ["cardcheck.csv_header_twice"] and problems[0].field == "id"


# --------------------------------------------------------------------------- finding 3: memory
def test_every_layout_of_every_game_fits_the_widest_header_taken():
    """Issue 45, finding 3: "refuse a header wider than the widest layout of any game" — the
    limit is above every layout, so no real set is refused by it."""
    widest = max(len(lay.columns) for g in games.GAMES for lay in games.adapter(g).layouts)
    assert widest <= MAX_COLUMNS


@pytest.mark.parametrize("label", [
    "CSV: 64 KiB, 11,000 columns x 2,000 rows", "zip: four such CSVs", "CSV: the header b'a,' * 30000",
    "JSON: 30,000 stub cards (450 KiB)", "JSON: 512 KiB of [", "JSON: 512 KiB of empty lists",
    "zip bomb: deflate, 16 MiB of zeros said to be 100 bytes", "zip: four CSVs of 2,000 rows each"])
def test_the_issues_shapes_stay_within_64_mib(label):
    """Issue 45, finding 3: "`_read_csv` builds every row as a dict over the whole header before
    checking the layout: a 64 KiB CSV of 11,000 columns × 2,000 rows takes +810 MB; a 180 KiB
    zip of four such files +1.6 GB" — and "a hard memory budget for one upload (say 64 MiB) with
    a test that measures it": the peak of Python allocations (tracemalloc) while the shape is
    read and checked, each refused with a located problem."""
    peak, got = peak_of(shape(label))
    assert peak < BUDGET, (label, peak / 2 ** 20)
    built = got["built"]
    assert built.content is None and built.problems and all(p.file for p in built.problems), built.problems


def test_a_wide_header_is_refused_before_its_rows_are_read_and_rows_keep_only_named_columns():
    """Issue 45, finding 3: "Refuse a header wider than the widest layout ... BEFORE reading
    rows"; "a row with many extra cells must not allocate per-cell objects beyond the csv
    module's list" — a row's cells are the header's named columns only."""
    files, problems = read_upload("wide.csv", hostile.wide_csv())
    assert files == [] and keys(problems) == ["cardcheck.csv_columns"]
    assert problems[0].params["count"] == 11_000
    # a spreadsheet's trailing empty header cells are no columns; empty cells past them are fine
    files, problems = read_upload("kings.csv", KINGS.replace(b"\n", b"," * 5_000 + b"\n", 1))
    assert problems == [] and files[0].header == ["id", "name_ja", "name_en", "range", "attack", "defence",
                                                  "text_ja", "text_en"]
    files, problems = read_upload("kings.csv", KINGS.replace(b"night.\n", b"night." + b"," * 9_000 + b"\n", 1))
    assert problems == [] and list(files[0].rows[0].cells) == files[0].header
    # a cell past the header's last column is never dropped silently
    files, problems = read_upload("kings.csv", KINGS.replace(b"night.\n", b"night." + b"," * 9_000 + b"x\n", 1))
    assert keys(problems) == ["cardcheck.csv_extra_cells"] and problems[0].row == 2


def test_rows_are_bounded_across_the_files_of_a_zip_and_a_flood_of_problems_is_cut_short():
    """Issue 45, finding 3: "Bound total rows across all files of a zip as well as per file";
    a file of 2,000 bad rows reports at most MAX_PROBLEMS problems, then says there are more."""
    built = check("art_of_war", "rows.zip", shape("zip: four CSVs of 2,000 rows each").body)
    assert "cardcheck.rows_total" in keys(built.problems)
    total = next(p for p in built.problems if p.key == "cardcheck.rows_total")
    assert total.params == {"limit": MAX_TOTAL_ROWS} and total.file and total.row
    flood = check("art_of_war", "kings.csv", shape("CSV: 2,000 rows of bad cells").body)
    rows = [p for p in flood.problems if p.file == "kings.csv" and p.row]
    assert MAX_PROBLEMS < len(rows) <= MAX_PROBLEMS + 9 and rows[-1].key == "cardcheck.more_problems"
    files, _ = read_upload("kings.csv", shape("CSV: 2,000 rows of bad cells").body)
    layout = games.adapter("art_of_war").layouts[0]
    assert keys(read_rows(files[0], layout).problems)[-1] == "cardcheck.more_problems"


def test_json_values_keys_numbers_and_duplicate_keys_are_held_to_their_limits():
    """Issue 45, "deep and huge JSON ... numeric extremes": values over all the files of an
    upload, keys of one object, digits of a number, infinity, a key given twice — each a
    located problem naming the file (and the field where there is one)."""
    cases = {
        "JSON: 512 KiB of zeros": ("cardcheck.json_values", {"limit": MAX_JSON_VALUES}),
        "JSON: an object of 45,000 keys": ("cardcheck.json_keys", {"count": 45_000, "limit": MAX_JSON_KEYS}),
        "JSON: 1e400": ("cardcheck.json_number", {}),
        "JSON: a 5,000-digit number": ("cardcheck.json_long_number", None),
        "JSON: -2**63": ("cardcheck.json_long_number", None),
        "JSON: a key twice": ("cardcheck.json_key_twice", {"key": "kings"}),
        "JSON: nested 33 deep": ("cardcheck.json_deep", {"limit": 32}),
    }
    for label, (key, params) in cases.items():
        s = shape(label)
        files, problems = read_upload(s.filename, s.body)
        assert files == [] and keys(problems) == [key], (label, problems)
        assert problems[0].file == s.filename
        if params is not None:
            assert problems[0].params == params, (label, problems[0].params)
    problems = read_upload("set.json", shape("JSON: 1e400").body)[1]
    assert problems[0].field == "kings[0].attack"
    # once the upload's values are spent, its other JSON files are not even parsed
    files, problems = read_upload("wide.zip", shape("zip: twenty JSON files of 100 KiB of objects").body)
    assert len(files) == 1 and set(keys(problems)) == {"cardcheck.json_values"} and len(problems) == 19


def test_decks_and_types_are_counted_as_early_as_cards():
    """Issue 45: "bound the number of decks (and BLS types) a set may hold with a documented
    limit ... checked as early" — from JSON and from CSV."""
    built = check("art_of_war", "set.json", shape("JSON: 1,000 decks").body)
    assert keys(built.problems) == ["cardcheck.too_many_decks"]
    assert built.problems[0].params == {"count": 1_000, "limit": MAX_DECKS}
    types = b"type,name_ja,name_en\n" + b"".join(b"t%d,a,b\n" % i for i in range(MAX_ENTRIES + 1))
    built = check("logic_square", "types.csv", types)
    assert keys(built.problems) == ["cardcheck.too_many_entries"]
    assert built.problems[0].params == {"section": "types", "count": MAX_ENTRIES + 1, "limit": MAX_ENTRIES}
    assert built.problems[0].file == "types.csv"


# --------------------------------------------------------------------------- names and texts
HOSTILE_NAMES = {"a direction override": "OWL\u202eKING", "a zero-width space": "OWL\u200bKING",
                 "a byte-order mark": "\ufeffOWL", "a control character": "OWL\x07", "an isolate": "\u2066OWL\u2069",
                 "a soft hyphen": "OW\u00adL", "a left-to-right mark": "OWL\u200e", "an Arabic letter mark": "\u061cOWL",
                 "a word joiner": "OW\u2060L", "a line separator": "OWL\u2028KING", "a line break": "OWL\nKING"}


@pytest.mark.parametrize("game", games.GAMES)
def test_a_name_with_a_control_direction_or_invisible_character_is_a_located_problem(game):
    """Issue 45: "no control or direction characters in names" (finding 7 shows why: a set name
    "differing only by a zero-width space, a direction override" sits beside the original) —
    card and deck names are held to the same: the problem ``name_chars`` names the file, the
    card and the field, and the character."""
    for label, text in HOSTILE_NAMES.items():
        built = check(game, "set.json", hostile.with_name(game, text))
        assert keys(built.problems) == ["cardcheck.name_chars"], (game, label, built.problems)
        p = built.problems[0]
        assert p.file == "set.json" and p.card and p.field.endswith("name.en"), p
        bad = next(ch for ch in text if unicodedata.category(ch) in ("Cc", "Cf", "Zl"))
        assert p.params == {"char": f"U+{ord(bad):04X}"}
        assert f"U+{ord(bad):04X}" in p.render("ja") and "cardcheck." not in p.render("ja")


def test_a_long_text_keeps_its_line_breaks_and_joiners_but_not_a_direction_or_control_character():
    """Issue 45: "in long texts (rules wording) refuse control and bidi characters but line
    breaks are fine" — from CSV, located by row and column."""
    def kings(text: str) -> bytes:
        return KINGS.decode().replace("A king who sees through the night.", f'"{text}"').encode()
    for text in ("Line one\nline two", "A family 👨\u200d👩\u200d👧 of kings"):
        assert check("art_of_war", "kings.csv", kings(text)).ok, text
    for text, char in (("Evil \u202eseman", "U+202E"), ("Tab\there", "U+0009"), ("C1 \x85 next", "U+0085")):
        built = check("art_of_war", "kings.csv", kings(text))
        assert keys(built.problems) in (["cardcheck.text_chars"], ["cardcheck.control_chars"]), (text, built.problems)
        p = built.problems[0]
        assert (p.file, p.row, p.field, p.column) == ("kings.csv", 2, "text_en", True), p
        if p.key == "cardcheck.text_chars":
            assert p.params == {"char": char}


def test_text_problem_tells_names_from_long_texts():
    """The one check every text of a set passes before it is neutralised and stored."""
    assert text_problem("梟王 OWL KING", name=True) is None
    assert text_problem("OWL\u200dKING", name=True) == "U+200D" and text_problem("OWL\u200dKING") is None
    assert text_problem("a\nb") is None and text_problem("a\nb", name=True) == "U+000A"
    assert text_problem("a\u2067b") == "U+2067" and text_problem("\udc80") == "U+DC80"


def test_a_type_name_with_a_direction_character_from_csv_is_named_by_its_row_and_column():
    """Battle Logic Square's type names are names too: refused by ``name_chars``, at the types
    CSV's row and its ``name_en`` column."""
    files = {p.name: p.read_bytes() for p in sorted((DATA / "logic_square").glob("*.csv"))}
    files["types.csv"] = files["types.csv"].replace(b",Pulse", b",Pul\xe2\x80\xaese")     # U+202E
    ups, read = [], []
    for name, body in files.items():
        got, bad = read_upload(name, body)
        ups, read = ups + got, read + bad
    built = build_set("logic_square", ups, read_problems=read)
    assert keys(built.problems) == ["cardcheck.name_chars"]
    p = built.problems[0]
    assert (p.file, p.row, p.card, p.field, p.column) == ("types.csv", 2, "pulse", "name_en", True), p


# --------------------------------------------------------------------------- finding 5: mentions
def test_mentions_in_battle_logic_square_type_names_are_stored_neutralised():
    """Issue 45, finding 5: "Battle Logic Square type names skip the mention neutraliser, so
    `@everyone` and `<@&id>` are stored and shown raw in generated texts and diffs" — every
    string of a set's files is neutralised, a role mention too."""
    s = shape("Battle Logic Square: mentions in a type's names")
    built = check(s.game, s.filename, s.body)
    assert built.ok
    stored = json.dumps(built.content.to_json(), ensure_ascii=False)
    assert "@everyone" not in stored and "<@&" not in stored and "<@" not in stored
    assert "@\u200beveryone" in stored and "<\u200b@&123>" in stored
    assert built.cardset.types["pulse"] == {"ja": "@\u200beveryone", "en": "<\u200b@&123> **loud**"}


def test_every_mention_form_in_a_card_name_is_neutralised_and_an_export_uploads_again_as_the_same_version():
    """Issue 45: "Keep `neutral()` ... it runs AFTER the check, so the check must not refuse what
    neutral adds" — a set with mentions in its names is taken, stored neutralised, and its
    JSON export (holding the zero-width spaces) uploads again as the same version."""
    assert neutral("<@&123> <@!4> <#5> @here @everyone") == \
        "<\u200b@&123> <\u200b@!4> <\u200b#5> @\u200bhere @\u200beveryone"
    for game in games.GAMES:
        first = check(game, "set.json", hostile.with_name(game, "<@&123> @everyone"))
        assert first.ok, (game, first.problems)
        again = check(game, "set.json", export_files(first.content, "set")["set.json"])
        assert again.ok and again.content.digest() == first.content.digest(), game


def test_a_digest_never_crashes_on_a_stored_lone_surrogate():
    """Issue 45, finding 1: the digest "crashes ... with `UnicodeEncodeError`" — an upload can no
    longer hold one, and a version read back that does is still named."""
    content = SetContent("art_of_war", "extend", 1, [["a.json", {"kings": [{"id": "k", "name": {"en": "\ud800"}}]}]])
    assert len(content.digest()) == 64


# --------------------------------------------------------------------------- the corpus
def test_no_shape_of_the_corpus_raises_and_every_refusal_is_located_in_both_languages():
    """Issue 45, "Bad input gets a clear, localized problem ... located by file/row/card/column";
    every shape of the corpus (bench.hostile_uploads) is read and checked without an exception,
    refused when it must be, with nothing built for a refusal."""
    for s in hostile.shapes():
        files, read = read_upload(s.filename, s.body)
        built = build_set(s.game, files, "extend", read_problems=read)
        if s.refused:
            assert not built.ok and built.content is None and built.problems, s.label
        if built.ok:
            assert built.content is not None and not built.problems
            built.content.digest()
            continue
        for p in built.problems:
            assert p.file, (s.label, p)
            for locale in ("en", "ja"):
                text = p.render(locale)
                assert "cardcheck." not in text and "{" not in text, (s.label, text)
