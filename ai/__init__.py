"""Players for practice and seat-filling (issue 17): pure, no I/O, handed a VIEW, never a state.

    from ai import choose
    command = choose(game_name, view, legal, seat, level="normal", seed=0, budget_s=None)

``choose`` returns one of ``legal`` (the seat's ``legal_commands``).  It only ever sees what
``view`` shows the seat: whatever it needs beyond that it samples with the engine's
``determinize`` (docs/engine.md, "Playing from a seat's knowledge: determinize"), so it cannot peek at a hand, a deck or a secret choice.

Levels:
- ``easy``: a legal move at random.
- ``normal``: one ply — each legal move is tried on a few determinized states and the move
  whose result the game's evaluation likes best on average is played (ai/evaluate.py).
- ``hard``: information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012,
  "single-observer ISMCTS", as in OpenSpiel's ``ismcts``): every iteration samples a state
  consistent with the view, walks a tree of commands with UCB1 counted by availability (each
  node widening progressively over its moves, best first by the one-ply judgement), and
  scores the new leaf with the game's evaluation.  The root's most visited legal move is played.

In a game named in TURN_END a turn is several commands of one player, and a position in the
middle of a turn does not compare with one after it (the AP not yet spent, a chain not yet
answered); there the search scores a position only once the turn it was reached in has passed on
(the turn player ends it at once, the rest is decided by the engine's defaults) and its tree
ends with the root's turn: it plans the seat's whole turn.

In a game named in HARD_SHORTLIST (Avalon's Sanctuary) the search runs for half the budget and
a rollout over ``normal`` (Tesauro & Galperin 1996; Bertsekas' "rollout algorithm") chooses among
its few most visited root moves in the other half: each is played on a few determinized states,
and each of those on by ``normal``'s one-ply judgement for every seat until the turn has passed
on; the move whose playouts end best on average is played.  The tree finds the combos of moves,
the rollouts judge what a greedy answer makes of them.

With ``budget_s=None`` every level does a fixed amount of work and the choice is deterministic
for a seed; a time budget trades that for a wall-clock limit.  Why each setting has the value it
has — what was measured, and what was tried and left out — is in docs/ai.md.
"""
from __future__ import annotations

import itertools
import math
import random
import time
from typing import Any

from ai.evaluate import evaluate
from rules import registry

LEVELS = ("easy", "normal", "hard")
NORMAL_SAMPLES = 3            # determinizations per move at level normal
# game -> commands: there normal plays each move on through the others' answers (a random policy)
# up to its next decision, at most this many commands: Project Maken's bets are settled by a judge
# two or three commands later.  Elsewhere the evaluation itself looks ahead and random answers blur it
NORMAL_HORIZON = {"maken": 8}
HARD_ITERATIONS = 300         # iterations at level hard without a time budget
# game -> (k, determinizations, turns): hard searches the tree (half its budget), then rollouts
# over normal (the other half; each move on each determinization played on by the one-ply
# judgement until the turn has passed on ``turns`` times) choose among the search's k most visited
HARD_SHORTLIST: dict[str, tuple[int, int, int]] = {"avalon": (3, 3, 1)}
ROLLOUT_LIMIT = 40            # commands at most in one of those playouts
# UCB1's exploration constant, small to fit the evaluation's differences (shares of a strength,
# a few hundredths apart)
UCB_C = 0.15
# progressive widening (Coulom 2007; Chaslot et al. 2008): a node searches only its
# WIDEN_BASE + sqrt(visits) best moves by the one-ply judgement, best first, so the search goes
# deep on the moves worth it instead of trying every one once
WIDEN_BASE = 2
# game -> the command that ends the turn player's turn at once, in the games where a turn is
# several commands of one player (Battle Logic Square: moves, cards, abilities, a CAA, then the
# discards).  There the search scores a position only once a turn has passed on: a leaf reached
# in the middle of one is played on — the turn player ends the turn with this command, whatever
# else is asked on the way (a chain answer, an end-of-turn discard) gets the engine's
# ``timeout_command``, else the one-ply judgement — and so are the moves it ranks for widening;
# the tree ends with the turn it starts in (the search plans the seat's turn)
TURN_END = {"logic_square": "end"}
FINISH_COMMANDS = 40          # at most this many commands finish a turn


