//! The AI jobs: without Redis, a job reads back as the search it describes; on the real
//! Redis when CANNONADE_TEST_REDIS is set (CI sets it), each test in a namespace of its own,
//! a worker's answer, and the ways of not getting one (no worker in time, a silent or garbled
//! one) each ending in the node's own search.
use super::*;
use cannonade_games::{GameKind, GameSpec};

/// A record of `kind` some moves in (a Banqi record's flips resolved, as a public game's).
fn record_of(kind: GameKind, moves: usize) -> AnyRecord {
    let mut record = AnyRecord::from_spec(&GameSpec::standard(kind));
    for _ in 0..moves {
        let Some(&mv) = record.position().legal_moves().first() else { break };
        record.play(mv).unwrap();
        if let Some((piece, _)) = record.position().chance_outcomes().first() {
            record.resolve_text(piece).unwrap();
        }
    }
    record
}

fn limits(ms: u64) -> Limits {
    Limits {
        depth: None,
        nodes: Some(200_000),
        time: Some(Duration::from_millis(ms)),
        soft_time: Some(Duration::from_millis(ms / 2)),
    }
}

#[test]
fn a_job_reads_back_as_the_search_it_describes_in_every_game() {
    for kind in GameKind::ALL {
        let record = record_of(kind, 7);
        let level = Level::new(7).unwrap();
        let job = AiJob::new("j", "g", level, &record, &limits(300), "reply");
        let text = serde_json::to_string(&job).unwrap();
        let back: AiJob = serde_json::from_str(&text).unwrap();
        let input = back.input().unwrap();
        assert_eq!(input.record.moves_text(), record.moves_text(), "{kind:?}");
        assert_eq!(input.record.spec(), record.spec(), "{kind:?}");
        assert_eq!(input.record.position().fen(), record.position().fen(), "{kind:?}");
        assert_eq!(input.level, level);
        assert_eq!(input.limits, limits(300));
    }
}

#[test]
fn a_job_this_build_cannot_read_is_refused_with_a_reason() {
    let record = record_of(GameKind::Xiangqi, 2);
    let mut job = AiJob::new("j", "g", Level::MAX, &record, &limits(100), "r");
    job.level = 0;
    assert!(job.input().is_err_and(|e| e.contains("level")));
    job.level = 5;
    job.pgn = "1. z9z9 *".into();
    assert!(job.input().is_err_and(|e| e.contains("record")));
}

#[test]
fn the_node_takes_over_with_the_time_left_never_less_than_a_floor() {
    let l = time_left(limits(1000), Duration::from_millis(600));
    assert_eq!((l.time, l.soft_time), (Some(Duration::from_millis(400)), Some(LEAST_TIME)));
    assert_eq!(l.nodes, Some(200_000));
    assert_eq!(time_left(Limits::default(), Duration::from_secs(1)), Limits::default());
}

async fn board() -> Option<AiBoard> {
    let Ok(url) = std::env::var("CANNONADE_TEST_REDIS") else {
        eprintln!("CANNONADE_TEST_REDIS not set: skipped");
        return None;
    };
    let ns = format!("test-{}", crate::ids::short_id().ok()?);
    Some(AiBoard::connect(&url, &ns).await.expect("redis"))
}

