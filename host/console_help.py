"""``help`` at the terminal table (:mod:`host.console`): the legal commands of the seat to act in
words with their notation, then how to read this game's notation and screen.

A long list is grouped so that help stays about a screen (at most :data:`BUDGET` command lines,
whatever the position): moves that differ only in their last word share a line (``place S1
a1|b1|c1``); when that is still too many lines, the moves of one kind share one — first the
moves the Act menu groups together (:attr:`render.labels.Choice.group`: one IT card, one guard
on top, one unit set up), then the moves whose words are alike (``place S…``), then the moves of
one verb.  A shared line says how many moves it stands for and either the exact notation with
its choices (``setup k a3|b3|c3 s|p|g`` when every combination is legal) or one example.

Every example in help is taken from the position itself (no game's help quotes another game).
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from data import i18n
from render.labels import choices

BUDGET = 13           # command lines at most; with the notes under them help fits 20 lines
MAX_CHOICES = 12      # choices written out in one place of a shared line ('a1|b1|…')


def _ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def elide(labels: list[str], most: int = 4) -> str:
    """The words several moves share, with "…" where they differ (never inside a number or an
    ASCII word) — "" when they share too little, or differ in more than ``most`` characters
    (a square or a land, not a card's name).

    >>> elide(["Forge Acolyte on land 1", "Forge Acolyte on land 2"])
    'Forge Acolyte on land …'
    >>> elide(["援護1をa1に置く", "援護1をb1に置く"])
    '援護1を…に置く'
    >>> elide(["Discard Dawnbell Acolyte", "Discard Lantern Squire"])
    ''
    """
    first = labels[0]
    p = len(os.path.commonprefix(labels))
    while p and _ascii_alnum(first[p - 1]) and any(len(x) > p and _ascii_alnum(x[p]) for x in labels):
        p -= 1
    rest = [x[p:] for x in labels]
    n = len(os.path.commonprefix([r[::-1] for r in rest]))
    while n and _ascii_alnum(rest[0][-n]) and any(len(r) > n and _ascii_alnum(r[-n - 1]) for r in rest):
        n -= 1
    if any(len(r[:len(r) - n].strip()) > most for r in rest):
        return ""
    prefix, suffix = first[:p], (rest[0][-n:] if n else "")
    if len((prefix + suffix).strip()) < 3:
        return ""
    return f"{prefix}…{suffix}"


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _title(members: list[Any]) -> str:
    """What a shared line calls its moves: their one menu group, else the words they share."""
    groups = _unique([m.group for m in members if m.group])
    if len(groups) == 1 and len(groups) == len(_unique([m.group for m in members])):
        return groups[0]
    labels = _unique([m.label for m in members])
    for words in (groups, labels):
        if len(words) > 1 and (found := elide(words)):
            return found
    split = [label.split(" ") for label in labels]
    shared = []
    for column in zip(*split):
        if len(set(column)) > 1:
            break
        shared.append(column[0])
    if shared and len(" ".join(shared)) >= 3:
        return " ".join(shared) + " …"
    return labels[0] + " …"


def _choice_notation(members: list[Any]) -> str | None:
    """``setup k a3|b3|c3 s|p|g`` when the moves are exactly every combination of those words
    (the same number of words each, at most :data:`MAX_CHOICES` in a place), else None."""
    commands = _unique([m.command for m in members])
    tokens = [c.split(" ") for c in commands]
    if len({len(t) for t in tokens}) != 1:
        return None
    places = [_unique(list(column)) for column in zip(*tokens)]
    size = 1
    for words in places:
        size *= len(words)
    if size != len(commands) or any(len(words) > MAX_CHOICES for words in places):
        return None
    return " ".join("|".join(words) for words in places)


class _Line:
    """One line of help: the moves it stands for, how it is written, and its notation."""

    def __init__(self, members: list[Any], text: str, notation: str = "") -> None:
        self.members, self.text, self.notation = members, text, notation


def _single_lines(cs: list[Any], lang: str) -> list[_Line]:
    """One line a command, except that moves differing only in their last word (a square, a
    land) share one, the choices written ``a1|b1|c1``."""
    groups: dict[tuple[str, str], list[Any]] = {}
    for c in cs:
        head = c.command.rpartition(" ")[0]
        groups.setdefault((head, c.group) if head else (c.command, ""), []).append(c)
    lines = []
    for (head, _), members in groups.items():
        words = elide([m.label for m in members]) if len(members) > 1 else ""
        if not words:
            lines += [_Line([m], i18n.t("console.help_item", lang, words=m.text(), notation=m.command), m.command)
                      for m in members]
            continue
        notation = head + " " + "|".join(m.command.rpartition(" ")[2] for m in members)
        lines.append(_Line(members, i18n.t("console.help_item", lang, words=_with_description(words, members),
                                           notation=notation), notation))
    return lines


def _with_description(words: str, members: list[Any]) -> str:
    if len({m.description for m in members}) == 1 and members[0].description:
        return f"{words} — {members[0].description}"
    return words


def _shared(members: list[Any], lang: str) -> _Line:
    """One line for moves of one kind: how many, and their notation or an example."""
    words = _with_description(_title(members), members)
    n = len(_unique([m.command for m in members]))
    notation = _choice_notation(members)
    if notation is not None:
        return _Line(members, i18n.t("console.help_group", lang, words=words, n=n, notation=notation), notation)
    return _Line(members, i18n.t("console.help_group_example", lang, words=words, n=n, example=members[0].command))


def _shape(word: str) -> str:
    """A word with its numbers left out: ``S3`` and ``S5`` (one kind of piece), ``ts05``."""
    return re.sub(r"\d+", "#", word)


# the kinds moves are grouped by when the list is long, finest first
_KINDS: list[Callable[[Any], str]] = [
    lambda c: "g:" + c.group if c.group else "",
    lambda c: "s:" + " ".join(_shape(w) for w in c.command.split(" ")[:2]) if " " in c.command else "",
    lambda c: "v:" + c.command.split(" ")[0] if " " in c.command else "",
]


def _regroup(lines: list[_Line], kind: Callable[[Any], str], lang: str) -> list[_Line]:
    """The lines with those of one kind (two lines or more) merged into one, where the first
    of them was."""
    def key_of(line: _Line) -> str:
        keys = {kind(m) for m in line.members}
        return keys.pop() if len(keys) == 1 else ""

    kinds: dict[str, list[_Line]] = {}
    for line in lines:
        kinds.setdefault(key_of(line), []).append(line)
    out, done = [], set()
    for line in lines:
        key = key_of(line)
        if not key or len(kinds[key]) < 2:
            out.append(line)
        elif key not in done:
            done.add(key)
            out.append(_shared([m for merged in kinds[key] for m in merged.members], lang))
    return out


def _lines(game: str, view: dict, seat: int, legal: list[str], lang: str, names: list[str] | None,
           budget: int) -> list[_Line]:
    lines = _single_lines(choices(game, view, seat, legal, lang, names), lang)
    for kind in _KINDS:
        if len(lines) <= budget:
            break
        lines = _regroup(lines, kind, lang)
    if len(lines) > budget:         # still too many kinds: the rest are counted, not listed
        rest = sum(len(_unique([m.command for m in line.members])) for line in lines[budget - 1:])
        lines = lines[:budget - 1] + [_Line([], i18n.t("console.help_more", lang, n=rest))]
    return lines


def help_lines(game: str, view: dict, seat: int, legal: list[str], lang: str,
               names: list[str] | None = None, budget: int = BUDGET) -> tuple[list[str], bool]:
    """The legal commands for ``help``, in words (as the Act menu says them) and then the
    notation to type, at most ``budget`` lines (see the module doc).  Returns (lines, whether a
    line offers choices written ``a|b``)."""
    lines = _lines(game, view, seat, legal, lang, names, budget)
    return [line.text for line in lines], _choice_example(lines) is not None


def _choice_example(lines: list[_Line]) -> tuple[str, str, str, str] | None:
    """From the first line offering choices: (its choices, a shortened notation with two of them,
    the command with the first, the command with the second) — help's example of how to read a
    line with choices, taken from this very list."""
    for line in lines:
        words = line.notation.split(" ")
        at = next((i for i, w in enumerate(words) if "|" in w), None)
        if at is None:
            continue
        two = words[at].split("|")[:2]
        plain = [w.split("|")[0] for w in words]
        short = [w if i != at else "|".join(two) for i, w in enumerate(plain)]
        return (words[at], " ".join(short), " ".join(plain[:at] + [two[0]] + plain[at + 1:]),
                " ".join(plain[:at] + [two[1]] + plain[at + 1:]))
    return None


def help_block(game: Any, name: str, view: dict, seat: int, legal: list[str], lang: str, names: list[str],
               others: dict[int, list[str]] | None = None) -> list[str]:
    """Everything ``help`` prints for ``seat`` of a match of ``game`` (registered as ``name``):
    the heading, the command lines, then the notes that apply now — how to read a choice (its
    example from this list), the game's notation and screen, the seat prefix (``others``: the
    legal commands of the other seats typed at this keyboard that act now), undo, late join."""
    lines = _lines(name, view or {}, seat, legal, lang, names, BUDGET)
    out = [i18n.t("console.legal", lang, name=names[seat], n=len(legal))]
    out += [line.text for line in lines] or ["  -"]
    example = _choice_example(lines)
    if example is not None:
        options, short, first, second = example
        out.append(i18n.t("console.help_choices_here", lang, choices=options, short=short, first=first,
                          second=second))
    if i18n.has(f"console.notation.{name}"):
        out.append(i18n.t(f"console.notation.{name}", lang))
    other = next(((s, c) for s, c in (others or {}).items() if s != seat and c), None)
    if other is not None:           # the example: another seat's first legal command
        out.append(i18n.t("console.help_prefix", lang, example=f"{other[0] + 1}: {other[1][0]}"))
    if hasattr(game, "final"):
        out.append(i18n.t("console.help_undo", lang))
    if hasattr(game, "can_join"):
        out.append(i18n.t("console.help_join", lang))
    return out


async def show_help(con: Any, host: Any, rec: Any, game: Any, seat: int, to_act: list[int]) -> None:
    """``help`` at the table: :func:`help_block` for the seat, from what the host tells it."""
    uid = rec.seats[seat]
    legal = await host.legal(rec.id, uid)
    hand = await host.hand(rec.id, uid)
    view = hand.private[0].view if hand.ok and hand.private else (await host.status(rec.id)).public.view
    others = {s: await host.legal(rec.id, rec.seats[s]) for s in to_act if s != seat and s not in con.hidden}
    for line in help_block(game, rec.game, view or {}, seat, legal, con.lang, list(rec.names), others):
        con.say(line)
