"""Workloads shared by the benchmarks: random legal play through the engine contract, and a
SQLite file seeded with many stored unfinished matches (for start-up and memory)."""
from __future__ import annotations

import random
import sqlite3
import time
from typing import Any

from rules import registry

USER_BASE = 10_000_000
MAX_MATCH_COMMANDS = 5_000   # a random match still running after this many is cut there


def players_for(game: Any) -> int:
    """The seat count a benchmark match uses: two if the game allows it, else its minimum."""
    return max(int(game.min_players), min(2, int(game.max_players)))


def random_match(game: Any, rng: random.Random, seed: int, *, max_commands: int | None = None
                 ) -> tuple[Any, list[tuple[int, str]]]:
    """Play random legal commands from a new match (until it ends or ``max_commands``)."""
    state = game.new_match(players=players_for(game), seed=seed, options={})
    log: list[tuple[int, str]] = []
    while game.outcome(state) is None and (max_commands is None or len(log) < max_commands):
        seats = [s for s in game.to_act(state) if game.legal_commands(state, s)]
        if not seats:
            raise RuntimeError(f"{game.name}: nobody has a legal command but the match is running")
        seat = rng.choice(seats)
        command = rng.choice(game.legal_commands(state, seat))
        state = game.apply(state, seat, command)
        log.append((seat, command))
    return state, log


def replay(game: Any, seed: int, log: list[tuple[int, str]]) -> Any:
    """The state after ``log`` from a new match with ``seed`` (as the host rebuilds one)."""
    state = game.new_match(players=players_for(game), seed=seed, options={})
    for seat, command in log:
        state = game.apply(state, seat, command)
    return state


def rules_speed(name: str, seconds: float, rng: random.Random) -> dict[str, float]:
    """Random play through the contract for about ``seconds``.

    ``per_s``: apply() calls per second of the whole loop (to_act + legal_commands + apply +
    outcome, what an AI playing random matches sees); ``apply_per_s``: per second spent in
    apply() alone; ``cpu_per_s``: per second of this process's CPU time (what the figure would
    be on an otherwise idle machine; the wall-clock ``per_s`` is the one reported)."""
    game = registry.get(name)
    n = matches = 0
    in_apply = 0.0
    perf = time.perf_counter
    cpu0 = time.process_time()
    start = perf()
    deadline = start + seconds
    while perf() < deadline or n == 0:
        state = game.new_match(players=players_for(game), seed=rng.randrange(2**31), options={})
        matches += 1
        for _ in range(MAX_MATCH_COMMANDS):
            if game.outcome(state) is not None:
                break
            seat = rng.choice(game.to_act(state))
            legal = game.legal_commands(state, seat)
            if not legal:
                break
            command = rng.choice(legal)
            t0 = perf()
            state = game.apply(state, seat, command)
            in_apply += perf() - t0
            n += 1
    total = perf() - start
    cpu = time.process_time() - cpu0
    return {"per_s": n / total, "apply_per_s": n / in_apply if in_apply else 0.0,
            "cpu_per_s": n / cpu if cpu else 0.0, "commands": n, "matches": matches}


def seed_database(path: str, n: int, games: list[str], *, distinct: int = 100,
                  seed: int = 1) -> dict[str, int]:
    """Store ``n`` unfinished (active) matches in the SQLite file ``path``, spread round-robin
    over ``games``, each with a command log and a snapshot at its end, exactly as the host
    writes them.  Each position is a random point of a whole random match (from the first
    command to the last before the end, uniformly), so the stored matches are early, middle
    and late games alike.  ``distinct`` different positions per game are played and reused
    (each row is its own match id, seats and log).  Written in one transaction, unsynced: this
    is set-up, not what is measured."""
    import asyncio

    from data.rows import INSERT as _INSERT, prepare as _prepare
    from data.store import ACTIVE, MatchRecord, open_store

    async def _schema() -> None:
        store = await open_store(path)
        await store.close()

    asyncio.run(_schema())
    rng = random.Random(seed)
    samples: dict[str, list[tuple[int, Any, list[tuple[int, str]], str]]] = {}
    for name in games:
        game = registry.get(name)
        out = []
        for _ in range(max(1, min(distinct, n))):
            s = rng.randrange(2**31)
            _, whole = random_match(game, rng, s, max_commands=MAX_MATCH_COMMANDS)
            log = whole[:rng.randrange(1, len(whole))] if len(whole) > 1 else []
            state = replay(game, s, log)
            out.append((s, state, log, game.dump(state)))
        samples[name] = out
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA synchronous = OFF")
        db.execute("BEGIN")
        now = time.time()
        per_game: dict[str, int] = {g: 0 for g in games}
        for i in range(n):
            name = games[i % len(games)]
            s, _, log, dump = samples[name][(i // len(games)) % len(samples[name])]
            k = players_for(registry.get(name))
            seats = [USER_BASE + (i * 8 + j) % 50_000 for j in range(k)]
            if len(set(seats)) != k:
                seats = [USER_BASE + i * 8 + j for j in range(k)]
            rec = MatchRecord(game=name, seed=s, seats=seats, names=[f"P{j + 1}" for j in range(k)],
                              creator=seats[0], status=ACTIVE, guild_id=1, channel_id=1_000_000 + i,
                              turn_seconds=3600, deadline=now + 3600, accepted=list(seats),
                              snapshot=dump, snapshot_seq=len(log), n_commands=len(log),
                              meta={"locale": "ja" if i % 2 else "en"},
                              created_at=now, updated_at=now)
            row, _ = _prepare(rec, id=None, version=1)
            match_id = db.execute(_INSERT, row[1:]).lastrowid
            db.executemany("INSERT INTO match_players (match_id, seat, user_id) VALUES (?, ?, ?)",
                           [(match_id, j, u) for j, u in enumerate(seats)])
            db.executemany("INSERT INTO commands (match_id, seq, seat, command, at) "
                           "VALUES (?, ?, ?, ?, ?)",
                           [(match_id, q + 1, seat, cmd, now) for q, (seat, cmd) in enumerate(log)])
            per_game[name] += 1
        db.execute("COMMIT")
    finally:
        db.close()
    return per_game
