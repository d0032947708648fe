"""Avalon's Sanctuary: which moves are final (docs/engine.md ``final`` / ``reveals``;
docs/rules/avalon.md, "Undo: which moves are final"; rules/avalon/finality.py).

One test per kind of move, each quoting the rulebook clause (アヴァロンの聖域 ルール) or the
project ruling that makes it final or not, on a real position reached by playing the engine from
``new_match`` (fixed seeds, legal commands only).  Then a property test over seeded random
playouts and the determinism law the host's undo relies on.
"""
from __future__ import annotations

import functools
import random
from collections import Counter

from rules import registry
from rules.common import handed_over

game = registry.get("avalon")

# A legal 40-card deck holding every kind of magic, the 手札 (use) creature, a 素成時 draw creature
# and a 召喚時 draw creature, so that every kind of set-phase move turns up in a short walk.
PROBE = {"avatar": "a2", "cards": {"m01": 4, "m02": 2, "m03": 3, "m04": 3, "m05": 2, "m06": 4,
                                   "m07": 3, "m08": 4, "m09": 2, "c42": 4, "c37": 4, "c15": 4,
                                   "c29": 1}}
READY = sorted(game.decks.ready())


def _builder(rng: random.Random, s, seat: int, legal: list[str]) -> str:
    """A policy that builds mana and creatures, advances and invades when it can (so that the
    later kinds of move come up), and otherwise plays at random; never a discard."""
    def of(verb: str) -> list[str]:
        return [c for c in legal if c.split()[0] == verb]
    if s.step == "set":
        for verb, p in (("summon", 0.9), ("forge", 0.85), ("magic", 0.5), ("use", 0.5)):
            if of(verb) and rng.random() < p:
                return rng.choice(of(verb))
        return "done"
    for verb in ("advance", "invade"):
        if of(verb):
            return rng.choice(of(verb))
    if of("ranged") and rng.random() < 0.3:
        return rng.choice(of("ranged"))
    if s.step == "support":
        return rng.choice(legal)
    return "pass"


def _random(rng: random.Random, s, seat: int, legal: list[str]) -> str:
    return rng.choice(legal)


def walk(players: int, seed: int, options: dict, policy=_builder, limit: int = 800):
    """The moves of one seeded playout: ``(before, seat, command, after)``."""
    rng = random.Random(seed)
    s = game.new_match(players=players, seed=seed, options=options)
    for _ in range(limit):
        if game.outcome(s) is not None:
            return
        seat = rng.choice(game.to_act(s))
        cmd = policy(rng, s, seat, game.legal_commands(s, seat))
        after = game.apply(s, seat, cmd)
        yield s, seat, cmd, after
        s = after


def find(want, players: int = 2, decks=None, mode: str = "intro", seeds=range(60), before=None):
    """The first position of the seeded walks where the acting seat has a legal command with
    ``want(state, seat, command)``: that command applied, as ``(before, seat, command, after)``.
    ``before(state, seat)`` may require more of the position."""
    for seed in seeds:
        options = {"mode": mode, "leader": 0,
                   "decks": decks if decks is not None else [READY[(seed + i) % len(READY)]
                                                             for i in range(players)]}
        for s, _seat, _cmd, _after in walk(players, seed, options):
            for seat in game.to_act(s):
                if before is not None and not before(s, seat):
                    continue
                for cmd in game.legal_commands(s, seat):
                    if want(s, seat, cmd):
                        return s, seat, cmd, game.apply(s, seat, cmd)
    raise AssertionError("no such position in the seeded walks")


def verb(cmd: str) -> str:
    return cmd.split()[0]


def magic_of(kind: str):
    return lambda s, seat, cmd: verb(cmd) == "magic" and s.defs[cmd.split()[1]]["magic"]["kind"] == kind


def verdict(pos) -> tuple[bool, bool]:
    before, seat, cmd, after = pos
    return game.final(before, seat, cmd, after), game.reveals(before, seat, cmd, after)


def still_to_act(pos) -> bool:
    before, seat, cmd, after = pos
    return seat in game.to_act(after) and game.outcome(after) is None


def _probe(want, **kw):
    return find(want, decks=[PROBE, PROBE], **kw)


# --------------------------------------------------------------------------- set phase: not final

