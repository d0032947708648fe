"""Issue 45, finding 4 and the last part of finding 7, for the four card games
(``data/card_sets/keys.py``, the adapters' ``upload_rules``, ``data/card_sets/export.py``).

Finding 4: "a rules block in another letter case (`Editions`, `RULES`, `Units`, `MAX_ROUNDS`,
`Target_Mana`…) passes the rules-patch check and is kept in every version and export, while the
designer is told all is well."  Finding 7: "the CSV export of a JSON-uploaded Battle Logic Square
or Maken set uploads again as a different version, although the docs promise the same one."
"""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from data import i18n
from data.card_sets import games, keys
from data.card_sets.build import build_set, open_content
from data.card_sets.export import export_files
from data.card_sets.model import SetContent, merged_sections
from data.card_sets.upload import read_upload

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests/data/card_sets"


def build(game: str, files: dict, mode: str = "extend"):
    uploads, problems = [], []
    for name, body in files.items():
        got, bad = read_upload(name, body if isinstance(body, bytes) else body.encode("utf-8"))
        uploads += got
        problems += bad
    return build_set(game, uploads, mode, read_problems=problems)


def upload_json(game: str, data: dict, mode: str = "extend"):
    return build(game, {"set.json": json.dumps(data, ensure_ascii=False)}, mode)


_TEST_SETS: dict = {}


def the_test_set(game: str):
    """The game's full test set (tests/data/card_sets/<game>/*.csv), built."""
    if game not in _TEST_SETS:
        built = build(game, {p.name: p.read_bytes() for p in sorted((DATA / game).glob("*.csv"))})
        assert built.ok, [p.render() for p in built.problems]
        _TEST_SETS[game] = built
    return _TEST_SETS[game]


def as_json(game: str) -> dict:
    """The test set as one JSON file of the game's format (its own export)."""
    built = the_test_set(game)
    return json.loads(export_files(built.content, "t")["t.json"])


def shipped_json(game: str) -> dict:
    """The shipped cards and decks as one JSON file of a set's own (Art of War's basic units left
    out: they are the rulebook's)."""
    adapter = games.adapter(game)
    data = merged_sections([[label, data] for label, data in adapter.shipped_files(None)])
    data.pop("units", None)
    return data


def located(built) -> None:
    """Refused, nothing stored, every problem naming its file and readable in both languages."""
    assert built.content is None and not built.ok and built.problems
    for p in built.problems:
        assert p.file == "set.json", p
        for locale in ("en", "ja"):
            text = p.render(locale)
            assert text.startswith("set.json") and not re.search(r"\{\w+[}:]", text), text


# ============================================================================ finding 4: rules blocks

RULE_SPELLINGS = {
    "logic_square": ["RULES", "Rules", "ＲＵＬＥＳ", "Life_Start", "HAND-SIZE", "max turns"],
    "maken": ["RULES", "Rules", "ＲＵＬＥＳ", "First_Draw_Limit", "SECOND-HAND", "first draw limit"],
    "art_of_war": ["RULES", "Rules", "ＲＵＬＥＳ", "Hand_Size", "MAX-TURNS"],
    "avalon": ["RULES", "Rules", "ＲＵＬＥＳ", "MAX_ROUNDS", "Target_Mana", "max-rounds", "max rounds",
               "Ｔａｒｇｅｔ－Ｍａｎａ", "Hand Size"],
}
EDITIONS_SPELLINGS = ["Editions", "EDITIONS", "ＥＤＩＴＩＯＮＳ", "editions"]


@pytest.mark.parametrize("game,key", [(g, k) for g in games.GAMES for k in RULE_SPELLINGS[g]])
def test_a_rules_block_in_any_letter_case_or_width_is_refused_naming_it(game, key):
    """Issue 45, finding 4: "a rules block in another letter case (`Editions`, `RULES`, `Units`,
    `MAX_ROUNDS`, `Target_Mana`…) passes the rules-patch check and is kept in every version and
    export, while the designer is told all is well" — now compared case- and width-insensitively
    (NFKC, case folded, ``-`` and spaces as ``_``): refused as a rule, named as typed, nothing
    stored."""
    data = as_json(game)
    data[key] = {"first_draw_limit": 3} if game == "maken" else 6
    built = upload_json(game, data)
    located(built)
    assert {p.key for p in built.problems} == {"cardcheck.rules_patch"}, [p.render() for p in built.problems]
    assert any(p.field == key or str(p.field).startswith(f"{key}.") for p in built.problems)
    p = built.problems[0]
    assert "never a rule of the game" in p.render("en") and "ルールは変えられません" in p.render("ja")


