"""A running match of a game that takes late joiners shows a Join button; pressing it at a
moment the rules allow seats the player (the host logs the join; see test_host_join)."""
from __future__ import annotations

import pytest

from discord_fakes import custom_ids, make_env
from rules import registry
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
