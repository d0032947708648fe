"""The computer drafter of a server's set version drafts by the card values its balance run
measured (issue 52: "empty seats are filled by computer drafters that pick by the cards' value
from self-play"): ``load_cards`` finds the newest run of that exact version that ended with
values, ``DraftCards.drafter`` uses them for the set's own cards (a shipped card keeps its shipped
value, a card the run's decks never held keeps its fallback), and a stored row that does not read,
or a store that fails for a moment, leaves the fallback — loading the cards never fails for it.
A real SQLite store and card-set service; the values are made by hand."""
from __future__ import annotations

import io
import logging
import zipfile
from pathlib import Path

import pytest

from balance.card_values import CardValues, shrink
from data.store import BalanceRun, TransientStoreError
from host import Host, engines
from host.limited.building import load_cards
from host.limited.cards import RUN_VALUES_TTL, RunValues, shipped_values

DATA = Path(__file__).resolve().parent / "data" / "card_sets" / "art_of_war"
GUILD, OTHER, ADMIN = 111, 222, 7
SET = "Playtest One"
# the set's own KINGs: by their own data (the fallback) OWL KING 0.5 beats 鷹王 0.45
STRONG, WEAK = "king_owl", "king_hawk"


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in sorted(DATA.glob("*.csv")):
            z.writestr(p.name, p.read_bytes())
    return buf.getvalue()


@pytest.fixture
async def store(tmp_path):
    from data.store import open_store

    s = await open_store(str(tmp_path / "values.db"))
    yield s
    await s.close()


@pytest.fixture
async def host(store):
    engines.forget()
    h = Host(store, render=False)
    for guild in (GUILD, OTHER):
        assert (await h.card_sets.upload(guild, ADMIN, "art_of_war", SET, "set.zip", _zip())).ok
    yield h
    engines.forget()


def _values(games_wins: dict[str, tuple[int, float]], *, matches: int = 20) -> dict:
    """Hand-made values: each card's games and wins, its value their shrunk win rate."""
    return CardValues("art_of_war", {c: round(shrink(w, g), 6) for c, (g, w) in games_wins.items()},
                      {c: g for c, (g, _w) in games_wins.items()}, {c: float(w) for c, (_g, w) in games_wins.items()},
                      matches, 1, label=f"{SET} v1").to_json()


# 鷹王 won 16 of 20 (0.7), OWL KING 4 of 20 (0.3); IRON KING in no deck; SAGE KING, a shipped card
# this set keeps, 40 of 40 (0.9: not the shipped value, so not used)
MEASURED = {WEAK: (20, 16), STRONG: (20, 4), "king_iron": (0, 0), "king_sage": (40, 40)}


async def _set_id(store, guild: int = GUILD) -> int:
    return (await store.card_sets(guild, "art_of_war"))[-1].id


async def _run(store, set_id: int, status: str, values: dict | None, guild: int = GUILD) -> BalanceRun:
    progress: dict = {"results": [], "values": []}
    if values is not None:
        progress["card_values"] = values
    run = await store.create_balance_run(BalanceRun(guild, set_id, "art_of_war", ADMIN, "en", "queued",
                                                    plan={"values": {"matches": 20, "seed": set_id}}))
    run.status, run.progress = status, progress
    await store.update_balance_run(run)
    return run


async def _cards(host):
    cards, err = await load_cards(host.card_sets)(GUILD, "art_of_war", SET, None)
    assert err is None, err
    return cards


async def test_without_a_run_the_drafter_reads_the_cards_own_data(host, store):
    cards = await _cards(host)
    assert cards.measured is None
    assert cards.drafter.pick([STRONG, WEAK], []) == STRONG


async def test_the_drafter_picks_by_the_values_of_the_versions_balance_run(host, store):
    set_id = await _set_id(store)
    await _run(store, set_id, "done", _values(MEASURED))
    cards = await _cards(host)
    assert cards.measured is not None and cards.measured.label == f"{SET} v1"
    d = cards.drafter
    assert d.pick([STRONG, WEAK], []) == WEAK                       # the higher stored value
    assert d.value(WEAK) == 0.7 and d.value(STRONG) == 0.3
    assert d.value("king_iron") == 0.5                              # no deck held it: its fallback
    assert d.value("king_sage") == shipped_values("art_of_war")["king_sage"]     # a shipped card: shipped


