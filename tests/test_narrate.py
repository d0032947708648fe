"""Every game says what happened, in the player's language (issue 16).

"After every action, players and spectators can read in plain words, in their language, what it
did: battles and their numbers, damage, captures, reveals, misses."  Narration is drawn from the
PUBLIC views around a command (render/narrate.py); the host puts it in the thread under the move,
in the console and in ``/match log``.
"""
from __future__ import annotations

import random
import re

import pytest

from data import i18n
from data.store import open_store
from host import Host
from render.narrate import narrate
from rules import registry

NAMES = ["Alice", "Bob", "Cleo", "Dan"]


def told(game_name: str, state, seat: int, command: str):
    """Apply ``command`` and narrate it: (new state, English lines, Japanese lines)."""
    game = registry.get(game_name)
    before = game.view(state, None)
    after_state = game.apply(state, seat, command)
    lines = narrate(game_name, before, game.view(after_state, None), NAMES, seat)
    return after_state, [x["en"] for x in lines], [x["ja"] for x in lines]


def said(lines: list[str], *parts: str) -> str:
    """The one line holding every part (a test fails with all lines shown otherwise)."""
    hits = [line for line in lines if all(p in line for p in parts)]
    assert hits, f"no line with {parts!r} in {lines!r}"
    return hits[0]


# ------------------------------------------------------------------------------- SQUARES

squares = registry.get("squares")


def sq_pos(seat0, seat1, player=0):
    return squares.position({0: seat0, 1: seat1}, player=player)


def test_squares_battle_is_told_with_both_values_and_who_returns():
    """6.(3)(b) ①数字の小さいコマを、所有者の手元に戻します ②数字の大きいコマは、そのままマスに置きます"""
    _, en, ja = told("squares", sq_pos({"c2": "L4"}, {"c3": "X3"}), 0, "move c2 c3")
    said(en, "Battle on c3", "Alice's Leap 4 (4)", "Bob's Swap 3 (3)")
    said(en, "Leap 4 wins", "Bob's Swap 3 goes back to the reserve")
    said(ja, "c3で戦闘", "（4）", "（3）")
    said(ja, "Bobの", "手元に戻った")


def test_squares_a_tie_returns_both_and_says_so():
    """6.(3)(a) 数字が同じ場合 両方のコマを、所有者の手元に戻します。"""
    _, en, ja = told("squares", sq_pos({"c2": "S3"}, {"c3": "P3"}), 0, "move c2 c3")
    said(en, "A tie", "Support 3", "Supply 3", "both go back")
    said(ja, "同値", "どちらも手元に戻った")


def test_squares_a_pending_return_and_the_returned_piece_are_told():
    """5.(4)(b) ①上限値以下になるまで、コマを手元に戻します。②どのコマを戻すかは、選択出来ます。"""
    state, en, ja = told("squares", sq_pos({"c1": "L5", "a3": "S4"}, {"a5": "S1"}), 0, "leap c1 c3")
    said(en, "Alice's row 3 is over its limit", "must return a piece")
    said(ja, "列3が上限を超えている")
    _, en, ja = told("squares", state, 0, "return a3")
    said(en, "Alice returns Support 4 from a3 to the reserve")
    said(ja, "a3", "手元に戻した")
    assert not any("over its limit" in line for line in en), "the return settled it"


# ------------------------------------------------------------------- Battle Logic Square

ls = registry.get("logic_square")


def ls_act(state, *commands):
    for cmd in commands:
        state = ls.apply(state, ls.to_act(state)[0], cmd)
    return state


def test_logic_square_damage_and_a_card_that_did_not_resolve_are_told():
    """8. お互いに最後にカードの使用を宣言したカードのみ、効果の解決を行います。 (seat 0's first card never
    resolves: the thread says so, with the damage of the two that did, and the miss of one)"""
    state = ls.position(hands={0: ["ac13", "ac07"], 1: ["ac11"]}, pos=("c3", "c4"))
    state = ls_act(state, "use ac13", "chain ac11")
    state, en, ja = told("logic_square", state, 0, "chain ac07")
    names = {c: ls.view(state, None)["cards"][c]["name"] for c in ("ac13", "ac07", "ac11")}
    said(en, "chain of 3 cards resolves from the top", names["ac07"]["en"], names["ac11"]["en"])
    said(en, "✗ Alice's", names["ac13"]["en"], "did not resolve")
    said(en, "Bob's AVI takes 40")
    # ac07 pushed Bob to c5; his ac11 then reaches c4/b4/d4/b5/d5 and misses Alice on c3
    said(en, "Bob's " + names["ac11"]["en"], "resolves but hits nothing in its range")
    said(ja, "「" + names["ac13"]["ja"], "解決しなかった")
    said(ja, names["ac11"]["ja"], "範囲に何もなかった")
    said(ja, "40")


