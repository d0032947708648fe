"""The tournament pictures: elimination brackets (render/bracket.py) and standings
(render/standings.py) — pages, phone legibility (text ≥ 8 px once shown 400 px wide), shortened
names, Japanese, and no text drawn over another."""
from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bench.event_samples import sample_view, write_samples
from data import i18n
from render import fonts
from render.bracket import draw_bracket, draw_images, min_text_px
from render.standings import draw_standings, number_text, sample_rows, standings_pages, tiebreak_text
from render.textfit import fit_name

PNG = b"\x89PNG\r\n\x1a\n"


def valid_png(data: bytes) -> Image.Image:
    assert data[:8] == PNG
    Image.open(io.BytesIO(data)).verify()
    return Image.open(io.BytesIO(data))


def drawn(fn, *args, **kwargs) -> tuple[object, list[tuple[int, str]]]:
    with fonts.drawn_text() as record:
        out = fn(*args, **kwargs)
    return out, list(record)


# --------------------------------------------------------------------------- brackets
def test_16_player_single_elimination_is_one_readable_page():
    view = sample_view(16, "single")
    pages = draw_bracket(view, "en")
    assert len(pages) == 1
    img = valid_png(pages[0])
    assert img.width == 800 and img.mode == "P"          # a palette PNG: small
    assert min_text_px(view, "en") >= 8
    assert min_text_px(view, "ja") >= 8


def test_16_player_double_elimination_is_winners_then_losers_and_grand_final():
    view = sample_view(16, "double")
    pages, texts = drawn(draw_bracket, view, "en")
    assert len(pages) == 2
    for png in pages:
        valid_png(png)
    assert min_text_px(view, "en") >= 8 and min_text_px(view, "ja") >= 8
    strings = [s for _, s in texts]
    assert i18n.t("events.pic.section.winners", "en") in strings
    assert i18n.t("events.pic.section.losers_final", "en") in strings
    assert "Grand" in strings and "final" in strings         # the row name, wrapped on the left


@pytest.mark.parametrize("width", [800, 1200])
def test_the_smallest_text_scales_with_the_width(width):
    view = sample_view(16, "double")
    assert min_text_px(view, "en", width=width) >= 8
    assert all(valid_png(p).width == width for p in draw_bracket(view, "en", width=width))


def test_64_player_double_elimination_is_split_into_titled_parts():
    view = sample_view(64, "double")
    pages, texts = drawn(draw_bracket, view, "en")
    assert len(pages) > 2
    for png in pages:
        img = valid_png(png)
        assert img.height <= 1.4 * img.width                # a phone shows it whole
    assert min_text_px(view, "en") >= 8
    strings = [s for _, s in texts]
    winners = i18n.t("events.pic.section.winners", "en")
    parts = [s for s in strings if s.startswith(winners + " (")]
    assert parts and parts[0].endswith("(1/5)") and parts[-1].endswith("(5/5)")


def test_64_player_single_elimination_is_four_quarters_and_the_later_rounds():
    view = sample_view(64, "single")
    pages, texts = drawn(draw_bracket, view, "en")
    assert len(pages) == 5
    strings = [s for _, s in texts]
    assert strings.count(i18n.t("events.pic.round.final", "en")) == 1        # only on the last page
    assert strings.count(i18n.t("events.pic.round.quarter", "en")) == 5      # each quarter's end, then again


def test_fit_name_shortens_with_an_ellipsis_and_keeps_what_fits():
    font = fonts.font(18)
    long = "Bartholomew " * 7 + "Smith"                  # 82 characters
    assert len(long) >= 80
    short = fit_name(long, font, 150)
    assert short.endswith("…") and len(short) < len(long) and font.getlength(short) <= 150
    assert fit_name("Alice", font, 150) == "Alice"
    assert fit_name("  Alice \n  Smith ", font, 300) == "Alice Smith"
    assert fit_name("Alice", font, 1) == ""


