"""The Project Maken picture, drawn from ``game.view(state, seat)`` only.

Layout (600 px wide, so a phone showing it 400 px wide has no text under 8 px; the height
follows the content)::

    title · view label                                  turn 12/60 · step · clock
    ┌ the other player: name, character, TP / to-act badges │ guard space: type,     ┐
    │ LP ◆◆◆  stamina  hand                                  │ backs, the GC card     │
    │ gauge ■■■□□□□□□□  damage ■■□□□□□□□□  support, dust top │                        │
    │ attack field: face-up cards, bottom → top, left → right; the top card's numbers │
    └──────────────────────────────────────────────────────────────────────────────────┘
    situation (even / X is guarding) · judge · last command
    ┌ you (or seat 0), the same ┐
    your hand, five cards a row (a seat's own view), or the recent public log

Cards show name, speed / reach (front/back) / attack / guard difficulty, posture, unguardable
marks, gauge cost/gain, GC kind and the destination icon.  Face-down cards are backs only.
"""
from __future__ import annotations

import json
from functools import lru_cache

from PIL import Image, ImageDraw

from data import i18n
from render import fonts, hand_sheet
from render.textfit import draw_fit, fit_block
from render.base import (said_text, reason_text, INK, LINE, MUTED, PAPER, RED, WHITE, Ctx, register,
                         register_hand, seat_colour, seat_dark, seat_tint)

W = 600                              # shown 400 wide on a phone: all text is ≥ 12 px (8 px there)
M = 14
TOP_Y = 62
INFO_H = 178                         # a player's band: info (left) and guard space (right) …
CW, CH = 110, 200                    # card size
FIELD_H = 30 + CH + 30               # … then the attack field, full width, and its top card's line
EMPTY_FIELD_H = 30 + 44 + 8          # (an empty attack field: one short line)
BAND_H = INFO_H + FIELD_H
MID_H = 92
BW_, BH_ = 70, 100                   # a face-down card in the guard space
INFO_W = 300
GUARD_X = M + INFO_W + 16
TEXT = 12                            # the smallest text on a card
BACK = (72, 52, 96)
BACK_LINE = (150, 120, 180)
POSTURE_COL = {"stand": (0, 114, 178), "crouch": (0, 158, 115), "air": (204, 121, 167)}


def _j(view_card: dict) -> str:
    return json.dumps(view_card, sort_keys=True, ensure_ascii=False)


