//! The engine service: a bounded pool of long-lived engines that every search of the server
//! goes through. At most `threads` searches run at once, each on a thread of its own, so a
//! crowd playing the engine can never take the CPU the sockets need. AI moves come first,
//! the earliest deadline first, and under overload share the time before their deadlines
//! (`engines/deadlines.rs`: a move is answered in its level's time, searched less when
//! many wait); then the analysis board's slices, then background work (reviews), each fair
//! across games (`engines/lane.rs`). Each engine keeps its transposition table from search
//! to search, and a free engine takes the next background job of the game it served last
//! when that game's turn is near (among as many games as there are engines), so a game's
//! searches meet their own table entries without starving the others.
//!
//! Every search runs on one thread ([`SEARCH_THREADS`]): the pool's engines already use the
//! cores but the sockets', so a Lazy SMP search's helpers would take cores from the other
//! searches or from the sockets, and one thread per search serves more games at once for
//! the same cores. `docs/server.md` ("The engine service") gives the figures.

mod deadlines;
mod lane;

use cannonade_engine::params::XIANGQI_NODE_RATE;
use cannonade_engine::{Engine, Level, Limits};
use cannonade_games::{AnyMove, AnyRecord};
use deadlines::{Deadlines, Running, share_end};
use lane::Lane;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
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
/// The lanes of the priorities after [`Priority::AiMove`] (whose moves wait by deadline).
const LANES: usize = PRIORITIES - 1;

/// The lane of the jobs at `priority` (an index into [`Priority::ALL`]); `None` for AI
/// moves, which wait by deadline instead.
fn lane_of(priority: usize) -> Option<usize> {
    priority.checked_sub(1)
}

/// The priority (an index into [`Priority::ALL`]) whose jobs wait in `lane`: the inverse of
/// [`lane_of`].
fn priority_of(lane: usize) -> usize {
    lane + 1
}

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

/// An AI move to search: the engine's move at `level` in `record`'s position within
/// `limits`, for `game`; `stop` calls the search off (the game ended meanwhile).
pub struct AiMoveAsk {
    /// The game's id (the service is fair across games).
    pub game: String,
    /// The AI's level.
    pub level: Level,
    /// The game so far.
    pub record: AnyRecord,
    /// The search's limits, before the level restricts them.
    pub limits: Limits,
    /// Set to stop the search; it then answers from its last completed depth.
    pub stop: Arc<AtomicBool>,
}

/// Work for an engine.
type Work = Box<dyn FnOnce(&mut Engine) + Send>;

struct Job {
    work: Work,
    queued: Instant,
}

/// An AI move's job: its game and the flag that stops its search.
struct MoveJob {
    game: String,
    job: Job,
    cut: Option<Arc<AtomicBool>>,
}

#[derive(Default)]
struct Queue {
    /// AI moves waiting.
    moves: Deadlines<MoveJob>,
    /// Analysis slices and background work waiting, in priority order (AI moves wait in
    /// `moves`).
    lanes: [Lane; LANES],
    /// AI moves being searched.
    running: Vec<Running>,
    /// The number the next AI search gets.
    next_id: u64,
    closed: bool,
}

impl Queue {
    /// Jobs waiting at `priority`.
    fn waiting(&self, priority: usize) -> usize {
        match lane_of(priority) {
            None => self.moves.len(),
            Some(lane) => self.lanes[lane].len(),
        }
    }

    /// The next job for an engine that last served `last_game`: an AI move (its search
    /// registered with the referee, with its end), else the first of the lanes in order.
    fn next(&mut self, last_game: Option<&str>, threads: usize) -> Option<Taken> {
        if let Some((deadline, m)) = self.moves.pop() {
            let now = Instant::now();
            let sharing = self.moves.len() + self.running.len() + 1;
            self.next_id += 1;
            let id = self.next_id;
            let end = share_end(now, now, deadline, sharing, threads);
            self.running.push(Running { id, started: now, deadline, end, cut: m.cut });
            return Some(Taken { game: m.game, job: m.job, priority: 0, search: Some(id) });
        }
        self.lanes.iter_mut().enumerate().find_map(|(lane, jobs)| {
            let (game, job) = jobs.pop(last_game, threads)?;
            Some(Taken { game, job, priority: priority_of(lane), search: None })
        })
    }

