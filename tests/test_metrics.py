"""Metrics (METRICS_PORT): host/metrics.py's counters and histograms moved by commands played
through the real cogs on the fake Discord, 429s counted from discord.py's log, the store's
gauges read at each scrape, and cogs/metrics.py's HTTP server (/metrics, /healthz)."""
from __future__ import annotations

import asyncio

import json
import logging
import re

import aiohttp
import pytest

import bot as bot_module
from discord_fakes import Clock, FakeDiscord, _Resp, install
from host import Host
from host.metrics import Metrics, count_rate_limits, outcome_of
from host.types import Result


class Env:
    pass


async def metrics_env(tmp_path, *, render: bool = True, port: int | None = 0) -> Env:
    """A logged-in bot on the fake Discord with METRICS_PORT (0: any free port)."""
    from data.store import open_store

    e = Env()
    e.store = await open_store(str(tmp_path / "bot.sqlite3"))
    e.host = Host(e.store, now=Clock(), render=render)
    e.fake = FakeDiscord()
    config = bot_module.Config(token="fake-token", sync_commands=False, clock=False, metrics_port=port)
    e.bot = bot_module.make_bot(config, store=e.store, host=e.host)
    install(e.bot, e.fake)
    await e.bot.login("fake-token")
    await e.bot.on_ready()
    e.alice, e.bob = e.fake.user("Alice"), e.fake.user("Bob")
    e.cog = e.bot.get_cog("MetricsServer")
    e.metrics = e.cog.metrics if e.cog else None
    return e


@pytest.fixture
async def menv(tmp_path):
    e = await metrics_env(tmp_path)
    yield e
    await e.bot.close()
    await e.store.close()


async def start_squares(e: Env) -> int:
    ix = await e.fake.slash(e.bot, e.alice, "play", game="squares", opponent=e.bob, options="first=1")
    assert "#" in ix.text, ix.text
    match_id = max(m.id for m in await e.store.matches_for_user(int(e.alice["id"])))
    ref = (await e.store.get_refs(match_id))["board"]
    board = e.fake.messages[int(ref.split(":")[1])]
    await e.fake.click(e.bot, e.bob, board, f"m:{match_id}:accept")
    return match_id


def value(m: Metrics, name: str, **labels: str) -> float:
    return m.registry.get_sample_value(name, labels) or 0.0


async def scrape(e: Env, path: str) -> tuple[int, str, str]:
    host, port = e.cog.address
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://{host}:{port}{path}") as resp:
            return resp.status, resp.headers.get("Content-Type", ""), await resp.text()


# ---------------------------------------------------------------------------- the host's Results
def test_outcome_of_a_result():
    assert outcome_of(Result(ok=True)) == "ok"
    assert outcome_of(Result.fail("host.err.not_your_turn")) == "refused"
    assert outcome_of(Result.fail("host.err.quarantined", match_id=1)) == "error"
    assert outcome_of(Result.fail("host.err.conflict")) == "error"
    assert outcome_of(None) == "error"


def test_two_bots_have_their_own_registries():
    a, b = Metrics(), Metrics()
    a.command_done(None, 0.1)
    assert value(a, "commands_total", game="unknown", outcome="error") == 1
    assert value(b, "commands_total", game="unknown", outcome="error") == 0


# ---------------------------------------------------------------------------- through the cogs
async def test_commands_and_pictures_are_counted_by_game_and_outcome(menv):
    e, m = menv, menv.metrics
    assert e.host.metrics is m
    match_id = await start_squares(e)
    drawn = value(m, "picture_seconds_count", game="squares")
    assert drawn >= 1                                  # the first board's picture
    thread_id = (await e.store.get_match(match_id)).channel_id
    legal = await e.host.legal(match_id, int(e.alice["id"]))
    ix = await e.fake.slash(e.bot, e.alice, "move", command=legal[0], channel_id=thread_id)
    assert "You played" in ix.text
    ix = await e.fake.slash(e.bot, e.alice, "move", command=legal[0], channel_id=thread_id)   # Bob's turn now
    assert "You played" not in ix.text
    assert value(m, "commands_total", game="squares", outcome="ok") == 1
    assert value(m, "commands_total", game="squares", outcome="refused") == 1
    assert value(m, "command_seconds_count", game="squares") == 2
    assert value(m, "command_seconds_sum", game="squares") > 0
    assert value(m, "picture_seconds_count", game="squares") > drawn   # the board after the move

    status, ctype, text = await scrape(e, "/metrics")
    assert status == 200 and ctype.startswith("text/plain")
    assert 'commands_total{game="squares",outcome="ok"} 1.0' in text
    for family in ("command_seconds_bucket", "picture_seconds_bucket", "rest_429_total", "active_matches 1.0",
                   "quarantined_rows 0.0", "# TYPE gateway_latency_seconds gauge"):
        assert family in text, family


async def test_the_host_without_metrics_counts_nothing(tmp_path):
    e = await metrics_env(tmp_path, port=None)
    try:
        assert e.cog is None and e.host.metrics is None
        await start_squares(e)     # plays on as before
    finally:
        await e.bot.close()
        await e.store.close()


async def test_gauges_are_read_from_the_store_and_a_quarantined_match_is_an_error(menv):
    e, m = menv, menv.metrics
    bad = await start_squares(e)
    await start_squares(e)
    await e.store._db.execute("UPDATE matches SET seats = 'not json' WHERE id = ?", (bad,))
    await e.store._db.commit()
    res = await e.host.command(bad, int(e.alice["id"]), "place L1 a1")
    assert res.error.key == "host.err.quarantined"
    assert value(m, "commands_total", game="unknown", outcome="error") == 1
    _, _, text = await scrape(e, "/metrics")
    assert "quarantined_rows 1.0" in text and "active_matches 1.0" in text


