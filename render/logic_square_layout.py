"""The Battle Logic Square pictures' geometry, colours and the small marks they share: the board
picture (``render/logic_square.py``), its players' strips (``render/logic_square_panel.py``) and
the hand picture (``render/logic_square_hand.py``).
"""
from __future__ import annotations

from PIL import ImageDraw

from render import fonts
from render.base import INK, MUTED, RED, WHITE, Ctx, seat_colour
from render.textfit import draw_fit, min_px

M = 16
CELL = 88
BX = 44
BW = CELL * 5
W = BX + BW + M                 # 500: shown 400 wide on a phone, no text is under 8 px
TOP_PANEL_Y = 64
PANEL_H = 124
BY = TOP_PANEL_Y + PANEL_H + 12
SX = M                          # the boxes below the board: chain, last action, trash
SW = W - 2 * M
BOTTOM_PANEL_Y = BY + BW + 28
FOOT_Y = BOTTOM_PANEL_Y + PANEL_H + 10
H = FOOT_Y + 52                 # the board part; the boxes below grow with their text

LIFE_MAX = 500
SHARED_A = (242, 239, 232)
SHARED_B = (233, 229, 220)
GREEN = (0, 140, 100)
BOX_BG = (255, 253, 249)
CARD_COLOURS = {                       # band fill, band text
    "white": ((232, 230, 224), INK),
    "green": ((0, 158, 115), WHITE),
    "blue": ((0, 114, 178), WHITE),
    "red": ((200, 30, 40), WHITE),
}
IT_BAND = ((96, 72, 150), WHITE)
AVI_BAND = ((60, 60, 70), WHITE)
MIN_TEXT = min_px(W)             # 10 px: 8 px once shown 400 px wide
RANGE_FILL = {"enemy": RED, "empty": (0, 140, 100), "move": (0, 114, 178), "none": RED}


def header_lines(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, sub: str, width: int, *, turn: bool = True,
                 clock: bool = True) -> None:
    """The second header line (``sub`` on the left, the clock on the right) and the turn at the
    top right; ``turn``/``clock`` False leave them out (a DM's hand picture)."""
    text_clock = ctx.clock_text() if clock else None
    room = width - 2 * M - (int(fonts.text_width(text_clock, 15, ctx.clock_urgent())) + 12 if text_clock else 0)
    draw_fit(d, (M, 50), sub, 13, MIN_TEXT, room, MUTED, anchor="lm", max_lines=2, leading=1.2, height=27)
    t, max_turns = view.get("turn"), view.get("max_turns")
    if t is not None and turn:
        text = (ctx.t("render.ls.turn", turn=t, max=max_turns) if max_turns
                else ctx.t("render.ls.turn_plain", turn=t))
        fonts.text(d, (width - M, 24), text, 20, INK, bold=True, anchor="rm")
    if text_clock:
        fonts.text(d, (width - M, 50), text_clock, 15, RED if ctx.clock_urgent() else INK,
                   bold=ctx.clock_urgent(), anchor="rm")


def _badge(d: ImageDraw.ImageDraw, x: int, cy: int, text: str, fill, fg, outline=None,
           size: int = 13, anchor_right: bool = False) -> int:
    """A pill with ``text`` starting at ``x`` (or ending at ``x``); returns the free x after it."""
    w = int(fonts.text_width(text, size, True)) + 14
    if anchor_right:
        x -= w
    d.rounded_rectangle((x, cy - size + 2, x + w, cy + size - 2), radius=size - 2, fill=fill,
                        outline=outline or fill, width=1)
    fonts.text(d, (x + w // 2, cy), text, size, fg, bold=True, anchor="mm")
    return x - 6 if anchor_right else x + w + 6


def _seat_mark(d: ImageDraw.ImageDraw, seat: int, x: int, cy: int, size: int = 18) -> None:
    h = size // 2
    if seat == 0:
        d.polygon([(x, cy + h - 1), (x + size, cy + h - 1), (x + h, cy - h)], fill=seat_colour(seat))
    else:
        d.polygon([(x, cy - h + 1), (x + size, cy - h + 1), (x + h, cy + h)], fill=seat_colour(seat))
