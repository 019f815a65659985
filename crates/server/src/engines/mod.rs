//! The engine service: a bounded pool of long-lived engines that every search of the server
//! goes through. AI moves and background work (reviews, analysis) are jobs in a queue that is
//! fair across games (round robin by game within a priority) and serves AI moves first; at
//! most `threads` searches run at once, each on a thread of its own, so a crowd playing the
//! engine can never take the CPU the sockets need. Each engine keeps its transposition table
//! from search to search, and a free engine takes the next job of the game it served last
//! when that game waits at the front priority among the games this round serves (as many
//! as there are engines), so a game's searches meet their own table entries without
//! starving the others.
//!
//! Every search runs on one thread ([`SEARCH_THREADS`]): the pool's engines already use the
//! cores but the sockets', so a Lazy SMP search's helpers would take cores from the other
//! searches or from the sockets, and one thread per search serves more games at once for
//! the same cores. `docs/server.md` ("The engine service") gives the figures.

use cannonade_engine::{Engine, Level, Limits};
use cannonade_games::{AnyMove, AnyRecord};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;
use tokio::sync::oneshot;

/// How urgent a job is: a lower value runs first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// An AI's move in a game being played.
    AiMove = 0,
    /// A slice of the analysis board's search: someone watches it, nobody's clock runs.
    Analysis = 1,
    /// Work nobody waits for at the board (a game review).
    Background = 2,
}

const PRIORITIES: usize = 3;

impl Priority {
    /// Every priority, most urgent first.
    pub const ALL: [Priority; PRIORITIES] =
        [Priority::AiMove, Priority::Analysis, Priority::Background];

    /// The priority's name in `/metrics`.
    pub const fn name(self) -> &'static str {
        match self {
            Priority::AiMove => "ai_move",
            Priority::Analysis => "analysis",
            Priority::Background => "background",
        }
    }
}

/// Work for an engine.
type Work = Box<dyn FnOnce(&mut Engine) + Send>;

struct Job {
    work: Work,
    queued: Instant,
}

/// The jobs of one priority: a queue per game and the games in turn.
#[derive(Default)]
struct Lane {
    turn: VecDeque<String>,
    jobs: HashMap<String, VecDeque<Job>>,
}

impl Lane {
    fn push(&mut self, game: &str, job: Job) {
        let queue = self.jobs.entry(game.to_string()).or_default();
        if queue.is_empty() {
            self.turn.push_back(game.to_string());
        }
        queue.push_back(job);
    }

    /// The next job: of `preferred`'s game if it is among the next `window` games in turn
    /// (those the service's engines serve in this round anyway), else of the game whose turn
    /// it is. A wider preference would starve the others: a game that queues its next job
    /// as soon as its last one ends (an analysis, slice after slice) would be found waiting
    /// by the engine that just served it, every time.
    fn pop(&mut self, preferred: Option<&str>, window: usize) -> Option<(String, Job)> {
        let near = preferred.and_then(|g| self.turn.iter().take(window).position(|t| t == g));
        let game = match near {
            Some(at) => self.turn.remove(at)?,
            None => self.turn.pop_front()?,
        };
        let queue = self.jobs.get_mut(&game)?;
        let job = queue.pop_front()?;
        if queue.is_empty() {
            self.jobs.remove(&game);
        } else {
            self.turn.push_back(game.clone());
        }
        Some((game, job))
    }

    fn len(&self) -> usize {
        self.jobs.values().map(VecDeque::len).sum()
    }

    /// Jobs that run before a job of `game` pushed now, turn by turn: `game`'s own queued
    /// jobs, and from every other game as many as it has turns before this job's.
    fn ahead_of(&self, game: &str) -> usize {
        let own = self.jobs.get(game).map_or(0, VecDeque::len);
        let mut before = true;
        let mut ahead = own;
        for g in &self.turn {
            if g == game {
                before = false;
                continue;
            }
            let jobs = self.jobs.get(g).map_or(0, VecDeque::len);
            ahead += jobs.min(own + before as usize);
        }
        ahead
    }
}

#[derive(Default)]
struct Queue {
    levels: [Lane; PRIORITIES],
    closed: bool,
}

/// Counters of the service, for `/metrics`.
#[derive(Debug, Default)]
pub struct EngineStats {
    /// Jobs queued, per priority, now.
    pub queued: [AtomicU64; PRIORITIES],
    /// Searches running now.
    pub running: AtomicU64,
    /// Jobs done.
    pub done: AtomicU64,
    /// Total time jobs waited in the queue, microseconds, per priority.
    pub wait_us: [AtomicU64; PRIORITIES],
    /// Jobs that waited, per priority.
    pub waited: [AtomicU64; PRIORITIES],
}

struct Inner {
    queue: Mutex<Queue>,
    ready: Condvar,
    stats: EngineStats,
    /// The engines: a round serves this many games.
    threads: usize,
}

/// The handle to the pool (cheap to clone).
#[derive(Clone)]
pub struct Engines {
    inner: Arc<Inner>,
    threads: usize,
}

