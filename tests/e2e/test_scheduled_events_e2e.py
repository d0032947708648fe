"""End-to-end: events in the server's Discord calendar — the real ``bot.py`` against the twin,
whose guild scheduled events follow Discord's "Guild Scheduled Event" resource
(tests/e2e/twin_events.py).  An event with a start time is an EXTERNAL entry in the calendar
(its name, start and end, the league channel as its place, a description in the server's
language), moved when the organiser moves the start, cancelled when the event is called off,
made ACTIVE when it starts and COMPLETED when it ends; the members marked "interested" who did
not sign up get one reminder before sign-up closes; a server that did not give the bot Manage
Events keeps its events as before and the organiser is told once."""
from __future__ import annotations

import asyncio
import datetime as dt
import re
from typing import Any

import aiohttp
import pytest

from .checks import assert_every_message_within_limits
from .test_league_e2e import ADMIN, create_league, league_message
from .twin import TOKEN, Twin, find_component
from .twin_events import MANAGE_EVENTS

pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")
CHANNEL_WINDOW = 1.0
CLOCK_LOOP = 1          # seconds between the bot's clock-loop runs (BOT_TEST_CLOCK_LOOP): the leagues' clock too
HOUR, DAY = 3600, 86400
EVENTS = r"/scheduled-events"


@pytest.fixture
def bot_env() -> dict:
    return {"BOT_TEST_CLOCK_LOOP": str(CLOCK_LOOP)}


def at(iso: str | None) -> float | None:
    return None if iso is None else dt.datetime.fromisoformat(iso).timestamp()


async def set_start(twin, organiser: dict, league_id: int, start: int, **kw) -> None:
    ix = await twin.slash(organiser, "league-admin settings", league=league_id, start=f"<t:{start}:F>",
                          permissions=ADMIN, **kw)
    assert f"<t:{start}:" in ix.text, ix.text              # the start read back: the setting was taken


async def the_entry(twin) -> dict:
    [entry] = await twin.wait_for(lambda: twin.scheduled_events() or None, what="the calendar entry")
    return entry


async def status_becomes(twin, entry_id: str, status: int) -> dict:
    return await twin.wait_for(lambda: (twin.scheduled_event(entry_id) or {}).get("status") == status
                               and twin.scheduled_event(entry_id), what=f"the entry's status {status}")


async def test_an_event_with_a_start_is_in_the_calendar_moves_with_it_and_is_cancelled_with_it(table, twin):
    """Create: "an event with a start time → a scheduled event with the right fields"; move:
    "organiser changes the start → the entry moves"; cancel: "called off → CANCELED"."""
    alice, bob = table.alice, table.bob
    await twin.grant_bot()                       # the server gives the bot Manage Events
    league_id, message = await create_league(table, name="Spring Cup", game="squares", format="swiss", rounds=3)
    assert twin.scheduled_events() == [] and twin.calls("POST", EVENTS) == []      # no start: no entry
    start = int(twin.wall()) + 2 * DAY
    await set_start(twin, alice, league_id, start)
    entry = await the_entry(twin)
    assert entry["name"] == "Spring Cup"
    assert entry["entity_type"] == 3 and entry["channel_id"] is None and entry["privacy_level"] == 2
    assert entry["entity_metadata"] == {"location": "#general"}
    assert at(entry["scheduled_start_time"]) == start
    assert at(entry["scheduled_end_time"]) == start + 3 * 72 * HOUR     # 3 Swiss rounds of 72 hours
    assert entry["status"] == 1
    description = entry["description"]
    assert description.startswith("SQUARES · Swiss · 3 rounds\nSign up with the Join button"), description
    assert f"https://discord.com/channels/{twin.guild_id}/{twin.channel['id']}" in description
    # a sign-up changes nothing in the calendar: no call at all
    calls = len([r for r in twin.requests if EVENTS in r.path])
    ix = await twin.click(bob, twin.message(message["id"]), f"lg:{league_id}:join")
    assert f"You joined league #{league_id}" in ix.text, ix.text
    await twin.settle(quiet=2 * CLOCK_LOOP)
    assert len([r for r in twin.requests if EVENTS in r.path]) == calls
    # the organiser moves the start a day later: the entry moves, end and all
    later = start + DAY
    await set_start(twin, alice, league_id, later)
    moved = await twin.wait_for(lambda: at(twin.scheduled_event(entry["id"])["scheduled_start_time"]) == later
                                and twin.scheduled_event(entry["id"]), what="the entry moved")
    assert at(moved["scheduled_end_time"]) == later + 3 * 72 * HOUR and moved["status"] == 1
    assert len(twin.calls("POST", EVENTS)) == 1                       # the same entry, moved
    # called off during sign-up: the entry is cancelled, and left alone from then on
    ix = await twin.slash(alice, "league-admin close", league=league_id, permissions=ADMIN)
    assert f"League #{league_id}" in ix.text, ix.text
    await status_becomes(twin, entry["id"], 4)
    await twin.settle(quiet=3 * CLOCK_LOOP)
    assert [e["status"] for e in twin.scheduled_events()] == [4]
    assert_every_message_within_limits(twin)


