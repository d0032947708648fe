"""``python bot.py --local``: a terminal table on the same host, for any game.

By default the person at the keyboard plays seat 1 and the computer (``normal``) every other seat
— a newcomer meets the game at once, without a second player.  ``--ai SEAT=LEVEL`` says exactly
which seats the computer plays (the rest are people; every seat: a match to watch);
``--hot-seat`` makes every seat a person at the one keyboard.  The first line says who plays
whom.  A match resumed from ``--db`` keeps the seats it was started with.

Public text is printed as it would be posted in the channel; each seat's private view is
printed under its own heading when it changed (the computer's never, while a person plays);
while the computer plays on, its moves are printed as they are made and the board once it is a
person's turn (:class:`host.console_io.Console`); board pictures are written to a folder;
commands are typed in the game's notation.  Typing ``help`` lists the legal commands of the
seat to act (:mod:`host.console_help`).

When several seats must act at once, prefix the command with the seat number: ``2: pass``.

Late join (games that take it, e.g. Avalon's Sanctuary), through ``host.join`` like the Join
button: ``join [DECK]`` seats a new hot-seat player (a new local user) in the running match,
with a ready-made deck id or a deck code for card games; ``2: join`` lets seat 2's defeated
player rejoin their seat.

Seats are counted from 1 wherever they are typed: ``2: pass``, ``--ai 2=hard``, ``--deck 1=…``
and ``--options first=1`` (see :mod:`host.options`).  What is typed is read as the parser reads
it (:func:`host.console_io.clean_input`): full-width text from a Japanese IME is folded to ASCII
and control characters are dropped, so nothing is echoed back raw.  With ``--db FILE`` an unfinished match
is resumed on the next start (``--new`` starts another); Ctrl-C or Ctrl-D leaves at once, also
while the computer is thinking (exit code 130; a stored match is kept as it was before the
move the computer had not finished).
``--replay FILE`` (or ``--db FILE --replay N``) steps through a match record instead of playing
(:mod:`host.console_replay`).
"""
from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import IO, Any

from data import i18n
from data.store import ACTIVE, open_store
from host.console_help import elide, help_lines, show_help
from host.console_io import Console, clean_input
from host.decks import DeckBook
from host.options import describe_options, read_options
from host.table import Host
from host.texts import public_moves
from host.types import Result
from rules import registry


def localized_parser(prog: str, lang: str, description: str, epilog: str | None = None) -> argparse.ArgumentParser:
    """An argparse parser whose own words (usage, the options heading, -h) are in ``lang``;
    the description and epilog keep their line breaks."""
    usage = i18n.t("console.cli.usage", lang)

    class Formatter(argparse.RawDescriptionHelpFormatter):
        def add_usage(self, usage_text, actions, groups, prefix=None):  # noqa: ANN001
            return super().add_usage(usage_text, actions, groups, usage)

    p = argparse.ArgumentParser(prog=prog, description=description, epilog=epilog, formatter_class=Formatter,
                                add_help=False)
    p._optionals.title = i18n.t("console.cli.options_title", lang)
    p.add_argument("-h", "--help", action="help", help=i18n.t("console.cli.help", lang))
    return p


# the console's options (also listed by python bot.py --help)
LOCAL_OPTIONS = frozenset({"game", "players", "seed", "options", "deck", "lang", "out", "no_pictures", "db",
                           "ai", "hot_seat", "new", "replay"})
__all__ = ["LOCAL_OPTIONS", "add_local_arguments", "elide", "help_lines", "localized_parser", "main", "play"]


def add_local_arguments(p, lang: str = "en") -> None:  # noqa: ANN001 - a parser or an argument group
    def h(key: str, **params: str) -> str:
        return i18n.t(f"console.cli.{key}", lang, **params).replace("%", "%%")

    p.add_argument("--game", default=None, help=h("game", games=", ".join(registry.names())))
    p.add_argument("--players", type=int, default=None, help=h("players"))
    p.add_argument("--seed", type=int, default=None, help=h("seed"))
    p.add_argument("--options", default="", help=h("options"))
    p.add_argument("--deck", action="append", default=[], metavar="SEAT=DECK", help=h("deck"))
    p.add_argument("--ai", action="append", default=[], metavar="SEAT=LEVEL", help=h("ai"))
    p.add_argument("--hot-seat", action="store_true", help=h("hot_seat"))
    p.add_argument("--lang", choices=["en", "ja"], default=lang, help=h("lang"))
    p.add_argument("--out", default="boards", help=h("out"))
    p.add_argument("--no-pictures", action="store_true", help=h("no_pictures"))
    p.add_argument("--db", default=":memory:", help=h("db"))
    p.add_argument("--new", action="store_true", help=h("new"))
    # step through a match record (host/console_replay.py)
    p.add_argument("--replay", default=None, metavar="FILE|N",
                   help=i18n.t("record.cli.replay", lang).replace("%", "%%"))


