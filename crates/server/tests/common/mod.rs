//! A test client over a real websocket on 127.0.0.1, and a server on an ephemeral port.
#![allow(dead_code)]

use cannonade_server::{App, Config};
use cannonade_wire::{ClientMsg, ServerMsg};
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A server on an in-memory store.
pub async fn server(config: Config) -> (SocketAddr, Arc<App>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (addr, app, _task) = cannonade_server::start(config, listener).await.unwrap();
    (addr, app)
}

/// A rate no test reaches: for a limit that is not what the test is about.
pub fn plenty() -> cannonade_server::limits::Rate {
    cannonade_server::limits::Rate { burst: 100_000, every: Duration::from_micros(1) }
}

/// Test settings: in-memory SQLite, a short grace period, and room for the many sockets
/// and sessions a test opens from one address (the tests of those limits set their own).
pub fn config() -> Config {
    Config {
        db: "sqlite::memory:".into(),
        grace: Duration::from_millis(300),
        ai_max_nodes: 20_000,
        ai_max_time: Duration::from_millis(300),
        ai_pacing: false,
        // Reviews of the games tests finish stay short in a debug build, so they never
        // hold an engine thread that an AI move of a later test step waits for.
        review_depth: Some(1),
        limits: cannonade_server::limits::Limits {
            anonymous_sessions_per_address: plenty(),
            connections_per_address: 10_000,
            ..Default::default()
        },
        ..Config::default()
    }
}

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every text frame received, in order.
    pub frames: Vec<String>,
    pub token: String,
    pub user_id: String,
}

impl Client {
    /// A socket in the session `token` (the cookie, as a browser sends it), or in a new
    /// anonymous one whose token the upgrade's answer sets as a cookie.
    pub async fn connect(addr: SocketAddr, token: Option<&str>) -> Client {
        let (ws, token) = upgrade(addr, token, None).await.unwrap_or_else(|e| panic!("{e}"));
        let mut c = Client { ws, frames: Vec::new(), token, user_id: String::new() };
        match c.recv().await {
            ServerMsg::Welcome { user, .. } => c.user_id = user.id,
            other => panic!("expected welcome, got {other:?}"),
        }
        c
    }

    pub async fn send(&mut self, msg: ClientMsg) {
        self.send_text(&serde_json::to_string(&msg).unwrap()).await;
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    pub async fn recv(&mut self) -> ServerMsg {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .expect("no message within 10 s")
                .expect("socket closed")
                .expect("socket error");
            if let Message::Text(t) = msg {
                self.frames.push(t.to_string());
                return serde_json::from_str(&t).unwrap_or_else(|e| panic!("{e}: {t}"));
            }
        }
    }

    /// Reads until a message matches.
    pub async fn until(&mut self, what: &str, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        for _ in 0..500 {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
        }
        panic!("never got {what}");
    }

    /// Reads whatever arrives within `ms`.
    pub async fn drain(&mut self, ms: u64) -> Vec<ServerMsg> {
        let mut out = Vec::new();
        let end = tokio::time::Instant::now() + Duration::from_millis(ms);
        while let Ok(Some(Ok(msg))) = tokio::time::timeout_at(end, self.ws.next()).await {
            if let Message::Text(t) = msg {
                self.frames.push(t.to_string());
                out.push(serde_json::from_str(&t).unwrap());
            }
        }
        out
    }

    pub async fn error(&mut self) -> (cannonade_wire::ErrorCode, String) {
        match self.until("an error", |m| matches!(m, ServerMsg::Error { .. })).await {
            ServerMsg::Error { code, message, .. } => (code, message),
            _ => unreachable!(),
        }
    }

    pub async fn started(&mut self) -> (String, cannonade_wire::Role) {
        match self.until("game_started", |m| matches!(m, ServerMsg::GameStarted { .. })).await {
            ServerMsg::GameStarted { game, role } => (game, role),
            _ => unreachable!(),
        }
    }

    pub async fn snapshot(&mut self) -> Box<cannonade_wire::Snapshot> {
        match self.until("snapshot", |m| matches!(m, ServerMsg::Snapshot(_))).await {
            ServerMsg::Snapshot(s) => s,
            _ => unreachable!(),
        }
    }