def test_forge_is_not_final_and_the_player_stays_in_the_set_phase():
    """「魔素を素成する・クリーチャーを召喚する・魔法カードを使う・カードを捨てる ※順番・回数は自由。」
    (set phase: any order, any number) — the player keeps the decision; 「クリーチャーカードを
    ひっくり返した状態で、手札から自分の空の土地に出します」: a card from one's own hand, known to its
    player (shown to all by the project's ruling "forged mana is public"): no reveal, not final."""
    pos = find(lambda s, seat, cmd: verb(cmd) == "forge" and "on_forge" not in s.defs[cmd.split()[1]])
    assert verdict(pos) == (False, False)
    assert still_to_act(pos) and pos[3].step == "set"


def test_forge_with_a_forging_draw_reveals_and_is_final():
    """「素成時・・・魔素を素成した時に発動する能力。」 — Ashvein Sprite's 素成時 draws from the face-down
    memory (「カードごとに能力を持ち、それらはそれぞれのタイミングで必ず発動します」): a reveal, final."""
    pos = _probe(lambda s, seat, cmd: verb(cmd) == "forge" and cmd.split()[1] == "c37")
    assert verdict(pos) == (True, True)
    assert len(pos[3].players[pos[1]].memory) < len(pos[0].players[pos[1]].memory)


def test_summon_is_not_final():
    """「召喚したいクリーチャーは、素成した魔素の上に乗っすぐ置き、重ねます。」 — one's own card from hand onto
    one's own land, in the set phase (「順番・回数は自由」): no reveal, the player still acts."""
    pos = find(lambda s, seat, cmd: verb(cmd) == "summon"
               and not s.defs[cmd.split()[1]].get("on_summon", {}).get("draw"))
    assert verdict(pos) == (False, False)
    assert still_to_act(pos)


def test_summon_with_a_summoning_draw_reveals_and_is_final():
    """「召喚時・・・自分の土地にクリーチャーとして配置した瞬間に発動する。」 — a 召喚時 draw takes the
    memory's top card: a reveal, final."""
    pos = _probe(lambda s, seat, cmd: verb(cmd) == "summon" and cmd.split()[1] == "c15")
    assert verdict(pos) == (True, True)


def test_discard_is_not_final():
    """「不要と感じたカードは使用せずに捨て山に捨てる事も出来ます。」 — a known card of one's own hand to the
    public discard pile: no reveal; the set phase goes on."""
    pos = find(lambda s, seat, cmd: verb(cmd) == "discard")
    assert verdict(pos) == (False, False)
    assert still_to_act(pos)


def test_magic_on_public_things_is_not_final():
    """「使う時は手札から使用を宣言し、プレイシート上に出します。その後、効果を適用したのちに捨て山に送ります。」
    — magic whose effect touches only what everyone sees (destroy a ★≤2 creature, attack +1 on a
    land, turn mana rainbow, lower one's target mana) reveals nothing: not final, still to act."""
    for kind in ("destroy", "empower", "prism", "focus"):
        pos = _probe(magic_of(kind))
        assert verdict(pos) == (False, False), kind
        assert still_to_act(pos), kind


def test_magic_drawing_from_the_memory_is_final():
    """「メモリーから…カードを引く」 / 「メモリーから1枚裏のままライフに加え」 — magic that draws (Draw), adds the
    top memory card to life (Life) or forges it (Mana Surge) takes a face-down card: a reveal."""
    for kind in ("draw", "life", "surge"):
        pos = _probe(magic_of(kind))
        assert verdict(pos) == (True, True), kind


def test_magic_using_chance_is_final():
    """「捨て山をよく切ってからメモリーとして」 (a shuffle) — Quiet Grave shuffles the discard pile into the
    memory, and Scatterwind discards a random card of each opponent's hidden hand: randomness and
    hidden cards shown: reveals, final."""
    for kind in ("recycle", "scatter"):
        pos = _probe(magic_of(kind))
        before, _seat, _cmd, after = pos
        assert verdict(pos) == (True, True), kind
        assert before.rng != after.rng, kind


def test_use_of_a_hand_ability_is_final():
    """「手札・・・手札にある時にのみ使える能力。」 — Whispering Courier's in-hand ability draws 2 from the
    face-down memory: a reveal, final."""
    pos = _probe(lambda s, seat, cmd: verb(cmd) == "use")
    assert verdict(pos) == (True, True)


# --------------------------------------------------------------------------- ending the set phase

def test_leaders_done_is_not_final_the_main_phase_is_the_same_turn():
    """「リーダーターン … セット フェイズ … メイン フェイズ … ※いずれかを選んで行動」 — after the leader's set
    phase the same leader chooses the main-phase action: nothing is drawn or shown and nobody else
    is asked, so ``done`` may be taken back."""
    pos = find(lambda s, seat, cmd: cmd == "done" and s.kind == "leader")
    assert verdict(pos) == (False, False)
    assert still_to_act(pos) and pos[3].step == "main"


