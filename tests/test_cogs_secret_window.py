"""A hidden response window in Discord: the responder is told privately by DM, never pinged
or named in the match thread."""
from __future__ import annotations

import pytest

from discord_fakes import make_env, message_text
from rules import registry
from test_host_hidden import WindowGame


@pytest.fixture
async def env(tmp_path):
    registry.register(WindowGame())
    e = await make_env(tmp_path)
    yield e
    await e.close()
    registry._games.pop("window_test", None)


async def test_the_responder_is_told_by_dm_and_the_thread_shows_nothing(env):
    match_id = await env.start(game="window_test", options="")
    thread_id = (await env.match(match_id)).channel_id
    before = len(env.fake.posts(thread_id))
    await env.fake.slash(env.bot, env.alice, "move", command="go", channel_id=thread_id)
    bob = int(env.bob["id"])
    new_posts = env.fake.posts(thread_id)[before:]
    for post in new_posts:
        assert f"<@{bob}>" not in message_text(post)
        assert bob not in (post.get("_allowed_mentions") or {}).get("users", [])
    board = message_text(await env.board(match_id))
    assert "Bob" not in board.split("To act:")[-1].split("\n")[0]
    dms = env.fake.dms(bob)
    assert dms and "a decision is waiting for you" in message_text(dms[-1])
    assert "`counter`, `pass`" in message_text(dms[-1])     # only the legal responses and a pass
    # Bob answers privately through /move; the pass is not shown in the thread
    before = len(env.fake.posts(thread_id))
    await env.fake.slash(env.bot, env.bob, "move", command="pass", channel_id=thread_id)
    assert all("pass" not in message_text(p) for p in env.fake.posts(thread_id)[before:])


async def test_the_responder_answers_from_the_dm_itself(env):
    """Issue 14: "Secret decisions arrive by DM without buttons" — the DM that asks now carries
    the Act button, and the answer is given there, through the same menu as under the board."""
    from discord_fakes import component

    match_id = await env.start(game="window_test", options="")
    thread_id = (await env.match(match_id)).channel_id
    await env.fake.slash(env.bot, env.alice, "move", command="go", channel_id=thread_id)
    bob = int(env.bob["id"])
    prompt = env.fake.dms(bob)[-1]
    assert component(prompt, rf"^m:{match_id}:act$") is not None, prompt
    ix = await env.fake.click(env.bot, env.bob, prompt, f"m:{match_id}:act")
    assert ix.ephemeral, ix.text
    menu = ix.last
    select = component(menu, r":c:")
    option = next(o for o in select["options"] if o["label"] == "pass")  # a game without a describer
    ix = await env.fake.click(env.bot, env.bob, menu, select["custom_id"], values=[option["value"]])
    assert "You played `pass`" in ix.text
    assert (await env.match(match_id)).n_commands == 2
