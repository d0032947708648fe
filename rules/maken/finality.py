"""Project Maken: which commands are ``final`` (cannot be taken back by their player alone) and
which ``reveal`` something (docs/engine.md; docs/rules/maken.md, "Undo: which moves are final").

``final`` = ``reveals`` or :func:`rules.common.handed_over`; the game knowledge is in
:func:`reveals`.  What is hidden in Project Maken (docs/rules/maken.md, "View format"): every
stamina pile (its order), the LP cards, the gauge and the damage pile (face down to their owner
too), each hand and each player's own face-down guard and set support cards (known to their
owner only).  The fields, the dust, an opened GC card, the judge and every count are public.

Kinds of command and their verdicts (the engine's verbs):

* ``ready``: keeps the hand; the other player (or the first TP) decides next — reveals nothing,
  final by hand-over.
* ``mulligan``: the hand back, a shuffle, 5 new cards — reveals (shuffle and draw).
* ``draw n``: from the stamina — reveals.
* ``set <card>``: a support card from the own hand, face down — reveals nothing and the TP still
  acts before attack: NOT final (undo allowed).
* ``use <card>``: a face-down support card set on an earlier turn is turned up and its effect
  (draw / gauge / recover) moves face-down cards — reveals.
* ``fb`` / ``attack`` (and double / triple attacks): an own card from hand, face up — not a
  reveal by itself, but paying a gauge cost turns face-down gauge cards up into the dust, a gauge
  gain moves stamina cards, a double attack or a ``draw`` text draws: those reveal.  Always final
  (the other player acts next, C).
* ``guard`` / ``keep``: own cards face down (the field to the dust is public) — no reveal; a
  flush (ガード流し) sends the face-down guard cards to the dust — reveals.  Always final (hand-over).
* ``gc``: the top face-down guard card is opened (オープン) — reveals.
* ``call`` / ``break`` / ``bonus`` / ``pass``: the judge and the damage (stamina cards face down to
  the damage pile, downs take an LP card, face-down cards go to the dust at F) — reveals whenever
  any of that happened (the safety nets below); final in any case unless the same player simply
  goes on (a call that gives the caller a bonus bet).
* ``skip``: no legal first bet; nothing hidden — NOT final when the TP goes on to "after attack"
  (a support card set on an earlier turn); final when the turn passes.
* ``end``: the turn passes — final by hand-over.

Safety nets (read straight from the two states, no views): the random stream moved; a stamina,
LP, gauge or damage pile changed (size or order); a face-down guard or support card left its
place; the other player's hand changed; a card came into the mover's hand that was not face up
before; a new turn began and the mover acts again (the other player's turn passed with no
decision, docs/rules/maken.md "The turn" 6, or the judge ended the turn and the non-TP became
TP) — an undo is only "within the same turn", and :func:`rules.common.handed_over` cannot see
that turn change, so it counts here (conservative).

This module does not import the engine (the engine imports it); the game object is passed in.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from rules.common import handed_over

# face-down piles nobody reads (stamina order, LP, gauge, damage): any change is a reveal
HIDDEN_PILES = ("stamina", "lp", "gauge", "damage")
# verbs that turn a face-down card up or take cards from a face-down pile, whatever the position
REVEALING_VERBS = frozenset({"mulligan", "draw", "use", "gc", "guardcancel"})   # + the alias


def _verb(command: Any) -> str:
    if not isinstance(command, str):
        return ""
    toks = command.strip().lower().split()
    return toks[0] if toks else ""


def _left(before: list, after: list) -> bool:
    """True when a card of a face-down pile that only grows at its end (guard top last, support in
    the order set) left it: ``before`` is no longer the start of ``after``."""
    return after[:len(before)] != before


def _new_turn_same_seat(d0: dict, d1: dict, seat: int) -> bool:
    """A new turn began during the command and ``seat`` is its TP (so still to act)."""
    return (d0["turn"] >= 1 and d1["turn"] != d0["turn"] and d1["result"] is None
            and d1["tp"] == seat)


def reveals(state_before: Any, seat: int, command: Any, state_after: Any) -> bool:
    """True when the command drew, shuffled, turned a face-down card up, moved face-down piles or
    used the random stream (docs/engine.md ``reveals``).  Conservative: unreadable states count
    as a reveal."""
    d0 = getattr(state_before, "d", None)
    d1 = getattr(state_after, "d", None)
    if not isinstance(d0, dict) or not isinstance(d1, dict):
        return True
    try:
        if _verb(command) in REVEALING_VERBS:
            return True
        if d0["rng"] != d1["rng"]:
            return True
        for s in (0, 1):
            for k in HIDDEN_PILES:
                if d0[k][s] != d1[k][s]:
                    return True
            if _left(d0["guard"][s], d1["guard"][s]) or _left(d0["support"][s], d1["support"][s]):
                return True
            if d1["gc_open"][s] is not None and d0["gc_open"][s] != d1["gc_open"][s]:
                return True
        if d0["hand"][1 - seat] != d1["hand"][1 - seat]:
            return True
        gained = Counter(d1["hand"][seat]) - Counter(d0["hand"][seat])
        if gained:
            shown = Counter(e[0] for e in d0["field"][seat]) + Counter(d0["dust"][seat])
            if d0["gc_open"][seat]:
                shown[d0["gc_open"][seat]] += 1
            if gained - shown:
                return True
        return _new_turn_same_seat(d0, d1, seat)
    except (KeyError, IndexError, TypeError):
        return True


def final(game: Any, state_before: Any, seat: int, command: Any, state_after: Any) -> bool:
    """``reveals(...) or handed_over(...)`` (docs/engine.md ``final``)."""
    return (reveals(state_before, seat, command, state_after)
            or handed_over(game, state_before, seat, state_after))


__all__ = ["HIDDEN_PILES", "REVEALING_VERBS", "final", "reveals"]
