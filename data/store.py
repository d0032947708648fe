"""The store every caller talks to: :func:`open_store` opens the backend a URL names, and the
interface it returns — :class:`Store`, its records, statuses and errors — is named here too
(defined in :mod:`data.store_interface`, below the backends, which import it from there; the
rows of limited play and :class:`LimitedRefused` beside their SQL, in :mod:`data.sql_limited`).
"""
from __future__ import annotations

from data.store_interface import (PENDING, OPEN, ACTIVE, FINISHED, ABORTED, DECLINED, QUARANTINED,
                                  UNFINISHED, STATUSES, MAX_ID, valid_id, StoreError, TransientStoreError,
                                  CardSetRefused, OutcomeUnknown, VersionConflict, QUARANTINE_KINDS,
                                  CorruptRow, TRANSIENT_REASONS, looks_transient, MatchRecord, CommandRecord,
                                  ResultRow, Store, RatingRow, RatingChange, LeagueRecord, BALANCE_STATUSES,
                                  CardSetRow, CardSetLog, BalanceRun)
from data.sql_limited import (DraftRow, SeatRow, PickRecord, LimitedGameRecord, SurveyRecord, LimitedRefused,
                              DRAFT_STATUSES)


async def open_store(url: str) -> Store:
    """Open the store named by ``url``: ``sqlite:///path/to/file.db``, a bare path, or
    ``:memory:`` (SQLite); ``postgresql://user:password@host:port/database`` or
    ``postgres://...`` (PostgreSQL, :mod:`data.postgres_store`; asyncpg is imported only then).
    Pending migrations are applied.  A PostgreSQL server that cannot be reached raises
    :class:`StoreError` naming the host and database (never the password)."""
    if url.startswith(("postgres://", "postgresql://")):
        try:
            from data.postgres_store import PostgresStore
        except ImportError as e:  # asyncpg is a dependency, but say so clearly if it is missing
            raise StoreError(f"the PostgreSQL backend needs the asyncpg package ({e}); "
                             "pip install asyncpg") from None
        pg = PostgresStore(url)
        await pg.open()
        return pg
    from data.sqlite_store import SqliteStore

    path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else url
    store = SqliteStore(path)
    await store.open()
    return store


__all__ = [
    "PENDING", "OPEN", "ACTIVE", "FINISHED", "ABORTED", "DECLINED", "QUARANTINED", "UNFINISHED",
    "STATUSES", "MAX_ID", "valid_id", "StoreError", "TransientStoreError", "CardSetRefused",
    "OutcomeUnknown", "VersionConflict", "QUARANTINE_KINDS", "CorruptRow", "TRANSIENT_REASONS",
    "looks_transient", "MatchRecord", "CommandRecord", "ResultRow", "Store", "RatingRow",
    "RatingChange", "LeagueRecord", "BALANCE_STATUSES", "CardSetRow", "CardSetLog", "BalanceRun",
    "DraftRow", "SeatRow", "PickRecord", "LimitedGameRecord", "SurveyRecord", "LimitedRefused", "DRAFT_STATUSES",
    "open_store",
]
