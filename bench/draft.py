"""``python -m bench --draft [--quick] [--json FILE]``: limited play (sealed and drafts) and the
per-card report of a server's set.  The JSON: ``{"draft": {figure: value}, "meta"}``.

- ``deal_ms`` — one booster draft dealt: 8 players × 3 packs of 15 from a 360-card cube and the
  draft's state made ready (:func:`host.limited.deal.cube_packs`, :class:`host.limited.draft.BoosterDraft`),
  from a fresh 32-byte seed; the median of ``deals`` dealings.  Target ≤ 50 ms.
- ``ai_pick_ms_p99`` — one pick of the computer drafter (:meth:`ai.drafter.Drafter.pick`) from a
  pack of 15 with a pool of up to 44, over every pick of ``drafts`` whole 8-seat drafts of
  Battle Logic Square's shipped cards (self-play values where measured, else the cards' own
  data).  Target ≤ 100 ms.
- ``pack_png_ms_p99`` — the picture of a pack of 15 (render/pack.py, as a drafter's DM shows
  it: each card drawn whole and numbered), PNG-encoded, for each card game in both languages.
  Target ≤ 150 ms.
- ``report_ms`` — ``/cards report``'s whole read for a set of 300 cards and 10,000 matches
  (20,000 seat-games of 30–40 cards, 300 drafts of 8 × 3 × 15 picks, 10,000 survey answers),
  as ``Feedback.report`` makes it: the store's counters read from a real SQLite file
  (:meth:`data.sql_card_counters.CardCountersSql.card_counts`) and the figures built from them
  (:func:`host.stats.card_figures.report_from_counts`), the median of ``reports`` runs.  Target
  ≤ 500 ms.  The file is filled once, untimed: the rows written straight into it (as rows kept
  before migration 0012 are), then counted from them by the store's first read — the one-off
  backfill of a version, ``meta.report_backfill_ms``.  ``meta`` also holds ``report_png_ms``
  (the report's picture), ``report_read_ms`` and ``report_figures_ms`` (the two parts of
  ``report_ms``), ``report_fill_s``, ``rows_report_ms`` (the report as it was made before the
  counters: every row read from the file and :func:`host.stats.card_figures.report` over them)
  and ``report_same`` (the report from the counters is the report from the rows).  The counters
  kept write by write are checked against the rows in tests/test_store_card_counters.py.
"""
from __future__ import annotations

import os
import random
import statistics
import time
from typing import Any, Callable

from bench.targets import missed, table_line

Log = Callable[[str], None]

PLANS: dict[str, dict[str, Any]] = {
    "full": {"deals": 50, "drafts": 6, "packs_drawn": 8, "cards": 300, "matches": 10_000, "drafts_report": 300,
             "reports": 5},
    "quick": {"deals": 20, "drafts": 2, "packs_drawn": 3, "cards": 300, "matches": 10_000, "drafts_report": 300,
              "reports": 3},
    "tiny": {"deals": 2, "drafts": 1, "packs_drawn": 1, "cards": 60, "matches": 200, "drafts_report": 4,
             "reports": 1},
}
TARGETS: dict[str, tuple[str, float]] = {
    "deal_ms": ("<=", 50.0),
    "ai_pick_ms_p99": ("<=", 100.0),
    "pack_png_ms_p99": ("<=", 150.0),
    "report_ms": ("<=", 500.0),
}
LABELS: dict[str, tuple[str, str]] = {
    "deal_ms": ("a booster draft dealt (8 × 3 packs of 15)", "ms"),
    "ai_pick_ms_p99": ("a computer drafter's pick, p99", "ms"),
    "pack_png_ms_p99": ("a pack of 15 drawn, p99", "ms"),
    "report_ms": ("/cards report read (300 cards, 10,000 matches)", "ms"),
}


def _p99(xs: list[float]) -> float:
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(0.99 * len(xs)))], 3)


def _deal(plan: dict) -> float:
    from host.limited.deal import cube_packs, deal_rng
    from host.limited.draft import BoosterDraft
    from host.limited.rng import new_seed

    cube = [f"c{i:03d}" for i in range(360)]
    times = []
    for _ in range(plan["deals"]):
        t = time.perf_counter()
        packs = cube_packs(cube, 8, 3, 15, deal_rng(new_seed(), "booster", "cube"))
        BoosterDraft(packs, computers=range(8)).start(0.0)
        times.append((time.perf_counter() - t) * 1000)
    return round(statistics.median(times), 3)