async def test_the_entry_is_active_while_the_event_runs_and_completed_when_it_ends(table, twin):
    """End: "event ends → COMPLETED" (by way of ACTIVE when it starts); the description in the
    server's language (a Japanese server here)."""
    alice, bob, carol = table.alice, table.bob, table.carol
    await twin.grant_bot()
    ix = await twin.slash(alice, "league-admin create", name="Autumn Open", game="squares", format="swiss", rounds=1,
                          deadline_hours=24, permissions=ADMIN, locale="ja", guild_locale="ja")
    league_id = int(re.search(r"#(\d+)", ix.text).group(1))
    message = await twin.wait_for(lambda: league_message(twin, league_id), what="the event message")
    start = int(twin.wall()) + DAY
    await set_start(twin, alice, league_id, start, locale="ja", guild_locale="ja")
    entry = await the_entry(twin)
    assert entry["name"] == "Autumn Open"
    assert entry["description"].startswith("SQUARES・スイス式・全1回戦\n#generalの大会メッセージの「参加」ボタン"), \
        entry["description"]
    assert at(entry["scheduled_end_time"]) == start + 24 * HOUR
    for user in (bob, carol):
        await twin.click(user, twin.message(message["id"]), f"lg:{league_id}:join", locale="ja")
    # the organiser starts it before its time: the entry is under way
    await twin.slash(alice, "league-admin start", league=league_id, permissions=ADMIN, guild_locale="ja")
    active = await status_becomes(twin, entry["id"], 2)
    assert at(active["scheduled_start_time"]) == start and at(active["scheduled_end_time"]) == start + 24 * HOUR
    # its only pairing decided by the organiser: the event has finished, and so has the entry
    await twin.slash(alice, "league-admin report", pairing=1, result="first", league=league_id,
                     permissions=ADMIN, guild_locale="ja")
    await status_becomes(twin, entry["id"], 3)
    assert len(twin.scheduled_events()) == 1
    assert_every_message_within_limits(twin)


def reminders(twin, user: dict) -> list[dict]:
    return [m for m in twin.dms(int(user["id"])) if "Sign-up closes" in m["content"]]