# ------------------------------------------------------------------------ Project Maken

maken = registry.get("maken").for_edition(1)     # the numbers of rules edition 1 (as printed)


def mk_pos(**kw):
    kw.setdefault("stamina0", ["gu01"] * 12)
    kw.setdefault("stamina1", ["gu01"] * 12)
    kw.setdefault("lp0", ["ts01"] * 3)
    kw.setdefault("lp1", ["gu01"] * 3)
    return maken.position(**kw)


def test_maken_judge_names_who_deals_the_damage_and_who_takes_it():
    """D.1: 直撃時の攻撃値合計=アタックフィールドにベットしているカードの攻撃値の合計 — "Last judge: clean
    hit — damage 3 / -" named nobody; now: who deals how much, and who takes it."""
    state = mk_pos(field0=["ts01", "ts05"], field1=["gu01"], actor=1, hand0=[], hand1=[])
    _, en, ja = told("maken", state, 1, "call")
    said(en, "Judge: clean hit", "Alice deals 3 damage")
    said(en, "Bob takes 3 damage")
    said(ja, "ジャッジ", "Aliceが3ダメージを与えた")
    said(ja, "Bobに3ダメージ")
    assert not any(line.startswith("Bob calls") for line in en), "the command itself is the thread's own line"


# ---------------------------------------------------------------------------- Art of War

aow = registry.get("art_of_war")


def test_art_of_war_cancel_destroy_and_capture_are_told():
    """GUARDIAN 後方支援: 相手ユニットからの攻撃をキャンセルする。 捕獲: …防御力が等しい場合…王国エリアに置く。
    各カードが持っている防御力を超えるダメージを受けた時…墓地に送る。"""
    state = aow.position(player=0, field={"b2": "0s", "b3": "1s"}, hands={0: "ppp", 1: "g"})
    window = aow.apply(state, 0, "attack b2 b3")
    assert narrate("art_of_war", aow.view(state, None), aow.view(window, None), NAMES, 0) == [], \
        "nothing public is said while the secret answer is awaited"
    _, en, ja = told("art_of_war", window, 1, "support g")
    said(en, "Alice's attack is cancelled")
    said(ja, "Aliceの攻撃はガーディアンの後方支援でキャンセルされた")
    _, en, ja = told("art_of_war", window, 1, "pass")
    said(en, "Bob's SOLDIER on b3 is destroyed")
    said(ja, "b3", "破壊")
    state = aow.position(player=0, field={"a2": "0a", "b2": "0s", "c3": "1s/", "b3": "1p"}, hands={0: "s"})
    _, en, ja = told("art_of_war", state, 0, "attack a2 c3")
    said(en, "Alice captures Bob's SOLDIER on c3", "Alice's kingdom")
    said(ja, "捕獲", "王国エリア")


def test_art_of_war_damage_that_does_not_destroy_gives_the_numbers():
    """累積ダメージ: a hit below the defence stays on the unit and counts towards the next."""
    state = aow.position(player=0, field={"b2": "0s", "b3": "1g"}, hands={0: "s"})
    _, en, ja = told("art_of_war", state, 0, "attack b2 b3")
    line = said(en, "Bob's", "on b3 takes")
    assert re.search(r"takes \d+ damage \(\d+ in total\)", line), line


# ------------------------------------------------------------------ Avalon's Sanctuary

avalon = registry.get("avalon")


