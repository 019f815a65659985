//! AI moves and analysis slices on Redis, for `cannonade worker` processes (docs/server.md,
//! "Engine work off the web nodes"): a node started with `--ai-workers` offers each AI move
//! and each slice of its analysis boards' searches ([`crate::slice`]) here, a worker takes
//! it, searches it on its own engines and publishes the move (a slice's completed depths,
//! then its end) on the node's channel.
//!
//! A person waits for every one of these, so nothing may strand one: whatever goes wrong (no
//! worker free in [`PICKUP`], a worker that never answers, Redis down, an answer that is not
//! a legal move) the node searches it on its own engines with the time that is left. A job
//! is searched once: taking it means deleting its claim key, which only one side can do
//! (`DEL` answers 1 to one caller), so a node that gave up on a job and a worker that finds
//! it later never both search it.
//!
//! Keys, under the namespace the review jobs use ([`crate::reviews::board`]):
//! - `NS:ai:jobs`: the waiting jobs, a list (pushed on the left, taken from the right),
//!   trimmed to the newest [`MAX_WAITING`] (older ones are long given up);
//! - `NS:ai:claim:JOB`: present while the job may still be taken;
//! - `NS:ai:answers:ASKER`: the channel a node hears its answers on (one per node process).

use crate::engines::Priority;
use crate::engines::{AiMoveAsk, Engines};
use crate::job_redis::{BoardError, JobRedis};
use crate::lock::lock;
use crate::slice::{self, DepthLines, SliceEnd};
use cannonade_engine::{Level, Limits};
use cannonade_games::pgn::{PgnGame, read_game, write_game};
use cannonade_games::{AnyMove, AnyRecord};
use futures_util::StreamExt;
use redis::aio::ConnectionManager;
use redis::{Client, Script};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// How long a job waits for a worker to take it before the node searches it itself.
pub const PICKUP: Duration = Duration::from_millis(500);

/// How long past its time limit a taken job's answer may come before the node searches the
/// move itself (a worker that died, an answer lost while the node's subscription was down).
pub const GRACE: Duration = Duration::from_secs(2);

/// Jobs kept waiting at most (the newest); older ones were given up by their nodes.
pub const MAX_WAITING: usize = 10_000;

/// How long a claim lives: long after its node gave up, so only a node that died leaves one.
const CLAIM_TTL: Duration = Duration::from_secs(60);

/// How long the list of jobs lives after its last job (a site whose nodes stopped sending
/// AI moves to workers leaves nothing behind).
const JOBS_TTL: Duration = Duration::from_secs(3600);

/// The least time a search the node takes over is given (the time left may be gone).
const LEAST_TIME: Duration = Duration::from_millis(50);

/// One AI move to search: the game's record, the engine's level and its limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiJob {
    /// The job's id (its claim key and its answer carry it).
    pub id: String,
    /// The game (a worker's engine keeps its table for the game it served last).
    pub game: String,
    /// The engine's level, 1–10 ([`Level`]).
    pub level: u8,
    /// The game so far as PGN: spec, start and every move (the repetition rules need the
    /// history). A Banqi record is the public one: flips as they were revealed.
    pub pgn: String,
    /// The search's limits.
    pub depth: Option<u32>,
    /// Nodes at most.
    pub nodes: Option<u64>,
    /// Hard time limit, milliseconds.
    pub time_ms: Option<u64>,
    /// Soft time limit (no new iteration after it), milliseconds.
    pub soft_ms: Option<u64>,
    /// The channel the answer goes to.
    pub reply: String,
    /// Set for a slice of an analysis board's search: the number of best lines (the level
    /// is then the strongest and `time_ms` the slice's time); absent for an AI move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<u32>,
}

/// What a job reads as, for the engine.
pub struct SearchInput {
    /// The game so far.
    pub record: AnyRecord,
    /// The engine's level.
    pub level: Level,
    /// The search's limits.
    pub limits: Limits,
}

