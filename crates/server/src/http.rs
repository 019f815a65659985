//! HTTP routes: the web client, the websocket, the archive export, accounts, live games and
//! metrics.

use crate::account::{self, AccountError};
use crate::client::Client;
use crate::game::import::{MAX_GAMES_PER_REQUEST, import_all, store_all};
use crate::reviews::Refused;
use crate::session::SessionError;
use crate::socket;
use crate::state::App;
use crate::user::UserCtx;
use axum::extract::{Path, State, WebSocketUpgrade};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use cannonade_games::{AnyGame, GameKind};
use cannonade_store::{GameRow, StoreError};
use cannonade_wire::{ErrorCode, Geometry, PastGame, PublicPosition, Role};
use serde::Deserialize;
use std::sync::Arc;

/// The name of the session cookie.
pub const COOKIE: &str = cannonade_wire::SESSION_COOKIE;

/// All routes.
pub fn router(app: Arc<App>) -> Router {
    // Not through the compression layer: its answer is a protocol switch, not a body.
    let socket = Router::new().route("/ws", get(ws));
    Router::new()
        .route("/", get(index))
        .route("/invite/{code}", get(index))
        .route("/game/{id}", get(index))
        .route("/@/{name}", get(index))
        .route("/metrics", get(metrics))
        .route("/healthz", get(|| async { "ok" }))
        .route("/api/games", get(games))
        .route("/api/game/{id}/export", get(export))
        .route("/api/game/{id}/positions", get(positions))
        .route("/api/game/{id}/review", get(review).post(request_review))
        .route("/api/my-games", get(my_games))
        .route("/api/your-turn", get(your_turn))
        .route("/api/geometry", get(geometries))
        .route("/api/starts", get(starts))
        .route("/api/invite/{code}", get(invite))
        .route("/api/user/{name}", get(user_profile))
        .route("/api/leaderboard/{game}", get(leaderboard))
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/import", post(import))
        .route("/api/position", post(position))
        .route("/api/password", post(password))
        .route("/api/sessions", get(sessions))
        .route("/api/sessions/{id}", delete(end_session))
        .fallback(static_file)
        // gzip for clients that ask (every browser): the page's scripts and styles shrink to
        // about a third; tiny answers and images are left alone by the default predicate.
        .layer(tower_http::compression::CompressionLayer::new())
        .merge(socket)
        .layer(axum::middleware::from_fn_with_state(app.clone(), same_site_writes))
        .with_state(app)
}

/// Refuses a state-changing request (any method but `GET`, `HEAD` and `OPTIONS`) that
/// another site's page made: the session cookie rides along with such requests, so a page
/// elsewhere could otherwise log a visitor out, end their sessions or log them into an
/// account of its choosing. The same check as the websocket's ([`from_this_site`]).
async fn same_site_writes(
    State(app): State<Arc<App>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    use axum::http::Method;
    let reads = [Method::GET, Method::HEAD, Method::OPTIONS];
    if !reads.contains(req.method()) && !from_this_site(&app, req.headers()) {
        return refuse(
            StatusCode::FORBIDDEN,
            ErrorCode::Forbidden,
            "a page of another site may not make this request",
        );
    }
    next.run(req).await
}

/// A refusal: its status, and a body with the code and words for people.
fn refuse(status: StatusCode, code: ErrorCode, text: impl Into<String>) -> Response {
    (status, Json(serde_json::json!({ "code": code, "error": text.into() }))).into_response()
}

fn error(status: StatusCode, text: impl Into<String>) -> Response {
    let code = match status {
        StatusCode::NOT_FOUND => ErrorCode::NotFound,
        StatusCode::CONFLICT | StatusCode::BAD_REQUEST => ErrorCode::Invalid,
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => ErrorCode::Forbidden,
        _ => ErrorCode::Internal,
    };
    refuse(status, code, text)
}

