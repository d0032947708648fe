-- 0011: limited play — sealed pools, booster and Winston drafts (docs/limited.md).  A sealed pool
-- or a draft changes what a player may build from, never how the game is played: these tables
-- keep the draft itself, who sits where and the deck each player built from it, and — once a
-- draft is over — what was picked and how the drafted decks did, for the per-card figures of a
-- server's set (host/stats/card_figures.py).
--
-- limited_drafts: one sealed event or draft.  set_name and set_version name a version of the
--   server's card set (both NULL: the shipped cards, whose edition is kept instead).  seed: the
--   32 random bytes (64 hex digits) every pack, pool and stack is dealt from; a pool is hidden
--   information, so the seed is never shown before the status is 'done'.  state: the host's JSON
--   (the draft machine, or the sealed pools).  due_at: the earliest pick deadline (NULL when no
--   pick is timed; always NULL once the draft is over), indexed for the clock's listing of
--   timed-out picks.  version: the optimistic lock (from 0): every write of the state names
--   the version it read, and a seat taken or given back moves it on too.
-- limited_seats: the 1 to 8 seats of a draft; user_id NULL is a computer drafter.  deck: the
--   card ids (a JSON list) the seat's player built, NULL until built; locked: an event's deck,
--   never changed again.  A person sits at most once at a draft.
-- limited_picks: every pick of a finished draft — written only once it is 'done', never
--   before (picks are hidden information) — with the pack as offered; the draft's server, game
--   and set are copied onto the row so the per-card report reads one index range.
-- limited_games: each seat of a finished match played with a drafted or sealed deck: the cards
--   of the deck, those drawn and those played (JSON lists) and the score (1, 0.5 or 0).
-- card_surveys: the one-tap survey after such a match: fun 1-5, a card that felt too strong, one
--   too weak (each from the cards seen in that match, each may be left out).  One answer per
--   player per match (a second replaces the first); the figures never say who answered.
CREATE TABLE limited_drafts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL CHECK (game IN ('logic_square', 'maken', 'art_of_war', 'avalon')),
    set_name    TEXT,                                -- NULL: the shipped cards
    set_version INTEGER CHECK (set_version >= 1),
    edition     TEXT,                                -- the shipped edition (NULL for a server's set)
    format      TEXT    NOT NULL CHECK (format IN ('sealed', 'booster', 'winston')),
    source      TEXT    NOT NULL CHECK (source IN ('cube', 'boosters')),
    seed        TEXT    NOT NULL CHECK (length(seed) = 64),   -- hex; secret until 'done'
    channel_id  INTEGER,
    league_id   INTEGER,                             -- NULL unless an event's
    created_by  INTEGER NOT NULL,
    created_at  REAL    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('open', 'drafting', 'building', 'done', 'cancelled')),
    state       TEXT    NOT NULL,                    -- JSON object, written by the host
    due_at      REAL,                                -- the earliest pick deadline
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    updated_at  REAL    NOT NULL,
    CHECK ((set_name IS NULL) = (set_version IS NULL)),
    CHECK (set_name IS NULL OR edition IS NULL),
    CHECK (due_at IS NULL OR status IN ('open', 'drafting', 'building'))
);
CREATE INDEX limited_drafts_due ON limited_drafts (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX limited_drafts_guild ON limited_drafts (guild_id, created_at);

CREATE TABLE limited_seats (
    draft_id  INTEGER NOT NULL REFERENCES limited_drafts (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    user_id   INTEGER,                               -- NULL: a computer drafter
    name      TEXT    NOT NULL,
    deck      TEXT,                                  -- JSON list of card ids; NULL until built
    deck_at   REAL,
    locked    INTEGER NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),   -- an event's deck
    PRIMARY KEY (draft_id, seat),
    CHECK (locked = 0 OR deck IS NOT NULL)
);
CREATE UNIQUE INDEX limited_seats_person ON limited_seats (draft_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX limited_seats_user ON limited_seats (user_id, draft_id) WHERE user_id IS NOT NULL;

CREATE TABLE limited_picks (
    draft_id    INTEGER NOT NULL REFERENCES limited_drafts (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 1),   -- the pick's place in the draft's log
    round       INTEGER NOT NULL CHECK (round >= 1),
    pick_no     INTEGER NOT NULL CHECK (pick_no >= 1),
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
    card        TEXT    NOT NULL,
    offered     TEXT    NOT NULL,                    -- JSON list: the pack as it came, the card included
    human       INTEGER NOT NULL CHECK (human IN (0, 1)),   -- a person's choice (not the timer's or a computer's)
    at          REAL    NOT NULL,
    guild_id    INTEGER NOT NULL,                    -- the draft's, copied
    game        TEXT    NOT NULL,
    set_name    TEXT,
    set_version INTEGER,
    PRIMARY KEY (draft_id, seq)
);
CREATE INDEX limited_picks_set ON limited_picks (guild_id, game, set_name, set_version, draft_id, seq);

CREATE TABLE limited_games (
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    draft_id    INTEGER NOT NULL REFERENCES limited_drafts (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    set_name    TEXT,
    set_version INTEGER,
    deck        TEXT    NOT NULL,                    -- JSON lists of card ids
    drawn       TEXT    NOT NULL,
    played      TEXT    NOT NULL,
    score       REAL    NOT NULL CHECK (score IN (0, 0.5, 1)),
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX limited_games_set ON limited_games (guild_id, game, set_name, set_version, match_id, seat);

CREATE TABLE card_surveys (
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    set_name    TEXT,
    set_version INTEGER,
    fun         INTEGER CHECK (fun BETWEEN 1 AND 5),
    strong      TEXT,                                -- a card of seen that felt too strong
    weak        TEXT,                                -- … and one that felt too weak
    seen        TEXT    NOT NULL,                    -- JSON list: the cards the match showed
    at          REAL    NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX card_surveys_set ON card_surveys (guild_id, game, set_name, set_version, match_id, user_id);
