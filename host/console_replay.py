"""``python bot.py --local --replay FILE``: step through a match record in the terminal (a match
record as text); ``--db FILE --replay N`` steps through stored match N of a database.

Both replay the **public** record (:mod:`host.match_record`): a record file holds nothing else,
and a stored match is turned into the same public steps (:func:`host.replay_steps.public_steps`)
— never its seed, its hidden commands or a seat's own view — so what the console shows of a
match is what anyone watching its thread could have seen.

Typed keys (read as the console reads every line, :func:`host.console_io.clean_input`): Enter or
``n`` the next step, ``p`` the previous one, ``f`` the first, ``l`` the last, a number that step
(``0``: the position before the first step), ``t N`` the first step of turn N, ``q`` quits.
Each step prints "Step k of n · turn t", the move in words with its notation, what it did, the
board as text, and saves its picture as the console saves pictures (``--out``, ``--no-pictures``).
The turn is the number the picture shows: in a game counted in rounds (Avalon's Sanctuary, whose
picture reads "Round 2/60" while its view's ``turn`` counts turns of single players) the
heading says "round 2" and ``t N`` goes to round N.
The end of the input (a pipe, a file) ends the replay like ``q``.  A record that cannot be read
is one localized line and exit code 2.
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import IO, Any

from data import i18n
from data.store import CorruptRow, StoreError, open_store, valid_id
from host.console_io import Console
from host.match_record import MAX_TEXT, ReadRecord, RecordError, in_words, move_line, read_record, to_record
from rules import registry

_TURN = re.compile(r"^t\s*(\d+)$")


async def load(args: argparse.Namespace, lang: str) -> ReadRecord:
    """The record ``--replay`` names: stored match N of ``--db`` when a database is named and N
    is a number, else a record file.  Raises :class:`RecordError` (localized) when it cannot."""
    source = str(args.replay).strip()
    db = args.db if args.db not in ("", ":memory:") else None
    if db is not None and valid_id(source) is not None:
        return await _stored(db, valid_id(source), lang)
    return read_file(source)


def read_file(source: str) -> ReadRecord:
    """A record file read and checked (:func:`host.match_record.read_record`); at most
    :data:`~host.match_record.MAX_TEXT` bytes are read, whatever the file's size."""
    try:
        with Path(source).open("rb") as f:
            data = f.read(MAX_TEXT + 1)
    except OSError as exc:
        raise RecordError("record.err.no_file", path=source, detail=exc.strerror or type(exc).__name__) from None
    if len(data) > MAX_TEXT:
        raise RecordError("record.err.file_too_large", limit=MAX_TEXT // (1024 * 1024))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("record.err.not_text") from None
    return read_record(text)


def _no_database(db: str) -> bool:
    """A path (not a URL) that is no file: opening it would create an empty database."""
    path = db[len("sqlite:///"):] if db.startswith("sqlite:///") else db
    return "://" not in path and not Path(path).is_file()


async def _stored(db: str, match_id: int, lang: str) -> ReadRecord:
    """Stored match ``match_id`` of ``db`` as its public record.  A path that is no file is
    refused before opening it (opening would create an empty database)."""
    from host.replay import _initial_state
    from host.replay_steps import public_steps

    if _no_database(db):
        raise RecordError("record.err.no_db_file", path=db)
    try:
        store = await open_store(db)
    except StoreError as exc:
        raise RecordError("record.err.stored_unreadable", db=db, match_id=match_id, detail=str(exc)[:200]) from None
    try:
        try:
            rec = await store.get_match(match_id)
            commands = await store.commands(match_id) if rec is not None else []
        except CorruptRow:
            raise RecordError("record.err.stored_unreadable", db=db, match_id=match_id,
                              detail=i18n.t("host.state.quarantined", lang)) from None
        except StoreError as exc:
            raise RecordError("record.err.stored_unreadable", db=db, match_id=match_id,
                              detail=str(exc)[:200] or type(exc).__name__) from None
        if rec is None:
            raise RecordError("record.err.no_stored_match", db=db, match_id=match_id)
        if rec.game not in registry:
            raise RecordError("record.err.unknown_game", game=rec.game, games=", ".join(registry.names()))
        game = registry.get(rec.game)
        try:
            start = game.view(_initial_state(game, rec), None)
            steps = public_steps(game, rec, commands)
        except Exception as exc:     # noqa: BLE001 - a log that no longer replays: say so, no traceback
            raise RecordError("record.err.stored_unreadable", db=db, match_id=match_id,
                              detail=type(exc).__name__) from None
        return to_record(game, rec, steps, locale=lang, start_view=start)
    finally:
        await store.close()


class Replay:
    """The stepping loop over one record: ``at`` is the step shown (0: before the first)."""

    def __init__(self, record: ReadRecord, con: Console) -> None:
        self.record, self.con = record, con
        self.n = len(record.steps)
        self.at = 1 if self.n else 0
        self.pictures: dict[int, Path] = {}        # a step drawn once is not drawn again

    def t(self, key: str, **params: Any) -> str:
        return self.con.t(key, **params)

    def _keys(self) -> str:
        """The keys' help: ``t N`` goes to round N in a game counted in rounds."""
        views = [self.record.start_view] + [s.get("view") or {} for s in self.record.steps]
        return "console.replay.keys_round" if any(_whole(v.get("round")) for v in views) else "record.console.keys"

    def intro(self) -> None:
        """The header as the record has it (in the writer's language), the game named in the
        reader's; how many steps; the keys."""
        for tag, value in self.record.header.items():
            if tag == "Game" and i18n.has(f"game.{self.record.game}"):
                value = self.t(f"game.{self.record.game}")
            label = self.t(f"record.tag.{tag}") if i18n.has(f"record.tag.{tag}") else tag
            self.con.say(self.t("record.console.tag", label=label, value=value))
        self.con.say(self.t("record.console.count", n=self.n) if self.n else self.t("record.console.no_steps"))
        self.con.say(self.t(self._keys()))

    def show(self) -> None:
        """Print step :attr:`at`: its heading, the move in words and notation, what it did, the
        board as text; save its picture."""
        lang, rec = self.con.lang, self.record
        if self.at == 0:
            view = rec.start_view
            kind, turn = shown_turn(view, view.get("turn"))
            head = {"round": "console.replay.start_round", "turn": "record.console.start"}.get(
                kind, "record.console.start_no_turn")
            self.con.say(self.t(head, n=self.n, turn=turn, round=turn))
        else:
            step = rec.steps[self.at - 1]
            view = step["view"]
            kind, turn = shown_turn(view, step.get("turn"))
            head = {"round": "console.replay.step_round", "turn": "record.console.step"}.get(
                kind, "record.console.step_no_turn")
            self.con.say(self.t(head, k=self.at, n=self.n, turn=turn, round=turn))
            self.con.say(move_line(step, lang))
            for line in step.get("story") or []:
                self.con.say("  · " + in_words(line, lang))
        try:
            from render.text import render_text

            self.con.say(render_text(rec.game, view, locale=lang, names=rec.names, notation=True))
        except Exception:       # noqa: BLE001 - a record's view the text cannot show: the picture may
            pass
        self._picture(view)

    def _picture(self, view: dict) -> None:
        con = self.con
        if con.out is None:
            return
        path = self.pictures.get(self.at)
        if path is None:
            try:
                from render import render_png

                png = render_png(self.record.game, _with_said(self.record, self.at, view), locale=con.lang,
                                 names=self.record.names)
            except Exception as exc:     # noqa: BLE001 - a view from a file the renderer cannot draw
                con.say("! " + self.t("record.console.no_picture", detail=type(exc).__name__))
                return
            con.out.mkdir(parents=True, exist_ok=True)
            con.frame += 1
            path = con.out / f"{con.frame:04d}-step{self.at}.png"
            path.write_bytes(png)
            self.pictures[self.at] = path
        con.say(self.t("console.picture", path=str(path)))

    def go(self, line: str) -> bool:
        """Act on one typed line; False when the replay ends (``q``)."""
        word = line.strip().lower()
        if word in ("q", "quit", "exit"):
            return False
        if word in ("", "n", "next"):
            if self.at >= self.n:
                self.con.say(self.t("record.console.at_end", n=self.n))
                return True
            self.at += 1
        elif word in ("p", "prev", "previous"):
            if self.at == 0:
                self.con.say(self.t("record.console.at_start"))
                return True
            self.at -= 1
        elif word in ("f", "first"):
            self.at = 1 if self.n else 0
        elif word in ("l", "last"):
            self.at = self.n
        elif word.isascii() and word.isdigit():
            k = int(word)
            if k > self.n:
                self.con.say("! " + self.t("record.console.no_step", k=word[:12], n=self.n))
                return True
            self.at = k
        elif (m := _TURN.match(word)) is not None:
            turn = int(m.group(1))
            shown = [(k, shown_turn(s.get("view") or {}, s.get("turn"))) for k, s in enumerate(self.record.steps, 1)]
            found = next((k for k, (_, n) in shown if n == turn), None)
            if found is None:
                turns = [n for _, (_, n) in shown if _whole(n)]
                rounds = any(kind == "round" for _, (kind, _) in shown)
                self.con.say("! " + self.t("console.replay.no_round" if rounds else "record.console.no_turn",
                                           turn=m.group(1)[:12], round=m.group(1)[:12],
                                           first=min(turns, default="-"), last=max(turns, default="-")))
                return True
            self.at = found
        else:
            self.con.say("! " + self.t("record.console.bad_key", text=line[:40]))
            self.con.say(self.t(self._keys()))
            return True
        self.show()
        return True


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def shown_turn(view: dict, turn: Any) -> tuple[str, Any]:
    """("round", n) for a view counted in rounds (its picture reads "Round n/…"), ("turn", n)
    for a whole turn number, else ("", None): the number a heading may put beside the picture.

    >>> shown_turn({"turn": 5, "round": 3}, 5), shown_turn({"turn": 4}, 4), shown_turn({}, None)
    (('round', 3), ('turn', 4), ('', None))
    """
    if _whole(view.get("round")):
        return "round", view["round"]
    if _whole(turn):
        return "turn", turn
    return "", None


def _with_said(record: ReadRecord, at: int, view: dict) -> dict:
    """The step's view with ``said`` — the move in words as the thread told it — so the picture's
    "Last:" line names pieces and cards as the board message did (:func:`host.replay._with_said`)."""
    if at == 0:
        return view
    step = record.steps[at - 1]
    if not step.get("words"):
        return view
    return {**view, "said": {"name": step["name"], "text": step["words"], "command": step["command"]}}


async def replay(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    """Run ``--replay``: 0 when it ends (``q`` or the end of the input), 2 when the record cannot
    be read, 130 on Ctrl-C at the prompt."""
    lang = args.lang
    con = Console(None, lang, Path(args.out) if not args.no_pictures else None, stdin, stdout)  # type: ignore[arg-type]
    try:
        record = await load(args, lang)
    except RecordError as exc:
        con.say("! " + exc.render(lang))
        return 2
    run = Replay(record, con)
    run.intro()
    run.show()
    while True:
        line = con.read(f"[{run.at}/{run.n}] > ")
        if line is None:
            return 130 if con.interrupted else 0
        if not run.go(line):
            return 0