/// A failure of the server's own: logged with an id, and the client gets the code and the
/// id, never the text.
fn internal(code: ErrorCode, what: &str, e: &dyn std::fmt::Display) -> Response {
    let status = match code {
        ErrorCode::Storage => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    refuse(status, code, crate::incident::logged(what, e))
}

fn store_failed(e: &StoreError) -> Response {
    internal(ErrorCode::Storage, "the store failed", e)
}

/// Too many requests: when to come back, in the header and the body.
fn too_soon(wait: crate::limits::TooSoon) -> Response {
    let mut res = refuse(StatusCode::TOO_MANY_REQUESTS, ErrorCode::RateLimited, wait.to_string());
    let secs = wait.0.as_secs().max(1);
    res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
    res
}

async fn index(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    if let Some(dir) = &app.config.web_dir
        && let Ok(text) = tokio::fs::read_to_string(dir.join("index.html")).await
    {
        return Html(text).into_response();
    }
    embedded("/", &headers)
}

/// The browser client compiled into the binary (crate `cannonade-webui`), with its entity
/// tag: the page's module URLs carry no version, so a browser must ask each time
/// (`no-cache`), and an unchanged file costs a `304` without its bytes.
fn embedded(path: &str, headers: &HeaderMap) -> Response {
    let Some(asset) = cannonade_webui::resolve(path) else {
        return error(StatusCode::NOT_FOUND, "not found");
    };
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == asset.etag || t.trim() == "*"));
    let tagged = [(header::ETAG, asset.etag), (header::CACHE_CONTROL, "no-cache")];
    if fresh {
        return (StatusCode::NOT_MODIFIED, tagged).into_response();
    }
    (tagged, [(header::CONTENT_TYPE, asset.content_type)], asset.bytes).into_response()
}

/// Files of the web directory (`--web DIR`), with no way out of it.
async fn static_file(
    State(app): State<Arc<App>>,
    uri: axum::http::Uri,
    headers: HeaderMap,
) -> Response {
    let Some(dir) = &app.config.web_dir else {
        return embedded(uri.path(), &headers);
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

/// The session token of a request: `Authorization: Bearer <token>` (programs) or the
/// session cookie (browsers). Never the URL, which lands in logs.
fn request_token(headers: &HeaderMap, jar: &CookieJar) -> Option<String> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().to_string());
    bearer.or_else(|| jar.get(COOKIE).map(|c| c.value().to_string()))
}

/// The session cookie for `token`: HTTP only, same site, `Secure` over HTTPS, lasting the
/// session's life (renewed on every websocket, as the session's expiry slides).
fn session_cookie(app: &App, client: Client, token: String) -> Cookie<'static> {
    let ttl = app.config.session_ttl.as_secs().min(i64::MAX as u64) as i64;
    Cookie::build((COOKIE, token))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(client.https)
        .max_age(cookie::time::Duration::seconds(ttl))
        .build()
}

/// The cookie that removes the session cookie.
fn no_session_cookie(client: Client) -> Cookie<'static> {
    Cookie::build((COOKIE, ""))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(client.https)
        .max_age(cookie::time::Duration::ZERO)
        .build()
}

/// Whether a request comes from this site's own page, or from a program: its `Origin` is
/// the server's own (the request's host, or the proxy's forwarded one) or one of
/// [`crate::Config::allowed_origins`]. Without `Origin` (browsers always send it on a
/// websocket and on a cross-site `POST`, not always on a same-origin one), a browser's
/// `Sec-Fetch-Site` must say `same-origin` or `none` (typed by the person); a request with
/// neither header is not from a browser page, so no other site's page is riding on its
/// cookie.
fn from_this_site(app: &App, headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return match headers.get("sec-fetch-site").map(|v| v.to_str()) {
            None => true,
            Some(Ok(site)) => matches!(site, "same-origin" | "none"),
            Some(Err(_)) => false,
        };
    };
    let Ok(origin) = origin.to_str() else { return false };
    if app.config.allowed_origins.iter().any(|o| o.trim_end_matches('/') == origin) {
        return true;
    }
    let Some((_, host)) = origin.split_once("://") else { return false };
    let own = |h: Option<&HeaderValue>| h.and_then(|v| v.to_str().ok()) == Some(host);
    own(headers.get(header::HOST))
        || (app.config.trust_proxy && own(headers.get("x-forwarded-host")))
}

