"""Events across days: an event's games on time banks, vacation allowed or not, the weekend pause,
playing hours in the event's time zone and rounds that last days (host/events/clock.py, through
host.league_service.Leagues and the league cogs on the fake HTTP layer of tests/discord_fakes.py).
Each test's docstring quotes the sentence of the issue it proves."""
from __future__ import annotations

import re
import time

import pytest

from data.store import ACTIVE, open_store
from discord_fakes import ALL_PERMISSIONS, Clock, custom_ids
from host import Host
from host import leagues as L
from host.clocks import control
from host.clocks import match as bank_clock
from host.events import clock as EC
from host.league_service import Leagues

G, CH, ORG = 5, 6, 999
A, B, C, D = 1, 2, 3, 4
DAY = 86400
EVENT_CLOCK = {"time_control": "3d+1d max 7d", "vacation": False, "hours": "18:00-23:00", "zone": "Asia/Tokyo",
               "round_days": 3}


async def _service(tmp_path, **settings):
    store = await open_store(str(tmp_path / "event_clocks.db"))
    clock = Clock()
    host = Host(store, now=clock, render=False)
    svc = Leagues(store, host, now=clock)
    res = await svc.create(guild_id=G, channel_id=CH, organiser=ORG, name="Month", game="maken", fmt="swiss",
                           rounds=2, deadline_hours=72, rated=True, signup_hours=None)
    assert res.ok, res.error
    lid = res.data["league"].id
    if settings:
        res = await svc.settings(lid, G, ORG, **settings)
        assert res.ok, res.error
    return store, host, svc, clock, lid


async def _data(store, lid: int) -> dict:
    return (await store.get_league(lid)).data


# ---------------------------------------------------------------------------- host: settings and games
async def test_an_event_stores_its_clock_and_says_it_in_both_languages(tmp_path):
    """"An event round may last days; its games use time banks; the organiser chooses vacation
    allowed or not, weekend pause, playing hours (in the event's time zone …) and the round length"."""
    store, host, svc, clock, lid = await _service(tmp_path, **EVENT_CLOCK)
    d = await _data(store, lid)
    assert EC.settings(d) == {"time_control": {"initial": 3 * DAY, "increment": DAY, "cap": 7 * DAY},
                              "vacation": False, "weekend_pause": False, "hours": [[18 * 60, 23 * 60]],
                              "zone": "Asia/Tokyo", "round_days": 3}
    en = "\n".join(EC.settings_lines(d, "en"))
    assert "Clock: Daily: 3 days + 1 day per move, at most 7 days" in en
    assert "Vacation: not allowed" in en and "Weekend pause: off" in en
    assert "Playing hours: 18:00–23:00 (Asia/Tokyo)" in en and "Round length: 3 days" in en
    ja = "\n".join(EC.settings_lines(d, "ja"))
    assert "持ち時間：毎日：持ち時間3日＋1回の番ごとに1日（上限7日）" in ja and "休暇：認めない" in ja
    assert "対戦時間帯：18:00〜23:00（Asia/Tokyo）" in ja and "1回戦の期間：3日" in ja
    summary = "\n".join(EC.summary_lines(d, "en"))
    assert "No vacation in this event" in summary and "18:00–23:00 (Asia/Tokyo)" in summary
    assert EC.deadline_words(d, "en") == "3 days to play each round"
    # every change is on the event's trail, in words
    said = [e["what"] for e in d["trail"]]
    assert {"events.clock.trail.time_control", "events.clock.trail.vacation_off", "events.clock.trail.hours",
            "events.clock.trail.zone", "events.clock.trail.round_days"} <= set(said)
    entry = next(e for e in d["trail"] if e["what"] == "events.clock.trail.time_control")
    assert entry["params"]["value"] == "3d+1d max 7d" and entry["by"] == ORG
    await store.close()


