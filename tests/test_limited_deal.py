"""Dealing limited play (host/limited/deal.py): cube packs with no card twice, boosters filled
slot by slot, sealed pools, the Winston stack — each the same again from the recorded seed and
another from another seed, every refusal, and a small deal checked by hand."""
from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest

from data.card_sets import games
from data.card_sets.build import build_set
from data.card_sets.limited import Limited
from data.card_sets.upload import read_upload
from host.limited.deal import (DealError, booster_packs, cube_of, cube_packs, deal_rng, sealed_pools,
                               winston_stack)

SEED = bytes(range(32))
OTHER = bytes(range(1, 33))
CUBE = [f"c{i:03}" for i in range(360)]


def flat(packs: list) -> list[str]:
    return [card for row in packs for pack in row for card in pack]


# --------------------------------------------------------------------------- cube
def test_a_cube_deal_is_packs_by_round_and_seat_with_no_card_twice():
    packs = cube_packs(CUBE, 8, 3, 15, deal_rng(SEED))
    assert len(packs) == 3 and all(len(row) == 8 for row in packs)
    assert all(isinstance(p, tuple) and len(p) == 15 for row in packs for p in row)
    cards = flat(packs)
    assert len(cards) == 360 and set(cards) == set(CUBE)       # a cube of exactly what is needed: all of it


def test_the_same_seed_deals_the_same_packs_and_another_seed_others():
    again = cube_packs(CUBE, 8, 3, 15, deal_rng(SEED))
    assert cube_packs(CUBE, 8, 3, 15, deal_rng(SEED)) == again
    assert cube_packs(CUBE, 8, 3, 15, deal_rng(OTHER)) != again
    assert cube_packs(CUBE, 8, 3, 15, deal_rng(SEED, "winston")) != again
    # one more round of packs leaves the rounds before it as they were
    two, three = cube_packs(CUBE, 4, 2, 15, deal_rng(SEED)), cube_packs(CUBE, 4, 3, 15, deal_rng(SEED))
    assert three[:2] == two


