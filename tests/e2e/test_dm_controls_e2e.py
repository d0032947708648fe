"""End-to-end: a player acts from their DM (issue 14, "DMs you can act from"). The DM holds the
hand picture and an Act button; Act opens the same menu as under the board (ephemeral, moves in
words) and one pick plays; the thread gets the new board, which says the move in words; the DM
is edited in place, never sent again."""
from __future__ import annotations

from .checks import assert_every_message_within_limits
from .twin import find_component, message_text


def _view_dm(twin, user: dict) -> dict | None:
    found = [m for m in twin.dms(int(user["id"])) if any(a["filename"] == "hand.png" for a in m.get("attachments", []))]
    return found[-1] if found else None


async def test_a_move_played_from_the_dm_reaches_the_thread_in_words(table, twin):
    alice = table.alice
    match_id = await table.start("logic_square", "first=1")
    await twin.wait_for(lambda: _view_dm(twin, alice), what="Alice's DM")
    dm = _view_dm(twin, alice)
    assert find_component(dm, rf"^m:{match_id}:act$") is not None, "the DM has Act"
    assert find_component(dm, r":c:") is None, "the DM has no move list of its own"
    versions = len(twin.message(dm["id"]).get("_versions", []))
    command, ix = await table.act_by_menu(alice, match_id, pick=lambda options: next(
        (o for o in options if o["label"].startswith("Move ")), options[0]), message=dm)
    assert "You played" in ix.text
    # the hand did not change with a move of the AVI … unless the move used a card: either way
    # the DM is the same message (edited in place at most)
    assert [m["id"] for m in twin.dms(int(alice["id"])) if any(
        a["filename"] == "hand.png" for a in m.get("attachments", []))] == [dm["id"]]
    assert len(twin.message(dm["id"]).get("_versions", [])) >= versions
    # the thread: the newest message is the board, and it tells the move in words
    await twin.settle(quiet=0.3)
    board = table.latest_board(match_id)
    thread = twin.posts(int(board["channel_id"]))
    assert thread[-1]["id"] == board["id"]
    text = message_text(board)
    assert "Alice: " in text and f"Alice: {command}" not in text, text[:300]
    assert_every_message_within_limits(twin)