def _picks(plan: dict) -> list[float]:
    from ai.drafter import Drafter
    from host.limited.cards import shipped_values
    from host.limited.deal import cube_packs, deal_rng
    from host.limited.draft import BoosterDraft
    from host.limited.rng import new_seed
    from rules import registry

    cards = registry.get("logic_square").decks.cards()
    drafter = Drafter(shipped_values("logic_square") or None, "logic_square", cards=cards)
    pool_cards = [c for c, d in cards.items() if d.get("category") in ("Ac", "Sc", "Br", "IT", "AVI")]
    cube = [pool_cards[i % len(pool_cards)] for i in range(8 * 3 * 15)]
    times: list[float] = []

    def choose(seat: int, pack: tuple, pool: tuple) -> str:
        t = time.perf_counter()
        card = drafter.pick(pack, pool)
        times.append((time.perf_counter() - t) * 1000)
        return card
    for _ in range(plan["drafts"]):
        packs = cube_packs(list(range(len(cube))), 8, 3, 15, deal_rng(new_seed(), "booster", "cube"))
        named = [[tuple(cube[i] for i in pack) for pack in rnd] for rnd in packs]
        d = BoosterDraft(named, computers=range(8), timer=None)
        d.start(0.0)
        d.computer_picks(choose, 0.0)
    return times


def _pack_pictures(plan: dict, log: Log) -> list[float]:
    from data.card_sets import games
    from render.pack import pack_png

    times = []
    for game in ("logic_square", "maken", "art_of_war", "avalon"):
        ad = games.adapter(game)
        cs, _ = ad.validate(ad.base_files("extend", None))
        entries = {e.id: e for e in ad.entries(cs, set()) if not e.deck}
        ids = [i for i, e in entries.items() if e.view is not None]
        pack = [ids[i % len(ids)] for i in range(15)]
        for locale in ("en", "ja"):
            pack_png(game, pack, entries, title="Draft #1", note="Round 1 · pick 1", locale=locale)   # fonts warm
            for _ in range(plan["packs_drawn"]):
                t = time.perf_counter()
                pack_png(game, pack, entries, title="Draft #1", note="Round 1 · pick 1", locale=locale)
                times.append((time.perf_counter() - t) * 1000)
        log(f"  pack pictures of {game}: p99 so far {_p99(times)} ms")
    return times


def _report_rows(plan: dict) -> tuple[list, list, list, list[str]]:
    from host.stats.card_figures import PickRow, SeatGame, SurveyAnswer

    rnd = random.Random(7)
    cards = [f"k{i:03d}" for i in range(plan["cards"])]
    picks = []
    for draft in range(plan["drafts_report"]):
        for seat in range(8):
            for _round in range(3):
                pack = rnd.sample(cards, 15)
                for pick_no in range(1, 16):
                    offered = tuple(pack)
                    took = pack.pop(rnd.randrange(len(pack)))
                    picks.append(PickRow(draft, seat, took, pick_no, offered, seat < 2))
    games = []
    for match in range(plan["matches"]):
        for seat in range(2):
            deck = frozenset(rnd.sample(cards, rnd.randint(30, 40)))
            drawn = frozenset(list(deck)[:20])
            played = frozenset(list(drawn)[:12])
            games.append(SeatGame(match, seat, deck, drawn, played, float(seat == match % 2)))
    surveys = []
    for match in range(plan["matches"]):
        seen = games[2 * match].drawn | games[2 * match + 1].played
        some = sorted(seen)
        surveys.append(SurveyAnswer(match, str(match % 97), rnd.randint(1, 5), some[0], some[-1], seen))
    return picks, games, surveys, cards


GUILD, GAME, SET = 7001, "maken", ("Bench", 1)
T0 = 1_700_000_000.0


