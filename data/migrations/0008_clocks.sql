-- 0008: clocks across days (docs/clocks.md): a player's own settings, vacations, the games
-- waiting on each player, the notices already sent, and the notices held by quiet hours.
-- The rows hold plain values and JSON; the host reads them with host/clocks/ (the store checks
-- each row's types and sizes when it reads it, and skips, with a log line, one that fails).

-- player_settings: a player's own settings, the same in every server (a JSON object: zone,
-- quiet, how, digest_hour, and whatever is added later).
CREATE TABLE player_settings (
    user_id  INTEGER PRIMARY KEY,
    settings TEXT    NOT NULL                   -- JSON object
);

-- vacations: one row per vacation [start_at, end_at), asked or taken automatically.  seq numbers
-- a player's vacations 1, 2, ...: a new one takes the next number inside its write, so two
-- starts at the same moment cannot both be stored (the second finds its number taken, reads
-- again and sees the first).
CREATE TABLE vacations (
    user_id  INTEGER NOT NULL,
    seq      INTEGER NOT NULL,
    start_at REAL    NOT NULL,
    end_at   REAL    NOT NULL,
    how      TEXT    NOT NULL,                  -- asked | auto
    PRIMARY KEY (user_id, seq)
) WITHOUT ROWID;

-- turns_waiting: the players a match waits on, rewritten by the host after each command
-- (/turns reads a player's rows by deadline).  deadline: when the player's time runs out while
-- their clock runs; bank_left: the seconds left while it is paused; neither without a limit.
CREATE TABLE turns_waiting (
    match_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    guild_id  INTEGER,
    since     REAL    NOT NULL,
    deadline  REAL,
    bank_left REAL,
    PRIMARY KEY (match_id, user_id)
) WITHOUT ROWID;
CREATE INDEX turns_waiting_user ON turns_waiting (user_id, deadline);

-- notices_sent: when a notice of a kind (remind, vacation_end, digest, ...) was last sent for a
-- key (e.g. match:12:user:5), so at most one a day survives restarts and several processes.
CREATE TABLE notices_sent (
    kind TEXT NOT NULL,
    key  TEXT NOT NULL,
    at   REAL NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;
CREATE INDEX notices_sent_at ON notices_sent (at);

-- notice_queue: notices held by a player's quiet hours until deliver_at; a row is taken (and
-- deleted) by exactly one process.  match_id: the payload's match, so a match that ends drops
-- its notices.
CREATE TABLE notice_queue (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL,
    deliver_at REAL    NOT NULL,
    match_id   INTEGER,
    payload    TEXT    NOT NULL                 -- JSON object
);
CREATE INDEX notice_queue_due ON notice_queue (deliver_at, id);
CREATE INDEX notice_queue_match ON notice_queue (match_id) WHERE match_id IS NOT NULL;
