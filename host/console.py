"""``python bot.py --local``: a terminal table on the same host, for hot-seat play of any game.

Public text is printed as it would be posted in the channel; each seat's private view is
printed under its own heading when it changed (the computer's never, while a person plays —
``--ai``); board pictures are written to a folder; commands are typed in the game's notation.
Typing ``help`` lists the legal commands of the seat to act.

When several seats must act at once, prefix the command with the seat number: ``2: pass``.

Late join (games that take it, e.g. Avalon's Sanctuary), through ``host.join`` like the Join
button: ``join [DECK]`` seats a new hot-seat player (a new local user) in the running match,
with a ready-made deck id or a deck code for card games; ``2: join`` lets seat 2's defeated
player rejoin their seat.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import IO

from data import i18n
from data.store import ACTIVE, open_store
from host.decks import DeckBook
from host.options import describe_options, read_options
from host.table import Host
from host.types import Result
from rules import registry


def group_commands(legal: list[str]) -> list[str]:
    """Fold commands sharing all but their last token: ``place S1: a1 b1 c1``.

    >>> group_commands(["place S1 a1", "place S1 b1", "pass"])
    ['place S1: a1 b1', 'pass']
    """
    groups: dict[str, list[str]] = {}
    for cmd in legal:
        head, _, last = cmd.rpartition(" ")
        groups.setdefault(head, []).append(last)
    return [f"{head}: {' '.join(tails)}" if head else " ".join(tails) for head, tails in groups.items()]


def _parser(lang: str = "en") -> argparse.ArgumentParser:
    def h(key: str, **params: str) -> str:
        return i18n.t(f"console.cli.{key}", lang, **params).replace("%", "%%")

    p = argparse.ArgumentParser(prog="python bot.py --local", description=h("description"))
    p.add_argument("--game", default=None, help=h("game", games=", ".join(registry.names())))
    p.add_argument("--players", type=int, default=None, help=h("players"))
    p.add_argument("--seed", type=int, default=None, help=h("seed"))
    p.add_argument("--options", default="", help=h("options"))
    p.add_argument("--deck", action="append", default=[], metavar="SEAT=DECK", help=h("deck"))
    p.add_argument("--lang", choices=["en", "ja"], default=lang, help=h("lang"))
    p.add_argument("--out", default="boards", help=h("out"))
    p.add_argument("--no-pictures", action="store_true", help=h("no_pictures"))
    p.add_argument("--db", default=":memory:", help=h("db"))
    p.add_argument("--ai", action="append", default=[], metavar="SEAT=LEVEL", help=h("ai"))
    return p


class Console:
    def __init__(self, host: Host, lang: str, out: Path | None, stdin: IO[str], stdout: IO[str]) -> None:
        self.host, self.lang, self.out = host, lang, out
        self.stdin, self.stdout = stdin, stdout
        self.frame = 0
        # seats whose private views are never printed: the computer's, when a person plays too
        # (practice against a computer that shows its hand would be no practice)
        self.hidden: set[int] = set()
        self._said_private: dict[int, str] = {}     # seat -> the private text printed last

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def t(self, key: str, **params) -> str:
        return i18n.t(key, self.lang, **params)

    def show(self, res: Result, fresh: bool = False) -> None:
        """Print a result.  A seat's private view is printed when it changed since it was last
        printed (every move would otherwise repeat the same hand), or always with ``fresh``
        (the ``hand`` command)."""
        if not res.ok:
            self.say("! " + res.error.render(self.lang))
            return
        for line in res.info:
            self.say(line.render(self.lang))
        if res.public is not None:
            said = [line.render(self.lang) for line in res.public.text]
            for line in said:
                self.say(line)
            if res.public.view:
                from render.text import render_text

                self.say(render_text(res.match.game, res.public.view, locale=self.lang,
                                     names=res.match.names))
            if res.public.status_line is not None:
                status = res.public.status_line.render(self.lang)
                if status not in said:      # a result line is said once
                    self.say(status)
            self._save(res.public.picture, "public")
        for upd in res.private:
            from render.text import render_text

            if upd.seat in self.hidden:
                continue
            # only what this seat alone sees (the public part was just printed)
            own = upd.own if res.public is not None and res.public.view else upd.view
            text = render_text(res.match.game, own, locale=self.lang, names=res.match.names)
            if not fresh and self._said_private.get(upd.seat) == text:
                continue
            self._said_private[upd.seat] = text
            self.say(self.t("console.private", name=res.match.names[upd.seat]))
            self.say(text)
            self._save(upd.picture, f"seat{upd.seat + 1}")

    def _save(self, png: bytes | None, who: str) -> None:
        if png is None or self.out is None:
            return
        self.out.mkdir(parents=True, exist_ok=True)
        self.frame += 1
        path = self.out / f"{self.frame:04d}-{who}.png"
        path.write_bytes(png)
        self.say(self.t("console.picture", path=str(path)))

    def read(self, prompt: str) -> str | None:
        print(prompt, end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:
            return None
        return line.strip()


async def play(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    lang = args.lang
    name = args.game
    con_out = Path(args.out) if not args.no_pictures else None
    store = await open_store(args.db)
    host = Host(store, render=not args.no_pictures)
    con = Console(host, lang, con_out, stdin, stdout)
    try:
        games = ", ".join(registry.names())
        if name is None:
            con.say(con.t("console.pick", games=games))
            while (name := con.read("> ")) is not None and name not in registry:
                con.say("! " + i18n.t("host.err.unknown_game", lang, game=name, games=games))
            if name is None:
                return 0
        if name not in registry:
            con.say("! " + i18n.t("host.err.unknown_game", lang, game=name, games=games))
            return 2
        game = registry.get(name)
        n = args.players or game.min_players
        options, problem = read_options(game, args.options)
        if problem is not None:
            con.say("! " + i18n.t("host.err.bad_options", lang, detail=problem.render(lang),
                                  allowed=describe_options(game)))
            return 2
        names = [con.t("console.player", n=i + 1) for i in range(n)]
        robots: dict[int, str] = {}          # seat (0-based) -> AI level
        for item in args.ai:
            from ai import LEVELS

            seat_text, _, level = item.partition("=")
            level = level.strip() or "normal"
            if not seat_text.strip().isdigit() or not 1 <= int(seat_text) <= n or level not in LEVELS:
                con.say("! " + con.t("console.bad_ai", n=n, levels=", ".join(LEVELS)))
                return 2
            robots[int(seat_text) - 1] = level
            names[int(seat_text) - 1] = con.t("console.ai_name", n=int(seat_text), level=con.t(f"console.level.{level}"))
        decks: dict[int, object] = {}
        for item in args.deck:
            seat_text, _, choice = item.partition("=")
            if not seat_text.strip().isdigit() or not 1 <= int(seat_text) <= n or not choice:
                con.say("! " + con.t("console.bad_deck", n=n))
                return 2
            deck, err = await DeckBook(store).for_play(int(seat_text), name, choice.strip())
            if err:
                con.show(err)
                return 2
            decks[int(seat_text)] = deck
        res = await host.challenge(name, 1, names[0], opponents=[(i + 1, names[i]) for i in range(1, n)],
                                   options=options, seed=args.seed, locale=lang, deck=decks.get(1))
        if not res.ok:
            con.show(res)
            return 2
        match_id = res.match.id
        if len(robots) < n:                  # a person plays: the computer's hand stays hidden
            con.hidden = set(robots)
        for uid in range(2, n + 1):
            res = await host.accept(match_id, uid, deck=decks.get(uid))
        con.say(con.t("console.welcome"))
        con.show(await res.ready())
        while True:
            rec = await store.get_match(match_id)
            if rec.status != ACTIVE:
                break
            to_act = await host.to_act(match_id)
            robot = next((s for s in to_act if s in robots), None)
            if robot is not None:        # the computer plays through the host like anyone else
                con.show(await (await _ai_move(host, rec, robot, robots[robot], rec.n_commands)).ready())
                continue
            who = ", ".join(f"{s + 1}:{rec.names[s]}" for s in to_act)
            line = con.read(f"[{who}] > ")
            if line is None or line.lower() in ("quit", "exit"):
                con.say(con.t("console.bye", match_id=match_id))
                return 0
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
                legal = await host.legal(match_id, uid)
                con.say(con.t("console.legal", name=rec.names[seat], n=len(legal)))
                con.say("\n".join("  " + line for line in group_commands(legal)) or "  -")
                con.say(con.t("console.help"))
                if hasattr(game, "can_join"):
                    con.say(con.t("console.help_join"))
            elif word == "join" or word.startswith("join "):
                await _join(con, host, store, rec, game, seat if prefixed else None, line[4:].strip())
            elif word == "board":
                con.show(await host.status(match_id))
            elif word == "hand":
                con.show(await host.hand(match_id, uid), fresh=True)
            elif word == "log":
                res = await host.log(match_id)
                for e in res.data["log"]:
                    con.say(f"{e['seq']:>3}. {e['name']}: {e['command']}")
                    for line in e.get("story") or []:
                        con.say("       · " + i18n.t("host.raw", con.lang, text=line))
            elif word == "resign":
                con.show(await (await host.resign(match_id, uid)).ready())
            else:
                con.show(await (await host.command(match_id, uid, line)).ready())
        con.say(con.t("console.over", match_id=match_id))
        return 0
    finally:
        await store.close()


async def _ai_move(host: Host, rec, seat: int, level: str, n: int) -> Result:
    """The AI's move for ``seat``: handed that seat's view and legal commands only (what the
    player would see), then played through ``host.command``."""
    from ai import choose

    uid = rec.seats[seat]
    legal = await host.legal(rec.id, uid)
    hand = await host.hand(rec.id, uid)
    view = hand.private[0].view if hand.ok and hand.private else (await host.status(rec.id)).public.view
    command = choose(rec.game, view, legal, seat, level=level, seed=rec.id * 100003 + n)
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
    return asyncio.run(play(args, stdin or sys.stdin, stdout or sys.stdout))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
