-- 0007: a server's statistics of decks, characters and cards (issue 37).
--
-- stats_matches: the public facts of every finished match counted (host/stats/facts.py), one row
-- each: a match is counted once, and what a crash between its end and its count missed is found
-- by the matches that have none.  stats_counts: the sums the /stats answers read, only ever
-- added to (host/stats/aggregate.py: split = edition|card set version, scope = all / season /
-- league, with |p for practice, key = what is counted).  stats_pairings: the league pairings
-- already counted as one match each.
CREATE TABLE stats_matches (
    match_id    INTEGER PRIMARY KEY,
    guild_id    INTEGER,
    game        TEXT    NOT NULL,
    finished_at REAL    NOT NULL,
    league_id   INTEGER,
    season      INTEGER,                    -- the rating season it was counted in (a rebuild keeps it)
    facts       TEXT    NOT NULL
);
CREATE INDEX stats_matches_guild ON stats_matches (guild_id, game, finished_at);
CREATE INDEX stats_matches_league ON stats_matches (league_id);

CREATE TABLE stats_counts (
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    split    TEXT    NOT NULL,
    scope    TEXT    NOT NULL,
    key      TEXT    NOT NULL,
    n        INTEGER NOT NULL,
    score    REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, split, scope, key)
);

CREATE TABLE stats_pairings (
    league_id  INTEGER NOT NULL,
    pairing_id INTEGER NOT NULL,
    PRIMARY KEY (league_id, pairing_id)
);

-- a player's own counters (/profile: their decks and win rates), apart from the server's figures
-- so that neither read scans the other's rows; key = deck:<deck> or own:<hash of a deck code>
CREATE TABLE stats_users (
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    key      TEXT    NOT NULL,
    n        INTEGER NOT NULL,
    score    REAL    NOT NULL,
    PRIMARY KEY (user_id, guild_id, game, key)
);
