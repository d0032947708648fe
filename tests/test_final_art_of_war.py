"""Art of War: which moves are final (docs/engine.md ``final`` / ``reveals``;
docs/rules/art_of_war.md, "Undo: which moves are final"; rules/art_of_war/finality.py).

One test per kind of move, each quoting the rulebook clause (アート・オブ・ウォー 基本説明) or
the project ruling that makes it final or not, on a real position reached by playing the engine
from ``new_match`` (fixed seeds, legal commands only).  Then a property test over seeded random
playouts and the determinism law the host's undo relies on.
"""
from __future__ import annotations

import functools
import random
from collections import Counter

from rules import registry
from rules.art_of_war.finality import answer_hidden
from rules.common import handed_over

game = registry.get("art_of_war")
DECKS = sorted(game.decks.ready())
ARRANGE = ("deploy", "exchange", "move", "play", "swap")


def _battle(rng: random.Random, legal: list[str]) -> str:
    """Attacks when it can (60 %), so battlefields empty and conscription comes up; else random."""
    attacks = [c for c in legal if c.startswith("attack ")]
    if attacks and rng.random() < 0.6:
        return rng.choice(attacks)
    return rng.choice(legal)


def _random(rng: random.Random, legal: list[str]) -> str:
    return rng.choice(legal)


