"""Fixtures for the end-to-end tests (this directory only).

``twin``: a started :class:`~e2e.twin.Twin` on 127.0.0.1; at teardown the test fails if the bot
sent anything Discord would have refused (``twin.violations``) or logged an error.
``bot``: ``python bot.py`` running against the twin (stopped at teardown).
``table``: Alice, Bob and Carol at that bot.
"""
from __future__ import annotations

import pytest

from .harness import BotProcess, Table
from .twin import Twin

# The hidden-hand test game lives in tests/e2e/hidden_game.py; the bot process imports it only
# because BOT_TEST_PLUGINS names it (a testing-only hook in bot.py).
HIDDEN_GAME_PLUGIN = "tests.e2e.hidden_game"


@pytest.fixture
async def twin():
    t = await Twin().start()
    try:
        yield t
    finally:
        await t.stop()
    assert t.violations == [], "the bot sent what Discord would refuse:\n" + "\n".join(t.violations)


@pytest.fixture
def bot_plugins() -> str:
    """BOT_TEST_PLUGINS for the bot process: none (the bot exactly as users run it).  A test
    module overrides this fixture to load e.g. :data:`HIDDEN_GAME_PLUGIN`."""
    return ""


@pytest.fixture
async def bot(twin, tmp_path, bot_plugins):
    proc = BotProcess(twin, tmp_path, plugins=bot_plugins)
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
