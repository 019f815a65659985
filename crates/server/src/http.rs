//! HTTP routes: the web client, the websocket, the archive export, accounts, live games and
//! metrics.

use crate::session::{self, AccountError};
use crate::socket;
use crate::state::App;
use axum::extract::{Path, Query, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use cannonade_games::{AnyGame, GameKind};
use cannonade_store::GameRow;
use cannonade_wire::{Geometry, PastGame, PublicPosition, Role};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::Arc;

/// The name of the session cookie.
pub const COOKIE: &str = "cannonade_session";

/// All routes.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/invite/{code}", get(index))
        .route("/game/{id}", get(index))
        .route("/ws", get(ws))
        .route("/metrics", get(metrics))
        .route("/healthz", get(|| async { "ok" }))
        .route("/api/games", get(games))
        .route("/api/game/{id}/export", get(export))
        .route("/api/game/{id}/positions", get(positions))
        .route("/api/my-games", get(my_games))
        .route("/api/geometry", get(geometries))
        .route("/api/starts", get(starts))
        .route("/api/invite/{code}", get(invite))
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .fallback(static_file)
        .with_state(app)
}

fn error(status: StatusCode, text: impl Into<String>) -> Response {
    (status, Json(serde_json::json!({ "error": text.into() }))).into_response()
}

/// A 503 for an internal failure: the cause is logged, the client gets an id.
fn unavailable(what: &str, cause: impl std::fmt::Display) -> Response {
    error(StatusCode::SERVICE_UNAVAILABLE, crate::incident::logged(what, cause))
}

async fn index(State(app): State<Arc<App>>) -> Response {
    if let Some(dir) = &app.config.web_dir
        && let Ok(text) = tokio::fs::read_to_string(dir.join("index.html")).await
    {
        return Html(text).into_response();
    }
    embedded("/")
}

/// The browser client compiled into the binary (crate `cannonade-webui`).
fn embedded(path: &str) -> Response {
    match cannonade_webui::resolve(path) {
        Some(asset) => ([(header::CONTENT_TYPE, asset.content_type)], asset.bytes).into_response(),
        None => error(StatusCode::NOT_FOUND, "not found"),
    }
}

/// Files of the web directory (`--web DIR`), with no way out of it.
async fn static_file(State(app): State<Arc<App>>, uri: axum::http::Uri) -> Response {
    let Some(dir) = &app.config.web_dir else {
        return embedded(uri.path());
    };
    let path = uri.path().trim_start_matches('/');
    let safe = !path.is_empty()
        && path
            .split('/')
            .all(|part| !part.is_empty() && part != ".." && part != "." && !part.contains('\\'));
    if !safe {
        return error(StatusCode::NOT_FOUND, "not found");
    }
    let kind = match path.rsplit('.').next() {
        Some("js" | "mjs") => "text/javascript",
        Some("css") => "text/css",
        Some("html") => "text/html; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    };
    match tokio::fs::read(dir.join(path)).await {
        Ok(bytes) => ([(header::CONTENT_TYPE, kind)], bytes).into_response(),
        Err(_) => error(StatusCode::NOT_FOUND, "not found"),
    }
}

fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(|v| {
        v.split(';').find_map(|kv| {
            kv.trim().strip_prefix(COOKIE).and_then(|r| r.strip_prefix('=')).map(str::to_string)
        })
    })
}

async fn ws(
    State(app): State<Arc<App>>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let token = query.get("token").cloned().or_else(|| cookie_token(&headers));
    // Frames above this are cut off by the protocol layer; smaller ones above the message
    // limit get an error event.
    // Small buffers: tungstenite's defaults (128 KiB each way) would cost a quarter of a
    // megabyte per idle socket; our frames are a few KiB. Clients send a few hundred bytes a
    // message, and tungstenite zeroes its read buffer's free room before every read: 2 KiB.
    upgrade
        .read_buffer_size(2 * 1024)
        .write_buffer_size(8 * 1024)
        .max_message_size(64 * 1024)
        .max_frame_size(64 * 1024)
        .on_upgrade(move |socket| socket::run(app, socket, token))
}

async fn metrics(State(app): State<Arc<App>>) -> Response {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], app.metrics.render()).into_response()
}

async fn games(State(app): State<Arc<App>>) -> Response {
    let (games, live) = crate::lobby::live_games(&app, 1000);
    Json(serde_json::json!({ "live": live, "games": games })).into_response()
}

