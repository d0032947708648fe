"""Issue 35, "Done when": the real ``bot.py`` against the twin — a match of a card game played to
its end, the animated picture posted in its thread, ``/match replay`` stepped forward and back and
jumped to a turn, the bot restarted and the same buttons still working, a seated player's own hand
shown only in their ephemeral replay, a stranger's record holding no seed."""
from __future__ import annotations

import io
import json
import re

import pytest
from PIL import Image

from rules import registry

from .checks import match_states
from .twin import find_component, message_text

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

GAME = "logic_square"


def _step_of(text: str) -> tuple[int, int, int]:
    m = re.search(r"Step (\d+) of (\d+) · turn (\d+)", text)
    assert m, text
    return int(m[1]), int(m[2]), int(m[3])


def _button(message: dict, slot: str) -> dict:
    b = find_component(message, rf"^rp:\d+:\d+:[po]:{slot}:\d+$")
    assert b is not None, (slot, message.get("components"))
    return b


async def _play_turns(twin, table, bot, match_id: int, thread_id: int, turns: int) -> int:
    """Alice and Bob play the first command offered until ``turns`` turns have begun."""
    n = 0
    while True:
        actor = await table.to_act(match_id)
        assert actor is not None
        choices = await twin.autocomplete(actor, "move", "command", command="", channel_id=thread_id)
        ends = [c for c in choices if c["value"] == "end"]
        pick = ends[0] if ends and n % 3 == 2 else choices[0]      # a few moves a turn, then end it
        ix = await twin.slash(actor, "move", command=pick["value"], channel_id=thread_id)
        assert "You played" in ix.text, ix.text
        n += 1
        rec, states = await match_states(bot.db, match_id)
        if registry.get(GAME).view(states[-1], None)["turn"] > turns or n >= 40:
            return n