def _parser(lang: str = "en") -> argparse.ArgumentParser:
    p = localized_parser("python bot.py --local", lang, i18n.t("console.cli.description", lang))
    add_local_arguments(p, lang)
    return p


async def _unfinished(store, game: str | None) -> Any:
    """The newest unfinished match of the console's players (of ``game`` if named), or None."""
    for rec in await store.matches_for_user(1, (ACTIVE,)):
        if game is None or rec.game == game:
            return rec
    return None


async def _start(con: "Console", args: argparse.Namespace, store, host: Host, name: str, game) -> Any:
    """A new match from the command line's options: (match id, robots), or None (said why)."""
    lang = con.lang
    n = args.players or game.min_players
    options, problem = read_options(game, args.options)
    if problem is not None:
        con.say("! " + i18n.t("host.err.bad_options", lang, detail=problem.render(lang),
                              allowed=describe_options(game)))
        return None
    names = [con.t("console.player", n=i + 1) for i in range(n)]
    robots = _robots(con, args.ai, n, args.hot_seat)
    if robots is None:
        return None
    for seat, level in robots.items():
        names[seat] = con.t("console.ai_name", n=seat + 1, level=con.t(f"console.level.{level}"))
    decks: dict[int, object] = {}
    for item in args.deck:
        seat_text, _, choice = item.partition("=")
        if not seat_text.strip().isdigit() or not 1 <= int(seat_text) <= n or not choice:
            con.say("! " + con.t("console.bad_deck", n=n))
            return None
        deck, err = await DeckBook(store).for_play(int(seat_text), name, choice.strip())
        if err:
            con.show(err)
            return None
        decks[int(seat_text)] = deck
    # the seats the computer plays are kept with the match: a resumed match keeps them
    res = await host.challenge(name, 1, names[0], opponents=[(i + 1, names[i]) for i in range(1, n)],
                               options=options, seed=args.seed, locale=lang, deck=decks.get(1),
                               meta={"console_ai": {str(seat + 1): level for seat, level in robots.items()}})
    if not res.ok:
        con.show(res)
        return None
    match_id = res.match.id
    if len(robots) < n:                  # a person plays: the computer's hand stays hidden
        con.hidden = set(robots)
    for uid in range(2, n + 1):
        res = await host.accept(match_id, uid, deck=decks.get(uid))
    _welcome(con, names, robots)
    con.show(await res.ready(), hold=len(robots) < n)       # the board once a person is to act
    return match_id, robots


def _robots(con: "Console", items: list[str], n: int, hot_seat: bool = False) -> dict[int, str] | None:
    """The seats the computer plays, {seat (0-based): level}, or None (said why): exactly the
    ``--ai SEAT=LEVEL`` items when there are any; none with ``--hot-seat``; else every seat but
    the first, at ``normal`` (the person at the keyboard against the computer)."""
    from ai import LEVELS

    if not items:
        return {} if hot_seat else {seat: "normal" for seat in range(1, n)}
    robots: dict[int, str] = {}
    for item in items:
        seat_text, _, level = clean_input(item).partition("=")
        level = level.strip().lower() or "normal"
        if not seat_text.strip().isdigit() or not 1 <= int(seat_text) <= n or level not in LEVELS:
            con.say("! " + con.t("console.bad_ai", n=n, levels=", ".join(LEVELS)))
            return None
        robots[int(seat_text) - 1] = level
    return robots


