"""Battle Logic Square: which commands are final (docs/engine.md ``final`` / ``reveals``).

``final`` = :func:`reveals` or :func:`rules.common.handed_over`; this module holds the game
knowledge (docs/rules/logic_square.md, "Undo: which moves are final"):

- A card declaration — ``use`` (6.II B), ``it`` (6.II C) — and every command of the chain that
  answers it — ``chain``, ``pass`` (8.) — *reveals*: 「相手はチェーンアクションを行えます」 gives the
  opponent a secret answer decision, and whether it was asked ("offered only when they hold a card
  that may legally respond — never reveal that they hold one") must not show.  If an unanswered
  card could be undone while an answered one could not, the Undo button would tell the user that
  the opponent held an answer; so every declaration counts as opening that window, and every
  chain command as disclosing what was secretly chosen in it.
- Anything that drew, trashed from a deck or used the PRNG (CAA 6.II E, draw effects, the random
  hand trash of *Firewall Snap*-like cards, the next turn's draw phase 6.I) *reveals*.
- ``move`` (6.II A), ``avi`` (6.II D) and ``discard`` (6.III ①) reveal nothing by themselves: the
  mover's own AVI and own known hand cards.  They are final only through ``handed_over`` — the
  last AP spent (「APをすべて消費したら、メインフェイズを終了」) or the last discard passes the turn
  (and the opponent's draw phase draws), or the match ends.
- ``end`` hands the turn over (「相手のプレイヤーのターンに移行する」) — unless 6 or more cards are in
  hand: then the same player still discards (6.III ①) and ``end`` is not final either.
"""
from __future__ import annotations

from typing import Any

from rules.common import handed_over
from rules.logic_square.match import LSState

# ``last.kind`` of a card declaration; a ``chain``/``pass`` keeps the record of the declaration it
# answers, so this kind in the state after a command means "the command declared or answered a card".
DECLARATION_KINDS = ("use", "it")


def _sizes(zones: tuple[tuple[str, ...], ...]) -> tuple[int, ...]:
    return tuple(len(z) for z in zones)


def reveals(before: LSState, seat: int, command: str, after: LSState) -> bool:
    """True when ``command`` (by ``seat``, ``before`` → ``after``) drew, used randomness, turned a
    hidden card up or touched a secret chain window (see the module docstring)."""
    if after.rng != before.rng:                            # randomness (a random hand trash, a shuffle)
        return True
    if _sizes(after.deck) != _sizes(before.deck):          # a draw or a trash from a face-down deck
        return True
    for s in (0, 1):
        if s != seat and after.hand[s] != before.hand[s]:  # another seat's hidden hand changed
            return True
        if len(after.hand[s]) > len(before.hand[s]):       # cards came into a hand (from the deck)
            return True
    if before.window is not None or after.window is not None:   # a secret chain window: opened,
        return True                                              # answered or closed
    if before.chain or after.chain:
        return True
    last = after.last
    if isinstance(last, dict) and last.get("kind") in DECLARATION_KINDS:
        return True                                        # a card declared: the opponent's secret answer
    verb = str(command).lower().replace("+", " ").split()[:1]
    if verb and verb[0] in ("use", "it", "chain", "pass"):   # the same, read from the command text
        return True
    return False


def final(game: Any, before: LSState, seat: int, command: str, after: LSState) -> bool:
    """``reveals`` or ``handed_over`` (docs/engine.md)."""
    return reveals(before, seat, command, after) or handed_over(game, before, seat, after)


__all__ = ["final", "reveals", "DECLARATION_KINDS"]
