"""The store interface.  Every caller (host, cogs, leagues) talks to a :class:`Store`; the
SQLite backend (:mod:`data.sqlite_store`) is the embedded default and the PostgreSQL backend
(:mod:`data.postgres_store`) sits behind the same interface, so callers never know which one runs.
Both run the same SQL (:class:`data.sql_store.SqlStore`) and record codec (:mod:`data.rows`).
The backends import the interface from here; :func:`data.store.open_store` opens one of them, and
:mod:`data.store` names everything here too, which is where callers import it from.

A match is fully described by (game, options, seats, seed, command log); ``snapshot`` is an
optimisation (the engine's ``dump`` after ``snapshot_seq`` commands).

Concurrency: every write to a match row names the ``version`` it read.  The write succeeds only
if the row still has that version, and then bumps it by one; otherwise it raises
:class:`VersionConflict` and changes nothing.  So two processes sharing one database can never
apply two commands on the same version.

Errors (issue 31): every method raises only :class:`StoreError` and its subclasses, never a
driver's own error.  :class:`TransientStoreError`: the database could not answer (after a few
tries) and nothing was changed; :class:`OutcomeUnknown`: a write's ``COMMIT`` was never
confirmed and could not be read back, so it may or may not be stored; :class:`CorruptRow`: the
row is wrong (quarantined); :class:`VersionConflict`: another write came first.  Every call waits
at most the deadlines of :mod:`data.deadline`.
"""
from __future__ import annotations

import abc
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

if TYPE_CHECKING:   # (the rows of limited play are defined beside their SQL, which imports this module)
    from data.card_counts import CardCounts, SetCounts
    from data.sql_limited import DraftRow, LimitedGameRecord, PickRecord, SeatRow, SurveyRecord

# Match status values.
PENDING = "pending"      # challenge sent to named opponents, waiting for their accept
OPEN = "open"            # open seats, waiting for players to join (and the creator to start)
ACTIVE = "active"        # being played
FINISHED = "finished"    # ended with a result (win/loss/draw, resignation, timeout)
ABORTED = "aborted"      # ended without a result (all players agreed, or a moderator)
DECLINED = "declined"    # a challenge that was declined or withdrawn
QUARANTINED = "quarantined"  # a row that could not be read; kept for an admin, never loaded
UNFINISHED = (PENDING, OPEN, ACTIVE)
# Every status a readable match row may have (a quarantined row is never decoded).
STATUSES = (PENDING, OPEN, ACTIVE, FINISHED, ABORTED, DECLINED)
MAX_ID = 2 ** 63 - 1  # ids are signed 64-bit integers (INTEGER in SQLite, BIGINT in PostgreSQL)


