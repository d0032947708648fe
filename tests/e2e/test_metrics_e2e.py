"""End-to-end metrics: the real ``bot.py`` with ``METRICS_PORT`` against the twin.  One command
is played (its board edit answered 429 once); ``/metrics`` is scraped over HTTP and counts the
command for its game, the 429, the pictures, the active match and each shard's gateway latency;
``/healthz`` answers 200 while the bot is connected, and nothing listens after it stopped."""
from __future__ import annotations

import asyncio
import json
import re
import socket

import aiohttp
import pytest



def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def metrics_port() -> int:
    return free_port()


@pytest.fixture
def bot_env(metrics_port) -> dict:
    """conftest's bot, with METRICS_PORT."""
    return {"METRICS_PORT": str(metrics_port)}


async def get(port: int, path: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}{path}", timeout=aiohttp.ClientTimeout(total=10)) as resp:
            return resp.status, resp.headers.get("Content-Type", ""), await resp.text()


def sample(text: str, name: str, **labels: str) -> float | None:
    """The value of one sample in the Prometheus text format (None if it is not there)."""
    for line in text.splitlines():
        m = re.match(r"^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$", line)
        if not m or m.group(1) != name:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
        if found == labels:
            return float(m.group(3))
    return None


async def test_metrics_count_a_command_and_healthz_answers(table, twin, bot, metrics_port):
    status, ctype, text = await get(metrics_port, "/metrics")
    assert status == 200 and ctype.startswith("text/plain"), (status, ctype)
    before = sample(text, "commands_total", game="squares", outcome="ok") or 0.0

    match_id = await table.start("squares", "first=1 max_turns=10")
    board = table.board_message(match_id)
    rule = twin.rate_limit("PATCH", rf"^/channels/{board['channel_id']}/messages/{board['id']}$", retry_after=0.3)
    versions = len(twin.message(board["id"])["_versions"])
    moves = await twin.autocomplete(table.alice, "move", "command", command="", channel_id=board["channel_id"])
    ix = await table.move(table.alice, match_id, moves[0]["value"])
    assert "You played" in ix.text, ix.text
    await twin.wait_for(lambda: len(twin.message(board["id"])["_versions"]) > versions, what="the board edit")
    assert len(rule["hits"]) == 1

    status, _, text = await get(metrics_port, "/metrics")
    assert status == 200
    assert sample(text, "commands_total", game="squares", outcome="ok") == before + 1
    assert sample(text, "command_seconds_count", game="squares") == before + 1
    assert (sample(text, "picture_seconds_count", game="squares") or 0) >= 2     # the boards before and after
    assert sample(text, "rest_429_total") == 1
    assert sample(text, "active_matches") == 1
    assert sample(text, "quarantined_rows") == 0
    for family in ("commands_total", "command_seconds", "picture_seconds", "rest_429_total", "gateway_latency_seconds",
                   "active_matches", "quarantined_rows"):
        assert f"# TYPE {family} " in text, family

    # the first heartbeat is acknowledged within the twin's 5 s interval: each shard's latency
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15
    while (latency := sample(text, "gateway_latency_seconds", shard="0")) is None and loop.time() < deadline:
        await asyncio.sleep(0.5)
        _, _, text = await get(metrics_port, "/metrics")
    assert latency is not None and 0 <= latency < 5

    status, ctype, text = await get(metrics_port, "/healthz")
    body = json.loads(text)
    assert status == 200 and ctype.startswith("application/json"), (status, text)
    assert body["ok"] is True and body["db"] is True and body["gateway"] is True
    assert set(body["shards"]) == {"0"}

    await bot.stop()       # the process ends: nothing listens any more
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(metrics_port, "/healthz")
