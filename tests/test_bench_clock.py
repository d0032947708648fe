"""``python -m bench --clock`` on a tiny store (bench/clock.py, bench/clock_store.py): it runs,
writes every figure, and the stored matches it measures are what the host itself writes.  No
timed asserts: speed is measured by the benchmark, never asserted here."""
from __future__ import annotations

import json
import math
import random

from bench import clock as C
from bench import clock_store as CS


def test_the_clock_benchmark_writes_every_figure(tmp_path):
    """"`tick_s_100k` ≤ 0.2 (one clock tick with 100,000 stored matches using banks, vacations,
    weekend pauses and quiet hours), `tick_loop_hold_ms` ≤ 20, and `turns_ms_p99` ≤ 200
    (`/turns` for a player with 100 waiting matches). The tick also keeps its own deadline while
    the database hangs" — every key under "clock", the tick's due work done, /turns listing the
    player's games."""
    from bench.__main__ import main

    out = tmp_path / "clock.json"
    assert main(["--clock", "--tiny", "--quiet", "--json", str(out)]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    figures, meta = result["clock"], result["meta"]
    assert set(figures) == set(C.TARGETS) == set(C.LABELS)
    for key in ("tick_s_100k", "tick_loop_hold_ms", "turns_ms_p99"):
        assert type(figures[key]) in (int, float) and math.isfinite(figures[key]) and figures[key] >= 0, key
    # the tiny plan does not freeze a server: the figure is null and the JSON says why
    assert figures["tick_hang_s"] is None and "tiny" in meta["hang"]["why"]
    # what fell due was announced: a reminder, a vacation day taken automatically, time-outs
    # (a notice, or the game's default move)
    for tick in [*meta["ticks"], meta["cold_tick"]]:
        said = tick["announced"]
        assert said.get("reminder", 0) >= 1 and said.get("auto_vacation", 0) >= 1, said
        assert said.get("expired", 0) + said.get("auto", 0) >= 2, said
        assert tick["listed"] >= sum(said.values()) - said.get("retimed", 0)
    assert meta["turns_entries"] == C.PLANS["tiny"]["turns"] and meta["turns_pages"] >= 1
    assert meta["with_settings"] > 0 and meta["with_vacations"] > 0 and meta["store"] == "sqlite"


async def test_the_stored_matches_are_timed_as_the_host_times_them(tmp_path):
    """"A match … takes … a time bank"; "Weekend pause … in each player's own time zone";
    "While on vacation, none of that player's banks run": each stored match's banks, deadline and
    "on vacation until" are what the host computes itself for that match on those players'
    calendars, and the list of games waiting on each player holds its rows."""
    from data.store import open_store

    rng = random.Random(7)
    shapes = await C._templates(2, rng)
    plans, world = CS.plans(shapes, 300, 2, 12, rng)
    kinds = {p.kind for p in plans}
    assert {"bulk", "backlog", "turns", "reminder", "auto_vacation", "timeout", "no_vacation"} <= kinds
    assert any(p.weekend for p in plans) and any(not p.vacation for p in plans)
    path = str(tmp_path / "clock.db")
    await (await open_store(path)).close()
    assert CS.write_sqlite(path, plans, world) == len(plans)
    store = await open_store(path)
    try:
        host = C._host(store, [CS.NOW0])
        for mid, plan in enumerate(plans, 1):
            rec = await store.get_match(mid)
            assert rec.deadline == plan.deadline and rec.meta["clock"]["banks"] == list(plan.banks)
            again = await host._timed_again(rec)
            assert again is None, (mid, plan.kind)        # the host would time it the same
        waiting = await store.waiting_for(CS.TURNS_USER, limit=100)
        assert len(waiting) == 12 and {w["guild_id"] for w in waiting} == set(CS.TURNS_GUILDS)
        assert all(w["deadline"] is not None and w["bank_left"] is not None for w in waiting)
        on_vacation = await store.on_vacation(world.users, CS.NOW0)
        assert on_vacation and all(until > CS.NOW0 for until in on_vacation.values())
    finally:
        await store.close()
