"""Several bot processes on one database (issue 18): "SHARD_IDS (e.g. 0,1 or 0-3) with
SHARD_COUNT start a process on those shards only … Only one process syncs application commands
(the one holding shard 0)"; "One clock across processes. Each due event … is claimed once in
the database … and announced once, by the process that claimed it; processes do not all scan
everything every tick (split the work by the shards that own the guilds, DMs and guild-less
matches with shard 0)"; "A command for a match another process applied a moment ago is served
from the database's truth"."""
from __future__ import annotations

import asyncio

import pytest

import bot
from data.store import ACTIVE, LeagueRecord
from host import Host
from host.league_service import Leagues
from host.shards import Shards, ShardSpecError, parse_shard_ids, shard_of

from discord_fakes import Clock

ALICE, BOB = 101, 202


def guild_on(shard: int, count: int = 2, n: int = 1) -> int:
    """A guild id Discord delivers on ``shard`` of ``count`` ((guild_id >> 22) % count)."""
    return ((1000 + n) * count + shard) << 22 | 12345


# ------------------------------------------------------------------------------- settings

@pytest.mark.parametrize("text,count,ids", [("0,1", 2, (0, 1)), ("0-3", 4, (0, 1, 2, 3)),
                                            ("1", 2, (1,)), ("0-1, 4", 6, (0, 1, 4)), ("2,2", 3, (2,))])
def test_shard_ids_name_shards_of_the_count(text, count, ids):
    assert parse_shard_ids(text, count) == ids


@pytest.mark.parametrize("text,count", [("2", 2), ("-1", 2), ("1-0", 2), ("a", 2), (",", 2), ("0-9", 4)])
def test_shard_ids_outside_the_count_are_refused_saying_what_is_allowed(text, count):
    with pytest.raises(ShardSpecError) as e:
        parse_shard_ids(text, count)
    assert e.value.key == "bot.shard_ids_bad" and e.value.params["count"] == count


def test_shard_ids_without_a_count_are_refused():
    with pytest.raises(SystemExit) as e:
        bot.Config.from_env({"SHARD_IDS": "0,1"})
    assert "SHARD_COUNT" in str(e.value)
    with pytest.raises(SystemExit) as e:
        bot.Config.from_env({"SHARD_IDS": "5", "SHARD_COUNT": "2", "LANG": "C"})
    assert "0 to 2 − 1" in str(e.value)


def test_discords_shard_formula_and_dms_on_shard_zero():
    assert shard_of(None, 4) == 0
    for shard in range(4):
        assert shard_of(guild_on(shard, 4), 4) == shard
    assert Shards((1,), 2).owns(guild_on(1)) and not Shards((1,), 2).owns(guild_on(0))
    assert Shards((0,), 2).owns(None) and not Shards((1,), 2).owns(None)


def test_only_the_process_holding_shard_zero_syncs_the_commands():
    first = bot.Config.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "0"})
    second = bot.Config.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "1"})
    alone = bot.Config.from_env({"SHARD_COUNT": "2"})
    assert first.syncs_commands and not second.syncs_commands and alone.syncs_commands
    assert second.shards() == Shards((1,), 2) and alone.shards() is None
    assert not bot.Config.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "0", "SYNC_COMMANDS": "0"}).syncs_commands


async def test_the_bot_connects_only_its_own_shards():
    b = bot.make_bot(bot.Config(shard_count=4, shard_ids=(2, 3), sync_commands=False, clock=False))
    assert b.shard_ids == [2, 3] and b.shard_count == 4      # never started: nothing to close


# -------------------------------------------------------------------------- the clock split

@pytest.fixture
async def db(backend):
    """Two processes' stores on one database: an SQLite file, and a PostgreSQL database."""
    return await backend.open(), await backend.open()


async def _timed_match(host: Host, guild_id: int | None) -> int:
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], options={"first": 0},
                               turn_seconds=300, guild_id=guild_id, channel_id=7)
    res = await host.accept(res.match.id, BOB)
    assert res.ok and res.match.status == ACTIVE
    return res.match.id


async def test_each_process_ticks_only_the_matches_of_its_own_shards(db):
    clock = Clock()
    zero = Host(db[0], now=clock, render=False, shards=Shards((0,), 2))
    one = Host(db[1], now=clock, render=False, shards=Shards((1,), 2))
    on_zero = await _timed_match(zero, guild_on(0))
    on_one = await _timed_match(zero, guild_on(1))
    in_dms = await _timed_match(one, None)
    listed_zero = {r.id for r in await db[0].matches_due(clock.t + 10_000, 0, shards=zero.shards)}
    listed_one = {r.id for r in await db[1].matches_due(clock.t + 10_000, 0, shards=one.shards)}
    assert listed_zero == {on_zero, in_dms} and listed_one == {on_one}     # DMs with shard 0
    clock.t += 250                                  # 50 s left: every match is due a reminder
    got_zero = {e.match.id for e in await zero.tick()}
    got_one = {e.match.id for e in await one.tick()}
    assert got_zero == {on_zero, in_dms} and got_one == {on_one}
    assert await zero.tick() == [] and await one.tick() == []


