"""Fixtures for the end-to-end tests (this directory only).

``twin``: a started :class:`~e2e.twin.Twin` on 127.0.0.1, with Discord's rate limits; at teardown
the test fails if the bot sent anything Discord would have refused (``twin.violations``), made an
invalid request (401/403/429) the scenario did not provoke, overran a rate limit or logged an error.
``bot``: ``python bot.py`` running against the twin (stopped at teardown).
``table``: Alice, Bob and Carol at that bot.
"""
from __future__ import annotations

import pytest

from .harness import BotProcess, Table
from .twin import Twin

# Modules the bot process imports through BOT_TEST_PLUGINS (a testing-only hook in bot.py):
# every bot process refuses non-loopback connections (tests/e2e/loopback_only.py) and logs each
# match version it has finished showing (tests/e2e/shown_log.py, read by BotProcess.shown); the
# hidden-hand test game (tests/e2e/hidden_game.py) is added only where a test asks for it.
LOOPBACK_ONLY = "tests.e2e.loopback_only"
TEST_PLUGINS = f"{LOOPBACK_ONLY},tests.e2e.shown_log"
HIDDEN_GAME_PLUGIN = f"{TEST_PLUGINS},tests.e2e.hidden_game"


@pytest.fixture
def twin_shards() -> int:
    """The twin's shard count (``GET /gateway/bot``); a test module overrides it for a sharded bot."""
    return 1


@pytest.fixture
def channel_window(request) -> float:
    """Seconds of a channel's rate-limit window: Discord's own 5 posts (and, apart, 5 edits) per
    5 s.  A module whose scripted players act faster than people can — an event's games ended
    one after another in one thread, a match resigned the moment it starts — sets
    ``CHANNEL_WINDOW`` (seconds) to a shorter window: the count stays Discord's, and the bot must
    still never overrun it (checked at teardown), it just waits less for the window to reset."""
    return float(getattr(request.module, "CHANNEL_WINDOW", 5.0))


@pytest.fixture
async def twin(twin_shards, channel_window):
    t = await Twin(shards=twin_shards).start()
    # Discord's own limits (5 per 5 s per channel, 50/s) in every scenario
    t.discord_rate_limits(per_channel=(5, channel_window))
    try:
        yield t
    finally:
        await t.stop()
    assert t.violations == [], "the bot sent what Discord would refuse:\n" + "\n".join(t.violations)
    overrun = [r for r in t.refusals if r.startswith(("429 bucket", "429 global"))]
    assert overrun == [], "the bot overran Discord's rate limits:\n" + "\n".join(overrun)
    # Invalid requests (answered 401, 403 or 429): Discord bans a bot's IP at 10,000 in 10 minutes,
    # so there must be none but those a scenario provokes on purpose — a 429 asked for with
    # twin.rate_limit, a DM to a user who closed them (the closed-DM scenario bounds those itself),
    # a follow-up refused with twin.refuse_followups
    provoked = sum(len(rule["hits"]) for rule in t._limits)
    closed_dm = sum(1 for r in t.refusals if r.startswith("403 50007"))
    # a public follow-up refused on purpose (twin.refuse_followups: an expired token)
    expired = sum(1 for r in t.refusals if r.startswith("401 50027")) if t.refuse_followups else 0
    invalid = [(r.method, r.path, r.status) for r in t.requests if r.status in (401, 403, 429)]
    assert len(invalid) <= provoked + closed_dm + expired, f"{len(invalid)} invalid requests (401/403/429): {invalid[:10]}"


@pytest.fixture
def bot_plugins() -> str:
    """BOT_TEST_PLUGINS for the bot process: only the loopback guard and the shown-version log
    (the bot is exactly the one users run).  A test module overrides this fixture to load e.g.
    :data:`HIDDEN_GAME_PLUGIN`."""
    return TEST_PLUGINS


@pytest.fixture
def bot_env() -> dict:
    """Extra environment of the bot process: a module overrides this fixture (a metrics port, a
    faster clock loop) instead of the ``bot`` fixture, which keeps its teardown checks."""
    return {}


@pytest.fixture
async def bot(twin, tmp_path, bot_plugins, bot_env):
    proc = BotProcess(twin, tmp_path, plugins=bot_plugins, extra_env=bot_env or None)
    try:
        await proc.start()
        yield proc
    finally:
        await proc.stop()
    # an ERROR, or a cog's WARNING (e.g. "could not answer interaction"), is a failed scenario
    errors = proc.errors() + [w for w in proc.warnings() if " cogs" in w or " bot:" in w]
    assert not errors, "the bot logged errors:\n" + "\n".join(errors[:20]) + "\n" + proc.log()[-4000:]


@pytest.fixture
async def table(twin, bot):
    return Table(twin, bot)
