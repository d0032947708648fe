"""The picture of an Avalon's Sanctuary view: header (mode, target mana, proofs, round), the
sanctuary, one band per player (leader marker, life / memory / hand / discard / proofs, mana
against the target, and the 5 lands: mana stacks by attribute with the creature on top showing
attack and durability), the awaited decision and the last battle; a seat's own view adds its hand.
Drawn from the view only."""
from __future__ import annotations

from PIL import Image, ImageDraw

from render import fonts, hand_sheet
from render.narrate_avalon import battle_lines, event_text   # events in words, as the thread tells them
from render.textfit import draw_fit, fit_block, fit_list, list_text
from render.base import (reason_text, INK, LINE, MUTED, PAPER, RED, WHITE, HILITE, Ctx, register,
                         register_hand, seat_colour, seat_dark, seat_text, seat_tint)

W = 600                 # shown 400 wide on a phone: all text is ≥ 12 px (8 px there)
M = 14
TEXT = 12               # the smallest text
HEAD_H = 70
LAND_W = (W - 2 * M - 20) // 5
LAND_H = 130            # a band's lands when any holds a creature or mana …
LAND_H_EMPTY = 34       # … and when all five are empty
BAND_TOP = 62           # the player's name, counts and mana above the lands

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
    """Stacked for a phone (600 px wide): header, the sanctuary with the awaited decision, one
    band per player (counts, then the five lands — one short line when all are empty), the last
    events and, in a seat's own view, the hand.  The height follows the content."""
    players = view.get("players") or []
    hand = view.get("hand")
    sections = _hand_sections(view, ctx) if hand is not None else None
    extra = hand_sheet.draw_sections(None, sections, 0, W) if sections else 0
    img = Image.new("RGB", (W, 900 + len(players) * (BAND_TOP + LAND_H + 16) + 800 + extra), PAPER)
    d = ImageDraw.Draw(img)
    y = _header(d, view, ctx)
    y = _sanctuary(d, view, ctx, y)
    for p in players:
        y = _band(d, view, ctx, p, y)
    y = _footer(d, view, ctx, y + 4)
    if sections:
        y = hand_sheet.draw_sections(d, sections, y + 4, W)
    return img.crop((0, 0, W, y + 10))


def _header(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx) -> int:
    kind = view.get("kind") or "leader"
    right = ctx.t("avalon.label.round", round=view.get("round", 0), max=view.get("max_rounds", "?"))
    right += "  ·  " + ctx.t(f"avalon.kind.{kind}")
    fonts.text(d, (W - M, 22), right, 17, INK, bold=True, anchor="rm")
    room = W - 2 * M - 12 - int(fonts.text_width(right, 17, True))
    draw_fit(d, (M, 22), ctx.game_title(), 22, 16, room, INK, bold=True, anchor="lm")
    mode = ctx.t(f"avalon.mode.{view.get('mode', 'normal')}")
    sub = ctx.t("avalon.label.mode", mode=mode, target=view.get("target", "?"), proofs=view.get("proofs_needed", "?"))
    clock = ctx.clock_text()
    y = 48
    if clock:
        fonts.text(d, (W - M, y), clock, 14, RED if ctx.clock_urgent() else INK, anchor="rm")
    draw_fit(d, (M, y), sub, 14, TEXT, W - 2 * M - (int(fonts.text_width(clock, 14)) + 12 if clock else 0), MUTED,
             anchor="lm")
    draw_fit(d, (M, y + 20), ctx.view_label(view), 14, TEXT, W - 2 * M, MUTED, anchor="lm")
    return HEAD_H + 14


