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

from PIL import Image, ImageDraw

from data import i18n
from render import fonts
from render.base import (said_text, reason_text, INK, LINE, MUTED, PAPER, RED, WHITE, HILITE, Ctx, hand_header, register,
                         register_hand, seat_colour, seat_dark, seat_text, seat_tint)

W = 520                          # shown 400 wide on a phone: no text under 8 px (all ≥ 11 px)
M = 16
PANEL_H = 196                    # a player's strip, full width
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
    name = fonts.fit(_label(ctx, view, owner, code), 11, box[2] - box[0] - 6)
    fonts.text(d, (cx, box[1] + 44), name, 11, fg, anchor="mm")
    atk = u.get("attack")
    atk_text = "X" if atk == "hand" else str(atk)
    fonts.text(d, (cx, box[3] - 11), fonts.fit(ctx.t("art_of_war.pic.stats", attack=atk_text, defence=u.get("defence")),
                                               11, box[2] - box[0] - 4, True), 11, fg, bold=True, anchor="mm")
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
    name = fonts.fit(f"{arrow} {ctx.name(seat)}", 18, PW - 180, True)
    fonts.text(d, (PX + 14, y + 20), name, 18, seat_dark(seat), bold=True, anchor="lm")
    bx = PX + PW - 12
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
    fonts.text(d, (PX + 14, y + 46), fonts.fit(f"{ctx.t('art_of_war.pic.king')}: {kname}", 13, PW - 28), 13,
               INK, anchor="lm")
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
            x = _badge(d, x, y + PANEL_H - 22, f, seat_colour(seat), seat_text(seat), 12)


def _event_text(ctx: Ctx, view: dict, ev: dict) -> str | None:
    kind = ev.get("kind")
    if kind in ("capture", "destroy", "damage"):
        card = _label(ctx, view, int(ev.get("seat", 0)), ev.get("card", "?"))
        return ctx.t(f"art_of_war.event.{kind}", card=card, square=ev.get("square", "?"),
                     n=ev.get("n", ""), total=ev.get("total", ""))
    if kind in ("cancel", "negated"):
        return ctx.t(f"art_of_war.event.{kind}")
    return None


