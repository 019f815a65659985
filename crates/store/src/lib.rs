//! Persistence for the Cannonade server: the [`Store`] trait and [`SqlStore`], one sqlx
//! implementation that runs the same SQL on embedded SQLite (the default:
//! `sqlite://cannonade.db`, created if missing) and PostgreSQL (`postgres://…`). Migrations
//! are embedded in the binary and applied by [`SqlStore::connect`].
//!
//! The server's durability rests on [`Store::append`]: a batch of game events is one
//! transaction, committed (a SQLite file: WAL with `synchronous=NORMAL`, durable across a killed
//! process) before the call returns.
#![forbid(unsafe_code)]

mod error;
mod migrations;
mod rows;
mod sql;

pub use error::StoreError;
pub use rows::{
    ChatRow, EventRow, Finish, GameRow, NewPlayer, OutcomeRow, ProposalRow, RankedRow, RatingRow,
    ReviewRow, SessionRow, User,
};
pub use sql::SqlStore;

use std::future::Future;
use std::pin::Pin;

/// A boxed future of a store call (the trait is used as `dyn Store`).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// What one group commit writes, in one transaction: game events, new players (users with
/// their sessions: spectators who proposed, whose scores are kept under their ids),
/// spectators' proposals (each replacing its spectator's earlier proposal in the same game;
/// of the rows for one spectator and game, the last one given counts) and chat lines.
#[derive(Clone, Copy, Debug, Default)]
pub struct Commit<'a> {
    /// Game events.
    pub events: &'a [EventRow],
    /// New players.
    pub players: &'a [NewPlayer],
    /// Spectators' proposals.
    pub proposals: &'a [ProposalRow],
    /// Chat lines.
    pub chat: &'a [ChatRow],
}

impl Commit<'_> {
    /// Whether it writes nothing.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
            && self.players.is_empty()
            && self.proposals.is_empty()
            && self.chat.is_empty()
    }
}

