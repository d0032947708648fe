"""Prometheus metrics of one bot (optional: only when ``METRICS_PORT`` is set; no Discord here).

Every metric lives on the :class:`Metrics` object's own ``CollectorRegistry`` — not the
process-wide default one — so tests, and several bots in one process, never clash.  The
front end (cogs/metrics.py) serves :meth:`Metrics.exposition` at ``/metrics``.

What each metric means (docs/operating.md, "Metrics and health check"):

``commands_total{game,outcome}``
    Commands played (``Host.command``: ``/move`` and the Act menu).  ``outcome``: ``ok`` (played),
    ``refused`` (the host said no: illegal, not your turn, …), ``error`` (it raised, or the match
    is quarantined, or another process wrote the match first).  ``game`` is ``unknown`` when
    the match could not be read.
``command_seconds{game}``
    How long the host took to apply, commit and answer a command (its public picture included).
``picture_seconds{game}``
    How long one picture (a board or a hand) took to draw, waiting for the worker thread included.
``rest_429_total``
    Discord REST answers 429 (rate limited) that discord.py retried or gave up on, counted from
    its ``discord.http`` and ``discord.webhook.async_`` log records (:func:`count_rate_limits`).
``gateway_latency_seconds{shard}``
    The last heartbeat round trip of each of this process's gateway shards (read when scraped).
``active_matches``
    Matches being played (status ``active``) in the whole database (read when scraped).
``quarantined_rows``
    Match rows the store quarantined (unreadable, or not fitting their log; read when scraped).
``store_errors_total{kind}``
    Failed database attempts (each retry counts), by kind: ``timeout``, ``connection``,
    ``starting``, ``full``, ``locked``, ``io``, ``busy`` (transient: the store retried or the
    caller was told "try again"), ``unknown`` (a commit never confirmed), ``error`` (anything else).

Hooks: ``Host.command`` is wrapped by :func:`measured_command` and ``Host._picture`` by
:func:`measured_picture`; both do nothing while the host's ``metrics`` is None.
"""
from __future__ import annotations

import functools
import logging
import math
import time
from typing import Any, Awaitable, Callable, Iterable

log = logging.getLogger("host.metrics")

OK, REFUSED, ERROR = "ok", "refused", "error"
UNKNOWN_GAME = "unknown"
# A refusal that is the table's fault, not the player's: counted as an error.
ERROR_KEYS = frozenset({"host.err.quarantined", "host.err.conflict", "host.err.transient",
                        "host.err.unconfirmed"})

COMMAND_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
PICTURE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.2, 0.35, 0.5, 1.0, 2.0, 5.0)
# discord.py's warning for each 429 it handles, by logger (bot calls; interaction answers)
RATE_LIMIT_LOGS = {"discord.http": "We are being rate limited", "discord.webhook.async_": "is rate limited"}

__all__ = ["Metrics", "count_rate_limits", "measured_command", "measured_picture",
           "outcome_of"]


def outcome_of(result: Any) -> str:
    """``ok`` / ``refused`` / ``error`` of a host :class:`~host.types.Result`."""
    if result is None:
        return ERROR
    if getattr(result, "ok", False):
        return OK
    error = getattr(result, "error", None)
    return ERROR if getattr(error, "key", None) in ERROR_KEYS else REFUSED


def game_of(result: Any) -> str:
    match = getattr(result, "match", None)
    return str(getattr(match, "game", None) or UNKNOWN_GAME)