impl std::fmt::Debug for Engines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Engines({} threads)", self.threads)
    }
}

/// Threads of one search on the server. More would pay off only on an idle pool, and only for
/// full-strength searches: the levels below the top search on one thread whatever this says.
pub const SEARCH_THREADS: usize = 1;

/// The default number of engine threads: the cores but one (the sockets'), at least one.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1)).max(1)
}

impl Engines {
    /// A pool of `threads` engines (at least one), each on its own thread.
    pub fn start(threads: usize) -> Engines {
        let threads = threads.max(1);
        let inner = Arc::new(Inner {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
            stats: EngineStats::default(),
            threads,
        });
        for i in 0..threads {
            let inner = inner.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("engine-{i}"))
                .spawn(move || worker(&inner));
            if let Err(e) = spawned {
                tracing::error!("could not start engine thread {i}: {e}");
            }
        }
        Engines { inner, threads }
    }

    /// The number of searches that may run at once.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The service's counters.
    pub fn stats(&self) -> &EngineStats {
        &self.inner.stats
    }

    /// Queues `work` for `game` and returns its result once an engine ran it (`None` when
    /// the service stopped first).
    pub async fn run<T: Send + 'static>(
        &self,
        game: &str,
        priority: Priority,
        work: impl FnOnce(&mut Engine) -> T + Send + 'static,
    ) -> Option<T> {
        let (answer, _) = self.submit(game, priority, work)?;
        answer.await.ok()
    }

    /// Queues `work` for `game`: the receiver of its result and how many jobs are ahead of
    /// it (every more urgent job queued now and, at its priority, the jobs that come before
    /// it turn by turn); `None` when the service has stopped.
    pub fn submit<T: Send + 'static>(
        &self,
        game: &str,
        priority: Priority,
        work: impl FnOnce(&mut Engine) -> T + Send + 'static,
    ) -> Option<(oneshot::Receiver<T>, usize)> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            work: Box::new(move |engine| {
                let _ = reply.send(work(engine));
            }),
            queued: Instant::now(),
        };
        let ahead = {
            let mut q = self.inner.queue.lock().unwrap_or_else(|e| e.into_inner());
            if q.closed {
                return None;
            }
            let lane = &mut q.levels[priority as usize];
            let before = lane.ahead_of(game);
            lane.push(game, job);
            self.inner.stats.queued[priority as usize].fetch_add(1, Relaxed);
            q.levels[..priority as usize].iter().map(Lane::len).sum::<usize>() + before
        };
        self.inner.ready.notify_one();
        Some((answer, ahead))
    }

    /// The engine's move at `level` in `record`'s position, within `limits`; `stop` ends
    /// the search early (the game ended meanwhile).
    pub async fn best_move(
        &self,
        game: &str,
        level: Level,
        record: AnyRecord,
        limits: Limits,
        stop: Arc<AtomicBool>,
    ) -> Option<AnyMove> {
        self.run(game, Priority::AiMove, move |engine| {
            if stop.load(Relaxed) {
                return None;
            }
            engine.set_level(level);
            engine.set_lines(1);
            engine.search(&record, &limits, &stop, |_| {}).best
        })
        .await
        .flatten()
    }

    /// Jobs waiting at `priority`.
    pub fn queued(&self, priority: Priority) -> usize {
        let q = self.inner.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.levels[priority as usize].len()
    }

    /// Stops the workers once the queue is empty; jobs queued later get `None`.
    pub fn close(&self) {
        let mut q = self.inner.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.closed = true;
        drop(q);
        self.inner.ready.notify_all();
    }
}

/// An engine of the pool: its searches on [`SEARCH_THREADS`] threads (no job changes that).
fn service_engine() -> Engine {
    let mut engine = Engine::new();
    engine.set_threads(SEARCH_THREADS);
    engine
}

