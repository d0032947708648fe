"""Project Maken: ``final`` and ``reveals`` (docs/engine.md; docs/rules/maken.md, "Undo: which moves
are final"; rules/maken/finality.py).

Every position is reached by playing the engine from ``new_match``: seeded random playouts over
the legal commands (:func:`transitions`), searched for the first move of each kind.  Each test
quotes the clause that makes its kind of move final or not — the seed's attack phase in Japanese,
the project rulings of docs/rules/maken.md where the seed is silent (opening, draw, support
cards, the end of the turn).
"""
from __future__ import annotations

import functools
import random

import pytest

from rules import registry
from rules.common import handed_over

game = registry.get("maken")
PLAYOUTS = 120


@functools.lru_cache(maxsize=None)
def transitions() -> tuple[tuple, ...]:
    """(before, seat, command, after) of every move of PLAYOUTS seeded random matches."""
    out = []
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        options = {"max_turns": rng.choice([10, 20, 40])}
        state = game.new_match(players=2, seed=seed, options=options)
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            cmd = rng.choice(game.legal_commands(state, seat))
            after = game.apply(state, seat, cmd)
            out.append((state, seat, cmd, after))
            state = after
    return tuple(out)


def find(verb: str, where=lambda b, s, c, a: True) -> tuple:
    for t in transitions():
        if t[2].split()[0] == verb and where(*t):
            return t
    raise AssertionError(f"no {verb!r} move found in {PLAYOUTS} playouts")


def verdict(t: tuple) -> tuple[bool, bool]:
    """(final, reveals) of a transition; checks final = reveals or handed_over on the way."""
    before, seat, cmd, after = t
    fin, rev = game.final(before, seat, cmd, after), game.reveals(before, seat, cmd, after)
    assert fin == (rev or handed_over(game, before, seat, after))
    return fin, rev


def still_to_act(t: tuple) -> bool:
    before, seat, _, after = t
    return game.to_act(after) == [seat] and game.outcome(after) is None


def events(after) -> list[str]:
    return [e["t"] for e in after.d["events"]]


# --------------------------------------------------------------------------- opening
def test_ready_hands_the_decision_over_and_reveals_nothing():
    """Opening (project ruling, docs/rules/maken.md): "Each may mulligan once … the first TP
    decides first (`ready` or `mulligan`), then the other player" — keeping the hand shows
    nothing, but the other player (or the first TP's turn) decides next: final."""
    t = find("ready")
    assert verdict(t) == (True, False)
    assert t[1] not in game.to_act(t[3])


def test_mulligan_shuffles_and_draws_so_it_reveals():
    """Opening (project ruling): "Each may mulligan once (return the hand, shuffle, draw 5)" —
    a shuffle and a draw: reveals, final."""
    t = find("mulligan")
    assert verdict(t) == (True, True)
    assert t[0].d["rng"] != t[3].d["rng"]


# --------------------------------------------------------------------------- the turn
def test_draw_reveals():
    """Draw phase (project ruling): "The TP declares 1 to the draw limit … and draws that many
    from stamina" — cards from the face-down stamina into the hand: reveals, final."""
    t = find("draw")
    assert verdict(t) == (True, True)
    assert len(t[3].d["stamina"][t[1]]) < len(t[0].d["stamina"][t[1]])


def test_set_is_not_final_and_the_tp_still_acts():
    """Before attack (project ruling): "the TP may set support cards (face down, at most 6 set
    at once)" — 補助カード from the own hand, face down: nothing is revealed and the TP is still
    before attack, so the move may be undone (NOT final)."""
    t = find("set")
    before, seat, cmd, after = t
    assert verdict(t) == (False, False)
    assert still_to_act(t) and after.d["step"] == "before"
    assert len(after.d["support"][seat]) == len(before.d["support"][seat]) + 1
    # the undo: going back is replaying the log without the entry, i.e. ``before`` exactly
    again = game.load(game.dump(before))
    assert game.dump(game.apply(again, seat, cmd)) == game.dump(after)
    assert game.view(again, 1 - seat) == game.view(before, 1 - seat)
    assert cmd.split()[0] in " ".join(game.legal_commands(again, seat))