class Metrics:
    """The metric objects of one bot, on their own registry.  (prometheus_client is imported
    here, so the host itself runs without it: only a bot with ``METRICS_PORT`` needs it.)"""

    def __init__(self) -> None:
        from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram

        self.content_type = CONTENT_TYPE_LATEST
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.commands = Counter("commands", "Commands played, by game and outcome (ok, refused, error).",
                                ["game", "outcome"], registry=r)
        self.command_seconds = Histogram("command_seconds", "Time the host took to apply and answer a command.",
                                         ["game"], buckets=COMMAND_BUCKETS, registry=r)
        self.picture_seconds = Histogram("picture_seconds", "Time to draw one picture (board or hand).",
                                         ["game"], buckets=PICTURE_BUCKETS, registry=r)
        self.rest_429 = Counter("rest_429", "Discord REST answers 429 (rate limited).", registry=r)
        self.gateway_latency = Gauge("gateway_latency_seconds", "Last heartbeat round trip of each gateway shard.",
                                     ["shard"], registry=r)
        self.active_matches = Gauge("active_matches", "Matches being played (status active) in the database.",
                                    registry=r)
        self.quarantined_rows = Gauge("quarantined_rows", "Match rows quarantined by the store.", registry=r)
        self.store_errors = Counter("store_errors", "Failed database attempts, by kind (timeout, connection, "
                                    "starting, full, locked, io, busy, unknown, error).", ["kind"], registry=r)
        self.rest_429.inc(0)

    # ------------------------------------------------------------------ events
    def command_done(self, result: Any, seconds: float, *, outcome: str | None = None) -> None:
        game = game_of(result)
        self.commands.labels(game=game, outcome=outcome or outcome_of(result)).inc()
        self.command_seconds.labels(game=game).observe(max(0.0, seconds))

    def picture_done(self, game: str, seconds: float) -> None:
        self.picture_seconds.labels(game=str(game or UNKNOWN_GAME)).observe(max(0.0, seconds))

    def rate_limited(self) -> None:
        self.rest_429.inc()

    def store_error(self, kind: str) -> None:
        """One failed database attempt (a listener of the store's ``notes``)."""
        self.store_errors.labels(kind=str(kind or "error")).inc()

    # ------------------------------------------------------------------ read when scraped
    def set_latencies(self, latencies: Iterable[tuple[int, float]]) -> None:
        """Each shard's heartbeat latency (a shard that has not measured one yet is left out)."""
        self.gateway_latency.clear()
        for shard, latency in latencies:
            if latency is not None and math.isfinite(latency):
                self.gateway_latency.labels(shard=str(shard)).set(latency)

    async def read_store(self, store: Any) -> None:
        """Active matches and quarantined rows, from the store (two cheap queries)."""
        from data.store import ACTIVE

        self.active_matches.set(await store.count_matches((ACTIVE,)))
        self.quarantined_rows.set(len(await store.quarantined()))

    def exposition(self) -> bytes:
        """The Prometheus text format of every metric (its content type: ``self.content_type``)."""
        from prometheus_client import generate_latest

        return generate_latest(self.registry)


# ---------------------------------------------------------------------------- hooks
def measured_command(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Wrap a Host method that plays a command: count it and time it (when ``self.metrics``)."""

    @functools.wraps(method)
    async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        metrics = getattr(self, "metrics", None)
        if metrics is None:
            return await method(self, *args, **kwargs)
        started = time.perf_counter()
        try:
            result = await method(self, *args, **kwargs)
        except Exception:
            metrics.command_done(None, time.perf_counter() - started, outcome=ERROR)
            raise
        metrics.command_done(result, time.perf_counter() - started)
        return result

    return wrapper


def measured_picture(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Wrap ``Host._picture(rec, view, …)``: time each picture actually drawn."""

    @functools.wraps(method)
    async def wrapper(self: Any, rec: Any, *args: Any, **kwargs: Any) -> Any:
        metrics = getattr(self, "metrics", None)
        if metrics is None or not getattr(self, "render_enabled", True):
            return await method(self, rec, *args, **kwargs)
        started = time.perf_counter()
        png = await method(self, rec, *args, **kwargs)
        if png is not None:
            metrics.picture_done(getattr(rec, "game", None), time.perf_counter() - started)
        return png

    return wrapper


class _RateLimitCounter(logging.Filter):
    """A filter on one of discord.py's loggers: counts its rate-limit warnings (one per 429
    answer) and lets records through exactly as the logger's own level did before."""

    def __init__(self, metrics: Metrics, marker: str, level: int) -> None:
        super().__init__()
        self.metrics = metrics
        self.marker = marker
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING and self.marker in str(record.msg):
            self.metrics.rate_limited()
        return record.levelno >= self.level


def count_rate_limits(metrics: Metrics, loggers: dict[str, str] | None = None) -> Callable[[], None]:
    """Count REST 429s from discord.py's log: it logs a warning for each 429 it handles, on
    ``discord.http`` (bot calls) and ``discord.webhook.async_`` (interaction answers).  A logger
    quieter than WARNING (``LOG_LEVEL=ERROR``) is opened to WARNING and its filter keeps dropping
    what the old level dropped, so the log reads the same.  Returns the function that undoes it."""
    undo: list[Callable[[], None]] = []
    for name, marker in (loggers or RATE_LIMIT_LOGS).items():
        logger = logging.getLogger(name)
        old_level = logger.level
        quiet = logger.getEffectiveLevel() > logging.WARNING
        # opened to WARNING for the count; the filter then drops what the old level dropped
        counter = _RateLimitCounter(metrics, marker, logger.getEffectiveLevel() if quiet else logging.NOTSET)
        if quiet:
            logger.setLevel(logging.WARNING)
        logger.addFilter(counter)

        def restore(logger: logging.Logger = logger, counter: logging.Filter = counter,
                    old_level: int = old_level) -> None:
            logger.removeFilter(counter)
            if logger.level == logging.WARNING and old_level != logging.WARNING:
                logger.setLevel(old_level)

        undo.append(restore)

    def undo_all() -> None:
        for step in undo:
            step()

    return undo_all
