"""``python -m data.card_sets check FILE``: a card set file checked offline, before it is uploaded.

A designer checks a ``.json``, ``.csv`` or ``.zip`` of several on their own computer and gets
exactly the problems ``/cards upload`` would answer with — the same lines as its
``problems.txt`` (:meth:`data.card_sets.problems.Problem.render`), in English or Japanese —
without a bot, a database or the network.  Nothing here checks a card: the file goes through the
very functions the upload calls (:func:`data.card_sets.upload.read_upload`, then
:func:`data.card_sets.build.build_set`), so the two can never disagree.

- The file is hostile input like an upload: its size is held to the upload's limit
  (:func:`upload_limit`: 512 KiB, a zip 2 MiB) before it is read, and at most that many bytes
  are ever read (a file that grows meanwhile, or a device, is refused the same way); the refusal
  is the one ``/cards upload`` gives for a too-big attachment.
- The game is ``--game``, or told from the file (:func:`games_of`): the game whose CSV layouts
  (:func:`data.card_sets.csv_layout.detect`, as the upload reads them) and JSON sections take
  most of its files, and of several that fit alike (a JSON file of ``cards`` and ``decks``) the
  one that takes the whole set; when none fits, or several still do, ``--game`` is asked for.
- Every line printed is made safe for a terminal (:func:`terminal_text`): a control,
  format or line-separator character of the file is shown as ``�``, so a file cannot move the
  cursor, recolour the terminal or turn the text's direction around.

Exit status: 0 the set is fine (one line: game, set name, cards and decks), 1 it has problems
(a heading, then one line each), 2 wrong arguments, a file that cannot be read, or a game that
cannot be told.
"""
from __future__ import annotations

import argparse
import sys
import textwrap
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from data import i18n
from data.card_sets import games
from data.card_sets.build import _sections, build_set
from data.card_sets.csv_layout import detect
from data.card_sets.keys import LIMITED
from data.card_sets.model import MODES
from data.card_sets.problems import Problem
from data.card_sets.upload import MAX_FILE, MAX_UNPACKED, Upload, read_upload

PROG = "python -m data.card_sets check"
_UNSAFE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def t(key: str, lang: str, **params: Any) -> str:
    """A text of this command (``cardcheck_cli.<key>``)."""
    return i18n.t(f"cardcheck_cli.{key}", lang, **params)


def terminal_text(text: str) -> str:
    """``text`` as one terminal line: every control, format (direction marks, zero-width),
    unassigned or line-separating character shown as U+FFFD, the tab and line break too.

    >>> terminal_text("a\\x1b[31mb\\u202ec\\nd") == "a\\ufffd[31mb\\ufffdc\\ufffdd"
    True
    """
    return "".join("\ufffd" if unicodedata.category(ch) in _UNSAFE else ch for ch in text)


def upload_limit(filename: str) -> int:
    """The most bytes ``/cards upload`` takes of an attachment named ``filename``: a zip
    :data:`~data.card_sets.upload.MAX_UNPACKED`, any other file
    :data:`~data.card_sets.upload.MAX_FILE`."""
    return MAX_UNPACKED if filename.lower().endswith(".zip") else MAX_FILE