/// The websocket. The session comes with the request (cookie, or `Authorization` from a
/// program); a request without a valid one gets a new anonymous session, set as a cookie
/// in the upgrade's answer. A page of another site may not open it (`Origin`).
async fn ws(
    State(app): State<Arc<App>>,
    client: Client,
    jar: CookieJar,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !from_this_site(&app, &headers) {
        return refuse(
            StatusCode::FORBIDDEN,
            ErrorCode::Forbidden,
            "this page's origin may not open a socket here",
        );
    }
    let token = request_token(&headers, &jar);
    let (token, user) = match app.sessions.resolve(token, client.addr).await {
        Ok(x) => x,
        Err(SessionError::TooSoon(wait)) => return too_soon(wait),
        Err(SessionError::Store(e)) => return store_failed(&e),
        Err(e @ SessionError::NoRandom(_)) => {
            return internal(ErrorCode::Internal, "no session could be made", &e);
        }
    };
    // Frames above this are cut off by the protocol layer; smaller ones above the message
    // limit get an error event.
    // Small buffers: tungstenite's defaults (128 KiB each way) would cost a quarter of a
    // megabyte per idle socket; our frames are a few KiB. Clients send a few hundred bytes a
    // message, and tungstenite zeroes its read buffer's free room before every read: 2 KiB.
    let cookie = session_cookie(&app, client, token);
    let res = upgrade
        .read_buffer_size(2 * 1024)
        .write_buffer_size(8 * 1024)
        .max_message_size(64 * 1024)
        .max_frame_size(64 * 1024)
        .on_upgrade(move |socket| socket::run(app, socket, user, client.addr));
    (jar.add(cookie), res).into_response()
}

async fn metrics(State(app): State<Arc<App>>) -> Response {
    let m = &app.metrics;
    m.reviews_pending.set(app.reviews.pending() as i64);
    match app.reviews.waiting_for_workers().await {
        Ok(Some(n)) => {
            m.review_jobs_waiting.set(n as i64);
        }
        Ok(None) => {}
        // The last value stays: a scrape must not fail with Redis.
        Err(e) => tracing::warn!("review jobs on redis not counted: {e}"),
    }
    if let Some(workers) = app.games.ai_workers() {
        use std::sync::atomic::Ordering::Relaxed;
        let stats = workers.stats();
        m.ai_moves_from_workers.set(stats.answered.load(Relaxed) as i64);
        m.ai_moves_taken_over.set(stats.searched_here.load(Relaxed) as i64);
        m.analysis_slices_from_workers.set(stats.slices_answered.load(Relaxed) as i64);
        m.analysis_slices_taken_over.set(stats.slices_here.load(Relaxed) as i64);
    }
    (
        [(header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE)],
        app.metrics.render(app.engines.stats()),
    )
        .into_response()
}

async fn games(State(app): State<Arc<App>>) -> Response {
    let (games, live) = crate::lobby_view::live_games(&app, 1000);
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
        Err(e) => store_failed(&e),
    }
}

/// The start and the position after each move of a game, live or finished, for replay.
async fn positions(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match crate::game::positions(&app.games, &id).await {
        Ok(Some(p)) => Json(p).into_response(),
        Ok(None) => error(StatusCode::NOT_FOUND, format!("no game '{id}'")),
        Err(e) => internal(ErrorCode::Storage, "the game could not be read", &e),
    }
}

/// The analysis board's position (docs/analysis.md): a start and moves checked by the
/// rules, answered with the position, its moves as read and what may be played next; a
/// `400` names what is wrong (the board editor shows it). Pure work on the request alone.
async fn position(body: String) -> Response {
    let request: cannonade_wire::PositionRequest = match serde_json::from_str(&body) {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("not a position request: {e}")),
    };
    match crate::analysis::record_of(&request) {
        Ok(record) => Json(crate::analysis::analysed(&record)).into_response(),
        Err(e) => error(StatusCode::BAD_REQUEST, e.to_string()),
    }
}

/// A game's review: stored, pending (with its place in line) or none (docs/server.md).
/// Anyone may read it: a review exists only once the game is over.
async fn review(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match app.reviews.status(&id).await {
        Ok(Some(status)) => json_text(status.to_json()),
        Ok(None) => error(StatusCode::NOT_FOUND, format!("no game '{id}'")),
        Err(e) => internal(ErrorCode::Storage, "a review could not be read", &e),
    }
}

