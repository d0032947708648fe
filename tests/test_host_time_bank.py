"""Time banks in matches, through the Host with a hand-driven clock (docs/clocks.md, "Time
controls" and "When the clock runs"): SQUARES on ``3d+1d max 7d``."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

import pytest

from data.store import ACTIVE, FINISHED
from host.clocks import control
from rules import registry

from test_host_hidden import WindowGame

ALICE, BOB = 101, 202
DAY, HOUR = 86400, 3600
DAILY = control.parse("3d+1d max 7d").to_json()


def utc(*args: int) -> float:
    return datetime(*args, tzinfo=timezone.utc).timestamp()


async def started(host, game: str = "squares", **kw) -> int:
    kw.setdefault("options", {"first": 0} if game == "squares" else {})
    res = await host.challenge(game, ALICE, "Alice", opponents=[(BOB, "Bob")], time_control=DAILY, **kw)
    assert res.ok, res.error
    res = await host.accept(res.match.id, BOB)
    assert res.ok and res.match.status == ACTIVE
    return res.match.id


def banks(rec) -> list[float]:
    return rec.meta["clock"]["banks"]


async def test_banks_are_charged_incremented_and_capped(clocked_host):
    """"A time bank: an initial time, an increment added after each of the player's moves, and a
    cap (e.g. 3d+1d max 7d)"; "Only the player(s) to act spend their bank"."""
    host = await clocked_host()
    mid = await started(host)
    rec = await host.store.get_match(mid)
    t0 = host.clock.t
    assert banks(rec) == [3 * DAY, 3 * DAY] and rec.deadline == t0 + 3 * DAY
    host.clock.advance(DAY)
    res = await host.command(mid, ALICE, "place L1 a1")
    assert res.ok and banks(res.match) == [3 * DAY, 3 * DAY]          # 3d - 1d + 1d; Bob untouched
    assert res.match.deadline == host.clock.t + 3 * DAY               # Bob's bank from now
    host.clock.advance(2 * HOUR)
    res = await host.command(mid, BOB, "place X1 e5")
    assert banks(res.match) == [3 * DAY, 4 * DAY - 2 * HOUR]
    assert res.match.deadline == host.clock.t + 3 * DAY
    for alice, bob in [("leap a1 a3", "place X2 d5"), ("place L2 b1", "place X3 c5"), ("leap b1 b3", "move e5 e4"),
                       ("place L3 c1", "move d5 d4")]:
        host.clock.advance(60)
        assert (await host.command(mid, ALICE, alice)).ok
        host.clock.advance(60)
        res = await host.command(mid, BOB, bob)
    assert banks(res.match) == [7 * DAY - 240, 7 * DAY]       # 6 d 23 h 56 min; Bob capped at 7 days
    # the board's status line names every bank in words and the deadline as a Discord timestamp
    line = res.public.status_line
    assert line.render("en").endswith(
        f"Time banks: Alice: 6 d 23 h, Bob: 7 d. Time runs out <t:{int(res.match.deadline)}:R>.")
    assert "持ち時間：Alice：残り6日23時間、Bob：残り7日。期限：" in line.render("ja")


async def test_the_weekend_pause_counts_in_each_players_own_time_zone(clocked_host):
    """"Weekend pause: clocks do not run from Saturday 00:00 to Monday 00:00 in each player's own
    time zone" (Alice in Asia/Tokyo, Bob in Europe/Paris)."""
    host = await clocked_host()
    await host.store.set_player_settings(ALICE, {"zone": "Asia/Tokyo"})
    await host.store.set_player_settings(BOB, {"zone": "Europe/Paris"})
    host.clock.t = utc(2023, 11, 17, 16)         # Friday 16:00 UTC: Saturday 01:00 in Tokyo
    mid = await started(host, weekend_pause=True)
    rec = await host.store.get_match(mid)
    # Alice's clock first runs on Monday 00:00 in Tokyo (Sunday 15:00 UTC), then 3 days
    assert rec.deadline == utc(2023, 11, 22, 15)
    host.clock.t = utc(2023, 11, 20, 3)          # Monday 03:00 UTC: 12 h of Alice's clock ran
    res = await host.command(mid, ALICE, "place L1 a1")
    assert banks(res.match) == [3 * DAY + 12 * HOUR, 3 * DAY]
    assert res.match.deadline == utc(2023, 11, 23, 3)   # Bob, weekday: no pause on the way
    # Bob moves on Friday 20:00 UTC (21:00 in Paris): his clock ran Mon 03:00 .. Fri 20:00
    host.clock.t = utc(2023, 11, 24, 20)
    res = await host.command(mid, BOB, "place X1 e5")
    assert res.ok                        # his deadline passed unclaimed: the move is still his
    rec = await host.store.get_match(mid)
    assert banks(rec)[1] == 1 * DAY      # spent to 0, then the increment
    # Alice (Tokyo) is already in her weekend (Saturday 05:00 there): her clock waits for
    # Monday 00:00 Tokyo = Sunday 15:00 UTC, then 3 d 12 h
    assert rec.deadline == utc(2023, 11, 26, 15) + 3 * DAY + 12 * HOUR


