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

/// Test settings: in-memory SQLite, a short grace period.
pub fn config() -> Config {
    Config {
        db: "sqlite::memory:".into(),
        grace: Duration::from_millis(300),
        ai_max_nodes: 20_000,
        ai_max_time: Duration::from_millis(300),
        ai_pacing: false,
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
    pub async fn connect(addr: SocketAddr, token: Option<&str>) -> Client {
        let url = match token {
            Some(t) => format!("ws://{addr}/ws?token={t}"),
            None => format!("ws://{addr}/ws"),
        };
        let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        let mut c = Client { ws, frames: Vec::new(), token: String::new(), user_id: String::new() };
        match c.recv().await {
            ServerMsg::Welcome { token, user, .. } => {
                c.token = token;
                c.user_id = user.id;
            }
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

pub fn tc(initial_ms: u64, increment_ms: u64) -> cannonade_wire::TimeControl {
    cannonade_wire::TimeControl { initial_ms, increment_ms }
}

/// Two players in a fresh game through an invite: (first seat, second seat, game id).
pub async fn pair(
    addr: SocketAddr,
    kind: cannonade_games::GameKind,
    clock: cannonade_wire::TimeControl,
) -> (Client, Client, String) {
    let mut a = Client::connect(addr, None).await;
    let mut b = Client::connect(addr, None).await;
    a.send(ClientMsg::Invite { game: kind, options: String::new(), clock, rated: false }).await;
    let code = match a.until("invite", |m| matches!(m, ServerMsg::InviteCreated { .. })).await {
        ServerMsg::InviteCreated { code, .. } => code,
        _ => unreachable!(),
    };
    b.send(ClientMsg::AcceptSeek { id: code }).await;
    let (game, role_a) = a.started().await;
    let (game_b, _) = b.started().await;
    assert_eq!(game, game_b);
    for c in [&mut a, &mut b] {
        c.send(ClientMsg::Watch { game: game.clone(), since: None }).await;
        c.snapshot().await;
    }
    if role_a == cannonade_wire::Role::First { (a, b, game) } else { (b, a, game) }
}
