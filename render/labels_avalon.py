"""Avalon's Sanctuary moves in words (see :mod:`render.labels`).

Notation (docs/rules/avalon.md, "Notation"): ``forge <card> <land> [icons]``, ``summon <card>
<land>``, ``magic <card> [target]``, ``use <card>``, ``discard <card>``, ``done`` in the set phase;
``advance <land>``, ``ranged <land> <pNlM>``, ``invade <land>``, ``pass``; ``support <card>`` /
``support avatar`` in a battle.  Lands ``l1``–``l5`` are the player's own ("land 2"); ``p2l3`` is
the land 3 of the player in seat 2, named ("Bob's land 3").

Labels name the card and where it goes ("Summon Halo Warden on land 1"), battles name both
creatures ("Ranged: Halo Warden → Bob's Cinder Pup"); descriptions say the consequence in short
(mana added and what the land holds, attack/durability and keywords, the effect of a magic or
battle support card on its target).  Groups: a card's set-phase moves share the card's name, a
ranged battle is grouped by the creature that fights it (at most 15 targets each), the rest by the
kind of decision (discard, advance, invade, battle support, done, pass).

Every text comes from the ``labels.avalon.*`` catalog keys (en/ja); card names and the card data
(``view["cards"]``) come from the view.
"""
from __future__ import annotations

import re

from data import i18n
from render.labels import Choice

EMOJI = {"forge": "🔨", "summon": "✨", "magic": "🪄", "use": "💫", "discard": "🗑️", "done": "✅",
         "advance": "🏰", "ranged": "🏹", "invade": "⚔️", "pass": "✋", "support": "🛡️"}
ICONS = "yrbgcwv"                       # the order of the card texts (rules/avalon/cards.py)
KEYWORDS = ("first", "last", "evade", "evade_null", "death", "death_null", "reflect",
            "reflect_null", "counter")
TIMINGS = ("on_forge", "while_forged", "battle_start", "on_win", "on_loss", "battle_end",
           "in_hand", "as_proof")
EFFECTS = ("draw", "life", "atk", "target_minus")
SUPPORTS = ("weapon_replace", "informant", "chaos_panic", "poison_mist", "fingertips")
MAGIC = ("draw", "life", "destroy", "surge", "scatter", "empower", "prism", "recycle", "focus")
OTHER_LAND = re.compile(r"^p(\d+)l(\d)$")
OWN_LAND = re.compile(r"^l(\d)$")
CARD_ID = re.compile(r"^[csma]\d{1,3}$")           # a card the view does not define: "card c99"


