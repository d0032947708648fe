"""``python -m bench``: the benchmarks' command line (``--help`` is plain argparse text).

Modes: the host benchmark (:mod:`bench`), ``--discord`` (:mod:`bench.discord`), ``--ai``
(:mod:`bench.ai`), ``--scale`` (:mod:`bench.scale`), ``--leagues`` (:mod:`bench.leagues`),
``--replay`` (:mod:`bench.replay`), ``--cards`` (:mod:`bench.cards`), ``--stats`` (:mod:`bench.stats`),
``--clock`` (:mod:`bench.clock`).
"""
from __future__ import annotations

import argparse
import json
import sys

from bench import format_table, run


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m bench", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Measure the bot. Without a mode flag: host latency and event-loop lag of every game,\n"
                    "on a fresh SQLite file per game (or --database-url).",
        epilog="examples:\n"
               "  python -m bench --quick                  the host benchmark, a smaller sample\n"
               "  python -m bench --discord --game maken   one match through the Discord controls\n"
               "  python -m bench --ai --quick             how long the computer player takes\n"
               "  python -m bench --scale --json out.json  what one process carries, also as JSON\n"
               "  python -m bench --leagues --quick        how long tournament pairing takes\n"
               "  python -m bench --replay --quick         a whole match's GIF and a replay step\n"
               "  python -m bench --cards --quick          a 500-card upload, a set's pages, a balance run\n"
               "  python -m bench --stats --quick          a server's statistics with many stored matches\n"
               "  python -m bench --clock --json out.json  the clock's tick and /turns with 100,000 bank matches")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="a smaller sample (a few minutes)")
    size.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)  # smoke test only
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON to FILE")
    p.add_argument("--game", action="append", metavar="NAME",
                   help="only this game (repeatable; default: every registered game)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--database-url", metavar="URL",
                   help="run the host latency and loop lag on this store, e.g. postgresql://user@host/db "
                        "(default: a fresh SQLite file per game)")
    p.add_argument("--discord", action="store_true",
                   help="the real bot against the local Discord twin: one match of every game played "
                        "through the controls, with taps per move, messages per turn, REST calls per "
                        "command, board position, raw-id labels and phone text size")
    p.add_argument("--seeds", type=int, default=5, metavar="N",
                   help="with --discord: matches per game, each from its own seed (default 5); the REST "
                        "calls per command reported are the median over them")
    p.add_argument("--ai", action="store_true",
                   help="how long the computer player takes to decide, per game and level "
                        "(normal p99 target 200 ms; hard within its 1 s budget)")
    p.add_argument("--scale", action="store_true",
                   help="what one process carries: commands/s, database transactions and pictures per "
                        "command, memory per active match (docs/scale.md)")
    p.add_argument("--leagues", action="store_true",
                   help="tournament pairing and pictures: Swiss pairing at 256 and 1,024 players "
                        "(issue targets in docs/performance.md)")
    p.add_argument("--replay", action="store_true",
                   help="replays: the animated GIF of the longest of a few random matches per game (bytes, "
                        "seconds, KiB per frame) and one replay step rebuilt without a cache (p99)")
    p.add_argument("--cards", action="store_true",
                   help="servers' card sets: a 500-card upload checked and stored, one page of a set drawn "
                        "(p99), and the event loop's lag while a balance run plays")
    p.add_argument("--stats", action="store_true",
                   help="a server's statistics with 100,000 stored finished matches: one match counted "
                        "when it ends (p99), a /stats answer with its picture (p99), a rebuild from the logs")
    p.add_argument("--clock", action="store_true",
                   help="clocks across days with 100,000 stored matches on time banks: one clock tick and "
                        "the event loop meanwhile, /turns for a player with 100 waiting games, one tick while "
                        "PostgreSQL is frozen (with --database-url: the first three on that database)")
    p.add_argument("--draft", action="store_true",
                   help="limited play: a booster draft dealt (8 x 3 packs of 15), a computer drafter's pick "
                        "(p99), a pack's picture (p99), /cards report's figures for 300 cards and 10,000 matches")
    args = p.parse_args(argv)
    plan = "tiny" if args.tiny else "quick" if args.quick else "full"
    log = (lambda s: None) if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    if args.game:
        from rules import registry

        unknown = [g for g in args.game if g not in registry]
        if unknown:
            p.error(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(registry.names())}")
    if args.ai:
        from bench.ai import format_ai, misses as ai_misses, run_ai

        result = run_ai(plan, args.game, log=log)
        _report(format_ai(result), ai_misses(result), result, args.json)
        return 0
    if args.scale:
        from bench.scale import format_scale, misses as scale_misses, run_scale

        result = run_scale(plan, args.game, log=log, database_url=args.database_url)
        _report(format_scale(result), scale_misses(result), result, args.json)
        return 0
    if args.leagues:
        from bench.leagues import format_leagues, misses as leagues_misses, run_leagues

        result = run_leagues(plan, log=log)
        _report(format_leagues(result), leagues_misses(result), result, args.json)
        return 0
    if args.cards:
        from bench.cards import format_cards, misses as cards_misses, run_cards

        result = run_cards(plan, args.game, log=log)
        _report(format_cards(result), cards_misses(result), result, args.json)
        return 0
    if args.draft:
        from bench.draft import format_draft, misses as draft_misses, run_draft

        result = run_draft(plan, log=log)
        _report(format_draft(result), draft_misses(result), result, args.json)
        return 0
    if args.stats:
        from bench.stats import format_stats, misses as stats_misses, run_stats

        result = run_stats(plan, log=log)
        _report(format_stats(result), stats_misses(result), result, args.json)
        return 0
    if args.clock:
        from bench.clock import format_clock, misses as clock_misses, run_clock

        result = run_clock(plan, log=log, database_url=args.database_url)
        _report(format_clock(result), clock_misses(result), result, args.json)
        return 0
    if args.replay:
        from bench.replay import format_replay, misses as replay_misses, run_replay

        result = run_replay(plan, args.game, log=log)
        _report(format_replay(result), replay_misses(result), result, args.json)
        return 0
    if args.discord:
        from bench.discord import format_discord, misses, run_discord

        result = run_discord(args.game, seeds=args.seeds, log=log)
        _report(format_discord(result), misses(result), result, args.json)
        return 0
    from bench.workload import SeedingFailed

    try:
        result = run(plan, games=args.game, log=log, database_url=args.database_url)
    except SeedingFailed as exc:
        print(f"bench failed: {exc}", file=sys.stderr)
        return 1
    _report(format_table(result), [], result, args.json)
    return 1 if result["meta"].get("errors") else 0


def _report(table: str, missed: list[str], result: dict, json_path: str | None) -> None:
    """Print the table and the targets missed; with ``--json``, write the figures too."""
    print(table)
    for miss in missed:
        print(f"target missed: {miss}")
    if json_path:
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2, ensure_ascii=False)
            f.write("\n")

if __name__ == "__main__":
    sys.exit(main())
