"""Avalon's Sanctuary in words (see :mod:`render.narrate`): the engine's public events since the
previous view, and each battle revealed once both supports are chosen — the supports, the
ability order, the final attack and durability, every strike and its damage, what was destroyed.
"""
from __future__ import annotations

import re
from typing import Any

from data import i18n
from render.base import Ctx, card_name

SAID = tuple(f"avalon.ev.{k}" for k in ("forge", "summon", "magic", "magic_target", "discard", "advance",
                                         "use", "declare"))
KEYWORDS = ("first", "last", "evade", "evade_null", "death", "death_null", "reflect", "reflect_null",
            "counter")

_PLAYER = re.compile(r"^p(\d+)$")
_LAND = re.compile(r"^l(\d)$")
_THEIR_LAND = re.compile(r"^p(\d+)l(\d)$")


def event_params(params: dict, name_of: Any, locale: str) -> dict:
    """An engine event's parameters in words: ``p3`` → the player's name, ``l2`` → "land 2",
    ``p2l3`` → "Bob's land 3" (``name_of(seat)``); everything else as it is."""
    out = {}
    for key, value in params.items():
        text = str(value) if isinstance(value, (str, int)) else value
        if isinstance(text, str) and (m := _PLAYER.match(text)):
            out[key] = name_of(int(m.group(1)) - 1)
        elif isinstance(text, str) and (m := _LAND.match(text)):
            out[key] = i18n.t("labels.avalon.land", locale, n=m.group(1))
        elif isinstance(text, str) and (m := _THEIR_LAND.match(text)):
            out[key] = i18n.t("labels.avalon.land.other", locale, player=name_of(int(m.group(1)) - 1), n=m.group(2))
        else:
            out[key] = value
    return out


def new_events(before: list, after: list) -> list[dict]:
    """The events ``after`` adds to ``before`` (a rolling buffer: the longest tail of ``before``
    that starts ``after`` is what was already told)."""
    before = [e for e in before if isinstance(e, dict)]
    after = [e for e in after if isinstance(e, dict)]
    for m in range(min(len(before), len(after)), -1, -1):
        if before[len(before) - m:] == after[:m]:
            return after[m:]
    return after        # pragma: no cover - m = 0 always matches


def event_text(view: dict, ev: dict, name_of: Any, locale: str, before: dict | None = None,
               placed: set | None = None) -> str:
    """An engine event as a player reads it, in words: names for ``p2``, lands for ``l3`` /
    ``p2l3``, card names, a declaration in words ("Carol declares: a ranged battle from Carol's
    land 3 to Alice's land 1."), and — given the view ``before`` it — a creature that ran out of
    mana named with its land ("Bob's Gilded Pilgrim on land 3 …", so two of one name are told
    apart).  ``name_of(seat)``: a player's name.  The narration, the picture and the text view
    all say events with it.  ``placed``: lands already named by earlier events of this batch."""
    raw = dict(ev.get("params") or {})
    key = str(ev.get("key") or "")
    actor = _seat_of(raw.get("player"))
    params = event_params(raw, name_of, locale)
    if params.get("card"):
        params["card"] = card_name(view, params["card"], locale)
    if key == "avalon.ev.declare":
        params["command"] = declared(str(raw.get("command") or ""), name_of, locale, actor)
    elif key == "avalon.ev.magic_target" and actor is not None:
        params["target"] = _land_words(str(raw.get("target") or ""), name_of, locale, actor)
    elif key == "avalon.ev.expired" and isinstance(before, dict) and actor is not None:
        where = _expired_land(before, view, actor, raw.get("card"), placed if placed is not None else set())
        if where is not None:
            key = "narrate.avalon.expired_on"
            params["land"] = (i18n.t("narrate.avalon.in_sanctuary", locale) if where == "s"
                              else i18n.t("narrate.avalon.on_land", locale, n=where))
    return i18n.t(key, locale, **params)


def _seat_of(token: Any) -> int | None:
    text = str(token or "")
    return int(text[1:]) - 1 if text.startswith("p") and text[1:].isdigit() else None


