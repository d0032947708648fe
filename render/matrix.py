"""A win-rate matrix picture: each cell the row's share against the column with its 95 %
interval, green when fair (40–60 %), red the further from even; a cell with fewer than
``min_n`` matches greyed and labelled with its count instead (too few to read).  Used by the
balance run of a card set (:mod:`render.balance_chart`) and a server's deck statistics
(:mod:`render.stats_chart`).  600 px wide, no text under 15 px (10 px shown 400 px wide); names
are wrapped or shortened with "…", never overlapped.

>>> png = matrix_png(["Owls", "Hawks"], {(0, 1): {"share": 0.6, "ci95": [0.45, 0.74], "n": 40}},
...                  title="Owl Kings v1", subtitle="Art of War", rule="n = 40 a cell", footer=["x"],
...                  legend="green fair", too_few="too few ({n})")
>>> png[:4] == b"\\x89PNG"
True
"""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import fonts
from render.base import INK, MUTED, PAPER, encode_png

W = 600
M = 14
LABEL = 170
BODY = 16                 # 10.7 px when shown 400 px wide
LINE = 22
DIAGONAL = (215, 212, 205)
GREY = (225, 222, 215)


def colour(share: float | None) -> tuple:
    if share is None:
        return GREY
    off = min(1.0, abs(share - 0.5) / 0.25)          # 0 at 50 %, 1 at 25 % / 75 % and beyond
    if abs(share - 0.5) <= 0.1:
        return (int(170 + 50 * off), int(222 - 20 * off), 170)
    return (235, int(200 - 110 * off), int(170 - 60 * off))


def pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def mirrored(cells: dict[tuple[int, int], dict]) -> dict[tuple[int, int], dict]:
    """``cells`` with each (i, j) also as (j, i), the other side's share (1 − share)."""
    out = dict(cells)
    for (i, j), c in cells.items():
        if (j, i) not in out and c.get("share") is not None:
            out[(j, i)] = {**c, "share": 1 - c["share"], "ci95": [1 - c["ci95"][1], 1 - c["ci95"][0]]}
    return out


def matrix_image(labels: list[str], cells: dict[tuple[int, int], dict], *, title: str, subtitle: str,
                 rule: str, footer: list[str], legend: str, too_few: str = "", min_n: int = 1) -> Image.Image:
    """``cells``: (row, column) → ``{"share", "ci95", "n"}`` (the row's share); ``footer``: lines
    under the matrix; ``too_few``: a cell's words when its ``n`` is under ``min_n`` (``{n}``)."""
    k = max(1, len(labels))
    cell = max(44, min(110, (W - 2 * M - LABEL) // k))
    rule_lines = fonts.wrap(rule, BODY, W - 2 * M)
    legend_lines = fonts.wrap(legend, BODY - 1, W - 2 * M)
    footer_lines = [line for text in footer for line in fonts.wrap(text, BODY + 1, W - 2 * M)]
    top = 62 + len(rule_lines) * LINE + 30
    height = top + cell * k + 20 + len(footer_lines) * (LINE + 4) + 4 + len(legend_lines) * LINE + 20
    img = Image.new("RGB", (W, height), PAPER)
    d = ImageDraw.Draw(img)
    fonts.text(d, (M, 22), fonts.fit(title, 22, W - 2 * M, bold=True), 22, INK, bold=True, anchor="lm")
    fonts.text(d, (M, 48), fonts.fit(subtitle, 15, W - 2 * M), 15, MUTED, anchor="lm")
    for i, line in enumerate(rule_lines):
        fonts.text(d, (M, 70 + i * LINE), line, BODY, MUTED, anchor="lm")
    x0 = M + LABEL
    for j in range(k):                    # column heads: a number, the names are on the rows
        fonts.text(d, (x0 + j * cell + cell / 2, top - 12), str(j + 1), BODY + 1, INK, bold=True, anchor="mm")
    for i, name in enumerate(labels):
        y = top + i * cell
        wrapped = fonts.wrap(f"{i + 1}. {name}", BODY, LABEL - 8)
        if len(wrapped) > 3:
            wrapped = wrapped[:2] + [fonts.fit("".join(wrapped[2:]), BODY, LABEL - 8)]
        for n, part in enumerate(wrapped):
            fonts.text(d, (M, y + cell / 2 + (n - (len(wrapped) - 1) / 2) * LINE), part, BODY, INK, anchor="lm")
        for j in range(k):
            box = (x0 + j * cell, y, x0 + (j + 1) * cell - 3, y + cell - 3)
            if i == j:
                d.rectangle(box, fill=DIAGONAL)
                continue
            c = cells.get((i, j)) or {"share": None, "ci95": [0, 1], "n": 0}
            n = int(c.get("n") or 0)
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            if n < max(1, min_n) or c.get("share") is None:
                d.rectangle(box, fill=GREY)
                words = too_few.format(n=n) if n and too_few else "…"
                for m, part in enumerate(fonts.wrap(words, BODY - 2, cell - 8)[:3]):
                    fonts.text(d, (cx, cy + (m - 0.5) * (LINE - 4)), part, BODY - 2, MUTED, anchor="mm")
                continue
            d.rectangle(box, fill=colour(c["share"]))
            fonts.text(d, (cx, box[1] + cell * 0.36), pct(c["share"]), 22 if cell >= 80 else 17, INK,
                       bold=True, anchor="mm")
            interval = f"{pct(c['ci95'][0])}–{pct(c['ci95'][1])}"
            fonts.text(d, (cx, box[1] + cell * 0.72), fonts.fit(interval, BODY - 1, cell - 6), BODY - 1, INK,
                       anchor="mm")
    y = top + cell * k + 20
    for line in footer_lines:
        fonts.text(d, (M, y), line, BODY + 1, INK, anchor="lm")
        y += LINE + 4
    y += 4
    for line in legend_lines:
        fonts.text(d, (M, y), line, BODY - 1, MUTED, anchor="lm")
        y += LINE
    return img.crop((0, 0, W, y + 10))


def matrix_png(labels: list[str], cells: dict[tuple[int, int], dict], **kw: Any) -> bytes:
    return encode_png(matrix_image(labels, cells, **kw))


__all__ = ["matrix_image", "matrix_png", "mirrored", "colour", "pct"]