/// Asks for the review of a finished game that has none (an imported record): needs a
/// session, and a user may have [`crate::limits::Limits::reviews_per_user`] pending. A game
/// reviewed or pending already is not reviewed again: the answer says where it is.
async fn request_review(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    jar: CookieJar,
) -> Response {
    let user = match signed_session(&app, &headers, &jar).await {
        Ok(user) => user,
        Err(res) => return res,
    };
    match app.reviews.request(&id, &user.id).await {
        Ok(status) => json_text(status.to_json()),
        Err(Refused::NotFound) => error(StatusCode::NOT_FOUND, format!("no game '{id}'")),
        Err(Refused::Live) => error(StatusCode::CONFLICT, "the game is still being played"),
        Err(Refused::TooMany(e)) => {
            refuse(StatusCode::TOO_MANY_REQUESTS, ErrorCode::LimitReached, e.to_string())
        }
        Err(Refused::Failed(e)) => internal(ErrorCode::Storage, "a review could not be queued", &e),
    }
}

/// A JSON text made elsewhere, as the answer.
fn json_text(text: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text).into_response()
}

/// How many games `/api/my-games` lists.
const MY_GAMES: u32 = 50;

/// The session of a request, `None` when it has none or it is unknown or expired.
async fn request_session(
    app: &App,
    headers: &HeaderMap,
    jar: &CookieJar,
) -> Result<Option<Arc<UserCtx>>, Response> {
    let Some(token) = request_token(headers, jar) else { return Ok(None) };
    app.sessions.known(&token).await.map_err(|e| store_failed(&e))
}

/// The session of a request that needs one: `401` when it has none (or an unknown or
/// expired one).
async fn signed_session(
    app: &App,
    headers: &HeaderMap,
    jar: &CookieJar,
) -> Result<Arc<UserCtx>, Response> {
    request_session(app, headers, jar)
        .await?
        .ok_or_else(|| error(StatusCode::UNAUTHORIZED, "no session"))
}

/// The session's games, newest first. The session token comes as `Authorization: Bearer
/// <token>` or the session cookie; an unknown session has played nothing.
async fn my_games(State(app): State<Arc<App>>, headers: HeaderMap, jar: CookieJar) -> Response {
    if request_token(&headers, &jar).is_none() {
        return error(StatusCode::UNAUTHORIZED, "no session token");
    }
    let user = match request_session(&app, &headers, &jar).await {
        Ok(Some(user)) => user,
        Ok(None) => return Json(serde_json::json!({ "games": [] })).into_response(),
        Err(res) => return res,
    };
    match app.store.user_games(&user.id, MY_GAMES).await {
        Ok(rows) => {
            let games: Vec<PastGame> = rows.iter().filter_map(|r| past_game(r, &user.id)).collect();
            Json(serde_json::json!({ "games": games })).into_response()
        }
        Err(e) => store_failed(&e),
    }
}

