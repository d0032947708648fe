"""Servers' card sets in the store (both backends) and the host's service (issue 36): versions
numbered per set and never removed, a server's sets visible from it alone, defaults, the log of
who did what, matches that keep the version they started with, and a version row checked when
read (a tampered one quarantines the match that names it, a database hiccup does not)."""
from __future__ import annotations

import io
import json
import time
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from data.card_sets import games
from data.store import BalanceRun, CardSetLog, CardSetRow, TransientStoreError
from host import Host, engines

DATA = Path(__file__).resolve().parent / "data" / "card_sets" / "art_of_war"
G1, G2 = 111, 222
ADMIN, BOB = 7, 8
SET = "Playtest One"


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, body in files.items():
            z.writestr(name, body)
    return buf.getvalue()


def files(edit: tuple | None = None) -> bytes:
    out = {p.name: p.read_bytes() for p in sorted(DATA.glob("*.csv"))}
    if edit:
        name, old, new = edit
        out[name] = out[name].replace(old, new)
    return _zip(out)


@pytest.fixture
async def store(backend):
    return await backend.open()


@pytest.fixture
async def host(store):
    engines.forget()
    h = Host(store, render=False)
    yield h
    engines.forget()


# --------------------------------------------------------------------------- the store
async def test_versions_are_numbered_per_set_listed_without_content_and_marked_deleted(store):
    row = CardSetRow(G1, "art_of_war", SET, "a" * 64, "extend", ADMIN, content='{"v": 1}', summary={"cards": 3})
    v1, _ = await store.add_card_set(row)
    v2, _ = await store.add_card_set(replace(row, digest="b" * 64, content='{"v": 2}'))
    other, _ = await store.add_card_set(replace(row, guild_id=G2, digest="c" * 64))
    assert (v1.version, v2.version, other.version) == (1, 2, 1)
    listed = await store.card_sets(G1, "art_of_war")
    assert [(r.name, r.version, r.content) for r in listed] == [(SET, 1, None), (SET, 2, None)]
    assert (await store.get_card_set(v2.id)).content == '{"v": 2}'
    assert await store.delete_card_set(G1, "art_of_war", SET, time.time()) == 2
    assert await store.card_sets(G1) == []
    kept = await store.card_sets(G1, deleted=True)
    assert len(kept) == 2 and all(r.deleted_at is not None for r in kept)
    assert (await store.get_card_set(v1.id)).content == '{"v": 1}'      # never removed
    v3, _ = await store.add_card_set(replace(row, digest="d" * 64))
    assert v3.version == 3                # numbering goes on after a deletion
    assert [r.id for r in await store.card_sets(G2)] == [other.id]


async def test_a_card_set_row_that_does_not_read_is_skipped_and_logged(store, caplog):
    good, _ = await store.add_card_set(CardSetRow(G1, "art_of_war", SET, "a" * 64, "extend", ADMIN, content="{}"))
    bad, _ = await store.add_card_set(CardSetRow(G1, "art_of_war", "Other", "b" * 64, "extend", ADMIN, content="{}"))
    async with store._write() as c:
        await c.execute("UPDATE card_sets SET summary = ? WHERE id = ?", "not json", bad.id)
    assert [r.id for r in await store.card_sets(G1)] == [good.id]
    assert await store.get_card_set(bad.id) is None
    assert "cannot be read" in caplog.text


async def test_the_log_and_balance_runs_round_trip(store):
    await store.log_card_set(CardSetLog(G1, ADMIN, "upload", "art_of_war", SET, 1, {"cards": 3}, at=10.0))
    await store.log_card_set(CardSetLog(G1, ADMIN, "delete", "art_of_war", SET, 1, at=20.0))
    await store.log_card_set(CardSetLog(G2, BOB, "upload", "art_of_war", "x", 1, at=30.0))
    assert [e.action for e in await store.card_set_log(G1)] == ["delete", "upload"]
    run = await store.create_balance_run(BalanceRun(G1, 5, "art_of_war", ADMIN, "ja", "queued", {"decks": ["a", "b"]}))
    run.status, run.progress, run.cpu_s, run.message_id = "running", {"results": [{"w": [0]}]}, 1.5, 99
    await store.update_balance_run(run)
    again = await store.get_balance_run(run.id)
    assert (again.status, again.progress, again.cpu_s, again.message_id) == ("running", {"results": [{"w": [0]}]}, 1.5, 99)
    assert [r.id for r in await store.balance_runs(("running",), G1)] == [run.id]
    assert await store.balance_runs(("running",), G2) == []


