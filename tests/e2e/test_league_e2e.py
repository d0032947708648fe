"""End-to-end leagues: the real ``bot.py`` against the twin, a Swiss league from sign-up to final
standings — the league message with its Join / Play my match / Standings buttons edited in
place, round announcements that ping exactly the paired players, a pairing played as a bot
match whose result is reported by itself, a pairing reported by both players, the final
standings — every message within Discord's limits."""
from __future__ import annotations

import re

import pytest

from .checks import assert_ephemeral, assert_every_message_within_limits
from .harness import BotProcess, Table
from .twin import MEMBER_PERMISSIONS, components_of, find_component, message_text
from .twin_v2 import is_v2, pictures_of

# aiohttp's own multipart reader (the twin reading uploads) uses a deprecated call internally
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")
# league matches played and reported back to back, faster than people play:
# Discord's 5 posts per channel in a 1 s window (tests/e2e/conftest.py, channel_window)
CHANNEL_WINDOW = 1.0

ADMIN = str((1 << 5) | int(MEMBER_PERMISSIONS))   # a member with Manage Server: an organiser
PAIRING = re.compile(r"`#(\d+)` (\w+) vs (\w+) — (.+)")
BYE = re.compile(r"`#(\d+)` (\w+): bye")


def league_message(twin, league_id: int) -> dict | None:
    found = [m for m in twin.posts() if find_component(m, rf"^lg:{league_id}:standings$")]
    return found[-1] if found else None


def announcements(twin, league_id: int, what: str) -> list[dict]:
    """The league channel's posts about league ``league_id`` that say ``what`` (in words: a text
    or a layout's text displays)."""
    return [m for m in twin.posts() if f"League #{league_id}" in message_text(m) and what in message_text(m)]


def open_pairings(text: str) -> list[tuple[int, str, str]]:
    return [(int(p), a, b) for p, a, b, state in PAIRING.findall(text) if state.startswith("to play")]


async def create_league(table: Table, **options) -> tuple[int, dict]:
    twin = table.twin
    ix = await twin.slash(table.alice, "league-admin create", permissions=ADMIN, **options)
    assert_ephemeral(ix)
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    message = await twin.wait_for(lambda: league_message(twin, league_id), what="the league message")
    return league_id, message


