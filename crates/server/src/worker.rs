//! `cannonade worker`: engine work off the web nodes (docs/server.md). A worker takes game
//! reviews from the jobs nodes put on Redis ([`ReviewBoard`]), replays each game from the
//! store the nodes share, reviews it on an engine pool of its own and stores the review,
//! which every node then serves. Several workers may run, on any machines that reach the
//! Redis and the database; each says it is alive every few seconds, and the jobs of one that
//! stops answering go back to the front of the line.
//!
//! A worker also searches the AI moves and analysis board slices nodes started with
//! `--ai-workers` put on Redis ([`AiBoard`]), on the same engines, before any review (the
//! engine service's priorities: AI moves, then slices).

use crate::ai_board::AiBoard;
use crate::engines::Engines;
use crate::job_redis::BoardError;
use crate::reviews::Unmade;
use crate::reviews::board::{ReviewBoard, ReviewJob};
use cannonade_store::{SqlStore, Store};
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// The Redis the nodes put their jobs on (`redis://HOST:PORT`).
    pub redis: String,
    /// The store the nodes share (`postgres://…`; `sqlite://FILE` for one machine).
    pub db: String,
    /// The namespace of the jobs' keys (the nodes' own).
    pub namespace: String,
    /// Searches that may run at once: reviews in progress at once, too.
    pub threads: usize,
    /// The depth of every search of a review; `None`: each game's default.
    pub review_depth: Option<u32>,
}

/// The worker could not start, or lost Redis for good.
#[derive(Debug)]
pub struct WorkerError(pub String);

impl std::fmt::Display for WorkerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WorkerError {}

impl From<BoardError> for WorkerError {
    fn from(e: BoardError) -> WorkerError {
        WorkerError(e.to_string())
    }
}

/// How often a worker says it is alive and looks for dead ones (well inside
/// [`crate::reviews::board::HEARTBEAT_TTL`]).
const BEAT_EVERY: Duration = Duration::from_secs(5);

/// How long one wait for a job lasts before the taker looks again.
const TAKE_WAIT: Duration = Duration::from_secs(2);

/// After a failure of Redis or the store, the pause before the next try.
const BACK_OFF: Duration = Duration::from_secs(1);

/// What a worker did, for its caller.
#[derive(Debug, Default)]
pub struct WorkerStats {
    /// Reviews computed and stored.
    pub stored: AtomicU64,
    /// Jobs dropped: the game is unknown, live, or does not replay (each logged).
    pub dropped: AtomicU64,
    /// AI moves searched and answered.
    pub ai_moves: AtomicU64,
    /// Analysis board slices searched and answered.
    pub analysis_slices: AtomicU64,
    /// Connected, with its takers started.
    pub taking: AtomicBool,
}

