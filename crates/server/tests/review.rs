//! Game reviews (issue 25, docs/analysis.md): a finished game gets one stored review,
//! served from the store after; a finished imported game is reviewed when a player asks;
//! a live game has none; a player's requests are bounded.

mod common;

use axum::http::StatusCode;
use cannonade_games::GameKind;
use cannonade_server::Config;
use cannonade_server::engines::Priority;
use cannonade_wire::{ClientMsg, Role, ServerMsg};
use common::{Client, account, config, server, tc};
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

type App = Arc<cannonade_server::App>;

/// Reviews at a small depth, on one engine thread.
fn fast() -> Config {
    Config { review_depth: Some(2), engine_threads: 1, ..config() }
}

async fn call(app: &App, method: &str, path: &str, token: Option<&str>) -> (StatusCode, Value) {
    let (status, body, _) = common::http(app, method, path, "", token).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::String(body)))
}

/// The review of `id` once it is stored (within 60 s).
async fn done(app: &App, id: &str) -> Value {
    for _ in 0..1200 {
        let (status, v) = call(app, "GET", &format!("/api/game/{id}/review"), None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if v["state"] == "done" {
            return v["review"].clone();
        }
        assert!(v["state"] == "queued" || v["state"] == "running", "{v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no review of {id} within 60 s");
}

/// A hot-seat game of `kind` with `plies` moves played (each the first legal move), live.
async fn hotseat(addr: std::net::SocketAddr, kind: GameKind, plies: u32) -> (Client, String) {
    let mut c = Client::connect(addr, None).await;
    c.send(common::untimed_hotseat(kind)).await;
    let (game, role) = c.started().await;
    assert_eq!(role, Role::Both);
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let mut legal = c.snapshot().await.legal.expect("the mover's moves");
    for ply in 0..plies {
        let mv = legal[(ply as usize * 5) % legal.len()].mv.clone();
        c.send(ClientMsg::Move { game: game.clone(), ply, mv }).await;
        legal = c.moved().await.3.expect("hot-seat holds the seat to move");
    }
    (c, game)
}

#[tokio::test]
async fn a_finished_hotseat_game_gets_one_stored_review_served_without_recomputing() {
    let (addr, app) = server(fast()).await;
    let (mut c, game) = hotseat(addr, GameKind::Xiangqi, 6).await;
    c.send(ClientMsg::Resign { game: game.clone() }).await;
    c.ended().await;
    let review = done(&app, &game).await;
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 6);
    for (i, p) in plies.iter().enumerate() {
        assert_eq!((p["ply"].as_u64(), p["seat"].as_u64()), (Some(i as u64), Some(i as u64 % 2)));
        assert!(p["best"].is_string() && p["before"].is_object(), "{p}");
    }
    assert_eq!(review["depth"], 2);
    assert!(review["accuracy"][0].is_number() && review["accuracy"][1].is_number());
    // Served from the store: no engine job runs for a second look or a request.
    let jobs = app.engines.stats().done.load(Relaxed);
    let (_, again) = call(&app, "GET", &format!("/api/game/{game}/review"), None).await;
    assert_eq!(again["review"], review);
    let (status, asked) =
        call(&app, "POST", &format!("/api/game/{game}/review"), Some(&c.token)).await;
    assert_eq!((status, &asked["state"]), (StatusCode::OK, &Value::from("done")));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(app.engines.stats().done.load(Relaxed), jobs);
    assert_eq!(app.reviews.pending(), 0);
}

#[tokio::test]
async fn a_game_against_the_engine_is_reviewed_when_it_ends() {
    let (addr, app) = server(fast()).await;
    let mut c = Client::connect(addr, None).await;
    c.send(ClientMsg::PlayAi {
        game: GameKind::ChessBattle,
        options: String::new(),
        level: 1,
        seat: Some(cannonade_wire::Seat::First),
        clock: tc(0, 0),
        fen: None,
    })
    .await;
    let (game, _) = c.started().await;
    c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let legal = c.snapshot().await.legal.expect("the first seat moves first");
    c.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: legal[0].mv.clone() }).await;
    c.moved().await;
    // The engine answers.
    c.moved().await;
    c.send(ClientMsg::Resign { game: game.clone() }).await;
    c.ended().await;
    let review = done(&app, &game).await;
    assert_eq!(review["plies"].as_array().map(Vec::len), Some(2));
    assert_eq!(review["kind"], "chessbattle");
}