/// One engine thread: takes the next job, runs it, and again.
fn worker(inner: &Inner) {
    let mut engine = service_engine();
    let mut last_game: Option<String> = None;
    loop {
        let (game, job, priority) = {
            let mut q = inner.queue.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                let found = (0..PRIORITIES).find_map(|p| {
                    q.levels[p].pop(last_game.as_deref(), inner.threads).map(|(g, j)| (g, j, p))
                });
                if let Some(found) = found {
                    break found;
                }
                if q.closed {
                    return;
                }
                q = inner.ready.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        let stats = &inner.stats;
        stats.queued[priority].fetch_sub(1, Relaxed);
        stats.wait_us[priority].fetch_add(job.queued.elapsed().as_micros() as u64, Relaxed);
        stats.waited[priority].fetch_add(1, Relaxed);
        stats.running.fetch_add(1, Relaxed);
        // A panic in a search must not take the engine thread with it.
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (job.work)(&mut engine)));
        if outcome.is_err() {
            tracing::error!(game = %game, "an engine search panicked; its engine is replaced");
            engine = service_engine();
        }
        stats.running.fetch_sub(1, Relaxed);
        stats.done.fetch_add(1, Relaxed);
        last_game = Some(game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job() -> Job {
        Job { work: Box::new(|_| {}), queued: Instant::now() }
    }

    #[test]
    fn games_take_turns_within_a_priority() {
        let mut level = Lane::default();
        for _ in 0..3 {
            level.push("a", job());
        }
        level.push("b", job());
        level.push("c", job());
        let order: Vec<String> =
            std::iter::from_fn(|| level.pop(None, 1).map(|(g, _)| g)).collect();
        assert_eq!(order, ["a", "b", "c", "a", "a"]);
    }

    /// Two engines serve the next two games of a round: the one that served `b` takes `b`'s
    /// next job (its table holds `b`'s positions) though `a` is first in turn.
    #[test]
    fn an_engine_prefers_the_game_it_served_within_the_round() {
        let mut level = Lane::default();
        level.push("a", job());
        level.push("b", job());
        assert_eq!(level.pop(Some("b"), 2).map(|(g, _)| g).as_deref(), Some("b"));
        assert_eq!(level.pop(Some("b"), 2).map(|(g, _)| g).as_deref(), Some("a"));
        assert!(level.pop(Some("b"), 2).is_none());
    }

    /// A game that queues its next job as soon as its last one ends (an analysis, slice
    /// after slice) does not keep its engine from the game whose turn it is.
    #[test]
    fn the_game_just_served_does_not_starve_the_others() {
        let mut level = Lane::default();
        level.push("new", job());
        let mut order = Vec::new();
        for _ in 0..3 {
            // The analysis re-queued before the one engine looks again.
            level.push("analysis", job());
            order.push(level.pop(Some("analysis"), 1).map(|(g, _)| g).unwrap());
        }
        assert_eq!(order, ["new", "analysis", "analysis"]);
    }

    #[tokio::test]
    async fn ai_moves_run_before_background_work() {
        let engines = Engines::start(1);
        // Hold the one engine while both jobs queue.
        let (hold, release) = std::sync::mpsc::channel::<()>();
        let e0 = engines.clone();
        let blocker = tokio::spawn(async move {
            e0.run("x", Priority::AiMove, move |_| {
                let _ = release.recv();
            })
            .await
        });
        let pause = || tokio::time::sleep(std::time::Duration::from_millis(50));
        pause().await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let (o1, o2) = (order.clone(), order.clone());
        let (e1, e2) = (engines.clone(), engines.clone());
        let background = tokio::spawn(async move {
            e1.run("g", Priority::Background, move |_| o1.lock().unwrap().push("review")).await
        });
        pause().await;
        let ai = tokio::spawn(async move {
            e2.run("h", Priority::AiMove, move |_| o2.lock().unwrap().push("move")).await
        });
        pause().await;
        assert_eq!(engines.queued(Priority::Background), 1);
        assert_eq!(engines.queued(Priority::AiMove), 1);
        hold.send(()).unwrap();
        blocker.await.unwrap();
        ai.await.unwrap();
        background.await.unwrap();
        assert_eq!(*order.lock().unwrap(), ["move", "review"]);
        engines.close();
    }

    /// A job's place in line counts every more urgent job and, at its own priority, one
    /// job of each game ahead of it in turn; reviews behind it do not count.
    #[tokio::test]
    async fn a_submitted_job_knows_its_place_in_line() {
        let engines = Engines::start(1);
        let (hold, release) = std::sync::mpsc::channel::<()>();
        let (_, running) = engines
            .submit("x", Priority::AiMove, move |_| {
                let _ = release.recv();
            })
            .unwrap();
        // Let the one engine take the blocker, so it is no longer in line.
        while engines.stats().running.load(Relaxed) == 0 {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        assert_eq!(running, 0);
        let place = |g: &str, p| engines.submit(g, p, |_| ()).unwrap().1;
        assert_eq!(place("r", Priority::Background), 0);
        assert_eq!(place("a", Priority::Analysis), 0);
        assert_eq!(place("b", Priority::Analysis), 1);
        assert_eq!(place("m", Priority::AiMove), 0);
        // Two analysis games and the AI move are ahead; the second job of `a` waits for a
        // turn of every game (`a`, `b`, `c`) and the move.
        assert_eq!(place("c", Priority::Analysis), 3);
        assert_eq!(place("a", Priority::Analysis), 4);
        hold.send(()).unwrap();
        engines.close();
    }

    #[tokio::test]
    async fn the_engine_answers_a_move() {
        use cannonade_games::{GameKind, GameSpec};
        let engines = Engines::start(1);
        let record = AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi));
        let limits = Limits { depth: Some(2), ..Limits::default() };
        let mv = engines
            .best_move("g", Level::MAX, record.clone(), limits, Arc::new(AtomicBool::new(false)))
            .await;
        assert!(mv.is_some_and(|m| record.position().legal_moves().contains(&m)));
        engines.close();
    }
}
