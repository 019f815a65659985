//! Game reviews on the server (docs/analysis.md, docs/server.md): a finished game's review
//! is queued on the engine service at [`Priority::Background`] when the game ends (online,
//! against the engine or hot-seat), or when a player asks for one on a finished game that
//! has none (an imported record). The review runs one move per engine job, so AI moves go
//! between its searches; it is stored once, as JSON, and served from the store ever after.
//! A live game never has a review: reviews start at the end, so a Banqi game's face-down
//! pieces are public by then.

pub mod board;
pub mod crowd;
pub mod live_crowd;
pub mod queue;

use crate::archive::proposals::PlyCrowd;
use crate::engines::{Engines, Priority};
use crate::lock::lock;
use board::ReviewBoard;
use cannonade_engine::Limits;
use cannonade_engine::review::{Review, ReviewOptions, Reviewer, default_depth};
use cannonade_games::AnyRecord;
use cannonade_store::ReviewRow;
use cannonade_store::Store;
use queue::{Added, Pending, ReviewQueue, TooMany};
use serde::Serialize;
use serde_json::value::RawValue;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};

/// Stores a finished review the node's way (through its writer); `Ok(false)` when the game
/// had one already.
pub type PutReview = Arc<
    dyn Fn(ReviewRow) -> Pin<Box<dyn Future<Output = Result<bool, String>> + Send>> + Send + Sync,
>;

/// What the reviews need of their node: narrow handles, not the whole server state.
#[derive(Clone)]
pub struct Handles {
    /// The store, to read games and reviews.
    pub store: Arc<dyn Store>,
    /// The engine service the node's own reviews run on.
    pub engines: Engines,
    /// The depth of every search of a review; `None`: each game's default.
    pub depth: Option<u32>,
    /// How many reviews one user may have pending.
    pub per_user: usize,
    /// How a review is stored.
    pub put: PutReview,
}

/// The reviews pending on this node, or, when the node sends them to `cannonade worker`
/// processes, the board on Redis they wait on.
pub struct Reviews {
    queue: Arc<Mutex<ReviewQueue>>,
    board: OnceLock<ReviewBoard>,
    node: Handles,
}

impl std::fmt::Debug for Reviews {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Reviews({} pending here, workers: {:?})", self.pending(), self.board.get())
    }
}

/// Where a game's review is, as `GET /api/game/{id}/review` answers.
#[derive(Debug)]
pub enum Status {
    /// Stored: the review's JSON (checked to be JSON when read from the store).
    Done(Box<RawValue>),
    /// Pending.
    Pending(Pending),
    /// The game has none (it is live, or finished and never reviewed).
    None,
}

/// A [`Status`] as the client reads it.
#[derive(Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
enum Answer<'a> {
    Done { review: &'a RawValue },
    Queued { position: usize },
    Running,
    None,
}

impl Status {
    /// The answer's JSON: `{"state":"done","review":{…}}`, `{"state":"queued","position":n}`,
    /// `{"state":"running"}` or `{"state":"none"}`.
    pub fn to_json(&self) -> String {
        let answer = match self {
            Status::Done(review) => Answer::Done { review },
            Status::Pending(Pending::Queued { position }) => Answer::Queued { position: *position },
            Status::Pending(Pending::Running) => Answer::Running,
            Status::None => Answer::None,
        };
        // A tagged enum of plain fields and JSON already checked always serializes.
        serde_json::to_string(&answer).unwrap_or_default()
    }
}

/// How far back [`Reviews::resume`] looks for games left unreviewed by a restart: a day.
pub const RESUME_WINDOW_MS: i64 = 24 * 3600 * 1000;
/// How many reviews [`Reviews::resume`] queues at most.
pub const RESUME_MAX: u32 = 200;

/// Why a review was not queued on request.
#[derive(Debug)]
pub enum Refused {
    /// No such game.
    NotFound,
    /// The game is still being played.
    Live,
    /// The user has as many reviews pending as one may.
    TooMany(TooMany),
    /// The store failed or the game no longer replays (logged, never shown).
    Failed(String),
}

impl Reviews {
    /// The reviews of a node with `node`'s handles.
    pub fn new(node: Handles) -> Reviews {
        Reviews { queue: Arc::default(), board: OnceLock::new(), node }
    }

    /// From now on, reviews go to workers through `board` instead of this node's engines.
    pub fn send_to_workers(&self, board: ReviewBoard) {
        let _ = self.board.set(board);
    }

