"""SQUARES: which commands are ``final`` (no lone undo) and which ``reveal`` (docs/engine.md).

SQUARES hides nothing and uses no randomness after ``new_match``: no command reveals.  A command
is final when it ends the match, ends the turn, or hands the decision to the other seat; the
only moves that are not final are a ``leap``/``swap`` after which only the mover is over a row
limit, and a ``return`` after which the same player must return more (docs/rules/squares.md,
"Undo: which moves are final").

Every position below is reached by playing the engine from ``new_match`` with legal commands:
deterministic random playouts (fixed seeds) or a scripted line.
"""
from __future__ import annotations

import random
from typing import Callable, Iterator

import pytest

from rules import registry
import rules.squares as squares_engine

game = registry.get("squares")
OPTIONS = {"max_turns": 60}


class Step:
    """One command of a playout: the state before, the seat, the command, the state after, and
    the log (seat, command) of the whole match up to and including this command."""

    def __init__(self, seed, options, before, seat, command, after, log):
        self.seed, self.options = seed, options
        self.before, self.seat, self.command, self.after, self.log = before, seat, command, after, log

    @property
    def verb(self) -> str:
        return self.command.split()[0]

    @property
    def final(self) -> bool:
        return game.final(self.before, self.seat, self.command, self.after)

    @property
    def reveals(self) -> bool:
        return game.reveals(self.before, self.seat, self.command, self.after)


def playout(seed: int, options: dict | None = None) -> Iterator[Step]:
    """A random match from ``new_match`` (deterministic in ``seed``); abilities are preferred
    half of the time so that returns come up often."""
    options = dict(OPTIONS if options is None else options)
    rng = random.Random(seed)
    state = game.new_match(players=2, seed=seed, options=options)
    log: list[tuple[int, str]] = []
    while game.outcome(state) is None:
        (seat,) = game.to_act(state)
        legal = game.legal_commands(state, seat)
        abilities = [c for c in legal if c.split()[0] in ("leap", "swap")]
        command = rng.choice(abilities) if abilities and rng.random() < 0.5 else rng.choice(legal)
        after = game.apply(state, seat, command)
        log = log + [(seat, command)]
        yield Step(seed, options, state, seat, command, after, log)
        state = after


def find(pred: Callable[[Step], bool], seeds=range(400)) -> Step:
    for seed in seeds:
        for step in playout(seed):
            if pred(step):
                return step
    raise AssertionError("no such position in the playouts")


def replay(seed: int, options: dict, log: list[tuple[int, str]]):
    state = game.new_match(players=2, seed=seed, options=options)
    for seat, command in log:
        assert command in game.legal_commands(state, seat), (seat, command)
        state = game.apply(state, seat, command)
    return state


def scripted(line: list[str], first: int = 0):
    """Play ``line`` (alternating seats from ``first``; only legal commands) from new_match."""
    state = game.new_match(players=2, seed=5, options={"first": first})
    for command in line:
        (seat,) = game.to_act(state)
        assert command in game.legal_commands(state, seat), (command, game.legal_commands(state, seat))
        state = game.apply(state, seat, command)
    return state


def assert_undo_exact(step: Step) -> None:
    """A move that is not final can be taken back alone: the mover is still asked, nothing
    ended, and replaying the log without it gives the state before exactly."""
    assert not step.final and not step.reveals
    assert step.seat in game.to_act(step.after)
    assert game.outcome(step.after) is None
    back = replay(step.seed, step.options, step.log[:-1])
    assert game.dump(back) == game.dump(step.before)
    assert game.view(back, 1 - step.seat) == game.view(step.before, 1 - step.seat)


# --------------------------------------------------------------------------- place

def test_place_is_final_and_reveals_nothing():
    """「3. コマの出し方 (1) 手元にあるコマのどれかを手前の列のどこかに出せます」 and
    「2. (2) 行動をしたら、相手の手番になります」: placing an own, known piece from the reserve
    reveals nothing (「手元のコマの裏側は自分のみ確認できます」 — but every seat knows every
    piece set), and it ends the turn: final."""
    step = find(lambda s: s.verb == "place" and s.after.last["battle"] is None
                and game.outcome(s.after) is None)
    assert step.final and not step.reveals
    assert game.to_act(step.after) == [1 - step.seat]


def test_place_onto_an_opponent_battle_is_final_but_no_reveal():
    """「6. (1) 移動(出した)先に相手のコマがあった場合「戦闘」となります」: the battle's result
    follows from numbers and Support pieces everyone sees (「6. (3) 数字を比較します」) — not a
    reveal; the place still ends the turn: final."""
    step = find(lambda s: s.verb == "place" and s.after.last["battle"] is not None)
    assert step.final and not step.reveals


# --------------------------------------------------------------------------- move