def _land_words(token: str, name_of: Any, locale: str, actor: int) -> str:
    """A land token in words, whose it is always named: ``l3`` of ``actor`` → "Carol's land 3"."""
    if token.startswith("l") and token[1:].isdigit() and actor is not None:
        return i18n.t("labels.avalon.land.other", locale, player=name_of(actor), n=token[1:])
    return str(event_params({"x": token}, name_of, locale)["x"])


def declared(command: str, name_of: Any, locale: str, actor: int | None = None) -> str:
    """A declaration in words (``ranged l2 p2l3`` by Carol → "a ranged battle from Carol's
    land 2 to Bob's land 3"), the notation when it is something else."""
    verb, *args = command.split() or [""]
    if verb == "pass":
        return i18n.t("narrate.avalon.decl.pass", locale)
    if verb in ("ranged", "invade", "advance") and args:
        words = [_land_words(a, name_of, locale, actor) for a in args]
        if verb == "ranged" and len(words) == 2:
            return i18n.t("narrate.avalon.decl.ranged_to", locale, a=words[0], b=words[1])
        return i18n.t(f"narrate.avalon.decl.{verb}", locale, args=" → ".join(words))
    return command


def _creature_card(land: Any) -> Any:
    cr = land.get("creature") if isinstance(land, dict) else None
    return cr.get("card") if isinstance(cr, dict) else None


def _expired_land(before: dict, after: dict, seat: int, cid: Any, placed: set) -> int | str | None:
    """Where ``seat``'s creature ``cid`` stood before it ran out of mana: a land number, ``"s"``
    for the sanctuary, None when that cannot be told."""
    def lands(view: dict) -> list:
        p = next((p for p in view.get("players") or [] if isinstance(p, dict) and p.get("seat") == seat), None)
        return list((p or {}).get("lands") or [])

    now = lands(after)
    for i, land in enumerate(lands(before)):
        gone = i >= len(now) or _creature_card(now[i]) != cid
        if _creature_card(land) == cid and gone and (seat, i) not in placed:
            placed.add((seat, i))
            return i + 1
    sanct = before.get("sanctuary")
    if isinstance(sanct, dict) and _creature_card(sanct) == cid and (seat, "s") not in placed:
        placed.add((seat, "s"))
        return "s"
    return None


MAGIC_SAID = ("draw", "destroy", "surge", "scatter", "empower", "prism", "recycle", "focus")


def magic_effect(view: dict, ev: dict, name_of: Any, locale: str) -> str | None:
    """What a magic card just used does, in words ("Starfall Insight: Carol draws 2 cards."),
    from the card's definition in the public view; None for an effect the events tell
    themselves (a life gained) or a card the view does not define."""
    raw = dict(ev.get("params") or {})
    card = (view.get("cards") or {}).get(raw.get("card"))
    eff = card.get("magic") if isinstance(card, dict) else None
    kind = eff.get("kind") if isinstance(eff, dict) else None
    if kind not in MAGIC_SAID:
        return None
    actor = _seat_of(raw.get("player"))
    who = name_of(actor) if actor is not None else "?"
    target = _land_words(str(raw.get("target") or ""), name_of, locale, actor) if raw.get("target") else ""
    n = (eff.get("atk", 1) if kind == "empower" else eff.get("max_orig", 2) if kind == "destroy"
         else eff.get("n", 2 if kind == "draw" else 3))
    return i18n.t(f"narrate.avalon.mag.{kind}" + (".on" if target and kind in ("destroy", "surge", "empower", "prism")
                                                   else ""),
                  locale, card=card_name(view, raw.get("card"), locale), player=who, target=target, n=n)


