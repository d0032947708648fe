"""/practice (issue 17) end to end: the real bot against the twin.  Alice starts a practice match
of SQUARES against the computer; every time she moves, the computer answers on its own after a
short pause, through the same board, in words; an abort needs only her vote; nothing is rated."""
from __future__ import annotations

import asyncio
import re

import pytest

from .checks import assert_every_message_within_limits
from .twin import message_text

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


async def test_practice_against_the_computer(table, twin, bot):
    ix = await twin.slash(table.alice, "practice", game="squares", level="easy")
    assert ix.ephemeral and "#" in ix.text, ix.text
    match_id = int(re.search(r"#(\d+)", ix.text).group(1))
    await twin.wait_for(lambda: table.board_message(match_id), what="the practice board")
    thread = table.thread_of(match_id)
    def said_by_computer() -> int:
        return "\n".join(message_text(m) for m in twin.posts(thread)).count("Computer (easy): ")

    async def alice_to_move() -> list:
        return await twin.autocomplete(table.alice, "move", "command", command="", match=match_id,
                                       channel_id=thread)

    async def wait_for_alice() -> list:
        """Alice's legal moves once it is her turn (the computer may move first: it moves on its
        own after a short pause)."""
        for _ in range(150):
            choices = await alice_to_move()
            if choices:
                return choices
            await asyncio.sleep(0.2)
        raise AssertionError("Alice never got the turn back")

    for turn in range(3):
        choices = await wait_for_alice()
        done = said_by_computer()
        ix = await twin.slash(table.alice, "move", command=choices[0]["value"], match=match_id, channel_id=thread)
        assert "You played" in ix.text, ix.text
        # the computer answers by itself: the thread names its move
        await twin.wait_for(lambda: said_by_computer() > done, what="the computer's move", timeout=30)
    assert said_by_computer() >= 3
    ix = await twin.slash(table.alice, "match abort", match=match_id, channel_id=thread)
    await twin.wait_for(lambda: table.board_message(match_id) is None, what="the aborted board", timeout=30)
    assert_every_message_within_limits(twin)
    assert not bot.errors(), bot.errors()


async def test_challenging_the_bot_with_play_starts_a_practice_match(table, twin, bot):
    """`/play game opponent:@TableBot`: the bot takes up the challenge itself (level normal)."""
    ix = await twin.slash(table.alice, "play", game="squares", opponent=twin.bot_user)
    assert ix.ephemeral and "computer" in ix.text.lower(), ix.text
    match_id = int(re.search(r"#(\d+)", ix.text).group(1))
    await twin.wait_for(lambda: table.board_message(match_id), what="the practice board")
    assert not bot.errors(), bot.errors()