/// Everything the server keeps across restarts.
pub trait Store: Send + Sync + 'static {
    /// Records a new live game and the players written with it (users taking their first
    /// seat, with their sessions), in one transaction: a game is never stored without its
    /// players, nor they without the game.
    fn create_game<'a>(
        &'a self,
        game: &'a GameRow,
        new_players: &'a [NewPlayer],
    ) -> StoreFuture<'a, ()>;
    /// One group commit, in one transaction (see [`Commit`]). When this returns `Ok`,
    /// everything is durable; on `Err`, nothing is, and the store is left as it was (a
    /// connection whose transaction failed is closed, not reused).
    fn commit<'a>(&'a self, batch: Commit<'a>) -> StoreFuture<'a, ()>;
    /// [`Store::commit`] of events and new players.
    fn append<'a>(
        &'a self,
        events: &'a [EventRow],
        new_players: &'a [NewPlayer],
    ) -> StoreFuture<'a, ()> {
        self.commit(Commit { events, players: new_players, ..Commit::default() })
    }
    /// Records a finished game that was not played here (an imported record) with its
    /// events, in one transaction.
    fn import_game<'a>(&'a self, game: &'a GameRow, events: &'a [EventRow]) -> StoreFuture<'a, ()>;
    /// A small write that needs room on disk: `Ok` when the store takes writes.
    fn probe(&self) -> StoreFuture<'_, ()>;
    /// Marks a game finished with its result, crowd record and export, and writes rating
    /// changes, in one transaction.
    fn finish<'a>(&'a self, finish: &'a Finish) -> StoreFuture<'a, ()>;
    /// A game by id.
    fn game<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<GameRow>>;
    /// Every game still live (for recovery at start-up).
    fn live_games(&self) -> StoreFuture<'_, Vec<GameRow>>;
    /// The games a user sits in (either seat), newest first, at most `limit`.
    fn user_games<'a>(&'a self, user_id: &'a str, limit: u32) -> StoreFuture<'a, Vec<GameRow>>;
    /// A game's events in version order.
    fn events<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, Vec<EventRow>>;
    /// Stores a chat line.
    fn add_chat<'a>(&'a self, line: &'a ChatRow) -> StoreFuture<'a, ()> {
        self.commit(Commit { chat: std::slice::from_ref(line), ..Commit::default() })
    }
    /// A game's last `limit` chat lines, oldest first.
    fn chat<'a>(&'a self, game_id: &'a str, limit: u32) -> StoreFuture<'a, Vec<ChatRow>>;
    /// [`Store::commit`] of spectators' proposals.
    fn propose<'a>(&'a self, rows: &'a [ProposalRow]) -> StoreFuture<'a, ()> {
        self.commit(Commit { proposals: rows, ..Commit::default() })
    }
    /// A game's stored proposals for `ply` (those of other plies are stale), by spectator.
    fn proposals<'a>(&'a self, game_id: &'a str, ply: i64) -> StoreFuture<'a, Vec<ProposalRow>>;
    /// Forgets a game's proposals (a takeback reopens a ply whose old proposals are void).
    fn clear_proposals<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, ()>;
    /// Creates a user (anonymous when `password_hash` is `None`).
    fn create_user<'a>(&'a self, user: &'a User) -> StoreFuture<'a, ()>;
    /// Creates the account `user`, or, when an anonymous user (no password) with its id is
    /// stored, makes that user the account: its games and scores stay under the id, so an
    /// anonymous player who registers keeps them. One transaction.
    fn claim_user<'a>(&'a self, user: &'a User) -> StoreFuture<'a, ()>;
    /// Sets `user_id`'s password hash and ends all their sessions but `keep_token_hash`,
    /// in one transaction: whoever knew the old password is logged out everywhere else.
    fn set_password<'a>(
        &'a self,
        user_id: &'a str,
        password_hash: &'a str,
        keep_token_hash: &'a str,
    ) -> StoreFuture<'a, ()>;
    /// A user by name, regardless of case (names are unique that way).
    fn user_by_name<'a>(&'a self, name: &'a str) -> StoreFuture<'a, Option<User>>;
    /// Links a session token (its hash) to a user.
    fn create_session<'a>(&'a self, token_hash: &'a str, user_id: &'a str) -> StoreFuture<'a, ()>;
    /// The user of a session token hash.
    fn session_user<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, Option<User>> {
        Box::pin(async move { Ok(self.session_of(token_hash).await?.map(|(user, _)| user)) })
    }
    /// A session (by its token hash) and its user.
    fn session_of<'a>(&'a self, token_hash: &'a str)
    -> StoreFuture<'a, Option<(User, SessionRow)>>;
    /// A user's sessions, the latest used first.
    fn user_sessions<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Vec<SessionRow>>;
    /// Notes a session's use at `now_ms` (its expiry slides from there).
    fn touch_session<'a>(&'a self, token_hash: &'a str, now_ms: i64) -> StoreFuture<'a, ()>;
    /// Ends the session `token_hash` if it is `user_id`'s; `false` when there was none.
    fn delete_session<'a>(&'a self, user_id: &'a str, token_hash: &'a str)
    -> StoreFuture<'a, bool>;
    /// Ends every session last used before `before_ms` (expired); returns how many.
    fn delete_sessions_before(&self, before_ms: i64) -> StoreFuture<'_, u64>;
    /// A user's rating in a game at a speed.
    fn rating<'a>(
        &'a self,
        user_id: &'a str,
        kind: &'a str,
        speed: &'a str,
    ) -> StoreFuture<'a, Option<RatingRow>>;
    /// All of a user's ratings, by game then speed.
    fn user_ratings<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Vec<RatingRow>>;
    /// The best ratings of a game at a speed whose deviation is at most `max_rd`, best
    /// first, at most `limit`.
    fn leaderboard<'a>(
        &'a self,
        kind: &'a str,
        speed: &'a str,
        max_rd: f64,
        limit: u32,
    ) -> StoreFuture<'a, Vec<RankedRow>>;
    /// The outcomes of the finished games a user sat in (either seat).
    fn user_outcomes<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Vec<OutcomeRow>>;
    /// Stores a game's review; `false` (and nothing changed) when the game has one already,
    /// so a review is never replaced by a second computation.
    fn put_review<'a>(&'a self, review: &'a ReviewRow) -> StoreFuture<'a, bool>;
    /// A game's stored review.
    fn review<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, Option<ReviewRow>>;
    /// The games played here (not imported: an import's end is its creation) that ended at
    /// or after `since_ms` and have no review, the last ended first, at most `limit`.
    fn unreviewed_games<'a>(&'a self, since_ms: i64, limit: u32) -> StoreFuture<'a, Vec<String>>;
}