async def test_a_due_event_seen_by_two_processes_at_once_is_announced_once(db):
    """Two processes that both hold every shard (e.g. while a shard moves) tick together: the
    reminder and then the expiry are each claimed by one versioned write, announced once."""
    clock = Clock()
    a = Host(db[0], now=clock, render=False)
    b = Host(db[1], now=clock, render=False)
    mids = [await _timed_match(a, guild_on(i % 2, n=i)) for i in range(6)]
    for kind, step in (("reminder", 250), ("expired", 60)):
        clock.t += step
        first, second = await asyncio.gather(a.tick(), b.tick())
        events = [e for e in first + second if e.data.get("clock") == kind]
        assert sorted(e.match.id for e in events) == mids, f"each {kind} once"
        assert await a.tick() == [] and await b.tick() == []


async def test_a_command_applied_by_another_process_is_served_from_the_database(db):
    """Process A has the match cached; process B plays a move; A's next command is checked
    against the database's truth (the log B extended), not A's cache."""
    a = Host(db[0], render=False)
    b = Host(db[1], render=False)
    mid = await _timed_match(a, guild_on(0))
    assert (await a.legal(mid, ALICE))                  # A builds and caches the state
    assert (await b.command(mid, ALICE, "place L1 a1")).ok
    stale = await a.command(mid, ALICE, "place L2 b1")  # Alice again: not her turn any more
    assert not stale.ok and stale.error.key == "host.err.not_your_turn"
    bob = await a.legal(mid, BOB)
    assert bob and (await a.command(mid, BOB, bob[0])).ok
    rec = await db[1].get_match(mid)
    assert rec.n_commands == 2 and [c.command for c in await db[1].commands(mid)][0] == "place L1 a1"


async def test_league_deadlines_are_split_by_shard_too(db):
    """The league clock looks only at the leagues of this process's guilds."""
    from host import leagues as L

    clock = Clock()
    hosts = [Host(db[i], now=clock, render=False, shards=Shards((i,), 2)) for i in (0, 1)]
    services = [Leagues(db[i], hosts[i], now=clock) for i in (0, 1)]
    ids = {}
    for shard in (0, 1):
        data = L.new_league(name=f"L{shard}", game="squares", fmt="swiss", rounds=None, deadline_hours=24,
                            rated=True, signup_hours=1, organiser=ALICE, channel_id=7, season=1, now=clock.t)
        lg = await db[0].create_league(LeagueRecord(id=None, guild_id=guild_on(shard), status="signup", data=data))
        ids[shard] = lg.id
    mine = [{lg.id for lg in await s._mine(("signup",))} for s in services]
    assert mine == [{ids[0]}, {ids[1]}]


def test_a_testing_only_setting_runs_the_clock_loop_faster(monkeypatch):
    """BOT_TEST_CLOCK_LOOP (tests/e2e/test_shards_e2e.py): the clock loop's period, so an
    end-to-end test sees each process run its clock many times; unset, the loop keeps its 30 s."""
    monkeypatch.setattr(bot, "TEST_CLOCK_LOOP", None)
    assert bot.make_bot(bot.Config(sync_commands=False, clock=False)).clock_seconds is None
    bot.apply_test_overrides({"BOT_TEST_CLOCK_LOOP": "2"})
    assert bot.TEST_CLOCK_LOOP == 2.0
    assert bot.make_bot(bot.Config(sync_commands=False, clock=False)).clock_seconds == 2.0


def test_a_testing_only_setting_shortens_discord_pys_wait_for_more_guilds(monkeypatch):
    """BOT_TEST_GUILD_READY (tests/e2e/harness.py): discord.py waits ``guild_ready_timeout``
    (2 s) after a shard's last GUILD_CREATE before READY; the twin sends its few guilds at once,
    so the end-to-end bots wait 0.1 s.  Unset, discord.py keeps its own 2 s."""
    monkeypatch.setattr(bot, "TEST_GUILD_READY", None)
    assert bot.make_bot(bot.Config(sync_commands=False, clock=False))._connection.guild_ready_timeout == 2.0
    bot.apply_test_overrides({"BOT_TEST_GUILD_READY": "0.1"})
    assert bot.TEST_GUILD_READY == 0.1
    assert bot.make_bot(bot.Config(sync_commands=False, clock=False))._connection.guild_ready_timeout == 0.1
