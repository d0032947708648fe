"""The only fonts pictures use: Noto Sans CJK JP from PyPI (``noto-cjk[sans-jp]``).

Never a system font, so a picture looks the same on every machine and Japanese text never
turns into boxes.

>>> f = font(20)
>>> f.size
20
>>> font(20) is f          # cached per (path, size)
True

FreeType faces are not safe to use from two threads at once, and pictures are drawn from
``asyncio.to_thread`` workers.  Every call that lays out or rasterises text therefore holds
:data:`LOCK` (see :func:`text`, :func:`text_width`); font objects are created under it too.
"""
from __future__ import annotations

import math
import threading
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from PIL import ImageDraw, ImageFont

LOCK = threading.RLock()
"""Held around every FreeType call made by the renderer (font creation, layout, drawing)."""

_SIZES = threading.local()


class drawn_text:
    """Record ``(size_px, string)`` of every string :func:`text` draws in this thread, e.g. to
    find the smallest text of a picture (``python -m bench --discord``, tests of phone
    legibility)::

        with drawn_text() as drawn:
            image = render_image(...)
        smallest = min(size for size, _ in drawn) * 400 / image.width   # px shown 400 px wide
    """

    def __enter__(self) -> list[tuple[int, str]]:
        self._previous = getattr(_SIZES, "record", None)
        _SIZES.record = []
        return _SIZES.record

    def __exit__(self, *exc: object) -> None:
        _SIZES.record = self._previous


def _note(size: int, s: str) -> None:
    record = getattr(_SIZES, "record", None)
    if record is not None and str(s).strip():
        record.append((int(size), str(s)))


class TextBox(NamedTuple):
    """One string :func:`text` drew: its px size, the string, the box its ink covers
    ``(x0, y0, x1, y1)`` and the canvas it went on (``id`` of the image's core: boxes compare
    only on one canvas)."""

    size: int
    text: str
    box: tuple[int, int, int, int]
    canvas: int


class drawn_boxes:
    """Record a :class:`TextBox` for every string :func:`text` draws in this thread, to test
    that no two texts of a picture overlap (see :func:`overlaps`)::

        with drawn_boxes() as boxes:
            image = render_image(..., part="hand")
        assert not overlaps(boxes)
    """

    def __enter__(self) -> list[TextBox]:
        self._previous = getattr(_SIZES, "boxes", None), getattr(_SIZES, "canvases", None)
        _SIZES.boxes, _SIZES.canvases = [], {}
        return _SIZES.boxes

    def __exit__(self, *exc: object) -> None:
        _SIZES.boxes, _SIZES.canvases = self._previous


def _note_box(draw: ImageDraw.ImageDraw, size: int, s: str, box) -> None:
    boxes = getattr(_SIZES, "boxes", None)
    if boxes is not None and box and str(s).strip():
        # hold each canvas while recording: a scratch canvas freed early must not lend its id
        # to the next one (two canvases would then look like one)
        _SIZES.canvases.setdefault(id(draw.im), draw.im)
        boxes.append(TextBox(int(size), str(s), tuple(int(v) for v in box), id(draw.im)))


def overlaps(boxes: list[TextBox], slack: int = 1) -> list[tuple[TextBox, TextBox]]:
    """Pairs of texts drawn on the same canvas whose ink boxes intersect by more than ``slack``
    px each way."""
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a.canvas != b.canvas:
                continue
            if (min(a.box[2], b.box[2]) - max(a.box[0], b.box[0]) > slack
                    and min(a.box[3], b.box[3]) - max(a.box[1], b.box[1]) > slack):
                out.append((a, b))
    return out


@lru_cache(maxsize=None)
def font_path(bold: bool = False) -> Path:
    """Path of the Noto Sans CJK JP regular/bold OTF installed from PyPI."""
    import noto_cjk

    return Path(noto_cjk.font_path("sans", "jp", "bold" if bold else "regular"))


