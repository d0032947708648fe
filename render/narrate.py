"""What a command did, in words (issue 16): battles and their numbers, damage, captures,
destructions, reveals, chain results, misses, end-phase effects.

    narrate(game, before, after, names) -> [{"en": "...", "ja": "..."}, ...]

``before`` and ``after`` are the PUBLIC views (``game.view(state, None)``) around one command, so
narration tells public facts only: what a command changed in what everyone may see.  When the
public view did not change (a secret decision), nothing is said.  Each line is given in every
catalog language; the host carries the lines as they are and each reader gets their own.

The engines record what happened as structured events in their public views (SQUARES ``last``;
Battle Logic Square, Project Maken and Art of War ``last.events``; Avalon's Sanctuary ``events``
and ``last_battle``); this module reads only those, through the ja/en catalog
(``data/i18n/*/narrate.json`` and each game's event texts).
"""
from __future__ import annotations

import logging
from typing import Any, Callable

from data import i18n
from render import narrate_avalon
from render.base import Ctx, card_name, make_ctx

log = logging.getLogger("render.narrate")

_NARRATORS: dict[str, Callable[[dict, dict, Ctx, Any], list[str]]] = {}
MAX_LINES = 24          # a command that does more says how many more


def narrator(game: str):
    def deco(fn):
        _NARRATORS[game] = fn
        return fn
    return deco


def narrate(game: str, before: dict | None, after: dict | None, names: list[str],
            seat: int | None = None) -> list[dict[str, str]]:
    """The lines that tell what ``seat``'s command between the public views ``before`` and
    ``after`` did, each in every language (``{"en": …, "ja": …}``); what merely repeats the
    command (which the thread already shows in words) is left out.  Never raises: words are a
    nicety."""
    fn = _NARRATORS.get(game)
    if fn is None or not isinstance(after, dict) or before == after:
        return []
    before = before if isinstance(before, dict) else {}
    try:
        per_locale = {loc: fn(before, after, make_ctx(game, loc, names, None, None), seat) for loc in i18n.LOCALES}
    except Exception:
        log.exception("%s: narrating a command failed", game)
        return []
    count = min(len(lines) for lines in per_locale.values())
    out = [{loc: per_locale[loc][i] for loc in per_locale} for i in range(count)]
    if len(out) > MAX_LINES:
        more = len(out) - MAX_LINES + 1
        out = out[:MAX_LINES - 1] + [{loc: i18n.t("narrate.more", loc, n=more) for loc in per_locale}]
    return out


# --------------------------------------------------------------------------------- SQUARES

@narrator("squares")
def _squares(before: dict, after: dict, ctx: Ctx, actor: Any = None) -> list[str]:
    from render.labels_squares import _piece

    last = after.get("last") or {}
    if not isinstance(last, dict):
        return []
    was = {p.get("square"): p for p in before.get("pieces") or [] if isinstance(p, dict)}
    answering = before.get("phase") == "return"       # a return decision after the move
    out: list[str] = []
    battle = last.get("battle")
    if isinstance(battle, dict) and not answering:
        sq = battle.get("square")
        defender = was.get(sq) or {}
        cmd = str(last.get("command") or "").split()
        if cmd and cmd[0] == "place" and len(cmd) == 3:
            attacker = {"side": cmd[1][:1], "number": cmd[1][1:], "owner": last.get("seat")}
        else:
            attacker = was.get(last.get("from")) or {}
        a_name = _piece(attacker.get("side", "?"), attacker.get("number", "?"), ctx.locale)
        d_name = _piece(defender.get("side", "?"), defender.get("number", "?"), ctx.locale)
        a_seat, d_seat = last.get("seat"), defender.get("owner")
        winner = battle.get("winner")
        out.append(ctx.t("narrate.squares.battle", square=sq, a=a_name, a_name=ctx.name(a_seat),
                         av=battle.get("attacker"), d=d_name, d_name=ctx.name(d_seat),
                         dv=battle.get("defender")))
        if winner == "attacker":
            out.append(ctx.t("narrate.squares.won", piece=a_name, other=d_name, name=ctx.name(d_seat)))
        elif winner == "defender":
            out.append(ctx.t("narrate.squares.held", piece=d_name, other=a_name, name=ctx.name(a_seat)))
        else:
            out.append(ctx.t("narrate.squares.both", a=a_name, d=d_name))
    old_returned = list((before.get("last") or {}).get("returned") or []) if answering else []
    for sq in list(last.get("returned") or [])[len(old_returned):]:
        p = was.get(sq) or {}
        out.append(ctx.t("narrate.squares.returned", name=ctx.name(p.get("owner")),
                         piece=_piece(p.get("side", "?"), p.get("number", "?"), ctx.locale), square=sq))
    if after.get("phase") == "return" and not after.get("outcome"):
        for seat in after.get("to_act") or []:
            rows = (after.get("over_limit") or [[], []])[seat] if seat in (0, 1) else []
            out.append(ctx.t("narrate.squares.must_return", name=ctx.name(seat),
                             ranks=ctx.t("core.list_sep").join(str(r) for r in rows) or "?"))
    centre = after.get("centre") or [0, 0]
    if not after.get("outcome"):
        for seat in (0, 1):
            if centre[seat] == 2 and (before.get("centre") or [0, 0])[seat] < 2:
                out.append(ctx.t("narrate.squares.centre_two", name=ctx.name(seat)))
    return out


