//! The sqlx implementation: one pool of the `Any` driver, so the same queries run on SQLite
//! and PostgreSQL. Parameters are written `$1`, which both accept.

use crate::migrations::MIGRATOR;
use crate::{
    ChatRow, Commit, EventRow, Finish, GameRow, NewPlayer, OutcomeRow, ProposalRow, RankedRow,
    RatingRow, ReviewRow, SessionRow, Store, StoreError, StoreFuture, User,
};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, Connection, Row};
use std::fmt::Write;

/// A store on SQLite or PostgreSQL, picked by the URL's scheme.
#[derive(Clone, Debug)]
pub struct SqlStore {
    pool: AnyPool,
    /// An in-memory SQLite database, which lives only as long as its one connection: a
    /// failed write's connection is kept (there is no disk to fill) rather than closed.
    memory: bool,
}

/// Most rows per `INSERT` of game events (3 parameters each) or proposals (4): under SQLite's
/// oldest limit of 999 parameters a statement, and a power of two (see [`chunks`]).
const ROWS_PER_INSERT: usize = 128;
/// Most new users (and sessions: 4 and 3 parameters) per `INSERT` statement.
const PLAYERS_PER_INSERT: usize = 128;

const GAME_COLUMNS: &str = "id, kind, options, start_fen, initial_ms, increment_ms, rated, \
    first_user, second_user, first_name, second_name, first_ai, second_ai, seed, commitment, \
    status, result, crowd, export, created_ms, ended_ms, days_per_move";

fn game_row(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.try_get("id")?,
        kind: row.try_get("kind")?,
        options: row.try_get("options")?,
        start_fen: row.try_get("start_fen")?,
        initial_ms: row.try_get("initial_ms")?,
        increment_ms: row.try_get("increment_ms")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        users: [row.try_get("first_user")?, row.try_get("second_user")?],
        names: [row.try_get("first_name")?, row.try_get("second_name")?],
        ai: [row.try_get("first_ai")?, row.try_get("second_ai")?],
        seed: row.try_get("seed")?,
        commitment: row.try_get("commitment")?,
        status: row.try_get("status")?,
        result: row.try_get("result")?,
        crowd: row.try_get("crowd")?,
        export: row.try_get("export")?,
        created_ms: row.try_get("created_ms")?,
        ended_ms: row.try_get("ended_ms")?,
        days_per_move: row.try_get("days_per_move")?,
    })
}

fn session_row(row: &AnyRow) -> Result<SessionRow, sqlx::Error> {
    let created_ms: i64 = row.try_get("session_created_ms")?;
    Ok(SessionRow {
        token_hash: row.try_get("token_hash")?,
        user_id: row.try_get("user_id")?,
        created_ms,
        last_ms: row.try_get::<Option<i64>, _>("last_ms")?.unwrap_or(created_ms),
    })
}

fn user_row(row: &AnyRow) -> Result<User, sqlx::Error> {
    Ok(User {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        created_ms: row.try_get("created_ms")?,
    })
}

/// The games finished since `$1`, played here (an import ends when it is made), without a
/// review, newest first, at most `$2` (index `games_ended`, migration 0010).
const UNREVIEWED_GAMES: &str = "SELECT g.id FROM games g LEFT JOIN reviews r ON r.game_id = g.id \
     WHERE g.status = 'over' AND g.ended_ms >= $1 AND g.ended_ms > g.created_ms \
     AND r.game_id IS NULL ORDER BY g.ended_ms DESC LIMIT $2";

