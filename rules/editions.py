"""Rules editions of the card games, the part every game shares.

A card file may carry ``"editions": {"<N>": {...changes...}}``: the balance changes of rules
edition N.  Edition N's cards are the files' cards with the changes of every edition numbered up
to N applied, oldest first; a match keeps the edition it started under, so a later balance
change never alters a stored match or its replay.  What a change may touch is each game's own
(its card model differs): Art of War ``rules/art_of_war/cards.py``, Battle Logic Square
``rules/logic_square/editions.py``, Project Maken ``rules/maken/editions.py``, Avalon's
Sanctuary ``rules/avalon/editions.py``.  This module holds what they share: reading an
edition's number, collecting the patches of several files, folding them up to an edition, and
keeping each edition's result.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Generic, Mapping, TypeVar

T = TypeVar("T")
P = TypeVar("P")


def edition_number(key: Any, first: int) -> int | None:
    """The edition a card file's ``editions`` key names (a whole number ≥ ``first``), or None."""
    if not isinstance(key, (str, int)) or isinstance(key, bool) or not re.fullmatch(r"[1-9][0-9]*", str(key)):
        return None
    return int(key) if int(key) >= first else None


def known(value: object, editions: tuple[int, ...], game: str) -> int:
    """``value`` as one of a game's known ``editions`` (a match's or a record's), or ValueError."""
    if isinstance(value, bool) or value not in editions:
        raise ValueError(f"unknown {game} rules edition {value!r} (known: {editions})")
    return int(value)  # type: ignore[call-overload]


def number_error(first: int) -> str:
    """What a bad ``editions`` key is told (card data errors name the file and the key)."""
    earlier = "edition 1 is" if first == 2 else f"editions 1–{first - 1} are"
    return f"an edition is a whole number ≥ {first} ({earlier} the files' cards)"


def add_patch(patches: dict[int, Any], edition: int, patch: Any, fail: Callable[[str], Exception]) -> None:
    """Record one edition's changes; an edition changed twice (in one file or two) is refused."""
    if edition in patches:
        raise fail("edition changed twice (each edition's changes live in one place)")
    patches[edition] = patch


def upto(base: T, patches: Mapping[int, P], edition: int, step: Callable[[T, int, P], T]) -> T:
    """``base`` with ``step`` applied for every patch numbered up to ``edition``, oldest first."""
    for ed in sorted(patches):
        if ed > edition:
            break
        base = step(base, ed, patches[ed])
    return base


class PerEdition(Generic[T]):
    """Each edition's value, built once (``build(edition)``) and kept."""

    def __init__(self, build: Callable[[int], T]) -> None:
        self._build = build
        self._got: dict[int, T] = {}

    def __call__(self, edition: int) -> T:
        if edition not in self._got:
            self._got[edition] = self._build(edition)
        return self._got[edition]


__all__ = ["edition_number", "known", "number_error", "add_patch", "upto", "PerEdition"]
