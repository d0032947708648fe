"""Battle Logic Square: a player's strip above (seat 1) or below (seat 0) the board of the public
picture (:mod:`render.logic_square`), four lines 468 px wide::

    ▲ name (you)  [first] [▶ turn]                 Life 430 [██████░░░]
      AVI: Blitz Vector  [awakens at 150]                    AP 2 ●●○
      [Deck 17] [Hand 5] [Trash 3] [IT 2]
      [Shield 20] [+1 AP next turn]  IT used: Overdrive Cannon and 1 more

Every text is fitted to the room the others leave (:mod:`render.textfit`: shrunk, then wrapped,
a list shortened to whole names with "and n more"), never cut.
"""
from __future__ import annotations

from PIL import ImageDraw

from render import fonts
from render.base import HILITE, INK, LINE, MUTED, RED, WHITE, Ctx, seat_colour, seat_dark, seat_tint
from render.logic_square_layout import IT_BAND, LIFE_MAX, M, PANEL_H, W, _badge, _seat_mark
from render.logic_square_words import _avis, _name, _players
from render.textfit import draw_fit, fit_list, list_text, min_px

MIN_TEXT = min_px(W)        # 10 px: 8 px once the 500 px picture is shown 400 px wide


def draw_panel(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, seat: int, y: int) -> None:
    """One player's strip: name, badges and life bar; AVI, awakening and AP; deck / hand /
    trash / IT counts; shield, banked AP and the IT cards used."""
    p = _players(view).get(seat) or {}
    a = _avis(view).get(seat) or {}
    cards = view.get("cards") or {}
    outcome = view.get("outcome")
    to_act = [s for s in view.get("to_act") or [] if isinstance(s, int)]
    acting = seat in to_act and not outcome
    winner = bool(outcome) and seat in (outcome.get("winners") or [])
    border = seat_colour(seat) if (acting or winner) else LINE
    d.rounded_rectangle((M, y, W - M, y + PANEL_H), radius=10, fill=seat_tint(seat),
                        outline=border, width=4 if (acting or winner) else 1)
    right = W - M - 12
    _name_line(d, view, ctx, seat, y + 20, right, p, a, acting, winner)
    _avi_line(d, view, ctx, seat, y + 49, right, p, a, cards, outcome)

    # line 3: counts
    cy = y + 77
    x = M + 14
    trash = p.get("trash") or []
    items = [ctx.t("render.ls.deck", n=p.get("deck_count", 0)),
             ctx.t("render.ls.hand", n=p.get("hand_count", 0)),
             ctx.t("render.ls.trash", n=len(trash)),
             ctx.t("render.ls.it_unused", n=p.get("it_unused_count", 0))]
    for item in items:
        x = _badge(d, x, cy, item, WHITE, INK, outline=LINE, size=13)

    # line 4: shield, banked AP, CAA used, the IT cards used (public)
    cy = y + 104
    x = M + 14
    shield = int(p.get("shield") or 0)
    if shield:
        x = _badge(d, x, cy, ctx.t("render.ls.shield", amount=shield), WHITE, INK,
                   outline=seat_dark(seat), size=12)
    ap_next = int(p.get("ap_next") or 0)
    if ap_next:
        x = _badge(d, x, cy, ctx.t("render.ls.ap_next", amount=f"{ap_next:+d}"), WHITE, INK,
                   outline=LINE, size=12)
    if view.get("player") == seat and not outcome and p.get("caa_used"):
        x = _badge(d, x, cy, ctx.t("render.ls.caa_used"), WHITE, MUTED, outline=LINE, size=12)
    used = p.get("it_used") or []
    if used:
        room = W - M - 14 - x
        size = 12
        text = fit_list([_name(cards, c, ctx.locale) for c in used], size, room,
                        lambda shown, left: ctx.t("render.ls.it_used", cards=list_text(ctx, shown, left)), True)
        draw_fit(d, (x + 2, cy), text, size, MIN_TEXT, room, IT_BAND[0], bold=True, anchor="lm")