async fn export(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match app.store.game(&id).await {
        Ok(Some(row)) => match row.export {
            Some(text) => {
                ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
            }
            None => error(StatusCode::CONFLICT, "the game is still being played"),
        },
        Ok(None) => error(StatusCode::NOT_FOUND, format!("no game '{id}'")),
        Err(e) => unavailable("the game could not be read", e),
    }
}

/// The start and the position after each move of a game, live or finished, for replay.
async fn positions(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match crate::game::positions(&app, &id).await {
        Ok(Some(p)) => Json(p).into_response(),
        Ok(None) => error(StatusCode::NOT_FOUND, format!("no game '{id}'")),
        Err(e) => unavailable("the game could not be read", e),
    }
}

/// How many games `/api/my-games` lists.
const MY_GAMES: u32 = 50;

/// The session's games, newest first. The session token comes as `Authorization: Bearer
/// <token>` or the session cookie; an unknown session has played nothing.
async fn my_games(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_string);
    let Some(token) = bearer.or_else(|| cookie_token(&headers)) else {
        return error(StatusCode::UNAUTHORIZED, "no session token");
    };
    let user = match session::known(&app, token.trim()).await {
        Ok(Some(user)) => user,
        Ok(None) => return Json(serde_json::json!({ "games": [] })).into_response(),
        Err(e) => return unavailable("the session could not be read", e),
    };
    match app.store.user_games(&user.id, MY_GAMES).await {
        Ok(rows) => {
            let games: Vec<PastGame> = rows.iter().filter_map(|r| past_game(r, &user.id)).collect();
            Json(serde_json::json!({ "games": games })).into_response()
        }
        Err(e) => unavailable("the games could not be read", e),
    }
}

/// A stored game as its player's list shows it (`None` for a row of an unknown game kind).
fn past_game(row: &GameRow, user: &str) -> Option<PastGame> {
    let seated = |i: usize| row.users[i].as_deref() == Some(user);
    let you = match (seated(0), seated(1)) {
        (true, true) => Role::Both,
        (true, false) => Role::First,
        (false, true) => Role::Second,
        (false, false) => Role::Spectator,
    };
    Some(PastGame {
        id: row.id.clone(),
        game: row.kind.parse::<GameKind>().ok()?,
        players: row.names.clone(),
        you,
        result: row.result.as_deref().and_then(|t| serde_json::from_str(t).ok()),
        created_ms: row.created_ms,
    })
}

/// Every board this server plays, by game name: what the rules pages draw.
async fn geometries() -> Response {
    let all: std::collections::BTreeMap<&str, Geometry> =
        GameKind::available_games().map(|k| (k.name(), Geometry::of(k))).collect();
    Json(all).into_response()
}

/// Each available game's start position as clients see it (the rules pages draw them).
async fn starts() -> Response {
    let all: std::collections::BTreeMap<&str, PublicPosition> = GameKind::available_games()
        .filter_map(|k| Some((k.name(), PublicPosition::of(&AnyGame::start(k).ok()?))))
        .collect();
    Json(all).into_response()
}

/// What an invite offers: game, clock and who invites (on this node).
async fn invite(State(app): State<Arc<App>>, Path(code): Path<String>) -> Response {
    match app.lobby.seek(&code) {
        Some(info) => Json(info).into_response(),
        None => error(StatusCode::NOT_FOUND, "no open invite with this code"),
    }
}

/// The body of `/api/register` and `/api/login`.
#[derive(Deserialize)]
struct Credentials {
    name: String,
    password: String,
}

fn session_response(result: Result<(String, Arc<session::UserCtx>), AccountError>) -> Response {
    match result {
        Ok((token, user)) => {
            let cookie =
                format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000");
            (
                [(header::SET_COOKIE, cookie)],
                Json(serde_json::json!({ "token": token, "user": user.info() })),
            )
                .into_response()
        }
        Err(AccountError::Invalid(why)) => error(StatusCode::BAD_REQUEST, why),
        Err(AccountError::Taken) => error(StatusCode::CONFLICT, "that name is taken"),
        Err(AccountError::Denied) => error(StatusCode::UNAUTHORIZED, "wrong name or password"),
        Err(AccountError::Store(e)) => unavailable("the account could not be read", e),
    }
}

async fn register(State(app): State<Arc<App>>, Json(c): Json<Credentials>) -> Response {
    session_response(session::register(&app, &c.name, &c.password).await)
}

async fn login(State(app): State<Arc<App>>, Json(c): Json<Credentials>) -> Response {
    session_response(session::login(&app, &c.name, &c.password).await)
}
