"""Dealing limited play: cube packs, booster packs, sealed pools and the Winston stack.

Everything here is dealt from a recorded seed through :class:`host.limited.rng.Rng` (the service
makes one stream a deal, :func:`deal_rng`), and nothing else: no clock, no shared random
state.  **Dealing again with the recorded seed, the same set version (its declaration or default
cube) and the same numbers (players, packs, size) gives the very same packs and pools**, card for
card and in the same order — so a pool can be shown again, checked, or dealt again after a
restart.  The seed stays secret until the draft ends: a pool is hidden information.

- A pack is a ``tuple[str, ...]`` of card ids; packs are returned as ``packs[round][seat]``
  (what :mod:`host.limited.draft` takes), rounds and seats counted from 0.
- :func:`cube_packs` deals a cube: every card at most once across all the packs (a cube draft
  never repeats a card), refused with :class:`DealError` when the cube is too small, naming how
  many cards are needed.
- :func:`booster_packs` deals the set's declared boosters: each pack filled slot by slot, in the
  slots' order (a slot's cards drawn from :func:`data.card_sets.limited.slot_cards`); within one
  pack no card twice, across packs a card may come again, as in printed boosters.  A declaration
  that passed the upload's check can always be filled (:func:`data.card_sets.limited.slot_problems`).
- :func:`sealed_pools` opens each player's packs into one pool (the packs' order, then the
  cards' order in each pack).
- :func:`winston_stack` is the one shuffled stack of a Winston draft, from a cube: every card at
  most once.

Each deal draws from the stream in a fixed order (rounds, then seats, then slots), so one
more player or pack changes the deal from that point on, never what is dealt before it.

>>> from host.limited.rng import Rng
>>> cube = [f"c{i:02}" for i in range(12)]
>>> packs = cube_packs(cube, 2, 2, 3, Rng(bytes(32), "doc"))
>>> [len(p) for rnd in packs for p in rnd], len({c for rnd in packs for p in rnd for c in p})
([3, 3, 3, 3], 12)
>>> packs == cube_packs(cube, 2, 2, 3, Rng(bytes(32), "doc"))
True
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from data.card_sets.limited import Limited, default_cube, slot_cards
from host.limited.rng import Rng

DEAL_LABEL = "limited/deal"


class DealError(ValueError):
    """A deal that cannot be made: ``key`` (``limited.deal.…`` in the catalog) and ``params``
    say why in the reader's language; the message is the English one."""

    def __init__(self, key: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.key, self.params = key, params


def deal_rng(seed: bytes, *labels: str) -> Rng:
    """The stream of one deal: the recorded ``seed``, and ``labels`` naming what it deals when
    one seed deals several things (a draft's packs and a Winston stack of the same event)."""
    return Rng(seed, DEAL_LABEL, *labels)


def _whole(value: Any, name: str, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name} must be a whole number from {low}, not {value!r}")
    return value


def _distinct(cube: Sequence[str]) -> list[str]:
    cards = list(cube)
    if len(set(cards)) != len(cards):
        seen: set[str] = set()
        twice = next(c for c in cards if c in seen or seen.add(c))    # type: ignore[func-returns-value]
        raise ValueError(f"a cube holds each card once: {twice!r} is in it twice")
    return cards


def cube_packs(cube: Sequence[str], players: int, packs: int, size: int, rng: Rng) -> list[list[tuple[str, ...]]]:
    """``packs`` rounds of one pack of ``size`` cards for each of ``players`` seats, from the
    ``cube``: every card at most once.  :class:`DealError` when the cube holds fewer than
    ``players × packs × size`` cards (the message names how many are needed)."""
    players, packs, size = _whole(players, "players"), _whole(packs, "packs"), _whole(size, "size")
    cards = _distinct(cube)
    need = players * packs * size
    if len(cards) < need:
        raise DealError("limited.deal.too_small",
                        f"the cube holds {len(cards)} cards; {players} players × {packs} packs of {size} need {need}",
                        have=len(cards), players=players, packs=packs, size=size, need=need)
    drawn = rng.sample(cards, need)
    return [[tuple(drawn[(r * players + s) * size:(r * players + s + 1) * size]) for s in range(players)]
            for r in range(packs)]


def booster_packs(decl: Limited, players: int, rng: Rng,
                  kinds: Mapping[str, str] | None = None) -> list[list[tuple[str, ...]]]:
    """The declared boosters of ``decl`` for ``players`` seats: ``decl.boosters.packs`` rounds,
    each pack filled slot by slot (see the module docstring).  ``kinds`` (card id → kind, the
    set's cards) is needed when a slot names a kind.  ValueError: the set declares no boosters,
    or a slot cannot be filled (a declaration the upload's check did not pass)."""
    players = _whole(players, "players")
    boosters = decl.boosters
    if boosters is None:
        raise ValueError("the set declares no boosters")
    rarities = dict(decl.rarities)
    slots = [(slot.count, cards, set(cards)) for slot in boosters.slots
             for cards in [slot_cards(slot, rarities, kinds)]]
    out: list[list[tuple[str, ...]]] = []
    for _round in range(boosters.packs):
        row = []
        for _seat in range(players):
            pack: list[str] = []
            used: set[str] = set()
            for count, cards, members in slots:
                free = cards if used.isdisjoint(members) else [c for c in cards if c not in used]
                if len(free) < count:
                    raise ValueError(f"a slot of {count} cards has only {len(free)} left to fill it")
                got = rng.sample(free, count)
                pack += got
                used.update(got)
            row.append(tuple(pack))
        out.append(row)
    return out


def sealed_pools(packs: Sequence[Sequence[Sequence[str]]]) -> list[list[str]]:
    """Each seat's packs (``packs[round][seat]``) opened into one pool: ``pools[seat]``, the
    first round's pack first, each pack's cards in their order."""
    if not packs:
        return []
    seats = len(packs[0])
    if any(len(row) != seats for row in packs):
        raise ValueError("every round deals one pack to every seat")
    return [[card for row in packs for card in row[seat]] for seat in range(seats)]


def winston_stack(cube: Sequence[str], size: int, rng: Rng) -> list[str]:
    """The shuffled stack of a Winston draft: ``size`` cards of the ``cube``, each at most once
    (the top of the stack first).  :class:`DealError` when the cube holds fewer."""
    size = _whole(size, "size")
    cards = _distinct(cube)
    if len(cards) < size:
        raise DealError("limited.deal.stack_too_small", f"the cube holds {len(cards)} cards; a stack of {size} "
                        f"needs as many", have=len(cards), need=size)
    return rng.sample(cards, size)


def cube_of(decl: Limited | None, entries: Iterable[Any], game: str) -> list[str]:
    """The cube a set is drafted from: its declared ``cube``, else every pool card once
    (:func:`data.card_sets.limited.default_cube`; ``entries``: the set's
    :class:`data.card_sets.model.Entry` s)."""
    if decl is not None and decl.cube is not None:
        return list(decl.cube)
    return default_cube(entries, game)


__all__ = ["DealError", "DEAL_LABEL", "deal_rng", "cube_packs", "booster_packs", "sealed_pools", "winston_stack",
           "cube_of"]
