"""Issue 13 (Trust): rows are checked when read, and one bad row never stops anything else.

Every test plants one bad match row (SQL written directly, outside the store, as a damaged
disk or a careless admin would) beside a good match, on both store backends (``backend``, see
conftest), and checks that the bad row is quarantined or refused, that the operator log says
so, and that :meth:`host.Host.tick` still delivers the good match's reminder."""
from __future__ import annotations

import logging

import pytest

from data.store import ACTIVE, QUARANTINED, CorruptRow
from host import Host
from host.table import _initial_state, _step
from rules import registry

from discord_fakes import Clock

ALICE, BOB = 101, 202
TURN = 300          # seconds; a reminder is due in the last 20 % (60 s)
# SQUARES: ten commands that do not end the match (the host stores a snapshot at 10)
TEN = [
    (ALICE, "place L1 a1"), (BOB, "place X1 e5"),
    (ALICE, "leap a1 a3"), (BOB, "place X2 d5"),
    (ALICE, "place L2 b1"), (BOB, "place X3 c5"),
    (ALICE, "leap b1 b3"), (BOB, "move e5 e4"),
    (ALICE, "place L3 c1"), (BOB, "move d5 d4"),
]


@pytest.fixture
async def store(backend):
    return await backend.open()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def host(store, clock):
    return Host(store, now=clock, render=False)


async def start_match(host: Host, moves: list[tuple[int, str]] = TEN[:1]) -> int:
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")],
                               options={"first": 0}, turn_seconds=TURN)
    assert res.ok, res.error
    res = await host.accept(res.match.id, BOB)
    assert res.ok and res.match.status == ACTIVE
    for uid, cmd in moves:
        assert (await host.command(res.match.id, uid, cmd)).ok, cmd
    return res.match.id


def logged(caplog, match_id: int) -> bool:
    """Does the operator log say that ``match_id`` was quarantined?"""
    return any(str(match_id) in r.getMessage() and "quarantin" in r.getMessage().lower()
               for r in caplog.records if r.levelno >= logging.WARNING)


async def assert_only_good_reminded(host: Host, good: int) -> None:
    events = await host.tick()
    assert [(e.match.id, e.data.get("clock")) for e in events] == [(good, "reminder")]


# -- bad match rows --------------------------------------------------------------------------

DAMAGE = {
    "unregistered_game": ["UPDATE matches SET game = 'chess' WHERE id = ?"],
    "names_shorter_than_seats": ["UPDATE matches SET names = '[\"Alice\"]' WHERE id = ?"],
    "n_commands_above_log": ["UPDATE matches SET n_commands = n_commands + 1 WHERE id = ?"],
    "n_commands_below_log": ["UPDATE matches SET n_commands = n_commands - 1 WHERE id = ?"],
    "unknown_status": ["UPDATE matches SET status = 'limbo' WHERE id = ?"],
    "one_player_in_two_seats": [f"UPDATE matches SET seats = '[{ALICE}, {ALICE}]' WHERE id = ?"],
    "snapshot_beyond_log": ["UPDATE matches SET snapshot_seq = n_commands + 1 WHERE id = ?"],
    "negative_counter": ["UPDATE matches SET n_commands = -1 WHERE id = ?"],
    # entries 1 and 3 of a three-command log: its last seq and n_commands agree, its count not
    "log_gap": ["INSERT INTO commands (match_id, seq, seat, command, at) "
                "SELECT match_id, 3, seat, command, at FROM commands WHERE match_id = ? AND seq = 2",
                "DELETE FROM commands WHERE match_id = ? AND seq = 2",
                "UPDATE matches SET n_commands = 3 WHERE id = ?"],
}


@pytest.mark.parametrize("kind", list(DAMAGE))
async def test_bad_row_is_quarantined_and_the_clock_carries_on(host, store, backend, clock,
                                                               caplog, kind):
    good = await start_match(host, TEN[:1])
    bad = await start_match(host, TEN[:2] if kind == "log_gap" else TEN[:1])
    for sql in DAMAGE[kind]:
        await backend.raw(sql, bad)
    fresh = Host(store, now=clock, render=False)  # as after a restart: nothing cached
    clock.t += TURN - 50                           # 50 s left on both clocks
    with caplog.at_level(logging.WARNING):
        await assert_only_good_reminded(fresh, good)
        res = await fresh.status(bad)
    assert not res.ok and res.error.key == "host.err.quarantined"
    assert [q[0] for q in await store.quarantined()] == [bad]
    assert await backend.raw("SELECT status FROM matches WHERE id = ?", bad) == [(QUARANTINED,)]
    assert logged(caplog, bad)
    with pytest.raises(CorruptRow):
        await store.get_match(bad)
    assert [m.id for m in await store.unfinished_matches()] == [good]
    assert (await fresh.command(good, BOB, TEN[1][1])).ok


