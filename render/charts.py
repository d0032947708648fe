"""A rating-history chart (PNG) drawn with Pillow and the project's fonts.

Pure: a list of numbers in, PNG bytes out.  Every word on it comes from the caller (already
localized); the chart itself writes only numbers.

>>> png = rating_chart([1500, 1560, 1530, 1610], title="SQUARES")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> nice_ticks(1463, 1856)
[1500, 1600, 1700, 1800]
"""
from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw

from render import fonts

W, H = 640, 300
PAD_L, PAD_R, PAD_T, PAD_B = 60, 56, 44, 50
BG = (32, 34, 37)
GRID = (64, 67, 72)
AXIS = (185, 187, 190)
LINE = (88, 101, 242)
DOT = (235, 236, 238)
BAND = (44, 46, 52)          # the provisional stretch
BAND_LINE = (150, 156, 230)


def nice_ticks(lo: float, hi: float, most: int = 6) -> list[int]:
    """Round values (steps of 1, 2, 5 × 10^k) inside ``[lo, hi]``, at most ``most`` of them."""
    span = max(hi - lo, 1e-9)
    for k in range(0, 8):
        for m in (1, 2, 5):
            step = m * 10 ** k
            first = math.ceil(lo / step) * step
            ticks = list(range(int(first), int(math.floor(hi)) + 1, step))
            if len(ticks) <= most and span / step <= most:
                return ticks
    return [int(round(lo)), int(round(hi))]


def rating_chart(values: list[int | float], *, title: str = "", caption: str = "",
                 provisional: int = 0, provisional_label: str = "") -> bytes:
    """A line chart of ``values`` (oldest first: the rating before the first match, then after
    each).  The first ``provisional`` matches are drawn on a shaded band labelled
    ``provisional_label``; the last value is written at the end of the line; the x axis counts
    matches.  One value means one dot."""
    img = Image.new("RGB", (W, H), BG)
    draw = ImageDraw.Draw(img)
    if title:
        fonts.text(draw, (PAD_L, 12), title, 18, AXIS, bold=True)
    vals = [float(v) for v in values] or [0.0]
    lo, hi = min(vals), max(vals)
    if hi - lo < 40:
        mid = (hi + lo) / 2
        lo, hi = mid - 20, mid + 20
    span = hi - lo
    lo, hi = lo - span * 0.08, hi + span * 0.08
    x0, x1, y0, y1 = PAD_L, W - PAD_R, PAD_T, H - PAD_B
    n = len(vals)

    def x_of(i: float) -> float:
        return x0 + (x1 - x0) * (i / (n - 1) if n > 1 else 0.5)

    def y_of(v: float) -> float:
        return y1 - (v - lo) / (hi - lo) * (y1 - y0)

    band = min(max(0, int(provisional)), n - 1)
    if band and n > 1:
        draw.rectangle([x0, y0, x_of(band), y1], fill=BAND)
        if provisional_label:
            fonts.text(draw, (x0 + 4, y0 + 4), provisional_label, 11, AXIS, anchor="lt")
    for v in nice_ticks(lo, hi):
        y = y_of(v)
        draw.line([(x0, y), (x1, y)], fill=GRID, width=1)
        fonts.text(draw, (x0 - 8, y), str(v), 12, AXIS, anchor="rm")
    # x axis: match numbers (0 = before the first match)
    draw.line([(x0, y1), (x1, y1)], fill=AXIS, width=1)
    if n > 1:
        for i in nice_ticks(0, n - 1, most=8):
            x = x_of(i)
            draw.line([(x, y1), (x, y1 + 4)], fill=AXIS, width=1)
            fonts.text(draw, (x, y1 + 6), str(i), 11, AXIS, anchor="mt")
    pts = [(x_of(i), y_of(v)) for i, v in enumerate(vals)]
    if n > 1:
        if band:
            draw.line(pts[:band + 1], fill=BAND_LINE, width=2, joint="curve")
        if band < n - 1:
            draw.line(pts[band:], fill=LINE, width=3, joint="curve")
    r = 3 if n <= 60 else 0
    for x, y in pts:
        if r:
            draw.ellipse([x - r, y - r, x + r, y + r], fill=DOT)
    last_x, last_y = pts[-1]
    fonts.text(draw, (last_x + 6, last_y), str(int(round(vals[-1]))), 13, DOT, bold=True, anchor="lm")
    if caption:
        fonts.text(draw, (x0, H - 8), caption, 12, AXIS, anchor="ls")
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()
