"""Draw a picture of a random match from the command line.

    python -m render --game squares --seed 7 --moves 30 --out board.png [--locale ja] [--seat N]
                     [--players N]

Creates a match of ``--players`` seats (default: the game's minimum) through the engine
contract, plays up to ``--moves`` random legal commands (``random.Random(seed)`` picks a seat
from ``to_act`` and one of its ``legal_commands``; stops early when the match ends), then writes
the public view's picture, or with ``--seat N`` the view of seat N — seats counted from 1, as
everywhere a person types one (``--seat 1`` is the first seat).  The line it prints says how many
random moves were played, not a turn number: a game's own turn or round (Avalon's "Round 2/60")
is what the picture shows, and it counts otherwise.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path


def play(game_name: str, seed: int, moves: int, players: int | None = None):
    """(game, state) after ``moves`` random legal commands from a fresh match of ``players``
    seats (default: the game's minimum)."""
    game, state, _ = playout(game_name, seed, moves, players)
    return game, state


def playout(game_name: str, seed: int, moves: int, players: int | None = None, on_step=None):
    """(game, state, how many commands were played): :func:`play`, fewer than ``moves`` when
    the match ended first.  ``on_step(game, seat, command, state)``, when given, is called after
    each command with the state it made (the README's replay keeps each public view)."""
    from rules import registry

    game = registry.get(game_name)
    state = game.new_match(players=players or game.min_players, seed=seed, options={})
    rng = random.Random(seed)
    played = 0
    for _ in range(moves):
        if game.outcome(state) is not None:
            break
        seats = game.to_act(state)
        if not seats:
            break
        seat = rng.choice(sorted(seats))
        commands = game.legal_commands(state, seat)
        if not commands:
            break
        command = rng.choice(commands)
        state = game.apply(state, seat, command)
        played += 1
        if on_step is not None:
            on_step(game, seat, command, state)
    return game, state, played


def main(argv: list[str] | None = None) -> int:
    from data import i18n
    from rules import registry

    argv = list(sys.argv[1:] if argv is None else argv)
    lang = i18n.cli_locale(argv, "--locale")   # the picture's language is also the messages'

    def h(key: str, **params: object) -> str:
        return i18n.t(f"render.cli.{key}", lang, **params).replace("%", "%%")

    names = ", ".join(registry.names())
    parser = argparse.ArgumentParser(prog="python -m render", description=h("description", games=names))
    parser.add_argument("--game", default="squares", help=h("game"))
    parser.add_argument("--seed", type=int, default=7, help=h("seed"))
    parser.add_argument("--moves", type=int, default=30, help=h("moves"))
    parser.add_argument("--out", default="board.png", help=h("out"))
    parser.add_argument("--locale", default=lang, choices=["en", "ja"], help=h("locale"))
    parser.add_argument("--seat", type=int, default=None, metavar="N", help=h("seat_from_one"))
    parser.add_argument("--names", default=None, help=h("names"))
    parser.add_argument("--players", type=int, default=None, help=h("players"))
    args = parser.parse_args(argv)

    if args.game not in registry:
        parser.error(i18n.t("render.cli.unknown_game", lang, game=repr(args.game), games=names))
    engine = registry.get(args.game)
    players = engine.min_players if args.players is None else args.players
    if not engine.min_players <= players <= engine.max_players:
        parser.error(i18n.t("render.cli.bad_players", lang, game=i18n.t(f"game.{args.game}", lang), n=players,
                            min=engine.min_players, max=engine.max_players))
    if args.seat is not None and not (1 <= args.seat <= players):
        parser.error(i18n.t("render.cli.bad_seat_from_one", lang, max=players))
    game, state, played = playout(args.game, args.seed, max(0, args.moves), players)
    view = game.view(state, None if args.seat is None else args.seat - 1)

    from render import render_png

    t0 = time.perf_counter()
    png = render_png(args.game, view, locale=args.locale,
                     names=[n.strip() for n in args.names.split(",")] if args.names else None)
    ms = (time.perf_counter() - t0) * 1000
    out = Path(args.out)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(png)
    print(i18n.t("render.cli.written_after", lang, path=str(out), size=len(png), ms=f"{ms:.0f}", moves=played))
    return 0


if __name__ == "__main__":
    sys.exit(main())