async def test_a_swiss_league_from_sign_up_to_final_standings_with_a_bot_match_reported_by_itself(table, twin):
    alice, bob, carol = table.alice, table.bob, table.carol
    users = {"Alice": alice, "Bob": bob, "Carol": carol}
    # an ordinary member may not create a league
    ix = await twin.slash(carol, "league-admin create", name="Nope", game="squares", format="swiss")
    assert_ephemeral(ix)
    assert "Only organisers" in ix.text
    league_id, message = await create_league(table, name="Spring Cup", game="squares", format="swiss", rounds=2)
    assert message["channel_id"] == twin.channel["id"]
    embed = message["embeds"][0]
    assert embed["title"] == f"League #{league_id}: Spring Cup"
    assert find_component(message, rf"^lg:{league_id}:join$") and not find_component(message, r":play$")
    # sign-up: two by the Join button, one by /league join; the message is edited in place
    for user in (bob, carol):
        ix = await twin.click(user, twin.message(message["id"]), f"lg:{league_id}:join")
        assert_ephemeral(ix)
        assert f"You joined league #{league_id}" in ix.text
    ix = await twin.slash(alice, "league join", league=league_id)
    assert "(3 players)" in ix.text
    ix = await twin.click(bob, twin.message(message["id"]), f"lg:{league_id}:join")
    assert ix.ephemeral and "already signed up" in ix.text
    players = message_text(twin.message(message["id"]))
    assert all(f"<@{u['id']}>" in players for u in users.values())
    assert league_message(twin, league_id)["id"] == message["id"]
    # only an organiser starts it
    ix = await twin.slash(carol, "league-admin start", league=league_id)
    assert "Only organisers" in ix.text
    ix = await twin.slash(alice, "league-admin start", league=league_id, permissions=ADMIN)
    assert f"League #{league_id} started: 2 rounds" in ix.text
    [paired] = await twin.wait_for(lambda: announcements(twin, league_id, "round 1 is paired"),
                                   what="the round 1 announcement")
    [(pairing1, a, b)] = open_pairings(paired["content"])
    [(_, bye1)] = BYE.findall(paired["content"])
    assert {a, b, bye1} == set(users)
    # the announcement pings exactly the two who must play
    assert sorted(str(u) for u in paired["_allowed_mentions"]["users"]) == sorted([users[a]["id"], users[b]["id"]])
    current = twin.message(message["id"])
    assert find_component(current, rf"^lg:{league_id}:play$") and not find_component(current, r":join$")
    # the bye has nothing to play
    ix = await twin.click(users[bye1], current, f"lg:{league_id}:play")
    assert_ephemeral(ix)
    assert "⚠️" in ix.text

    # round 1: "Play my match" posts an ordinary bot match for the pairing; it is played and its
    # result goes into the league by itself
    ix = await twin.click(users[a], current, f"lg:{league_id}:play")
    assert_ephemeral(ix)
    match_id = int(re.search(rf"Match #(\d+) for pairing #{pairing1}", ix.text).group(1))
    challenge = await twin.wait_for(lambda: table.board_message(match_id), what="the league match challenge")
    ix = await twin.click(users[b], challenge, f"m:{match_id}:accept")
    assert ix.response_type == 6
    board = await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$")
                                and table.board_message(match_id), what="the league match board")
    thread_id = board["channel_id"]
    for _ in range(4):   # a few moves by whoever is to act …
        actor = await table.to_act(match_id, [users[a], users[b]])
        choices = await twin.autocomplete(actor, "move", "command", command="", channel_id=thread_id)
        ix = await twin.slash(actor, "move", command=choices[0]["value"], channel_id=thread_id)
        assert "You played" in ix.text
    # … then b resigns: a wins the pairing, nobody reports anything
    ix = await twin.slash(users[b], "match resign", match=match_id, channel_id=thread_id)
    await twin.wait_for(lambda: components_of(twin.message(board["id"])) == [], what="the finished league match")
    [paired2] = await twin.wait_for(lambda: announcements(twin, league_id, "round 2 is paired"),
                                    what="round 2, paired once round 1 was decided by the match")
    round1 = await twin.slash(carol, "league schedule", league=league_id, round=1)
    assert f"`#{pairing1}` {a} vs {b} — {a} won (match #{match_id})" in round1.text, round1.text
    # Swiss round 2: no rematch, and the bye goes to the one who has not had one
    [(pairing2, c, d)] = open_pairings(paired2["content"])
    [(_, bye2)] = BYE.findall(paired2["content"])
    assert {c, d} != {a, b} and bye2 != bye1

    # round 2 is reported by both players (no bot match): the league finishes by itself
    ix = await twin.slash(users[c], "league report", pairing=pairing2, result="loss")
    assert_ephemeral(ix)
    assert f"Your report for pairing #{pairing2} is noted" in ix.text
    ix = await twin.slash(users[d], "league report", pairing=pairing2, result="win")
    assert f"Pairing #{pairing2}: your report matches your opponent's" in ix.text
    [final] = await twin.wait_for(lambda: announcements(twin, league_id, "is finished"), what="the final standings")
    finished = twin.message(message["id"])
    assert "Final standings" in message_text(finished)
    assert [c["custom_id"] for c in finished["components"][0]["components"]] == [f"lg:{league_id}:standings"]

    # the standings: bye = 1 point, win = 1; a beat b, d beat c
    points = {name: 0 for name in users}
    for name in (bye1, bye2, a, d):
        points[name] += 1
    ix = await twin.click(carol, finished, f"lg:{league_id}:standings")
    assert_ephemeral(ix)
    table_lines = [line for line in ix.text.splitlines() if re.match(r"^\s*\d+ \w+", line)]
    ranked = [line.split()[1] for line in table_lines]
    assert sorted(ranked) == sorted(users)
    assert [points[n] for n in ranked] == sorted(points.values(), reverse=True), (ranked, points)
    for line in table_lines:    # place, name, W-L-D, points, then the tiebreaks
        assert float(line.split()[3]) == points[line.split()[1]], line
    # the end of the league is one layout: the final standings' picture and the same table in words
    assert ranked[0] in message_text(final) and "```" in message_text(final)
    assert is_v2(final) and not final["content"] and pictures_of(final) == ["standings.png"]
    same = await twin.slash(bob, "league standings", league=league_id)
    assert same.text == ix.text
    # the league match was rated: both players of pairing 1 are on the server leaderboard
    ix = await twin.slash(carol, "leaderboard", game="squares")
    assert_ephemeral(ix)
    assert f"<@{users[a]['id']}>" in ix.text and f"<@{users[b]['id']}>" in ix.text
    assert_every_message_within_limits(twin)