@lru_cache(maxsize=None)
def _load(path: str, size: int) -> ImageFont.FreeTypeFont:
    with LOCK:
        return ImageFont.truetype(path, size)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The Noto Sans CJK JP font at ``size`` px (bold or regular), cached per (path, size)."""
    return _load(str(font_path(bold)), int(size))


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, fill,
         *, bold: bool = False, anchor: str = "la", stroke: int = 0, stroke_fill=None) -> None:
    """Draw ``s`` with the project font, holding :data:`LOCK`.

    A single line without a stroke (almost every label) is drawn from a cached glyph mask
    (:func:`_mask`): the same pixels as ``ImageDraw.text``, without laying out and rasterising
    the same string again for every picture."""
    _note(size, s)
    f = font(size, bold)
    if stroke or "\n" in s or draw.fontmode != "L" or not isinstance(s, str):
        with LOCK:
            if getattr(_SIZES, "boxes", None) is not None:
                _note_box(draw, size, s, draw.textbbox(xy, s, font=f, anchor=anchor, stroke_width=stroke))
            draw.text(xy, s, font=f, fill=fill, anchor=anchor,
                      stroke_width=stroke, stroke_fill=stroke_fill)
        return
    ink, fill_ink = draw._getink(fill)
    ink = fill_ink if ink is None else ink
    if ink is None:
        return
    x, y = xy
    fx, fy = math.modf(x)[0], math.modf(y)[0]
    mask, (ox, oy) = _mask(s, int(size), bool(bold), anchor or "la", fx, fy)
    if getattr(_SIZES, "boxes", None) is not None:
        ink_box = mask.getbbox()
        if ink_box:
            bx, by = int(x) + ox, int(y) + oy
            _note_box(draw, size, s, (bx + ink_box[0], by + ink_box[1], bx + ink_box[2], by + ink_box[3]))
    with LOCK:
        draw.draw.draw_bitmap((int(x) + ox, int(y) + oy), mask, ink)


@lru_cache(maxsize=2048)
def _mask(s: str, size: int, bold: bool, anchor: str, fx: float, fy: float):
    """The 8-bit coverage mask of one line of text and its offset from the anchor point, exactly
    as ``ImageDraw.text`` makes it (``FreeTypeFont.getmask2``); cached, read-only."""
    f = font(size, bold)
    with LOCK:
        return f.getmask2(s, "L", None, None, None, 0, anchor, 0, (fx, fy), stroke_filled=True)


@lru_cache(maxsize=4096)
def text_width(s: str, size: int, bold: bool = False) -> float:
    """Advance width of ``s`` in px (cached; used for layout and truncation)."""
    f = font(size, bold)
    with LOCK:
        return f.getlength(s)


def fit(s: str, size: int, max_width: float, bold: bool = False) -> str:
    """``s`` shortened with an ellipsis so that it is at most ``max_width`` px wide."""
    if text_width(s, size, bold) <= max_width:
        return s
    lo, hi = 0, len(s)
    while lo < hi:                       # longest prefix that fits together with "…"
        mid = (lo + hi + 1) // 2
        if text_width(s[:mid] + "…", size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return s[:lo] + "…"


@lru_cache(maxsize=4096)
def wrap(text: str, size: int, width: int, bold: bool = False) -> tuple[str, ...]:
    """Lines of ``text`` at most ``width`` px wide: by words for spaced text, by characters for
    Japanese, by the Japanese line-breaking rules (:mod:`render.linebreak`: no 。、」》 or small
    kana such as ッ at a line start, no 「《 at a line end)."""
    from render.linebreak import break_lines

    return tuple(break_lines(text, width, lambda s: text_width(s, size, bold)))


@lru_cache(maxsize=8192)
def has_glyph(ch: str, bold: bool = False) -> bool:
    """True if the font has a real glyph for ``ch`` (not the .notdef box)."""
    f = font(32, bold)
    with LOCK:
        mask = f.getmask(ch)
        notdef = f.getmask("\U000F0000")   # a private-use code point: always .notdef
    return not (mask.size == notdef.size and bytes(mask) == bytes(notdef))


def printable(s: str) -> str:
    """``s`` without the characters the font cannot draw (emoji in display names …)."""
    return "".join(ch for ch in s if ch.isspace() or ch.isascii() or ch != "\ufe0f" and has_glyph(ch))
