"""The fallback picture for games without their own drawer: a readable text card.

Shows the game's name, whose decision is awaited, the clock, and a compact ``key: value``
dump of the view's top-level fields (lists and objects are summarised), and the result when
the match is over.  Every text is fitted (render/textfit.py: shrunk, wrapped, shortened only as
a last resort), never cut at the card's edge.  Height grows with the rows (capped), width is fixed.
"""
from __future__ import annotations

import json

from PIL import Image, ImageDraw

from render import fonts
from render.textfit import draw_fit, fit_block, min_px
from render.base import INK, LINE, MUTED, PAPER, RED, WHITE, Ctx, seat_colour, seat_dark, seat_text

W = 720
M = 20
LINE_H = 24
MAX_LINES = 28
MAX_H = 1600          # the card grows with its rows up to this height
TEXT = 15             # the rows' text size (never below render.textfit.min_px(W))
LEADING = 1.25
KEY_LINES, VALUE_LINES = 2, 3
SKIP = {"game", "to_act", "outcome", "seat", "said"}   # said: the host's words for "last"


def _longer_than(value, budget: int) -> bool:
    """True if compact JSON of ``value`` surely has more than ``budget`` characters: a cheap
    lower bound (every container 2 characters, every item at least 1 plus a separator), walked
    only until it passes the budget.  Saves encoding big views just to summarise them."""
    stack, n = [value], 0
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            n += 1 + 2 * len(v)            # {} and, per item, a key of >= 2 chars and ":" ...
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            n += 1 + len(v)                # [] and separators
            stack.extend(v)
        else:
            n += 1
        if n > budget:
            return True
    return False


def _value(value, ctx: Ctx) -> str:
    if isinstance(value, (list, tuple, dict)):
        if not _longer_than(value, 60):
            text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
            if len(text) <= 60:
                return text
        return f"[{ctx.t('render.generic.items', n=len(value))}]"
    if value is None:
        return "—"
    return str(value)


def _rows(lines: list[tuple[str, str]], key_w: int, value_w: int) -> list[tuple[tuple[int, tuple[str, ...]],
                                                                              tuple[int, tuple[str, ...]], int]]:
    """Each ``key: value`` row fitted as every drawer fits its labels (:mod:`render.textfit`):
    shrunk no smaller than the picture's least text size, then wrapped (a key over up to
    :data:`KEY_LINES` lines, a value over up to :data:`VALUE_LINES`), shortened only as a last
    resort; with the row's height."""
    least = min_px(W)
    out = []
    for key, value in lines:
        k = fit_block(key, TEXT, least, key_w - 10, KEY_LINES, bold=True)
        v = fit_block(value, TEXT, least, value_w, VALUE_LINES)
        n = max(len(k[1]), len(v[1]))
        out.append((k, v, max(LINE_H, round(n * max(k[0], v[0]) * LEADING) + 6)))
    return out


def draw_generic(view: dict, ctx: Ctx) -> Image.Image:
    lines: list[tuple[str, str]] = []
    for key in sorted(view, key=str):
        if key in SKIP:
            continue
        lines.append((str(key), _value(view[key], ctx)))
    outcome = view.get("outcome") if isinstance(view.get("outcome"), dict) else None
    top = 112 + (48 if outcome else 0)
    key_w = min(220, max((int(fonts.text_width(k, TEXT, True)) for k, _ in lines), default=0) + 16)
    rows = _rows(lines[:MAX_LINES], key_w, W - 2 * M - key_w)
    # as many rows as the card's height allows, then a line saying how many more there are
    extra = len(lines) - len(rows)
    room = MAX_H - top - M - (LINE_H if extra else 0)
    while rows and sum(h for _, _, h in rows) > room:
        rows.pop()
        extra = len(lines) - len(rows)
        room = MAX_H - top - M - LINE_H
    height = top + sum(h for _, _, h in rows) + (LINE_H if extra else 0) + M
    img = Image.new("RGB", (W, max(240, height)), PAPER)
    d = ImageDraw.Draw(img)

    clock = ctx.clock_text()
    clock_w = int(fonts.text_width(clock, 16, ctx.clock_urgent())) + 16 if clock else 0
    draw_fit(d, (M, 28), ctx.game_title(), 26, 16, min(440, W - 2 * M - clock_w), INK, bold=True, anchor="lm")
    draw_fit(d, (M, 56), ctx.view_label(view), 14, min_px(W), W - 2 * M, MUTED, anchor="lm")
    if clock:
        fonts.text(d, (W - M, 28), clock, 16, RED if ctx.clock_urgent() else INK,
                   bold=ctx.clock_urgent(), anchor="rm")
    to_act = [s for s in (view.get("to_act") or []) if isinstance(s, int)]
    names = ctx.t("core.list_sep").join(ctx.name(s) for s in to_act) or ctx.t("render.generic.nobody")
    y = 86
    if to_act and not outcome:
        d.polygon([(M, y - 8), (M + 14, y), (M, y + 8)], fill=seat_colour(to_act[0]))
    draw_fit(d, (M + 22, y), ctx.t("render.generic.to_act", names=names), 18, 13, W - 2 * M - 22, INK,
             bold=True, anchor="lm")
    y = 106
    if outcome:
        head, reason = ctx.outcome_text(outcome)
        winners = outcome.get("winners") or []
        one = len(winners) == 1
        d.rounded_rectangle((M, y, W - M, y + 40), radius=10,
                            fill=seat_colour(winners[0]) if one else (90, 90, 98),
                            outline=seat_dark(winners[0]) if one else INK, width=2)
        text = f"★ {head}" + (f"  —  {reason}" if reason else "")
        draw_fit(d, (W // 2, y + 20), text, 20, 13, W - 2 * M - 20, seat_text(winners[0]) if one else WHITE,
                 bold=True, anchor="mm", max_lines=2, leading=1.22, height=40)
        y += 48
    d.line((M, y, W - M, y), fill=LINE, width=1)
    y += 6
    for (k_size, k_lines), (v_size, v_lines), h in rows:
        for x, size, texts, bold in ((M, k_size, k_lines, True), (M + key_w, v_size, v_lines, False)):
            ty = y + 3
            for line in texts:
                fonts.text(d, (x, ty), line, size, INK, bold=bold, anchor="la")
                ty += size * LEADING
        y += h
    if extra:
        fonts.text(d, (M, y + LINE_H // 2), ctx.t("render.generic.more", n=extra), 14, MUTED,
                   anchor="lm")
    return img