/// The session's live games where it is their move (`401` without a session): what the
/// page's header counts. A logged-in user gets them on any device.
async fn your_turn(State(app): State<Arc<App>>, headers: HeaderMap, jar: CookieJar) -> Response {
    let user = match signed_session(&app, &headers, &jar).await {
        Ok(user) => user,
        Err(res) => return res,
    };
    let games = crate::game::your_turn(&app.games, &user.id);
    Json(serde_json::json!({ "games": games })).into_response()
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

/// A player's profile: ratings per game and speed, win/draw/loss per game, recent games.
/// Any text may come as the name: one that names nobody is a `404`.
async fn user_profile(State(app): State<Arc<App>>, Path(name): Path<String>) -> Response {
    match crate::profile::profile(&app, &name).await {
        Ok(Some(p)) => Json(p).into_response(),
        Ok(None) => error(StatusCode::NOT_FOUND, "no player by this name"),
        Err(e) => store_failed(&e),
    }
}

/// The query of `/api/leaderboard/{game}`.
#[derive(Deserialize)]
struct BoardQuery {
    speed: Option<String>,
}

/// The best non-provisional players of a game at a speed (`?speed=`, `blitz` by default).
async fn leaderboard(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
    axum::extract::Query(q): axum::extract::Query<BoardQuery>,
) -> Response {
    let Ok(kind) = game.parse::<GameKind>() else {
        return error(StatusCode::NOT_FOUND, "no such game");
    };
    let speed = match q.speed.as_deref() {
        None => crate::rating::Speed::Blitz,
        Some(name) => match crate::rating::Speed::parse(name) {
            Some(speed) => speed,
            None => {
                return error(
                    StatusCode::BAD_REQUEST,
                    "speed is one of bullet, blitz, rapid, classical, correspondence",
                );
            }
        },
    };
    match crate::profile::leaderboard(&app, kind, speed).await {
        Ok(players) => Json(serde_json::json!({
            "game": kind.name(),
            "speed": speed.name(),
            "players": players,
        }))
        .into_response(),
        Err(e) => store_failed(&e),
    }
}

/// The body of `/api/register` and `/api/login`.
#[derive(Deserialize)]
struct Credentials {
    name: String,
    password: String,
}

/// The answer to a login or registration: the new session's cookie and who it is (the
/// token too, for programs; a browser keeps only the cookie).
fn session_response(
    app: &App,
    client: Client,
    jar: CookieJar,
    result: Result<(String, Arc<UserCtx>), AccountError>,
) -> Response {
    match result {
        Ok((token, user)) => {
            let cookie = session_cookie(app, client, token.clone());
            (jar.add(cookie), Json(serde_json::json!({ "token": token, "user": user.info() })))
                .into_response()
        }
        Err(e) => account_refused(e),
    }
}

/// The answer to a refused account request: the status and code of each reason, and
/// nothing of an internal failure but its error id.
fn account_refused(e: AccountError) -> Response {
    let text = e.to_string();
    match e {
        AccountError::Invalid(_) => refuse(StatusCode::BAD_REQUEST, ErrorCode::Invalid, text),
        AccountError::Taken => refuse(StatusCode::CONFLICT, ErrorCode::Invalid, text),
        AccountError::Denied | AccountError::WrongPassword | AccountError::NoAccount => {
            refuse(StatusCode::UNAUTHORIZED, ErrorCode::Forbidden, text)
        }
        AccountError::TooSoon(wait) => too_soon(wait),
        AccountError::Busy => {
            let mut res = refuse(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::RateLimited, text);
            res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(1));
            res
        }
        AccountError::Store(e) => store_failed(&e),
        AccountError::Internal(e) => internal(ErrorCode::Internal, "the account failed", &e),
    }
}

/// Ends the request's session when it is anonymous: logging in or registering replaces it,
/// and its token should not stay valid behind the new one (docs/server.md).
async fn end_anonymous(app: &App, headers: &HeaderMap, jar: &CookieJar) {
    if let Ok(Some(user)) = request_session(app, headers, jar).await
        && !user.account
        && let Err(e) = app.sessions.replace(&user).await
    {
        tracing::warn!("an anonymous session replaced by a login stays: {e}");
    }
}

/// After a login or registration: the anonymous session it replaces ends, and the answer.
async fn signed_in(
    app: &App,
    client: Client,
    headers: &HeaderMap,
    jar: CookieJar,
    result: Result<(String, Arc<UserCtx>), AccountError>,
) -> Response {
    if result.is_ok() {
        end_anonymous(app, headers, &jar).await;
    }
    session_response(app, client, jar, result)
}

async fn register(
    State(app): State<Arc<App>>,
    client: Client,
    headers: HeaderMap,
    jar: CookieJar,
    Json(c): Json<Credentials>,
) -> Response {
    // The browser's anonymous user becomes the account, keeping its games.
    let anonymous = match request_session(&app, &headers, &jar).await {
        Ok(user) => user.filter(|u| !u.account),
        Err(res) => return res,
    };
    let result = account::register(&app, client.addr, &c.name, &c.password, anonymous).await;
    signed_in(&app, client, &headers, jar, result).await
}

async fn login(
    State(app): State<Arc<App>>,
    client: Client,
    headers: HeaderMap,
    jar: CookieJar,
    Json(c): Json<Credentials>,
) -> Response {
    let result = account::login(&app, client.addr, &c.name, &c.password).await;
    signed_in(&app, client, &headers, jar, result).await
}

