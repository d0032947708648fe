"""Is a stored snapshot the replayed state?  (Pure: no I/O.)

:func:`host.integrity.replay` replays a match's whole log the first time a process loads it and
asks :func:`same_state` whether the stored snapshot is the state after ``snapshot_seq`` entries.
The rule: **a snapshot that lacks a key the engine has always written (e.g. ``'{}'``) fails; a
key added to an engine later is filled with its documented default and then compared.**

Both sides are JSON dumps (``game.dump``).  They are compared exactly — every key of either
side, every value, lists of the same length item by item — except that a key listed in
:data:`SNAPSHOT_DEFAULTS` for its game and place is filled with its default where a side lacks
it.  A snapshot written before the engine gained that key holds what the engine's ``load`` reads
for it (the same ``.get(key, default)``), so it passes exactly when the replayed state has the
default there; a replayed state with another value could not have been written by the old engine
for this log.  One more allowance, :data:`SNAPSHOT_CATALOGUES`: a game whose state copies its
whole card pool (every card of the edition, keyed by card id) gains an entry whenever a card is
added to the pool's files, so a card the snapshot lacks there is taken as the replayed one (the
snapshot predates the card); the entries it holds are compared exactly.  The lists (and the
commit that added each key) are in ``docs/scale.md``, "Snapshot check".
"""
from __future__ import annotations

import json
from typing import Any, Mapping

# Per game (registry name): the place of a dict in the dump -> {key added later: its default}.
# A place is the keys from the top joined with ".", "" the dump itself, "[]" every item of a list
# ("players[]": every player dict).  Every registered game has an entry (tests check), so a new
# engine states that it has none yet.  Found with ``git log -p`` on the engines' dump/load and
# the loads' ``.get(key, default)`` (docs/scale.md, "Snapshot check").
SNAPSHOT_DEFAULTS: dict[str, dict[str, dict[str, Any]]] = {
    "squares": {},
    "logic_square": {
        "": {"base": None,        # d45da53: the state a hidden chain window started from
             "edition": 1},       # 714b32e: rules editions (a state stored before: edition 1)
        "base": {"edition": 1},   # 714b32e: the same, in the window's base state
    },
    "maken": {
        "": {"edition": 1,        # 7e8d0b5: rules editions
             "rules": {}},        # 7e8d0b5: an edition's opening numbers (absent: the printed)
    },
    "art_of_war": {
        "": {"edition": 1},       # d1320d6: rules editions
        "base": {"edition": 1},   # d1320d6: the same, in the window's base state
    },
    "avalon": {
        "": {"moves": 0,          # d45da53: commands, joins and resignations applied so far
             "edition": 1},       # 0c321d2: rules editions
        "players[]": {"out_at": None},   # d45da53: ``moves`` when the player went out
    },
}

# Per game: places of a dict that holds the whole card pool, keyed by card id.  The pool grows
# (Avalon's Sanctuary: c37-c44 in d45da53, the avatars a5 and a6 in 4b123ac, for every edition),
# so an entry the snapshot lacks is filled with the replayed one.  The place itself is always
# written: a snapshot without it fails.
SNAPSHOT_CATALOGUES: dict[str, tuple[str, ...]] = {
    "maken": ("cards",),          # every character and card of the edition
    "avalon": ("defs",),          # every card of the edition (late joiners, replays)
}

_ABSENT = object()


class _Rules:
    """What :func:`_same` may fill in for one game."""

    __slots__ = ("defaults", "catalogues")

    def __init__(self, game: str | None) -> None:
        self.defaults: Mapping[str, Mapping[str, Any]] = SNAPSHOT_DEFAULTS.get(game or "", {})
        self.catalogues: tuple[str, ...] = SNAPSHOT_CATALOGUES.get(game or "", ())


def defaults_of(game: str | None) -> Mapping[str, Mapping[str, Any]]:
    """The later-added keys of ``game`` by place; none for an unknown game (or ``None``), whose
    snapshot is then compared key for key."""
    return _Rules(game).defaults


def same_state(stored: str, replayed: str, game: str | None = None) -> bool:
    """Is ``stored`` (a snapshot) the ``replayed`` dump of ``game``?  Equal text, or equal JSON
    once the keys ``game`` added later are filled with their defaults on both sides."""
    return problem(stored, replayed, game) is None


def problem(stored: str, replayed: str, game: str | None = None) -> str | None:
    """Where ``stored`` first differs from ``replayed`` (None: :func:`same_state` holds), for
    messages and tests."""
    if stored == replayed:
        return None
    try:
        a, b = json.loads(stored), json.loads(replayed)
    except (ValueError, RecursionError) as exc:
        return f"not JSON: {type(exc).__name__}"
    where: list[str] = []
    try:
        ok = _same(a, b, "", _Rules(game), where)
    except RecursionError:
        return "nested too deeply"
    return None if ok else (where[0] if where else "the top")


def _same(stored: Any, replayed: Any, place: str, rules: _Rules, where: list[str]) -> bool:
    if isinstance(stored, dict) or isinstance(replayed, dict):
        if not (isinstance(stored, dict) and isinstance(replayed, dict)):
            return _miss(where, place, "a dict on one side only")
        fill = rules.defaults.get(place, {})
        catalogue = place in rules.catalogues
        for key in stored.keys() | replayed.keys():
            a, b = stored.get(key, _ABSENT), replayed.get(key, _ABSENT)
            if a is _ABSENT and catalogue:
                continue                    # a card added to the pool after the snapshot
            if a is _ABSENT or b is _ABSENT:
                if key not in fill:
                    side = "the snapshot" if a is _ABSENT else "the replayed state"
                    return _miss(where, _join(place, key), f"missing in {side}")
                a, b = (fill[key], b) if a is _ABSENT else (a, fill[key])
            if not _same(a, b, _join(place, key), rules, where):
                return False
        return True
    if isinstance(stored, list) or isinstance(replayed, list):
        if not (isinstance(stored, list) and isinstance(replayed, list)):
            return _miss(where, place, "a list on one side only")
        if len(stored) != len(replayed):
            return _miss(where, place, f"{len(stored)} items, replayed {len(replayed)}")
        return all(_same(x, y, place + "[]", rules, where) for x, y in zip(stored, replayed))
    if isinstance(stored, bool) or isinstance(replayed, bool):
        ok = type(stored) is type(replayed) and stored == replayed
    elif isinstance(stored, (int, float)) and isinstance(replayed, (int, float)):
        ok = stored == replayed
    else:
        ok = type(stored) is type(replayed) and stored == replayed
    return ok or _miss(where, place, "another value")


def _join(place: str, key: str) -> str:
    return f"{place}.{key}" if place else key


def _miss(where: list[str], place: str, what: str) -> bool:
    where.append(f"{place or 'the top'}: {what}")
    return False


__all__ = ["SNAPSHOT_CATALOGUES", "SNAPSHOT_DEFAULTS", "defaults_of", "problem", "same_state"]