#[tokio::test]
async fn a_live_banqi_game_has_no_review_until_it_ends() {
    let (addr, app) = server(fast()).await;
    let (mut c, game) = hotseat(addr, GameKind::Banqi, 4).await;
    let path = format!("/api/game/{game}/review");
    let (status, v) = call(&app, "GET", &path, None).await;
    assert_eq!((status, &v["state"]), (StatusCode::OK, &Value::from("none")));
    // Asking for one is refused while the game goes on.
    let (status, v) = call(&app, "POST", &path, Some(&c.token)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (_, v) = call(&app, "GET", &path, None).await;
    assert_eq!(v["state"], "none");
    c.send(ClientMsg::Resign { game: game.clone() }).await;
    c.ended().await;
    let review = done(&app, &game).await;
    assert_eq!(review["expectation"], true);
    assert_eq!(review["plies"].as_array().map(Vec::len), Some(4));
    // Unknown games are not found.
    let (status, _) = call(&app, "GET", "/api/game/nope/review", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

const TWO_GAMES: &str = "[Variant \"xiangqi\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n\n\
                         [Variant \"xiangqi\"]\n[Result \"0-1\"]\n\n1. b2e2 b9c7 0-1\n";

/// A new account `name` and the ids of [`TWO_GAMES`], imported by it.
async fn import_two(app: &App, name: &str) -> (String, Vec<String>) {
    let token = account(app, name).await;
    let (status, body, _) = common::http(app, "POST", "/api/import", TWO_GAMES, Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let games = serde_json::from_str::<Value>(&body).unwrap()["games"].clone();
    (token, serde_json::from_value(games).unwrap())
}

#[tokio::test]
async fn an_imported_game_is_reviewed_on_request_and_requests_are_bounded() {
    let mut cfg = fast();
    cfg.limits.reviews_per_user = 1;
    let (_, app) = server(cfg).await;
    let (token, ids) = import_two(&app, "reviewer").await;
    let (first, second) = (&ids[0], &ids[1]);
    // An imported game has no review until someone asks.
    let (_, v) = call(&app, "GET", &format!("/api/game/{first}/review"), None).await;
    assert_eq!(v["state"], "none");
    let (status, _) = call(&app, "POST", &format!("/api/game/{first}/review"), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // Hold the one engine so that requests wait in line.
    let (hold, release) = std::sync::mpsc::channel::<()>();
    let engines = app.engines.clone();
    let holder = tokio::spawn(async move {
        engines
            .run("hold", Priority::AiMove, move |_| {
                let _ = release.recv();
            })
            .await
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (status, v) = call(&app, "POST", &format!("/api/game/{first}/review"), Some(&token)).await;
    assert_eq!(
        (status, &v["state"], &v["position"]),
        (StatusCode::OK, &"queued".into(), &1.into())
    );
    // Asking again queues nothing more; another game is over this user's bound.
    let (status, v) = call(&app, "POST", &format!("/api/game/{first}/review"), Some(&token)).await;
    assert_eq!((status, &v["state"]), (StatusCode::OK, &Value::from("queued")));
    let (status, v) = call(&app, "POST", &format!("/api/game/{second}/review"), Some(&token)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["code"], "limit_reached", "{v}");
    assert_eq!(app.reviews.pending(), 1);
    hold.send(()).unwrap();
    holder.await.unwrap();
    let review = done(&app, first).await;
    assert_eq!(review["plies"].as_array().map(Vec::len), Some(3));
    // The bound is per pending review: once done, the next one is taken.
    let (status, _) = call(&app, "POST", &format!("/api/game/{second}/review"), Some(&token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(done(&app, second).await["plies"].as_array().map(Vec::len), Some(2));
}

/// A review left pending by a stop (here: its row gone, as if the node stopped before
/// storing it) is queued again when the server starts on the same store; an imported
/// game nobody asked a review of is not.
#[tokio::test]
async fn reviews_left_pending_by_a_stop_are_queued_again_at_start() {
    let path = std::env::temp_dir().join(format!("cannonade-resume-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let db = format!("sqlite://{}?mode=rwc", path.display());
    let (addr, app) = server(Config { db: db.clone(), ..fast() }).await;
    let (mut c, game) = hotseat(addr, GameKind::Xiangqi, 4).await;
    c.send(ClientMsg::Resign { game: game.clone() }).await;
    c.ended().await;
    done(&app, &game).await;
    let token = account(&app, "importer").await;
    let (status, body, _) =
        common::http(&app, "POST", "/api/import", TWO_GAMES, Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let imported = serde_json::from_str::<Value>(&body).unwrap()["games"][0].clone();
    let imported = imported.as_str().unwrap().to_string();
    drop(c);
    drop(app);
    let pool = sqlx::SqlitePool::connect(&db).await.unwrap();
    sqlx::query("DELETE FROM reviews").execute(&pool).await.unwrap();
    pool.close().await;

    let (_, again) = server(Config { db, ..fast() }).await;
    let review = done(&again, &game).await;
    assert_eq!(review["plies"].as_array().map(Vec::len), Some(4));
    let (_, v) = call(&again, "GET", &format!("/api/game/{imported}/review"), None).await;
    assert_eq!(v["state"], "none", "an import is reviewed only on request");
    let _ = std::fs::remove_file(&path);
}

/// With `review_workers`, a node queues its reviews on Redis and never searches them: the
/// game waits in line (its place said) until a `cannonade worker` takes it, reviews it from
/// the shared store and stores it; a request for an imported game goes the same way, within
/// the user's bound. On the real Redis when CANNONADE_TEST_REDIS is set (CI sets it).
#[tokio::test]
async fn reviews_go_to_a_worker_through_redis() {
    use cannonade_server::worker::{WorkerConfig, WorkerStats, work};
    let Ok(redis) = std::env::var("CANNONADE_TEST_REDIS") else {
        eprintln!("CANNONADE_TEST_REDIS not set: skipped");
        return;
    };
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    let ns = format!("test-worker-{}-{}", std::process::id(), nanos.as_nanos());
    let path = std::env::temp_dir().join(format!("{ns}.db"));
    let db = format!("sqlite://{}?mode=rwc", path.display());
    let mut cfg = Config {
        db: db.clone(),
        redis: Some(redis.clone()),
        review_workers: Some(ns.clone()),
        ..fast()
    };
    cfg.limits.reviews_per_user = 1;
    let (addr, app) = server(cfg).await;
    let (mut c, game) = hotseat(addr, GameKind::Xiangqi, 4).await;
    c.send(ClientMsg::Resign { game: game.clone() }).await;
    c.ended().await;
    let path_of = |id: &str| format!("/api/game/{id}/review");
    let mut v = Value::Null;
    for _ in 0..100 {
        v = call(&app, "GET", &path_of(&game), None).await.1;
        if v["state"] != "none" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!((&v["state"], &v["position"]), (&"queued".into(), &1.into()), "{v}");
    // An imported game asked for by a user waits behind it; a second is over the bound.
    let (token, ids) = import_two(&app, "asker").await;
    let (status, v) = call(&app, "POST", &path_of(&ids[0]), Some(&token)).await;
    assert_eq!((status, &v["position"]), (StatusCode::OK, &2.into()), "{v}");
    let (status, _) = call(&app, "POST", &path_of(&ids[1]), Some(&token)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.engines.stats().done.load(Relaxed), 0, "the node searched");
    // An operator sees the line in /metrics.
    let (_, metrics, _) = common::http(&app, "GET", "/metrics", "", None).await;
    assert!(metrics.contains("cannonade_review_jobs_waiting 2\n"), "{metrics}");
    // A worker on the same store takes both.
    let stats = Arc::new(WorkerStats::default());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let config = WorkerConfig { redis, db, namespace: ns, threads: 1, review_depth: Some(2) };
    let worker = tokio::spawn(work(config, stats.clone(), async {
        let _ = stopped.await;
    }));
    let review = done(&app, &game).await;
    assert_eq!(review["plies"].as_array().map(Vec::len), Some(4));
    assert_eq!(review["depth"], 2, "the worker's depth, not the node's");
    assert_eq!(done(&app, &ids[0]).await["plies"].as_array().map(Vec::len), Some(3));
    assert_eq!(stats.stored.load(Relaxed), 2);
    assert_eq!(app.engines.stats().done.load(Relaxed), 0, "the node searched");
    // Once done, the user's next request is taken.
    let (status, _) = call(&app, "POST", &path_of(&ids[1]), Some(&token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(done(&app, &ids[1]).await["plies"].as_array().map(Vec::len), Some(2));
    stop.send(()).unwrap();
    worker.await.unwrap().unwrap();
    let _ = std::fs::remove_file(&path);
}

/// A game with proposals is reviewed with the crowd against the engine: the crowd's
/// favourite valued beside the move played, and each spectator's proposals judged by the
/// engine, not only by exact guesses.
#[tokio::test]
async fn the_crowds_favourite_is_valued_against_the_move_played() {
    let (addr, app) = server(fast()).await;
    let (mut a, mut b, game) = common::pair(addr, GameKind::Xiangqi, tc(0, 0)).await;
    let spectators = three_propose(addr, &game).await;
    a.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    b.moved().await;
    b.send(ClientMsg::Resign { game: game.clone() }).await;
    a.ended().await;
    let review = done(&app, &game).await;
    let crowd = &review["crowd"];
    let plies = crowd["plies"].as_array().expect("a ply with proposals");
    assert_eq!(plies.len(), 1, "{crowd}");
    let p = &plies[0];
    assert_eq!(
        (&p["ply"], &p["favourite"], &p["votes"], &p["proposers"]),
        (&0.into(), &"b2e2".into(), &2.into(), &3.into())
    );
    let alts = review["plies"][0]["alternatives"].as_array().unwrap();
    assert_eq!(alts.len(), 1);
    assert_eq!(p["favourite_value"], alts[0]["value"]);
    assert_eq!(p["played_value"], review["plies"][0]["played_value"]);
    assert_eq!(crowd["found"], u64::from(p["as_good"] == true));
    // Three spectators, each judged once; who guessed the move played has one good move.
    let scores = crowd["spectators"].as_object().unwrap();
    assert_eq!(scores.len(), 3);
    assert_eq!(scores[&spectators[2].user_id], serde_json::json!({ "good": 1, "of": 1 }));
    let b2e2 = &scores[&spectators[0].user_id];
    assert_eq!((&b2e2["of"], &b2e2["good"]), (&1.into(), &u64::from(p["as_good"] == true).into()));
}

/// Three spectators watch `game` and propose for its first ply: two the central cannon from
/// the left, one from the right (the move the tests then play).
async fn three_propose(addr: std::net::SocketAddr, game: &str) -> Vec<Client> {
    let mut spectators = Vec::new();
    for mv in ["b2e2", "b2e2", "h2e2"] {
        let mut s = Client::connect(addr, None).await;
        s.send(ClientMsg::Watch { game: game.to_string(), since: None }).await;
        s.snapshot().await;
        s.send(ClientMsg::Propose { game: game.to_string(), ply: 0, mv: mv.into() }).await;
        s.until("ack", |m| matches!(m, ServerMsg::ProposalOk { .. })).await;
        spectators.push(s);
    }
    spectators
}

/// While the game goes on, spectators hear the engine's judgement of each ply they proposed
/// on once it is played (never of the open ply), a spectator who joins later gets those
/// judged so far in the snapshot, and players hear none of it.
#[tokio::test]
async fn spectators_hear_the_crowd_judged_for_plies_already_played() {
    let (addr, _app) = server(fast()).await;
    let (mut a, mut b, game) = common::pair(addr, GameKind::Xiangqi, tc(0, 0)).await;
    let mut spectators = three_propose(addr, &game).await;
    // Nothing is judged of the open ply, however long it stays open.
    assert!(
        !spectators[0].drain(300).await.iter().any(|m| matches!(m, ServerMsg::CrowdJudged { .. }))
    );
    a.send(ClientMsg::Move { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    b.moved().await;
    let judged = match spectators[0]
        .until("the judgement", |m| matches!(m, ServerMsg::CrowdJudged { .. }))
        .await
    {
        ServerMsg::CrowdJudged { judged, .. } => judged,
        _ => unreachable!(),
    };
    assert_eq!((judged.ply, judged.seat), (0, 0));
    assert_eq!((judged.favourite.as_str(), judged.votes, judged.proposers), ("b2e2", 2, 3));
    assert_eq!(judged.favourite_display, "C8=5");
    // A spectator who joins now finds it in the snapshot.
    let mut late = Client::connect(addr, None).await;
    late.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = late.snapshot().await;
    assert_eq!(snap.crowd_judged, vec![judged]);
    // Players hear nothing of it, live or on joining again.
    for player in [&mut a, &mut b] {
        let frames = player.drain(300).await;
        assert!(!frames.iter().any(|m| matches!(m, ServerMsg::CrowdJudged { .. })), "{frames:?}");
        player.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        assert!(player.snapshot().await.crowd_judged.is_empty());
        assert!(player.frames.iter().all(|f| !f.contains("crowd_judged")));
    }
}
