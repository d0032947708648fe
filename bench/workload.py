"""Workloads shared by the benchmarks: random legal play through the engine contract, and a
SQLite file seeded with many stored unfinished matches (for start-up and memory), made by the
real host (:func:`play_templates`) and copied (:func:`copy_templates`)."""
from __future__ import annotations

import random
import sqlite3
import time
from dataclasses import dataclass
from typing import Any, Callable

from rules import registry

USER_BASE = 10_000_000
MAX_MATCH_COMMANDS = 5_000   # a random match still running after this many is cut there


def players_for(game: Any) -> int:
    """The seat count a benchmark match uses: two if the game allows it, else its minimum."""
    return max(int(game.min_players), min(2, int(game.max_players)))


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


class SeedingFailed(RuntimeError):
    """A stored match the benchmark seeded does not load or play through the host: the start-up
    and memory figures would measure fewer (or other) matches than they name, so the benchmark
    stops instead of printing them."""


# Stored matches: a clock of an hour (none is due during a run), in one server, each in its own
# channel, their players drawn from SEED_USERS users (a player sits in several matches).
TURN_SECONDS = 3600
GUILD_ID = 1
CHANNEL_BASE = 1_000_000
SEED_USERS = 50_000


@dataclass
class Template:
    """A match played through the real host and read back as it stored it."""

    record: Any            # data.store.MatchRecord
    commands: list[Any]    # data.store.CommandRecord, in order


async def play_templates(games: list[str], per_game: int, rng: random.Random
                         ) -> dict[str, list[Template]]:
    """``per_game`` unfinished matches of every game, each made the way a player makes one —
    ``host.challenge``, every opponent's ``host.accept``, then ``host.command`` after
    ``host.command`` — through a real :class:`host.Host` on an in-memory SQLite store, and read
    back as the store holds them (``get_match``, ``commands``): the rules edition, options
    (decks), meta, snapshot and log are exactly what the host writes.  Each is cut at a random
    point of a whole random match (from its first command to the last before the end,
    uniformly: early, middle and late games alike); the whole match is played beforehand by
    the engine from the host's own initial state, so the cut is known before the host plays it."""
    from data.sqlite_store import SqliteStore
    from data.store import ACTIVE
    from host import Host
    from host.replay import _initial_state

    store = SqliteStore(":memory:")
    await store.open()
    try:
        host = Host(store, render=False, rng=random.Random(rng.randrange(2**63)))
        out: dict[str, list[Template]] = {}
        for name in games:
            game = registry.get(name)
            k = players_for(game)
            out[name] = []
            for t in range(per_game):
                users = [USER_BASE + j for j in range(k)]
                locale = "ja" if t % 2 else "en"
                res = await host.challenge(name, users[0], "P1", locale=locale,
                                           opponents=[(u, f"P{j + 2}") for j, u in enumerate(users[1:])],
                                           turn_seconds=TURN_SECONDS, guild_id=GUILD_ID,
                                           channel_id=CHANNEL_BASE)
                _must(res, name, "challenge")
                mid = res.match.id
                for u in users[1:]:
                    _must(await host.accept(mid, u), name, "accept")
                rec = await store.get_match(mid)
                state, whole = _initial_state(game, rec), []
                while game.outcome(state) is None and len(whole) < MAX_MATCH_COMMANDS:
                    seats = [s for s in game.to_act(state) if game.legal_commands(state, s)]
                    if not seats:
                        raise SeedingFailed(f"{name}: nobody has a legal command but the match is running")
                    seat = rng.choice(seats)
                    command = rng.choice(game.legal_commands(state, seat))
                    state = game.apply(state, seat, command)
                    whole.append((seat, command))
                for seat, command in whole[:rng.randrange(1, len(whole)) if len(whole) > 1 else 0]:
                    _must(await host.command(mid, rec.seats[seat], command), name, f"command {command!r}")
                rec = await store.get_match(mid)
                if rec is None or rec.status != ACTIVE:
                    raise SeedingFailed(f"{name}: template match {mid} is not active after its cut")
                out[name].append(Template(rec, await store.commands(mid)))
        return out
    finally:
        await store.close()


def _must(res: Any, name: str, what: str) -> None:
    if not res.ok:
        raise SeedingFailed(f"{name}: the host refused {what} while seeding: {res.error}")


def copy_templates(path: str, templates: dict[str, list[Template]], n: int,
                   games: list[str], each: Callable[[Any, int, int, Any, Template], None] | None = None
                   ) -> dict[str, int]:
    """Store ``n`` matches in the SQLite file ``path`` (its schema already made by the store),
    round-robin over ``games``, each a copy of one of the game's templates with its own id,
    players (and creator, acceptances) and channel: the template's row is encoded by the
    store's own codec (:func:`data.rows.prepare`) and inserted with the store's statements
    (match row, seat index, log entries with their seats, texts and times), so the row differs
    from what the host wrote only where a different match would.  The seed and the log are the
    template's, so the copy replays to the template's snapshot.  One transaction, unsynced:
    this is set-up, not what is measured.  ``each(db, i, match_id, record, template)`` is called
    after each copy is inserted, in the same transaction (``bench --stats`` counts it there)."""
    from dataclasses import replace

    from data.rows import INSERT, players, prepare

    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA synchronous = OFF")
        db.execute("BEGIN")
        per_game: dict[str, int] = {g: 0 for g in games}
        for i in range(n):
            name = games[i % len(games)]
            pool = templates[name]
            t = pool[(i // len(games)) % len(pool)]
            old = t.record
            k = len(old.seats)
            new_users = [USER_BASE + (i * 8 + j) % SEED_USERS for j in range(k)]
            if len(set(new_users)) != k:
                new_users = [USER_BASE + i * 8 + j for j in range(k)]
            user = dict(zip(old.seats, new_users))
            rec = replace(old, id=None, seats=new_users, creator=user[old.creator],
                          accepted=[user[u] for u in old.accepted],
                          abort_votes=[user[u] for u in old.abort_votes],
                          spectators=[], channel_id=CHANNEL_BASE + i)
            row, _ = prepare(rec, id=None, version=old.version)
            match_id = db.execute(INSERT, row[1:]).lastrowid
            db.executemany("INSERT INTO match_players (match_id, seat, user_id) VALUES (?, ?, ?)",
                           players(match_id, rec.seats))
            db.executemany("INSERT INTO commands (match_id, seq, seat, command, at) "
                           "VALUES (?, ?, ?, ?, ?)",
                           [(match_id, c.seq, c.seat, c.command, c.at) for c in t.commands])
            if each is not None:
                each(db, i, match_id, rec, t)
            per_game[name] += 1
        db.execute("COMMIT")
    finally:
        db.close()
    return per_game


def seed_database(path: str, n: int, games: list[str], *, distinct: int = 100,
                  seed: int = 1) -> dict[str, int]:
    """Store ``n`` unfinished (active) matches in the SQLite file ``path``, spread round-robin
    over ``games``: ``distinct`` matches per game played through the real host
    (:func:`play_templates`), copied as new matches (:func:`copy_templates`).  Returns the
    matches stored per game.  Whether every one loads and plays is checked by the memory
    benchmark (``bench._child memory``), which fails the run if one does not."""
    import asyncio

    from data.store import open_store

    async def _prepare() -> dict[str, list[Template]]:
        store = await open_store(path)     # the schema, made by the store's own migrations
        await store.close()
        return await play_templates(games, max(1, min(distinct, n)), random.Random(seed))

    return copy_templates(path, asyncio.run(_prepare()), n, games)