# --------------------------------------------------------------------------- the service
async def test_an_upload_is_checked_whole_and_stored_as_the_next_version(host, store):
    res = await host.card_sets.upload(G1, ADMIN, "art_of_war", SET, "cards.zip",
                                      files(("kings.csv", b",2,3/2,", b",12,3/2,")))
    assert not res.ok and res.error.key == "cards.err.problems"
    assert [(p.row, p.field) for p in res.data["problems"]] == [(2, "attack")]
    assert await store.card_sets(G1) == []                 # nothing stored
    res = await host.card_sets.upload(G1, ADMIN, "art_of_war", SET, "cards.zip", files())
    assert res.ok and res.data["set"].version == 1
    again = await host.card_sets.upload(G1, ADMIN, "art_of_war", SET.upper(), "other.zip", files())
    assert again.ok and again.data.get("unchanged")        # the same cards: no new version
    v2 = await host.card_sets.upload(G1, ADMIN, "art_of_war", SET, "cards.zip",
                                     files(("kings.csv", b",2,3/2,", b",3,3/2,")))
    assert v2.ok and v2.data["set"].version == 2 and v2.data["set"].name == SET
    log = (await host.card_sets.log(G1)).data["log"]
    assert [(e.action, e.version, e.user_id) for e in log] == [("upload", 2, ADMIN), ("upload", 1, ADMIN)]


async def test_a_set_is_its_servers_only(host):
    assert (await host.card_sets.upload(G1, ADMIN, "art_of_war", SET, "cards.zip", files())).ok
    assert (await host.card_sets.listing(G2, "art_of_war")).data["sets"] == []
    for call in (host.card_sets.show(G2, "art_of_war", SET), host.card_sets.export(G2, "art_of_war", SET),
                 host.card_sets.diff(G2, "art_of_war", SET), host.card_sets.resolve(G2, "art_of_war", SET),
                 host.card_sets.set_default(G2, ADMIN, "art_of_war", SET),
                 host.card_sets.delete(G2, ADMIN, "art_of_war", SET)):
        res = await call
        assert not res.ok and res.error.key == "cards.err.no_set", res
    res = await host.challenge("art_of_war", ADMIN, "A", opponents=[(BOB, "B")], guild_id=G2, cards=SET)
    assert not res.ok and res.error.key == "cards.err.no_set"
    res = await host.card_sets.listing(None)
    assert not res.ok and res.error.key == "cards.err.dm"


async def test_a_match_keeps_the_version_it_started_with_and_replays_after_the_set_changes(host, store):
    assert (await host.card_sets.upload(G1, ADMIN, "art_of_war", SET, "cards.zip", files())).ok
    res = await host.challenge("art_of_war", ADMIN, "A", opponents=[(BOB, "B")], guild_id=G1, cards=SET)
    assert res.ok and res.match.meta["cards"]["version"] == 1
    assert any(m.key == "cards.match_line" for m in res.public.text)
    started = await host.accept(res.match.id, BOB)
    assert started.ok
    assert started.public.view["kings"][0]["name"]["en"] == "OWL KING"
    mid = res.match.id
    for _ in range(6):
        rec = await store.get_match(mid)
        game = await host.engine(rec)
        state = await host._state(rec)
        seat = game.to_act(state)[0]
        assert (await host.command(mid, [ADMIN, BOB][seat], game.legal_commands(state, seat)[0])).ok
    before = (await host.log(mid)).data["log"]
    # a new version, then a fresh process: the match replays with its own version
    assert (await host.card_sets.upload(G1, ADMIN, "art_of_war", SET, "cards.zip",
                                        files(("kings.csv", b",2,3/2,", b",3,3/2,")))).ok
    engines.forget()
    fresh = Host(store, render=False)
    assert (await fresh.log(mid)).data["log"] == before
    rec = await store.get_match(mid)
    assert (await fresh.engine(rec)).cardset.kings["king_owl"]["attack"] == 2
    # a rematch is played with the same version
    await fresh.resign(mid, BOB)
    again = await fresh.rematch(mid, ADMIN)
    assert again.ok and again.match.meta["cards"]["version"] == 1
    # new matches take the newest version
    newer = await fresh.challenge("art_of_war", ADMIN, "A", opponents=[(BOB, "B")], guild_id=G1, cards=SET)
    assert newer.match.meta["cards"]["version"] == 2


