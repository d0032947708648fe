"""The Battle Logic Square HAND picture: a seat's own view, sent by DM next to the public board.

Laid out by :mod:`render.hand_sheet` (600 px wide, at most twice as tall, no text under 8 px
when a phone shows it 400 px wide, nothing cut or overlapping): the seat's life / AP / pending decision, the chain it may answer, then every hand card (name,
category, colour, CB, damage or durability, cost, hit-range grid relative to the AVI, text with
the break condition on its own line), the unused IT cards with their build conditions and the
AVI's abilities.  Nothing is drawn that the view does not contain.
"""
from __future__ import annotations

import re

from PIL import Image, ImageDraw

from render import fonts, hand_sheet
from render.textfit import draw_fit
from render.base import (INK, LINE, MUTED, RED, WHITE, Ctx, register_hand, seat_colour, seat_dark,
                         seat_tint)
from render.logic_square_layout import (AVI_BAND, CARD_COLOURS, GREEN, IT_BAND, M, RANGE_FILL, _badge,
                                        _seat_mark, header_lines)
from render.logic_square_words import (_avis, _decl_line, _loc, _name, _outcome_text, _phase_text, _players,
                                       _t)

HW = 600
RC = 13                                  # range-grid cell


def _grid_rows(rng: list) -> tuple[int, int]:
    """(max forward, min forward) rows of a range grid; always shows the AVI row and one ahead."""
    fwd = [int(r[0]) for r in rng if isinstance(r, (list, tuple)) and len(r) == 2]
    return max(fwd + [1]), min(fwd + [0])


