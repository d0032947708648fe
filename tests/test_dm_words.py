"""What a player's DM says in text (issue 33, "Words, not ids or notation" and "Form"): the text
half of each DM (``render_text`` of the seat's own part, as ``cogs.dms.private_layout`` sends it)
names every card in words — never an id such as ``ac01``, ``ts10``, ``c01`` or ``m01`` — says the
last move in words, and in Japanese uses Japanese punctuation.  The console (``python bot.py
--local``), where a player types ids, keeps each id after its card's name."""
from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from data import i18n
from host.table import own_part
from render.text import render_text
from rules import registry

NAMES = ["Alice", "Bob", "Carol", "Dave"]
CARD_GAMES = ["logic_square", "maken", "art_of_war", "avalon"]
JP = "\u3040-\u30ff\u3400-\u9fff\uff00-\uffef"
BACKTICKS = re.compile(r"`[^`]*`")
ID = re.compile(r"(?<![A-Za-z0-9])[a-z]{1,3}\d{2,3}(?![A-Za-z0-9])")
# an English word in Japanese text: lower-case letters (capitals only are names: AVI, CB, LP, TP)
WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][a-z]{2,}(?![A-Za-z0-9_])")
ASCII_NEXT_TO_JA = re.compile(rf"[{JP}」）][:(]|[:)][{JP}「（]|[{JP}」）] ?: |[{JP}], |, [{JP}]| · ")


def _positions(name: str, count: int):
    game = registry.get(name)
    players = max(2, game.min_players)
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new_match(players=players, seed=seed, options={})
        for _ in range(rng.randint(0, 60)):
            seats = game.to_act(state)
            if not seats or game.outcome(state) is not None:
                break
            state = game.apply(state, seats[0], rng.choice(game.legal_commands(state, seats[0])))
        yield game, players, state


def _dm_texts(name: str, locale: str, count: int = 25):
    """(own part, its DM text) of every seat in positions of random matches."""
    for game, players, state in _positions(name, count):
        public = game.view(state, None)
        for seat in range(players):
            own = own_part(game.view(state, seat), public)
            yield own, render_text(name, own, locale=locale, names=NAMES[:players])


@pytest.mark.parametrize("locale", ["ja", "en"])
@pytest.mark.parametrize("name", CARD_GAMES)
def test_a_dm_names_cards_in_words_never_by_id(name, locale):
    bad = []
    for _, text in _dm_texts(name, locale):
        for line in text.splitlines():
            if ID.search(BACKTICKS.sub(" ", line)):
                bad.append(line)
    assert not bad, "\n".join(dict.fromkeys(bad))


@pytest.mark.parametrize("name", CARD_GAMES)
def test_a_japanese_dm_has_japanese_punctuation_and_no_english(name):
    """「あなたの手札：」, not `あなたの手札:`; `魔素：黄1。配置中：…（発動順4）：…`, not `魔素:黄1` and
    `(発動順4):`; the last move in words, not `直前：Bob: support p c3 a3`."""
    bad = []
    for _, text in _dm_texts(name, "ja"):
        for line in text.splitlines():
            bare = BACKTICKS.sub(" ", line)
            for n in NAMES:
                bare = bare.replace(n, "")
            if ASCII_NEXT_TO_JA.search(bare) or WORD.search(bare):
                bad.append(line)
    assert not bad, "\n".join(list(dict.fromkeys(bad))[:30])


def test_the_dm_card_lines_quoted_in_the_issue_read_as_words():
    """`ac01 パルスジャブ — ヒットダメージ40。` → `「パルスジャブ」：ヒットダメージ40。`."""
    game = registry.get("logic_square")
    state = game.new_match(players=2, seed=1, options={})
    own = own_part(game.view(state, 0), game.view(state, None))
    hand = own["hand"]
    ja = render_text("logic_square", own, locale="ja", names=NAMES[:2])
    en = render_text("logic_square", own, locale="en", names=NAMES[:2])
    for cid in hand:
        name = own["cards"][cid]["name"]
        assert f"「{name['ja']}」：" in ja and f"{name['en']} — " in en
    assert ja.splitlines()[0] == f"手札（{len(hand)}枚）："
    assert "裏向きのITカード（" in ja and "ITカード 裏向き" not in ja


