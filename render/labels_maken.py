"""Project Maken moves in words (see :mod:`render.labels`).

Notation (docs/rules/maken.md, "Notation"): ``ready`` / ``mulligan`` at the opening, ``draw 2``,
``set ts12`` / ``use ts12`` (support cards), ``fb ts05 [double spd]`` (first bet), ``skip``,
``attack ts02 [double atk | triple atk grd]``, ``guard stand ts03 ts01`` (type, then the cards,
the first on top), ``keep``, ``keep ts01``, ``keep crouch ts01 ts02`` (after a flush), ``gc``,
``call``, ``break``, ``bonus ts05`` / ``pass`` (judge) and ``end``.  Cards are named by their
printed names from the view's ``cards``; an attack card's label carries its speed, reach and
attack so a player can choose without opening the picture.
"""
from __future__ import annotations

from data import i18n
from render.labels import Choice

EMOJI = {"ready": "✅", "mulligan": "🔄", "draw": "🃏", "set": "📥", "use": "✨", "fb": "⚔️", "skip": "⏭️",
         "attack": "⚔️", "guard": "🛡️", "keep": "🛡️", "gc": "💥", "call": "📣", "break": "💔",
         "bonus": "➕", "pass": "✋", "end": "⏭️"}
POSTURES = ("stand", "crouch", "air")
BONUSES = ("atk", "spd", "grd")


def choices(view: dict, seat: int, legal: list[str], locale: str, names: list[str]) -> list[Choice]:
    cards = view.get("cards") or {}

    def t(key: str, **params) -> str:
        return i18n.t(f"labels.maken.{key}", locale, **params)

    def name(cid: str) -> str:
        if cid == "?":                      # a face-down card, as the public log shows it
            return t("facedown")
        c = cards.get(cid) or {}
        n = c.get("name")
        if isinstance(n, dict):
            return str(n.get(locale) or n.get("en") or cid)
        return str(n or cid)

    def names_of(ids: list[str]) -> str:
        if ids and all(c == "?" for c in ids):
            return t("facedown.n", n=len(ids))
        return t("sep").join(name(c) for c in ids)

    def stats(cid: str) -> str:
        c = cards.get(cid) or {}
        if c.get("kind") == "support" or "speed" not in c:
            text = c.get("text")
            return str(text.get(locale) or text.get("en") or "") if isinstance(text, dict) else ""
        front, back = c.get("front"), c.get("back")
        reach = str(front) if front == back else f"{front}/{back}"
        posture = i18n.t(f"maken.posture.{c.get('posture', 'stand')}", locale)
        return t("stats", spd=c.get("speed", "?"), rch=reach, atk=c.get("attack", "?"), grd=c.get("guard", "?"),
                 posture=posture)

    def extra(args: list[str]) -> str:
        """``double spd`` → "double: +1 speed"; ``triple atk grd`` → "triple: +1 attack, +1 guard…"."""
        if not args or args[0] not in ("double", "triple"):
            return ""
        bonus = t("sep").join(i18n.t(f"maken.bonus.{b}", locale) for b in args[1:] if b in BONUSES)
        return t(args[0], bonus=bonus)

    out: list[Choice] = []
    for command in legal:
        verb, *args = command.split()
        emoji = EMOJI.get(verb, "")
        card = args[0] if args and (args[0] in cards or args[0] == "?") else None
        if verb in ("ready", "mulligan", "skip", "gc", "call", "break", "end", "pass") and not args:
            out.append(Choice(command, t(verb), t(f"{verb}.why"), t(verb), emoji))
        elif verb == "draw" and len(args) == 1:
            out.append(Choice(command, t("draw", n=args[0]), t("draw.why"), t("draw.group"), emoji))
        elif verb in ("set", "use", "bonus") and card and len(args) == 1:
            why = stats(card)
            out.append(Choice(command, t(verb + ".card", card=name(card)), why, t(verb + ".group"), emoji))
        elif verb in ("fb", "attack") and card:
            more = extra(args[1:])
            label = t(verb + ".card", card=name(card))
            label = t("extra", label=label, more=more) if more else label
            out.append(Choice(command, label, stats(card), name(card), emoji))
        elif verb == "guard" and len(args) >= 2 and args[0] in POSTURES:
            kind = i18n.t(f"maken.posture.{args[0]}", locale)
            ids = args[1:]
            why = t("guard.why", top=name(ids[0]), n=len(ids)) if ids[0] != "?" else ""
            out.append(Choice(command, t("guard", kind=kind, cards=names_of(ids)), why,
                              t("guard.group", kind=kind, top=name(ids[0])), emoji))
        elif verb == "keep" and args and args[0] in POSTURES:
            kind = i18n.t(f"maken.posture.{args[0]}", locale)
            ids = args[1:]
            out.append(Choice(command, t("keep.reguard", kind=kind, cards=names_of(ids)),
                              t("guard.why", top=name(ids[0]), n=len(ids)) if ids and ids[0] != "?" else "",
                              t("keep.reguard_group", kind=kind), emoji))
        elif verb == "keep":
            if not args:
                out.append(Choice(command, t("keep"), t("keep.why"), t("keep.group"), emoji))
            else:
                out.append(Choice(command, t("keep.add", cards=names_of(args)),
                                  t("keep.add_why", top=name(args[0])) if args[0] != "?" else "", t("keep.group"), emoji))
        else:
            out.append(Choice(command, t("other", command=command), "", t("other.group"), ""))
    return out