def av_battle(inv: str, dfn: str, sup_i: str = "avatar", sup_d: str = "avatar"):
    s = avalon.new_match(players=2, seed=1, options={"leader": 0, "mode": "normal"})
    s.players[0].lands[0] = [[["c02", ""]], inv, 0]
    s.players[1].lands[0] = [[["c02", ""]], dfn, 0]
    s.players[0].hand = [] if sup_i == "avatar" else [sup_i]
    s.players[1].hand = [] if sup_d == "avatar" else [sup_d]
    s = avalon.apply(avalon.apply(s, 0, "done"), 0, "ranged l1 p2l1")
    return avalon.apply(s, 0, f"support {sup_i}")


def test_avalon_the_battle_is_revealed_only_once_both_chose_then_in_full():
    """Project ruling (docs/rules/avalon.md): "A battle's support choice is secret until both have chosen: both choose, then both
    reveal."  Then the table reads the supports, the ability order, the final numbers, every strike
    and what was destroyed."""
    s = avalon.new_match(players=2, seed=1, options={"leader": 0, "mode": "normal"})
    s.players[0].lands[0] = [[["c02", ""]], "c03", 0]
    s.players[1].lands[0] = [[["c02", ""]], "c11", 0]
    s.players[0].hand, s.players[1].hand = ["s02"], []
    s = avalon.apply(avalon.apply(s, 0, "done"), 0, "ranged l1 p2l1")
    before = avalon.view(s, None)
    s = avalon.apply(s, 0, "support s02")
    early = narrate("avalon", before, avalon.view(s, None), NAMES, 0)
    assert not any("Supports" in x["en"] for x in early), "one choice reveals nothing"
    s, en, ja = told("avalon", s, 1, "support avatar")
    b = s.last_battle
    cards = avalon.view(s, None)["cards"]
    said(en, "Battle revealed", cards["c03"]["name"]["en"], cards["c11"]["name"]["en"])
    said(en, "Supports: Alice — " + cards["s02"]["name"]["en"], "Bob — none (avatar)")
    said(en, "Ability #2 in the order they resolve", "informant")
    said(en, "Attack/durability after abilities", f"{b['atk'][0]}/{b['dur'][0]}", f"{b['atk'][1]}/{b['dur'][1]}")
    for side, kind, n in b["strikes"]:
        if kind == "hit":
            said(en, f"{NAMES[side]}'s", f"for {n}")
    said(en, "Result:")
    said(ja, "遠距離戦闘：Aliceの")
    said(ja, "戦闘支援：Aliceは" + cards["s02"]["name"]["ja"])


def test_avalon_the_end_phase_is_told():
    """エンドフェイズ: クリーチャーの寿命処理および魔素の整理 / ライフの増減 — mana lost to lifespan,
    mana-only lands cleared, the life sent to the discard pile."""
    s = avalon.new_match(players=2, seed=1, options={"leader": 0, "mode": "normal"})
    s.players[0].lands[0] = [[["c02", ""], ["c04", ""]], "c03", 0]
    s.players[0].lands[1] = [[["c05", ""]], None, 0]
    s, en, ja = told("avalon", avalon.apply(s, 0, "done"), 0, "pass")
    said(en, "Lifespan: Alice's creatures send 1 mana to the discard pile")
    said(en, "Alice's lands without a creature lose their 1 mana")
    said(en, "Alice sends one life to the discard pile")
    said(ja, "寿命処理")
    said(ja, "魔素の整理")


def test_an_old_edition_avalon_match_keeps_the_view_it_had():
    """A match started under rules edition 1 replays with exactly the events it showed then."""
    s = avalon.new_match(players=2, seed=1, options={"leader": 0, "mode": "normal"}, edition=1)
    s.players[0].lands[1] = [[["c05", ""]], None, 0]
    s = avalon.apply(avalon.apply(s, 0, "done"), 0, "pass")
    assert not [e for e in s.events if e["key"] in ("avalon.ev.lifespan", "avalon.ev.mana_cleared",
                                                       "avalon.ev.life_lost")]


# ------------------------------------------------------------------------- every game