async def test_a_round_robin_league_with_bot_matches_a_forfeit_and_closing(table, twin):
    """Round robin with three: one pairing (and a bye) a round.  Rounds 1 and 3 are bot matches
    reported by their result; round 2 an organiser's forfeit; the next round cannot be forced
    while one is open; the closed league keeps its standings and loses its buttons."""
    users = {"Alice": table.alice, "Bob": table.bob, "Carol": table.carol}
    league_id, message = await create_league(table, name="RR", game="squares", format="rr")
    for user in users.values():
        await twin.click(user, twin.message(message["id"]), f"lg:{league_id}:join")
    await twin.slash(table.alice, "league-admin start", league=league_id, permissions=ADMIN)
    played = []
    for rnd in (1, 2, 3):
        [paired] = await twin.wait_for(lambda: announcements(twin, league_id, f"round {rnd} is paired"),
                                       what=f"round {rnd}")
        [(pairing, a, b)] = open_pairings(paired["content"])
        played.append(frozenset((a, b)))
        ix = await twin.slash(table.alice, "league-admin next-round", league=league_id, permissions=ADMIN)
        assert f"⚠️ The round is not complete: pairings #{pairing}" in ix.text
        if rnd == 2:
            ix = await twin.slash(users[a], "league-admin forfeit", pairing=pairing, loser=users[a])
            assert "Only organisers" in ix.text
            ix = await twin.slash(table.alice, "league-admin forfeit", pairing=pairing, loser=users[a], permissions=ADMIN)
            assert f"Forfeit recorded for pairing #{pairing}" in ix.text
            continue
        ix = await twin.click(users[b], twin.message(message["id"]), f"lg:{league_id}:play")
        match_id = int(re.search(r"Match #(\d+)", ix.text).group(1))
        challenge = await twin.wait_for(lambda: table.board_message(match_id), what="the challenge")
        await twin.click(users[a], challenge, f"m:{match_id}:accept")
        await twin.wait_for(lambda: find_component(table.board_message(match_id) or {}, r":act$"), what="board")
        await twin.slash(users[a], "match resign", match=match_id, channel_id=table.thread_of(match_id))
    await twin.wait_for(lambda: announcements(twin, league_id, "is finished"), what="the end of the league")
    assert len(set(played)) == 3      # everyone met everyone once
    ix = await twin.slash(table.carol, "league schedule", league=league_id)
    assert "won by forfeit" in ix.text and ix.text.count(" won") == 3
    ix = await twin.slash(table.alice, "league-admin close", league=league_id, permissions=ADMIN)
    assert f"League #{league_id} RR is closed" in ix.text
    assert twin.message(message["id"])["components"] == []
    ix = await twin.slash(table.carol, "league standings", league=league_id)
    assert "closed" in ix.text and all(name in ix.text for name in users)
    assert_every_message_within_limits(twin)


async def test_joining_a_league_is_answered_within_3_s_even_when_the_league_message_edit_is_rate_limited(
        twin, tmp_path):
    bot = BotProcess(twin, tmp_path)
    await bot.start()
    try:
        table = Table(twin, bot)
        league_id, message = await create_league(table, name="Busy", game="squares", format="swiss")
        twin.rate_limit("PATCH", rf"^/channels/\d+/messages/{message['id']}$", retry_after=3.5)
        ix = await twin.click(table.bob, twin.message(message["id"]), f"lg:{league_id}:join", settle=False)
        await twin.wait_for(lambda: ix.replies or any("10062" in v for v in twin.violations), timeout=15,
                            what="an answer, or its refusal")
        late = [v for v in twin.violations if "10062" in v]
    finally:
        await bot.stop()
        twin.violations.clear()   # judged here, not by the twin fixture
    assert late == [], late
    assert f"You joined league #{league_id}" in ix.text


async def test_a_league_message_older_than_an_hour_is_replaced_not_edited(table, twin):
    """Issue 15, finding 2: a league runs for weeks; Discord rations edits of messages older than
    an hour (429/30046), so the league message is then posted afresh (the old one removed)."""
    league_id, message = await create_league(table, name="Autumn Cup", game="squares", format="swiss", rounds=2)
    await twin.advance(2 * 3600)
    ix = await twin.click(table.bob, twin.message(message["id"]), f"lg:{league_id}:join")
    assert_ephemeral(ix)
    assert f"You joined league #{league_id}" in ix.text
    fresh = await twin.wait_for(lambda: (m := league_message(twin, league_id)) and m["id"] != message["id"] and m,
                                what="a fresh league message")
    assert int(message["id"]) in twin.deleted_messages
    assert f"<@{table.bob['id']}>" in message_text(fresh)
    assert not [r for r in twin.refusals if "30046" in r or r.startswith("429")], twin.refusals
