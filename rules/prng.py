"""The engines' random stream: keyed BLAKE2b in counter mode, fully determined by the seed.

Why: every hidden card (hands, deck orders, face-down IT cards, next draws) follows from the
match's seed and its command log.  The first engines used splitmix64 seeded with a 31-bit
number.  A player who knows their own opening hand and the public log could try every seed
(2^31 of them: about 90 s on a laptop) and so learn the opponent's hand and the whole deck order.
splitmix64 is also invertible: a few outputs give its 64-bit state back.

Version 2 (:data:`KEYED`, the default) closes both doors:

* **the seed** is 128 bits from :mod:`secrets` (the host draws it), so it cannot be guessed or
  scanned (2^128 candidates);
* **the stream** is ``BLAKE2b(key=K, message=counter)``, 64 bits per draw, where
  ``K = BLAKE2b(seed, person="doujin-prng-v2")`` (256 bits).  BLAKE2b keyed is a pseudo-random
  function: what players see (shuffles, who goes first, random discards) are functions of its
  outputs, and no number of outputs reveals K or any other output.  Recovering the next draw is
  as hard as guessing K or the 128-bit seed.

It stays deterministic: the same (seed, command log) always gives the same match, so replays,
exported records and the tests keep working.  The stream's state is a short string
``"k2:<key hex>:<counter>"`` kept in the engine state (immutable, JSON-able, copied with the
state).  A match stored before version 2 has ``prng = 1`` in its record and replays with the
engine's original splitmix64 (an ``int`` state), exactly as it was played.

Nothing here is a secret by itself: the secret is the seed, which the host keeps out of every
message and log until the match is over.

>>> x = start(7)
>>> x, a = draw(x)
>>> x, b = draw(x)
>>> (a, b) == (draw(start(7))[1], draw(draw(start(7))[0])[1])
True
>>> a != b and 0 <= a < 2 ** 64
True
"""
from __future__ import annotations

import hashlib
from functools import lru_cache

LEGACY = 1        # splitmix64 in the engine, seeded with the record's (31-bit) seed
KEYED = 2         # keyed BLAKE2b counter stream (this module)
CURRENT = KEYED   # what new matches use
VERSIONS = (LEGACY, KEYED)
SEED_BITS = 128   # the host's seeds (secrets.randbits)

_PREFIX = "k2:"
_M64 = (1 << 64) - 1
_PERSON = b"doujin-prng-v2"


def check(version: object) -> int:
    """``version`` as an int if it is a known PRNG version, else ValueError."""
    if isinstance(version, bool) or version not in VERSIONS:
        raise ValueError(f"unknown PRNG version {version!r} (known: {', '.join(map(str, VERSIONS))})")
    return int(version)  # type: ignore[call-overload]


def start(seed: int) -> str:
    """The stream's first state for ``seed`` (any int; the host uses 128 random bits)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    key = hashlib.blake2b(str(seed).encode("ascii"), digest_size=32, person=_PERSON).hexdigest()
    return f"{_PREFIX}{key}:0"


@lru_cache(maxsize=1024)
def _mac(key_hex: str) -> "hashlib._Hash":
    return hashlib.blake2b(key=bytes.fromhex(key_hex), digest_size=8)


def draw(state: str) -> tuple[str, int]:
    """(next state, a 64-bit output).  Raises ValueError for a state that is not a stream's."""
    if type(state) is not str or not state.startswith(_PREFIX):
        raise ValueError("not a keyed PRNG state")
    key, sep, n = state[len(_PREFIX):].partition(":")
    if not sep or len(key) != 64 or not n.isdigit():
        raise ValueError("malformed keyed PRNG state")
    i = int(n)
    h = _mac(key).copy()
    h.update(i.to_bytes(16, "little"))
    return f"{_PREFIX}{key}:{i + 1}", int.from_bytes(h.digest(), "little")


def step(state: int | str) -> tuple[int | str, int]:
    """(next state, a 64-bit output) of an engine's stream: :func:`draw` for a keyed state, else
    the engines' original splitmix64 (an ``int`` state: matches stored with prng version 1)."""
    if type(state) is str:
        return draw(state)
    state = (state + 0x9E3779B97F4A7C15) & _M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return state, z ^ (z >> 31)


def is_keyed(state: object) -> bool:
    return type(state) is str and state.startswith(_PREFIX)


def valid_state(state: object) -> bool:
    """A stored engine ``rng`` value: a legacy 64-bit int or a well-formed keyed state."""
    if type(state) is int:
        return 0 <= state < 2 ** 64
    try:
        draw(state)  # type: ignore[arg-type]
    except ValueError:
        return False
    return True