async def test_every_game_of_a_pairing_is_made_with_the_events_clock_and_a_round_lasts_its_days(tmp_path):
    """"A match (and each game of an event pairing) takes either today's per-move time or a time
    bank"; "An event round may last days … the round time limit works as today on top"."""
    store, host, svc, clock, lid = await _service(tmp_path, round_minutes=600, **EVENT_CLOCK)
    for u in (A, B):
        assert (await svc.join(lid, G, u, f"P{u}")).ok
    started = clock()
    res = await svc.start(lid, G, by=ORG)
    assert res.ok, res.error
    (p,) = L.round_pairings(res.data["league"].data)
    assert p["deadline"] == started + 3 * DAY            # the round length, not the 72 deadline hours
    assert p["ends_at"] == started + 600 * 60            # the round time limit, as today, on top
    res = await svc.play(lid, G, A, CH)
    assert res.ok, res.error
    rec = res.match
    assert rec.turn_seconds == 3 * DAY
    mc = bank_clock.read(rec)
    assert mc.control == control.TimeControl.bank(3 * DAY, DAY, 7 * DAY)
    assert mc.vacation is False and mc.weekend is False
    assert mc.hours == ((18 * 60, 23 * 60),) and mc.hours_zone == "Asia/Tokyo"
    assert (await host.accept(rec.id, B)).ok
    rec = await store.get_match(rec.id)
    assert rec.status == ACTIVE and bank_clock.read(rec).banks == (3.0 * DAY, 3.0 * DAY)
    # what the event message and /league schedule show: each player's bank and the deadline
    clocks = await svc.pairing_clocks(await store.get_league(lid))
    info = clocks[p["id"]]
    assert info["banks"] == [(A, 3.0 * DAY), (B, 3.0 * DAY)] and info["deadline"] == rec.deadline
    await store.close()


async def test_an_event_without_a_clock_plays_as_before_and_a_time_per_move_is_its_games_turn_time(tmp_path):
    """"A match (and each game of an event pairing) takes either today's per-move time or a time bank"."""
    store, host, svc, clock, lid = await _service(tmp_path)
    assert EC.challenge_args(await _data(store, lid)) == {}
    res = await svc.settings(lid, G, ORG, time_control="24h per move")
    assert res.ok, res.error
    assert EC.challenge_args(res.data["league"].data) == {"time_control": {"per_move": DAY}}
    for u in (A, B):
        assert (await svc.join(lid, G, u, f"P{u}")).ok
    assert (await svc.start(lid, G, by=ORG)).ok
    res = await svc.play(lid, G, A, CH)
    assert res.ok, res.error
    assert res.match.turn_seconds == DAY and bank_clock.read(res.match) is None
    await store.close()


@pytest.mark.parametrize("change, key", [
    ({"hours": "25:00-26:00"}, "clock.calendar.err.hours_time"),
    ({"hours": "18:00"}, "clock.calendar.err.hours_syntax"),
    ({"hours": "18:00-18:10"}, "clock.calendar.err.hours_short"),
    ({"zone": "Mars/Olympus"}, "clock.notify.err.zone"),
    ({"time_control": "3d+1x"}, "clock.err.control.unit"),
    ({"round_days": 31}, "events.clock.err.round_days"),
    ({"time_control": "none"}, "events.clock.err.needs_bank"),       # the hours need a bank
    ({"time_control": "24h per move"}, "events.clock.err.needs_bank"),
])
async def test_a_bad_setting_is_refused_in_the_readers_words_and_changes_nothing(tmp_path, change, key):
    """"playing hours (in the event's time zone; clocks run only inside them …)" — and the brief's
    rule: bad input gets a clear localized error saying what is allowed, and changes nothing."""
    store, host, svc, clock, lid = await _service(tmp_path, **EVENT_CLOCK)
    before = await store.get_league(lid)
    res = await svc.settings(lid, G, ORG, **change)
    assert not res.ok and res.error.key == key, res.error
    for loc in ("en", "ja"):
        text = res.error.render(loc)
        assert text and text != key and "{" not in text, text
    after = await store.get_league(lid)
    assert after.version == before.version and after.data == before.data
    await store.close()


