"""The animated picture of a match that ended joins its final board (cogs/replay.py): one edit of
that board, which keeps its words and result and gains the GIF and its caption; when the board
cannot be edited (deleted meanwhile) the GIF is posted on its own, as a layout captioned with the
result as before; with ``/settings gif off`` nothing is drawn and nothing is kept waiting for it.  The bot
on the fake Discord, its GIF drawn at once by a stand-in."""
from __future__ import annotations

import asyncio

import pytest

from discord_fakes import make_env, message_text, pictures_of
from render.gif import GifResult

GIF = GifResult(data=b"GIF89a" + bytes(40), frames=3, steps=2, sampled=False, seconds=0.0)


@pytest.fixture
async def env(tmp_path):
    e = await make_env(tmp_path, gif=True)
    try:
        yield e
    finally:
        await e.close()


@pytest.fixture
async def env_gif_off(tmp_path):
    e = await make_env(tmp_path)
    try:
        yield e
    finally:
        await e.close()


def _draw_gif(env, meanwhile=None) -> list[int]:
    """The Replay cog's GIF drawn at once (``meanwhile(rec)``: what happens while it is being
    drawn); returns the matches it was drawn for."""
    drawn: list[int] = []

    async def gif(rec, locale):
        if meanwhile is not None:
            await meanwhile(rec)
        drawn.append(rec.id)
        return GIF

    env.bot.get_cog("Replay").gif = gif
    return drawn


async def _resigned_after_a_move(env) -> tuple[int, str]:
    match_id = await env.start()
    thread = (await env.refs(match_id))["thread"]
    move = (await env.host.choices(match_id, int(env.alice["id"]), "en"))[0].command
    ix = await env.fake.slash(env.bot, env.alice, "move", command=move, channel_id=thread)
    assert "You played" in ix.text, ix.text
    await env.fake.slash(env.bot, env.bob, "match resign", channel_id=thread)
    assert (await env.match(match_id)).status == "finished"
    return match_id, thread


async def _drawn(env) -> None:
    await asyncio.gather(*list(env.bot.get_cog("Replay")._tasks))


def _gif_posts(env, thread: str, match_id: int) -> list[dict]:
    return [m for m in env.fake.posts(thread)
            if any(a["filename"] == f"match-{match_id}.gif" for a in m.get("attachments", []))]


async def test_the_gif_joins_the_final_board_in_one_edit(env):
    drawn = _draw_gif(env)
    match_id, thread = await _resigned_after_a_move(env)
    await _drawn(env)
    assert drawn == [match_id]
    board = await env.board(match_id)
    posts = env.fake.posts(thread)
    assert posts[-1]["id"] == board["id"] and _gif_posts(env, thread, match_id) == [board]
    # its words and result first, then the GIF in a gallery of its own under the board's
    # picture, its caption beneath (the result said once)
    words, _, caption = message_text(board).partition("\n🎞️")
    assert "resign" in words and "resign" not in caption
    assert caption.startswith(f" Match #{match_id} · SQUARES · Alice, Bob · 2 steps") and "/match replay" in caption
    assert pictures_of(board) == [f"match-{match_id}.gif"], "(no board picture here: drawing is off)"
    # the board was posted once and edited once (the GIF joined): no post of its own
    assert len(env.fake.calls("PATCH", rf"/channels/{thread}/messages/{board['id']}$")) == 1
    assert not any(m["id"] != board["id"] and "🎞️" in message_text(m) for m in posts)
    assert env.bot.get_cog("Delivery").final_boards == {}


async def test_a_final_board_deleted_meanwhile_gets_the_gif_posted_on_its_own(env):
    async def tidied(rec):          # a moderator deletes the final board while the GIF is drawn
        env.fake.delete_message(int((await env.refs(rec.id))["board"].split(":")[1]))

    drawn = _draw_gif(env, tidied)
    match_id, thread = await _resigned_after_a_move(env)
    await _drawn(env)
    assert drawn == [match_id]
    (post,) = _gif_posts(env, thread, match_id)
    assert env.fake.posts(thread)[-1] is post
    assert pictures_of(post) == [f"match-{match_id}.gif"] and not post.get("content"), "one layout: the GIF in its gallery"
    text = message_text(post)
    assert text.startswith(f"🎞️ Match #{match_id} ") and "resign" in text and "/match replay" in text


async def test_with_the_gif_off_nothing_is_drawn_or_kept(env_gif_off):
    env = env_gif_off
    drawn = _draw_gif(env)
    match_id, thread = await _resigned_after_a_move(env)
    await _drawn(env)
    assert drawn == [] and not env.bot.get_cog("Replay")._tasks
    assert env.bot.get_cog("Delivery").final_boards == {}
    assert _gif_posts(env, thread, match_id) == []
    assert env.fake.calls("PATCH", rf"/channels/{thread}/messages/{(await env.board(match_id))['id']}$") == []
