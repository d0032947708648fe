"""The terminal of ``python bot.py --local``: public text and each seat's private view printed
as the channel and the DMs would show them, board pictures saved to a folder, typed lines read
and cleaned.  Shared by the hot-seat table (:mod:`host.console`) and the stepping through a match
record (:mod:`host.console_replay`)."""
from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from data import i18n
from host.types import Result

if TYPE_CHECKING:
    from host.table import Host


def clean_input(text: str) -> str:
    """A typed line as the parser reads it: NFKC (full-width letters, digits, spaces and
    punctuation from a Japanese IME become ASCII), control and format characters dropped, runs
    of spaces folded.  The engines read their notation in any case.

    >>> clean_input("ＭＯＶＥ　Ｃ２"), clean_input("２：ｐａｓｓ"), clean_input("move\x1b[31m c2\x07")
    ('MOVE C2', '2:pass', 'move[31m c2')
    """
    text = unicodedata.normalize("NFKC", text)
    text = "".join(" " if ch == "\t" else ch for ch in text
                   if ch == "\t" or not unicodedata.category(ch).startswith("C"))
    return " ".join(text.split())


def names_who_acts(game: str, view: dict | None, drawn: list[str]) -> bool:
    """Whether the board as text (``drawn``) already says whose turn it is — Avalon's "To act:
    … — set phase", Art of War's "Turn 2 · … to act": the text changes when nobody is to act.
    Then the host's own "To act: …" line under it would say it a second time."""
    from render.text import render_text

    if not view or not drawn or not view.get("to_act"):
        return False
    try:
        return render_text(game, {**view, "to_act": []}, locale="en", notation=True) != \
            render_text(game, view, locale="en", notation=True)
    except Exception:       # noqa: BLE001 - a view the text cannot draw without a seat to act
        return True


class Console:
    """The terminal: what it printed last, so that nothing is printed twice in a row."""

    def __init__(self, host: Host, lang: str, out: Path | None, stdin: IO[str], stdout: IO[str]) -> None:
        self.host, self.lang, self.out = host, lang, out
        self.stdin, self.stdout = stdin, stdout
        self.frame = 0
        # seats whose private views are never printed: the computer's, when a person plays too
        # (practice against a computer that shows its hand would be no practice)
        self.hidden: set[int] = set()
        self._said_private: dict[int, str] = {}     # seat -> the private text printed last
        self._said_board: str | None = None         # the board (and the line under it) printed last
        self._held: Result | None = None            # a board not printed yet (see show's ``hold``)
        self._held_private: dict[int, tuple[Result, Any]] = {}
        self.interrupted = False                    # Ctrl-C at a prompt

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def t(self, key: str, **params) -> str:
        return i18n.t(key, self.lang, **params)

    def show(self, res: Result, fresh: bool = False, hold: bool = False) -> None:
        """Print a result: what happened at once; then the board, unless it is the board printed
        last (a declaration the others have not answered yet leaves it as it was); then each
        seat's private view when it changed since it was last printed (every move would
        otherwise repeat the same hand).  ``fresh`` (``board``, ``hand``): the board and the
        private view even when unchanged.  ``hold``: keep the board and the private views for
        :meth:`flush` — the computer moves on, and a person reads the board once it is their
        turn, not once after each of the computer's commands."""
        if not res.ok:
            self.say("! " + res.error.render(self.lang))
            return
        for line in res.info:
            self.say(line.render(self.lang))
        said = [line.render(self.lang) for line in res.public.text] if res.public is not None else []
        for line in said:
            self.say(line)
        if hold:
            if res.public is not None:
                self._held = res
            for upd in res.private:
                self._held_private[upd.seat] = (res, upd)
            return
        self._held, self._held_private = None, {}
        self._board(res, said, fresh)
        for upd in res.private:
            self._private(res, upd, fresh)

    def flush(self) -> None:
        """Print the board and private views :meth:`show` held back, if any."""
        res, private = self._held, self._held_private
        self._held, self._held_private = None, {}
        if res is not None:
            self._board(res, [line.render(self.lang) for line in res.public.text], False)
        for seat in sorted(private):
            self._private(*private[seat], False)

    def _board(self, res: Result, said: list[str], fresh: bool) -> None:
        from render.text import render_text

        if res.public is None:
            return
        lines = []
        if res.public.view:
            lines.append(render_text(res.match.game, res.public.view, locale=self.lang, names=res.match.names,
                                     notation=True))
        if res.public.status_line is not None:
            status = res.public.status_line.render(self.lang)
            # a result line is said once; whose turn it is, once (a board that names who acts)
            if status not in said and not (res.public.status_line.key == "host.status.to_act"
                                            and names_who_acts(res.match.game, res.public.view, lines)):
                lines.append(status)
        board = "\n".join(lines)
        if not fresh and board == self._said_board:
            return
        self._said_board = board
        if board:
            self.say(board)
        self._save(res.public.picture, "public")

    def _private(self, res: Result, upd: Any, fresh: bool) -> None:
        from render.text import render_text

        if upd.seat in self.hidden:
            return
        # only what this seat alone sees (the public part was just printed)
        own = upd.own if res.public is not None and res.public.view else upd.view
        text = render_text(res.match.game, own, locale=self.lang, names=res.match.names, notation=True)
        if not fresh and self._said_private.get(upd.seat) == text:
            return
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
        """The next typed line, cleaned (:func:`clean_input`); None at the end of the input or
        on Ctrl-C (then :attr:`interrupted` is set)."""
        print(prompt, end="", file=self.stdout, flush=True)
        try:
            line = self.stdin.readline()
        except (KeyboardInterrupt, EOFError):
            self.interrupted = True
            self.say()          # the prompt's line is left open
            return None
        if not line:
            return None
        return clean_input(line)
