"""Avalon's Sanctuary server card sets (issue 36): CSV and JSON uploads checked with every
problem named where it is, the set's engine, pictures, export and diff
(``data/card_sets/avalon.py``, ``rules/avalon/cards.py``, ``docs/card_sets/avalon.md``)."""
from __future__ import annotations

import csv
import io
import json
import random
import re
from pathlib import Path

import pytest

import ai
from data.card_sets import diff, games
from data.card_sets.build import build_set, open_content
from data.card_sets.export import export_files
from data.card_sets.model import merged_sections
from data.card_sets.upload import read_upload
from rules import card_errors
from rules.avalon.cards import CardDataError, card_text, validate_sources

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs/card_sets"
DATA = ROOT / "tests/data/card_sets/avalon"
AD = games.adapter("avalon")
MISTAKES = json.loads((DATA / "mistakes.json").read_text(encoding="utf-8"))
CREATURE_HEAD = "id,name_ja,name_en,attr,stars,atk,dur,mana,keywords,battle,on_win,support,ninja\n"


LAYOUT_ORDER = ("creature", "support", "magic", "avatar", "deck")


def _layout_place(path: Path) -> tuple:
    return next((i for i, kind in enumerate(LAYOUT_ORDER) if kind in path.name), 9), path.name


def uploads(folder: Path, pattern: str = "*.csv", edits: dict | None = None) -> tuple[list, list]:
    """The CSV files of ``folder`` as an upload, in the layouts' order (the order export writes
    them: a version's cards are listed in upload order); ``edits``: file name -> [[row, column,
    value]]."""
    files, problems = [], []
    for path in sorted(folder.glob(pattern), key=_layout_place):
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
    return build_set("avalon", files, mode, read_problems=problems)


def upload_text(name: str, text: str, mode: str = "extend"):
    files, problems = read_upload(name, text.encode("utf-8"))
    return build_set("avalon", files, mode, read_problems=problems)


def upload_json(data: dict, mode: str = "extend", name: str = "set.json"):
    return upload_text(name, json.dumps(data, ensure_ascii=False), mode)


def spots(built) -> set[tuple]:
    return {(p.file, p.row, p.field, p.key) for p in built.problems}


def shipped_alone(decks: list[str]) -> dict:
    """The shipped cards as one file of a set's own, with only ``decks`` of the shipped decks."""
    cards = AD.shipped_files(None)[0][1]["cards"]
    ready = AD.shipped_files(None)[1][1]["decks"]
    return {"cards": cards, "decks": {d: ready[d] for d in decks}}


# --------------------------------------------------------------------------- loading

def test_the_example_csvs_of_the_docs_load_with_two_ready_made_decks():
    """docs/card_sets/avalon.md: "Example files that load ... (a set with two ready-made decks)"."""
    built = build(uploads(DOCS, "avalon_*.csv"))
    assert built.ok, [p.render("en") for p in built.problems]
    assert built.counts == {"cards": 13, "decks": 2, "replaced": 0}
    assert AD.deck_ids(built.cardset, built.own) == ["frost", "blaze"]
    assert built.content.wording["c46"] == {"ja": "守りに立つと揺るがない。", "en": "Unshaken when it stands guard."}
    assert "wording" not in built.cardset["cards"]["c46"]           # set aside for display, never played


def test_the_docs_worked_example_names_its_mistake_as_the_page_says():
    text = (DOCS / "avalon.md").read_text(encoding="utf-8")
    built = build(uploads(DOCS, "avalon_*.csv", {"avalon_creatures.csv": [[8, "in_hand", "heal 1"]]}))
    assert len(built.problems) == 1
    for locale in ("en", "ja"):
        assert built.problems[0].render(locale) in text


def test_the_test_data_set_loads_and_replaces_a_shipped_card_by_id():
    """A set "extends the shipped cards (adds cards; replaces shipped ones by id)": c02 is the
    set's, and the shipped decks holding it are checked again with the new card."""
    built = build(uploads(DATA))
    assert built.ok, [p.render("en") for p in built.problems]
    assert built.counts == {"cards": 9, "decks": 2, "replaced": 1}
    c02 = built.cardset["cards"]["c02"]
    assert (c02["dur"], c02["on_win"]) == (3, {"draw": 1})
    assert {"dawn", "ember", "tide", "grove", "sunfire", "mistwood", "frost", "blaze"} == set(built.cardset["decks"])
    entries = {e.id: e for e in AD.entries(built.cardset, built.own)}
    assert entries["c02"].own and not entries["c01"].own and entries["frost"].deck
    again = open_content(built.content)                 # a stored version validates again
    assert again.cardset == built.cardset and again.own == built.own


