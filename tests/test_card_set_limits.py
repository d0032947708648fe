"""Issue 45, findings 6 and 7 (set names): a server's card-set limits hold under concurrency, the
same content is one version, and a set name may not hide characters or imitate another set's.

- "30 concurrent uploads of new set names stored 30 sets past the limit of 25; five identical
  concurrent uploads stored five versions of the same content."  The limit and the sameness are
  decided inside the store's write transaction (SQLite's ``BEGIN IMMEDIATE``; PostgreSQL's
  advisory lock), so they hold across connections and processes: the tests race two stores of
  one database, both backends.
- "set names differing only by a zero-width space, a direction override or a Cyrillic look-alike
  sit beside the original."  Invisible and direction characters are refused in a name; a name
  that only looks like an existing set's is refused, naming that set.
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import pytest

from data.card_sets import names
from data.store import CardSetRefused, CardSetRow
from host import Host, engines
from host.card_sets import MAX_SETS
from tests.test_card_sets_store import files

G = 111
ADMIN = 7


def _row(name: str, digest: str = "a" * 64) -> CardSetRow:
    return CardSetRow(G, "art_of_war", name, digest, "extend", ADMIN, content="{}", created_at=time.time())


async def _race(stores: list, rows: list[CardSetRow]) -> list:
    """Every row written at once, alternating between the stores; each outcome or its refusal."""
    async def one(i: int, row: CardSetRow):
        try:
            return await stores[i % len(stores)].add_card_set(row, max_sets=MAX_SETS)
        except CardSetRefused as err:
            return err
    return await asyncio.gather(*(one(i, r) for i, r in enumerate(rows)))


async def test_concurrent_new_sets_stop_at_the_servers_limit(backend):
    """Finding 6: "30 concurrent uploads of new set names stored 30 sets past the limit of 25"."""
    stores = [await backend.open(), await backend.open()]
    out = await _race(stores, [_row(f"Set {chr(65 + i // 26)}{chr(65 + i % 26)}", f"{i:064x}") for i in range(30)])
    stored = [o for o in out if isinstance(o, tuple)]
    refused = [o for o in out if isinstance(o, CardSetRefused)]
    assert len(stored) == MAX_SETS and len(refused) == 30 - MAX_SETS
    assert all(r.reason == "too_many" and r.limit == MAX_SETS for r in refused)
    assert len({r.name for r in await stores[0].card_sets(G, "art_of_war")}) == MAX_SETS
    # a new version of a set that exists is no new set: the limit does not stop it
    row, added = await stores[1].add_card_set(_row("set aa", "f" * 64), max_sets=MAX_SETS)
    assert added and (row.name, row.version) == ("Set AA", 2)


async def test_concurrent_identical_uploads_are_one_version(backend):
    """Finding 6: "five identical concurrent uploads stored five versions of the same content"."""
    stores = [await backend.open(), await backend.open()]
    out = await _race(stores, [_row("Owl Kings", "b" * 64) for _ in range(5)])
    assert sorted(added for _row_, added in out) == [False, False, False, False, True]
    assert {r.id for r, _added in out} == {out[0][0].id}          # all name the one stored version
    listed = await stores[0].card_sets(G, "art_of_war")
    assert [(r.name, r.version) for r in listed] == [("Owl Kings", 1)]


async def test_a_name_that_only_looks_like_another_sets_is_refused_in_the_store(backend):
    """Finding 7: a Cyrillic look-alike sits beside the original — no longer, even when the check
    before the upload's work is passed by a race: the store refuses it, naming the set."""
    store = await backend.open()
    await store.add_card_set(_row("Owl Kings"))
    for alike in ("Оwl Кings", "0wl Kings", "Ｏｗｌ Kings"):   # Cyrillic О and К; a zero; full-width
        if names.same_key(alike) == names.same_key("Owl Kings"):
            row, added = await store.add_card_set(_row(alike, "c" * 64))       # full-width: the same set
            assert added and row.name == "Owl Kings" and row.version == 2
            continue
        with pytest.raises(CardSetRefused) as err:
            await store.add_card_set(_row(alike, "d" * 64))
        assert err.value.reason == "looks_like" and err.value.name == "Owl Kings"
    assert {r.name for r in await store.card_sets(G)} == {"Owl Kings"}


