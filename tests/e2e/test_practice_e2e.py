"""/practice (issue 17) end to end: the real bot against the twin.  Alice starts a practice match
of SQUARES against the computer; every time she moves, the computer answers on its own after a
short pause, through the same board, in words; an abort needs only her vote; nothing is rated."""
from __future__ import annotations

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
    for _ in range(3):
        choices = await twin.autocomplete(table.alice, "move", "command", command="", match=match_id,
                                          channel_id=thread)
        assert choices, "Alice is to move"
        before = len(twin.posts(thread))
        ix = await twin.slash(table.alice, "move", command=choices[0]["value"], match=match_id, channel_id=thread)
        assert "You played" in ix.text, ix.text
        # the computer answers by itself: a new board that names its move and pings Alice
        await twin.wait_for(lambda: any("Computer (easy):" in message_text(m) for m in twin.posts(thread)[before:]),
                            what="the computer's move", timeout=30)
    text = "\n".join(message_text(m) for m in twin.posts(thread))
    assert text.count("Computer (easy):") >= 3
    ix = await twin.slash(table.alice, "match abort", match=match_id, channel_id=thread)
    await twin.wait_for(lambda: table.board_message(match_id) is None, what="the aborted board", timeout=30)
    assert_every_message_within_limits(twin)
    assert not bot.errors(), bot.errors()
