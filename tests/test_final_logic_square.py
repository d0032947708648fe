"""Battle Logic Square: ``final`` and ``reveals`` (docs/engine.md; docs/rules/logic_square.md,
"Undo: which moves are final").

``final`` = ``reveals`` or ``rules.common.handed_over``.  Not final (undoable by its player within
the turn): ``move`` and ``avi`` with AP left, ``end`` and ``discard`` that leave the player
discarding, ``caa`` from an empty deck.  Always final: ``use``, ``it``, ``chain``, ``pass`` (a card
declaration opens the opponent's secret chain decision), anything that draws or uses the PRNG,
anything that passes the turn or ends the match.

Every position below is reached by playing the engine from ``new_match`` (fixed seeds, commands
from ``legal_commands``).
"""
from __future__ import annotations

import random
from functools import lru_cache

from rules import registry
from rules.common import handed_over
from rules.logic_square.finality import reveals as reveals_fn

game = registry.get("logic_square")

DECKS = ("blitz", "aegis", "cipher", "fox")
SEEDS = 48


def _choose(rng: random.Random, legal: list[str], style: int) -> str:
    """Random play; style 1 avoids CAA and early ends (longer turns, more chains)."""
    if style == 1:
        calm = [c for c in legal if not c.startswith(("caa", "end"))]
        if calm and rng.random() < 0.85:
            return rng.choice(calm)
    return rng.choice(legal)


@lru_cache(maxsize=None)
def steps() -> tuple[tuple, ...]:
    """(before, seat, command, after, seed) for every command of SEEDS × 2 seeded playouts."""
    out = []
    for seed in range(SEEDS):
        for style in (0, 1):
            rng = random.Random(1000 * style + seed)
            decks = [DECKS[seed % 4], DECKS[(seed // 4) % 4]]
            state = game.new_match(2, seed, {"decks": decks})
            while game.outcome(state) is None:
                seat = game.to_act(state)[0]
                cmd = _choose(rng, game.legal_commands(state, seat), style)
                after = game.apply(state, seat, cmd)
                out.append((state, seat, cmd, after, seed))
                state = after
    return tuple(out)


def find(pred):
    """The first step (a real position of a seeded playout) that ``pred`` accepts."""
    for before, seat, cmd, after, _ in steps():
        if pred(before, seat, cmd, after):
            return before, seat, cmd, after
    raise AssertionError("no such position in the playouts")


def verb(cmd: str) -> str:
    return cmd.split()[0]


def same_turn(before, seat, after) -> bool:
    return game.outcome(after) is None and after.player == before.player == seat


def check(before, seat, cmd, after, *, final: bool, reveals: bool) -> None:
    assert game.final(before, seat, cmd, after) is final, cmd
    assert game.reveals(before, seat, cmd, after) is reveals, cmd


# --------------------------------------------------------------------------- move (6.II A)

def test_move_with_ap_left_is_not_final_and_the_player_acts_again():
    """6.II A 「1AP消費します。自分の《AVI》カード1枚を選んで…移動します」; 6.II 「得たAPをすべて消費する
    まで、以下の行動を任意の順番、回数行います」 — the player's own AVI on the open board, AP left: the
    turn goes on, nothing was hidden.  The e2e mis-tap: seed 7, first 0, ``move c2``."""
    before = game.new_match(2, 7, {"first": 0})
    after = game.apply(before, 0, "move c2")
    check(before, 0, "move c2", after, final=False, reveals=False)
    assert game.to_act(after) == [0] and after.ap == 1
    assert "move c2" not in game.legal_commands(after, 0)        # the AVI stands on c2 now
    # undo = replay without the entry: exactly the state before
    assert game.dump(game.new_match(2, 7, {"first": 0})) == game.dump(before)
    # and from the playouts
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "move" and a.ap > 0 and a.phase == "main")
    check(b, s, c, a, final=False, reveals=False)
    assert game.to_act(a) == [s]


def test_move_spending_the_last_ap_passes_the_turn_and_is_final():
    """6.II 「APをすべて消費したら、メインフェイズを終了し、エンドフェイズに移行します」; 6.III ②
    「相手のプレイヤーのターンに移行する」; 6.I 「自分の手札が5枚になるまで…引きます」 — the opponent's turn
    begins and they draw: handed over and revealed."""
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "move" and a.player != s and b.deck[1 - s]
                      and game.outcome(a) is None)
    check(b, s, c, a, final=True, reveals=True)
    assert game.to_act(a) == [1 - s]


def test_move_spending_the_last_ap_into_the_discard_is_not_final():
    """6.III ① 「自分の手札が6枚以上の場合、5枚となるまで手札を選んで、トラッシュに置く」 — the same player
    still decides (which cards to trash); nothing hidden was shown."""
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "move" and a.phase == "discard")
    check(b, s, c, a, final=False, reveals=False)
    assert game.to_act(a) == [s]


# --------------------------------------------------------------------------- use (6.II B, 8.)

