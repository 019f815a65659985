-- The chat of games, so that a restart loses no line anyone was shown; `n` counts a game's
-- lines from 1.
CREATE TABLE game_chat (
    game_id TEXT NOT NULL REFERENCES games (id),
    n BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);
