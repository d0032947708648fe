-- 0002: records, ratings and leagues (issue 4).
--
-- Ratings are OpenSkill (Plackett-Luce) mu/sigma per (scope, game, user).  A scope is
-- 'global', 'guild:<id>' (a server, all time) or 'guild:<id>:s<n>' (a server's rating season n).
-- Every finished match is processed exactly once (processed_matches); its rating changes are
-- written in the same transaction, so a restart never rates a match twice or skips one.

CREATE TABLE ratings (
    scope      TEXT    NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (scope, game, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_user ON ratings (user_id, game);

-- One row per (match, scope, user) a rated match changed: the rating after that match.
CREATE TABLE rating_history (
    match_id     INTEGER NOT NULL,
    scope        TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    at           REAL    NOT NULL,
    PRIMARY KEY (match_id, scope, user_id)
) WITHOUT ROWID;
CREATE INDEX rating_history_user ON rating_history (user_id, game, scope, at);

-- Finished matches whose result has been taken into the records (rated = 0: unrated match).
CREATE TABLE processed_matches (
    match_id INTEGER PRIMARY KEY,
    rated    INTEGER NOT NULL,
    at       REAL    NOT NULL
);

-- Leagues: the queried columns are real columns; players, rounds and pairings are JSON.
-- version is bumped by every write (optimistic concurrency, like matches).
CREATE TABLE leagues (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    status     TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    data       TEXT    NOT NULL,            -- JSON object
    created_at REAL    NOT NULL,
    updated_at REAL    NOT NULL
);
CREATE INDEX leagues_guild ON leagues (guild_id, status);
