"""The Battle Logic Square pictures, drawn from ``game.view(state, seat)`` only.

Public view (500 px wide, so a phone shows no text under 8 px; the height follows the text)::

    title · view label · phase                 turn 10/100 · clock
    ┌ seat 1: name, badges, life bar / AVI + awakening, AP / deck, hand, trash, IT / used IT ┐
    5 │ board: seat 1's area (tinted)
    4 │
    3 │ shared row
    2 │ seat 0's area (tinted)
    1 │  AVIs, placed cards, last range
        a    b    c    d    e
    └ seat 0: the same ┘
    whose turn and the phase, or the outcome banner
    chain in progress (if any)
    last action: who did what, the chain with ✓ for the cards that resolved, and its events
    the newest trash cards of both players

A seat's own view (``view["seat"]`` is an int) is the HAND picture sent by DM next to the public
board (600 px wide, ``render/logic_square_hand.py``): the seat's life / AP / pending decision, the chain it may answer, then
every hand card (name, category, colour, CB, damage or durability, cost, hit-range grid relative
to the AVI, text with the break condition on its own line) and the unused IT cards with their
build conditions.  Nothing is drawn that the view does not contain.

Caches: the empty board per locale, AVI and placed-card tiles, the range hatch, wrapped text
and hand-card images (keyed by the card's JSON) are ``lru_cache``'d; every picture draws on its
own copy of the background.
"""
from __future__ import annotations

import json
from functools import lru_cache

from PIL import Image, ImageDraw

from render import fonts, logic_square_hand, logic_square_panel, logic_square_text  # noqa: F401 (registers the text view)
from render.base import (HILITE, INK, LINE, MUTED, PAPER, RED, WHITE, Ctx, register,
                         seat_colour, seat_dark, seat_text, seat_tint)
from render.logic_square_layout import (BOTTOM_PANEL_Y, BOX_BG, BW, BX, BY, CELL, FOOT_Y, GREEN, H, LIFE_MAX, M,
                                        MIN_TEXT, RANGE_FILL, SHARED_A, SHARED_B, SW, SX, TOP_PANEL_Y, W,
                                        _seat_mark, header_lines)
from render.logic_square_words import (_avis, _decl_line, _event_line, _last_headline, _name, _outcome_text,
                                       _phase_text, _players, _t, quiet_resolves)
from render.textfit import draw_fit, fit_block, list_text


def _j(obj) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False)


def square_rc(square) -> tuple[int, int] | None:
    """(column 0–4, rank 1–5) of ``"c3"``, or None."""
    if not isinstance(square, str) or len(square) != 2:
        return None
    col = ord(square[0].lower()) - ord("a")
    if not square[1].isdigit():
        return None
    rank = int(square[1])
    if not (0 <= col < 5 and 1 <= rank <= 5):
        return None
    return col, rank


def square_xy(square) -> tuple[int, int] | None:
    """Top-left pixel of a square (rank 1 at the bottom: seat 0 sits at the bottom)."""
    rc = square_rc(square)
    if rc is None:
        return None
    return BX + rc[0] * CELL, BY + (5 - rc[1]) * CELL


wrap = fonts.wrap          # kept importable from here (render/logic_square_hand.py)