def valid_id(value: Any) -> int | None:
    """``value`` as a row id if it is one a table can hold (a whole number 0..2**63-1, also
    written as digits), else None: such an id names no row, and asking the database about it
    would raise (SQLite ``OverflowError``, asyncpg ``DataError``) instead of finding nothing."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        value = value.strip()
        if not (value.isascii() and value.isdigit()) or len(value) > 19:
            return None
        value = int(value)
    if not isinstance(value, int):
        try:
            if int(value) != value:
                return None
            value = int(value)
        except (TypeError, ValueError, OverflowError):
            return None
    return value if 0 <= value <= MAX_ID else None


class StoreError(Exception):
    """Every failure of a store reaches its callers as this class or a subclass, never as a
    driver's own error.  ``transient``: nothing is wrong with the stored data, the database
    could not answer now (see :class:`TransientStoreError`).  ``kind`` names the failure for
    logs and metrics."""

    transient = False
    kind = "error"

    def __init__(self, message: str = "", *, kind: str | None = None) -> None:
        super().__init__(message)
        if kind is not None:
            self.kind = kind


class TransientStoreError(StoreError):
    """The database could not answer — a timeout, a lost connection, a server starting up or
    shutting down, a full disk, a lock held too long — and **nothing was changed**: the store
    tried a bounded number of times and gave up.  Never a reason to quarantine anything; the
    caller answers "try again in a moment".  ``kind``: ``timeout``, ``connection``,
    ``starting``, ``full``, ``locked``, ``io`` or ``busy``."""

    transient = True
    kind = "connection"


class CardSetRefused(StoreError):
    """:meth:`Store.add_card_set` stored nothing: ``reason`` is ``"too_many"`` (the server's
    limit of sets of the game; ``limit``) or ``"looks_like"`` (``name``: the set whose name the
    new one only looks like).  Not a failure of the database: nothing to note or try again."""

    kind = "refused"

    def __init__(self, reason: str, *, name: str | None = None, limit: int | None = None) -> None:
        super().__init__(f"card set refused: {reason}")
        self.reason, self.name, self.limit = reason, name, limit


class OutcomeUnknown(TransientStoreError):
    """A write was sent but the database never confirmed its ``COMMIT`` (the connection was
    lost or timed out around it), and reading it back did not settle whether it was stored.
    It may or may not have been: the caller must not say "nothing was changed"."""

    kind = "unknown"


class VersionConflict(StoreError):
    """The match row changed since it was read (another command, another process)."""

    kind = "conflict"


# Why a row was quarantined (the ``kind`` column of ``quarantine``).  Only proof that the
# stored data is wrong quarantines: ``data`` (a value does not decode or fields do not fit
# together), ``log`` (n_commands does not fit the command log), ``game`` (the engines cannot
# serve the row: an unknown game, a seat count it does not allow), ``replay`` (the log does not
# replay, or not to the stored snapshot).  ``None``: quarantined before kinds were recorded.
QUARANTINE_KINDS = ("data", "log", "game", "replay")


class CorruptRow(StoreError):
    """A row could not be read; it has been quarantined.  ``recheck``: it was quarantined
    before kinds were recorded, for a reason that looks like a failing connection rather than
    bad data, so it deserves another look (:meth:`Store.recheck`)."""

    kind = "corrupt"

    def __init__(self, message: str = "", *, recheck: bool = False) -> None:
        super().__init__(message)
        self.recheck = recheck


# How the reason of a quarantine recorded before kinds were (kind NULL) reads when the row was
# quarantined for a failing connection, not for bad data: the driver's and the store's names of
# timeouts, lost connections, a server starting or stopping, a locked or full database.  Such a
# match is re-checked on its next load (issue 31) and released when it reads and replays.
TRANSIENT_REASONS = (
    "StoreError", "QueryCanceled", "statement timeout", "canceling statement", "TimeoutError",
    "ConnectionDoesNotExist", "ConnectionFailure", "CannotConnectNow", "PostgresConnectionError",
    "InterfaceError", "ConnectionResetError", "ConnectionRefusedError", "BrokenPipeError",
    "OSError", "AdminShutdown", "CrashShutdown", "TooManyConnections", "DiskFull",
    "database is locked", "database table is locked", "disk is full", "disk I/O error",
    "connection was closed", "connection is closed", "the database system is",
)


def looks_transient(reason: str | None) -> bool:
    """Does a quarantine reason name a failing connection rather than bad data?"""
    text = str(reason or "").lower()
    return any(sig.lower() in text for sig in TRANSIENT_REASONS)


@dataclass
class MatchRecord:
    game: str
    seed: int
    seats: list[int | None]           # user id per seat; None = open seat not yet taken
    names: list[str]                  # display name per seat ("" for an open seat)
    creator: int
    options: dict[str, Any] = field(default_factory=dict)
    status: str = PENDING
    id: int | None = None             # assigned by create_match
    version: int = 0                  # assigned/bumped by the store
    guild_id: int | None = None       # where the match is played (None: DMs / local console)
    channel_id: int | None = None     # the channel or thread the match lives in
    turn_seconds: int | None = None   # per-turn time limit (None: no clock)
    deadline: float | None = None     # epoch seconds by which the seats to act must act
    reminded: bool = False            # reminder already sent for the current deadline
    accepted: list[int] = field(default_factory=list)     # users who accepted a pending challenge
    abort_votes: list[int] = field(default_factory=list)  # users who asked to abort
    spectators: list[int] = field(default_factory=list)
    result: dict[str, Any] | None = None  # {"winners": [seats], "reason": str, ...}
    snapshot: str | None = None       # engine dump after snapshot_seq commands
    snapshot_seq: int = 0
    n_commands: int = 0               # length of the command log
    rematch_of: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)    # anything else (JSON-able)
    # which random stream the engines replay this match with (rules.prng): 2 = keyed BLAKE2b
    # (every match created since), 1 = the engines' original splitmix64 (older stored matches)
    prng: int = 2
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
    # not a column: the players this write leaves the match waiting on, for ``/turns`` — rows
    # ``(user_id, since, deadline or None, bank_left or None)`` the store writes to
    # ``turns_waiting`` in the same transaction as the row (None: leave them as they are; a
    # match that is no longer active waits on nobody).  A record read back has None.
    waiting: list | None = field(default=None, compare=False, repr=False)


@dataclass
class CommandRecord:
    match_id: int
    seq: int          # 1-based position in the log
    seat: int
    command: str
    at: float


@dataclass
class ResultRow:
    match_id: int
    game: str
    guild_id: int | None
    seat: int
    user_id: int
    outcome: str      # "win" | "loss" | "draw"
    reason: str
    finished_at: float


class Store(abc.ABC):
    """Async persistence for matches, their command logs, results and guild settings."""

    # lifecycle ---------------------------------------------------------------------------
    @abc.abstractmethod
    async def open(self) -> None:
        """Connect and run pending migrations."""

    @abc.abstractmethod
    async def close(self) -> None: ...

    # matches ------------------------------------------------------------------------------
    @abc.abstractmethod
    async def create_match(self, rec: MatchRecord) -> MatchRecord:
        """Insert; returns a copy with ``id`` and ``version=1`` set."""

    @abc.abstractmethod
    async def get_match(self, match_id: int) -> MatchRecord | None:
        """None if absent (also for an id no row can have: see :func:`valid_id`).  Raises
        :class:`CorruptRow` (after quarantining it) if unreadable: a value that does not parse,
        fields that do not fit together (:func:`data.rows.decode`), or an ``n_commands`` that
        is not the command log's length and last seq."""

    @abc.abstractmethod
    async def update_match(self, rec: MatchRecord, expected_version: int) -> MatchRecord:
        """Write every field of ``rec`` if the row still has ``expected_version``; returns a
        copy with ``version = expected_version + 1``.  Raises :class:`VersionConflict`.
        If ``rec.status == FINISHED`` and ``rec.result`` is set, the result rows are written in
        the same transaction (once per match)."""

    @abc.abstractmethod
    async def append_command(self, rec: MatchRecord, expected_version: int, seat: int,
                             command: str) -> MatchRecord:
        """In one transaction: append ``command`` as entry ``rec.n_commands`` of the log (so
        ``rec`` must already count it), and write ``rec`` as :meth:`update_match` does.
        Raises :class:`VersionConflict` and writes nothing if the version moved.  When this
        returns, the command is committed (durable)."""

    @abc.abstractmethod
    async def commands(self, match_id: int) -> list[CommandRecord]:
        """The command log in order."""

    @abc.abstractmethod
    async def rewind_log(self, rec: MatchRecord, expected_version: int, *, undo: int, kind: str,
                         by_user: int | None, reason: str = "",
                         words: dict[int, dict] | None = None) -> MatchRecord:
        """In one transaction: take the log's entries after ``rec.n_commands`` off it, keep them
        as the match's ``undo``-th rewind (``kind``: "undo", "takeback" or "judge"; who and why),
        and write ``rec`` as :meth:`update_match` does.  Raises :class:`VersionConflict`."""

    @abc.abstractmethod
    async def undone(self, match_id: int) -> list[Any]:
        """The entries taken off the match's log (``data.sql_undo.UndoneRecord``), in order."""

    @abc.abstractmethod
    async def unfinished_matches(self) -> list[MatchRecord]:
        """Every match whose status is in UNFINISHED.  Unreadable rows are quarantined and
        skipped (and logged), never raised."""

    @abc.abstractmethod
    async def count_matches(self, statuses: tuple[str, ...] = UNFINISHED) -> int:
        """How many matches have one of ``statuses`` (cheap: nothing is decoded)."""

    @abc.abstractmethod
    async def matches_due(self, deadline_before: float, created_before: float,
                          shards: Any = None, *, now: float | None = None,
                          lead: tuple[float, float] | None = None) -> list[MatchRecord]:
        """Clock work: active matches whose deadline is at or before ``deadline_before``, and
        pending/open challenges created at or before ``created_before``.  ``shards`` (a
        :class:`host.shards.Shards`): only the matches of guilds on those gateway shards, and
        the guild-less ones if it holds shard 0 (several processes split the clock's work).
        ``now`` and ``lead`` = (share, cap): of those active matches only the ones with
        something due — the deadline passed, or a reminder not yet sent whose time
        ``deadline - min(share × turn_seconds, cap)`` has come (a match without a turn clock
        gets no reminder) — chosen by the database, so a process with thousands of matches on
        long clocks decodes only the few that are due.  A time-out already announced (the
        match's ``meta["expired"]``) is not due again: it waits for a claim or a move."""

    @abc.abstractmethod
    async def matches_in_channel(self, channel_id: int, statuses: tuple[str, ...] = UNFINISHED
                                 ) -> list[MatchRecord]: ...

    @abc.abstractmethod
    async def matches_for_user(self, user_id: int, statuses: tuple[str, ...] = UNFINISHED,
                               limit: int = 25) -> list[MatchRecord]:
        """Matches where the user holds a seat, newest first."""

    @abc.abstractmethod
    async def quarantine(self, match_id: int, reason: str, kind: str = "data") -> None:
        """Quarantine the row for ``reason``; ``kind`` is one of :data:`QUARANTINE_KINDS`."""

    @abc.abstractmethod
    async def quarantined(self) -> list[tuple[int, str, float]]:
        """(match_id, reason, at) of every quarantined row."""

    @abc.abstractmethod
    async def quarantine_kinds(self) -> dict[int, str | None]:
        """match id -> the kind of its quarantine (None: recorded before kinds were)."""

    @abc.abstractmethod
    async def recheck(self, match_id: int) -> MatchRecord | None:
        """A quarantined row read again with its status before the quarantine, through every
        check :meth:`get_match` makes; raises :class:`CorruptRow` if it still fails them (and
        records the new reason).  None: no such quarantined row.  Changes nothing else."""

    @abc.abstractmethod
    async def release(self, match_id: int, version: int) -> MatchRecord | None:
        """Lift the quarantine of a row still at ``version``: its status before the quarantine
        comes back, the version moves on by one.  Returns the record as :meth:`get_match` would
        read it, or None if the row is not quarantined (any more) or moved."""

    # front-end references (message ids etc.); not versioned ------------------------------
    @abc.abstractmethod
    async def set_ref(self, match_id: int, key: str, value: str | None) -> None:
        """Remember a front-end reference for a match (e.g. ``board_message`` -> id,
        ``dm:<user>`` -> message id).  ``None`` deletes it."""

    @abc.abstractmethod
    async def get_refs(self, match_id: int) -> dict[str, str]: ...

    # results ------------------------------------------------------------------------------
    @abc.abstractmethod
    async def results_for_user(self, user_id: int, game: str | None = None,
                               limit: int = 50) -> list[ResultRow]: ...

    # guild settings -----------------------------------------------------------------------
    @abc.abstractmethod
    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]: ...

    @abc.abstractmethod
    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        """``value=None`` removes the setting."""

    # ======================================================================================
    # records, ratings and leagues (issue 4)
    # ======================================================================================
    @abc.abstractmethod
    async def is_processed(self, match_id: int) -> bool:
        """Whether a finished match has been taken into the records (rated or not)."""

    @abc.abstractmethod
    async def record_processed(self, match_id: int, rated: bool, ratings: list["RatingRow"],
                               history: list["RatingChange"], at: float) -> bool:
        """In one transaction: mark the match processed, write every rating row (insert or
        replace) and every history row.  Returns False and writes nothing if the match was
        already processed (so a match is never rated twice).  Raises :class:`VersionConflict`
        and writes nothing if a rating to be replaced is no longer the one it was computed from
        (its history row's ``mu_before``/``sigma_before``; absent if the new row has
        ``games == 1``)."""

    @abc.abstractmethod
    async def unprocessed_finished(self, limit: int = 100) -> list[MatchRecord]:
        """Finished matches not yet processed, oldest first (catch-up after a crash)."""

    @abc.abstractmethod
    async def get_ratings(self, scope: str, game: str, user_ids: list[int]) -> dict[int, "RatingRow"]:
        """The rating rows that exist for these users (absent users: not in the dict)."""

    @abc.abstractmethod
    async def ratings_for_user(self, user_id: int, scopes: list[str]) -> list["RatingRow"]: ...

    @abc.abstractmethod
    async def leaderboard(self, scope: str, game: str, offset: int = 0, limit: int = 10
                          ) -> tuple[list["RatingRow"], int]:
        """Rows ordered by conservative rating (mu - 3 sigma) descending, and the total count."""

    @abc.abstractmethod
    async def rating_history(self, user_id: int, game: str, scope: str,
                             limit: int = 200) -> list["RatingChange"]:
        """Oldest first (the newest ``limit``)."""

    @abc.abstractmethod
    async def results_query(self, user_id: int, game: str | None = None, guild_id: int | None = None,
                            offset: int = 0, limit: int = 10, *, personal: bool = False) -> tuple[list[ResultRow], int]:
        """A user's results, newest first, and the total count (for pagination).  ``personal``
        (with a ``guild_id``): also the results of matches that belong to no server (practice
        through the bot installed on the player's own account)."""

    @abc.abstractmethod
    async def result_counts(self, user_id: int) -> dict[str, dict[str, int]]:
        """``{game: {"win": n, "loss": n, "draw": n}}`` over all of a user's results."""

    @abc.abstractmethod
    async def results_for_match(self, match_id: int) -> list[ResultRow]: ...

    @abc.abstractmethod
    async def head_to_head(self, a: int, b: int, game: str | None = None,
                           guild_id: int | None = None) -> list[tuple[ResultRow, ResultRow]]:
        """Matches where both sat, newest first: (a's row, b's row)."""

    @abc.abstractmethod
    async def create_league(self, league: "LeagueRecord") -> "LeagueRecord":
        """Insert; returns a copy with ``id`` and ``version=1``."""

    @abc.abstractmethod
    async def get_league(self, league_id: int) -> "LeagueRecord | None": ...

    @abc.abstractmethod
    async def update_league(self, league: "LeagueRecord", expected_version: int) -> "LeagueRecord":
        """Version-checked write like :meth:`update_match`; raises :class:`VersionConflict`."""

    @abc.abstractmethod
    async def leagues(self, guild_id: int | None = None,
                      statuses: tuple[str, ...] = ("signup", "running", "finished")) -> list["LeagueRecord"]:
        """Leagues (of one guild, or all) in these statuses, oldest first."""

    # ======================================================================================
    # saved decks (/deck)
    # ======================================================================================
    @abc.abstractmethod
    async def save_deck(self, user_id: int, game: str, name: str, spec: dict[str, Any]) -> None:
        """Create or replace the user's deck ``name`` for ``game``."""

    @abc.abstractmethod
    async def get_deck(self, user_id: int, game: str, name: str) -> dict[str, Any] | None: ...

    @abc.abstractmethod
    async def list_decks(self, user_id: int, game: str) -> list[tuple[str, dict[str, Any]]]:
        """(name, spec) of the user's decks for ``game``, by name."""

    @abc.abstractmethod
    async def delete_deck(self, user_id: int, game: str, name: str) -> bool:
        """True if a deck was deleted."""

    # ======================================================================================
    # servers' card sets (/cards) and their balance runs (issue 36)
    # ======================================================================================
    @abc.abstractmethod
    async def add_card_set(self, row: "CardSetRow", *, max_sets: int | None = None
                           ) -> tuple["CardSetRow", bool]:
        """Store a new version of the server's set named ``row.name``, numbered one more than
        its newest (1 for a new set; numbering goes on after the set was deleted).  Returns the
        stored row and True — or the set's newest version and False when that version already
        holds exactly ``row.digest`` (identical content is one version).

        All of it is decided inside one write transaction, so uploads at the same moment cannot
        pass a limit together: the name is matched among the server's visible sets of the game
        without regard to case (:func:`data.card_sets.names.same_key`; the set's own spelling is
        kept); :class:`CardSetRefused` ``"looks_like"`` when the name only looks like another
        set's (:func:`data.card_sets.names.look_key`), ``"too_many"`` when it is a new set and the
        server has ``max_sets`` sets of the game already."""

    @abc.abstractmethod
    async def card_sets(self, guild_id: int, game: str | None = None, name: str | None = None,
                        *, deleted: bool = False) -> list["CardSetRow"]:
        """The versions of a server's sets (without their content), oldest first; ``deleted``:
        also those of deleted sets.  A row that does not read is skipped (logged)."""

    @abc.abstractmethod
    async def get_card_set(self, set_id: int) -> "CardSetRow | None":
        """One version with its content (deleted or not); None if there is none or it does not read."""

    @abc.abstractmethod
    async def delete_card_set(self, guild_id: int, game: str, name: str, at: float) -> int:
        """Mark every version of the set deleted (never removed); the number marked."""

    @abc.abstractmethod
    async def log_card_set(self, entry: "CardSetLog") -> None: ...

    @abc.abstractmethod
    async def card_set_log(self, guild_id: int, limit: int = 50) -> list["CardSetLog"]:
        """The server's newest entries first."""

    @abc.abstractmethod
    async def create_balance_run(self, run: "BalanceRun") -> "BalanceRun": ...

    @abc.abstractmethod
    async def update_balance_run(self, run: "BalanceRun") -> None: ...

    @abc.abstractmethod
    async def get_balance_run(self, run_id: int) -> "BalanceRun | None": ...

    @abc.abstractmethod
    async def balance_runs(self, statuses: tuple[str, ...], guild_id: int | None = None, *,
                           set_id: int | None = None) -> list["BalanceRun"]:
        """Runs in these statuses (of one server, or all; of one set version, ``set_id``, or
        all), oldest first."""


    # ======================================================================================
    # a server's statistics (/stats, issue 37; data/sql_stats.py)
    # ======================================================================================
    @abc.abstractmethod
    async def record_stats(self, match_id: int, guild_id: int | None, game: str, finished_at: float,
                           league_id: int | None, facts: dict, increments: dict) -> bool:
        """Count one finished match once (its facts and its counter increments, together)."""

    @abc.abstractmethod
    async def record_stats_many(self, items: list[tuple]) -> list[bool]:
        """:meth:`record_stats` for several matches in one transaction."""

    @abc.abstractmethod
    async def record_pairing_stats(self, guild_id: int, game: str, league_id: int, pairing_id: int,
                                   increments: dict) -> bool: ...

    @abc.abstractmethod
    async def stats_counts(self, guild_id: int, game: str, split: str | None, scopes: list[str],
                           prefix: str | None = None) -> list[tuple[str, str, int, float]]: ...

    @abc.abstractmethod
    async def stats_splits(self, guild_id: int, game: str, scopes: list[str]) -> list[tuple[str, int]]: ...

    @abc.abstractmethod
    async def stats_user(self, user_id: int, guild_id: int | None = None) -> list[tuple[str, str, int, float]]: ...

    @abc.abstractmethod
    async def stats_facts(self, guild_id: int, game: str | None = None, *, league_id: int | None = None,
                          limit: int = 1_000_000) -> list[dict]: ...

    @abc.abstractmethod
    async def stats_seasons(self, guild_id: int) -> dict[int, int]: ...

    @abc.abstractmethod
    async def unprocessed_stats(self, limit: int = 200) -> list["MatchRecord"]: ...

    @abc.abstractmethod
    async def finished_in_guild(self, guild_id: int, after_id: int = 0, limit: int = 500) -> list["MatchRecord"]: ...

    @abc.abstractmethod
    async def delete_stats(self, guild_id: int) -> int: ...

    # ======================================================================================
    # clocks across days: players' settings, vacations, the games waiting on each player,
    # notices sent and held (docs/clocks.md; data/sql_clocks.py).  Plain JSON values: the host
    # reads them with host/clocks/.  A row that does not read is skipped (logged).
    # ======================================================================================
    @abc.abstractmethod
    async def get_player_settings(self, user_id: int) -> dict[str, Any]:
        """A player's own settings, the same in every server (``NotifySettings.to_json`` and
        whatever else is kept there); ``{}`` when none are stored."""

    @abc.abstractmethod
    async def player_settings_many(self, user_ids: list[int]) -> dict[int, dict[str, Any]]:
        """The settings of several players in one query (those without any are absent)."""

    @abc.abstractmethod
    async def set_player_settings(self, user_id: int, settings: dict[str, Any] | None) -> None:
        """Replace a player's settings (a JSON object, size-limited: ``ValueError``); ``None``
        or ``{}`` forgets them."""

    @abc.abstractmethod
    async def vacations(self, user_id: int, since: float) -> list[dict]:
        """A player's vacations ending after ``since``, by start: ``{"start", "end", "how"}``
        (``Vacation.to_json``)."""

    @abc.abstractmethod
    async def vacations_many(self, user_ids: list[int], since: float) -> dict[int, list[dict]]:
        """:meth:`vacations` of several players in one query."""

    @abc.abstractmethod
    async def start_vacation(self, user_id: int, start: float, end: float, how: str, *,
                             allowance_check: Any) -> dict | None:
        """Store a vacation ``[start, end)`` (``how``: ``asked`` or ``auto``) unless another ends
        after ``start``; the stored record, or None when refused.  Decided inside one write
        transaction, where ``allowance_check(records)`` (or None) sees the player's records that
        can still count and refuses by raising (the exception reaches the caller) or returning
        False: of two starts at once, in one process or several, only one is stored."""

    @abc.abstractmethod
    async def end_vacation(self, user_id: int, now: float, end: float | None = None) -> dict | None:
        """Shorten the vacation running at ``now`` to end at ``end`` (default ``now``; between
        its start and its planned end, else ``ValueError``); the record as stored, or None when
        none runs."""

    @abc.abstractmethod
    async def on_vacation(self, user_ids: list[int], now: float) -> dict[int, float]:
        """Who of ``user_ids`` is on vacation at ``now``: user id -> the end of it (one query)."""

    @abc.abstractmethod
    async def waiting_for(self, user_id: int, limit: int = 100) -> list[dict]:
        """The matches waiting on a player, by deadline (then by bank left, then without a time
        limit; ties by match id): ``match_id, user_id, guild_id, since, deadline, bank_left``."""

    @abc.abstractmethod
    async def waiting_users(self) -> list[int]:
        """Every player some unfinished match waits on, once each, in order."""

    @abc.abstractmethod
    async def mark_sent(self, kind: str, key: str, at: float) -> None:
        """A notice of ``kind`` (``remind``, ``vacation_end``, ``digest`` …) for ``key`` (e.g.
        ``match:12:user:5``) was sent at ``at``."""

    @abc.abstractmethod
    async def last_sent(self, kind: str, key: str) -> float | None: ...

    @abc.abstractmethod
    async def claim_notice(self, kind: str, key: str, now: float, not_since: float) -> bool:
        """Atomically: if no such notice was sent at or after ``not_since``, record ``now`` and
        return True; else False.  Of callers in several processes exactly one gets True."""

    @abc.abstractmethod
    async def prune_sent(self, before: float) -> int:
        """Forget the notices sent before ``before``; how many."""

    @abc.abstractmethod
    async def queue_notice(self, user_id: int, deliver_at: float, payload: dict[str, Any]) -> int:
        """Hold a notice (a JSON object; its ``match_id``, if any, is kept for
        :meth:`drop_notices`) until ``deliver_at``; its id."""

    @abc.abstractmethod
    async def due_notices(self, now: float, limit: int = 100) -> list[tuple[int, int, dict[str, Any]]]:
        """Take the held notices due at ``now``, earliest first: ``(id, user id, payload)``.
        Taken once: each is given to exactly one caller, also across processes."""

    @abc.abstractmethod
    async def drop_notices(self, match_id: int) -> int:
        """Drop a match's held notices (it ended); how many."""

    # ======================================================================================
    # limited play: drafts, their seats and decks, and — for the per-card figures — the picks
    # of finished drafts, the games played with limited decks and the survey after a match
    # (docs/limited.md; data/sql_limited.py: the rows, their checks and LimitedRefused)
    # ======================================================================================
    @abc.abstractmethod
    async def create_draft(self, *, guild_id: int, game: str, format: str, source: str, seed: bytes,
                           created_by: int, seats: Sequence[tuple[int | None, str]], state: dict,
                           set_name: str | None = None, set_version: int | None = None,
                           edition: str | None = None, channel_id: int | None = None,
                           league_id: int | None = None, status: str = "open", due_at: float | None = None,
                           created_at: float | None = None) -> "DraftRow":
        """Store a draft with its seats (seat 0 first; user None: a computer) in one
        transaction, at version 0; ``seed``: 32 random bytes, secret until the draft is done."""

    @abc.abstractmethod
    async def get_draft(self, draft_id: int) -> "DraftRow | None": ...

    @abc.abstractmethod
    async def update_draft(self, draft_id: int, expected_version: int, *, state: dict, status: str,
                           due_at: float | None, at: float | None = None) -> "DraftRow":
        """Version-checked write of the state, status and earliest pick deadline (raises
        :class:`VersionConflict`); a finished or cancelled draft does not move on."""

    @abc.abstractmethod
    async def set_seat_user(self, draft_id: int, seat: int, user_id: int | None, name: str) -> "DraftRow":
        """Before the start: a person takes a computer's seat (None: gives it back); a person
        already seated at the draft is refused."""

    @abc.abstractmethod
    async def save_limited_deck(self, draft_id: int, seat: int, deck: Sequence[str], *, locked: bool = False,
                                at: float | None = None) -> "SeatRow":
        """The deck built at a seat; a locked deck (an event's) is never changed again."""

    @abc.abstractmethod
    async def drafts_due(self, now: float, limit: int = 100) -> list[int]:
        """Drafts whose earliest pick deadline is at or before ``now``, earliest first."""

    @abc.abstractmethod
    async def drafts_of(self, guild_id: int, *, statuses: Sequence[str] = ("open", "drafting", "building"),
                        user_id: int | None = None, limit: int = 25) -> list["DraftRow"]:
        """A server's drafts in ``statuses`` (those ``user_id`` sits at, if given), newest first."""

    @abc.abstractmethod
    async def add_picks(self, draft_id: int, picks: Iterable["PickRecord"]) -> None:
        """The picks of a draft that is done (idempotent)."""

    @abc.abstractmethod
    async def add_limited_games(self, rows: Iterable["LimitedGameRecord"]) -> None:
        """Seats of finished matches played with limited decks (idempotent per match and seat)."""

    @abc.abstractmethod
    async def put_survey(self, record: "SurveyRecord") -> None:
        """A player's survey answer after a match; a second answer replaces the first."""

    @abc.abstractmethod
    async def survey_of(self, match_id: int, user_id: int) -> "SurveyRecord | None":
        """A player's survey answer about one match (None: none)."""

    @abc.abstractmethod
    async def limited_rows(self, guild_id: int, game: str, set_name: str | None, set_version: int | None
                           ) -> tuple[list["PickRecord"], list["LimitedGameRecord"], list["SurveyRecord"]]:
        """The picks, games and survey answers of one server's set version (None: shipped cards)."""

    @abc.abstractmethod
    async def card_counts(self, guild_id: int, game: str, set_name: str | None, set_version: int | None
                          ) -> tuple[list["CardCounts"], "SetCounts"]:
        """The counters ``/cards report`` reads for one server's set version (None: shipped
        cards), kept up to date as picks, games and answers are written (data/card_counts.py,
        data/sql_card_counters.py): one per card and the version's totals."""


