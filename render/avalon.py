"""The picture of an Avalon's Sanctuary view: header (mode, target mana, proofs, round), the
sanctuary, one band per player (leader marker, life / memory / hand / discard / proofs, mana
against the target, and the 5 lands: mana stacks by attribute with the creature on top showing
attack and durability), the awaited decision and the last battle; a seat's own view adds its hand.
Drawn from the view only."""
from __future__ import annotations

from PIL import Image, ImageDraw

from render import fonts
from render.base import (reason_text, INK, LINE, MUTED, PAPER, RED, WHITE, HILITE, Ctx, register, seat_colour,
                         seat_dark, seat_text, seat_tint)

W = 1180
M = 16
HEAD_H = 64
SANCT_H = 96
BAND_H = 156
LEFT_W = 230
LAND_W = (W - 2 * M - LEFT_W - 8) // 5
FOOT_LINE = 20
HAND_H = 128

ATTR_RGB = {"yellow": (230, 190, 30), "red": (210, 64, 52), "blue": (52, 112, 200),
            "green": (54, 150, 80), "none": (140, 140, 146)}
ICON_RGB = {"y": ATTR_RGB["yellow"], "r": ATTR_RGB["red"], "b": ATTR_RGB["blue"], "g": ATTR_RGB["green"],
            "c": ATTR_RGB["none"], "w": None, "v": (150, 90, 190)}
RAINBOW = [(230, 190, 30), (210, 64, 52), (52, 112, 200), (54, 150, 80)]
KW_SHORT = {"first": ("First", "先制"), "last": ("Last", "後攻"), "evade": ("Evade", "避け"),
            "evade_null": ("Evade-null", "避け無効"), "death": ("Death", "即死"),
            "death_null": ("Death-null", "即死無効"), "reflect": ("Reflect", "反射"),
            "reflect_null": ("Reflect-null", "反射無効"), "counter": ("Counter", "反撃")}


def _name(view: dict, ctx: Ctx, cid: str | None) -> str:
    if not cid:
        return ""
    c = (view.get("cards") or {}).get(cid) or {}
    name = c.get("name") or {}
    return str(name.get(ctx.locale) or name.get("en") or cid)


def _icon(d: ImageDraw.ImageDraw, x: int, y: int, k: str, size: int = 10) -> None:
    if k == "w":
        step = size / 4
        for i, col in enumerate(RAINBOW):
            d.rectangle((x + int(i * step), y, x + int((i + 1) * step), y + size), fill=col)
        d.rectangle((x, y, x + size, y + size), outline=INK)
    elif k == "v":
        d.ellipse((x, y, x + size, y + size), fill=WHITE, outline=ICON_RGB["v"], width=2)
    else:
        d.rectangle((x, y, x + size, y + size), fill=ICON_RGB.get(k, MUTED), outline=INK)


def _player_label(ctx: Ctx, seat: int) -> str:
    return f"P{seat + 1} {ctx.name(seat)}"


@register("avalon")
def draw_avalon(view: dict, ctx: Ctx) -> Image.Image:
    players = view.get("players") or []
    hand = view.get("hand")
    h = HEAD_H + SANCT_H + BAND_H * len(players) + 4 * FOOT_LINE + 24 + (HAND_H if hand is not None else 0)
    img = Image.new("RGB", (W, h), PAPER)
    d = ImageDraw.Draw(img)
    _header(d, view, ctx)
    y = HEAD_H
    _sanctuary(d, view, ctx, y)
    y += SANCT_H
    for p in players:
        _band(d, view, ctx, p, y)
        y += BAND_H
    y = _footer(d, view, ctx, y + 6)
    if hand is not None:
        _hand(d, view, ctx, hand, y + 4)
    return img


def _header(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx) -> None:
    fonts.text(d, (M, 22), fonts.fit(ctx.game_title(), 24, 420, bold=True), 24, INK, bold=True, anchor="lm")
    mode = ctx.t(f"avalon.mode.{view.get('mode', 'normal')}")
    sub = ctx.t("avalon.label.mode", mode=mode, target=view.get("target", "?"), proofs=view.get("proofs_needed", "?"))
    fonts.text(d, (M, 48), fonts.fit(sub + "   " + ctx.view_label(view), 14, 700), 14, MUTED, anchor="lm")
    kind = view.get("kind") or "leader"
    right = ctx.t("avalon.label.round", round=view.get("round", 0), max=view.get("max_rounds", "?"))
    right += "  ·  " + ctx.t(f"avalon.kind.{kind}")
    fonts.text(d, (W - M, 22), right, 18, INK, bold=True, anchor="rm")
    clock = ctx.clock_text()
    if clock:
        fonts.text(d, (W - M, 48), clock, 14, RED if ctx.clock_urgent() else INK, anchor="rm")


