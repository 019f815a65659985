//! The review jobs on Redis, for `cannonade worker` processes (docs/server.md, "Engine work
//! off the web nodes"; fishnet's model): a node that sends its reviews to workers offers each
//! finished game here instead of searching it itself, and workers on other machines take the
//! jobs, review the game from the shared store and store the review.
//!
//! Keys, under a namespace (`cannonade` unless set, so that several sites can share one
//! Redis, and tests do not meet):
//! - `NS:reviews:jobs`: the waiting jobs, a list (pushed on the left, taken from the right:
//!   first come, first served);
//! - `NS:reviews:working:WORKER`: the jobs a worker took and has not finished; a job moves
//!   there in the same command that takes it (`BLMOVE`), so a worker that dies loses none;
//! - `NS:reviews:workers`: the live workers, scored by the time their heartbeat runs out
//!   (Redis's own clock, so machines' clocks need not agree); any worker puts the jobs of
//!   one whose heartbeat ran out back at the front of the line;
//! - `NS:reviews:game:GAME`: the job of a pending review (so a game is queued once, and a
//!   node can say where it is in line);
//! - `NS:reviews:owner:USER`: the games a user asked for and that are pending (the per-user
//!   bound, as a node bounds its own queue).
//!
//! Each step that reads and writes several keys is one Lua script, so two nodes offering the
//! same game, or two workers reaping the same dead one, cannot interleave.

use super::queue::{Added, Pending, TooMany};
use crate::job_redis::{BoardError, JobRedis};
use redis::Script;
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How long a pending review's keys live without being finished: a job lost with a Redis
/// that kept no data must not block its game forever (the node's restart queues games
/// left unreviewed again).
const PENDING_TTL: Duration = Duration::from_secs(7 * 24 * 3600);

/// How long a worker counts as alive after its last heartbeat.
pub const HEARTBEAT_TTL: Duration = Duration::from_secs(30);

/// One review job: the game, and the user who asked (`None`: the server, at the game's end).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewJob {
    /// The game to review.
    pub game: String,
    /// Who asked for it.
    pub owner: Option<String>,
}

impl ReviewJob {
    /// The job as it sits in the lists (the same text every time: lists are searched by it).
    fn element(&self) -> String {
        // A struct of two strings always serializes.
        serde_json::to_string(self).unwrap_or_default()
    }
}

// Answers of OFFER: `{code, place}`; code 0 queued now, 1 pending already, 2 too many for
// the owner; place 0 running, n ≥ 1 the place in line.
const OFFER: &str = r"
local el = redis.call('GET', KEYS[1])
if el then
  local at = redis.call('LPOS', KEYS[2], el)
  if at then return {1, redis.call('LLEN', KEYS[2]) - at} end
  return {1, 0}
end
if ARGV[4] == '1' then
  if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[2]) then return {2, 0} end
  redis.call('SADD', KEYS[3], ARGV[5])
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('LPUSH', KEYS[2], ARGV[1])
return {0, redis.call('LLEN', KEYS[2])}
";

// -1 none pending, 0 running, n ≥ 1 the place in line.
const STATE: &str = r"
local el = redis.call('GET', KEYS[1])
if not el then return -1 end
local at = redis.call('LPOS', KEYS[2], el)
if at then return redis.call('LLEN', KEYS[2]) - at end
return 0
";

const FINISH: &str = r"
redis.call('LREM', KEYS[1], 1, ARGV[1])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
redis.call('SREM', KEYS[3], ARGV[2])
return 1
";

// A job back at the end of the line (its store failed: others go first).
const RETRY: &str = r"
if redis.call('LREM', KEYS[1], 1, ARGV[1]) > 0 then redis.call('LPUSH', KEYS[2], ARGV[1]) end
return 1
";

const BEAT: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
return 1
";

const DEAD: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
";

// A worker's unfinished jobs back at the front of the line, and the worker off the list.
const REQUEUE: &str = r"
local n = 0
while redis.call('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT') do n = n + 1 end
redis.call('ZREM', KEYS[3], ARGV[1])
return n
";

/// The review jobs of one namespace (cheap to clone: one multiplexed connection).
#[derive(Clone)]
pub struct ReviewBoard {
    redis: JobRedis,
}

