-- Names unique regardless of case: `name_key` is the lower-cased name under a unique index.
-- Accounts made before this that differ from an older one only in case keep a NULL key (and
-- their exact-case login); every new name gets a key.
ALTER TABLE users ADD COLUMN name_key TEXT;
UPDATE users SET name_key = LOWER(name)
WHERE NOT EXISTS (
    SELECT 1 FROM users o
    WHERE LOWER(o.name) = LOWER(users.name)
      AND (o.created_ms < users.created_ms OR (o.created_ms = users.created_ms AND o.id < users.id))
);
CREATE UNIQUE INDEX users_name_key ON users (name_key);

-- Sessions expire some time after their last use (sliding); a user's sessions are listed.
ALTER TABLE sessions ADD COLUMN last_ms BIGINT;
UPDATE sessions SET last_ms = created_ms;
CREATE INDEX sessions_user ON sessions (user_id);
