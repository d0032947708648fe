-- 0012 (PostgreSQL): the counters behind /cards report, per card and per set version of a
-- server's set; the twin of ../0012_card_counters.sql (see there for what each column holds).
CREATE TABLE card_counts (
    guild_id       BIGINT  NOT NULL,
    game           TEXT    NOT NULL,
    set_name       TEXT    NOT NULL,                 -- '' : the shipped cards
    set_version    INTEGER NOT NULL,                 -- 0 : the shipped cards
    card           TEXT    NOT NULL,
    offered        BIGINT  NOT NULL DEFAULT 0,
    taken          BIGINT  NOT NULL DEFAULT 0,
    drafts_offered BIGINT  NOT NULL DEFAULT 0,
    drafts_taken   BIGINT  NOT NULL DEFAULT 0,
    pick_sum       BIGINT  NOT NULL DEFAULT 0,
    pick_squares   BIGINT  NOT NULL DEFAULT 0,
    games          BIGINT  NOT NULL DEFAULT 0,
    game_wins      DOUBLE PRECISION NOT NULL DEFAULT 0,
    drawn          BIGINT  NOT NULL DEFAULT 0,
    drawn_wins     DOUBLE PRECISION NOT NULL DEFAULT 0,
    played         BIGINT  NOT NULL DEFAULT 0,
    played_wins    DOUBLE PRECISION NOT NULL DEFAULT 0,
    surveyed       BIGINT  NOT NULL DEFAULT 0,
    strong         BIGINT  NOT NULL DEFAULT 0,
    weak           BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, set_name, set_version, card)
);

CREATE TABLE card_count_totals (
    guild_id    BIGINT  NOT NULL,
    game        TEXT    NOT NULL,
    set_name    TEXT    NOT NULL,
    set_version INTEGER NOT NULL,
    drafts      BIGINT  NOT NULL DEFAULT 0,
    matches     BIGINT  NOT NULL DEFAULT 0,
    seat_games  BIGINT  NOT NULL DEFAULT 0,
    surveys     BIGINT  NOT NULL DEFAULT 0,
    fun_n       BIGINT  NOT NULL DEFAULT 0,
    fun_sum     BIGINT  NOT NULL DEFAULT 0,
    fun_squares BIGINT  NOT NULL DEFAULT 0,
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
