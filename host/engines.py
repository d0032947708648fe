"""Which engine plays a match: the registered game, or the same game built from a server's card
set version (issue 36).

A match started with a server's set records it in ``meta["cards"]`` — ``{"id": <version row>,
"name", "version", "digest"}`` — and is played, replayed, drawn and judged by the AI with the
engine built from exactly that version (a version is never removed, so a stored match never
changes when the set does).  Engines are built once per process and kept (:data:`LIMIT` of
them, least recently used out first); building one validates the stored content again (a row
is checked when read) in a worker thread, off the event loop.

    game = await engine_for(store, rec)      # the engine of this match (loads the version once)
    game = engine_of(rec)                    # the same, already loaded (front ends, after a host call)

A version that cannot be read or no longer validates raises :class:`CardSetUnusable` (the host
quarantines the match, kind ``game``); a database that does not answer raises its
:class:`data.store.StoreError` as always ("try again").
"""
from __future__ import annotations

import asyncio
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from rules import registry

LIMIT = 64


class CardSetUnusable(Exception):
    """The card set version a match (or a request) names cannot be used: no such row, a row of
    another game, content that does not read or does not validate."""


@dataclass
class Loaded:
    """A version made ready: its row (without content), its content, the checked card set and
    the set's own ids, and the engine."""

    row: Any
    content: Any
    opened: Any
    engine: Any
    entries: Any = None         # its cards as people read them (host/card_sets.py, made on first use)


_cache: "OrderedDict[int, Loaded]" = OrderedDict()
_lock = threading.Lock()
_building: dict[int, "asyncio.Future[Loaded]"] = {}


def card_ref(meta: Any) -> dict | None:
    """A match's ``meta["cards"]``, checked (None: the shipped cards); ValueError if malformed."""
    ref = (meta or {}).get("cards") if isinstance(meta, dict) else None
    if ref is None:
        return None
    if not (isinstance(ref, dict) and type(ref.get("id")) is int and ref["id"] > 0
            and isinstance(ref.get("name"), str) and type(ref.get("version")) is int
            and isinstance(ref.get("digest"), str) and re.fullmatch(r"[0-9a-f]{64}", ref["digest"])):
        raise ValueError("meta.cards: not a card set reference {id, name, version, digest}")
    return ref


def reference(row: Any) -> dict:
    """What a match records of the version it is played with."""
    return {"id": int(row.id), "name": row.name, "version": int(row.version), "digest": row.digest}


def build(row: Any) -> Loaded:
    """A stored version's engine (CPU work: call it in a thread).  Checks the row against its
    content: the game, the digest, and that the cards still validate."""
    from data.card_sets import games
    from data.card_sets.build import open_content
    from data.card_sets.model import SetContent

    try:
        content = SetContent.from_json(row.content)
    except (ValueError, TypeError) as exc:
        raise CardSetUnusable(f"card set {row.id}: the content does not read: {exc}") from None
    if content.game != row.game:
        raise CardSetUnusable(f"card set {row.id}: content of {content.game!r}, row of {row.game!r}")
    if content.digest() != row.digest:
        raise CardSetUnusable(f"card set {row.id}: the content does not match its digest")
    try:
        opened = open_content(content)
    except ValueError as exc:
        raise CardSetUnusable(f"card set {row.id}: {exc}") from None
    engine = games.adapter(content.game).engine(opened.cardset, opened.own)
    return Loaded(row, content, opened, engine)


def remember(set_id: int, loaded: Loaded) -> Loaded:
    with _lock:
        _cache[set_id] = loaded
        _cache.move_to_end(set_id)
        while len(_cache) > LIMIT:
            _cache.popitem(last=False)
    return loaded


def cached(set_id: int) -> Loaded | None:
    with _lock:
        got = _cache.get(set_id)
        if got is not None:
            _cache.move_to_end(set_id)
        return got


async def load(store: Any, set_id: int, *, game: str | None = None) -> Loaded:
    """The version ``set_id`` made ready (built once per process; concurrent callers share one
    build).  ``game``: the game it must be of."""
    got = cached(set_id)
    if got is None:
        pending = _building.get(set_id)
        if pending is None:
            pending = asyncio.ensure_future(_load(store, set_id))
            _building[set_id] = pending
            pending.add_done_callback(lambda _f: _building.pop(set_id, None))
        got = await asyncio.shield(pending)
    if game is not None and got.row.game != game:
        raise CardSetUnusable(f"card set {set_id} is of {got.row.game!r}, not {game!r}")
    return got


async def _load(store: Any, set_id: int) -> Loaded:
    row = await store.get_card_set(set_id)
    if row is None or row.content is None:
        raise CardSetUnusable(f"card set {set_id}: no such stored version")
    return remember(set_id, await asyncio.to_thread(build, row))


def _ref_of(rec: Any) -> dict | None:
    """``rec``'s card set reference (None: shipped cards); :class:`CardSetUnusable` if malformed."""
    try:
        return card_ref(rec.meta)
    except ValueError as exc:
        raise CardSetUnusable(str(exc)) from None


async def engine_for(store: Any, rec: Any) -> Any:
    """The engine that plays ``rec`` (see the module docstring)."""
    ref = _ref_of(rec)
    if ref is None:
        return registry.get(rec.game)
    loaded = await load(store, ref["id"], game=rec.game)
    if loaded.row.digest != ref["digest"]:
        raise CardSetUnusable(f"card set {ref['id']}: the match names another version")
    return loaded.engine


def engine_of(rec: Any) -> Any:
    """The engine of ``rec`` when it is loaded (a front end after a host call on the match):
    the registered game for shipped cards; raises :class:`CardSetUnusable` for a version this
    process has not loaded."""
    return engine_named(rec.game, _ref_of(rec))


def engine_named(game: str, ref: Any) -> Any:
    """The engine of ``game`` with the card set version ``ref`` (a match's or an event's
    ``cards``; None: the registered game), when it is loaded; raises :class:`CardSetUnusable`
    for a version this process has not loaded."""
    if ref is None:
        return registry.get(game)
    got = cached(int(ref["id"])) if isinstance(ref, dict) and type(ref.get("id")) is int else None
    if got is None or got.row.game != game:
        raise CardSetUnusable(f"card set {ref!r} is not loaded in this process")
    return got.engine


def shown_engine(rec: Any) -> Any:
    """The engine to word ``rec``'s options and decks with: its own when loaded, else the
    registered game (the names of options are the same; only a set's own decks would then show
    by their ids)."""
    try:
        return engine_of(rec)
    except CardSetUnusable:
        return registry.get(rec.game)


def forget() -> None:
    """Drop every loaded version (tests)."""
    with _lock:
        _cache.clear()


__all__ = ["CardSetUnusable", "Loaded", "card_ref", "reference", "build", "load", "engine_for", "engine_of",
           "cached", "remember", "forget", "shown_engine", "engine_named", "LIMIT"]
