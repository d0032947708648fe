"""Subprocess side of the start-up and memory benchmarks (``python -m bench._child ...``).

    python -m bench._child startup DB     # bot start-up without Discord, prints "READY <n>"
    python -m bench._child memory DB ACTIVE LOADED SAMPLE
        # ACTIVE stored matches made active in the host's cache, then the first LOADED loaded
        # once (the cache bounded as configured); every one checked to load, the ACTIVE ones
        # and SAMPLE others to play a command; prints one JSON line with resident memory
        # figures and what failed
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


async def _memory(db: str, active: int, loaded: int, sample: int) -> dict:
    """Resident memory of a host with ``active`` stored matches loaded into its state cache,
    then with every one of the first ``loaded`` loaded once (the cache bounded as configured:
    ``Host``'s default ``cache_size``, as the bot builds it), and the check that they are all
    served: every match loads (its state is cached right after, nothing is quarantined), and
    the ``active`` ones and ``sample`` of the others (spread over every game) are shown
    (``host.status``) and accept a legal command (``host.command``).  What fails is counted per
    game in ``not_loaded`` and ``not_played`` (with a few examples); the caller fails the run."""
    import random

    from data.store import open_store
    from host import Host
    from rules import registry

    con = sqlite3.connect(db)
    rows = con.execute("SELECT id, game, seats FROM matches WHERE status = 'active' ORDER BY id "
                       "LIMIT ?", (max(active, loaded),)).fetchall()
    con.close()
    ids = [r[0] for r in rows]
    game_of = {r[0]: r[1] for r in rows}
    seats_of = {r[0]: json.loads(r[2]) for r in rows}
    store = await open_store(db)
    try:   # closed whatever happens: an open store's thread would keep this process from exiting
        host = Host(store, render=False)
        failed: dict[str, dict[str, list]] = {"not_loaded": {}, "not_played": {}}
        refused: set[int] = set()

        def fail(kind: str, mid: int, why: str) -> None:
            failed[kind].setdefault(game_of[mid], []).append(f"match {mid}: {why}")

        async def load(mid: int) -> None:
            await host.to_act(mid)              # loads the match's state into the host's cache
            if mid not in host._states:         # refused: quarantined (the log does not replay...)
                refused.add(mid)
                fail("not_loaded", mid, "not loaded (quarantined?)")

        async def play(mid: int) -> None:
            res = await host.status(mid)
            if not res.ok or mid not in host._states:
                return fail("not_played", mid, f"status: {res.error}")
            game = registry.get(game_of[mid])
            state = host._states[mid][-1]      # (n_commands, rewinds, state)
            for seat in game.to_act(state):
                legal = await host.legal(mid, seats_of[mid][seat])
                if legal:
                    res = await host.command(mid, seats_of[mid][seat], legal[0])
                    if not res.ok:
                        fail("not_played", mid, f"{legal[0]!r} refused: {res.error}")
                    return
            fail("not_played", mid, "no seat has a legal command")

        # warm every code path on one match of each game, then forget them, so imports and
        # engine caches are in the baseline
        first: dict[str, int] = {}
        for mid in ids:
            first.setdefault(game_of[mid], mid)
        for mid in first.values():
            await host.to_act(mid)
        host._states.clear()
        host._verified = type(host._verified)(host._verified.limit)
        gc.collect()
        before = rss_bytes()
        for mid in ids[:active]:
            await load(mid)
        gc.collect()
        after = rss_bytes()
        cached = len(host._states)
        for mid in ids[:active]:
            if mid not in refused:       # (one that did not load is counted already)
                await play(mid)
        rest = ids[active:loaded]
        for mid in rest:
            await load(mid)
        gc.collect()
        after_loaded = rss_bytes()
        cached_loaded = len(host._states)
        for mid in sorted(random.Random(7).sample(rest, min(sample, len(rest)))):
            if mid not in refused:
                await play(mid)         # (host.status loads it again if the cache let it go)
        quarantined = await store.quarantined()
        return {"matches": len(ids[:active]), "cached": cached, "rss_before": before, "rss_after": after,
                "loaded": len(ids[:loaded]), "cached_loaded": cached_loaded, "cache_size": host.cache_size,
                "rss_after_loaded": after_loaded,
                "played": min(active, len(ids)) + min(sample, len(rest)),
                "not_loaded": {g: len(v) for g, v in failed["not_loaded"].items()},
                "not_played": {g: len(v) for g, v in failed["not_played"].items()},
                "examples": [x for kind in failed.values() for v in kind.values() for x in v[:2]][:10],
                "quarantined": [[mid, reason] for mid, reason, _ in quarantined[:10]],
                "n_quarantined": len(quarantined)}
    finally:
        await store.close()


def main(argv: list[str]) -> int:
    if argv[:1] == ["startup"] and len(argv) == 2:
        asyncio.run(_startup(argv[1]))
        sys.stdout.flush()
        os._exit(0)  # discord.py may leave a waiting task behind when it never connected
    if argv[:1] == ["memory"] and len(argv) == 5:
        print(json.dumps(asyncio.run(_memory(argv[1], *map(int, argv[2:])))), flush=True)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
