"""What a player reads around the move, in words (issue 33): the match log, refusals, results,
Avalon's Sanctuary's narration and declarations, the card games' DMs, plural forms, jargon."""
from __future__ import annotations

import dataclasses

import pytest

from data import i18n
from discord_fakes import make_env
from host.texts import reason_msg, with_detail
from rules import registry


@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path)
    yield e
    await e.close()


def uid(user: dict) -> int:
    return int(user["id"])


# ---------------------------------------------------------------------------- /match log, /move
async def _finished_with_rematch_offer(env) -> tuple[int, int]:
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    await env.fake.slash(env.bot, env.alice, "move", command="place S1 a1", channel_id=thread_id)
    await env.fake.slash(env.bot, env.bob, "match resign", channel_id=thread_id)
    ix = await env.fake.slash(env.bot, env.bob, "match rematch", channel_id=thread_id)
    assert "Rematch" in ix.text, ix.text
    return match_id, thread_id


async def test_match_log_says_each_move_in_words_with_its_notation_after(env):
    match_id, thread_id = await _finished_with_rematch_offer(env)
    ix = await env.fake.slash(env.bot, env.alice, "match log", match=match_id)
    assert "1. Alice: Place Support 1 on a1 (`place S1 a1`)" in ix.text, ix.text
    assert "— 1 move" in ix.text, ix.text


async def test_match_log_in_a_finished_matchs_thread_with_a_rematch_offer_lists_the_played_match(env):
    """Today the rematch offer (no moves) answered: "No commands yet"."""
    match_id, thread_id = await _finished_with_rematch_offer(env)
    for user in (env.alice, env.bob, env.carol):
        ix = await env.fake.slash(env.bot, user, "match log", channel_id=thread_id)
        assert "No commands yet" not in ix.text and "Which match" not in ix.text, ix.text
        assert f"#{match_id}" in ix.text and "Place Support 1 on a1" in ix.text, ix.text


async def test_a_refusal_lists_the_legal_moves_in_words_then_notation(env):
    match_id = await env.start()
    thread_id = (await env.match(match_id)).channel_id
    ix = await env.fake.slash(env.bot, env.alice, "move", command="place Z9 a1", channel_id=thread_id)
    assert "Legal now: Place Support 1 on a1 (`place S1 a1`)" in ix.text, ix.text
    assert "more" in ix.text and "(+" not in ix.text, ix.text
    ix = await env.fake.slash(env.bot, env.alice, "move", command="place Z9 a1", channel_id=thread_id,
                              locale="ja")
    assert "援護1をa1に置く（`place S1 a1`）" in ix.text, ix.text


# ---------------------------------------------------------------------------- results
def test_an_execution_says_whether_the_king_was_captured_or_destroyed_without_nested_brackets():
    game = registry.get("art_of_war")
    captured = game.apply(game.position(player=0, field={"a2": "0a", "c3": "1k/"}, hands={0: "s"}, edition=2),
                          0, "attack a2 c3")
    destroyed = game.apply(game.position(player=0, field={"b2": "0s", "b3": "1k"}, hands={0: "pppp"}),
                           0, "attack b2 b3")
    for state, how, ja in ((captured, "captured", "捕獲"), (destroyed, "destroyed", "墓地送り")):
        result = with_detail(game.outcome(state), game, state)
        text = i18n.t("host.outcome.win", "en", names="Bob",
                      reason=reason_msg(result["reason"], "art_of_war", result.get("detail")).render("en"))
        assert text == f"Bob won: the enemy KING was {how} (execution).", text
        assert "or captured" not in text and text.count("(") == 1
        assert ja in reason_msg(result["reason"], "art_of_war", result.get("detail")).render("ja")


