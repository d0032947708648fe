"""Moves in words: what the Act menu, DM controls and ``/move`` autocomplete show for each legal
command of a seat — names people know (pieces, cards, squares), a short consequence, an emoji.

    choices(game, view, seat, legal, locale="en", names=None) -> list[Choice]

``view`` is ``game.view(state, seat)`` (the seat's own view: a player may read their hand in
their own menu); ``legal`` is ``game.legal_commands(state, seat)``.  One :class:`Choice` per
command, in the same order.  A game describes its commands in ``render/labels_<game>.py`` with a
function ``choices(view, seat, legal, locale, names) -> list[Choice]``; a game without one (or a
command its describer does not know) falls back to the command itself.

``Choice.group`` is what a player picks first when the moves do not fit one select (25
options): the piece or card the move is made with ("Leap L2 (c1)", "Drive Lance"), or the kind
of decision ("Pass", "Answer the chain").  Moves of one group are told apart by ``label`` (and
``description``).
"""
from __future__ import annotations

import functools
import importlib
import logging
import re
from dataclasses import dataclass
from typing import Any

from data import i18n

log = logging.getLogger("render.labels")

TEXT_MAX = 100        # Discord: select option label/description, autocomplete choice name


@dataclass(frozen=True)
class Choice:
    command: str           # the legal command, exactly as legal_commands spells it
    label: str             # names people know, e.g. "Leap L2 c1 → c3"
    description: str = ""  # the effect or consequence, e.g. "battle vs Swap 3"
    group: str = ""        # first pick when moves do not fit one select, e.g. "Leap L2 (c1)"
    emoji: str = ""        # one unicode emoji, or ""

    def text(self) -> str:
        """One line: label — description (for autocomplete and console lists)."""
        return f"{self.label} — {self.description}" if self.description else self.label


def _describer(game: str) -> Any:
    try:
        module = importlib.import_module(f"render.labels_{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"render.labels_{game}":
            raise
        return None
    return getattr(module, "choices", None)


def choices(game: str, view: dict, seat: int, legal: list[str], locale: Any = "en",
            names: list[str] | None = None) -> list[Choice]:
    """One :class:`Choice` per command of ``legal``, in order (see the module doc)."""
    locale = i18n.locale_of(locale)
    names = [str(n) for n in (names or [])]
    fn = _describer(game)
    out: list[Choice] | None = None
    if fn is not None and legal:
        try:
            out = list(fn(view or {}, seat, list(legal), locale, names))
        except Exception:   # a describer bug must never stop a player from moving
            log.exception("describing the moves of %s failed; showing notation", game)
            out = None
        if out is not None and [c.command for c in out] != list(legal):
            log.error("%s: the describer returned other commands than the legal ones", game)
            out = None
    if out is None:
        out = [Choice(command=c, label=c) for c in legal]
    return [Choice(command=c.command, label=_clip(c.label) or c.command, description=_clip(c.description),
                   group=_clip(c.group), emoji=c.emoji or "") for c in out]


def _clip(s: str) -> str:
    s = " ".join(str(s or "").split())
    return s if len(s) <= TEXT_MAX else s[:TEXT_MAX - 1] + "…"


_ID_LIKE = re.compile(r"^[A-Za-z]{0,4}[-_]?\d{1,4}[a-z]?$")


@functools.lru_cache(maxsize=64)
def _notation(legal: tuple[str, ...]) -> frozenset[str]:
    """Every command of ``legal`` and every token of one (a player's menu asks for each of its
    labels with the same list: made once, not a scan of the list per label)."""
    return frozenset(legal) | frozenset(tok for c in legal for tok in c.split())


def is_raw_id(label: str, legal: list[str] | None = None) -> bool:
    """True when a control's label is only an id or a notation token (``ac07``, ``c21``,
    ``fb ts03``, a whole command of ``legal``) — what a player cannot read as a name."""
    s = " ".join(str(label or "").split())
    if not s:
        return True
    if legal and s in _notation(tuple(legal)):
        return True
    return all(_ID_LIKE.match(tok) for tok in s.split())