def test_use_resolving_at_once_is_still_final():
    """6.II B 「相手は自分が使用したカードに対して、チェーンアクションを行えます」; 8. 「使用したカードの効果を
    解決する前に、相手はチェーンアクションを行えます」 — every card use puts a secret answer decision to the
    opponent; whether one was offered must never show (ruling: "never reveal that they hold one"),
    so a use that met no window is as final as one that did."""
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "use" and a.window is None and same_turn(b, s, a)
                      and a.ap > 0 and a.deck == b.deck and a.rng == b.rng)
    check(b, s, c, a, final=True, reveals=True)
    assert not handed_over(game, b, s, a)          # the game knowledge is in reveals
    assert game.to_act(a) == [s]


def test_use_opening_a_chain_window_is_final():
    """8. 「相手はチェーンアクションとして…使用の宣言ができます」 — the opponent now decides, in secret."""
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "use" and a.window == 1 - s)
    check(b, s, c, a, final=True, reveals=True)
    assert game.to_act(a) == [1 - s] and game.public_to_act(a) == [s]


# --------------------------------------------------------------------------- it (6.II C)

def test_it_is_final():
    """6.II C 「《IT》カードデッキにある裏向きの《IT》カード1枚を選んで公開して、カードの使用を宣言します」
    and 8. 「自分がカードを使用した時、相手の手札に【ブレイク条件】を満たす《Br》カードがある場合…」 — a
    declaration like a hand card's: the opponent's secret answer decision."""
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "it" and a.window is None and same_turn(b, s, a))
    check(b, s, c, a, final=True, reveals=True)
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "it" and a.window == 1 - s)
    check(b, s, c, a, final=True, reveals=True)


# --------------------------------------------------------------------------- chain / pass (8.)

def test_chain_answer_by_the_opponent_is_final():
    """8. 「相手がチェーンアクションによって《CB》を持つカードを使用した場合、自分もチェーンアクションとして…
    使用の宣言ができます」 — the answer hands the decision back, or resolves the chain."""
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "chain" and s != b.player)
    check(b, s, c, a, final=True, reveals=True)
    assert s not in game.to_act(a)


def test_chain_answer_by_the_turn_player_is_final():
    """8. 「お互いにチェーンアクションを繰り返し…」 — the turn player's answer in their own secret window."""
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "chain" and s == b.player)
    check(b, s, c, a, final=True, reveals=True)


def test_pass_by_the_opponent_is_final():
    """8. 「どちらかが使用しないことを選んだ時、チェーンアクションを終了します。その後…効果の解決を行います」
    — a secret choice, disclosed by the resolution."""
    b, s, c, a = find(lambda b, s, c, a: c == "pass" and s != b.player)
    check(b, s, c, a, final=True, reveals=True)
    assert s not in game.to_act(a)


def test_pass_by_the_turn_player_is_final_though_they_act_on():
    """8. 「最後にカードの使用を宣言したプレイヤーから順番に…効果の解決を行います」 — the turn player's pass
    closes the chain; the opponent's secret answer becomes public.  They keep acting (handed_over
    alone would miss it): reveals says so."""
    b, s, c, a = find(lambda b, s, c, a: c == "pass" and s == b.player and same_turn(b, s, a))
    assert not handed_over(game, b, s, a) and game.to_act(a) == [s]
    check(b, s, c, a, final=True, reveals=True)


# --------------------------------------------------------------------------- avi (6.II D)

def test_avi_ability_with_ap_left_is_not_final():
    """6.II D 「《AVI》カードの効果に記載されたAPを消費します…《AVI》カードに記載された効果を使用します」 —
    the player's own AVI, no card declared (no chain), nothing hidden: the turn goes on."""
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "avi" and same_turn(b, s, a) and a.phase == "main"
                      and a.deck == b.deck)
    check(b, s, c, a, final=False, reveals=False)
    assert game.to_act(a) == [s]


def test_avi_ability_that_draws_is_final():
    """Cipher Moth's ability 1 draws a card: 4.④ 「すべて裏向きで置き、お互いに表面は確認できません」 —
    a card from the face-down deck is a reveal."""
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "avi" and len(a.deck[s]) < len(b.deck[s]))
    assert b.avi[s] == "av03"
    check(b, s, c, a, final=True, reveals=True)


# --------------------------------------------------------------------------- caa (6.II E)

def test_caa_draws_and_is_final():
    """6.II E 「トラッシュに置いたカードの枚数の2倍の枚数、自分のリソースデッキを引きます」 — a draw."""
    before = game.new_match(2, 7, {"first": 0})
    after = game.apply(before, 0, "caa ac01")
    check(before, 0, "caa ac01", after, final=True, reveals=True)
    assert game.to_act(after) == [0]               # still their turn, yet no undo


def test_caa_from_an_empty_deck_is_not_final():
    """5. rulings: 「An empty deck draws nothing」 — trashing one's own known hand cards face up
    (⑤ 「トラッシュに置くカードはすべて表向き」) with nothing drawn reveals nothing."""
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "caa" and not b.deck[s] and same_turn(b, s, a))
    check(b, s, c, a, final=False, reveals=False)


