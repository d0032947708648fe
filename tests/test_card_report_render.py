"""The picture of the per-card figures of limited play (render/card_report.py): 800 px wide, every
text at least 8 px once shown 400 px wide, in both languages, 20 cards a page (the most played
first), "—" below a sample, a long name shortened with "…", drawn from the report's plain data."""
from __future__ import annotations

import doctest
import io

import pytest
from PIL import Image

from data import i18n
from render import card_report as CR
from render.fonts import drawn_text
from render.textfit import min_px

LONG = "The Unbelievably Long-Winded Archivist of the Thousand Forgotten Libraries of the Drowned Southern Coast " * 2


def drawn(report, names, **kw):
    with drawn_text() as texts:
        img = CR.report_image(report, names, **kw)
    return img, [s for _, s in texts], min(size for size, _ in texts)


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_a_page_is_800_px_wide_readable_on_a_phone_and_not_empty(locale):
    report, names = CR.sample_report(26, japanese=locale == "ja")
    img, texts, smallest = drawn(report, names, locale=locale, set_name="Owl Kings", version=3)
    assert img.width == 800 and 600 < img.height < 2000
    assert smallest * 400 / img.width >= 8 and smallest >= min_px(800)
    colours = img.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is not None and len(colours) > 20                      # a drawn table, not a blank page
    for key in ("avg_pick", "pick_rate", "in_deck", "drawn", "played"):
        assert i18n.t(f"card_report.pic.col.{key}", locale).split()[0] in " ".join(texts)
    png = CR.report_png(report, names, locale=locale, set_name="Owl Kings", version=3)
    assert Image.open(io.BytesIO(png)).size == img.size


def test_the_japanese_picture_draws_japanese_names_and_words():
    report, names = CR.sample_report(8, japanese=True)
    _, texts, _ = drawn(report, names, locale="ja", set_name="フクロウの王たち", version=2)
    assert "灰刃の決闘士" in texts and "平均ピック順" in texts
    assert any(t.startswith("フクロウの王たち（バージョン2）") for t in texts)
    assert any("〜" in t for t in texts) and not any("Avg" in t for t in texts)


def test_twenty_of_the_most_played_cards_a_page_in_the_reports_order():
    report, names = CR.sample_report(45)
    lines = CR.lines_of(report, names)
    assert CR.report_pages(len(lines)) == 3
    pages = [CR.page_lines(lines, p) for p in range(3)]
    assert [len(p) for p in pages] == [20, 20, 5]
    games = [line.games for line in lines]
    top = sorted(games, reverse=True)
    assert sorted((line.games for line in pages[0]), reverse=True) == top[:20]   # the most played on page 1
    order = {line.name: i for i, line in enumerate(lines)}
    for page in pages:                                 # on a page: the report's order
        assert [order[line.name] for line in page] == sorted(order[line.name] for line in page)
    _, texts, _ = drawn(report, names, locale="en", set_name="S", version=1, page=1)
    drawn_names = {line.name for line in pages[1]}
    assert drawn_names <= set(texts) and not ({line.name for line in pages[0]} & set(texts) - drawn_names)
    assert any("page 2 of 3" in t for t in texts)


def test_a_figure_below_its_sample_is_a_dash_and_a_figure_shows_its_interval():
    report = {"rows": [{"card": "a", "avg_pick": None, "pick_rate": None,
                        "in_deck": {"value": 0.52, "low": 0.45, "high": 0.59, "n": 200},
                        "drawn": None, "played": None, "games": 200, "strong": 2, "weak": 1, "surveyed": 9}],
              "totals": {"drafts": 1, "matches": 2, "surveys": 3}, "fun": None,
              "minimums": {"games": 20, "drafts": 10, "surveys": 5}}
    _, texts, _ = drawn(report, {"a": "Owl"}, locale="en", set_name="S", version=1)
    assert "52%" in texts and "45–59" in texts
    assert texts.count("—") == 4
    assert "2 / 1" in texts and "of 9" in texts
    assert any("fewer than 5 answers" in t for t in texts)


def test_a_long_name_is_shortened_with_an_ellipsis():
    report, names = CR.sample_report(3)
    names = {**names, report["rows"][0]["card"]: LONG}
    _, texts, _ = drawn(report, names, locale="en", set_name="S", version=1)
    assert LONG.strip() not in texts
    parts = [t for t in texts if t.startswith("The Unbelievably") or t.endswith("…")]
    assert parts and parts[-1].endswith("…")          # two lines at most, the second cut


def test_the_picture_draws_a_real_report_and_an_empty_one():
    from host.stats.card_figures import SeatGame, report

    games = [SeatGame(m, s, frozenset({"x", "y"}), frozenset({"x"}), frozenset({"x"}), float(s == 0))
             for m in range(12) for s in (0, 1)]
    data = report((), games, (), cards=["x", "y", "z"]).to_json()
    _, texts, _ = drawn(data, {"x": "Ember Fox", "y": "Moss Witch"}, locale="en", set_name="S", version=4)
    assert {"Ember Fox", "Moss Witch", "z", "50%"} <= set(texts)   # 12 of 24 seat-games won
    img, texts, _ = drawn({"rows": []}, {}, locale="ja", set_name="S", version=1)
    assert img.width == 800 and i18n.t("card_report.pic.empty", "ja") in "".join(texts)


def test_the_module_examples_hold():
    assert doctest.testmod(CR).failed == 0