@pytest.mark.parametrize("game,key", [(g, k) for g in games.GAMES for k in EDITIONS_SPELLINGS])
def test_an_editions_block_in_any_spelling_is_refused_and_nothing_is_kept(game, key):
    """Issue 45, finding 4: `Editions` "is kept in every version and export" — now an
    ``editions`` block in any letter case or width is refused where it is, once."""
    data = as_json(game)
    data[key] = {"9": {}}
    built = upload_json(game, data)
    located(built)
    assert [(p.field, p.key) for p in built.problems] == [(key, "cardcheck.no_editions")]


@pytest.mark.parametrize("key", ["Units", "UNITS", "ｕｎｉｔｓ", "units"])
def test_art_of_wars_basic_units_in_any_spelling_stay_the_rulebooks(key):
    """Issue 45, finding 4 names `Units`: the five basic units are the rulebook's however the
    key is spelled (refused once, as fixed cards; the shipped units stay, no deck is blamed)."""
    data = as_json("art_of_war")
    data[key] = [{"id": "soldier", "attack": 9}]
    built = upload_json("art_of_war", data)
    located(built)
    assert (key, "cardcheck.fixed_card") in {(p.field, p.key) for p in built.problems}
    assert {p.key for p in built.problems} == {"cardcheck.fixed_card"}      # no deck blamed, no unit missing


@pytest.mark.parametrize("game", games.GAMES)
def test_a_section_in_another_letter_case_is_refused_naming_the_right_spelling(game):
    """Issue 45, what to do for finding 4: "Rules-block keys compared case- and
    width-insensitively; anything the schema does not know is a located problem, never stored
    silently" — a section spelled ``Cards`` or full-width ``ＤＥＣＫＳ`` is refused saying the
    right spelling, never read as the section, never kept beside it."""
    data = as_json(game)
    section = "kings" if game == "art_of_war" else "cards"
    wrong = section.capitalize()
    full_width = "ＤＥＣＫＳ"
    data[wrong] = data.pop(section)
    data[full_width] = data.pop("decks")
    built = upload_json(game, data)
    assert built.content is None
    spelled = {(p.field, p.params.get("right")) for p in built.problems if p.key == "cardcheck.key_spelling"}
    assert spelled == {(wrong, section), (full_width, "decks")}
    p = next(p for p in built.problems if p.field == wrong)
    assert f"“{section}”" in p.render("en") and f"「{section}」" in p.render("ja")


@pytest.mark.parametrize("game", games.GAMES)
def test_an_unknown_section_is_refused_naming_what_a_file_may_hold(game):
    """Issue 45, finding 4: "anything the schema does not know is a located problem, never
    stored silently" — an unknown top-level key names the sections a set's file may hold (not
    ``editions``, not Art of War's ``units``)."""
    data = as_json(game)
    data["notes"] = ["hello"]
    built = upload_json(game, data)
    located(built)
    (p,) = built.problems
    assert (p.field, p.key, p.params["key"]) == ("notes", "cardcheck.unknown_section", "notes")
    allowed = p.params["allowed"]
    assert "editions" not in allowed and "units" not in allowed and "decks" in allowed
    assert all(section in p.render("en") for section in allowed)


def _first(data: dict, section: str) -> dict:
    value = data[section]
    return value[0] if isinstance(value, list) else next(iter(value.values()))


# what each game kept of a card or deck that no reader sees (found by trying every dict of the
# test sets and the shipped cards with an extra key): (section, change, field reported)
HIDDEN = {
    "art_of_war": [("kings", lambda e: e["name"].update(fr="Roi"), "name.fr"),
                   ("kings", lambda e: e.update(wording={"en": "Hidden"}), "wording"),
                   ("decks", lambda e: e["name"].update(note="x"), "name.note"),
                   ("decks", lambda e: e.update(wording={"en": "Hidden"}), "wording")],
    "avalon": [("cards", lambda e: e["name"].update(fr="x"), "name.fr"),
               ("cards", lambda e: e.update(wording={"en": "ok", "de": "versteckt"}), "wording.de"),
               ("cards", lambda e: e.update(wording={"en": 5}), "wording"),
               ("decks", lambda e: e["name"].update(fr="x"), "name.fr"),
               ("decks", lambda e: e.update(wording={"en": "Hidden"}), "wording")],
    "logic_square": [("cards", lambda e: e.update(wording={"en": "Hidden"}), "wording"),
                     ("decks", lambda e: e.update(wording={"en": "Hidden"}), "wording")],
    "maken": [("characters", lambda e: e.update(wording={"en": "Hidden"}), "wording"),
              ("cards", lambda e: e.update(wording={"ja": ["x"]}), "wording"),
              ("decks", lambda e: e.update(wording={"en": "Hidden"}), "wording")],
}


