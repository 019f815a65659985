-- A session's games (`GET /api/my-games`): looked up by either seat, newest first.
CREATE INDEX games_first_user ON games (first_user, created_ms);
CREATE INDEX games_second_user ON games (second_user, created_ms);