def test_chasers_done_hands_the_set_phase_to_the_next_chaser():
    """「セット フェイズ ※リーダーから時計回りで一人ずつ行います」 — a chaser's ``done`` gives the next chaser
    their set phase: handed over, final (it reveals nothing)."""
    pos = find(lambda s, seat, cmd: cmd == "done" and s.kind == "chaser" and len(s.queue) > 1,
               players=3)
    assert verdict(pos) == (True, False)
    assert pos[1] not in game.to_act(pos[3])


def test_last_chasers_done_is_not_final_when_that_chaser_declares_first():
    """「各チェイサーは、自分の土地の配置クリーチャーを比べ、オリジナリティの合計の多い順に…1つを選び宣言します」
    — with one chaser (two players) the chaser who ends the set phase is the one to declare:
    nothing revealed, nobody else asked; not final."""
    pos = find(lambda s, seat, cmd: cmd == "done" and s.kind == "chaser")
    assert verdict(pos) == (False, False)
    assert still_to_act(pos) and pos[3].step == "declare"


# --------------------------------------------------------------------------- main phase

def test_advance_ends_the_leader_turn_and_is_final():
    """「リーダーは聖地にクリーチャーを配置した時点で、メインフェイスは終了します。」 then the end phase:
    「聖地到達報酬として、メモリーから1枚裏のままライフに加え」 and the chasers draw 「手札が6枚になるように」
    — hidden cards move: reveals, final."""
    pos = find(lambda s, seat, cmd: verb(cmd) == "advance")
    assert verdict(pos) == (True, True)


def test_leaders_pass_ends_the_leader_turn_and_is_final():
    """「なにもしない」 then the end phase: 「自分の番を終了したプレイヤーは、自身のエンドフェイズでライフを
    1枚捨て山に送る」 — a face-down life card goes to the public discard pile and the chasers draw:
    reveals, final."""
    pos = find(lambda s, seat, cmd: cmd == "pass" and s.step == "main")
    assert verdict(pos) == (True, True)


def test_leaders_ranged_battle_opens_the_secret_support_choice():
    """「対立プレイヤーのクリーチャーへ遠距離戦闘」; 「手札の戦闘支援カード…を選んで、戦闘クリーチャーの横に
    置きます」 with the project ruling "A battle's support choice is secret until both have chosen"
    — the defender must choose: handed over and a secret window opened: reveals, final."""
    pos = find(lambda s, seat, cmd: verb(cmd) == "ranged" and s.step == "main")
    before, seat, _cmd, after = pos
    assert verdict(pos) == (True, True)
    assert after.step == "support" and set(game.to_act(after)) - set(game.to_act(before))


# --------------------------------------------------------------------------- declarations

def test_invade_declaration_is_final():
    """「侵略戦闘／遠距離戦闘／なにもしないから1つを選び宣言します。その後、同じ順序で順次、戦闘処理を行います。」
    — the declaration is public and passes the decision on (the next declarer, or the battle's
    support choice that the leader must make): final."""
    pos = find(lambda s, seat, cmd: verb(cmd) == "invade", seeds=range(200))
    before, seat, _cmd, after = pos
    final, reveals = verdict(pos)
    assert final
    assert reveals == (after.step == "support" or before.rng != after.rng
                       or after.last_battle != before.last_battle
                       or any(len(p.memory) != len(q.memory) or len(p.life) != len(q.life)
                              for p, q in zip(before.players, after.players)))


def test_chaser_ranged_declaration_handing_to_the_next_declarer_reveals_nothing():
    """「各チェイサーは…1つを選び宣言します」 — a declaration after which another chaser declares: the
    decision is handed over (final) but nothing hidden is shown."""
    pos = find(lambda s, seat, cmd: verb(cmd) == "ranged" and s.step == "declare" and len(s.queue) > 1,
               players=3)
    assert verdict(pos) == (True, False)
    assert pos[3].step == "declare" and pos[1] not in game.to_act(pos[3])


def test_chasers_pass_declaration_is_final():
    """「なにもしない」 — the last declaration starts the battles, or (nobody battling) the end phase
    「自分の番を終了したプレイヤーは、自身のエンドフェイズでライフを1枚捨て山に送る」 and the next leader's draw:
    final, and a reveal."""
    pos = find(lambda s, seat, cmd: cmd == "pass" and s.step == "declare" and len(s.queue) == 1
               and all(d["verb"] == "pass" for d in s.decls))
    assert verdict(pos) == (True, True)


# --------------------------------------------------------------------------- battle supports