def test_the_validation_collects_every_problem_or_raises_the_first():
    """rules/card_errors.py: "a card (or deck) with a problem is reported into the list and left
    out ... Problems that follow from a card left out (a deck naming it) are not reported a second
    time"; without a list the operator's files stop at their first problem, as they always have."""
    files = AD.shipped_files(None)
    broken = json.loads(json.dumps(files))
    cards = broken[0][1]["cards"]
    c01 = next(c for c in cards if c["id"] == "c01")
    c01["atk"], c01["attr"] = 99, "purple"               # c01 is in dawn and sunfire: not blamed
    cards.append({"id": "m99", "category": "magic", "name": {"en": "X", "ja": "X"}, "orig": 2,
                  "magic": {"kind": "draw", "n": 9}})
    found: list = []
    assert validate_sources(broken, problems=found) is None
    assert [(e.card, e.field, e.key) for e in found] == [
        ("c01", "attr", "choice"), ("c01", "atk", "int_range"), ("m99", "magic.n", "int_range")]
    assert all(isinstance(e, card_errors.CardDataError) and e.key for e in found)
    with pytest.raises(CardDataError) as err:
        validate_sources(broken)
    assert str(err.value) == ("shipped/cards.json, card 'c01', field 'attr': must be one of yellow, red, blue, "
                              "green, none")
    assert validate_sources(files)["decks"].keys() == AD.shipped_files(None)[1][1]["decks"].keys()


# --------------------------------------------------------------------------- problems

ALLOWED_LATIN = {"ID", "JSON", "ja", "en", "yes", "true", "none", "wording", "editions"}


def _latin_left(p, text: str) -> list[str]:
    """The Latin words of a Japanese problem text that are not what the designer wrote (the
    file, card, column, the values quoted) nor notation."""
    values = [p.file, (p.card or "").removeprefix("deck ").strip("'"), p.field, p.detail]
    for v in p.params.values():
        if isinstance(v, dict):
            values.append(v.get("ja"))
        elif isinstance(v, (list, tuple)):
            values += [str(x) for x in v]
        else:
            values.append(str(v))
    for v in sorted((str(v) for v in values if v), key=len, reverse=True):
        text = text.replace(v, "")
    text = re.sub(r"`[^`]*`", "", text)
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in ALLOWED_LATIN]


def assert_readable(built) -> None:
    """Every problem has a catalog key, renders in both languages with no key left unrendered,
    and its Japanese holds no English words."""
    for p in built.problems:
        assert p.key != "cardcheck.engine", p
        en, ja = p.render("en"), p.render("ja")
        assert "cardcheck." not in en + ja and "avalon.deck." not in en + ja, (en, ja)
        assert "{" not in p.text("en").replace('{"ja"', "") and en != ja, (en, ja)
        assert not _latin_left(p, ja), (ja, _latin_left(p, ja))


def test_a_csv_with_several_mistakes_reports_every_one_with_its_row_and_column():
    text = CREATURE_HEAD + ("c90,炎の狼,Flame Wolf,purple,2,3,2,r2,first,,,,\n"
                            "c91,氷の狼,Ice Wolf,blue,2,30,2,b2,,,heal 1,,\n"
                            "c92,風の狼,Wind Wolf,green,2,3,2,q2,flying,,,,\n"
                            "c93,土の狼,Earth Wolf,green,9,3,2,g2,,sometimes 1 2,,grant fly,no\n")
    built = upload_text("creatures.csv", text)
    assert built.content is None
    assert {(p.row, p.field, p.key) for p in built.problems} == {
        (2, "attr", "cardcheck.choice"), (3, "atk", "cardcheck.int_range"), (3, "on_win", "cardcheck.unknown_effect"),
        (4, "mana", "cardcheck.av_mana_icon"), (4, "keywords", "cardcheck.choice"),
        (5, "stars", "cardcheck.int_range"), (5, "battle", "cardcheck.unknown_effect"),
        (5, "support", "cardcheck.choice"), (5, "ninja", "cardcheck.av_ninja_cell")}
    assert all(p.column and p.file == "creatures.csv" for p in built.problems)
    assert_readable(built)
    one = next(p for p in built.problems if p.field == "atk")
    assert one.render("en") == 'creatures.csv, row 3, card “c91”, column “atk”: must be a whole number from 0 to 20, not 30.'
    assert one.render("ja") == "creatures.csv・3行目・カード「c91」・列「atk」：0〜20の整数にしてください（30になっています）。"


