//! Profiles, leaderboards and ratings per speed category: `GET /api/user/{name}`,
//! `GET /api/leaderboard/{game}`, and the rating changes sent with a rated game's end.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use cannonade_games::GameKind;
use cannonade_server::App;
use cannonade_wire::{ClientMsg, ServerMsg};
use common::{Client, account, config, rate, server, tc};
use http_body_util::BodyExt;
use std::sync::Arc;
use tower::ServiceExt;

async fn get(app: &Arc<App>, path: &str) -> (StatusCode, serde_json::Value) {
    let req = Request::get(path).body(Body::empty()).unwrap();
    let res = cannonade_server::router(app.clone()).oneshot(req).await.unwrap();
    let status = res.status();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null))
}

/// A rated game between two new accounts on `clock`, which the seeker resigns: the
/// seeker's and the taker's sockets, the game, the end's rating changes as the seeker got
/// them, and the seeker's seat index (seats are drawn).
async fn rated_resignation(
    addr: std::net::SocketAddr,
    app: &Arc<App>,
    names: [&str; 2],
    clock: cannonade_wire::TimeControl,
) -> (Client, Client, String, Option<cannonade_wire::RatingChanges>, usize) {
    let (ta, tb) = (account(app, names[0]).await, account(app, names[1]).await);
    let mut a = Client::connect(addr, Some(&ta)).await;
    let mut b = Client::connect(addr, Some(&tb)).await;
    a.send(ClientMsg::Seek {
        game: GameKind::Xiangqi,
        options: String::new(),
        clock,
        rated: true,
        range: None,
    })
    .await;
    let ServerMsg::SeekAdded { seek } =
        a.until("seek", |m| matches!(m, ServerMsg::SeekAdded { .. })).await
    else {
        unreachable!()
    };
    b.send(ClientMsg::AcceptSeek { id: seek.id }).await;
    let (game, role) = a.started().await;
    let seat = if role == cannonade_wire::Role::First { 0 } else { 1 };
    a.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = a.snapshot().await;
    for p in &snap.players {
        // New at this game and speed: the default rating, provisional.
        assert_eq!((p.rating, p.provisional), (Some(1500), true), "{p:?}");
    }
    a.send(ClientMsg::Resign { game: game.clone() }).await;
    let m = a
        .until("the end", |m| {
            matches!(m, ServerMsg::Event { event: cannonade_wire::GameEvent::Ended { .. }, .. })
        })
        .await;
    let ServerMsg::Event { ratings, .. } = m else { unreachable!() };
    (a, b, game, ratings.map(|r| *r), seat)
}

