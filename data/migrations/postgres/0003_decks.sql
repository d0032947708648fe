-- 0003 (PostgreSQL): players' saved decks for the card games (/deck), the twin of ../0003_decks.sql.

CREATE TABLE decks (
    user_id    BIGINT NOT NULL,
    game       TEXT   NOT NULL,
    name       TEXT   NOT NULL,
    spec       TEXT   NOT NULL,             -- JSON object
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game, name)
);
