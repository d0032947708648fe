"""Art of War moves in words (see :mod:`render.labels`).

Notation (docs/rules/art_of_war.md, "Notation"): ``keep`` / ``mulligan``; ``setup s b2 g`` (a
unit to a square, another to the waiting area); the arrange actions ``deploy b1``, ``exchange
b2``, ``move a2 c2``, ``play s b2``, ``swap b2 w``; ``attack b2 b3``; rear supports ``support s``,
``support a b3``, ``support p a2 c2`` (``support k …`` when the KING declares one); the answers
``support g`` / ``support w`` / ``pass``; ``immigrate s``; ``draft b3`` / ``draft s b3``; ``end``.
Units are named as printed (SOLDIER, ARCHER, …, the KING's own name); an attack says its
attack against the target's defence.
"""
from __future__ import annotations

from data import i18n
from render.labels import Choice

EMOJI = {"keep": "✅", "mulligan": "🔄", "setup": "📥", "deploy": "📥", "exchange": "🔄", "move": "➡️",
         "play": "🃏", "swap": "🔄", "attack": "⚔️", "support": "🛡️", "pass": "✋", "immigrate": "🏰",
         "draft": "📯", "end": "⏭️"}
CODES = "kspgw" + "a"
SUPPORT_EFFECT = {"s": "soldier", "a": "archer", "p": "priest", "g": "guardian", "w": "wizard"}


def _is_square(tok: str) -> bool:
    return len(tok) == 2 and tok[0] in "abc" and tok[1] in "1234"


def choices(view: dict, seat: int, legal: list[str], locale: str, names: list[str]) -> list[Choice]:
    units = view.get("units") or {}
    kings = view.get("kings") or []
    field = {u.get("square"): u for u in view.get("field") or [] if isinstance(u, dict)}
    players = view.get("players") or []
    me = players[seat] if 0 <= seat < len(players) and isinstance(players[seat], dict) else {}
    waiting = list(me.get("waiting") or [])

    def t(key: str, **params) -> str:
        return i18n.t(f"labels.art_of_war.{key}", locale, **params)

    def loc(d) -> str:
        return str(d.get(locale) or d.get("en") or "") if isinstance(d, dict) else str(d or "")

    def card(code: str, owner: int = seat) -> str:
        if code == "k":
            king = kings[owner] if 0 <= owner < len(kings) and isinstance(kings[owner], dict) else {}
            return loc(king.get("name")) or i18n.t("art_of_war.card.k", locale)
        unit = units.get(code)
        if isinstance(unit, dict) and unit.get("name"):
            return loc(unit["name"])
        return i18n.t(f"art_of_war.card.{code}", locale)

    def at(square: str) -> str:
        u = field.get(square)
        return card(str(u.get("card")), int(u.get("owner", seat))) if u else ""

    def unit_at(square: str) -> str:
        return t("unit_at", unit=at(square), square=square) if field.get(square) else square

    out: list[Choice] = []
    for command in legal:
        verb, *args = command.split()
        emoji = EMOJI.get(verb, "")
        sq = [a for a in args if _is_square(a)]
        if verb in ("keep", "mulligan", "end", "pass") and not args:
            out.append(Choice(command, t(verb), t(f"{verb}.why"), t(verb), emoji))
        elif verb == "setup" and len(args) == 3:
            unit, square, wait = args
            out.append(Choice(command, t("setup", unit=card(unit), square=square, wait=card(wait)), t("setup.why"),
                              t("setup.group", unit=card(unit)), emoji))
        elif verb == "deploy" and len(args) == 1:
            front = card(waiting[0]) if waiting else t("front")
            out.append(Choice(command, t("deploy", unit=front, square=args[0]), t("deploy.why"),
                              t("deploy.group", unit=front), emoji))
        elif verb == "exchange" and len(args) == 1:
            front = card(waiting[0]) if waiting else t("front")
            out.append(Choice(command, t("exchange", unit=unit_at(args[0]), front=front), t("exchange.why"),
                              t("exchange.group"), emoji))
        elif verb == "move" and len(sq) == 2:
            a, b = sq
            why = t("move.swap", other=at(b)) if field.get(b) else ""
            out.append(Choice(command, t("move", unit=at(a) or a, frm=a, to=b), why,
                              t("group", unit=at(a) or a, square=a), emoji))
        elif verb == "play" and len(args) == 2:
            out.append(Choice(command, t("play", unit=card(args[0]), square=args[1]), t("play.why"),
                              t("play.group", unit=card(args[0])), emoji))
        elif verb == "swap" and len(args) == 2:
            out.append(Choice(command, t("swap", unit=unit_at(args[0]), hand=card(args[1])), t("swap.why"),
                              t("swap.group"), emoji))
        elif verb == "attack" and len(sq) == 2:
            a, b = sq
            mine, target = field.get(a) or {}, field.get(b) or {}
            atk = mine.get("attack")
            atk = t("atk_hand") if atk == "hand" else atk
            why = t("attack.why", atk=atk, dfc=target.get("defence", "?")) if mine and target else ""
            out.append(Choice(command, t("attack", unit=at(a) or a, frm=a, target=at(b) or b, to=b), why,
                              t("group", unit=at(a) or a, square=a), emoji))
        elif verb == "support" and args:
            by_king = args[0] == "k" and len(args) > 1
            effect = args[1] if by_king else args[0]
            rest = args[2:] if by_king else args[1:]
            what = t(f"support.{SUPPORT_EFFECT.get(effect, 'other')}", unit=card(effect), squares=" → ".join(rest),
                     target=at(rest[0]) if rest and field.get(rest[0]) else (rest[0] if rest else ""))
            if effect in ("g", "w"):
                label = t("answer.king" if by_king else "answer", unit=card(effect), king=card("k"))
                out.append(Choice(command, label, what, t("answer.group"), emoji))
            else:
                label = t("support.king" if by_king else "support", unit=card(effect), king=card("k"))
                out.append(Choice(command, t("support.at", label=label, squares=" → ".join(rest)) if rest else label, what,
                                  t("support.group"), emoji))
        elif verb == "immigrate" and len(args) == 1:
            out.append(Choice(command, t("immigrate", unit=card(args[0])), t("immigrate.why"), t("immigrate.group"),
                              emoji))
        elif verb == "draft" and args:
            if len(args) == 2:
                label = t("draft.unit", unit=card(args[0]), square=args[1])
            else:
                label = t("draft", square=args[0])
            out.append(Choice(command, label, t("draft.why"), t("draft.group"), emoji))
        else:
            out.append(Choice(command, t("other", command=command), "", t("other.group"), ""))
    return out
