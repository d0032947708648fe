"""Which moves may be taken back, and how far (docs/undo.md) — pure: the engine's ``final`` and
``reveals`` (docs/engine.md) applied to a replayed log.

``played`` is the match's log replayed (:func:`host.replay_steps.history`): one
``(state before, seat, entry, state after)`` per entry.  An entry is a command, a batch of
several (host/batch_log.py: each step is asked on its own), or a host entry (a late join, a
resignation), which no one takes back.  Every function answers ``None`` (allowed) or the
catalog key of the refusal.
"""
from __future__ import annotations

from typing import Any

from host.batch_log import steps_of
from host.replay import JOIN, RESIGN, _hidden

TAKEBACK_MAX = 8       # entries a takeback may take back (the asker's move and what followed it)
REWIND_MAX = 60        # entries a judge may put the match back


def host_entry(entry: str) -> bool:
    """A late join or a resignation: an entry of the host, not a move."""
    return entry == RESIGN or entry == JOIN or entry.startswith(JOIN + " ")


def _asks(game: Any, name: str, before: Any, seat: int, entry: str, after: Any) -> bool:
    """The engine's ``final`` or ``reveals`` (``name``) of one entry; a batch is as final as its
    most final step.  A game without the method, and a host entry, count as final."""
    fn = getattr(game, name, None)
    if fn is None or host_entry(entry):
        return True
    steps = steps_of(entry)
    if steps is None:
        return bool(fn(before, seat, entry, after))
    state = before
    for step in steps:
        nxt = game.apply(state, seat, step)
        if fn(state, seat, step, nxt):
            return True
        state = nxt
    return False


def entry_final(game: Any, before: Any, seat: int, entry: str, after: Any) -> bool:
    return _asks(game, "final", before, seat, entry, after)


def entry_reveals(game: Any, before: Any, seat: int, entry: str, after: Any) -> bool:
    return _asks(game, "reveals", before, seat, entry, after)


def undo_refusal(game: Any, played: list[tuple[Any, int, str, Any]], seat: int) -> str | None:
    """May ``seat`` undo the log's last entry alone?  Only their own move of the turn still
    theirs, when it was final to nothing (no draw, shuffle, reveal, random result, secret
    window, and the decision still theirs alone)."""
    if not hasattr(game, "final"):
        return "undo.err.no_undo_game"
    if not played:
        return "undo.err.nothing"
    before, who, entry, after = played[-1]
    if who != seat:
        return "undo.err.not_last"
    if host_entry(entry) or entry_final(game, before, seat, entry, after):
        return "undo.err.final"
    return None


def takeback_span(game: Any, played: list[tuple[Any, int, str, Any]], seat: int) -> tuple[int, str | None]:
    """(how many entries the match keeps, None) for a takeback of ``seat``'s last move and
    everything after it; or (0, the refusal): no move of theirs, too far back, a join or a
    resignation since, anything hidden revealed since, or a secret decision to go back into."""
    if not hasattr(game, "reveals"):
        return 0, "undo.err.no_undo_game"
    mine = [i for i, (_, who, entry, _) in enumerate(played) if who == seat and not host_entry(entry)]
    if not mine:
        return 0, "undo.err.nothing"
    keep = mine[-1]
    if len(played) - keep > TAKEBACK_MAX:
        return 0, "undo.err.too_far"
    for before, who, entry, after in played[keep:]:
        if host_entry(entry):
            return 0, "undo.err.host_entry"
        if entry_reveals(game, before, who, entry, after):
            return 0, "undo.err.revealed"
    if _hidden(game, played[keep][0]):
        return 0, "undo.err.window"
    return keep, None


def rewind_refusal(game: Any, played: list[tuple[Any, int, str, Any]], keep: int) -> str | None:
    """May a judge put the match back to its first ``keep`` entries?"""
    if not 0 <= keep < len(played) or len(played) - keep > REWIND_MAX:
        return "undo.err.rewind_range"
    if any(host_entry(entry) for _, _, entry, _ in played[keep:]):
        return "undo.err.host_entry"
    if _hidden(game, played[keep][0]):
        return "undo.err.window"
    return None


def revealed_since(game: Any, played: list[tuple[Any, int, str, Any]], keep: int) -> bool:
    """Did anything hidden come out in the entries after ``keep`` (so going back shows the
    players' choices again with more known)?  A game without ``reveals``: assume so."""
    return any(entry_reveals(game, before, who, entry, after) for before, who, entry, after in played[keep:])
