"""Smoke test of the benchmark machinery (``python -m bench``) on a tiny sample.

Checks that it runs end to end for every registered game and writes JSON with every key and
sane types.  No timed asserts: speed is measured by the benchmark, never asserted here.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

from rules import registry

ROOT = Path(__file__).resolve().parent.parent
GAME_KEYS = {"p50_ms": float, "p99_ms": float, "render_ratio": float, "png_bytes": int,
             "rules_commands_per_s": float}
TOP_KEYS = ("startup_s", "active_matches_rss_mib_per_10k", "loaded_matches_rss_mib", "loop_lag_p99_ms")


def _number(v, kind) -> bool:
    if kind is int:
        return type(v) is int and v >= 0
    return type(v) in (int, float) and math.isfinite(v) and v >= 0


def test_bench_cli_writes_every_figure_for_every_game(tmp_path):
    out = tmp_path / "bench.json"
    proc = subprocess.run([sys.executable, "-m", "bench", "--tiny", "--quiet", "--json", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    data = json.loads(out.read_text(encoding="utf-8"))
    errors = data["meta"]["errors"]
    assert proc.returncode == (1 if errors else 0), proc.stderr[-3000:]
    assert set(data["games"]) == set(registry.names())
    for name, figs in data["games"].items():
        assert set(figs) >= set(GAME_KEYS)
        if name in errors:       # a broken engine is reported, not hidden; its figures are null
            assert all(figs[k] is None for k in GAME_KEYS)
            continue
        for key, kind in GAME_KEYS.items():
            assert _number(figs[key], kind), (name, key, figs[key])
        assert figs["p50_ms"] <= figs["p99_ms"]      # order of two percentiles, not a timing
        # render_ratio > 1 only in the mean: on a busy machine a tiny sample may time an encode
        # slower than the whole picture, so no bound on it here (that would be a timed assert)
        assert figs["png_bytes"] > 0 and figs["render_ratio"] > 0
    for key in TOP_KEYS:
        assert _number(data[key], float), (key, data[key])
    assert data["meta"]["loop_lag"]["renders"] > 0
    assert data["meta"]["loop_lag"]["renders_on_loop"] == 0     # pictures never on the loop
    sizes = data["meta"]["plan_sizes"]
    assert data["meta"]["startup"]["resumed"] == sizes["stored_matches"]
    # every stored match of every game was seeded, loaded and measured (else the run fails)
    assert data["meta"]["stored_matches"] == {g: sizes["stored_matches"] // len(registry.names())
                                              for g in registry.names()}
    memory = data["meta"]["memory"]
    assert memory["cached"] == memory["matches"] == sizes["active_matches"]
    assert memory["loaded"] == sizes["loaded_matches"]
    assert memory["played"] == sizes["active_matches"] + sizes["played_sample"]
    # the table names every game and marks every figure against its target
    for name in registry.names():
        assert name in proc.stdout
    assert "start-up" in proc.stdout and "loop lag" in proc.stdout
    assert proc.stdout.count(" ok") + proc.stdout.count("MISS") + proc.stdout.count("n/a") >= 7


def test_table_marks_misses_and_missing_figures():
    from bench import format_table, targets_met

    result = {"games": {"g": {"p50_ms": 1.0, "p99_ms": 61.0, "render_ratio": 1.5,
                              "png_bytes": 1000, "rules_commands_per_s": 20_000.0},
                        "h": {"p50_ms": None, "p99_ms": None, "render_ratio": None,
                              "png_bytes": None, "rules_commands_per_s": None}},
              "startup_s": 0.5, "active_matches_rss_mib_per_10k": 2048.0, "loop_lag_p99_ms": 3.0}
    met = targets_met(result)
    assert met["g.p99_ms"] is False and met["g.render_ratio"] is True
    assert met["active_matches_rss_mib_per_10k"] is False and met["startup_s"] is True
    table = format_table(result)
    assert "61.0 MISS" in table and "n/a" in table


def test_percentile_is_nearest_rank():
    from bench.latency import percentile

    xs = [float(i) for i in range(1, 101)]
    assert percentile(xs, 50) == 50.0 and percentile(xs, 99) == 99.0 and percentile(xs, 100) == 100.0
    assert percentile([7.0], 99) == 7.0


async def test_bench_host_records_a_finished_match_as_the_bot_does(tmp_path):
    """A command that ends a match also records it and rates the players (the records and
    leagues cogs' on_finish hooks), so the benchmark times what the bot does."""
    import random

    from bench.latency import GUILD_ID, _Table, bot_host
    from bench.workload import USER_BASE
    from data.store import ACTIVE, FINISHED, open_store

    store = await open_store(str(tmp_path / "b.db"))
    try:
        host = bot_host(store, render=False)
        table = _Table(host, "squares", random.Random(3), USER_BASE)
        mid, prompts = await table.new_match()
        status = ACTIVE
        while status == ACTIVE:
            res = await host.command(mid, *table.pick(prompts))
            assert res.ok, res.error
            status, prompts = res.match.status, res.prompts
        assert status == FINISHED and res.match.guild_id == GUILD_ID
        assert await store.is_processed(mid)
        ratings = await store.get_ratings("global", "squares", list(res.match.seats))
        assert set(ratings) == set(res.match.seats)
    finally:
        await store.close()


def test_stored_matches_are_rows_the_host_wrote_copied_as_new_matches(tmp_path):
    """The start-up and memory benchmarks store matches made by the real host (challenge,
    accept, commands), cut anywhere before the end, and copy them: a copy is its template's row
    (rules edition, options, meta, snapshot, log) with its own id, players and channel."""
    import asyncio
    import random
    import sqlite3

    from bench.workload import copy_templates, play_templates
    from data.store import ACTIVE, open_store

    games = registry.names()
    templates = asyncio.run(play_templates(games, 2, random.Random(3)))
    path = str(tmp_path / "s.db")

    async def schema_and_read(ids: list[int]) -> list:
        store = await open_store(path)
        try:
            return [(await store.get_match(i), await store.commands(i)) for i in ids]
        finally:
            await store.close()

    asyncio.run(schema_and_read([]))
    per_game = copy_templates(path, templates, 4 * len(games), games)
    assert per_game == {g: 4 for g in games}
    db = sqlite3.connect(path)
    ids = [r[0] for r in db.execute("SELECT id FROM matches ORDER BY id")]
    db.close()
    players, channels = set(), set()
    for i, (rec, log) in enumerate(asyncio.run(schema_and_read(ids))):
        name = games[i % len(games)]
        t = templates[name][(i // len(games)) % 2]
        game = registry.get(name)
        assert rec.game == name and rec.status == ACTIVE and rec.n_commands == len(log) >= 1
        if getattr(game, "editions", None):
            assert rec.meta["edition"] == game.editions[-1]      # as the host starts a match
        same = ("seed", "prng", "options", "names", "meta", "snapshot", "snapshot_seq",
                "n_commands", "turn_seconds", "deadline", "guild_id", "version")
        assert {k: getattr(rec, k) for k in same} == {k: getattr(t.record, k) for k in same}
        assert [(c.seq, c.seat, c.command) for c in log] == [(c.seq, c.seat, c.command) for c in t.commands]
        assert rec.creator == rec.seats[0] and sorted(rec.accepted) == sorted(rec.seats)
        assert len(set(rec.seats)) == len(rec.seats) and tuple(rec.seats) not in players
        players.add(tuple(rec.seats))
        channels.add(rec.channel_id)
    assert len(channels) == len(ids)


def _break_first_command(db, match_id: int) -> None:
    """Make the first log entry of a stored match one its engine refuses (the log is
    append-only: no UPDATE, so delete the entry and write it again)."""
    seat, at = db.execute("SELECT seat, at FROM commands WHERE match_id = ? AND seq = 1",
                          (match_id,)).fetchone()
    db.execute("DELETE FROM commands WHERE match_id = ? AND seq = 1", (match_id,))
    db.execute("INSERT INTO commands (match_id, seq, seat, command, at) VALUES (?, 1, ?, ?, ?)",
               (match_id, seat, "no such move", at))


def _seeded(tmp_path, n: int) -> tuple[str, dict[str, int]]:
    from bench.workload import seed_database

    path = str(tmp_path / "stored.db")
    return path, seed_database(path, n, registry.names(), distinct=2)


def test_every_seeded_match_of_every_game_loads_and_plays(tmp_path):
    """The memory benchmark loads every seeded match into the host's state cache and plays a
    legal command in each (here all of them), as ``python -m bench`` checks its own."""
    import sqlite3

    from bench import measure_memory

    games = registry.names()
    path, per_game = _seeded(tmp_path, 3 * len(games))
    assert per_game == {g: 3 for g in games}
    db = sqlite3.connect(path)
    before = dict(db.execute("SELECT id, n_commands FROM matches"))
    db.close()
    mem = measure_memory(path, 2 * len(games), 3 * len(games), sample=len(games))
    assert mem["matches"] == mem["cached"] == 2 * len(games)
    assert mem["loaded"] == mem["cached_loaded"] == 3 * len(games)
    assert mem["played"] == 3 * len(games) and mem["n_quarantined"] == 0
    assert not mem["not_loaded"] and not mem["not_played"]
    db = sqlite3.connect(path)
    after = dict(db.execute("SELECT id, n_commands FROM matches"))
    db.close()
    # each one's command was committed: its log is one entry longer
    assert {i: after[i] - before[i] for i in before} == {i: 1 for i in before}


def test_a_seeded_match_the_host_refuses_fails_the_memory_benchmark(tmp_path):
    """A stored row the host will not serve — a rules edition missing from its meta (what the
    old seeding wrote), a log entry its engine refuses — fails the benchmark, naming the game."""
    import sqlite3

    import pytest

    from bench import measure_memory
    from bench.workload import SeedingFailed

    games = registry.names()
    path, _ = _seeded(tmp_path, 4 * len(games))
    db = sqlite3.connect(path, isolation_level=None)
    # a Project Maken row with a snapshot, without its edition: replays under edition 1
    maken = db.execute("SELECT id FROM matches WHERE game = 'maken' AND snapshot IS NOT NULL "
                       "ORDER BY id DESC LIMIT 1").fetchone()
    assert maken is not None, "the seeding made no Project Maken match with a snapshot"
    db.execute("UPDATE matches SET meta = json_remove(meta, '$.edition') WHERE id = ?", maken)
    # an Art of War row whose first log entry is nonsense
    aow = db.execute("SELECT id FROM matches WHERE game = 'art_of_war' ORDER BY id LIMIT 1").fetchone()
    _break_first_command(db, aow[0])
    db.close()
    with pytest.raises(SeedingFailed) as err:
        measure_memory(path, len(games), 4 * len(games))
    message = str(err.value)
    assert "'maken': 1" in message and "'art_of_war': 1" in message and "2 quarantined" in message


def test_the_bench_exits_non_zero_without_figures_when_a_seeded_match_does_not_load(
        tmp_path, monkeypatch, capsys):
    """``python -m bench``: a seeded match the host refuses ends the run with exit status 1 and
    a message saying which, instead of a table measured over fewer matches than it names."""
    import sqlite3

    import bench.workload
    from bench.__main__ import main

    seed = bench.workload.seed_database

    def seed_then_break(path, n, games, **kw):
        per_game = seed(path, n, games, **kw)
        db = sqlite3.connect(path, isolation_level=None)
        _break_first_command(db, db.execute("SELECT id FROM matches ORDER BY id LIMIT 1 OFFSET 5")
                             .fetchone()[0])
        db.close()
        return per_game

    monkeypatch.setattr(bench.workload, "seed_database", seed_then_break)
    out = tmp_path / "bench.json"
    assert main(["--tiny", "--quiet", "--game", "squares", "--json", str(out)]) == 1
    captured = capsys.readouterr()
    assert "bench failed" in captured.err and "'squares': 1" in captured.err
    assert "start-up" not in captured.out and not out.exists()


def test_bench_runs_the_host_on_a_database_url_without_printing_its_password(tmp_path, pg_url):
    """``--database-url`` puts the host latency and loop lag on that store (here the test
    PostgreSQL server); the figures name the store, never its password."""
    from bench import _redacted

    assert _redacted("postgresql://doujin:s3cret@db.example.org:5432/doujin") == \
        "postgresql://doujin:***@db.example.org:5432/doujin"
    assert _redacted("postgresql://doujin@/doujin?host=/tmp") == "postgresql://doujin@/doujin?host=/tmp"
    out = tmp_path / "bench.json"
    proc = subprocess.run([sys.executable, "-m", "bench", "--tiny", "--quiet", "--game", "squares",
                           "--database-url", pg_url, "--json", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert proc.returncode == 0 and not data["meta"]["errors"], proc.stderr[-3000:]
    assert data["meta"]["store"] == _redacted(pg_url) and "postgresql" in proc.stdout
    for key, kind in GAME_KEYS.items():
        assert _number(data["games"]["squares"][key], kind), key
    assert data["meta"]["loop_lag"]["renders"] > 0


def test_discord_bench_table_and_targets():
    """`python -m bench --discord` (bench/discord.py): the README table and the target check
    read the figures it measures (the run itself plays through the twin; see the README)."""
    from bench.discord import format_discord, misses

    good = {"interactions_per_move_median": 2.0, "interactions_per_move_max": 3, "taps_per_turn_median": 4,
            "taps_per_turn_p95": 9, "public_messages_per_turn": 1.0,
            "rest_calls_per_command": 2.0, "board_is_last_message": True, "raw_id_labels": 0, "phone_text_px": 9.0}
    bad = dict(good, raw_id_labels=12, phone_text_px=4.2, board_is_last_message=False, taps_per_turn_p95=18)
    result = {"discord": {"squares": good, "avalon": bad}}
    table = format_discord(result)
    assert "| squares | 2.0 | 3 | 4 | 9 | 1.0 | 2.0 | yes | 0 | 9.0 |" in table
    assert "| avalon | 2.0 | 3 | 4 | 18 | 1.0 | 2.0 | NO | 12 | 4.2 |" in table
    assert misses(result) == ["avalon: taps/turn p95", "avalon: board last", "avalon: raw-id labels",
                              "avalon: phone text"]
    # every game plays a move in at most 2 taps at the median and 3 at most
    assert "| target | ≤ 2 | ≤ 3 |" in table
    slow = dict(good, interactions_per_move_median=2.5, interactions_per_move_max=4)
    assert misses({"discord": {"maken": slow}}) == ["maken: taps/move median", "maken: taps/move max"]


def test_discord_bench_looks_at_the_end_once_the_gif_has_come():
    """The end-of-match animated picture is drawn in another process and comes seconds after the
    final board: the bench waits for it (on the board, or posted on its own) before it looks at
    the thread's newest message and counts the REST calls, and gives up after GIF_WAIT."""
    import asyncio

    from bench import discord as bench_discord

    class Thread:
        def __init__(self, names: list[str]) -> None:
            self.messages = [{"attachments": [{"filename": n} for n in names]}]
            self.timeouts: list[float] = []
            self.settled = 0

        def posts(self, channel_id: int) -> list[dict]:
            return self.messages

        async def wait_for(self, predicate, *, timeout: float, what: str = ""):
            self.timeouts.append(timeout)
            if predicate():
                return True
            raise AssertionError(f"timed out waiting for {what}")

        async def settle(self, *, quiet: float) -> None:
            self.settled += 1

    joined = Thread(["board.png", "match-7.gif"])
    asyncio.run(bench_discord._await_gif(joined, 1, 7))
    assert joined.timeouts == [bench_discord.GIF_WAIT] and joined.settled == 1
    other = Thread(["board.png", "match-8.gif"])       # another match's picture is not this one's
    asyncio.run(bench_discord._await_gif(other, 1, 7))
    assert other.settled == 0


def test_discord_bench_pools_turns_and_takes_the_median_of_rest_calls():
    """Issue 33: taps per turn (a turn = a run of consecutive moves by one player) pooled over
    the seeds' matches, with its 95th percentile by the nearest rank; REST calls per command
    the median over the seeds (a batch counts as one command)."""
    from bench.discord import _figures, percentile

    assert percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 95) == 19
    assert percentile([4], 95) == 4 and percentile([], 95) == 0
    run = {"moves": 4, "turns": 2, "resigned": False, "refused": 0, "taps": [2, 1, 1, 2], "turn_taps": [4, 2, 0],
           "rest": 10, "kinds": {"edit:channel": 4}, "public": 2, "board_last": True, "raw_labels": 0,
           "phone_text_px": 9.0}
    f = _figures([run, dict(run, rest=8, phone_text_px=None), dict(run, rest=12, phone_text_px=None)])
    assert f["taps_per_turn_median"] == 3 and f["taps_per_turn_p95"] == 4
    assert f["rest_calls_per_command"] == 2.5 and f["rest_calls_per_command_by_seed"] == [2.5, 2.0, 3.0]
    assert f["phone_text_px"] == 9.0 and f["seeds"] == 3


def test_the_ai_benchmark_times_every_game_and_level():
    """``python -m bench --ai``: decision times per game and level (measured, not asserted —
    this smoke test only checks the figures are there)."""
    from bench.ai import format_ai, misses, run_ai

    result = run_ai("tiny", ["squares", "art_of_war"], hard_budget_s=0.05)
    assert set(result["ai"]) == {"squares", "art_of_war"}
    for row in result["ai"].values():
        assert row["normal"]["positions"] >= 1 and row["hard"]["positions"] >= 1
        assert row["hard"]["p99_ms"] >= 0
    assert "| squares |" in format_ai(result)
    assert isinstance(misses(result), list)


def test_the_scale_benchmark_counts_what_a_command_costs(tmp_path):
    """``python -m bench --scale`` (docs/scale.md): commands per second one process carries,
    with and without pictures, database transactions, pictures per command, memory per match.
    Measured, not asserted: the smoke test checks every figure is there and plausible."""
    from bench.scale import format_scale, run_scale

    result = run_scale("tiny", ["squares", "maken"])
    t, bare = result["throughput"], result["without_pictures"]
    # every command draws at least its board, but the window is cut by the clock: the pictures
    # of the last commands counted may be drawn just after it (measured 0.98 on a busy machine)
    assert t["commands"] > 0 and bare["commands"] > 0 and t["pictures_per_command"] >= 0.8
    assert bare["pictures_per_command"] == 0, "pictures off draws none"
    assert 0.9 <= t["write_transactions_per_command"] <= 1.5, "a command is one write transaction"
    assert 0 < t["picture_busy_share"] <= 1.05 and result["memory_kib_per_active_match"] > 0
    table = format_scale(result)
    assert "commands/s one process carries" in table and "per active match" in table


def test_the_leagues_benchmark_times_pairing_and_the_tournament_pictures():
    """``python -m bench --leagues`` (docs/performance.md): Swiss pairing at 256 and 1,024
    players, the 64-player bracket and the 256-player standings drawn, the bracket's smallest
    text at 400 px.  Measured, not asserted: the smoke test checks every figure is there."""
    from bench.leagues import TARGETS, format_leagues, misses, run_leagues

    result = run_leagues("tiny")
    figures = result["leagues"]
    assert set(figures) == set(TARGETS)
    assert all(isinstance(v, float) and v > 0 for v in figures.values())
    assert result["meta"]["pictures"]["bracket_pages_64"] > 1
    assert all(r["rematches"] == 0 for r in result["meta"]["swiss"]["fields"].values())
    table = format_leagues(result)
    assert "64-player double elimination" in table and isinstance(misses(result), list)


def test_the_replay_benchmark_writes_every_figure_for_every_game(tmp_path, capsys):
    """``python -m bench --replay --tiny --json FILE`` (docs/performance.md, "Replays and the
    animated picture"): for every game, the GIF of a random match played through the host
    (frames, steps, bytes, seconds, KiB a frame) and a replay step rebuilt without a cache (p99),
    printed as a table and written as JSON.  Measured, not asserted: every figure is there."""
    from bench.__main__ import main
    from bench.replay import FIGURES, TARGETS

    out = tmp_path / "replay.json"
    assert main(["--replay", "--tiny", "--quiet", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert set(result["replay"]) == set(registry.names())
    for game, figures in result["replay"].items():
        assert set(figures) == set(FIGURES), game
        # (the board's p99 while the worker draws GIFs needs the worker: not in --tiny)
        assert figures.pop("board_ms_p99_during_gif") is None
        assert all(_number(v, float) and v > 0 for v in figures.values()), (game, figures)
        assert figures["frames"] <= figures["steps"] + 1
        assert result["meta"]["games"][game]["status"] == "finished"
    table = capsys.readouterr().out
    assert "step p99 ms" in table and all(game in table for game in registry.names())
    assert set(TARGETS) <= set(FIGURES)


def test_the_cards_benchmark_writes_every_figure(tmp_path):
    """``python -m bench --cards`` (docs/performance.md): an upload checked and stored, a set's
    pages drawn, the event loop during a balance run — every figure with its target."""
    from bench.__main__ import main
    from bench.cards import TARGETS

    out = tmp_path / "cards.json"
    assert main(["--cards", "--tiny", "--quiet", "--json", str(out)]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    assert set(result["cards"]) == set(TARGETS)
    assert all(isinstance(v, (int, float)) and v >= 0 for v in result["cards"].values())
    assert result["meta"]["balance_lag"]["samples"] > 0 and "art_of_war" in result["meta"]["games"]


def test_the_stats_benchmark_writes_every_figure(tmp_path):
    """``python -m bench --stats`` (docs/performance.md): one match counted when it ends, a
    /stats answer with its picture, a rebuild from the logs — every figure, each game counted and
    answered, and the rebuild counting every stored match again."""
    from bench.__main__ import main
    from bench.stats import GAMES, LABELS, PLANS

    out = tmp_path / "stats.json"
    assert main(["--stats", "--tiny", "--quiet", "--json", str(out)]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    assert set(result["stats"]) == set(LABELS)
    assert all(isinstance(v, (int, float)) and v >= 0 for v in result["stats"].values())
    assert set(result["meta"]["first_count_ms"]) == set(GAMES) == set(result["meta"]["first_answer_ms"])
    tiny = PLANS["tiny"]
    assert result["meta"]["rebuilt_matches"] == tiny["stored"] + tiny["updates"] + len(GAMES)


def test_the_draft_benchmark_writes_every_figure(tmp_path):
    """``python -m bench --draft`` (docs/performance.md): a booster draft dealt, a computer
    drafter's pick, a pack's picture and /cards report's figures — every figure, every pick of
    the whole drafts timed, a pack of each card game drawn in both languages."""
    from bench.__main__ import main
    from bench.draft import LABELS, PLANS

    out = tmp_path / "draft.json"
    assert main(["--draft", "--tiny", "--quiet", "--json", str(out)]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    assert set(result["draft"]) == set(LABELS)
    assert all(isinstance(v, (int, float)) and v >= 0 for v in result["draft"].values())
    tiny = PLANS["tiny"]
    assert result["meta"]["picks"] == tiny["drafts"] * 8 * 3 * 15
    assert result["meta"]["pack_pictures"] == 4 * 2 * tiny["packs_drawn"]
