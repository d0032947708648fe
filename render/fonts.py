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
    Japanese (closing punctuation such as 。、） never starts a line)."""
    out: list[str] = []
    for para in text.split("\n"):
        tokens: list[str] = []
        word = ""
        for ch in para:
            if ch == " ":
                tokens.append(word + " ")
                word = ""
            elif ord(ch) > 0x2E7F:
                if word:
                    tokens.append(word)
                    word = ""
                tokens.append(ch)
            else:
                word += ch
        if word:
            tokens.append(word)
        line = ""
        for tok in tokens:
            cand = line + tok
            if (not line or text_width(cand.rstrip(), size, bold) <= width
                    or tok in _NO_START):
                line = cand
                continue
            out.append(line.rstrip())
            line = tok
        while text_width(line.rstrip(), size, bold) > width and len(line) > 1:
            cut = len(line) - 1
            while cut > 1 and text_width(line[:cut], size, bold) > width:
                cut -= 1
            out.append(line[:cut])
            line = line[cut:]
        out.append(line.rstrip())
    return tuple(out)


_NO_START = set("。、）」』，．・：")


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