def test_a_small_deal_checked_by_hand():
    """Four cards, one seat, one pack of three: a partial Fisher–Yates worked out from the bytes
    of SHA-256 itself.  randbelow(4) is a byte's low 2 bits; randbelow(3) the same, a 3 thrown
    away; randbelow(2) a byte's low bit.  Swap position 0 with 0 + randbelow(4), 1 with
    1 + randbelow(3), 2 with 2 + randbelow(2): the pack is the first three."""
    def part(data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + data
    block = hashlib.sha256(b"limited-rng/1" + part(SEED) + (2).to_bytes(4, "big") + part(b"limited/deal")
                           + part(b"hand") + (0).to_bytes(8, "big")).digest()
    stream = iter(block)
    cards = ["a", "b", "c", "d"]
    for i, (n, mask) in enumerate(((4, 3), (3, 3), (2, 1))):
        draw = next(stream) & mask
        while draw >= n:
            draw = next(stream) & mask
        cards[i], cards[i + draw] = cards[i + draw], cards[i]
    packs = cube_packs(["a", "b", "c", "d"], 1, 1, 3, deal_rng(SEED, "hand"))
    assert packs == [[tuple(cards[:3])]]
    assert packs == [[("c", "d", "b")]]                      # the values, pinned


def test_a_cube_too_small_is_refused_naming_how_many_are_needed():
    with pytest.raises(DealError) as err:
        cube_packs(CUBE[:100], 8, 3, 15, deal_rng(SEED))
    assert err.value.key == "limited.deal.too_small" and err.value.params["need"] == 360
    assert "360" in str(err.value)
    from data import i18n
    assert "360" in i18n.t(err.value.key, "ja", **err.value.params)
    with pytest.raises(ValueError, match="twice"):
        cube_packs(["a", "b", "a", "c"], 1, 1, 2, deal_rng(SEED))
    for players, packs, size in ((0, 1, 1), (1, 0, 1), (1, 1, 0), (True, 1, 1)):
        with pytest.raises(ValueError):
            cube_packs(CUBE, players, packs, size, deal_rng(SEED))


# --------------------------------------------------------------------------- boosters
RARE = [f"r{i}" for i in range(4)]
UNCOMMON = [f"u{i:02}" for i in range(12)]
COMMON = [f"k{i:02}" for i in range(40)]


def declared(slots: list[dict], size: int, packs: int = 3, **more) -> Limited:
    return Limited.from_json({"rarities": {"rare": RARE, "uncommon": UNCOMMON, "common": COMMON},
                              "boosters": {"packs": packs, "size": size, "slots": slots}, **more})


def test_boosters_are_filled_slot_by_slot_with_no_card_twice_in_a_pack():
    decl = declared([{"rarity": "rare", "count": 1}, {"rarity": "uncommon", "count": 3},
                     {"rarity": "common", "count": 10}], 14)
    packs = booster_packs(decl, 8, deal_rng(SEED))
    assert len(packs) == 3 and all(len(row) == 8 for row in packs)
    for row in packs:
        for pack in row:
            assert len(pack) == 14 and len(set(pack)) == 14
            assert pack[0] in RARE and set(pack[1:4]) <= set(UNCOMMON) and set(pack[4:]) <= set(COMMON)
    # across packs a card may come again, as in printed boosters: 24 rares from 4
    rares = Counter(pack[0] for row in packs for pack in row)
    assert sum(rares.values()) == 24 and max(rares.values()) > 1
    assert booster_packs(decl, 8, deal_rng(SEED)) == packs
    assert booster_packs(decl, 8, deal_rng(OTHER)) != packs


def test_slots_that_share_cards_never_put_one_twice_in_a_pack():
    """A slot of any 3 uncommons after a slot of 9 uncommons: the 12 uncommons, each once."""
    decl = declared([{"rarity": "uncommon", "count": 9}, {"rarity": "uncommon", "count": 3}], 12, packs=5)
    for row in booster_packs(decl, 4, deal_rng(SEED)):
        for pack in row:
            assert sorted(pack) == UNCOMMON


def test_a_kind_slot_draws_every_card_of_its_kind_and_needs_the_kinds():
    kinds = {**{c: "resource" for c in COMMON}, **{c: "it" for c in ("it1", "it2", "it3")}}
    decl = declared([{"rarity": "common", "count": 4}, {"kind": "it", "count": 1}], 5, packs=2)
    packs = booster_packs(decl, 3, deal_rng(SEED), kinds)
    assert all(pack[4] in ("it1", "it2", "it3") and set(pack[:4]) <= set(COMMON) for row in packs for pack in row)
    with pytest.raises(ValueError, match="kinds"):
        booster_packs(decl, 3, deal_rng(SEED))
    both = declared([{"rarity": "common", "kind": "it", "count": 5}], 5)
    with pytest.raises(ValueError):                         # no common is an IT card: cannot be filled
        booster_packs(both, 1, deal_rng(SEED), kinds)
    with pytest.raises(ValueError, match="no boosters"):
        booster_packs(Limited(), 2, deal_rng(SEED))


def test_boosters_of_an_uploaded_set_deal_its_it_slot_from_its_it_cards():
    adapter = games.adapter("logic_square")
    cardset, _ = adapter.validate(adapter.shipped_files(None))
    kinds = adapter.card_kinds(cardset)
    res = sorted(c for c, k in kinds.items() if k == "resource")
    decl = {"rarities": {"common": res[:25], "rare": res[25:]},
            "boosters": {"packs": 3, "size": 8, "slots": [{"rarity": "rare", "count": 1},
                                                          {"rarity": "common", "count": 6}, {"kind": "it", "count": 1}]}}
    files, read = read_upload("limited.json", json.dumps({"limited": decl}).encode())
    built = build_set("logic_square", files, "extend", read_problems=read)
    assert built.ok
    packs = booster_packs(built.limited, 6, deal_rng(SEED), adapter.card_kinds(built.cardset))
    assert all(kinds[pack[-1]] == "it" and pack[0] in res[25:] for row in packs for pack in row)


# --------------------------------------------------------------------------- sealed and Winston
def test_sealed_pools_open_each_seats_packs_in_round_order():
    packs = [[("a", "b"), ("c", "d")], [("e",), ("f", "g")]]
    assert sealed_pools(packs) == [["a", "b", "e"], ["c", "d", "f", "g"]]
    assert sealed_pools([]) == []
    with pytest.raises(ValueError):
        sealed_pools([[("a",), ("b",)], [("c",)]])
    dealt = cube_packs(CUBE, 6, 3, 15, deal_rng(SEED, "sealed"))
    pools = sealed_pools(dealt)
    assert [len(p) for p in pools] == [45] * 6 and len(set(c for p in pools for c in p)) == 270
    assert sealed_pools(cube_packs(CUBE, 6, 3, 15, deal_rng(SEED, "sealed"))) == pools


def test_a_winston_stack_is_a_shuffled_part_of_the_cube_each_card_once():
    stack = winston_stack(CUBE, 90, deal_rng(SEED, "winston"))
    assert len(stack) == 90 and len(set(stack)) == 90 and set(stack) <= set(CUBE)
    assert winston_stack(CUBE, 90, deal_rng(SEED, "winston")) == stack
    assert winston_stack(CUBE, 90, deal_rng(OTHER, "winston")) != stack
    with pytest.raises(DealError) as err:
        winston_stack(CUBE[:10], 90, deal_rng(SEED))
    assert err.value.key == "limited.deal.stack_too_small" and err.value.params == {"have": 10, "need": 90}
    with pytest.raises(ValueError):
        winston_stack(["a", "a"], 1, deal_rng(SEED))


def test_the_cube_is_the_declared_one_or_every_pool_card():
    adapter = games.adapter("maken")
    cardset, _ = adapter.validate(adapter.shipped_files(None))
    entries = adapter.entries(cardset, set())
    assert cube_of(Limited(cube=("gu01", "gou")), entries, "maken") == ["gu01", "gou"]
    default = cube_of(None, entries, "maken")
    assert default == sorted(e.id for e in entries if e.kind in ("attack", "support"))
    assert cube_of(Limited(deck_size=20), entries, "maken") == default


def test_the_modules_examples_hold():
    import doctest

    from host.limited import deal
    assert doctest.testmod(deal).failed == 0