def battle_lines(view: dict, ctx: Ctx, b: dict, *, brief: bool = False) -> list[str]:
    """A battle revealed: who fought whom with what, the supports, the abilities in order, the
    final numbers, the strikes, the damage and what was destroyed (``brief``: without the
    abilities and strikes, for the picture)."""
    loc = ctx.locale
    seats = [b.get("invader"), b.get("defender")]
    who = [ctx.name(s if isinstance(s, int) else None) for s in seats]
    cards = list(b.get("cards") or [None, None])
    creature = [card_name(view, c, loc) for c in cards]
    supports = list(b.get("supports") or ["avatar", "avatar"])

    def support(side: int) -> str:
        cid = supports[side]
        return ctx.t("narrate.avalon.no_support") if cid in (None, "avatar") else card_name(view, cid, loc)

    out = [ctx.t(f"narrate.avalon.battle.{'holy' if b.get('kind') == 'holy' else 'ranged'}",
                 a=who[0], a_card=creature[0], d=who[1], d_card=creature[1]),
           ctx.t("narrate.avalon.supports", a=who[0], a_support=support(0), d=who[1], d_support=support(1))]
    for entry in [] if brief else b.get("abilities") or []:
        if not isinstance(entry, list) or len(entry) < 3:
            continue
        order, side, kind = entry[0], int(entry[1]) % 2, str(entry[2])
        source = creature[side] if kind in ("ninja", "bonus", "battle") else support(side)
        out.append(ctx.t("narrate.avalon.ability", order=order, name=who[side], card=source,
                         what=ctx.t(f"narrate.avalon.ab.{kind}")))
    atk, dur = list(b.get("atk") or [0, 0]), list(b.get("dur") or [0, 0])
    kws = [list(k or []) for k in (b.get("keywords") or [[], []])]
    stats = []
    for side in (0, 1):
        words = ctx.t("core.list_sep").join(ctx.t(f"labels.avalon.kw.{k}") for k in kws[side] if k in KEYWORDS)
        stats.append(ctx.t("narrate.avalon.stats", card=creature[side], atk=atk[side], dur=dur[side],
                           keywords=(" · " + words) if words else ""))
    out.append(ctx.t("narrate.avalon.stats_both", a=stats[0], d=stats[1]))
    if b.get("no_damage"):
        out.append(ctx.t("narrate.avalon.no_damage"))
    for strike in [] if brief else b.get("strikes") or []:
        if not isinstance(strike, list) or len(strike) < 3:
            continue
        side, kind, n = int(strike[0]) % 2, str(strike[1]), strike[2]
        out.append(ctx.t(f"narrate.avalon.strike.{kind}", name=who[side], card=creature[side],
                         other=who[1 - side], other_card=creature[1 - side], n=n))
    damage, dead = list(b.get("damage") or [0, 0]), list(b.get("destroyed") or [False, False])
    ends = [ctx.t("narrate.avalon.destroyed" if dead[side] else "narrate.avalon.survives", card=creature[side],
                  damage=damage[side], dur=dur[side]) for side in (0, 1)]
    out.append(ctx.t("narrate.avalon.ends", a=ends[0], d=ends[1]))
    return out


def narrate(before: dict, after: dict, ctx: Ctx, actor: Any = None) -> list[str]:
    """The narrator of Avalon's Sanctuary (registered by :mod:`render.narrate`)."""
    out: list[str] = []
    battle = after.get("last_battle")
    fresh_battle = isinstance(battle, dict) and battle != before.get("last_battle")
    told = False
    placed: set = set()
    for i, ev in enumerate(new_events(before.get("events") or [], after.get("events") or [])):
        key = str(ev.get("key") or "")
        effect = (magic_effect(after, ev, ctx.name, ctx.locale)
                  if key in ("avalon.ev.magic", "avalon.ev.magic_target") else None)
        if i == 0 and key in SAID and (ev.get("params") or {}).get("player") == f"p{(actor or 0) + 1}":
            if effect:      # the thread says the command; what the magic card does, not yet
                out.append(effect)
            continue        # the command itself, which the thread already says
        if fresh_battle and not told and key.startswith("avalon.ev.battle_") and key != "avalon.ev.battle_skipped":
            out.extend(battle_lines(after, ctx, battle))
            told = True
        out.append(event_text(after, ev, ctx.name, ctx.locale, before, placed))
        if effect:
            out.append(effect)
    if fresh_battle and not told:
        out.extend(battle_lines(after, ctx, battle))
    return out