async def test_a_card_game_replayed_stepped_jumped_restarted_and_kept_secret(table, twin, bot):
    match_id = await table.start(GAME)
    thread_id = table.thread_of(match_id)
    await _play_turns(twin, table, bot, match_id, thread_id, turns=2)
    # Bob resigns: the match has ended
    board = table.board_message(match_id)
    ix = await twin.click(table.bob, board, f"m:{match_id}:resign")
    confirm = find_component(ix.last, r":ok:resign$")
    await twin.click(table.bob, ix.last, confirm["custom_id"])

    # "when a match ends the thread gets an animated GIF of the whole match"
    gif_post = await twin.wait_for(
        lambda: next((m for m in twin.posts(thread_id)
                      if any(a["filename"] == f"match-{match_id}.gif" for a in m.get("attachments", []))), None),
        timeout=60, what="the animated picture in the thread")
    data = twin.attachment(gif_post, f"match-{match_id}.gif")
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames > 3 and len(data) < 8 * 1024 * 1024
    assert f"Match #{match_id}" in message_text(gif_post) and "/match replay" in message_text(gif_post)

    # Alice, seated: her ephemeral replay opens at the start, with her own cards
    ix = await twin.slash(table.alice, "match replay", channel_id=thread_id)
    assert ix.ephemeral, ix.text
    k, n, turn = _step_of(ix.text)
    assert (k, turn) == (0, 1) and n >= 4
    assert "Your own cards are shown" in ix.text
    assert sorted(ix.files) == ["hand.png", "replay.png"]      # the board everyone saw, and her hand
    own_start = twin.attachment(ix.last, "hand.png")
    board_start = twin.attachment(ix.last, "replay.png")
    mine = ix.last
    # forward, forward, back
    ix = await twin.click(table.alice, mine, _button(mine, "n")["custom_id"])
    assert _step_of(ix.text)[0] == 1, ix.text
    assert re.search(r"^1\. (Alice|Bob): ", ix.text, re.M), ix.text     # the step's move in words
    ix = await twin.click(table.alice, ix.last, _button(ix.last, "n")["custom_id"])
    assert _step_of(ix.text)[0] == 2
    ix = await twin.click(table.alice, ix.last, _button(ix.last, "b")["custom_id"])
    assert _step_of(ix.text)[0] == 1
    # jump to turn 2 with the select
    select = find_component(ix.last, r"^rp:\d+:t:o:0$")
    option = next(o for o in select["options"] if o["label"] == "Turn 2")
    ix = await twin.click(table.alice, ix.last, select["custom_id"], values=[option["value"]])
    k2, _, turn = _step_of(ix.text)
    assert turn == 2 and k2 == int(option["value"])
    # the last step says how it ended
    ix = await twin.click(table.alice, ix.last, _button(ix.last, "l")["custom_id"])
    assert _step_of(ix.text)[0] == n and "resign" in ix.text.lower(), ix.text
    last_message = ix.last

    # "The buttons keep working after a restart": the same message, the same buttons
    await bot.stop()
    await bot.start()
    ix = await twin.click(table.alice, last_message, _button(last_message, "f")["custom_id"])
    assert _step_of(ix.text)[0] == 0, ix.text
    assert twin.attachment(ix.last, "hand.png") == own_start

    # "nobody else's, ever": Carol (a spectator) sees the public picture, no cards of anyone
    ix = await twin.slash(table.carol, "match replay", match=match_id, channel_id=thread_id)
    assert ix.ephemeral and "Your own cards" not in ix.text
    assert find_component(ix.last, r"^rp:\d+:\d+:[po]:h:") is None       # no hand to show
    assert ix.files == ["replay.png"]
    public_start = twin.attachment(ix.last, "replay.png")
    assert public_start == board_start and public_start != own_start
    # Alice turns her cards off: the public picture, the same as Carol's
    mine = twin.message(last_message["id"])          # (now at step 0)
    ix = await twin.click(table.alice, mine, _button(mine, "h")["custom_id"])
    assert _step_of(ix.text)[0] == 0 and "Your own cards" not in ix.text
    assert ix.files == ["replay.png"] and twin.attachment(ix.last, "replay.png") == public_start
    # a public replay is the public view, even when its poster is seated
    ix = await twin.slash(table.alice, "match replay", match=match_id, public=True, channel_id=thread_id)
    assert not ix.ephemeral and "Your own cards" not in ix.text and ix.files == ["replay.png"]
    assert twin.attachment(ix.last, "replay.png") == public_start
    posted = ix.last
    # Carol presses ▶ on Alice's public replay: her own copy; the channel's stays at step 0
    ix = await twin.click(table.carol, posted, _button(posted, "n")["custom_id"])
    assert ix.ephemeral and _step_of(ix.text)[0] == 1
    assert _step_of(message_text(twin.message(posted["id"])))[0] == 0

    # "a stranger's export holding no seed"; the match's own player gets the full record
    ix = await twin.slash(table.carol, "match record", match=match_id, channel_id=thread_id)
    assert ix.files == [f"match-{match_id}.txt"], ix.files
    record = twin.attachment(ix.last, f"match-{match_id}.txt").decode("utf-8")
    rec = (await _record(bot, match_id))
    assert str(rec.seed) not in record
    assert "[Game " in record and "Alice" in record and "1. " in record
    ix = await twin.slash(table.alice, "match record", match=match_id, channel_id=thread_id)
    assert sorted(ix.files) == sorted([f"match-{match_id}.txt", f"match-{match_id}-full.json"])
    full = json.loads(twin.attachment(ix.last, f"match-{match_id}-full.json"))
    assert full["seed"] == rec.seed
    # the animated picture on demand
    ix = await twin.slash(table.carol, "match gif", match=match_id, channel_id=thread_id)
    assert ix.files == [f"match-{match_id}.gif"] and ix.ephemeral
    assert not twin.violations, twin.violations


async def _record(bot, match_id: int):
    from data.store import open_store

    store = await open_store(f"sqlite:///{bot.db}")
    try:
        return await store.get_match(match_id)
    finally:
        await store.close()