def test_schema_problems_of_a_csv_are_named_by_row_and_column_deck_by_deck():
    """Deck rules (「40枚のカードの山」, copies by originality, one ★5) are each reported, on the
    deck's row and the column the rule is about."""
    files, _ = uploads(DATA, "[ac]*.csv")             # creatures, avatars (no decks)
    decks = ("id,name_ja,name_en,avatar,cards\n"
             "wolf,狼の群れ,Wolf Pack,a7,c45*5 c07 c14\n"
             "twin,双子,Twins,a1,c45*4 c15*4 c16*4 c17*3 c18*2 c19*2 c20 c29*4 c30*4 c22*4 c23*4 c24*3 c25\n"
             "Bad Deck,悪い,Bad,zz,c45\n")
    got, bad = read_upload("decks.csv", decks.encode())
    built = build_set("avalon", files + got, "extend", read_problems=bad)
    assert {(p.row, p.card, p.field, p.key) for p in built.problems} == {
        (2, "deck 'wolf'", "cards", "avalon.deck.size"), (2, "deck 'wolf'", "cards", "avalon.deck.copies"),
        (2, "deck 'wolf'", "cards", "avalon.deck.star5"),
        (3, "deck 'twin'", "avatar", "cardcheck.av_avatar_shared"),
        (4, "deck 'bad deck'", "id", "cardcheck.id_format")}
    assert_readable(built)
    shared = next(p for p in built.problems if p.key == "cardcheck.av_avatar_shared")
    assert "“dawn”" in shared.render("en") and "「dawn」" in shared.render("ja")


def test_the_mistakes_file_makes_exactly_its_two_problems():
    """tests/data/card_sets/avalon/mistakes.json, as the end-to-end test applies it."""
    built = build(uploads(DATA, edits={MISTAKES["file"]: MISTAKES["edits"]}))
    assert sorted((p.row, p.field) for p in built.problems) == sorted(tuple(x) for x in MISTAKES["expect"])
    assert {p.file for p in built.problems} == {MISTAKES["file"]}
    assert_readable(built)


def test_a_card_missing_a_number_is_asked_for_and_its_deck_is_not_blamed():
    """A layout's header only tells which kind of card a row is; the card check asks for the rest,
    on the card's row and column, and the decks holding the card (frost) are not blamed for it."""
    built = build(uploads(DATA, edits={"creatures.csv": [[3, "atk", ""], [4, "mana", ""]]}))
    assert {(p.row, p.card, p.field, p.key) for p in built.problems} == {
        (3, "c45", "atk", "cardcheck.required"), (4, "c46", "mana", "cardcheck.required")}
    assert_readable(built)


def test_a_json_upload_names_entries_by_number_and_every_field():
    data = {"cards": [
        {"id": "c95", "category": "creature", "name": {"en": "X", "ja": "X"}, "attr": "red", "orig": 2, "atk": 2,
         "dur": 2, "mana": {"r": 1, "q": 1}, "on_attack": {"draw": 1}, "text": {"en": "x", "ja": "x"}},
        {"id": "s95", "category": "support", "name": {"en": "Z", "ja": "Z"}, "orig": 1,
         "support": {"kind": "informant", "n": 2}},
        5, {"category": "avatar", "name": {"en": "Y", "ja": "Y"}}],
        "decks": {"d1": {"name": {"en": "D", "ja": "D"}, "spec": {"avatar": "a1", "cards": {"c95": 40}}}}}
    built = upload_json(data)
    assert {(p.row, p.entry, p.field, p.key) for p in built.problems} == {
        (1, True, "mana", "cardcheck.av_mana_icon"), (1, True, "on_attack", "cardcheck.unknown_field"),
        (1, True, "text", "cardcheck.av_text"), (2, True, "support.n", "cardcheck.unknown_param"),
        (3, True, None, "cardcheck.not_object"), (4, True, "id", "cardcheck.id_format")}
    assert_readable(built)                             # the deck naming c95 is not blamed for it