def test_a_result_by_life_names_both_lives():
    game = registry.get("logic_square")
    state = game.new_match(2, 7, {})
    over = dataclasses.replace(state, result={"winners": [0], "reason": "turn_limit"}, life=(12, 9))
    result = with_detail(game.outcome(over), game, over)
    reason = reason_msg(result["reason"], "logic_square", result.get("detail"))
    assert i18n.t("host.outcome.win", "en", names="Alice", reason=reason.render("en")) == \
        "Alice won: turn limit reached with 12 life against 9."
    assert "12" in reason.render("ja") and "9" in reason.render("ja")
    drawn = dataclasses.replace(state, result={"winners": [], "reason": "decks_out"}, life=(7, 7))
    result = with_detail(game.outcome(drawn), game, drawn)
    assert "with 7 life each" in reason_msg(result["reason"], "logic_square", result.get("detail")).render("en")


# ---------------------------------------------------------------------------- the league message
async def test_the_league_message_during_sign_up_shows_the_deadline_and_the_players(env):
    import re

    from discord_fakes import ALL_PERMISSIONS, message_text

    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                              name="Cup", game="squares", format="rr", signup_hours=24)
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    await env.fake.slash(env.bot, env.bob, "league join")
    [message] = [m for m in env.fake.posts(env.fake.channel["id"]) if f"League #{league_id}" in message_text(m)]
    text = message_text(message)
    assert "- rounds" not in text and "round -" not in text, text
    assert "rounds set when the league starts" in text and "1 player signed up" in text, text
    assert re.search(r"Sign-up closes <t:\d+:R>", text), text
    await env.fake.slash(env.bot, env.carol, "league join")
    [message] = [m for m in env.fake.posts(env.fake.channel["id"]) if f"League #{league_id}" in message_text(m)]
    assert "2 players signed up" in message_text(message)


# ---------------------------------------------------------------------------- Avalon's Sanctuary
NAMES = ["Alice", "Bob", "Carol"]


def _avalon_view():
    game = registry.get("avalon")
    return game, game.view(game.new_match(3, 5, {}), None)


def _said(lines, locale="en"):
    return [line[locale] if isinstance(line, dict) else line for line in lines]


def test_a_magic_cards_effect_is_told_in_words():
    import random

    from render.narrate import narrate

    game = registry.get("avalon")
    state, rng = game.new_match(3, 5, {}), random.Random(1)
    for _ in range(400):
        seat = game.to_act(state)[0]
        legal = game.legal_commands(state, seat)
        if "magic m01" in legal:                  # Starfall Insight: draw 2
            break
        state = game.apply(state, seat, rng.choice(legal))
    else:
        pytest.fail("no Starfall Insight in 400 moves")
    after = game.apply(state, seat, "magic m01")
    lines = narrate("avalon", game.view(state, None), game.view(after, None), NAMES, seat)
    assert f"Starfall Insight: {NAMES[seat]} draws 2 cards." in _said(lines), lines
    assert any("2枚引いた" in line for line in _said(lines, "ja")), lines


def test_two_creatures_of_one_name_are_told_apart_by_their_land():
    import copy

    from render.narrate import narrate

    _, view = _avalon_view()
    before = copy.deepcopy(view)
    before["events"] = []
    cid = "c05"
    before["cards"] = {cid: {"category": "creature", "name": {"en": "Gilded Pilgrim", "ja": "金色の巡礼者"}}}
    for i in (0, 2):
        before["players"][1]["lands"][i]["creature"] = {"card": cid}
    after = copy.deepcopy(before)
    for i in (0, 2):
        after["players"][1]["lands"][i]["creature"] = None
    after["events"] = [{"key": "avalon.ev.expired", "params": {"player": "p2", "card": cid}}] * 2
    lines = _said(narrate("avalon", before, after, NAMES, 0))
    assert len(set(lines)) == 2, lines
    assert "on land 1 had no mana left" in lines[0] and "on land 3 had no mana left" in lines[1], lines
    assert "（土地3）" in _said(narrate("avalon", before, after, NAMES, 0), "ja")[1]


