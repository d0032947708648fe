"""A player's own clock, the host side of /notify, /vacation and /turns (host/player_clock.py),
against a real store through the Host with a hand-driven clock (docs/clocks.md, "Commands")."""
from __future__ import annotations

import asyncio
import logging

import pytest

from data.store import ACTIVE
from host import player_clock as PC
from host.clocks import ClockError, control
from host.clocks import turns as T
from host.clocks.notify import NotifySettings
from host.player_clock import PlayerClock, Sight

ALICE, BOB, CARA = 101, 202, 303
DAY, HOUR = 86400, 3600
DAILY = control.parse("3d+1d max 7d").to_json()
HOME, AWAY = 9001, 9002


async def started(host, *, guild_id=HOME, channel_id=None, opponent=(BOB, "Bob"), **kw) -> int:
    """A SQUARES match on 3d+1d max 7d, Alice to act."""
    res = await host.challenge("squares", ALICE, "Alice", opponents=[opponent], time_control=DAILY,
                               guild_id=guild_id, channel_id=channel_id, options={"first": 0}, **kw)
    assert res.ok, res.error
    res = await host.accept(res.match.id, opponent[0])
    assert res.ok and res.match.status == ACTIVE
    return res.match.id


def counted(store, *names: str) -> dict[str, int]:
    """Count the calls of the store's ``names`` from now on."""
    calls = {n: 0 for n in names}
    for name in names:
        real = getattr(store, name)

        async def wrapped(*a, _real=real, _name=name, **k):
            calls[_name] += 1
            return await _real(*a, **k)

        setattr(store, name, wrapped)
    return calls


# ---------------------------------------------------------------------------- settings
async def test_settings_are_read_from_what_the_player_types_and_stored(clocked_host):
    """"Per player: a time zone (IANA names with autocomplete, e.g. Asia/Tokyo), quiet hours …,
    and how to be told that it is their turn: thread ping, DM, or digest only"."""
    host = await clocked_host()
    pc = PlayerClock(host)
    assert await pc.settings(ALICE) == NotifySettings()
    assert (await pc.set_zone(ALICE, "tokyo")).zone == "Asia/Tokyo"
    assert (await pc.set_quiet(ALICE, "23:00-07:00")).quiet == (23 * 60, 7 * 60)
    assert (await pc.set_how(ALICE, "dm")).how == "dm"
    got = await pc.set_digest(ALICE, "8時")
    assert got == NotifySettings("Asia/Tokyo", (1380, 420), "dm", 8)
    assert await host.store.get_player_settings(ALICE) == {"zone": "Asia/Tokyo", "quiet": "23:00-07:00",
                                                           "how": "dm", "digest_hour": 8}
    assert (await pc.set_quiet(ALICE, "off")).quiet is None
    assert (await pc.set_digest(ALICE, "off")).digest_hour is None
    assert await pc.settings(BOB) == NotifySettings()          # one player's settings are theirs


async def test_a_bad_zone_or_bad_quiet_hours_are_refused_in_the_readers_language_and_change_nothing(clocked_host):
    """"Bad input gets a clear localized error saying what is allowed, and changes nothing"."""
    host = await clocked_host()
    pc = PlayerClock(host)
    await pc.set_zone(ALICE, "Europe/Paris")
    before = await host.store.get_player_settings(ALICE)
    with pytest.raises(ClockError) as err:
        await pc.set_zone(ALICE, "Mars/Olympus")
    assert err.value.text("en") == ("“Mars/Olympus” is not a time zone: choose one from the list, "
                                    "e.g. Asia/Tokyo or Europe/Paris.")
    assert err.value.text("ja").startswith("「Mars/Olympus」はタイムゾーンとして読めません。")
    with pytest.raises(ClockError) as err:
        await pc.set_quiet(ALICE, "25:00-07:00")
    assert err.value.text("en") == ("The start of the quiet hours, “25:00”, is not a time of day: "
                                    "write it like 23:00 or 11pm.")
    assert "通知しない時間帯の開始「25:00」は時刻として読めません" in err.value.text("ja")
    with pytest.raises(ClockError) as err:
        await pc.set_quiet(ALICE, "23:00-23:00")
    assert err.value.key == "clock.notify.err.quiet_same"
    with pytest.raises(ClockError):
        await pc.set_how(ALICE, "carrier pigeon")
    with pytest.raises(ClockError) as err:
        await pc.set_digest(ALICE, "25")
    assert err.value.text("en") == "The digest comes at a whole hour of the day, from 0 to 23."
    assert await host.store.get_player_settings(ALICE) == before


async def test_digest_only_gets_a_digest_hour_and_keeps_it(clocked_host):
    """"how to be told …: thread ping, DM, or digest only"; "an optional daily digest DM at a
    local hour the player chooses": digest only without an hour would tell them nothing."""
    host = await clocked_host()
    pc = PlayerClock(host)
    got = await pc.set_how(ALICE, "digest")
    assert (got.how, got.digest_hour) == ("digest", PC.DIGEST_DEFAULT)
    assert (await pc.set_digest(ALICE, "7am")).digest_hour == 7
    with pytest.raises(ClockError) as err:
        await pc.set_digest(ALICE, "off")
    assert "/notify how" in err.value.text("en") and "/通知 通知方法" in err.value.text("ja")
    assert (await pc.settings(ALICE)).digest_hour == 7
    await pc.set_how(ALICE, "ping")
    assert (await pc.set_digest(ALICE, "off")).digest_hour is None