def test_first_support_commits_a_secret_and_is_final():
    """Ruling: "A battle's support choice is secret until both have chosen: both choose, then both
    reveal." — the first choice shows nothing (no reveal), but the chooser has no decision left
    and the other battler acts on: final."""
    pos = find(lambda s, seat, cmd: verb(cmd) == "support", before=lambda s, seat: s.battle is not None
               and s.battle["choice"].count(None) == 2)
    before, seat, _cmd, after = pos
    assert verdict(pos) == (True, False)
    assert seat not in game.to_act(after) and after.rng == before.rng


def test_second_support_discloses_both_choices_and_is_final():
    """「戦闘が終了したらアバターカードをもとの位置に戻し、使用した戦闘支援カードは捨て山に送ります。」 and the
    ruling "both choose, then both reveal" — the second choice discloses both and resolves the
    battle: reveals, final."""
    pos = find(lambda s, seat, cmd: verb(cmd) == "support", before=lambda s, seat: s.battle is not None
               and s.battle["choice"].count(None) == 1)
    before, _seat, _cmd, after = pos
    assert verdict(pos) == (True, True)
    assert after.last_battle != before.last_battle


# --------------------------------------------------------------------------- properties

def _multiset_grew(before: list, after: list) -> bool:
    return bool(Counter(after) - Counter(before))


def _check(before, seat: int, cmd: str, after) -> str:
    final = game.final(before, seat, cmd, after)
    reveals = game.reveals(before, seat, cmd, after)
    assert final == (reveals or handed_over(game, before, seat, after)), cmd
    if reveals:
        assert final, cmd
    if not final:
        assert seat in game.to_act(after), cmd
        assert game.outcome(after) is None, cmd
        assert after.rng == before.rng, cmd
        assert after.battle is None and before.battle is None, cmd
        for i, (p, q) in enumerate(zip(before.players, after.players)):
            # nothing came out of a hidden zone: memories and life piles as they were
            assert (p.memory, p.life) == (q.memory, q.life), cmd
            if i == seat:
                assert not _multiset_grew(p.hand, q.hand), cmd
            else:
                assert p.hand == q.hand, cmd
        for o in range(len(before.players)):
            if o == seat:
                continue
            vb, va = game.view(before, o), game.view(after, o)
            assert vb["hand"] == va["hand"], cmd
            for pb, pa in zip(vb["players"], va["players"]):
                assert (pb["memory"], pb["life"]) == (pa["memory"], pa["life"]), cmd
                if pb["seat"] != seat:
                    assert pb["hand_count"] == pa["hand_count"], cmd
    return "final" if final else "undo"


@functools.cache
def _playouts() -> Counter:
    seen: Counter = Counter()
    for seed in range(36):
        players = 2 + seed % 3
        rng = random.Random(1000 + seed)
        decks = [PROBE if rng.random() < 0.3 else rng.choice(READY) for _ in range(players)]
        options = {"mode": rng.choice(["intro", "normal", "veteran"]), "decks": decks}
        policy = _builder if seed % 2 else _random
        for before, seat, cmd, after in walk(players, 1000 + seed, options, policy, limit=400):
            seen[(verb(cmd), _check(before, seat, cmd, after))] += 1
    return seen


def test_property_not_final_moves_leave_every_hidden_thing_alone():
    """Over seeded random playouts (2–4 players): ``final`` is exactly ``reveals`` or
    ``handed_over``; every reveal is final; and after a move that is not final the mover is still
    to act, the match goes on, the random stream did not move, no battle window is involved, no
    memory or life pile changed, no card came into any hand, and every other seat's view keeps its
    hand, the memory and life counts and the other players' hand counts."""
    seen = _playouts()
    undoable = {v for v, kind in seen if kind == "undo"}
    assert {"forge", "summon", "done"} <= undoable, seen
    assert not undoable & {"advance", "invade", "support", "use"}, seen
    assert ("support", "final") in seen and ("pass", "final") in seen


def test_replay_is_exact_so_going_back_is_exact():
    """The host's undo replays the log without the undone entry: ``load(dump(before))`` with the
    command gives exactly ``after`` (and ``before`` itself is untouched by the command)."""
    for seed in range(8):
        players = 2 + seed % 3
        options = {"mode": "intro", "decks": [PROBE] + [READY[(seed + i) % len(READY)]
                                                        for i in range(1, players)]}
        for before, seat, cmd, after in walk(players, 500 + seed, options, limit=250):
            text = game.dump(before)
            again = game.apply(game.load(text), seat, cmd)
            assert game.dump(again) == game.dump(after), cmd
            assert game.dump(before) == text
