//! The "your turn" list (`GET /api/your-turn`): a player's live games where it is their move,
//! for their session on any device; it follows the moves and drops a finished game.

mod common;

use axum::http::StatusCode;
use cannonade_games::GameKind;
use cannonade_wire::ClientMsg;
use common::{Client, http, pair, tc};

/// The ids in `token`'s "your turn" list.
async fn turns(app: &std::sync::Arc<cannonade_server::App>, token: &str) -> Vec<String> {
    let (status, body, _) = http(app, "GET", "/api/your-turn", "", Some(token)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    v["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn the_list_holds_the_games_where_it_is_the_users_move() {
    let (addr, app) = common::server(common::config()).await;
    let (status, _, _) = http(&app, "GET", "/api/your-turn", "", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (mut first, mut second, game) = pair(addr, GameKind::Xiangqi, tc(600_000, 0)).await;
    assert_eq!(turns(&app, &first.token).await, vec![game.clone()], "the first seat moves first");
    assert!(turns(&app, &second.token).await.is_empty());
    // A second device of the same session sees the same list.
    let other_device = Client::connect(addr, Some(&first.token)).await;
    assert_eq!(turns(&app, &other_device.token).await, vec![game.clone()]);

    first.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    let snap = first.snapshot().await;
    let mv = snap.legal.unwrap()[0].mv.clone();
    first.send(ClientMsg::Move { game: game.clone(), ply: 0, mv }).await;
    second.moved().await;
    assert!(turns(&app, &first.token).await.is_empty());
    assert_eq!(turns(&app, &second.token).await, vec![game.clone()]);

    second.send(ClientMsg::Resign { game: game.clone() }).await;
    second.ended().await;
    assert!(turns(&app, &second.token).await.is_empty(), "a finished game is nobody's turn");
}