def _creature_box(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, cr: dict, box, big: bool = False) -> int:
    """A creature: its name (two lines if needed) on its attribute's colour, attack/durability,
    stars, keywords.  Returns the box's bottom (the height follows the name and keywords)."""
    x0, y0, x1, _ = box
    col = ATTR_RGB.get(cr.get("attr"), MUTED)
    fg = WHITE if cr.get("attr") != "yellow" else INK
    name = _name(view, ctx, cr.get("card"))
    size, names = fit_block(name, 13, TEXT, x1 - x0 - 10, 2, True)
    if fonts.text_width(names[-1], size, True) > x1 - x0 - 10 or names[-1].endswith("…"):
        size, names = fit_block(name, 13, TEXT, x1 - x0 - 10, 3, True)       # a long name: a third line
    head = 8 + 16 * len(names)
    kws = " ".join(KW_SHORT[k][0 if ctx.locale == "en" else 1] for k in cr.get("keywords", []) if k in KW_SHORT)
    kw_lines = fonts.wrap(kws, TEXT, x1 - x0 - 12) if kws else ()
    y1 = y0 + head + 28 + 15 * len(kw_lines) + 4
    d.rounded_rectangle((x0, y0, x1, y1), radius=6, fill=WHITE, outline=col, width=3)
    d.rectangle((x0 + 3, y0 + 3, x1 - 3, y0 + head), fill=col)
    for i, line in enumerate(names):
        fonts.text(d, (x0 + 6, y0 + 12 + 16 * i), line, size, fg, bold=True, anchor="lm")
    stats = f"{cr.get('atk', '?')}/{cr.get('dur', '?')}"
    fonts.text(d, (x0 + 6, y0 + head + 15), stats, 20 if big else 18, INK, bold=True, anchor="lm")
    fonts.text(d, (x1 - 6, y0 + head + 15), "★" * int(cr.get("orig", 0)), 13, (200, 150, 0), anchor="rm")
    for i, line in enumerate(kw_lines):
        fonts.text(d, (x0 + 6, y0 + head + 36 + 15 * i), line, TEXT, MUTED, anchor="lm")
    return y1


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
    fonts.text(d, (x0 + 5, y0 + 10), label, TEXT, MUTED, anchor="lm")
    n = land.get("mana_count", 0)
    if land.get("mana"):
        fonts.text(d, (x1 - 5, y0 + 10), ctx.t("render.avalon.land_mana", n=n), TEXT, INK, bold=True, anchor="rm")
    cr = land.get("creature")
    top = y0 + 20
    if cr:
        top = _creature_box(d, view, ctx, cr, (x0 + 3, top, x1 - 3, y1)) + 4
    _mana_stack(d, land.get("mana") or [], x0 + 4, x1 - 4, y1 - 4, top)


def _status_text(view: dict, ctx: Ctx) -> tuple[str, tuple]:
    to_act = [s for s in (view.get("to_act") or []) if isinstance(s, int)]
    outcome = view.get("outcome")
    if outcome:
        winners = outcome.get("winners") or []
        reason = reason_text("avalon", outcome.get("reason"), ctx.locale)
        text = (ctx.t("avalon.label.winner", who=ctx.t("core.list_sep").join(_player_label(ctx, w) for w in winners), reason=reason)
                if winners else ctx.t("avalon.label.draw", reason=reason))
        return text, RED
    if to_act:
        step = ctx.t(f"avalon.step.{view.get('step')}")
        return ctx.t("avalon.label.to_act", who=ctx.t("core.list_sep").join(_player_label(ctx, s) for s in to_act), step=step), INK
    return "", INK