impl AiJob {
    /// The job of searching `record`'s position at `level` within `limits` for `game`,
    /// answered on `reply`.
    pub fn new(
        id: &str,
        game: &str,
        level: Level,
        record: &AnyRecord,
        limits: &Limits,
        reply: &str,
    ) -> AiJob {
        AiJob {
            id: id.to_string(),
            game: game.to_string(),
            level: level.number(),
            pgn: write_game(&PgnGame::new(record.clone())),
            depth: limits.depth,
            nodes: limits.nodes,
            time_ms: limits.time.map(|t| t.as_millis() as u64),
            soft_ms: limits.soft_time.map(|t| t.as_millis() as u64),
            reply: reply.to_string(),
            lines: None,
        }
    }

    /// The job of searching one slice of `time` for `lines` best lines of `record`'s
    /// position, for the analysis `key` (a worker's engine keeps its table for it).
    pub fn slice(
        id: &str,
        key: &str,
        record: &AnyRecord,
        lines: u32,
        time: Duration,
        reply: &str,
    ) -> AiJob {
        let limits = Limits { time: Some(time), ..Limits::default() };
        AiJob { lines: Some(lines), ..AiJob::new(id, key, Level::MAX, record, &limits, reply) }
    }

    /// The job's record, level and limits; an error when the job is not one this build
    /// can search (a node of another version wrote it).
    pub fn input(&self) -> Result<SearchInput, String> {
        let record = read_game(&self.pgn).map_err(|e| format!("the record: {e}"))?.record;
        let level = Level::new(self.level).ok_or_else(|| format!("level {}", self.level))?;
        let limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            time: self.time_ms.map(Duration::from_millis),
            soft_time: self.soft_ms.map(Duration::from_millis),
        };
        Ok(SearchInput { record, level, limits })
    }
}

/// A worker's answer to a job: for an AI move one message with the move (or the error);
/// for an analysis slice one message per completed depth, then one with the slice's end (or
/// the error).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiAnswer {
    /// The job's id.
    pub id: String,
    /// The move in the game's notation; `None`: the engine found none (or `error` says why
    /// it did not search).
    pub mv: Option<String>,
    /// Why the worker did not search the job; the node then searches it itself.
    pub error: Option<String>,
    /// A slice's completed depth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<DepthLines>,
    /// A slice's end: its last message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<SliceEnd>,
}

// KEYS: claim, jobs. ARGV: job, claim ttl, max waiting, jobs ttl.
const OFFER: &str = r"
redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
redis.call('LPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[3]) - 1)
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1
";

/// The AI jobs of one namespace, both sides' commands (cheap to clone).
#[derive(Clone)]
pub struct AiBoard {
    redis: JobRedis,
}

impl std::fmt::Debug for AiBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AiBoard({:?})", self.redis)
    }
}

impl AiBoard {
    /// Connects to `url` (`redis://HOST:PORT`); fails early when Redis is not there.
    pub async fn connect(url: &str, namespace: &str) -> Result<AiBoard, BoardError> {
        Ok(AiBoard { redis: JobRedis::connect(url, namespace, "ai").await? })
    }

    fn key(&self, what: &str) -> String {
        self.redis.key(what)
    }

    fn claim_key(&self, job: &str) -> String {
        self.key(&format!("claim:{job}"))
    }

    /// A connection of its own for [`AiBoard::take`], whose wait would hold up every other
    /// command on a shared one.
    pub async fn taker(&self) -> Result<ConnectionManager, BoardError> {
        self.redis.taker().await
    }

    /// Jobs waiting for a worker (some may be given up already).
    pub async fn waiting(&self) -> Result<usize, BoardError> {
        let n: usize =
            redis::cmd("LLEN").arg(self.key("jobs")).query_async(&mut self.redis.conn()).await?;
        Ok(n)
    }

