"""The Battle Logic Square HAND picture: a seat's own view, sent by DM next to the public board.

Two columns of cards, 600 px wide (so no text is under 8 px when a phone shows it 400 px wide):
the seat's life / AP / pending decision, the chain it may answer, then every hand card (name,
category, colour, CB, damage or durability, cost, hit-range grid relative to the AVI, text with
the break condition on its own line), the unused IT cards with their build conditions and the
AVI's abilities.  Nothing is drawn that the view does not contain.
"""
from __future__ import annotations

import json
from functools import lru_cache

from PIL import Image, ImageDraw

from render import fonts
from render.base import (HILITE, INK, LINE, MUTED, PAPER, RED, WHITE, Ctx, register_hand, seat_colour, seat_dark,
                         seat_tint)
from render.logic_square import (AVI_BAND, CARD_COLOURS, GREEN, IT_BAND, M, RANGE_FILL, _avis, _badge,
                                 _decl_line, _j, _loc, _name, _outcome_text, _phase_text, _players, _seat_mark,
                                 _t, header_lines, wrap)

HW = 600
COLS = 2
GAP = 12
CARD_W = (HW - 2 * M - GAP * (COLS - 1)) // COLS
RC = 13                                  # range-grid cell


def _grid_rows(rng: list) -> tuple[int, int]:
    """(max forward, min forward) rows of a range grid; always shows the AVI row and one ahead."""
    fwd = [int(r[0]) for r in rng if isinstance(r, (list, tuple)) and len(r) == 2]
    return max(fwd + [1]), min(fwd + [0])


