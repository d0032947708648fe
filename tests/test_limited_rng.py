"""The random stream of limited play (host/limited/rng.py): SHA-256 of the seed, the labels and a
counter, the same on every Python version; unbiased draws; no small seed."""
from __future__ import annotations

import hashlib
from collections import Counter
from itertools import permutations

import pytest

from host.limited.rng import MIN_SEED, Rng, new_seed

SEED = bytes(range(32))


def first_block(seed: bytes, *labels: str) -> bytes:
    """Block 0 of the stream, written out from the module's description (length-prefixed parts)."""
    data = b"limited-rng/1" + len(seed).to_bytes(4, "big") + seed + len(labels).to_bytes(4, "big")
    for label in labels:
        raw = label.encode("utf-8")
        data += len(raw).to_bytes(4, "big") + raw
    return hashlib.sha256(data + (0).to_bytes(8, "big")).digest()


def test_the_stream_is_sha256_of_seed_labels_and_counter():
    """randbelow(256) takes one byte a draw (no rejection: 8 bits, 256 values): the first 32
    draws are block 0 byte for byte, the 33rd the first byte of block 1."""
    rng = Rng(SEED, "deal", "draft 7")
    assert bytes(rng.randbelow(256) for _ in range(32)) == first_block(SEED, "deal", "draft 7")
    data = b"limited-rng/1" + (32).to_bytes(4, "big") + SEED + (2).to_bytes(4, "big") + \
        (4).to_bytes(4, "big") + b"deal" + (7).to_bytes(4, "big") + b"draft 7"
    assert rng.randbelow(256) == hashlib.sha256(data + (1).to_bytes(8, "big")).digest()[0]


def test_fixed_values_stay_fixed():
    """A change of algorithm would deal other pools from recorded seeds: these values pin it."""
    rng = Rng(bytes(32), "doc")
    assert [rng.randbelow(10) for _ in range(8)] == [8, 9, 4, 8, 8, 5, 5, 0]
    assert Rng(bytes(32), "doc").shuffle(list("abcdef")) == ["e", "d", "f", "c", "b", "a"]
    assert Rng(bytes(32), "doc").sample(range(100), 3) == [72, 42, 16]


def test_the_same_seed_and_labels_give_the_same_stream_and_others_another():
    def draws(seed: bytes, *labels: str) -> list[int]:
        rng = Rng(seed, *labels)
        return [rng.randbelow(1000) for _ in range(20)]
    assert draws(SEED, "a") == draws(SEED, "a")
    assert draws(SEED, "a") != draws(bytes(reversed(SEED)), "a")
    assert draws(SEED, "a") != draws(SEED, "b")
    assert draws(SEED, "ab") != draws(SEED, "a", "b")           # labels are length-prefixed
    assert draws(SEED) != draws(SEED, "")


def test_randbelow_stays_below_n_and_rejects_rather_than_folds():
    """n = 3 needs 2 bits: a 3 is drawn a quarter of the time and thrown away, so 0, 1 and 2
    come equally often (a modulo would make 0 twice as likely)."""
    rng = Rng(SEED, "uniform")
    counts = Counter(rng.randbelow(3) for _ in range(6000))
    assert set(counts) == {0, 1, 2}
    assert all(1850 <= n <= 2150 for n in counts.values()), counts
    big = Rng(SEED, "big")
    assert all(0 <= big.randbelow(10 ** 12 + 7) < 10 ** 12 + 7 for _ in range(200))
    assert Rng(SEED).randbelow(1) == 0
    for bad in (0, -1, 2.0, True, "3"):
        with pytest.raises(ValueError):
            Rng(SEED).randbelow(bad)


def test_shuffle_is_a_uniform_permutation_and_leaves_its_input_alone():
    items = ["a", "b", "c"]
    rng = Rng(SEED, "perm")
    seen = Counter(tuple(rng.shuffle(items)) for _ in range(6000))
    assert set(seen) == set(permutations(items))
    assert all(880 <= n <= 1120 for n in seen.values()), seen
    assert items == ["a", "b", "c"]
    assert Rng(SEED).shuffle([]) == [] and Rng(SEED).shuffle(("x",)) == ["x"]


def test_sample_takes_distinct_positions_and_refuses_more_than_there_are():
    rng = Rng(SEED, "sample")
    got = rng.sample(range(50), 50)
    assert sorted(got) == list(range(50))
    assert len(set(Rng(SEED).sample(["a", "a", "b"], 3))) == 2          # positions, not values
    assert Rng(SEED).sample("abc", 0) == []
    # a partial Fisher–Yates: a smaller sample is the start of a larger one
    assert Rng(SEED, "p").sample(range(30), 5) == Rng(SEED, "p").sample(range(30), 12)[:5]
    for k in (-1, 4, 1.5, True):
        with pytest.raises(ValueError):
            Rng(SEED).sample("abc", k)


def test_a_small_or_non_bytes_seed_and_non_text_labels_are_refused():
    with pytest.raises(ValueError):
        Rng(b"x" * (MIN_SEED - 1))
    with pytest.raises(TypeError):
        Rng("0" * 32)                   # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Rng(SEED, 7)                    # type: ignore[arg-type]
    Rng(b"x" * MIN_SEED)
    one, two = new_seed(), new_seed()
    assert len(one) == 32 and one != two


def test_the_modules_examples_hold():
    import doctest

    from host.limited import rng
    assert doctest.testmod(rng).failed == 0