/// Imports the games of a PGN file (the request's body) as finished games: each replays
/// under our rules first, and the answer lists their ids, in file order (a file with a game
/// that does not read imports nothing; the error names the game, its line and the move).
/// Needs a session, so a page's visitor can import and a script cannot do it anonymously
/// at will; bounded per address ([`crate::limits::Limits::imports_per_address`]) and to
/// [`MAX_GAMES_PER_REQUEST`] games.
async fn import(
    State(app): State<Arc<App>>,
    client: Client,
    headers: HeaderMap,
    jar: CookieJar,
    body: String,
) -> Response {
    match request_session(&app, &headers, &jar).await {
        Ok(Some(_)) => {}
        Ok(None) => return error(StatusCode::UNAUTHORIZED, "log in or open the page first"),
        Err(res) => return res,
    }
    if let Err(wait) = app.limiter.import(client.addr) {
        return too_soon(wait);
    }
    let games = match cannonade_games::pgn::read_games(&body) {
        Ok(games) if games.is_empty() => {
            return error(StatusCode::BAD_REQUEST, "the file holds no game");
        }
        Ok(games) if games.len() > MAX_GAMES_PER_REQUEST => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("at most {MAX_GAMES_PER_REQUEST} games at a time"),
            );
        }
        Ok(games) => games,
        // What is wrong with the file is the client's own text, safe to show.
        Err(e) => return error(StatusCode::BAD_REQUEST, e.to_string()),
    };
    let imported = match import_all(&games) {
        Ok(x) => x,
        Err(e) => return internal(ErrorCode::Internal, "no ids for imported games", &e),
    };
    let ids: Vec<String> = imported.iter().map(|g| g.row.id.clone()).collect();
    let stored =
        app.writer.exec(move |store| async move { store_all(&*store, &imported).await }).await;
    match stored {
        Ok(()) => Json(serde_json::json!({ "games": ids })).into_response(),
        Err(e) => store_failed(&e),
    }
}

/// Ends the request's session and removes its cookie.
async fn logout(
    State(app): State<Arc<App>>,
    client: Client,
    headers: HeaderMap,
    jar: CookieJar,
) -> Response {
    match request_session(&app, &headers, &jar).await {
        Ok(Some(user)) => {
            if let Err(e) = app.sessions.end(&user, user.session_id()).await {
                return store_failed(&e);
            }
        }
        Ok(None) => {}
        Err(res) => return res,
    }
    (jar.add(no_session_cookie(client)), Json(serde_json::json!({ "ok": true }))).into_response()
}

/// The body of `/api/password`.
#[derive(Deserialize)]
struct NewPassword {
    old: String,
    new: String,
}

/// Changes the request's account's password: the request's session stays, the others end.
async fn password(
    State(app): State<Arc<App>>,
    client: Client,
    headers: HeaderMap,
    jar: CookieJar,
    Json(p): Json<NewPassword>,
) -> Response {
    let user = match signed_session(&app, &headers, &jar).await {
        Ok(user) => user,
        Err(res) => return res,
    };
    match account::change_password(&app, client.addr, &user, &p.old, &p.new).await {
        Ok(()) => Json(serde_json::json!({ "ok": true })).into_response(),
        Err(e) => account_refused(e),
    }
}

/// The request's user's sessions.
async fn sessions(State(app): State<Arc<App>>, headers: HeaderMap, jar: CookieJar) -> Response {
    let user = match signed_session(&app, &headers, &jar).await {
        Ok(user) => user,
        Err(res) => return res,
    };
    match app.sessions.list(&user).await {
        Ok(list) => Json(serde_json::json!({ "sessions": list })).into_response(),
        Err(e) => store_failed(&e),
    }
}

/// Ends one of the request's user's sessions.
async fn end_session(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    jar: CookieJar,
    Path(id): Path<String>,
) -> Response {
    let user = match signed_session(&app, &headers, &jar).await {
        Ok(user) => user,
        Err(res) => return res,
    };
    match app.sessions.end(&user, &id).await {
        Ok(true) => Json(serde_json::json!({ "ok": true })).into_response(),
        Ok(false) => error(StatusCode::NOT_FOUND, "you have no such session"),
        Err(e) => store_failed(&e),
    }
}