def _range_grid(d: ImageDraw.ImageDraw, x: int, y: int, rng: list, target: str, rc: int = RC) -> tuple[int, int]:
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
            bx, by = x + ci * rc, y + ri * rc
            box = (bx, by, bx + rc - 1, by + rc - 1)
            if (fwd, sd) == (0, 0):
                d.rectangle(box, fill=(60, 60, 70))
                d.polygon([(bx + 3, by + rc - 4), (bx + rc - 4, by + rc - 4), (bx + rc // 2, by + 2)],
                          fill=WHITE)
                if (0, 0) in cells:
                    d.rectangle(box, outline=fill, width=2)
            elif (fwd, sd) in cells:
                d.rectangle(box, fill=fill, outline=WHITE)
            else:
                d.rectangle(box, fill=(246, 244, 238), outline=(214, 208, 196))
    return cols * rc, rows * rc


def _split_text(text: str) -> tuple[str, str]:
    """(rules text, condition) — the break / build condition goes on its own line."""
    for marker in ("【アクション構築条件】", "【ブレイク条件】", "Build condition:", "Break condition:"):
        i = text.find(marker)
        if i >= 0:
            return text[:i].rstrip(), text[i:].strip()
    return text, ""


def sheet_card(definition: dict, ctx: Ctx, count: int = 1, mark: str = "") -> hand_sheet.Card:
    """One card as the hand picture draws it, from its definition as a match's views show it (the
    hand picture's cards, and a server set's page, :mod:`render.card_pages`).  An AVI card is
    drawn with its abilities (number, name, cost and text each) and its awakening, as the hand
    picture's AVI section lists them.  ``count``: copies in hand; ``mark``: a note on the card
    (it may answer the chain)."""
    card = _card(definition, count, mark, ctx.locale)
    if str(definition.get("category")) == "AVI" and definition.get("abilities"):
        body = []
        for entry, _n, _mark in _avi_entries(definition.get("id"), {definition.get("id"): definition}, ctx.locale):
            line = _loc(entry.get("name"), ctx.locale)
            words = _loc(entry.get("text"), ctx.locale)
            if str(entry.get("id", "")).endswith(".aw"):      # its name already says <覚醒 X>
                words = re.sub(r"^<[^>]*>\s*", "", words)
            body.append((f"{line}：{words}" if ctx.locale == "ja" else f"{line}: {words}", INK, False))
        card.body = body or card.body
    return card


def _card(card: dict, count: int, mark: str, locale: str) -> hand_sheet.Card:
    """One hand / IT / AVI card of the hand picture: name, category, CB, damage or durability,
    cost, hit-range grid relative to the AVI, colour and types, text and (tinted) condition."""
    t = lambda k, **p: _t(k, locale, **p)  # noqa: E731
    cat = str(card.get("category") or "?")
    if cat == "IT":
        band, band_fg = IT_BAND
    elif cat == "AVI":
        band, band_fg = AVI_BAND
    else:
        band, band_fg = CARD_COLOURS.get(str(card.get("colour")), ((200, 200, 200), INK))
    text, cond = _split_text(_loc(card.get("text"), locale))
    rng = card.get("range") or []
    art = art_dense = None
    if rng:
        top, low = _grid_rows(rng)
        side = max([2] + [abs(int(r[1])) for r in rng if isinstance(r, (list, tuple)) and len(r) == 2])
        target = str(card.get("target") or "enemy")
        art = ((2 * side + 1) * RC, (top - low + 1) * RC, lambda d, x, y: _range_grid(d, x, y, rng, target))
        small = RC - 3
        art_dense = ((2 * side + 1) * small, (top - low + 1) * small,
                     lambda d, x, y: _range_grid(d, x, y, rng, target, small))
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
    info = []
    if card.get("colour"):
        info.append(t(f"render.ls.colour.{card['colour']}"))
    for ty in card.get("types") or []:
        if isinstance(ty, dict):
            info.append(f"[{_loc(ty, locale) or ty.get('id', '?')}]")
    chip = t(f"render.ls.cat.{cat}") if cat in ("Ac", "Sc", "Br", "IT", "AVI") else cat
    badges = tuple(b for b in (f"×{count}" if count > 1 else "", "CB" if card.get("cb") else "") if b)
    cond_colour = IT_BAND[0] if cat == "IT" else INK
    body = [(text, INK, False)] if text else []
    if cond:
        body.append((cond, cond_colour, True, (246, 242, 250)))
    return hand_sheet.Card(_loc(card.get("name"), locale) or str(card.get("id", "?")), band=band, band_fg=band_fg,
                           chip=chip, badges=badges, mark=mark, mark_colour=GREEN, art=art, art_dense=art_dense, stats=stats,
                           info=" ".join(info), body=body, outline=GREEN if mark else None)


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


def _cards(entries: list, cards: dict, ctx: Ctx) -> list:
    out = []
    for cid, n, mark in entries:
        card = cid if isinstance(cid, dict) else (cards.get(cid) or {"id": cid, "name": {"en": cid}, "category": "?"})
        out.append(sheet_card(card, ctx, n, mark))
    return out


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
    avi_id = (_avis(view).get(seat) or {}).get("card") or (_players(view).get(seat) or {}).get("avi")
    avis = _avi_entries(avi_id, cards, ctx.locale)

    top = 64
    answering = pending.get("answering") if pending and pending.get("kind") == "chain" else None
    earlier = [dl for dl in (view.get("chain") or [])[:-1] if isinstance(dl, dict)][-4:] if answering else []
    sections = [hand_sheet.Section(ctx.t("render.ls.hand_cards", n=sum(n for _, n, _ in hand)),
                                   _cards(hand, cards, ctx), empty=ctx.t("render.ls.hand_empty")),
                hand_sheet.Section(ctx.t("render.ls.it_cards", n=sum(n for _, n, _ in its)),
                                   _cards(its, cards, ctx), empty=ctx.t("render.ls.it_empty"))]
    if avis:
        sections.append(hand_sheet.Section(ctx.t("render.ls.avi_cards", name=_name(cards, avi_id, ctx.locale)),
                                           _cards(avis, {}, ctx)))

    def header(d: ImageDraw.ImageDraw) -> int:
        return _status(d, view, ctx, seat, dm, pending, answering, earlier, top) + 10

    return hand_sheet.draw_sheet(ctx, seat, sections, header=header, width=HW)


def _decision(view: dict, ctx: Ctx, dm: bool, pending, answering) -> str:
    if view.get("outcome"):
        return _outcome_text(view["outcome"], ctx)
    if dm and not (pending and pending.get("kind") in ("discard", "chain")):
        return ctx.t("render.ls.dm_act")        # the turn and AP are on the board
    if pending and pending.get("kind") == "main":
        text = ctx.t("render.ls.pending.main", ap=pending.get("ap", 0))
        return text + ("  ·  " + ctx.t("render.ls.caa_used") if pending.get("caa_used") else "")
    if pending and pending.get("kind") == "discard":
        return ctx.t("render.ls.pending.discard", count=pending.get("count", 0))
    if answering:
        return ctx.t("render.ls.pending.chain")
    player = view.get("player")
    return ctx.t("render.ls.pending.wait", name=ctx.name(player) if isinstance(player, int) else "?")


def _status(d: ImageDraw.ImageDraw, view: dict, ctx: Ctx, seat: int, dm: bool, pending, answering, earlier,
            top: int) -> int:
    """The title and the status strip (own life, AVI, counts, the decision asked now, the chain
    being answered), every line wrapped, never cut; returns the strip's bottom."""
    cards = view.get("cards") or {}
    title = ctx.t("render.ls.hand_title", name=ctx.name(seat))
    draw_fit(d, (M, 24), title, 22, 13, HW - 2 * M - 150, INK, bold=True, anchor="lm")
    sub = ctx.game_title() + ("" if dm else _phase_text(view, ctx))
    header_lines(d, view, ctx, sub, HW, turn=not dm, clock=not dm)

    p = _players(view).get(seat) or {}
    a = _avis(view).get(seat) or {}
    life = int(p.get("life", a.get("life", 0)) or 0)
    avi = _name(cards, a.get("card") or p.get("avi"), ctx.locale)
    line = ctx.t("render.ls.life", life=life) + "   " + ctx.t("render.ls.avi", name=avi)
    if a.get("square"):
        line += f" ({a['square']})"
    if dm:
        line = ctx.t("render.ls.avi", name=avi)
    badges = [ctx.t("render.ls.deck", n=p.get("deck_count", 0)), ctx.t("render.ls.trash", n=len(p.get("trash") or [])),
              ctx.t("render.ls.it_unused", n=p.get("it_unused_count", 0))]
    badges_w = sum(int(fonts.text_width(b, 13, True)) + 20 for b in badges)
    inner = HW - 2 * M - 50
    head_lines = fonts.wrap(line, 17, inner, True)
    badges_inline = len(head_lines) == 1 and fonts.text_width(line, 17, True) + 16 + badges_w <= inner
    rows: list = [(ln, 17, INK, True, 24) for ln in head_lines]
    if not badges_inline:
        rows.append(("", 13, INK, False, 26))                    # the badges' own row
    decision = fonts.wrap(_decision(view, ctx, dm, pending, answering), 15, inner - 4, True)
    rows += [(ln, 15, INK, True, 21) for ln in decision]
    if answering:
        text = ctx.t("render.ls.answering", name=ctx.name(answering.get("seat")),
                     card=_decl_line(answering, cards, ctx.locale))
        rows += [(ln, 14, RED, True, 20) for ln in fonts.wrap(text, 14, inner, True)]
    first = len(view.get("chain") or []) - 1 - len(earlier)
    if earlier:                     # the rest of the chain: only each player's last card resolves
        rows += [(ln, 13, MUTED, False, 19) for ln in fonts.wrap(ctx.t("render.ls.chain_earlier"), 13, inner)]
    earlier_rows = [(decl, fonts.wrap(f"{first + i + 1}. " + _decl_line(decl, cards, ctx.locale), 13, inner - 28))
                    for i, decl in enumerate(earlier)]
    height = 10 + sum(r[4] for r in rows) + sum(19 * len(lines) for _, lines in earlier_rows) + 8
    d.rounded_rectangle((M, top, HW - M, top + height), radius=10, fill=seat_tint(seat),
                        outline=seat_colour(seat), width=2)
    y = top + 10
    _seat_mark(d, seat, M + 12, y + 12)
    arrow_done = False
    for k, (text, size, colour, bold, lh) in enumerate(rows):
        cy = y + lh // 2
        if not text:
            rx = M + 36
            for b in badges:
                rx = _badge(d, rx, cy, b, WHITE, INK, outline=LINE)
        else:
            if size == 15 and not arrow_done:
                fonts.text(d, (M + 14, cy), "▶", 15, seat_dark(seat), bold=True, anchor="lm")
                arrow_done = True
            fonts.text(d, (M + 36, cy), text, size, colour, bold=bold, anchor="lm")
            if k == 0 and badges_inline:
                rx = HW - M - 10 - badges_w + 6
                for b in badges:
                    rx = _badge(d, rx, cy, b, WHITE, INK, outline=LINE)
        y += lh
    for decl, lines in earlier_rows:
        _seat_mark(d, int(decl.get("seat") or 0), M + 46, y + 9, 13)
        for ln in lines:
            fonts.text(d, (M + 62, y + 9), ln, 13, INK, anchor="lm")
            y += 19
    return top + height