def _range_grid(d: ImageDraw.ImageDraw, x: int, y: int, rng: list, target: str) -> tuple[int, int]:
    """A small grid of a hit range relative to the user's AVI (forward = up); returns its size."""
    top, low = _grid_rows(rng)
    side = max([2] + [abs(int(r[1])) for r in rng if isinstance(r, (list, tuple)) and len(r) == 2])
    cols = 2 * side + 1
    rows = top - low + 1
    cells = {(int(r[0]), int(r[1])) for r in rng if isinstance(r, (list, tuple)) and len(r) == 2}
    fill = RANGE_FILL.get(target, RED)
    for ri in range(rows):
        fwd = top - ri
        for ci in range(cols):
            sd = ci - side
            bx, by = x + ci * RC, y + ri * RC
            box = (bx, by, bx + RC - 1, by + RC - 1)
            if (fwd, sd) == (0, 0):
                d.rectangle(box, fill=(60, 60, 70))
                d.polygon([(bx + 3, by + RC - 4), (bx + RC - 4, by + RC - 4), (bx + RC // 2, by + 2)],
                          fill=WHITE)
                if (0, 0) in cells:
                    d.rectangle(box, outline=fill, width=2)
            elif (fwd, sd) in cells:
                d.rectangle(box, fill=fill, outline=WHITE)
            else:
                d.rectangle(box, fill=(246, 244, 238), outline=(214, 208, 196))
    return cols * RC, rows * RC


def _split_text(text: str) -> tuple[str, str]:
    """(rules text, condition) — the break / build condition goes on its own line."""
    for marker in ("【アクション構築条件】", "【ブレイク条件】", "Build condition:", "Break condition:"):
        i = text.find(marker)
        if i >= 0:
            return text[:i].rstrip(), text[i:].strip()
    return text, ""


@lru_cache(maxsize=512)
def _card_img(card_json: str, count: int, mark: str, locale: str) -> Image.Image:
    """One hand / IT card (CARD_W wide, RGB, height from its text)."""
    card = json.loads(card_json)
    t = lambda k, **p: _t(k, locale, **p)  # noqa: E731
    cat = str(card.get("category") or "?")
    if cat == "IT":
        band, band_fg = IT_BAND
    elif cat == "AVI":
        band, band_fg = AVI_BAND
    else:
        band, band_fg = CARD_COLOURS.get(str(card.get("colour")), ((200, 200, 200), INK))
    text, cond = _split_text(_loc(card.get("text"), locale))
    tw = CARD_W - 20
    body = wrap(text, 14, tw) if text else ()
    cond_lines = wrap(cond, 13, tw, True) if cond else ()
    rng = card.get("range") or []
    grid_h = 0
    if rng:
        top, low = _grid_rows(rng)
        grid_h = (top - low + 1) * RC
    n_stats = ((card.get("damage") is not None) + (card.get("durability") is not None)
               + (cat == "Br" or card.get("cost") is not None))
    n_info = bool(card.get("colour") or card.get("types"))
    head_h = max(grid_h + 8, n_stats * 20 + n_info * 18 + 6)
    h = 32 + head_h + len(body) * 19 + (len(cond_lines) * 18 + 6 if cond_lines else 0) + 10
    img = Image.new("RGB", (CARD_W, h), PAPER)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, CARD_W - 1, h - 1), radius=9, fill=WHITE, outline=band, width=2)
    d.rounded_rectangle((0, 0, CARD_W - 1, 28), radius=9, fill=band)
    d.rectangle((0, 18, CARD_W - 1, 28), fill=band)
    # band: category chip, name, CB, count
    x = 8
    chip = t(f"render.ls.cat.{cat}") if cat in ("Ac", "Sc", "Br", "IT", "AVI") else cat
    cw = int(fonts.text_width(chip, 12, True)) + 12
    d.rounded_rectangle((x, 5, x + cw, 23), radius=5, fill=WHITE)
    fonts.text(d, (x + cw // 2, 14), chip, 12, band if band != CARD_COLOURS["white"][0] else INK,
               bold=True, anchor="mm")
    x += cw + 8
    right = CARD_W - 8
    if count > 1:
        s = f"×{count}"
        fonts.text(d, (right, 14), s, 16, band_fg, bold=True, anchor="rm")
        right -= int(fonts.text_width(s, 16, True)) + 8
    if card.get("cb"):
        w = int(fonts.text_width("CB", 12, True)) + 12
        d.rounded_rectangle((right - w, 5, right, 23), radius=9, fill=HILITE, outline=INK)
        fonts.text(d, (right - w // 2, 14), "CB", 12, INK, bold=True, anchor="mm")
        right -= w + 6
    name = _loc(card.get("name"), locale) or str(card.get("id", "?"))
    fonts.text(d, (x, 14), fonts.fit(name, 16, right - x - 4, True), 16, band_fg, bold=True,
               anchor="lm")
    # head: range grid on the left, numbers on the right
    y = 34
    x = 10
    if rng:
        gw, _ = _range_grid(d, x, y + 2, rng, str(card.get("target") or "enemy"))
        x += gw + 12
    stats = []
    if card.get("damage") is not None:
        stats.append((t("render.ls.card.damage", n=card["damage"]), RED))
    if card.get("durability") is not None:
        stats.append((t("render.ls.card.durability", n=card["durability"]), (0, 104, 76)))
    cost = card.get("cost")
    if cat == "Br":
        stats.append((t("render.ls.card.chain_only"), INK))
    elif cost is not None:
        stats.append((t("render.ls.card.cost", n=cost), INK))
    sy = y + 10
    for s, colour in stats:
        fonts.text(d, (x, sy), fonts.fit(s, 15, CARD_W - x - 10, True), 15, colour, bold=True,
                   anchor="lm")
        sy += 20
    info = []
    colour = card.get("colour")
    if colour:
        info.append(t(f"render.ls.colour.{colour}"))
    for ty in card.get("types") or []:
        if isinstance(ty, dict):
            info.append(f"[{_loc(ty, locale) or ty.get('id', '?')}]")
    if info:
        fonts.text(d, (x, sy), fonts.fit(" ".join(info), 13, CARD_W - x - 10), 13, MUTED,
                   anchor="lm")
        sy += 18
    if mark:
        fonts.text(d, (CARD_W - 10, y + 10), mark, 13, GREEN, bold=True, anchor="rm")
    y += head_h
    for line in body:
        fonts.text(d, (10, y + 9), line, 14, INK, anchor="lm")
        y += 19
    if cond_lines:
        y += 3
        d.rectangle((8, y - 2, CARD_W - 9, y + len(cond_lines) * 18 + 1), fill=(246, 242, 250))
        for line in cond_lines:
            fonts.text(d, (10, y + 8), line, 13, IT_BAND[0] if cat == "IT" else INK, bold=True,
                       anchor="lm")
            y += 18
    return img


def _hand_entries(ids: list, cards: dict) -> list[tuple[str, int]]:
    """Hand card ids grouped: copies are interchangeable (first-drawn order kept)."""
    order: list[str] = []
    counts: dict[str, int] = {}
    for cid in ids:
        if not isinstance(cid, str):
            continue
        if cid not in counts:
            order.append(cid)
            counts[cid] = 0
        counts[cid] += 1
    return [(c, counts[c]) for c in order]


def _avi_entries(avi_id, cards: dict, locale: str) -> list:
    """The seat's AVI abilities (and its awakening) as card-like entries for the hand picture."""
    avi = cards.get(avi_id) if isinstance(avi_id, str) else None
    if not isinstance(avi, dict):
        return []
    out = []
    for i, ab in enumerate(avi.get("abilities") or []):
        if not isinstance(ab, dict):
            continue
        moves = any(isinstance(e, dict) and e.get("do") == "move_self" for e in ab.get("effects") or [])
        card = {"id": f"{avi_id}.{i + 1}", "category": "AVI",
                "name": {loc: f"{i + 1}. " + _loc(ab.get("name"), loc) for loc in ("ja", "en")},
                "text": ab.get("text"), "damage": ab.get("damage"), "range": ab.get("range") or [],
                "cost": ab.get("cost"), "target": "move" if moves else "enemy"}
        out.append((card, 1, ""))
    aw = avi.get("awakening")
    if isinstance(aw, dict):
        card = {"id": f"{avi_id}.aw", "category": "AVI",
                "name": {loc: _t("render.ls.awakening_card", loc, life=aw.get("life", "?"))
                         for loc in ("ja", "en")},
                "text": aw.get("text")}
        out.append((card, 1, ""))
    return out


def _layout(entries: list, cards: dict, locale: str):
    imgs = []
    for cid, n, mark in entries:
        if isinstance(cid, dict):
            card = cid
        else:
            card = cards.get(cid) or {"id": cid, "name": {"en": cid}, "category": "?"}
        imgs.append(_card_img(_j(card), n, mark, locale))
    rows = []
    for i in range(0, len(imgs), COLS):
        row = imgs[i:i + COLS]
        rows.append((row, max(im.height for im in row)))
    return rows


@register_hand("logic_square")
def draw_dm_hand(view: dict, ctx: Ctx) -> Image.Image:
    """The DM picture: the hand picture without what the board shows and what changes as others
    play (turn, clock, life, AP, the AVI's square, whose main phase it is), so the DM is edited
    only when the hand, the IT cards or a private decision (a chain answer, a discard) change."""
    return draw_hand(view, ctx, dm=True)


def draw_hand(view: dict, ctx: Ctx, dm: bool = False) -> Image.Image:
    seat = int(view["seat"])
    cards = view.get("cards") or {}
    pending = view.get("pending") if isinstance(view.get("pending"), dict) else None
    answer_ids: set[str] = set()
    if pending and pending.get("kind") == "chain":
        for cmd in pending.get("responses") or []:
            parts = str(cmd).split()
            if len(parts) >= 2 and parts[0] == "chain":
                answer_ids.add(parts[1])
    ok = ctx.t("render.ls.can_answer")
    hand = [(c, n, ok if c in answer_ids else "")
            for c, n in _hand_entries(list(view.get("hand") or []), cards)]
    its = [(c, n, ok if c in answer_ids else "")
           for c, n in _hand_entries(list(view.get("it_unused") or []), cards)]
    hand_rows = _layout(hand, cards, ctx.locale)
    it_rows = _layout(its, cards, ctx.locale)
    avi_id = (_avis(view).get(seat) or {}).get("card") or (_players(view).get(seat) or {}).get("avi")
    avi_rows = _layout(_avi_entries(avi_id, cards, ctx.locale), {}, ctx.locale)

    top = 64
    status_h = 102
    answering = pending.get("answering") if pending and pending.get("kind") == "chain" else None
    earlier = [dl for dl in (view.get("chain") or [])[:-1] if isinstance(dl, dict)][-4:] if answering else []
    if answering:
        status_h += 28
    if earlier:
        status_h += 24 + 22 * len(earlier)
    y = top + status_h + 14
    total = y + 32 + (sum(h + GAP for _, h in hand_rows) if hand_rows else 34)
    total += 32 + (sum(h + GAP for _, h in it_rows) if it_rows else 34) + 6
    if avi_rows:
        total += 32 + sum(h + GAP for _, h in avi_rows)
    img = Image.new("RGB", (HW, total), PAPER)
    d = ImageDraw.Draw(img)

    # header
    title = ctx.t("render.ls.hand_title", name=ctx.name(seat))
    fonts.text(d, (M, 24), fonts.fit(title, 22, HW - 2 * M - 150, True), 22, INK, bold=True, anchor="lm")
    sub = ctx.game_title() + ("" if dm else _phase_text(view, ctx))
    header_lines(d, view, ctx, sub, HW, turn=not dm, clock=not dm)

    # status strip: own life, AVI, AP, counts, the decision asked now
    p = _players(view).get(seat) or {}
    a = _avis(view).get(seat) or {}
    d.rounded_rectangle((M, top, HW - M, top + status_h), radius=10, fill=seat_tint(seat),
                        outline=seat_colour(seat), width=2)
    cy = top + 20
    _seat_mark(d, seat, M + 12, cy)
    life = int(p.get("life", a.get("life", 0)) or 0)
    avi = _name(cards, a.get("card") or p.get("avi"), ctx.locale)
    line = ctx.t("render.ls.life", life=life) + "   " + ctx.t("render.ls.avi", name=avi)
    if a.get("square"):
        line += f" ({a['square']})"
    if dm:
        line = ctx.t("render.ls.avi", name=avi)
    fonts.text(d, (M + 38, cy), fonts.fit(line, 17, HW - 2 * M - 50, True), 17, INK, bold=True, anchor="lm")
    cy = top + 48
    rx = M + 36
    for item in ([ctx.t("render.ls.deck", n=p.get("deck_count", 0)),
                          ctx.t("render.ls.trash", n=len(p.get("trash") or [])),
                  ctx.t("render.ls.it_unused", n=p.get("it_unused_count", 0))]):
        rx = _badge(d, rx, cy, item, WHITE, INK, outline=LINE)
    cy = top + 78
    if view.get("outcome"):
        text = _outcome_text(view["outcome"], ctx)
    elif dm and not (pending and pending.get("kind") in ("discard", "chain")):
        text = ctx.t("render.ls.dm_act")        # the turn and AP are on the board
    elif pending and pending.get("kind") == "main":
        text = ctx.t("render.ls.pending.main", ap=pending.get("ap", 0))
        if pending.get("caa_used"):
            text += "  ·  " + ctx.t("render.ls.caa_used")
    elif pending and pending.get("kind") == "discard":
        text = ctx.t("render.ls.pending.discard", count=pending.get("count", 0))
    elif answering:
        text = ctx.t("render.ls.pending.chain")
    else:
        player = view.get("player")
        text = ctx.t("render.ls.pending.wait", name=ctx.name(player) if isinstance(player, int) else "?")
    fonts.text(d, (M + 14, cy), "▶", 16, seat_dark(seat), bold=True, anchor="lm")
    fonts.text(d, (M + 36, cy), fonts.fit(text, 16, HW - 2 * M - 50, True), 16, INK, bold=True,
               anchor="lm")
    if answering:
        cy += 28
        line = ctx.t("render.ls.answering", name=ctx.name(answering.get("seat")),
                     card=_decl_line(answering, cards, ctx.locale))
        fonts.text(d, (M + 36, cy), fonts.fit(line, 15, HW - 2 * M - 50), 15, RED, bold=True,
                   anchor="lm")
    if earlier:                     # the rest of the chain: only each player's last card resolves
        cy += 26
        fonts.text(d, (M + 36, cy), fonts.fit(ctx.t("render.ls.chain_earlier"), 14, HW - 2 * M - 50),
                   14, MUTED, anchor="lm")
        first = len(view.get("chain") or []) - 1 - len(earlier)
        for i, decl in enumerate(earlier):
            cy += 22
            _seat_mark(d, int(decl.get("seat") or 0), M + 46, cy, 13)
            text = f"{first + i + 1}. " + _decl_line(decl, cards, ctx.locale)
            fonts.text(d, (M + 62, cy), fonts.fit(text, 14, HW - 2 * M - 80), 14, INK, anchor="lm")

    # hand cards
    for heading, rows, empty in ((ctx.t("render.ls.hand_cards", n=sum(n for _, n, _ in hand)),
                                  hand_rows, ctx.t("render.ls.hand_empty")),
                                 (ctx.t("render.ls.it_cards", n=sum(n for _, n, _ in its)),
                                  it_rows, ctx.t("render.ls.it_empty")),
                                 (ctx.t("render.ls.avi_cards", name=_name(cards, avi_id, ctx.locale)),
                                  avi_rows, "")):
        if not rows and not empty:
            continue
        fonts.text(d, (M, y + 14), heading, 17, INK, bold=True, anchor="lm")
        y += 32
        if not rows:
            fonts.text(d, (M + 4, y + 10), empty, 14, MUTED, anchor="lm")
            y += 34
            continue
        for row, h in rows:
            for i, im in enumerate(row):
                img.paste(im, (M + i * (CARD_W + GAP), y))
            y += h + GAP
    return img
