-- 0010: moves taken back (docs/undo.md).  An undo, a takeback or a judge's rewind takes the last
-- entries off the command log (so every replay, picture and record is of the position as it
-- stands) and keeps them here, numbered by the match's rewind, so the match's log and its text
-- record still say what was played and undone, by whom and why.
CREATE TABLE undone (
    match_id  BIGINT  NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    undo      BIGINT  NOT NULL CHECK (undo >= 1),      -- the match's n-th rewind
    seq       BIGINT  NOT NULL CHECK (seq >= 1),       -- the entry's place in the log when played
    seat      INTEGER NOT NULL,
    command   TEXT    NOT NULL,
    at        DOUBLE PRECISION NOT NULL,                        -- when it was played
    kind      TEXT    NOT NULL CHECK (kind IN ('undo', 'takeback', 'judge')),
    by_user   BIGINT,                                 -- who undid it (the player, the judge)
    undone_at DOUBLE PRECISION NOT NULL,
    reason    TEXT    NOT NULL DEFAULT '',
    words     TEXT,                                    -- the move as the thread told it (JSON {"en", "ja"})
    PRIMARY KEY (match_id, undo, seq)
);
