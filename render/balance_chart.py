"""The picture of a card set's balance run (``/cards balance``): the win-rate heatmap of its
ready-made decks — each cell the row deck's share against the column deck with its 95 %
interval, green when fair (40–60 %), red the further it is from even — then the first player's
share and the share of matches that hit a cap, each with its interval and its target.  600 px
wide, no text under 15 px (10 px when shown 400 px wide); deck names are shortened with "…",
never overlapped.  Every word comes from the catalog (``cards.chart.*``).

>>> from balance.sets import make_plan
>>> plan = make_plan(["a", "b"], per_order=2)
>>> png = chart_png("art_of_war", plan, [{"w": [0], "r": "end_of_war", "f": 0}] * 4, {"a": "Owls", "b": "Hawks"},
...                 locale="ja", title="Owl Kings v1")
>>> png[:4] == b"\\x89PNG"
True
"""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from balance.sets import figures
from data import i18n
from render import fonts
from render.base import INK, MUTED, PAPER, encode_png

W = 600
M = 14
LABEL = 170
BODY = 16                 # 10.7 px when shown 400 px wide
LINE = 22


def _colour(share: float | None) -> tuple:
    if share is None:
        return (225, 222, 215)
    off = min(1.0, abs(share - 0.5) / 0.25)          # 0 at 50 %, 1 at 25 % / 75 % and beyond
    if abs(share - 0.5) <= 0.1:
        return (int(170 + 50 * off), int(222 - 20 * off), 170)
    return (int(235), int(200 - 110 * off), int(170 - 60 * off))


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def chart_image(game: str, plan: dict, results: list, names: dict[str, str], *, locale: Any = "en",
                title: str = "") -> Image.Image:
    loc = i18n.locale_of(locale)
    f = figures(plan, results)
    decks = list(plan["decks"])
    k = max(1, len(decks))
    cell = max(44, min(110, (W - 2 * M - LABEL) // k))
    t = lambda key, **p: i18n.t(key, loc, **p)  # noqa: E731
    rule = fonts.wrap(t("cards.chart.rule", n=2 * plan.get("per_order", 0), done=f["played"], total=f["planned"]),
                      BODY, W - 2 * M)
    legend = fonts.wrap(t("cards.chart.legend"), BODY - 1, W - 2 * M)
    header = 62 + len(rule) * LINE
    top = header + 30
    rows_h = cell * k
    lines_h = 2 * (LINE + 4) + len(legend) * LINE + 30
    img = Image.new("RGB", (W, top + rows_h + lines_h), PAPER)
    d = ImageDraw.Draw(img)
    fonts.text(d, (M, 22), fonts.fit(title or t("cards.chart.title"), 22, W - 2 * M, bold=True), 22, INK,
               bold=True, anchor="lm")
    fonts.text(d, (M, 48), fonts.fit(t(f"game.{game}"), 15, W - 2 * M), 15, MUTED, anchor="lm")
    for i, line in enumerate(rule):
        fonts.text(d, (M, 70 + i * LINE), line, BODY, MUTED, anchor="lm")
    share: dict[tuple[str, str], dict] = {}
    for p in f["pairings"]:
        share[(p["a"], p["b"])] = p
        share[(p["b"], p["a"])] = {**p, "share": None if p["share"] is None else 1 - p["share"],
                                   "ci95": [1 - p["ci95"][1], 1 - p["ci95"][0]]}
    x0 = M + LABEL
    for j, _b in enumerate(decks):         # column heads: a number, the names are on the rows
        fonts.text(d, (x0 + j * cell + cell / 2, top - 12), str(j + 1), BODY + 1, INK, bold=True, anchor="mm")
    for i, a in enumerate(decks):
        y = top + i * cell
        label = fonts.wrap(f"{i + 1}. {names.get(a, a)}", BODY, LABEL - 8)[:3]
        for n, part in enumerate(label):
            fonts.text(d, (M, y + cell / 2 + (n - (len(label) - 1) / 2) * LINE), part, BODY, INK, anchor="lm")
        for j, b in enumerate(decks):
            box = (x0 + j * cell, y, x0 + (j + 1) * cell - 3, y + cell - 3)
            if a == b:
                d.rectangle(box, fill=(215, 212, 205))
                continue
            p = share.get((a, b), {"share": None, "ci95": [0, 1], "n": 0})
            d.rectangle(box, fill=_colour(p["share"] if p.get("n") else None))
            cx = (box[0] + box[2]) / 2
            if not p.get("n"):
                fonts.text(d, (cx, (box[1] + box[3]) / 2), "…", BODY, MUTED, anchor="mm")
                continue
            fonts.text(d, (cx, box[1] + cell * 0.36), _pct(p["share"]), 22 if cell >= 80 else 17, INK,
                       bold=True, anchor="mm")
            interval = f"{_pct(p['ci95'][0])}–{_pct(p['ci95'][1])}"
            fonts.text(d, (cx, box[1] + cell * 0.72), fonts.fit(interval, BODY - 1, cell - 6), BODY - 1, INK,
                       anchor="mm")
    y = top + rows_h + 20
    for key in ("first", "caps"):
        x = f[key]
        if x["n"]:
            line = t(f"cards.chart.{key}", share=_pct(x["share"]), low=_pct(x["ci95"][0]), high=_pct(x["ci95"][1]),
                     n=x["n"], verdict=t(f"cards.balance.verdict.{x['verdict']}"))
            fonts.text(d, (M, y), fonts.fit(line, BODY + 1, W - 2 * M), BODY + 1, INK, anchor="lm")
            y += LINE + 4
    y += 4
    for line in legend:
        fonts.text(d, (M, y), line, BODY - 1, MUTED, anchor="lm")
        y += LINE
    return img.crop((0, 0, W, y + 10))


def chart_png(game: str, plan: dict, results: list, names: dict[str, str], **kw: Any) -> bytes:
    return encode_png(chart_image(game, plan, results, names, **kw))


__all__ = ["chart_png", "chart_image"]