def test_a_declaration_reaches_players_in_words_in_text_and_picture():
    from render.avalon import _event_text
    from render.base import Ctx
    from render.narrate_avalon import event_text

    _, view = _avalon_view()
    ev = {"key": "avalon.ev.declare", "params": {"player": "p3", "command": "ranged l3 p1l1"}}
    name_of = NAMES.__getitem__
    en = event_text(view, ev, name_of, "en")
    assert en == "Carol declares: a ranged battle from Carol's land 3 to Alice's land 1.", en
    ja = event_text(view, ev, name_of, "ja")
    assert "ranged" not in ja and "p1l1" not in ja and "Carolの土地3からAliceの土地1への遠距離戦闘" in ja, ja
    ctx = Ctx(game="avalon", locale="en", names=tuple(NAMES), clock=None, title=None)
    assert _event_text(ctx, view, ev) == en


# ---------------------------------------------------------------------------- DMs in words
def _played_until(game_name: str, want, seed: int = 3, moves: int = 600):
    import random

    game = registry.get(game_name)
    state, rng = game.new_match(2, seed, {"first": 0}), random.Random(seed)
    for _ in range(moves):
        for seat in (0, 1):
            if want(game.view(state, seat)):
                return game, state, seat
        if game.outcome(state) is not None:
            state, rng = game.new_match(2, rng.randrange(1000), {"first": 0}), rng
            continue
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_commands(state, seat)))
    pytest.fail(f"no such position in {moves} moves")


def test_project_maken_dms_name_set_cards_not_ids():
    import re

    from host.replay import own_part
    from render.text import render_text

    game, state, seat = _played_until("maken", lambda v: v.get("support_cards") or v.get("guard_cards"))
    own = own_part(game.view(state, seat), game.view(state, None))
    for locale in ("en", "ja"):
        text = render_text("maken", own, locale=locale, names=["Alice", "Bob"])
        set_lines = [line for line in text.splitlines() if re.match(r"\s*(Support|Guard|サポート|ガード)", line)]
        assert set_lines, text
        assert not re.search(r"\b(ts|gu|ch)\d\d\b", "\n".join(set_lines)), text


def test_art_of_war_dms_say_cards_and_answers_in_words():
    from render.text import render_text

    game = registry.get("art_of_war")
    view = game.view(game.new_match(2, 4, {"first": 0}), 0)
    own = {"seat": 0, "kings": view["kings"], "hand": ["s", "s", "g"], "players": view["players"],
           "window": {"chain": [], "responses": ["support w"]}}
    text = render_text("art_of_war", own, locale="en", names=["Alice", "Bob"])
    assert "Your hand: SOLDIER ×2, GUARDIAN" in text, text
    assert "Answer: support with WIZARD / pass" in text, text
    assert "S0 A0" not in text and "Waiting area (0 of 5" in text, text
    ja = render_text("art_of_war", own, locale="ja", names=["Alice", "Bob"])
    assert "ソルジャー×2、ガーディアン" in ja and "ウィザードで後方支援／パス" in ja, ja


# ---------------------------------------------------------------------------- jargon
def test_jargon_is_said_in_words_with_the_term_after():
    said = [
        ("maken.log.turn", dict(turn=1, name="Alice"), "Alice is the turn player (TP)", "ターンプレイヤー（TP）"),
        ("maken.judge.guard_break", {}, "the guard breaks", "GB成立"),
        ("labels.logic_square.caa.group", dict(n=3, draw=6), "Trash 3 cards to draw 6 (CAA)",
         "3枚トラッシュに置いて6枚引く（CAA）"),
        ("narrate.avalon.ability", dict(order=4, name="Bob", card="X", what="y"),
         "Ability #4 in the order they resolve", "4番目に発動（発動順）"),
    ]
    for key, params, en, ja in said:
        assert en in i18n.t(key, "en", **params), i18n.t(key, "en", **params)
        assert ja in i18n.t(key, "ja", **params), i18n.t(key, "ja", **params)
    assert "is the TP" not in i18n.t("maken.log.turn", "en", turn=1, name="A")
    assert not i18n.t("labels.logic_square.caa.group", "en", n=3, draw=6).startswith("CAA:")