def test_an_unknown_effect_is_refused_naming_it():
    """"A card's effects are the truth: an unknown effect is refused, naming it"."""
    built = upload_text("creatures.csv", CREATURE_HEAD + "c90,炎の狼,Flame Wolf,red,2,3,2,r2,,,fly 2,,\n")
    p, = built.problems
    assert (p.row, p.field, p.key, p.params["name"]) == (2, "on_win", "cardcheck.unknown_effect", "fly")
    assert "“fly”" in p.render("en") and "「fly」" in p.render("ja")
    built = upload_text("magic.csv", "id,name_en,stars,magic\nm90,Meteor,2,meteor 3\n")
    assert built.problems[0].params["name"] == "meteor" and built.problems[0].field == "magic"
    built = upload_json({"cards": [{"id": "m90", "category": "magic", "name": {"en": "M", "ja": "M"}, "orig": 2,
                                    "magic": {"kind": "meteor"}}]})
    p, = built.problems
    assert (p.key, p.params["name"], p.field) == ("cardcheck.unknown_effect", "meteor", "magic")


def test_a_rules_patch_and_an_editions_block_are_refused():
    """"A set changes cards, never a rule of the game: a rules patch in an upload is refused";
    an ``editions`` block too — each said once."""
    built = upload_json({"target_mana": 6, "rules": {"hand_size": 9},
                         "editions": {"6": {"cards": {"c01": {"atk": 9}}}}, "cards": []})
    assert {(p.field, p.key) for p in built.problems} == {
        ("target_mana", "cardcheck.rules_patch"), ("rules", "cardcheck.rules_patch"),
        ("editions", "cardcheck.no_editions")}
    assert_readable(built)
    built = upload_json({"cardz": []})                  # a typo is not called a rule
    assert [(p.field, p.key) for p in built.problems] == [("cardz", "cardcheck.unknown_section")]
    assert "cards, decks, comment" in built.problems[0].render("en")


def test_a_set_that_stands_alone_needs_two_ready_made_decks():
    one = upload_json(shipped_alone(["dawn"]), "alone")
    p, = one.problems
    assert (p.key, p.params) == ("cardcheck.too_few_decks", {"n": 2, "count": 1})
    two = upload_json(shipped_alone(["dawn", "ember"]), "alone")
    assert two.ok and set(two.cardset["decks"]) == {"dawn", "ember"}
    none = build(uploads(DATA), "alone")                 # its decks hold shipped cards it does not bring
    assert any(p.key == "avalon.deck.unknown_card" and p.params["card"] == "c15" for p in none.problems)


# --------------------------------------------------------------------------- versions

TWO_CARDS_CSV = {
    "creatures.csv": "id,name_ja,name_en,attr,stars,atk,dur,mana,keywords,target_minus,battle,battle_start,ninja,"
                     "support,wording_ja,wording_en\n"
                     "c60,雷の狼,Thunder Wolf,yellow,3,3,4,y2 w1,first counter,1,invade 1 -1,life 1,yes,stat dur=2,"
                     "雷鳴とともに。,With the thunder.\n",
    "magic.csv": "id,name_ja,name_en,stars,magic\nm60,星の雨,Star Rain,2,draw 3\n",
}
TWO_CARDS_JSON = {"cards": [
    {"id": "c60", "category": "creature", "name": {"ja": "雷の狼", "en": "Thunder Wolf"}, "attr": "yellow",
     "orig": 3, "atk": 3, "dur": 4, "mana": {"w": 1, "y": 2}, "keywords": ["first", "counter"], "target_minus": 1,
     "battle": {"atk": 1, "dur": -1, "when": "invade"}, "battle_start": {"life": 1}, "ninja": True,
     "support": {"kind": "stat", "dur": 2}, "wording": {"ja": "雷鳴とともに。", "en": "With the thunder."}},
    {"id": "m60", "category": "magic", "name": {"ja": "星の雨", "en": "Star Rain"}, "orig": 2,
     "magic": {"kind": "draw", "n": 3}}]}


