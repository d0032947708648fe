"""The hand picture of every card game, laid out for a phone (shown 400 px wide).

A game turns each card of a hand into a :class:`Card` — its name, its numbers, its whole effect
in words, an optional small diagram — and :func:`draw_sheet` lays them out 600 px wide:

- one column of full-width cards while the picture stays at most twice as tall as wide;
- else two columns (each card goes under the shorter column), with a little smaller text;
- text never under 12 px (8 px at 400 px wide), names and effects wrapped (never cut), and
  every line below the one before it, so no two texts overlap.

Drawn straight onto the picture (no cached tiles), so :func:`render.fonts.drawn_boxes` sees
every string where it lands.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from PIL import Image, ImageDraw

from render import fonts
from render.base import INK, MUTED, PAPER, WHITE, Ctx, hand_header

W = 600
M = 14
PAD = 10
MIN_TEXT = 12                     # 8 px at 400 px wide


@dataclass(frozen=True)
class Sizes:
    title: int
    stat: int
    body: int
    small: int
    heading: int
    lead: float = 1.25
    space: int = 6                   # between the parts of a card, and (+4) between cards


ONE_COLUMN = Sizes(title=18, stat=16, body=15, small=14, heading=17)
TWO_COLUMNS = Sizes(title=15, stat=14, body=13, small=12, heading=16)
COMPACT = Sizes(title=14, stat=13, body=12, small=12, heading=15)
DENSE = Sizes(title=13, stat=12, body=12, small=12, heading=14, lead=1.17, space=3)


@dataclass
class Card:
    """One card of a hand picture.  ``art``: ``(width, height, draw(d, x, y))`` of a small
    diagram drawn left of ``stats`` (e.g. a range grid); ``body``: paragraphs
    ``(text, colour, bold)`` or ``(text, colour, bold, background)``."""

    title: str
    band: tuple = (90, 90, 98)
    band_fg: tuple = WHITE
    chip: str = ""
    badges: tuple = ()
    mark: str = ""
    mark_colour: tuple = (0, 140, 100)
    art: tuple | None = None
    art_dense: tuple | None = None                   # a smaller ``art`` for the densest layout
    stats: list = field(default_factory=list)        # (text, colour)
    info: str = ""
    body: list = field(default_factory=list)         # (text, colour, bold[, background])
    fill: tuple = WHITE
    outline: tuple | None = None


@dataclass
class Section:
    heading: str
    cards: list
    empty: str = ""
    notes: list = field(default_factory=list)        # lines of text under the cards
    in_order: bool = False                           # columns read in order: 1… down the first, then on


def _runs(heights: list[int], cols: int, gap: int) -> list[int]:
    """The column of each card when the cards are read in order — down the first column, then
    the next — with the columns as even as contiguous runs allow (the tallest column smallest)."""
    n = len(heights)
    if cols <= 1 or n <= 1:
        return [0] * n
    best: list[int] = [0] * n
    best_max = None
    if cols == 2:
        for k in range(n + 1):
            left = sum(heights[:k]) + gap * max(0, k - 1)
            right = sum(heights[k:]) + gap * max(0, n - k - 1)
            if best_max is None or max(left, right) < best_max:
                best_max, best = max(left, right), [0] * k + [1] * (n - k)
        return best
    target = (sum(heights) + gap * (n - cols)) / cols
    out, col, acc = [], 0, 0
    for h in heights:
        if acc and acc + h > target and col < cols - 1:
            col, acc = col + 1, 0
        out.append(col)
        acc += h + gap
    return out


def _lh(size: int, lead: float = 1.25) -> int:
    return int(size * lead) + 2


def _card(d: ImageDraw.ImageDraw | None, c: Card, x: int, y: int, w: int, s: Sizes) -> int:
    """Draw ``c`` at (x, y), ``w`` wide (or only measure it when ``d`` is None); its height."""
    # the band: chip, name (wrapped), badges
    chip_w = int(fonts.text_width(c.chip, s.small, True)) + 12 if c.chip else 0
    badge_w = [int(fonts.text_width(b, s.small, True)) + 12 for b in c.badges]
    name_x = x + PAD + (chip_w + 6 if chip_w else 0)
    name_w = x + w - PAD - (sum(badge_w) + 6 * len(badge_w)) - name_x
    names = fonts.wrap(c.title, s.title, max(40, name_w), True)
    band_h = max(_lh(s.small, s.lead) + 4 + s.space, len(names) * _lh(s.title, s.lead) + 2 + s.space)
    text_w = w - 2 * PAD
    art = c.art_dense if s.space < 6 and c.art_dense else c.art
    stat_x = PAD + (art[0] + 10 if art else 0)
    stats, info = list(c.stats), c.info
    if s.space < 6 and not art and info and stats and all(col == INK for _, col in stats):
        stats, info = [(" · ".join([t for t, _ in stats] + [info]), INK)], ""     # one line, when dense
    stat_lines = [(line, col) for text, col in stats for line in fonts.wrap(text, s.stat, w - PAD - stat_x, True)]
    info_lines = fonts.wrap(info, s.small, w - PAD - stat_x) if info else ()
    head_h = len(stat_lines) * _lh(s.stat, s.lead) + len(info_lines) * _lh(s.small, s.lead)
    if art:
        head_h = max(head_h, art[1])
    body = [(fonts.wrap(p[0], s.body, text_w - (8 if len(p) > 3 else 0), p[2]), p[1], p[2], p[3] if len(p) > 3 else None)
            for p in c.body if p[0]]
    mark_lines = fonts.wrap(c.mark, s.small, text_w, True) if c.mark else ()
    h = band_h + s.space + len(mark_lines) * _lh(s.small, s.lead) + (head_h + s.space if head_h else 0)
    h += sum(len(lines) * _lh(s.body, s.lead) + (6 if tint else 2) for lines, _, _, tint in body) + s.space
    if d is None:
        return h
    d.rounded_rectangle((x, y, x + w - 1, y + h - 1), radius=9, fill=c.fill, outline=c.outline or c.band, width=2)
    d.rounded_rectangle((x, y, x + w - 1, y + band_h), radius=9, fill=c.band)
    d.rectangle((x, y + band_h - 9, x + w - 1, y + band_h), fill=c.band)
    cy = y + band_h // 2
    if chip_w:
        ch = _lh(s.small, s.lead) - 2
        d.rounded_rectangle((x + PAD, cy - ch // 2, x + PAD + chip_w, cy + ch // 2), radius=5, fill=WHITE)
        fonts.text(d, (x + PAD + chip_w // 2, cy), c.chip, s.small, INK, bold=True, anchor="mm")
    bx = x + w - PAD
    for b, bw in zip(c.badges, badge_w):
        ch = _lh(s.small, s.lead) - 2
        d.rounded_rectangle((bx - bw, cy - ch // 2, bx, cy + ch // 2), radius=8, fill=WHITE)
        fonts.text(d, (bx - bw // 2, cy), b, s.small, INK, bold=True, anchor="mm")
        bx -= bw + 6
    ny = y + (band_h - len(names) * _lh(s.title, s.lead)) // 2
    for line in names:
        fonts.text(d, (name_x, ny + _lh(s.title, s.lead) // 2), line, s.title, c.band_fg, bold=True, anchor="lm")
        ny += _lh(s.title, s.lead)
    yy = y + band_h + s.space
    for line in mark_lines:
        fonts.text(d, (x + PAD, yy + _lh(s.small, s.lead) // 2), line, s.small, c.mark_colour, bold=True, anchor="lm")
        yy += _lh(s.small, s.lead)
    if head_h:
        if art:
            art[2](d, x + PAD, yy)
        sy = yy
        for line, col in stat_lines:
            fonts.text(d, (x + stat_x, sy + _lh(s.stat, s.lead) // 2), line, s.stat, col, bold=True, anchor="lm")
            sy += _lh(s.stat, s.lead)
        for line in info_lines:
            fonts.text(d, (x + stat_x, sy + _lh(s.small, s.lead) // 2), line, s.small, MUTED, anchor="lm")
            sy += _lh(s.small, s.lead)
        yy += head_h + s.space
    for lines, col, bold, tint in body:
        if tint:
            d.rectangle((x + PAD - 2, yy, x + w - PAD + 2, yy + len(lines) * _lh(s.body, s.lead) + 3), fill=tint)
            yy += 2
        for line in lines:
            fonts.text(d, (x + PAD + (4 if tint else 0), yy + _lh(s.body, s.lead) // 2), line, s.body, col, bold=bold,
                       anchor="lm")
            yy += _lh(s.body, s.lead)
        yy += 4 if tint else 2
    return h


def _section(d: ImageDraw.ImageDraw | None, sec: Section, y: int, cols: int, s: Sizes, width: int) -> int:
    """Draw (or measure) one section from ``y``; the y below it."""
    for line in fonts.wrap(sec.heading, s.heading, width - 2 * M, True):
        if d is not None:
            fonts.text(d, (M, y + _lh(s.heading, s.lead) // 2), line, s.heading, INK, bold=True, anchor="lm")
        y += _lh(s.heading, s.lead)
    y += 4
    if not sec.cards and sec.empty:
        for line in fonts.wrap(sec.empty, s.body, width - 2 * M):
            if d is not None:
                fonts.text(d, (M, y + _lh(s.body, s.lead) // 2), line, s.body, MUTED, anchor="lm")
            y += _lh(s.body, s.lead)
    gap = s.space + 4
    colw = (width - 2 * M - gap * (cols - 1)) // cols
    tops = [y] * cols
    heights = [_card(None, card, 0, 0, colw, s) for card in sec.cards]
    placed: list[tuple[int, int, int]] = []                # (column, y, card index)
    if sec.in_order:
        for k, i in enumerate(_runs(heights, cols, gap)):
            placed.append((i, tops[i], k))
            tops[i] += heights[k] + gap
    else:
        for k in sorted(range(len(heights)), key=lambda k: -heights[k]) if cols > 1 else range(len(heights)):
            i = min(range(cols), key=lambda c: tops[c])    # the tallest first, under the shorter column
            placed.append((i, tops[i], k))
            tops[i] += heights[k] + gap
    if d is not None:
        for i, top, k in sorted(placed, key=lambda p: p[2]):
            _card(d, sec.cards[k], M + i * (colw + gap), top, colw, s)
    y = max(tops)
    for note in sec.notes:
        for line in fonts.wrap(note, s.body, width - 2 * M):
            if d is not None:
                fonts.text(d, (M, y + _lh(s.body, s.lead) // 2), line, s.body, MUTED, anchor="lm")
            y += _lh(s.body, s.lead)
    return y + s.space


def layout(sections: list[Section], top: int, width: int = W) -> tuple[int, Sizes, int]:
    """(columns, sizes, bottom y): one column while the picture stays at most twice as tall as
    wide, else two columns, else two columns of smaller text and then closer lines."""
    for cols, s in ((1, ONE_COLUMN), (2, TWO_COLUMNS), (2, COMPACT), (2, DENSE)):
        y = top
        for sec in sections:
            y = _section(None, sec, y, cols, s, width)
        if y + M <= 2 * width:
            break
    return cols, s, y


def draw_sheet(ctx: Ctx, seat: int, sections: list[Section], *,
               header: Callable[[ImageDraw.ImageDraw], int] | None = None, width: int = W) -> Image.Image:
    """The hand picture: ``header(d)`` (default: whose hand, and the game) draws the top and
    returns the y below it; then every section."""
    draw_header = header or (lambda d: hand_header(d, ctx, seat, width, M))
    probe = Image.new("RGB", (width, 2 * width), PAPER)       # kept until the end: its own canvas
    top = draw_header(ImageDraw.Draw(probe))                   # the header's height
    cols, s, bottom = layout(sections, top, width)
    img = Image.new("RGB", (width, bottom + M), PAPER)
    top = draw_header(ImageDraw.Draw(img))
    d = ImageDraw.Draw(img)
    y = top
    for sec in sections:
        y = _section(d, sec, y, cols, s, width)
    del probe
    return img



def draw_sections(d: ImageDraw.ImageDraw | None, sections: list[Section], top: int, width: int) -> int:
    """Draw ``sections`` from ``top`` on a picture ``width`` px wide (another picture's hand
    area, e.g. a board seen by its seat), or only measure them when ``d`` is None: the hand
    picture's cards, one column while the cards are no taller than the picture is wide, else
    two; returns the y below them."""
    for cols, s in ((1, ONE_COLUMN), (2, TWO_COLUMNS)):
        y = top
        for sec in sections:
            y = _section(None, sec, y, cols, s, width)
        if y - top <= width:
            break
    if d is None:
        return y
    y = top
    for sec in sections:
        y = _section(d, sec, y, cols, s, width)
    return y
