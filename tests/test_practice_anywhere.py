"""Practice anywhere (cogs/app_table.py, host/practice.py ``anywhere``): a practice match started
where the bot is no member belongs to no server — no server, no channel, unrated — and is shown
in its player's own ``/history`` (from any server) but never in another player's look at it, and
never in any server's statistics.  And where each command may be used: the four everywhere, the
others in a server that added the bot (and, unless server-only, in the bot's own DM)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from discord import app_commands

from cogs.app_table import ANYWHERE, AppTable, allowed_here, outside_server
from data.store import FINISHED, open_store
from discord_fakes import Clock
from host import Host
from host.records import Records
from host.stats.service import Stats

G = 77
ME, BOT, OTHER = 101, 999, 202


@pytest.fixture
async def table(tmp_path):
    store = await open_store(str(tmp_path / "anywhere.db"))
    clock = Clock()
    host = Host(store, now=clock, render=False)
    stats = Stats(store, host, now=clock)
    records = Records(store, now=clock)
    host.on_finish.append(stats.on_finish)          # what the Stats and Records cogs do
    host.on_finish.append(records.on_finish)
    yield store, host, stats, records
    await store.close()


async def _practice(host, *, anywhere: bool, user: int = ME) -> int:
    """A SQUARES practice match, a few moves played, then the player resigns."""
    res = await host.practice("squares", user, "Ann", ai_user=BOT, ai_name="Computer (easy)", level="easy",
                              guild_id=G, channel_id=5, options={"first": 0}, anywhere=anywhere)
    assert res.ok, res.error
    mid = res.match.id
    for _ in range(3):
        moves = await host.legal(mid, user)
        assert (await host.command(mid, user, moves[0])).ok
        while await host.ai_to_act(mid):
            assert (await host.ai_move(mid)).ok
    assert (await host.resign(mid, user)).ok
    assert (await host.store.get_match(mid)).status == FINISHED
    return mid


async def test_a_match_started_anywhere_belongs_to_no_server_and_is_unrated(table):
    store, host, _stats, _records = table
    res = await host.practice("squares", ME, "Ann", ai_user=BOT, level="easy", guild_id=G, channel_id=5,
                              anywhere=True)
    rec = res.match
    assert rec.guild_id is None and rec.channel_id is None, "the server and channel given are not kept"
    assert rec.meta["app"] is True and rec.meta["practice"] is True and rec.meta["rated"] is False
    here = (await host.practice("squares", ME, "Ann", ai_user=BOT, level="easy", guild_id=G, channel_id=5)).match
    assert here.guild_id == G and "app" not in here.meta
    assert AppTable(SimpleNamespace()).owns(rec) and not AppTable(SimpleNamespace()).owns(here)


async def test_it_is_in_its_players_own_history_and_in_no_servers_statistics(table):
    store, host, stats, records = table
    anywhere = await _practice(host, anywhere=True)
    in_server = await _practice(host, anywhere=False)
    assert (await store.get_match(anywhere)).guild_id is None
    # the player's own history, from this server or any other, holds it; the server's own view does not
    rows, _, _ = await records.history(ME, None, G, 0, personal=True)
    assert {r.match_id for r, _m in rows} == {anywhere, in_server}
    rows, _, _ = await records.history(ME, None, G + 1, 0, personal=True)
    assert {r.match_id for r, _m in rows} == {anywhere}
    rows, _, _ = await records.history(ME, None, G, 0)
    assert {r.match_id for r, _m in rows} == {in_server}, "someone else's look at the player: this server's only"
    # unrated: no rating anywhere
    assert await store.ratings_for_user(ME, ["global", f"guild:{G}", f"guild:{G + 1}"]) == []
    # statistics: the server's practice figures count its own practice match, never the other
    assert await stats.count(await store.get_match(anywhere)) is False, "already counted, as facts only"
    report = await stats.report(G, "squares", practice=True)
    assert report.ok and report.data["figures"] is not None and report.data["figures"]["games"] == 1
    for guild in (G, G + 1):
        for practice in (False, True):
            figures = (await stats.report(guild, "squares", practice=practice)).data["figures"]
            games = figures["games"] if figures else 0
            assert games == (1 if guild == G and practice else 0), (guild, practice, figures)


def _interaction(*, context: dict, guild_id: int | None = None, installed_here: bool = False) -> SimpleNamespace:
    return SimpleNamespace(context=app_commands.AppCommandContext(**context), guild_id=guild_id,
                           is_guild_integration=lambda: installed_here)


def _command(name: str, *, guild_only: bool = False, contexts: dict | None = None) -> SimpleNamespace:
    return SimpleNamespace(name=name, guild_only=guild_only,
                           allowed_contexts=app_commands.AppCommandContext(**contexts) if contexts else None)


def test_where_each_command_may_be_used():
    server = _interaction(context={"guild": True}, guild_id=G, installed_here=True)
    foreign = _interaction(context={"guild": True}, guild_id=G + 1)
    bot_dm = _interaction(context={"dm_channel": True})
    group = _interaction(context={"private_channel": True})
    for name in ANYWHERE:
        assert all(allowed_here(_command(name), ix) for ix in (server, foreign, bot_dm, group)), name
    plain, server_only = _command("move"), _command("cards", guild_only=True)
    assert allowed_here(plain, server) and allowed_here(server_only, server)
    # the bot's own DM: each command answers for itself there, a server's one in its own words
    assert allowed_here(plain, bot_dm) and allowed_here(server_only, bot_dm)
    assert allowed_here(_command("stats", contexts={"guild": True}), bot_dm)
    for ix in (foreign, group):
        assert not allowed_here(plain, ix) and not allowed_here(server_only, ix)
    assert allowed_here(server_only, _interaction(context={})), "no context given: as before"
    # where a /practice is a match of no server
    assert not outside_server(server)
    assert outside_server(foreign) and outside_server(bot_dm) and outside_server(group)