async def test_a_damaged_settings_row_reads_as_the_defaults_and_is_logged(clocked_host, caplog):
    """A damaged row → defaults, logged; the next change writes a valid row and keeps what
    else the row holds."""
    host = await clocked_host()
    pc = PlayerClock(host)
    await host.store.set_player_settings(ALICE, {"zone": "Nowhere/Atlantis", "how": "dm", "seen_guide": True})
    with caplog.at_level(logging.WARNING, logger="host.player_clock"):
        assert await pc.settings(ALICE) == NotifySettings()
    assert "not valid" in caplog.text
    await pc.set_zone(ALICE, "Asia/Tokyo")
    assert await host.store.get_player_settings(ALICE) == {"zone": "Asia/Tokyo", "quiet": None, "how": "ping",
                                                           "digest_hour": None, "seen_guide": True}


# ---------------------------------------------------------------------------- vacations
async def test_a_vacation_starts_at_once_for_whole_days_and_retimes_the_players_matches(clocked_host):
    """"/vacation start [days], /vacation end, /vacation status. While on vacation, none of
    that player's banks run in matches that allow vacation"; "Vacation cannot be backdated,
    starts at once, and is counted in whole days"."""
    host = await clocked_host()
    pc = PlayerClock(host)
    mid = await started(host)
    t0 = host.clock.t
    change = await pc.start_vacation(ALICE, 3, HOME)
    assert (change.record.start, change.record.end, change.record.how) == (t0, t0 + 3 * DAY, "asked")
    assert [r.match.id for r in change.results] == [mid]         # delivered by the cog like any Result
    assert (await host.store.get_match(mid)).deadline == pytest.approx(t0 + 3 * DAY + 3 * DAY)
    status = await pc.vacation_status(ALICE, HOME)
    assert status.text("en") == (f"On vacation until <t:{int(t0 + 3 * DAY)}:f> (<t:{int(t0 + 3 * DAY)}:R>).\n"
                                 "11 vacation days left, of 14 per 365 days.\n"
                                 f"The next day comes back <t:{int(t0 + 365 * DAY)}:f> "
                                 f"(<t:{int(t0 + 365 * DAY)}:R>).")
    host.clock.advance(DAY + HOUR)
    ended = await pc.end_vacation(ALICE)
    assert ended.record.end == host.clock.t and ended.record.days == 2          # a day begun counts
    assert [r.match.id for r in ended.results] == [mid]
    assert (await host.store.get_match(mid)).deadline == pytest.approx(host.clock.t + 3 * DAY)
    assert "12 vacation days left" in (await pc.vacation_status(ALICE, HOME)).text("en")


async def test_a_second_vacation_while_one_runs_and_an_end_without_one_are_refused(clocked_host):
    """"/vacation start" while on vacation, and "/vacation end" without one: a localized
    refusal that changes nothing."""
    host = await clocked_host()
    pc = PlayerClock(host)
    with pytest.raises(ClockError) as err:
        await pc.end_vacation(ALICE)
    assert (err.value.text("en"), err.value.text("ja")) == ("You are not on vacation.", "今は休暇中ではありません。")
    first = await pc.start_vacation(ALICE, None, None)                   # 1 day when not said
    assert first.record.days == 1
    with pytest.raises(ClockError) as err:
        await pc.start_vacation(ALICE, 2, HOME)
    until = int(first.record.end)
    assert err.value.text("en") == f"You are already on vacation until <t:{until}:f>."
    assert err.value.text("ja") == f"すでに<t:{until}:f>まで休暇中です。"
    assert len(await host.store.vacations(ALICE, 0)) == 1


async def test_two_starts_at_once_store_one_vacation(clocked_host):
    """"at most one running at a time — two starts at once store one"."""
    host = await clocked_host()
    pc = PlayerClock(host)
    got = await asyncio.gather(pc.start_vacation(ALICE, 2, None), pc.start_vacation(ALICE, 3, None),
                               return_exceptions=True)
    assert sorted(type(g).__name__ for g in got) == ["VacationChange", "VacationError"]
    refused = next(g for g in got if isinstance(g, ClockError))
    assert refused.key == "clock.vacation.err.running"
    assert len(await host.store.vacations(ALICE, 0)) == 1