async def test_a_weekend_pause_needs_a_bank_and_the_clock_is_fixed_once_the_event_runs(tmp_path):
    """"Weekend pause (a match or event option): clocks do not run from Saturday 00:00 to Monday
    00:00 in each player's own time zone" — on a bank; and every game of a round on one clock."""
    store, host, svc, clock, lid = await _service(tmp_path)
    res = await svc.settings(lid, G, ORG, weekend_pause=True)
    assert not res.ok and res.error.key == "events.clock.err.needs_bank"
    assert (await svc.settings(lid, G, ORG, time_control="daily", weekend_pause=True)).ok
    assert EC.challenge_args(await _data(store, lid))["weekend_pause"] is True
    for u in (A, B, C, D):
        assert (await svc.join(lid, G, u, f"P{u}")).ok
    assert (await svc.start(lid, G, by=ORG)).ok
    res = await svc.settings(lid, G, ORG, time_control="fast")
    assert not res.ok and res.error.key == "events.clock.err.started"
    assert "round_days" in res.error.render("en") and "回戦日数" in res.error.render("ja")
    # the round length may change while it runs: the rounds paired from then on
    assert (await svc.settings(lid, G, ORG, round_days=5)).ok
    d = await _data(store, lid)
    for p in L.round_pairings(d):
        assert (await svc.report(lid, G, p["id"], ORG, "a", organiser=True)).ok
    d = await _data(store, lid)
    assert d["round"] == 2
    assert all(p["deadline"] == clock() + 5 * DAY for p in L.round_pairings(d))
    await store.close()


async def test_a_new_event_takes_the_servers_defaults_for_new_events(tmp_path):
    """"A server's /settings sets the defaults for new matches and events"."""
    store = await open_store(str(tmp_path / "defaults.db"))
    clock = Clock()
    svc = Leagues(store, Host(store, now=clock, render=False), now=clock)
    await store.set_guild_setting(G, "clock_control", control.TimeControl.bank(3 * DAY, DAY, 7 * DAY).to_json())
    await store.set_guild_setting(G, "clock_weekend", True)
    res = await svc.create(guild_id=G, channel_id=CH, organiser=ORG, name="Month", game="maken", fmt="swiss",
                           rounds=2, deadline_hours=72, rated=True, signup_hours=None)
    assert res.ok, res.error
    s = EC.settings(res.data["league"].data)
    assert s["time_control"] == {"initial": 3 * DAY, "increment": DAY, "cap": 7 * DAY} and s["weekend_pause"]
    assert s["vacation"] is True                          # vacation allowed by default
    await store.close()


# ---------------------------------------------------------------------------- the cogs
def uid(user: dict) -> int:
    return int(user["id"])


def league_message(env, league_id: int) -> dict:
    return [m for m in env.fake.posts(env.fake.channel["id"]) if f"lg:{league_id}:standings" in custom_ids(m)][-1]


async def _event(env, **settings) -> int:
    ix = await env.fake.slash(env.bot, env.alice, "league-admin create", permissions=ALL_PERMISSIONS,
                              name="Month", game="squares", format="swiss", rounds=1)
    league_id = int(re.search(r"League #(\d+)", ix.text).group(1))
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS, **settings)
    assert "Event settings of league" in ix.text, ix.text
    return league_id


async def test_the_organiser_sets_the_clock_and_a_no_vacation_event_says_so_at_sign_up(env):
    """"the organiser chooses vacation allowed or not …"; "While on vacation, none of that player's
    banks run in matches that allow vacation (events choose; a no-vacation event says so at sign-up)"."""
    league_id = await _event(env, clock="daily", vacation=False, hours="18時〜23時", zone="tokyo", round_days=3)
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS)
    assert "Clock: Daily: 3 days + 1 day per move, at most 7 days" in ix.text, ix.text
    assert "Playing hours: 18:00–23:00 (Asia/Tokyo)" in ix.text and "Round length: 3 days" in ix.text
    description = league_message(env, league_id)["embeds"][0]["description"]
    assert "Clock: Daily" in description and "No vacation in this event" in description
    assert "3 days to play each round" in description
    ix = await env.fake.slash(env.bot, env.bob, "league join")
    assert "You joined league" in ix.text and "does not allow vacation" in ix.text, ix.text
    ix = await env.fake.slash(env.bot, env.carol, "league join", locale="ja")
    assert "この大会では休暇を認めません" in ix.text, ix.text
    # a league that allows vacation says nothing of it
    assert EC.signup_note({"clock": {"vacation": True}}, "en") is None