# -- records, ratings and leagues (issue 4) ----------------------------------------------------
@dataclass
class RatingRow:
    """One player's rating for a game in a scope (``global``, ``guild:<id>``, ``guild:<id>:s<n>``)."""

    scope: str
    game: str
    user_id: int
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    updated_at: float = 0.0


@dataclass
class RatingChange:
    """What one rated match did to one player's rating in one scope."""

    match_id: int
    scope: str
    game: str
    user_id: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    at: float


@dataclass
class LeagueRecord:
    """A league: queried columns plus its JSON document (players, rounds, pairings)."""

    guild_id: int
    status: str                                   # signup | running | finished | closed
    data: dict[str, Any] = field(default_factory=dict)
    id: int | None = None
    version: int = 0
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)


# -- servers' card sets (issue 36) ---------------------------------------------------------------
BALANCE_STATUSES = ("queued", "running", "done", "stopped", "failed")


@dataclass
class CardSetRow:
    """One version of a server's card set.  ``content``: the SetContent JSON text (None in the
    lists, which leave it out); ``summary``: counts and the set's deck ids."""

    guild_id: int
    game: str
    name: str
    digest: str
    mode: str
    created_by: int
    content: str | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    version: int = 0
    id: int | None = None
    created_at: float = field(default_factory=time.time)
    deleted_at: float | None = None


@dataclass
class CardSetLog:
    """Who did what to a server's card sets, and when (``action``: upload, delete, default,
    balance)."""

    guild_id: int
    user_id: int
    action: str
    game: str
    name: str | None = None
    version: int | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    at: float = field(default_factory=time.time)
    id: int | None = None


@dataclass
class BalanceRun:
    """A balance run of one set version (``set_id``): ``plan`` (decks, matches per pairing and
    seat order, seeds), ``progress`` (every finished match's result), ``status`` one of
    :data:`BALANCE_STATUSES`."""

    guild_id: int
    set_id: int
    game: str
    requested_by: int
    locale: str
    status: str
    plan: dict[str, Any] = field(default_factory=dict)
    progress: dict[str, Any] = field(default_factory=dict)
    channel_id: int | None = None
    message_id: int | None = None
    cpu_s: float = 0.0
    reason: str | None = None
    id: int | None = None
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