async def test_too_high_n_commands_never_leaves_a_gap_in_the_log(host, store, backend):
    mid = await start_match(host, TEN[:1])
    await backend.raw("UPDATE matches SET n_commands = 2 WHERE id = ?", mid)
    res = await host.command(mid, BOB, TEN[1][1])
    assert not res.ok and res.error.key == "host.err.quarantined"
    assert await backend.raw("SELECT seq FROM commands WHERE match_id = ?", mid) == [(1,)]


async def test_a_row_that_breaks_the_json_reader_is_quarantined_not_raised(host, store, backend,
                                                                          clock, caplog):
    good = await start_match(host)
    bad = await start_match(host)
    await backend.raw("UPDATE matches SET meta = ? WHERE id = ?", "[" * 100_000, bad)
    clock.t += TURN - 50
    with caplog.at_level(logging.WARNING):
        assert [m.id for m in await store.unfinished_matches()] == [good]
        await assert_only_good_reminded(host, good)
    assert [q[0] for q in await store.quarantined()] == [bad]
    assert logged(caplog, bad)


async def test_text_that_is_not_utf8_is_quarantined_not_raised(host, store, backend, clock, caplog):
    good = await start_match(host)
    bad = await start_match(host)
    if backend.name == "postgres":
        pytest.skip("PostgreSQL refuses text that is not UTF-8 itself: such a row cannot exist")
    # names = ["<byte 0xFF>","B"]: SQLite stores it, and its driver cannot decode it
    await backend.raw("UPDATE matches SET names = CAST(X'5B22FF222C2242225D' AS TEXT) "
                      "WHERE id = ?", bad)
    clock.t += TURN - 50
    with caplog.at_level(logging.WARNING):
        assert [m.id for m in await store.unfinished_matches()] == [good]
        await assert_only_good_reminded(host, good)
        assert (await host.status(bad)).error.key == "host.err.quarantined"
    assert [q[0] for q in await store.quarantined()] == [bad]
    assert logged(caplog, bad)


# -- a damaged log behind the snapshot -------------------------------------------------------

async def _other_legal_tenth(store, mid: int) -> str:
    """A legal command for the tenth position that is not the one played."""
    rec = await store.get_match(mid)
    game = registry.get("squares")
    state = _initial_state(game, rec)
    for c in (await store.commands(mid))[:9]:
        state = _step(game, state, c.seat, c.command)
    return next(c for c in game.legal_commands(state, 1) if c != TEN[9][1])


@pytest.mark.parametrize("entry", ["illegal", "legal_but_different"])
async def test_damaged_log_entry_behind_the_snapshot_is_quarantined(host, store, backend, clock,
                                                                    caplog, entry):
    good = await start_match(host, TEN[:1])
    bad = await start_match(host, TEN)
    intact = await start_match(host, TEN)  # the same log, undamaged: it loads and plays on
    await backend.raw("UPDATE matches SET deadline = NULL WHERE id = ?", intact)
    rec = await store.get_match(bad)
    assert (rec.snapshot_seq, rec.n_commands) == (10, 10)  # the snapshot covers the whole log
    seq, command = (3, "jump z9 z0") if entry == "illegal" else (10, await _other_legal_tenth(store, bad))
    row = await backend.raw("SELECT seat, at FROM commands WHERE match_id = ? AND seq = ?", bad, seq)
    await backend.raw("DELETE FROM commands WHERE match_id = ? AND seq = ?", bad, seq)
    await backend.raw("INSERT INTO commands (match_id, seq, seat, command, at) VALUES (?, ?, ?, ?, ?)",
                      bad, seq, row[0][0], command, row[0][1])
    fresh = Host(store, now=clock, render=False)  # a restart: the state comes from the store
    clock.t += TURN - 50
    with caplog.at_level(logging.WARNING):
        await assert_only_good_reminded(fresh, good)
        res = await fresh.log(bad)
    assert not res.ok and res.error.key == "host.err.quarantined"
    assert [q[0] for q in await store.quarantined()] == [bad]
    assert logged(caplog, bad)
    assert (await fresh.status(intact)).ok
    assert (await fresh.command(intact, ALICE, "leap c1 c3")).ok  # the winning move
    assert [q[0] for q in await store.quarantined()] == [bad]