/// Runs a worker until `stop`; its unfinished jobs then go back to the line.
pub async fn work(
    config: WorkerConfig,
    stats: Arc<WorkerStats>,
    stop: impl Future<Output = ()>,
) -> Result<(), WorkerError> {
    let id = crate::ids::short_id().map_err(|e| WorkerError(e.to_string()))?;
    let board = ReviewBoard::connect(&config.redis, &config.namespace)
        .await
        .map_err(|e| WorkerError(format!("{}: {e}", config.redis)))?;
    let ai = AiBoard::connect(&config.redis, &config.namespace)
        .await
        .map_err(|e| WorkerError(format!("{}: {e}", config.redis)))?;
    let store = SqlStore::connect(&config.db)
        .await
        .map_err(|e| WorkerError(format!("{}: {e}", config.db)))?;
    let store: Arc<dyn Store> = Arc::new(store);
    let threads = config.threads.max(1);
    let engines = Engines::start(threads);
    board.beat(&id).await?;
    tracing::info!(
        "worker {id} takes AI moves and reviews from {} with {threads} engine threads",
        config.redis
    );
    let mut takers = tokio::task::JoinSet::new();
    for _ in 0..threads {
        // As many AI takers as engines: a move waits for an engine, never for a taker.
        let (ai_jobs, pool, counts) = (ai.clone(), engines.clone(), stats.clone());
        let mut conn = ai.taker().await?;
        takers.spawn(async move {
            loop {
                match ai_jobs.serve_one(&mut conn, &pool, TAKE_WAIT).await {
                    Ok(Some(job)) if job.lines.is_some() => {
                        counts.analysis_slices.fetch_add(1, Relaxed);
                    }
                    Ok(Some(_)) => {
                        counts.ai_moves.fetch_add(1, Relaxed);
                    }
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!("taking an AI move failed: {e}");
                        tokio::time::sleep(BACK_OFF).await;
                    }
                }
            }
        });
        let taker = Taker {
            id: id.clone(),
            conn: board.taker().await?,
            board: board.clone(),
            store: store.clone(),
            engines: engines.clone(),
            depth: config.review_depth,
            stats: stats.clone(),
        };
        takers.spawn(taker.run());
    }
    stats.taking.store(true, Relaxed);
    let alive = async {
        let mut tick = tokio::time::interval(BEAT_EVERY);
        loop {
            tick.tick().await;
            if let Err(e) = board.beat(&id).await {
                tracing::warn!("worker {id}: heartbeat failed: {e}");
            }
            if let Err(e) = board.reap().await {
                tracing::warn!("worker {id}: looking for dead workers failed: {e}");
            }
        }
    };
    tokio::select! {
        () = stop => {}
        () = alive => {}
        Some(ended) = takers.join_next() => {
            tracing::error!("worker {id}: a job taker ended ({ended:?}); stopping");
        }
    }
    takers.abort_all();
    engines.close();
    let back = board.leave(&id).await?;
    tracing::info!("worker {id} stopped; {back} unfinished reviews back in line");
    Ok(())
}

/// One loop taking jobs: one review at a time.
struct Taker {
    id: String,
    conn: redis::aio::ConnectionManager,
    board: ReviewBoard,
    store: Arc<dyn Store>,
    engines: Engines,
    depth: Option<u32>,
    stats: Arc<WorkerStats>,
}

/// How a job ended.
enum Outcome {
    /// Stored now, or found stored.
    Done,
    /// Not to be done (the reason is logged).
    Dropped(String),
    /// The store failed: to be tried again.
    Retry(String),
}

impl Taker {
    async fn run(mut self) {
        loop {
            let job = match self.board.take(&mut self.conn, &self.id, TAKE_WAIT).await {
                Ok(Some(job)) => job,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!("worker {}: taking a job failed: {e}", self.id);
                    tokio::time::sleep(BACK_OFF).await;
                    continue;
                }
            };
            let started = Instant::now();
            let settled = match self.review(&job).await {
                Outcome::Done => {
                    tracing::info!(game = %job.game, "reviewed in {:.1} s", started.elapsed().as_secs_f64());
                    self.board.finish(&self.id, &job).await
                }
                Outcome::Dropped(why) => {
                    tracing::warn!(game = %job.game, "not reviewed: {why}");
                    self.stats.dropped.fetch_add(1, Relaxed);
                    self.board.finish(&self.id, &job).await
                }
                Outcome::Retry(why) => {
                    tracing::error!(game = %job.game, "review not stored, queued again: {why}");
                    tokio::time::sleep(BACK_OFF).await;
                    self.board.retry(&self.id, &job).await
                }
            };
            // The job stays in this worker's list: it goes back to the line when this
            // worker stops, or when its heartbeat runs out.
            if let Err(e) = settled {
                tracing::warn!(game = %job.game, "worker {}: the job was not settled: {e}", self.id);
            }
        }
    }

    async fn review(&self, job: &ReviewJob) -> Outcome {
        let game = job.game.as_str();
        let made = crate::reviews::review_stored(
            self.store.as_ref(),
            &self.engines,
            game,
            self.depth,
            || {},
        );
        let review = match made.await {
            Ok(Some(review)) => review,
            Ok(None) => return Outcome::Done,
            Err(Unmade::Retry(e)) => return Outcome::Retry(e),
            Err(Unmade::Dropped(e)) => return Outcome::Dropped(e),
        };
        match self.store.put_review(&review).await {
            Ok(_) => {
                self.stats.stored.fetch_add(1, Relaxed);
                Outcome::Done
            }
            Err(e) => Outcome::Retry(e.to_string()),
        }
    }
}
