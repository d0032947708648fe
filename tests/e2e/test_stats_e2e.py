"""Issue 37, "Done when": the real ``bot.py`` against the twin — matches of Art of War played with
two ready-made decks (IRON WALL for Alice, FALCON RAID for Bob), then ``/stats`` read back (the
decks with their win rates and intervals, the matchup picture, the cards played), ``/profile``
with the player's decks, and the CSV downloads (Manage Server) read back."""
from __future__ import annotations

import csv
import io

import pytest
from PIL import Image

from .checks import assert_ephemeral
from .twin import components_of, find_component
from .twin_limits import MEMBER_PERMISSIONS

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")
# matches played back to back in one channel, faster than people play:
# Discord's 5 posts per channel in a 1 s window (tests/e2e/conftest.py, channel_window)
CHANNEL_WINDOW = 1.0

MANAGER = str((1 << 5) | int(MEMBER_PERMISSIONS))   # a member with Manage Server


async def _match(table, twin, loser, moves: int = 6) -> int:
    """Alice (IRON WALL) challenges Bob, who picks FALCON RAID; a few first-offered moves, then
    ``loser`` resigns."""
    match_id, challenge = await table.challenge("art_of_war", "first=1", deck="iron_wall")
    ix = await twin.click(table.bob, challenge, f"m:{match_id}:accept")
    await table.pick_deck(table.bob, ix, pick=lambda opts: next(o for o in opts if "FALCON" in o["label"].upper()))
    thread_id = await twin.wait_for(lambda: table.thread_of(match_id), what="the match thread")
    await table.play_first_offered(match_id, moves)
    board_id = table.board_message(match_id)["id"]
    await twin.slash(loser, "match resign", match=match_id, channel_id=thread_id)
    await twin.wait_for(lambda: components_of(twin.message(board_id)) == [], what="the result")
    return match_id


def _rows(body: bytes) -> list[list[str]]:
    assert body[:3] == b"\xef\xbb\xbf", "UTF-8 with a byte-order mark (spreadsheets read it so)"
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))


async def test_matches_with_two_decks_read_back_in_stats_profile_and_the_csv(table, twin, bot):
    alice, bob, carol = table.alice, table.bob, table.carol
    ix = await twin.slash(carol, "stats", game="art_of_war")
    assert_ephemeral(ix)
    assert "No finished match of Art of War has been counted" in ix.text, ix.text

    # Alice wins two, Bob one
    ids = [await _match(table, twin, bob), await _match(table, twin, alice), await _match(table, twin, bob)]

    ix = await twin.slash(carol, "stats", game="art_of_war")
    assert_ephemeral(ix)
    embed = ix.last["embeds"][0]
    text = embed["description"]
    assert "3 games" in text, text + bot.log()[-3000:]
    iron = next(line for line in text.splitlines() if "Iron Wall" in line)
    falcon = next(line for line in text.splitlines() if "Falcon Raid" in line)
    assert "67% (95%" in iron and "n = 3" in iron, iron
    assert "33% (95%" in falcon and "n = 3" in falcon, falcon
    assert "**First player** wins 67%" in text, text
    assert "**KINGs**" in text and "IRON KING: 67%" in text, text
    # the matchup picture, readable on a phone (600 px wide, scaled down to 400)
    assert embed["image"]["url"] == "attachment://stats.png"
    chart = Image.open(io.BytesIO(twin.attachment(ix.last, "stats.png")))
    assert chart.format == "PNG" and chart.width == 600
    # the cards: page 2 (its ▶), each card with and without it
    forward = find_component(ix.last, r"^st:art_of_war:.*:1$")
    assert forward is not None and forward["label"] == "▶"
    ix2 = await twin.click(carol, ix.last, forward["custom_id"])
    cards = ix2.last["embeds"][0]["description"]
    assert "**Cards**" in cards and "KING" in cards and "played " in cards and "without " in cards, cards
    # public:true posts it for the channel, in the reader's language
    ix = await twin.slash(carol, "stats", game="art_of_war", public=True, locale="ja")
    assert not ix.ephemeral
    ja = ix.last["embeds"][0]["description"]
    assert "鉄壁の国" in ja and "隼の急襲" in ja and "**KING**" in ja, ja

    # /profile: Alice's own decks with their win rates
    ix = await twin.slash(alice, "profile")
    fields = ix.last["embeds"][0]["fields"]
    aow = next(f for f in fields if f["name"] == "Art of War")
    assert "Iron Wall" in aow["value"] and "67%" in aow["value"], aow

    # the CSV downloads: Manage Server only
    ix = await twin.slash(bob, "stats", game="art_of_war", export=True)
    assert "Manage Server" in ix.text and "⚠️" in ix.text
    ix = await twin.slash(alice, "stats", game="art_of_war", export=True, permissions=MANAGER)
    assert_ephemeral(ix)
    matches = _rows(twin.attachment(ix.last, "matches.csv"))
    header = matches[0]
    assert header[:3] == ["date", "match", "game"]
    by_match = {}
    for row in matches[1:]:
        by_match.setdefault(int(row[header.index("match")]), []).append(dict(zip(header, row)))
    assert sorted(by_match) == ids
    for mid, loser in zip(ids, ("Bob", "Alice", "Bob")):
        seats = {r["player"]: r for r in by_match[mid]}
        assert seats["Alice"]["deck"] == "Iron Wall" and seats["Bob"]["deck"] == "Falcon Raid"
        assert seats[loser]["result"] == "loss" and seats["Alice" if loser == "Bob" else "Bob"]["result"] == "win"
        assert seats["Alice"]["first player"] == "Yes" and seats["Bob"]["first player"] == ""
    stats = _rows(twin.attachment(ix.last, "stats.csv"))
    head = stats[0]
    decks = {r[head.index("name")]: r for r in stats[1:] if r[head.index("figure")] == "deck"}
    assert decks["Iron Wall"][head.index("matches")] == "3" and decks["Iron Wall"][head.index("win %")] == "66.7"
    ratings = _rows(twin.attachment(ix.last, "ratings.csv"))
    assert {r[1] for r in ratings[1:]} >= {"Alice", "Bob"}
