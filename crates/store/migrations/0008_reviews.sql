-- Game reviews (docs/analysis.md, docs/server.md): one row per reviewed game, the whole
-- review as one JSON text (per ply: values, best move and line, judgement, the crowd's
-- moves), since it is always written and read whole, and a row per ply would only be
-- joined back. The primary key makes a second review of the same game a no-op.
CREATE TABLE reviews (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    depth BIGINT NOT NULL,
    body TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