@pytest.mark.parametrize("game,case", [(g, i) for g in games.GAMES for i in range(len(HIDDEN[g]))])
def test_nothing_inside_a_card_or_deck_is_kept_that_the_schema_does_not_know(game, case):
    """Issue 45, finding 4: "anything the schema does not know is a located problem, never stored
    silently".  Each game's schema refuses an unknown field of a card or deck already; what was
    kept all the same — a third language in a name (Art of War, Avalon), a ``wording`` on a card
    or deck whose CSV has no wording columns (set aside before the schema saw it, then shown as
    the set's words), a wording that is not a text — is now refused at its entry and field, saying
    what is allowed."""
    section, change, field = HIDDEN[game][case]
    data = as_json(game)
    entry = _first(data, section)
    change(entry)
    built = upload_json(game, data)
    located(built)
    (p,) = built.problems
    assert p.field == field and p.row is not None and p.entry, p
    assert p.key in ("cardcheck.unknown_field", "cardcheck.lang_object")
    if p.key == "cardcheck.unknown_field":
        allowed = p.params["allowed"]
        assert allowed == ["ja", "en"] if "." in field else "name" in allowed and "wording" not in allowed


@pytest.mark.parametrize("game", games.GAMES)
def test_a_field_of_a_card_in_another_letter_case_says_the_right_spelling(game):
    """Issue 45 (what to do): keys "compared case- and width-insensitively" — a card's field
    spelled ``NAME`` is refused (the schema's unknown field) saying to write ``name``."""
    data = as_json(game)
    entry = _first(data, "kings" if game == "art_of_war" else "characters" if game == "maken" else "cards")
    entry["ＮＡＭＥ"] = entry.pop("name")
    built = upload_json(game, data)
    assert built.content is None
    assert any(p.key == "cardcheck.key_spelling" and p.params["right"] == "name" and p.field == "ＮＡＭＥ"
               for p in built.problems), [p.render() for p in built.problems]


def test_a_version_stored_before_with_a_rules_block_in_another_case_still_opens():
    """A version stored before the fix with an ``Editions`` key (finding 4: "kept in every
    version and export") still opens — the key is left out as it was then, so its matches keep
    working — and its export no longer carries the key."""
    data = merged_sections(the_test_set("avalon").content.files)
    content = SetContent("avalon", "extend", games.adapter("avalon").newest_edition(),
                         [["set.json", {**data, "Editions": {"9": {}}, "MAX_ROUNDS": 99}]])
    opened = open_content(content)
    assert set(opened.cardset["cards"]) >= {e["id"] for e in data["cards"]}
    exported = json.loads(export_files(content, "old")["old.json"])       # nor is it in an export
    assert "Editions" not in exported and "MAX_ROUNDS" not in exported
    assert build("avalon", {"old.json": json.dumps(exported, ensure_ascii=False)}).ok


def test_every_problem_key_of_the_shared_checks_is_in_both_catalogs_with_the_same_placeholders():
    for key in keys.CATALOG_KEYS:
        en, ja = i18n.catalog("en")[f"cardcheck.{key}"], i18n.catalog("ja")[f"cardcheck.{key}"]
        assert set(re.findall(r"\{(\w+)", en)) == set(re.findall(r"\{(\w+)", ja)), key


def test_a_key_is_folded_by_nfkc_case_and_separators():
    assert {keys.fold(k) for k in ("MAX_ROUNDS", "max-rounds", "max rounds", "Ｍａｘ－Ｒｏｕｎｄｓ", " max__rounds ")} == \
        {"max_rounds"}
    assert keys.fold("Editions") == keys.fold("ＥＤＩＴＩＯＮＳ") == "editions"


# ============================================================================ finding 7: one version

def _layout_index(game: str, section: str, entry: dict) -> int:
    adapter = games.adapter(game)
    layout = keys.layout_of(adapter.layouts, section, entry)
    return adapter.layouts.index(layout) if layout is not None else -1