class Unreadable(Exception):
    """The file cannot be read: ``key`` (``cardcheck_cli.<key>``) says why, in words."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@dataclass
class Checked:
    """What checking one file found.  ``too_big``: the file's size (``/cards upload`` refuses it
    before reading it: no problems are listed); ``game`` None when it could not be told
    (``candidates``: the games that fit alike, empty when none did)."""

    file: str
    game: str | None = None
    problems: list[Problem] = field(default_factory=list)
    counts: dict = field(default_factory=dict)
    too_big: str | None = None
    candidates: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.game is not None and self.too_big is None and not self.problems


def read_bounded(path: Path, limit: int) -> tuple[bytes | None, str | None]:
    """The file's bytes, or (None, its size in words) past ``limit``: the size is asked first,
    and at most ``limit`` + 1 bytes are read whatever it said.  Raises :class:`Unreadable`."""
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise Unreadable("folder")
        if size > limit:
            return None, f"{size / 1024:,.0f} KiB"
        with path.open("rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise Unreadable("missing") from None
    except PermissionError:
        raise Unreadable("permission") from None
    except IsADirectoryError:
        raise Unreadable("folder") from None
    except OSError:
        raise Unreadable("unreadable") from None
    if len(data) > limit:
        return None, f"> {limit // 1024} KiB"
    return data, None


def _recognises(game: str, upload: Upload) -> bool:
    """Does ``game`` read this file as the upload would: a CSV whose header names one of its
    layouts, or a JSON object whose every key is one of its sections (or ``comment``, or the
    ``limited`` declaration every game's file may hold)?"""
    adapter = games.adapter(game)
    if upload.kind == "csv":
        return detect(upload, adapter.layouts)[0] is not None
    if not isinstance(upload.data, dict):
        return False
    keys = set(upload.data) - {"comment", LIMITED}
    return bool(keys) and keys <= set(_sections(adapter))


def games_of(files: list[Upload]) -> list[str]:
    """The games a set's files are most likely for: those that read the most of them (at least
    one).  One game: that is it; several or none: ``--game`` must say (but see
    :func:`check_file`: of several, the one game that takes the whole set is it)."""
    scores = {g: sum(_recognises(g, up) for up in files) for g in games.GAMES if games.adapter(g)}
    best = max(scores.values(), default=0)
    return [g for g, n in scores.items() if n == best] if best else []


def check_file(path: str | Path, game: str | None = None, mode: str = "extend") -> Checked:
    """Check one file as ``/cards upload`` would (see the module docstring).  Raises
    :class:`Unreadable` for a file that cannot be read."""
    path = Path(path)
    name = path.name
    data, too_big = read_bounded(path, upload_limit(name))
    if data is None:
        return Checked(name, game, too_big=too_big)

    def build(for_game: str) -> Any:
        """The upload's own two steps, on the file as read afresh (nothing carries over)."""
        files, read_problems = read_upload(name, data)
        return build_set(for_game, files, mode, read_problems=read_problems)

    if game is None:
        files, _read = read_upload(name, data)
        if not files:           # nothing could be read: the same problems for every game
            built = build(games.GAMES[0])
            return Checked(name, None, built.problems, built.counts)
        found = games_of(files)
        if len(found) > 1:      # a JSON file of cards and decks fits several: the one taking it all
            taken = [g for g in found if build(g).ok]
            found = taken if len(taken) == 1 else found
        if len(found) != 1:
            return Checked(name, None, candidates=found)
        game = found[0]
    built = build(game)
    return Checked(name, game, built.problems, built.counts)


# --------------------------------------------------------------------------- the command line

class _Parser(argparse.ArgumentParser):
    """argparse with its own words in ``lang``; a wrong argument ends in :class:`_Usage`."""

    def __init__(self, lang: str, **kwargs: Any) -> None:
        self.lang = lang
        usage = i18n.t("console.cli.usage", lang)

        class Formatter(argparse.RawDescriptionHelpFormatter):
            def add_usage(self, usage_text, actions, groups, prefix=None):  # noqa: ANN001
                return super().add_usage(usage_text, actions, groups, usage)

        super().__init__(formatter_class=Formatter, add_help=False, **kwargs)
        self._optionals.title = i18n.t("console.cli.options_title", lang)
        self._positionals.title = t("arguments", lang)
        self.add_argument("-h", "--help", action="help", help=i18n.t("console.cli.help", lang))

    def error(self, message: str) -> None:   # argparse's own words are English: said in ours
        raise _Usage(t("bad_arguments", self.lang, prog=PROG))


class _Usage(Exception):
    """Wrong arguments: the message says what to type instead."""


def parser(lang: str) -> argparse.ArgumentParser:
    """``check``'s options, in ``lang`` (values are checked after parsing, to say in words
    what is allowed)."""
    def h(key: str, **params: Any) -> str:
        return t(key, lang, **params).replace("%", "%%")

    def wrapped(key: str) -> str:     # broken at spaces only: a file name or command stays whole
        return "\n".join("\n".join(textwrap.wrap(line, 90, break_long_words=False, break_on_hyphens=False))
                         for line in h(key).split("\n"))

    names = i18n.t("core.list_sep", lang).join(games.GAMES)
    p = _Parser(lang, prog=PROG, description=wrapped("description"), epilog=wrapped("epilog"))
    p.add_argument("file", nargs="?", metavar="FILE", help=h("opt.file"))
    p.add_argument("--game", metavar="GAME", help=h("opt.game", games=names))
    p.add_argument("--mode", metavar="MODE", default="extend", help=h("opt.mode"))
    p.add_argument("--name", metavar="NAME", help=h("opt.name"))
    p.add_argument("--lang", metavar="LANG", help=h("opt.lang"))
    return p


def _game_names(found: list[str], lang: str) -> str:
    return i18n.t("core.list_sep", lang).join(f"{i18n.t(f'game.{g}', lang)} ({g})" for g in found)


def report(checked: Checked, lang: str, name: str, mode: str) -> tuple[int, list[str]]:
    """The exit status and the lines to print for ``checked``."""
    file = terminal_text(checked.file)
    if checked.too_big is not None:         # what /cards upload answers before it reads the file
        limit = upload_limit(checked.file)
        return 1, [terminal_text(i18n.t("cards.err.too_big", lang, name=checked.file, size=checked.too_big,
                                        limit=f"{limit // 1024} KiB"))]
    if checked.problems:
        head = t("problems", lang, file=file, count=len(checked.problems))
        return 1, [head] + [terminal_text(p.render(lang)) for p in checked.problems]
    if checked.game is None:
        all_games = _game_names(list(games.GAMES), lang)
        if checked.candidates:
            return 2, [t("game_ambiguous", lang, file=file, games=_game_names(checked.candidates, lang))]
        return 2, [t("game_unknown", lang, file=file, games=all_games)]
    return 0, [t("ok", lang, file=file, game=i18n.t(f"game.{checked.game}", lang), name=terminal_text(name),
                 mode=i18n.t(f"cmd.cards.mode.{mode}", lang), cards=checked.counts.get("cards", 0),
                 decks=checked.counts.get("decks", 0))]


def main(argv: list[str] | None = None, out: IO[str] | None = None, err: IO[str] | None = None) -> int:
    """``python -m data.card_sets check …``; returns the exit status (see the module docstring)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    lang = i18n.cli_locale(argv, "--lang")
    p = parser(lang)
    try:
        try:
            args = p.parse_args(argv)
        except SystemExit as done:          # --help
            return int(done.code or 0)
        if args.lang is not None and args.lang not in i18n.LOCALES:
            raise _Usage(t("bad_lang", lang, value=terminal_text(args.lang[:20])))
        if args.mode not in MODES:
            raise _Usage(t("bad_mode", lang, value=terminal_text(args.mode[:20]),
                           modes=i18n.t("core.list_sep", lang).join(MODES)))
        if args.game is not None and games.adapter(args.game) is None:
            raise _Usage(t("bad_game", lang, value=terminal_text(args.game[:20]),
                           games=_game_names(list(games.GAMES), lang)))
        if not args.file:
            raise _Usage(t("no_file", lang, prog=PROG))
    except _Usage as e:
        print(str(e), file=err)
        return 2
    path = Path(args.file)
    try:
        checked = check_file(path, args.game, args.mode)
    except Unreadable as e:
        print(t(e.key, lang, path=terminal_text(str(path))), file=err)
        return 2
    code, lines = report(checked, lang, args.name if args.name is not None else path.stem, args.mode)
    print("\n".join(lines), file=out if code < 2 else err)
    return code


__all__ = ["check_file", "games_of", "upload_limit", "read_bounded", "terminal_text", "report", "main",
           "Checked", "Unreadable", "PROG"]