impl SqlStore {
    /// Connects to `url` (`sqlite://path.db`, `sqlite::memory:`, `postgres://…`) and applies
    /// the migrations. A SQLite file is created if missing.
    pub async fn connect(url: &str) -> Result<SqlStore, StoreError> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let memory = url.contains(":memory:");
        let url = if sqlite && !memory && !url.contains("mode=") {
            format!("{url}{}mode=rwc", if url.contains('?') { '&' } else { '?' })
        } else {
            url.to_string()
        };
        // An in-memory SQLite database lives in one connection; a file or a server takes a
        // few (reads go on while the writer commits).
        let max = if memory { 1 } else { 8 };
        let mut options = AnyPoolOptions::new().max_connections(max);
        if sqlite && !memory {
            // WAL: a commit is one append and one fsync of the log instead of the rollback
            // journal's several, and readers never wait for the writer. synchronous=NORMAL
            // keeps every commit across a killed process (what "nothing told is lost"
            // needs); a power cut may lose the last commits (docs/server.md).
            options = options.after_connect(|conn, _| {
                Box::pin(async move {
                    sqlx::query("PRAGMA journal_mode=WAL").execute(&mut *conn).await?;
                    sqlx::query("PRAGMA synchronous=NORMAL").execute(&mut *conn).await?;
                    Ok(())
                })
            });
        }
        let pool = options.connect(&url).await?;
        MIGRATOR.run(&pool).await?;
        Ok(SqlStore { pool, memory })
    }

    /// A connection whose write failed is closed rather than given back to the pool: SQLite
    /// keeps a transaction open when its `COMMIT` fails on a full disk, and a pooled connection
    /// with an open transaction would take every later write into a transaction that never
    /// commits (acknowledged, yet lost) and hold the write lock from every other connection.
    /// Closing it rolls the transaction back; the pool opens a fresh one.
    async fn discard_on_error<T>(
        &self,
        conn: PoolConnection<Any>,
        result: Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        if result.is_err() && !self.memory {
            let _ = conn.close().await;
        }
        result
    }

    /// Runs one write on a connection of the pool's, discarded if the write failed
    /// ([`SqlStore::discard_on_error`]). Every write goes through here: an account claimed
    /// on a full disk through a pooled connection once left its transaction open, and the
    /// registration after the space came back was acknowledged and lost.
    async fn write<T>(
        &self,
        f: impl AsyncFnOnce(&mut AnyConnection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let result = f(&mut conn).await;
        self.discard_on_error(conn, result).await
    }

    async fn create_game_inner(
        &self,
        g: &GameRow,
        new_players: &[NewPlayer],
    ) -> Result<(), StoreError> {
        self.write(async |c| create_game_on(c, g, new_players).await).await
    }

    async fn commit_inner(&self, batch: Commit<'_>) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        self.write(async |c| commit_on(c, batch).await).await
    }

    async fn probe_inner(&self) -> Result<(), StoreError> {
        self.write(probe_on).await
    }

    async fn finish_inner(&self, f: &Finish) -> Result<(), StoreError> {
        self.write(async |c| finish_on(c, f).await).await
    }

    async fn game_inner(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let row = sqlx::query(&sql).bind(id).fetch_optional(&self.pool).await?;
        Ok(row.as_ref().map(game_row).transpose()?)
    }

    async fn live_games_inner(&self) -> Result<Vec<GameRow>, StoreError> {
        let sql =
            format!("SELECT {GAME_COLUMNS} FROM games WHERE status = 'live' ORDER BY created_ms");
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
    }

    async fn user_games_inner(
        &self,
        user_id: &str,
        limit: u32,
    ) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE first_user = $1 OR second_user = $1 \
             ORDER BY created_ms DESC, id LIMIT $2"
        );
        let rows = sqlx::query(&sql).bind(user_id).bind(limit as i64).fetch_all(&self.pool).await?;
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
    }

    async fn events_inner(&self, game_id: &str) -> Result<Vec<EventRow>, StoreError> {
        let rows =
            sqlx::query("SELECT game_id, v, body FROM game_events WHERE game_id = $1 ORDER BY v")
                .bind(game_id)
                .fetch_all(&self.pool)
                .await?;
        let read = |r: &AnyRow| -> Result<EventRow, sqlx::Error> {
            Ok(EventRow {
                game_id: r.try_get("game_id")?,
                v: r.try_get("v")?,
                body: r.try_get("body")?,
            })
        };
        Ok(rows.iter().map(read).collect::<Result<_, _>>()?)
    }

    async fn chat_inner(&self, game_id: &str, limit: u32) -> Result<Vec<ChatRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, n, body FROM game_chat WHERE game_id = $1 ORDER BY n DESC LIMIT $2",
        )
        .bind(game_id)
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        let read = |r: &AnyRow| -> Result<ChatRow, sqlx::Error> {
            Ok(ChatRow {
                game_id: r.try_get("game_id")?,
                n: r.try_get("n")?,
                body: r.try_get("body")?,
            })
        };
        let mut lines = rows.iter().map(read).collect::<Result<Vec<_>, _>>()?;
        lines.reverse();
        Ok(lines)
    }

    async fn proposals_inner(
        &self,
        game_id: &str,
        ply: i64,
    ) -> Result<Vec<ProposalRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, user_id, ply, mv FROM game_proposals \
             WHERE game_id = $1 AND ply = $2 ORDER BY user_id",
        )
        .bind(game_id)
        .bind(ply)
        .fetch_all(&self.pool)
        .await?;
        let read = |r: &AnyRow| -> Result<ProposalRow, sqlx::Error> {
            Ok(ProposalRow {
                game_id: r.try_get("game_id")?,
                user_id: r.try_get("user_id")?,
                ply: r.try_get("ply")?,
                mv: r.try_get("mv")?,
            })
        };
        Ok(rows.iter().map(read).collect::<Result<Vec<_>, _>>()?)
    }

    async fn put_review_inner(&self, r: &ReviewRow) -> Result<bool, StoreError> {
        // Both SQLite and PostgreSQL read `ON CONFLICT … DO NOTHING`: a second review of a
        // game changes nothing and says so.
        self.write(async |c| {
            let done = sqlx::query(
                "INSERT INTO reviews (game_id, depth, body, created_ms) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (game_id) DO NOTHING",
            )
            .bind(&r.game_id)
            .bind(r.depth)
            .bind(&r.body)
            .bind(r.created_ms)
            .execute(&mut *c)
            .await?;
            Ok(done.rows_affected() == 1)
        })
        .await
    }

    async fn review_inner(&self, game_id: &str) -> Result<Option<ReviewRow>, StoreError> {
        let row =
            sqlx::query("SELECT game_id, depth, body, created_ms FROM reviews WHERE game_id = $1")
                .bind(game_id)
                .fetch_optional(&self.pool)
                .await?;
        let read = |r: &AnyRow| -> Result<ReviewRow, sqlx::Error> {
            Ok(ReviewRow {
                game_id: r.try_get("game_id")?,
                depth: r.try_get("depth")?,
                body: r.try_get("body")?,
                created_ms: r.try_get("created_ms")?,
            })
        };
        Ok(row.as_ref().map(read).transpose()?)
    }

    async fn unreviewed_games_inner(
        &self,
        since_ms: i64,
        limit: u32,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(UNREVIEWED_GAMES)
            .bind(since_ms)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(|r| r.try_get("id")).collect::<Result<Vec<String>, _>>()?)
    }

    async fn clear_proposals_inner(&self, game_id: &str) -> Result<(), StoreError> {
        self.write(async |c| {
            sqlx::query("DELETE FROM game_proposals WHERE game_id = $1")
                .bind(game_id)
                .execute(&mut *c)
                .await?;
            Ok(())
        })
        .await
    }

    async fn create_user_inner(&self, u: &User) -> Result<(), StoreError> {
        self.write(async |c| insert_user(c, u).await).await
    }

    async fn claim_user_inner(&self, u: &User) -> Result<(), StoreError> {
        self.write(async |c| claim_user_on(c, u).await).await
    }

    async fn set_password_inner(
        &self,
        user_id: &str,
        password_hash: &str,
        keep_token_hash: &str,
    ) -> Result<(), StoreError> {
        self.write(async |c| set_password_on(c, user_id, password_hash, keep_token_hash).await)
            .await
    }

    async fn user_by_name_inner(&self, name: &str) -> Result<Option<User>, StoreError> {
        // By the case-blind key; an account older than the key that differs from another
        // only in case has none and is found by its exact name.
        let rows = sqlx::query(
            "SELECT id, name, password_hash, created_ms, name_key FROM users \
             WHERE name_key = $1 OR (name_key IS NULL AND name = $2)",
        )
        .bind(name.to_lowercase())
        .bind(name)
        .fetch_all(&self.pool)
        .await?;
        let keyed = |r: &&AnyRow| r.try_get::<Option<String>, _>("name_key").ok().flatten();
        let row = rows.iter().find(|r| keyed(r).is_some()).or(rows.first());
        Ok(row.map(user_row).transpose()?)
    }

    async fn create_session_inner(
        &self,
        token_hash: &str,
        user_id: &str,
    ) -> Result<(), StoreError> {
        self.write(async |c| insert_session(c, token_hash, user_id).await).await
    }

    async fn session_of_inner(
        &self,
        token_hash: &str,
    ) -> Result<Option<(User, SessionRow)>, StoreError> {
        let row = sqlx::query(
            "SELECT u.id, u.name, u.password_hash, u.created_ms, s.token_hash, s.user_id, \
             s.created_ms AS session_created_ms, s.last_ms FROM sessions s \
             JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row
            .as_ref()
            .map(|r| Ok::<_, sqlx::Error>((user_row(r)?, session_row(r)?)))
            .transpose()?)
    }

    async fn user_sessions_inner(&self, user_id: &str) -> Result<Vec<SessionRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT token_hash, user_id, created_ms AS session_created_ms, last_ms FROM sessions \
             WHERE user_id = $1 ORDER BY last_ms DESC",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(session_row).collect::<Result<Vec<_>, _>>()?)
    }

    async fn touch_session_inner(&self, token_hash: &str, now_ms: i64) -> Result<(), StoreError> {
        self.write(async |c| {
            sqlx::query("UPDATE sessions SET last_ms = $1 WHERE token_hash = $2")
                .bind(now_ms)
                .bind(token_hash)
                .execute(&mut *c)
                .await?;
            Ok(())
        })
        .await
    }

    async fn delete_session_inner(
        &self,
        user_id: &str,
        token_hash: &str,
    ) -> Result<bool, StoreError> {
        self.write(async |c| {
            let done = sqlx::query("DELETE FROM sessions WHERE token_hash = $1 AND user_id = $2")
                .bind(token_hash)
                .bind(user_id)
                .execute(&mut *c)
                .await?;
            Ok(done.rows_affected() > 0)
        })
        .await
    }

    async fn delete_sessions_before_inner(&self, before_ms: i64) -> Result<u64, StoreError> {
        self.write(async |c| {
            let done = sqlx::query("DELETE FROM sessions WHERE last_ms < $1")
                .bind(before_ms)
                .execute(&mut *c)
                .await?;
            Ok(done.rows_affected())
        })
        .await
    }

    async fn rating_inner(
        &self,
        user_id: &str,
        kind: &str,
        speed: &str,
    ) -> Result<Option<RatingRow>, StoreError> {
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM speed_ratings \
             WHERE user_id = $1 AND kind = $2 AND speed = $3"
        );
        let row = sqlx::query(&sql)
            .bind(user_id)
            .bind(kind)
            .bind(speed)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(rating_row).transpose()?)
    }

    async fn user_ratings_inner(&self, user_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM speed_ratings WHERE user_id = $1 ORDER BY kind, speed"
        );
        let rows = sqlx::query(&sql).bind(user_id).fetch_all(&self.pool).await?;
        Ok(rows.iter().map(rating_row).collect::<Result<_, _>>()?)
    }

    async fn leaderboard_inner(
        &self,
        kind: &str,
        speed: &str,
        max_rd: f64,
        limit: u32,
    ) -> Result<Vec<RankedRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT r.user_id, r.kind, r.speed, r.rating, r.rd, r.volatility, r.games, u.name \
             FROM speed_ratings r JOIN users u ON u.id = r.user_id \
             WHERE r.kind = $1 AND r.speed = $2 AND r.rd <= $3 \
             ORDER BY r.rating DESC, u.name LIMIT $4",
        )
        .bind(kind)
        .bind(speed)
        .bind(max_rd)
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        let read = |r: &AnyRow| -> Result<RankedRow, sqlx::Error> {
            Ok(RankedRow { name: r.try_get("name")?, rating: rating_row(r)? })
        };
        Ok(rows.iter().map(read).collect::<Result<_, _>>()?)
    }

    async fn user_outcomes_inner(&self, user_id: &str) -> Result<Vec<OutcomeRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT kind, first_user, second_user, result FROM games \
             WHERE (first_user = $1 OR second_user = $1) AND status = 'over'",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        let read = |r: &AnyRow| -> Result<OutcomeRow, sqlx::Error> {
            Ok(OutcomeRow {
                kind: r.try_get("kind")?,
                users: [r.try_get("first_user")?, r.try_get("second_user")?],
                result: r.try_get("result")?,
            })
        };
        Ok(rows.iter().map(read).collect::<Result<_, _>>()?)
    }
}