async def test_a_bad_hours_text_is_refused_in_the_organisers_language(env):
    """"playing hours (in the event's time zone; clocks run only inside them …)" — refused when they
    cannot be read, saying what is allowed, and nothing is changed."""
    league_id = await _event(env, clock="daily")
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS,
                              locale="ja", hours="18時から")
    assert ix.ephemeral and "対戦時間帯は`18:00-23:00`" in ix.text, ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS,
                              hours="@everyone-23:00")
    assert "cannot be read" in ix.text and "@everyone" not in ix.text.replace("\\@everyone", ""), ix.text
    ix = await env.fake.slash(env.bot, env.alice, "league-admin settings", permissions=ALL_PERMISSIONS,
                              zone="Nowhere/Town")
    assert "is not a time zone" in ix.text, ix.text
    assert EC.settings((await env.store.get_league(league_id)).data)["hours"] == []
    # the presets and the zones are offered as one types
    choices = await env.fake.autocomplete(env.bot, env.alice, "league-admin settings", "clock", clock="3d+1d")
    assert choices[0]["value"] == "3d+1d" and "3 days + 1 day per move" in choices[0]["name"]
    assert "daily" in [c["value"] for c in await env.fake.autocomplete(env.bot, env.alice, "league-admin settings",
                                                                      "clock", clock="")]
    zones = await env.fake.autocomplete(env.bot, env.alice, "league-admin settings", "zone", zone="tok")
    assert "Asia/Tokyo" in [c["value"] for c in zones]


async def test_the_schedule_and_the_event_message_show_deadlines_banks_and_vacations(env):
    """"the event message and `/league schedule` show each pairing's deadline and the players'
    banks and vacations"; "opponents see "on vacation until …"" — every deadline a Discord timestamp."""
    league_id = await _event(env, clock="3d+1d max 7d", round_days=3)
    for user in (env.alice, env.bob):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    d = (await env.store.get_league(league_id)).data
    (p,) = L.round_pairings(d)
    assert p["deadline"] == env.clock() + 3 * DAY
    ix = await env.fake.slash(env.bot, env.alice, "league schedule")
    assert f"play by <t:{int(p['deadline'])}:R>" in ix.text, ix.text
    await env.fake.slash(env.bot, env.alice, "league play")
    match_id = L.pairing((await env.store.get_league(league_id)).data, p["id"])["match"]
    await env.fake.click(env.bot, env.bob, await env.board(match_id), f"m:{match_id}:accept")
    rec = await env.match(match_id)
    assert rec.status == ACTIVE and bank_clock.read(rec).banks == (3.0 * DAY, 3.0 * DAY)
    now = env.clock()
    await env.store.start_vacation(uid(env.bob), now, now + 2 * DAY, "asked", allowance_check=None)
    ix = await env.fake.slash(env.bot, env.carol, "league schedule")
    assert "Time banks: Alice: 3 d, Bob: 3 d." in ix.text, ix.text
    assert f"Time runs out <t:{int(rec.deadline)}:R>" in ix.text
    assert f"Bob is on vacation until <t:{int(now + 2 * DAY)}:f>" in ix.text
    ix = await env.fake.slash(env.bot, env.carol, "league schedule", locale="ja")
    assert "持ち時間：Alice：残り3日、Bob：残り3日" in ix.text and "Bobは<t:" in ix.text, ix.text
    # the event message shows the same, as of its update
    cog = env.bot.get_cog("Leagues")
    await cog.refresh(await env.store.get_league(league_id))
    await env.fake.settle()
    field = league_message(env, league_id)["embeds"][0]["fields"][-1]["value"]
    assert "Time banks: Alice: 3 d, Bob: 3 d." in field and "Bob is on vacation until" in field, field
    assert f"play by <t:{int(p['deadline'])}:R>" in field and "Clocks as of <t:" in field



