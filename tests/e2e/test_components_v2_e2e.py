"""Every message of a match is a Components V2 layout, within Discord's V2 rules as the twin
enforces them (tests/e2e/twin_v2.py): the board in play, a retired board, the final board with its
animated picture, a player's hand DM, a replay step, and the replies one player sees (the board
of /match status and /spectate, the hand of /match hand and of an Act pressed between turns).  Each carries the IS_COMPONENTS_V2 flag
and nothing beside it (no content, no embeds), keeps within 40 components and 4,000 characters
of text, shows its pictures through its media galleries (``attachment://``), and says in text what
its picture shows — the status, the players, the clock.  And a layout past the limits is refused
by the twin as Discord refuses it.  The real ``bot.py`` against the twin.
"""
from __future__ import annotations

import asyncio
import io
import re

import discord
import discord.http
import pytest

from .checks import assert_every_message_within_limits
from .harness import board_title
from .twin import TOKEN, components_of, find_component, message_text
from .twin_v2 import (IS_COMPONENTS_V2, MAX_COMPONENTS, MAX_TEXT, _tree, check_layout, controls, is_v2, pictures_of,
                      texts)

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

OPTIONS = "first=1 max_turns=10"
TURN = 3600                 # an hour a move: the board shows a clock
GIF_WAIT = 90               # drawing the GIF in its worker process, on a busy machine


def assert_v2(m: dict, *, pictures: list[str]) -> str:
    """``m`` is a V2 message as Discord stores it: the flag, no content or embeds beside it, its
    layout valid (its ``attachment://`` files among its attachments), within 40 components and
    4,000 characters of text, showing exactly ``pictures`` through its galleries.  Returns its
    text."""
    assert is_v2(m) and m["flags"] & IS_COMPONENTS_V2, m.get("flags")
    assert not m["content"] and not m["embeds"], "nothing beside the layout"
    names = {a["filename"] for a in m.get("attachments") or []}
    assert check_layout(m["components"], names) == [], check_layout(m["components"], names)
    assert len(list(_tree(m["components"]))) <= MAX_COMPONENTS
    assert sum(len(t) for t in texts(m["components"])) <= MAX_TEXT
    assert pictures_of(m) == pictures, (pictures_of(m), pictures)
    assert sorted(names) == sorted(pictures), "every file is shown through the layout"
    return message_text(m)


def assert_board_text(text: str, match_id: int, *, clock: bool = True) -> None:
    """The words of a board carry what its picture shows: title, players, clock."""
    assert f"## SQUARES #{match_id}" in text, text
    assert "**Players**" in text and "(Alice)" in text and "(Bob)" in text, text
    if clock:
        assert "**Turn time**\n1 hour" in text, text


async def test_the_board_in_play_retired_and_final_with_its_gif_are_layouts(table, twin, bot):
    match_id = await table.start("squares", OPTIONS, turn_time=TURN)
    thread_id = table.thread_of(match_id)
    first = table.board_message(match_id)
    # the board in play: the picture in its gallery; the status, players and clock in words; the
    # controls beneath; the accent is the colour of the player to act
    text = assert_v2(first, pictures=["board.png"])
    assert_board_text(text, match_id)
    assert "**To act: Alice (after 0 moves)**" in text and "<t:" in text, text
    assert [c["custom_id"] for c in components_of(first)] == [f"m:{match_id}:{a}" for a in ("act", "status", "resign")]
    [box] = first["components"]
    assert box["type"] == 17 and box["accent_color"] is not None
    # a move passes the turn: a new board pings Bob, the one before is retired
    await table.act_by_menu(table.alice, match_id)
    await twin.wait_for(lambda: (table.board_message(match_id) or first)["id"] != first["id"], what="the new board")
    await twin.settle(quiet=0.3)
    board = table.board_message(match_id)
    text = assert_v2(board, pictures=["board.png"])
    assert f"<@{table.bob['id']}>: your turn" in text and "**To act: Bob (after 1 move)**" in text, text
    assert [str(u) for u in board["_allowed_mentions"]["users"]] == [table.bob["id"]], "the ping is in its text"
    assert board["components"][0]["accent_color"] != box["accent_color"], "Bob's colour, not Alice's"
    retired = twin.message(first["id"])
    words = assert_v2(retired, pictures=[])         # a V2 message stays one: its words alone
    assert components_of(retired) == [] and words.strip() and "<@" not in words
    assert words in message_text(first), "its words are those it was posted with"
    # Bob resigns: the final board says how it ended, keeps its picture and gains the GIF
    await twin.slash(table.bob, "match resign", match=match_id, channel_id=thread_id)
    gif = f"match-{match_id}.gif"
    await twin.wait_for(lambda: gif in pictures_of(table.latest_board(match_id) or {}), timeout=GIF_WAIT,
                        what="the GIF joined to the final board")
    await twin.settle(quiet=0.5)
    final = table.latest_board(match_id)
    assert twin.posts(thread_id)[-1] is final, "the end of the match is one message, the newest"
    text = assert_v2(final, pictures=["board.png", gif])
    assert_board_text(text, match_id)
    assert re.search(r"\*\*Alice won[^*]*\*\*", text) and text.count("Alice won") == 1, text
    assert f"🎞️ Match #{match_id} " in text and "/match replay" in text
    assert components_of(final) == [], "no controls once the match is over"
    assert_every_message_within_limits(twin)