def test_use_before_attack_turns_a_face_down_support_card_up():
    """Before attack (project ruling): "use 'before attack' effects"; a support card is "set face
    down … used on a later turn" — turning the face-down card up and its draw / gauge / recover
    effect (face-down piles): reveals, final."""
    t = find("use", lambda b, s, c, a: b.d["step"] == "before")
    assert verdict(t) == (True, True)


def test_use_after_attack_reveals_too():
    """After attack (project ruling): "'after attack' effects; then the other player becomes TP" —
    the same face-down support card turned up: reveals, final."""
    t = find("use", lambda b, s, c, a: b.d["step"] == "after")
    assert verdict(t) == (True, True)


def test_skip_with_an_after_attack_step_to_come_is_not_final():
    """Before attack (project ruling): "the TP must make a first bet if any attack card is legal,
    otherwise the attack phase is skipped"; "this step [after attack] is only asked when the TP
    has a support card set on an earlier turn" — a skip then shows nothing and the TP goes on
    (after attack): NOT final."""
    t = find("skip", lambda b, s, c, a: a.d["step"] == "after")
    assert verdict(t) == (False, False)
    assert still_to_act(t)


def test_skip_that_ends_the_turn_is_final():
    """The same skip with no support card to use: "then the other player becomes TP" — the
    decision is handed over: final (nothing revealed by the skip itself)."""
    t = find("skip", lambda b, s, c, a: a.d["tp"] != s)
    fin, _ = verdict(t)
    assert fin and t[1] not in game.to_act(t[3])


def test_end_hands_the_turn_over():
    """F: 「「ターンの流れ」の「5.ターン中(アタック後)」に移ります」 and (project ruling) "then the
    other player becomes TP" — `end` reveals nothing, the other player decides: final."""
    t = find("end", lambda b, s, c, a: a.d["tp"] != s)
    assert verdict(t) == (True, False)


def test_end_when_the_other_turn_passes_at_once_is_final():
    """docs/rules/maken.md, The turn 6 (engine ruling): "a TP with no stamina, no hand and no
    support card set on an earlier turn has no decision at all, so that turn passes at once" —
    the same seat is TP again on a new turn.  An undo is only "within the same turn"; the shared
    hand-over test sees the same seat asked, so `reveals` counts the new turn (conservative)."""
    t = find("end", lambda b, s, c, a: a.d["tp"] == s and a.d["result"] is None)
    before, seat, _, after = t
    assert after.d["turn"] == before.d["turn"] + 2 and "skip" in events(after)
    assert not handed_over(game, before, seat, after)
    assert verdict(t) == (True, True)


# --------------------------------------------------------------------------- attack phase
def _plain_bet(b, s, c, a) -> bool:
    card = b.d["cards"][c.split()[1]]
    return len(c.split()) == 2 and card["cost"] == 0 and card["gain"] == 0 and not card["bet"]


def test_first_bet_of_an_own_card_is_final_by_hand_over_only():
    """A: 「TPは手札から攻撃カードをアタックフィールドに表向きにベットします」「状況はTP・非TPとも
    【拮抗】となり、【B.アクション】に移ります」; B: 「非TPは、状況に合わせて図2からアクションを選択します」
    — the TP's own card, face up: no reveal; the other player acts: final."""
    t = find("fb", _plain_bet)
    assert verdict(t) == (True, False)
    assert game.to_act(t[3]) == [1 - t[1]]