    /// The next `moved` event: (v, ply, move, legal).
    pub async fn moved(&mut self) -> (u64, u32, String, Option<Vec<cannonade_wire::LegalMove>>) {
        let m = self
            .until("a move", |m| {
                matches!(m, ServerMsg::Event { event: cannonade_wire::GameEvent::Moved { .. }, .. })
            })
            .await;
        match m {
            ServerMsg::Event {
                v,
                event: cannonade_wire::GameEvent::Moved { ply, info, .. },
                legal,
                ..
            } => (v, ply, info.mv, legal),
            _ => unreachable!(),
        }
    }

    /// The next move that carries a reveal (spectators): the reveal and this spectator's
    /// score with it.
    pub async fn revealed(&mut self) -> (cannonade_wire::Reveal, Option<cannonade_wire::Score>) {
        let m = self
            .until("a move with its reveal", |m| {
                matches!(m, ServerMsg::Event { reveal: Some(_), .. })
            })
            .await;
        match m {
            ServerMsg::Event { reveal: Some(reveal), score, .. } => (*reveal, score),
            _ => unreachable!(),
        }
    }

    pub async fn ended(&mut self) -> cannonade_wire::GameEvent {
        let m = self
            .until("the end", |m| {
                matches!(m, ServerMsg::Event { event: cannonade_wire::GameEvent::Ended { .. }, .. })
            })
            .await;
        match m {
            ServerMsg::Event { event, .. } => event,
            _ => unreachable!(),
        }
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// The session token a response sets as its cookie.
pub fn set_cookie_token(headers: &axum::http::HeaderMap) -> Option<String> {
    let values = headers.get_all("set-cookie").iter().filter_map(|v| v.to_str().ok());
    cannonade_wire::session_from_set_cookies(values).map(str::to_string)
}

/// Opens a websocket with the session cookie `token` and an `Origin` header: the socket and
/// the session's token (the cookie set in the answer, or the one sent), or the refusal's
/// HTTP status.
pub async fn upgrade(
    addr: SocketAddr,
    token: Option<&str>,
    origin: Option<&str>,
) -> Result<(WebSocketStream<MaybeTlsStream<TcpStream>>, String), u16> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
    if let Some(t) = token {
        let cookie = cannonade_wire::session_cookie_header(t);
        req.headers_mut().insert("cookie", cookie.parse().unwrap());
    }
    if let Some(o) = origin {
        req.headers_mut().insert("origin", o.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, res)) => {
            let set = set_cookie_token(res.headers());
            Ok((ws, set.or(token.map(str::to_string)).unwrap_or_default()))
        }
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => Err(res.status().as_u16()),
        Err(e) => panic!("{e}"),
    }
}

/// An untimed hot-seat game of `game` from its own start.
pub fn untimed_hotseat(game: cannonade_games::GameKind) -> ClientMsg {
    ClientMsg::Hotseat { game, options: String::new(), clock: tc(0, 0), fen: None }
}

pub fn tc(initial_ms: u64, increment_ms: u64) -> cannonade_wire::TimeControl {
    cannonade_wire::TimeControl::fischer(initial_ms, increment_ms)
}

/// Two players in a fresh game through an invite: (first seat, second seat, game id).
pub async fn pair(
    addr: SocketAddr,
    kind: cannonade_games::GameKind,
    clock: cannonade_wire::TimeControl,
) -> (Client, Client, String) {
    pair_in(addr, kind, clock, false, [None, None]).await
}

/// [`pair`] for the sessions `tokens` (a new anonymous one for `None`), rated or not: the
/// first token's client invites, the second's accepts.
pub async fn pair_in(
    addr: SocketAddr,
    kind: cannonade_games::GameKind,
    clock: cannonade_wire::TimeControl,
    rated: bool,
    tokens: [Option<&str>; 2],
) -> (Client, Client, String) {
    let mut a = Client::connect(addr, tokens[0]).await;
    let mut b = Client::connect(addr, tokens[1]).await;
    let game_b = invite_accepted(&mut a, &mut b, kind, clock, rated)
        .await
        .unwrap_or_else(|e| panic!("the game did not start: {e:?}"));
    let (game, role_a) = a.started().await;
    assert_eq!(game, game_b);
    for c in [&mut a, &mut b] {
        c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        c.snapshot().await;
    }
    if role_a == cannonade_wire::Role::First { (a, b, game) } else { (b, a, game) }
}

