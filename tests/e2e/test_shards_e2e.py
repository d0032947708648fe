"""End-to-end: one bot run as TWO processes on one PostgreSQL database (issue 18).

A throw-away PostgreSQL server (tests/pg_server.py; the test is skipped, saying so, only where
there are no PostgreSQL binaries), one twin that requires 2 shards, and two real ``bot.py``
processes with ``SHARD_COUNT=2`` and ``SHARD_IDS=0`` / ``SHARD_IDS=1``.  Guild A is on shard 0,
guild B on shard 1 (``(guild_id >> 22) % 2``).  It proves:

(a) only the process holding shard 0 syncs the application commands (the shard-1 process is
    started first and makes no command registration call; the shard-0 process then makes one);
(b) a SQUARES match in each guild is played to its end, every interaction delivered on the
    shard of its guild only (so answered by the process owning that shard: its token reached
    no other process);
(c) a turn clock that runs out (one clocked match in each guild; both processes run the clock
    loop) produces exactly one reminder and one expiry notice per match, also across a restart;
(d) the shard-1 process is killed with SIGKILL mid-match and restarted: the match carries on
    and finishes with every command in its log, no message was sent twice, and the twin
    refused nothing (no 4xx, no refusal, no violation).
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import re

import pytest

from .checks import assert_every_message_within_limits
from .harness import BotProcess, Table
from .twin import find_component, message_text

# aiohttp's own multipart reader (the twin reading uploads) uses a deprecated call internally
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

OPTIONS = "first=1 max_turns=10"
TURN = 300                  # the shortest turn clock /play offers (5 minutes): reminder at 60 s left
CLOCK_LOOP = 2.0            # seconds between clock-loop runs in each process (BOT_TEST_CLOCK_LOOP; 30 s
                            # in production): every process runs its loop many times in this test
REMINDER = "your turn clock runs out"
EXPIRED = "ran out of time"


@pytest.fixture
def twin_shards() -> int:
    return 2


def log_commands(text: str) -> list[str]:
    """The commands of a /match log answer, in order (as test_squares_e2e reads them)."""
    return [m.group(1) or m.group(2) or m.group(3) for m in re.finditer(   # "N. name: words (`notation`)"
        r"^\s*\d+\. [^:\n]+: (?:.*?\(`([^`]+)`\)|`([^`]+)`|(.+))$", text, flags=re.M)]


def sent(twin, channel_id: int, text: str) -> list:
    """The messages the bot posted (accepted) in ``channel_id`` whose words include ``text``."""
    return [r for r in twin.requests if r.method == "POST" and r.path == f"/channels/{channel_id}/messages"
            and 200 <= r.status < 300 and text in message_text(r.json or {})]


async def play_to_end(twin, table: Table, match_id: int, *, kill_after: int | None = None,
                      proc: BotProcess | None = None) -> list[str]:
    """Both players play (first legal command) until the match ends; after ``kill_after``
    commands ``proc`` is killed with SIGKILL and started again.  Returns the commands played."""
    thread_id = table.thread_of(match_id)
    played: list[str] = []
    while table.board_message(match_id) is not None:
        if kill_after is not None and len(played) == kill_after:
            # the player to act opens the Act menu; the process dies before they pick; the menu
            # opened on the old process plays the move on the new one
            actor = await table.to_act(match_id)
            board = table.board_message(match_id)
            menu = (await twin.click(actor, board, f"m:{match_id}:act")).last
            await proc.kill()
            assert proc.proc.returncode == -9
            await proc.start()
            kill_after = None
            ix = None
            while ix is None or "You played" not in ix.text:
                select = find_component(menu, r":c:")
                option = next(o for o in select["options"] if not o["value"].startswith("p:"))
                ix = await twin.click(actor, menu, select["custom_id"], values=[option["value"]],
                                      until=lambda i: "You played" in i.text or find_component(i.last or {}, r":c:"))
                menu = ix.last
            played.append(re.search(r"You played .*?`([^`]+)`", ix.text).group(1))
            await twin.wait_for(lambda: table.board_message(match_id) is None
                                or table.board_message(match_id)["id"] != board["id"], what="the move shown")
            continue
        actor = choices = None
        for user in (table.alice, table.bob):
            choices = await twin.autocomplete(user, "move", "command", command="", match=match_id,
                                              channel_id=thread_id)
            if choices:
                actor = user
                break
        if actor is None:       # the last command ended the match: its board may be on the way
            break
        command = choices[0]["value"]
        ix = await twin.slash(actor, "move", command=command, match=match_id, channel_id=thread_id)
        assert "You played" in ix.text and f"`{command}`" in ix.text, ix.text
        played.append(command)
        await twin.wait_for(lambda: twin.posts(thread_id)[-1] is table.latest_board(match_id),
                            what="the board as the newest message")
        assert len(played) < 40, "the match did not end"
    await twin.wait_for(lambda: table.board_message(match_id) is None, what="the final board")
    assert "won" in message_text(table.latest_board(match_id)) or "Draw" in message_text(table.latest_board(match_id))
    ix = await twin.slash(table.alice, "match log", match=match_id, channel_id=thread_id)
    assert log_commands(ix.text) == played, "a command was lost"
    return played


async def test_two_processes_share_one_bot_on_one_postgresql_database(pg_url, twin, tmp_path):
    guild_b = twin.add_guild(1, "Shard One Guild")       # before the bot connects: it comes in READY
    channel = {0: int(twin.channel["id"]), 1: guild_b["channel_id"]}
    assert twin.shard_of(twin.guild_id) == 0 and twin.shard_of(guild_b["id"]) == 1
    procs: dict[int, BotProcess] = {}
    for shard in (0, 1):
        folder = tmp_path / f"shard{shard}"
        folder.mkdir()
        procs[shard] = BotProcess(twin, folder, extra_env={
            "DATABASE_URL": pg_url, "SHARD_COUNT": "2", "SHARD_IDS": str(shard),
            "BOT_TEST_CLOCK_LOOP": str(CLOCK_LOOP)})
    syncs = r"^/applications/\d+/commands$"
    try:
        # (a) the shard-1 process alone registers no command; the shard-0 process registers them once
        await procs[1].start()
        assert twin.calls("PUT", syncs) == [] and twin.commands == []
        assert "the process holding shard 0 syncs the commands" in procs[1].log()
        await procs[0].start()
        assert len(twin.calls("PUT", syncs)) == 1 and twin.commands
        assert "synced" in procs[0].log()
        assert twin.identified == [(1, 2), (0, 2)]

        tables = {s: Table(twin, procs[s], channel_id=channel[s]) for s in (0, 1)}
        # (c) a match with a 5-minute clock in each guild; 250 s pass: 50 s left, a reminder is due
        clocked = {s: await tables[s].start("squares", OPTIONS, turn_time=TURN) for s in (0, 1)}
        threads = {s: tables[s].thread_of(clocked[s]) for s in (0, 1)}
        await twin.advance(TURN - 50)
        await twin.wait_for(lambda: all(sent(twin, threads[s], REMINDER) for s in (0, 1)),
                            timeout=CLOCK_LOOP + 10, what="a reminder in each clocked match")
        await asyncio.sleep(3 * CLOCK_LOOP)      # each process runs its clock again: no second reminder
        assert [len(sent(twin, threads[s], REMINDER)) for s in (0, 1)] == [1, 1]
        await twin.advance(60)                   # the clocks run out
        await twin.wait_for(lambda: all(sent(twin, threads[s], EXPIRED) for s in (0, 1)),
                            timeout=CLOCK_LOOP + 10, what="an expiry notice in each clocked match")

        # (b) a match in guild A (shard 0) is played to its end, while both clock loops run on
        match_a = await tables[0].start("squares", OPTIONS)
        played_a = await play_to_end(twin, tables[0], match_a)
        # (b, d) a match in guild B (shard 1); its process is killed mid-match and restarted (its
        # clock loop's first run comes at once: the expired clock is not announced again)
        match_b = await tables[1].start("squares", OPTIONS)
        played_b = await play_to_end(twin, tables[1], match_b, kill_after=3, proc=procs[1])
        assert procs[1].starts == 2 and "3 unfinished matches" in procs[1].log()
        assert len(twin.calls("PUT", syncs)) == 1, "the restarted shard-1 process synced commands"
        await asyncio.sleep(3 * CLOCK_LOOP)
        for s in (0, 1):
            assert len(sent(twin, threads[s], REMINDER)) == 1, f"guild {s}: reminders"
            assert len(sent(twin, threads[s], EXPIRED)) == 1, f"guild {s}: expiry notices"
        assert len(played_a) == len(played_b) == 10      # max_turns=10: one command a turn
        for proc in procs.values():
            assert "TESTING ONLY: the clock loop runs every" in proc.log()
    finally:
        for proc in procs.values():
            await proc.stop()

    # every interaction went to its guild's shard only (DMs: shard 0) and was answered there
    for ix in twin.interactions.values():
        want = twin.shard_of(ix.payload.get("guild_id"))
        assert ix.shards == [want], (ix.payload["data"], ix.shards)
        assert ix.response_type is not None
    by_shard = {s: [ix for ix in twin.interactions.values() if ix.shards == [s]] for s in (0, 1)}
    assert by_shard[0] and by_shard[1]
    # no message sent twice: no two accepted posts in one channel (or follow-ups of one
    # interaction) carry the same words, controls and picture
    posted: dict[str, str] = {}
    for r in twin.requests:
        if r.method == "POST" and (r.path.endswith("/messages") or r.path.startswith("/webhooks/")) \
                and 200 <= r.status < 300:
            key = hashlib.sha256(json.dumps([r.path, r.json], sort_keys=True).encode()
                                 + b"".join(raw for _, raw in r.files)).hexdigest()
            assert key not in posted, f"sent twice: {r.path} {message_text(r.json or {})[:200]!r}"
            posted[key] = r.path
    print(f"{len(posted)} messages posted, none twice; interactions by shard: "
          f"{ {k: len(v) for k, v in by_shard.items()} }; identifies {twin.identified}")
    # the twin refused nothing
    assert [(r.method, r.path, r.status) for r in twin.requests if r.status >= 400] == []
    assert twin.refusals == [] and twin.violations == []
    assert_every_message_within_limits(twin)
    for proc in procs.values():
        errors = proc.errors() + [w for w in proc.warnings() if " cogs" in w or " bot:" in w]
        assert not errors, "a bot process logged errors:\n" + "\n".join(errors[:20]) + "\n" + proc.log()[-4000:]