def test_a_json_upload_of_the_same_cards_is_the_same_version_as_the_csv_upload():
    files = []
    for name, text in TWO_CARDS_CSV.items():
        files += read_upload(name, text.encode())[0]
    from_csv = build_set("avalon", files, "extend")
    from_json = upload_json(TWO_CARDS_JSON, name="cards.json")
    assert from_csv.ok and from_json.ok
    assert from_csv.content.digest() == from_json.content.digest()
    built = build(uploads(DATA))
    again = json.loads(json.dumps(merged_sections(built.content.files)))
    for card in again["cards"]:
        if card["id"] in built.content.wording:
            card["wording"] = built.content.wording[card["id"]]
    assert upload_json(again).content.digest() == built.content.digest()


def test_the_export_reads_back_to_the_same_version():
    built = build(uploads(DATA))
    files = export_files(built.content, "Frost & Blaze")
    assert sorted(files) == ["Frost_Blaze.json", "Frost_Blaze_avatar.csv", "Frost_Blaze_creature.csv",
                             "Frost_Blaze_deck.csv", "Frost_Blaze_magic.csv", "Frost_Blaze_support.csv"]
    as_json = build_set("avalon", read_upload("Frost_Blaze.json", files["Frost_Blaze.json"])[0], "extend")
    csvs = [f for name, data in files.items() if name.endswith(".csv") for f in read_upload(name, data)[0]]
    as_csv = build_set("avalon", csvs, "extend")
    assert as_json.content.digest() == as_csv.content.digest() == built.content.digest()


def test_every_shipped_card_round_trips_through_the_csv_layouts():
    """The layouts cover everything the engine knows: the shipped cards and decks written as CSV
    rows and read back are the same cards and decks."""
    from data.card_sets.model import SetContent

    shipped = AD.shipped_files(None)
    content = SetContent("avalon", "alone", None, [[label.split("/")[-1], data] for label, data in shipped])
    files = export_files(content, "shipped")
    csvs = [f for name, data in files.items() if name.endswith(".csv") for f in read_upload(name, data)[0]]
    built = build_set("avalon", csvs, "alone")
    assert built.ok, [p.render("en") for p in built.problems]
    cardset, problems = AD.validate(shipped)
    assert problems == [] and built.cardset == cardset


def test_a_changed_number_is_named_in_words_in_the_diff():
    """"compares versions in words ("Firewall Refresh: cost 1 → 2")"."""
    row, column, value, words = MISTAKES["change"]
    old = build(uploads(DATA))
    new = build(uploads(DATA, edits={MISTAKES["file"]: [[row, column, value]]}))
    found = diff.changes(AD.entries(old.cardset, old.own), AD.entries(new.cardset, new.own))
    assert diff.render(found, "en") == [words]
    assert diff.render(found, "ja") == ["霜の野兎：攻撃値 1 → 2"]
    deck = next(e for e in AD.entries(old.cardset, old.own) if e.id == "frost")
    assert deck.rules["en"].startswith("Avatar: Frost Seer Yuki. Tidepool Scribe ×4")
    subject = next(f for f in AD.entries(old.cardset, old.own) if f.id == "c46").facts
    assert ("battle.atk", "+1") in [(f.key, f.value["en"]) for f in subject]


# --------------------------------------------------------------------------- rules text

