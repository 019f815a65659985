-- The games that ended lately (a node's start-up queues their missing reviews again,
-- `unreviewed_games`): found by status and end time, newest first, instead of read from
-- every finished game and sorted.
CREATE INDEX games_ended ON games (status, ended_ms);
