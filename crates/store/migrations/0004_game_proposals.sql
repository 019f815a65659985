-- Spectators' proposals for the ply being played, so that a restart loses none a spectator
-- was told was taken: one row per spectator and game, replaced by their next proposal (a row
-- of an earlier ply is stale and read as nothing).
CREATE TABLE game_proposals (
    game_id TEXT NOT NULL REFERENCES games (id),
    user_id TEXT NOT NULL,
    ply BIGINT NOT NULL,
    mv TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