const RATING_COLUMNS: &str = "user_id, kind, speed, rating, rd, volatility, games";

fn rating_row(r: &AnyRow) -> Result<RatingRow, sqlx::Error> {
    Ok(RatingRow {
        user_id: r.try_get("user_id")?,
        kind: r.try_get("kind")?,
        speed: r.try_get("speed")?,
        rating: r.try_get("rating")?,
        rd: r.try_get("rd")?,
        volatility: r.try_get("volatility")?,
        games: r.try_get("games")?,
    })
}

/// `rows` in chunks of powers of two, each at most `max` (a power of two), largest first: a
/// multi-row statement's text depends on its row count, and with these few counts the
/// database's cache of prepared statements keeps them all, where any count from 1 to `max`
/// would make it parse and plan a new one for nearly every group commit.
fn chunks<T>(rows: &[T], max: usize) -> impl Iterator<Item = &[T]> {
    let mut rest = rows;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let n = max.min(1 << rest.len().ilog2());
        let (chunk, tail) = rest.split_at(n);
        rest = tail;
        Some(chunk)
    })
}

/// `INSERT INTO {table} VALUES` with `rows` placeholder tuples of `columns` each: one
/// statement for many rows.
fn insert_many(table: &str, rows: usize, columns: usize) -> String {
    let mut sql = format!("INSERT INTO {table} VALUES ");
    for r in 0..rows {
        sql.push_str(if r == 0 { "(" } else { ",(" });
        for c in 0..columns {
            let sep = if c == 0 { "" } else { ", " };
            let _ = write!(sql, "{sep}${}", r * columns + c + 1);
        }
        sql.push(')');
    }
    sql
}

