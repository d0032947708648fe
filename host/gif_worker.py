"""The animated picture of a whole match (issue 35), drawn in a process of its own.

    result = await match_gif_bytes(rec, commands, locale="ja")     # render.gif.GifResult
    shutdown()                                                      # at the bot's close

A GIF of a long match is a few hundred pictures and takes seconds of CPU (docs/performance.md,
"Replays and the animated picture").  Drawing is Python holding the GIL, so in a thread of the
bot's process it would hold up the board pictures of every other match (they queue behind one
drawing slot, :data:`render.SLOTS`) and the event loop.  Here it runs in a separate process: one
worker (a GIF at a time: a second would only compete for the same cores), started with ``spawn``
(a fork of a running bot would copy its event loop, sockets and threads) and at a lower CPU
priority (``nice`` +10), so the operating system lets the bot's own process go first whenever
both want a core.  The pool is made on the first call and reused (a spawn costs the imports of
the engines and renderers, about a second).  A pool whose worker died (killed, out of memory) is
dropped and a new one started: at once when it was found broken before the call sent its work,
else the call that was drawing fails with ``BrokenProcessPool`` and the next call starts anew (a
GIF that kills its worker is not retried into killing the next).

What crosses to the worker is plain data — the record as a dict and the log as ``(seat,
command)`` pairs — rebuilt there, so nothing the store returns needs to pickle (a store's rows
may carry more than the dataclass fields).  The worker replays the log into the public steps
(:func:`host.replay_steps.public_steps`), takes the start position's public view and puts the
result on the last view when the host ended the match itself (:func:`host.replay._final_view`),
then draws with :func:`render.gif.match_gif` — public views only, as everywhere in a replay.
"""
from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Iterable, NamedTuple

from data import i18n
from host import worker_process
from render.gif import GifResult

NICE = 10                     # the worker's priority below the bot's

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


class _Command(NamedTuple):
    """A log entry as the replay reads it (``seat``, ``command``)."""

    seat: int
    command: str


def match_gif_of(rec: Any, commands: Iterable[Any], *, locale: Any = "en", game: Any = None) -> GifResult:
    """The GIF of ``rec`` (a :class:`data.store.MatchRecord`) from its stored log ``commands``
    (each with ``seat`` and ``command``), in this process: the public steps, the start view, the
    result on the last view, then :func:`render.gif.match_gif`.  ``game``: the engine that plays
    the match (a server's card set, :mod:`host.engines`; default the registered game)."""
    from host.engines import engine_of
    from host.replay import _final_view, _initial_state
    from host.replay_steps import public_steps
    from render.gif import match_gif

    if game is None:
        game = engine_of(rec)
    steps = public_steps(game, rec, commands)
    start = game.view(_initial_state(game, rec), None)
    if steps:
        steps[-1] = {**steps[-1], "view": _final_view(rec, steps[-1]["view"])}
    else:       # nothing public was played (resigned at once): the start is also the end
        start = _final_view(rec, start)
    return match_gif(rec.game, steps, start_view=start, names=list(rec.names), locale=locale)


def _draw(rec_fields: dict, log: list[tuple[int, str]], locale: Any, cards: dict | None = None) -> GifResult:
    """The worker's entry point (top level, so the pool can pickle a reference to it).  ``cards``:
    the fields of the card set version the match is played with (its engine is built here, once
    per worker, from the same stored content)."""
    from data.store import CardSetRow, MatchRecord
    from host import engines

    game = None
    if cards is not None:
        loaded = engines.cached(cards["id"]) or engines.remember(cards["id"], engines.build(CardSetRow(**cards)))
        game = loaded.engine
    return match_gif_of(MatchRecord(**rec_fields), [_Command(s, c) for s, c in log], locale=locale, game=game)


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=worker_process.start, initargs=(NICE,))
        return _pool


def _drop(pool: ProcessPoolExecutor) -> None:
    """Forget a broken pool (only if it is still the current one), so the next call makes another."""
    global _pool
    with _pool_lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


async def match_gif_bytes(rec: Any, commands: Iterable[Any], *, locale: Any = "en") -> GifResult:
    """:func:`match_gif_of` in the worker process, awaited without blocking the event loop."""
    from host import engines

    fields = {f.name: getattr(rec, f.name) for f in dataclasses.fields(rec)}
    log = [(int(c.seat), str(c.command)) for c in commands]
    ref = engines.card_ref(rec.meta)
    cards = None
    if ref is not None:          # the worker builds the same engine from the same stored content
        loaded = engines.cached(ref["id"])
        if loaded is None:
            raise engines.CardSetUnusable(f"card set {ref['id']} is not loaded in this process")
        cards = {f.name: getattr(loaded.row, f.name) for f in dataclasses.fields(loaded.row)}
    locale = i18n.locale_of(locale)         # a plain "en" / "ja", whatever the caller holds
    loop = asyncio.get_running_loop()
    pool = _executor()
    try:
        job = loop.run_in_executor(pool, _draw, fields, log, locale, cards)
    except BrokenProcessPool:      # it broke before this call (the idle worker was killed): a new one
        _drop(pool)
        pool = _executor()
        job = loop.run_in_executor(pool, _draw, fields, log, locale, cards)
    try:
        return await job
    except BrokenProcessPool:      # it died drawing this GIF: this call fails, the next starts anew
        _drop(pool)
        raise
    except KeyError:
        # a game the worker's fresh interpreter does not know: one registered at run time by a
        # plugin of the bot's own process (the engines of rules/ register on import).  Drawn
        # here instead, in a thread: rare, and the same bytes.
        from rules import registry

        if rec.game in registry.names():
            return await asyncio.to_thread(match_gif_of, rec, [_Command(s, c) for s, c in log], locale=locale)
        raise


def shutdown(wait: bool = True) -> None:
    """Stop the worker (at the bot's close; a later call starts a new one)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=wait, cancel_futures=True)
