-- Correspondence games (docs/server.md): the days a move may take, 0 for a clock of
-- minutes. Older rows read as 0.
ALTER TABLE games ADD COLUMN days_per_move BIGINT NOT NULL DEFAULT 0;