def test_move_is_final_and_reveals_nothing():
    """「4. (2) コマは縦横どちらかに1マス動かせます」; one action per turn (「2. (1) 自分の手番では、
    1回だけ行動が出来ます」), then 「相手の手番になります」: final, no reveal."""
    step = find(lambda s: s.verb == "move" and s.after.last["battle"] is None
                and game.outcome(s.after) is None)
    assert step.final and not step.reveals
    assert game.to_act(step.after) == [1 - step.seat]
    battle = find(lambda s: s.verb == "move" and s.after.last["battle"] is not None)
    assert battle.final and not battle.reveals


def test_a_winning_move_is_final():
    """「7. 相手の手番に移る際に、中央3列目の5マス中3マスに自分のコマがいれば勝利!」: the match
    ends — final."""
    step = find(lambda s: game.outcome(s.after) is not None and s.after.result["reason"] == "centre")
    assert step.final and not step.reveals


def test_a_house_rule_draw_is_final():
    """House rules (docs/rules/squares.md): the turn limit and the repeated position end the
    match — final, whichever command triggers them."""
    step = find(lambda s: game.outcome(s.after) is not None
                and s.after.result["reason"] in ("turn_limit", "repetition"))
    assert step.final and not step.reveals


# --------------------------------------------------------------------------- leap

def test_leap_that_ends_the_turn_is_final():
    """「5. (3)(a) 飛躍 選択能力 縦横どちらか、2マス先に動かします」: with every row within its
    limit afterwards the turn ends (「相手の手番になります」): final, no reveal (a battle after a
    leap is decided by public numbers)."""
    step = find(lambda s: s.verb == "leap" and s.after.phase == "play")
    assert step.final and not step.reveals
    battle = find(lambda s: s.verb == "leap" and s.after.last["battle"] is not None
                  and s.after.phase == "play")
    assert battle.final and not battle.reveals


def test_leap_that_leaves_only_the_leaper_over_a_limit_is_not_final():
    """「5. (4)(b) 能力使用后、各列の上限値以上のコマが配置されていた場合 ① 上限値以下になるまで、
    コマを手元に戻します ② どのコマを戻すかは、選択出来ます」: only the leaper is over, so the
    same player must now choose returns — nobody else was asked, nothing hidden was shown: the
    leap may be undone."""
    step = find(lambda s: s.verb == "leap" and s.after.phase == "return"
                and s.after.returner == s.seat)
    assert game.to_act(step.after) == [step.seat]
    assert all(c.startswith("return ") for c in game.legal_commands(step.after, step.seat))
    assert_undo_exact(step)


# --------------------------------------------------------------------------- swap

def test_swap_that_ends_the_turn_is_final():
    """「5. (3)(b) 交換 選択能力 隣接するコマと位置を交換出来ます」, then 「相手の手番になります」:
    final, no reveal."""
    step = find(lambda s: s.verb == "swap" and s.after.phase == "play")
    assert step.final and not step.reveals


def test_swap_that_leaves_only_the_swapper_over_a_limit_is_not_final():
    """「5. (4)(a) 能力を使う場合は、列毎の数字合計の上限値を超えても構いません」 and
    「(b)① 上限値以下になるまで、コマを手元に戻します」: the swapper alone must return — not
    final; undo is exact."""
    step = find(lambda s: s.verb == "swap" and s.after.phase == "return"
                and s.after.returner == s.seat)
    assert_undo_exact(step)


def test_swap_that_pushes_the_opponent_over_is_final():
    """「5. (4)(b)③ お互いに超えていた場合 ・相手側から、上限値以下になるまで、コマを戻します」 (and
    「自分のコマでも、相手のコマでも交換出来ます」): the opponent must now choose returns — the
    decision is handed over: final (no reveal)."""
    step = find(lambda s: s.verb == "swap" and s.after.phase == "return"
                and s.after.returner != s.seat)
    assert game.to_act(step.after) == [1 - step.seat]
    assert step.final and not step.reveals


# --------------------------------------------------------------------------- return

def test_return_with_more_to_return_is_not_final():
    """「5. (4)(b)① 上限値以下になるまで、コマを手元に戻します ② どのコマを戻すかは、選択出来ます」:
    a return after which the same player is still over a limit leaves that player choosing
    again — not final, undo is exact."""
    step = find(lambda s: s.verb == "return" and s.after.phase == "return"
                and s.after.returner == s.seat)
    assert_undo_exact(step)


def test_last_return_of_the_mover_ends_the_turn_and_is_final():
    """「(b)③ 手番側は、その後、上限値以下になるまで、コマを戻します」 then the turn passes
    (「相手の手番になります」): the last return of the turn player is final."""
    step = find(lambda s: s.verb == "return" and s.seat == s.before.player
                and s.after.phase == "play")
    assert game.to_act(step.after) == [1 - step.seat]
    assert step.final and not step.reveals


