"""The fallback picture for games without their own drawer: a readable text card.

Shows the game's name, whose decision is awaited, the clock, and a compact ``key: value``
dump of the view's top-level fields (lists and objects are summarised), and the result when
the match is over.  Height grows with the number of lines (capped), width is fixed.
"""
from __future__ import annotations

import json

from PIL import Image, ImageDraw

from render import fonts
from render.textfit import draw_fit
from render.base import INK, LINE, MUTED, PAPER, RED, WHITE, Ctx, seat_colour, seat_dark, seat_text

W = 720
M = 20
LINE_H = 24
MAX_LINES = 28
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


def draw_generic(view: dict, ctx: Ctx) -> Image.Image:
    lines: list[tuple[str, str]] = []
    for key in sorted(view, key=str):
        if key in SKIP:
            continue
        lines.append((str(key), _value(view[key], ctx)))
    extra = 0
    if len(lines) > MAX_LINES:
        extra = len(lines) - (MAX_LINES - 1)
        lines = lines[: MAX_LINES - 1]
    outcome = view.get("outcome") if isinstance(view.get("outcome"), dict) else None
    top = 112 + (48 if outcome else 0)
    height = top + LINE_H * (len(lines) + (1 if extra else 0)) + M
    img = Image.new("RGB", (W, max(240, height)), PAPER)
    d = ImageDraw.Draw(img)

    draw_fit(d, (M, 28), ctx.game_title(), 26, 16, 440, INK, bold=True, anchor="lm")
    fonts.text(d, (M, 56), ctx.view_label(view), 14, MUTED, anchor="lm")
    clock = ctx.clock_text()
    if clock:
        fonts.text(d, (W - M, 28), clock, 16, RED if ctx.clock_urgent() else INK,
                   bold=ctx.clock_urgent(), anchor="rm")
    to_act = [s for s in (view.get("to_act") or []) if isinstance(s, int)]
    names = ", ".join(ctx.name(s) for s in to_act) or ctx.t("render.generic.nobody")
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
    key_w = min(220, max((int(fonts.text_width(k, 15, True)) for k, _ in lines), default=0) + 16)
    for key, value in lines:
        fonts.text(d, (M, y + LINE_H // 2), fonts.fit(key, 15, key_w - 10, bold=True), 15, INK,
                   bold=True, anchor="lm")
        fonts.text(d, (M + key_w, y + LINE_H // 2), fonts.fit(value, 15, W - 2 * M - key_w), 15,
                   INK, anchor="lm")
        y += LINE_H
    if extra:
        fonts.text(d, (M, y + LINE_H // 2), ctx.t("render.generic.more", n=extra), 14, MUTED,
                   anchor="lm")
    return img
