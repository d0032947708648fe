"""Avalon's Sanctuary in words (see :mod:`render.narrate`): the engine's public events since the
previous view, and each battle revealed once both supports are chosen — the supports, the
ability order, the final attack and durability, every strike and its damage, what was destroyed.
"""
from __future__ import annotations

from typing import Any

from render.base import Ctx
from render.narrate import card_name, narrator

SAID = tuple(f"avalon.ev.{k}" for k in ("forge", "summon", "magic", "magic_target", "discard", "advance",
                                         "use", "declare"))
KEYWORDS = ("first", "last", "evade", "evade_null", "death", "death_null", "reflect", "reflect_null",
            "counter")


def new_events(before: list, after: list) -> list[dict]:
    """The events ``after`` adds to ``before`` (a rolling buffer: the longest tail of ``before``
    that starts ``after`` is what was already told)."""
    before = [e for e in before if isinstance(e, dict)]
    after = [e for e in after if isinstance(e, dict)]
    for m in range(min(len(before), len(after)), -1, -1):
        if before[len(before) - m:] == after[:m]:
            return after[m:]
    return after        # pragma: no cover - m = 0 always matches


def _player(ctx: Ctx, token: Any) -> str:
    text = str(token or "")
    if text.startswith("p") and text[1:].isdigit():
        return ctx.name(int(text[1:]) - 1)
    return text or "?"


def _event_line(view: dict, ctx: Ctx, ev: dict) -> str:
    from render.avalon import event_params

    params = event_params(dict(ev.get("params") or {}), ctx.name, ctx.locale)
    if params.get("card"):
        params["card"] = card_name(view, params["card"], ctx.locale)
    if ev.get("key") == "avalon.ev.declare":
        params["command"] = _declared(view, ctx, str(params.get("command") or ""))
    return ctx.t(str(ev.get("key") or ""), **params)


def _declared(view: dict, ctx: Ctx, command: str) -> str:
    """A declaration in words (``ranged l2 p2l3`` → "a ranged battle L2 → Bob's L3"), the
    notation when it is something else."""
    from render.avalon import event_params

    verb, *args = command.split()
    if verb == "pass":
        return ctx.t("narrate.avalon.decl.pass")
    if verb in ("ranged", "invade", "advance") and args:
        words = event_params({str(i): a for i, a in enumerate(args)}, ctx.name, ctx.locale)
        return ctx.t(f"narrate.avalon.decl.{verb}", args=" → ".join(str(words[str(i)]) for i in range(len(args))))
    return command


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
        words = ", ".join(ctx.t(f"labels.avalon.kw.{k}") for k in kws[side] if k in KEYWORDS)
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


@narrator("avalon")
def _avalon(before: dict, after: dict, ctx: Ctx, actor: Any = None) -> list[str]:
    out: list[str] = []
    battle = after.get("last_battle")
    fresh_battle = isinstance(battle, dict) and battle != before.get("last_battle")
    told = False
    for i, ev in enumerate(new_events(before.get("events") or [], after.get("events") or [])):
        key = str(ev.get("key") or "")
        if i == 0 and key in SAID and (ev.get("params") or {}).get("player") == f"p{(actor or 0) + 1}":
            continue        # the command itself, which the thread already says
        if fresh_battle and not told and key.startswith("avalon.ev.battle_") and key != "avalon.ev.battle_skipped":
            out.extend(battle_lines(after, ctx, battle))
            told = True
        out.append(_event_line(after, ctx, ev))
    if fresh_battle and not told:
        out.extend(battle_lines(after, ctx, battle))
    return out