def test_last_return_of_the_opponent_that_ends_the_turn_is_final():
    """「7. 相手の手番に移る際に…勝利」 / 「2. (2) 行動をしたら、相手の手番になります」: after a swap
    pushed only the opponent over, the opponent's last return ends the turn, and the opponent —
    already asked — starts their own turn.  No new seat is asked, but the turn passed (the win
    was checked): final, so no lone undo across a turn."""
    step = find(lambda s: s.verb == "return" and s.seat != s.before.player
                and s.after.phase == "play", seeds=range(90, 100))
    assert game.to_act(step.after) == [step.seat]           # the same seat goes on...
    assert step.after.turn == step.before.turn + 1          # ...but in a new turn
    assert step.final and not step.reveals


def test_last_return_of_the_opponent_hands_the_returns_to_the_mover():
    """「(b)③ お互いに超えていた場合 ・相手側から…戻します ・手番側は、その後…戻します」: when both
    are over, the opponent's last return hands the decision to the turn player: final.  Reached
    by a legal line from new_match: seat 0's Swap 1 on c2 trades places with seat 1's Swap 4 on
    c3, leaving seat 0 at 9 on rank 3 and seat 1 at 9 on rank 2."""
    state = scripted([
        "place S5 a1", "place L5 b5",
        "move a1 a2", "move b5 b4",
        "move a2 a3", "move b4 b3",
        "place L3 e1", "move b3 b2",
        "move e1 e2", "move b2 a2",
        "move e2 e3", "place X4 c5",
        "place X1 c1", "move c5 c4",
        "move c1 c2", "move c4 c3",
    ])
    swapped = game.apply(state, 0, "swap c2 c3")
    assert game.to_act(swapped) == [1] and game.final(state, 0, "swap c2 c3", swapped)
    assert game.legal_commands(swapped, 1) == ["return a2", "return c2"]
    returned = game.apply(swapped, 1, "return a2")
    assert game.to_act(returned) == [0] and returned.phase == "return"
    assert game.final(swapped, 1, "return a2", returned)
    assert not game.reveals(swapped, 1, "return a2", returned)
    done = game.apply(returned, 0, "return a3")
    assert game.to_act(done) == [1]
    assert game.final(returned, 0, "return a3", done) and not game.reveals(returned, 0, "return a3", done)


# --------------------------------------------------------------------------- pass

def test_pass_is_final(monkeypatch):
    """「2. (1) 自分の手番では、1回だけ行動が出来ます」 — a player with no legal action passes
    (project ruling) and the turn passes: final.  Under these rules a pass never becomes legal
    (docs/rules/squares.md, "Passing, draws and the first player"), so the engine's legal list is forced to ``pass`` for
    this one check; the pass itself runs through the engine's own code."""
    step = find(lambda s: s.before.phase == "play", seeds=[3])
    monkeypatch.setattr(squares_engine, "_legal", lambda state: ("pass",))
    after = game.apply(step.before, step.seat, "pass")
    assert game.to_act(after) == [1 - step.seat]
    assert game.final(step.before, step.seat, "pass", after)
    assert not game.reveals(step.before, step.seat, "pass", after)


# --------------------------------------------------------------------------- the safety net

def test_reveals_when_a_hidden_field_changes():
    """The generic net: a change outside the public fields (the seed: randomness) is a reveal,
    and therefore final even when the mover is still asked."""
    from dataclasses import replace
    step = find(lambda s: s.verb == "return" and s.after.phase == "return"
                and s.after.returner == s.seat)
    tampered = replace(step.after, seed=step.after.seed + 1)
    assert game.reveals(step.before, step.seat, step.command, tampered)
    assert game.final(step.before, step.seat, step.command, tampered)


# --------------------------------------------------------------------------- the laws

@pytest.mark.parametrize("block", range(4))
def test_final_property_over_random_playouts(block):
    """Over seeded random matches: ``reveals`` is never True (SQUARES hides nothing);
    reveals ⇒ final; not final exactly when the mover alone must go on returning in the same
    turn; a non-final move keeps the mover asked, ends nothing, leaves the seed alone and shows
    the other seat nothing it could not see (every view is the same but for its ``seat``);
    and load(dump(before)) + the command gives dump(after) exactly."""
    non_final = 0
    for seed in range(block * 40, block * 40 + 40):
        for step in playout(seed):
            before, seat, after = step.before, step.seat, step.after
            final, reveals = step.final, step.reveals
            assert not reveals
            assert final or not reveals
            alone = (after.phase == "return" and after.returner == seat
                     and after.turn == before.turn)
            assert final == (not alone), (seed, step.command)
            again = game.apply(game.load(game.dump(before)), seat, step.command)
            assert game.dump(again) == game.dump(after)
            if final:
                continue
            non_final += 1
            assert seat in game.to_act(after)
            assert game.outcome(after) is None
            assert (after.seed, after.first) == (before.seed, before.first)
            other = 1 - seat
            seen = dict(game.view(after, other), seat=None)
            assert seen == dict(game.view(after, seat), seat=None) == game.view(after, None)
            assert dict(game.view(before, other), seat=None) == game.view(before, None)
    assert non_final > 0