async def test_the_allowance_is_the_servers_where_the_command_is_used_and_14_in_a_dm(clocked_host):
    """"every player has vacation days per rolling 365 days (a server setting, default 14)";
    with no days left the refusal says when the next one comes back."""
    host = await clocked_host()
    pc = PlayerClock(host)
    await host.store.set_guild_setting(HOME, "vacation_days", 2)
    with pytest.raises(ClockError) as err:
        await pc.start_vacation(ALICE, 3, HOME)
    assert err.value.text("en") == "You can take 1 to 2 vacation days now, not 3."
    with pytest.raises(ClockError) as err:
        await pc.start_vacation(ALICE, 15, None)
    assert err.value.text("en") == "You can take 1 to 14 vacation days now, not 15."
    t0 = host.clock.t
    await pc.start_vacation(ALICE, 2, HOME)
    host.clock.advance(2 * DAY)
    with pytest.raises(ClockError) as err:
        await pc.start_vacation(ALICE, 1, HOME)
    back = int(t0 + 365 * DAY)
    assert err.value.text("en") == (f"You have no vacation days left: the next one comes back <t:{back}:f> "
                                    f"(<t:{back}:R>).")
    assert err.value.text("ja") == f"休暇の残り日数がありません。次の1日は<t:{back}:f>（<t:{back}:R>）に戻ります。"
    assert "12 vacation days left" in (await pc.vacation_status(ALICE, None)).text("en")
    await host.store.set_guild_setting(AWAY, "vacation_days", 0)
    with pytest.raises(ClockError) as err:
        await pc.start_vacation(ALICE, 1, AWAY)
    assert err.value.text("en") == "This server gives no vacation days."


# ---------------------------------------------------------------------------- /turns
async def test_turns_lists_every_waiting_game_by_time_left_with_its_game_opponents_turn_and_link(clocked_host):
    """"/turns lists every unfinished match and event game waiting on the player, across every
    server the bot shares with them (names and links only where the player may see them),
    ordered by time left, each with its game, opponent, turn and a jump link"."""
    host = await clocked_host()
    pc = PlayerClock(host)
    first = await started(host, guild_id=HOME, channel_id=11)
    host.clock.advance(HOUR)
    second = await started(host, guild_id=AWAY, channel_id=22, opponent=(CARA, "Cara"))
    theirs = await started(host, guild_id=HOME, channel_id=33)
    assert (await host.command(theirs, ALICE, "place L1 a1")).ok             # Bob to act there
    host.clock.advance(HOUR)
    asked: list[tuple] = []

    def sight(guild_id, channel_id):
        asked.append((guild_id, channel_id))
        if guild_id == HOME:
            return Sight(True, "Home", f"https://discord.com/channels/{guild_id}/{channel_id}")
        return PC.HIDDEN

    calls = counted(host.store, "waiting_for", "matches_for_user", "get_match")
    rows = await pc.turns(ALICE, sight)
    assert calls == {"waiting_for": 1, "matches_for_user": 1, "get_match": 0}
    assert [r.match_id for r in rows] == [first, second]                   # the earlier deadline first
    a, b = rows
    assert (a.game, tuple(a.opponents), a.turn, a.visible, a.server, a.event) == ("squares", ("Bob",), 1, True,
                                                                                  "Home", False)
    assert a.url == f"https://discord.com/channels/{HOME}/11"
    assert a.deadline == (await host.store.get_match(first)).deadline
    assert (b.opponents, b.visible, b.server, b.url) == (("Cara",), False, None, None)
    assert sorted(asked) == [(HOME, 11), (AWAY, 22)]
    text = T.pages(rows, "en")[0]
    assert f"[#{first}](https://discord.com/channels/{HOME}/11)" in text and "a match in another server" in text
    assert "Cara" in text and f"#{second}" in text
    # Bob: the match where he is to act, at its turn 2 (one move was played)
    bob = await pc.turns(BOB, sight)
    assert [(r.match_id, r.turn) for r in bob] == [(theirs, 2)]
    # without a way to tell, nothing of any server is shown
    assert {(r.visible, r.server, r.url) for r in await pc.turns(ALICE)} == {(False, None, None)}


async def test_turns_reads_a_waiting_match_beyond_the_players_newest_on_its_own(clocked_host, monkeypatch):
    """"/turns for 100 waiting matches must stay ≤ 200 ms p99": one read of the player's active
    matches; a waiting match that read did not reach (many newer matches waiting on others) is
    still listed, read on its own."""
    host = await clocked_host()
    pc = PlayerClock(host)
    old = await started(host, guild_id=None)
    host.clock.advance(60)
    newer = await started(host, guild_id=None)
    assert (await host.command(newer, ALICE, "place L1 a1")).ok            # waits on Bob now
    monkeypatch.setattr(PC, "ROOM", 0)
    calls = counted(host.store, "matches_for_user", "get_match")
    rows = await pc.turns(ALICE)
    assert [r.match_id for r in rows] == [old] and calls == {"matches_for_user": 1, "get_match": 1}
    assert rows[0].visible and rows[0].guild_id is None                    # outside any server: the player's own


async def test_turns_is_empty_without_waiting_games_and_leaves_out_ended_ones(clocked_host):
    """"every unfinished match … waiting on the player": an ended match is not listed."""
    host = await clocked_host()
    pc = PlayerClock(host)
    assert await pc.turns(ALICE) == []
    assert T.pages(await pc.turns(ALICE), "ja") == ["あなたの番の対戦はありません。"]
    mid = await started(host)
    assert (await host.resign(mid, ALICE)).ok
    assert await pc.turns(ALICE) == []
