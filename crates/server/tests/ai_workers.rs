//! AI moves off the web nodes (server-core issue, item 3; docs/server.md): a node started
//! with `--ai-workers` has `cannonade worker` processes search its AI moves, and plays them
//! itself only when no worker answers. On the real Redis when CANNONADE_TEST_REDIS is set.

mod common;

use cannonade_games::GameKind;
use cannonade_server::Config;
use cannonade_server::limits::Limits;
use cannonade_server::worker::{WorkerConfig, WorkerStats, work};
use cannonade_wire::{ClientMsg, Seat};
use common::{Client, config, server, tc};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

/// A node that sends its AI moves to workers, with a fresh namespace and SQLite file.
async fn node() -> Option<(std::net::SocketAddr, Arc<cannonade_server::App>, WorkerConfig)> {
    let Ok(redis) = std::env::var("CANNONADE_TEST_REDIS") else {
        eprintln!("CANNONADE_TEST_REDIS not set: skipped");
        return None;
    };
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    let ns = format!("test-ai-{}-{}", std::process::id(), nanos.as_nanos());
    let path = std::env::temp_dir().join(format!("{ns}.db"));
    let db = format!("sqlite://{}?mode=rwc", path.display());
    let cfg = Config {
        db: db.clone(),
        redis: Some(redis.clone()),
        ai_workers: Some(ns.clone()),
        // An analysis runs a second, in slices of a quarter.
        limits: Limits {
            analysis_time: Duration::from_secs(1),
            analysis_slice: Duration::from_millis(250),
            ..config().limits
        },
        ..config()
    };
    let (addr, app) = server(cfg).await;
    let worker = WorkerConfig { redis, db, namespace: ns, threads: 1, review_depth: Some(2) };
    Some((addr, app, worker))
}

/// Plays `moves` of the client's against the engine at level 3 and returns the engine's
/// answers.
async fn play(c: &mut Client, game: &str, moves: &[&str]) -> Vec<String> {
    let mut answers = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let ply = 2 * i as u32;
        c.send(ClientMsg::Move { game: game.to_string(), ply, mv: mv.to_string() }).await;
        c.moved().await;
        answers.push(c.moved().await.2);
    }
    answers
}

async fn against_the_engine(addr: std::net::SocketAddr) -> (Client, String) {
    let mut c = Client::connect(addr, None).await;
    c.send(ClientMsg::PlayAi {
        game: GameKind::Xiangqi,
        options: String::new(),
        clock: tc(0, 0),
        level: 3,
        seat: Some(Seat::First),
        fen: None,
    })
    .await;
    let (game, _) = c.started().await;
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    c.snapshot().await;
    (c, game)
}

/// A running worker, its stats, the sender that stops it and its task.
type Running = (
    Arc<WorkerStats>,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<Result<(), cannonade_server::worker::WorkerError>>,
);

/// Starts a worker and waits for its takers: it then takes a job in milliseconds, well
/// inside the pickup wait.
async fn start(worker: WorkerConfig) -> Running {
    let stats = Arc::new(WorkerStats::default());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(work(worker, stats.clone(), async {
        let _ = stopped.await;
    }));
    while !stats.taking.load(Relaxed) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    (stats, stop, running)
}

#[tokio::test]
async fn a_worker_searches_the_ai_moves_and_the_node_none() {
    let Some((addr, app, worker)) = node().await else { return };
    let (stats, stop, running) = start(worker).await;
    let (mut c, game) = against_the_engine(addr).await;
    let answers = play(&mut c, &game, &["h2e2", "h0g2", "i0h0"]).await;
    assert_eq!(answers.len(), 3);
    assert_eq!(stats.ai_moves.load(Relaxed), 3);
    assert_eq!(app.engines.stats().done.load(Relaxed), 0, "the node searched");
    // An operator sees where the moves came from.
    let (_, metrics, _) = common::http(&app, "GET", "/metrics", "", None).await;
    assert!(metrics.contains("cannonade_ai_moves_from_workers 3\n"), "{metrics}");
    assert!(metrics.contains("cannonade_ai_moves_taken_over 0\n"), "{metrics}");
    stop.send(()).unwrap();
    running.await.unwrap().unwrap();
}

/// No worker at all: every AI move still comes, searched by the node after the pickup wait.
#[tokio::test]
async fn with_no_worker_the_node_plays_the_ai_moves_itself() {
    let Some((addr, app, _)) = node().await else { return };
    let (mut c, game) = against_the_engine(addr).await;
    let answers = play(&mut c, &game, &["h2e2", "h0g2"]).await;
    assert_eq!(answers.len(), 2);
    // The engine counts a search done just after its answer is sent.
    for _ in 0..100 {
        if app.engines.stats().done.load(Relaxed) >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(app.engines.stats().done.load(Relaxed), 2);
    let (_, metrics, _) = common::http(&app, "GET", "/metrics", "", None).await;
    assert!(metrics.contains("cannonade_ai_moves_taken_over 2\n"), "{metrics}");
}

/// The analysis board's slices go to the worker too: the lines stream to the socket from
/// the worker's engine and the node's engines stay idle.
#[tokio::test]
async fn a_worker_searches_the_analysis_board() {
    use cannonade_wire::{AnalysisStatus, PositionRequest, ServerMsg};
    let Some((addr, app, worker)) = node().await else { return };
    let (stats, stop, running) = start(worker).await;
    let mut c = Client::connect(addr, None).await;
    let position = PositionRequest {
        game: GameKind::Xiangqi,
        options: String::new(),
        fen: None,
        moves: vec!["h2e2".into()],
    };
    c.send(ClientMsg::Analyse { id: 4, lines: 2, position }).await;
    let mut depths = Vec::new();
    loop {
        match c.until("an analysis", |m| matches!(m, ServerMsg::Analysis { id: 4, .. })).await {
            ServerMsg::Analysis { status: AnalysisStatus::Running, depth, lines, .. } => {
                assert_eq!(lines.len(), 2);
                depths.push(depth);
            }
            ServerMsg::Analysis { status: AnalysisStatus::Done, depth, lines, .. } => {
                assert_eq!(lines.len(), 2);
                assert_eq!(Some(&depth), depths.last());
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(depths.windows(2).all(|w| w[1] > w[0]), "{depths:?}");
    assert!(stats.analysis_slices.load(Relaxed) >= 1);
    assert_eq!(app.engines.stats().done.load(Relaxed), 0, "the node searched");
    let (_, metrics, _) = common::http(&app, "GET", "/metrics", "", None).await;
    assert!(!metrics.contains("cannonade_analysis_slices_from_workers 0\n"), "{metrics}");
    assert!(metrics.contains("cannonade_analysis_slices_taken_over 0\n"), "{metrics}");
    stop.send(()).unwrap();
    running.await.unwrap().unwrap();
}