@pytest.fixture
async def host(backend):
    engines.forget()
    yield Host(await backend.open(), render=False)
    engines.forget()


async def test_set_names_with_hidden_characters_are_refused_and_look_alikes_named(host):
    """Finding 7: "set names differing only by a zero-width space, a direction override or a
    Cyrillic look-alike sit beside the original"."""
    upload = host.card_sets.upload
    assert (await upload(G, ADMIN, "art_of_war", "Owl Kings", "cards.zip", files())).ok
    for hidden in ("Owl\u200bKings", "Owl Kings\u200b", "Owl \u202eKings", "\u2066Owl Kings\u2069", "Owl\u00adKings",
                   "Owl\ufeffKings", "Owl\u2028Kings"):
        res = await upload(G, ADMIN, "art_of_war", hidden, "cards.zip", files())
        assert not res.ok and res.error.key == "cards.err.name", hidden
    res = await upload(G, ADMIN, "art_of_war", "Оwl Kings", "cards.zip", files(("kings.csv", b",2,3/2,", b",3,3/2,")))
    assert not res.ok and res.error.key == "cards.err.name_looks_like"
    assert res.error.params["name"] == "Owl Kings"
    for lang in ("en", "ja"):
        assert "Owl Kings" in res.error.render(lang)
    sets = (await host.card_sets.listing(G, "art_of_war")).data["sets"]
    assert [s["name"] for s in sets] == ["Owl Kings"]
    # the same name in other letter case or full width is the same set (a new version)
    res = await upload(G, ADMIN, "art_of_war", "ＯＷＬ ＫＩＮＧＳ", "cards.zip", files(("kings.csv", b",2,3/2,", b",3,3/2,")))
    assert res.ok and (res.data["set"].name, res.data["set"].version) == ("Owl Kings", 2)
    # and 標準 in full width still means the shipped cards
    res = await upload(G, ADMIN, "art_of_war", "ＳＨＩＰＰＥＤ", "cards.zip", files())
    assert not res.ok and res.error.key == "cards.err.name_shipped"


async def test_identical_uploads_at_once_through_the_service_store_one_version(host):
    """Finding 6 through ``/cards upload``'s service: five identical uploads at the same moment
    (each passes the look-up before any is stored) make one version; the others are told nothing
    changed."""
    out = await asyncio.gather(*(host.card_sets.upload(G, ADMIN, "art_of_war", "Owl Kings", "cards.zip", files())
                                 for _ in range(5)))
    assert all(r.ok for r in out), [r.error for r in out]
    assert sorted(bool(r.data.get("unchanged")) for r in out) == [False, True, True, True, True]
    listed = await host.store.card_sets(G, "art_of_war")
    assert [(r.name, r.version) for r in listed] == [("Owl Kings", 1)]


def test_the_name_keys():
    """``clean`` refuses what no one types on purpose; ``look_key`` joins look-alikes only."""
    assert names.clean(" Owl  Kings ") == "Owl Kings"
    assert names.clean("Cafe\u0301") == "Café"                  # NFC: one way to write é
    for bad in ("a\u200bb", "a\u200db", "a\u202eb", "a\u2066b", "a\x00b", "a\ue000b", "a\u2029b", "a\ud800b"):
        assert names.clean(bad) is None, repr(bad)
    assert names.looks_like("paypal", "рaypal")               # Cyrillic р
    assert names.looks_like("Kings", "Кings")                 # Cyrillic К
    assert names.looks_like("Owl", "0wl")                     # a zero for an O
    assert not names.looks_like("Red", "Blue")
    assert not names.looks_like("Set AI", "Set AL")           # an I is like an l, not like an L
    assert not names.looks_like("赤の騎士", "青の騎士")
    assert names.same_key("Owl Kings") != names.same_key("Owl King")
    assert replace(_row("x"), name="y").name == "y"
