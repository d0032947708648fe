"""Shared fixtures: a host on a fresh SQLite file with a hand-driven clock; the bot on discord.py's
real objects with the HTTP layer faked (``env``)."""
from __future__ import annotations

import pytest

from data.store import open_store
from host import Host

from discord_fakes import Clock, make_env


@pytest.fixture
async def clocked_host(tmp_path):
    """``await clocked_host(render=…)``: a :class:`host.Host` on its own SQLite file, with
    ``host.clock`` (a hand-driven :class:`discord_fakes.Clock`) as its time."""
    stores = []

    async def make(render: bool = False) -> Host:
        store = await open_store(str(tmp_path / f"host{len(stores)}.db"))
        stores.append(store)
        clock = Clock()
        h = Host(store, now=clock, render=render)
        h.clock = clock
        return h

    yield make
    for store in stores:
        await store.close()


@pytest.fixture
async def env(tmp_path):
    """The bot with its cogs on a fake Discord (``discord_fakes.make_env``), pictures off."""
    e = await make_env(tmp_path)
    yield e
    await e.close()
