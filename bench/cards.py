"""``python -m bench --cards [--quick] [--json FILE]``: servers' card sets (issue 36).

- ``validate_500_s`` — a 500-card upload (one CSV per card layout, made from the game's shipped
  cards under new ids and names, with two ready-made decks) read, checked, stored and its engine
  built, through :meth:`host.card_sets.CardSets.upload` on a fresh SQLite store, as ``/cards
  upload`` does; the slowest of the four card games (each in ``meta``).  Target ≤ 1 s.
- ``show_png_ms_p99`` — one page of that set drawn (:func:`render.card_pages.page_png`, six
  cards, as ``/cards show`` and its ◀ ▶ do), every page of it in both languages; the p99 over
  all of them, the slowest game.  Target ≤ 150 ms.
- ``loop_lag_p99_ms_during_balance`` — the event loop's lag (a probe that sleeps 2 ms over and
  over, as ``python -m bench``'s loop lag) while a balance run of Battle Logic Square's worked
  example (``docs/card_sets/``) plays in its worker process and its progress is stored after
  every chunk (:class:`host.balance_runs.BalanceRuns`).  Target
  ≤ 20 ms.
- ``worst_upload_s`` / ``worst_upload_mib`` — the slowest (CPU seconds) and the largest (the
  peak of Python allocations, tracemalloc) of a fixed corpus of hostile uploads read and checked
  as ``/cards upload`` does: zip bombs and damaged members, deep and huge JSON, wide CSVs, lone
  surrogates, hostile names, rules blocks, too many cards (:mod:`bench.hostile_uploads`, issue
  45; ``--tiny`` measures only the issue's own shapes).  Targets ≤ 2 s and ≤ 64 MiB.

The JSON: ``{"cards": {figure: value}, "meta": {...}}``.  Figures are measured here, never
asserted in tests.
"""
from __future__ import annotations

import asyncio
import csv
import io
import os
import statistics
import tempfile
import time
import zipfile
from typing import Any, Callable

from bench.targets import missed, table_line

Log = Callable[[str], None]

PLANS: dict[str, dict[str, Any]] = {
    "full": {"cards": 500, "pages": None, "lag_seconds": 20.0, "games": None, "hostile": "all"},
    "quick": {"cards": 500, "pages": 24, "lag_seconds": 8.0, "games": None, "hostile": "all"},
    "tiny": {"cards": 60, "pages": 2, "lag_seconds": 1.0, "games": ["art_of_war"], "hostile": "issue"},
}
TARGETS: dict[str, tuple[str, float]] = {
    "validate_500_s": ("<=", 1.0),
    "show_png_ms_p99": ("<=", 150.0),
    "loop_lag_p99_ms_during_balance": ("<=", 20.0),
    "worst_upload_s": ("<=", 2.0),
    "worst_upload_mib": ("<=", 64.0),
}
LABELS: dict[str, tuple[str, str]] = {
    "validate_500_s": ("a 500-card upload checked and stored", "s"),
    "show_png_ms_p99": ("one page of a set drawn, p99", "ms"),
    "loop_lag_p99_ms_during_balance": ("event-loop lag p99 during a balance run", "ms"),
    "worst_upload_s": ("the slowest hostile upload checked (CPU)", "s"),
    "worst_upload_mib": ("the largest hostile upload checked (peak)", "MiB"),
}


