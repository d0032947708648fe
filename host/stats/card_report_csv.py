"""The per-card report of limited play (:mod:`host.stats.card_figures`) as a CSV file for a card
designer's spreadsheet: a header row in the reader's language (``card_report.csv.*`` of the
catalog), then one row per card in the report's order (win rate in the deck, highest first).

Written with the project's CSV helper (:func:`data.csv_export.to_csv`): UTF-8 with a byte-order
mark, CRLF, and every text cell a spreadsheet could run as a formula — a card name or id starting
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return — prefixed with ``'``.  A figure below
its minimum sample is an empty cell (its plain count still shows); percentages have one decimal,
an average pick position two.  No player is named: the report holds none.

>>> from host.stats.card_figures import report
>>> text = report_csv_text(report((), (), (), cards=["x"]), {"x": "=1+1"}, "en")
>>> text.splitlines()[1]
"'=1+1,x,,,,0,,,,0,,,,0,,,,0,,,,0,0,0,0,,"
"""
from __future__ import annotations

from typing import Any, Mapping

from data import i18n
from data.csv_export import to_csv
from host.stats.card_figures import CardReport, Figure

COLUMNS = ("card", "card_id", "avg_pick", "avg_pick_low", "avg_pick_high", "taken", "pick_pct", "pick_low",
           "pick_high", "offered", "deck_pct", "deck_low", "deck_high", "deck_n", "drawn_pct", "drawn_low",
           "drawn_high", "drawn_n", "played_pct", "played_low", "played_high", "played_n", "strong", "weak",
           "surveyed", "strong_pct", "weak_pct")


def _pct(x: float | None) -> float | None:
    return None if x is None else round(100 * x, 1)


def _share(f: Figure | None) -> list[Any]:
    return [None, None, None] if f is None else [_pct(f.value), _pct(f.low), _pct(f.high)]


def _position(f: Figure | None) -> list[Any]:
    return [None, None, None] if f is None else [round(f.value, 2), round(f.low, 2), round(f.high, 2)]


def header(locale: Any) -> list[str]:
    """The column headers in the reader's language."""
    loc = i18n.locale_of(locale)
    return [i18n.t(f"card_report.csv.{k}", loc) for k in COLUMNS]


def rows(report: CardReport, names: Mapping[str, str]) -> list[list[Any]]:
    """One list of cells per card (``names``: card id → the name shown; the id when missing)."""
    out = []
    for r in report.rows:
        name = names.get(r.card) or r.card
        out.append([str(name), r.card, *_position(r.avg_pick), r.taken, *_share(r.pick_rate), r.offered,
                    *_share(r.in_deck), r.games, *_share(r.drawn), r.drawn_games, *_share(r.played), r.played_games,
                    r.strong, r.weak, r.surveyed, _pct(r.strong_share), _pct(r.weak_share)])
    return out


def report_csv(report: CardReport, names: Mapping[str, str], locale: Any) -> bytes:
    """The report as CSV bytes (UTF-8 with a byte-order mark: spreadsheets read Japanese right)."""
    return to_csv(header(locale), rows(report, names))


def report_csv_text(report: CardReport, names: Mapping[str, str], locale: Any) -> str:
    """The same CSV as text (no byte-order mark)."""
    return report_csv(report, names, locale).decode("utf-8-sig")


__all__ = ["COLUMNS", "header", "rows", "report_csv", "report_csv_text"]