# --------------------------------------------------------------------------------------------
# static layers and tiles
# --------------------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def _background(locale: str) -> Image.Image:
    """The empty board with tinted areas and coordinates.  Cached per locale; never mutated."""
    img = Image.new("RGB", (W, H), PAPER)
    d = ImageDraw.Draw(img)
    for rank in range(1, 6):
        for col in range(5):
            x, y = BX + col * CELL, BY + (5 - rank) * CELL
            dark = (rank + col) % 2 == 0
            if rank == 3:
                fill = SHARED_B if dark else SHARED_A
            else:
                tint = seat_tint(0 if rank <= 2 else 1)
                fill = tuple(max(0, c - 12) for c in tint) if dark else tint
            d.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=fill)
    for i in range(6):
        d.line((BX + i * CELL, BY, BX + i * CELL, BY + BW), fill=LINE, width=1)
        d.line((BX, BY + i * CELL, BX + BW, BY + i * CELL), fill=LINE, width=1)
    # area borders: each player's two rows framed in the player's colour
    for seat, top in ((1, BY), (0, BY + 3 * CELL)):
        d.rectangle((BX - 1, top, BX + BW + 1, top + 2 * CELL), outline=seat_colour(seat), width=3)
    d.rectangle((BX - 3, BY - 3, BX + BW + 3, BY + BW + 3), outline=INK, width=2)
    # area strips and rank numbers on the left
    for rank in range(1, 6):
        y0 = BY + (5 - rank) * CELL
        col = seat_colour(0) if rank <= 2 else seat_colour(1) if rank >= 4 else (160, 156, 146)
        d.rectangle((BX - 12, y0 + 2, BX - 7, y0 + CELL - 3), fill=col)
        fonts.text(d, (BX - 26, y0 + CELL // 2), str(rank), 18, INK, bold=True, anchor="mm")
    for col in range(5):
        fonts.text(d, (BX + col * CELL + CELL // 2, BY + BW + 14), "abcde"[col], 18, INK,
                   bold=True, anchor="mm")
    shared = _t("render.ls.shared", locale)
    size = fit_block(shared, 11, MIN_TEXT, CELL * 2)[0]
    fonts.text(d, (BX + BW - 6, BY + 3 * CELL - 4), shared, size, MUTED, anchor="rd")
    return img


@lru_cache(maxsize=8)
def _hatch(colour: tuple) -> Image.Image:
    """A translucent diagonal hatch the size of a square (RGBA), for hit-range overlays."""
    img = Image.new("RGBA", (CELL - 1, CELL - 1), colour + (38,))
    d = ImageDraw.Draw(img)
    for k in range(-CELL, CELL, 11):
        d.line((k, CELL, k + CELL, 0), fill=colour + (120,), width=3)
    return img


@lru_cache(maxsize=512)
def _avi_tile(seat: int, name: str, life: int, awakened: bool) -> Image.Image:
    """An AVI on the board (78 × 78, RGBA): name, life, life bar, facing mark, awakening star."""
    size = CELL - 10
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fg = seat_text(seat)
    d.rounded_rectangle((0, 0, size - 1, size - 1), radius=12, fill=seat_colour(seat),
                        outline=HILITE if awakened else seat_dark(seat), width=4 if awakened else 2)
    # facing: seat 0 plays up the board, seat 1 down
    cx = size // 2
    if seat == 0:
        d.polygon([(cx - 7, 11), (cx + 7, 11), (cx, 3)], fill=fg)
    else:
        d.polygon([(cx - 7, size - 12), (cx + 7, size - 12), (cx, size - 4)], fill=fg)
    sz, lines = _tile_name(name, size - 8)
    ny = (18 if seat == 0 else 10) + (0 if len(lines) > 1 else 2)
    for i, line in enumerate(lines):
        fonts.text(d, (cx, ny + i * 12), line, sz, fg, bold=True, anchor="mm")
    ly = ny + 12 * (len(lines) - 1) + 19
    # awakened: a star beside the life (the name keeps the tile's whole width)
    lw = fonts.text_width(str(life), 24, True)
    star = 15 if awakened else 0
    fonts.text(d, (cx + star / 2, ly), str(life), 24, fg, bold=True, anchor="mm")
    if awakened:
        fonts.text(d, (cx + star / 2 - lw / 2 - 2, ly), "★", 14, HILITE, bold=True, anchor="rm")
    by = ly + 15
    d.rounded_rectangle((8, by, size - 9, by + 7), radius=3, fill=WHITE)
    frac = max(0.0, min(1.0, life / LIFE_MAX))
    if frac > 0:
        d.rounded_rectangle((8, by, 8 + max(6, int((size - 17) * frac)), by + 7), radius=3,
                            fill=RED if life <= 150 else seat_dark(seat))
    return img


def _tile_name(name: str, width: int, lines: int = 2) -> tuple[int, tuple[str, ...]]:
    """A card's name on a board tile: 11 px, else 10 px over up to ``lines`` lines, broken at
    "・" first (ブリッツ / ベクター), never cut."""
    if "・" in name and fonts.text_width(name, 11, True) > width:
        parts = tuple(part for part in name.split("・", 1) if part)
        for sz in (11, 10):
            if all(fonts.text_width(part, sz, True) <= width for part in parts):
                return sz, parts
    return fit_block(name, 11, MIN_TEXT, width, lines, True)


@lru_cache(maxsize=512)
def _placed_tile(owner: int, name: str, category: str, dur: int, max_dur: int) -> Image.Image:
    """A placed card (78 × 78, RGBA): owner band with category, name, durability and bar."""
    size = CELL - 10
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, size - 1, size - 1), radius=7, fill=WHITE,
                        outline=seat_colour(owner), width=3)
    d.rounded_rectangle((0, 0, size - 1, 17), radius=7, fill=seat_colour(owner))
    d.rectangle((0, 10, size - 1, 17), fill=seat_colour(owner))
    fg = seat_text(owner)
    fonts.text(d, (6, 9), category, 11, fg, bold=True, anchor="lm")
    # owner mark (which way it faces)
    x = size - 16
    if owner == 0:
        d.polygon([(x, 13), (x + 10, 13), (x + 5, 4)], fill=fg)
    else:
        d.polygon([(x, 4), (x + 10, 4), (x + 5, 13)], fill=fg)
    sz, lines = _tile_name(name, size - 6)
    if len(lines) > 2 or fonts.text_width(lines[-1], sz, True) > size - 6:
        sz, lines = _tile_name(name, size - 6, 3)
    step = 14 if len(lines) <= 2 else 11
    for i, line in enumerate(lines):
        fonts.text(d, (size // 2, 28 - (len(lines) - 2) * 3 + i * step), line, sz, INK,
                   bold=True, anchor="mm")
    fonts.text(d, (size // 2, size - 21), f"{dur}/{max_dur}", 13, seat_dark(owner), bold=True,
               anchor="mm")
    d.rectangle((6, size - 11, size - 7, size - 6), fill=(226, 222, 214))
    frac = max(0.0, min(1.0, dur / max_dur)) if max_dur else 0.0
    if frac > 0:
        d.rectangle((6, size - 11, 6 + max(3, int((size - 13) * frac)), size - 6),
                    fill=seat_dark(owner))
    return img


# --------------------------------------------------------------------------------------------
# the drawer
# --------------------------------------------------------------------------------------------
@register("logic_square")
def draw_logic_square(view: dict, ctx: Ctx) -> Image.Image:
    if isinstance(view.get("seat"), int) and ("hand" in view or "it_unused" in view):
        return logic_square_hand.draw_hand(view, ctx)
    return _draw_public(view, ctx)


def _draw_public(view: dict, ctx: Ctx) -> Image.Image:
    img = Image.new("RGB", (W, H + 900), PAPER)
    img.paste(_background(ctx.locale), (0, 0))
    d = ImageDraw.Draw(img)
    cards = view.get("cards") or {}
    outcome = view.get("outcome")
    _header(d, view, ctx)
    for seat, y in ((1, TOP_PANEL_Y), (0, BOTTOM_PANEL_Y)):
        logic_square_panel.draw_panel(d, view, ctx, seat, y)
    last = view.get("last") if isinstance(view.get("last"), dict) else None
    chain = [c for c in view.get("chain") or [] if isinstance(c, dict)]

    # hit ranges: the chain being built, else the last card / ability used
    # (squares, target kind, resolved): cards that did not resolve get an outline only
    ranges: list[tuple[list[str], str, bool]] = []
    decls = chain or (last.get("chain") or [] if last else [])
    resolved = None if chain or not last else last.get("resolved")
    for i, decl in enumerate(decls):
        if isinstance(decl, dict) and decl.get("range"):
            target = (cards.get(decl.get("card")) or {}).get("target") or "enemy"
            strong = resolved is None or i in resolved
            ranges.append((list(decl["range"]), target, strong))
    if not chain and last and last.get("kind") == "avi" and last.get("range"):
        ranges.append((list(last["range"]), "enemy", True))
    range_squares: dict[str, tuple] = {}
    weak_squares: dict[str, tuple] = {}
    for squares, target, strong in ranges:
        colour = RANGE_FILL.get(target, RED)
        for sq in squares:
            (range_squares if strong else weak_squares)[sq] = colour
    for sq in range_squares:
        weak_squares.pop(sq, None)
    for sq, colour in range_squares.items():
        xy = square_xy(sq)
        if xy:
            h = _hatch(colour)
            img.paste(h, (xy[0] + 1, xy[1] + 1), h)

    # pieces
    board = view.get("board") or {}
    for p in board.get("placed") or []:
        xy = square_xy(p.get("square"))
        if not xy:
            continue
        cid = p.get("card")
        card = cards.get(cid) or {}
        tile = _placed_tile(int(p.get("owner") or 0) % 2, _name(cards, cid, ctx.locale),
                            str(card.get("category") or "?"), int(p.get("durability") or 0),
                            int(p.get("max_durability") or 0))
        img.paste(tile, (xy[0] + 5, xy[1] + 5), tile)
    for seat, a in sorted(_avis(view).items(), key=lambda kv: str(kv[0])):
        xy = square_xy(a.get("square"))
        if not xy or not isinstance(seat, int):
            continue
        tile = _avi_tile(seat % 2, _name(cards, a.get("card"), ctx.locale), int(a.get("life") or 0),
                         bool(a.get("awakened")))
        img.paste(tile, (xy[0] + 5, xy[1] + 5), tile)

    for sq, colour in range_squares.items():
        xy = square_xy(sq)
        if xy:
            d.rectangle((xy[0] + 1, xy[1] + 1, xy[0] + CELL - 2, xy[1] + CELL - 2), outline=colour,
                        width=3)
    for sq, colour in weak_squares.items():
        xy = square_xy(sq)
        if xy:
            _dashed(d, (xy[0] + 3, xy[1] + 3, xy[0] + CELL - 4, xy[1] + CELL - 4), colour, width=2,
                    dash=6)
    _marks(d, view, last, chain)
    _footer(d, view, ctx, outcome)
    y = H
    if chain:
        y = _chain_box(d, chain, cards, ctx, y) + 10
    y = _last_box(d, last, cards, ctx, y, view) + 10
    y = _trash_box(d, view, cards, ctx, y) + 12
    return img.crop((0, 0, W, y))


def _header(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx) -> None:
    draw_fit(d, (M, 24), ctx.game_title(), 24, 16, W - 2 * M - 130, INK, bold=True, anchor="lm")
    sub = ctx.view_label(view) + _phase_text(view, ctx)
    if view.get("awakening_rule") is False:
        sub += "  ·  " + ctx.t("render.ls.awakening_off_rule")
    header_lines(d, view, ctx, sub, W)


def _marks(d: ImageDraw.ImageDraw, view: dict, last: dict | None, chain: list[dict]) -> None:
    """Last move / placement outlines and damage / heal numbers on the board."""
    if not last:
        return
    events = [e for e in last.get("events") or [] if isinstance(e, dict)]
    if last.get("kind") == "move":
        fxy, txy = square_xy(last.get("from")), square_xy(last.get("to"))
        if fxy:
            _dashed(d, (fxy[0] + 4, fxy[1] + 4, fxy[0] + CELL - 5, fxy[1] + CELL - 5), INK)
        if txy:
            d.rectangle((txy[0] + 1, txy[1] + 1, txy[0] + CELL - 2, txy[1] + CELL - 2), outline=INK,
                        width=5)
            d.rectangle((txy[0] + 2, txy[1] + 2, txy[0] + CELL - 3, txy[1] + CELL - 3),
                        outline=HILITE, width=3)
    for ev in events:
        if ev.get("type") == "move":
            fxy = square_xy(ev.get("from"))
            if fxy:
                _dashed(d, (fxy[0] + 4, fxy[1] + 4, fxy[0] + CELL - 5, fxy[1] + CELL - 5), INK)
        if ev.get("type") == "place":
            xy = square_xy(ev.get("square"))
            if xy:
                d.rectangle((xy[0] + 1, xy[1] + 1, xy[0] + CELL - 2, xy[1] + CELL - 2),
                            outline=HILITE, width=3)
    # numbers: damage per square (red), heals at the AVI (green), destroyed squares (×)
    dmg: dict[str, int] = {}
    for ev in events:
        if ev.get("type") == "damage" and square_xy(ev.get("square")):
            dmg[ev["square"]] = dmg.get(ev["square"], 0) + int(ev.get("amount") or 0)
    heal: dict[str, int] = {}
    avis = _avis(view)
    for ev in events:
        if ev.get("type") == "heal" and int(ev.get("amount") or 0) > 0:
            sq = (avis.get(ev.get("seat")) or {}).get("square")
            if square_xy(sq):
                heal[sq] = heal.get(sq, 0) + int(ev["amount"])
    for ev in events:
        if ev.get("type") == "destroyed":
            xy = square_xy(ev.get("square"))
            if xy:
                d.line((xy[0] + 14, xy[1] + 14, xy[0] + CELL - 15, xy[1] + CELL - 15), fill=RED, width=5)
                d.line((xy[0] + 14, xy[1] + CELL - 15, xy[0] + CELL - 15, xy[1] + 14), fill=RED, width=5)
    for table, fill, sign in ((dmg, RED, "−"), (heal, GREEN, "+")):
        for sq, amount in table.items():
            xy = square_xy(sq)
            text = f"{sign}{amount}"
            w = int(fonts.text_width(text, 15, True)) + 14
            x1 = xy[0] + CELL + 4 if fill == RED else xy[0] + w - 4
            y0 = xy[1] + CELL - 17
            d.rounded_rectangle((x1 - w, y0, x1, y0 + 24), radius=12, fill=fill, outline=WHITE,
                                width=2)
            fonts.text(d, (x1 - w // 2, y0 + 12), text, 15, WHITE, bold=True, anchor="mm")


def _dashed(d: ImageDraw.ImageDraw, box, colour, width: int = 3, dash: int = 8) -> None:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash * 2):
        d.line((x, y0, min(x + dash, x1), y0), fill=colour, width=width)
        d.line((x, y1, min(x + dash, x1), y1), fill=colour, width=width)
    for y in range(y0, y1, dash * 2):
        d.line((x0, y, x0, min(y + dash, y1)), fill=colour, width=width)
        d.line((x1, y, x1, min(y + dash, y1)), fill=colour, width=width)


def _chain_box(d: ImageDraw.ImageDraw, chain: list[dict], cards: dict, ctx: Ctx, y: int) -> int:
    rows = min(len(chain), 6)
    first = len(chain) - rows
    texts = [wrap(f"{first + i + 1}. " + _decl_line(decl, cards, ctx.locale), 14, SW - 44)
             for i, decl in enumerate(chain[first:])]
    head = wrap(ctx.t("render.ls.chain_open"), 15, SW - 24, True)
    h = 16 + len(head) * 19 + sum(len(t) for t in texts) * 19 + 5 * rows + 6
    d.rounded_rectangle((SX, y, SX + SW, y + h), radius=10, fill=(255, 246, 230), outline=RED,
                        width=2)
    cy = y + 17
    for line in head:
        fonts.text(d, (SX + 12, cy), line, 15, RED, bold=True, anchor="lm")
        cy += 19
    cy += 8
    for decl, lines in zip(chain[first:], texts):
        _seat_mark(d, int(decl.get("seat") or 0), SX + 12, cy, 14)
        for line in lines:
            fonts.text(d, (SX + 32, cy), line, 14, INK, anchor="lm")
            cy += 19
        cy += 5
    return y + h


TRASH_H = 80
TRASH_LINES = 2         # lines per player's trash; the older cards are "and n more"


def _trash_box(d: ImageDraw.ImageDraw, view: dict, cards: dict, ctx: Ctx, y: int) -> int:
    """The newest trash cards of both players (the trash is public), whole names over up to two
    lines each, the older ones counted ("… and 3 more"); returns its bottom."""
    players = _players(view)
    rows = []
    for seat in (1, 0):
        names = [_name(cards, c, ctx.locale) for c in reversed(list((players.get(seat) or {}).get("trash") or []))]
        lines: tuple[str, ...] = ("-",)
        for k in range(len(names), 0, -1):
            lines = wrap(list_text(ctx, names[:k], len(names) - k), 13, SW - 42)
            if len(lines) <= TRASH_LINES:
                break
        rows.append((seat, lines))
    h = max(TRASH_H, 30 + sum(len(lines) * 18 + 6 for _, lines in rows) + 8)
    d.rounded_rectangle((SX, y, SX + SW, y + h), radius=10, fill=BOX_BG, outline=LINE, width=1)
    fonts.text(d, (SX + 12, y + 15), ctx.t("render.ls.trash_title"), 13, MUTED, bold=True,
               anchor="lm")
    cy = y + 39
    for seat, lines in rows:
        _seat_mark(d, seat, SX + 12, cy, 12)
        for line in lines:
            fonts.text(d, (SX + 30, cy), line, 13, INK, anchor="lm")
            cy += 18
        cy += 6
    return y + h


LAST_EVENTS = 10        # event lines shown under the last action (the rest: "… n more")


def _last_box(d: ImageDraw.ImageDraw, last: dict | None, cards: dict, ctx: Ctx, y: int,
              view: dict) -> int:
    """What the last action did, in words (who, the chain with ✓/×, its events); returns the
    box's bottom."""
    lines: list[tuple[str, int, bool, tuple, int | None]] = []   # text, size, bold, colour, seat
    if last:
        seat = last.get("seat")
        for i, line in enumerate(wrap(_last_headline(last, cards, ctx), 15, SW - 44, True)):
            lines.append((line, 15, True, INK, seat if (i == 0 and isinstance(seat, int)) else None))
        if last.get("paid"):
            paid = list_text(ctx, [_name(cards, c, ctx.locale) for c in last["paid"]])
            for line in wrap(ctx.t("render.ls.paid", cards=paid), 13, SW - 36):
                lines.append((line, 13, False, MUTED, None))
        decls = [c for c in last.get("chain") or [] if isinstance(c, dict)]
        resolved = last.get("resolved")
        if not view.get("chain") and (len(decls) > 1 or (decls and resolved is None)):
            lines.append((ctx.t("render.ls.chain_title"), 13, True, MUTED, None))
            for i, decl in enumerate(decls):
                mark = "…" if resolved is None else "✓" if i in resolved else "×"
                text = f"{mark} {i + 1}. " + _decl_line(decl, cards, ctx.locale)
                for k, part in enumerate(wrap(text, 14, SW - 40)):
                    lines.append(((" " if k else "") + part, 14, False, INK, None if k else int(decl.get("seat") or 0)))
        events = [e for e in last.get("events") or [] if isinstance(e, dict)]
        quiet = quiet_resolves(events)
        ev_lines = []
        for i, e in enumerate(events):
            if i in quiet:
                # it resolved and did nothing: a miss (nobody in its range) or no effect
                index = e.get("index")
                ranged = isinstance(index, int) and index < len(decls) and decls[index].get("range")
                ev_lines.append(ctx.t("narrate.ls.miss_range" if ranged else "narrate.ls.no_effect",
                                      name=ctx.name(e.get("seat")), card=_name(cards, e.get("card"), ctx.locale)))
                continue
            line = _event_line(e, cards, ctx)
            if line:
                ev_lines.append(line)
        if len(ev_lines) > LAST_EVENTS:
            ev_lines = ev_lines[:LAST_EVENTS - 1] + [ctx.t("render.ls.more", n=len(ev_lines) - LAST_EVENTS + 1)]
        if ev_lines:
            lines.append(("", 6, False, INK, None))
            for t in ev_lines:
                for k, part in enumerate(wrap("· " + t, 13, SW - 30)):
                    lines.append(((" " if k else "") + part, 13, False, INK, None))
    height = 30 + sum(6 if not text else 22 if size >= 14 else 20 for text, size, *_ in lines) + 8
    d.rounded_rectangle((SX, y, SX + SW, y + height), radius=10, fill=BOX_BG, outline=LINE, width=1)
    fonts.text(d, (SX + 12, y + 16), ctx.t("render.ls.last_title"), 13, MUTED, bold=True, anchor="lm")
    yy = y + 30
    for text, size, bold, colour, mark in lines:
        if not text:
            yy += 6
            continue
        cy = yy + 10
        x = SX + 12
        if mark is not None:
            _seat_mark(d, mark, x, cy, 12)
            x += 18
        fonts.text(d, (x, cy), text, size, colour, bold=bold, anchor="lm")
        yy += 22 if size >= 14 else 20
    return y + height


def _footer(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, outcome) -> None:
    y = FOOT_Y
    if outcome:
        winners = outcome.get("winners") or []
        one = len(winners) == 1 and isinstance(winners[0], int)
        fill = seat_colour(winners[0]) if one else (90, 90, 98)
        fg = seat_text(winners[0]) if one else WHITE
        d.rounded_rectangle((M, y, W - M, y + 40), radius=10, fill=fill,
                            outline=seat_dark(winners[0]) if one else INK, width=2)
        draw_fit(d, (W // 2, y + 20), _outcome_text(outcome, ctx), 20, MIN_TEXT + 2, W - 2 * M - 20, fg,
                 bold=True, anchor="mm", max_lines=2, leading=1.22, height=40)
        return
    player = view.get("player")
    if isinstance(player, int):
        phase = view.get("phase")
        key = "render.ls.status.discard" if phase == "discard" else "render.ls.status.main"
        p = _players(view).get(player) or {}
        text = ctx.t(key, name=ctx.name(player), ap=p.get("ap", 0))
        if view.get("chain"):
            text += "  ·  " + ctx.t("render.ls.status.chain")
        fonts.text(d, (M + 4, y + 20), "▶", 20, seat_colour(player), bold=True, anchor="lm")
        draw_fit(d, (M + 30, y + 20), text, 19, MIN_TEXT + 2, W - 2 * M - 40, INK, bold=True,
                 anchor="lm", max_lines=2, leading=1.22, height=40)

def warm(locale: str) -> None:
    """Fill the background cache for ``locale``."""
    _background(locale)

