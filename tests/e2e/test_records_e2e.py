"""End-to-end records: the real ``bot.py`` against the twin — finished matches feed /profile
(with its rating chart picture), /history (pages turned by its buttons, a match record
downloaded from its select), /h2h and /leaderboard.  Every answer within Discord's limits."""
from __future__ import annotations

import json
import re

import pytest

from .checks import assert_ephemeral, assert_every_message_within_limits
from .twin import components_of, find_component, message_text

# aiohttp's own multipart reader (the twin reading uploads) uses a deprecated call internally
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")
# eleven matches played back to back in one channel, faster than people play:
# Discord's 5 posts per channel in a 1 s window (tests/e2e/conftest.py, channel_window)
CHANNEL_WINDOW = 1.0

MATCHES = 11          # one more than a /history page holds


async def finished_match(table, loser, **kw) -> int:
    """Alice challenges Bob, Bob accepts, ``loser`` resigns at once."""
    match_id = await table.start("squares", "max_turns=10", **kw)
    board_id = table.board_message(match_id)["id"]
    await table.twin.slash(loser, "match resign", match=match_id, channel_id=table.thread_of(match_id))
    await table.twin.wait_for(lambda: components_of(table.twin.message(board_id)) == [], what="the result")
    return match_id


async def test_finished_matches_show_in_profile_history_h2h_and_leaderboard_with_pages_and_export(table, twin):
    alice, bob, carol = table.alice, table.bob, table.carol
    ix = await twin.slash(alice, "profile")
    assert_ephemeral(ix)
    assert "No finished matches yet" in ix.text
    # Bob resigns 7 of 11, Alice 4 (the last one unrated)
    losers = [bob, bob, alice, bob, alice, bob, bob, alice, bob, bob, alice]
    ids = []
    for i, loser in enumerate(losers):
        ids.append(await finished_match(table, loser, **({"rated": False} if i == MATCHES - 1 else {})))
    wins = sum(1 for u in losers if u is bob)

    # /profile: an embed with the record, the ratings and a chart picture attached to it
    ix = await twin.slash(carol, "profile", player=alice)
    assert_ephemeral(ix)
    embed = ix.last["embeds"][0]
    assert embed["title"] == "Records of Alice"
    squares = next(f for f in embed["fields"] if f["name"] == "SQUARES")
    assert f"{wins} W · {MATCHES - wins} L · 0 D" in squares["value"]
    assert "Rating here" in squares["value"]
    assert embed["image"]["url"] == "attachment://rating.png" and ix.files == ["rating.png"]
    chart = twin.picture(ix.last, "rating.png")
    assert chart.format == "PNG" and chart.width > 200

    # /history: page 1 of 2 with ◀ (disabled) ▶ and an export select; the buttons turn pages
    ix = await twin.slash(alice, "history")
    assert_ephemeral(ix)
    page = ix.last
    assert "(page 1/2)" in page["content"]
    shown = [int(n) for n in re.findall(r"`#(\d+)`", page["content"])]
    assert len(shown) == 10 and set(shown) <= set(ids)
    assert f"`#{ids[-1]}`" in page["content"] and "(unrated)" in page["content"]
    prev, nxt = find_component(page, r"^rec:h:.*:0$"), find_component(page, r"^rec:h:.*:1$")
    assert prev["disabled"] and not nxt.get("disabled")
    ix = await twin.click(alice, page, nxt["custom_id"])
    assert ix.response_type == 7
    assert "(page 2/2)" in ix.last["content"]
    assert [int(n) for n in re.findall(r"`#(\d+)`", ix.last["content"])] == [ids[0]]
    back = find_component(ix.last, r"^rec:h:.*:0$")
    ix = await twin.click(alice, ix.last, back["custom_id"])
    assert "(page 1/2)" in ix.last["content"]
    # the select downloads a match record: JSON that names the game, the seats and the whole log
    select = find_component(ix.last, r"^rec:x$")
    assert len(select["options"]) == 10
    ix = await twin.click(alice, ix.last, "rec:x", values=[str(ids[-1])])
    assert_ephemeral(ix)
    assert ix.files == [f"match-{ids[-1]}.json"]
    record = json.loads(twin.attachment(ix.last))
    assert record["id"] == ids[-1] and record["game"] == "squares" and record["rated"] is False
    assert [s["user_id"] for s in record["seats"]] == [alice["id"], bob["id"]]
    assert record["result"]["winners"] == [1]

    # /h2h: the score between the two
    ix = await twin.slash(carol, "h2h", player=alice, other=bob)
    assert_ephemeral(ix)
    assert f"{wins} – {MATCHES - wins} (draws: 0) in {MATCHES} matches" in ix.text
    # /leaderboard: both rated players, the winner of more first; a season that does not exist
    ix = await twin.slash(carol, "leaderboard", game="squares")
    assert_ephemeral(ix)
    lines = [line for line in ix.text.splitlines() if re.match(r"^\d+\. <@", line)]
    assert [re.search(r"<@(\d+)>", line).group(1) for line in lines] == [alice["id"], bob["id"]]
    ix = await twin.slash(carol, "leaderboard", game="squares", scope="global")
    assert "all servers" in ix.text and f"<@{alice['id']}>" in ix.text
    ix = await twin.slash(carol, "leaderboard", game="squares", season=9)
    assert "⚠️ There is no such season yet" in ix.text
    # nothing about records was ever public
    assert not [m for m in twin.public_messages() if "Records of" in message_text(m)]
    assert_every_message_within_limits(twin)
