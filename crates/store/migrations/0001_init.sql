-- Cannonade's schema. Portable SQL: the same text runs on SQLite and PostgreSQL (no
-- AUTOINCREMENT/SERIAL, no BLOB/BYTEA, booleans as 0/1 BIGINT, ids made by the application).
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    password_hash TEXT,
    created_ms BIGINT NOT NULL
);
CREATE UNIQUE INDEX users_account_name ON users (name);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    created_ms BIGINT NOT NULL
);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    options TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    initial_ms BIGINT NOT NULL,
    increment_ms BIGINT NOT NULL,
    rated BIGINT NOT NULL,
    first_user TEXT,
    second_user TEXT,
    first_name TEXT NOT NULL,
    second_name TEXT NOT NULL,
    first_ai BIGINT,
    second_ai BIGINT,
    seed TEXT,
    commitment TEXT,
    status TEXT NOT NULL,
    result TEXT,
    crowd TEXT,
    export TEXT,
    created_ms BIGINT NOT NULL,
    ended_ms BIGINT
);
CREATE INDEX games_status ON games (status);

CREATE TABLE game_events (
    game_id TEXT NOT NULL REFERENCES games (id),
    v BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, v)
);

CREATE TABLE ratings (
    user_id TEXT NOT NULL REFERENCES users (id),
    kind TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind)
);
