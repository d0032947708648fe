"""A rating-history chart (PNG) drawn with Pillow and the project's fonts.

Pure: a list of numbers in, PNG bytes out.

>>> png = rating_chart([1500, 1560, 1530, 1610], title="SQUARES")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""
from __future__ import annotations

import io

from PIL import Image, ImageDraw

from render import fonts

W, H = 640, 280
PAD_L, PAD_R, PAD_T, PAD_B = 64, 20, 44, 34
BG = (32, 34, 37)
GRID = (64, 67, 72)
AXIS = (185, 187, 190)
LINE = (88, 101, 242)
DOT = (235, 236, 238)


def rating_chart(values: list[int | float], *, title: str = "", caption: str = "") -> bytes:
    """A line chart of ``values`` (oldest first); one point means one dot."""
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

    def y_of(v: float) -> float:
        return y1 - (v - lo) / (hi - lo) * (y1 - y0)

    for i in range(5):
        v = lo + (hi - lo) * i / 4
        y = y_of(v)
        draw.line([(x0, y), (x1, y)], fill=GRID, width=1)
        fonts.text(draw, (x0 - 8, y), str(int(round(v))), 12, AXIS, anchor="rm")
    n = len(vals)
    pts = [(x0 + (x1 - x0) * (i / (n - 1) if n > 1 else 0.5), y_of(v)) for i, v in enumerate(vals)]
    if n > 1:
        draw.line(pts, fill=LINE, width=3, joint="curve")
    r = 3 if n <= 60 else 0
    for x, y in pts:
        if r:
            draw.ellipse([x - r, y - r, x + r, y + r], fill=DOT)
    if caption:
        fonts.text(draw, (x0, H - 10), caption, 12, AXIS, anchor="ls")
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()