def _int(v, default: int = 0) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def choices(view: dict, seat: int, legal: list[str], locale: str, names: list[str]) -> list[Choice]:
    cards = view.get("cards") or {}
    players = [p for p in view.get("players") or [] if isinstance(p, dict)]
    step = view.get("step")

    def t(key: str, **params) -> str:
        return i18n.t(f"labels.avalon.{key}", locale, **params)

    def join(parts, sep: str = "dot") -> str:
        return t(sep).join(p for p in parts if p)

    def card(cid: str) -> dict:
        c = cards.get(cid)
        return c if isinstance(c, dict) else {}

    def loc(d) -> str:
        return str(d.get(locale) or d.get("en") or "") if isinstance(d, dict) else str(d or "")

    def name(cid: str) -> str:
        return loc(card(cid).get("name")) or t("card", id=cid)

    def who(s: int) -> str:
        return names[s] if 0 <= s < len(names) and names[s] else t("player", n=s + 1)

    # ------------------------------------------------------------------ lands and creatures
    def where(tok: str) -> tuple[int, int] | None:
        """(seat, land number 1–5) of a land token, or None."""
        m = OWN_LAND.match(tok)
        if m:
            return seat, int(m.group(1))
        m = OTHER_LAND.match(tok)
        return (int(m.group(1)) - 1, int(m.group(2))) if m else None

    def land_of(s: int, n: int) -> dict:
        p = next((p for p in players if p.get("seat") == s), None)
        lands = (p or {}).get("lands") or []
        return lands[n - 1] if 1 <= n <= len(lands) and isinstance(lands[n - 1], dict) else {}

    def land(tok: str) -> str:
        at = where(tok)
        if at is None:
            return t("land.unknown")
        s, n = at
        if OWN_LAND.match(tok):
            return t("land", n=n)
        return t("land.own", n=n) if s == seat else t("land.other", player=who(s), n=n)

    def creature_at(at: tuple[int, int] | None) -> dict:
        cr = land_of(*at).get("creature") if at else None
        return cr if isinstance(cr, dict) else {}

    def keywords(kws) -> str:
        return t("sep").join(t(f"kw.{k}") for k in kws or [] if k in KEYWORDS)

    def fighter(cr: dict, with_name: bool = True) -> str:
        """A creature on the board: "Halo Warden 3/4 (Reflect)"."""
        stats = t("stats", atk=cr.get("atk", 0), dur=cr.get("dur", 0))
        kws = keywords(cr.get("keywords"))
        text = t("creature", name=name(str(cr.get("card"))), stats=stats) if with_name else stats
        return t("with_kw", text=text, kws=kws) if kws else text

    def icon_list(icons: dict) -> str:
        return t("sep").join(t("mana.n", n=icons[k], colour=t(f"icon.{k}"))
                             for k in ICONS if isinstance(icons, dict) and _int(icons.get(k)) > 0)

    # ------------------------------------------------------------------ card effects in short
    def effect(eff) -> str:
        if not isinstance(eff, dict) or not eff:
            return ""
        k, n = next(iter(eff.items()))
        return t(f"eff.{k}", n=n) if k in EFFECTS else ""

    def support_effect(sup) -> str:
        if not isinstance(sup, dict):
            return ""
        kind = sup.get("kind")
        if kind in SUPPORTS:
            return t(f"sup.{kind}")
        if kind == "stat":
            parts = []
            if _int(sup.get("atk")):
                parts.append(t("sup.atk", n=f"{_int(sup.get('atk')):+d}"))
            if _int(sup.get("dur")):
                parts.append(t("sup.dur", n=f"{_int(sup.get('dur')):+d}"))
            return join(parts, "sep")
        if kind == "grant" and sup.get("kw") in KEYWORDS:
            return t("sup.grant", kw=t(f"kw.{sup['kw']}"))
        return ""

    def magic_effect(c: dict, target: str | None = None) -> str:
        eff = c.get("magic") if isinstance(c.get("magic"), dict) else {}
        kind = eff.get("kind")
        if kind not in MAGIC:
            return loc(c.get("text"))
        at = where(target) if target else None
        cr = creature_at(at)
        if kind == "draw":
            return t("mag.draw", n=eff.get("n", 2))
        if kind == "focus":
            return t("mag.focus", n=eff.get("n", 3))
        if kind == "destroy":
            return t("mag.destroy", creature=fighter(cr)) if cr else t("mag.destroy.any", n=eff.get("max_orig", 2))
        if kind == "empower":
            return (t("mag.empower", creature=fighter(cr), n=eff.get("atk", 1)) if cr
                    else t("mag.empower.any", n=eff.get("atk", 1)))
        if kind == "prism" and at:
            mana = land_of(*at).get("mana") or []
            top = mana[-1].get("icons") if mana and isinstance(mana[-1], dict) else {}
            icons = icon_list(top or {})
            return t("mag.prism.top", icons=icons) if icons else t("mag.prism")
        if kind == "surge" and at:
            return t("mag.surge.here", where=holds(land_of(*at)))
        return t(f"mag.{kind}")

    def abilities(c: dict) -> list[str]:
        """A creature's abilities in short: keywords, while deployed, battle, timed, support."""
        out = [keywords(c.get("keywords"))]
        if _int(c.get("target_minus")):
            out.append(t("ability", timing=t("timing.deployed"), effect=t("eff.target_minus", n=c["target_minus"])))
        b = c.get("battle")
        if isinstance(b, dict) and b.get("when") in ("invade", "defend", "any"):
            parts = []
            if _int(b.get("atk")):
                parts.append(t("sup.atk", n=f"{_int(b.get('atk')):+d}"))
            if _int(b.get("dur")):
                parts.append(t("sup.dur", n=f"{_int(b.get('dur')):+d}"))
            if parts:
                out.append(t(f"battle.{b['when']}", stats=join(parts, "sep")))
        if isinstance(c.get("on_summon"), dict) and c["on_summon"].get("draw"):
            out.append(t("ability", timing=t("timing.on_summon"), effect=t("eff.draw", n=c["on_summon"]["draw"])))
        for timing in TIMINGS:
            e = effect(c.get(timing))
            if e:
                out.append(t("ability", timing=t(f"timing.{timing}"), effect=e))
        if c.get("ninja"):
            out.append(t("ninja"))
        if c.get("support"):
            e = support_effect(c["support"])
            if e:
                out.append(t("support.ability", effect=e))
        return out

    def stars(c: dict) -> str:
        return "★" * max(0, min(5, _int(c.get("orig"))))

    def creature_card(c: dict) -> str:
        return t("stats.card", stats=t("stats", atk=c.get("atk", 0), dur=c.get("dur", 0)), stars=stars(c))

    def brief(cid: str) -> str:
        """What a card in hand does, for discarding it."""
        c = card(cid)
        cat = c.get("category")
        if cat == "creature":
            return join([t("kind.creature", text=creature_card(c))] + abilities(c))
        if cat == "support":
            return t("kind.support", text=support_effect(c.get("support")) or loc(c.get("text")))
        if cat == "magic":
            return t("kind.magic", text=magic_effect(c))
        return loc(c.get("text"))

    def holds(ld: dict) -> str:
        icons = icon_list(ld.get("icons") or {})
        return t("land.holds", icons=icons) if icons else t("land.empty")

    # ------------------------------------------------------------------ one command
    def describe(command: str) -> Choice | None:
        verb, *args = command.split()
        emoji = EMOJI.get(verb, "")
        known = bool(args) and (args[0] in cards or bool(CARD_ID.match(args[0])))
        if verb == "done" and not args:
            return Choice(command, t("done"), t("done.why"), t("done"), emoji)
        if verb == "pass" and not args:
            why = t("pass.main") if step == "main" else t("pass.declare") if step == "declare" else t("pass.why")
            return Choice(command, t("pass"), why, t("pass"), emoji)
        if verb == "forge" and known and len(args) in (2, 3) and where(args[1]):
            c = card(args[0])
            if len(args) == 3:
                turned = {k: args[2].count(k) for k in ICONS if k in args[2]}
                label = t("forge.vessel", card=name(args[0]), land=land(args[1]), icons=icon_list(turned))
            else:
                label = t("forge", card=name(args[0]), land=land(args[1]))
            added = icon_list(c.get("mana") or {})
            why = t("forge.why", mana=added, where=holds(land_of(*where(args[1])))) if added \
                else t("forge.none", where=holds(land_of(*where(args[1]))))
            timed = [t("ability", timing=t(f"timing.{k}"), effect=effect(c.get(k)))
                     for k in ("on_forge", "while_forged") if effect(c.get(k))]
            return Choice(command, label, join([why] + timed) if c else "", name(args[0]), emoji)
        if verb == "summon" and known and len(args) == 2 and where(args[1]):
            c = card(args[0])
            under = len(land_of(*where(args[1])).get("mana") or [])
            why = join([creature_card(c), t("summon.mana.one" if under == 1 else "summon.mana", n=under)]
                       + abilities(c)) if c else ""
            return Choice(command, t("summon", card=name(args[0]), land=land(args[1])), why, name(args[0]), emoji)
        if verb == "magic" and known and len(args) in (1, 2):
            c = card(args[0])
            if len(args) == 2:
                if not where(args[1]):
                    return None
                label = t("magic.on", card=name(args[0]), target=land(args[1]))
            else:
                label = t("magic", card=name(args[0]))
            return Choice(command, label, magic_effect(c, args[1] if len(args) == 2 else None), name(args[0]), emoji)
        if verb == "use" and known and len(args) == 1:
            e = effect(card(args[0]).get("in_hand"))
            return Choice(command, t("use", card=name(args[0])), t("use.why", effect=e) if e else "",
                          name(args[0]), emoji)
        if verb == "discard" and known and len(args) == 1:
            return Choice(command, t("discard", card=name(args[0])), brief(args[0]), t("discard.group"), emoji)
        if verb == "advance" and len(args) == 1 and creature_at(where(args[0])):
            at = where(args[0])
            cr = creature_at(at)
            n = len(land_of(*at).get("mana") or [])
            why = t("advance.why.one" if n == 1 else "advance.why", stats=fighter(cr, with_name=False), n=n)
            return Choice(command, t("advance", card=name(str(cr.get("card"))), land=land(args[0])), why,
                          t("advance.group"), emoji)
        if verb == "invade" and len(args) == 1 and creature_at(where(args[0])):
            cr = creature_at(where(args[0]))
            sanct = view.get("sanctuary") if isinstance(view.get("sanctuary"), dict) else {}
            foe = sanct.get("creature") if isinstance(sanct.get("creature"), dict) else None
            owner = _int(sanct.get("owner"), _int(view.get("leader")))
            why = t("invade.why", mine=fighter(cr, with_name=False),
                    theirs=t("their", player=who(owner), name=fighter(foe))) if foe else ""
            return Choice(command, t("invade", card=name(str(cr.get("card"))), land=land(args[0])), why,
                          t("invade.group"), emoji)
        if verb == "ranged" and len(args) == 2 and creature_at(where(args[0])) and creature_at(where(args[1])):
            mine, foe = creature_at(where(args[0])), creature_at(where(args[1]))
            mine_name, foe_name = name(str(mine.get("card"))), name(str(foe.get("card")))
            label = t("ranged", mine=mine_name, theirs=t("their", player=who(where(args[1])[0]), name=foe_name))
            why = t("ranged.why", src=land(args[0]), dst=land(args[1]), a=fighter(mine, with_name=False),
                    b=fighter(foe, with_name=False))
            return Choice(command, label, why, t("ranged.group", card=mine_name, land=land(args[0])), emoji)
        # a battle whose creatures the view does not show (never in a legal list): lands only
        if verb in ("advance", "invade") and len(args) == 1 and where(args[0]):
            return Choice(command, t(f"{verb}.land", land=land(args[0])), "", t(f"{verb}.group"), emoji)
        if verb == "ranged" and len(args) == 2 and where(args[0]) and where(args[1]):
            return Choice(command, t("ranged.lands", src=land(args[0]), dst=land(args[1])), "",
                          t("ranged.group.lands"), emoji)
        if verb == "support" and not args:      # the public log: the choice stays secret
            return Choice(command, t("support.hidden"), "", t("support.group"), emoji)
        if verb == "support" and len(args) == 1 and args[0] in ("avatar", "none"):
            return Choice(command, t("support.avatar"), t("support.avatar_why"), t("support.group"), emoji)
        if verb == "support" and known and len(args) == 1:
            c = card(args[0])
            return Choice(command, t("support", card=name(args[0])),
                          support_effect(c.get("support")) or loc(c.get("text")), t("support.group"), emoji)
        return None

    out: list[Choice] = []
    for command in legal:
        try:
            choice = describe(command) if command.split() else None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            choice = None
        out.append(choice or Choice(command, t("other", command=command), "", t("other.group"), ""))
    return out