impl std::fmt::Debug for ReviewBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ReviewBoard({:?})", self.redis)
    }
}

fn place(n: i64) -> Pending {
    match usize::try_from(n) {
        Ok(0) | Err(_) => Pending::Running,
        Ok(position) => Pending::Queued { position },
    }
}

impl ReviewBoard {
    /// Connects to `url` (`redis://HOST:PORT`); fails early when Redis is not there.
    pub async fn connect(url: &str, namespace: &str) -> Result<ReviewBoard, BoardError> {
        Ok(ReviewBoard { redis: JobRedis::connect(url, namespace, "reviews").await? })
    }

    fn key(&self, what: &str) -> String {
        self.redis.key(what)
    }

    fn game_key(&self, game: &str) -> String {
        self.key(&format!("game:{game}"))
    }

    fn owner_key(&self, owner: Option<&str>) -> String {
        self.key(&format!("owner:{}", owner.unwrap_or_default()))
    }

    fn working_key(&self, worker: &str) -> String {
        self.key(&format!("working:{worker}"))
    }

    /// Queues `game`'s review for `owner` (`None`: the server, unbounded), unless one is
    /// pending; an owner with `limit` pending gets [`TooMany`].
    pub async fn offer(
        &self,
        game: &str,
        owner: Option<&str>,
        limit: usize,
    ) -> Result<Result<Added, TooMany>, BoardError> {
        let job = ReviewJob { game: game.to_string(), owner: owner.map(str::to_string) };
        let (code, at): (i64, i64) = Script::new(OFFER)
            .key(self.game_key(game))
            .key(self.key("jobs"))
            .key(self.owner_key(owner))
            .arg(job.element())
            .arg(limit.min(i64::MAX as usize) as i64)
            .arg(PENDING_TTL.as_millis() as i64)
            .arg(if owner.is_some() { "1" } else { "0" })
            .arg(game)
            .invoke_async(&mut self.redis.conn())
            .await?;
        match code {
            0 => Ok(Ok(Added::New(place(at)))),
            1 => Ok(Ok(Added::Already(place(at)))),
            2 => Ok(Err(TooMany { limit })),
            other => Err(BoardError(format!("offer answered {other}"))),
        }
    }

    /// Where `game`'s review is, `None` when none is pending here.
    pub async fn state(&self, game: &str) -> Result<Option<Pending>, BoardError> {
        let n: i64 = Script::new(STATE)
            .key(self.game_key(game))
            .key(self.key("jobs"))
            .invoke_async(&mut self.redis.conn())
            .await?;
        Ok((n >= 0).then(|| place(n)))
    }

    /// Jobs waiting for a worker.
    pub async fn waiting(&self) -> Result<usize, BoardError> {
        let n: usize =
            redis::cmd("LLEN").arg(self.key("jobs")).query_async(&mut self.redis.conn()).await?;
        Ok(n)
    }

    /// A connection of its own for [`ReviewBoard::take`], whose wait would hold up every
    /// other command on a shared one.
    pub async fn taker(&self) -> Result<ConnectionManager, BoardError> {
        self.redis.taker().await
    }

    /// The next job for `worker`, waiting up to `wait` (under a second is rounded up to
    /// one) on `conn` (from [`ReviewBoard::taker`]); the job moves to the worker's list in
    /// the same step. A job whose text is not a job is dropped.
    pub async fn take(
        &self,
        conn: &mut ConnectionManager,
        worker: &str,
        wait: Duration,
    ) -> Result<Option<ReviewJob>, BoardError> {
        let element: Option<String> = redis::cmd("BLMOVE")
            .arg(self.key("jobs"))
            .arg(self.working_key(worker))
            .arg("RIGHT")
            .arg("LEFT")
            .arg(wait.as_secs().max(1))
            .query_async(conn)
            .await?;
        let Some(element) = element else { return Ok(None) };
        match serde_json::from_str(&element) {
            Ok(job) => Ok(Some(job)),
            Err(e) => {
                tracing::warn!("dropped a review job that is not one ({e}): {element:?}");
                let _: i64 = redis::cmd("LREM")
                    .arg(self.working_key(worker))
                    .arg(1)
                    .arg(&element)
                    .query_async(&mut self.redis.conn())
                    .await?;
                Ok(None)
            }
        }
    }