def choose(game_name: str, view: dict, legal: list[str], seat: int, *, level: str = "normal",
           seed: int = 0, budget_s: float | None = None, game: Any = None) -> str:
    """One of ``legal`` for ``seat``, chosen from ``view`` alone (see the module docstring).
    ``game``: the engine to think with when it is not the registered one (a match of a server's
    card set, :mod:`host.engines`): its cards are the ones the computer samples and judges."""
    if not legal:
        raise ValueError("no legal command to choose from")
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (known: {', '.join(LEVELS)})")
    if not isinstance(view, dict):
        raise TypeError("choose() takes a view (a dict from game.view), never a state")
    rng = random.Random(f"{seed}:{len(legal)}:{legal[0]}")
    if len(legal) == 1 or level == "easy":
        return legal[0] if len(legal) == 1 else rng.choice(legal)
    if game is None:
        game = registry.get(game_name)
    if not hasattr(game, "determinize"):
        return rng.choice(legal)
    if level == "normal":
        return _one_ply(game_name, game, view, legal, seat, rng, budget_s)
    if game_name in HARD_SHORTLIST:
        k, samples, turns = HARD_SHORTLIST[game_name]
        return _shortlisted(game_name, game, view, legal, seat, rng, budget_s, k, samples, turns)
    return _ismcts(game_name, game, view, legal, seat, rng, budget_s)


# ------------------------------------------------------------------------------ normal

def _one_ply(name: str, game: Any, view: dict, legal: list[str], seat: int, rng: random.Random,
             budget_s: float | None) -> str:
    states = [game.determinize(view, seat, rng) for _ in range(NORMAL_SAMPLES)]
    deadline = None if budget_s is None else time.perf_counter() + budget_s
    best, best_value = legal[0], -1.0
    order = list(legal)
    rng.shuffle(order)                   # ties are broken at random, not by notation order
    for command in order:
        total = 0.0
        for state in states:
            total += _value_after(name, game, state, seat, command, rng, NORMAL_HORIZON.get(name, 0))
        value = total / len(states)
        if value > best_value:
            best, best_value = command, value
        if deadline is not None and time.perf_counter() > deadline:
            break
    return best


def _value_after(name: str, game: Any, state: Any, seat: int, command: str,
                 rng: random.Random | None = None, horizon: int = 0) -> float:
    """The evaluation for ``seat`` after ``command`` and, with a ``horizon``, after the others'
    answers up to this seat's next decision (played by a random policy, at most ``horizon``
    commands): a move is judged by what it leads to once the exchange it opens is resolved —
    a bet by the judge that follows it, an attack by the answer — not by the instant after."""
    try:
        after = game.apply(state, seat, command)
    except Exception:                    # a sample in which the move is not possible
        return 0.0
    if horizon and rng is not None:
        after = _until_mine(game, after, seat, rng, horizon)
    return _scores(name, game, after)[seat]


def _until_mine(game: Any, state: Any, seat: int, rng: random.Random, horizon: int) -> Any:
    return _play_on(game, state, horizon, rng.choice, lambda _s, _m, moves: rng.choice(moves),
                    stop=lambda _s, to_act: seat in to_act)


def _play_on(game: Any, state: Any, limit: int, mover_of: Any, command_of: Any, stop: Any = None) -> Any:
    """``state`` played on for at most ``limit`` commands, until the match is over, nobody is to
    act or ``stop(state, to_act)``: ``mover_of(to_act)`` acts with ``command_of(state, mover,
    legal)`` (the playouts, the answers of normal's horizon, the rest of a turn)."""
    for _ in range(limit):
        if game.outcome(state) is not None:
            break
        to_act = game.to_act(state)
        if not to_act or (stop is not None and stop(state, to_act)):
            break
        mover = mover_of(to_act)
        moves = game.legal_commands(state, mover)
        if not moves:
            break
        nxt = _step(game, state, mover, command_of(state, mover, moves))
        if nxt is None:
            break
        state = nxt
    return state


def _scores(name: str, game: Any, state: Any) -> list[float]:
    """Every seat's score in [0, 1]: 1 a win, 0.5 a draw, 0 a loss once the match is over, else
    the game's evaluation of the public position."""
    outcome = game.outcome(state)
    view = game.view(state, None)
    n = _seats(view)
    if outcome is not None:
        winners = list(outcome.get("winners") or [])
        if not winners:
            return [0.5] * n
        return [1.0 if s in winners else 0.0 for s in range(n)]
    return evaluate(name, view, n)


def _seats(view: dict) -> int:
    players = view.get("players")
    return len(players) if isinstance(players, list) and players else 2