    /// Moves the ends of the searches running earlier, if more moves share the engines now.
    fn reshare(&mut self, threads: usize) {
        let now = Instant::now();
        let sharing = self.moves.len() + self.running.len();
        for r in &mut self.running {
            r.end = r.end.min(share_end(now, r.started, r.deadline, sharing, threads));
        }
    }
}

/// A job an engine took.
struct Taken {
    game: String,
    job: Job,
    priority: usize,
    /// The AI search's number with the referee.
    search: Option<u64>,
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
    /// AI searches stopped before their own limits to keep their deadline or another's.
    pub cut: AtomicU64,
    /// AI searches that ended after their deadline.
    pub late: AtomicU64,
}

struct Inner {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// Wakes the referee: a search's end moved or a search started or ended.
    referee: Condvar,
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
            referee: Condvar::new(),
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
        let referee = inner.clone();
        let spawned = std::thread::Builder::new()
            .name("engine-referee".into())
            .spawn(move || run_referee(&referee));
        if let Err(e) = spawned {
            // Without it AI searches keep their own limits only.
            tracing::error!("could not start the engine referee: {e}");
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
    /// it turn by turn); `None` when the service has stopped. An AI move queued so is due
    /// at once and cannot be stopped ([`Engines::best_move`] gives moves their deadlines).
    pub fn submit<T: Send + 'static>(
        &self,
        game: &str,
        priority: Priority,
        work: impl FnOnce(&mut Engine) -> T + Send + 'static,
    ) -> Option<(oneshot::Receiver<T>, usize)> {
        let Some(lane) = lane_of(priority as usize) else {
            return self.submit_move(game, Instant::now(), None, work);
        };
        let (job, answer) = job(work);
        let ahead = {
            let mut q = self.inner.queue.lock().unwrap_or_else(|e| e.into_inner());
            if q.closed {
                return None;
            }
            let lane = &mut q.lanes[lane];
            let before = lane.ahead_of(game);
            lane.push(game, job);
            self.inner.stats.queued[priority as usize].fetch_add(1, Relaxed);
            (0..priority as usize).map(|p| q.waiting(p)).sum::<usize>() + before
        };
        self.inner.ready.notify_one();
        Some((answer, ahead))
    }

    /// Queues an AI move of `game` due at `deadline`, whose search `cut` stops (at the end
    /// the service gives it, see [`deadlines`]); the receiver of its result and the moves
    /// ahead of it, `None` when the service has stopped.
    fn submit_move<T: Send + 'static>(
        &self,
        game: &str,
        deadline: Instant,
        cut: Option<Arc<AtomicBool>>,
        work: impl FnOnce(&mut Engine) -> T + Send + 'static,
    ) -> Option<(oneshot::Receiver<T>, usize)> {
        let (job, answer) = job(work);
        let ahead = {
            let mut q = self.inner.queue.lock().unwrap_or_else(|e| e.into_inner());
            if q.closed {
                return None;
            }
            let ahead = q.moves.ahead_of(deadline);
            q.moves.push(deadline, MoveJob { game: game.to_string(), job, cut });
            self.inner.stats.queued[Priority::AiMove as usize].fetch_add(1, Relaxed);
            q.reshare(self.threads);
            ahead
        };
        self.inner.ready.notify_one();
        self.inner.referee.notify_one();
        Some((answer, ahead))
    }

    /// The engine's move for `ask`, due its level's share of `limits.time` from now (the
    /// service may stop the search sooner when many moves wait; it then answers from its last
    /// completed depth); `ask.stop` ends the search early (the game ended meanwhile: the
    /// answer is then no one's).
    pub async fn best_move(&self, ask: AiMoveAsk) -> Option<AnyMove> {
        let AiMoveAsk { game, level, record, limits, stop } = ask;
        // The level's time is the same whatever the game's speed (only nodes scale, and
        // only the time is read here).
        let budget = level.restrict(&limits, XIANGQI_NODE_RATE).time.unwrap_or(UNTIMED_BUDGET);
        let deadline = Instant::now() + budget;
        let cut = stop.clone();
        // A search stopped before it starts still answers (at once): the flag is the
        // service's cut as well as the game's call-off, and a cut move must be played.
        let (answer, _) = self.submit_move(&game, deadline, Some(cut), move |engine| {
            engine.set_level(level);
            engine.set_lines(1);
            engine.search(&record, &limits, &stop, |_| {}).best
        })?;
        answer.await.ok().flatten()
    }

    /// Jobs waiting at `priority`.
    pub fn queued(&self, priority: Priority) -> usize {
        let q = self.inner.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.waiting(priority as usize)
    }

    /// Stops the workers once the queue is empty; jobs queued later get `None`.
    pub fn close(&self) {
        let mut q = self.inner.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.closed = true;
        drop(q);
        self.inner.ready.notify_all();
        self.inner.referee.notify_all();
    }
}