    /// Where `game`'s review is; `Ok(None)` for an unknown game.
    pub async fn status(&self, game: &str) -> Result<Option<Status>, String> {
        // Pending first: a review leaves the queue only after it is stored.
        if let Some(board) = self.board.get()
            && let Some(p) = board.state(game).await.map_err(|e| e.to_string())?
        {
            return Ok(Some(Status::Pending(p)));
        }
        if let Some(p) = lock(&self.queue).state(game) {
            return Ok(Some(Status::Pending(p)));
        }
        if let Some(row) = self.node.store.review(game).await.map_err(|e| e.to_string())? {
            let review = RawValue::from_string(row.body).map_err(|e| e.to_string())?;
            return Ok(Some(Status::Done(review)));
        }
        Ok(self.node.store.game(game).await.map_err(|e| e.to_string())?.map(|_| Status::None))
    }

    /// Queues the review of a game that just ended (no user's bound applies): `true` when
    /// it was queued now, `false` when one is pending already or the game has no moves
    /// (nothing to review).
    pub fn game_over(&self, game: &str, record: AnyRecord) -> bool {
        if record.moves().is_empty() {
            return false;
        }
        if let Some(board) = self.board.get() {
            let (board, game) = (board.clone(), game.to_string());
            tokio::spawn(async move {
                if let Err(e) = board.offer(&game, None, usize::MAX).await {
                    tracing::error!(game = %game, "the review was not queued for the workers: {e}");
                }
            });
            return true;
        }
        let added = lock(&self.queue).add(game, None, usize::MAX);
        let queued = matches!(added, Ok(Added::New(_)));
        if queued {
            spawn(self.node.clone(), self.queue.clone(), game.to_string());
        }
        queued
    }

    /// Queues the review of the finished game `game` for `user`, unless it has one or one
    /// is pending (then says where it is).
    pub async fn request(&self, game: &str, user: &str) -> Result<Status, Refused> {
        match self.status(game).await.map_err(Refused::Failed)? {
            None => return Err(Refused::NotFound),
            Some(Status::None) => {}
            Some(known) => return Ok(known),
        }
        let row = self.node.store.game(game).await.map_err(|e| Refused::Failed(e.to_string()))?;
        let row = row.ok_or(Refused::NotFound)?;
        if row.status != "over" {
            return Err(Refused::Live);
        }
        let limit = self.node.per_user;
        if let Some(board) = self.board.get() {
            let offered = board.offer(game, Some(user), limit).await;
            let added = offered.map_err(|e| Refused::Failed(e.to_string()))?;
            return match added.map_err(Refused::TooMany)? {
                Added::New(state) | Added::Already(state) => Ok(Status::Pending(state)),
            };
        }
        let added = lock(&self.queue).add(game, Some(user), limit).map_err(Refused::TooMany)?;
        match added {
            Added::New(state) => {
                spawn(self.node.clone(), self.queue.clone(), game.to_string());
                Ok(Status::Pending(state))
            }
            Added::Already(state) => Ok(Status::Pending(state)),
        }
    }

    /// Queues again, after a restart, the reviews that were pending when the node stopped:
    /// the games played here that ended in the last [`RESUME_WINDOW_MS`] without a review
    /// (at most [`RESUME_MAX`], the last ended first). A review asked for on an imported
    /// record is not among them: its page offers to ask again. Returns how many were queued.
    pub async fn resume(&self) -> Result<usize, String> {
        let since = crate::ids::now_ms() - RESUME_WINDOW_MS;
        let ids =
            self.node.store.unreviewed_games(since, RESUME_MAX).await.map_err(|e| e.to_string())?;
        let mut queued = 0;
        if let Some(board) = self.board.get() {
            // The workers replay the games themselves.
            for id in ids {
                let offered =
                    board.offer(&id, None, usize::MAX).await.map_err(|e| e.to_string())?;
                queued += usize::from(matches!(offered, Ok(Added::New(_))));
            }
            return Ok(queued);
        }
        for id in ids {
            let stored = crate::archive::stored_in(self.node.store.as_ref(), &id).await?;
            let Some((row, events)) = stored else { continue };
            match crate::archive::replay::record_of(&row, &events) {
                // Counted by what `game_over` did, not by the queue's length, which the
                // reviews already running change meanwhile.
                Ok(record) => queued += usize::from(self.game_over(&id, record)),
                // Logged, and the others still go: one game that no longer replays must not
                // keep the rest unreviewed.
                Err(e) => tracing::warn!(game = %id, "not reviewed again: {e}"),
            }
        }
        Ok(queued)
    }

    /// Reviews pending on this node.
    pub fn pending(&self) -> usize {
        lock(&self.queue).len()
    }

    /// Review jobs waiting on Redis for a worker (every node's); `None` when this node
    /// reviews its games itself.
    pub async fn waiting_for_workers(&self) -> Result<Option<usize>, crate::job_redis::BoardError> {
        match self.board.get() {
            Some(board) => board.waiting().await.map(Some),
            None => Ok(None),
        }
    }
}

