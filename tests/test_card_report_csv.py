"""The per-card report of limited play as CSV (host/stats/card_report_csv.py): headers in the
reader's language from the catalog, one row per card in the report's order, empty cells where a
figure is below its sample, card names that a spreadsheet would run as a formula escaped."""
from __future__ import annotations

import doctest

import pytest

from data import i18n
from data.csv_export import read_csv
from host.stats import card_report_csv as RC
from host.stats.card_figures import SeatGame, report

CARDS = ["ok", "eq", "plus", "minus", "at", "tab", "jp"]
NAMES = {"ok": "Owl Sentry", "eq": "=HYPERLINK(\"http://x\")", "plus": "+1 Attack", "minus": "-2 Shield",
         "at": "@SUM(A1)", "tab": "\tHidden", "jp": "灰刃の決闘士"}


def sample():
    """22 seat-games: "ok" in every deck (won 11 of 22, a figure), "eq" in the 11 winners' decks only
    (11 games: below the minimum of 20, no figure)."""
    games = []
    for m in range(11):
        games.append(SeatGame(m, 0, frozenset({"ok", "eq"}), frozenset({"ok"}), frozenset(), 1.0))
        games.append(SeatGame(m, 1, frozenset({"ok"}), frozenset(), frozenset(), 0.0))
    return report((), games, (), cards=CARDS)


def test_headers_come_from_the_catalog_in_both_languages():
    for loc in ("en", "ja"):
        head = read_csv(RC.report_csv(sample(), NAMES, loc))[0]
        assert head == [i18n.t(f"card_report.csv.{k}", loc) for k in RC.COLUMNS]
        assert len(set(head)) == len(head)               # no two columns headed alike
    assert read_csv(RC.report_csv(sample(), NAMES, "ja"))[0][:3] == ["カード", "カードID", "平均ピック順"]
    assert read_csv(RC.report_csv(sample(), NAMES, "en"))[0][10] == "win % in deck"


def test_one_row_per_card_in_the_reports_order_with_empty_cells_below_the_sample():
    table = read_csv(RC.report_csv(sample(), NAMES, "en"))
    head, body = table[0], table[1:]
    assert len(body) == len(CARDS)
    col = {k: i for i, k in enumerate(RC.COLUMNS)}
    first = body[0]
    assert (first[col["card"]], first[col["card_id"]]) == ("Owl Sentry", "ok")     # the one with a figure
    # 11 of 22: 50 %, Wilson (30.7 %, 69.3 %)
    assert [first[col[k]] for k in ("deck_pct", "deck_low", "deck_high", "deck_n")] == ["50", "30.7", "69.3", "22"]
    eq = next(r for r in body if r[col["card_id"]] == "eq")
    assert [eq[col[k]] for k in ("deck_pct", "deck_low", "deck_high")] == ["", "", ""]   # 11 games: no figure
    assert eq[col["deck_n"]] == "11"                     # the plain count still shows
    assert eq[col["avg_pick"]] == "" and eq[col["strong_pct"]] == ""
    assert len(head) == len(first) == len(eq)


def test_card_names_that_look_like_formulas_are_escaped():
    table = read_csv(RC.report_csv(sample(), NAMES, "en"))
    shown = {r[1]: r[0] for r in table[1:]}
    assert shown["eq"] == "'=HYPERLINK(\"http://x\")"
    assert shown["plus"] == "'+1 Attack" and shown["minus"] == "'-2 Shield"
    assert shown["at"] == "'@SUM(A1)" and shown["tab"] == "'\tHidden"
    assert shown["ok"] == "Owl Sentry" and shown["jp"] == "灰刃の決闘士"
    # a card id of a server's set is user text too
    ids = read_csv(RC.report_csv(report((), (), (), cards=["=cmd"]), {}, "en"))[1]
    assert ids[:2] == ["'=cmd", "'=cmd"]


def test_the_file_is_utf8_with_a_byte_order_mark_and_the_text_without():
    data = RC.report_csv(sample(), NAMES, "ja")
    assert data.startswith(b"\xef\xbb\xbf") and "灰刃の決闘士".encode() in data
    text = RC.report_csv_text(sample(), NAMES, "ja")
    assert not text.startswith("\ufeff") and text.splitlines()[0].startswith("カード,")


@pytest.mark.parametrize("module", [RC])
def test_the_module_examples_hold(module):
    assert doctest.testmod(module).failed == 0
