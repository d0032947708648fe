"""The random stream of limited play: every pool, pack and stack is dealt from a recorded seed.

``Rng(seed, *labels)`` is a deterministic stream of bytes: block ``i`` is
SHA-256(seed ‖ labels ‖ i), each part length-prefixed so no two (seed, labels) pairs share a
stream (``Rng(s, "ab")`` is not ``Rng(s, "a", "b")``).  Nothing in it comes from :mod:`random`
or from the Python version, so the same seed deals the same pools on every machine, now and
later — which is what lets a pool be shown and dealt again exactly from its recorded seed.

Why not :class:`random.Random`: its algorithms (``shuffle``, ``randrange``) have changed between
Python versions, and a state shared across calls would make a deal depend on what was drawn
before it.  Here each deal makes its own stream from the seed and a label naming what it deals.

- :meth:`Rng.randbelow` is unbiased: it draws just enough bits for ``n`` and rejects a value
  ``>= n`` (never a modulo);
- :meth:`Rng.shuffle` is Fisher–Yates on a copy (the list given is left as it is);
- :meth:`Rng.sample` is a partial Fisher–Yates: ``k`` distinct positions of the sequence.

Seeds are at least :data:`MIN_SEED` bytes (the service makes 32 with :func:`new_seed`): a small
seed could be guessed, and a pool is hidden information until its draft ends.

>>> rng = Rng(bytes(32), "doc")
>>> [rng.randbelow(10) for _ in range(8)]
[8, 9, 4, 8, 8, 5, 5, 0]
>>> Rng(bytes(32), "doc").shuffle(list("abcdef"))
['e', 'd', 'f', 'c', 'b', 'a']
>>> Rng(bytes(32), "doc").sample(range(100), 3)
[72, 42, 16]
"""
from __future__ import annotations

import hashlib
import secrets
from typing import Any, Sequence

MIN_SEED = 16          # bytes; the service's seeds are 32
SEED_BYTES = 32


def new_seed() -> bytes:
    """A fresh seed of :data:`SEED_BYTES` random bytes (the operating system's generator)."""
    return secrets.token_bytes(SEED_BYTES)


def _part(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


class Rng:
    """A deterministic stream from ``seed`` and ``labels`` (see the module docstring)."""

    __slots__ = ("_base", "_counter", "_buffer", "_pos")

    def __init__(self, seed: bytes, *labels: str) -> None:
        if not isinstance(seed, (bytes, bytearray)):
            raise TypeError("a seed is bytes")
        if len(seed) < MIN_SEED:
            raise ValueError(f"a seed has at least {MIN_SEED} bytes, not {len(seed)}")
        if not all(isinstance(label, str) for label in labels):
            raise TypeError("the labels of a stream are texts")
        base = hashlib.sha256(b"limited-rng/1")
        base.update(_part(bytes(seed)))
        base.update(len(labels).to_bytes(4, "big"))
        for label in labels:
            base.update(_part(label.encode("utf-8")))
        self._base = base
        self._counter = 0
        self._buffer = b""
        self._pos = 0

    def _bytes(self, n: int) -> bytes:
        """The stream's next ``n`` bytes."""
        while len(self._buffer) - self._pos < n:
            block = self._base.copy()
            block.update(self._counter.to_bytes(8, "big"))
            self._counter += 1
            self._buffer = self._buffer[self._pos:] + block.digest()
            self._pos = 0
        out = self._buffer[self._pos:self._pos + n]
        self._pos += n
        return out

    def randbelow(self, n: int) -> int:
        """A whole number from 0 to ``n`` - 1, each equally likely (rejection, never a modulo)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"randbelow needs a whole number n >= 1, not {n!r}")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        size = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self._bytes(size), "big") & mask
            if value < n:
                return value

    def shuffle(self, items: Sequence[Any]) -> list:
        """A new list of ``items`` in a random order (Fisher–Yates; ``items`` is not changed)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def sample(self, items: Sequence[Any], k: int) -> list:
        """``k`` items at ``k`` distinct positions of ``items``, in the order drawn (a partial
        Fisher–Yates on a copy); ValueError when ``k`` is negative or more than there are."""
        pool = list(items)
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(pool):
            raise ValueError(f"cannot take {k!r} of {len(pool)}")
        n = len(pool)
        for i in range(k):
            j = i + self.randbelow(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


__all__ = ["Rng", "new_seed", "MIN_SEED", "SEED_BYTES"]