# ---------------------------------------------------------------------------- 429s
class _TooMany(_Resp):
    def __init__(self) -> None:
        super().__init__(429, {"message": "You are being rate limited.", "retry_after": 0.01, "global": False})
        self.reason = "Too Many Requests"
        self.headers["Via"] = "1.1 google"


async def test_rest_429s_are_counted_from_discord_py(menv, monkeypatch):
    e, m = menv, menv.metrics
    handle = e.fake.handle
    left = {"channels": 1, "interactions": 1}

    async def limited(method, url, kwargs):
        for kind in left:
            if left[kind] and re.search(rf"/{kind}/\d+/", url) and method == "POST":
                left[kind] -= 1
                return _TooMany()
        return await handle(method, url, kwargs)

    monkeypatch.setattr(e.fake, "handle", limited)
    await start_squares(e)                 # both retried by discord.py, then answered
    assert left == {"channels": 0, "interactions": 0}
    assert value(m, "rest_429_total") == 2


def test_a_quiet_log_still_counts_429s_and_prints_nothing_more(caplog):
    m = Metrics()
    logger = logging.getLogger("discord.http")
    old = logger.level
    logger.setLevel(logging.ERROR)
    undo = count_rate_limits(m)
    try:
        with caplog.at_level(logging.DEBUG, logger="root"):
            logger.warning("We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.",
                           "POST", "/x", 1.0)
            logger.warning("something else")
        assert value(m, "rest_429_total") == 1
        assert not [r for r in caplog.records if r.name == "discord.http"]
    finally:
        undo()
        assert logger.level == logging.ERROR
        logger.setLevel(old)


# ---------------------------------------------------------------------------- /healthz
async def test_healthz_is_503_until_the_gateway_is_up_and_when_the_store_fails(menv, monkeypatch):
    e = menv
    status, _, text = await scrape(e, "/healthz")     # the fake Discord has no gateway
    body = json.loads(text)
    assert status == 503 and body["ok"] is False and body["gateway"] is False and body["db"] is True

    monkeypatch.setattr(e.cog, "gateway_up", lambda: True)
    monkeypatch.setattr(type(e.bot), "latencies", property(lambda self: [(0, 0.042)]))
    status, _, text = await scrape(e, "/healthz")
    body = json.loads(text)
    assert status == 200 and body.pop("db_seconds") < 1 and body == {
        "ok": True, "gateway": True, "shards": {"0": 0.042}, "db": True, "db_slow": False}
    _, _, text = await scrape(e, "/metrics")
    assert 'gateway_latency_seconds{shard="0"} 0.042' in text

    async def broken(*a, **k):
        raise OSError("database is locked")

    monkeypatch.setattr(e.store, "count_matches", broken)
    status, _, text = await scrape(e, "/healthz")
    assert status == 503 and json.loads(text)["db"] is False
    status, _, _ = await scrape(e, "/metrics")         # a scrape still answers
    assert status == 200


async def test_the_server_stops_when_the_bot_closes(tmp_path):
    e = await metrics_env(tmp_path)
    host, port = e.cog.address
    assert host == "127.0.0.1"
    await e.bot.close()
    await e.store.close()
    assert e.host.metrics is None
    with pytest.raises(aiohttp.ClientConnectionError):
        async with aiohttp.ClientSession() as session:
            await session.get(f"http://{host}:{port}/healthz")


def test_config_reads_metrics_port_and_host():
    cfg = bot_module.Config.from_env({})
    assert cfg.metrics_port is None and cfg.metrics_host == "127.0.0.1"
    cfg = bot_module.Config.from_env({"METRICS_PORT": "9108", "METRICS_HOST": "0.0.0.0"})
    assert (cfg.metrics_port, cfg.metrics_host) == (9108, "0.0.0.0")
    with pytest.raises(SystemExit):
        bot_module.Config.from_env({"METRICS_PORT": "ninety"})


async def test_healthz_reports_a_slow_database_and_metrics_count_store_errors_by_kind(menv, monkeypatch):
    """Issue 31: "keep /healthz answering 503 when the store fails; add a counter of store errors
    by kind and report the database as slow when a trivial query takes over 1 s"."""
    from cogs import metrics as cog_metrics
    from data.store import TransientStoreError

    e = menv
    monkeypatch.setattr(e.cog, "gateway_up", lambda: True)
    monkeypatch.setattr(cog_metrics, "DB_SLOW", 0.05)
    real = e.store.count_matches

    async def slow(*a, **k):
        await asyncio.sleep(0.1)
        return await real(*a, **k)

    monkeypatch.setattr(e.store, "count_matches", slow)
    status, _, text = await scrape(e, "/healthz")
    body = json.loads(text)
    assert status == 200 and body["ok"] is True and body["db_slow"] is True and body["db_seconds"] >= 0.05

    # every failed attempt is counted by kind (the store's notes call the listener)
    e.store.notes.failed("get_match", 7, TransientStoreError("x", kind="timeout"))
    e.store.notes.failed("get_match", 7, TransientStoreError("x", kind="timeout"))
    e.store.notes.failed("commands", None, TransientStoreError("y", kind="connection"))
    _, _, text = await scrape(e, "/metrics")
    assert 'store_errors_total{kind="timeout"} 2.0' in text
    assert 'store_errors_total{kind="connection"} 1.0' in text
