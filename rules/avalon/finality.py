"""Avalon's Sanctuary: which commands are final (cannot be taken back by their player alone) and
which reveal something (docs/engine.md ``final`` / ``reveals``; the rules doc:
docs/rules/avalon.md, "Undo: which moves are final").

``reveals`` holds the game knowledge: what each kind of command makes known that its player did
not know, or that no player knew, plus safety nets read straight from the two states (the random
stream moved, a memory or a life pile changed size, a card came into a hand, another player's
hand changed, a battle's secret support window opened or its choices were disclosed).
``final`` = ``reveals`` or :func:`rules.common.handed_over`.

Kinds of command (the verbs of the notation) and their verdicts:

* set phase — ``forge``, ``summon``, ``discard``, and ``magic`` of the kinds destroy / empower /
  prism / focus: the player's own known cards, played in the open; not a reveal, and the player
  stays in the set phase, so NOT final (undo allowed) — unless the card's own ability draws
  (素成時 / 召喚時 draw or life), which reveals.
* ``magic`` of the kinds draw / life / surge (cards from the face-down memory), scatter (a random
  card out of each opponent's hidden hand) and recycle (a shuffle), and ``use`` (a 手札 ability:
  draw or life): reveal, so final.
* ``done``: ends the player's set phase.  Final when another seat is handed the decision (the
  next chaser's set phase, another chaser declaring first); the leader's ``done`` (set → main
  phase of the same leader turn), and a chaser's ``done`` after which that same chaser is the
  first to declare, reveal nothing and keep the player to act: NOT final.
* ``advance`` / leader's ``pass``: the leader turn ends (end phase: life cards turned over or
  drawn, the chasers draw): reveal, final.
* ``ranged`` (leader main phase) / ``invade`` / ``ranged`` / ``pass`` (chaser declarations): the
  opponent must answer (choose a support) or declare next: final; it reveals when it opens the
  secret support window, or when what follows automatically draws, shuffles or turns life over.
* ``support``: the first of the two secret choices commits a secret (no reveal) and hands the
  battle to the other battler: final; the second discloses both choices and resolves the battle:
  reveal, final.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from rules.common import handed_over
from rules.avalon.state import State, command_tokens

# magic kinds whose effect takes cards from a hidden zone or uses the random stream
REVEALING_MAGIC = frozenset({"draw", "life", "surge", "scatter", "recycle"})
# magic kinds that only touch public things (lands, a creature in the open, a number)
OPEN_MAGIC = frozenset({"destroy", "empower", "prism", "focus"})
# a creature's own ability that takes cards from the face-down memory
_HIDDEN_EFFECTS = ("draw", "life")


def command_reveals(s: State, seat: int, command: str) -> bool:
    """What the kind of command reveals by the rules, from the position before it alone."""
    toks = command_tokens(command)
    if not toks:
        return True                          # unknown: be conservative
    verb = toks[0]
    card = s.defs.get(toks[1]) if len(toks) > 1 else None
    if verb == "magic":
        kind = ((card or {}).get("magic") or {}).get("kind")
        return kind not in OPEN_MAGIC        # unknown kinds count as revealing
    if verb == "use":
        return True                          # 手札 abilities draw or add life from the memory
    if verb == "forge":
        eff = (card or {}).get("on_forge") or {}
        return any(k in eff for k in _HIDDEN_EFFECTS)
    if verb == "summon":
        return bool(((card or {}).get("on_summon") or {}).get("draw"))
    if verb == "advance" or (verb == "pass" and s.step == "main"):
        return True                          # the leader turn ends: life turned over, chasers draw
    if verb == "support":
        b = s.battle
        if b is None or seat not in (b["a"], b["d"]):
            return True
        other = b["choice"][1 if seat == b["a"] else 0]
        return other is not None             # the second choice discloses both
    return False


def state_reveals(before: State, seat: int, after: State) -> bool:
    """Safety nets read from the two states: anything hidden moved or randomness was used."""
    if before.rng != after.rng:
        return True                          # the random stream was used (shuffle, random pick)
    if len(before.players) != len(after.players):
        return True
    for i, (p, q) in enumerate(zip(before.players, after.players)):
        if len(p.memory) != len(q.memory) or len(p.life) != len(q.life):
            return True                      # drawn, put to life, turned over, refreshed
        if i == seat:
            if Counter(q.hand) - Counter(p.hand):
                return True                  # a card came into the mover's hand (a draw)
        elif sorted(p.hand) != sorted(q.hand):
            return True                      # another player's hidden hand changed
    if before.last_battle != after.last_battle:
        return True                          # a battle resolved: both supports disclosed
    b0, b1 = before.battle, after.battle
    if b1 is not None and (b0 is None or (b0["a"], b0["d"], b0["al"], b0["dl"], b0["kind"])
                           != (b1["a"], b1["d"], b1["al"], b1["dl"], b1["kind"])):
        return True                          # a secret support window opened
    if b0 is not None and b1 is None:
        return True                          # a window closed: choices disclosed or dropped
    return False


def reveals(before: State, seat: int, command: str, after: State) -> bool:
    """docs/engine.md ``reveals``: the command drew, shuffled, revealed hidden information, used
    randomness or opened a secret window."""
    return command_reveals(before, seat, command) or state_reveals(before, seat, after)


def final(game: Any, before: State, seat: int, command: str, after: State) -> bool:
    """docs/engine.md ``final``: ``reveals`` or the decision was handed over."""
    return reveals(before, seat, command, after) or handed_over(game, before, seat, after)