/// Users with their sessions, a few statements for many (a move can score hundreds of new
/// spectators).
async fn insert_players(conn: &mut AnyConnection, players: &[NewPlayer]) -> Result<(), StoreError> {
    for chunk in chunks(players, PLAYERS_PER_INSERT) {
        let sql =
            insert_many("users (id, name, password_hash, created_ms, name_key)", chunk.len(), 5);
        let mut query = sqlx::query(&sql);
        for p in chunk {
            let u = &p.user;
            query = query
                .bind(&u.id)
                .bind(&u.name)
                .bind(&u.password_hash)
                .bind(u.created_ms)
                .bind(u.name.to_lowercase());
        }
        query.execute(&mut *conn).await?;
        let sql =
            insert_many("sessions (token_hash, user_id, created_ms, last_ms)", chunk.len(), 4);
        let mut query = sqlx::query(&sql);
        let now = now_ms();
        for p in chunk {
            query = query.bind(&p.token_hash).bind(&p.user.id).bind(now).bind(now);
        }
        query.execute(&mut *conn).await?;
    }
    Ok(())
}

async fn insert_user(conn: &mut AnyConnection, u: &User) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO users (id, name, password_hash, created_ms, name_key) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&u.id)
    .bind(&u.name)
    .bind(&u.password_hash)
    .bind(u.created_ms)
    .bind(u.name.to_lowercase())
    .execute(conn)
    .await?;
    Ok(())
}