    /// Puts `job` in line, takeable for as long as its claim lives.
    async fn offer(&self, job: &AiJob) -> Result<(), BoardError> {
        let text = serde_json::to_string(job).map_err(|e| BoardError(e.to_string()))?;
        let _: i64 = Script::new(OFFER)
            .key(self.claim_key(&job.id))
            .key(self.key("jobs"))
            .arg(text)
            .arg(CLAIM_TTL.as_millis() as i64)
            .arg(MAX_WAITING as i64)
            .arg(JOBS_TTL.as_millis() as i64)
            .invoke_async(&mut self.redis.conn())
            .await?;
        Ok(())
    }

    /// Takes `job`'s claim: true for the one caller that got it.
    async fn claim(&self, job: &str) -> Result<bool, BoardError> {
        let n: i64 =
            redis::cmd("DEL").arg(self.claim_key(job)).query_async(&mut self.redis.conn()).await?;
        Ok(n == 1)
    }

    /// The next job a worker may search, waiting up to `wait` (under a second is rounded up
    /// to one) on `conn` (from [`AiBoard::taker`]): jobs their nodes gave up on, and text
    /// that is no job, are passed over (logged).
    pub async fn take(
        &self,
        conn: &mut ConnectionManager,
        wait: Duration,
    ) -> Result<Option<AiJob>, BoardError> {
        let popped: Option<(String, String)> = redis::cmd("BRPOP")
            .arg(self.key("jobs"))
            .arg(wait.as_secs().max(1))
            .query_async(conn)
            .await?;
        let Some((_, text)) = popped else { return Ok(None) };
        let job: AiJob = match serde_json::from_str(&text) {
            Ok(job) => job,
            Err(e) => {
                tracing::warn!("passed over an AI job that is not one ({e}): {text:?}");
                return Ok(None);
            }
        };
        Ok(self.claim(&job.id).await?.then_some(job))
    }

    /// Sends a worker's answer to the node that asked.
    pub async fn answer(&self, job: &AiJob, answer: &AiAnswer) -> Result<(), BoardError> {
        let text = serde_json::to_string(answer).map_err(|e| BoardError(e.to_string()))?;
        let _: i64 = redis::cmd("PUBLISH")
            .arg(&job.reply)
            .arg(text)
            .query_async(&mut self.redis.conn())
            .await?;
        Ok(())
    }

    /// The node's side: hears its answers on a channel of its own from now on.
    pub async fn asker(self) -> Result<AiAsker, BoardError> {
        let id = crate::ids::short_id().map_err(|e| BoardError(e.to_string()))?;
        let channel = self.key(&format!("answers:{id}"));
        let waiting: Arc<Waiting> = Arc::default();
        let (ready_tx, ready) = oneshot::channel();
        let listener = tokio::spawn(listen(
            self.redis.client().clone(),
            channel.clone(),
            Arc::downgrade(&waiting),
            ready_tx,
        ));
        let listener = Arc::new(Listener(listener.abort_handle()));
        match tokio::time::timeout(Duration::from_secs(5), ready).await {
            Ok(Ok(())) => {}
            _ => return Err(BoardError(format!("could not subscribe to {channel}"))),
        }
        Ok(AiAsker { board: self, channel, waiting, stats: Arc::default(), _listener: listener })
    }
}

/// The answers a node waits for, by job id (a slice's come several to a job).
type Waiting = Mutex<HashMap<String, mpsc::UnboundedSender<AiAnswer>>>;

/// Ends the subscription's task with the last handle to it.
struct Listener(tokio::task::AbortHandle);