def _fill(path: str, picks: list, games: list, surveys: list) -> None:
    """The rows of :func:`_report_rows` written straight into the migrated file at ``path``, in
    one transaction, as the store writes them (the same columns and compact JSON lists): a done
    draft per bench draft (two people and six computers) with its picks, a finished match per
    bench match with its seat-games, and the survey answers.  No counters: the version is left
    marked to be counted from its rows, as a version kept before migration 0012 is, and the
    store's first read counts it."""
    import sqlite3

    from data.rows import dumps

    key = (GUILD, GAME, *SET)
    n_matches = len({g.match for g in games})
    drafts = sorted({p.draft for p in picks})
    seq: dict[int, int] = {}
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        db.executemany("INSERT INTO matches (id, game, status, version, guild_id, creator, seed, seats, names, "
                       "created_at, updated_at) VALUES (?, ?, 'finished', 1, ?, 1, 1, '[1,2]', '[\"a\",\"b\"]', ?, ?)",
                       [(m + 1, GAME, GUILD, T0, T0) for m in range(n_matches)])
        db.executemany("INSERT INTO limited_drafts (id, guild_id, game, set_name, set_version, format, source, seed, "
                       "created_by, created_at, status, state, version, updated_at) "
                       "VALUES (?, ?, ?, ?, ?, 'booster', 'cube', ?, 1, ?, 'done', '{}', 1, ?)",
                       [(d + 1, *key, (d + 1).to_bytes(32, "big").hex(), T0, T0) for d in drafts])
        db.executemany("INSERT INTO limited_seats (draft_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                       [(d + 1, seat, seat + 1 if seat < 2 else None, f"seat {seat}") for d in drafts
                        for seat in range(8)])
        rows = []
        for p in picks:
            seq[p.draft] = n = seq.get(p.draft, 0) + 1
            rows.append((p.draft + 1, n, 1 + (p.pick_no - 1) // 15, p.pick_no, p.seat, p.card,
                         dumps(list(p.offered), "offered"), int(p.human), T0, *key))
        db.executemany("INSERT INTO limited_picks (draft_id, seq, round, pick_no, seat, card, offered, human, at, "
                       "guild_id, game, set_name, set_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        db.executemany("INSERT INTO limited_games (match_id, seat, draft_id, guild_id, game, set_name, set_version, "
                       "deck, drawn, played, score) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [(g.match + 1, g.seat, drafts[g.match % len(drafts)] + 1, *key, dumps(sorted(g.deck), "deck"),
                         dumps(sorted(g.drawn), "drawn"), dumps(sorted(g.played), "played"), g.score) for g in games])
        db.executemany("INSERT INTO card_surveys (match_id, user_id, guild_id, game, set_name, set_version, fun, "
                       "strong, weak, seen, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [(a.match + 1, int(a.player_key) + 1, *key, a.fun, a.strong, a.weak,
                         dumps(sorted(a.seen), "seen"), T0) for a in surveys])
        db.execute("INSERT INTO card_count_totals (guild_id, game, set_name, set_version, counted) "
                   "VALUES (?, ?, ?, ?, 0)", key)
        db.execute("COMMIT")
    finally:
        db.close()


