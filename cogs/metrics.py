"""Prometheus metrics and a health check over HTTP (only when ``METRICS_PORT`` is set).

A small aiohttp server (aiohttp comes with discord.py) on ``METRICS_HOST:METRICS_PORT``
(default host 127.0.0.1: metrics are not public unless the operator says so):

``GET /metrics``
    The Prometheus text format of :class:`host.metrics.Metrics`; the store's gauges (active
    matches, quarantined rows) and each shard's gateway latency are read at each scrape.
``GET /healthz``
    200 ``{"ok": true, "shards": {"0": 0.041}, "db": true, "db_seconds": 0.002, "db_slow": false}``
    when the gateway is connected (every shard of this process) and the store answers a trivial
    query within :data:`DB_TIMEOUT`; otherwise 503 with the same body and ``"ok": false``.
    ``db_slow`` is true when that query took over :data:`DB_SLOW` (still 200: slow, not down).

The cog is added by :func:`cogs.setup_all` only when the bot's config has a ``metrics_port``;
its server starts in ``cog_load`` and stops in ``cog_unload`` (``bot.close()`` removes the cogs).
Nothing here is user-facing: the answers are for monitoring, in English.
"""
from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import Any

from aiohttp import web
from discord.ext import commands

from data import deadline
from host.metrics import Metrics, count_rate_limits

log = logging.getLogger("cogs.metrics")

DB_TIMEOUT = 5.0   # seconds the store has to answer /healthz's query
DB_SLOW = 1.0      # a trivial query slower than this: the database is reported slow


class MetricsServer(commands.Cog):
    def __init__(self, bot: commands.Bot, metrics: Metrics | None = None) -> None:
        self.bot = bot
        self.metrics = metrics or Metrics()
        self.runner: web.AppRunner | None = None
        self._undo_429: Any = None

    @property
    def address(self) -> tuple[str, int] | None:
        """Where the server listens (host, port), once started."""
        if self.runner is None or not self.runner.addresses:
            return None
        host, port = self.runner.addresses[0][:2]
        return str(host), int(port)

    async def cog_load(self) -> None:
        config = self.bot.config  # type: ignore[attr-defined]
        self.bot.host.metrics = self.metrics  # type: ignore[attr-defined]
        self._undo_429 = count_rate_limits(self.metrics)
        notes = getattr(self.bot.store, "notes", None)  # type: ignore[attr-defined]
        if notes is not None:
            notes.listeners.append(self.metrics.store_error)
        app = web.Application()
        app.router.add_get("/metrics", self.serve_metrics)
        app.router.add_get("/healthz", self.serve_health)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        host = getattr(config, "metrics_host", None) or "127.0.0.1"
        try:
            await web.TCPSite(runner, host, int(config.metrics_port)).start()
        except OSError as e:
            # the bot plays on without its metrics; the missing health check tells the monitor
            log.error("metrics: cannot listen on %s:%s: %s", host, config.metrics_port, e)
            await runner.cleanup()
            return
        self.runner = runner
        log.info("metrics at http://%s:%d/metrics, health at /healthz", *self.address)

    async def cog_unload(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None
        if self._undo_429 is not None:
            self._undo_429()
            self._undo_429 = None
        if getattr(self.bot.host, "metrics", None) is self.metrics:  # type: ignore[attr-defined]
            self.bot.host.metrics = None  # type: ignore[attr-defined]
        notes = getattr(self.bot.store, "notes", None)  # type: ignore[attr-defined]
        if notes is not None and self.metrics.store_error in notes.listeners:
            notes.listeners.remove(self.metrics.store_error)

    # ------------------------------------------------------------------ answers
    def latencies(self) -> dict[int, float | None]:
        """Each of this process's shards: its last heartbeat latency (None before the first)."""
        try:
            pairs = list(self.bot.latencies)  # type: ignore[attr-defined]
        except Exception:  # not connected yet
            pairs = []
        return {int(shard): (latency if latency is not None and math.isfinite(latency) else None)
                for shard, latency in pairs}

    def gateway_up(self) -> bool:
        bot = self.bot
        if bot.is_closed() or not bot.is_ready():
            return False
        shards = getattr(bot, "shards", None) or {}
        return all(not shard.is_closed() for shard in shards.values())

    async def serve_metrics(self, request: web.Request) -> web.Response:
        self.metrics.set_latencies(self.latencies().items())
        try:
            await asyncio.wait_for(self.metrics.read_store(self.bot.store), DB_TIMEOUT)  # type: ignore[attr-defined]
        except Exception as e:  # the scrape still answers; /healthz reports the store
            log.warning("metrics: the store did not answer: %r", e)
        return web.Response(body=self.metrics.exposition(), headers={"Content-Type": self.metrics.content_type})

    async def db_check(self) -> tuple[bool, float]:
        """(did the store answer a trivial query within DB_TIMEOUT, how long it took)."""
        started = time.perf_counter()
        try:
            with deadline.within(DB_TIMEOUT):
                await asyncio.wait_for(self.bot.store.count_matches(), DB_TIMEOUT)  # type: ignore[attr-defined]
        except Exception as e:
            log.warning("health: the store did not answer: %r", e)
            return False, time.perf_counter() - started
        return True, time.perf_counter() - started

    async def serve_health(self, request: web.Request) -> web.Response:
        gateway = self.gateway_up()
        db, seconds = await self.db_check()
        if db and seconds > DB_SLOW:
            log.warning("health: the database is slow: a trivial query took %.2f s", seconds)
        body = {"ok": gateway and db, "gateway": gateway,
                "shards": {str(k): v for k, v in sorted(self.latencies().items())}, "db": db,
                "db_seconds": round(seconds, 4), "db_slow": seconds > DB_SLOW}
        return web.json_response(body, status=200 if body["ok"] else 503)
