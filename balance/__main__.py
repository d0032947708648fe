"""``python -m balance``: the balance report's command line (``--help`` is plain argparse text;
what is measured is :mod:`balance`)."""
from __future__ import annotations

import argparse
import json
import sys

from balance import card_values, format_table, heatmap, run, verdict_lines
from rules import registry


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m balance", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="How fair the shipped decks, characters and KINGs are, by computer-vs-computer play:\n"
                    "the win rate of every pairing in both seat orders, the first player's win rate, matches\n"
                    "ended by a turn limit, and the strength of level hard; each figure with its 95 % interval\n"
                    "and whether it meets its target.",
        epilog="examples:\n"
               "  python -m balance --quick                 a smoke test (minutes)\n"
               "  python -m balance --game avalon --json balance.json --png avalon.png\n"
               "  python -m balance --card-values values.json --game maken --matches 200")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="a smoke test: a small sample (minutes, not hours) that judges no "
                      "target it did not measure enough to judge")
    size.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--game", action="append", metavar="NAME", help="only this game (repeatable)")
    p.add_argument("--per-order", type=int, metavar="N", help="matches per pairing and seat order (overrides the plan)")
    p.add_argument("--seed-set", type=int, default=0, metavar="K",
                   help="play other matches: every seed K × 10 000 000 higher (default 0, the tool's own)")
    p.add_argument("--no-hard", action="store_true", help="leave out the slow checks of level hard")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--png", metavar="FILE", default="balance.png", help="the win-rate heatmap (default balance.png)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--card-values", metavar="FILE",
                   help="instead: measure each card's value for the computer drafter (its win rate when in a "
                        "random legal deck, shrunk toward 0.5) and write them as JSON; the seed is --seed-set")
    p.add_argument("--matches", type=int, metavar="N",
                   help="with --card-values: self-play matches a game (default 400; --quick 40)")
    args = p.parse_args(argv)
    if args.seed_set < 0:
        p.error("--seed-set is a whole number from 0")
    if args.matches is not None and (args.matches < 1 or not args.card_values):
        p.error("--matches is a whole number from 1, with --card-values")
    plan = "tiny" if args.tiny else "quick" if args.quick else "full"
    log = (lambda s: None) if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    if args.card_values:
        return write_card_values(args.card_values, args.game, args.matches or card_values.MATCHES[plan],
                                 args.seed_set, log)
    result = run(plan, args.game, log=log, per_order=args.per_order, strength=not args.no_hard,
                 seed_set=args.seed_set)
    print(format_table(result))
    for line in verdict_lines(result):
        print(line)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2, ensure_ascii=False)
            f.write("\n")
    if args.png:
        with open(args.png, "wb") as f:
            f.write(heatmap(result))
    return 0


def write_card_values(path: str, games: list[str] | None, matches: int, seed: int, log) -> int:
    """``--card-values FILE``: each card game's values (:mod:`balance.card_values`), printed as
    its best and worst cards and written to ``path`` as ``{"games": {game: values}}``."""
    unknown = [g for g in games or () if g not in card_values.GAMES]
    if unknown:
        print(f"no card values for {unknown[0]!r}: the card games are {', '.join(card_values.GAMES)}",
              file=sys.stderr)
        return 2
    out = {}
    for name in games or card_values.GAMES:
        values = card_values.measure(name, matches=matches, seed=seed, log=log)
        cards = registry.get(name).decks.cards()
        names = {cid: str((card.get("name") or {}).get("en") or "") for cid, card in cards.items()}
        print(card_values.format_values(values, names))
        out[name] = values.to_json()
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"games": out}, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