# ------------------------------------------------------- hard's shortlist, by rollouts

def _rollouts(name: str, game: Any, view: dict, legal: list[str], seat: int, rng: random.Random,
              budget_s: float | None, samples: int, turns: int) -> str:
    """The legal move whose greedy playouts (``_greedy_on``) from ``samples`` determinized states
    score best for ``seat`` on average.  The moves are tried best first by the one-ply judgement,
    one sample after another, so a time budget that runs out leaves the likeliest moves judged
    on the most samples; a move never played on is not chosen."""
    deadline = None if budget_s is None else time.perf_counter() + max(0.01, budget_s * 0.9)
    states = [game.determinize(view, seat, rng) for _ in range(samples)]
    order = list(legal)
    rng.shuffle(order)                   # ties are broken at random, not by notation order
    first = {m: _value_after(name, game, states[0], seat, m) for m in order}
    order.sort(key=lambda m: -first[m])
    total = dict.fromkeys(order, 0.0)
    count = dict.fromkeys(order, 0)
    for state, m in itertools.product(states, order):     # one sample after another
        after = _step(game, state, seat, m)
        end = _greedy_on(name, game, after, turns) if after is not None else None
        total[m] += 0.0 if end is None else _scores(name, game, end)[seat]
        count[m] += 1
        if deadline is not None and time.perf_counter() >= deadline:
            break
    return max((m for m in order if count[m]), key=lambda m: total[m] / count[m])


def _greedy_on(name: str, game: Any, state: Any, turns: int) -> Any:
    """``state`` played on by the one-ply judgement for every seat (each on the sampled state)
    until the turn has passed on ``turns`` times, the match is over or ROLLOUT_LIMIT commands."""
    seen = {"turn": _turn(game, state), "changes": 0}

    def stop(st: Any, _to_act: list[int]) -> bool:
        turn = _turn(game, st)
        if turn != seen["turn"]:
            seen["turn"] = turn
            seen["changes"] += 1
        return seen["changes"] >= turns

    def greedy(st: Any, mover: int, moves: list[str]) -> str:
        return moves[0] if len(moves) == 1 else _judged_best(name, game, st, mover, moves)

    return _play_on(game, state, ROLLOUT_LIMIT, lambda to_act: to_act[0], greedy, stop=stop)


def _judged_best(name: str, game: Any, state: Any, mover: int, moves: list[str]) -> str:
    """The first of ``moves`` that the one-ply judgement likes best for ``mover``."""
    return max(moves, key=lambda c: _value_after(name, game, state, mover, c))


# -------------------------------------------------------------------------------- hard

class _Node:
    __slots__ = ("visits", "value", "avail", "children", "order")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.children: dict[str, _Node] = {}
        self.order: list[str] | None = None     # the moves, best first by the one-ply judgement


def _widened(name: str, game: Any, node: _Node, visits: int, state: Any, mover: int,
             moves: list[str]) -> list[str]:
    """Progressive widening: of ``moves``, the WIDEN_BASE + sqrt(visits) best by the one-ply
    judgement (in a TURN_END game, once the turn is over; ranked on the node's first visit; moves
    another sample brings go last), best first."""
    if node.order is None:
        turn_end = TURN_END.get(name)
        if turn_end:                     # each move judged once the turn it is made in is over
            turn = _turn(game, state)
            value = {m: _value_finished(name, game, state, mover, m, turn, turn_end) for m in moves}
        else:
            value = {m: _value_after(name, game, state, mover, m) for m in moves}
        node.order = sorted(moves, key=lambda m: -value[m])
    else:
        known = set(node.order)
        node.order.extend(m for m in moves if m not in known)
    here = set(moves)
    ranked = [m for m in node.order if m in here]
    return ranked[:WIDEN_BASE + int(math.sqrt(visits))]


def _ismcts(name: str, game: Any, view: dict, legal: list[str], seat: int, rng: random.Random,
            budget_s: float | None) -> str:
    ranked = _ranked(_search(name, game, view, legal, seat, rng, budget_s), legal)
    return ranked[0] if ranked else rng.choice(legal)


def _shortlisted(name: str, game: Any, view: dict, legal: list[str], seat: int, rng: random.Random,
                 budget_s: float | None, k: int, samples: int, turns: int) -> str:
    """The search's ``k`` most visited moves, judged by rollouts over normal (half the budget each)."""
    half = None if budget_s is None else budget_s / 2
    short = _ranked(_search(name, game, view, legal, seat, rng, half), legal)[:k] or list(legal)
    if len(short) == 1:
        return short[0]
    return _rollouts(name, game, view, short, seat, rng, half, samples, turns)