def test_first_bet_with_a_gauge_gain_reveals():
    """B.1 / 注3: 「「ゲージ増加」のカードは記載されている数値と同じ枚数のスタミナ札をゲージ札に移動します」
    — stamina cards move (face-down piles): reveals, final."""
    t = find("fb", lambda b, s, c, a: b.d["cards"][c.split()[1]]["gain"] > 0
             and a.d["gauge"][s] != b.d["gauge"][s])
    assert verdict(t) == (True, True)


def test_attack_of_an_own_card_is_final_by_hand_over_only():
    """B.1: 「手札から攻撃カードを表向きにベットします」; C: 「以降はTPと非TPが「B.アクション」を一回ずつ
    繰り返し」 — own card face up: no reveal; the other player acts next: final."""
    t = find("attack", _plain_bet)
    assert verdict(t) == (True, False)
    assert game.to_act(t[3]) == [1 - t[1]]


def test_attack_paying_a_gauge_cost_reveals():
    """B.1: 「「ゲージ消費」のカードは記載されている数値と同じ枚数のゲージ札をダスト送りにし」 — the
    gauge is face down (to its owner too); its cards go face up to the dust: reveals, final."""
    t = find("attack", lambda b, s, c, a: b.d["cards"][c.split()[1]]["cost"] > 0)
    assert verdict(t) == (True, True)
    assert len(t[3].d["dust"][t[1]]) > len(t[0].d["dust"][t[1]])      # gauge cards went to the dust


def test_double_attack_draws_so_it_reveals():
    """Double attack (project ruling): "bet two copies of the same card at once (double): draw 1
    at once" — a draw: reveals, final."""
    for verb in ("fb", "attack"):
        t = find(verb, lambda b, s, c, a: "double" in c or "triple" in c)
        assert verdict(t) == (True, True)


def test_guard_bets_face_down_and_is_final_by_hand_over_only():
    """B.2: 「手札から相手のアタックフィールドの一番上のカードの「ガード難易度」と同じ枚数のカードを
    裏返しにベットします」 — own cards face down (the field cards to the dust were face up): no reveal;
    the other player acts next (C): final."""
    t = find("guard")
    assert verdict(t) == (True, False)
    assert game.to_act(t[3]) == [1 - t[1]]


def test_keep_adding_face_down_cards_reveals_nothing():
    """B.3: 「同じ枚数になるように重ねてカードを裏返しにベットします」 — own cards face down: no
    reveal; the other player acts next: final."""
    t = find("keep", lambda b, s, c, a: "flush" not in events(a))
    assert verdict(t) == (True, False)


def test_keep_after_a_flush_reveals():
    """B.3: 「あなたのアタックフィールドのカードを全てダスト送りにします。これを【ガード流し】と呼びます」
    (engine ruling: the guard spaces belong to the attack field) — the face-down guard cards go to
    the dust, face up: reveals, final."""
    t = find("keep", lambda b, s, c, a: "flush" in events(a) and b.d["guard"][s])
    assert verdict(t) == (True, True)


def test_guard_cancel_opens_a_face_down_card():
    """B.4: 「ガードスペースにベットしている一番上のカードをオープンします」「オープンした時点であなたの
    「GC(ガードキャンセル)」が成立し、「D.ジャッジ」に移ります」 — a face-down card turned up: reveals,
    final (even when the same player is asked for a bonus bet next)."""
    t = find("gc")
    assert verdict(t) == (True, True)
    both = [x for x in transitions() if x[2] == "gc" and x[3].d["step"] == "bonus"]
    assert both and all(verdict(x) == (True, True) for x in both)


def test_call_with_damage_reveals():
    """B.5: 「ここまでの斬り合いの結果を清算します」; E: 「相手の「攻撃値合計」の枚数分、スタミナ札から
    ダメージ札へカードを裏向きのまま移します」 — face-down piles change: reveals, final."""
    t = find("call", lambda b, s, c, a: "damage" in events(a)
             and any(a.d["damage"][x] != b.d["damage"][x] for x in (0, 1)))
    assert verdict(t) == (True, True)


