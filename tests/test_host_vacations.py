"""Vacations at the table, through the Host with a hand-driven clock (docs/clocks.md,
"Vacation"): a vacation stops the player's banks in every match that allows it, opponents see
"on vacation until …", a bank out of time takes a day automatically while days are left, and
the list of games waiting on each player is written with every match write."""
from __future__ import annotations

import pytest

from data.store import ACTIVE, FINISHED
from host.clocks import control

ALICE, BOB, CARA, DAN = 101, 202, 303, 404
DAY, HOUR = 86400, 3600
DAILY = control.parse("3d+1d max 7d").to_json()
GUILD = 9001


async def started(host, game: str = "squares", **kw) -> int:
    kw.setdefault("options", {"first": 0} if game == "squares" else {})
    res = await host.challenge(game, ALICE, "Alice", opponents=[(BOB, "Bob")], time_control=DAILY,
                               guild_id=GUILD, **kw)
    assert res.ok, res.error
    res = await host.accept(res.match.id, BOB)
    assert res.ok and res.match.status == ACTIVE
    return res.match.id


async def vacation(host, user: int, days: int) -> list:
    now = host.clock.t
    assert await host.store.start_vacation(user, now, now + days * DAY, "asked", allowance_check=None)
    return await host.vacation_changed(user)


async def test_a_vacation_stops_the_players_bank_and_the_opponent_sees_it(clocked_host):
    """"While on vacation, none of that player's banks run in matches that allow vacation …;
    opponents see 'on vacation until …'"."""
    host = await clocked_host()
    mid = await started(host)
    rec = await host.store.get_match(mid)
    t0 = host.clock.t
    assert rec.deadline == t0 + 3 * DAY
    host.clock.advance(HOUR)
    results = await vacation(host, ALICE, 2)
    assert len(results) == 1 and results[0].match.id == mid
    rec = await host.store.get_match(mid)
    # an hour of Alice's bank ran; the rest runs after her 2 days away
    assert rec.deadline == pytest.approx(t0 + HOUR + 2 * DAY + 3 * DAY - HOUR)
    until = int(t0 + HOUR + 2 * DAY)
    line = results[0].public.status_line
    assert f"Alice is on vacation until <t:{until}:f>." in line.render("en")
    assert f"Aliceは<t:{until}:f>まで休暇中です。" in line.render("ja")
    # her move after the vacation: charged only the hour before it (+1 day increment)
    host.clock.t = t0 + HOUR + 2 * DAY + 30 * 60
    res = await host.command(mid, ALICE, "place L1 a1")
    assert res.ok and res.match.meta["clock"]["banks"][0] == pytest.approx(3 * DAY - HOUR - 30 * 60 + DAY)
    assert "on vacation" not in res.public.status_line.render("en")


async def test_a_vacation_that_ran_out_is_no_longer_said_on_the_board(clocked_host):
    """"opponents see 'on vacation until …'" — while it lasts: a vacation that ran out (nothing
    times the match again then) is not said by the next board, e.g. a clock reminder's."""
    host = await clocked_host()
    mid = await started(host)
    results = await vacation(host, ALICE, 1)
    assert "Alice is on vacation until" in results[0].public.status_line.render("en")
    host.clock.advance(DAY - 60)
    assert "Alice is on vacation until" in (await host.status(mid)).public.status_line.render("en")
    host.clock.advance(60)
    line = (await host.status(mid)).public.status_line
    assert "on vacation" not in line.render("en") and "休暇中" not in line.render("ja")
    assert "Time banks: Alice: 3 d, Bob: 3 d." in line.render("en")


async def test_ending_a_vacation_early_brings_the_deadline_back(clocked_host):
    """"/vacation end": the bank runs again from then."""
    host = await clocked_host()
    mid = await started(host)
    t0 = host.clock.t
    await vacation(host, ALICE, 5)
    host.clock.advance(DAY)
    assert await host.store.end_vacation(ALICE, host.clock.t)
    results = await host.vacation_changed(ALICE)
    assert [r.match.id for r in results] == [mid]
    assert (await host.store.get_match(mid)).deadline == pytest.approx(t0 + DAY + 3 * DAY)


