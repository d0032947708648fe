-- 0003: players' saved decks for the card games (/deck).
-- A deck is its owner's (user_id) JSON spec for one game, under a name unique per user and game.

CREATE TABLE decks (
    user_id    INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    spec       TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (user_id, game, name)
) WITHOUT ROWID;