def layouts_reversed(game: str, data: dict) -> dict:
    """The cards of each section listed layout by layout in reverse (the order inside a layout
    kept): AVIs after IT cards, support cards before attack cards."""
    for section, value in data.items():
        if isinstance(value, list) and all(isinstance(e, dict) for e in value):
            data[section] = sorted(value, key=lambda e: -_layout_index(game, section, e))
    return data


def _ranges_as_offsets(value, offsets) -> None:
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "range" and isinstance(inner, list) and inner and isinstance(inner[0], str):
                value[key] = [list(o) for o in reversed(offsets(inner))]
            else:
                _ranges_as_offsets(inner, offsets)
    elif isinstance(value, list):
        for inner in value:
            _ranges_as_offsets(inner, offsets)


def ls_spellings(data: dict) -> dict:
    """Battle Logic Square: every range as [forward, sideways] offsets (farthest last), decks'
    resources as a list of ids, empty lists written out."""
    from rules.logic_square.cards import parse_range

    class Fail:
        def fail(self, *args, **kw):
            raise AssertionError(args)
    _ranges_as_offsets(data["cards"], lambda grid: parse_range(grid, Fail(), "range"))
    for deck in data["decks"]:
        deck["resources"] = [cid for cid, n in deck["resources"].items() for _ in range(n)]
    for card in data["cards"]:
        if card["category"] in ("Ac", "Sc", "Br", "IT"):
            card.setdefault("effects", [])
        card.setdefault("types", [])
    return data


def maken_spellings(data: dict) -> dict:
    """Project Maken: one reach as [front, back], decks' cards as a list of ids, the defaults and
    empty lists written out."""
    for card in data["cards"]:
        if card["kind"] == "attack":
            if isinstance(card["reach"], int):
                card["reach"] = [card["reach"], card["reach"]]
            for key in ("unguardable", "bet", "hit"):
                card.setdefault(key, [])
            card.setdefault("gc", None)
    for deck in data["decks"]:
        deck["cards"] = [cid for cid, n in deck["cards"].items() for _ in range(n)]
    return data


def avalon_spellings(data: dict) -> dict:
    """Avalon's Sanctuary: decks' cards as a list of ids plus a card at 0 copies, empty keyword
    lists, mana icons in another order."""
    for deck in data["decks"].values():
        cards = deck["spec"]["cards"]
        deck["spec"]["cards"] = {**{cid: n for cid, n in reversed(cards.items())}, "c99": 0}
    first = next(iter(data["decks"].values()))
    first["spec"]["cards"] = [cid for cid, n in first["spec"]["cards"].items() for _ in range(n)]
    for card in data["cards"]:
        if card["category"] == "creature":
            card.setdefault("keywords", [])
            card["mana"] = dict(reversed(list(card["mana"].items())))
    return data


def aow_spellings(data: dict) -> dict:
    """Art of War: each KING's range listed in another order."""
    for king in data["kings"]:
        king["range"] = list(reversed(king["range"]))
    return data


def padded(data: dict) -> dict:
    """Spaces around every name and text (a CSV cell is read trimmed)."""
    def walk(value):
        if keys.is_text(value):
            for lang in list(value):
                value[lang] = f"  {value[lang]}   "
        elif isinstance(value, dict):
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)
    for section in ("cards", "kings", "decks", "characters"):
        walk(data.get(section))
    return data


SPELLINGS = {"logic_square": ls_spellings, "maken": maken_spellings, "avalon": avalon_spellings,
             "art_of_war": aow_spellings}


def words(built) -> list:
    """The set's own cards and decks as players read them: names, rules texts, facts."""
    adapter = games.adapter(built.content.game)
    return sorted((e.id, e.kind, e.name, e.rules, [(f.key, f.value) for f in e.facts])
                  for e in adapter.entries(built.cardset, built.own) if e.own)


@pytest.mark.parametrize("game", games.GAMES)
def test_a_json_upload_is_the_version_its_csv_export_uploads_again_as(game):
    """Issue 45, finding 7: "the CSV export of a JSON-uploaded Battle Logic Square or Maken set
    uploads again as a different version, although the docs promise the same one".  The game's
    full test set, as JSON written the ways a designer may write it (cards of several layouts
    mixed, ranges as offsets, decks as lists, defaults written out, texts with spaces around) is
    the very version its CSV upload is; its JSON and CSV exports upload again as that version."""
    original = the_test_set(game)
    data = padded(SPELLINGS[game](layouts_reversed(game, as_json(game))))
    as_written = upload_json(game, data)
    assert as_written.ok, [p.render() for p in as_written.problems]
    assert as_written.content.digest() == original.content.digest()
    assert words(as_written) == words(original)
    files = export_files(as_written.content, "again")
    by_csv = build(game, {n: b for n, b in files.items() if n.endswith(".csv")})
    by_json = build(game, {"again.json": files["again.json"]})
    assert by_csv.ok and by_json.ok
    assert by_csv.content.digest() == by_json.content.digest() == as_written.content.digest()