async def test_members_marked_interested_are_reminded_once_before_sign_up_closes(table, twin):
    """The interested reminder: "a member marked interested and not registered gets the DM once;
    a registered one does not" — a day before sign-up closes; one whose DMs are closed is pinged
    in the league channel instead."""
    alice, bob, carol = table.alice, table.bob, table.carol
    dave = twin.user("Dave")
    await twin.grant_bot()
    league_id, message = await create_league(table, name="Spring Cup", game="squares", format="swiss", rounds=2)
    start = int(twin.wall()) + 3 * DAY
    await set_start(twin, alice, league_id, start)
    entry = await the_entry(twin)
    for user in (bob, carol, dave):
        twin.interested(entry["id"], user)
    await twin.click(carol, twin.message(message["id"]), f"lg:{league_id}:join")     # Carol signs up
    twin.closed_dms.add(int(dave["id"]))
    await twin.settle(quiet=2 * CLOCK_LOOP)
    assert reminders(twin, bob) == []                       # not yet: two days before the close
    await twin.advance(2 * DAY + 60)                        # a day (and a minute) before it closes
    [dm] = await twin.wait_for(lambda: reminders(twin, bob) or None, what="Bob's reminder")
    assert f"league #{league_id} Spring Cup" in dm["content"] and f"<t:{start}:R>" in dm["content"], dm["content"]
    assert f"<#{twin.channel['id']}>" in dm["content"]
    pinged = await twin.wait_for(lambda: [m for m in twin.posts(twin.channel["id"])
                                          if m["content"].startswith(f"<@{dave['id']}> Sign-up for league")] or None,
                                 what="Dave's ping in the league channel")
    assert [str(u) for u in pinged[0]["_allowed_mentions"]["users"]] == [dave["id"]]     # only Dave is pinged
    # more ticks of the clock, and an hour later: nobody is reminded twice, Carol (signed up) never
    await twin.advance(HOUR)
    await asyncio.sleep(3 * CLOCK_LOOP)
    await twin.settle(quiet=2 * CLOCK_LOOP)
    assert len(reminders(twin, bob)) == 1 and reminders(twin, carol) == []
    assert len([m for m in twin.posts(twin.channel["id"]) if f"<@{dave['id']}> Sign-up" in m["content"]]) == 1
    assert find_component(twin.message(message["id"]), rf"^lg:{league_id}:join$")    # sign-up still open
    assert_every_message_within_limits(twin)


async def test_without_manage_events_the_event_works_and_the_organiser_is_told_once(table, twin):
    """"a server without Manage Events (event works, organiser told once)": no call to the
    calendar at all (the bot knows its permissions from the gateway), one DM to the organiser."""
    alice, bob = table.alice, table.bob
    league_id, message = await create_league(table, name="Spring Cup", game="squares", format="swiss", rounds=2)
    start = int(twin.wall()) + 2 * DAY
    await set_start(twin, alice, league_id, start)

    def told() -> list[dict]:
        return [m for m in twin.dms(int(alice["id"])) if "Manage Events" in m["content"]]

    [dm] = await twin.wait_for(lambda: told() or None, what="the organiser told")
    assert dm["content"].startswith(f"League #{league_id} Spring Cup cannot be put in the server's events"), dm["content"]
    ix = await twin.click(bob, twin.message(message["id"]), f"lg:{league_id}:join")
    assert f"You joined league #{league_id}" in ix.text, ix.text
    await set_start(twin, alice, league_id, start + DAY)             # a change later: not told again
    await twin.settle(quiet=3 * CLOCK_LOOP)
    assert len(told()) == 1
    assert [r.path for r in twin.requests if EVENTS in r.path] == []
    assert twin.scheduled_events() == []
    assert f"<t:{start + DAY}" in twin.message(message["id"])["embeds"][0]["description"]   # the event as before
    assert_every_message_within_limits(twin)


# ---------------------------------------------------------------------------- the twin's calendar
def _iso(t: float) -> str:
    return dt.datetime.fromtimestamp(t, dt.timezone.utc).isoformat()


def _external(twin, **kw) -> dict:
    start = twin.wall() + DAY
    body = {"name": "Cup", "privacy_level": 2, "entity_type": 3, "entity_metadata": {"location": "#general"},
            "scheduled_start_time": _iso(start), "scheduled_end_time": _iso(start + HOUR), "description": "d"}
    body.update(kw)
    return {k: v for k, v in body.items() if v is not ...}


