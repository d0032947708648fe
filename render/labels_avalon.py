"""Avalon's Sanctuary moves in words (see :mod:`render.labels`).

Notation (docs/rules/avalon.md, "Notation"): ``forge <card> <land> [icons]``, ``summon <card>
<land>``, ``magic <card> [target]``, ``use <card>``, ``discard <card>``, ``done`` in the set phase;
``advance <land>``, ``ranged <land> <pNlM>``, ``invade <land>``, ``pass``; ``support <card>`` /
``support avatar`` in a battle.  Lands ``l1``–``l5`` are the player's own ("land 2"); ``p2l3`` is
the land 3 of the player in seat 2, named ("Bob's land 3").  A card's moves share its group, so a
player picks the card first, then what to do with it and where.
"""
from __future__ import annotations

import re

from data import i18n
from render.labels import Choice

EMOJI = {"forge": "🔨", "summon": "✨", "magic": "🪄", "use": "💫", "discard": "🗑️", "done": "✅",
         "advance": "🏰", "ranged": "🏹", "invade": "⚔️", "pass": "✋", "support": "🛡️"}
ICONS = "yrbgcwv"
OTHER_LAND = re.compile(r"^p(\d+)l(\d)$")
OWN_LAND = re.compile(r"^l(\d)$")


def choices(view: dict, seat: int, legal: list[str], locale: str, names: list[str]) -> list[Choice]:
    cards = view.get("cards") or {}
    players = [p for p in view.get("players") or [] if isinstance(p, dict)]

    def t(key: str, **params) -> str:
        return i18n.t(f"labels.avalon.{key}", locale, **params)

    def loc(d) -> str:
        return str(d.get(locale) or d.get("en") or "") if isinstance(d, dict) else str(d or "")

    def name(cid: str) -> str:
        return loc((cards.get(cid) or {}).get("name")) or cid

    def who(s: int) -> str:
        return names[s] if 0 <= s < len(names) and names[s] else t("player", n=s + 1)

    def land_of(s: int, n: int) -> dict:
        p = next((p for p in players if p.get("seat") == s), None)
        lands = (p or {}).get("lands") or []
        return lands[n - 1] if 1 <= n <= len(lands) and isinstance(lands[n - 1], dict) else {}

    def creature(s: int, n: int) -> str:
        cr = land_of(s, n).get("creature")
        if not isinstance(cr, dict):
            return ""
        return t("creature", name=name(str(cr.get("card"))), atk=cr.get("atk", "?"), dur=cr.get("dur", "?"))

    def land(tok: str) -> str:
        m = OWN_LAND.match(tok)
        if m:
            return t("land", n=m.group(1))
        m = OTHER_LAND.match(tok)
        if m:
            s = int(m.group(1)) - 1
            return t("land.own", n=m.group(2)) if s == seat else t("land.other", player=who(s), n=m.group(2))
        return tok

    def target(tok: str) -> tuple[int, int] | None:
        m = OWN_LAND.match(tok)
        if m:
            return seat, int(m.group(1))
        m = OTHER_LAND.match(tok)
        return (int(m.group(1)) - 1, int(m.group(2))) if m else None

    def mana(cid: str) -> str:
        icons = (cards.get(cid) or {}).get("mana") or {}
        parts = [t("mana.n", n=icons[k], colour=t(f"icon.{k}")) for k in ICONS if icons.get(k)]
        return t("mana", icons=t("sep").join(parts)) if parts else ""

    def stats(cid: str) -> str:
        c = cards.get(cid) or {}
        if c.get("category") == "creature":
            return t("stats", atk=c.get("atk", "?"), dur=c.get("dur", "?"), stars="★" * int(c.get("orig") or 0))
        return loc(c.get("text"))

    out: list[Choice] = []
    for command in legal:
        verb, *args = command.split()
        emoji = EMOJI.get(verb, "")
        known = bool(args) and args[0] in cards
        if verb in ("done", "pass") and not args:
            out.append(Choice(command, t(verb), t(f"{verb}.why"), t(verb), emoji))
        elif verb == "forge" and known and len(args) >= 2:
            label = t("forge", card=name(args[0]), land=land(args[1]))
            if len(args) > 2:
                colours = t("sep").join(t(f"icon.{k}") for k in args[2] if k in ICONS)
                label += " " + t("forge.rainbow", colours=colours)
            out.append(Choice(command, label, mana(args[0]), name(args[0]), emoji))
        elif verb == "summon" and known and len(args) == 2:
            out.append(Choice(command, t("summon", card=name(args[0]), land=land(args[1])), stats(args[0]),
                              name(args[0]), emoji))
        elif verb == "magic" and known:
            label = t("magic.on", card=name(args[0]), target=land(args[1])) if len(args) > 1 else t("magic", card=name(args[0]))
            why = ""
            if len(args) > 1 and target(args[1]):
                why = creature(*target(args[1]))
            out.append(Choice(command, label, why or stats(args[0]), name(args[0]), emoji))
        elif verb == "use" and known and len(args) == 1:
            out.append(Choice(command, t("use", card=name(args[0])), stats(args[0]), name(args[0]), emoji))
        elif verb == "discard" and known and len(args) == 1:
            out.append(Choice(command, t("discard", card=name(args[0])), stats(args[0]), t("discard.group"), emoji))
        elif verb in ("advance", "invade") and len(args) == 1 and target(args[0]):
            out.append(Choice(command, t(verb, land=land(args[0])), creature(*target(args[0])), t(f"{verb}.group"),
                              emoji))
        elif verb == "ranged" and len(args) == 2 and target(args[0]) and target(args[1]):
            mine, theirs = creature(*target(args[0])), creature(*target(args[1]))
            out.append(Choice(command, t("ranged", land=land(args[0]), target=land(args[1])),
                              t("ranged.why", mine=mine or "?", theirs=theirs or "?"), t("ranged.group"), emoji))
        elif verb == "support" and not args:      # the public log: the choice stays secret
            out.append(Choice(command, t("support.hidden"), "", t("support.group"), emoji))
        elif verb == "support" and len(args) == 1:
            if args[0] in ("avatar", "none"):
                out.append(Choice(command, t("support.avatar"), t("support.avatar_why"), t("support.group"), emoji))
            else:
                out.append(Choice(command, t("support", card=name(args[0])), stats(args[0]), t("support.group"), emoji))
        else:
            out.append(Choice(command, t("other", command=command), "", t("other.group"), ""))
    return out