def test_the_rules_text_is_generated_from_each_effect():
    """"the rules text players see is GENERATED from the card's data, shown beside the set's own
    wording — a card cannot say one thing and do another"."""
    built = build(uploads(DOCS, "avalon_*.csv"))
    cards = built.cardset["cards"]
    assert card_text(cards["c46"]) == {
        "en": "Blue creature ★2, 2/4. Mana: 2 blue. When it battles as the defender (resolves at step 4): +1 attack "
              "and +2 durability. When it is destroyed in battle: add the top card of your memory to your life.",
        "ja": "青属性クリーチャー★2、攻撃値2／耐久値4。魔素：青2。防衛側で戦闘する時（発動順4）：攻撃値+1・耐久値+2。"
              "戦闘で自身が倒された時：メモリーの上から1枚をライフに加える。"}
    assert card_text(cards["c47"])["en"].endswith(
        "When summoned: draw a card. Battle support (resolves at step 8): your creature gains reflect.")
    assert card_text(cards["c51"])["ja"].endswith("自分のセットフェイズに手札から捨てて使える：カードを1枚引く。")
    assert card_text(cards["m11"])["en"] == ("Magic: Destroy another player's creature of originality 1 or less on "
                                             "a land (its mana stays).")
    assert card_text(cards["s12"])["en"] == "Battle support (resolves at step 4): your creature gets +2 durability."
    life = {"id": "m61", "category": "magic", "name": {"en": "L", "ja": "L"}, "orig": 3, "magic": {"kind": "life", "n": 2}}
    assert card_text(life)["en"] == "Magic: Add the top 2 cards of your memory to your life."
    entry = next(e for e in AD.entries(built.cardset, built.own) if e.id == "c46")
    assert entry.rules == card_text(cards["c46"]) and entry.view["text"] == entry.rules


def test_the_page_draws_each_card_as_the_hand_does(tmp_path):
    from render import avalon as render_avalon
    from render.base import make_ctx
    from render.card_pages import page_png

    built = build(uploads(DOCS, "avalon_*.csv"))
    entries = [e for e in AD.entries(built.cardset, built.own) if e.own]
    for locale in ("en", "ja"):
        png = page_png("avalon", entries[:6], title="Frost", page=1, pages=3, locale=locale)
        assert png[:4] == b"\x89PNG"
    ctx = make_ctx("avalon", "ja", None, None, None)
    eng = AD.engine(built.cardset, built.own)
    s = eng.new_match(players=2, seed=3)
    view = eng.view(s, 0)
    cid = view["hand"][0]
    hand, = render_avalon.hand_cards(view, ctx, [cid])
    assert render_avalon.sheet_card(view["cards"][cid], ctx) == hand


# --------------------------------------------------------------------------- playing

def _play(eng, players: int, seed: int, limit: int = 3000) -> tuple[dict | None, int]:
    s = eng.new_match(players=players, seed=seed)
    rng = random.Random(seed)
    n = 0
    while eng.outcome(s) is None and eng.to_act(s) and n < limit:
        seat = eng.to_act(s)[0]
        legal = eng.legal_commands(s, seat)
        command = ai.choose("avalon", eng.view(s, seat), legal, seat, level="normal", seed=rng.randrange(1 << 30),
                            game=eng)
        s = eng.apply(s, seat, command)
        n += 1
    return eng.outcome(s), n


def test_a_full_match_plays_with_the_sets_engine_and_its_decks():
    """"The bot then plays matches with the set's cards (the engine built from the set)"; the AI
    plays it from views through ``determinize``, guessing hidden cards from the set's decks."""
    built = build(uploads(DATA))
    eng = AD.engine(built.cardset, built.own)
    assert eng.option_schema()["decks"]["default"] == ["frost", "blaze"]
    first = _play(eng, 2, 5)
    assert first[0] is not None and first[1] > 10
    assert _play(eng, 2, 5) == first                       # seeded: the same match again
    s = eng.new_match(players=2, seed=5)
    assert [p.avatar for p in s.players] == ["a7", "a8"]
    assert "c45" in s.defs and s.defs["c02"]["on_win"] == {"draw": 1}


def test_a_set_with_two_decks_starts_three_and_four_player_matches():
    """Seat n plays ready-made deck n, counted round again beyond the decks."""
    two = upload_json(shipped_alone(["tide", "grove"]), "alone")
    eng = AD.engine(two.cardset, two.own)
    for players in (3, 4):
        s = eng.new_match(players=players, seed=2)
        assert [p.avatar for p in s.players] == ["a2", "a4", "a2", "a4"][:players]
        for _ in range(12):                                # the AI guesses from the deck of each avatar
            if eng.outcome(s) is not None:
                break
            seat = eng.to_act(s)[0]
            s = eng.apply(s, seat, ai.choose("avalon", eng.view(s, seat), eng.legal_commands(s, seat), seat,
                                             level="normal", seed=1, game=eng))
