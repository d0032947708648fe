"""End-to-end: the bot's permissions in a channel (issue 15, finding 4). The twin computes them
from @everyone, the bot's own role and the channel's overwrites, and refuses what Discord
refuses (403: 50001 Missing Access, 50013 Missing Permissions).  Without Attach Files every board
would be a 403: /play says so at once, naming the permission in the player's language, and posts
nothing.  Without Create Public Threads the match is played in the channel itself, never asking
for a thread.  Either way Discord refuses nothing."""
from __future__ import annotations

import aiohttp

from .checks import assert_ephemeral, assert_every_message_within_limits
from .twin import ATTACH_FILES, CREATE_PUBLIC_THREADS, TOKEN, find_component


async def test_the_twin_refuses_what_the_bots_permissions_do_not_allow(twin):
    cid = int(twin.channel["id"])
    auth = {"Authorization": f"Bot {TOKEN}"}
    await twin.deny_bot(cid, ATTACH_FILES, CREATE_PUBLIC_THREADS)
    assert not twin.bot_permissions(cid) & ATTACH_FILES
    async with aiohttp.ClientSession() as http:
        form = aiohttp.FormData()
        form.add_field("payload_json", '{"content": "pic"}')
        form.add_field("files[0]", b"png", filename="board.png")
        async with http.post(f"{twin.api_base}/channels/{cid}/messages", headers=auth, data=form) as r:
            assert r.status == 403 and (await r.json())["code"] == 50013
        async with http.post(f"{twin.api_base}/channels/{cid}/threads", headers=auth,
                             json={"name": "t", "type": 11}) as r:
            assert r.status == 403 and (await r.json())["code"] == 50013
        async with http.post(f"{twin.api_base}/channels/{cid}/messages", headers=auth, json={"content": "words"}) as r:
            assert r.status == 200
    assert twin.invalid_requests() == 2
    twin.refusals.clear()
    twin.requests.clear()


async def test_play_names_a_missing_permission_and_posts_nothing(table, twin):
    await twin.deny_bot(int(twin.channel["id"]), ATTACH_FILES)
    for locale, words in (("en-US", "Attach Files"), ("ja", "ファイルを添付")):
        ix = await twin.slash(table.alice, "play", game="squares", opponent=table.bob, locale=locale)
        assert_ephemeral(ix)
        assert "⚠️" in ix.text and words in ix.text, ix.text
    assert twin.posts() == [] and table.board_message(1) is None
    assert twin.refusals == [] and twin.invalid_requests() == 0


async def test_without_create_public_threads_the_match_is_played_in_the_channel(table, twin):
    channel = int(twin.channel["id"])
    await twin.deny_bot(channel, CREATE_PUBLIC_THREADS)
    match_id = await table.start("squares", "first=1 max_turns=10")
    board = table.board_message(match_id)
    assert int(board["channel_id"]) == channel, "no thread: the board is in the channel"
    assert not [c for c in twin.channels.values() if c.get("thread_metadata")]
    moves = await twin.autocomplete(table.alice, "move", "command", command="", channel_id=channel)
    ix = await table.move(table.alice, match_id, moves[0]["value"])
    assert "You played" in ix.text
    assert find_component(table.board_message(match_id), rf"^m:{match_id}:act$") is not None
    assert twin.refusals == [] and twin.invalid_requests() == 0
    assert_every_message_within_limits(twin)