def test_call_giving_the_opponent_a_bonus_bet_is_final_by_hand_over():
    """D.1: 「相手のアタックフィールドに1枚もカードが無ければ、「直撃」したプレイヤーは1回【ボーナス
    ベット】できます」 — the call shows nothing hidden, but the other player decides: final."""
    t = find("call", lambda b, s, c, a: a.d["step"] == "bonus" and a.d["pending"]["seat"] != s)
    assert verdict(t) == (True, False)


def test_break_reveals():
    """B.3: 「あなたが「ガード維持」できなかったか、しなかった場合、相手の「GB(ガードブレイク)」が成立し、
    「D.ジャッジ」に移ります」; F: 「裏向きにベットされているカードはダスト送りにします」 — damage and the
    face-down guard cards to the dust: reveals, final."""
    t = find("break")
    assert verdict(t) == (True, True)


def test_bonus_bet_settles_the_judge_and_reveals():
    """D.1: 「「直撃」したプレイヤーは1回【ボーナスベット】できます」 then E (damage from the stamina,
    face down) and F: reveals, final."""
    t = find("bonus")
    assert verdict(t) == (True, True)


def test_pass_on_a_bonus_bet_settles_the_judge_and_reveals():
    """D.1 (declining the bonus bet) then E: 「スタミナ札からダメージ札へカードを裏向きのまま移します」
    — reveals, final."""
    t = find("pass", lambda b, s, c, a: any(a.d["damage"][x] != b.d["damage"][x]
                                             or a.d["lp"][x] != b.d["lp"][x] for x in (0, 1)))
    assert verdict(t) == (True, True)


def test_every_verb_has_a_test_above():
    """Every command verb the playouts use is covered by a test of this file."""
    verbs = {c.split()[0] for _, _, c, _ in transitions()}
    assert verbs == {"ready", "mulligan", "draw", "set", "use", "fb", "skip", "attack", "guard",
                     "keep", "gc", "call", "break", "bonus", "pass", "end"}


# --------------------------------------------------------------------------- properties
PUBLIC_COUNTS = ("stamina_count", "lp_count", "gauge_count", "damage_count")


@pytest.mark.parametrize("first_seed", [1000])
def test_not_final_moves_keep_the_seat_and_every_secret(first_seed):
    """Over seeded random playouts: reveals ⇒ final; a move that is not final leaves its seat to
    act, no result, the random stream unchanged, every face-down pile's size, and everything the
    other seat sees of itself and of the piles; and replaying the command on
    ``load(dump(before))`` gives ``dump(after)`` (going back is exact)."""
    not_final = 0
    for seed in range(first_seed, first_seed + 60):
        rng = random.Random(seed)
        state = game.new_match(players=2, seed=seed, options={"max_turns": rng.choice([10, 20])})
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            cmd = rng.choice(game.legal_commands(state, seat))
            after = game.apply(state, seat, cmd)
            fin, rev = game.final(state, seat, cmd, after), game.reveals(state, seat, cmd, after)
            assert fin == (rev or handed_over(game, state, seat, after))
            assert not rev or fin
            if rng.random() < 0.2 or not fin:
                again = game.apply(game.load(game.dump(state)), seat, cmd)
                assert game.dump(again) == game.dump(after)
            if not fin:
                not_final += 1
                assert seat in game.to_act(after) and game.outcome(after) is None
                assert after.d["rng"] == state.d["rng"] and after.d["turn"] == state.d["turn"]
                o = 1 - seat
                v0, v1 = game.view(state, o), game.view(after, o)
                for key in ("hand", "guard_cards", "support_cards"):
                    assert v0[key] == v1[key]
                assert v0["players"][o] == v1["players"][o]
                for k in PUBLIC_COUNTS:
                    assert v0["players"][seat][k] == v1["players"][seat][k]
                assert v0["players"][seat]["dust"] == v1["players"][seat]["dust"]
            state = after
    assert not_final > 0
