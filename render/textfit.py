"""Fitting a text into a fixed box of a picture: shrink, then wrap, and cut only as a last
resort — so banners and labels are never clipped at an edge or drawn over each other.

>>> size, lines = fit_block("Alice wins", 40, 12, 1000, 1)
>>> size, lines
(40, ('Alice wins',))
"""
from __future__ import annotations

from PIL import ImageFont

from render import fonts


def fit_block(text: str, size: int, min_size: int, width: float, max_lines: int = 1,
              bold: bool = False, height: float | None = None,
              leading: float = 1.18) -> tuple[int, tuple[str, ...]]:
    """(px size, lines) of ``text`` in at most ``max_lines`` lines no wider than ``width``: the
    largest size from ``size`` down to ``min_size`` at which it fits (lines broken by the
    Japanese line-breaking rules, :mod:`render.linebreak`).  Only if it does not fit even at
    ``min_size`` is the last line shortened with "…".  ``height``: the lines, ``leading`` times
    their size apart, must also fit so many px high (more lines only at a smaller size)."""
    size, min_size = int(size), int(min(min_size, size))
    for s in range(size, min_size - 1, -1):
        lines = fonts.wrap(text, s, int(width), bold)
        if len(lines) <= max_lines and all(fonts.text_width(ln, s, bold) <= width for ln in lines) \
                and (height is None or len(lines) == 1 or len(lines) * s * leading <= height):
            return s, lines
    lines = fonts.wrap(text, min_size, int(width), bold)
    if len(lines) > max_lines:
        last = fonts.fit(" ".join(lines[max_lines - 1:]) if " " in text else "".join(lines[max_lines - 1:]),
                         min_size, width, bold)
        lines = lines[:max_lines - 1] + (last,)
    return min_size, tuple(fonts.fit(ln, min_size, width, bold) for ln in lines)


def fit_size(text: str, size: int, min_size: int, width: float, bold: bool = False) -> int:
    """The largest px size from ``size`` down to ``min_size`` at which ``text`` fits on one line
    ``width`` wide (``min_size`` if none does)."""
    for s in range(int(size), int(min_size) - 1, -1):
        if fonts.text_width(text, s, bold) <= width:
            return s
    return int(min_size)


def min_px(width: int) -> int:
    """The smallest text size of a picture ``width`` px wide that reads 8 px at 400 px wide."""
    return -(-8 * int(width) // 400)


def draw_fit(d, xy: tuple[float, float], text: str, size: int, min_size: int, width: float, fill,
             *, bold: bool = False, anchor: str = "lm", max_lines: int = 1,
             leading: float = 1.18, height: float | None = None) -> tuple[int, tuple[str, ...]]:
    """Draw ``text`` at ``xy`` in a box ``width`` px wide: shrunk from ``size`` towards
    ``min_size``, then wrapped over up to ``max_lines`` lines (:func:`fit_block`).  With a
    middle anchor (``"lm"``, ``"mm"``, ``"rm"``) the lines are centred on ``xy``'s y; with a top
    anchor (``"la"``, ``"ma"``, ``"ra"``) the first line's top is at ``xy``'s y; ``height``
    bounds the lines' height (see :func:`fit_block`).  Returns the size and the lines drawn."""
    s, lines = fit_block(text, size, min_size, width, max_lines, bold, height, leading)
    x, y = xy
    step = s * leading
    if anchor[1:] == "m":
        y -= step * (len(lines) - 1) / 2
    for line in lines:
        fonts.text(d, (x, y), line, s, fill, bold=bold, anchor=anchor)
        y += step
    return s, lines


def fit_list(items: list[str], size: int, width: float, text_of, bold: bool = False) -> str:
    """The longest text ``text_of(shown, n_left)`` that fits on one line ``width`` px wide, for
    ``shown`` the first whole items of ``items`` and ``n_left`` how many are left out (its words
    say so through the catalog: "Drive Lance, Null Break and 3 more"); never a cut word.  At
    least one item is shown; the caller wraps what still does not fit (:func:`draw_fit`)."""
    items = [str(i) for i in items]
    for k in range(len(items), 1, -1):
        text = text_of(items[:k], len(items) - k)
        if fonts.text_width(text, size, bold) <= width:
            return text
    return text_of(items[:1], max(0, len(items) - 1))


def list_text(ctx, shown: list[str], left: int = 0) -> str:
    """``shown`` joined in the reader's language ("A, B" / 「A、B」) and, when ``left`` more are
    not shown, "and n more" (``render.cards_more``)."""
    text = ctx.t("core.list_sep").join(shown)
    return ctx.t("render.cards_more", cards=text, count=left) if left else text


def fit_name(name: str, font: ImageFont.FreeTypeFont, max_px: float) -> str:
    """``name`` (spaces collapsed, characters the font lacks dropped) shortened with "…" to at
    most ``max_px`` wide in ``font``; "" when not even "…" fits.

    >>> fit_name("Alexandra Montgomery-Smythe", fonts.font(18), 120)
    'Alexandra…'
    """
    text = " ".join(fonts.printable(str(name)).split())
    with fonts.LOCK:
        if font.getlength(text) <= max_px:
            return text
        if font.getlength("…") > max_px:
            return ""
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if font.getlength(text[:mid].rstrip() + "…") <= max_px:
                lo = mid
            else:
                hi = mid - 1
    return text[:lo].rstrip() + "…"