def _report_store(plan: dict, rows: tuple, log: Log) -> tuple[list[float], Any, dict[str, Any]]:
    """Fill a store in a temporary folder, then time ``/cards report``'s read: the counters and
    the figures (``reports`` runs), and once each the report from every row and the one-off
    count of the version from its rows."""
    import asyncio
    import tempfile

    from data.sqlite_store import SqliteStore
    from host.stats.card_figures import PickRow, SeatGame, SurveyAnswer, report, report_from_counts

    picks, games, surveys, cards = rows
    meta: dict[str, Any] = {}

    async def run(path: str) -> tuple[list[float], Any]:
        store = SqliteStore(path)
        await store.open()
        try:
            t = time.perf_counter()
            await asyncio.to_thread(_fill, path, picks, games, surveys)
            meta["report_fill_s"] = round(time.perf_counter() - t, 1)
            # the one-off count of the version from its rows (as after migration 0012)
            t = time.perf_counter()
            await store.card_counts(GUILD, GAME, *SET)
            meta["report_backfill_ms"] = round((time.perf_counter() - t) * 1000, 3)
            log(f"  the store filled in {meta['report_fill_s']} s, counted in {meta['report_backfill_ms']} ms")
            times, reads, figures = [], [], []
            for _ in range(plan["reports"]):
                t = time.perf_counter()
                counts, totals = await store.card_counts(GUILD, GAME, *SET)
                t1 = time.perf_counter()
                made = report_from_counts(counts, totals, cards=cards)
                t2 = time.perf_counter()
                times.append((t2 - t) * 1000)
                reads.append((t1 - t) * 1000)
                figures.append((t2 - t1) * 1000)
            meta["report_read_ms"] = round(statistics.median(reads), 3)
            meta["report_figures_ms"] = round(statistics.median(figures), 3)
            # the report as it was made before the counters: every row read, then counted
            t = time.perf_counter()
            p, g, a = await store.limited_rows(GUILD, GAME, *SET)
            from_rows = report(
                (PickRow(x.draft_id, x.seat, x.card, x.pick_no, x.offered, x.human) for x in p),
                (SeatGame(x.match_id, x.seat, frozenset(x.deck), frozenset(x.drawn), frozenset(x.played), x.score)
                 for x in g),
                (SurveyAnswer(x.match_id, str(x.user_id), x.fun, x.strong, x.weak, frozenset(x.seen)) for x in a),
                cards=cards)
            meta["rows_report_ms"] = round((time.perf_counter() - t) * 1000, 3)
            meta["report_same"] = from_rows == made
            return times, made
        finally:
            await store.close()

    with tempfile.TemporaryDirectory(prefix="bench-draft-") as tmp:
        times, made = asyncio.run(run(f"{tmp}/report.db"))
    return times, made, meta


def _report(plan: dict, log: Log) -> tuple[float, dict[str, Any]]:
    from render.card_report import report_png

    rows = _report_rows(plan)
    picks, games, surveys, cards = rows
    log(f"  report rows: {len(picks)} picks, {len(games)} seat-games, {len(surveys)} survey answers")
    times, made, meta = _report_store(plan, rows, log)
    t = time.perf_counter()
    report_png(made.to_json(), {c: c for c in cards}, locale="en", set_name="Bench", version=1)
    meta["report_png_ms"] = round((time.perf_counter() - t) * 1000, 3)
    return round(statistics.median(times), 3), meta


def run_draft(plan_name: str, log: Log = lambda s: None) -> dict[str, Any]:
    plan = PLANS[plan_name]
    log("draft: dealing")
    deal_ms = _deal(plan)
    log("draft: computer picks")
    picks = _picks(plan)
    log("draft: pack pictures")
    pngs = _pack_pictures(plan, log)
    log("draft: the report")
    report_ms, report_meta = _report(plan, log)
    return {"draft": {"deal_ms": deal_ms, "ai_pick_ms_p99": _p99(picks), "pack_png_ms_p99": _p99(pngs),
                      "report_ms": report_ms},
            "meta": {"plan": plan_name, "cpus": os.cpu_count(), "picks": len(picks), "pack_pictures": len(pngs),
                     "ai_pick_ms_median": round(statistics.median(picks), 3),
                     "pack_png_ms_median": round(statistics.median(pngs), 3), **report_meta,
                     "report_cards": plan["cards"], "report_matches": plan["matches"]}}


def misses(result: dict[str, Any]) -> list[str]:
    return missed(result.get("draft") or {}, TARGETS, LABELS)


def format_draft(result: dict[str, Any]) -> str:
    lines = [table_line(k, v, TARGETS, LABELS, width=52) for k, v in (result.get("draft") or {}).items()]
    meta = result.get("meta") or {}
    lines.append(f"  medians: a pick {meta.get('ai_pick_ms_median')} ms ({meta.get('picks')} picks), a pack picture "
                 f"{meta.get('pack_png_ms_median')} ms ({meta.get('pack_pictures')}); the report's picture "
                 f"{meta.get('report_png_ms')} ms")
    lines.append(f"  the report: counters read {meta.get('report_read_ms')} ms + figures {meta.get('report_figures_ms')} "
                 f"ms; from every row it took {meta.get('rows_report_ms')} ms; a version counted from its rows "
                 f"{meta.get('report_backfill_ms')} ms; the same report: {meta.get('report_same')}")
    lines.append(f"plan {meta.get('plan')} · {meta.get('cpus')} CPUs")
    return "\n".join(lines)


__all__ = ["run_draft", "format_draft", "misses", "TARGETS"]
