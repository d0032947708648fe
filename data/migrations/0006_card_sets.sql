-- 0006: servers' own card sets (issue 36), who changed them, and their balance runs.
--
-- card_sets: one row per VERSION of a set.  A set is (guild_id, game, name); its versions are
-- numbered 1, 2, ... and each holds its whole content (data.card_sets.model.SetContent as JSON)
-- named by its SHA-256 (digest).  A match played with a set records the version's id in its
-- meta, so a version is never removed: deleting a set marks its versions (deleted_at) and hides
-- them from every list and from new matches, while stored matches and replays keep them.
CREATE TABLE card_sets (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    digest      TEXT    NOT NULL,
    mode        TEXT    NOT NULL,
    content     TEXT    NOT NULL,
    summary     TEXT    NOT NULL,
    created_by  INTEGER NOT NULL,
    created_at  REAL    NOT NULL,
    deleted_at  REAL
);
CREATE UNIQUE INDEX card_sets_version ON card_sets (guild_id, game, name, version);

-- card_set_log: every upload, deletion, default chosen and balance run asked, with who and when.
CREATE TABLE card_set_log (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    at        REAL    NOT NULL,
    action    TEXT    NOT NULL,
    game      TEXT    NOT NULL,
    name      TEXT,
    version   INTEGER,
    detail    TEXT    NOT NULL DEFAULT '{}'
);
CREATE INDEX card_set_log_guild ON card_set_log (guild_id, at);

-- balance_runs: self-play of a set version's ready-made decks (/cards balance), queued, running,
-- done, stopped or failed; progress holds every finished match's result, so a restart resumes.
CREATE TABLE balance_runs (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    set_id        INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    requested_by  INTEGER NOT NULL,
    channel_id    INTEGER,
    message_id    INTEGER,
    locale        TEXT    NOT NULL,
    status        TEXT    NOT NULL,
    plan          TEXT    NOT NULL,
    progress      TEXT    NOT NULL DEFAULT '{}',
    cpu_s         REAL    NOT NULL DEFAULT 0,
    reason        TEXT,
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);
CREATE INDEX balance_runs_status ON balance_runs (status, id);
