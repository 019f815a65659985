-- Ratings per game and speed category (bullet, blitz, rapid, classical; docs/server.md), as
-- lichess splits them: a player's 1+0 games say little of their 15+10 play. The ratings
-- kept so far (one per game) become `blitz`, the category of the lobby's most played clocks.
CREATE TABLE speed_ratings (
    user_id TEXT NOT NULL REFERENCES users (id),
    kind TEXT NOT NULL,
    speed TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind, speed)
);
INSERT INTO speed_ratings (user_id, kind, speed, rating, rd, volatility, games)
SELECT user_id, kind, 'blitz', rating, rd, volatility, games FROM ratings;
DROP TABLE ratings;
-- The leaderboard of a game and speed: best first.
CREATE INDEX speed_ratings_board ON speed_ratings (kind, speed, rating);
