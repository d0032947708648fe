"""How the bot's process keeps Python's cyclic garbage collector out of the way (what
``bot.py`` does once its cogs are loaded, and ``python -m bench`` before it measures, so the
figures are the bot's).

A long-running bot holds many objects made at start that live until it stops (modules, the
catalogs, card tables, fonts, discord.py's caches).  Python's full collections walk all of them
again and again: on a small server one takes 20–40 ms, a pause in whatever the loop was doing —
the statistics of a match that just ended, a board being answered (``bench --stats`` measured
it: the slowest 1 % of counts were the collections').  So, once at start:

- :func:`gc.freeze` moves everything alive then into a generation the collector never walks
  (the objects are still freed as usual when nothing refers to them);
- the youngest generation is collected after 10,000 allocations instead of 700: objects freed by
  their reference count (nearly all of them) never wait for it, and a collection comes ~14 times
  less often.
"""
from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000


def settle() -> None:
    """Freeze what start made and collect the young generation less often (once, at start)."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)


__all__ = ["settle", "YOUNG_THRESHOLD"]
