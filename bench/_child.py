"""Subprocess side of the start-up and memory benchmarks (``python -m bench._child ...``).

    python -m bench._child startup DB     # bot start-up without Discord, prints "READY <n>"
    python -m bench._child memory DB N    # N stored matches made active in the host's cache,
                                          # prints one JSON line with resident memory figures
"""
from __future__ import annotations

import asyncio
import gc
import json
import os
import sqlite3
import sys


def rss_bytes() -> int:
    """Resident set size of this process now (Linux /proc; else the peak from getrusage)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


async def _startup(db: str) -> int:
    """What ``python bot.py`` does before it is ready to serve, minus the network: build the
    bot, open the store and the host, set the translator, load the cogs (``setup_hook`` with
    command sync off), then resume the unfinished matches (``on_ready``)."""
    import bot as bot_module

    config = bot_module.Config(token="bench-dummy-token", database_url=f"sqlite:///{db}",
                               sync_commands=False, clock=True)
    bot = bot_module.make_bot(config)
    await bot.setup_hook()
    n = await bot.host.resume()
    print(f"READY {n}", flush=True)
    try:  # a bot that never logged in: close what prepare() opened, best effort
        await asyncio.wait_for(bot.close(), 5)
    except Exception:
        pass
    return n


async def _memory(db: str, n: int) -> dict:
    from data.store import open_store
    from host import Host

    con = sqlite3.connect(db)
    rows = con.execute("SELECT id, game FROM matches WHERE status = 'active' ORDER BY id LIMIT ?",
                       (n,)).fetchall()
    con.close()
    ids = [r[0] for r in rows]
    game_of = dict(rows)
    store = await open_store(db)
    host = Host(store, render=False, cache_size=max(20_000, 2 * n))
    # warm every code path on one match, then drop it, so imports and caches are in the baseline
    if ids:
        await host.to_act(ids[0])
        host._states.clear()
    gc.collect()
    before = rss_bytes()
    for mid in ids:
        await host.to_act(mid)           # loads the match's state into the host's cache
    gc.collect()
    after = rss_bytes()
    cached = len(host._states)
    missing: dict[str, int] = {}
    for mid in ids:
        if mid not in host._states:   # could not be loaded (quarantined: engine refused it)
            missing[game_of[mid]] = missing.get(game_of[mid], 0) + 1
    await store.close()
    return {"matches": len(ids), "cached": cached, "not_loaded": missing,
            "rss_before": before, "rss_after": after}


def main(argv: list[str]) -> int:
    if argv[:1] == ["startup"] and len(argv) == 2:
        asyncio.run(_startup(argv[1]))
        sys.stdout.flush()
        os._exit(0)  # discord.py may leave a waiting task behind when it never connected
    if argv[:1] == ["memory"] and len(argv) == 3:
        print(json.dumps(asyncio.run(_memory(argv[1], int(argv[2])))), flush=True)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
