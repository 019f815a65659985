//! A player's own sessions see the game as the player (hardening issue 29.5): an account's
//! second session — another browser, another device — is the same user, so it gets the
//! seat's view, never the spectators' tallies or their chat, which would tell a player
//! what the crowd proposes for the move they are about to make.

mod common;

use axum::http::StatusCode;
use cannonade_games::GameKind;
use cannonade_wire::{ClientMsg, Role, ServerMsg};
use common::{Client, config, http, pair, server, tc};

#[tokio::test]
async fn an_account_s_second_session_sees_its_game_as_the_player() {
    let (addr, app) = server(config()).await;
    let (a, _b, game) = pair(addr, GameKind::Xiangqi, tc(0, 0)).await;
    // The first player registers (keeping the game) and logs in on a second device.
    let creds = serde_json::json!({ "name": "carol", "password": "a long password" }).to_string();
    let (status, body, _) = http(&app, "POST", "/api/register", &creds, Some(&a.token)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body, headers) = http(&app, "POST", "/api/login", &creds, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let second = common::set_cookie_token(&headers).expect("a session cookie");
    assert_ne!(second, a.token);
    let mut device = Client::connect(addr, Some(&second)).await;
    device.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    assert_eq!(device.snapshot().await.you, Role::First);
    // A spectator proposes the first player's move and chats in the spectators' room.
    let mut s = Client::connect(addr, None).await;
    s.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
    assert_eq!(s.snapshot().await.you, Role::Spectator);
    s.send(ClientMsg::Propose { game: game.clone(), ply: 0, mv: "h2e2".into() }).await;
    s.send(ClientMsg::Chat { game: game.clone(), text: "play the central cannon".into() }).await;
    // The spectators get both (the test would prove nothing if nobody did).
    let seen = s.drain(1500).await;
    assert!(seen.iter().any(|m| matches!(m, ServerMsg::Tally { .. })), "{seen:?}");
    assert!(seen.iter().any(|m| matches!(m, ServerMsg::Chat { .. })), "{seen:?}");
    for m in device.drain(500).await {
        assert!(!matches!(m, ServerMsg::Tally { .. } | ServerMsg::Chat { .. }), "{m:?}");
    }
}
