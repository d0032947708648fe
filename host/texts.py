"""Small texts the host builds about a match: why it ended, the game's name, players' names,
a time left, an engine's refusal in the reader's language."""
from __future__ import annotations

from data import i18n
from data.store import MatchRecord
from host.types import Msg, msg
from rules import IllegalCommand


def reason_msg(reason: str, game: str = "") -> Msg:
    """The localized reason a match ended: the game's own wording first
    (``<game>.reason.<reason>``), then the shared one (``reason.<reason>``)."""
    for key in (f"{game}.reason.{reason}", f"reason.{reason}"):
        if i18n.has(key):
            return Msg(key)
    return msg("host.raw", text=reason)


def game_msg(game: str) -> Msg:
    return Msg(f"game.{game}") if i18n.has(f"game.{game}") else msg("host.raw", text=game)


def _names(rec: MatchRecord, seats: list[int]) -> str:
    return ", ".join(rec.names[s] or f"#{s + 1}" for s in seats)


def _duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def illegal_msg(exc: IllegalCommand) -> Msg:
    """An engine's refusal in the reader's language: its catalog key, else its English text."""
    if exc.key and i18n.has(exc.key):
        return Msg(exc.key, dict(exc.params))
    return msg("host.err.illegal", reason=exc.reason)