impl Drop for Listener {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Hears the answers on `channel` and hands each to its waiter, subscribing again whenever
/// the connection drops (an answer published meanwhile is lost: its waiter times out and the
/// node searches the move itself).
async fn listen(
    client: Client,
    channel: String,
    waiting: Weak<Waiting>,
    ready: oneshot::Sender<()>,
) {
    let mut ready = Some(ready);
    loop {
        let subscribed = async {
            let mut pubsub = client.get_async_pubsub().await?;
            pubsub.subscribe(&channel).await?;
            Ok::<_, redis::RedisError>(pubsub)
        };
        match subscribed.await {
            Ok(mut pubsub) => {
                if let Some(r) = ready.take() {
                    let _ = r.send(());
                }
                let mut messages = pubsub.on_message();
                while let Some(msg) = messages.next().await {
                    let Some(waiting) = waiting.upgrade() else { return };
                    deliver(&waiting, msg.get_payload_bytes());
                }
                tracing::warn!("the AI answers' subscription dropped; subscribing again");
            }
            Err(e) => tracing::warn!("subscribing to the AI answers failed: {e}"),
        }
        if waiting.strong_count() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Hands an answer to the search waiting for it (none: it was given up).
fn deliver(waiting: &Waiting, payload: &[u8]) {
    let answer: AiAnswer = match serde_json::from_slice(payload) {
        Ok(a) => a,
        Err(e) => {
            tracing::warn!("an AI answer that is not one ({e})");
            return;
        }
    };
    if let Some(w) = lock(waiting).get(&answer.id) {
        let _ = w.send(answer);
    }
}

/// How a node's AI moves and analysis slices went, for `/metrics`.
#[derive(Debug, Default)]
pub struct AskerStats {
    /// Moves a worker answered.
    pub answered: AtomicU64,
    /// Moves the node searched itself because no worker answered in time (or Redis failed).
    pub searched_here: AtomicU64,
    /// Analysis slices a worker searched.
    pub slices_answered: AtomicU64,
    /// Analysis slices the node searched itself.
    pub slices_here: AtomicU64,
}

/// Why a worker's answer did not come (the node searches the move itself).
#[derive(Debug)]
enum Unanswered {
    /// No worker took the job within [`PICKUP`].
    NotTaken,
    /// Taken, but no answer within the time limit and [`GRACE`].
    Late,
    /// Redis failed.
    Board(BoardError),
    /// The worker said why it did not search.
    Refused(String),
    /// The answer is no legal move of the position (or no answer to the job asked).
    Garbled(String),
}

impl std::fmt::Display for Unanswered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unanswered::NotTaken => write!(f, "no worker took it within {PICKUP:?}"),
            Unanswered::Late => f.write_str("the worker that took it did not answer in time"),
            Unanswered::Board(e) => write!(f, "{e}"),
            Unanswered::Refused(why) => write!(f, "the worker did not search it: {why}"),
            Unanswered::Garbled(mv) => write!(f, "the worker answered {mv:?}, no legal move"),
        }
    }
}

impl From<BoardError> for Unanswered {
    fn from(e: BoardError) -> Unanswered {
        Unanswered::Board(e)
    }
}

/// A node's side of the AI jobs: offers moves and waits for their answers (cheap to clone).
#[derive(Clone)]
pub struct AiAsker {
    board: AiBoard,
    channel: String,
    waiting: Arc<Waiting>,
    stats: Arc<AskerStats>,
    _listener: Arc<Listener>,
}

impl std::fmt::Debug for AiAsker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AiAsker({})", self.channel)
    }
}

impl AiAsker {
    /// How the node's AI moves went.
    pub fn stats(&self) -> &AskerStats {
        &self.stats
    }

    /// The engine's move for `ask`, searched by a worker, or on `engines` with the time left
    /// when no worker answers (see the module's docs); `None` when the engine finds no move,
    /// or when `ask.stop` was set before this node would search it itself (a search stopped
    /// later answers from what it searched).
    pub async fn best_move(&self, engines: &Engines, ask: AiMoveAsk) -> Option<AnyMove> {
        let started = Instant::now();
        match self.ask(&ask).await {
            Ok(mv) => {
                self.stats.answered.fetch_add(1, Relaxed);
                return mv;
            }
            Err(why) => tracing::warn!(game = ask.game, "the AI move is searched here: {why}"),
        }
        if ask.stop.load(Relaxed) {
            return None;
        }
        self.stats.searched_here.fetch_add(1, Relaxed);
        let limits = time_left(ask.limits, started.elapsed());
        engines.best_move(AiMoveAsk { limits, ..ask }).await
    }