    /// `worker` is done with `job` (stored, or not to be done): it is no longer pending.
    pub async fn finish(&self, worker: &str, job: &ReviewJob) -> Result<(), BoardError> {
        let _: i64 = Script::new(FINISH)
            .key(self.working_key(worker))
            .key(self.game_key(&job.game))
            .key(self.owner_key(job.owner.as_deref()))
            .arg(job.element())
            .arg(&job.game)
            .invoke_async(&mut self.redis.conn())
            .await?;
        Ok(())
    }

    /// `worker` could not finish `job` for now (its store failed): the job goes to the end
    /// of the line.
    pub async fn retry(&self, worker: &str, job: &ReviewJob) -> Result<(), BoardError> {
        let _: i64 = Script::new(RETRY)
            .key(self.working_key(worker))
            .key(self.key("jobs"))
            .arg(job.element())
            .invoke_async(&mut self.redis.conn())
            .await?;
        Ok(())
    }

    /// `worker` is alive for [`HEARTBEAT_TTL`] more.
    pub async fn beat(&self, worker: &str) -> Result<(), BoardError> {
        self.beat_for(worker, HEARTBEAT_TTL).await
    }

    async fn beat_for(&self, worker: &str, ttl: Duration) -> Result<(), BoardError> {
        let _: i64 = Script::new(BEAT)
            .key(self.key("workers"))
            .arg(worker)
            .arg(ttl.as_millis() as i64)
            .invoke_async(&mut self.redis.conn())
            .await?;
        Ok(())
    }

    /// Puts the unfinished jobs of every worker whose heartbeat ran out back at the front
    /// of the line; returns how many.
    pub async fn reap(&self) -> Result<usize, BoardError> {
        let dead: Vec<String> =
            Script::new(DEAD).key(self.key("workers")).invoke_async(&mut self.redis.conn()).await?;
        let mut n = 0;
        for worker in dead {
            let moved = self.requeue(&worker).await?;
            if moved > 0 {
                tracing::warn!("worker {worker} stopped answering: {moved} reviews queued again");
            }
            n += moved;
        }
        Ok(n)
    }

    /// `worker` stops: its unfinished jobs go back to the front of the line.
    pub async fn leave(&self, worker: &str) -> Result<usize, BoardError> {
        self.requeue(worker).await
    }

