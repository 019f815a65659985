//! One websocket: session, welcome, then requests read with size and rate limits and routed to
//! the lobby or a game actor; frames written by a task of its own.

use crate::cluster::{Cluster, SharedSeek};
use crate::conn::{CONN_QUEUE, Conn, Frame, Out};
use crate::game::{self, Cmd, GameSpec, SeatSpec};
use crate::incident;
use crate::lobby::{Offer, may_take, no_seek};
use crate::refusal::Refusal;
use crate::seek_range::{self, Standing};
use crate::state::App;
use crate::user::UserCtx;
use axum::extract::ws::{Message, WebSocket};
use cannonade_engine::Level;
use cannonade_games::GameKind;
use cannonade_wire::{
    ClientMsg, ErrorCode, MAX_ANALYSIS_LINES, MAX_CLIENT_MESSAGE, PROTOCOL_VERSION, Seat, SeekInfo,
    ServerMsg, TimeControl,
};
use futures_util::{SinkExt, StreamExt};
use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// A token bucket: `rate` messages a second, bursts of `burst`.
struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: Instant,
}

impl Bucket {
    fn take(&mut self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Refused messages in a row after which the socket is closed (a client in a loop).
const STRIKES: u32 = 100;

struct Socket {
    app: Arc<App>,
    conn: Conn,
    watching: HashSet<String>,
    lobby: Option<JoinHandle<()>>,
    /// The analysis board's search, stopped when dropped (another position, or the end).
    analysis: Option<crate::analysis::Running>,
}

/// Serves one websocket of `user`'s session, opened from `addr`, until it closes.
pub async fn run(app: Arc<App>, ws: WebSocket, user: Arc<UserCtx>, addr: IpAddr) {
    let (mut sink, mut stream) = ws.split();
    let (tx, mut rx) = mpsc::channel::<Frame>(CONN_QUEUE);
    let conn = Conn { id: app.conn_id(), user, tx: Out::Local(tx) };
    app.online.add(conn.clone());
    app.metrics.sockets.inc();
    let writer = tokio::spawn(async move {
        // Whatever has queued up behind a frame goes out with it in one write: a move and
        // its reveal cost one system call, not two.
        'frames: while let Some(frame) = rx.recv().await {
            let mut next = Some(frame);
            while let Some(frame) = next.take() {
                if sink.feed(Message::Text(frame)).await.is_err() {
                    break 'frames;
                }
                next = rx.try_recv().ok();
            }
            if sink.flush().await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    conn.send(&ServerMsg::Welcome {
        protocol: PROTOCOL_VERSION,
        user: conn.user.info(),
        games: GameKind::available_games().collect(),
    });
    let config = &app.config;
    let mut bucket = Bucket {
        tokens: config.rate_burst as f64,
        rate: config.rate_per_sec as f64,
        burst: config.rate_burst as f64,
        at: Instant::now(),
    };
    let mut socket =
        Socket { app: app.clone(), conn, watching: HashSet::new(), lobby: None, analysis: None };
    let mut strikes = 0u32;
    // The session's wake-up when it ends (`session::close_ended`), held apart from the
    // socket's state, which the loop borrows mutably.
    let user = socket.conn.user.clone();
    loop {
        // An ended session closes its sockets at once, even one that says nothing; enabled
        // before the wait so a wake-up is not lost.
        let ended = user.ended.notified();
        tokio::pin!(ended);
        ended.as_mut().enable();
        let msg = tokio::select! {
            msg = stream.next() => msg,
            () = &mut ended => {
                let (code, text) = user.end_notice();
                socket.conn.send(&ServerMsg::error(code, text, None));
                break;
            }
        };
        let Some(Ok(msg)) = msg else { break };
        let at = Instant::now();
        let refusal = match msg {
            Message::Text(text) => {
                app.metrics.messages_in.inc();
                if !app.sessions.is_open(&socket.conn.user) {
                    // Logged out or ended from the session list: the socket goes too.
                    let (code, text) = user.end_notice();
                    socket.conn.send(&ServerMsg::error(code, text, None));
                    break;
                }
                if !bucket.take(at) {
                    Some((
                        ErrorCode::RateLimited,
                        "too many messages: this one was dropped".to_string(),
                        None,
                    ))
                } else if text.len() > MAX_CLIENT_MESSAGE {
                    Some((
                        ErrorCode::TooLarge,
                        format!("messages are at most {MAX_CLIENT_MESSAGE} bytes"),
                        None,
                    ))
                } else {
                    match ClientMsg::parse(&text) {
                        Ok(msg) => {
                            let game = msg.game().map(str::to_string);
                            // Shared by the session's sockets and the address's sessions,
                            // checked after the socket's own so one loud socket does not
                            // use up its siblings' share.
                            let shared = if msg.is_play() {
                                Ok(())
                            } else {
                                app.limiter.message(&user.token_hash, addr)
                            };
                            match shared {
                                Ok(()) => {
                                    socket.dispatch(msg, at).await.err().map(|(c, t)| (c, t, game))
                                }
                                Err(limit) => Some((
                                    ErrorCode::RateLimited,
                                    format!("{limit}: this one was dropped"),
                                    game,
                                )),
                            }
                        }
                        Err(e) => Some((ErrorCode::BadMessage, e, None)),
                    }
                }
            }
            Message::Binary(_) => Some((ErrorCode::BadMessage, "text frames only".into(), None)),
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => None,
        };
        match refusal {
            Some((code, text, game)) => {
                app.count_error();
                socket.conn.send(&ServerMsg::error(code, text, game.as_deref()));
                strikes += 1;
                if strikes >= STRIKES {
                    tracing::info!(
                        conn = socket.conn.id,
                        "closing a socket after {STRIKES} refused messages"
                    );
                    break;
                }
            }
            None => strikes = 0,
        }
    }
    socket.close().await;
    // Let the writer drain what is queued (the goodbye error included), then stop.
    drop(socket);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), writer).await;
    app.metrics.sockets.dec();
}

impl Socket {
    async fn close(&mut self) {
        self.analysis = None;
        for game in self.watching.drain() {
            let handle = self.app.games.get(&game);
            if let Some(h) = handle {
                let _ = h.tx.send(Cmd::Leave { conn_id: self.conn.id }).await;
            }
        }
        if let Some(t) = self.lobby.take() {
            t.abort();
        }
        let seeks = self.app.lobby.drop_conn(self.conn.id);
        if let Some(cluster) = self.app.cluster() {
            cluster.drop_seeks(seeks);
        }
        self.app.online.remove(&self.conn.user.id, self.conn.id);
    }

    /// This socket's user's standing in `game` at the speed of `clock` (see
    /// [`seek_range::standing`]).
    async fn standing(
        &self,
        game: GameKind,
        clock: TimeControl,
    ) -> Result<Option<Standing>, Refusal> {
        seek_range::standing(self.app.store.as_ref(), &self.conn.user, game, clock)
            .await
            .map_err(|e| (ErrorCode::Storage, incident::logged("the rating could not be read", e)))
    }

    /// The standing a taker of `seek` is judged by: read only for a ranged seek.
    async fn standing_for(&self, seek: &SeekInfo) -> Result<Option<Standing>, Refusal> {
        if seek.range.is_none() {
            return Ok(None);
        }
        self.standing(seek.game, seek.clock).await
    }

    /// Adds a seek (an invite when `private`); with other nodes, the seeker is stored first
    /// and the seek is made takeable from any node.
    async fn add_seek(&self, offer: Offer, private: bool) -> Result<SeekInfo, Refusal> {
        // The seeker's rating is shown with the seek and anchors its range.
        let seeker = self.standing(offer.game, offer.clock).await?;
        let Some(cluster) = self.app.cluster() else {
            return self.app.lobby.add(&self.conn, offer, seeker, private);
        };
        // The taker's node writes the game without this socket's session: store it now.
        self.app
            .sessions
            .persist(&self.conn.user)
            .await
            .map_err(|e| (ErrorCode::Storage, incident::logged("the seek was not saved", e)))?;
        let info = self.app.lobby.add(&self.conn, offer, seeker, private)?;
        let shared = SharedSeek { info: info.clone(), user: self.conn.user.info(), private };
        if let Err(e) = cluster.put_seek(&shared).await {
            let _ = self.app.lobby.cancel(&self.conn, &info.id);
            return Err((ErrorCode::Storage, incident::logged("the seek was not shared", e)));
        }
        Ok(info)
    }

    /// Takes a seek of any node: exactly one taker gets it.
    async fn take_shared_seek(&self, cluster: &Cluster, id: &str) -> Result<SharedSeek, Refusal> {
        let gone = || no_seek(id);
        let bus = |e: crate::cluster::BusError| {
            (ErrorCode::Storage, incident::logged("the seek could not be taken", e))
        };
        let seek = cluster.peek_seek(id).await.map_err(bus)?.ok_or_else(gone)?;
        let standing = self.standing_for(&seek.info).await?;
        may_take(&seek.user.id, &seek.info, &self.conn, standing)?;
        let seek = cluster.take_seek(id).await.map_err(bus)?.ok_or_else(gone)?;
        self.app.lobby.forget(id);
        Ok(seek)
    }

    /// This socket's user as a seat; an anonymous user is written with the game.
    fn human(&self) -> SeatSpec {
        SeatSpec::Human {
            id: self.conn.user.id.clone(),
            name: self.conn.user.name.clone(),
            session: Some(self.conn.user.clone()),
        }
    }

    async fn dispatch(&mut self, msg: ClientMsg, at: Instant) -> Result<(), Refusal> {
        let app = self.app.clone();
        match msg {
            ClientMsg::Ping { n } => {
                self.conn.send(&ServerMsg::Pong { n });
            }
            ClientMsg::LobbySubscribe => {
                self.conn.send(&app.lobby.snapshot(&app));
                if self.lobby.is_none() {
                    let mut rx = app.lobby.tx.subscribe();
                    let conn = self.conn.clone();
                    self.lobby = Some(tokio::spawn(async move {
                        loop {
                            match rx.recv().await {
                                Ok(frame) => {
                                    conn.send_frame(frame);
                                }
                                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                                    continue;
                                }
                                Err(_) => break,
                            }
                        }
                    }));
                }
            }
            ClientMsg::LobbyUnsubscribe => {
                if let Some(t) = self.lobby.take() {
                    t.abort();
                }
            }
            ClientMsg::Seek { game, options, clock, rated, range } => {
                let offer = Offer { game, options, clock, rated, range };
                let seek = self.add_seek(offer, false).await?;
                if self.lobby.is_none() {
                    self.conn.send(&ServerMsg::SeekAdded { seek });
                }
            }
            ClientMsg::Invite { game, options, clock, rated, range } => {
                let offer = Offer { game, options, clock, rated, range };
                let seek = self.add_seek(offer, true).await?;
                let path = format!("/invite/{}", seek.id);
                self.conn.send(&ServerMsg::InviteCreated { code: seek.id, path });
            }
            ClientMsg::CancelSeek { id } => {
                app.lobby.cancel(&self.conn, &id)?;
                if let Some(cluster) = app.cluster() {
                    cluster.drop_seeks(vec![id]);
                }
            }
            ClientMsg::AcceptSeek { id } => {
                let (info, them) = match app.cluster() {
                    Some(cluster) => {
                        // A shared seeker was stored when the seek was made.
                        let seek = self.take_shared_seek(cluster, &id).await?;
                        let them = SeatSpec::Human {
                            id: seek.user.id,
                            name: seek.user.name,
                            session: None,
                        };
                        (seek.info, them)
                    }
                    None => {
                        let offered = app.lobby.seek(&id).ok_or_else(|| no_seek(&id))?;
                        let standing = self.standing_for(&offered).await?;
                        let seek = app.lobby.take(&self.conn, &id, standing)?;
                        let them = SeatSpec::Human {
                            id: seek.conn.user.id.clone(),
                            name: seek.conn.user.name.clone(),
                            session: Some(seek.conn.user.clone()),
                        };
                        (seek.info, them)
                    }
                };
                let me = self.human();
                // Seats by lot.
                let seats = if crate::ids::coin()? { [me, them] } else { [them, me] };
                let spec = GameSpec {
                    kind: info.game,
                    options: info.options,
                    clock: info.clock,
                    rated: info.rated,
                    seats,
                    start: None,
                };
                game::start_game(&app.games, spec).await?;
            }
            ClientMsg::PlayAi { game, options, clock, level, seat, fen } => {
                if Level::new(level).is_none() {
                    return Err((ErrorCode::Invalid, "levels run from 1 to 10".into()));
                }
                self.may_start_solo()?;
                let me = self.human();
                let seat = match seat {
                    Some(seat) => seat,
                    None if crate::ids::coin()? => Seat::First,
                    None => Seat::Second,
                };
                let seats = if seat == Seat::First {
                    [me, SeatSpec::Ai(level)]
                } else {
                    [SeatSpec::Ai(level), me]
                };
                game::start_game(
                    &app.games,
                    GameSpec { kind: game, options, clock, rated: false, seats, start: fen },
                )
                .await?;
            }
            ClientMsg::Hotseat { game, options, clock, fen } => {
                self.may_start_solo()?;
                let me = self.human();
                game::start_game(
                    &app.games,
                    GameSpec {
                        kind: game,
                        options,
                        clock,
                        rated: false,
                        seats: [me.clone(), me],
                        start: fen,
                    },
                )
                .await?;
            }
            ClientMsg::Watch { game, since } => {
                if self.watching.len() >= 32 && !self.watching.contains(&game) {
                    return Err((ErrorCode::Invalid, "a socket follows at most 32 games".into()));
                }
                let h = self.handle(&game).await?;
                self.watching.insert(game);
                let _ = h.tx.send(Cmd::Join { conn: self.conn.clone(), since }).await;
            }
            ClientMsg::Unwatch { game } => {
                // Every message gets an answer: unwatching a game this socket does not
                // follow is refused like any other mistake (hardening issue, finding 6).
                if !self.watching.remove(&game) {
                    return Err((
                        ErrorCode::NotFound,
                        "this socket does not watch that game".into(),
                    ));
                }
                let handle = app.games.get(&game);
                if let Some(h) = handle {
                    let _ = h.tx.send(Cmd::Leave { conn_id: self.conn.id }).await;
                }
            }
            ClientMsg::Analyse { id, lines, position } => {
                // The last search stops first: its slot counts against the user.
                self.analysis = None;
                if !(1..=MAX_ANALYSIS_LINES).contains(&lines) {
                    return Err((
                        ErrorCode::Invalid,
                        format!("an analysis shows 1 to {MAX_ANALYSIS_LINES} lines"),
                    ));
                }
                let record = crate::analysis::record_of(&position)
                    .map_err(|e| (ErrorCode::Invalid, e.to_string()))?;
                let conn = self.conn.clone();
                let send = Arc::new(move |msg: ServerMsg| {
                    conn.send(&msg);
                });
                let running = app
                    .analyses
                    .start(&self.conn.user.id, self.conn.id, id, lines, record, send)
                    .map_err(|e| (ErrorCode::LimitReached, e.to_string()))?;
                self.analysis = Some(running);
            }
            ClientMsg::StopAnalysis => {
                self.analysis = None;
            }
            msg => {
                let Some(id) = msg.game().map(str::to_string) else {
                    return Err((ErrorCode::BadMessage, "unexpected message".into()));
                };
                if matches!(msg, ClientMsg::Propose { .. }) {
                    // Scored under this user's id on whichever node runs the game: this
                    // node, which holds the session, stores it.
                    app.writer.store_user_soon(self.conn.user.clone());
                }
                let h = self.handle(&id).await?;
                h.client(self.conn.clone(), msg, at).await?;
            }
        }
        Ok(())
    }

    /// Refuses a new game against the engine or in hot seat to a user who plays as many
    /// already (the audit's one session held 190 untimed hot-seat games).
    fn may_start_solo(&self) -> Result<(), Refusal> {
        let max = self.app.config.limits.solo_games_per_user;
        if game::solo_games(&self.app.games, &self.conn.user.id) >= max {
            return Err((
                ErrorCode::LimitReached,
                format!("at most {max} live games against the engine or in hot seat at once"),
            ));
        }
        Ok(())
    }

    async fn handle(&self, id: &str) -> Result<game::GameHandle, Refusal> {
        if id.len() > 64 {
            return Err((ErrorCode::NotFound, "no such game".into()));
        }
        match game::get_or_load(&self.app.games, id).await {
            Ok(Some(h)) => Ok(h),
            Ok(None) => Err((ErrorCode::NotFound, format!("no game '{id}'"))),
            Err(e) => {
                Err((ErrorCode::Storage, incident::logged("the game could not be loaded", e)))
            }
        }
    }
}
