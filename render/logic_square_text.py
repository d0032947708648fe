"""Battle Logic Square as text: the console (``python bot.py --local``) and the text a DM
carries, drawn from a view only, in the reader's language — the same words as the picture
(``render.ls.*``), never a dump of the view.

A seat's own part of its view (a DM) holds only what differs from the public view (its hand,
its face-down IT cards, the decision it is asked), so each section is written only when its
key is there.
"""
from __future__ import annotations

from render.base import make_ctx
from render.logic_square_words import _avis, _event_line, _last_headline, _name, _outcome_text, _players
from render.text import card_with_text, card_words, field, heading, text_renderer


@text_renderer("logic_square")
def logic_square_text(view: dict, *, locale: str, names: list[str], notation: bool = False) -> str:
    ctx = make_ctx("logic_square", locale, names, None, None)
    cards = view.get("cards") if isinstance(view.get("cards"), dict) else {}
    sep = ctx.t("core.list_sep")

    def card(cid) -> str:       # by name; the id after it only where a player types it (console)
        return card_words(_name(cards, cid, ctx.locale), locale, str(cid), notation) if cid in cards else str(cid)

    def decl(d: dict) -> str:   # a chain declaration in words
        cid = d.get("card")
        text = ctx.t("render.ls.text.decl_it" if d.get("source") == "it" else "render.ls.text.decl",
                     card=_name(cards, cid, ctx.locale))
        if (cards.get(cid) or {}).get("cb"):
            text = ctx.t("render.ls.text.decl_cb", decl=text)
        if d.get("target"):
            text = ctx.t("render.ls.text.decl_target", decl=text, square=d["target"])
        return text
    lines: list[str] = []
    outcome = view.get("outcome")
    if "turn" in view:
        head = (ctx.t("render.ls.turn", turn=view.get("turn", 0), max=view["max_turns"])
                if view.get("max_turns") else ctx.t("render.ls.turn_plain", turn=view.get("turn", 0)))
        player = view.get("player")
        if not outcome and isinstance(player, int):
            key = "render.ls.status.discard" if view.get("phase") == "discard" else "render.ls.status.main"
            head += " · " + ctx.t(key, name=ctx.name(player),
                                  ap=(_players(view).get(player) or {}).get("ap", 0))
        lines.append(head)
    avis = _avis(view)
    # a DM's text (the seat's own part, without the board) leaves the players' public lines to the
    # board: drawn without the board they would lack the AVIs' squares and read wrong
    shown = _players(view) if "board" in view else {}
    for seat, p in sorted(shown.items(), key=lambda kv: kv[0] if isinstance(kv[0], int) else 0):
        avi = avis.get(seat) or {}
        parts = [ctx.t("render.ls.life", life=p.get("life", avi.get("life", "?"))),
                 ctx.t("render.ls.ap", ap=p.get("ap", 0)),
                 ctx.t("render.ls.hand", n=p.get("hand_count", 0)),
                 ctx.t("render.ls.deck", n=p.get("deck_count", 0)),
                 ctx.t("render.ls.it_unused", n=p.get("it_unused_count", 0))]
        if p.get("shield"):
            parts.append(ctx.t("render.ls.shield", amount=p["shield"]))
        if p.get("caa_used"):
            parts.append(ctx.t("render.ls.caa_used"))
        if avi.get("awakened"):
            parts.append(ctx.t("render.ls.awakened", life=avi.get("awakening_life", "?")))
        where = f" @ {avi['square']}" if avi.get("square") else ""
        lines.append(field(f"{ctx.name(seat)} — {ctx.t('render.ls.avi', name=_name(cards, p.get('avi'), ctx.locale))}"
                           f"{where}", sep.join(parts), locale))
        if p.get("it_used"):
            lines.append("  " + ctx.t("render.ls.it_used", cards=sep.join(card(c) for c in p["it_used"])))
    for placed in (view.get("board") or {}).get("placed") or []:
        lines.append("  " + field(placed.get("square", "?"), ctx.t(
            "render.ls.text.placed", card=card(placed.get("card")), name=ctx.name(placed.get("owner")),
            durability=ctx.t("render.ls.card.durability", n=placed.get("durability", "?"))), locale))
    if view.get("chain"):
        lines.append(ctx.t("render.ls.chain_open"))
        for i, d in enumerate(view["chain"], 1):
            lines.append(f"  {i}. " + field(ctx.name(d.get("seat")), decl(d), locale))
    last = view.get("last")
    if isinstance(last, dict) and last.get("kind"):
        lines.append(field(ctx.t("render.ls.last_title"), _last_headline(last, cards, ctx), locale))
        for ev in last.get("events") or []:
            text = _event_line(ev, cards, ctx) if isinstance(ev, dict) else None
            if text:
                lines.append(f"  · {text}")
    def with_text(cid) -> str:          # a card of one's own, with what it does
        data = cards.get(cid) if isinstance(cards.get(cid), dict) else {}
        text = (data.get("text") or {}) if isinstance(data.get("text"), dict) else {}
        words = text.get(ctx.locale) or text.get("en") or ""
        return "  " + card_with_text(card(cid), words, locale)

    if "hand" in view:
        hand = view.get("hand") or []
        lines.append(heading(ctx.t("render.ls.hand_cards", n=len(hand)), locale) if hand else
                     field(ctx.t("render.ls.hand_cards", n=0), ctx.t("render.ls.hand_empty"), locale))
        lines.extend(with_text(c) for c in hand)
    if "it_unused" in view:
        it = view.get("it_unused") or []
        lines.append(heading(ctx.t("render.ls.it_cards", n=len(it)), locale) if it else
                     field(ctx.t("render.ls.it_cards", n=0), ctx.t("render.ls.it_empty"), locale))
        lines.extend(with_text(c) for c in it)
    pending = view.get("pending")
    if isinstance(pending, dict):
        kind = pending.get("kind")
        if kind == "main" and "board" not in view:
            pass    # a DM (the seat's own part only): the main phase and its AP are on the board
        elif kind == "main":
            text = ctx.t("render.ls.pending.main", ap=pending.get("ap", 0))
            if pending.get("caa_used"):
                text += " · " + ctx.t("render.ls.caa_used")
            lines.append(text)
        elif kind == "discard":
            lines.append(ctx.t("render.ls.pending.discard", count=pending.get("count", 0)))
        elif kind == "chain":
            answering = pending.get("answering")
            if isinstance(answering, dict):
                lines.append(ctx.t("render.ls.answering", name=ctx.name(answering.get("seat")),
                                   card=decl(answering)))
            lines.append(ctx.t("render.ls.pending.chain"))
    if outcome:
        lines.append(_outcome_text(outcome, ctx))
    return "\n".join(lines)