def _creature_box(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, cr: dict, box, big: bool = False) -> None:
    x0, y0, x1, y1 = box
    col = ATTR_RGB.get(cr.get("attr"), MUTED)
    d.rounded_rectangle(box, radius=6, fill=WHITE, outline=col, width=3)
    d.rectangle((x0 + 3, y0 + 3, x1 - 3, y0 + 20), fill=col)
    name = fonts.fit(_name(view, ctx, cr.get("card")), 12, x1 - x0 - 10, bold=True)
    fonts.text(d, (x0 + 6, y0 + 12), name, 12, WHITE if cr.get("attr") != "yellow" else INK, bold=True, anchor="lm")
    stats = f"{cr.get('atk', '?')}/{cr.get('dur', '?')}"
    fonts.text(d, (x0 + 6, y0 + 36), stats, 20 if big else 18, INK, bold=True, anchor="lm")
    fonts.text(d, (x1 - 6, y0 + 36), "★" * int(cr.get("orig", 0)), 11, (200, 150, 0), anchor="rm")
    kws = " ".join(KW_SHORT[k][0 if ctx.locale == "en" else 1] for k in cr.get("keywords", []) if k in KW_SHORT)
    if kws:
        fonts.text(d, (x0 + 6, y1 - 9), fonts.fit(kws, 11, x1 - x0 - 12), 11, MUTED, anchor="lm")