# --------------------------------------------------------------------------- end (6.II, 6.III)

def test_end_with_a_full_hand_is_not_final():
    """6.III ① 「自分の手札が6枚以上の場合、5枚となるまで手札を選んで、トラッシュに置く」 — the player
    still has the discard to make; ending the main phase showed nothing hidden."""
    b, s, c, a = find(lambda b, s, c, a: c == "end" and a.phase == "discard")
    check(b, s, c, a, final=False, reveals=False)
    assert game.to_act(a) == [s]


def test_end_passing_the_turn_is_final():
    """6.III ② 「相手のプレイヤーのターンに移行する」 and 6.I — the opponent's draw phase draws."""
    b, s, c, a = find(lambda b, s, c, a: c == "end" and a.player != s and b.deck[1 - s])
    check(b, s, c, a, final=True, reveals=True)


def test_end_passing_the_turn_from_an_empty_deck_is_final_without_revealing():
    """6.I with an empty deck draws nothing, but 6.III ② hands the turn over: final, no reveal."""
    b, s, c, a = find(lambda b, s, c, a: c == "end" and a.player != s and not b.deck[1 - s]
                      and game.outcome(a) is None)
    check(b, s, c, a, final=True, reveals=False)


# --------------------------------------------------------------------------- discard (6.III ①)

def test_discard_with_more_to_go_is_not_final():
    """6.III ① 「5枚となるまで手札を選んで、トラッシュに置く」 — one of several choices of the same player."""
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "discard" and a.phase == "discard")
    check(b, s, c, a, final=False, reveals=False)
    assert game.to_act(a) == [s]


def test_last_discard_passes_the_turn_and_is_final():
    """6.III ② 「相手のプレイヤーのターンに移行する」 — the opponent's turn and draw."""
    b, s, c, a = find(lambda b, s, c, a: verb(c) == "discard" and a.player != s and b.deck[1 - s])
    check(b, s, c, a, final=True, reveals=True)


# --------------------------------------------------------------------------- the match's end (7.)

def test_a_command_that_ends_the_match_is_final():
    """7. 「ライフポイントが0以下になったプレイヤーが敗北します」 / 「両者のリソースデッキが0枚になった場合、
    そのターンの終了時に…」 — the match is decided."""
    seen = set()
    for b, s, c, a, _ in steps():
        if game.outcome(a) is not None:
            assert game.final(b, s, c, a), c
            seen.add(game.outcome(a)["reason"])
    assert {"knockout", "decks_out"} <= seen


# --------------------------------------------------------------------------- properties

def test_final_is_reveals_or_handed_over_and_reveals_implies_final():
    kinds = set()
    for b, s, c, a, _ in steps():
        f, r = game.final(b, s, c, a), game.reveals(b, s, c, a)
        assert f == (r or handed_over(game, b, s, a)), c
        assert not r or f
        assert r == reveals_fn(b, s, c, a)
        kinds.add((verb(c), f))
    # every verb was seen; these are the ones that can be undone
    assert {k for k, f in kinds if not f} == {"move", "avi", "caa", "end", "discard"}
    assert {k for k, f in kinds if f} == {"move", "avi", "caa", "end", "discard", "use", "it", "chain", "pass"}


def test_a_move_that_is_not_final_changes_nothing_hidden():
    """Not final ⇒ the seat still acts, no outcome, PRNG untouched, no deck touched, and the other
    seat's hidden things (hand, face-down IT cards) are exactly as before."""
    count = 0
    for b, s, c, a, _ in steps():
        if game.final(b, s, c, a):
            continue
        count += 1
        o = 1 - s
        assert s in game.to_act(a) and game.outcome(a) is None, c
        assert a.rng == b.rng and a.deck == b.deck, c
        assert a.hand[o] == b.hand[o] and a.it_left[o] == b.it_left[o], c
        assert a.it_left[s] == b.it_left[s] and a.window is None and b.window is None, c
        if count % 4:
            continue                       # views (slower) for a quarter of them
        vb, va = game.view(b, o), game.view(a, o)
        assert va["hand"] == vb["hand"] and va["it_unused"] == vb["it_unused"], c
        for key in ("deck_count", "it_unused_count"):
            assert [p[key] for p in va["players"]] == [p[key] for p in vb["players"]], c
        assert va["players"][o]["hand_count"] == vb["players"][o]["hand_count"], c
    assert count > 300


def test_replay_from_a_dump_is_exact():
    """The host undoes by replaying the log without the entry: load(dump(before)) + command = after."""
    checked = {True: 0, False: 0}
    for i, (b, s, c, a, _) in enumerate(steps()):
        f = game.final(b, s, c, a)
        if checked[f] >= 150 or i % 7:
            continue                       # a spread sample: 150 non-final steps, 150 final ones
        checked[f] += 1
        assert game.dump(game.apply(game.load(game.dump(b)), s, c)) == game.dump(a), c
    assert checked[False] > 100 and checked[True] > 100
