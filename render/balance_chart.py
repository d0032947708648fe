"""The picture of a card set's balance run (``/cards balance``): the win-rate heatmap of its
ready-made decks — each cell the row deck's share against the column deck with its 95 %
interval, green when fair (40–60 %), red the further it is from even — then the first player's
share and the share of matches that hit a cap, each with its interval and its target.  600 px
wide, no text under 15 px (10 px when shown 400 px wide); deck names are shortened with "…",
never overlapped.  Every word comes from the catalog (``cards.chart.*``).

It draws the figures it is handed — the run's plan (its decks and matches per seat order) and
what ``balance.sets.figures`` made of its results — and imports nothing above ``render/``.

>>> share = {"share": 0.5, "n": 4, "ci95": [0.15, 0.85], "verdict": "undecided"}
>>> figures = {"pairings": [{"a": "a", "b": "b", **share}], "first": share, "caps": dict(share, share=0.0),
...            "draws": {"share": 0.0, "n": 4, "count": 0, "ci95": [0.0, 0.49]}, "played": 4, "planned": 4}
>>> png = chart_png("art_of_war", {"decks": ["a", "b"], "per_order": 2}, figures, {"a": "Owls", "b": "Hawks"},
...                 locale="ja", title="Owl Kings v1")
>>> png[:4] == b"\\x89PNG"
True
"""
from __future__ import annotations

from typing import Any

from PIL import Image

from data import i18n
from render.base import encode_png
from render.matrix import matrix_image, mirrored, pct


def chart_image(game: str, plan: dict, figures: dict, names: dict[str, str], *, locale: Any = "en",
                title: str = "") -> Image.Image:
    """``plan``: the run's plan (``decks``, ``per_order``); ``figures``: its results' figures
    (``pairings``, ``first``, ``caps``, ``draws``, ``played``, ``planned``)."""
    loc = i18n.locale_of(locale)
    f = figures
    decks = list(plan["decks"])
    index = {d: i for i, d in enumerate(decks)}
    cells = {(index[p["a"]], index[p["b"]]): p for p in f["pairings"]}
    t = lambda key, **p: i18n.t(key, loc, **p)  # noqa: E731
    footer = [t(f"cards.chart.{key}", share=pct(f[key]["share"]), low=pct(f[key]["ci95"][0]),
                high=pct(f[key]["ci95"][1]), n=f[key]["n"], verdict=t(f"cards.balance.verdict.{f[key]['verdict']}"))
              for key in ("first", "caps") if f[key]["n"]]
    if f["draws"]["count"]:
        d = f["draws"]
        footer.append(t("cards.chart.draws", share=pct(d["share"]), low=pct(d["ci95"][0]), high=pct(d["ci95"][1]),
                        n=d["n"], count=d["count"]))
    return matrix_image([names.get(d, d) for d in decks], mirrored(cells), title=title or t("cards.chart.title"),
                        subtitle=t(f"game.{game}"),
                        rule=t("cards.chart.rule", n=2 * plan.get("per_order", 0), done=f["played"], total=f["planned"]),
                        footer=footer, legend=t("cards.chart.legend"))


def chart_png(game: str, plan: dict, figures: dict, names: dict[str, str], **kw: Any) -> bytes:
    return encode_png(chart_image(game, plan, figures, names, **kw))


__all__ = ["chart_png", "chart_image"]