#[tokio::test]
async fn a_rated_blitz_game_changes_the_blitz_rating_only_and_shows_on_profiles() {
    let (addr, app) = server(config()).await;
    // 3+2: 3 minutes + 40 × 2 s = 4:20 estimated, blitz.
    let (a, b, game, changes, seat) =
        rated_resignation(addr, &app, ["alice", "bob"], tc(180_000, 2_000)).await;
    let changes = changes.expect("the end of a rated game carries the rating changes");
    assert_eq!(changes.speed, "blitz");
    // `lost` is alice's (she resigned), `won` bob's.
    let (lost, won) = (changes.seats[seat], changes.seats[1 - seat]);
    assert_eq!((lost.before, won.before), (1500, 1500));
    assert!(lost.diff < 0 && won.diff > 0, "{changes:?}");
    assert_eq!(lost.after - lost.before, lost.diff);
    assert!(lost.provisional && won.provisional, "one game leaves the deviation high");

    for speed in ["bullet", "rapid", "classical"] {
        assert_eq!(app.store.rating(&a.user_id, "xiangqi", speed).await.unwrap(), None, "{speed}");
    }
    let blitz = app.store.rating(&a.user_id, "xiangqi", "blitz").await.unwrap().unwrap();
    assert_eq!(blitz.rating.round() as i64, lost.after);

    let (s, p) = get(&app, "/api/user/ALICE").await;
    assert_eq!(s, StatusCode::OK, "names are found in any case");
    assert_eq!(p["name"], "alice");
    let ratings = p["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 1, "{p}");
    assert_eq!(ratings[0]["game"], "xiangqi");
    assert_eq!(ratings[0]["speed"], "blitz");
    assert_eq!(ratings[0]["rating"], lost.after);
    assert_eq!(ratings[0]["provisional"], true);
    assert_eq!(ratings[0]["games"], 1);
    assert_eq!(p["records"]["xiangqi"], serde_json::json!({"win":0,"draw":0,"loss":1}));
    let g = &p["games"][0];
    assert_eq!((g["id"].as_str(), g["opponent"].as_str()), (Some(game.as_str()), Some("bob")));
    assert_eq!((g["result"].as_str(), g["speed"].as_str()), (Some("loss"), Some("blitz")));
    assert_eq!(g["rated"], true);
    let (_, p) = get(&app, "/api/user/bob").await;
    assert_eq!(p["records"]["xiangqi"]["win"], 1);
    assert_eq!(p["games"][0]["result"], "win");
    drop((a, b));
}

#[tokio::test]
async fn a_bullet_game_counts_as_bullet() {
    let (addr, app) = server(config()).await;
    let (a, _b, _, changes, _) =
        rated_resignation(addr, &app, ["carol", "dave"], tc(60_000, 0)).await;
    assert_eq!(changes.unwrap().speed, "bullet");
    assert!(app.store.rating(&a.user_id, "xiangqi", "bullet").await.unwrap().is_some());
    assert_eq!(app.store.rating(&a.user_id, "xiangqi", "blitz").await.unwrap(), None);
}

#[tokio::test]
async fn a_casual_game_has_no_rating_changes() {
    let (addr, _app) = server(config()).await;
    let (mut a, _b, game) = common::pair(addr, GameKind::Xiangqi, tc(180_000, 2_000)).await;
    a.send(ClientMsg::Resign { game }).await;
    let m = a
        .until("the end", |m| {
            matches!(m, ServerMsg::Event { event: cannonade_wire::GameEvent::Ended { .. }, .. })
        })
        .await;
    assert!(matches!(m, ServerMsg::Event { ratings: None, .. }));
}

#[tokio::test]
async fn leaderboards_leave_out_provisional_players() {
    let (_, app) = server(config()).await;
    account(&app, "settled").await;
    account(&app, "newcomer").await;
    account(&app, "rapidist").await;
    rate(&app, "settled", "blitz", 1700.0, 60.0).await;
    rate(&app, "newcomer", "blitz", 1900.0, 200.0).await;
    rate(&app, "rapidist", "rapid", 1800.0, 50.0).await;

    let (s, board) = get(&app, "/api/leaderboard/xiangqi?speed=blitz").await;
    assert_eq!(s, StatusCode::OK);
    let names: Vec<&str> =
        board["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["settled"], "provisional and other speeds are left out");
    assert_eq!(board["players"][0]["rating"], 1700);
    assert_eq!(board["players"][0]["provisional"], false);
    let (_, board) = get(&app, "/api/leaderboard/xiangqi").await;
    assert_eq!(board["speed"], "blitz", "blitz by default");
    let (_, board) = get(&app, "/api/leaderboard/xiangqi?speed=rapid").await;
    assert_eq!(board["players"][0]["name"], "rapidist");

    let (_, p) = get(&app, "/api/user/newcomer").await;
    assert_eq!(p["ratings"][0]["provisional"], true);
    assert_eq!(get(&app, "/api/leaderboard/go").await.0, StatusCode::NOT_FOUND);
    let (s, body) = get(&app, "/api/leaderboard/xiangqi?speed=hyper").await;
    assert_eq!((s, body["code"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid")));
}

#[tokio::test]
async fn any_name_in_a_url_is_a_404_or_a_profile() {
    let (_, app) = server(config()).await;
    for path in [
        "/api/user/nobody",
        "/api/user/%00",
        "/api/user/%F0%9F%92%A9",
        "/api/user/'%20OR%201=1--",
        &format!("/api/user/{}", "x".repeat(5000)),
    ] {
        let (s, body) = get(&app, path).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(body["code"], "not_found");
    }
    let req = Request::get("/@/anyone").body(Body::empty()).unwrap();
    let res = cannonade_server::router(app.clone()).oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK, "profile pages are the web client");
}