/// Names an account: the anonymous user `u.id` if it has no password yet, a new row
/// otherwise, in one transaction.
async fn claim_user_on(conn: &mut AnyConnection, u: &User) -> Result<(), StoreError> {
    let mut tx = conn.begin().await?;
    let claimed = sqlx::query(
        "UPDATE users SET name = $2, password_hash = $3, name_key = $4 \
         WHERE id = $1 AND password_hash IS NULL",
    )
    .bind(&u.id)
    .bind(&u.name)
    .bind(&u.password_hash)
    .bind(u.name.to_lowercase())
    .execute(&mut *tx)
    .await?;
    if claimed.rows_affected() == 0 {
        insert_user(&mut tx, u).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A new password, and every session of the user but one ended, in one transaction.
async fn set_password_on(
    conn: &mut AnyConnection,
    user_id: &str,
    password_hash: &str,
    keep_token_hash: &str,
) -> Result<(), StoreError> {
    let mut tx = conn.begin().await?;
    sqlx::query("UPDATE users SET password_hash = $2 WHERE id = $1")
        .bind(user_id)
        .bind(password_hash)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
        .bind(user_id)
        .bind(keep_token_hash)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

async fn create_game_on(
    conn: &mut AnyConnection,
    g: &GameRow,
    new_players: &[NewPlayer],
) -> Result<(), StoreError> {
    let mut tx = conn.begin().await?;
    insert_players(&mut tx, new_players).await?;
    insert_game(&mut tx, g).await?;
    tx.commit().await?;
    Ok(())
}

/// A finished game and its events, in one transaction: an import is all there or not at all
/// (a game row without its events would replay as an empty game).
async fn import_game_on(
    conn: &mut AnyConnection,
    g: &GameRow,
    events: &[EventRow],
) -> Result<(), StoreError> {
    let mut tx = conn.begin().await?;
    insert_game(&mut tx, g).await?;
    insert_events(&mut tx, events).await?;
    tx.commit().await?;
    Ok(())
}

async fn insert_game(conn: &mut AnyConnection, g: &GameRow) -> Result<(), StoreError> {
    let sql = format!(
        "INSERT INTO games ({GAME_COLUMNS}) VALUES \
         ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22)"
    );
    sqlx::query(&sql)
        .bind(&g.id)
        .bind(&g.kind)
        .bind(&g.options)
        .bind(&g.start_fen)
        .bind(g.initial_ms)
        .bind(g.increment_ms)
        .bind(g.rated as i64)
        .bind(&g.users[0])
        .bind(&g.users[1])
        .bind(&g.names[0])
        .bind(&g.names[1])
        .bind(g.ai[0])
        .bind(g.ai[1])
        .bind(&g.seed)
        .bind(&g.commitment)
        .bind(&g.status)
        .bind(&g.result)
        .bind(&g.crowd)
        .bind(&g.export)
        .bind(g.created_ms)
        .bind(g.ended_ms)
        .bind(g.days_per_move)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

async fn insert_events(conn: &mut AnyConnection, events: &[EventRow]) -> Result<(), StoreError> {
    // One statement per chunk, not per row: a group commit of many games' moves costs one
    // round trip to the database (or to SQLite's worker thread) per chunk.
    for chunk in chunks(events, ROWS_PER_INSERT) {
        let sql = insert_many("game_events (game_id, v, body)", chunk.len(), 3);
        let mut query = sqlx::query(&sql);
        for e in chunk {
            query = query.bind(&e.game_id).bind(e.v).bind(&e.body);
        }
        query.execute(&mut *conn).await?;
    }
    Ok(())
}

async fn commit_on(conn: &mut AnyConnection, batch: Commit<'_>) -> Result<(), StoreError> {
    let Commit { events, players: new_players, proposals, chat } = batch;
    let mut tx = conn.begin().await?;
    insert_players(&mut tx, new_players).await?;
    insert_events(&mut tx, events).await?;
    // The last row of each spectator and game: one statement may not touch a row twice
    // (PostgreSQL refuses an upsert that does).
    let mut seen = std::collections::HashSet::with_capacity(proposals.len());
    let last: Vec<&ProposalRow> = proposals
        .iter()
        .rev()
        .filter(|r| seen.insert((r.game_id.as_str(), r.user_id.as_str())))
        .collect();
    for chunk in chunks(&last, ROWS_PER_INSERT) {
        let mut sql = insert_many("game_proposals (game_id, user_id, ply, mv)", chunk.len(), 4);
        sql.push_str(
            " ON CONFLICT (game_id, user_id) DO UPDATE SET ply = excluded.ply, mv = excluded.mv",
        );
        let mut query = sqlx::query(&sql);
        for r in chunk {
            query = query.bind(&r.game_id).bind(&r.user_id).bind(r.ply).bind(&r.mv);
        }
        query.execute(&mut *tx).await?;
    }
    for chunk in chunks(chat, ROWS_PER_INSERT) {
        let sql = insert_many("game_chat (game_id, n, body)", chunk.len(), 3);
        let mut query = sqlx::query(&sql);
        for line in chunk {
            query = query.bind(&line.game_id).bind(line.n).bind(&line.body);
        }
        query.execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Rewrites the health row: one small write, which needs disk space.
async fn probe_on(conn: &mut AnyConnection) -> Result<(), StoreError> {
    let mut tx = conn.begin().await?;
    sqlx::query(
        "INSERT INTO store_health (id, at_ms) VALUES (1, $1) \
         ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms",
    )
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

async fn finish_on(conn: &mut AnyConnection, f: &Finish) -> Result<(), StoreError> {
    let mut tx = conn.begin().await?;
    sqlx::query(
        "UPDATE games SET status = 'over', result = $1, crowd = $2, export = $3, \
         ended_ms = $4 WHERE id = $5",
    )
    .bind(&f.result)
    .bind(&f.crowd)
    .bind(&f.export)
    .bind(f.ended_ms)
    .bind(&f.game_id)
    .execute(&mut *tx)
    .await?;
    for r in &f.ratings {
        sqlx::query("DELETE FROM speed_ratings WHERE user_id = $1 AND kind = $2 AND speed = $3")
            .bind(&r.user_id)
            .bind(&r.kind)
            .bind(&r.speed)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO speed_ratings (user_id, kind, speed, rating, rd, volatility, games) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&r.user_id)
        .bind(&r.kind)
        .bind(&r.speed)
        .bind(r.rating)
        .bind(r.rd)
        .bind(r.volatility)
        .bind(r.games)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn insert_session(
    conn: &mut AnyConnection,
    token_hash: &str,
    user_id: &str,
) -> Result<(), StoreError> {
    let now = now_ms();
    sqlx::query(
        "INSERT INTO sessions (token_hash, user_id, created_ms, last_ms) VALUES ($1, $2, $3, $4)",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(now)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Milliseconds since the Unix epoch.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl Store for SqlStore {
    fn create_game<'a>(
        &'a self,
        game: &'a GameRow,
        new_players: &'a [NewPlayer],
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.create_game_inner(game, new_players))
    }
    fn commit<'a>(&'a self, batch: Commit<'a>) -> StoreFuture<'a, ()> {
        Box::pin(self.commit_inner(batch))
    }
    fn probe(&self) -> StoreFuture<'_, ()> {
        Box::pin(self.probe_inner())
    }
    fn import_game<'a>(&'a self, game: &'a GameRow, events: &'a [EventRow]) -> StoreFuture<'a, ()> {
        Box::pin(self.write(async |c| import_game_on(c, game, events).await))
    }
    fn finish<'a>(&'a self, finish: &'a Finish) -> StoreFuture<'a, ()> {
        Box::pin(self.finish_inner(finish))
    }
    fn game<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<GameRow>> {
        Box::pin(self.game_inner(id))
    }
    fn live_games(&self) -> StoreFuture<'_, Vec<GameRow>> {
        Box::pin(self.live_games_inner())
    }
    fn user_games<'a>(&'a self, user_id: &'a str, limit: u32) -> StoreFuture<'a, Vec<GameRow>> {
        Box::pin(self.user_games_inner(user_id, limit))
    }
    fn events<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, Vec<EventRow>> {
        Box::pin(self.events_inner(game_id))
    }
    fn chat<'a>(&'a self, game_id: &'a str, limit: u32) -> StoreFuture<'a, Vec<ChatRow>> {
        Box::pin(self.chat_inner(game_id, limit))
    }
    fn proposals<'a>(&'a self, game_id: &'a str, ply: i64) -> StoreFuture<'a, Vec<ProposalRow>> {
        Box::pin(self.proposals_inner(game_id, ply))
    }
    fn clear_proposals<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(self.clear_proposals_inner(game_id))
    }
    fn create_user<'a>(&'a self, user: &'a User) -> StoreFuture<'a, ()> {
        Box::pin(self.create_user_inner(user))
    }
    fn claim_user<'a>(&'a self, user: &'a User) -> StoreFuture<'a, ()> {
        Box::pin(self.claim_user_inner(user))
    }
    fn set_password<'a>(
        &'a self,
        user_id: &'a str,
        password_hash: &'a str,
        keep_token_hash: &'a str,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.set_password_inner(user_id, password_hash, keep_token_hash))
    }
    fn user_by_name<'a>(&'a self, name: &'a str) -> StoreFuture<'a, Option<User>> {
        Box::pin(self.user_by_name_inner(name))
    }
    fn create_session<'a>(&'a self, token_hash: &'a str, user_id: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(self.create_session_inner(token_hash, user_id))
    }
    fn session_of<'a>(
        &'a self,
        token_hash: &'a str,
    ) -> StoreFuture<'a, Option<(User, SessionRow)>> {
        Box::pin(self.session_of_inner(token_hash))
    }
    fn user_sessions<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Vec<SessionRow>> {
        Box::pin(self.user_sessions_inner(user_id))
    }
    fn touch_session<'a>(&'a self, token_hash: &'a str, now_ms: i64) -> StoreFuture<'a, ()> {
        Box::pin(self.touch_session_inner(token_hash, now_ms))
    }
    fn delete_session<'a>(
        &'a self,
        user_id: &'a str,
        token_hash: &'a str,
    ) -> StoreFuture<'a, bool> {
        Box::pin(self.delete_session_inner(user_id, token_hash))
    }
    fn delete_sessions_before(&self, before_ms: i64) -> StoreFuture<'_, u64> {
        Box::pin(self.delete_sessions_before_inner(before_ms))
    }
    fn rating<'a>(
        &'a self,
        user_id: &'a str,
        kind: &'a str,
        speed: &'a str,
    ) -> StoreFuture<'a, Option<RatingRow>> {
        Box::pin(self.rating_inner(user_id, kind, speed))
    }
    fn user_ratings<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Vec<RatingRow>> {
        Box::pin(self.user_ratings_inner(user_id))
    }
    fn leaderboard<'a>(
        &'a self,
        kind: &'a str,
        speed: &'a str,
        max_rd: f64,
        limit: u32,
    ) -> StoreFuture<'a, Vec<RankedRow>> {
        Box::pin(self.leaderboard_inner(kind, speed, max_rd, limit))
    }
    fn user_outcomes<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Vec<OutcomeRow>> {
        Box::pin(self.user_outcomes_inner(user_id))
    }
    fn put_review<'a>(&'a self, review: &'a ReviewRow) -> StoreFuture<'a, bool> {
        Box::pin(self.put_review_inner(review))
    }
    fn review<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, Option<ReviewRow>> {
        Box::pin(self.review_inner(game_id))
    }
    fn unreviewed_games<'a>(&'a self, since_ms: i64, limit: u32) -> StoreFuture<'a, Vec<String>> {
        Box::pin(self.unreviewed_games_inner(since_ms, limit))
    }
}