def chain_text(t, name, view: dict, chain: list) -> str:
    """The declarations a response window answers, oldest first, e.g.
    ``Alice: attack b2 → b3 (3) · Bob: GUARDIAN rear support``."""
    out = []
    for e in chain or []:
        if not isinstance(e, dict):
            continue
        who = name(e.get("seat"))
        if e.get("kind") == "attack":
            out.append(t("art_of_war.chain.attack", name=who, origin=e.get("from", "?"), target=e.get("to", "?"),
                         power=e.get("power", "?")))
        else:
            eff = str(e.get("effect", "?"))
            effect = t(f"art_of_war.card.{eff}") if eff in KINGDOM else eff
            by = t("art_of_war.chain.by_king") if e.get("card") == "k" else ""
            args = " ".join(str(a) for a in e.get("args") or [])
            out.append(t("art_of_war.chain.support", name=who, effect=effect, by=by, args=args).strip())
    return " · ".join(out)


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
    img = Image.new("RGB", (W, H + 900), PAPER)
    img.paste(_background(ctx.locale), (0, 0))
    d = ImageDraw.Draw(img)
    outcome = view.get("outcome")
    to_act = list(view.get("to_act") or [])
    # header
    fonts.text(d, (M, 24), fonts.fit(ctx.game_title(), 24, W - 2 * M, True), 24, INK, bold=True, anchor="lm")
    clock = ctx.clock_text()
    room = W - 2 * M
    if clock:
        fonts.text(d, (W - M, 52), clock, 15, RED if ctx.clock_urgent() else INK, bold=ctx.clock_urgent(),
                   anchor="rm")
        room -= int(fonts.text_width(clock, 15, ctx.clock_urgent())) + 12
    fonts.text(d, (M, 52), fonts.fit(f"{ctx.t('art_of_war.pic.turn', turn=view.get('turn', 0))} · "
                                      f"{ctx.view_label(view)}", 14, room), 14, MUTED, anchor="lm")
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
        lines = fonts.wrap(f"{head} — {reason}", 18, W - 2 * M - 28, True)[:3]
        h = 16 + 26 * len(lines)
        d.rounded_rectangle((M, fy, W - M, fy + h), radius=10, fill=HILITE)
        for i, line in enumerate(lines):
            fonts.text(d, (M + 14, fy + 20 + 26 * i), line, 18, INK, bold=True, anchor="lm")
        fy += h + 10
    else:
        for line in fonts.wrap(_status(view, ctx), 20, W - 2 * M, True)[:2]:
            fonts.text(d, (M, fy + 14), line, 20, INK, bold=True, anchor="lm")
            fy += 30
        fy += 4
    if cmd:
        said = said_text(view, ctx)
        who = ctx.name(last.get("seat")) if isinstance(last.get("seat"), int) else ""
        events = [t for t in (_event_text(ctx, view, ev) for ev in last.get("events") or []) if t]
        text = ctx.t("art_of_war.pic.last", text=" · ".join([said or f"{who}: {cmd}"] + events))
        for line in fonts.wrap(text, 15, W - 2 * M)[:4]:
            fonts.text(d, (M, fy + 10), line, 15, MUTED, anchor="lm")
            fy += 22
        fy += 6
    window = view.get("window")
    if window:
        pending = chain_text(ctx.t, ctx.name, view, window.get("chain") or [])
        text = ctx.t("art_of_war.pic.respond", text=", ".join(window.get("responses") or []) + " / pass")
        if pending:
            text = ctx.t("art_of_war.pic.answering", text=pending) + "  →  " + text
        for line in fonts.wrap(text, 15, W - 2 * M, True)[:4]:
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


HAND_CARD_W, HAND_CARD_H = 92, 108


