//! AI moves off the web nodes (server-core issue, item 3; docs/server.md): a node started
//! with `--ai-workers` has `cannonade worker` processes search its AI moves, and plays them
//! itself only when no worker answers. On the real Redis when CANNONADE_TEST_REDIS is set.

mod common;

use cannonade_games::GameKind;
use cannonade_server::Config;
use cannonade_server::worker::{WorkerConfig, WorkerStats, work};
use cannonade_wire::{ClientMsg, Seat};
use common::{Client, config, server, tc};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

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

#[tokio::test]
async fn a_worker_searches_the_ai_moves_and_the_node_none() {
    let Some((addr, app, worker)) = node().await else { return };
    let stats = Arc::new(WorkerStats::default());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(work(worker, stats.clone(), async {
        let _ = stopped.await;
    }));
    // Its takers running, a worker takes a job in milliseconds: well inside the pickup wait.
    while !stats.taking.load(Relaxed) {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
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
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(app.engines.stats().done.load(Relaxed), 2);
    let (_, metrics, _) = common::http(&app, "GET", "/metrics", "", None).await;
    assert!(metrics.contains("cannonade_ai_moves_taken_over 2\n"), "{metrics}");
}