def _sanctuary(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, y: int) -> int:
    """Whose decision it is (or the result), the battle in progress, and the sanctuary."""
    text, colour = _status_text(view, ctx)
    lines = list(fonts.wrap(text, 17, W - 2 * M - 28, True)) if text else []
    b = view.get("battle")
    battle = ""
    if b:
        yes, no = ctx.t("avalon.label.yes"), ctx.t("avalon.label.no")
        ch = b.get("chosen") or [False, False]
        battle = ctx.t("avalon.label.battle", invader=_player_label(ctx, b["invader"]),
                       defender=_player_label(ctx, b["defender"]), a=yes if ch[0] else no, d=yes if ch[1] else no)
    battle_lines = fonts.wrap(battle, 14, W - 2 * M - 28) if battle else ()
    sanct = view.get("sanctuary")
    held = bool(sanct and sanct.get("creature"))
    h = 14 + 24 * len(lines) + 20 * len(battle_lines) + (118 if held else 34) + 8
    d.rounded_rectangle((M, y, W - M, y + h), radius=10, fill=(255, 250, 225), outline=HILITE, width=3)
    yy = y + 20
    for line in lines:
        fonts.text(d, (M + 14, yy), line, 17, colour, bold=True, anchor="lm")
        yy += 24
    for line in battle_lines:
        fonts.text(d, (M + 14, yy - 2), line, 14, INK, anchor="lm")
        yy += 20
    label = ctx.t("avalon.label.sanctuary")
    fonts.text(d, (M + 14, yy + 4), label, 16, INK, bold=True, anchor="lm")
    lx = M + 24 + int(fonts.text_width(label, 16, True))
    if not held:
        fonts.text(d, (lx, yy + 4), ctx.t("avalon.label.sanctuary_empty"), 14, MUTED, anchor="lm")
    else:
        owner = int(sanct.get("owner", 0))
        fonts.text(d, (lx, yy + 4), _player_label(ctx, owner), 14, seat_dark(owner), bold=True, anchor="lm")
        bottom = _creature_box(d, view, ctx, sanct["creature"], (M + 14, yy + 18, M + 14 + 150, yy + 110), big=True)
        _mana_stack(d, sanct.get("mana") or [], M + 180, M + 180 + 160, max(bottom, yy + 100), yy + 18)
    return y + h + 8


