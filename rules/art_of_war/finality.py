"""Art of War: which commands are ``final`` and which ``reveal`` (docs/engine.md; the rules and
their clauses: docs/rules/art_of_war.md, "Undo: which moves are final").

``reveals`` is True when a command drew, shuffled, used the random stream, showed a card nobody
(or not the mover) knew, or opened, answered or closed a private response window:

* ``mulligan`` (set-up ④ 「一度だけ戻してシャッフルし、引き直す」): shuffle and draw;
* ``setup`` (set-up ⑥ 「デッキトップから1枚王国エリアに表向きで」): the deck's top card turns face up;
* ``end`` (ドローフェイズ 「デッキからカードを引き」): the next turn player draws;
* every answer and every ``pass`` in a response window: a secret decision is disclosed, or the next
  secret window opens;
* ``attack`` and a rear support declared in one's own turn, whenever the opponent *might* have
  answered (fewer than 5 cards in their waiting area and a card in hand): either a private window
  opens, or the declaration resolves at once and so shows that the opponent holds no GUARDIAN /
  WIZARD (nor the KING). A window is offered only when the opponent could answer (a project
  ruling), so letting the declarer take such a move back would let them probe the hidden hand.

Everything else moves the mover's own known cards between public places — arrange actions
(``deploy``, ``exchange``, ``move``, ``play``, ``swap``), ``immigrate``, ``draft``, ``keep``, and an
attack or rear support the opponent publicly could not answer — and reveals nothing.

``final`` is ``reveals(...) or`` :func:`rules.common.handed_over`: the match ended, the decision
went to the other seat (``keep``, the last ``setup``, ``end``, a window, the last ``draft`` of a
conscription in the opponent's turn, a conscription the move forced on the opponent), …

This module reads the state's fields directly and does not import the engine (the engine imports
it); the game object is passed in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.art_of_war.board import WAITING_MAX
from rules.common import handed_over

if TYPE_CHECKING:  # pragma: no cover
    from rules.art_of_war.board import AowState

DECLARATIONS = ("attack", "support")     # the verbs that may open a response window


def _verb(command: Any) -> str:
    tokens = str(command).lower().split()
    return tokens[0] if tokens else ""


def answer_hidden(state: AowState, seat: int) -> bool:
    """Whether the opponent of ``seat`` *might* answer a declaration in ``state``, as far as the
    public can tell: room in their waiting area (「待機エリアには5枚までしか」) and at least one card
    in hand.  Then the answer (a window, or none) depends on the cards in that hand."""
    opp = 1 - seat
    return len(state.waiting[opp]) < WAITING_MAX and bool(state.hands[opp])


def _hand_changed(before: list, after: list) -> bool:
    """A hand changed otherwise than by receiving its KING at the deal (set-up ⑤, public)."""
    if len(after) < len(before):
        return True
    rest = list(after)
    for c in before:
        if c not in rest:
            return True
        rest.remove(c)
    return any(c != "k" for c in rest)


def reveals(state_before: AowState, seat: int, command: str, state_after: AowState) -> bool:
    """True when the command drew, shuffled, used randomness, showed hidden information or
    opened / answered / closed a private response window (module docstring)."""
    b, a = state_before, state_after
    # safety nets: the random stream moved, a deck changed size, the other hand changed
    if b.rng != a.rng or b.seed != a.seed or b.first != a.first:
        return True
    if len(b.decks[0]) != len(a.decks[0]) or len(b.decks[1]) != len(a.decks[1]):
        return True
    if any(o != seat and _hand_changed(b.hands[o], a.hands[o]) for o in (0, 1)):
        return True
    # a private window answered or passed, or a new one opened
    if b.window is not None or a.window is not None:
        return True
    # a declaration that resolved at once: it showed whether the opponent could answer
    if _verb(command) in DECLARATIONS and answer_hidden(b, seat):
        return True
    return False


def final(game: Any, state_before: AowState, seat: int, command: str, state_after: AowState) -> bool:
    """``reveals(...) or handed_over(...)`` (docs/engine.md): True when the move cannot be taken
    back by its player alone."""
    return (reveals(state_before, seat, command, state_after)
            or handed_over(game, state_before, seat, state_after))


__all__ = ["DECLARATIONS", "answer_hidden", "final", "reveals"]
