"""Issue 33: in a finished match's own thread, the commands that read a match without its number
(``/match log``, ``/match status``, ``/match hand``) mean that match — for each player and for a
spectator who was never seated, however it ended (played out, resigned, a turn clock claimed, an
abort vote), after the bot restarts, after Discord archived the thread, with a rematch offered
there, and when the match had to leave its thread (a locked thread refused its posts).  Never
"Which match?", never "No commands yet" for a match whose moves were played; ``/match log``'s
autocomplete offers the thread's finished match too."""
from __future__ import annotations

import copy
import re

import pytest

from .test_squares_e2e import log_commands
from .twin import message_text

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")
# matches resigned, ended on time and aborted the moment they start, faster than people play:
# Discord's 5 posts per channel in a 1 s window (tests/e2e/conftest.py, channel_window)
CHANNEL_WINDOW = 1.0

OPTIONS = "first=1 max_turns=10"
CLOCK_LOOP = 1          # seconds between the bot's clock-loop runs (BOT_TEST_CLOCK_LOOP)
TURN = 300              # the shortest turn clock /play offers
DAY = 24 * 3600


@pytest.fixture
def bot_env() -> dict:
    """conftest's bot, with a fast clock loop."""
    return {"BOT_TEST_CLOCK_LOOP": str(CLOCK_LOOP)}


async def play(twin, table, match_id: int, thread_id: int, n: int | None = None) -> list[str]:
    """Alice and Bob play the first command offered, ``n`` commands or until the match ends."""
    played: list[str] = []
    while table.board_message(match_id) is not None and (n is None or len(played) < n):
        actor = await table.to_act(match_id)
        if actor is None:
            break
        choices = await twin.autocomplete(actor, "move", "command", command="", channel_id=thread_id)
        ix = await twin.slash(actor, "move", command=choices[0]["value"], channel_id=thread_id)
        assert "You played" in ix.text, ix.text
        played.append(choices[0]["value"])
        assert len(played) < 40, "the match did not end"
    await twin.settle(quiet=0.3)
    return played


async def reads_the_match(twin, table, thread_id: int, match_id: int, played: list[str], *,
                          hand_says: str | None = None) -> None:
    """Each player and the spectator Carol, in the thread, without a match number."""
    for user in (table.alice, table.bob, table.carol):
        ix = await twin.slash(user, "match log", channel_id=thread_id)
        assert ix.ephemeral and "Which match" not in ix.text and "No commands yet" not in ix.text, ix.text
        assert f"#{match_id}" in ix.text and log_commands(ix.text) == played, ix.text
        ix = await twin.slash(user, "match status", channel_id=thread_id)
        assert ix.ephemeral and "Which match" not in ix.text and f"#{match_id}" in ix.text, ix.text
        ix = await twin.slash(user, "match hand", channel_id=thread_id)
        assert "Which match" not in ix.text and "has not started" not in ix.text, ix.text
        if user is not table.carol and hand_says:
            assert hand_says in ix.text, ix.text
        # the autocomplete of /match log offers the thread's match, finished as it is
        offered = await twin.autocomplete(user, "match log", "match", match="", channel_id=thread_id)
        assert match_id in [c["value"] for c in offered], offered


async def test_a_match_played_out_then_a_restart_then_an_archived_thread(table, twin, bot):
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    played = await play(twin, table, match_id, thread_id)
    await twin.wait_for(lambda: table.board_message(match_id) is None, what="the final board")
    assert re.search(r"Draw|won", message_text(table.latest_board(match_id)))
    assert len(played) == 10
    await reads_the_match(twin, table, thread_id, match_id, played, hand_says="nothing private")
    await bot.stop()
    await bot.start()
    await reads_the_match(twin, table, thread_id, match_id, played)
    await twin.advance(8 * DAY)
    assert twin.channels[int(thread_id)]["thread_metadata"]["archived"]
    await reads_the_match(twin, table, thread_id, match_id, played)


async def test_a_resigned_match_and_a_rematch_offered_in_its_thread(table, twin, bot):
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    played = await play(twin, table, match_id, thread_id, 3)
    await twin.slash(table.bob, "match resign", channel_id=thread_id)
    await twin.wait_for(lambda: table.board_message(match_id) is None, what="the result")
    await reads_the_match(twin, table, thread_id, match_id, played)
    # a rematch offered there: the log and a player's hand still mean the match that was played
    ix = await twin.slash(table.bob, "match rematch", channel_id=thread_id)
    assert f"#{match_id + 1}" in ix.text, ix.text
    for user in (table.alice, table.bob):
        ix = await twin.slash(user, "match hand", channel_id=thread_id)
        assert "has not started" not in ix.text and "Which match" not in ix.text, ix.text
        ix = await twin.slash(user, "match log", channel_id=thread_id)
        assert f"#{match_id}" in ix.text and log_commands(ix.text) == played, ix.text


async def test_a_match_won_on_time(table, twin, bot):
    match_id = await table.start("squares", OPTIONS, turn_time=TURN)
    thread_id = table.thread_of(match_id)
    played = await play(twin, table, match_id, thread_id, 3)
    await twin.advance(TURN + 60)
    await twin.wait_for(lambda: "ran out" in "\n".join(message_text(p) for p in twin.posts(thread_id)),
                        timeout=CLOCK_LOOP + 15, what="the expiry notice")
    ix = await twin.slash(table.alice, "match claim", channel_id=thread_id)
    assert "claimed" in ix.text, ix.text
    await twin.wait_for(lambda: table.board_message(match_id) is None, what="the result")
    await reads_the_match(twin, table, thread_id, match_id, played)
    await bot.stop()
    await bot.start()
    await reads_the_match(twin, table, thread_id, match_id, played)


async def test_an_aborted_match(table, twin, bot):
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    played = await play(twin, table, match_id, thread_id, 3)
    await twin.slash(table.alice, "match abort", channel_id=thread_id)
    await twin.slash(table.bob, "match abort", channel_id=thread_id)
    await twin.wait_for(lambda: table.board_message(match_id) is None, what="the aborted board")
    # no hand is dealt any more: it says so (not "the match has not started yet")
    await reads_the_match(twin, table, thread_id, match_id, played, hand_says="not in play (aborted)")
    await twin.advance(8 * DAY)
    await reads_the_match(twin, table, thread_id, match_id, played)


async def test_a_match_that_had_to_leave_its_locked_thread(table, twin, bot):
    """A moderator locks the thread mid-match: the bot's next post there is refused (50083) and
    the match goes on in the channel.  Unlocked again, the thread holds the match's history, and
    a command there without a number still means it."""
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    parent = int(twin.channel["id"])
    played = await play(twin, table, match_id, thread_id, 3)
    meta = twin.channels[int(thread_id)]["thread_metadata"]
    meta.update(archived=True, locked=True)
    await twin.dispatch("THREAD_UPDATE", copy.deepcopy(twin.channels[int(thread_id)]))
    await twin.slash(table.bob, "match resign", match=match_id)
    await twin.wait_for(lambda: any(f"#{match_id}" in message_text(p) and "resign" in message_text(p)
                                    for p in twin.posts(parent)), what="the result in the channel")
    played_here = played          # the resignation is no move
    meta.update(archived=False, locked=False)
    await twin.dispatch("THREAD_UPDATE", copy.deepcopy(twin.channels[int(thread_id)]))
    await reads_the_match(twin, table, thread_id, match_id, played_here)