    /// `ask` offered to the workers: the move one of them answers.
    async fn ask(&self, ask: &AiMoveAsk) -> Result<Option<AnyMove>, Unanswered> {
        let id = crate::ids::short_id().map_err(|e| BoardError(e.to_string()))?;
        let job = AiJob::new(&id, &ask.game, ask.level, &ask.record, &ask.limits, &self.channel);
        let mut answers = self.offer(&job).await?;
        let wait = ask.limits.time.unwrap_or(Duration::from_secs(60)) + GRACE;
        let answer = answers.next(wait).await?;
        let position = ask.record.position();
        match answer.mv {
            // "No move" only where there is none.
            None if position.legal_moves().is_empty() => Ok(None),
            None => Err(Unanswered::Garbled("no move".into())),
            Some(text) => {
                position.parse_move(&text).map(Some).map_err(|_| Unanswered::Garbled(text))
            }
        }
    }
}

/// The messages answering one job, from its offer on; the job is forgotten with it.
struct Answers<'a> {
    asker: &'a AiAsker,
    id: String,
    rx: mpsc::UnboundedReceiver<AiAnswer>,
    /// A worker took the job (a message came, or the claim was gone after [`PICKUP`]).
    taken: bool,
}

impl Drop for Answers<'_> {
    fn drop(&mut self) {
        lock(&self.asker.waiting).remove(&self.id);
    }
}

impl Answers<'_> {
    /// The next message; until a worker took the job at most [`PICKUP`] (then the node takes
    /// the job back), after that within `wait`. An error message is a refusal.
    async fn next(&mut self, wait: Duration) -> Result<AiAnswer, Unanswered> {
        if !self.taken {
            match tokio::time::timeout(PICKUP, self.rx.recv()).await {
                Ok(Some(answer)) => {
                    self.taken = true;
                    return refused(answer);
                }
                Ok(None) => return Err(Unanswered::Late),
                Err(_) => {
                    if self.asker.board.claim(&self.id).await? {
                        return Err(Unanswered::NotTaken);
                    }
                    // A worker has it: wait for its search.
                    self.taken = true;
                }
            }
        }
        match tokio::time::timeout(wait, self.rx.recv()).await {
            Ok(Some(answer)) => refused(answer),
            _ => Err(Unanswered::Late),
        }
    }
}

/// `answer`, or the refusal it carries.
fn refused(answer: AiAnswer) -> Result<AiAnswer, Unanswered> {
    match answer.error {
        Some(why) => Err(Unanswered::Refused(why)),
        None => Ok(answer),
    }
}

impl AiAsker {
    /// Puts `job` in line and listens for its answers.
    async fn offer(&self, job: &AiJob) -> Result<Answers<'_>, Unanswered> {
        let (tx, rx) = mpsc::unbounded_channel();
        lock(&self.waiting).insert(job.id.clone(), tx);
        let answers = Answers { asker: self, id: job.id.clone(), rx, taken: false };
        self.board.offer(job).await?;
        Ok(answers)
    }

    /// One slice of the analysis `key`: `lines` best lines of `record`'s position for
    /// `time`, searched by a worker, whose completed depths go to `depth` as they come; how
    /// the slice ended, or `None` when no worker searched it (see the module's docs: the
    /// caller then searches it on its own engines; a depth already reported is not sent to
    /// the board again, as the board sends only deeper ones).
    pub async fn slice(
        &self,
        key: &str,
        record: &AnyRecord,
        lines: u32,
        time: Duration,
        mut depth: impl FnMut(DepthLines),
    ) -> Option<SliceEnd> {
        let asked = async {
            let id = crate::ids::short_id().map_err(|e| BoardError(e.to_string()))?;
            let job = AiJob::slice(&id, key, record, lines, time, &self.channel);
            let mut answers = self.offer(&job).await?;
            loop {
                let answer = answers.next(time + GRACE).await?;
                match (answer.depth, answer.end) {
                    (Some(d), _) => depth(d),
                    (None, Some(end)) => return Ok(end),
                    (None, None) => return Err(Unanswered::Garbled("no slice".into())),
                }
            }
        };
        match asked.await {
            Ok(end) => {
                self.stats.slices_answered.fetch_add(1, Relaxed);
                Some(end)
            }
            Err(why) => {
                tracing::warn!(key, "the analysis slice is searched here: {why}");
                self.stats.slices_here.fetch_add(1, Relaxed);
                None
            }
        }
    }
}

