"""Battle Logic Square in words, from ``game.view(state, seat)`` only: card names, the phase, a
declaration, an event, the last action's headline and the outcome.  The board picture, the hand
picture (``render/logic_square_hand.py``), the text view (``render/logic_square_text.py``) and
the narration (``render/narrate.py``) say them alike.
"""
from __future__ import annotations

from data import i18n
from render.base import Ctx


def _t(key: str, locale: str, **params) -> str:
    return i18n.t(key, locale, **params)


def _name(cards: dict, cid, locale: str) -> str:
    card = cards.get(cid) if isinstance(cid, str) else None
    if not isinstance(card, dict):
        return str(cid or "?")
    names = card.get("name") or {}
    return str(names.get(locale) or names.get("en") or cid)


def _loc(d, locale: str) -> str:
    if isinstance(d, dict):
        return str(d.get(locale) or d.get("en") or "")
    return str(d or "")


def _players(view: dict) -> dict[int, dict]:
    return {p.get("seat"): p for p in view.get("players") or [] if isinstance(p, dict)}


def _avis(view: dict) -> dict[int, dict]:
    board = view.get("board") or {}
    return {a.get("seat"): a for a in board.get("avis") or [] if isinstance(a, dict)}


def _phase_text(view: dict, ctx: Ctx) -> str:
    phase = view.get("phase")
    if not phase:
        return ""
    key = f"render.ls.phase.{phase}"
    text = ctx.t(key)
    return "  ·  " + (str(phase) if text == key else text)


def _decl_line(decl: dict, cards: dict, locale: str) -> str:
    cid = decl.get("card")
    text = _name(cards, cid, locale)
    card = cards.get(cid) or {}
    if card.get("cb"):
        text = i18n.t("render.ls.text.decl_cb", locale, decl=text)
    if decl.get("source") == "it":
        text = "IT " + text
    if decl.get("target"):
        text += f" → {decl['target']}"
    return text
# what a resolving card can do that the table tells (each has a line in _event_line)
EFFECTS = frozenset({"damage", "destroyed", "place", "move", "fizzle", "heal", "draw", "trash", "ap", "shield"})


def quiet_resolves(events: list) -> set[int]:
    """The positions in ``events`` of the "resolve" events whose card did nothing: no effect of
    its own (a heal of 0 is none) before the next card resolves or the turn passes.  The
    picture and the narration (render/narrate.py) both say such a card missed — nothing in its
    range, or no effect — and decide it here, once."""
    quiet: set[int] = set()
    open_: int | None = None
    for i, ev in enumerate(events):
        kind = ev.get("type") if isinstance(ev, dict) else None
        if kind == "resolve" or kind in ("turn", "over"):
            if open_ is not None:
                quiet.add(open_)
            open_ = i if kind == "resolve" else None
        elif kind in EFFECTS and not (kind == "heal" and not ev.get("amount")):
            open_ = None
    if open_ is not None:
        quiet.add(open_)
    return quiet


def _event_line(ev: dict, cards: dict, ctx: Ctx) -> str | None:
    kind = ev.get("type")
    seat = ev.get("seat")
    who = ctx.name(seat) if isinstance(seat, int) else "?"
    card = lambda key="card": _name(cards, ev.get(key), ctx.locale)  # noqa: E731
    if kind == "resolve":
        return ctx.t("render.ls.ev.resolve", card=card())
    if kind == "damage":
        if ev.get("target") == "avi":
            return ctx.t("render.ls.ev.damage_avi", name=who, amount=ev.get("amount", 0),
                         square=ev.get("square", "?"))
        return ctx.t("render.ls.ev.damage_placed", card=card("placed"), amount=ev.get("amount", 0),
                     square=ev.get("square", "?"))
    if kind == "destroyed":
        return ctx.t("render.ls.ev.destroyed", card=card(), square=ev.get("square", "?"))
    if kind == "place":
        return ctx.t("render.ls.ev.place", card=card(), square=ev.get("square", "?"))
    if kind == "move":
        return ctx.t("render.ls.ev.move", name=who, frm=ev.get("from", "?"), to=ev.get("to", "?"))
    if kind == "fizzle":
        return ctx.t("render.ls.ev.fizzle", card=card())
    if kind == "heal":
        return ctx.t("render.ls.ev.heal", name=who, amount=ev.get("amount", 0))
    if kind == "draw":
        return ctx.t("render.ls.ev.draw", name=who, count=ev.get("count", 0))
    if kind == "trash":
        src = ctx.t(f"render.ls.from.{ev.get('from')}")
        names = ctx.t("core.list_sep").join(_name(cards, c, ctx.locale) for c in ev.get("cards") or [])
        return ctx.t("render.ls.ev.trash", name=who, cards=names or "-", source=src)
    if kind == "ap":
        key = "render.ls.ev.ap_banked" if ev.get("banked") else "render.ls.ev.ap"
        return ctx.t(key, name=who, amount=f"{int(ev.get('amount') or 0):+d}")
    if kind == "shield":
        return ctx.t("render.ls.ev.shield", name=who, amount=ev.get("amount", 0))
    if kind == "turn":
        return ctx.t("render.ls.ev.turn", name=who, turn=ev.get("turn", "?"))
    return None


def _last_headline(last: dict, cards: dict, ctx: Ctx) -> str:
    kind = str(last.get("kind") or "")
    seat = last.get("seat")
    who = ctx.name(seat) if isinstance(seat, int) else ""
    name = lambda cid: _name(cards, cid, ctx.locale)  # noqa: E731
    if kind == "start":
        return ctx.t("render.ls.last.start")
    if kind == "move":
        return ctx.t("render.ls.last.move", name=who, frm=last.get("from", "?"), to=last.get("to", "?"))
    if kind in ("use", "it"):
        return ctx.t(f"render.ls.last.{kind}", name=who, card=name(last.get("card")))
    if kind == "avi":
        abil = ((cards.get(last.get("card")) or {}).get("abilities") or [])
        n = last.get("ability")
        label = str(n)
        if isinstance(n, int) and 1 <= n <= len(abil):
            label = _loc(abil[n - 1].get("name"), ctx.locale) or label
        return ctx.t("render.ls.last.avi", name=who, ability=label, cost=last.get("cost", "?"))
    if kind == "caa":
        return ctx.t("render.ls.last.caa", name=who,
                     cards=ctx.t("core.list_sep").join(name(c) for c in last.get("cards") or []))
    if kind == "end":
        return ctx.t("render.ls.last.end", name=who)
    if kind == "discard":
        return ctx.t("render.ls.last.discard", name=who, card=name(last.get("card")))
    return ctx.t("render.ls.last.other", name=who, command=str(last.get("command") or kind))


def _outcome_text(outcome: dict, ctx: Ctx) -> str:
    head, reason = ctx.outcome_text(outcome)
    code = str(outcome.get("reason") or "")
    if code:
        key = f"render.ls.reason.{code}"
        text = ctx.t(key)
        if text != key:
            reason = text
    return f"★ {head}" + (f"  —  {reason}" if reason else "")