#[cfg(test)]
mod tests {
    use super::{SqlStore, UNREVIEWED_GAMES, chunks};
    use sqlx::Row;

    /// A node's start-up reads the games that ended lately through the index, never every
    /// finished game of the archive sorted.
    #[tokio::test]
    async fn recent_finished_games_are_read_by_the_index() {
        let store = SqlStore::connect("sqlite::memory:").await.unwrap();
        let plan = sqlx::query(&format!("EXPLAIN QUERY PLAN {UNREVIEWED_GAMES}"))
            .bind(0i64)
            .bind(10i64)
            .fetch_all(&store.pool)
            .await
            .unwrap();
        let plan: Vec<String> = plan.iter().map(|r| r.try_get("detail").unwrap()).collect();
        assert!(plan.iter().any(|d| d.contains("INDEX games_ended")), "{plan:?}");
        assert!(!plan.iter().any(|d| d.contains("TEMP B-TREE")), "{plan:?}");
    }

    /// Chunks keep the rows in order, and only powers of two up to the maximum occur.
    #[test]
    fn chunks_are_powers_of_two_in_order() {
        for n in 0..600usize {
            let rows: Vec<usize> = (0..n).collect();
            let parts: Vec<&[usize]> = chunks(&rows, 128).collect();
            assert_eq!(parts.concat(), rows);
            assert!(parts.iter().all(|c| c.len().is_power_of_two() && c.len() <= 128));
            assert!(parts.len() <= n / 128 + 8, "{n} rows in {} statements", parts.len());
        }
    }
}