async def test_the_servers_default_set_plays_unless_the_shipped_cards_are_asked_for(host):
    assert (await host.card_sets.upload(G1, ADMIN, "art_of_war", SET, "cards.zip", files())).ok
    assert (await host.card_sets.set_default(G1, ADMIN, "art_of_war", SET)).ok
    res = await host.challenge("art_of_war", ADMIN, "A", opponents=[(BOB, "B")], guild_id=G1)
    assert res.match.meta["cards"]["name"] == SET
    res = await host.challenge("art_of_war", ADMIN, "A", opponents=[(BOB, "B")], guild_id=G1, cards="shipped")
    assert "cards" not in res.match.meta
    res = await host.challenge("art_of_war", ADMIN, "A", opponents=[(BOB, "B")], guild_id=G2)
    assert "cards" not in res.match.meta              # another server's default is its own
    # deleting the set: gone from lists and new matches; the default falls back to the shipped cards
    assert (await host.card_sets.delete(G1, ADMIN, "art_of_war", SET)).ok
    res = await host.challenge("art_of_war", ADMIN, "A", opponents=[(BOB, "B")], guild_id=G1)
    assert res.ok and "cards" not in res.match.meta
    assert (await host.card_sets.listing(G1)).data["sets"] == []


async def test_a_tampered_version_quarantines_its_match_and_a_hiccup_does_not(host, store):
    assert (await host.card_sets.upload(G1, ADMIN, "art_of_war", SET, "cards.zip", files())).ok
    res = await host.challenge("art_of_war", ADMIN, "A", opponents=[(BOB, "B")], guild_id=G1, cards=SET)
    assert (await host.accept(res.match.id, BOB)).ok
    row = (await store.card_sets(G1))[0]
    # the database failing for a moment while the version loads: "try again", nothing quarantined
    engines.forget()
    hiccup = Host(store, render=False)
    real = store.get_card_set

    async def failing(set_id):
        raise TransientStoreError("connection lost", kind="connection")
    store.get_card_set = failing
    try:
        status = await hiccup.status(res.match.id, ADMIN)
    finally:
        store.get_card_set = real
    assert not status.ok and status.error.key == "host.err.transient"
    assert res.match.id not in await store.quarantine_kinds()
    assert (await hiccup.status(res.match.id, ADMIN)).ok
    content = json.loads((await store.get_card_set(row.id)).content)
    content["files"][0][1]["kings"][0]["attack"] = 9        # not what its digest names
    async with store._write() as c:
        await c.execute("UPDATE card_sets SET content = ? WHERE id = ?", json.dumps(content), row.id)
    engines.forget()
    fresh = Host(store, render=False)
    status = await fresh.status(res.match.id, ADMIN)
    assert not status.ok and status.error.key == "host.err.quarantined"
    assert (await store.quarantine_kinds())[res.match.id] == "game"


async def test_every_card_game_has_an_adapter_and_squares_has_none():
    assert [g for g in games.GAMES if games.adapter(g) is not None] == list(games.GAMES)
    assert games.adapter("squares") is None
