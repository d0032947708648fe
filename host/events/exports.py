"""A league's CSV exports for the organiser (``/league-admin export``), headers in the reader's
language, written by :func:`data.csv_export.to_csv` (UTF-8 with BOM, formula-looking text
escaped).  Pure.

* ``standings.csv``: place, name, status, wins, losses, draws, byes, points, then each tiebreak
  of the league's scoring preset as a number (percentages as percent, 4 decimals: 66.6667).
* ``pairings.csv``: round, pairing number, player A, player B (empty for a bye), the result in
  words, how it was decided, the bot match's number (empty when there was none).
* ``decklists.csv``: every registered deck, one row per card — player, deck, hash, section,
  card (by name), count (:func:`host.events.entry.decklists_table`; the organiser's file: a
  closed list is the organiser's business).

Another file is one more ``(file name, builder)`` in :data:`FILES`: a builder takes the league
document and the locale and returns ``(header, rows)``.

>>> d = {"players": [{"id": 1, "name": "Ann", "status": "active"}], "pairings": [], "scoring": "card"}
>>> [name for name, _ in files(d, "en")]
['standings.csv', 'pairings.csv', 'decklists.csv']
"""
from __future__ import annotations

from typing import Any, Callable

from data import i18n
from data.csv_export import to_csv
from host import leagues as L
from host.events.entry import decklists_table
from host.events.words import how_text, result_text, status_text

PERCENT = frozenset({"omw", "gwp", "ogw", "owp", "oowp"})
Table = tuple[list[str], list[list[Any]]]


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def tiebreak_value(key: str, value: float) -> int | float:
    """A tiebreak as the CSV writes it: percentages as percent (4 decimals), others as they are."""
    if key in PERCENT:
        return round(float(value) * 100, 4)
    return _number(round(float(value), 6))


def standings(d: dict, locale: str) -> Table:
    columns = L.tiebreaks(d)
    header = [i18n.t(f"events.csv.col.{k}", locale) for k in
              ("place", "name", "status", "wins", "losses", "draws", "byes", "points")]
    header += [i18n.t(f"events.pic.col.{k}", locale) for k in columns]
    rows = [[r.place, r.name, status_text(r.status, locale), r.wins, r.losses, r.draws, r.byes, _number(r.points)]
            + [tiebreak_value(k, r.tiebreaks.get(k, 0.0)) for k in columns] for r in L.table(d)]
    return header, rows


def pairings(d: dict, locale: str) -> Table:
    names = {p["id"]: p["name"] for p in d["players"]}
    header = [i18n.t(f"events.csv.col.{k}", locale) for k in
              ("round", "pairing", "player_a", "player_b", "result", "how", "match")]
    rows = [[p["round"], p["id"], names.get(p["a"], str(p["a"])),
             "" if p["b"] is None else names.get(p["b"], str(p["b"])), result_text(p, names, locale),
             how_text(p.get("how") if p.get("result") is not None else None, locale), p.get("match")]
            for p in sorted(d["pairings"], key=lambda p: (p["round"], p["id"]))]
    return header, rows


FILES: tuple[tuple[str, Callable[[dict, str], Table]], ...] = (
    ("standings.csv", standings),
    ("pairings.csv", pairings),
    ("decklists.csv", decklists_table),
)


def files(d: dict, locale: str) -> list[tuple[str, bytes]]:
    """Every export of the league: (file name, CSV bytes)."""
    return [(name, to_csv(*build(d, locale))) for name, build in FILES]
