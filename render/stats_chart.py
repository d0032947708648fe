"""The matchup picture of a server's statistics (``/stats``): each deck's win rate against each
other deck with its 95 % interval (:mod:`render.matrix`), cells of fewer than
:data:`data.intervals.MIN_CELL` matches greyed and labelled with their count; under it the
first player's win rate and the median length.  At most :data:`MOST` decks, the most played.
It draws the figures it is handed (``/stats``'s: decks, matchups, the first player, the median length)
and imports nothing above ``render/``.

>>> figures = {"decks": {"a": {"n": 9, "share": 0.5, "ci95": [0.2, 0.8]}, "own": {"n": 9, "share": 0.5,
...            "ci95": [0.2, 0.8]}}, "matchups": {("a", "own"): {"n": 9, "share": 0.6, "ci95": [0.3, 0.85]}},
...            "first": {"n": 9, "share": 0.5, "ci95": [0.2, 0.8]}, "median_length": 40.0, "by": "match"}
>>> chart_png("art_of_war", figures, {"a": "Iron Wall", "own": "own decks"}, locale="en", title="Stats")[:4]
b'\\x89PNG'
"""
from __future__ import annotations

from typing import Any

from data import i18n
from data.intervals import MIN_CELL
from render.base import encode_png
from render.matrix import matrix_image, pct

MOST = 8


def chart_image(game: str, figures: dict, names: dict[str, str], *, locale: Any = "en", title: str = "",
                subtitle: str = "") -> Any:
    loc = i18n.locale_of(locale)
    t = lambda key, **p: i18n.t(key, loc, **p)  # noqa: E731
    decks = [d for d, _ in sorted(figures["decks"].items(), key=lambda kv: (-kv[1]["n"], kv[0]))][:MOST]
    index = {d: i for i, d in enumerate(decks)}
    cells = {(index[a], index[b]): c for (a, b), c in figures["matchups"].items() if a in index and b in index}
    first = figures["first"]
    footer = []
    if first.get("n"):
        footer.append(t(i18n.game_key("stats.chart.first", game), share=pct(first["share"]),    # SQUARES: 先番
                        low=pct(first["ci95"][0]), high=pct(first["ci95"][1]), n=first["n"]))
    if figures.get("median_length") is not None:
        footer.append(t("stats.chart.length", n=f"{figures['median_length']:g}"))
    return matrix_image([names.get(d, d) for d in decks], cells, title=title or t("stats.chart.title"),
                        subtitle=subtitle or t(f"game.{game}"),
                        rule=t(f"stats.chart.rule_{figures.get('by', 'match')}", min=MIN_CELL),
                        footer=footer, legend=t("stats.chart.legend", min=MIN_CELL),
                        too_few=t("stats.chart.too_few"), min_n=MIN_CELL)


def chart_png(game: str, figures: dict, names: dict[str, str], **kw: Any) -> bytes:
    return encode_png(chart_image(game, figures, names, **kw))


__all__ = ["chart_png", "chart_image", "MOST"]