def _search(name: str, game: Any, view: dict, legal: list[str], seat: int, rng: random.Random,
            budget_s: float | None) -> _Node:
    """The information-set search's root after its iterations (or its time budget)."""
    root = _Node()
    turn_end = TURN_END.get(name)
    deadline = None if budget_s is None else time.perf_counter() + max(0.01, budget_s * 0.9)
    iterations = 0
    while True:
        if deadline is None:
            if iterations >= HARD_ITERATIONS:
                break
        elif time.perf_counter() >= deadline and iterations >= 1:
            break
        iterations += 1
        state = game.determinize(view, seat, rng)
        node, path = root, []            # path: (node, mover) pairs to score
        first = True
        root_turn = _turn(game, state) if turn_end else None
        while game.outcome(state) is None:
            to_act = game.to_act(state)
            if not to_act:
                break
            if turn_end and _turn(game, state) != root_turn:
                break                    # the tree ends with the turn it starts in
            mover = seat if first and seat in to_act else rng.choice(to_act)
            moves = legal if first and mover == seat else game.legal_commands(state, mover)
            first = False
            if not moves:
                break
            moves = _widened(name, game, node, iterations if node is root else node.visits,
                             state, mover, moves)
            for m in moves:
                child = node.children.get(m)
                if child is not None:
                    child.avail += 1
            untried = [m for m in moves if m not in node.children]
            if untried:
                m = untried[0]                 # the best untried by the one-ply judgement
                child = node.children[m] = _Node()
                child.avail = 1
                turn = _turn(game, state) if turn_end else None
                state = _step(game, state, mover, m)
                if turn_end and state is not None:
                    state = _finish_turn(name, game, state, turn, turn_end)
                path.append((child, mover))
                break
            m = max(moves, key=lambda c: _ucb(node.children[c]))
            node = node.children[m]
            state = _step(game, state, mover, m)
            path.append((node, mover))
            if state is None:
                break
        scores = _scores(name, game, state) if state is not None else None
        for node_, mover in path:
            node_.visits += 1
            node_.value += scores[mover] if scores and mover < len(scores) else 0.0
    return root


def _ranked(root: _Node, legal: list[str]) -> list[str]:
    """The root's searched moves, most visited first (then the best valued)."""
    options = [m for m in legal if m in root.children]
    return sorted(options, key=lambda m: (-root.children[m].visits, -root.children[m].value))


def _ucb(node: _Node) -> float:
    if node.visits == 0:
        return math.inf
    return node.value / node.visits + UCB_C * math.sqrt(math.log(max(1, node.avail)) / node.visits)


def _step(game: Any, state: Any, seat: int, command: str) -> Any:
    try:
        return game.apply(state, seat, command)
    except Exception:
        return None


def _turn(game: Any, state: Any) -> tuple:
    """Whose turn it is, as everyone sees it (a secret answer in the middle of it is not a turn)."""
    return tuple(game.public_to_act(state) if hasattr(game, "public_to_act") else game.to_act(state))


def _value_finished(name: str, game: Any, state: Any, seat: int, command: str, turn: tuple,
                    turn_end: str) -> float:
    """The evaluation for ``seat`` after ``command`` and the rest of ``turn`` (_finish_turn)."""
    after = _step(game, state, seat, command)
    if after is None:
        return 0.0
    return _scores(name, game, _finish_turn(name, game, after, turn, turn_end))[seat]


def _finish_turn(name: str, game: Any, state: Any, turn: tuple, turn_end: str) -> Any:
    """``state`` played on until ``turn`` has passed on (or the match is over): the turn player
    ends it at once with ``turn_end``; whatever else is asked on the way (an answer in a chain,
    the end-of-turn discards) gets the engine's ``timeout_command`` (pass, the newest card), else
    the one asking decides by the one-ply judgement."""
    def command_of(state: Any, mover: int, moves: list[str]) -> str:
        if turn_end in moves:
            return turn_end
        default = game.timeout_command(state, mover) if hasattr(game, "timeout_command") else None
        if default in moves:
            return default
        return _judged_best(name, game, state, mover, moves)

    return _play_on(game, state, FINISH_COMMANDS, lambda to_act: to_act[0], command_of,
                    stop=lambda st, _to_act: _turn(game, st) != turn)


__all__ = ["choose", "LEVELS"]