async def test_the_twin_refuses_what_discord_refuses_in_a_scheduled_event():
    """The twin: "Discord's field limits: name 1–100, description ≤ 1000, external needs location
    ≤ 100 and scheduled_end_time, start in the future, MANAGE_EVENTS permission (1 << 33)
    required else 403/50013; status transitions SCHEDULED→ACTIVE→COMPLETED, SCHEDULED→CANCELED
    only"."""
    async with Twin() as twin, aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as http:
        url = f"{twin.api_base}/guilds/{twin.guild_id}/scheduled-events"

        async def post(body: dict) -> tuple[int, Any]:
            async with http.post(url, json=body) as r:
                return r.status, await r.json()

        async def patch(eid: str, body: dict) -> tuple[int, Any]:
            async with http.patch(f"{url}/{eid}", json=body) as r:
                return r.status, await r.json()

        status, body = await post(_external(twin))
        assert (status, body["code"]) == (403, 50013)            # no Manage Events yet
        twin.guilds[twin.guild_id]["bot_extra"] = MANAGE_EVENTS
        refused = [_external(twin, name=""), _external(twin, name="x" * 101), _external(twin, description="x" * 1001),
                   _external(twin, entity_metadata=...), _external(twin, entity_metadata={"location": "x" * 101}),
                   _external(twin, scheduled_end_time=...), _external(twin, privacy_level=...),
                   _external(twin, scheduled_start_time=_iso(twin.wall() - 60)),
                   _external(twin, scheduled_end_time=_iso(twin.wall() + 60)),     # before the start
                   _external(twin, channel_id=str(twin.channel["id"])), _external(twin, entity_type=2)]
        for bad in refused:
            status, body = await post(bad)
            assert (status, body["code"]) == (400, 50035), bad
        assert len(twin.violations) == len(refused)
        twin.violations.clear()
        status, made = await post(_external(twin, name="x" * 100, description="x" * 1000))
        assert status == 200 and made["status"] == 1 and made["entity_metadata"] == {"location": "#general"}
        # SCHEDULED → COMPLETED is no transition; SCHEDULED → ACTIVE → COMPLETED is, and then nothing
        for step, ok in ((3, False), (2, True), (1, False), (4, False), (3, True), (2, False)):
            status, _ = await patch(made["id"], {"status": step})
            assert (status == 200) is ok, (step, status)
        status, other = await post(_external(twin))
        assert (await patch(other["id"], {"status": 4}))[0] == 200          # SCHEDULED → CANCELED
        assert (await patch(other["id"], {"name": "later"}))[0] == 400      # nothing after CANCELED
        # an external entry starts and ends by itself (Discord's automation), and keeps its start
        status, auto = await post(_external(twin))
        await twin.advance(DAY)
        assert twin.scheduled_event(auto["id"])["status"] == 2
        assert (await patch(auto["id"], {"scheduled_start_time": _iso(twin.wall() + DAY)}))[0] == 400
        await twin.advance(HOUR)
        assert twin.scheduled_event(auto["id"])["status"] == 3
        twin.violations.clear()


async def test_the_twin_lists_the_interested_members_as_discord_pages_them():
    """The twin: "GET /guilds/{guild_id}/scheduled-events/{id}/users" and "a way for a test to
    mark a user 'interested'": ascending ids, ``limit``, ``before`` and ``after``; 404 10070 for an
    unknown entry."""
    async with Twin() as twin, aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as http:
        twin.guilds[twin.guild_id]["bot_extra"] = MANAGE_EVENTS
        url = f"{twin.api_base}/guilds/{twin.guild_id}/scheduled-events"
        async with http.post(url, json=_external(twin)) as r:
            eid = (await r.json())["id"]
        users = [twin.user(f"U{i}") for i in range(5)]
        for u in reversed(users):
            twin.interested(eid, u)
        ids = [u["id"] for u in users]

        async def page(**query) -> list[str]:
            async with http.get(f"{url}/{eid}/users", params={k: str(v) for k, v in query.items()}) as r:
                assert r.status == 200
                return [row["user"]["id"] for row in await r.json()]

        assert await page() == ids
        assert await page(limit=2) == ids[:2]
        assert await page(after=ids[1]) == ids[2:]
        assert await page(before=ids[3], limit=2) == ids[1:3]
        assert await page(before=ids[3], after=ids[0]) == ids[:3]          # before wins
        async with http.get(f"{url}/{eid}", params={"with_user_count": "1"}) as r:
            assert (await r.json())["user_count"] == 5
        async with http.get(f"{url}/{eid}/users", params={"limit": "101"}) as r:
            assert r.status == 400
        async with http.get(f"{url}/1") as r:
            assert (r.status, (await r.json())["code"]) == (404, 10070)
        twin.violations.clear()
