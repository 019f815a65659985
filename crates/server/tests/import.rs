//! Importing PGN: a file of games played elsewhere becomes finished games the server
//! replays, shows and exports with every result and termination of the file (issue 23: a
//! 60-game Xiangqi file from an outside match runner imports, replays and re-exports).

mod common;

use axum::http::StatusCode;
use cannonade_games::pgn::{read_game, read_games};
use cannonade_wire::{ClientMsg, Positions, Seat};
use common::{Client, config, server};
use std::sync::Arc;

type App = Arc<cannonade_server::App>;

const OUTSIDE: &str = include_str!("../../../testdata/pgn/fairy-stockfish-xiangqi-60.pgn");

async fn call(
    app: &App,
    method: &str,
    path: &str,
    body: &str,
    token: Option<&str>,
) -> (StatusCode, String) {
    let (status, body, _) = common::http(app, method, path, body, token).await;
    (status, body)
}

/// A registered user's session token.
async fn session(app: &App) -> String {
    let creds = serde_json::json!({ "name": "importer", "password": "a long password" });
    let (status, body, headers) =
        common::http(app, "POST", "/api/register", &creds.to_string(), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    common::set_cookie_token(&headers).expect("a session cookie")
}

#[tokio::test]
async fn an_outside_match_file_imports_replays_and_exports_its_results() {
    let (addr, app) = server(config()).await;
    let token = session(&app).await;
    let (status, body) = call(&app, "POST", "/api/import", OUTSIDE, Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    let ids: Vec<String> = serde_json::from_value(answer["games"].clone()).unwrap();
    let source = read_games(OUTSIDE).unwrap();
    assert_eq!(ids.len(), 60);
    let mut disputed = None;
    for (id, game) in ids.iter().zip(&source) {
        let (status, text) = call(&app, "GET", &format!("/api/game/{id}/export"), "", None).await;
        assert_eq!(status, StatusCode::OK, "{text}");
        let back = read_game(&text).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(back.result, game.result, "{id}");
        assert_eq!(back.termination, game.termination, "{id}");
        assert_eq!(back.record.moves_text(), game.record.moves_text(), "{id}");
        assert_eq!((back.tag("White"), back.tag("Black")), (game.tag("White"), game.tag("Black")));
        // Every position replays.
        let (status, text) =
            call(&app, "GET", &format!("/api/game/{id}/positions"), "", None).await;
        assert_eq!(status, StatusCode::OK, "{text}");
        let positions: Positions = serde_json::from_str(&text).unwrap();
        assert_eq!(positions.positions.len(), game.record.moves().len() + 1, "{id}");
        if game.ended.is_some_and(|e| cannonade_games::pgn::PgnResult::of(e.outcome) != game.result)
        {
            disputed = Some((id.clone(), game.clone()));
        }
    }
    // A game whose file result our rules would not give (game 20: a repetition the runner
    // judged otherwise) opens like any finished game, with the file's result.
    let (id, game) = disputed.expect("the file holds a game our rules judge otherwise");
    let mut c = Client::connect(addr, None).await;
    c.send(ClientMsg::Watch { game: id.clone(), since: None }).await;
    let snap = c.snapshot().await;
    assert_eq!(snap.moves.len(), game.record.moves().len());
    let result = snap.result.expect("an imported game is over");
    let winner = match game.result {
        cannonade_games::pgn::PgnResult::FirstWins => Some(Seat::First),
        cannonade_games::pgn::PgnResult::SecondWins => Some(Seat::Second),
        _ => None,
    };
    assert_eq!(result.winner, winner);
    assert!(snap.legal.is_none_or(|l| l.is_empty()), "a finished game offers no moves");
}

#[tokio::test]
async fn an_import_needs_a_session_and_a_file_that_reads() {
    let (_, app) = server(config()).await;
    let (status, _) = call(&app, "POST", "/api/import", OUTSIDE, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let token = session(&app).await;
    let broken = "[Variant \"xiangqi\"]\n\n1. h3e3 h10g8 2. z9z9 *\n";
    let (status, body) = call(&app, "POST", "/api/import", broken, Some(&token)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("line 3") && body.contains("z9z9"), "{body}");
    let (status, body) = call(&app, "POST", "/api/import", "", Some(&token)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    // A file is read whole before anything is stored: its second game's error is named.
    let two = format!("[Variant \"xiangqi\"]\n\n1. h3e3 *\n\n{broken}");
    let (status, body) = call(&app, "POST", "/api/import", &two, Some(&token)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("game 2"), "{body}");
}
