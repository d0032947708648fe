"""TEST ONLY: in the bot process, log each match version the bot has finished showing.

Loaded into every e2e bot process through the testing-only hook of ``bot.py``
(``BOT_TEST_PLUGINS=…,tests.e2e.shown_log``).  When the delivery cog is added it gets one more
observer on its existing ``after_publish`` hook, which runs once a publish is done — the board,
the events and every DM of that update and of any update coalesced into it sent — and logs::

    TESTING: match 7 shown at version 12

:meth:`tests.e2e.harness.BotProcess.shown` reads it.  A scenario that plays moves without waiting
for their updates uses it as its barrier: once the version it read from the database is shown,
no update of an older version can still be on its way (one publish at a time per match, and an
older one arriving later is stale: no DM).  Watching a DM until it looks final is no such
barrier — a hand can look the same at an earlier position while later updates are still queued
(Art of War: ``S W`` → ``S P W`` → ``S W``).  It changes nothing else: the bot is the one users
run.
"""
from __future__ import annotations

import logging
from typing import Any

from discord.ext.commands.bot import BotBase

log = logging.getLogger("testing")
_add_cog = BotBase.add_cog      # (commands.Bot and commands.AutoShardedBot both have it from here)


async def _shown(rec: Any) -> None:
    log.info("TESTING: match %s shown at version %s", rec.id, rec.version)


async def add_cog(self: BotBase, cog: Any, /, **kwargs: Any) -> None:
    # the cogs are not imported here: a plugin loaded after this one (a test game) must still be
    # registered before they are
    await _add_cog(self, cog, **kwargs)
    if type(cog).__name__ == "Delivery" and isinstance(getattr(cog, "after_publish", None), list):
        cog.after_publish.append(_shown)


BotBase.add_cog = add_cog  # type: ignore[method-assign]