# ------------------------------------------------------------------- Battle Logic Square

@narrator("logic_square")
def _logic_square(before: dict, after: dict, ctx: Ctx, actor: Any = None) -> list[str]:
    from render.logic_square_words import _decl_line, _event_line, quiet_resolves

    last = after.get("last")
    if not isinstance(last, dict):     # (every command sets ``last``; narrate() says nothing
        return []                      # when the public view did not change)
    cards = after.get("cards") or {}
    out: list[str] = []
    decls = [d for d in last.get("chain") or [] if isinstance(d, dict)]
    resolved = last.get("resolved")
    if decls and isinstance(resolved, list) and not after.get("chain"):
        # the chain resolved: from the top; what did not resolve is said (a miss)
        order = ctx.t("core.list_sep").join(card_name(after, decls[i].get("card"), ctx.locale)
                          for i in range(len(decls) - 1, -1, -1) if i in resolved)
        if len(decls) > 1:
            out.append(ctx.t("narrate.ls.chain", n=len(decls), order=order or "—"))
        for i, decl in enumerate(decls):
            if i not in resolved:
                out.append(ctx.t("narrate.ls.missed", name=ctx.name(decl.get("seat")),
                                 card=_decl_line(decl, cards, ctx.locale)))
    # a card that resolved and did nothing is said to miss (nothing in its range / no effect);
    # the picture decides it the same way (render.logic_square_words.quiet_resolves)
    events = [ev for ev in last.get("events") or [] if isinstance(ev, dict)]
    quiet = quiet_resolves(events)
    for i, ev in enumerate(events):
        if ev.get("type") == "over" or (ev.get("type") == "heal" and not ev.get("amount")):
            continue
        if i in quiet:
            index = ev.get("index")
            decl = decls[index] if isinstance(index, int) and index < len(decls) else {}
            key = "narrate.ls.miss_range" if decl.get("range") else "narrate.ls.no_effect"
            out.append(ctx.t(key, name=ctx.name(ev.get("seat")), card=card_name(after, ev.get("card"), ctx.locale)))
            continue
        if ev.get("type") == "resolve":
            continue
        text = _event_line(ev, cards, ctx)
        if text:
            out.append(text)
    return out


# ------------------------------------------------------------------------ Project Maken

@narrator("maken")
def _maken(before: dict, after: dict, ctx: Ctx, actor: Any = None) -> list[str]:
    from render.maken import event_text

    last = after.get("last")
    if not isinstance(last, dict):     # (every command sets ``last``; narrate() says nothing
        return []                      # when the public view did not change)
    cards = after.get("cards") or {}
    out = []
    verb = str(last.get("command") or "").split()[:1]
    for i, ev in enumerate(last.get("events") or []):
        if not isinstance(ev, dict):
            continue
        if ev.get("seat") == actor and (ev.get("t") in MAKEN_SAID and ev.get("copies", 1) == 1
                                        or i == 0 and ev.get("t") == "draw" and verb == ["draw"]):
            continue        # the command itself, which the thread already says
        out.append(event_text(ctx.t, ctx.name, cards, ev, ctx.locale))
    return [line for line in out if line]


MAKEN_SAID = ("bet", "guard", "set", "use", "gc", "call", "mulligan", "keep")


# ---------------------------------------------------------------------------- Art of War

@narrator("art_of_war")
def _art_of_war(before: dict, after: dict, ctx: Ctx, actor: Any = None) -> list[str]:
    from render.art_of_war import _label

    last = after.get("last")
    if not isinstance(last, dict):     # (every command sets ``last``; narrate() says nothing
        return []                      # when the public view did not change)
    out = []
    for ev in last.get("events") or []:
        if not isinstance(ev, dict):
            continue
        kind, seat = ev.get("kind"), ev.get("seat")
        who = ctx.name(seat if isinstance(seat, int) else None)

        def unit(code: Any, owner: Any = seat) -> str:
            return _label(ctx, after, int(owner) if isinstance(owner, int) else 0, code or "?")

        if kind == "respond":
            continue    # each answer is already its own line in the thread (released with the window)
        if kind == "cancel":
            out.append(ctx.t("narrate.aow.cancel", name=who))
        elif kind == "negated":
            out.append(ctx.t("narrate.aow.negated", name=who))
        elif kind == "boost":
            out.append(ctx.t("narrate.aow.boost", name=who, n=ev.get("n", 1)))
        elif kind in ("capture", "destroy", "damage"):
            by = last.get("seat")       # whose attack or ARCHER support it was
            out.append(ctx.t(f"narrate.aow.{kind}", name=who, unit=unit(ev.get("card")),
                             square=ev.get("square", "?"), n=ev.get("n", "?"), total=ev.get("total", ""),
                             by=ctx.name(by) if isinstance(by, int) else "?"))
        elif kind == "kingdom":
            out.append(ctx.t("narrate.aow.kingdom", name=who, unit=unit(ev.get("card"))))
        elif kind == "draft" and seat != actor:
            out.append(ctx.t("narrate.aow.draft", name=who, unit=unit(ev.get("card")),
                             square=ev.get("square", "?")))
    return out


# Avalon's Sanctuary is told in its own module
narrator("avalon")(narrate_avalon.narrate)