def walk(m: int, policy=_battle, log: list | None = None):
    """The moves of playout ``m`` (seed, first player and decks fixed by ``m``):
    ``(before, seat, command, after)``."""
    rng = random.Random(m)
    options = {"first": m % 2, "decks": [DECKS[m % len(DECKS)], DECKS[(m // 2) % len(DECKS)]]}
    s = game.new_match(players=2, seed=7000 + m, options=options)
    while game.outcome(s) is None:
        [seat] = game.to_act(s)
        cmd = policy(rng, game.legal_commands(s, seat))
        after = game.apply(s, seat, cmd)
        if log is not None:
            log.append((seat, cmd))
        yield s, seat, cmd, after
        s = after


@functools.cache
def corpus() -> tuple:
    """Every move of 100 battle-minded and 40 uniformly random playouts (about 0.3 s)."""
    moves = []
    for m in range(100):
        moves += walk(m)
    for m in range(100, 140):
        moves += walk(m, _random)
    return tuple(moves)


def kind(before, seat: int, cmd: str) -> str:
    verb = cmd.split()[0]
    if verb == "support":
        return "answer" if before.window is not None else "support"
    return verb


def find(pred):
    """The first move of the corpus with ``pred(before, seat, cmd, after)``."""
    for move in corpus():
        if pred(*move):
            return move
    raise AssertionError("no such move in the corpus")


def verdict(move) -> tuple[bool, bool]:
    before, seat, cmd, after = move
    return game.final(before, seat, cmd, after), game.reveals(before, seat, cmd, after)


def still_to_act(move) -> None:
    """A move that is not final: its player still decides, nothing else changed hands."""
    before, seat, cmd, after = move
    assert seat in game.to_act(after) and game.outcome(after) is None
    assert game.public_to_act(after) == game.public_to_act(before) == [seat]
    assert not game.hidden_pending(after)


# ----------------------------------------------------------------------------- set-up

def test_keep_is_final_but_reveals_nothing():
    """④「お互いにデッキから3枚引く。(気に入らない場合一度だけ戻してシャッフルし、引き直すことが
    できる)」— the players decide one after the other (engine ruling): keeping shows nothing, but
    the next decision is the other player's (the second ``keep`` hands set-up ⑥ to the first)."""
    for which in (0, 1):
        move = find(lambda b, s, c, a: c == "keep" and b.mull[1 - s] == bool(which))
        assert verdict(move) == (True, False)
        before, seat, _, after = move
        assert game.to_act(after) == [1 - seat] and handed_over(game, before, seat, after)


def test_mulligan_shuffles_and_draws_so_it_reveals():
    """④「一度だけ戻してシャッフルし、引き直すことができる」: a shuffle and three new cards — the
    random stream is used and the player sees cards nobody knew."""
    move = find(lambda b, s, c, a: c == "mulligan")
    assert verdict(move) == (True, True)
    before, _, _, after = move
    assert before.rng != after.rng


def test_setup_turns_the_deck_top_face_up_so_it_reveals():
    """⑥「デッキトップから1枚王国エリアに表向きで1枚置く」: the top card of the deck, unknown to
    everyone, goes face up into the kingdom."""
    move = find(lambda b, s, c, a: c.startswith("setup "))
    assert verdict(move) == (True, True)
    before, seat, _, after = move
    assert len(after.decks[seat]) == len(before.decks[seat]) - 1


# ----------------------------------------------------------------------------- arrange

def _arrange(verb: str):
    move = find(lambda b, s, c, a: c.split()[0] == verb)
    assert verdict(move) == (False, False), move[2]
    still_to_act(move)
    assert move[3].mode == "arrange"
    return move


def test_deploy_is_not_final():
    """アレンジフェイズ「待機エリアの先頭のカードを自分の戦場エリアに1体好きな場所へ配置する」: the
    waiting area is face up (「最大5枚まで表向きにカードを置く」), so the card is known; the turn
    goes on (「やりたい行動を行った後エンド宣言を行うと相手のターンに移行する」) — Undo allowed."""
    _arrange("deploy")


def test_exchange_is_not_final():
    """「自分の戦場エリアに居るユニット1体を待機エリアの後方へ置き、待機エリアの先頭のカードを同じ
    場所へ置く」: between two face-up places; nothing drawn, the turn goes on."""
    _arrange("exchange")


def test_move_is_not_final():
    """「自分の戦場エリアに居るユニット1体を自分の戦場内で好きな場所に移動させる。(移動させたい
    場所にユニットがいる場合、場所を入れ替える)」: moving one's own unit on the board."""
    before, _, _, after = _arrange("move")
    assert after.hands == before.hands and after.decks == before.decks


def test_play_is_not_final():
    """「待機エリアにカードが無い場合のみ、手札から戦場エリアの好きな場所へ1枚配置する」: the mover
    plays a card of their own hand that they knew (what it showed stays public)."""
    before, seat, _, after = _arrange("play")
    assert len(after.hands[seat]) == len(before.hands[seat]) - 1


def test_swap_is_not_final():
    """「待機エリアにカードが無い場合のみ、戦場エリアのユニット1体と手札1枚を入れ替える」: a known
    hand card for a face-up unit."""
    _arrange("swap")


# ----------------------------------------------------------------------------- immigration

def test_immigrate_is_not_final_unless_it_wins():
    """入国「自分のターン中に任意のタイミングで王国エリアへ手札から1枚だけ表向きに置くことができる」:
    one's own card face up — not final.  But 建国「その時枚数の上回っている種類が4種類になった
    プレイヤーが勝利します」: an immigration that wins ends the match — final."""
    move = find(lambda b, s, c, a: c.startswith("immigrate ") and game.outcome(a) is None)
    assert verdict(move) == (False, False)
    still_to_act(move)
    won = find(lambda b, s, c, a: c.startswith("immigrate ") and game.outcome(a) is not None)
    assert game.outcome(won[3])["reason"] == "nation_building"
    assert verdict(won) == (True, False)


# ----------------------------------------------------------------------------- battle

def test_attack_that_opens_a_guardian_window_is_final():
    """GUARDIAN「相手ユニットからの攻撃をキャンセルする。この支援は相手のターンにのみ使用できる。」—
    the defender gets a private response window (project ruling): a secret decision opens."""
    move = find(lambda b, s, c, a: c.startswith("attack ") and a.window is not None)
    assert verdict(move) == (True, True)
    before, seat, _, after = move
    assert game.to_act(after) == [1 - seat] and game.hidden_pending(after)


def test_attack_the_defender_might_have_answered_reveals():
    """Windows are offered only when the defender could answer (project ruling: 「相手ユニットから
    の攻撃をキャンセルする」 needs a GUARDIAN or the KING in hand).  An attack that resolves at once
    although the defender had cards and room in the waiting area shows that the hand holds neither
    — a fact about a hidden hand, so the attack cannot be taken back (else a free probe)."""
    move = find(lambda b, s, c, a: c.startswith("attack ") and a.window is None
                and answer_hidden(b, s) and game.outcome(a) is None and a.phase == "play")
    before, seat, _, after = move
    assert not handed_over(game, before, seat, after)         # only the reveal makes it final
    assert verdict(move) == (True, True)


def test_attack_the_defender_publicly_cannot_answer_is_not_final():
    """「待機エリアには5枚までしかカードを置くことはできない」: with 5 cards in the defender's waiting
    area (or no card in hand) no answer is possible and everyone knows it; the result follows from
    public numbers (SOLDIER: 「攻撃宣言時点での手札枚数」, a public count), and the attacker goes
    on (「戦場エリアに居るユニット1体につき1度ずつ攻撃できる」) — Undo allowed."""
    move = find(lambda b, s, c, a: c.startswith("attack ") and not answer_hidden(b, s)
                and game.outcome(a) is None and a.phase == "play")
    assert verdict(move) == (False, False)
    still_to_act(move)
    assert move[3].mode == "battle"


def test_attack_that_empties_the_battlefield_hands_over_conscription():
    """徴兵「戦場エリアのカードが0枚になった時即座に行う」: the defender must now choose where to
    conscript — a decision for the other seat, final."""
    move = find(lambda b, s, c, a: c.startswith("attack ") and a.phase == "draft" and a.actor != s)
    assert verdict(move)[0] is True
    assert game.to_act(move[3]) == [1 - move[1]]


def test_attack_that_executes_the_king_is_final():
    """処刑「相手の「KING」を墓地送り、または捕獲する」: the match is over."""
    move = find(lambda b, s, c, a: c.startswith("attack ") and game.outcome(a) is not None)
    assert game.outcome(move[3])["reason"] in ("execution", "nation_building")
    assert verdict(move)[0] is True


# ----------------------------------------------------------------------------- rear support

def test_rear_support_that_opens_a_wizard_window_is_final():
    """WIZARD「相手の後方支援が発動した時それを無効にする。自分・相手のターンを問わず」: the opponent
    gets a private window — final and a reveal (a secret window opened)."""
    move = find(lambda b, s, c, a: kind(b, s, c) == "support" and a.window is not None)
    assert verdict(move) == (True, True)
    assert game.to_act(move[3]) == [1 - move[1]]


def test_rear_support_the_opponent_might_have_answered_reveals():
    """「後方支援(カード名)を宣言し待機エリアに置いて発動できる」 and a window only when the
    opponent could answer: a support that resolves at once while the opponent had cards and room
    shows they hold no WIZARD nor KING — final."""
    move = find(lambda b, s, c, a: kind(b, s, c) == "support" and a.window is None
                and answer_hidden(b, s) and game.outcome(a) is None and a.phase == "play")
    assert not handed_over(game, *move[:2], move[3])
    assert verdict(move) == (True, True)


def test_rear_support_the_opponent_publicly_cannot_answer_is_not_final():
    """「待機エリアには5枚までしかカードを置くことはできない」: the opponent's full waiting area (or
    empty hand) rules out a WIZARD publicly; the mover's own card goes face up into the waiting area
    (「待機エリアに置いて発動」) — nothing hidden is shown, the turn goes on."""
    for eff in ("s", "a", "p"):
        move = find(lambda b, s, c, a: kind(b, s, c) == "support" and c.split()[-1 if eff == "s" else 1] == eff
                    and not answer_hidden(b, s) and game.outcome(a) is None and a.phase == "play")
        assert verdict(move) == (False, False), move[2]
        still_to_act(move)
    king = find(lambda b, s, c, a: c.startswith("support k ") and b.window is None
                and not answer_hidden(b, s) and game.outcome(a) is None and a.phase == "play")
    assert verdict(king) == (False, False)


def test_answers_in_a_window_are_final_and_reveal():
    """GUARDIAN「相手ユニットからの攻撃をキャンセルする」, WIZARD「相手の後方支援が発動した時それを
    無効にする」 (and the KING: 「使用したい後方支援を宣言して発動できる」): a secret decision is
    disclosed, and either the next private window opens or the chain resolves."""
    for eff in ("g", "w"):
        move = find(lambda b, s, c, a: kind(b, s, c) == "answer" and c.split()[-1] == eff)
        assert verdict(move) == (True, True)
    king = find(lambda b, s, c, a: kind(b, s, c) == "answer" and c.startswith("support k "))
    assert verdict(king) == (True, True)


def test_pass_in_a_window_is_final_and_reveals():
    """The window is private (project ruling: offered only when the player could answer); passing
    discloses the secret choice and lets the declaration resolve."""
    move = find(lambda b, s, c, a: c == "pass" and s != b.player)
    assert verdict(move) == (True, True)
    assert not game.hidden_pending(move[3])              # the chain resolved


def test_turn_players_last_answer_is_final_though_the_turn_stays():
    """A WIZARD answers a WIZARD / a GUARDIAN (engine and project rulings): when the turn player
    answers or passes the deepest window, the chain resolves and the turn player acts again —
    nothing was handed over, but the secret window's result was disclosed: final by ``reveals``."""
    for verb in ("pass", "support"):
        move = find(lambda b, s, c, a: c.split()[0] == verb and b.window == s == b.player
                    and game.outcome(a) is None and a.window is None)
        before, seat, _, after = move
        assert not handed_over(game, before, seat, after)
        assert verdict(move) == (True, True)


# ----------------------------------------------------------------------------- conscription

def test_first_draft_is_not_final_the_last_is():
    """徴兵「待機エリアの先頭から2枚を順番に戦場エリアの好きな場所へ配置する」 (or from the face-up
    kingdom, 「王国エリアから1枚選び」): the first placement leaves the same player to place the
    second — not final; the last one in the opponent's turn hands the turn back — final."""
    first = find(lambda b, s, c, a: c.startswith("draft ") and b.draft == 2)
    assert verdict(first) == (False, False)
    still_to_act(first)
    last = find(lambda b, s, c, a: c.startswith("draft ") and b.draft == 1 and s != b.player)
    assert verdict(last) == (True, False)
    assert game.to_act(last[3]) == [last[3].player]
    kingdom = find(lambda b, s, c, a: c.startswith("draft ") and len(c.split()) == 3)     # 「王国エリアから」
    assert verdict(kingdom)[1] is False


# ----------------------------------------------------------------------------- end

def test_end_is_final_and_reveals_the_next_draw():
    """「エンド宣言を行うと相手のターンに移行する」 and 2、ドローフェイズ「ターンプレイヤーはデッキから
    カードを引き、手札に加える」: the other player decides and draws a card nobody knew."""
    move = find(lambda b, s, c, a: c == "end" and game.outcome(a) is None)
    assert verdict(move) == (True, True)
    assert game.to_act(move[3]) == [1 - move[1]]
    # 終戦「お互いの山札が無くなったターンの終了時に判定する」: nothing left to draw, the match ends
    over = find(lambda b, s, c, a: c == "end" and game.outcome(a) is not None)
    assert game.outcome(over[3])["reason"] == "end_of_war"
    assert verdict(over) == (True, False)


# ----------------------------------------------------------------------------- properties

def test_every_kind_of_move_is_covered():
    kinds = Counter(kind(b, s, c) for b, s, c, _ in corpus())
    assert set(kinds) == {"keep", "mulligan", "setup", *ARRANGE, "attack", "support", "answer",
                          "immigrate", "pass", "draft", "end"}, kinds


def test_final_is_reveals_or_handed_over_and_never_hides_anything():
    """Over every move of seeded random playouts: ``final == reveals or handed_over``; a move that
    is not final keeps its player to act, ends nothing, leaves the random stream, both decks and
    the other hand as they were, and the other seat's view differs only in what the move publicly
    showed; some kinds are always final, the arrange actions never."""
    count = Counter()
    for before, seat, cmd, after in corpus():
        f, r = game.final(before, seat, cmd, after), game.reveals(before, seat, cmd, after)
        assert f == (r or handed_over(game, before, seat, after))
        assert f or not r
        k = kind(before, seat, cmd)
        count[k, f] += 1
        if k in ARRANGE:
            assert not f, cmd
        if k in ("keep", "mulligan", "setup", "answer", "pass", "end"):
            assert f, cmd
        if k in ("mulligan", "setup", "answer", "pass"):
            assert r, cmd
        if not r:
            assert before.rng == after.rng and before.decks == after.decks
            assert not game.hidden_pending(after) or game.hidden_pending(before)
        if f:
            continue
        o = 1 - seat
        assert seat in game.to_act(after) and game.outcome(after) is None
        assert before.rng == after.rng and before.decks == after.decks
        assert sorted(before.hands[o]) == sorted(after.hands[o])
        assert before.window is None and after.window is None
        vb, va = game.view(before, o), game.view(after, o)
        assert va["hand"] == vb["hand"] and va["to_act"] == vb["to_act"]
        assert [p["deck_count"] for p in va["players"]] == [p["deck_count"] for p in vb["players"]]
        assert va["players"][o]["hand_count"] == vb["players"][o]["hand_count"]
        shown = 1 if k in ("play", "immigrate", "support") else 0     # the card played, face up
        assert vb["players"][seat]["hand_count"] - va["players"][seat]["hand_count"] == shown
        assert "window" not in va and "window" not in vb
        assert game.view(after, None)["to_act"] == game.view(before, None)["to_act"] == [seat]
    assert all(count[k, False] for k in (*ARRANGE, "attack", "support", "immigrate", "draft")), count


def test_going_back_is_exact():
    """The host's undo replays the log without the move: ``load(dump(before))`` with the command
    gives ``dump(after)`` (determinism), and replaying a match's log up to a move that is not final
    gives that move's ``before`` exactly."""
    for before, seat, cmd, after in corpus()[::7]:
        again = game.apply(game.load(game.dump(before)), seat, cmd)
        assert game.dump(again) == game.dump(after)
        assert game.final(game.load(game.dump(before)), seat, cmd, again) == game.final(before, seat, cmd, after)
    undone = 0
    for m in (0, 1, 2, 3):
        log: list = []
        moves = list(walk(m, log=log))
        options = {"first": m % 2, "decks": [DECKS[m % len(DECKS)], DECKS[(m // 2) % len(DECKS)]]}
        state = game.new_match(players=2, seed=7000 + m, options=options)
        for (before, seat, cmd, after), (s, c) in zip(moves, log):
            if not game.final(before, seat, cmd, after):      # the log without this entry
                assert game.dump(state) == game.dump(before)
                undone += 1
            state = game.apply(state, s, c)
        assert game.dump(state) == game.dump(moves[-1][3])
    assert undone
