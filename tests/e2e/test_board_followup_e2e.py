"""The new board after a tap in the thread goes out as that tap's follow-up (issue 33: REST calls
per command).

Discord does not count interaction follow-ups against a bot's global rate limit, so when a
player's move passes the turn, the board that pings the next player is sent as the public
follow-up of the move's own interaction: the same message (words, ping, picture, Act), the
newest of the thread, later retired through the channel like any other board.  A move typed as
``/move`` (a slash command, answered "thinking") and a refused follow-up fall back to a post in
the channel.  The real ``bot.py`` against the twin.
"""
from __future__ import annotations

import re

import pytest

from .twin import EPHEMERAL, components_of, find_component, message_text
from .twin_v2 import pictures_of

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")


def _posts_to(twin, channel_id: str) -> int:
    """Rate-limited message posts into the channel so far."""
    return len([r for r in twin.requests if r.method == "POST" and r.path == f"/channels/{channel_id}/messages"])


def _user_of(table, user_id: str) -> dict:
    return next(u for u in (table.alice, table.bob) if u["id"] == user_id)


async def _new_board_after(table, twin, match_id: int, before: dict) -> dict:
    await twin.wait_for(lambda: (table.board_message(match_id) or before)["id"] != before["id"],
                        what="a new board")
    await twin.settle(quiet=0.3)
    return table.board_message(match_id)


async def test_a_tap_that_passes_the_turn_sends_the_next_board_as_its_follow_up(table, twin):
    """The board pinging the next player is the move's public follow-up: no channel post for
    it, the ping and Act are there, and the board it replaced is retired (words stay, picture
    and controls go); the follow-up board is itself retired through the channel later."""
    match_id = await table.start("squares", "first=1 max_turns=10")
    thread = table.thread_of(match_id)
    first = table.board_message(match_id)
    mover = _user_of(table, str((await table.to_act(match_id))["id"]))
    other = table.bob if mover is table.alice else table.alice
    posts = _posts_to(twin, thread)

    await table.act_by_menu(mover, match_id)
    board = await _new_board_after(table, twin, match_id, first)

    assert board["_via"] == "followup" and not board["flags"] & EPHEMERAL
    assert board["channel_id"] == str(thread)
    assert _posts_to(twin, thread) == posts, "the new board was not posted through the channel"
    assert f"<@{other['id']}>" in message_text(board)
    assert [str(u) for u in board["_allowed_mentions"]["users"]] == [other["id"]]
    assert find_component(board, rf"^m:{match_id}:act$")
    assert pictures_of(board) == ["board.png"], "the board has its picture"
    old = twin.message(first["id"])
    assert not components_of(old) and not pictures_of(old) and not old["attachments"]
    assert f"<@{other['id']}>" not in message_text(old) and f"<@{mover['id']}>" not in message_text(old)
    assert [r for r in twin.requests if r.method == "PATCH" and r.path.endswith(f"/messages/{first['id']}")]

    # the other player answers by /move: a slash command's board is posted through the channel,
    # and the follow-up board is retired through the channel like any other
    choices = await twin.autocomplete(other, "move", "command", command="", channel_id=thread)
    await table.move(other, match_id, choices[0]["value"])
    newest = await _new_board_after(table, twin, match_id, board)
    assert newest["_via"] == "channel" and _posts_to(twin, thread) == posts + 1
    retired = twin.message(board["id"])
    assert not components_of(retired) and not retired["attachments"] and message_text(retired).strip()
    assert [r for r in twin.requests if r.method == "PATCH" and r.path == f"/channels/{thread}/messages/{board['id']}"]
    assert f"<@{mover['id']}>" in message_text(newest)
    assert not twin.violations


async def test_a_refused_follow_up_falls_back_to_a_post_in_the_thread(table, twin):
    """When Discord refuses the follow-up (an expired token: 401/50027) the board is posted in
    the thread instead — once, with its ping — and nothing is lost."""
    match_id = await table.start("squares", "first=1 max_turns=10")
    thread = table.thread_of(match_id)
    first = table.board_message(match_id)
    mover = _user_of(table, str((await table.to_act(match_id))["id"]))
    other = table.bob if mover is table.alice else table.alice
    posts = _posts_to(twin, thread)
    twin.refuse_followups = True

    await table.act_by_menu(mover, match_id)
    board = await _new_board_after(table, twin, match_id, first)

    assert board["_via"] == "channel" and _posts_to(twin, thread) == posts + 1
    assert f"<@{other['id']}>" in message_text(board) and find_component(board, rf"^m:{match_id}:act$")
    assert re.search(r"50027", " ".join(twin.refusals))
    boards = [m for m in twin.posts(thread) if find_component(m, rf"^m:{match_id}:act$")]
    assert [m["id"] for m in boards] == [board["id"]], "exactly one live board"
    assert not twin.violations