# -- one failure never stops the clock ------------------------------------------------------

async def test_tick_carries_on_past_a_match_whose_handling_fails(host, store, clock, caplog,
                                                                 monkeypatch):
    bad = await start_match(host)
    good = await start_match(host)
    real = host._clock_event

    async def failing(rec, kind):
        if rec.id == bad:
            raise RuntimeError("boom")
        return await real(rec, kind)

    monkeypatch.setattr(host, "_clock_event", failing)
    clock.t += TURN - 50
    with caplog.at_level(logging.ERROR, logger="host"):
        await assert_only_good_reminded(host, good)
    assert any(r.exc_info and str(bad) in r.getMessage() for r in caplog.records)
    assert await store.quarantined() == []  # the row itself is fine: it is left as it is


# -- ids out of range ------------------------------------------------------------------------

@pytest.mark.parametrize("match_id", [2 ** 70, 2 ** 63, -(2 ** 70), "99999999999999999999"])
async def test_ids_beyond_64_bits_are_no_such_match(host, store, clock, match_id):
    good = await start_match(host)
    for res in (await host.status(match_id), await host.command(match_id, ALICE, "place L1 a1"),
                await host.accept(match_id, BOB), await host.hand(match_id, ALICE)):
        assert not res.ok and res.error.key == "host.err.no_match"
    assert await host.set_channel(match_id, 5) is None
    assert await host.legal(match_id, ALICE) == []
    assert await store.get_match(match_id) is None
    assert await store.get_refs(match_id) == {}
    assert await store.commands(match_id) == []
    clock.t += TURN - 50
    await assert_only_good_reminded(host, good)


# ------------------------------------------------------------------ leagues and saved decks
# "every stored row is checked when read, and one bad row never stops anything else"

async def test_an_unreadable_league_row_is_skipped_and_the_league_clock_carries_on(store, backend, caplog):
    from host.league_service import Leagues

    class _NoHost:
        now = staticmethod(lambda: 1000.0)

    t = [1000.0]
    svc = Leagues(store, _NoHost(), now=lambda: t[0])
    made = []
    for name in ("Broken JSON", "Broken status", "Broken pairings", "Good"):
        res = await svc.create(guild_id=5, channel_id=6, organiser=ALICE, name=name, game="squares",
                               fmt="swiss", rounds=2, deadline_hours=24, rated=True, signup_hours=1)
        made.append(res.data["league"].id)
        for uid in (ALICE, BOB):
            assert (await svc.join(made[-1], 5, uid, f"P{uid}")).ok
    json_bad, status_bad, pairings_bad, good = made
    await backend.raw("UPDATE leagues SET data = '{\"players\": [' WHERE id = ?", json_bad)
    await backend.raw("UPDATE leagues SET status = 'exploded' WHERE id = ?", status_bad)
    await backend.raw("UPDATE leagues SET status = 'running', data = '{\"round\": \"x\"}' WHERE id = ?",
                      pairings_bad)
    with caplog.at_level(logging.WARNING):
        listed = await store.leagues(5, ("signup", "running"))
        assert [lg.id for lg in listed] == [pairings_bad, good]
        assert await store.get_league(json_bad) is None and await store.get_league(status_bad) is None
        # the sign-up window of the good league has closed: the clock still starts it
        t[0] += 3601
        events = await svc.tick()
    assert [e.data["league"].id for e in events if e.data.get("started")] == [good]
    assert (await store.get_league(good)).status == "running"
    text = " ".join(r.getMessage() for r in caplog.records)
    assert f"league {json_bad} cannot be read" in text and f"league {status_bad} cannot be read" in text
    assert f"league {pairings_bad}" in text


async def test_an_unreadable_saved_deck_is_skipped(store, backend, caplog):
    await store.save_deck(ALICE, "maken", "good", {"cards": {"x": 2}})
    await store.save_deck(ALICE, "maken", "bad", {"cards": {"x": 1}})
    await backend.raw("UPDATE decks SET spec = '[1, 2' WHERE name = 'bad'")
    with caplog.at_level(logging.WARNING):
        assert await store.list_decks(ALICE, "maken") == [("good", {"cards": {"x": 2}})]
        assert await store.get_deck(ALICE, "maken", "bad") is None
    assert "deck 'bad'" in " ".join(r.getMessage() for r in caplog.records)