def _mana_stack(d: ImageDraw.ImageDraw, mana: list, x0: int, x1: int, y_bottom: int, y_top: int) -> None:
    """Mana cards bottom (first) to top, one chip per card with its icons."""
    if not mana:
        return
    avail = y_bottom - y_top
    chip = max(6, min(15, avail // max(1, len(mana))))
    y = y_bottom
    for entry in mana:
        y -= chip
        d.rectangle((x0, y, x1, y + chip - 1), fill=(238, 234, 226), outline=LINE)
        x = x0 + 3
        size = max(4, chip - 5)
        for k in ("y", "r", "b", "g", "c", "w", "v"):
            for _ in range((entry.get("icons") or {}).get(k, 0)):
                if x + size > x1 - 2:
                    break
                _icon(d, x, y + 2, k, size)
                x += size + 2


def _land(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, land: dict, box, label: str) -> None:
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=6, fill=(246, 243, 236), outline=LINE)
    fonts.text(d, (x0 + 5, y0 + 9), label, 11, MUTED, anchor="lm")
    n = land.get("mana_count", 0)
    if land.get("mana"):
        fonts.text(d, (x1 - 5, y0 + 9), f"{n}", 12, INK, bold=True, anchor="rm")
    cr = land.get("creature")
    top = y0 + 18
    if cr:
        _creature_box(d, view, ctx, cr, (x0 + 4, top, x1 - 4, top + 62))
        top += 66
    _mana_stack(d, land.get("mana") or [], x0 + 4, x1 - 4, y1 - 4, top)


def _sanctuary(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, y: int) -> None:
    box = (M, y + 4, W - M, y + SANCT_H - 6)
    d.rounded_rectangle(box, radius=10, fill=(255, 250, 225), outline=HILITE, width=3)
    fonts.text(d, (M + 14, y + 24), ctx.t("avalon.label.sanctuary"), 18, INK, bold=True, anchor="lm")
    sanct = view.get("sanctuary")
    if not sanct or not sanct.get("creature"):
        fonts.text(d, (M + 14, y + 54), ctx.t("avalon.label.sanctuary_empty"), 14, MUTED, anchor="lm")
    else:
        owner = int(sanct.get("owner", 0))
        fonts.text(d, (M + 14, y + 54), _player_label(ctx, owner), 14, seat_dark(owner), bold=True, anchor="lm")
        _creature_box(d, view, ctx, sanct["creature"], (M + 200, y + 12, M + 200 + LAND_W + 20, y + 74), big=True)
        _mana_stack(d, sanct.get("mana") or [], M + 230 + LAND_W, M + 230 + LAND_W + 140, y + 80, y + 12)
    # awaited decision, right side of the band
    to_act = [s for s in (view.get("to_act") or []) if isinstance(s, int)]
    outcome = view.get("outcome")
    if outcome:
        winners = outcome.get("winners") or []
        reason = reason_text("avalon", outcome.get("reason"), ctx.locale)
        text = (ctx.t("avalon.label.winner", who=", ".join(_player_label(ctx, w) for w in winners), reason=reason)
                if winners else ctx.t("avalon.label.draw", reason=reason))
        fonts.text(d, (W - M - 14, y + 34), fonts.fit(text, 16, 560, bold=True), 16, RED, bold=True, anchor="rm")
    elif to_act:
        step = ctx.t(f"avalon.step.{view.get('step')}")
        text = ctx.t("avalon.label.to_act", who=", ".join(_player_label(ctx, s) for s in to_act), step=step)
        fonts.text(d, (W - M - 14, y + 34), fonts.fit(text, 16, 560, bold=True), 16, INK, bold=True, anchor="rm")
    b = view.get("battle")
    if b:
        yes, no = ctx.t("avalon.label.yes"), ctx.t("avalon.label.no")
        ch = b.get("chosen") or [False, False]
        text = ctx.t("avalon.label.battle", invader=f"P{b['invader'] + 1}", defender=f"P{b['defender'] + 1}",
                     a=yes if ch[0] else no, d=yes if ch[1] else no)
        fonts.text(d, (W - M - 14, y + 62), fonts.fit(text, 14, 560), 14, INK, anchor="rm")


def _band(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, p: dict, y: int) -> None:
    seat = int(p.get("seat", 0))
    status = p.get("status")
    to_act = view.get("to_act") or []
    d.rounded_rectangle((M, y + 3, W - M, y + BAND_H - 3), radius=8, fill=seat_tint(seat),
                        outline=HILITE if seat in to_act else LINE, width=4 if seat in to_act else 1)
    x = M + 10
    d.rounded_rectangle((x, y + 10, x + LEFT_W - 24, y + 34), radius=6, fill=seat_colour(seat))
    fonts.text(d, (x + 8, y + 22), fonts.fit(_player_label(ctx, seat), 14, LEFT_W - 110, bold=True), 14,
               seat_text(seat), bold=True, anchor="lm")
    if p.get("leader"):
        tag = ctx.t("avalon.label.leader")
        tw = int(fonts.text_width(tag, 12, True)) + 12
        d.rounded_rectangle((x + LEFT_W - 30 - tw, y + 13, x + LEFT_W - 30, y + 31), radius=8, fill=HILITE, outline=INK)
        fonts.text(d, (x + LEFT_W - 30 - tw // 2, y + 22), tag, 12, INK, bold=True, anchor="mm")
    lines = [
        ctx.t("avalon.label.life", n=p.get("life", 0)) + "   " + ctx.t("avalon.label.memory", n=p.get("memory", 0)),
        ctx.t("avalon.label.hand", n=p.get("hand_count", 0)) + "   " + ctx.t("avalon.label.discard", n=p.get("discard_count", 0)),
        ctx.t("avalon.label.proofs", n=len(p.get("proofs") or []), need=view.get("proofs_needed", "?")),
        ctx.t("avalon.label.mana", n=p.get("mana_total", 0), target=p.get("target", "?")),
    ]
    for i, line in enumerate(lines):
        bold = i in (0, 3)
        colour = INK
        if i == 3 and p.get("mana_total", 0) >= p.get("target", 99):
            colour = seat_dark(seat)
        fonts.text(d, (x + 4, y + 48 + i * 22), fonts.fit(line, 14, LEFT_W - 20, bold), 14, colour, bold=bold, anchor="lm")
    if p.get("proofs"):
        names = ", ".join(_name(view, ctx, c) for c in p["proofs"])
        fonts.text(d, (x + 4, y + 136), fonts.fit(names, 11, LEFT_W - 20), 11, MUTED, anchor="lm")
    lx = M + LEFT_W
    for i, land in enumerate(p.get("lands") or []):
        box = (lx + i * LAND_W + 2, y + 8, lx + (i + 1) * LAND_W - 2, y + BAND_H - 8)
        _land(d, view, ctx, land, box, ctx.t("avalon.label.land", n=i + 1))
    if status in ("out", "waiting"):
        label = ctx.t("avalon.label.out" if status == "out" else "avalon.label.waiting")
        overlay = (lx + 10, y + BAND_H // 2 - 18, W - M - 10, y + BAND_H // 2 + 18)
        d.rounded_rectangle(overlay, radius=8, fill=WHITE, outline=RED if status == "out" else INK, width=2)
        fonts.text(d, ((overlay[0] + overlay[2]) // 2, y + BAND_H // 2), label, 18,
                   RED if status == "out" else INK, bold=True, anchor="mm")


def _event_text(ctx: Ctx, view: dict, ev: dict) -> str:
    params = dict(ev.get("params") or {})
    if params.get("card"):
        params["card"] = _name(view, ctx, params["card"])
    try:
        return ctx.t(ev.get("key", ""), **params)
    except Exception:  # pragma: no cover - a malformed event never breaks the picture
        return str(ev.get("key"))


def _footer(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, y: int) -> int:
    events = [e for e in (view.get("events") or []) if isinstance(e, dict)][-4:]
    for i, ev in enumerate(events):
        fonts.text(d, (M + 4, y + 10 + i * FOOT_LINE), fonts.fit("· " + _event_text(ctx, view, ev), 13, W - 2 * M - 8),
                   13, INK if i == len(events) - 1 else MUTED, anchor="lm")
    return y + 4 * FOOT_LINE + 14


def _hand(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, hand: list, y: int) -> None:
    seat = view.get("seat")
    d.rounded_rectangle((M, y, W - M, y + HAND_H - 8), radius=8, fill=WHITE, outline=LINE)
    fonts.text(d, (M + 10, y + 14), ctx.t("avalon.label.your_hand", player=_player_label(ctx, int(seat or 0))), 14,
               INK, bold=True, anchor="lm")
    b = view.get("battle") or {}
    if b.get("my_choice"):
        choice = _name(view, ctx, b["my_choice"]) if b["my_choice"] != "avatar" else "avatar"
        fonts.text(d, (W - M - 10, y + 14), f"{ctx.t('avalon.label.support')}: {choice}", 13, INK, anchor="rm")
    cards = view.get("cards") or {}
    n = max(1, len(hand))
    cw = min(150, (W - 2 * M - 20) // n - 6)
    for i, cid in enumerate(hand):
        x0 = M + 10 + i * (cw + 6)
        box = (x0, y + 28, x0 + cw, y + HAND_H - 16)
        c = cards.get(cid) or {}
        cat = c.get("category")
        if cat == "creature":
            _creature_box(d, view, ctx, {"card": cid, "atk": c.get("atk"), "dur": c.get("dur"), "orig": c.get("orig"),
                                         "attr": c.get("attr"), "keywords": c.get("keywords", [])}, box)
            xi = x0 + 6
            for k, v in (c.get("mana") or {}).items():
                for _ in range(v):
                    _icon(d, xi, y + 78, k, 9)
                    xi += 11
        else:
            d.rounded_rectangle(box, radius=6, fill=(240, 236, 250), outline=INK)
            fonts.text(d, (x0 + 6, y + 40), fonts.fit(_name(view, ctx, cid), 12, cw - 12, True), 12, INK, bold=True, anchor="lm")
            fonts.text(d, (x0 + 6, y + 60), ctx.t(f"avalon.label.cat_{cat}") if cat in ("magic", "support") else "",
                       11, MUTED, anchor="lm")
        fonts.text(d, (x0 + cw - 4, y + HAND_H - 24), cid, 11, MUTED, anchor="rm")


# --------------------------------------------------------------------------- text (console)

from data import i18n  # noqa: E402
from render.text import text_renderer  # noqa: E402


def _icons_text(icons: dict) -> str:
    return " ".join(f"{k}{n}" for k, n in icons.items() if n) or "-"


@text_renderer("avalon")
def avalon_text(view: dict, *, locale: str, names: list[str]) -> str:
    """A compact console view: header, sanctuary, one block per player, battle, events, hand."""
    t = lambda key, **kw: i18n.t(key, locale, **kw)  # noqa: E731
    cards = view.get("cards") or {}

    def cname(cid):
        c = cards.get(cid) or {}
        return (c.get("name") or {}).get(locale) or (c.get("name") or {}).get("en") or str(cid)

    def who(seat):
        return f"P{seat + 1} " + (names[seat] if seat < len(names) else f"#{seat + 1}")

    def creature(cr):
        kws = ",".join(cr.get("keywords") or [])
        return f"{cname(cr['card'])} {cr['atk']}/{cr['dur']} {'★' * cr['orig']}" + (f" [{kws}]" if kws else "")

    if "players" not in view:                   # a seat's own part only (DM text, console)
        return "\n".join(_own_text(view, t, cname, who))
    mode = t(f"avalon.mode.{view.get('mode', 'normal')}")
    out = [t("avalon.label.title") + " — " + t("avalon.label.mode", mode=mode, target=view.get("target"),
                                               proofs=view.get("proofs_needed"))
           + " — " + t("avalon.label.round", round=view.get("round"), max=view.get("max_rounds"))
           + " · " + t(f"avalon.kind.{view.get('kind', 'leader')}")]
    sanct = view.get("sanctuary")
    if sanct and sanct.get("creature"):
        out.append(f"{t('avalon.label.sanctuary')}: {who(sanct['owner'])} {creature(sanct['creature'])}"
                   f"  ({_icons_text(sanct.get('icons') or {})})")
    else:
        out.append(f"{t('avalon.label.sanctuary')}: {t('avalon.label.sanctuary_empty')}")
    for p in view.get("players") or []:
        s = p["seat"]
        tags = []
        if p.get("leader"):
            tags.append(t("avalon.label.leader"))
        if p.get("status") == "out":
            tags.append(t("avalon.label.out"))
        elif p.get("status") == "waiting":
            tags.append(t("avalon.label.waiting"))
        out.append(f"{who(s)} {' '.join('[' + x + ']' for x in tags)}  "
                   + "  ".join([t("avalon.label.life", n=p["life"]), t("avalon.label.memory", n=p["memory"]),
                                t("avalon.label.hand", n=p["hand_count"]), t("avalon.label.discard", n=p["discard_count"]),
                                t("avalon.label.proofs", n=len(p["proofs"]), need=view.get("proofs_needed")),
                                t("avalon.label.mana", n=p["mana_total"], target=p["target"])]))
        for i, land in enumerate(p.get("lands") or []):
            if not land.get("mana") and not land.get("creature"):
                continue
            cr = creature(land["creature"]) if land.get("creature") else "-"
            stack = " / ".join(_icons_text(m["icons"]) for m in land["mana"]) or "-"
            out.append(f"   l{i + 1}: {cr}   [{stack}] = {land.get('mana_count', 0)}")
    b = view.get("battle")
    if b:
        yes, no = t("avalon.label.yes"), t("avalon.label.no")
        ch = b.get("chosen") or [False, False]
        out.append(t("avalon.label.battle", invader=f"P{b['invader'] + 1}", defender=f"P{b['defender'] + 1}",
                     a=yes if ch[0] else no, d=yes if ch[1] else no))
        if b.get("my_choice"):
            c = b["my_choice"]
            out.append(f"  {t('avalon.label.support')}: "
                       + (t("avalon.label.avatar_support") if c == "avatar" else f"{c} {cname(c)}"))
    for ev in (view.get("events") or [])[-4:]:
        params = dict(ev.get("params") or {})
        if params.get("card"):
            params["card"] = cname(params["card"])
        out.append("· " + t(ev["key"], **params))
    to_act = view.get("to_act") or []
    if view.get("outcome"):
        o = view["outcome"]
        reason = reason_text("avalon", o.get("reason"), locale)
        out.append(t("avalon.label.winner", who=", ".join(who(w) for w in o["winners"]), reason=reason)
                   if o.get("winners") else t("avalon.label.draw", reason=reason))
    elif to_act:
        out.append(t("avalon.label.to_act", who=", ".join(who(s) for s in to_act), step=t(f"avalon.step.{view.get('step')}")))
    out += _hand_text(view, t, cname, who)
    return "\n".join(out)


def _hand_text(view: dict, t, cname, who) -> list[str]:
    hand = view.get("hand")
    if hand is None:
        return []
    cards = view.get("cards") or {}
    seat = view.get("seat")
    out = [(t("avalon.label.your_hand", player=who(seat)) if isinstance(seat, int)
            else t("avalon.label.your_hand_plain")) + ":"]
    for cid in hand:
        c = cards.get(cid) or {}
        if c.get("category") == "creature":
            extra = f"{t('avalon.attr.' + c['attr'])} ★{c['orig']} {c['atk']}/{c['dur']} mana {_icons_text(c.get('mana') or {})}"
        else:
            extra = t(f"avalon.label.cat_{c.get('category')}") if c.get("category") in ("magic", "support") else ""
        out.append(f"   {cid}  {cname(cid)}  {extra}")
    return out


def _own_text(view: dict, t, cname, who) -> list[str]:
    """The part of a seat's view that the public view does not hold: the hand and, during a
    battle, the seat's own secret support choice."""
    out = []
    b = view.get("battle") or {}
    if b.get("my_choice"):
        choice = b["my_choice"]
        out.append(f"{t('avalon.label.support')}: " + (t("avalon.label.avatar_support") if choice == "avatar"
                                                         else f"{choice} {cname(choice)}"))
    return out + _hand_text(view, t, cname, who)