    async fn requeue(&self, worker: &str) -> Result<usize, BoardError> {
        let n: usize = Script::new(REQUEUE)
            .key(self.working_key(worker))
            .key(self.key("jobs"))
            .key(self.key("workers"))
            .arg(worker)
            .invoke_async(&mut self.redis.conn())
            .await?;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    //! On the real Redis when CANNONADE_TEST_REDIS is set (CI sets it), each test in a
    //! namespace of its own.
    use super::*;

    async fn board() -> Option<ReviewBoard> {
        let Ok(url) = std::env::var("CANNONADE_TEST_REDIS") else {
            eprintln!("CANNONADE_TEST_REDIS not set: skipped");
            return None;
        };
        let ns = format!("test-{}", crate::ids::short_id().ok()?);
        Some(ReviewBoard::connect(&url, &ns).await.expect("redis"))
    }

    #[tokio::test]
    async fn a_game_is_offered_once_and_says_its_place_in_line() {
        let Some(b) = board().await else { return };
        assert_eq!(b.offer("g1", None, 2).await.unwrap(), Ok(Added::New(place(1))));
        assert_eq!(b.offer("g2", Some("u"), 2).await.unwrap(), Ok(Added::New(place(2))));
        assert_eq!(b.offer("g2", Some("v"), 2).await.unwrap(), Ok(Added::Already(place(2))));
        assert_eq!(b.state("g2").await.unwrap(), Some(Pending::Queued { position: 2 }));
        assert_eq!(b.state("nope").await.unwrap(), None);
        assert_eq!(b.waiting().await.unwrap(), 2);
        // First come, first taken; a taken job is running, the next moves up.
        let mut conn = b.taker().await.unwrap();
        let job = b.take(&mut conn, "w", Duration::from_secs(1)).await.unwrap().unwrap();
        assert_eq!(job, ReviewJob { game: "g1".into(), owner: None });
        assert_eq!(b.state("g1").await.unwrap(), Some(Pending::Running));
        assert_eq!(b.state("g2").await.unwrap(), Some(Pending::Queued { position: 1 }));
        b.finish("w", &job).await.unwrap();
        assert_eq!(b.state("g1").await.unwrap(), None);
        // Finished, the game may be offered again (the worker checks the store first).
        assert!(matches!(b.offer("g1", None, 2).await.unwrap(), Ok(Added::New(_))));
    }

    #[tokio::test]
    async fn a_user_has_a_bounded_number_of_pending_reviews() {
        let Some(b) = board().await else { return };
        b.offer("a", Some("u"), 2).await.unwrap().unwrap();
        b.offer("b", Some("u"), 2).await.unwrap().unwrap();
        assert_eq!(b.offer("c", Some("u"), 2).await.unwrap(), Err(TooMany { limit: 2 }));
        // Others, and the server, are not bounded by u's.
        assert!(b.offer("c", Some("w"), 2).await.unwrap().is_ok());
        assert!(b.offer("d", None, 2).await.unwrap().is_ok());
        // A finished job frees its owner's place.
        let mut conn = b.taker().await.unwrap();
        let job = b.take(&mut conn, "w1", Duration::from_secs(1)).await.unwrap().unwrap();
        assert_eq!(job.owner.as_deref(), Some("u"));
        b.finish("w1", &job).await.unwrap();
        assert!(b.offer("e", Some("u"), 2).await.unwrap().is_ok());
    }

    #[tokio::test]
    async fn a_dead_workers_jobs_go_back_to_the_front_of_the_line() {
        let Some(b) = board().await else { return };
        for g in ["a", "b", "c"] {
            b.offer(g, None, 9).await.unwrap().unwrap();
        }
        let mut conn = b.taker().await.unwrap();
        // A worker that took a job and then went quiet: its heartbeat has run out.
        b.beat_for("dead", Duration::ZERO).await.unwrap();
        let taken = b.take(&mut conn, "dead", Duration::from_secs(1)).await.unwrap().unwrap();
        assert_eq!(taken.game, "a");
        // A live one is left alone.
        b.beat("alive").await.unwrap();
        let kept = b.take(&mut conn, "alive", Duration::from_secs(1)).await.unwrap().unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        assert_eq!(b.reap().await.unwrap(), 1);
        assert_eq!(b.state("a").await.unwrap(), Some(Pending::Queued { position: 1 }));
        assert_eq!(b.state(&kept.game).await.unwrap(), Some(Pending::Running));
        // The reaped job is the next one taken; reaping again finds nothing.
        assert_eq!(b.reap().await.unwrap(), 0);
        let next = b.take(&mut conn, "alive", Duration::from_secs(1)).await.unwrap().unwrap();
        assert_eq!(next, taken);
        // A worker that stops hands its jobs back itself.
        assert_eq!(b.leave("alive").await.unwrap(), 2);
        assert_eq!(b.waiting().await.unwrap(), 3);
    }

    #[tokio::test]
    async fn a_job_whose_store_failed_waits_behind_the_others() {
        let Some(b) = board().await else { return };
        b.offer("a", None, 9).await.unwrap().unwrap();
        b.offer("b", None, 9).await.unwrap().unwrap();
        let mut conn = b.taker().await.unwrap();
        let a = b.take(&mut conn, "w", Duration::from_secs(1)).await.unwrap().unwrap();
        b.retry("w", &a).await.unwrap();
        assert_eq!(b.state("a").await.unwrap(), Some(Pending::Queued { position: 2 }));
        let next = b.take(&mut conn, "w", Duration::from_secs(1)).await.unwrap().unwrap();
        assert_eq!(next.game, "b");
    }

    #[tokio::test]
    async fn an_empty_line_answers_none_after_the_wait() {
        let Some(b) = board().await else { return };
        let mut conn = b.taker().await.unwrap();
        assert_eq!(b.take(&mut conn, "w", Duration::from_millis(10)).await.unwrap(), None);
    }
}