async def test_the_hand_dm_and_a_replay_step_are_layouts(table, twin, bot):
    match_id = await table.start("maken", OPTIONS)
    thread_id = table.thread_of(match_id)
    # each player's DM: the title, their hand's picture, the same in words, Act while it runs
    for user in (table.alice, table.bob):
        [dm] = await twin.wait_for(lambda: twin.dms(int(user["id"])), what="the hand DM")
        text = assert_v2(dm, pictures=["hand.png"])
        assert board_title(dm) == f"Project Maken #{match_id} — your private view", text
        assert "```" in text and "press Act" in text, "the hand in words, and where to act"
        assert find_component(dm, rf"^m:{match_id}:act$") is not None
    await table.act_by_menu(await table.to_act(match_id), match_id)
    await twin.slash(table.bob, "match resign", match=match_id, channel_id=thread_id)
    await twin.wait_for(lambda: table.board_message(match_id) is None, what="the end of the match")
    await twin.settle(quiet=0.5)
    # a finished match's DM: how it ended, no Act
    dm = twin.message(twin.dms(int(table.alice["id"]))[0]["id"])
    text = assert_v2(dm, pictures=["hand.png"])
    assert "The match is over." in text and components_of(dm) == []
    # Alice's own replay: the step in words, the board and her hand each in a gallery, the
    # step buttons and the turn select beneath
    ix = await twin.slash(table.alice, "match replay", channel_id=thread_id)
    assert ix.ephemeral
    text = assert_v2(ix.last, pictures=["replay.png", "hand.png"])
    assert board_title(ix.last) == f"Replay · match #{match_id} · Project Maken"
    assert re.search(r"Step 0 of \d+", text) and "Alice" in text and "Bob" in text, text
    assert find_component(ix.last, rf"^rp:{match_id}:1:o:n:0$") is not None
    ix = await twin.click(table.alice, ix.last, f"rp:{match_id}:1:o:n:0")
    text = assert_v2(ix.last, pictures=["replay.png", "hand.png"])
    assert re.search(r"Step 1 of \d+", text), text
    assert_every_message_within_limits(twin)


async def test_the_replies_seen_by_one_player_are_layouts(table, twin, bot):
    """/match status, /spectate, /match hand and an Act pressed between turns answer with the
    board or the hand as one layout, seen by the one who asked."""
    match_id = await table.start("maken", OPTIONS)
    thread_id = table.thread_of(match_id)
    actor = await table.to_act(match_id)
    waiter = table.bob if actor is table.alice else table.alice
    ix = await twin.slash(actor, "match status", match=match_id, channel_id=thread_id)
    assert ix.ephemeral
    text = assert_v2(ix.last, pictures=["board.png"])
    assert f"## Project Maken #{match_id}" in text and "**Players**" in text, text
    assert "**Your turn**" in text, "the one to act is told so, with how many moves are theirs"
    assert controls(ix.last["components"]) == [], "a reply shows the board; the board itself holds the controls"
    ix = await twin.slash(table.carol, "match spectate", match=match_id, channel_id=thread_id)
    text = assert_v2(ix.last, pictures=["board.png"])
    assert f"<#{thread_id}>" in text and "**Your turn**" not in text, text
    ix = await twin.slash(waiter, "match hand", match=match_id, channel_id=thread_id)
    text = assert_v2(ix.last, pictures=["hand.png"])
    assert "your private view" in text and "```" in text, "the hand in words beside its picture"
    # Act from the DM while the other player is to act: "not your turn", the hand, the takeback button
    [dm] = twin.dms(int(waiter["id"]))
    ix = await twin.click(waiter, dm, f"m:{match_id}:act")
    text = assert_v2(ix.last, pictures=["hand.png"])
    assert text.splitlines()[1].startswith("It is not your turn."), "said first, under the title"
    assert_every_message_within_limits(twin)


async def test_a_layout_past_discords_limits_is_refused_by_the_twin(twin, monkeypatch):
    """A board-like layout sent straight through discord.py's HTTP client: 4,001 characters of
    text, or 41 components, are refused (400, Invalid Form Body) as Discord refuses them; the
    bot's own builder clips the turn's words instead (tests/test_board_layout.py)."""
    from cogs.board_layout import Layout, layout_view

    monkeypatch.setattr(discord.http.Route, "BASE", twin.api_base)
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    cid = int(twin.channel["id"])
    ours = layout_view(Layout(title="SQUARES #1", head="x" * 5000, status="To act: Alice",
                              pictures=(("board.png", "the board"),)))
    too_long = discord.ui.LayoutView(timeout=None)
    too_long.add_item(discord.ui.TextDisplay("## SQUARES #1"))
    too_long.add_item(discord.ui.TextDisplay("x" * (MAX_TEXT - len("## SQUARES #1") + 1)))
    rows = [{"type": 1, "components": [{"type": 2, "style": 2, "label": str(i), "custom_id": f"b{i}:{k}"}
                                       for i in range(4)]} for k in range(8)]      # 8 rows of 4: 40
    try:
        await http.static_login(TOKEN)
        with discord.http.handle_message_parameters(
                view=ours, file=discord.File(io.BytesIO(b"png"), "board.png")) as params:
            sent = await http.send_message(cid, params=params)
        assert is_v2(sent) and sum(len(t) for t in texts(sent["components"])) <= MAX_TEXT
        with discord.http.handle_message_parameters(view=too_long) as params:
            with pytest.raises(discord.HTTPException) as err:
                await http.send_message(cid, params=params)
        assert err.value.status == 400 and err.value.code == 50035
        payload = {"flags": IS_COMPONENTS_V2, "components": [{"type": 10, "content": "## SQUARES #1"}, *rows]}
        with pytest.raises(discord.HTTPException) as err:
            await http.request(discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=cid),
                               json=payload)
        assert err.value.status == 400 and err.value.code == 50035
    finally:
        await http.close()
    refused = list(twin.violations)
    assert len(refused) == 2 and "characters of text display > 4000" in refused[0] \
        and "41 components > 40" in refused[1], refused
    twin.violations.clear()         # provoked on purpose: not the bot's
