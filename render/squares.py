"""The SQUARES picture: the 5×5 board as on the table, drawn from ``game.view(state, seat)`` only.

Layout (720 × 812 px)::

    title                                   turn 12/200 · clock
    ┌ seat 1: name, badges, centre pips, reserve (A 援護/飛躍 …, B 交換/補給 …) ┐
    5 │ board, rank 5 on top …                   │ per rank: seat 1 sum/limit
    …                                            │           seat 0 sum/limit
    1 │ … rank 1 (seat 0's nearest row) at the bottom
        a   b   c   d   e                          sum/limit
    └ seat 0: name, badges, centre pips, reserve ┘
    status ("… to move" / "… must return a piece") or the result banner
    last command, battle, pieces returned

Caches: the empty board with its labels (per locale) and every piece tile (per owner, side,
number, locale) are built once and reused; see :func:`_background` and :func:`_tile`.
"""
from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from data import i18n
from render import fonts
from render.textfit import draw_fit, fit_size, min_px
from render.base import (said_text, INK, LINE, MUTED, PAPER, RED, WHITE, HILITE, Ctx, register,
                         seat_colour, seat_dark, seat_text, seat_tint)

W, H = 720, 812
M = 16                       # outer margin
CELL = 90
BX, BY = 58, 150             # board top-left
GX = (BX - 3) // 2           # centre of the rank gutter left of the board
BW = CELL * 5
SX = BX + BW + 14            # row-sum column
SW = W - M - SX
PANEL_H = 78
TOP_PANEL_Y = 62
BOTTOM_PANEL_Y = BY + BW + 28
FOOT_Y = BOTTOM_PANEL_Y + PANEL_H + 8
MIN_TEXT = min_px(W)          # 8 px once the picture is shown 400 px wide

CELL_A = (241, 235, 223)
CELL_B = (233, 225, 209)
CENTRE_A = (250, 222, 218)
CENTRE_B = (244, 208, 203)
BATTLE_BG = (255, 244, 244)
SIDES = ("S", "L", "X", "P")
KIND_SIDES = {"A": ("S", "L"), "B": ("X", "P")}


def square_xy(square: str) -> tuple[int, int] | None:
    """Top-left pixel of a square like ``"c3"`` (rank 1 at the bottom), or None if invalid."""
    if not isinstance(square, str) or len(square) < 2:
        return None
    col = ord(square[0].lower()) - ord("a")
    try:
        rank = int(square[1:])
    except ValueError:
        return None
    if not (0 <= col < 5 and 1 <= rank <= 5):
        return None
    return BX + col * CELL, BY + (5 - rank) * CELL


def rank_y(rank: int) -> int:
    return BY + (5 - rank) * CELL