def _hand_strip(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, own: int, hand: list, hy: int) -> int:
    """The DM hand: each card with its name, attack, defence (upright/sideways) and range, five
    to a row; returns the y below it."""
    fonts.text(d, (M, hy + 12), ctx.t("art_of_war.pic.your_hand") + f" ({len(hand)})", 15, INK, bold=True,
               anchor="lm")
    per_row = (W - 2 * M + 6) // (HAND_CARD_W + 6)
    w, h = HAND_CARD_W, HAND_CARD_H
    fg, dim = seat_text(own), seat_dark(own)
    y = hy + 28
    for i, code in enumerate(hand):
        if i and i % per_row == 0:
            y += h + 8
        x = M + (i % per_row) * (w + 6)
        d.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=seat_colour(own), outline=dim, width=2)
        big = "K" if code == "k" else str(code).upper()
        card = _card_def(view, own, code)
        fonts.text(d, (x + 8, y + 14), big, 18, fg, bold=True, anchor="lm")
        fonts.text(d, (x + 24, y + 14), fonts.fit(_label(ctx, view, own, code), MIN_TEXT, w - 28), MIN_TEXT, fg,
                   anchor="lm")
        atk = card.get("attack")
        dfc = card.get("defence") or []
        if atk is not None and len(dfc) == 2:
            stats = ctx.t("art_of_war.pic.stats", attack="X" if atk == "hand" else atk,
                          defence=f"{dfc[0]}/{dfc[1]}")
            fonts.text(d, (x + w // 2, y + 34), fonts.fit(stats, MIN_TEXT, w - 6, True), MIN_TEXT, fg, bold=True,
                       anchor="mm")
        cell = 12
        if card.get("range"):
            _range_grid(d, x + (w - 5 * cell) // 2, y + 46, cell, card["range"], fg, dim)
    return y + (h if hand else 0) + 8


@register_hand("art_of_war")
def draw_art_of_war_hand(view: dict, ctx: Ctx) -> Image.Image:
    """The DM picture: the seat's hand only (the board is in the thread)."""
    seat = int(view["seat"])
    hand = list(view.get("hand") or [])
    img = Image.new("RGB", (W, 900), PAPER)
    d = ImageDraw.Draw(img)
    y = hand_header(d, ctx, seat, W, M)
    y = _hand_strip(d, view, ctx, seat % 2, hand, y)
    return img.crop((0, 0, W, y + 10))


def warm(locale: str) -> None:
    _background(locale)


# --------------------------------------------------------------------------------------------
# the terminal text view (python bot.py --local), drawn from the view only
# --------------------------------------------------------------------------------------------
from render.text import text_renderer  # noqa: E402


@text_renderer("art_of_war")
def art_of_war_text(view: dict, *, locale: str, names: list[str]) -> str:
    """Rank 4 on top.  ``S2/-1`` = seat 2's SOLDIER, sideways (/), 1 damage this turn;
    ``K1`` = seat 1's KING upright.  Then per seat: KING, counts, waiting queue (front first),
    kingdom per type; then the hand (a seat's own view) and an open response window."""
    t = lambda key, **kw: i18n.t(key, locale, **kw)      # noqa: E731

    def name(seat):
        if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
            return names[seat]
        return i18n.t("render.seat_default", locale, n=(seat + 1) if isinstance(seat, int) else "?")

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
    if "field" in view:
        lines.append("     a      b      c")
        for rank in (4, 3, 2, 1):
            row = "".join(f"{cells.get(f + str(rank), '.'):<7}" for f in "abc")
            lines.append(f"{rank}  {row}")
            if rank == 3:
                lines.append("   " + "─" * 19)
    kings = view.get("kings") or []
    for p in view.get("players") or []:
        s = p.get("seat", 0)
        king = f" ({kings[s]['name'].get(locale, kings[s]['name'].get('en'))})" if s < len(kings) else ""
        kingdom = " ".join(f"{c.upper()}{n}" for c, n in (p.get("kingdom") or {}).items())
        waiting = " ".join(str(c).upper() for c in p.get("waiting") or []) or "-"
        lines.append(f"{name(s)}{king}: {t('art_of_war.pic.hand', n=p.get('hand_count', 0))}, "
                     f"{t('art_of_war.pic.deck', n=p.get('deck_count', 0))}, "
                     f"{t('art_of_war.pic.grave', n=p.get('graveyard_count', 0))}")
        lines.append(f"  {t('art_of_war.pic.waiting', n=len(p.get('waiting') or []))}: {waiting}   "
                     f"{t('art_of_war.pic.kingdom', n=p.get('kingdom_count', 0))}: {kingdom}")
    flags = []
    if view.get("mode") in ("arrange", "battle"):
        flags.append(t(f"art_of_war.pic.mode.{view['mode']}"))
    if view.get("immigrated"):
        flags.append(t("art_of_war.pic.immigrated"))
    if view.get("boost"):
        flags.append(t("art_of_war.pic.boost", n=view["boost"]))
    if flags:
        lines.append(", ".join(flags))
    last = view.get("last") or {}
    if last.get("command"):
        lines.append(t("art_of_war.pic.last", text=f"{name(last.get('seat'))}: {last['command']}"))
    if "hand" in view:
        lines.append(f"{t('art_of_war.pic.your_hand')}: " + (" ".join(str(c).upper() for c in view["hand"]) or "-"))
    if view.get("window"):
        pending = chain_text(t, name, view, view["window"].get("chain") or [])
        if pending:
            lines.append(t("art_of_war.pic.answering", text=pending))
        lines.append(t("art_of_war.pic.respond", text=", ".join(view["window"].get("responses") or []) + " / pass"))
    outcome = view.get("outcome")
    if outcome:
        winners = outcome.get("winners") or []
        head = (i18n.t("render.wins", locale, name=" & ".join(name(w) for w in winners)) if winners
                else i18n.t("render.draw", locale))
        lines.append(f"{head} — {reason_text('art_of_war', outcome.get('reason'), locale)}")
    return "\n".join(lines)


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