def big_upload(game: str, n: int) -> bytes:
    """A zip of one CSV per layout: ``n`` cards made from the shipped ones (new ids and names),
    two decks of shipped cards."""
    from data.card_sets import games
    from data.card_sets.export import combined, layout_rows
    from data.card_sets.model import SetContent

    adapter = games.adapter(game)
    shipped = SetContent(game, "extend", None, [list(f) for f in adapter.shipped_files(None)])
    data = combined(shipped)
    sections = [s for s, _i, _e in adapter.own_items(data) if s not in ("decks", "units")]
    cards_section = max(set(sections), key=sections.count)        # the game's most numerous cards
    templates = [e for s, _i, e in adapter.own_items(data) if s == cards_section]
    fixed = set(adapter.fixed_ids)
    clones, k = [], 0
    while len(clones) < n:
        t = templates[k % len(templates)]
        k += 1
        if t.get("id") in fixed:
            continue
        c = dict(t, id=f"zz{len(clones):03d}")
        c["name"] = {lang: f"{text[:36]} {len(clones)}" for lang, text in t["name"].items()}
        clones.append(c)
    own = {cards_section: clones, "decks": [d for s, _i, d in adapter.own_items(data) if s == "decks"][:2]}
    if isinstance(data.get("decks"), dict):          # a keyed section (Avalon's Sanctuary)
        own["decks"] = dict(list(data["decks"].items())[:2])
    content = SetContent(game, "extend", None, [["big.json", own]])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        data_own = combined(content)
        for layout in adapter.layouts:
            header, rows = layout_rows(content, layout, data_own)
            if rows:
                out = io.StringIO()
                csv.writer(out).writerows([header] + [["" if v is None else v for v in r] for r in rows])
                z.writestr(f"{layout.kind}.csv", out.getvalue())
    return buf.getvalue()


async def _upload_timed(game: str, body: bytes, path: str) -> tuple[float, Any]:
    from data.store import open_store
    from host import Host, engines

    engines.forget()
    store = await open_store(path)
    try:
        host = Host(store, render=False)
        t0 = time.perf_counter()
        res = await host.card_sets.upload(1, 1, game, "Bench", "big.zip", body)
        took = time.perf_counter() - t0
        if not res.ok:
            raise RuntimeError(f"{game}: the bench's upload was refused: "
                               + "; ".join(p.render() for p in res.data.get("problems", [])[:3]))
        entries = await host.card_sets.entries(await engines.load(store, res.data["set"].id))
        return took, entries
    finally:
        await store.close()


