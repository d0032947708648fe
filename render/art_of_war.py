"""The Art of War picture, drawn from ``game.view(state, seat)`` only.

Layout (520 px wide, so a phone showing it 400 px wide has no text under 8 px; the height
follows the text)::

    title · turn · view                                   clock
    ┌ seat 1 strip: KING, hand/deck/graveyard counts, waiting queue (front → back, 5 slots),
    │ kingdom counts per type with the leader marked ┐
    ┌ 4×3 grid ──────────────┐
    │ rank 4 (seat 1 back)   │
    │ rank 3 (seat 1 front)  │
    │ ───── the front line ──│
    │ rank 2 (seat 0 front)  │
    │ rank 1 (seat 0 back)   │
    └ a  b  c ───────────────┘
    ┌ seat 0 strip ┐
    status / result banner · last action · [responder] the declarations answered, the answers
    [seat view only] your hand: each card's name, attack, defence (upright/sideways) and range

A unit is a tile in its owner's colour: upright = a tall card, sideways = a wide card (as on the
table); ▲/▼ shows which way it faces; a red badge shows the damage taken this turn; the bottom
line shows its attack and current defence.  A range diagram is drawn as in the rulebook: the
card (■) at the bottom middle, forward up, two squares either side.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from data import i18n
from render import fonts, hand_sheet
from render.textfit import draw_fit, fit_size
from render.base import (said_text, reason_text, INK, LINE, MUTED, PAPER, RED, WHITE, HILITE, Ctx, register,
                         register_hand, seat_colour, seat_dark, seat_text, seat_tint)

W = 520                          # shown 400 wide on a phone: no text under 8 px (all ≥ 11 px)
M = 16
PANEL_H = 208                    # a player's strip, full width
PX, PW = M, W - 2 * M
TOP_PANEL_Y = 66
CW, CH = 146, 104                # grid cell
GX, GY = 50, TOP_PANEL_Y + PANEL_H + 14   # grid top-left
GW, GH = CW * 3, CH * 4
BOTTOM_PANEL_Y = GY + GH + 32
H = BOTTOM_PANEL_Y + PANEL_H     # the fixed part; status, last action and the hand follow
MIN_TEXT = 11
KINGDOM = "sapgw"


def _label(ctx: Ctx, view: dict, owner: int, code: str) -> str:
    if code == "k":
        kings = view.get("kings") or []
        if 0 <= owner < len(kings):
            name = kings[owner].get("name") or {}
            return name.get(ctx.locale) or name.get("en") or "KING"
        return ctx.t("art_of_war.card.k")
    return ctx.t(f"art_of_war.card.{code}")


def _rc(square: str) -> tuple[int, int] | None:
    if not isinstance(square, str) or len(square) != 2 or square[0] not in "abc" or square[1] not in "1234":
        return None
    return int(square[1]) - 1, "abc".index(square[0])


def _cell_xy(r: int, c: int) -> tuple[int, int]:
    return GX + c * CW, GY + (3 - r) * CH


@lru_cache(maxsize=4)
def _background(locale: str) -> Image.Image:
    img = Image.new("RGB", (W, H), PAPER)
    d = ImageDraw.Draw(img)
    for r in range(4):
        tint = seat_tint(0 if r < 2 else 1)
        for c in range(3):
            x, y = _cell_xy(r, c)
            shade = tuple(max(0, v - (10 if (r + c) % 2 else 0)) for v in tint)
            d.rectangle((x, y, x + CW - 1, y + CH - 1), fill=shade)
    for i in range(4):
        d.line((GX + i * CW, GY, GX + i * CW, GY + GH), fill=LINE)
    for i in range(5):
        d.line((GX, GY + i * CH, GX + GW, GY + i * CH), fill=LINE)
    mid = GY + 2 * CH
    d.line((GX - 6, mid, GX + GW + 6, mid), fill=RED, width=3)         # the front line
    d.rectangle((GX - 2, GY - 2, GX + GW + 2, GY + GH + 2), outline=INK, width=2)
    for r in range(4):
        fonts.text(d, (GX - 24, GY + (3 - r) * CH + CH // 2), str(r + 1), 18, INK, bold=True, anchor="mm")
    for c in range(3):
        fonts.text(d, (GX + c * CW + CW // 2, GY + GH + 14), "abc"[c], 18, INK, bold=True, anchor="mm")
    return img


def _badge(d: ImageDraw.ImageDraw, x: int, cy: int, text: str, fill, fg, size: int = 13) -> int:
    w = int(fonts.text_width(text, size, True)) + 14
    d.rounded_rectangle((x, cy - 11, x + w, cy + 11), radius=10, fill=fill)
    fonts.text(d, (x + w // 2, cy), text, size, fg, bold=True, anchor="mm")
    return x + w + 6


def _unit(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, u: dict, hilite: bool) -> None:
    rc = _rc(u.get("square"))
    if rc is None:
        return
    x, y = _cell_xy(*rc)
    owner = int(u.get("owner", 0)) % 2
    side = u.get("orientation") == "sideways"
    if side:                                              # a wide card
        box = (x + 6, y + 20, x + CW - 6, y + CH - 14)
    else:                                                 # a tall card
        box = (x + 24, y + 6, x + CW - 24, y + CH - 6)
    fg = seat_text(owner)
    d.rounded_rectangle(box, radius=8, fill=seat_colour(owner), outline=HILITE if hilite else seat_dark(owner),
                        width=4 if hilite else 2)
    cx = (box[0] + box[2]) // 2
    code = u.get("card", "?")
    big = "K" if code == "k" else str(code).upper()
    fonts.text(d, (cx, box[1] + 22), big, 24, fg, bold=True, anchor="mm")
    # facing: seat 0 attacks up the picture, seat 1 down
    tx = box[2] - 12
    if owner == 0:
        d.polygon([(tx - 6, box[1] + 14), (tx + 6, box[1] + 14), (tx, box[1] + 4)], fill=fg)
    else:
        d.polygon([(tx - 6, box[1] + 4), (tx + 6, box[1] + 4), (tx, box[1] + 14)], fill=fg)
    draw_fit(d, (cx, box[1] + 44), _label(ctx, view, owner, code), 11, MIN_TEXT, box[2] - box[0] - 6, fg,
             anchor="mm")
    atk = u.get("attack")
    atk_text = "X" if atk == "hand" else str(atk)
    stats = ctx.t("art_of_war.pic.stats", attack=atk_text, defence=u.get("defence"))
    size = fit_size(stats, 11, 10, box[2] - box[0] - 4, True)
    fonts.text(d, (cx, box[3] - 11), stats, size, fg, bold=True, anchor="mm")
    dmg = int(u.get("damage") or 0)
    if dmg:
        d.ellipse((box[0] - 8, box[1] - 8, box[0] + 18, box[1] + 18), fill=RED, outline=WHITE, width=2)
        fonts.text(d, (box[0] + 5, box[1] + 5), f"-{dmg}", 12, WHITE, bold=True, anchor="mm")


def _mini_card(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, owner: int, text: str) -> None:
    d.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=seat_colour(owner), outline=seat_dark(owner), width=2)
    fonts.text(d, (x + w // 2, y + h // 2), text, 16, seat_text(owner), bold=True, anchor="mm")


def _panel(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, seat: int, y: int, acting: bool,
           winner: bool) -> None:
    players = view.get("players") or [{}, {}]
    p = players[seat] if seat < len(players) else {}
    other = players[1 - seat] if 1 - seat < len(players) else {}
    d.rounded_rectangle((PX, y, PX + PW, y + PANEL_H), radius=12, fill=seat_tint(seat),
                        outline=seat_dark(seat) if acting else LINE, width=3 if acting else 1)
    arrow = "▲" if seat == 0 else "▼"
    bx = PX + PW - 12
    badge = ctx.t("render.winner_badge") if winner else ctx.t("render.to_move_badge") if acting else ""
    room = PW - 40 - (int(fonts.text_width(badge, 13, True)) + 14 if badge else 0)
    draw_fit(d, (PX + 14, y + 20), f"{arrow} {ctx.name(seat)}", 18, 13, room, seat_dark(seat), bold=True,
             anchor="lm", max_lines=2, leading=1.2, height=32)
    if winner:
        text = ctx.t("render.winner_badge")
        w = int(fonts.text_width(text, 13, True)) + 14
        _badge(d, bx - w, y + 20, text, HILITE, INK)
    elif acting:
        text = ctx.t("render.to_move_badge")
        w = int(fonts.text_width(text, 13, True)) + 14
        _badge(d, bx - w, y + 20, text, seat_colour(seat), seat_text(seat))
    kings = view.get("kings") or []
    king = kings[seat] if seat < len(kings) else {}
    kname = (king.get("name") or {}).get(ctx.locale) or (king.get("name") or {}).get("en") or "KING"
    draw_fit(d, (PX + 14, y + 46), f"{ctx.t('art_of_war.pic.king')}: {kname}", 13, MIN_TEXT, PW - 28, INK,
             anchor="lm")
    x = PX + 14
    for key, n in (("art_of_war.pic.hand", p.get("hand_count", 0)), ("art_of_war.pic.deck", p.get("deck_count", 0)),
                   ("art_of_war.pic.grave", p.get("graveyard_count", 0))):
        x = _badge(d, x, y + 72, ctx.t(key, n=n), WHITE, INK)
    # waiting queue: front (oldest) at the left
    waiting = list(p.get("waiting") or [])
    fonts.text(d, (PX + 14, y + 98), ctx.t("art_of_war.pic.waiting", n=len(waiting)), 13, MUTED, bold=True, anchor="lm")
    for i in range(5):
        cx = PX + 14 + i * 46
        if i < len(waiting):
            _mini_card(d, cx, y + 108, 40, 40, seat, "K" if waiting[i] == "k" else str(waiting[i]).upper())
        else:
            d.rounded_rectangle((cx, y + 108, cx + 40, y + 148), radius=6, outline=LINE, width=1)
    if waiting:
        fonts.text(d, (PX + 14, y + 160), "▲ " + ctx.t("art_of_war.pic.front"), 12, MUTED, anchor="lm")
    # kingdom counts, the type where this seat is ahead marked
    kingdom = p.get("kingdom") or {}
    okingdom = other.get("kingdom") or {}
    kx = PX + 14 + 5 * 46 + 14
    fonts.text(d, (kx, y + 98), ctx.t("art_of_war.pic.kingdom", n=p.get("kingdom_count", 0)), 13, MUTED,
               bold=True, anchor="lm")
    ahead = 0
    for i, code in enumerate(KINGDOM):
        n = int(kingdom.get(code, 0) or 0)
        lead = n > int(okingdom.get(code, 0) or 0)
        ahead += lead
        cx = kx + i * 36
        d.rounded_rectangle((cx, y + 108, cx + 32, y + 148), radius=6,
                            fill=HILITE if lead else WHITE, outline=seat_dark(seat) if lead else LINE, width=2 if lead else 1)
        fonts.text(d, (cx + 16, y + 118), code.upper(), 11, MUTED, bold=True, anchor="mm")
        fonts.text(d, (cx + 16, y + 137), str(n), 16, INK, bold=True, anchor="mm")
    fonts.text(d, (kx, y + 160), f"{ctx.t('art_of_war.pic.ahead')} {ahead}/4", 12, RED if ahead >= 3 else MUTED,
               bold=ahead >= 3, anchor="lm")
    # this turn's flags (turn player only)
    if view.get("player") == seat and view.get("phase") == "play":
        x = PX + 14
        flags = []
        if view.get("mode") in ("arrange", "battle"):
            flags.append(ctx.t(f"art_of_war.pic.mode.{view['mode']}"))
        if view.get("immigrated"):
            flags.append(ctx.t("art_of_war.pic.immigrated"))
        if view.get("boost"):
            flags.append(ctx.t("art_of_war.pic.boost", n=view["boost"]))
        for f in flags:
            x = _badge(d, x, y + PANEL_H - 19, f, seat_colour(seat), seat_text(seat), 12)


def _event_text(ctx: Ctx, view: dict, ev: dict) -> str | None:
    kind = ev.get("kind")
    if kind in ("capture", "destroy", "damage"):
        card = _label(ctx, view, int(ev.get("seat", 0)), ev.get("card", "?"))
        return ctx.t(f"art_of_war.event.{kind}", card=card, square=ev.get("square", "?"),
                     n=ev.get("n", ""), total=ev.get("total", ""))
    if kind in ("cancel", "negated"):
        return ctx.t(f"art_of_war.event.{kind}")
    return None


def chain_text(t, name, view: dict, chain: list, locale: str = "en") -> str:
    """The declarations a response window answers, oldest first, in words, e.g.
    ``Alice attacks: SOLDIER (b2) → GUARDIAN (b3), attack 3 · Bob: GUARDIAN rear support``."""
    ctx = _TextCtx(locale, [])
    at = {u.get("square"): u for u in view.get("field") or [] if isinstance(u, dict)}

    def unit(square) -> str:
        u = at.get(square)
        if not u:
            return str(square)
        return t("labels.art_of_war.unit_at", unit=_label(ctx, view, int(u.get("owner", 0)),
                                                          str(u.get("card", "?")).lower()), square=square)

    out = []
    for e in chain or []:
        if not isinstance(e, dict):
            continue
        who = name(e.get("seat"))
        if e.get("kind") == "attack":
            out.append(t("art_of_war.chain.attack", name=who, origin=unit(e.get("from", "?")),
                         target=unit(e.get("to", "?")), power=e.get("power", "?")))
            continue
        eff = str(e.get("effect", "?"))
        effect = t(f"art_of_war.card.{eff}") if eff in KINGDOM else eff
        by = t("art_of_war.chain.by_king") if e.get("card") == "k" else ""
        args = [str(a) for a in e.get("args") or []]
        if eff == "a" and args:         # by square: a seat's own part may hold no field
            what = t("art_of_war.chain.archer", square=args[0])
        elif eff == "p" and len(args) == 2:
            what = t("art_of_war.chain.priest", square=args[0], to=args[1])
        else:
            what = ""
        text = t("art_of_war.chain.support", name=who, effect=effect, by=by)
        out.append(t("art_of_war.chain.what", support=text, what=what) if what else text)
    return t("art_of_war.chain.sep").join(out)


def _status(view: dict, ctx: Ctx) -> str:
    to_act = view.get("to_act") or []
    phase = view.get("phase")
    who = ctx.name(to_act[0]) if to_act else "?"
    if phase == "mulligan":
        return ctx.t("art_of_war.pic.phase.mulligan", name=who)
    if phase == "setup":
        return ctx.t("art_of_war.pic.phase.setup", name=who)
    if phase == "draft":
        return ctx.t("art_of_war.pic.phase.draft", name=who, n=view.get("draft", 0))
    return ctx.t("art_of_war.pic.to_act", name=who)


@register("art_of_war")
def draw_art_of_war(view: dict, ctx: Ctx) -> Image.Image:
    """Stacked for a phone: header, seat 1's strip, the grid, seat 0's strip, then whose turn
    (or the result), the last action in words, an open response window and, in a seat's own
    view, the hand.  The height follows the text."""
    seat = view.get("seat")
    hand = view.get("hand") if isinstance(seat, int) else None
    extra = 900 + (_hand_strip(None, view, ctx, seat % 2, hand, 0) if hand is not None else 0)
    img = Image.new("RGB", (W, H + extra), PAPER)
    img.paste(_background(ctx.locale), (0, 0))
    d = ImageDraw.Draw(img)
    outcome = view.get("outcome")
    to_act = list(view.get("to_act") or [])
    # header
    draw_fit(d, (M, 24), ctx.game_title(), 24, 16, W - 2 * M, INK, bold=True, anchor="lm")
    clock = ctx.clock_text()
    room = W - 2 * M
    if clock:
        fonts.text(d, (W - M, 52), clock, 15, RED if ctx.clock_urgent() else INK, bold=ctx.clock_urgent(),
                   anchor="rm")
        room -= int(fonts.text_width(clock, 15, ctx.clock_urgent())) + 12
    draw_fit(d, (M, 52), f"{ctx.t('art_of_war.pic.turn', turn=view.get('turn', 0))} · {ctx.view_label(view)}",
             14, MIN_TEXT, room, MUTED, anchor="lm", max_lines=2, leading=1.2, height=28)
    # last action: outline the squares it touched
    last = view.get("last") or {}
    touched = set()
    cmd = str(last.get("command") or "")
    for tok in cmd.split()[1:]:
        if _rc(tok):
            touched.add(tok)
    for u in view.get("field") or []:
        _unit(d, view, ctx, u, u.get("square") in touched)
    occupied = {u.get("square") for u in view.get("field") or []}
    for ev in last.get("events") or []:
        if ev.get("kind") in ("capture", "destroy") and _rc(ev.get("square")) and ev["square"] not in occupied:
            x, y = _cell_xy(*_rc(ev["square"]))
            d.line((x + 20, y + 20, x + CW - 20, y + CH - 20), fill=RED, width=3)
            d.line((x + CW - 20, y + 20, x + 20, y + CH - 20), fill=RED, width=3)
    # strips: seat 1 above the grid (its side), seat 0 below
    winners = (outcome or {}).get("winners") or []
    for s, y in ((1, TOP_PANEL_Y), (0, BOTTOM_PANEL_Y)):
        _panel(d, view, ctx, s, y, s in to_act and not outcome, s in winners)
    # status, last action, response window
    fy = H + 12
    if outcome:
        head, reason = ctx.outcome_text(outcome)
        key = f"reason.{outcome.get('reason')}"
        if i18n.has(key):
            reason = ctx.t(key)
        lines = fonts.wrap(ctx.t("render.head_reason", head=head, reason=reason), 18, W - 2 * M - 28, True)
        h = 16 + 26 * len(lines)
        d.rounded_rectangle((M, fy, W - M, fy + h), radius=10, fill=HILITE)
        for i, line in enumerate(lines):
            fonts.text(d, (M + 14, fy + 20 + 26 * i), line, 18, INK, bold=True, anchor="lm")
        fy += h + 10
    else:
        for line in fonts.wrap(_status(view, ctx), 20, W - 2 * M, True):
            fonts.text(d, (M, fy + 14), line, 20, INK, bold=True, anchor="lm")
            fy += 30
        fy += 4
    if cmd:
        said = said_text(view, ctx)
        who = ctx.name(last.get("seat")) if isinstance(last.get("seat"), int) else ""
        events = [t for t in (_event_text(ctx, view, ev) for ev in last.get("events") or []) if t]
        if not said and isinstance(last.get("seat"), int):
            said = f"{who}: " + last_words(view, last["seat"], str(cmd), ctx.locale, list(ctx.names or ()))
        text = ctx.t("art_of_war.pic.last", text=" · ".join([said or f"{who}: {cmd}"] + events))
        for line in fonts.wrap(text, 15, W - 2 * M):
            fonts.text(d, (M, fy + 10), line, 15, MUTED, anchor="lm")
            fy += 22
        fy += 6
    window = view.get("window")
    if window:
        pending = chain_text(ctx.t, ctx.name, view, window.get("chain") or [], ctx.locale)
        own = view.get("seat") if isinstance(view.get("seat"), int) else 0
        king = _label(ctx, view, own, "k")
        text = ctx.t("art_of_war.pic.respond", text=ctx.t("labels.art_of_war.dm.or").join(
            [answer_words(ctx.t, r, king) for r in window.get("responses") or []] + [ctx.t("labels.art_of_war.dm.pass")]))
        if pending:
            text = ctx.t("art_of_war.pic.answering", text=pending) + "  →  " + text
        for line in fonts.wrap(text, 15, W - 2 * M, True):
            fonts.text(d, (M, fy + 10), line, 15, RED, bold=True, anchor="lm")
            fy += 22
        fy += 6
    if hand is not None:
        fy = _hand_strip(d, view, ctx, seat % 2, hand, fy + 4)
    return img.crop((0, 0, W, fy + 12))


def _card_def(view: dict, owner: int, code: str) -> dict:
    if code == "k":
        kings = view.get("kings") or []
        return kings[owner] if 0 <= owner < len(kings) and isinstance(kings[owner], dict) else {}
    card = (view.get("units") or {}).get(code)
    return card if isinstance(card, dict) else {}


def _range_grid(d: ImageDraw.ImageDraw, x: int, y: int, cell: int, rng: list, fg, dim) -> None:
    """A 5-wide, 4-deep diagram of a range, as in the rulebook: the unit (■) at the bottom middle,
    forward is up."""
    marks = {(f, s) for f, s in (tuple(o) for o in rng if isinstance(o, (list, tuple)) and len(o) == 2)}
    for row in range(4):                      # row 0 = the unit's own square, 1..3 forward
        for col in range(5):                  # col 2 = the unit's file; sideways -2..+2
            bx, by = x + col * cell, y + (3 - row) * cell
            box = (bx + 1, by + 1, bx + cell - 1, by + cell - 1)
            if row == 0 and col == 2:
                d.rectangle(box, fill=INK, outline=WHITE, width=1)
            elif (row, col - 2) in marks:
                d.rectangle(box, fill=WHITE, outline=fg, width=1)
            else:
                d.rectangle(box, outline=dim, width=1)


def _hand_strip(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, own: int, hand: list, hy: int) -> int:
    """The hand under a seat's own board: the same readable cards as the hand picture (name,
    attack, defence, range diagram and whole text, :mod:`render.hand_sheet`); returns the y
    below it (``d`` None: only measures)."""
    heading = ctx.t("render.bracketed", text=ctx.t("art_of_war.pic.your_hand"), detail=len(hand))
    return hand_sheet.draw_sections(d, [hand_sheet.Section(heading, hand_cards(view, ctx, own, hand))], hy, W)


def hand_cards(view: dict, ctx: Ctx, own: int, hand: list) -> list:
    """The hand picture's cards: each kind once (×n for copies) with its name, attack, defence,
    range diagram and whole text."""
    counts: dict[str, int] = {}
    for code in hand:
        counts[str(code)] = counts.get(str(code), 0) + 1
    return [_sheet_card(_card_def(view, own, code), ctx, own, code, _label(ctx, view, own, code), n)
            for code, n in counts.items()]


def _sheet_card(card: dict, ctx: Ctx, own: int, code: str, label: str, n: int = 1) -> "hand_sheet.Card":
    cell = 14
    atk, dfc = card.get("attack"), card.get("defence") or []
    stats = []
    if atk is not None and len(dfc) == 2:
        shown = ctx.t("art_of_war.pic.attack_hand") if atk == "hand" else atk
        stats.append((ctx.t("art_of_war.pic.hand_stats", attack=shown, upright=dfc[0], sideways=dfc[1]), INK))
    rng = card.get("range") or []
    art = (5 * cell, 4 * cell, lambda d, x, y, rng=rng: _range_grid(d, x, y, cell, rng, seat_dark(own), LINE)) \
        if rng else None
    text = (card.get("text") or {}) if isinstance(card.get("text"), dict) else {}
    words = text.get(ctx.locale) or text.get("en") or ""
    return hand_sheet.Card(label, band=seat_colour(own), band_fg=seat_text(own),
                           chip="K" if code == "k" else code.upper(),
                           badges=(f"×{n}",) if n > 1 else (), art=art, stats=stats,
                           body=[(words, INK, False)] if words else [])


def sheet_card(card: dict, ctx: Ctx) -> "hand_sheet.Card":
    """One card as the hand picture draws it, from its definition (a set's page, render/card_pages.py)."""
    name = card.get("name") if isinstance(card.get("name"), dict) else {}
    label = name.get(ctx.locale) or name.get("en") or str(card.get("id", "?"))
    return _sheet_card(card, ctx, 0, str(card.get("code") or "k"), label)


@register_hand("art_of_war")
def draw_art_of_war_hand(view: dict, ctx: Ctx) -> Image.Image:
    """The DM picture: the seat's hand only (the board is in the thread), each card with its
    numbers, range and whole text (:mod:`render.hand_sheet`)."""
    seat = int(view["seat"])
    hand = list(view.get("hand") or [])
    heading = ctx.t("render.bracketed", text=ctx.t("art_of_war.pic.your_hand"), detail=len(hand))
    return hand_sheet.draw_sheet(ctx, seat, [hand_sheet.Section(heading, hand_cards(view, ctx, seat % 2, hand))])


def warm(locale: str) -> None:
    _background(locale)


# --------------------------------------------------------------------------------------------
# the terminal text view (python bot.py --local), drawn from the view only
# --------------------------------------------------------------------------------------------
from render.text import field, move_words, text_renderer  # noqa: E402


@text_renderer("art_of_war")
def art_of_war_text(view: dict, *, locale: str, names: list[str], notation: bool = False) -> str:
    """The console (``notation``) draws the field as a grid, rank 4 on top.  ``S2/-1`` = seat 2's SOLDIER, sideways (/), 1 damage this turn;
    ``K1`` = seat 1's KING upright.  Then per seat: KING, counts, waiting queue (front first),
    kingdom per type; then the hand (a seat's own view) and an open response window."""
    t = lambda key, **kw: i18n.t(key, locale, **kw)      # noqa: E731

    def name(seat):
        if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
            return names[seat]
        return i18n.t("render.seat_default", locale, n=(seat + 1) if isinstance(seat, int) else "?")

    def king_name(seat) -> str | None:
        kings = view.get("kings") or []
        king = kings[seat] if isinstance(seat, int) and 0 <= seat < len(kings) else None
        label = king.get("name") if isinstance(king, dict) else None
        return (label.get(locale) or label.get("en")) if isinstance(label, dict) else None

    cells = {}
    for u in view.get("field") or []:
        code = str(u.get("card", "?")).upper()
        text = f"{code}{int(u.get('owner', 0)) + 1}" + ("/" if u.get("orientation") == "sideways" else "")
        if u.get("damage"):
            text += f"-{u['damage']}"
        cells[u.get("square")] = text
    lines = []
    # a seat's own part (a DM, the console's private section) holds only what differs from the
    # public view: draw each section only when it is there
    if "turn" in view:
        head = t("art_of_war.pic.turn", turn=view.get("turn", 0))
        if not view.get("outcome"):
            head += " · " + _status(view, _TextCtx(locale, names))
        lines.append(head)
    if "field" in view and not notation:      # a DM: each unit in words, by its square
        ctx = _TextCtx(locale, names)
        lines.append(field(t("art_of_war.text.field"), "" if view.get("field") else t("labels.art_of_war.dm.none"),
                           locale).rstrip())
        for u in sorted(view.get("field") or [], key=lambda u: (-int(str(u.get("square", "a0"))[1:] or 0),
                                                                  str(u.get("square")))):
            owner = int(u.get("owner", 0))
            state = ([t("art_of_war.pic.sideways")] if u.get("orientation") == "sideways" else []) + (
                [t("art_of_war.text.damage", n=u["damage"])] if u.get("damage") else [])
            lines.append("  " + field(str(u.get("square", "?")), t(
                "art_of_war.text.unit", name=name(owner), unit=_label(ctx, view, owner, str(u.get("card", "?")).lower()),
                state=t("art_of_war.text.state", parts=t("core.list_sep").join(state)) if state else ""), locale))
    elif "field" in view:
        lines.append("     a      b      c")
        for rank in (4, 3, 2, 1):
            row = "".join(f"{cells.get(f + str(rank), '.'):<7}" for f in "abc")
            lines.append(f"{rank}  {row}")
            if rank == 3:
                lines.append("   " + "─" * 19)
    kings = view.get("kings") or []
    for p in view.get("players") or []:
        s = p.get("seat", 0)
        king = kings[s]['name'].get(locale, kings[s]['name'].get('en')) if s < len(kings) else ""
        kingdom = counted(t, [c for c, n in (p.get("kingdom") or {}).items() for _ in range(int(n or 0))],
                          king_name(s))
        waiting = t("core.list_sep").join(unit_name(t, c, king_name(s)) for c in p.get("waiting") or []) \
            or t("labels.art_of_war.dm.none")
        lines.append(field(t("art_of_war.text.player", name=name(s), king=king) if king else name(s),
                           t("core.list_sep").join([t("art_of_war.pic.hand", n=p.get("hand_count", 0)),
                                                    t("art_of_war.pic.deck", n=p.get("deck_count", 0)),
                                                    t("art_of_war.pic.grave", n=p.get("graveyard_count", 0))]),
                           locale))
        lines.append("  " + t("labels.art_of_war.dm.waiting", n=len(p.get("waiting") or []), cards=waiting))
        lines.append("  " + t("labels.art_of_war.dm.kingdom", n=p.get("kingdom_count", 0), cards=kingdom))
    flags = []
    if view.get("mode") in ("arrange", "battle"):
        flags.append(t(f"art_of_war.pic.mode.{view['mode']}"))
    if view.get("immigrated"):
        flags.append(t("art_of_war.pic.immigrated"))
    if view.get("boost"):
        flags.append(t("art_of_war.pic.boost", n=view["boost"]))
    if flags:
        lines.append(t("core.list_sep").join(flags))
    last = view.get("last") or {}
    if last.get("command"):
        seat = last.get("seat") if isinstance(last.get("seat"), int) else 0
        lines.append(t("art_of_war.pic.last", text=field(name(seat), last_words(view, seat, str(last["command"]),
                                                                                locale, names, notation), locale)))
    if "hand" in view:
        own = view.get("seat") if isinstance(view.get("seat"), int) else None
        lines.append(t("labels.art_of_war.dm.hand", cards=counted(t, list(view["hand"]), king_name(own))))
    if view.get("window"):
        pending = chain_text(t, name, view, view["window"].get("chain") or [], locale)
        if pending:
            lines.append(t("art_of_war.pic.answering", text=pending))
        own = view.get("seat") if isinstance(view.get("seat"), int) else None
        answers = [answer_words(t, r, king_name(own)) for r in view["window"].get("responses") or []]
        lines.append(t("art_of_war.pic.respond", text=t("labels.art_of_war.dm.or").join(
            answers + [t("labels.art_of_war.dm.pass")])))
    outcome = view.get("outcome")
    if outcome:
        winners = outcome.get("winners") or []
        head = (i18n.t("render.wins", locale, name=" & ".join(name(w) for w in winners)) if winners
                else i18n.t("render.draw", locale))
        lines.append(i18n.t("render.head_reason", locale, head=head,
                            reason=reason_text("art_of_war", outcome.get("reason"), locale)))
    return "\n".join(lines)


def last_words(view: dict, seat: int, command: str, locale: str, names: list[str], notation: bool = False) -> str:
    """The last move in words, as the Act menu labelled it before it was made: the labels read
    the field, so the position is turned back (a moved unit to its square, a destroyed or
    captured one to where it stood, a deployed or exchanged one to the waiting area)."""
    said = view.get("said")
    if isinstance(said, dict) and said.get("command") == command and isinstance(said.get("text"), dict):
        text = said["text"].get(locale) or said["text"].get("en")
        if text:
            return i18n.t("text.said", locale, label=text, command=command) if notation else text
    verb, *args = command.split()
    field_ = [dict(u) for u in view.get("field") or [] if isinstance(u, dict)]
    at = {u.get("square"): u for u in field_}
    for ev in (view.get("last") or {}).get("events") or []:
        if isinstance(ev, dict) and ev.get("kind") in ("capture", "destroy") and ev.get("square") not in at:
            at[ev["square"]] = {"square": ev["square"], "card": ev.get("card"), "owner": ev.get("seat", 0)}
    players = [dict(p) for p in view.get("players") or [] if isinstance(p, dict)]
    me = players[seat] if 0 <= seat < len(players) else {}
    if verb == "move" and len(args) == 2:
        a, b = at.pop(args[0], None), at.pop(args[1], None)
        if b is not None:
            at[args[0]] = dict(b, square=args[0])
        if a is not None:
            at[args[1]] = dict(a, square=args[1])
    elif verb in ("deploy", "exchange") and len(args) == 1 and args[0] in at and me:
        placed = str(at[args[0]].get("card"))
        waiting = list(me.get("waiting") or [])
        if verb == "exchange" and waiting:
            at[args[0]] = dict(at[args[0]], card=waiting.pop())
        me["waiting"] = [placed] + waiting
    before = dict(view, field=list(at.values()), players=players)
    return move_words("art_of_war", before, seat, command, locale, names, notation)


def unit_name(t, code: Any, king: str | None = None) -> str:
    """A card code in words: ``s`` → "SOLDIER", ``k`` → the KING's own name."""
    code = str(code).lower()
    if code == "k" and king:
        return king
    return t(f"art_of_war.card.{code}") if code in ("k", "s", "a", "p", "g", "w") else code.upper()


def counted(t, codes: list, king: str | None = None) -> str:
    """Cards in words, each kind once with how many ("SOLDIER ×2, GUARDIAN"), "none" for none."""
    order: list[str] = []
    for c in codes:
        if str(c).lower() not in order:
            order.append(str(c).lower())
    parts = [t("labels.art_of_war.dm.count", card=unit_name(t, c, king), n=codes_n)
             if (codes_n := sum(1 for x in codes if str(x).lower() == c)) > 1 else unit_name(t, c, king)
             for c in order]
    return t("core.list_sep").join(parts) or t("labels.art_of_war.dm.none")


def answer_words(t, command: str, king: str | None = None) -> str:
    """A response window's answer in words: ``support w`` → "support with WIZARD"."""
    verb, *args = str(command).split()
    if verb == "support" and len(args) > 1 and str(args[0]).lower() == "k":     # the KING as a unit
        return t("labels.art_of_war.dm.answer_as", king=unit_name(t, "k", king), card=unit_name(t, args[1], king))
    if verb == "support" and args:
        return t("labels.art_of_war.dm.answer_with", card=unit_name(t, args[0], king))
    if verb == "pass":
        return t("labels.art_of_war.dm.pass")
    return command


class _TextCtx:
    """The bits of :class:`render.base.Ctx` that :func:`_status` needs."""

    def __init__(self, locale: str, names: list[str]) -> None:
        self.locale, self.names = locale, names

    def t(self, key: str, **params) -> str:
        return i18n.t(key, self.locale, **params)

    def name(self, seat) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return i18n.t("render.seat_default", self.locale, n=(seat + 1) if isinstance(seat, int) else "?")