@pytest.mark.parametrize("game", games.GAMES)
@pytest.mark.parametrize("source", ["test set", "shipped"])
def test_json_upload_then_csv_export_then_upload_is_one_version(game, source):
    """Issue 45, finding 7 ("uploads again as a different version"): whatever a valid JSON
    upload holds — here the test set and every shipped card and deck, in reverse order, one
    language only, every spelling above — JSON upload → CSV export → upload and JSON upload →
    JSON export → upload give one digest, and a zip of JSON and CSV files the same."""
    mode = "extend" if source == "test set" else "alone"
    data = as_json(game) if source == "test set" else shipped_json(game)
    data = SPELLINGS[game](data)
    for section in ("cards", "kings", "characters"):
        if isinstance(data.get(section), list):
            data[section].reverse()
    for obj in (data.get("cards") or []) + (data.get("kings") or []):
        obj["name"].pop("en", None)             # one language is enough (the other is marked)
    first = upload_json(game, data, mode)
    assert first.ok, [p.render() for p in first.problems][:5]
    assert first.content.untranslated
    files = export_files(first.content, "again")
    by_csv = build(game, {n: b for n, b in files.items() if n.endswith(".csv")}, mode)
    by_json = build(game, {"again.json": files["again.json"]}, mode)
    assert by_csv.ok and by_json.ok
    assert by_csv.content.digest() == first.content.digest() == by_json.content.digest()
    assert by_csv.content.untranslated == first.content.untranslated == by_json.content.untranslated
    assert words(by_csv) == words(first)
    # part of the cards as JSON, the rest as CSV, in one upload: the same version again
    csvs = {n: b for n, b in files.items() if n.endswith(".csv")}
    first_csv = sorted(csvs)[0]
    mixed_json = copy.deepcopy(json.loads(files["again.json"]))
    layout = next(lay for lay in games.adapter(game).layouts if first_csv.endswith(f"_{lay.kind}.csv"))
    _drop_layout(game, mixed_json, layout)
    mixed = build(game, {"part.json": json.dumps(mixed_json, ensure_ascii=False), first_csv: csvs[first_csv]}, mode)
    assert mixed.ok, [p.render() for p in mixed.problems][:5]
    assert mixed.content.digest() == first.content.digest()


def _drop_layout(game: str, data: dict, layout) -> None:
    """``data`` without the entries ``layout`` writes (they come as its CSV instead)."""
    value = data.get(layout.section)
    if layout.parent is not None:       # an AVI's abilities: their rows come by CSV
        for entry in data.get(layout.section) or []:
            if isinstance(entry, dict):
                entry.pop(layout.parent[2], None)
    elif isinstance(value, list):
        data[layout.section] = [e for e in value if not layout.matches(e)]
    elif isinstance(value, dict):
        data[layout.section] = {k: v for k, v in value.items() if not layout.matches(v)}


@pytest.mark.parametrize("game", games.GAMES)
def test_a_comment_is_one_short_text_never_a_place_for_data(game):
    """"anything the schema does not know is a located problem, never stored silently": a file's
    ``comment`` is a note for people (one text, at most 2,000 characters); a comment holding
    objects (the hostile upload hid 46,000 there; past 50,000 values the reading refuses a file
    first), or a novel, is refused naming the file and the field."""
    data = as_json(game)
    assert upload_json(game, {**data, "comment": "playtest 3, after the Sunday games"}).ok
    for comment in ([{"x": i} for i in range(4_000)], "x" * 2_001, {"ja": "メモ"}):
        built = upload_json(game, {**data, "comment": comment})
        assert not built.ok and built.content is None
        found = [p for p in built.problems if p.key == "cardcheck.comment_text"]
        assert len(found) == 1 and found[0].file == "set.json" and found[0].field == "comment"
        assert "2000" in found[0].render("en").replace(",", "") and "2000" in found[0].render("ja")