async def test_a_no_vacation_match_and_the_opponents_turns_are_untouched(clocked_host):
    """"in matches that allow vacation (events choose …)": a match without vacation keeps its
    deadline; and a vacation stops only the vacationing player's own turns."""
    host = await clocked_host()
    strict = await started(host, vacation=False)
    free = await started(host)
    assert (await host.command(free, ALICE, "place L1 a1")).ok      # Bob to act in `free`
    before = {m: (await host.store.get_match(m)).deadline for m in (strict, free)}
    results = await vacation(host, ALICE, 3)
    assert results == []                # Alice is to act only in `strict`, which allows none
    assert {m: (await host.store.get_match(m)).deadline for m in (strict, free)} == before


async def test_a_bank_out_of_time_takes_a_vacation_day_until_none_is_left(clocked_host):
    """"When a bank runs out and the player has days left and the match allows it, one day is
    taken automatically and the player is told"; "A time-out, once bank and vacation are spent,
    works as today"."""
    host = await clocked_host()
    await host.store.set_guild_setting(GUILD, "vacation_days", 2)
    mid = await started(host)
    rec = await host.store.get_match(mid)
    out = rec.deadline
    host.clock.t = out + 10
    events = await host.tick()
    assert [e.data["clock"] for e in events] == ["auto_vacation"] and events[0].notify == [ALICE]
    assert events[0].data["away"] == [ALICE]    # the caller times her other matches next
    said = events[0].info[0]
    assert said.render("en") == ("Alice's time ran out: one vacation day was used automatically, "
                                 f"until <t:{int(out + DAY)}:f>. Vacation days left: 1.")
    assert "休暇を1日自動で使いました" in said.render("ja")
    assert (await host.store.get_match(mid)).deadline == pytest.approx(out + DAY)
    host.clock.t = out + DAY + 10
    assert [e.data["clock"] for e in await host.tick()] == ["auto_vacation"]
    host.clock.t = out + 2 * DAY + 10
    events = await host.tick()
    assert [e.data["clock"] for e in events] == ["expired"] and events[0].notify == [BOB]
    res = await host.claim_timeout(mid, BOB)
    assert res.ok and res.match.status == FINISHED


async def test_the_waiting_list_is_written_with_every_match_write(clocked_host):
    """"/turns lists every unfinished match … waiting on the player … ordered by time left":
    the rows are current after the start, after each move, and gone when the match ends."""
    host = await clocked_host()
    mid = await started(host)
    rows = await host.store.waiting_for(ALICE)
    assert [(r["match_id"], r["guild_id"], r["bank_left"]) for r in rows] == [(mid, GUILD, 3 * DAY)]
    assert rows[0]["deadline"] == (await host.store.get_match(mid)).deadline
    assert await host.store.waiting_for(BOB) == []
    assert (await host.command(mid, ALICE, "place L1 a1")).ok
    assert await host.store.waiting_for(ALICE) == []
    assert [r["match_id"] for r in await host.store.waiting_for(BOB)] == [mid]
    assert (await host.resign(mid, BOB)).ok
    assert await host.store.waiting_for(BOB) == [] and await host.store.waiting_for(ALICE) == []
    # a match on today's per-move clock is listed too, with its deadline and no bank
    res = await host.challenge("squares", ALICE, "Alice", opponents=[(BOB, "Bob")], turn_seconds=3600,
                               options={"first": 0})
    await host.accept(res.match.id, BOB)
    rows = await host.store.waiting_for(ALICE)
    assert [(r["match_id"], r["deadline"], r["bank_left"]) for r in rows] == [(res.match.id, host.clock.t + 3600, None)]


async def test_a_day_taken_automatically_stops_the_players_other_banks_after_the_tick(clocked_host):
    """"While on vacation, none of that player's banks run": a day taken when one bank ran out
    stops the others too — the tick names the player, and timing their other matches again
    (``vacation_changed(…, skip=…)``, done by the front end after the tick) moves those deadlines."""
    host = await clocked_host()
    late = await started(host)
    host.clock.advance(HOUR)
    other = await started(host)
    before = (await host.store.get_match(other)).deadline
    host.clock.t = (await host.store.get_match(late)).deadline + 10
    events = {e.match.id: e for e in await host.tick()}
    assert events[late].data == {"clock": "auto_vacation", "away": [ALICE]}
    assert events[other].data["clock"] == "reminder"           # its own bank is still running low
    assert (await host.store.get_match(other)).deadline == before       # not inside the tick
    results = await host.vacation_changed(ALICE, skip=late)
    assert [r.match.id for r in results] == [other]
    assert (await host.store.get_match(other)).deadline == pytest.approx(before + DAY)