/// `limits` with `spent` taken off its times (never below [`LEAST_TIME`]).
fn time_left(limits: Limits, spent: Duration) -> Limits {
    let less = |t: Duration| t.saturating_sub(spent).max(LEAST_TIME);
    Limits { time: limits.time.map(less), soft_time: limits.soft_time.map(less), ..limits }
}

/// A worker's search of one AI move: the answer to publish.
pub async fn search(engines: &Engines, job: &AiJob) -> AiAnswer {
    let answer = |mv, error| AiAnswer { id: job.id.clone(), mv, error, ..AiAnswer::default() };
    let input = match job.input() {
        Ok(input) => input,
        Err(why) => return answer(None, Some(why)),
    };
    let position = input.record.position();
    let stop = Arc::new(AtomicBool::new(false));
    let ask = AiMoveAsk {
        game: job.game.clone(),
        level: input.level,
        record: input.record,
        limits: input.limits,
        stop,
    };
    let best = engines.best_move(ask).await;
    answer(best.map(|mv| position.move_text(mv)), None)
}

impl AiBoard {
    /// A worker's turn: takes the next job (waiting up to `wait` on `conn`), searches it on
    /// `engines` and answers it; the job, `None` when there was no job to take.
    pub async fn serve_one(
        &self,
        conn: &mut ConnectionManager,
        engines: &Engines,
        wait: Duration,
    ) -> Result<Option<AiJob>, BoardError> {
        let Some(job) = self.take(conn, wait).await? else { return Ok(None) };
        if job.lines.is_some() {
            self.serve_slice(engines, &job).await?;
            return Ok(Some(job));
        }
        let answer = search(engines, &job).await;
        if let Some(why) = &answer.error {
            tracing::warn!(game = %job.game, "an AI job not searched: {why}");
        }
        self.answer(&job, &answer).await?;
        Ok(Some(job))
    }
}

impl AiBoard {
    /// A worker's search of an analysis slice: each completed depth published as it comes,
    /// then the end (or why it was not searched).
    async fn serve_slice(&self, engines: &Engines, job: &AiJob) -> Result<(), BoardError> {
        let message = |answer: AiAnswer| AiAnswer { id: job.id.clone(), ..answer };
        let input = match job.input() {
            Ok(input) => input,
            Err(why) => {
                tracing::warn!(key = %job.game, "an analysis slice not searched: {why}");
                return self
                    .answer(job, &message(AiAnswer { error: Some(why), ..AiAnswer::default() }))
                    .await;
            }
        };
        let (lines, time) = (job.lines.unwrap_or(1), input.limits.time.unwrap_or(Duration::ZERO));
        let (tx, mut depths) = mpsc::unbounded_channel();
        let searched = engines.submit(&job.game, Priority::Analysis, move |engine| {
            let stop = AtomicBool::new(false);
            slice::search(engine, &input.record, lines, time, &stop, |d| {
                let _ = tx.send(d);
            })
        });
        let Some((end, _)) = searched else {
            let why = Some("the worker is stopping".to_string());
            return self
                .answer(job, &message(AiAnswer { error: why, ..AiAnswer::default() }))
                .await;
        };
        // The search's sender goes with it: the depths end when the search does.
        while let Some(d) = depths.recv().await {
            self.answer(job, &message(AiAnswer { depth: Some(d), ..AiAnswer::default() })).await?;
        }
        let end = end.await.map_err(|_| BoardError("the search was dropped".into()))?;
        self.answer(job, &message(AiAnswer { end: Some(end), ..AiAnswer::default() })).await
    }
}

#[cfg(test)]
#[path = "ai_board_tests.rs"]
mod tests;
