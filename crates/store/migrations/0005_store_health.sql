-- One row, rewritten by the server's health probe: a small write that needs disk space,
-- which tells whether the store can take writes again after it failed (a full disk).
CREATE TABLE store_health (
    id INTEGER PRIMARY KEY,
    at_ms BIGINT NOT NULL
);
