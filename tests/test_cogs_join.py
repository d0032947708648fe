"""A running match of a game that takes late joiners shows a Join button; pressing it at a
moment the rules allow seats the player (the host logs the join; see test_host_join)."""
from __future__ import annotations

import pytest

from discord_fakes import custom_ids, make_env, message_text
from rules import registry
from test_avalon_discord import pick_deck
from test_host_join import JoinGame


@pytest.fixture
async def env(tmp_path):
    registry.register(JoinGame())
    e = await make_env(tmp_path)
    yield e
    await e.close()
    registry._games.pop("join_test", None)


async def test_join_button_on_a_running_match_seats_a_late_player(env):
    match_id = await env.start(game="join_test", options="")
    board = await env.board(match_id)
    assert f"m:{match_id}:join" in custom_ids(board)
    thread_id = (await env.match(match_id)).channel_id
    await env.fake.slash(env.bot, env.alice, "move", command="go", channel_id=thread_id)
    ix = await env.fake.click(env.bot, env.carol, await env.board(match_id), f"m:{match_id}:join")
    assert "current round ends" in ix.text            # not at this moment: said clearly
    await env.fake.slash(env.bot, env.bob, "move", command="go", channel_id=thread_id)
    await env.fake.click(env.bot, env.carol, await env.board(match_id), f"m:{match_id}:join")
    rec = await env.match(match_id)
    assert rec.seats[-1] == int(env.carol["id"]) and len(rec.seats) == 3


async def test_games_without_late_join_show_no_join_button_while_running(env):
    match_id = await env.start()
    assert f"m:{match_id}:join" not in custom_ids(await env.board(match_id))


# ---------------------------------------------------------------------------- Avalon's Sanctuary
async def press_stale(env, user, message: dict, custom_id: str):
    """Press a button on an older copy of a message (another player's client had not caught
    up with the board edit yet)."""
    data = {"custom_id": custom_id, "component_type": 2}
    payload = env.fake.interaction_payload(3, user, data, channel_id=message["channel_id"], message=message)
    return await env.fake.dispatch(env.bot, payload)


@pytest.mark.skipif("avalon" not in registry, reason="Avalon's Sanctuary not registered")
async def test_avalon_join_button_only_while_a_seat_is_free_or_a_defeated_player_may_rejoin(env):
    """「最大4人同時対戦」;「(敗北しても、すぐに途中参加可能です)」: Join shows with 3 seats, not
    with 4; a stranger pressing an old Join gets a clear answer and no deck menu; once a player
    is out, Join is back for them to rejoin their seat (with their own deck)."""
    import copy

    dave, erin = env.fake.user("Dave"), env.fake.user("Erin")
    await env.play(env.alice, game="avalon", opponent=env.bob, opponent2=env.carol, options="leader=1")
    match_id = max(m.id for m in await env.store.matches_for_user(int(env.alice["id"])))
    for user in (env.bob, env.carol):
        ix = await env.fake.click(env.bot, user, await env.board(match_id), f"m:{match_id}:accept")
        await pick_deck(env, user, ix)
    join = f"m:{match_id}:join"
    board = copy.deepcopy(await env.board(match_id))
    assert join in custom_ids(board)
    ix = await env.fake.click(env.bot, dave, board, join)
    await pick_deck(env, dave, ix, option=1)
    assert len((await env.match(match_id)).seats) == 4
    assert join not in custom_ids(await env.board(match_id)), "4 seats, nobody out: no Join"

    ix = await press_stale(env, erin, board, join)
    assert "All 4 seats of this match are taken" in ix.text and ":deck:" not in str(ix.last)
    ix = await env.fake.slash(env.bot, env.carol, "match resign", match=match_id, locale="ja")
    assert "投了" in ix.text
    rec = await env.match(match_id)
    assert rec.status == "active", "the other three play on"
    posts = " ".join(message_text(m) for m in env.fake.posts(rec.channel_id))
    assert "Carol resigned and is out of the match; the others play on." in posts
    assert join in custom_ids(await env.board(match_id)), "Carol may rejoin"
    ix = await env.fake.click(env.bot, erin, await env.board(match_id), join, locale="ja")
    assert "脱落したプレイヤーが自分の席に戻る場合だけ" in ix.text
    await env.fake.click(env.bot, env.carol, await env.board(match_id), join)
    rec = await env.match(match_id)
    assert rec.seats[2] == int(env.carol["id"]) and len(rec.seats) == 4
    assert [c.command for c in await env.store.commands(match_id)][-2:] == ["__resign__", "__join__"]
    assert join not in custom_ids(await env.board(match_id))


@pytest.mark.skipif("avalon" not in registry, reason="Avalon's Sanctuary not registered")
async def test_an_avalon_timeout_claim_plays_the_default_and_says_so(env):
    """docs/rules/avalon.md "Clock": the default (`done` in a set phase) keeps the match going;
    a claim made before the clock loop applied it does the same, and the reply says so."""
    await env.play(env.alice, game="avalon", opponent=env.bob, options="leader=1", turn_time=300)
    match_id = max(m.id for m in await env.store.matches_for_user(int(env.alice["id"])))
    ix = await env.fake.click(env.bot, env.bob, await env.board(match_id), f"m:{match_id}:accept")
    await pick_deck(env, env.bob, ix)
    rec = await env.match(match_id)
    assert rec.status == "active"
    env.clock.advance(301)
    ix = await env.fake.slash(env.bot, env.bob, "match claim", channel_id=rec.channel_id)
    assert "the game's default choice was made for the late player and the match goes on" in ix.text
    rec = await env.match(match_id)
    assert rec.status == "active" and [c.command for c in await env.store.commands(match_id)] == ["done"]
    posts = " ".join(message_text(m) for m in env.fake.posts(rec.channel_id))
    assert "Alice ran out of time; the default choice was made for them:" in posts