@pytest.mark.parametrize("name", ["logic_square", "maken", "avalon"])     # Art of War's cards have no ids
def test_the_console_keeps_each_id_after_its_cards_name(name):
    """Where a player types ids (``python bot.py --local``): "「パルスジャブ」（ac01）"."""
    game = registry.get(name)
    players = max(2, game.min_players)
    state = game.new_match(players=players, seed=2, options={})
    view = game.view(state, 0)
    own = own_part(view, game.view(state, None))
    cards = own.get("cards") or {}
    ids = [c for c in own.get("hand") or [] if c in cards]
    assert ids
    console = render_text(name, own, locale="ja", names=NAMES[:players], notation=True)
    cid = ids[0]
    assert f"「{cards[cid]['name']['ja']}」（{cid}）" in console, console


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_art_of_war_and_maken_say_the_last_move_in_words(locale):
    """"Last: Alice: support p a1 a2" was notation: it is said as the Act menu said it."""
    checked = 0
    for name, notation in (("art_of_war", re.compile(r": (support|attack|move|deploy|setup|exchange) [a-z]")),
                           ("maken", re.compile(r": (fb|attack|guard|keep|set|use|bonus) [a-z?]"))):
        for game, players, state in _positions(name, 20):
            for seat in (None, 0):
                text = render_text(name, game.view(state, seat), locale=locale, names=NAMES[:players])
                last = [line for line in text.splitlines()
                        if line.startswith(i18n.t(f"{'art_of_war.pic' if name == 'art_of_war' else 'maken.render'}.last",
                                                  locale, text="").strip())]
                for line in last:
                    checked += 1
                    assert not notation.search(BACKTICKS.sub(" ", line)), line
    assert checked


def test_the_art_of_war_field_in_a_dm_is_in_words_and_the_console_keeps_the_grid():
    game = registry.get("art_of_war")
    state = game.position(player=0, field={"b2": "0s/", "b3": "1g:1"}, hands={0: "pk"})
    dm = render_text("art_of_war", game.view(state, 0), locale="ja", names=NAMES[:2])
    assert "b2：Aliceのソルジャー（横向き）" in dm and "b3：Bobのガーディアン（ダメージ1）" in dm
    assert "S1/" not in dm and "G2-1" not in dm
    console = render_text("art_of_war", game.view(state, 0), locale="ja", names=NAMES[:2], notation=True)
    assert "S1/" in console and "G2-1" in console


@pytest.mark.parametrize("locale,expected", [
    ("ja", "対戦 #1で**マリガン**（`mulligan`）を行いました。"),
    ("en", "You played **Mulligan** (`mulligan`) in match #1."),
])
def test_the_move_confirmation_uses_the_readers_brackets(locale, expected):
    from cogs.controls import said_move

    move = SimpleNamespace(label=i18n.t("labels.maken.mulligan", locale), command="mulligan")
    assert i18n.t("cogs.played", locale, move=said_move(move, locale), match_id=1) == expected
    raw = SimpleNamespace(label="end", command="end")
    assert said_move(raw, locale) == "`end`"


def test_avalons_round_limit_result_names_the_scores():
    """"the round limit was reached" named no one's proofs or life: the result says them."""
    from host.texts import reason_msg, with_detail
    from rules.avalon.turns import _finish_by_cap

    game = registry.get("avalon")
    state = game.new_match(players=3, seed=4, options={"max_rounds": 5})
    bob, carol = state.players[1], state.players[2]
    bob.proofs.append(bob.life.pop())           # Bob: 1 proof; Carol: 1 proof, less life
    carol.proofs.append(carol.life.pop())
    carol.life.pop()
    _finish_by_cap(state)
    outcome = game.outcome(state)
    assert outcome["winners"] == [1] and outcome["reason"] == "round_limit"
    detail = with_detail(dict(outcome), game, state)["detail"]
    assert detail == {"form": "win", "proofs": 1, "life": len(bob.life), "proofs2": 1, "life2": len(carol.life)}
    ja = reason_msg("round_limit", "avalon", detail).render("ja")
    en = reason_msg("round_limit", "avalon", detail).render("en")
    assert f"証1枚対1枚、ライフ{len(bob.life)}枚対{len(carol.life)}枚" in ja
    assert f"proofs 1 against 1, life {len(bob.life)} against {len(carol.life)}" in en
    carol.life.append(bob.life[0])              # a tie at the top: a draw that says both
    state.result = None
    _finish_by_cap(state)
    detail = with_detail(dict(game.outcome(state)), game, state)["detail"]
    assert detail["form"] == "draw"
    assert f"証は互いに1枚、ライフは互いに{len(bob.life)}枚" in reason_msg("round_limit", "avalon", detail).render("ja")


def test_shared_clock_texts_say_ban_not_teban():
    """手番 is a shogi word: the card games say ターン/番, shared texts the neutral 番."""
    ja = i18n.catalog("ja")
    for key in ("host.err.turn_time", "cmd.play.turn_time.description", "render.ls.status.main",
                "render.ls.status.discard", "avalon.label.to_act"):
        assert "手番" not in ja[key] and "1手" not in ja[key], (key, ja[key])
    assert i18n.t("host.err.turn_time", "ja", min=1, max=168).startswith("1回の番の持ち時間")