def test_a_long_name_is_drawn_shortened_never_over_its_neighbours():
    view = sample_view(8, "single")
    long = "W" * 80
    view["sections"][0]["rounds"][0]["matches"][0]["slots"][0]["name"] = long
    with fonts.drawn_boxes() as boxes:
        images = draw_images(view, "en")
    texts = [b.text for b in boxes]
    assert long not in texts
    cut = [s for s in texts if s.startswith("WWW")]
    assert cut and all(s.endswith("…") and len(s) < 80 for s in cut)
    assert not fonts.overlaps(boxes)
    assert all(b.box[2] <= images[0].width for b in boxes)


@pytest.mark.parametrize("n,kind", [(16, "single"), (16, "double"), (64, "double"), (12, "double")])
@pytest.mark.parametrize("locale", ["en", "ja"])
def test_no_text_is_drawn_over_another(n, kind, locale):
    with fonts.drawn_boxes() as boxes:
        images = draw_images(sample_view(n, kind), locale)
    assert not fonts.overlaps(boxes)
    assert all(img.width == 800 for img in images)
    assert all(b.box[0] >= 0 and b.box[2] <= 800 for b in boxes)


def test_japanese_pages_draw_japanese_names_and_words_with_the_cjk_font():
    view = sample_view(16, "double")
    pages, texts = drawn(draw_bracket, view, "ja")
    strings = [s for _, s in texts]
    assert any("山田" in s for s in strings)
    assert all(fonts.has_glyph(ch) for ch in "山田太郎")
    for word in ("勝者側トーナメント", "敗者側トーナメント・最終決勝", "準決勝", "勝者側決勝", "最終決勝"):
        assert word in strings, word
    assert not any(re.search(r"[A-Za-z]", s) for s in strings if s in {
        i18n.t(k, "ja") for k in i18n.catalog("ja") if k.startswith("events.pic.round.")})


def test_undecided_and_bye_slots_print_the_localized_words():
    view = {"kind": "single", "sections": [{"key": "winners", "title": "x", "rounds": [
        {"title": "r1", "matches": [
            {"id": "W1-1", "status": "bye", "slots": [{"name": "Alice", "seed": 1, "won": True, "score": None},
                                                     {"name": None, "seed": None, "won": False, "score": None}]},
            {"id": "W1-2", "status": "ready", "slots": [{"name": "Bob", "seed": 2, "won": False, "score": None},
                                                       {"name": "Cleo", "seed": 3, "won": False, "score": None}]}]},
        {"title": "r2", "matches": [
            {"id": "W2-1", "status": "waiting", "slots": [{"name": "Alice", "seed": 1, "won": False, "score": None},
                                                         {"name": None, "seed": None, "won": False,
                                                          "score": None}]}]}]}]}
    for locale, tbd, bye in (("ja", "未定", "不戦勝"), ("en", "TBD", "Bye")):
        pages, texts = drawn(draw_bracket, view, locale)
        strings = [s for _, s in texts]
        assert len(pages) == 1 and tbd in strings and bye in strings
        assert not any(s.startswith(i18n.t("events.pic.champion", locale, name="")) for s in strings)


def test_the_champion_is_named_once_the_last_match_is_played():
    view = sample_view(8, "double")
    last = view["sections"][-1]["rounds"][-1]["matches"][-1]
    winner = next(s["name"] for s in last["slots"] if s["won"])
    _, texts = drawn(draw_bracket, view, "en")
    assert i18n.t("events.pic.champion", "en", name=winner) in [s for _, s in texts]


def test_sample_views_are_deterministic_and_shaped_like_the_hosts():
    assert sample_view(16, "double") == sample_view(16, "double")
    view = sample_view(16, "double")
    assert view["kind"] == "double" and [s["key"] for s in view["sections"]] == ["winners", "losers", "final"]
    assert [len(r["matches"]) for r in view["sections"][0]["rounds"]] == [8, 4, 2, 1]
    assert [len(r["matches"]) for r in view["sections"][1]["rounds"]] == [4, 4, 2, 2, 1, 1]
    for section in view["sections"]:
        for rnd in section["rounds"]:
            for match in rnd["matches"]:
                assert match["status"] in ("done", "bye") and len(match["slots"]) == 2
                assert set(match["slots"][0]) == {"name", "seed", "won", "score"}
    single = sample_view(12, "single")
    assert [len(r["matches"]) for r in single["sections"][0]["rounds"]] == [8, 4, 2, 1]
    assert sum(m["status"] == "bye" for m in single["sections"][0]["rounds"][0]["matches"]) == 4