# --------------------------------------------------------------------------------------------
# static layers
# --------------------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def _background(locale: str) -> Image.Image:
    """The empty board, coordinates and the row-sum frame.  Cached per locale; never mutated."""
    img = Image.new("RGB", (W, H), PAPER)
    d = ImageDraw.Draw(img)
    # board squares
    for rank in range(1, 6):
        for col in range(5):
            x, y = BX + col * CELL, rank_y(rank)
            dark = (rank + col) % 2 == 0
            if rank == 3:
                fill = CENTRE_B if dark else CENTRE_A
            else:
                fill = CELL_B if dark else CELL_A
            d.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=fill)
    for i in range(6):
        d.line((BX + i * CELL, BY, BX + i * CELL, BY + BW), fill=LINE, width=1)
        d.line((BX, BY + i * CELL, BX + BW, BY + i * CELL), fill=LINE, width=1)
    # the centre row, red as in the rulebook
    cy = rank_y(3)
    d.rectangle((BX - 2, cy - 1, BX + BW + 2, cy + CELL + 1), outline=RED, width=3)
    d.rectangle((BX - 3, BY - 3, BX + BW + 3, BY + BW + 3), outline=INK, width=2)
    # coordinates
    for rank in range(1, 6):
        y = rank_y(rank) + CELL // 2
        if rank == 3:
            d.ellipse((GX - 14, y - 14, GX + 14, y + 14), fill=RED)
            fonts.text(d, (GX, y), "3", 18, WHITE, bold=True, anchor="mm")
        else:
            fonts.text(d, (GX, y), str(rank), 18, INK, bold=True, anchor="mm")
    for col in range(5):
        fonts.text(d, (BX + col * CELL + CELL // 2, BY + BW + 13), "abcde"[col], 18, INK,
                   bold=True, anchor="mm")
    # "Centre" under the red 3, inside the gutter (shrunk to fit, never below the picture's
    # smallest text); a word too long even then is left to the panels, which name it too
    centre = i18n.t("render.centre", locale)
    size = fit_size(centre, 15, MIN_TEXT, 2 * GX - 4, True)
    if fonts.text_width(centre, size, True) <= 2 * GX - 4:
        fonts.text(d, (GX, rank_y(3) + CELL - 12), centre, size, RED, bold=True, anchor="mm")
    # row-sum column frame
    for rank in range(1, 6):
        y = rank_y(rank)
        fill = (252, 236, 234) if rank == 3 else (244, 240, 232)
        d.rectangle((SX, y + 2, SX + SW, y + CELL - 3), fill=fill)
    fonts.text(d, (SX + SW // 2, BY + BW + 13), i18n.t("render.row_limit", locale), 15, MUTED,
               anchor="mm")
    return img


def _icon(d: ImageDraw.ImageDraw, side: str, x: int, y: int, colour) -> None:
    """A 16 px glyph for a side: Support +, Leap double chevron, Swap ⇄, Supply stacked bars."""
    if side == "S":
        d.rectangle((x + 6, y + 1, x + 9, y + 14), fill=colour)
        d.rectangle((x + 1, y + 6, x + 14, y + 9), fill=colour)
    elif side == "L":
        for dy in (0, 7):
            d.line((x + 1, y + 8 + dy, x + 8, y + 1 + dy, x + 15, y + 8 + dy), fill=colour,
                   width=3)
    elif side == "X":
        d.line((x + 1, y + 4, x + 14, y + 4), fill=colour, width=2)
        d.polygon([(x + 15, y + 4), (x + 10, y), (x + 10, y + 8)], fill=colour)
        d.line((x + 1, y + 11, x + 14, y + 11), fill=colour, width=2)
        d.polygon([(x, y + 11), (x + 5, y + 7), (x + 5, y + 15)], fill=colour)
    elif side == "P":
        d.rectangle((x + 1, y + 11, x + 14, y + 14), fill=colour)
        d.rectangle((x + 3, y + 6, x + 12, y + 9), fill=colour)
        d.rectangle((x + 5, y + 1, x + 10, y + 4), fill=colour)


@lru_cache(maxsize=512)
def _tile(owner: int, side: str, number: int, locale: str) -> Image.Image:
    """A piece on the board (80 × 80, RGBA): icon, owner mark ▲/▼, big number, side name."""
    size = CELL - 10
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fg = seat_text(owner)
    d.rounded_rectangle((0, 0, size - 1, size - 1), radius=10, fill=seat_colour(owner),
                        outline=seat_dark(owner), width=2)
    _icon(d, side, 7, 7, fg)
    # owner mark: which way the piece faces (seat 0 plays up the board, seat 1 down)
    if owner == 0:
        d.polygon([(size - 17, 20), (size - 7, 20), (size - 12, 9)], fill=fg)
    else:
        d.polygon([(size - 17, 9), (size - 7, 9), (size - 12, 20)], fill=fg)
    fonts.text(d, (size // 2, 33), str(number), 36, fg, bold=True, anchor="mm")
    d.rounded_rectangle((4, size - 24, size - 5, size - 5), radius=6, fill=WHITE)
    name = i18n.t(f"render.squares.side.{side}", locale)
    fonts.text(d, (size // 2, size - 14), name, fit_size(name, 15, 12, size - 12, True), seat_dark(owner), bold=True,
               anchor="mm")
    return img


@lru_cache(maxsize=64)
def _mini(owner: int, number: int) -> Image.Image:
    """A reserve piece (26 × 28): the number on the owner's colour."""
    img = Image.new("RGBA", (26, 28), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, 25, 27), radius=5, fill=seat_colour(owner),
                        outline=seat_dark(owner), width=1)
    fonts.text(d, (13, 14), str(number), 17, seat_text(owner), bold=True, anchor="mm")
    return img


def warm(locale: str) -> dict:
    """Fill this module's caches for ``locale`` (background, every tile, every reserve piece) and
    return a view that uses every part of the picture, for warming the rest by drawing it."""
    _background(locale)
    for owner in (0, 1):
        for side in SIDES:
            for number in range(1, 6):
                _tile(owner, side, number, locale)
        for number in range(1, 6):
            _mini(owner, number)
    return {
        "game": "squares", "seat": 0, "first": 0, "turn": 2, "max_turns": 200, "to_act": [1],
        "phase": "return",
        "pieces": [{"square": "c3", "owner": 0, "kind": "A", "number": 5, "side": "L",
                    "label": "L5"},
                   {"square": "c4", "owner": 1, "kind": "B", "number": 1, "side": "X",
                    "label": "X1"}],
        "reserves": [[{"kind": "A", "number": n} for n in range(1, 5)],
                     [{"kind": "B", "number": n} for n in range(2, 6)]],
        "row_sums": [[0, 0, 5, 0, 0], [0, 0, 0, 9, 0]],
        "row_limits": [[8] * 5, [8] * 5], "over_limit": [[], [4]], "centre": [1, 0],
        "last": {"seat": 0, "command": "leap c1 c3", "from": "c1", "to": "c3",
                 "battle": {"square": "c3", "attacker": 5, "defender": 2, "winner": "attacker"},
                 "returned": ["d3"]},
        "outcome": {"winners": [0], "reason": "centre"},
    }


# --------------------------------------------------------------------------------------------
# the drawer
# --------------------------------------------------------------------------------------------
@register("squares")
def draw_squares(view: dict, ctx: Ctx) -> Image.Image:
    img = _background(ctx.locale).copy()
    d = ImageDraw.Draw(img)
    phase = view.get("phase")
    outcome = view.get("outcome")
    to_act = [s for s in (view.get("to_act") or []) if isinstance(s, int)]

    _header(d, view, ctx)
    for seat, y in ((1, TOP_PANEL_Y), (0, BOTTOM_PANEL_Y)):
        _panel(img, d, view, ctx, seat, y, to_act, phase, outcome)
    _row_sums(d, view)

    occupied: set[str] = set()
    for piece in view.get("pieces") or []:
        xy = square_xy(piece.get("square"))
        if xy is None:
            continue
        occupied.add(piece["square"])
        tile = _tile(int(piece.get("owner", 0)) % 2, str(piece.get("side", "S")),
                     int(piece.get("number", 0)), ctx.locale)
        img.paste(tile, (xy[0] + 5, xy[1] + 5), tile)

    _last(d, view.get("last"), occupied)
    notes = _notes(view, ctx)
    need = FOOT_Y + 50 + int(sum(len(lines) for lines, _ in notes) * LINE_STEP) + 8
    if need > H:            # a long last move: the picture grows rather than cut it
        taller = Image.new("RGB", (W, need), PAPER)
        taller.paste(img, (0, 0))
        img, d = taller, ImageDraw.Draw(taller)
    _footer(d, view, ctx, to_act, phase, outcome, notes)
    return img


def _header(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx) -> None:
    draw_fit(d, (M, 24), ctx.game_title(), 24, 16, 380, INK, bold=True, anchor="lm")
    centre = view.get("centre") or [0, 0]
    clock = ctx.clock_text()
    room = W - 2 * M - (int(fonts.text_width(clock, 15, ctx.clock_urgent())) + 16 if clock else 0)
    sub = ctx.view_label(view)
    if len(centre) >= 2:    # the centre count, when it fits (the panels' pips show it too)
        longer = sub + "   " + ctx.t("render.centre_count", a=centre[0], b=centre[1])
        sub = longer if fonts.text_width(longer, 15) <= room else sub
    draw_fit(d, (M, 50), sub, 15, MIN_TEXT, room, MUTED, anchor="lm")
    turn = view.get("turn")
    max_turns = view.get("max_turns")
    if turn is not None:
        text = (ctx.t("render.squares.turn", turn=turn, max=max_turns) if max_turns
                else ctx.t("render.squares.turn_plain", turn=turn))
        fonts.text(d, (W - M, 24), text, 20, INK, bold=True, anchor="rm")
    if clock:
        fonts.text(d, (W - M, 50), clock, 15, RED if ctx.clock_urgent() else INK,
                   bold=ctx.clock_urgent(), anchor="rm")


def _badge(d: ImageDraw.ImageDraw, x: int, cy: int, text: str, fill, fg, outline=None) -> int:
    """A pill with ``text`` starting at ``x``; returns the x after it."""
    w = int(fonts.text_width(text, 15, True)) + 16
    d.rounded_rectangle((x, cy - 12, x + w, cy + 12), radius=12, fill=fill,
                        outline=outline or fill, width=1)
    fonts.text(d, (x + w // 2, cy), text, 15, fg, bold=True, anchor="mm")
    return x + w + 6


def _panel(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, seat: int, y: int,
           to_act: list[int], phase, outcome) -> None:
    acting = seat in to_act and not outcome
    winner = bool(outcome) and seat in (outcome.get("winners") or [])
    border = seat_colour(seat) if (acting or winner) else LINE
    d.rounded_rectangle((M, y, W - M, y + PANEL_H), radius=10, fill=seat_tint(seat),
                        outline=border, width=4 if (acting or winner) else 1)
    cy = y + 21
    # name with a colour swatch in the shape of the owner mark
    x = M + 12
    if seat == 0:
        d.polygon([(x, cy + 8), (x + 18, cy + 8), (x + 9, cy - 9)], fill=seat_colour(seat))
    else:
        d.polygon([(x, cy - 8), (x + 18, cy - 8), (x + 9, cy + 9)], fill=seat_colour(seat))
    x += 26
    name = ctx.name(seat)
    if view.get("seat") == seat:
        name = f"{name} {ctx.t('render.you')}"
    badges = []
    if view.get("first") == seat:
        badges.append((ctx.t("render.first"), WHITE, MUTED, LINE))
    if winner:
        badges.append(("★ " + ctx.t("render.winner_badge"), seat_dark(seat), WHITE, None))
    elif acting:
        key = "render.must_return_badge" if phase == "return" else "render.squares.to_move_badge"
        badges.append(("▶ " + ctx.t(key), seat_dark(seat), WHITE, None))
    # centre pips: squares held in the centre row, 3 wins
    centre = view.get("centre") or [0, 0]
    held = int(centre[seat]) if seat < len(centre) else 0
    px = W - M - 14 - 3 * 20
    label = ctx.t("render.centre") + (f" {held}" if held > 3 else "")
    # the name takes what the badges and the centre label leave: shrunk, then over two lines
    room = (px - 8 - fonts.text_width(label, 15, True) - 12 - x
            - sum(fonts.text_width(b[0], 15, True) + 22 for b in badges) - 10)
    size, lines = draw_fit(d, (x, cy), name, 19, MIN_TEXT, room, INK, bold=True, anchor="lm",
                           max_lines=2, leading=1.2, height=40)
    x += int(max(fonts.text_width(ln, size, True) for ln in lines)) + 10
    for text, fill, fg, outline in badges:
        x = _badge(d, x, cy, text, fill, fg, outline=outline)
    for i in range(3):
        box = (px + i * 20, cy - 8, px + i * 20 + 16, cy + 8)
        if i < held:
            d.ellipse(box, fill=seat_colour(seat), outline=seat_dark(seat), width=2)
        else:
            d.ellipse(box, fill=WHITE, outline=LINE, width=2)
    fonts.text(d, (px - 8, cy), label, 15, RED, bold=True, anchor="rm")
    # reserve, grouped by piece kind: "A 援護/飛躍 [1][3]   B 交換/補給 [2][5]"
    ry = y + 57
    x = M + 12
    fonts.text(d, (x, ry), ctx.t("render.reserve"), 15, MUTED, anchor="lm")
    x += int(fonts.text_width(ctx.t("render.reserve"), 15)) + 12
    reserves = view.get("reserves") or []
    pieces = reserves[seat] if seat < len(reserves) else []
    by_kind: dict[str, list[int]] = {}
    for p in pieces or []:
        by_kind.setdefault(str(p.get("kind", "?")), []).append(int(p.get("number", 0)))
    if not by_kind:
        fonts.text(d, (x, ry), ctx.t("render.reserve_empty"), 15, MUTED, anchor="lm")
        return
    for kind in sorted(by_kind):
        sides = KIND_SIDES.get(kind)
        label = kind
        if sides:
            label += " " + "/".join(ctx.t(f"render.squares.side.{s}") for s in sides)
        fonts.text(d, (x, ry), label, 15, INK, bold=True, anchor="lm")
        x += int(fonts.text_width(label, 15, True)) + 6
        for n in sorted(by_kind[kind]):
            if x + 26 > W - M - 6:
                break
            m = _mini(seat, n)
            img.paste(m, (x, ry - 14), m)
            x += 29
        x += 14


def _row_sums(d: ImageDraw.ImageDraw, view: dict) -> None:
    sums = view.get("row_sums") or []
    limits = view.get("row_limits") or []
    over = view.get("over_limit") or []
    for rank in range(1, 6):
        y0 = rank_y(rank)
        for seat, cy in ((1, y0 + 24), (0, y0 + CELL - 26)):
            try:
                s = int(sums[seat][rank - 1])
                lim = int(limits[seat][rank - 1])
            except (IndexError, TypeError, ValueError):
                continue
            is_over = s > lim or (seat < len(over) and rank in (over[seat] or []))
            x = SX + 8
            # owner mark
            if seat == 0:
                d.polygon([(x, cy + 6), (x + 13, cy + 6), (x + 6, cy - 7)], fill=seat_colour(0))
            else:
                d.polygon([(x, cy - 6), (x + 13, cy - 6), (x + 6, cy + 7)], fill=seat_colour(1))
            text = f"{s}/{lim}" + (" !" if is_over else "")
            colour = RED if is_over else (MUTED if s == 0 else INK)
            fonts.text(d, (x + 20, cy), text, 17, colour, bold=True, anchor="lm")
            # gauge
            gx0, gx1 = SX + 84, SX + SW - 10
            d.rounded_rectangle((gx0, cy - 6, gx1, cy + 6), radius=6, fill=WHITE, outline=LINE)
            if s > 0 and lim > 0:
                frac = min(1.0, s / lim)
                fx = gx0 + max(12, int((gx1 - gx0) * frac))
                d.rounded_rectangle((gx0, cy - 6, fx, cy + 6), radius=6,
                                    fill=RED if is_over else seat_colour(seat))


def _centre(square: str) -> tuple[int, int] | None:
    xy = square_xy(square)
    return None if xy is None else (xy[0] + CELL // 2, xy[1] + CELL // 2)


def _dashed_rect(d: ImageDraw.ImageDraw, box, colour, width: int = 3, dash: int = 9) -> None:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash * 2):
        d.line((x, y0, min(x + dash, x1), y0), fill=colour, width=width)
        d.line((x, y1, min(x + dash, x1), y1), fill=colour, width=width)
    for y in range(y0, y1, dash * 2):
        d.line((x0, y, x0, min(y + dash, y1)), fill=colour, width=width)
        d.line((x1, y, x1, min(y + dash, y1)), fill=colour, width=width)


def _arrow(d: ImageDraw.ImageDraw, a, b, double: bool) -> None:
    """A yellow arrow with a dark edge from ``a`` to ``b`` (pixel points); ``double``: both ends."""
    ax, ay = a
    bx, by = b
    length = math.hypot(bx - ax, by - ay)
    if length < 1:
        return
    head, half, shaft = 16, 11, 4

    def poly(px, py, qx, qy):      # a shaft from p to q with a head at q
        n = math.hypot(qx - px, qy - py) or 1.0
        ux, uy = (qx - px) / n, (qy - py) / n
        nx, ny = -uy, ux
        base_x, base_y = qx - ux * head, qy - uy * head
        return [
            (px + nx * shaft, py + ny * shaft), (base_x + nx * shaft, base_y + ny * shaft),
            (base_x + nx * half, base_y + ny * half), (qx, qy),
            (base_x - nx * half, base_y - ny * half), (base_x - nx * shaft, base_y - ny * shaft),
            (px - nx * shaft, py - ny * shaft)]

    if double:   # one outline, heads at both ends
        n = poly(ax, ay, bx, by)
        m = poly(bx, by, ax, ay)
        shape = n[1:6] + m[1:6]
    else:
        shape = poly(ax, ay, bx, by)
    d.polygon(shape, fill=HILITE, outline=INK, width=2)


def _last(d: ImageDraw.ImageDraw, last, occupied: set[str]) -> None:
    if not isinstance(last, dict):
        return
    frm, to = last.get("from"), last.get("to")
    for sq in last.get("returned") or []:
        xy = square_xy(sq)
        if xy and sq not in occupied:
            _dashed_rect(d, (xy[0] + 8, xy[1] + 8, xy[0] + CELL - 9, xy[1] + CELL - 9), MUTED,
                         width=2, dash=7)
    fxy, txy = square_xy(frm) if frm else None, square_xy(to) if to else None
    if fxy:
        _dashed_rect(d, (fxy[0] + 2, fxy[1] + 2, fxy[0] + CELL - 3, fxy[1] + CELL - 3), INK,
                     width=3)
    if txy:
        d.rectangle((txy[0] + 1, txy[1] + 1, txy[0] + CELL - 2, txy[1] + CELL - 2), outline=INK,
                    width=6)
        d.rectangle((txy[0] + 2, txy[1] + 2, txy[0] + CELL - 3, txy[1] + CELL - 3),
                    outline=HILITE, width=4)
    if fxy and txy and frm != to:
        a, b = _centre(frm), _centre(to)
        dist = math.hypot(b[0] - a[0], b[1] - a[1])
        ux, uy = (b[0] - a[0]) / dist, (b[1] - a[1]) / dist
        r_to = CELL * 0.46 if to in occupied else 12
        r_from = CELL * 0.46 if frm in occupied else 0
        start = (a[0] + ux * r_from, a[1] + uy * r_from)
        end = (b[0] - ux * r_to, b[1] - uy * r_to)
        if frm in occupied and to in occupied and dist <= CELL * 1.01:
            # a swap: both squares hold pieces -> a short double arrow across the shared edge
            start = (a[0] + ux * CELL * 0.2, a[1] + uy * CELL * 0.2)
            end = (b[0] - ux * CELL * 0.2, b[1] - uy * CELL * 0.2)
            _arrow(d, start, end, double=True)
        else:
            _arrow(d, start, end, double=False)
    battle = last.get("battle")
    if isinstance(battle, dict):
        sq = battle.get("square") or to
        xy = square_xy(sq) if sq else None
        if xy:
            text = f"{battle.get('attacker', '?')}:{battle.get('defender', '?')}"
            w = int(fonts.text_width(text, 15, True)) + 14
            x1, y0 = xy[0] + CELL - 4, xy[1] - 10
            d.rounded_rectangle((x1 - w, y0, x1, y0 + 24), radius=12, fill=BATTLE_BG,
                                outline=RED, width=2)
            fonts.text(d, (x1 - w // 2, y0 + 12), text, 15, RED, bold=True, anchor="mm")


LINE_STEP = 19           # px between the footer's lines of 15 px text


def _notes(view: dict, ctx: Ctx) -> list[tuple[tuple[str, ...], tuple]]:
    """The footer's lines under the status: the last move (with its battle) and the pieces it
    returned, each wrapped to the picture's width (lines, colour)."""
    last = view.get("last")
    if not isinstance(last, dict):
        return []
    seat = last.get("seat")
    said = said_text(view, ctx)
    line = ctx.t("render.last_said", text=said) if said else ctx.t(
        "render.last", name=ctx.name(seat) if isinstance(seat, int) else "", command=str(last.get("command") or ""))
    battle = last.get("battle")
    if isinstance(battle, dict):
        winner = str(battle.get("winner") or "")
        rkey = f"render.battle.{winner}"
        result = ctx.t(rkey)
        line += "  ·  " + ctx.t("render.battle", square=battle.get("square") or last.get("to"),
                               attacker=battle.get("attacker"),
                               defender=battle.get("defender"),
                               result=winner if result == rkey else result)
    notes = [(fonts.wrap(line, 15, W - 2 * M - 8), INK)]
    returned = [str(s) for s in last.get("returned") or []]
    if returned:
        notes.append((fonts.wrap(ctx.t("render.returned", squares=ctx.t("core.list_sep").join(returned)), 15, W - 2 * M - 8),
                      MUTED))
    return notes


def _footer(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, to_act: list[int], phase,
            outcome, notes) -> None:
    y = FOOT_Y
    if outcome:
        head, reason = ctx.outcome_text(outcome)
        winners = outcome.get("winners") or []
        fill = seat_colour(winners[0]) if len(winners) == 1 else (90, 90, 98)
        fg = seat_text(winners[0]) if len(winners) == 1 else WHITE
        d.rounded_rectangle((M, y, W - M, y + 40), radius=10, fill=fill,
                            outline=seat_dark(winners[0]) if len(winners) == 1 else INK, width=2)
        text = f"★ {head}" + (f"  —  {reason}" if reason else "")
        draw_fit(d, (W // 2, y + 20), text, 21, MIN_TEXT, W - 2 * M - 20, fg, bold=True,
                 anchor="mm", max_lines=2, leading=1.22, height=40)
    elif to_act:
        key = "render.must_return" if phase == "return" else "render.squares.to_move"
        text = "   ".join(ctx.t(key, name=ctx.name(s)) for s in to_act)
        fonts.text(d, (M + 4, y + 20), "▶", 20, seat_colour(to_act[0]), bold=True, anchor="lm")
        draw_fit(d, (M + 30, y + 20), text, 20, MIN_TEXT, W - 2 * M - 40, INK, bold=True,
                 anchor="lm", max_lines=2, leading=1.22, height=40)
    y += 58
    for lines, colour in notes:
        for line in lines:
            fonts.text(d, (M + 4, y), line, 15, colour, anchor="lm")
            y += LINE_STEP