/// `a` invites, `b` accepts: the game's id as `b` is told it, or the error `b` is told
/// instead (`a` hears of a started game with its own `game_started`).
pub async fn invite_accepted(
    a: &mut Client,
    b: &mut Client,
    kind: cannonade_games::GameKind,
    clock: cannonade_wire::TimeControl,
    rated: bool,
) -> Result<String, (cannonade_wire::ErrorCode, String)> {
    a.send(ClientMsg::Invite { game: kind, options: String::new(), clock, rated, range: None })
        .await;
    let code = match a.until("invite", |m| matches!(m, ServerMsg::InviteCreated { .. })).await {
        ServerMsg::InviteCreated { code, .. } => code,
        _ => unreachable!(),
    };
    b.send(ClientMsg::AcceptSeek { id: code }).await;
    let started_or_refused =
        |m: &ServerMsg| matches!(m, ServerMsg::GameStarted { .. } | ServerMsg::Error { .. });
    match b.until("game_started or an error", started_or_refused).await {
        ServerMsg::GameStarted { game, .. } => Ok(game),
        ServerMsg::Error { code, message, .. } => Err((code, message)),
        _ => unreachable!(),
    }
}

/// One HTTP request to the app's router from the address 10.0.0.9, with the session cookie
/// `token` (JSON body when it looks like JSON): the status, the body and the headers.
pub async fn http(
    app: &Arc<App>,
    method: &str,
    path: &str,
    body: &str,
    token: Option<&str>,
) -> (axum::http::StatusCode, String, axum::http::HeaderMap) {
    use axum::http::header;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let mut r = axum::http::Request::builder()
        .method(method)
        .uri(path)
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    if body.starts_with('{') {
        r.headers_mut().insert(header::CONTENT_TYPE, "application/json".parse().unwrap());
    }
    r.extensions_mut().insert(axum::extract::ConnectInfo(cannonade_server::listener::Peer(
        SocketAddr::from(([10, 0, 0, 9], 40000)),
    )));
    if let Some(t) = token {
        r.headers_mut().insert(header::COOKIE, format!("cannonade_session={t}").parse().unwrap());
    }
    let res = cannonade_server::router(app.clone()).oneshot(r).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&body).to_string(), headers)
}

/// Registers the account `name` (password "long password"): its session token.
pub async fn account(app: &Arc<App>, name: &str) -> String {
    let body = format!(r#"{{"name":"{name}","password":"long password"}}"#);
    let (status, text, _) = http(app, "POST", "/api/register", &body, None).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["token"].as_str().unwrap().to_string()
}

/// Gives the user `name` the Xiangqi rating `rating` (deviation `rd`) at `speed`, as if
/// after 30 rated games. No game row is needed: the finish of an unknown game updates no
/// game, and writes the ratings.
pub async fn rate(app: &Arc<App>, name: &str, speed: &str, rating: f64, rd: f64) {
    let user_id = app.store.user_by_name(name).await.unwrap().unwrap().id;
    let row = cannonade_store::RatingRow {
        user_id,
        kind: "xiangqi".into(),
        speed: speed.into(),
        rating,
        rd,
        volatility: 0.06,
        games: 30,
    };
    let finish = cannonade_store::Finish {
        game_id: "none".into(),
        result: "{}".into(),
        crowd: "{}".into(),
        export: String::new(),
        ended_ms: 0,
        ratings: vec![row],
    };
    app.store.finish(&finish).await.unwrap();
}

/// A live game row of `kind` from `fen` with 10 minutes a side, between two users or the engine
/// (`ai`), as a test writes it to a store.
pub fn game_row(
    id: &str,
    kind: cannonade_games::GameKind,
    options: &str,
    fen: &str,
    ai: [Option<i64>; 2],
) -> cannonade_store::GameRow {
    let user = |i: usize| ai[i].is_none().then(|| format!("{id}-u{i}"));
    cannonade_store::GameRow {
        id: id.into(),
        kind: kind.name().into(),
        options: options.into(),
        start_fen: fen.into(),
        initial_ms: 600_000,
        increment_ms: 0,
        rated: false,
        users: [user(0), user(1)],
        names: ["one".into(), "two".into()],
        ai,
        seed: None,
        commitment: None,
        status: "live".into(),
        result: None,
        crowd: None,
        export: None,
        created_ms: 1,
        ended_ms: None,
        days_per_move: 0,
    }
}