@lru_cache(maxsize=512)
def _card_img(card_json: str, bonuses: tuple, locale: str, twin: bool) -> Image.Image:
    """One card, CW × CH: its name (two lines if needed), speed / reach / attack / guard, the
    posture and unguardable marks, GC kind and gauge, bet/hit effects and where it goes."""
    card = json.loads(card_json)
    img = Image.new("RGBA", (CW, CH), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    t = lambda k, **p: i18n.t(k, locale, **p)  # noqa: E731
    name = card["name"].get(locale) or card["name"]["en"]
    if card.get("kind") == "support":
        d.rounded_rectangle((0, 0, CW - 1, CH - 1), radius=8, fill=(244, 236, 214), outline=INK, width=2)
        y = 14
        for line in fit_block(name, 13, TEXT, CW - 10, 2, True)[1]:
            fonts.text(d, (CW // 2, y), line, 13, INK, bold=True, anchor="mm")
            y += 16
        fonts.text(d, (CW // 2, y + 4), t("maken.render.support"), TEXT, MUTED, anchor="mm")
        text = card.get("text", {}).get(locale, "")
        y += 16
        for line in _flow([(word, INK) for word in text.split(" ")], TEXT, CW - 10, 8):
            fonts.text(d, (6, y), "".join(chunk for chunk, _ in line), TEXT, INK)
            y += 15
        return img
    posture = card.get("posture", "stand")
    col = POSTURE_COL.get(posture, INK)
    d.rounded_rectangle((0, 0, CW - 1, CH - 1), radius=8, fill=WHITE, outline=col, width=3)
    d.rectangle((3, 3, CW - 4, 38), fill=col)
    size, lines = fit_block(name, 13, TEXT, CW - 10, 2, True)
    if len(lines) == 1:
        fonts.text(d, (CW // 2, 21), lines[0], size, WHITE, bold=True, anchor="mm")
    else:
        for i, line in enumerate(lines):
            fonts.text(d, (CW // 2, 13 + 16 * i), line, size, WHITE, bold=True, anchor="mm")
    spd = card["speed"] + bonuses.count("spd")
    atk = card["attack"] + bonuses.count("atk")
    grd = card["guard"] + bonuses.count("grd")
    reach = str(card["front"]) if card["front"] == card["back"] else f"{card['front']}/{card['back']}"
    rows = [(t("maken.render.spd"), str(spd), "spd" in bonuses), (t("maken.render.rch"), reach, False),
            (t("maken.render.atk"), str(atk), "atk" in bonuses), (t("maken.render.grd"), str(grd), "grd" in bonuses)]
    y = 42
    for label, value, up in rows:
        fonts.text(d, (8, y + 8), label, TEXT, MUTED, anchor="lm")
        fonts.text(d, (CW - 8, y + 8), value, 16, RED if up else INK, bold=True, anchor="rm")
        y += 17
    # posture and unguardable marks
    fonts.text(d, (8, y + 9), t(f"maken.posture.{posture}"), TEXT, col, bold=True, anchor="lm")
    y += 18
    x = 6
    for u in card.get("unguardable", []):        # "×Stand": the whole word, chips wrapped
        label = "×" + t(f"maken.posture.{u}")
        w = int(fonts.text_width(label, TEXT, True)) + 6
        if x > 6 and x + w > CW - 4:
            x, y = 6, y + 18
        d.rounded_rectangle((x, y, x + w, y + 16), radius=4, fill=RED)
        fonts.text(d, (x + w // 2, y + 8), label, TEXT, WHITE, bold=True, anchor="mm")
        x += w + 3
    if card.get("unguardable"):
        y += 18
    for i, line in enumerate(_card_notes(card, locale, max(1, (CH - 24 - y) // 15))):
        x = 6
        for text, colour in line:
            fonts.text(d, (x, y + 7 + 15 * i), text, TEXT, colour, anchor="lm")
            x += fonts.text_width(text, TEXT)
    # destination icon (どこいくのアイコン)
    icon = card.get("icon", "dust")
    d.rounded_rectangle((4, CH - 22, CW - 5, CH - 5), radius=4, fill=(236, 232, 224))
    fonts.text(d, (CW // 2, CH - 13), "→ " + t(f"maken.icon.{icon}"), TEXT, INK, bold=True, anchor="mm")
    if twin:
        d.rounded_rectangle((0, 0, CW - 1, CH - 1), radius=8, outline=RED, width=2)
    return img


def _card_notes(card: dict, locale: str, max_lines: int = 2) -> list[list[tuple[str, tuple]]]:
    """The two lines above a card's destination icon: GC kind, gauge cost/gain in ink, then its
    bet/hit effects in red, flowed (Japanese breaks between characters)."""
    t = lambda k, **p: i18n.t(k, locale, **p)  # noqa: E731
    extras = []
    if card.get("gc") == "only":
        extras.append("GC専用" if locale == "ja" else "GC only")
    elif card.get("gc") == "able":
        extras.append("GC可" if locale == "ja" else "GC-able")
    if card.get("cost"):
        extras.append(t("maken.render.cost", n=card["cost"]))
    if card.get("gain"):
        extras.append(t("maken.render.gain", n=card["gain"]))
    effects = [("bet", e) for e in card.get("bet", [])] + [("hit", e) for e in card.get("hit", [])]
    flow = [(word, INK) for word in " ".join(extras).split()] + \
           [(word, RED) for w, e in effects for word in _effect_short(w, e, locale).split(" ")]
    return _flow(flow, TEXT, CW - 12, max_lines)


def _effect_short(where: str, eff: dict, locale: str) -> str:
    n = eff.get("n", 1)
    if locale == "ja":
        head = "ベット時" if where == "bet" else "ヒット時"
        body = {"draw": f"{n}ドロー", "gauge": f"ゲージ+{n}", "power": f"攻撃+{n}"}.get(eff.get("do"), "?")
        cond = f"(G{eff['if_gauge']}+)" if eff.get("if_gauge") is not None else ""
        return f"{head}:{body}{cond}"
    head = "bet" if where == "bet" else "hit"
    body = {"draw": f"draw {n}", "gauge": f"gauge +{n}", "power": f"total +{n}"}.get(eff.get("do"), "?")
    cond = f" (G{eff['if_gauge']}+)" if eff.get("if_gauge") is not None else ""
    return f"{head}: {body}{cond}"


def _flow(words: list[tuple[str, tuple]], size: int, width: int, max_lines: int) -> list[list[tuple[str, tuple]]]:
    """Coloured words laid out in at most ``max_lines`` lines no wider than ``width``: broken
    at spaces, and between characters inside a word too wide for a line (Japanese).  Each line
    is a list of ``(text, colour)`` runs; only what still does not fit ends in "…"."""
    lines: list[list[tuple[str, tuple]]] = [[]]
    used = 0.0

    def put(text: str, colour: tuple) -> None:
        run = lines[-1]
        if run and run[-1][1] == colour:
            run[-1] = (run[-1][0] + text, colour)
        else:
            run.append((text, colour))

    for word, colour in words:
        if not word:
            continue
        gap = fonts.text_width(" ", size) if lines[-1] else 0.0
        whole = fonts.text_width(word, size)
        if used + gap + whole <= width:
            put((" " if lines[-1] else "") + word, colour)
            used += gap + whole
            continue
        if whole <= width:                       # starts the next line whole
            lines.append([])
            put(word, colour)
            used = whole
            continue
        if lines[-1]:
            put(" ", colour)
            used += gap
        for ch in word:                          # broken between characters
            w = fonts.text_width(ch, size)
            if used + w > width and lines[-1]:
                lines.append([])
                used = 0.0
            put(ch, colour)
            used += w
    lines = [line for line in lines if line]
    if len(lines) > max_lines:
        last = "".join(text for text, _ in lines[max_lines - 1])
        colour = lines[max_lines - 1][-1][1]
        lines = lines[:max_lines - 1] + [[(fonts.fit(last + " …", size, width), colour)]]
    return lines


@lru_cache(maxsize=4)
def _back(horizontal: bool) -> Image.Image:
    w, h = (BH_, BW_) if horizontal else (BW_, BH_)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=8, fill=BACK, outline=BACK_LINE, width=3)
    d.rounded_rectangle((10, 10, w - 11, h - 11), radius=6, outline=BACK_LINE, width=1)
    fonts.text(d, (w // 2, h // 2), "魔", 26, BACK_LINE, bold=True, anchor="mm")
    return img


@lru_cache(maxsize=16)
def _character_img(initial: str, seat: int, upright: bool) -> Image.Image:
    """The character card: upright for the TP, sideways for the other player (turn start)."""
    img = Image.new("RGBA", (36, 52), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, 35, 51), radius=5, fill=WHITE, outline=seat_dark(seat), width=3)
    d.rectangle((4, 4, 31, 12), fill=seat_colour(seat))
    fonts.text(d, (18, 31), initial, 20, seat_dark(seat), bold=True, anchor="mm")
    return img if upright else img.rotate(-90, expand=True)


def _bar(d: ImageDraw.ImageDraw, x: int, y: int, n: int, total: int, colour, label: str) -> None:
    fonts.text(d, (x, y + 7), label, 13, INK, bold=True, anchor="lm")
    bx = x + 80
    for i in range(total):
        box = (bx + i * 15, y, bx + i * 15 + 12, y + 14)
        d.rectangle(box, fill=colour if i < n else WHITE, outline=LINE)
    fonts.text(d, (bx + total * 15 + 6, y + 7), str(n), 12, INK, bold=True, anchor="lm")


def _name(ctx: Ctx, cards: dict, cid: str | None) -> str:
    if not cid:
        return ctx.t("maken.render.empty")
    c = cards.get(cid) or {}
    return (c.get("name") or {}).get(ctx.locale) or (c.get("name") or {}).get("en") or cid


def band_h(view: dict, seat: int) -> int:
    """A band's height: an empty attack field takes one short line, not a card's height."""
    players = view.get("players") or []
    p = players[seat] if 0 <= seat < len(players) and isinstance(players[seat], dict) else {}
    return INFO_H + (FIELD_H if p.get("field") else EMPTY_FIELD_H)


def _band(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, seat: int, y: int) -> None:
    """A player's band: name, character, badges, LP, stamina, hand, gauge, damage, support and
    dust on the left; the guard space on the right; the attack field below, full width."""
    players = view.get("players") or []
    if seat >= len(players):
        return
    p = players[seat]
    cards = view.get("cards") or {}
    outcome = view.get("outcome")
    acting = seat in (view.get("to_act") or []) and not outcome
    winner = bool(outcome) and seat in (outcome.get("winners") or [])
    border = seat_colour(seat) if (acting or winner) else LINE
    d.rounded_rectangle((M, y, W - M, y + band_h(view, seat)), radius=10, fill=seat_tint(seat), outline=border,
                        width=4 if (acting or winner) else 1)
    # info column
    x = M + 12
    name = ctx.name(seat) + (f" {ctx.t('render.you')}" if view.get("seat") == seat else "")
    draw_fit(d, (x, y + 20), name, 18, TEXT, INFO_W - 60, INK, bold=True, anchor="lm")
    char = _name(ctx, cards, p.get("character"))
    draw_fit(d, (x, y + 43), char, 14, TEXT, INFO_W - 60, seat_dark(seat), bold=True, anchor="lm")
    if p.get("character"):
        card = _character_img((char or "?")[:1], seat, bool(p.get("upright")))
        img.paste(card, (x + INFO_W - 40 - card.size[0] // 2, y + 34 - card.size[1] // 2), card)
    bx = x
    by = y + 67
    badges = []
    if view.get("tp") == seat and view.get("turn"):
        badges.append((ctx.t("maken.render.tp"), seat_dark(seat), WHITE))
    if winner:
        badges.append(("★ " + ctx.t("render.winner_badge"), seat_dark(seat), WHITE))
    elif acting:
        badges.append(("▶ " + ctx.t("render.to_move_badge"), RED, WHITE))
    sit = view.get("situation")
    if sit == "even":
        badges.append((ctx.t("maken.render.badge.even"), WHITE, INK))
    elif sit == "guard":
        key = "guarding" if view.get("guarder") == seat else "guarded"
        badges.append((ctx.t(f"maken.render.badge.{key}"), WHITE, seat_dark(seat)))
    for text, fill, fg in badges:
        w = int(fonts.text_width(text, 13, True)) + 14
        if bx + w > GUARD_X - 12:
            break
        d.rounded_rectangle((bx, by - 11, bx + w, by + 11), radius=11, fill=fill, outline=LINE)
        fonts.text(d, (bx + w // 2, by), text, 13, fg, bold=True, anchor="mm")
        bx += w + 6
    # LP, stamina and hand on one line
    ly = y + 94
    fonts.text(d, (x, ly), ctx.t("maken.render.lp"), 13, INK, bold=True, anchor="lm")
    for i in range(3):
        cx = x + 40 + i * 22
        pts = [(cx, ly - 9), (cx + 9, ly), (cx, ly + 9), (cx - 9, ly)]
        d.polygon(pts, fill=RED if i < int(p.get("lp_count", 0)) else WHITE, outline=INK)
    counts = (f"{ctx.t('maken.render.stamina')} {p.get('stamina_count', 0)}   "
              f"{ctx.t('maken.render.hand')} {p.get('hand_count', 0)}")
    draw_fit(d, (x + 112, ly), counts, 13, TEXT, INFO_W - 120, INK, anchor="lm")
    _bar(d, x, y + 108, int(p.get("gauge_count", 0)), 10, (230, 159, 0), ctx.t("maken.render.gauge"))
    _bar(d, x, y + 131, int(p.get("damage_count", 0)), 10, RED, ctx.t("maken.render.damage"))
    # support cards (face down) and the dust's top card
    sy = y + 161
    fonts.text(d, (x, sy), ctx.t("maken.render.support"), 13, INK, bold=True, anchor="lm")
    support = p.get("support") or []
    for i, _ in enumerate(support):
        sx = x + 80 + i * 18
        d.rounded_rectangle((sx, sy - 9, sx + 13, sy + 9), radius=3, fill=BACK, outline=BACK_LINE)
    dx = x + 80 + max(1, len(support)) * 18 + 6
    dust = f"{ctx.t('maken.render.dust')} {len(p.get('dust') or [])}"
    if p.get("dust_top") and fonts.text_width(f"{dust}: {_name(ctx, cards, p['dust_top'])}", TEXT) <= GUARD_X - 12 - dx:
        dust = f"{dust}: {_name(ctx, cards, p['dust_top'])}"      # the top card, when its name fits whole
    draw_fit(d, (dx, sy), dust, 13, TEXT, GUARD_X - 12 - dx, MUTED, anchor="lm")
    # guard space
    g = p.get("guard") or {}
    gx = GUARD_X
    d.line((gx - 8, y + 10, gx - 8, y + INFO_H - 6), fill=LINE, width=1)
    label = ctx.t("maken.render.guard")
    if g.get("type"):
        label = ctx.t("maken.render.guard_type", kind=ctx.t(f"maken.posture.{g['type']}"))
    draw_fit(d, (gx, y + 16), label, 13, TEXT, W - M - 10 - gx, MUTED, bold=True, anchor="lm")
    n = int(g.get("count") or 0)
    horizontal = g.get("type") == "crouch"          # 屈みガード: bet sideways
    back = _back(horizontal)
    for i in range(n):
        img.paste(back, (gx + i * 10, y + 32 + i * 4), back)
    if n:
        fonts.text(d, (gx, y + 32 + back.size[1] + 4 * n + 12), f"× {n}", 15, INK, bold=True, anchor="lm")
    if g.get("open") and cards.get(g["open"]):      # a guard cancel: the opened card, beside the backs
        tile = _card_img(_j(cards[g["open"]]), (), ctx.locale, False)
        small = tile.resize((CW * 3 // 4, CH * 3 // 4))
        ox = W - M - 10 - small.size[0]
        img.paste(small, (ox, y + 26), small)
        fonts.text(d, (ox - 6, y + 40), "GC", 15, RED, bold=True, anchor="rm")
    # attack field, full width
    fy = y + INFO_H
    d.line((M + 10, fy - 4, W - M - 10, fy - 4), fill=LINE, width=1)
    fonts.text(d, (M + 12, fy + 14), ctx.t("maken.render.field"), 13, MUTED, bold=True, anchor="lm")
    field = p.get("field") or []
    fx, fy = M + 12, fy + 30
    span = W - M - 12 - CW - fx
    step = min(CW + 6, span // max(1, len(field) - 1)) if len(field) > 1 else 0
    for i, e in enumerate(field):
        c = cards.get(e.get("card"))
        if not c:
            continue
        tile = _card_img(_j(c), tuple(e.get("bonuses") or ()), ctx.locale, bool(e.get("twin")))
        img.paste(tile, (fx + i * step, fy), tile)
    if not field:
        d.rounded_rectangle((fx, fy, W - M - 12, fy + 44), radius=8, outline=LINE, width=2)
        fonts.text(d, (fx + 14, fy + 22), ctx.t("maken.render.empty"), 13, MUTED, anchor="lm")
    top = p.get("top")
    if top:
        reach = str(top["front"]) if top["front"] == top["back"] else f"{top['front']}/{top['back']}"
        line = (f"{ctx.t('maken.render.spd')} {top['speed']}  {ctx.t('maken.render.rch')} {reach}  "
                f"{ctx.t('maken.render.atk')} {top['attack']}  {ctx.t('maken.render.grd')} {top['guard']}")
        draw_fit(d, (fx, fy + CH + 15), "▲ " + line, 14, TEXT, W - 2 * M - 24, INK, bold=True, anchor="lm")


def _middle_text(view: dict, ctx: Ctx) -> tuple[str, tuple, str]:
    """The middle box's headline (the result, or the situation and who acts), its colour, and
    the judge and last command below it."""
    outcome = view.get("outcome")
    if outcome:
        head, _ = ctx.outcome_text(outcome)
        reason = reason_text("maken", outcome.get("reason"), ctx.locale)
        headline, colour = ctx.t("render.head_reason", head=head, reason=reason), RED
    else:
        sit = view.get("situation")
        pending = view.get("pending")
        if view.get("step") == "bonus" and pending:
            text = ctx.t("maken.render.bonus_step", kind=ctx.t(f"maken.judge.{pending.get('kind')}"),
                         name=ctx.name(pending.get("seat")))
        elif sit == "even":
            text = ctx.t("maken.situation.even")
        elif sit == "guard":
            text = ctx.t("maken.situation.guard", guarder=ctx.name(view.get("guarder")))
        else:
            text = ctx.t(f"maken.step.{view.get('step', 'over')}")
        to_act = view.get("to_act") or []
        who = ctx.t("maken.render.to_act", name=ctx.name(to_act[0])) if to_act else ""
        headline, colour = f"{text}  ·  {who}", INK
    parts = []
    j = view.get("judge")
    if j:
        key = "maken.render.judge" if j.get("turn") == view.get("turn") else "maken.render.last_judge"
        parts.append(ctx.t(key, kind=ctx.t(f"maken.judge.{j.get('kind')}"),
                           dealt=judge_dealt(ctx.t, ctx.name, j.get("totals"))))
    last = view.get("last")
    if last and last.get("command"):
        parts.append(ctx.t("maken.render.last", text=said_text(view, ctx)
                           or f"{ctx.name(last.get('seat'))}: {last['command']}"))
    return headline, colour, "  ·  ".join(parts)


def _middle(d: ImageDraw.ImageDraw | None, view: dict, ctx: Ctx, y: int) -> int:
    """The box between the bands: the headline over up to two lines (shrunk first), then the
    judge and the last command, every line whole; returns its height (``d`` None: measures)."""
    headline, colour, parts = _middle_text(view, ctx)
    size, head = fit_block(headline, 19, TEXT, W - 2 * M - 28, 2, True, 40, 1.2)
    lines = fonts.wrap(parts, 14, W - 2 * M - 28) if parts else ()
    top = 4 + int(len(head) * size * 1.2) + 6
    h = max(MID_H, top + 20 * len(lines) + 6)
    if d is None:
        return h
    d.rounded_rectangle((M, y, W - M, y + h), radius=8, fill=WHITE, outline=LINE)
    for i, line in enumerate(head):
        fonts.text(d, (M + 14, y + 4 + size * 1.2 * (i + 0.5)), line, size, colour, bold=True, anchor="lm")
    for i, line in enumerate(lines):
        fonts.text(d, (M + 14, y + top + 10 + 20 * i), line, 14, MUTED, anchor="lm")
    return h


@register("maken")
def draw_maken(view: dict, ctx: Ctx) -> Image.Image:
    """Stacked for a phone (600 px wide): the other player's band, the situation, your band, then
    your hand (a seat's own view) or the recent public log.  The height follows the content."""
    me = view.get("seat")
    sections = _hand_sections(view, ctx) if me in (0, 1) and "hand" in view else None
    extra = hand_sheet.draw_sections(None, sections, 0, W) if sections else 0
    img = Image.new("RGB", (W, 2 * BAND_H + 1400 + extra), PAPER)
    d = ImageDraw.Draw(img)
    draw_fit(d, (M, 24), ctx.game_title(), 24, 16, W - 2 * M - 150, INK, bold=True, anchor="lm")
    if view.get("turn") is not None:
        fonts.text(d, (W - M, 24), ctx.t("maken.render.turn", turn=view.get("turn"), max=view.get("max_turns")),
                   20, INK, bold=True, anchor="rm")
    step = ctx.t(f"maken.step.{view.get('step', 'over')}")
    right = ctx.t("maken.render.step", step=step)
    clock = ctx.clock_text()
    if clock:
        right = f"{right}   {clock}"
    size, _ = draw_fit(d, (W - M, 50), right, 13, TEXT, W - 2 * M - 140, RED if ctx.clock_urgent() else MUTED,
                       anchor="rm")
    draw_fit(d, (M, 50), ctx.view_label(view), 13, TEXT, W - 2 * M - 16 - fonts.text_width(right, size), MUTED,
             anchor="lm")
    top_seat = 1 - me if me in (0, 1) else 1
    y = TOP_Y
    _band(img, d, view, ctx, top_seat, y)
    y += band_h(view, top_seat) + 8
    y += _middle(d, view, ctx, y) + 8
    _band(img, d, view, ctx, 1 - top_seat, y)
    y += band_h(view, 1 - top_seat) + 10
    cards = view.get("cards") or {}
    if sections:
        y = hand_sheet.draw_sections(d, sections, y, W)
    else:
        y += 4
        for ev in (view.get("log") or [])[-8:]:
            for line in fonts.wrap(event_text(ctx.t, ctx.name, cards, ev, ctx.locale), 13, W - 2 * M):
                fonts.text(d, (M, y), line, 13, MUTED)
                y += 19
    return img.crop((0, 0, W, y + 12))


CHARACTER_BAND = (70, 86, 110)
SUPPORT_BAND = (150, 124, 70)


def sheet_card(c: dict, ctx: Ctx, chip: str = "") -> "hand_sheet.Card":
    """One card as the hand picture draws it, from its definition (a view's ``cards`` entry, or a
    set's page, ``render/card_pages.py``): its name, its numbers in words and its whole text."""
    name = (c.get("name") or {}).get(ctx.locale) or (c.get("name") or {}).get("en") or str(c.get("id", "?"))
    text = (c.get("text") or {}).get(ctx.locale) or (c.get("text") or {}).get("en") or ""
    body = [(text, INK, False)] if text else []
    if c.get("kind") == "character":
        return hand_sheet.Card(name, band=CHARACTER_BAND, chip=chip or ctx.t("cardcheck.mk_character_chip"),
                               body=body, fill=(244, 246, 250))
    if c.get("kind") == "support" or "speed" not in c:
        return hand_sheet.Card(name, band=SUPPORT_BAND, chip=chip or ctx.t("maken.render.support"), body=body,
                               fill=(252, 248, 238))
    posture = c.get("posture", "stand")
    reach = str(c["front"]) if c.get("front") == c.get("back") else f"{c.get('front')}/{c.get('back')}"
    stats = [(ctx.t("maken.render.hand_stats", spd=c.get("speed", "?"), rch=reach, atk=c.get("attack", "?"),
                    grd=c.get("guard", "?")), INK)]
    extras = [ctx.t("maken.render.cost", n=c["cost"])] if c.get("cost") else []
    extras += [ctx.t("maken.render.gain", n=c["gain"])] if c.get("gain") else []
    return hand_sheet.Card(name, band=POSTURE_COL.get(posture, INK),
                           chip=chip or ctx.t(f"maken.posture.{posture}"), stats=stats,
                           info=" · ".join(extras), body=body)


hand_card = sheet_card          # the name the hand code knew it by


@register_hand("maken")
def draw_maken_hand(view: dict, ctx: Ctx) -> Image.Image:
    """The DM picture: the seat's hand and face-down cards only (the board is in the thread),
    each card with its numbers and whole text in words (:mod:`render.hand_sheet`)."""
    return hand_sheet.draw_sheet(ctx, int(view["seat"]), _hand_sections(view, ctx))


def _hand_sections(view: dict, ctx: Ctx) -> list:
    """The seat's hand and its face-down guard and support cards, as the hand picture shows them
    (also under a seat's own board)."""
    cards = view.get("cards") or {}
    hand = [sheet_card(cards[c], ctx) for c in view.get("hand") or [] if isinstance(cards.get(c), dict)]
    sections = [hand_sheet.Section(ctx.t("maken.render.your_hand"), hand, empty=ctx.t("maken.render.empty"))]
    down = [sheet_card(cards[c], ctx, ctx.t("maken.render.guard")) for c in reversed(view.get("guard_cards") or [])
            if isinstance(cards.get(c), dict)]
    down += [sheet_card(cards[x.get("card")], ctx, ctx.t("maken.render.support"))
             for x in view.get("support_cards") or [] if isinstance(cards.get(x.get("card")), dict)]
    if down:
        sections.append(hand_sheet.Section(ctx.t("maken.render.facedown"), down))
    return sections


def event_text(t, name, cards: dict, ev: dict, locale: str) -> str:
    """One public log event as a localized line (``t``: translate, ``name``: seat -> name)."""
    def card(cid):
        c = cards.get(cid) or {}
        return (c.get("name") or {}).get(locale) or cid or "?"

    who = name(ev.get("seat")) if ev.get("seat") is not None else ""
    kind = ev.get("t")
    if kind == "turn":
        return t("maken.log.turn", turn=ev.get("turn"), name=who)
    if kind in ("draw", "damage"):
        return t(f"maken.log.{kind}", name=who, n=ev.get("n"))
    if kind in ("mulligan", "set", "skip", "call", "flush"):
        return t(f"maken.log.{kind}", name=who)
    if kind in ("use", "gc"):
        return t(f"maken.log.{kind}", name=who, card=card(ev.get("card")))
    if kind == "bet":
        if ev.get("copies", 1) > 1:
            bonuses = t("core.list_sep").join(t(f"maken.bonus.{b}") for b in ev.get("bonuses") or [])
            return t("maken.log.bet_multi", name=who, card=card(ev.get("card")), copies=ev["copies"],
                     bonuses=bonuses)
        return t("maken.log.bet", name=who, card=card(ev.get("card")))
    if kind == "guard":
        return t("maken.log.guard", name=who, kind=t(f"maken.posture.{ev.get('kind')}"), count=ev.get("count"))
    if kind == "keep":
        return t("maken.log.keep", name=who, count=ev.get("count"))
    if kind == "judge":
        return t("maken.log.judge", kind=t(f"maken.judge.{ev.get('kind')}"),
                 dealt=judge_dealt(t, name, ev.get("totals")))
    if kind == "down":
        return t("maken.log.down", name=who, lp=ev.get("lp_left"))
    if kind == "effect" and ev.get("do") in ("draw", "gauge", "recover"):
        return t(f"maken.log.effect.{ev['do']}", name=who, n=ev.get("n"))
    return ""


def judge_dealt(t, name, totals) -> str:
    """Who deals how much damage in a judge ("Alice deals 3"; totals are in seat order, None:
    deals nothing), or "no damage"."""
    parts = [t("maken.log.dealt", name=name(seat), n=n) for seat, n in enumerate(totals or [])
             if n is not None]
    return t("core.list_sep").join(parts) if parts else t("maken.log.no_damage")


# --------------------------------------------------------------------------------------------
# plain text for the terminal (python bot.py --local), drawn from the view only
# --------------------------------------------------------------------------------------------
from render.text import card_with_text, card_words, field, heading, move_words, text_renderer  # noqa: E402


def _card_line(cards: dict, cid: str, locale: str, bonuses=(), notation: bool = False) -> str:
    """A card for a text view: its name (its id after it only in the console), its numbers in
    words (as the menus say them) and its whole text in the reader's language (gauge, on bet,
    on hit, where it goes)."""
    c = cards.get(cid) or {}
    name = card_words((c.get("name") or {}).get(locale) or (c.get("name") or {}).get("en") or cid, locale, cid,
                      notation)
    text = (c.get("text") or {}).get(locale) or (c.get("text") or {}).get("en") or ""
    if c.get("kind") != "attack":
        return card_with_text(name, text, locale)
    reach = str(c["front"]) if c["front"] == c["back"] else f"{c['front']}/{c['back']}"
    stats = i18n.t("labels.maken.stats", locale, spd=c["speed"], rch=reach, atk=c["attack"], grd=c["guard"],
                   posture=i18n.t(f"maken.posture.{c['posture']}", locale))
    if bonuses:
        stats = i18n.t("maken.render.with_bonus", locale, stats=stats, bonuses=i18n.t("core.list_sep", locale).join(
            i18n.t(f"maken.bonus.{b}", locale) for b in bonuses))
    return card_with_text(name, i18n.t("maken.render.stats_text", locale, stats=stats, text=text) if text else stats,
                          locale)


@text_renderer("maken")
def _maken_text(view: dict, *, locale: str, names: list[str], notation: bool = False) -> str:
    t = lambda k, **p: i18n.t(k, locale, **p)  # noqa: E731
    name = lambda s: names[s] if s is not None and s < len(names) else f"#{(s or 0) + 1}"  # noqa: E731
    cards = view.get("cards") or {}
    sep = t("maken.render.stat_sep")

    def count(label: str, n) -> str:
        return t("maken.render.count", label=label, n=n)
    out = []
    if "turn" in view and "step" in view:       # the console passes only a seat's own part
        out.append(t("core.list_sep").join([t("maken.render.turn", turn=view.get("turn"), max=view.get("max_turns")),
                                            t("maken.render.step", step=t("maken.step." + str(view.get("step"))))]))
    for p in view.get("players") or []:
        s = p["seat"]
        ch = (cards.get(p.get("character")) or {}).get("name", {}).get(locale, p.get("character"))
        tp = t("labels.maken.dm.tp") if view.get("tp") == s else ""
        top = p.get("dust_top")
        top = card_words(((cards.get(top) or {}).get("name") or {}).get(locale) or top, locale, top, notation) \
            if top else t("maken.render.empty")
        out.append(field(t("maken.render.player", name=name(s), character=ch, tp=tp).strip(), sep.join([
            count(t("maken.render.lp"), p["lp_count"]), count(t("maken.render.stamina"), p["stamina_count"]),
            count(t("maken.render.hand"), p["hand_count"]), count(t("maken.render.gauge"), p["gauge_count"]),
            count(t("maken.render.damage"), p["damage_count"]), count(t("maken.render.support"), len(p["support"])),
            t("maken.render.dust_top", n=len(p["dust"]), top=top)]), locale))
        for e in p.get("field") or []:
            out.append("   " + _card_line(cards, e["card"], locale, e.get("bonuses") or (), notation))
        g = p.get("guard") or {}
        if g.get("count") or g.get("open"):
            kind = t("maken.posture." + str(g.get("type"))) if g.get("type") else "-"
            out.append("   " + field(t("maken.render.guard_type", kind=kind), t("maken.render.guard_count",
                                                                               n=g.get("count") or 0), locale)
                       + (t("maken.render.guard_open", n=g["open"]) if g.get("open") else ""))
    sit = view.get("situation")
    pending = view.get("pending")
    if view.get("step") == "bonus" and pending:
        out.append(t("maken.render.bonus_step", kind=t(f"maken.judge.{pending.get('kind')}"),
                     name=name(pending.get("seat"))))
    elif sit == "even":
        out.append(t("maken.situation.even_text"))
    elif sit == "guard":
        out.append(t("maken.situation.guard", guarder=name(view.get("guarder"))))
    j = view.get("judge")
    if j:
        key = "maken.render.judge" if j.get("turn") == view.get("turn") else "maken.render.last_judge"
        out.append(t(key, kind=t("maken.judge." + str(j.get("kind"))), dealt=judge_dealt(t, name, j.get("totals"))))
    if "hand" in view:
        out.append(heading(t("maken.render.your_hand"), locale))
        for cid in view["hand"]:
            out.append("   " + _card_line(cards, cid, locale, notation=notation))

        # set cards by name (the notation's ids mean nothing to a player)
        def card_name(cid: str) -> str:
            n = (cards.get(cid) or {}).get("name")
            n = (n.get(locale) or n.get("en")) if isinstance(n, dict) else (n or cid)
            return card_words(str(n), locale, cid, notation)

        if view.get("guard_cards"):
            out.append("   " + field(t("maken.render.guard"), t("core.list_sep").join(
                card_name(c) for c in reversed(view["guard_cards"])), locale))
        if view.get("support_cards"):
            out.append("   " + field(t("maken.render.support"), t("core.list_sep").join(
                card_name(x["card"]) for x in view["support_cards"]), locale))
    last = view.get("last") or {}
    if last.get("command"):
        seat = last.get("seat") if isinstance(last.get("seat"), int) else 0
        out.append(t("maken.render.last", text=field(name(seat), move_words(
            "maken", view, seat, str(last["command"]), locale, names, notation), locale)))
        for ev in last.get("events") or []:
            line = event_text(t, name, cards, ev, locale)
            if line:
                out.append("   · " + line)
    if view.get("outcome"):
        o = view["outcome"]
        winners = t("core.list_sep").join(name(w) for w in o.get("winners", []))
        head = i18n.t("render.wins", locale, name=winners) if winners else i18n.t("render.draw", locale)
        out.append("★ " + i18n.t("render.head_reason", locale, head=head,
                                 reason=reason_text("maken", o.get("reason"), locale)))
    return "\n".join(out)