def measure_upload_and_pages(cfg: dict, out: dict, log: Log, tmp: str) -> None:
    from data.card_sets import games
    from render.card_pages import PER_PAGE, page_png

    worst_upload, worst_page = 0.0, 0.0
    meta = out["meta"].setdefault("games", {})
    for game in cfg["games"] or list(games.GAMES):
        body = big_upload(game, cfg["cards"])
        asyncio.run(_upload_timed(game, body, f"{tmp}/warm-{game}.db"))          # imports, caches
        took, entries = asyncio.run(_upload_timed(game, body, f"{tmp}/{game}.db"))
        log(f"cards: {game}: {cfg['cards']}-card upload in {took:.3f} s")
        pages = [entries[i:i + PER_PAGE] for i in range(0, len(entries), PER_PAGE)]
        if cfg["pages"]:
            step = max(1, len(pages) // cfg["pages"])
            pages = pages[::step][:cfg["pages"]]
        times = []
        for locale in ("en", "ja"):
            page_png(game, pages[0], title="Bench v1", page=1, pages=len(pages), locale=locale)   # warm
            for i, chunk in enumerate(pages):
                t0 = time.perf_counter()
                page_png(game, chunk, title="Bench v1", page=i + 1, pages=len(pages), locale=locale)
                times.append(1000 * (time.perf_counter() - t0))
        from bench.latency import percentile

        p99 = percentile(times, 99)
        log(f"cards: {game}: {len(times)} pages drawn, p99 {p99:.1f} ms")
        meta[game] = {"upload_s": round(took, 3), "page_ms_p99": round(p99, 1),
                      "page_ms_median": round(statistics.median(times), 1), "pages": len(times),
                      "upload_kib": round(len(body) / 1024, 1)}
        worst_upload, worst_page = max(worst_upload, took), max(worst_page, p99)
    out["cards"]["validate_500_s"] = round(worst_upload, 3)
    out["cards"]["show_png_ms_p99"] = round(worst_page, 1)
    out["meta"]["cards_per_upload"] = cfg["cards"]


def example_zip(game: str) -> bytes:
    """The game's worked example of ``docs/card_sets/`` (its CSVs, two ready-made decks) as a zip."""
    from pathlib import Path

    docs = Path(__file__).resolve().parent.parent / "docs" / "card_sets"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in sorted(docs.glob(f"{game}_*.csv")):
            z.writestr(p.name, p.read_bytes())
    return buf.getvalue()


async def _lag_during_balance(seconds: float, path: str) -> dict:
    from bench.latency import _probe, percentile
    from data.store import open_store
    from host import Host, engines
    from host.balance_runs import BalanceRuns

    engines.forget()
    store = await open_store(path)
    try:
        host = Host(store, render=False)
        res = await host.card_sets.upload(1, 1, "logic_square", "Bench", "set.zip", example_zip("logic_square"))
        if not res.ok:
            raise RuntimeError("the balance bench's set was refused")
        runs = BalanceRuns(store, host.card_sets)
        run = (await runs.request(1, 1, "logic_square", "Bench")).data["run"]
        await asyncio.sleep(1.5)                     # the worker process is up and playing
        stop, lags = asyncio.Event(), []
        probe = asyncio.create_task(_probe(stop, lags, 0.002))
        await asyncio.sleep(seconds)
        stop.set()
        await probe
        played = len((await store.get_balance_run(run.id)).progress.get("results", []))
        await runs.stop()
        return {"p99_ms": 1000 * percentile(lags, 99), "max_ms": 1000 * max(lags), "samples": len(lags),
                "matches_played": played}
    finally:
        await store.close()


def measure_lag(cfg: dict, out: dict, log: Log, tmp: str) -> None:
    log(f"cards: the event loop for {cfg['lag_seconds']:g} s while a balance run plays …")
    lag = asyncio.run(_lag_during_balance(cfg["lag_seconds"], f"{tmp}/balance.db"))
    out["cards"]["loop_lag_p99_ms_during_balance"] = round(lag["p99_ms"], 2)
    out["meta"]["balance_lag"] = {k: round(v, 2) if isinstance(v, float) else v for k, v in lag.items()}


def measure_hostile(cfg: dict, out: dict, log: Log, tmp: str) -> None:
    from bench.hostile_uploads import ISSUE_SHAPES, worst

    got = worst(log, only=ISSUE_SHAPES if cfg.get("hostile") == "issue" else None)
    out["cards"]["worst_upload_s"] = round(got["worst_upload_s"], 3)
    out["cards"]["worst_upload_mib"] = round(got["worst_upload_mib"], 1)
    out["meta"]["hostile"] = {"shapes": got["shapes"], "slowest": got["slowest"], "largest": got["largest"]}


MEASURES = (measure_upload_and_pages, measure_lag, measure_hostile)


def run_cards(plan: str = "full", games: list[str] | None = None, log: Log = lambda s: None) -> dict[str, Any]:
    cfg = dict(PLANS[plan])
    if games:
        cfg["games"] = [g for g in games if g in ("logic_square", "maken", "art_of_war", "avalon")]
    out: dict[str, Any] = {"cards": {}, "meta": {"plan": plan, "cpus": os.cpu_count()}}
    with tempfile.TemporaryDirectory() as tmp:
        for measure in MEASURES:
            measure(cfg, out, log, tmp)
    return out


def misses(result: dict[str, Any]) -> list[str]:
    """The targets missed, in words (empty: every target holds)."""
    return missed(result.get("cards") or {}, TARGETS, LABELS)


def format_cards(result: dict[str, Any]) -> str:
    lines = [table_line(key, value, TARGETS, LABELS, width=46) for key, value in (result.get("cards") or {}).items()]
    meta = result.get("meta") or {}
    for game, row in (meta.get("games") or {}).items():
        lines.append(f"  {game}: upload {row['upload_s']:.3f} s ({row['upload_kib']} KiB zipped), "
                     f"page p99 {row['page_ms_p99']} ms, median {row['page_ms_median']} ms over {row['pages']} pages")
    lag = meta.get("balance_lag") or {}
    if lag:
        lines.append(f"  balance run: {lag.get('matches_played')} matches played while probing, "
                     f"{lag.get('samples')} probes, loop held at most {lag.get('max_ms')} ms")
    hostile = meta.get("hostile") or {}
    if hostile:
        lines.append(f"  hostile uploads: {hostile.get('shapes')} shapes; slowest: {hostile.get('slowest')}; "
                     f"largest: {hostile.get('largest')}")
    lines.append(f"plan {meta.get('plan')} · {meta.get('cpus')} CPUs")
    return "\n".join(lines)


__all__ = ["run_cards", "format_cards", "misses", "big_upload", "TARGETS"]