@pytest.mark.parametrize("game_name", ["squares", "logic_square", "maken", "art_of_war", "avalon"])
def test_narration_never_fails_and_is_in_the_readers_language(game_name):
    """Random play: every line exists in both languages, the Japanese line has no English words
    beyond names, card ids, squares and notation, and a command that changed nothing public says
    nothing."""
    game = registry.get(game_name)
    latin = re.compile(r"[A-Za-z]{3,}")
    allowed = set(NAMES) | {"AVI", "KING", "LP", "GC", "GB", "TP", "AP", "CB", "IT"}
    for seed in range(4):
        players = 3 if game_name == "avalon" else 2
        state = game.new_match(players=players, seed=seed, options={})
        rng = random.Random(seed)
        for _ in range(250):
            if game.outcome(state) is not None:
                break
            seat = rng.choice(game.to_act(state))
            before = game.view(state, None)
            state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
            after = game.view(state, None)
            lines = narrate(game_name, before, after, NAMES, seat)
            if before == after:
                assert lines == []
            for line in lines:
                assert set(line) == set(i18n.LOCALES) and all(line.values())
                words = {w for w in latin.findall(line["ja"]) if w not in allowed}
                names = {str(c["name"]["en"]) for c in (after.get("cards") or {}).values()
                         if isinstance(c, dict) and isinstance(c.get("name"), dict)}
                assert not {w for w in words if not any(w in n for n in names)}, line["ja"]


# ------------------------------------------------------------------------------ the host

async def test_the_thread_the_console_and_the_log_tell_what_a_battle_did(tmp_path):
    """The host puts the narration in the public update under the move, in the reader's language,
    and ``/match log`` lists it under each command."""
    store = await open_store(str(tmp_path / "n.db"))
    try:
        host = Host(store, render=False)
        res = await host.challenge("squares", 1, "Alice", opponents=[(2, "Bob")], options={"first": 0})
        mid = res.match.id
        await host.accept(mid, 2)
        for uid, cmd in ((1, "place L2 c1"), (2, "place X1 c5"), (1, "leap c1 c3"), (2, "move c5 c4"),
                         (1, "move c3 c4")):
            res = await host.command(mid, uid, cmd)
            assert res.ok, res.error
        en = [m.render("en") for m in res.public.text]
        ja = [m.render("ja") for m in res.public.text]
        said(en, "Battle on c4", "Alice's Leap 2 (2)", "Bob's Swap 1 (1)")
        said(ja, "c4で戦闘")
        log = (await host.log(mid)).data["log"]
        assert log[-1]["command"] == "move c3 c4"
        said([line["en"] for line in log[-1]["story"]], "Leap 2 wins")
        assert log[0]["story"] == []
    finally:
        await store.close()


def test_a_long_turn_fits_the_board_with_room_for_the_ping():
    """A battle told in full can be long: the board keeps the newest lines within Discord's 2000
    characters (the ping comes after them) and says how many earlier ones /match log has."""
    from cogs.delivery import SUMMARY_CHARS, SUMMARY_LINES, _recent

    short = [f"line {i}" for i in range(SUMMARY_LINES)]
    assert _recent(short, "en") == short
    long = ["⚔️ " + "Battle revealed: a creature with a very long name invades another " * 3] * 20
    kept = _recent(long, "en")
    assert sum(len(x) + 1 for x in kept) <= SUMMARY_CHARS + 100 and len(kept) <= SUMMARY_LINES
    assert kept[0] == f"… {len(long) - len(kept) + 1} earlier lines: /match log"
    assert "/対局 記録" in _recent(long, "ja")[0]


def test_the_picture_and_the_words_agree_on_which_card_did_nothing():
    """A Battle Logic Square card that resolved and did nothing — a heal of 0 included — is a
    miss in the thread and in the picture alike (one rule: render.logic_square_words.quiet_resolves)."""
    from render.logic_square_words import quiet_resolves

    events = [{"type": "resolve", "card": "a", "seat": 0, "index": 1},
              {"type": "heal", "seat": 0, "amount": 0},                       # nothing healed
              {"type": "resolve", "card": "b", "seat": 1, "index": 0},
              {"type": "damage", "seat": 0, "amount": 20, "target": "avi"},
              {"type": "resolve", "card": "c", "seat": 1, "index": 2},
              {"type": "turn", "seat": 1, "turn": 4}]
    assert quiet_resolves(events) == {0, 4}
    assert quiet_resolves([{"type": "resolve"}]) == {0} and quiet_resolves([]) == set()
    assert quiet_resolves([{"type": "resolve"}, {"type": "draw", "count": 1}]) == set()