async def test_a_reminder_then_an_expiry_come_through_the_tick(clocked_host):
    """"Reminders: when a bank will run out within a set share or hours"; "A time-out, once bank
    and vacation are spent, works as today (claim …)" (a match that allows no vacation)."""
    host = await clocked_host()
    mid = await started(host, vacation=False)
    rec = await host.store.get_match(mid)
    host.clock.t = rec.deadline - 13 * HOUR
    assert await host.tick() == []
    host.clock.t = rec.deadline - 11 * HOUR
    events = await host.tick()
    assert [e.data["clock"] for e in events] == ["reminder"] and events[0].notify == [ALICE]
    assert events[0].info[0].render("en") == "Alice: your turn clock runs out in 11 h."
    assert events[0].info[0].render("ja") == "Alice：持ち時間は残り11時間です。"
    assert await host.tick() == []
    host.clock.t = rec.deadline + 1
    events = await host.tick()
    assert [e.data["clock"] for e in events] == ["expired"] and events[0].notify == [BOB]
    res = await host.claim_timeout(mid, BOB)
    assert res.ok and res.match.status == FINISHED and res.match.result["winners"] == [1]


async def test_a_damaged_stored_clock_is_survived(clocked_host):
    """A damaged ``meta["clock"]`` "never raises out of the tick: treat as no bank, log"."""
    host = await clocked_host()
    mid = await started(host)
    rec = await host.store.get_match(mid)
    rec = await host.store.update_match(replace(rec, meta={**rec.meta, "clock": {"control": "3d", "banks": "x"}}),
                                        rec.version)
    res = await host.command(mid, ALICE, "place L1 a1")
    assert res.ok and res.public.status_line.render("en") == "To act: Bob (after 1 move)"
    host.clock.advance(4 * DAY)
    events = await host.tick()
    assert [e.data["clock"] for e in events] == ["expired"]       # today's clock: the turn time


@pytest.fixture
def window_game():
    registry.register(WindowGame())
    yield
    registry._games.pop("window_test")


async def test_a_secret_window_spends_the_responders_bank_and_shows_nothing(clocked_host, window_game):
    """"A secret response window spends the responder's own bank (with today's floor so a window
    never blocks forever)"; nothing public tells that the window is open."""
    host = await clocked_host()
    mid = await started(host, game="window_test")
    host.clock.advance(HOUR)
    rec = await host.store.get_match(mid)
    shown_before = host._status_line(rec, await host._state(rec)).render("en")
    res = await host.command(mid, ALICE, "go")
    assert res.ok and res.public.text == []
    # the public clock line is what it was before Alice declared: her bank, her deadline
    assert res.public.status_line.render("en") == shown_before
    assert f"<t:{int(rec.deadline)}:R>" in shown_before
    # Bob's window runs on his own bank (3 days), and no public reminder names him
    assert res.match.deadline == host.clock.t + 3 * DAY
    host.clock.t = res.match.deadline - HOUR
    assert await host.tick() == []
    res = await host.command(mid, BOB, "pass")
    # a response earns no increment; Alice's declaration did not end her turn publicly: none either
    assert banks(res.match) == [2 * DAY + 23 * HOUR, HOUR]


async def test_a_window_on_an_empty_bank_still_lasts_the_floor(clocked_host, window_game):
    """"a secret response window … (with today's floor so a window never blocks forever)"."""
    host = await clocked_host()
    mid = await started(host, game="window_test")
    await host.command(mid, ALICE, "go")
    host.clock.advance(3 * DAY)                  # Bob's window expires: the default pass
    events = await host.tick()
    assert [e.data.get("clock") for e in events] == ["auto"]
    rec = await host.store.get_match(mid)
    assert banks(rec)[1] == 0
    await host.command(mid, ALICE, "go")         # a new window for Bob, whose bank is empty
    rec = await host.store.get_match(mid)
    assert rec.deadline == host.clock.t + control.WINDOW_FLOOR


async def test_challenge_refuses_a_bad_control_and_keeps_per_move_as_today(clocked_host):
    """A per-move control keeps today's ``turn_seconds``; a damaged control is refused in the
    reader's language; a weekend pause needs a bank."""
    host = await clocked_host()
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")],
                               time_control={"per_move": 3600})
    assert res.ok and res.match.turn_seconds == 3600 and "clock" not in res.match.meta
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], time_control={"initial": -1})
    assert res.error.key == "clock.err.control.stored"
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], weekend_pause=True)
    assert res.error.key == "clock.err.control.weekend" and "週末" in res.error.render("ja")
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], time_control=DAILY,
                               turn_seconds=600)
    assert res.error.key == "clock.err.control.both"