/// The searches `engines` finished, once `n` have (a job's answer is sent just before its
/// engine counts it done); what it counts after a second otherwise.
async fn done(engines: &Engines, n: u64) -> u64 {
    for _ in 0..100 {
        if engines.stats().done.load(Relaxed) >= n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    engines.stats().done.load(Relaxed)
}

/// A full-strength move of `game` in `record`'s position within `ms`, never called off.
fn ask(game: &str, record: &AnyRecord, ms: u64) -> AiMoveAsk {
    let stop = Arc::new(AtomicBool::new(false));
    AiMoveAsk {
        game: game.into(),
        level: Level::MAX,
        record: record.clone(),
        limits: limits(ms),
        stop,
    }
}

fn legal(record: &AnyRecord, mv: Option<AnyMove>) -> bool {
    mv.is_some_and(|m| record.position().legal_moves().contains(&m))
}

/// A worker serving `jobs` jobs on `engines`, waiting for them before they come (so it
/// takes each in milliseconds, well inside the pickup wait): the jobs it served.
async fn serve(
    b: &AiBoard,
    engines: &Engines,
    jobs: usize,
) -> tokio::task::JoinHandle<Vec<Option<AiJob>>> {
    let mut conn = b.taker().await.unwrap();
    let (b, engines) = (b.clone(), engines.clone());
    tokio::spawn(async move {
        let mut served = Vec::new();
        for _ in 0..jobs {
            served.push(b.serve_one(&mut conn, &engines, Duration::from_secs(5)).await.unwrap());
        }
        served
    })
}

#[tokio::test]
async fn a_worker_searches_the_move_and_the_node_plays_its_answer() {
    let Some(b) = board().await else { return };
    let asker = b.clone().asker().await.unwrap();
    let (node, worker) = (Engines::start(1), Engines::start(1));
    let serving = serve(&b, &worker, 2).await;
    for kind in [GameKind::Xiangqi, GameKind::Banqi] {
        let record = record_of(kind, 5);
        let mv = asker.best_move(&node, ask("g1", &record, 200)).await;
        assert!(legal(&record, mv), "{kind:?}: {mv:?}");
    }
    let games: Vec<_> = serving.await.unwrap().into_iter().map(|j| j.map(|j| j.game)).collect();
    assert_eq!(games, [Some("g1".to_string()), Some("g1".to_string())]);
    assert_eq!(asker.stats().answered.load(Relaxed), 2);
    assert_eq!(asker.stats().searched_here.load(Relaxed), 0);
    assert_eq!(node.stats().done.load(Relaxed), 0, "the node searched");
    assert_eq!(done(&worker, 2).await, 2);
    assert!(asker.waiting.lock().unwrap().is_empty(), "a waiter was left behind");
}

/// No worker takes the job in time: the node searches the move itself, and a worker that
/// comes later passes the given-up job over.
#[tokio::test]
async fn with_no_worker_the_node_searches_the_move_itself_once() {
    let Some(b) = board().await else { return };
    let asker = b.clone().asker().await.unwrap();
    let node = Engines::start(1);
    let record = record_of(GameKind::ChessBattle, 3);
    let started = Instant::now();
    let mv = asker.best_move(&node, ask("g", &record, 300)).await;
    assert!(legal(&record, mv));
    assert!(started.elapsed() >= PICKUP);
    assert_eq!(asker.stats().searched_here.load(Relaxed), 1);
    assert_eq!(done(&node, 1).await, 1);
    assert_eq!(b.waiting().await.unwrap(), 1);
    let late = Engines::start(1);
    let mut conn = b.taker().await.unwrap();
    assert!(b.serve_one(&mut conn, &late, Duration::from_secs(1)).await.unwrap().is_none());
    assert_eq!(late.stats().done.load(Relaxed), 0, "a given-up job was searched twice");
    assert_eq!(b.waiting().await.unwrap(), 0);
}

/// A worker that takes the job and answers nothing, or nonsense: the node searches the
/// move itself once the answer is overdue, or at once.
#[tokio::test]
async fn a_silent_or_garbled_worker_costs_the_node_its_wait_not_the_move() {
    let Some(b) = board().await else { return };
    let asker = b.clone().asker().await.unwrap();
    let node = Engines::start(1);
    let record = record_of(GameKind::Xiangqi, 2);
    for garbled in [None, Some("z9z9"), Some("")] {
        let fake = {
            let b = b.clone();
            tokio::spawn(async move {
                let mut conn = b.taker().await.unwrap();
                let job = b.take(&mut conn, Duration::from_secs(5)).await.unwrap().unwrap();
                if let Some(text) = garbled {
                    let mv = (!text.is_empty()).then(|| text.to_string());
                    let answer = AiAnswer { id: job.id.clone(), mv, ..AiAnswer::default() };
                    b.answer(&job, &answer).await.unwrap();
                }
            })
        };
        let started = Instant::now();
        let mv = asker.best_move(&node, ask("g", &record, 100)).await;
        assert!(legal(&record, mv), "{garbled:?}: {mv:?}");
        if garbled.is_none() {
            assert!(started.elapsed() >= Duration::from_millis(100) + GRACE);
        }
        fake.await.unwrap();
    }
    assert_eq!(asker.stats().searched_here.load(Relaxed), 3);
    assert_eq!(asker.stats().answered.load(Relaxed), 0);
}

#[test]
fn a_slice_job_reads_back_as_its_search_and_an_ai_job_has_no_lines() {
    let record = record_of(GameKind::Commander, 4);
    let job = AiJob::slice("j", "analysis:7", &record, 3, Duration::from_millis(250), "r");
    let back: AiJob = serde_json::from_str(&serde_json::to_string(&job).unwrap()).unwrap();
    assert_eq!(back.lines, Some(3));
    let input = back.input().unwrap();
    assert_eq!(input.level, Level::MAX);
    assert_eq!(input.limits.time, Some(Duration::from_millis(250)));
    assert_eq!(input.record.position().fen(), record.position().fen());
    // An AI move's job says nothing of lines, and reads so.
    let ai = AiJob::new("j", "g", Level::MAX, &record, &limits(100), "r");
    let text = serde_json::to_string(&ai).unwrap();
    assert!(!text.contains("lines"), "{text}");
    assert_eq!(serde_json::from_str::<AiJob>(&text).unwrap().lines, None);
}

/// A worker searches an analysis slice: its completed depths come to the node as they come,
/// each with every line asked for, then its end; the node's engines stay idle.
#[tokio::test]
async fn a_worker_searches_an_analysis_slice_and_streams_its_depths() {
    let Some(b) = board().await else { return };
    let asker = b.clone().asker().await.unwrap();
    let (node, worker) = (Engines::start(1), Engines::start(1));
    let serving = serve(&b, &worker, 1).await;
    let record = record_of(GameKind::Xiangqi, 2);
    let mut depths = Vec::new();
    let time = Duration::from_millis(300);
    let end = asker.slice("analysis:1", &record, 2, time, |d| depths.push(d)).await;
    let end = end.expect("the worker's slice");
    let job = serving.await.unwrap().remove(0).expect("a job");
    assert_eq!((job.game.as_str(), job.lines), ("analysis:1", Some(2)));
    assert!(!depths.is_empty());
    for w in depths.windows(2) {
        assert!(w[1].depth > w[0].depth, "{depths:?}");
    }
    let position = record.position();
    for d in &depths {
        assert_eq!(d.lines.len(), 2);
        for line in &d.lines {
            assert!(position.parse_move(&line.pv[0]).is_ok(), "{line:?}");
        }
    }
    assert!(end.took_ms > 0);
    assert_eq!(asker.stats().slices_answered.load(Relaxed), 1);
    assert_eq!(done(&worker, 1).await, 1);
    assert_eq!(node.stats().done.load(Relaxed), 0, "the node searched");
    assert!(asker.waiting.lock().unwrap().is_empty(), "a waiter was left behind");
}

/// No worker takes the slice: the node is told to search it itself after the pickup wait,
/// and a worker coming later passes it over.
#[tokio::test]
async fn with_no_worker_the_node_searches_the_slice_itself() {
    let Some(b) = board().await else { return };
    let asker = b.clone().asker().await.unwrap();
    let record = record_of(GameKind::Banqi, 3);
    let started = Instant::now();
    let mut reports = 0;
    let end =
        asker.slice("analysis:2", &record, 1, Duration::from_millis(200), |_| reports += 1).await;
    assert_eq!((end, reports), (None, 0));
    assert!(started.elapsed() >= PICKUP);
    assert_eq!(asker.stats().slices_here.load(Relaxed), 1);
    let late = Engines::start(1);
    let mut conn = b.taker().await.unwrap();
    assert!(b.serve_one(&mut conn, &late, Duration::from_secs(1)).await.unwrap().is_none());
    assert_eq!(late.stats().done.load(Relaxed), 0, "a given-up slice was searched");
}

/// A worker that answers a slice with neither a depth nor an end, or goes silent after its
/// first depth: the node is told to search the slice itself.
#[tokio::test]
async fn a_garbled_or_silent_slice_is_searched_by_the_node() {
    let Some(b) = board().await else { return };
    let asker = b.clone().asker().await.unwrap();
    let record = record_of(GameKind::Xiangqi, 1);
    for silent in [false, true] {
        let fake = {
            let b = b.clone();
            tokio::spawn(async move {
                let mut conn = b.taker().await.unwrap();
                let job = b.take(&mut conn, Duration::from_secs(5)).await.unwrap().unwrap();
                let depth = silent.then(|| slice::DepthLines {
                    depth: 1,
                    nodes: 10,
                    lines: vec![slice::PvLine { score: 0, pv: vec!["h2e2".into()] }],
                });
                let answer = AiAnswer { id: job.id.clone(), depth, ..AiAnswer::default() };
                b.answer(&job, &answer).await.unwrap();
            })
        };
        let mut reports = Vec::new();
        let time = Duration::from_millis(100);
        let end = asker.slice("analysis:3", &record, 1, time, |d| reports.push(d.depth)).await;
        assert_eq!(end, None, "silent: {silent}");
        assert_eq!(reports, if silent { vec![1] } else { vec![] });
        fake.await.unwrap();
    }
    assert_eq!(asker.stats().slices_here.load(Relaxed), 2);
}