def _name_line(d, view: dict, ctx: Ctx, seat: int, cy: int, right: int, p: dict, a: dict,
               acting: bool, winner: bool) -> None:
    """Line 1: the seat mark, the name (over two lines if need be) and badges; life on the right."""
    life = int(p.get("life", a.get("life", 0)) or 0)
    bar_w = 110
    bar_x = right - bar_w
    d.rounded_rectangle((bar_x, cy - 7, bar_x + bar_w, cy + 7), radius=7, fill=WHITE, outline=LINE)
    frac = max(0.0, min(1.0, life / LIFE_MAX))
    if frac > 0:
        d.rounded_rectangle((bar_x, cy - 7, bar_x + max(14, int(bar_w * frac)), cy + 7), radius=7,
                            fill=RED if life <= 150 else seat_colour(seat))
    label = ctx.t("render.ls.life", life=life)
    fonts.text(d, (bar_x - 8, cy), label, 18, INK, bold=True, anchor="rm")
    limit = bar_x - 16 - int(fonts.text_width(label, 18, True))
    x = M + 12
    _seat_mark(d, seat, x, cy)
    x += 26
    badges = []
    if view.get("first") == seat:
        badges.append((ctx.t("render.ls.first"), WHITE, MUTED, LINE))
    if winner:
        badges.append(("★ " + ctx.t("render.ls.winner_badge"), seat_dark(seat), WHITE, None))
    elif acting:
        badges.append(("▶ " + ctx.t("render.ls.turn_badge"), seat_dark(seat), WHITE, None))
    name = ctx.name(seat)
    if view.get("seat") == seat:
        name = f"{name} {ctx.t('render.ls.you')}"
    # a badge that leaves the name under 120 px goes ("first" before "turn": the footer and the
    # border say whose turn it is)
    while badges and limit - x - sum(int(fonts.text_width(b[0], 13, True)) + 20 for b in badges) - 8 < 120:
        badges.pop(0)
    room = limit - x - sum(int(fonts.text_width(b[0], 13, True)) + 20 for b in badges) - 8
    size, lines = draw_fit(d, (x, cy), name, 19, MIN_TEXT + 2, room, INK, bold=True, anchor="lm",
                           max_lines=2, leading=1.2, height=30)
    x += int(max(fonts.text_width(ln, size, True) for ln in lines)) + 8
    for text, fill, fg, outline in badges:
        x = _badge(d, x, cy, text, fill, fg, outline=outline)


def _avi_line(d, view: dict, ctx: Ctx, seat: int, cy: int, right: int, p: dict, a: dict, cards: dict,
              outcome) -> None:
    """Line 2: the AVI and its awakening; AP on the right (the turn player)."""
    rx = right
    if view.get("player") == seat and not outcome:
        ap = int(p.get("ap") or 0)
        pips = max(ap, 3)
        px = rx - pips * 18
        for i in range(pips):
            box = (px + i * 18, cy - 7, px + i * 18 + 14, cy + 7)
            if i < ap:
                d.ellipse(box, fill=seat_colour(seat), outline=seat_dark(seat), width=2)
            else:
                d.ellipse(box, fill=WHITE, outline=LINE, width=2)
        text = ctx.t("render.ls.ap", ap=ap)
        fonts.text(d, (px - 8, cy), text, 14, INK, bold=True, anchor="rm")
        rx = int(px - 16 - fonts.text_width(text, 14, True))
    x = M + 14
    avi = _name(cards, a.get("card") or p.get("avi"), ctx.locale)
    aw_life = a.get("awakening_life")
    badge = None
    if view.get("awakening_rule") is False:
        badge = (ctx.t("render.ls.awakening_none"), WHITE, MUTED, LINE)
    elif aw_life is not None:
        if a.get("awakened"):
            badge = ("★ " + ctx.t("render.ls.awakened", life=aw_life), HILITE, INK, INK)
        else:
            badge = (ctx.t("render.ls.awakening_at", life=aw_life), WHITE, MUTED, LINE)
    label = ctx.t("render.ls.avi", name=avi)
    badge_w = int(fonts.text_width(badge[0], 12, True)) + 20 if badge else 0
    if badge and fonts.text_width(label, MIN_TEXT + 2, True) > rx - x - badge_w - 8:
        badge, badge_w = None, 0            # the AVI's name first; the awakening is on its tile
    size, lines = draw_fit(d, (x, cy), label, 14, MIN_TEXT + 2, rx - x - badge_w - 8, INK, bold=True,
                           anchor="lm")
    x += int(fonts.text_width(lines[0], size, True)) + 10
    if badge:
        _badge(d, x, cy, badge[0], badge[1], badge[2], outline=badge[3], size=12)
