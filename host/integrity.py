"""What the host checks about a stored match before it serves it (issue 13, "Trust").

The store checks every row it reads on its own terms (:mod:`data.rows`: fields that parse and
fit together, ``n_commands`` against the command log) and quarantines the ones that fail.  This
module adds what only the host knows, about the engines:

* the row's ``game`` is registered, and its seat count is one the game allows;
* a match of a server's card set names a stored version that still reads and validates
  (:mod:`host.engines`; loaded once per process);
* **the log replays.**  A match's state is normally rebuilt from its latest snapshot plus the
  entries after it, so a damaged entry *behind* the snapshot would go unnoticed until someone
  replays the whole log (``/match log``, an export).  So the first time a process loads a
  match's state (a state-cache miss for a match not yet verified by this process) it replays
  the whole log from the seed instead — the log is the truth, the snapshot an optimisation —
  and checks that the state after ``snapshot_seq`` entries is the stored snapshot
  (:func:`replay`).  A log that does not replay, or replays to something else, quarantines the
  match.  Afterwards (same process) the snapshot path is trusted again: every state this
  process holds descends from a verified one, and a snapshot it loads later was written by a
  host that had replayed the same entries.  Cost: one full replay per match per process, on
  its first use (the engines replay 10,000+ commands/s, so a 200-command match costs ~10 ms
  once); the verified ids are remembered in a bounded LRU set (:class:`Verified`), so a match
  forgotten there is simply verified again.

A check that fails quarantines the row with ``store.quarantine`` (logged as an error on the
``host`` logger, and as a warning by the store) and the caller gets ``host.err.quarantined``.
"""
from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any, Callable, Sequence

from data.store import ABORTED, ACTIVE, FINISHED, CommandRecord, CorruptRow, MatchRecord, StoreError
from host import snapshot_check
from rules import registry

log = logging.getLogger("host")


class LogMismatch(Exception):
    """The command log does not fit the match row (its snapshot, its length)."""


class Verified:
    """Match ids whose whole log this process has replayed (a bounded LRU set)."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, int(limit))
        self._ids: "OrderedDict[int, None]" = OrderedDict()

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._ids

    def add(self, match_id: int) -> None:
        self._ids[match_id] = None
        self._ids.move_to_end(match_id)
        while len(self._ids) > self.limit:
            self._ids.popitem(last=False)

    def discard(self, match_id: int) -> None:
        self._ids.pop(match_id, None)

    def __len__(self) -> int:
        return len(self._ids)


def row_problem(rec: MatchRecord) -> str | None:
    """Why the engines cannot serve this row (None: nothing found).  Cheap: no replay."""
    if rec.game not in registry:
        return f"game: {rec.game[:40]!r} is not a registered game"
    game = registry.get(rec.game)
    lo, hi = getattr(game, "min_players", 1), getattr(game, "max_players", len(rec.seats))
    if not lo <= len(rec.seats) <= hi:
        return f"seats: {len(rec.seats)} seats, but {rec.game} is played by {lo}..{hi}"
    return None


def needs_replay(rec: MatchRecord) -> bool:
    """Does serving this match load its engine state (as ``Host._board`` does)?"""
    return rec.status in (ACTIVE, FINISHED) or (rec.status == ABORTED and rec.n_commands > 0)


def replay(game: Any, rec: MatchRecord, commands: Sequence[CommandRecord],
           initial: Callable[[Any, MatchRecord], Any],
           step: Callable[[Any, Any, int, str], Any]) -> Any:
    """The state after the whole log, replayed from the seed (``initial``, then ``step`` per
    entry).  Raises :class:`LogMismatch` if the log is not entries 1..n_commands, or if the
    state after ``snapshot_seq`` entries is not the stored snapshot; whatever the engine
    raises on an entry it refuses propagates (the caller quarantines either way)."""
    # entries beyond n_commands were appended (by another process) after the row was read
    commands = [c for c in commands if c.seq <= rec.n_commands]
    if [c.seq for c in commands] != list(range(1, rec.n_commands + 1)):
        raise LogMismatch(f"the command log holds entries {_seqs(commands)}, "
                          f"not 1..{rec.n_commands}")
    state = initial(game, rec)
    check_at = rec.snapshot_seq if rec.snapshot is not None else -1
    if check_at == 0:
        _compare(game, state, rec, 0)
    for c in commands:
        state = step(game, state, c.seat, c.command)
        if c.seq == check_at:
            _compare(game, state, rec, c.seq)
    return state


def _seqs(commands: Sequence[CommandRecord]) -> str:
    seqs = [c.seq for c in commands]
    return f"{seqs[:5]}{'...' if len(seqs) > 5 else ''} ({len(seqs)})" if seqs else "none"


def _compare(game: Any, state: Any, rec: MatchRecord, seq: int) -> None:
    where = snapshot_check.problem(rec.snapshot or "", game.dump(state), rec.game)
    if where is not None:
        raise LogMismatch(f"the log does not replay to the stored snapshot at entry {seq} ({where})")


def same_state(stored: str, replayed: str, *, game: str | None = None) -> bool:
    """Is the stored snapshot the replayed state (of ``game``, a registry name)?  Equal text, or
    equal JSON dumps once the keys the engine added later are filled with their documented
    defaults on both sides (:mod:`host.snapshot_check`): a snapshot written before the engine
    added a field still loads and passes, one that lacks a key the engine has always written
    (e.g. ``'{}'``) fails."""
    return snapshot_check.same_state(stored, replayed, game)


async def quarantine(host: Any, rec: MatchRecord, reason: str, kind: str = "replay") -> None:
    """Quarantine ``rec`` for ``reason`` (``kind``: ``replay`` or ``game``, see
    :data:`data.store.QUARANTINE_KINDS`), say so in the operator log, forget its state."""
    log.error("match %s quarantined (%s): %s", rec.id, kind, reason)
    host._states.pop(rec.id, None)
    host._verified.discard(rec.id)
    try:
        await host.store.quarantine(rec.id, reason, kind=kind)
    except StoreError:
        log.exception("match %s could not be quarantined", rec.id)


async def admit(host: Any, rec: MatchRecord) -> bool:
    """May the host serve this freshly read row?  False (and the row quarantined) if the engines
    cannot serve it, or — the first time this process loads its state — if its log does not
    replay behind its snapshot (``Host._state`` does the replay; see the module docstring)."""
    problem = row_problem(rec)
    if problem is not None:
        await quarantine(host, rec, problem, kind="game")
        return False
    from host.engines import CardSetUnusable, engine_for

    try:        # a match of a server's card set: its version loaded (a database hiccup propagates)
        await engine_for(host.store, rec)
    except CardSetUnusable as exc:
        await quarantine(host, rec, f"cards: {exc}", kind="game")
        return False
    if needs_replay(rec) and rec.id not in host._verified:
        try:
            await host._state(rec)
        except CorruptRow:
            return False  # quarantined (and logged) by _state
    return True


async def after_failure(host: Any, match_id: int) -> None:
    """The clock's work on a match raised: read the row again through every check, which
    quarantines it if the row is what is wrong; a row that passes is left as it is (and is
    tried again at the next tick)."""
    try:
        _, err = await host._get(match_id)
    except StoreError as e:  # the database, not the row: nothing to conclude (logged by the store)
        log.info("match %s could not be read again after a failure: %s", match_id, e)
        return
    except Exception:
        log.exception("match %s could not be read again after a failure", match_id)
        return
    if err is not None and err.error is not None and err.error.key == "host.err.quarantined":
        log.error("match %s was quarantined after the clock failed on it", match_id)
