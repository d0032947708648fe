"""The suite's own order (tests/conftest.py, ``spread_longest``): each slice ``--dist worksteal``
cuts for a worker begins with its share of the longest modules' tests, so no worker is left
with a forty-second scenario when the others are done; every test is kept, each once."""
from __future__ import annotations

from dataclasses import dataclass

from conftest import spread_longest


@dataclass(frozen=True)
class Item:
    fspath: str
    n: int


def _slices(items: list, workers: int) -> list[list]:
    """The slices worksteal's first schedule cuts: ``len(pending) // nodes_remaining`` each."""
    out, left = [], list(items)
    for i in range(workers):
        size = len(left) // (workers - i)
        out.append(left[:size])
        left = left[size:]
    return out


def test_every_workers_slice_starts_with_its_share_of_the_longest_tests():
    items = [Item(f"tests/test_{m}.py", k) for m in "abcdefgh" for k in range(10)]
    items += [Item("tests/e2e/test_long_e2e.py", k) for k in range(3)] + [Item("tests/test_longer.py", k) for k in range(5)]
    rank = {"test_longer.py": 0, "test_long_e2e.py": 1}
    ordered = spread_longest(items, 4, rank)
    assert sorted(ordered, key=id) == sorted(items, key=id) and len(ordered) == len(items)
    slices = _slices(ordered, 4)
    heads = [[it.fspath.rsplit("/", 1)[1] for it in s[:2]] for s in slices]
    assert heads == [["test_longer.py", "test_longer.py"], ["test_longer.py", "test_long_e2e.py"],
                     ["test_longer.py", "test_long_e2e.py"], ["test_longer.py", "test_long_e2e.py"]]
    rest = [it for it in ordered if "long" not in it.fspath]
    assert rest == [it for it in items if "long" not in it.fspath], "the others keep their order"


def test_without_workers_the_longest_come_first():
    items = [Item("tests/test_a.py", 0), Item("tests/test_slow.py", 0), Item("tests/test_b.py", 0)]
    assert [it.fspath for it in spread_longest(items, 1, {"test_slow.py": 0})] == \
        ["tests/test_slow.py", "tests/test_a.py", "tests/test_b.py"]


def test_a_run_of_long_tests_only_keeps_every_test():
    items = [Item("tests/test_slow.py", k) for k in range(5)]
    ordered = spread_longest(items, 4, {"test_slow.py": 0})
    assert sorted(ordered, key=lambda it: it.n) == items


def test_waiting_tests_are_dealt_to_every_slice_and_none_ends_one():
    """The end-to-end tests mostly wait: collected together they would all go to the first
    worker's slice and, taken from its end by the idle workers, make the last minute one of
    every worker waiting.  Dealt round, each slice has its share, spread over its first three
    quarters, and ends with computing tests."""
    items = [Item(f"tests/e2e/test_{m}_e2e.py", k) for m in "ab" for k in range(12)]
    items += [Item(f"tests/test_{m}.py", k) for m in "cdefgh" for k in range(40)]
    items += [Item("tests/test_longer.py", k) for k in range(4)]
    ordered = spread_longest(items, 4, {"test_longer.py": 0}, waiting=lambda it: "e2e" in it.fspath)
    assert sorted(ordered, key=id) == sorted(items, key=id) and len(ordered) == len(items)
    for part in _slices(ordered, 4):
        assert part[0].fspath == "tests/test_longer.py"
        waits = [i for i, it in enumerate(part) if "e2e" in it.fspath]
        assert len(waits) == 6, [it.fspath for it in part]
        assert max(waits) < 0.8 * len(part) and min(waits) < 0.2 * len(part), waits
        assert "e2e" not in part[-1].fspath
    computing = [it for it in ordered if "e2e" not in it.fspath and "longer" not in it.fspath]
    assert computing == [it for it in items if "e2e" not in it.fspath and "longer" not in it.fspath], \
        "the computing tests keep their order"
