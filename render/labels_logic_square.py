"""Battle Logic Square moves in words (see :mod:`render.labels`).

Notation (docs/rules/logic_square.md, "Notation"): ``move c2`` moves the AVI (1 AP), ``use ac01``
/ ``use sc03 d2`` uses a hand card (onto a square when it places or moves), ``it it01 ac01 ac02``
uses an IT card paying its build cards, ``avi 1`` / ``avi 1 c3`` an AVI ability, ``caa …`` trashes
1–3 cards to draw twice as many, ``end`` ends the main phase, ``chain ac11`` / ``pass`` answer a
chain, ``discard sc02`` discards in the end phase.  Cards are named by their printed names from the
view's ``cards``; what a card does is its own text.
"""
from __future__ import annotations

from data import i18n
from render.labels import Choice

EMOJI = {"move": "➡️", "use": "🃏", "it": "💾", "avi": "⚡", "caa": "♻️", "end": "⏭️",
         "chain": "🔗", "pass": "✋", "discard": "🗑️"}


def _name(view: dict, card: str, locale: str) -> str:
    d = (view.get("cards") or {}).get(card) or {}
    name = d.get("name")
    if isinstance(name, dict):
        return str(name.get(locale) or name.get("en") or card)
    return str(name or card)


def _text(d: dict, locale: str) -> str:
    text = d.get("text")
    if isinstance(text, dict):
        return str(text.get(locale) or text.get("en") or "")
    return str(text or "")


def _own_avi(view: dict, seat: int) -> dict:
    for a in (view.get("board") or {}).get("avis") or []:
        if isinstance(a, dict) and a.get("seat") == seat:
            return a
    return {}


def choices(view: dict, seat: int, legal: list[str], locale: str, names: list[str]) -> list[Choice]:
    cards = view.get("cards") or {}
    avi = _own_avi(view, seat)
    avi_card = str(avi.get("card") or "")
    avi_name = _name(view, avi_card, locale) if avi_card else i18n.t("labels.logic_square.your_avi", locale)

    def t(key: str, **params) -> str:
        return i18n.t(f"labels.logic_square.{key}", locale, **params)

    def name(card: str) -> str:
        return _name(view, card, locale)

    def effect(card: str) -> str:
        d = cards.get(card) or {}
        if d.get("damage"):
            return t("hit", damage=d["damage"])
        return _text(d, locale)

    def listing(ids: list[str]) -> str:
        return t("sep").join(name(c) for c in ids)

    answering = ((view.get("pending") or {}).get("answering") or {}) if isinstance(view.get("pending"), dict) else {}
    out: list[Choice] = []
    for command in legal:
        verb, *args = command.split()
        emoji = EMOJI.get(verb, "")
        if verb == "move" and len(args) == 1:
            out.append(Choice(command, t("move", avi=avi_name, frm=avi.get("square", "?"), to=args[0]),
                              t("move.why"), t("move.group", avi=avi_name), emoji))
        elif verb == "use" and args:
            card = args[0]
            cost = (cards.get(card) or {}).get("cost") or 1
            why = t("cost", ap=cost, what=effect(card))
            label = t("use.on", card=name(card), to=args[1]) if len(args) > 1 else t("use", card=name(card))
            out.append(Choice(command, label, why, t("use.group", card=name(card)), emoji))
        elif verb == "it" and args:
            it_card, rest = args[0], args[1:]
            square = rest[0] if rest and rest[0] not in cards and len(rest[0]) == 2 and rest[0][1].isdigit() else ""
            build = [c for c in rest if c != square]
            paid = t("it.pay", cards=listing(build)) if build else t("it.free")
            label = t("it.on", card=name(it_card), to=square) if square else t("it", card=name(it_card))
            out.append(Choice(command, t("it.full", it=label, paid=paid),
                              _text(cards.get(it_card) or {}, locale), t("it.group", card=name(it_card)), emoji))
        elif verb == "avi" and args:
            ability = _ability(cards.get(avi_card) or {}, args[0])
            ab_name = _text({"text": ability.get("name")}, locale) if ability else ""
            ab_name = ab_name or t("avi.nth", n=args[0])
            label = t("avi.on", ability=ab_name, to=args[1]) if len(args) > 1 else t("avi", ability=ab_name)
            why = t("cost", ap=ability.get("cost", "?"), what=_text(ability, locale)) if ability else ""
            out.append(Choice(command, label, why, t("avi.group", avi=avi_name), emoji))
        elif verb == "caa" and args:
            out.append(Choice(command, t("caa", cards=listing(args)), t("caa.why", n=2 * len(args)),
                              t("caa.group", n=len(args), draw=2 * len(args)), emoji))
        elif verb == "end" and not args:
            out.append(Choice(command, t("end"), t("end.why"), t("end"), emoji))
        elif verb == "chain" and args:
            card = args[0]
            label = t("chain.on", card=name(card), to=args[1]) if len(args) > 1 else t("chain", card=name(card))
            against = answering.get("card")
            why = t("chain.why", other=name(str(against))) if against else effect(card)
            out.append(Choice(command, label, why, t("chain.group"), emoji))
        elif verb == "pass" and not args:
            against = answering.get("card")
            why = t("pass.why", other=name(str(against))) if against else t("pass.why_any")
            out.append(Choice(command, t("pass"), why, t("pass"), emoji))
        elif verb == "discard" and len(args) == 1:
            out.append(Choice(command, t("discard", card=name(args[0])), effect(args[0]), t("discard.group"), emoji))
        else:
            out.append(Choice(command, t("other", command=command), "", t("other.group"), ""))
    return out


def _ability(avi_def: dict, number: str) -> dict:
    abilities = avi_def.get("abilities") or []
    try:
        k = int(number) - 1
    except ValueError:
        return {}
    return abilities[k] if 0 <= k < len(abilities) and isinstance(abilities[k], dict) else {}
