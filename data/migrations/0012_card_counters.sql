-- 0012: the counters behind /cards report (data/card_counts.py, data/sql_card_counters.py).
-- The per-card figures of a server's set version (host/stats/card_figures.py) are rebuilt
-- exactly from a few sums per card and per version, so these are kept up to date in the
-- transaction that keeps the picks, the limited games and the survey answers (0011), and the
-- report reads one row per card instead of every pick, seat-game and answer.
--
-- The set of a counter row: set_name and set_version of a server's set, or '' and 0 for the
-- shipped cards (a key column cannot be NULL; a set's name is never empty, its version from 1).
--
-- card_counts: one card of one set version.  offered / taken: offers to a person (each copy in
--   a pack or a pile is one) and a person's picks of it; drafts_offered / drafts_taken: the
--   drafts in which a person was offered it / took it (a draft's picks are kept together once
--   it is done, so each draft adds at most one); pick_sum, pick_squares: the sum and sum of
--   squares of those picks' numbers; games, drawn, played: the seat-games whose deck held it,
--   whose player drew it, played it, each with its wins as a sum of scores (1, a draw 0.5, 0);
--   surveyed: the survey answers whose match showed it; strong, weak: its votes.
--   No CHECK on the counters: a counter gone wrong must never stop the rows themselves from
--   being kept; every row is checked when read, and one that does not read is counted again.
-- card_count_totals: one set version: drafts (with a pick kept), matches, seat-games, survey
--   answers, and the fun scores' count, sum and sum of squares.  counted: 1 when the counters
--   hold every row of the version; 0 when they must be counted again from the rows (the
--   versions that already had rows before this migration, below, and a version whose counter
--   did not read) — the first report of such a version does it, in one transaction.
CREATE TABLE card_counts (
    guild_id       INTEGER NOT NULL,
    game           TEXT    NOT NULL,
    set_name       TEXT    NOT NULL,                 -- '' : the shipped cards
    set_version    INTEGER NOT NULL,                 -- 0 : the shipped cards
    card           TEXT    NOT NULL,
    offered        INTEGER NOT NULL DEFAULT 0,
    taken          INTEGER NOT NULL DEFAULT 0,
    drafts_offered INTEGER NOT NULL DEFAULT 0,
    drafts_taken   INTEGER NOT NULL DEFAULT 0,
    pick_sum       INTEGER NOT NULL DEFAULT 0,
    pick_squares   INTEGER NOT NULL DEFAULT 0,
    games          INTEGER NOT NULL DEFAULT 0,
    game_wins      REAL    NOT NULL DEFAULT 0,
    drawn          INTEGER NOT NULL DEFAULT 0,
    drawn_wins     REAL    NOT NULL DEFAULT 0,
    played         INTEGER NOT NULL DEFAULT 0,
    played_wins    REAL    NOT NULL DEFAULT 0,
    surveyed       INTEGER NOT NULL DEFAULT 0,
    strong         INTEGER NOT NULL DEFAULT 0,
    weak           INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, set_name, set_version, card)
);

CREATE TABLE card_count_totals (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    set_name    TEXT    NOT NULL,
    set_version INTEGER NOT NULL,
    drafts      INTEGER NOT NULL DEFAULT 0,
    matches     INTEGER NOT NULL DEFAULT 0,
    seat_games  INTEGER NOT NULL DEFAULT 0,
    surveys     INTEGER NOT NULL DEFAULT 0,
    fun_n       INTEGER NOT NULL DEFAULT 0,
    fun_sum     INTEGER NOT NULL DEFAULT 0,
    fun_squares INTEGER NOT NULL DEFAULT 0,
    counted     INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (guild_id, game, set_name, set_version)
);

-- the versions that hold rows already: counted from them by their first report
INSERT INTO card_count_totals (guild_id, game, set_name, set_version, counted)
SELECT guild_id, game, COALESCE(set_name, ''), COALESCE(set_version, 0), 0 FROM (
    SELECT guild_id, game, set_name, set_version FROM limited_picks
    UNION SELECT guild_id, game, set_name, set_version FROM limited_games
    UNION SELECT guild_id, game, set_name, set_version FROM card_surveys
) AS versions;