/// The time an AI move without a time limit is due in (the server always sets one).
const UNTIMED_BUDGET: Duration = Duration::from_secs(60);

/// `work` as a job, and the receiver of its result.
fn job<T: Send + 'static>(
    work: impl FnOnce(&mut Engine) -> T + Send + 'static,
) -> (Job, oneshot::Receiver<T>) {
    let (reply, answer) = oneshot::channel();
    let job = Job {
        work: Box::new(move |engine| {
            let _ = reply.send(work(engine));
        }),
        queued: Instant::now(),
    };
    (job, answer)
}

/// The referee: stops each AI search at its end, sleeping until the next end.
fn run_referee(inner: &Inner) {
    let mut q = inner.queue.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if q.closed && q.running.is_empty() && q.moves.len() == 0 {
            return;
        }
        let now = Instant::now();
        let mut next: Option<Instant> = None;
        for r in &q.running {
            let Some(cut) = &r.cut else { continue };
            if cut.load(Relaxed) {
                continue;
            }
            if r.end <= now {
                // Counted first: whoever sees the search end sees it counted.
                inner.stats.cut.fetch_add(1, Relaxed);
                cut.store(true, Relaxed);
            } else {
                next = Some(next.map_or(r.end, |n| n.min(r.end)));
            }
        }
        q = match next {
            Some(end) => {
                let wait = end.saturating_duration_since(now);
                inner.referee.wait_timeout(q, wait).unwrap_or_else(|e| e.into_inner()).0
            }
            None => inner.referee.wait(q).unwrap_or_else(|e| e.into_inner()),
        };
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
        let Taken { game, job, priority, search } = {
            let mut q = inner.queue.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(found) = q.next(last_game.as_deref(), inner.threads) {
                    break found;
                }
                if q.closed {
                    return;
                }
                q = inner.ready.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        if search.is_some() {
            inner.referee.notify_one();
        }
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
        if let Some(id) = search {
            let mut q = inner.queue.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(at) = q.running.iter().position(|r| r.id == id) {
                let r = q.running.swap_remove(at);
                if Instant::now() > r.deadline {
                    stats.late.fetch_add(1, Relaxed);
                }
            }
            drop(q);
            inner.referee.notify_one();
        }
        stats.running.fetch_sub(1, Relaxed);
        stats.done.fetch_add(1, Relaxed);
        last_game = Some(game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Holds the one engine of `engines` until the sender is dropped or sent to.
    async fn hold(engines: &Engines) -> std::sync::mpsc::Sender<()> {
        let (hold, release) = std::sync::mpsc::channel::<()>();
        let _ = engines.submit("hold", Priority::Background, move |_| {
            let _ = release.recv();
        });
        while engines.stats().running.load(Relaxed) == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        hold
    }

    /// A move whose work waits until its flag is set (by the service's cut, or 20 s),
    /// recording its name; its answer says whether the flag was set, and the flag.
    fn cut_move(
        engines: &Engines,
        name: &'static str,
        deadline: Instant,
        order: &Arc<Mutex<Vec<&'static str>>>,
    ) -> (oneshot::Receiver<bool>, Arc<AtomicBool>) {
        let cut = Arc::new(AtomicBool::new(false));
        let (flag, order) = (cut.clone(), order.clone());
        let (answer, _) = engines
            .submit_move(name, deadline, Some(cut.clone()), move |_| {
                order.lock().unwrap().push(name);
                let give_up = Instant::now() + Duration::from_secs(20);
                while !flag.load(Relaxed) && Instant::now() < give_up {
                    std::thread::sleep(Duration::from_millis(1));
                }
                flag.load(Relaxed)
            })
            .unwrap();
        (answer, cut)
    }

    /// The start and end of the first AI search running, once one runs.
    async fn first_running(engines: &Engines) -> (Instant, Instant) {
        loop {
            let first = {
                let q = engines.inner.queue.lock().unwrap();
                q.running.first().map(|r| (r.started, r.end))
            };
            if let Some(first) = first {
                return first;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    #[tokio::test]
    async fn ai_moves_are_searched_earliest_deadline_first() {
        let engines = Engines::start(1);
        let hold = hold(&engines).await;
        let now = Instant::now();
        let order = Arc::new(Mutex::new(Vec::new()));
        let ms = Duration::from_millis;
        let answers = [
            cut_move(&engines, "late", now + ms(300), &order),
            cut_move(&engines, "soon", now + ms(100), &order),
            cut_move(&engines, "middle", now + ms(200), &order),
        ];
        assert_eq!(engines.queued(Priority::AiMove), 3);
        hold.send(()).unwrap();
        for (a, _) in answers {
            assert!(a.await.unwrap(), "every search ends by the referee's cut");
        }
        assert_eq!(*order.lock().unwrap(), ["soon", "middle", "late"]);
        assert_eq!(engines.stats().cut.load(Relaxed), 3);
        engines.close();
    }

    /// Four moves due together on one engine: the first taken may search a quarter of the
    /// time left, and a search running alone is shortened when more moves arrive. (The
    /// deadlines are far, so that a slow machine reads each search while it runs; the test
    /// then stops the searches itself.)
    #[tokio::test]
    async fn moves_waiting_share_the_time_before_their_deadlines() {
        let engines = Engines::start(1);
        let hold = hold(&engines).await;
        let deadline = Instant::now() + Duration::from_secs(40);
        let order = Arc::new(Mutex::new(Vec::new()));
        let answers: Vec<_> = ["a", "b", "c", "d"]
            .into_iter()
            .map(|name| cut_move(&engines, name, deadline, &order))
            .collect();
        hold.send(()).unwrap();
        let (started, end) = first_running(&engines).await;
        assert!(end <= started + (deadline - started) / 4 + Duration::from_millis(1));
        assert!(end > started + Duration::from_secs(5), "a quarter, not less");
        for (_, flag) in &answers {
            flag.store(true, Relaxed);
        }
        for (a, _) in answers {
            assert!(a.await.unwrap());
        }
        // The last search answered before its engine let go of it.
        while !engines.inner.queue.lock().unwrap().running.is_empty() {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        // Alone, a move may search to its deadline; a second move halves what is left.
        let far = Instant::now() + Duration::from_secs(30);
        let (alone, alone_flag) = cut_move(&engines, "alone", far, &order);
        let (_, before) = first_running(&engines).await;
        assert_eq!(before, far);
        let (other, other_flag) = cut_move(&engines, "other", far, &order);
        let after = engines.inner.queue.lock().unwrap().running[0].end;
        assert!(after < far - Duration::from_secs(10), "the running search shares its time");
        // Not waiting 15 s for the referee: the test stops both itself.
        alone_flag.store(true, Relaxed);
        other_flag.store(true, Relaxed);
        assert!(alone.await.unwrap() && other.await.unwrap());
        engines.close();
    }

    /// A move asked after its game was called off (the flag already set) still answers, at
    /// once: the flag is also the service's cut, and a cut move must be played.
    #[tokio::test]
    async fn a_move_stopped_before_its_search_still_answers() {
        use cannonade_games::{GameKind, GameSpec};
        let engines = Engines::start(1);
        let record = AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi));
        let limits = Limits { time: Some(Duration::from_secs(30)), ..Limits::default() };
        let stop = Arc::new(AtomicBool::new(true));
        let ask =
            AiMoveAsk { game: "g".into(), level: Level::MAX, record: record.clone(), limits, stop };
        let mv = engines.best_move(ask).await;
        assert!(mv.is_some_and(|m| record.position().legal_moves().contains(&m)));
        engines.close();
    }

    #[tokio::test]
    async fn the_engine_answers_a_move() {
        use cannonade_games::{GameKind, GameSpec};
        let engines = Engines::start(1);
        let record = AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi));
        let limits = Limits { depth: Some(2), ..Limits::default() };
        let stop = Arc::new(AtomicBool::new(false));
        let ask =
            AiMoveAsk { game: "g".into(), level: Level::MAX, record: record.clone(), limits, stop };
        let mv = engines.best_move(ask).await;
        assert!(mv.is_some_and(|m| record.position().legal_moves().contains(&m)));
        engines.close();
    }
}