/// Runs a queued review: one engine job per move, then the store; the game leaves the
/// queue once its review is stored (or failed, to be asked for again).
fn spawn(node: Handles, queue: Arc<Mutex<ReviewQueue>>, game: String) {
    tokio::spawn(async move {
        let (q, id) = (queue.clone(), game.clone());
        let started = move || lock(&q).start(&id);
        let made = review_stored(node.store.as_ref(), &node.engines, &game, node.depth, started);
        let stored = match made.await {
            Ok(Some(row)) => (node.put)(row).await.map(|_| ()),
            Ok(None) => Ok(()),
            Err(Unmade::Retry(e) | Unmade::Dropped(e)) => Err(e),
        };
        if let Err(e) = stored {
            tracing::error!(game = %game, "the review failed: {e}");
        }
        lock(&queue).finish(&game);
    });
}

/// Why a stored game's review was not made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unmade {
    /// The store failed: the review may be tried again.
    Retry(String),
    /// It cannot be made: no such game, a game still played, moves that do not replay.
    Dropped(String),
}

/// The review of the stored game `game` from what the store holds (its moves and its
/// spectators' proposals), unless one is stored already (`Ok(None)`: a review stored since
/// it was queued, by another node or a request that crossed it, is not computed again).
/// What a node and a worker both do with a queued review; `started` is called when the
/// first search starts.
pub async fn review_stored(
    store: &dyn Store,
    engines: &Engines,
    game: &str,
    depth: Option<u32>,
    started: impl Fn() + Clone + Send + 'static,
) -> Result<Option<ReviewRow>, Unmade> {
    match store.review(game).await {
        Ok(Some(_)) => return Ok(None),
        Ok(None) => {}
        Err(e) => return Err(Unmade::Retry(e.to_string())),
    }
    let (row, events) = match crate::archive::stored_in(store, game).await {
        Ok(Some(found)) => found,
        Ok(None) => return Err(Unmade::Dropped("no such game".into())),
        Err(e) => return Err(Unmade::Retry(e)),
    };
    if row.status != "over" {
        return Err(Unmade::Dropped("the game is still being played".into()));
    }
    let replay = |e: String| Unmade::Dropped(format!("the game does not replay: {e}"));
    let record = crate::archive::replay::record_of(&row, &events).map_err(replay)?;
    let crowds = crate::archive::replay::crowds_of(&events).map_err(replay)?;
    compute(engines, game, &record, &crowds, depth, started)
        .await
        .map(Some)
        .map_err(|e| Unmade::Dropped(format!("the review failed: {e}")))
}

/// A review as stored and served: the engine's, and the crowd's showing when spectators
/// proposed.
#[derive(Serialize)]
struct Stored<'a> {
    #[serde(flatten)]
    review: &'a Review,
    #[serde(skip_serializing_if = "Option::is_none")]
    crowd: Option<crowd::CrowdReview>,
}

/// Reviews `record` (the game `game`) on `engines` at `depth` (`None`: the game's
/// default), one engine job per move at [`Priority::Background`], valuing the moves
/// spectators proposed (`crowds`, move by move, as [`crate::archive::replay::crowds_of`]
/// reads them); `started` is called when the first search starts. Returns the row to
/// store.
pub async fn compute(
    engines: &Engines,
    game: &str,
    record: &AnyRecord,
    crowds: &[Option<PlyCrowd>],
    depth: Option<u32>,
    started: impl Fn() + Clone + Send + 'static,
) -> Result<ReviewRow, String> {
    let depth = depth.unwrap_or_else(|| default_depth(record.kind()));
    let options = ReviewOptions {
        limits: Limits { depth: Some(depth), ..Limits::default() },
        alternatives: crowd::alternatives(crowds),
    };
    let mut reviewer = Reviewer::new(record, options).map_err(|e| e.to_string())?;
    while !reviewer.done() {
        let started = started.clone();
        let (back, stepped) = engines
            .run(game, Priority::Background, move |engine| {
                started();
                let stepped = reviewer.step(engine, &AtomicBool::new(false));
                (reviewer, stepped)
            })
            .await
            .ok_or("the engine service stopped")?;
        stepped.map_err(|e| e.to_string())?;
        reviewer = back;
    }
    let review = reviewer.finish();
    let stored = Stored { crowd: crowd::judge(&review, crowds), review: &review };
    Ok(ReviewRow {
        game_id: game.to_string(),
        depth: i64::from(depth),
        body: serde_json::to_string(&stored).map_err(|e| e.to_string())?,
        created_ms: crate::ids::now_ms(),
    })
}