# --------------------------------------------------------------------------- standings
def test_standings_of_20_are_two_pages_with_the_dropped_player_marked():
    rows = sample_rows(20)
    assert standings_pages(20) == 2 and standings_pages(16) == 1 and standings_pages(0) == 1
    assert standings_pages(33, per_page=16) == 3
    dropped = [r for r in rows if r["status"] == "dropped"]
    assert dropped
    seen = []
    for page in range(2):
        with fonts.drawn_boxes() as boxes:
            png = draw_standings(rows, ["omw", "gwp", "ogw"], "ja", title="順位表", page=page)
        img = valid_png(png)
        assert img.width == 800 and img.mode == "P"
        assert min(b.size for b in boxes) * 400 / img.width >= 8
        assert not fonts.overlaps(boxes)
        seen += [b.text for b in boxes]
    assert "順位表（1/2ページ）" in seen and "順位表（2/2ページ）" in seen
    for word in ("順位", "勝点", "勝-敗-分", "OMW%", "GW%", "OGW%", "棄権"):
        assert word in seen, word
    assert all(r["name"] in seen for r in dropped)
    assert seen.count(i18n.t("events.pic.dropped", "ja")) == len(dropped)


def test_tied_players_print_the_same_place_and_tiebreaks_are_formatted():
    rows = sample_rows(8)
    assert [r["place"] for r in rows][:3] == [1, 2, 2]
    _, texts = drawn(draw_standings, rows, ["omw", "buchholz", "h2h"], "en", title="Standings")
    strings = [s for _, s in texts]
    assert strings.count("2") >= 2
    assert tiebreak_text("omw", 2 / 3) == "66.67" and tiebreak_text("gwp", 1) == "100.00"
    assert tiebreak_text("buchholz", 11.5) == "11.5" and number_text(None) == "—"
    assert f"{rows[0]['tiebreaks']['omw'] * 100:.2f}" in strings
    assert "Buchholz" in strings and "Pts" in strings


def test_standings_shorten_long_names_and_draw_an_empty_table():
    rows = sample_rows(3)
    rows[0]["name"] = "Z" * 80
    _, texts = drawn(draw_standings, rows, ["omw"], "en", title="Standings")
    assert not any(s == "Z" * 80 for _, s in texts)
    assert any(s.startswith("ZZZ") and s.endswith("…") for _, s in texts)
    png, texts = drawn(draw_standings, [], ["omw"], "ja", title="順位表")
    valid_png(png)
    assert i18n.t("events.pic.no_rows", "ja") in [s for _, s in texts]


# --------------------------------------------------------------------------- words, samples
def test_the_japanese_words_of_the_pictures_hold_only_abbreviations_in_latin_letters():
    ja = {k: v for k, v in i18n.catalog("ja").items() if k.startswith("events.pic.")}
    en = {k for k in i18n.catalog("en") if k.startswith("events.pic.")}
    assert set(ja) == en
    for key, text in ja.items():
        words = re.findall(r"[A-Za-z]+", re.sub(r"\{[^}]*\}", "", text))
        assert all(w.isupper() for w in words), (key, text)


def test_the_sample_pictures_are_written(tmp_path):
    written = write_samples(tmp_path, locales=("ja",))
    names = {p.name for p in written}
    assert {"single16_ja_1.png", "double16_ja_1.png", "double16_ja_2.png", "standings20_ja_2.png"} <= names
    assert sum(n.startswith("double64_ja_") for n in names) > 2
    for path in written:
        valid_png(path.read_bytes())
