-- 0001: the initial schema.
--
-- Conventions: ids and Discord snowflakes are INTEGER (signed 64-bit, BIGINT in PostgreSQL);
-- times are REAL epoch seconds; JSON values are TEXT holding compact JSON.  The runner wraps
-- this file in one transaction and records it in schema_version; do not put BEGIN/COMMIT or
-- PRAGMAs that cannot run inside a transaction here.

-- Per-guild settings: one row per (guild, key), value is JSON.
CREATE TABLE guild_settings (
    guild_id    INTEGER NOT NULL,
    key         TEXT    NOT NULL,
    value       TEXT    NOT NULL,               -- JSON
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;

-- One row per match.  Columns that are queried are real columns; the rest of MatchRecord is
-- JSON.  version is bumped by every write (optimistic concurrency).
CREATE TABLE matches (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,   -- never reused
    game         TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    version      INTEGER NOT NULL,
    guild_id     INTEGER,
    channel_id   INTEGER,
    creator      INTEGER NOT NULL,
    seed         INTEGER NOT NULL,
    turn_seconds INTEGER,
    deadline     REAL,
    reminded     INTEGER NOT NULL DEFAULT 0,          -- 0/1
    rematch_of   INTEGER,
    options      TEXT    NOT NULL DEFAULT '{}',       -- JSON object
    seats        TEXT    NOT NULL,                    -- JSON [user id | null, ...]
    names        TEXT    NOT NULL,                    -- JSON [str, ...]
    accepted     TEXT    NOT NULL DEFAULT '[]',       -- JSON [user id, ...]
    abort_votes  TEXT    NOT NULL DEFAULT '[]',       -- JSON [user id, ...]
    spectators   TEXT    NOT NULL DEFAULT '[]',       -- JSON [user id, ...]
    result       TEXT,                                -- JSON object or NULL
    meta         TEXT    NOT NULL DEFAULT '{}',       -- JSON object
    snapshot     TEXT,                                -- engine dump after snapshot_seq commands
    snapshot_seq INTEGER NOT NULL DEFAULT 0,
    n_commands   INTEGER NOT NULL DEFAULT 0,          -- length of the command log
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL
);
CREATE INDEX matches_status   ON matches (status);
CREATE INDEX matches_channel  ON matches (channel_id, status);
CREATE INDEX matches_guild    ON matches (guild_id, status);
CREATE INDEX matches_game     ON matches (game, status);
CREATE INDEX matches_deadline ON matches (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX matches_created  ON matches (created_at);
CREATE INDEX matches_updated  ON matches (updated_at);

-- Who sits where: kept in sync with matches.seats on every write, for matches_for_user.
CREATE TABLE match_players (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX match_players_user ON match_players (user_id, match_id);

-- The append-only command log.  seq is 1-based and gap-free per match.
CREATE TABLE commands (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    seat     INTEGER NOT NULL,
    command  TEXT    NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER commands_append_only BEFORE UPDATE ON commands
BEGIN
    SELECT RAISE(ABORT, 'the command log is append-only');
END;

-- One row per seated user of a finished match; written once, when the match finishes.
CREATE TABLE results (
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    game        TEXT    NOT NULL,
    guild_id    INTEGER,
    seat        INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    reason      TEXT    NOT NULL DEFAULT '',
    finished_at REAL    NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX results_user      ON results (user_id, finished_at);
CREATE INDEX results_user_game ON results (user_id, game, finished_at);

-- Front-end references (message ids etc.); not versioned.
CREATE TABLE match_refs (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    key      TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    PRIMARY KEY (match_id, key)
) WITHOUT ROWID;

-- Rows that could not be read.  No foreign key: a row may be quarantined because it is broken.
CREATE TABLE quarantine (
    match_id    INTEGER PRIMARY KEY,
    reason      TEXT    NOT NULL,
    prev_status TEXT,                           -- status before quarantine, for an admin
    at          REAL    NOT NULL
);