def _welcome(con: "Console", names: list[str], robots: dict[int, str]) -> None:
    """Who plays whom, then the console's own words: "You are seat 1 (Player 1); seat 2 is the
    computer (normal). Type help for your moves." """
    sep = con.t("core.list_sep")
    people = [s for s in range(len(names)) if s not in robots]
    computers = sep.join(con.t("console.computer_seat", n=s + 1, level=con.t(f"console.level.{robots[s]}"))
                         for s in sorted(robots))
    if not people:
        con.say(con.t("console.watch"))
        return
    seats = sep.join(str(s + 1) for s in people)
    who = sep.join(names[s] for s in people)
    if len(people) == 1:
        con.say(con.t("console.you_vs", seat=seats, name=who, others=computers))
    elif computers:
        con.say(con.t("console.people_vs", seats=seats, names=who, others=computers))
    else:
        con.say(con.t("console.hot_seat", seats=seats, names=who))
    con.say(con.t("console.commands"))


async def play(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    lang = args.lang
    name = clean_input(args.game).lower() if args.game is not None else None
    con_out = Path(args.out) if not args.no_pictures else None
    store = await open_store(args.db)
    host = Host(store, render=not args.no_pictures)
    con = Console(host, lang, con_out, stdin, stdout)
    kept = args.db not in ("", ":memory:")      # the match outlives this program
    try:
        games = ", ".join(registry.names())
        if name is not None and name not in registry:
            con.say("! " + i18n.t("host.err.unknown_game", lang, game=name, games=games))
            return 2
        resumed = await _unfinished(store, name) if kept and not args.new else None
        if resumed is not None:
            name = resumed.game
        elif name is None:
            con.say(con.t("console.pick", games=games))
            while (name := con.read("> ")) is not None and name.lower() not in registry:
                con.say("! " + i18n.t("host.err.unknown_game", lang, game=name, games=games))
            if name is None:
                return 130 if con.interrupted else 0
            name = name.lower()
        game = registry.get(name)
        if resumed is not None:
            match_id = resumed.id
            # as it was started (a match stored without the entry was a hot-seat one); --ai or
            # --hot-seat given now say who plays it from now on
            robots = {int(k) - 1: v for k, v in (resumed.meta.get("console_ai") or {}).items()}
            if args.ai or args.hot_seat:
                robots = _robots(con, args.ai, len(resumed.seats), args.hot_seat)
                if robots is None:
                    return 2
            if len(robots) < len(resumed.seats):
                con.hidden = set(robots)
            con.say(con.t("console.resume", match_id=match_id, game=i18n.t(f"game.{name}", lang),
                          count=public_moves(resumed)))
            _welcome(con, list(resumed.names), robots)
            con.show(await host.status(match_id), hold=len(robots) < len(resumed.seats))
        else:
            started = await _start(con, args, store, host, name, game)
            if started is None:
                return 2
            match_id, robots = started
        return await _loop(con, host, store, args, game, match_id, robots, kept)
    finally:
        await store.close()


async def _loop(con: Console, host: Host, store, args: argparse.Namespace, game, match_id: int,
                robots: dict[int, str], kept: bool) -> int:
    """The match, move by move, until it is over (0) or the person leaves (0, or 130 on Ctrl-C)."""
    last_robot = None  # the computer's seat that moved last, with no person's move since
    while True:
        rec = await store.get_match(match_id)
        # a person plays (a late joiner too): the board is printed once it is a person's turn,
        # not after each of the computer's commands; a match of computers only shows them all
        people = len(robots) < len(rec.seats)
        if rec.status != ACTIVE:
            break
        to_act = await host.to_act(match_id)
        robot = next((s for s in to_act if s in robots), None)
        if robot is not None:        # the computer plays through the host like anyone else
            if robots[robot] != "easy" and robot != last_robot:
                con.say(con.t("console.thinking", name=rec.names[robot]))
            last_robot = robot
            con.show(await (await _ai_move(host, rec, robot, robots[robot], rec.n_commands)).ready(), hold=people)
            continue
        con.flush()
        last_robot = None
        who = ", ".join(f"{s + 1}:{rec.names[s]}" for s in to_act)
        line = con.read(f"[{who}] > ")
        if line is None or line.lower() in ("quit", "exit"):
            con.say(con.t("console.bye_kept" if kept else "console.bye", match_id=match_id, db=args.db))
            return 130 if con.interrupted else 0
        seat = to_act[0]
        prefixed = ":" in line.split(" ", 1)[0]
        if prefixed:
            head, _, line = line.partition(":")
            if not head.strip().isdigit() or not 1 <= int(head) <= len(rec.seats):
                con.say("! " + con.t("console.bad_seat", n=len(rec.seats)))
                continue
            seat = int(head) - 1
            line = line.strip()
            if seat in con.hidden:
                con.say("! " + con.t("console.ai_seat", n=seat + 1))
                continue
        uid = rec.seats[seat]
        word = line.lower()
        if word in ("help", "?", ""):
            await show_help(con, host, rec, game, seat, to_act)
        elif word == "join" or word.startswith("join "):
            await _join(con, host, store, rec, game, seat if prefixed else None, line[4:].strip())
        elif word == "board":
            con.show(await host.status(match_id), fresh=True)
        elif word == "hand":
            con.show(await host.hand(match_id, uid), fresh=True)
        elif word == "log":
            res = await host.log(match_id)
            for e in res.data["log"]:
                con.say(f"{e['seq']:>3}. {e['name']}: {e['command']}")
                for story in e.get("story") or []:
                    con.say("       · " + i18n.t("host.raw", con.lang, text=story))
        elif word == "resign":
            con.show(await (await host.resign(match_id, uid)).ready(), hold=people)
        elif word == "undo":        # the seat's last move of this turn, if it revealed nothing
            con.show(await (await host.undo(match_id, uid)).ready(), hold=people)
        else:
            con.show(await (await host.command(match_id, uid, line)).ready(), hold=people)
    con.flush()
    con.say(con.t("console.over", match_id=match_id))
    return 0


async def _ai_move(host: Host, rec, seat: int, level: str, n: int) -> Result:
    """The AI's move for ``seat``: handed that seat's view and legal commands only (what the
    player would see), then played through ``host.command``.  The computer thinks here, in
    this thread: a Ctrl-C meanwhile stops it before its move is stored (see :func:`main`)."""
    import ai

    uid = rec.seats[seat]
    legal = await host.legal(rec.id, uid)
    hand = await host.hand(rec.id, uid)
    view = hand.private[0].view if hand.ok and hand.private else (await host.status(rec.id)).public.view
    command = ai.choose(rec.game, view, legal, seat, level=level, seed=rec.id * 100003 + n)
    return await host.command(rec.id, uid, command)


async def _join(con: Console, host: Host, store, rec, game, seat: int | None, deck_text: str) -> None:
    """``join [DECK]``: a new hot-seat player takes a new seat; ``N: join``: seat N's defeated
    player rejoins.  Both go through ``host.join`` (the host refuses what the rules do not allow)."""
    if seat is None:
        uid = max(int(u) for u in rec.seats if u is not None) + 1
        name = con.t("console.player", n=len(rec.seats) + 1)
    else:
        uid, name = rec.seats[seat], rec.names[seat]
    deck = None
    if deck_text:
        if getattr(game, "decks", None) is None:
            con.say("! " + con.t("console.join_no_decks"))
            return
        deck, err = await DeckBook(store).for_play(uid, rec.game, deck_text)
        if err:
            con.show(err)
            return
    con.show(await (await host.join(rec.id, uid, name, deck=deck)).ready())


def main(argv: list[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _parser(i18n.cli_locale(argv, "--lang")).parse_args(argv)
    # not asyncio.run: its Ctrl-C handler only cancels the task once the blocking read of a
    # line returns, i.e. after Enter, and then ends in a traceback.  Here Ctrl-C interrupts
    # the read at once (Console.read) or, while the computer thinks, ends the loop below.
    loop = asyncio.new_event_loop()
    if args.replay is not None:       # a record to step through, not a match to play
        from host.console_replay import replay

        task = loop.create_task(replay(args, stdin or sys.stdin, stdout or sys.stdout))
    else:
        task = loop.create_task(play(args, stdin or sys.stdin, stdout or sys.stdout))
    try:
        return loop.run_until_complete(task)
    except KeyboardInterrupt:
        # Ctrl-C while the computer thinks (ai.choose runs in this thread, inside the task)
        # ends the task itself with KeyboardInterrupt, its store already closed on the way out
        # (play's finally): running a finished task again would never return, asyncio stops
        # its loop only for a task that ends otherwise.  Ctrl-C while the loop waits (for the
        # database) leaves the task waiting: cancelling it closes the store.
        if not task.done():
            task.cancel()
            try:
                loop.run_until_complete(task)
            except BaseException:        # noqa: BLE001 - leaving: only the one line below is said
                pass
        print("\n" + i18n.t("console.interrupted", args.lang), file=stdout or sys.stdout, flush=True)
        return 130
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