async def test_the_event_message_follows_its_games_clocks_without_a_new_message_for_every_move(env):
    """"the event message and `/league schedule` show each pairing's deadline and the players'
    banks and vacations" — the leagues' clock brings the message up to date when they change
    (edited in place while it can be; a message too old to edit is posted again at most every 6 hours)."""
    env.clock.t = time.time()        # the fake's message ids carry the real time: ages are real
    league_id = await _event(env, clock="daily")
    for user in (env.alice, env.bob):
        await env.fake.slash(env.bot, user, "league join")
    await env.fake.slash(env.bot, env.alice, "league-admin start", permissions=ALL_PERMISSIONS)
    await env.fake.slash(env.bot, env.alice, "league play")
    d = (await env.store.get_league(league_id)).data
    match_id = L.round_pairings(d)[0]["match"]
    await env.fake.click(env.bot, env.bob, await env.board(match_id), f"m:{match_id}:accept")
    cog = env.bot.get_cog("Leagues")
    before = league_message(env, league_id)
    assert "Time banks" not in before["embeds"][0]["fields"][-1]["value"]
    await cog.tick_once()
    await env.fake.settle()
    message = league_message(env, league_id)
    assert message["id"] == before["id"], "edited in place"
    assert "Time banks: Alice: 3 d, Bob: 3 d." in message["embeds"][0]["fields"][-1]["value"]
    # two hours on the message is too old to edit: a vacation does not post it again at once
    env.clock.advance(2 * 3600)
    now = env.clock()
    await env.store.start_vacation(uid(env.bob), now, now + 2 * DAY, "asked", allowance_check=None)
    await cog.tick_once()
    await env.fake.settle()
    assert league_message(env, league_id)["id"] == message["id"]
    assert "on vacation" not in league_message(env, league_id)["embeds"][0]["fields"][-1]["value"]
    # six hours after it was last shown, it is posted again with the vacation (the old one removed)
    env.clock.advance(6 * 3600)
    await cog.tick_once()
    await env.fake.settle()
    fresh = league_message(env, league_id)
    assert fresh["id"] != message["id"] and int(message["id"]) in env.fake.deleted_messages
    assert "Bob is on vacation until" in fresh["embeds"][0]["fields"][-1]["value"]




async def test_each_game_of_a_best_of_three_starts_with_a_fresh_bank(tmp_path):
    """"A match (and each game of an event pairing) takes either today's per-move time or a time
    bank" — and a best of three plays each game on full banks (docs/tournaments.md)."""
    store, host, svc, clock, lid = await _service(tmp_path, best_of=3, time_control="daily", vacation=False)
    host.on_finish.append(svc.on_finish)
    for u in (A, B):
        assert (await svc.join(lid, G, u, f"P{u}")).ok
    assert (await svc.start(lid, G, by=ORG)).ok
    (p,) = L.round_pairings(await _data(store, lid))
    first = p["series"]["first"]
    other = p["b"] if first == p["a"] else p["a"]
    res = await svc.play(lid, G, other, CH)
    assert res.ok, res.error
    assert (await host.accept(res.match.id, first)).ok
    clock.advance(DAY)                                   # a day on game 1's clock, then it is resigned
    assert (await host.resign(res.match.id, other)).ok
    # the loser chooses who moves first in game 2; the bot starts it
    assert (await svc.series.choose(lid, G, p["id"], other, True)).ok
    res = await svc.series.next_game(lid, p["id"])
    assert res.ok, res.error
    rec = await store.get_match(res.match.id)
    mc = bank_clock.read(rec)
    assert rec.meta["game"] == 2 and mc is not None and mc.vacation is False
    assert mc.banks == (3.0 * DAY, 3.0 * DAY)
    await store.close()
