"""/practice (issue 17) end to end: the real bot against the twin.  Alice starts a practice match
of SQUARES against the computer; every time she moves, the computer answers on its own after a
short pause, through the same board, in words; an abort needs only her vote; nothing is rated."""
from __future__ import annotations

import asyncio
import re

import pytest

from .checks import assert_every_message_within_limits
from .twin import find_component, message_text

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")
# the computer answers at once: matches played back to back, faster than people play:
# Discord's 5 posts per channel in a 1 s window (tests/e2e/conftest.py, channel_window)
CHANNEL_WINDOW = 1.0


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

    for _ in range(3):
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


async def test_fill_ai_the_computer_takes_the_seat_of_a_player_who_resigns(table, twin, bot):
    """`/play avalon … fill_ai:true` with three players: Bob resigns; the table says the computer
    plays his seat from here on; the match goes on, and Bob is never asked to move again."""
    match_id, challenge = await table.challenge("avalon", opponent2=table.carol, fill_ai=True)
    for user in (table.bob, table.carol):
        challenge = table.board_message(match_id)
        ix = await twin.click(user, challenge, f"m:{match_id}:accept")
        await table.pick_deck(user, ix)
    await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, rf"^m:{match_id}:act$"),
                        what="the board with an Act button")
    thread = table.thread_of(match_id)
    ix = await twin.slash(table.bob, "match resign", match=match_id, channel_id=thread)
    for _ in range(3):                  # a confirmation, if one is asked
        button = find_component(ix.last or {}, r"confirm|yes|resign")
        if button is None or "left the match" in "\n".join(message_text(m) for m in twin.posts(thread)):
            break
        ix = await twin.click(table.bob, ix.last, button["custom_id"])
    await twin.wait_for(lambda: "Bob left the match: the computer plays their seat" in
                        "\n".join(message_text(m) for m in twin.posts(thread)), what="the seat-filler's notice",
                        timeout=30)
    # the others play on; whenever Bob's seat is to act the computer does it, Bob is never asked
    for _ in range(12):
        assert not await twin.autocomplete(table.bob, "move", "command", command="", match=match_id,
                                           channel_id=thread), "Bob is asked to move after leaving"
        moved = False
        for user in (table.alice, table.carol):
            choices = await twin.autocomplete(user, "move", "command", command="", match=match_id, channel_id=thread)
            if choices:
                await twin.slash(user, "move", command=choices[0]["value"], match=match_id, channel_id=thread)
                moved = True
                break
        if not moved:
            await asyncio.sleep(0.5)    # the computer's turn for Bob's seat
    assert table.board_message(match_id) is not None, "the match goes on"
    assert not bot.errors(), bot.errors()


async def test_a_card_game_practice_sends_the_hand_to_the_player_only(table, twin, bot):
    """/practice of a game with hidden hands: Alice gets her hand by DM; the computer's seat is
    the bot's own user, and its hand is never sent anywhere (no DM to the bot itself)."""
    ix = await twin.slash(table.alice, "practice", game="avalon", level="easy")
    assert ix.ephemeral and "#" in ix.text, ix.text
    match_id = int(re.search(r"#(\d+)", ix.text).group(1))
    await twin.wait_for(lambda: table.board_message(match_id), what="the practice board")
    await twin.wait_for(lambda: twin.dms(int(table.alice["id"])) or None, what="Alice's hand by DM", timeout=30)
    await asyncio.sleep(1.0)                 # the computer's own moves and their updates
    assert twin.dm_channel_of(int(twin.bot_user["id"])) is None
    assert not bot.errors(), bot.errors()
