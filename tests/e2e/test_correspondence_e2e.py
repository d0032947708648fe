"""End-to-end: a correspondence match over days, with the twin's clock (issue 15, findings 2 and
3). Discord rations edits of messages older than an hour (429/30046) and archives idle threads
(50083 on edits and member adds): the bot never edits a board or DM view that old — it posts a
fresh one and removes the old — picks an archive duration that fits the clock, and unarchives a
thread before adding a spectator.  Zero refused requests, zero invalid requests."""
from __future__ import annotations

from .checks import assert_every_message_within_limits
from .twin import find_component

HOUR = 3600
DAY = 24 * HOUR


def _view_dms(twin, user: dict) -> list[dict]:
    return [m for m in twin.dms(int(user["id"])) if any(a["filename"] == "hand.png" for a in m.get("attachments", []))
            and int(m["id"]) not in twin.deleted_messages]


def _thread_meta(twin, thread_id: int) -> dict:
    return twin.channels[int(thread_id)]["thread_metadata"]


async def test_a_match_played_over_a_week_never_edits_old_messages_and_survives_archiving(table, twin):
    alice, bob, carol = table.alice, table.bob, table.carol
    match_id = await table.start("logic_square", "first=1")
    thread_id = table.thread_of(match_id)
    # no turn clock: the thread archives only after a week of silence
    assert _thread_meta(twin, thread_id)["auto_archive_duration"] == 10080
    await twin.wait_for(lambda: _view_dms(twin, alice) and _view_dms(twin, bob), what="both DM views")
    async def whose_turn() -> dict:
        """The player whose move it is, as they can tell: /move offers them commands."""
        for user in (alice, bob):
            if await twin.autocomplete(user, "move", "command", command="", match=match_id, channel_id=thread_id):
                return user
        raise AssertionError("nobody may move")

    for gap in (10, 2 * HOUR, 5 * HOUR, DAY, 3 * DAY):
        await twin.advance(gap)
        actor = await whose_turn()
        before = table.latest_board(match_id)
        command, ix = await table.act_by_menu(actor, match_id, pick=lambda options: next(
            (o for o in options if o["label"].startswith(("End", "Move"))), options[0]))
        assert "You played" in ix.text, ix.text
        await twin.settle(quiet=0.3)
        if gap >= HOUR:     # a busy machine: the fresh board may take longer than the quiet spell
            await twin.wait_for(lambda: int(before["id"]) in twin.deleted_messages,
                                what="the board too old to edit to be replaced")
        board = table.latest_board(match_id)
        thread = [m for m in twin.posts(thread_id) if int(m["id"]) not in twin.deleted_messages]
        assert thread[-1]["id"] == board["id"], "the board is the newest message"
        if gap >= HOUR:
            # the old board was not edited: a fresh board replaced it and the old one is gone
            assert board["id"] != before["id"] and int(before["id"]) in twin.deleted_messages
        # one DM view per player, the newest; a view too old to edit was replaced, not edited
        for user in (alice, bob):
            assert len(_view_dms(twin, user)) == 1, [m["id"] for m in _view_dms(twin, user)]
    # a week of silence: Discord archives the thread
    await twin.advance(8 * DAY)
    assert _thread_meta(twin, thread_id)["archived"]
    # a spectator can still be added: the bot unarchives the thread first
    ix = await twin.slash(carol, "match spectate", match=match_id)
    assert int(carol["id"]) in twin.thread_members.get(int(thread_id), set()), ix.text
    # and the next move posts a fresh board in the (unarchived) thread
    command, ix = await table.act_by_menu(await whose_turn(), match_id)
    assert "You played" in ix.text
    await twin.settle(quiet=0.3)
    assert not _thread_meta(twin, thread_id)["archived"]
    assert find_component(table.latest_board(match_id), rf"^m:{match_id}:act$") is not None
    # another week of silence; then a command in the archived thread unarchives it (as Discord
    # does for a member's command) and is answered there
    await twin.advance(8 * DAY)
    assert _thread_meta(twin, thread_id)["archived"]
    ix = await twin.slash(bob, "match status", channel_id=thread_id)
    assert ix.ephemeral and f"#{match_id}" in ix.text, ix.text
    assert not _thread_meta(twin, thread_id)["archived"]
    # Discord refused nothing: no old-message edits (429/30046), no edits or adds in an archived
    # thread (50083); no invalid request at all
    assert not [r for r in twin.refusals if "30046" in r or "50083" in r or r.startswith("429")], twin.refusals
    assert twin.invalid_requests(window=30 * DAY) == 0
    assert not twin.violations, twin.violations
    assert_every_message_within_limits(twin)
