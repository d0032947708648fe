"""The end of a match is one message: the final board with its result, and the animated picture
of the match joined to it when it has been drawn (``/settings gif``, on by default).

The thread read top to bottom ends with that board — its words, its result, the picture of the
last position and the GIF — however the board was sent (the follow-up of the last tap, or a post
through the channel after ``/match resign``), and the GIF costs one edit of the board, not a post
of its own.  With ``/settings gif off`` the board stands alone and complete.  The real ``bot.py``
against the twin.
"""
from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from .test_league_e2e import ADMIN
from .twin import components_of, find_component, message_text
from .twin_v2 import pictures_of, texts

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

OPTIONS = "first=1 max_turns=10"
GIF_WAIT = 90           # drawing the GIF in its worker process, on a busy machine


def _gif_name(match_id: int) -> str:
    return f"match-{match_id}.gif"


def _names(message: dict) -> list[str]:
    return [a["filename"] for a in message.get("attachments", [])]


async def _play_by_taps(twin, table, match_id: int) -> int:
    """Alice and Bob play the first move offered through Act and its menu until the match ends
    (the board after each tap goes out as that tap's follow-up).  Returns the moves played."""
    played = 0
    menu = None
    while table.board_message(match_id) is not None:
        actor = await table.to_act(match_id)
        if actor is None:
            break
        if menu is None or menu[0] is not actor:
            ix = await twin.click(actor, table.board_message(match_id), f"m:{match_id}:act")
            menu = (actor, ix.last)
        ix = None
        while ix is None or "You played" not in ix.text:     # a piece first, then its move
            select = find_component(menu[1], rf"^m:{match_id}:c:")
            assert select is not None, message_text(menu[1])
            value = select["options"][0]["value"]
            ix = await twin.click(actor, menu[1], select["custom_id"], values=[value],
                                  until=(lambda i: "You played" in i.text or "⚠️" in i.text)
                                  if value.startswith("c:") else None)
            assert "⚠️" not in ix.text, ix.text
            menu = (actor, ix.last)
        menu = (actor, ix.last) if find_component(ix.last or {}, rf"^m:{match_id}:c:") else None
        played += 1
        assert played < 60, "the match did not end"
    return played


def _assert_final_board(twin, table, match_id: int, thread_id: int, *, gif: bool) -> dict:
    """The thread's newest message is the match's final board: its result in words, the board
    picture in its layout, no controls; with ``gif`` the animated picture too (one message)."""
    posts = twin.posts(thread_id)
    newest = posts[-1]
    assert newest is table.latest_board(match_id), message_text(newest)
    assert components_of(newest) == [], "a finished board has no controls"
    assert re.search(r"won|Draw|resign|勝|引き分け|投了", message_text(newest)), message_text(newest)
    expected = ["board.png", _gif_name(match_id)] if gif else ["board.png"]
    assert _names(newest) == expected, _names(newest)
    assert pictures_of(newest) == expected, "every picture is shown through the layout"
    # the GIF is nowhere else in the thread: joined to the board, not posted on its own
    assert [m["id"] for m in posts if _gif_name(match_id) in _names(m)] == ([newest["id"]] if gif else [])
    return newest


async def test_the_final_board_carries_its_result_and_the_gif_in_one_message(table, twin, bot):
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    played = await _play_by_taps(twin, table, match_id)
    assert played >= 10
    final = table.latest_board(match_id)
    assert final["_via"] == "followup", "the last tap's board is its follow-up"
    posted = final["_versions"][0]          # the board as it was posted
    words_before = texts(posted["components"])
    await twin.wait_for(lambda: _gif_name(match_id) in _names(table.latest_board(match_id)),
                        timeout=GIF_WAIT, what="the GIF joined to the final board")
    await twin.settle(quiet=0.5)
    board = _assert_final_board(twin, table, match_id, thread_id, gif=True)
    assert board["id"] == final["id"], "the same message, edited"
    # its words stay, in order, and the GIF's caption joins them: which match, how many steps,
    # how to step through it
    now = texts(board["components"])
    [caption] = [t for t in now if t not in words_before]
    assert [t for t in now if t != caption] == words_before, now
    assert caption.startswith(f"🎞️ Match #{match_id} ") and "/match replay" in caption, caption
    assert "won" not in caption and "Draw" not in caption, "the result is said once, on the board"
    # the board's own picture is the one it was posted with, shown first; the GIF is a real animation
    assert _names(posted) == ["board.png"] and board["attachments"][0] == posted["attachments"][0]
    assert pictures_of(posted) == ["board.png"] and components_of(board) == components_of(posted) == []
    gif = Image.open(io.BytesIO(twin.attachment(board, _gif_name(match_id))))
    assert gif.format == "GIF" and gif.n_frames >= 3
    # the GIF cost one edit of the board (uploading the GIF alone), no post of its own
    edits = [r for r in twin.requests if r.method == "PATCH"
             and r.path == f"/channels/{thread_id}/messages/{board['id']}"]
    assert len(edits) == 1 and [name for name, _ in edits[0].files] == [_gif_name(match_id)]


async def test_a_resigned_match_in_japanese_ends_with_its_board_and_gif(table, twin, bot):
    """The final board posted through the channel (``/match resign``), in a server that speaks
    Japanese: the GIF joins it the same way, its caption in Japanese."""
    await twin.slash(table.carol, "settings language", value="ja", permissions=ADMIN)
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    await _play_by_move(twin, table, match_id, 3)
    ix = await twin.slash(table.bob, "match resign", channel_id=thread_id)
    assert "⚠️" not in ix.text, ix.text
    await twin.wait_for(lambda: table.board_message(match_id) is None, what="the final board")
    assert table.latest_board(match_id)["_via"] == "channel"
    await twin.wait_for(lambda: _gif_name(match_id) in _names(table.latest_board(match_id)),
                        timeout=GIF_WAIT, what="the GIF joined to the final board")
    await twin.settle(quiet=0.5)
    board = _assert_final_board(twin, table, match_id, thread_id, gif=True)
    text = message_text(board)
    assert f"🎞️ 対戦 #{match_id}・" in text and "Match #" not in text, text


async def test_with_the_gif_turned_off_the_final_board_stands_alone(table, twin, bot):
    ix = await twin.slash(table.carol, "settings gif", value="off", permissions=ADMIN)
    assert "⚠️" not in ix.text, ix.text
    match_id = await table.start("squares", OPTIONS)
    thread_id = table.thread_of(match_id)
    await _play_by_taps(twin, table, match_id)
    await twin.settle(quiet=1.0)
    board = _assert_final_board(twin, table, match_id, thread_id, gif=False)
    assert "🎞️" not in message_text(board)
    # never edited after it was posted: nothing was joined to it
    assert [r for r in twin.requests if r.method == "PATCH"
            and r.path == f"/channels/{thread_id}/messages/{board['id']}"] == []


async def _play_by_move(twin, table, match_id: int, moves: int) -> None:
    """``moves`` moves typed with /move (the first command offered)."""
    thread_id = table.thread_of(match_id)
    for _ in range(moves):
        actor = await table.to_act(match_id)
        choices = await twin.autocomplete(actor, "move", "command", command="", channel_id=thread_id)
        ix = await twin.slash(actor, "move", command=choices[0]["value"], channel_id=thread_id)
        assert "You played" in ix.text, ix.text