async def test_only_an_ended_run_of_that_exact_version_counts_the_newest_first(host, store):
    set_id = await _set_id(store)
    flipped = {WEAK: (20, 4), STRONG: (20, 16)}
    await _run(store, set_id, "stopped", _values(MEASURED))                     # stopped, with what it played
    await _run(store, set_id, "failed", _values(flipped))                       # failed: not read
    await _run(store, set_id, "running", _values(flipped))                      # not ended
    await _run(store, await _set_id(store, OTHER), "done", _values(flipped), guild=OTHER)   # another server's
    assert (await _cards(host)).drafter.pick([STRONG, WEAK], []) == WEAK
    await _run(store, set_id, "done", _values(flipped))                         # a newer run of the version
    assert (await _cards(host)).drafter.pick([STRONG, WEAK], []) == STRONG
    # the store reads the runs of that version only
    assert {r.set_id for r in await store.balance_runs(("done", "stopped", "failed"), GUILD, set_id=set_id)} == {set_id}
    assert await store.balance_runs(("done",), GUILD, set_id=set_id + 1000) == []


async def test_a_stored_row_that_does_not_read_is_logged_and_ignored(host, store, caplog):
    set_id = await _set_id(store)
    bad = _values(MEASURED)
    bad["cards"][WEAK]["value"] = 0.99                  # not the shrunk win rate of its games and wins
    await _run(store, set_id, "done", bad)
    with caplog.at_level(logging.WARNING, logger="host.limited"):
        cards = await _cards(host)
    assert cards.measured is None and cards.drafter.pick([STRONG, WEAK], []) == STRONG     # the fallback
    assert any("not read" in r.getMessage() for r in caplog.records)
    # a good run, then a newer one whose values are not values at all: the good one is used
    good = await _run(store, set_id, "done", _values(MEASURED))
    newest = await _run(store, set_id, "done", {"game": "art_of_war"})
    assert newest.id > good.id
    cards = await _cards(host)
    assert cards.measured is not None and cards.drafter.pick([STRONG, WEAK], []) == WEAK


async def test_a_store_that_fails_for_a_moment_leaves_the_fallback(host, store, monkeypatch, caplog):
    set_id = await _set_id(store)
    await _run(store, set_id, "done", _values(MEASURED))

    async def failing(*_a, **_k):
        raise TransientStoreError("the database is busy")
    monkeypatch.setattr(store, "balance_runs", failing)
    load = load_cards(host.card_sets)
    with caplog.at_level(logging.WARNING, logger="host.limited"):
        cards, err = await load(GUILD, "art_of_war", SET, None)
    assert err is None and cards.measured is None and cards.drafter.pick([STRONG, WEAK], []) == STRONG
    assert any("could not be read" in r.getMessage() for r in caplog.records)
    monkeypatch.undo()
    cards, err = await load(GUILD, "art_of_war", SET, None)          # a failure is not kept: asked again
    assert err is None and cards.drafter.pick([STRONG, WEAK], []) == WEAK


async def test_a_versions_values_are_looked_up_again_only_after_a_while(host, store, monkeypatch):
    """The draft service asks for its cards on every call: the runs (each row holding every match
    it played) are read at most every RUN_VALUES_TTL seconds a version."""
    set_id = await _set_id(store)
    now = [1000.0]
    values = RunValues(store, clock=lambda: now[0])
    assert await values.of(GUILD, set_id, "art_of_war") is None
    await _run(store, set_id, "done", _values(MEASURED))
    assert await values.of(GUILD, set_id, "art_of_war") is None                # kept
    now[0] += RUN_VALUES_TTL
    assert (await values.of(GUILD, set_id, "art_of_war")).values[WEAK] == 0.7