def _band(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, p: dict, y: int) -> int:
    seat = int(p.get("seat", 0))
    status = p.get("status")
    to_act = view.get("to_act") or []
    lands = p.get("lands") or []
    busy = any(land.get("creature") or land.get("mana") for land in lands if isinstance(land, dict))
    land_h = LAND_H if busy else LAND_H_EMPTY
    h = BAND_TOP + land_h + 10
    d.rounded_rectangle((M, y, W - M, y + h), radius=8, fill=seat_tint(seat),
                        outline=HILITE if seat in to_act else LINE, width=4 if seat in to_act else 1)
    x = M + 10
    mana = ctx.t("avalon.label.mana", n=p.get("mana_total", 0), target=p.get("target", "?"))
    tag_w = int(fonts.text_width(ctx.t("avalon.label.leader"), 13, True)) + 22 if p.get("leader") else 0
    room = W - M - 24 - int(fonts.text_width(mana, 15, True)) - x - 18 - tag_w
    label = _player_label(ctx, seat)
    size, lines = fit_block(label, 15, TEXT, room, 1, True)
    lw = int(fonts.text_width(lines[0], size, True)) + 18
    d.rounded_rectangle((x, y + 8, x + lw, y + 32), radius=6, fill=seat_colour(seat))
    fonts.text(d, (x + 9, y + 20), lines[0], size, seat_text(seat), bold=True, anchor="lm")
    tx = x + lw + 8
    if p.get("leader"):
        tag = ctx.t("avalon.label.leader")
        tw = int(fonts.text_width(tag, 13, True)) + 14
        d.rounded_rectangle((tx, y + 10, tx + tw, y + 30), radius=9, fill=HILITE, outline=INK)
        fonts.text(d, (tx + tw // 2, y + 20), tag, 13, INK, bold=True, anchor="mm")
        tx += tw + 8
    reached = p.get("mana_total", 0) >= p.get("target", 99)
    fonts.text(d, (W - M - 12, y + 20), mana, 15, seat_dark(seat) if reached else INK, bold=True, anchor="rm")
    line1 = ctx.t("avalon.label.life", n=p.get("life", 0)) + "  " + ctx.t("avalon.label.memory", n=p.get("memory", 0))
    room = W - M - 24 - int(fonts.text_width(mana, 15, True)) - tx
    if fonts.text_width(line1, 14, True) <= room:
        fonts.text(d, (tx, y + 20), line1, 14, INK, bold=True, anchor="lm")
        line2 = []
    else:
        line2 = [line1]
    line2 += [ctx.t("avalon.label.hand", n=p.get("hand_count", 0)), ctx.t("avalon.label.discard", n=p.get("discard_count", 0)),
              ctx.t("avalon.label.proofs", n=len(p.get("proofs") or []), need=view.get("proofs_needed", "?"))]
    text = "  ·  ".join(line2)
    if p.get("proofs"):             # the proofs by name, as many as fit whole ("… and 2 more")
        text = fit_list([_name(view, ctx, c) for c in p["proofs"]], TEXT, W - 2 * M - 24,
                        lambda shown, left: ctx.t("render.bracketed", text=text, detail=list_text(ctx, shown, left)))
    draw_fit(d, (x + 2, y + 46), text, 14, TEXT, W - 2 * M - 24, INK, anchor="lm")
    lx = M + 10
    ly = y + BAND_TOP
    for i, land in enumerate(lands):
        box = (lx + i * LAND_W + 1, ly, lx + (i + 1) * LAND_W - 2, ly + land_h)
        _land(d, view, ctx, land, box, ctx.t("avalon.label.land", n=i + 1))
    if status in ("out", "waiting"):
        label = ctx.t("avalon.label.out" if status == "out" else "avalon.label.waiting")
        mid = ly + land_h // 2
        overlay = (lx + 10, mid - 16, W - M - 20, mid + 16)
        d.rounded_rectangle(overlay, radius=8, fill=WHITE, outline=RED if status == "out" else INK, width=2)
        fonts.text(d, ((overlay[0] + overlay[2]) // 2, mid), label, 17,
                   RED if status == "out" else INK, bold=True, anchor="mm")
    return y + h + 6


def _event_text(ctx: Ctx, view: dict, ev: dict) -> str:
    try:
        return event_text(view, ev, ctx.name, ctx.locale)
    except Exception:  # pragma: no cover - a malformed event never breaks the picture
        return str(ev.get("key"))


def _footer(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, y: int) -> int:
    battle = view.get("last_battle")
    if isinstance(battle, dict):      # the last battle revealed: supports, numbers, result
        try:
            lines = [" ".join(fonts.printable(line).split()) for line in battle_lines(view, ctx, battle, brief=True)]
        except Exception:  # pragma: no cover - a malformed record never breaks the picture
            lines = []
        if lines:
            lines[0] = ctx.t("avalon.label.last_battle", text=lines[0])
            wrapped = [(i, part) for i, line in enumerate(lines) for part in fonts.wrap(line, 14, W - 2 * M - 24)]
            h = 12 + 20 * len(wrapped)
            d.rounded_rectangle((M, y, W - M, y + h), radius=8, fill=WHITE, outline=LINE)
            for k, (i, part) in enumerate(wrapped):
                fonts.text(d, (M + 12, y + 16 + 20 * k), part, 14, INK if i == 0 else MUTED, bold=i == 0, anchor="lm")
            y += h + 8
    events = [e for e in (view.get("events") or []) if isinstance(e, dict)][-4:]
    for i, ev in enumerate(events):
        colour = INK if i == len(events) - 1 else MUTED
        for k, line in enumerate(fonts.wrap("· " + _event_text(ctx, view, ev), 14, W - 2 * M - 8)):
            fonts.text(d, (M + 4, y + 10), ("  " if k else "") + line, 14, colour, anchor="lm")
            y += 20
    return y + 8


def hand_cards(view: dict, ctx: Ctx, hand: list) -> list:
    """The hand picture's cards: each card once (×n for copies) with its name, numbers and
    whole text."""
    counts: dict[str, int] = {}
    for cid in hand:
        counts[str(cid)] = counts.get(str(cid), 0) + 1
    cards = view.get("cards") or {}
    return [_sheet_card(cards.get(cid) or {}, ctx, _name(view, ctx, cid), n) for cid, n in counts.items()]


def _sheet_card(c: dict, ctx: Ctx, title: str, n: int = 1) -> "hand_sheet.Card":
    """One card as the hand picture draws it: ``c`` is its definition as a view shows it
    (``view["cards"][id]``: the card's fields and its generated ``text``)."""
    cat = c.get("category")
    text = c.get("text") if isinstance(c.get("text"), dict) else {}
    words = text.get(ctx.locale) or text.get("en") or ""
    chip = ctx.t(f"avalon.label.cat_{cat}") if cat in ("creature", "magic", "support") else \
        ctx.t("cardcheck.av_avatar_chip") if cat == "avatar" else ""
    badges = (f"×{n}",) if n > 1 else ()
    if cat == "creature":
        col = ATTR_RGB.get(c.get("attr"), MUTED)
        stats = [(f"{c.get('atk', '?')}/{c.get('dur', '?')}  " + "★" * int(c.get("orig", 0) or 0), INK)]
        return hand_sheet.Card(title, band=col, band_fg=WHITE if c.get("attr") != "yellow" else INK,
                               chip=chip, badges=badges, stats=stats, body=[(words, INK, False)])
    band = (96, 72, 150) if cat == "magic" else (70, 110, 120) if cat == "avatar" else (120, 96, 60)
    return hand_sheet.Card(title, band=band, chip=chip, badges=badges, fill=(248, 246, 252),
                           body=[(words, INK, False)] if words else [])


def sheet_card(definition: dict, ctx: Ctx) -> "hand_sheet.Card":
    """One card as the hand picture draws it, from its definition as a match's view shows it
    (a set's page, :mod:`render.card_pages`)."""
    name = definition.get("name") if isinstance(definition.get("name"), dict) else {}
    title = str(name.get(ctx.locale) or name.get("en") or definition.get("id") or "?")
    return _sheet_card(definition, ctx, title)


@register_hand("avalon")
def draw_avalon_hand(view: dict, ctx: Ctx) -> Image.Image:
    """The DM picture: the seat's hand (and its battle-support choice) only, each card with its
    numbers and whole text (:mod:`render.hand_sheet`)."""
    return hand_sheet.draw_sheet(ctx, int(view["seat"]), _hand_sections(view, ctx))


def _hand_sections(view: dict, ctx: Ctx) -> list:
    """The seat's hand (and its battle-support choice), as the hand picture shows it (also under
    a seat's own board)."""
    seat = int(view["seat"])
    hand = list(view.get("hand") or [])
    notes = []
    b = view.get("battle") or {}
    if b.get("my_choice"):
        choice = _name(view, ctx, b["my_choice"]) if b["my_choice"] != "avatar" else ctx.t("render.avalon.avatar")
        notes.append(field(ctx.t('avalon.label.support'), choice, ctx.locale))
    return [hand_sheet.Section(ctx.t("avalon.label.your_hand", player=_player_label(ctx, seat)),
                               hand_cards(view, ctx, hand), empty=ctx.t("render.avalon.empty_hand"), notes=notes)]


# --------------------------------------------------------------------------- text (console)

from data import i18n  # noqa: E402
from render.text import card_with_text, card_words, field, heading, text_renderer  # noqa: E402


def _icons_text(icons: dict, locale: str = "en") -> str:
    """Mana icons in words ("2 yellow, 1 rainbow" / 「黄2・虹1」), as the menus say them."""
    def t(key: str, **kw) -> str:
        return i18n.t(f"labels.avalon.{key}", locale, **kw)
    return t("sep").join(t("mana.n", n=n, colour=t(f"icon.{k}")) for k, n in icons.items() if n) or "-"


@text_renderer("avalon")
def avalon_text(view: dict, *, locale: str, names: list[str], notation: bool = False) -> str:
    """A compact console view: header, sanctuary, one block per player, battle, events, hand."""
    t = lambda key, **kw: i18n.t(key, locale, **kw)  # noqa: E731
    cards = view.get("cards") or {}

    def cname(cid):
        c = cards.get(cid) or {}
        return (c.get("name") or {}).get(locale) or (c.get("name") or {}).get("en") or str(cid)

    def card(cid) -> str:       # by name; the id after it only where a player types it (console)
        return card_words(cname(cid), locale, str(cid), notation)

    def who(seat):
        return f"P{seat + 1} " + (names[seat] if seat < len(names) else f"#{seat + 1}")

    def creature(cr):
        kws = t("labels.avalon.sep").join(t(f"labels.avalon.kw.{k}") for k in cr.get("keywords") or [])
        stats = t("labels.avalon.stats.card", stats=t("labels.avalon.stats", atk=cr["atk"], dur=cr["dur"]),
                  stars="★" * cr["orig"])
        text = t("labels.avalon.creature", name=cname(cr["card"]), stats=stats)
        return t("labels.avalon.with_kw", text=text, kws=kws) if kws else text

    if "players" not in view:                   # a seat's own part only (DM text, console)
        return "\n".join(_own_text(view, t, card, who, locale))
    mode = t(f"avalon.mode.{view.get('mode', 'normal')}")
    out = [t("avalon.label.title") + " — " + t("avalon.label.mode", mode=mode, target=view.get("target"),
                                               proofs=view.get("proofs_needed"))
           + " — " + t("avalon.label.round", round=view.get("round"), max=view.get("max_rounds"))
           + " · " + t(f"avalon.kind.{view.get('kind', 'leader')}")]
    sanct = view.get("sanctuary")
    if sanct and sanct.get("creature"):
        out.append(field(t('avalon.label.sanctuary'), f"{who(sanct['owner'])} {creature(sanct['creature'])}"
                         f"  ({_icons_text(sanct.get('icons') or {}, locale)})", locale))
    else:
        out.append(field(t('avalon.label.sanctuary'), t('avalon.label.sanctuary_empty'), locale))
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
            stack = " / ".join(_icons_text(m["icons"], locale) for m in land["mana"]) or "-"
            out.append(f"   l{i + 1}: {cr}   [{stack}] = {land.get('mana_count', 0)}")
    b = view.get("battle")
    if b:
        yes, no = t("avalon.label.yes"), t("avalon.label.no")
        ch = b.get("chosen") or [False, False]
        out.append(t("avalon.label.battle", invader=f"P{b['invader'] + 1}", defender=f"P{b['defender'] + 1}",
                     a=yes if ch[0] else no, d=yes if ch[1] else no))
        if b.get("my_choice"):
            c = b["my_choice"]
            out.append("  " + field(t('avalon.label.support'),
                                    t("avalon.label.avatar_support") if c == "avatar" else card(c), locale))
    for ev in (view.get("events") or [])[-4:]:
        out.append("· " + event_text(view, ev, lambda seat: names[seat] if 0 <= seat < len(names)
                                     else f"P{seat + 1}", locale))
    to_act = view.get("to_act") or []
    if view.get("outcome"):
        o = view["outcome"]
        reason = reason_text("avalon", o.get("reason"), locale)
        out.append(t("avalon.label.winner", who=t("core.list_sep").join(who(w) for w in o["winners"]), reason=reason)
                   if o.get("winners") else t("avalon.label.draw", reason=reason))
    elif to_act:
        out.append(t("avalon.label.to_act", who=t("core.list_sep").join(who(s) for s in to_act), step=t(f"avalon.step.{view.get('step')}")))
    out += _hand_text(view, t, card, who, locale)
    return "\n".join(out)


def _hand_text(view: dict, t, card, who, locale: str = "en") -> list[str]:
    hand = view.get("hand")
    if hand is None:
        return []
    cards = view.get("cards") or {}
    seat = view.get("seat")
    out = [heading(t("avalon.label.your_hand", player=who(seat)) if isinstance(seat, int)
                   else t("avalon.label.your_hand_plain"), locale)]
    for cid in hand:        # each card with its whole text: what it is and what it does
        c = cards.get(cid) or {}
        text = c.get("text") if isinstance(c.get("text"), dict) else {}
        words = text.get(locale) or text.get("en") or ""
        out.append("   " + card_with_text(card(cid), words, locale))
    return out


def _own_text(view: dict, t, card, who, locale: str = "en") -> list[str]:
    """The part of a seat's view that the public view does not hold: the hand and, during a
    battle, the seat's own secret support choice."""
    out = []
    b = view.get("battle") or {}
    if b.get("my_choice"):
        choice = b["my_choice"]
        out.append(field(t('avalon.label.support'), t("avalon.label.avatar_support") if choice == "avatar"
                         else card(choice), locale))
    return out + _hand_text(view, t, card, who, locale)
