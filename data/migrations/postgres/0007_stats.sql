-- 0007 (PostgreSQL): a server's statistics; the twin of ../0007_stats.sql (see there).
CREATE TABLE stats_matches (
    match_id    BIGINT PRIMARY KEY,
    guild_id    BIGINT,
    game        TEXT   NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    league_id   BIGINT,
    season      INTEGER,                    -- the rating season it was counted in (a rebuild keeps it)
    facts       TEXT   NOT NULL             -- JSON object (host/stats/facts.py)
);
CREATE INDEX stats_matches_guild ON stats_matches (guild_id, game, finished_at);
CREATE INDEX stats_matches_league ON stats_matches (league_id);

CREATE TABLE stats_counts (
    guild_id BIGINT NOT NULL,
    game     TEXT   NOT NULL,
    split    TEXT   NOT NULL,
    scope    TEXT   NOT NULL,
    key      TEXT   NOT NULL,
    n        BIGINT NOT NULL,
    score    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, split, scope, key)
);

CREATE TABLE stats_pairings (
    league_id  BIGINT NOT NULL,
    pairing_id BIGINT NOT NULL,
    PRIMARY KEY (league_id, pairing_id)
);

-- a player's own counters (/profile: their decks and win rates), apart from the server's figures
-- so that neither read scans the other's rows; key = deck:<deck> or own:<hash of a deck code>
CREATE TABLE stats_users (
    user_id  BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    game     TEXT    NOT NULL,
    key      TEXT    NOT NULL,
    n        BIGINT NOT NULL,
    score    DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (user_id, guild_id, game, key)
);
