"""The terminal of ``python bot.py --local``: public text and each seat's private view printed
as the channel and the DMs would show them, board pictures saved to a folder, typed lines read
and cleaned.  Shared by the hot-seat table (:mod:`host.console`) and the stepping through a match
record (:mod:`host.console_replay`)."""
from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import IO, TYPE_CHECKING

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


class Console:
    def __init__(self, host: Host, lang: str, out: Path | None, stdin: IO[str], stdout: IO[str]) -> None:
        self.host, self.lang, self.out = host, lang, out
        self.stdin, self.stdout = stdin, stdout
        self.frame = 0
        # seats whose private views are never printed: the computer's, when a person plays too
        # (practice against a computer that shows its hand would be no practice)
        self.hidden: set[int] = set()
        self._said_private: dict[int, str] = {}     # seat -> the private text printed last
        self.interrupted = False                    # Ctrl-C at a prompt

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
                                     names=res.match.names, notation=True))
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
            text = render_text(res.match.game, own, locale=self.lang, names=res.match.names, notation=True)
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
