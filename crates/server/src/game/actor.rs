//! The actor of one game: the only writer of its state. Every accepted move is committed to
//! the store before anyone hears of it.

use super::clock::{Clock, Expired};
use super::export::export;
use super::proposals::{Judged, PlyCrowd, Proposals};
use super::stored::StoredEvent;
use super::{
    Audience, Cmd, Dealer, GameHandle, GameSpec, SeatSpec, SocketScore, Summary, role_of,
    start_game, with_field, with_score,
};
use crate::rating::Rating;
use crate::state::{App, Conn, Frame, Out, lock};
use cannonade_banqi::DealSeed;
use cannonade_core::{Next, Side};
use cannonade_engine::{Clock as EngineClock, Engine, Level, Limits};
use cannonade_games::{AnyGame, AnyRecord, GameKind};
use cannonade_store::{ChatRow, EventRow, Finish, GameRow, ProposalRow, RatingRow};
use cannonade_wire::{
    ChatLine, ClientMsg, ErrorCode, GameEvent, GameResult, LegalMove, MAX_CHAT_CHARS, MoveInfo,
    OfferKind, PlayerInfo, Positions, PublicPosition, Reveal, Role, Room, Score, Seat, ServerMsg,
    Snapshot, TimeControl,
};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

/// A seat's occupant.
#[derive(Clone, Debug)]
struct Player {
    user: Option<String>,
    name: String,
    ai: Option<u8>,
    rating: Option<RatingRow>,
}

/// A socket following the game.
struct Sub {
    role: Role,
    conn: Conn,
}

/// How often spectator counts and tallies go out at most. Once a second still reads as live
/// on a board; at half a second tallies were about a third of all frames under load, since a
/// ply's proposals arrive over its first seconds (docs/server.md).
const FLUSH_EVERY: Duration = Duration::from_millis(1000);
/// Chat lines kept per game for late joiners.
const CHAT_KEPT: usize = 50;

type Refusal = (ErrorCode, String);

/// A recorded move in the form spectators propose it: a Banqi flip is recorded with what it
/// revealed (`d2=C`) and proposed as a request (`d2?`).
fn proposal_form(recorded: &str) -> String {
    match recorded.split_once('=') {
        Some((square, _)) => format!("{square}?"),
        None => recorded.to_string(),
    }
}

fn refuse<T>(code: ErrorCode, text: impl Into<String>) -> Result<T, Refusal> {
    Err((code, text.into()))
}

/// The state of one game.
pub struct Actor {
    app: Arc<App>,
    id: String,
    kind: GameKind,
    options: String,
    rated: bool,
    tc: TimeControl,
    players: [Player; 2],
    start: AnyGame,
    record: AnyRecord,
    moves: Vec<MoveInfo>,
    dealer: Option<Dealer>,
    commitment: Option<String>,
    clock: Clock,
    /// Every event as sent (without legal moves): version `i + 1` is `events[i]`. Kept as
    /// JSON, which is both what a replay sends and smaller than the typed event.
    events: Vec<Frame>,
    result: Option<GameResult>,
    revealed_seed: Option<String>,
    offers: Vec<(OfferKind, Seat)>,
    rematch: Option<String>,
    finished_stored: bool,
    subs: HashMap<u64, Sub>,
    online: [u32; 2],
    offline_since: [Option<Instant>; 2],
    chat: VecDeque<ChatLine>,
    /// The number of the game's last stored chat line.
    chat_stored: i64,
    proposals: Proposals,
    tally_dirty: bool,
    /// Stored proposals not acknowledged yet (socket, ply, move): their `proposal_ok` goes
    /// out with the game's next tally, or before the move that ends their ply, so that it
    /// shares the spectator's socket write with that frame instead of costing one of its own.
    acks: Vec<(Conn, u32, String)>,
    spectators_sent: u32,
    flush_at: Option<Instant>,
    ai_busy: bool,
    ai_stop: Arc<AtomicBool>,
    /// The legal moves as the JSON list sent with the last event (`[]` when nobody is to
    /// move), written once a ply.
    legal: String,
    summary: Arc<Summary>,
    idle_since: Option<Instant>,
    self_tx: Option<mpsc::WeakSender<Cmd>>,
    /// This node lost the game's lease: the actor ends after the current command.
    handed_over: bool,
}

fn seat_of(side: Side) -> Seat {
    side.into()
}

fn parse_result(text: &Option<String>) -> Option<GameResult> {
    text.as_deref().and_then(|t| serde_json::from_str(t).ok())
}

impl Actor {
    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Rebuilds a game from its stored row and events.
    pub async fn restore(
        app: &Arc<App>,
        row: GameRow,
        events: Vec<cannonade_store::EventRow>,
    ) -> Result<Actor, String> {
        let (spec, start) = super::replay::start_of(&row)?;
        let kind = spec.kind();
        let dealer = match (&row.seed, &start) {
            (Some(hex), AnyGame::Banqi(p)) => {
                Some(Dealer::new(p, DealSeed::from_hex(hex).map_err(|e| e.to_string())?))
            }
            (Some(_), _) => return Err("a seed for a game without a deal".into()),
            _ => None,
        };
        let tc = TimeControl {
            initial_ms: row.initial_ms.max(0) as u64,
            increment_ms: row.increment_ms.max(0) as u64,
        };
        let mut players = Vec::new();
        for i in 0..2 {
            let rating = match (&row.users[i], row.rated) {
                (Some(u), true) => {
                    app.store.rating(u, kind.name()).await.map_err(|e| e.to_string())?
                }
                _ => None,
            };
            players.push(Player {
                user: row.users[i].clone(),
                name: row.names[i].clone(),
                ai: row.ai[i].map(|l| l.clamp(1, 10) as u8),
                rating,
            });
        }
        let players: [Player; 2] = [players[0].clone(), players[1].clone()];
        let summary =
            Arc::new(Summary::new(kind, [row.names[0].clone(), row.names[1].clone()], false));
        let now = Instant::now();
        let mut actor = Actor {
            app: app.clone(),
            id: row.id.clone(),
            kind,
            options: row.options.clone(),
            rated: row.rated,
            tc,
            record: AnyRecord::with_start(&spec, start.clone()).map_err(|e| e.to_string())?,
            start,
            moves: Vec::new(),
            commitment: row.commitment.clone(),
            dealer,
            clock: Clock::new(tc, spec.game_ms()),
            events: Vec::new(),
            result: None,
            revealed_seed: None,
            offers: Vec::new(),
            rematch: None,
            finished_stored: row.status == "over",
            subs: HashMap::new(),
            online: [0, 0],
            offline_since: [
                players[0].ai.is_none().then_some(now),
                players[1].ai.is_none().then_some(now),
            ],
            players,
            chat: VecDeque::new(),
            chat_stored: 0,
            proposals: Proposals::default(),
            tally_dirty: false,
            acks: Vec::new(),
            spectators_sent: 0,
            flush_at: None,
            ai_busy: false,
            ai_stop: Arc::new(AtomicBool::new(false)),
            legal: String::from("[]"),
            summary,
            idle_since: None,
            self_tx: None,
            handed_over: false,
        };
        for e in events {
            let stored: StoredEvent =
                serde_json::from_str(&e.body).map_err(|err| format!("event {}: {err}", e.v))?;
            actor.apply(&stored)?;
            let event = stored.into_event(|| PublicPosition::of(&actor.record.position()));
            let v = actor.events.len() as u64 + 1;
            let msg = ServerMsg::Event {
                game: actor.id.clone(),
                v,
                event,
                legal: None,
                reveal: None,
                score: None,
            };
            actor.events.push(Frame::from(msg.to_json()));
        }
        if actor.result.is_none()
            && let Some(r) = parse_result(&row.result)
        {
            actor.result = Some(r);
        }
        for line in app.store.chat(&row.id, CHAT_KEPT as u32).await.map_err(|e| e.to_string())? {
            let read: ChatLine =
                serde_json::from_str(&line.body).map_err(|e| format!("chat {}: {e}", line.n))?;
            actor.chat.push_back(read);
            actor.chat_stored = line.n;
        }
        let ply = actor.moves.len() as u32;
        actor.proposals.reset(ply);
        // The open ply's proposals that spectators were told were taken.
        if actor.result.is_none() {
            for p in app.store.proposals(&row.id, ply as i64).await.map_err(|e| e.to_string())? {
                actor.proposals.propose(&p.user_id, ply, &p.mv);
            }
        }
        // Downtime is not charged: the side to move starts from the time stored with the
        // last move, now.
        if actor.result.is_none() && !actor.moves.is_empty() {
            actor.clock.start(actor.record.position().mover(), now);
        }
        actor.summary.moves.store(actor.moves.len() as u32, Relaxed);
        actor.summary.over.store(actor.result.is_some(), Relaxed);
        actor.refresh_legal();
        Ok(actor)
    }

    /// Applies a stored event to the state (recovery), without telling anyone.
    fn apply(&mut self, event: &StoredEvent) -> Result<(), String> {
        match event {
            StoredEvent::Moved { info, clock, crowd, .. } => {
                self.record
                    .play_text(&info.mv)
                    .map_err(|e| format!("stored move {}: {e}", info.mv))?;
                self.proposals.settle(info.seat.into(), crowd.as_ref());
                self.moves.push(info.clone());
                self.clock = Clock::restored(self.tc, clock);
                self.offers.retain(|(k, _)| *k == OfferKind::Rematch);
            }
            StoredEvent::Offered { kind, seat } => self.offers.push((*kind, *seat)),
            StoredEvent::Declined { kind, .. } => self.offers.retain(|(k, _)| k != kind),
            StoredEvent::TakenBack { moves, clock } => {
                let keep = self.moves.len().saturating_sub(*moves as usize);
                self.moves.truncate(keep);
                self.rebuild()?;
                self.clock = Clock::restored(self.tc, clock);
                self.offers.clear();
            }
            StoredEvent::Ended { result, seed, .. } => {
                self.result = Some(result.clone());
                self.revealed_seed = seed.clone();
                self.offers.clear();
            }
            StoredEvent::Rematch { game } => {
                self.rematch = Some(game.clone());
                self.offers.clear();
            }
        }
        Ok(())
    }

    /// Replays the move list from the start.
    fn rebuild(&mut self) -> Result<(), String> {
        self.record =
            super::replay::record(&self.record.spec().clone(), &self.start, &self.moves, |_| {})?;
        Ok(())
    }

    /// Starts the task; the game is then reachable only through the handle.
    pub fn spawn(mut self) -> GameHandle {
        let (tx, rx) = mpsc::channel(1024);
        self.self_tx = Some(tx.downgrade());
        let handle = GameHandle { tx, summary: self.summary.clone() };
        if self.result.is_none() {
            self.app.metrics.live_games.fetch_add(1, Relaxed);
        }
        tokio::spawn(self.run(rx));
        handle
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        // A game that ended before a crash but whose end was not stored is finished now.
        if self.result.is_some() && !self.finished_stored {
            self.store_finish().await;
        }
        // A move that ended the game was stored but its end was not (a crash in between).
        if self.result.is_none()
            && let Next::Over(outcome) = self.record.judge(false)
            && let Err((_, e)) = self.end(outcome.winner, outcome.reason.as_str()).await
        {
            tracing::error!(game = %self.id, "could not end the game: {e}");
        }
        self.maybe_ai();
        loop {
            let deadline = if self.result.is_none() { self.clock.deadline() } else { None };
            let linger = match (self.result.is_some(), self.subs.is_empty(), self.idle_since) {
                (true, true, Some(t)) => Some(t + self.app.config.linger),
                _ => None,
            };
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = wait(deadline) => self.on_deadline().await,
                _ = wait(self.flush_at) => self.flush(),
                _ = wait(linger) => break,
            }
            if self.handed_over {
                break;
            }
            if self.result.is_some() && self.subs.is_empty() {
                self.idle_since.get_or_insert_with(Instant::now);
            } else {
                self.idle_since = None;
            }
            self.maybe_ai();
        }
        self.ai_stop.store(true, Relaxed);
        let mut games = lock(&self.app.games);
        if games.get(&self.id).is_some_and(|h| Arc::ptr_eq(&h.summary, &self.summary)) {
            games.remove(&self.id);
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join { conn, since } => self.join(conn, since),
            Cmd::Leave { conn_id } => self.leave(conn_id),
            Cmd::Lost => self.hand_over(),
            Cmd::Following { node, conns } => self.keep_following(&node, &conns),
            Cmd::Positions { reply } => {
                let _ = reply.send(self.positions());
            }
            Cmd::Client { conn, msg, at } => {
                let game = self.id.clone();
                if let Err((code, text)) = self.client(&conn, msg, at).await {
                    self.app.count_error();
                    conn.send(&ServerMsg::error(code, text, Some(&game)));
                }
            }
            Cmd::Proposed { conn, ply, mv, stored } => match stored {
                // Only the live proposal is acknowledged: stores may answer out of order,
                // and a client shows the last one it was told of as its own.
                Ok(()) if self.proposals.is_current(&conn.user.id, ply, &mv) => {
                    self.acks.push((conn, ply, mv));
                    self.schedule_flush();
                }
                Ok(()) => {}
                Err(e) => {
                    tracing::error!(game = %self.id, "store: {e}");
                    if self.proposals.withdraw(&conn.user.id, ply, &mv) {
                        self.tally_dirty = true;
                        self.schedule_flush();
                    }
                    let text = format!("the proposal could not be saved: {e}");
                    conn.send(&ServerMsg::error(ErrorCode::Storage, text, Some(&self.id)));
                }
            },
            Cmd::Ai { ply, mv } => {
                self.ai_busy = false;
                if self.result.is_some() || ply as usize != self.moves.len() {
                    return;
                }
                let side = self.record.position().mover();
                let Some(mv) = mv else {
                    tracing::warn!(game = %self.id, "the engine found no move");
                    return;
                };
                let text = self.record.position().move_text(mv);
                if let Err((_, e)) = self.play(side, &text, Instant::now()).await {
                    tracing::warn!(game = %self.id, "the engine's move {text} was refused: {e}");
                }
            }
        }
    }

    fn role_of(&self, user: &str) -> Role {
        role_of(&[self.players[0].user.clone(), self.players[1].user.clone()], user)
    }

    fn hotseat(&self) -> bool {
        self.players[0].user.is_some() && self.players[0].user == self.players[1].user
    }

    /// The seat to move, while the game runs.
    fn to_move(&self) -> Option<Side> {
        if self.result.is_some() {
            return None;
        }
        match self.record.next() {
            Next::Player(side) => Some(side),
            _ => None,
        }
    }

    fn refresh_legal(&mut self) {
        self.legal = if self.to_move().is_some() {
            let pos = self.record.position();
            LegalMove::list_json(&pos, &pos.legal_moves())
        } else {
            String::from("[]")
        };
    }

    /// The legal moves as a snapshot lists them.
    fn legal_moves(&self) -> Vec<LegalMove> {
        if self.to_move().is_none() {
            return Vec::new();
        }
        let pos = self.record.position();
        pos.legal_moves().into_iter().map(|m| LegalMove::of(&pos, m)).collect()
    }

    /// Whether a role receives the legal moves: the seat to move and spectators.
    fn gets_legal(&self, role: Role) -> bool {
        match self.to_move() {
            Some(side) => role == Role::Spectator || role.holds(side.into()),
            None => false,
        }
    }

    fn spectator_count(&self) -> u32 {
        self.subs.values().filter(|s| s.role == Role::Spectator).count() as u32
    }

    fn schedule_flush(&mut self) {
        if self.flush_at.is_none() {
            self.flush_at = Some(Instant::now() + FLUSH_EVERY);
        }
    }

    /// Sends `frame` to the subscribers `to` admits; drops those too far behind. Sockets of
    /// other nodes get it through their node, once per node.
    fn send_where(&mut self, frame: &Frame, to: Audience) {
        self.send_versioned(frame, to, None, None);
    }

    /// [`Self::send_where`] for a frame carrying the game event of version `v`: the nodes
    /// that relay it keep the version their sockets have. A spectator with a score in
    /// `scores` (by user) gets the frame with their score added; another node adds it for
    /// its sockets from the list that comes with the frame.
    fn send_versioned(
        &mut self,
        frame: &Frame,
        to: Audience,
        v: Option<u64>,
        scores: Option<&HashMap<String, (u32, u32)>>,
    ) {
        let mut slow = Vec::new();
        let mut sent = 0u64;
        let mut nodes: Vec<(&Arc<str>, Vec<SocketScore>)> = Vec::new();
        // Players first: a move reaches the opponent before thousands of spectators.
        let players = self.subs.iter().filter(|(_, s)| s.role.is_player());
        let spectators = self.subs.iter().filter(|(_, s)| !s.role.is_player());
        for (id, sub) in players.chain(spectators) {
            let score = scores
                .filter(|_| sub.role == Role::Spectator && to.admits(sub.role))
                .and_then(|s| s.get(&sub.conn.user.id));
            if let Out::Remote(r) = &sub.conn.tx {
                let at = match nodes.iter().position(|(n, _)| **n == r.node) {
                    Some(at) => at,
                    None => {
                        nodes.push((&r.node, Vec::new()));
                        nodes.len() - 1
                    }
                };
                if let Some(&(hits, total)) = score {
                    nodes[at].1.push((r.conn, hits, total));
                }
                continue;
            }
            if to.admits(sub.role) {
                let frame = match score {
                    Some(&(hits, total)) => with_score(frame, hits, total),
                    None => frame.clone(),
                };
                match sub.conn.tx.try_send(frame) {
                    Ok(()) => sent += 1,
                    Err(mpsc::error::TrySendError::Full(_)) => slow.push((*id, true)),
                    // The socket closed; its leave message is on its way.
                    Err(mpsc::error::TrySendError::Closed(_)) => slow.push((*id, false)),
                }
            }
        }
        if let Some(cluster) = self.app.cluster() {
            for (node, scores) in nodes {
                cluster.broadcast(node, &self.id, to, v, frame, scores);
            }
        }
        self.app.metrics.frames_out.fetch_add(sent, Relaxed);
        for (id, behind) in slow {
            if behind {
                self.app.metrics.slow_drops.fetch_add(1, Relaxed);
            }
            self.leave(id);
        }
    }

    fn players_of(&self) -> [PlayerInfo; 2] {
        std::array::from_fn(|i| {
            let p = &self.players[i];
            PlayerInfo {
                name: p.name.clone(),
                rating: p.rating.as_ref().map(|r| r.rating.round() as i32),
                ai: p.ai.is_some(),
                online: p.ai.is_some() || self.online[i] > 0,
            }
        })
    }

    fn snapshot(&self, role: Role) -> Snapshot {
        let now = Instant::now();
        let spectator = role == Role::Spectator;
        let chat =
            self.chat.iter().filter(|l| spectator || l.room == Room::Players).cloned().collect();
        Snapshot {
            game: self.id.clone(),
            v: self.events.len() as u64,
            kind: self.kind,
            options: self.options.clone(),
            rated: self.rated,
            geometry: cannonade_wire::Geometry::of(self.kind),
            start: PublicPosition::of(&self.start),
            position: PublicPosition::of(&self.record.position()),
            moves: self.moves.clone(),
            players: self.players_of(),
            you: role,
            time_control: self.tc,
            clock: self.clock.state(now),
            legal: self.gets_legal(role).then(|| self.legal_moves()),
            offers: self.offers.clone(),
            result: self.result.clone(),
            commitment: self.commitment.clone(),
            seed: self.revealed_seed.clone(),
            spectators: self.spectator_count(),
            chat,
            // Players see the crowd only once the game is over.
            crowd: (spectator || self.result.is_some()).then(|| self.proposals.crowd()),
            rematch: self.rematch.clone(),
        }
    }

    /// The start and the position after each move, replayed from the move list (public
    /// views: a Banqi deal never gets in).
    fn positions(&self) -> Result<Positions, String> {
        let positions = super::replay::positions(self.record.spec(), &self.start, &self.moves)?;
        Ok(Positions { game: self.id.clone(), v: self.events.len() as u64, positions })
    }

    fn join(&mut self, conn: Conn, since: Option<u64>) {
        let role = self.role_of(&conn.user.id);
        let v = self.events.len() as u64;
        match since {
            Some(s) if s <= v => {
                // The missing events, the last with the legal moves if this role gets them,
                // then the clocks as they are now.
                let give_legal = self.gets_legal(role);
                for (i, frame) in self.events.iter().enumerate().skip(s as usize) {
                    if i + 1 == self.events.len() && give_legal {
                        conn.send_frame(Frame::from(with_legal(frame.as_str(), &self.legal)));
                    } else {
                        conn.send_frame(frame.clone());
                    }
                }
                conn.send(&ServerMsg::Clock {
                    game: self.id.clone(),
                    clock: self.clock.state(Instant::now()),
                });
            }
            _ => {
                conn.send(&ServerMsg::Snapshot(Box::new(self.snapshot(role))));
            }
        }
        // A spectator's own score, which a reload or a restart would otherwise hide until the
        // next reveal.
        if role == Role::Spectator
            && let Some((hits, total)) = self.proposals.score(&conn.user.id)
        {
            conn.send(&ServerMsg::Score { game: self.id.clone(), score: Score { hits, total } });
        }
        if let Out::Remote(r) = &conn.tx {
            // After its frames on the same topic: its node hands it broadcasts from here.
            r.cluster.synced(&r.node, &self.id, r.conn, v);
        }
        match self.subs.insert(conn.id, Sub { role, conn }) {
            // The same socket again (a resync): no presence change.
            Some(old) if old.role == role => {}
            Some(old) => {
                self.seat_presence(old.role, -1);
                self.seat_presence(role, 1);
            }
            None => self.seat_presence(role, 1),
        }
        self.schedule_flush();
    }

    /// Of the sockets of another node, keeps those in `conns` (all of that node's sockets in
    /// the game); the others left, and their `leave` was lost.
    fn keep_following(&mut self, node: &str, conns: &[u64]) {
        let gone: Vec<u64> = self
            .subs
            .iter()
            .filter(|(id, s)| {
                s.conn.tx.remote_node().is_some_and(|n| **n == *node) && !conns.contains(id)
            })
            .map(|(id, _)| *id)
            .collect();
        for id in gone {
            self.leave(id);
        }
    }

    /// This node lost the game's lease (another node took it, taking this one for dead):
    /// the actor ends, this node's sockets move to the game's new owner, and the nodes of
    /// the other sockets are told to look for it.
    fn hand_over(&mut self) {
        self.handed_over = true;
        self.ai_stop.store(true, Relaxed);
        if self.result.is_none() {
            self.app.metrics.live_games.fetch_sub(1, Relaxed);
        }
        let Some(cluster) = self.app.cluster().cloned() else { return };
        let mut local = Vec::new();
        let mut nodes: Vec<Arc<str>> = Vec::new();
        for (_, sub) in self.subs.drain() {
            match sub.conn.tx.remote_node() {
                Some(node) if !nodes.contains(node) => nodes.push(node.clone()),
                Some(_) => {}
                None => local.push(sub.conn),
            }
        }
        for node in nodes {
            cluster.redirect(&node, &self.id);
        }
        let (app, id) = (self.app.clone(), self.id.clone());
        tokio::spawn(async move { cluster.rehome(&app, &id, local).await });
    }

    fn leave(&mut self, conn_id: u64) {
        if let Some(sub) = self.subs.remove(&conn_id) {
            self.seat_presence(sub.role, -1);
            self.schedule_flush();
        }
    }

    /// Counts a player's sockets; tells everyone when a seat comes or goes.
    fn seat_presence(&mut self, role: Role, delta: i32) {
        if self.hotseat() {
            return;
        }
        let seat = match role {
            Role::First => 0,
            Role::Second => 1,
            _ => return,
        };
        let before = self.online[seat];
        self.online[seat] = (before as i32 + delta).max(0) as u32;
        let now_online = self.online[seat] > 0;
        if (before > 0) == now_online {
            return;
        }
        self.offline_since[seat] = (!now_online).then(Instant::now);
        if self.result.is_some() {
            return;
        }
        let msg = ServerMsg::Presence {
            game: self.id.clone(),
            seat: if seat == 0 { Seat::First } else { Seat::Second },
            online: now_online,
            claim_in_ms: (!now_online).then(|| self.app.config.grace.as_millis() as u64),
        };
        let frame = Frame::from(msg.to_json());
        self.send_where(&frame, Audience::All);
    }

    fn flush(&mut self) {
        self.flush_at = None;
        let count = self.spectator_count();
        if count != self.spectators_sent {
            self.spectators_sent = count;
            self.summary.spectators.store(count, Relaxed);
            let frame =
                Frame::from(ServerMsg::Spectators { game: self.id.clone(), count }.to_json());
            self.send_where(&frame, Audience::All);
        }
        self.send_acks();
        if self.tally_dirty {
            self.tally_dirty = false;
            let msg = ServerMsg::Tally {
                game: self.id.clone(),
                ply: self.proposals.ply(),
                counts: self.proposals.tally(),
            };
            let frame = Frame::from(msg.to_json());
            self.send_where(&frame, Audience::Spectators);
        }
    }

    /// Acknowledges the stored proposals that are still their spectators' live ones.
    fn send_acks(&mut self) {
        for (conn, ply, mv) in std::mem::take(&mut self.acks) {
            if self.proposals.is_current(&conn.user.id, ply, &mv) {
                conn.send(&ServerMsg::ProposalOk { game: self.id.clone(), ply, mv });
            }
        }
    }

    /// Stores events (one transaction), then numbers them and sends them out: the legal
    /// moves go with the last one to the seat to move and to spectators.
    async fn publish(&mut self, events: Vec<GameEvent>) -> Result<(), Refusal> {
        self.publish_with(events, None).await
    }

    /// [`Self::publish`] of a move, with how its ply's proposals went: stored with the move,
    /// settled once it is stored, and revealed to spectators with the move.
    async fn publish_with(
        &mut self,
        events: Vec<GameEvent>,
        ply: Option<(Side, String, Judged)>,
    ) -> Result<(), Refusal> {
        let crowd = ply.as_ref().and_then(|(_, _, judged)| judged.crowd.clone());
        self.store_events(&events, crowd).await?;
        let revealed = ply.and_then(|(side, played, judged)| self.settle(side, played, judged));
        self.broadcast_events(events, revealed);
        Ok(())
    }

    /// Stores events, the first with how its ply's proposals went (a move's), in one
    /// transaction; nothing is told yet.
    async fn store_events(
        &mut self,
        events: &[GameEvent],
        crowd: Option<PlyCrowd>,
    ) -> Result<(), Refusal> {
        let base = self.events.len() as i64;
        let mut crowd = crowd;
        let rows = events
            .iter()
            .enumerate()
            .map(|(i, e)| EventRow {
                game_id: self.id.clone(),
                v: base + i as i64 + 1,
                body: StoredEvent::of_move(e, crowd.take()).to_body(),
            })
            .collect();
        self.app.writer.append(rows).await.map_err(|e| {
            tracing::error!(game = %self.id, "store: {e}");
            (ErrorCode::Storage, format!("the game could not be saved, nothing changed: {e}"))
        })
    }

    /// Numbers stored events and sends them out: the legal moves go with the last one to the
    /// seat to move and to spectators, and a move's reveal (JSON) to spectators with each
    /// one's score (by user).
    fn broadcast_events(&mut self, events: Vec<GameEvent>, revealed: Option<Revealed>) {
        let n = events.len();
        for (i, event) in events.into_iter().enumerate() {
            let v = self.events.len() as u64 + 1;
            let plain = ServerMsg::Event {
                game: self.id.clone(),
                v,
                event,
                legal: None,
                reveal: None,
                score: None,
            };
            let without = Frame::from(plain.to_json());
            self.events.push(without.clone());
            let last = i + 1 == n;
            let mover = self.to_move().map(Seat::from).filter(|_| last);
            let with = mover.map(|_| Frame::from(with_legal(without.as_str(), &self.legal)));
            // With a reveal, spectators get their own frame (the move, its legal moves, the
            // reveal and each one's score), so the players' frames go to players only.
            let reveal = revealed.as_ref().filter(|_| last);
            match mover.zip(with.as_ref()) {
                Some((mover, with)) => {
                    let to = match reveal {
                        Some(_) => Audience::Mover(mover),
                        None => Audience::WithLegal(mover),
                    };
                    self.send_versioned(with, to, Some(v), None);
                    self.send_versioned(&without, Audience::WithoutLegal(mover), Some(v), None);
                }
                None => {
                    let to = if reveal.is_some() { Audience::Players } else { Audience::All };
                    self.send_versioned(&without, to, Some(v), None);
                }
            }
            if let Some((reveal, scores)) = reveal {
                let base = with.as_ref().unwrap_or(&without);
                let frame = Frame::from(with_field(base.as_str(), "reveal", reveal));
                self.send_versioned(&frame, Audience::Spectators, Some(v), Some(scores));
            }
        }
    }

    async fn client(&mut self, conn: &Conn, msg: ClientMsg, at: Instant) -> Result<(), Refusal> {
        let role = self.role_of(&conn.user.id);
        match msg {
            ClientMsg::Move { ply, mv, .. } => {
                let Some(side) = self.to_move() else {
                    return refuse(ErrorCode::GameOver, "the game is over");
                };
                if !role.is_player() {
                    return refuse(ErrorCode::Forbidden, "spectators cannot move (use `propose`)");
                }
                if !role.holds(side.into()) {
                    return refuse(ErrorCode::NotYourTurn, "it is your opponent's move");
                }
                if ply as usize != self.moves.len() {
                    return refuse(
                        ErrorCode::StalePly,
                        format!("the game is at ply {}, not {ply}", self.moves.len()),
                    );
                }
                self.play(side, &mv, at).await
            }
            ClientMsg::Propose { ply, mv, .. } => {
                if role != Role::Spectator {
                    return refuse(ErrorCode::Forbidden, "only spectators propose moves");
                }
                if self.to_move().is_none() {
                    return refuse(ErrorCode::GameOver, "the game is over");
                }
                if ply as usize != self.moves.len() {
                    return refuse(
                        ErrorCode::StalePly,
                        format!("the game is at ply {}, not {ply}", self.moves.len()),
                    );
                }
                let pos = self.record.position();
                let m = pos.parse_move(&mv).map_err(|e| (ErrorCode::IllegalMove, e.to_string()))?;
                let text = pos.move_text(m);
                // Counted at once; acknowledged once stored (with the next group commit,
                // off the actor's path), so an acknowledged proposal survives a restart. A
                // proposal replaced before it is stored, or whose ply is played by then, is
                // not acknowledged.
                let Some(tx) = self.self_tx.as_ref().and_then(|w| w.upgrade()) else {
                    return refuse(ErrorCode::Storage, "the game is closing");
                };
                self.proposals.propose(&conn.user.id, ply, &text);
                self.tally_dirty = true;
                self.schedule_flush();
                let row = ProposalRow {
                    game_id: self.id.clone(),
                    user_id: conn.user.id.clone(),
                    ply: ply as i64,
                    mv: text.clone(),
                };
                let writer = self.app.writer.clone();
                let conn = conn.clone();
                tokio::spawn(async move {
                    let stored = writer.propose(row).await.map_err(|e| e.to_string());
                    let _ = tx.send(Cmd::Proposed { conn, ply, mv: text, stored }).await;
                });
                Ok(())
            }
            ClientMsg::Resign { .. } => {
                let seat = self.acting_seat(role)?;
                self.end(Some(seat.opponent()), "resignation").await
            }
            ClientMsg::Abort { .. } => {
                self.acting_seat(role)?;
                if self.moves.len() >= 2 {
                    return refuse(
                        ErrorCode::Invalid,
                        "a game can be aborted only before both sides moved",
                    );
                }
                self.end(None, "aborted").await
            }
            ClientMsg::Claim { .. } => {
                let seat = self.acting_seat(role)?;
                let other = seat.opponent();
                if self.players[other.index()].ai.is_some() || self.hotseat() {
                    return refuse(ErrorCode::Invalid, "there is nobody to claim against");
                }
                let Some(since) = self.offline_since[other.index()] else {
                    return refuse(ErrorCode::Invalid, "your opponent is connected");
                };
                let ready = since + self.app.config.grace;
                let now = Instant::now();
                if now < ready {
                    let ms = (ready - now).as_millis();
                    return refuse(
                        ErrorCode::Invalid,
                        format!("your opponent has {ms} ms left to come back"),
                    );
                }
                self.end(Some(seat), "abandonment").await
            }
            ClientMsg::Offer { kind, .. } => self.offer(role, kind).await,
            ClientMsg::Accept { kind, .. } => {
                let seat = self.player_seat(role)?;
                let Some(&(_, by)) =
                    self.offers.iter().find(|(k, s)| *k == kind && *s != seat.into())
                else {
                    return refuse(ErrorCode::Invalid, "there is no such offer from your opponent");
                };
                self.carry_out(kind, by.into()).await
            }
            ClientMsg::Decline { kind, .. } => {
                let seat = self.player_seat(role)?;
                if !self.offers.iter().any(|(k, s)| *k == kind && *s != seat.into()) {
                    return refuse(ErrorCode::Invalid, "there is no such offer from your opponent");
                }
                self.offers.retain(|(k, _)| *k != kind);
                self.publish(vec![GameEvent::Declined { kind, seat: seat.into() }]).await
            }
            ClientMsg::Chat { text, .. } => {
                let text = text.trim();
                if text.is_empty() || text.chars().count() > MAX_CHAT_CHARS {
                    return refuse(
                        ErrorCode::Invalid,
                        format!("a chat line has 1 to {MAX_CHAT_CHARS} characters"),
                    );
                }
                let room = if role.is_player() { Room::Players } else { Room::Spectators };
                let line = ChatLine { room, from: conn.user.name.clone(), text: text.to_string() };
                // Stored before anyone sees it, as a move is: a restart loses no line.
                let row = ChatRow {
                    game_id: self.id.clone(),
                    n: self.chat_stored + 1,
                    body: serde_json::to_string(&line).unwrap_or_default(),
                };
                self.app
                    .writer
                    .exec(move |store| async move { store.add_chat(&row).await })
                    .await
                    .map_err(|e| {
                        tracing::error!(game = %self.id, "store: {e}");
                        (ErrorCode::Storage, format!("the chat line could not be saved: {e}"))
                    })?;
                self.chat_stored += 1;
                if self.chat.len() == CHAT_KEPT {
                    self.chat.pop_front();
                }
                self.chat.push_back(line.clone());
                let frame = Frame::from(ServerMsg::Chat { game: self.id.clone(), line }.to_json());
                let to = if room == Room::Players { Audience::All } else { Audience::Spectators };
                self.send_where(&frame, to);
                Ok(())
            }
            other => refuse(ErrorCode::BadMessage, format!("{other:?} is not a game request")),
        }
    }

    /// The seat a player acts for: their own, or in hot-seat the seat to move.
    fn acting_seat(&self, role: Role) -> Result<Side, Refusal> {
        if self.result.is_some() {
            return refuse(ErrorCode::GameOver, "the game is over");
        }
        self.player_seat(role)
    }

    fn player_seat(&self, role: Role) -> Result<Side, Refusal> {
        match role {
            Role::First => Ok(Side::First),
            Role::Second => Ok(Side::Second),
            Role::Both => Ok(self.record.position().mover()),
            Role::Spectator => refuse(ErrorCode::Forbidden, "only the players can do this"),
        }
    }

    async fn offer(&mut self, role: Role, kind: OfferKind) -> Result<(), Refusal> {
        let seat = self.player_seat(role)?;
        match kind {
            OfferKind::Rematch if self.result.is_none() => {
                return refuse(ErrorCode::Invalid, "a rematch is offered after the end");
            }
            OfferKind::Rematch if self.rematch.is_some() => {
                return refuse(ErrorCode::Invalid, "the rematch is already agreed");
            }
            OfferKind::Draw | OfferKind::Takeback if self.result.is_some() => {
                return refuse(ErrorCode::GameOver, "the game is over");
            }
            OfferKind::Takeback if self.rated => {
                return refuse(ErrorCode::Invalid, "takebacks are for casual games");
            }
            OfferKind::Takeback if self.moves.is_empty() => {
                return refuse(ErrorCode::Invalid, "there is no move to take back");
            }
            _ => {}
        }
        let other = seat.opponent();
        // The opponent offered the same: that is an agreement.
        if self.offers.iter().any(|(k, s)| *k == kind && *s == other.into()) || self.hotseat() {
            return self.carry_out(kind, seat).await;
        }
        if self.offers.iter().any(|(k, s)| *k == kind && *s == seat.into()) {
            return refuse(ErrorCode::Invalid, "you already made this offer");
        }
        if self.players[other.index()].ai.is_some() {
            // The engine takes back and plays again; it does not agree to draws.
            return match kind {
                OfferKind::Draw => refuse(ErrorCode::Invalid, "the engine declines the draw"),
                _ => self.carry_out(kind, seat).await,
            };
        }
        self.offers.push((kind, seat.into()));
        self.publish(vec![GameEvent::Offered { kind, seat: seat.into() }]).await.inspect_err(|_| {
            self.offers.pop();
        })
    }

    /// Carries out an agreed offer made by `by`.
    async fn carry_out(&mut self, kind: OfferKind, by: Side) -> Result<(), Refusal> {
        self.offers.retain(|(k, _)| *k != kind);
        match kind {
            OfferKind::Draw => self.end(None, "agreement").await,
            OfferKind::Takeback => {
                let n = if self.hotseat() || self.record.position().mover() != by { 1 } else { 2 };
                let n = n.min(self.moves.len());
                let saved = (self.moves.clone(), self.record.clone());
                let keep = self.moves.len() - n;
                self.moves.truncate(keep);
                if let Err(e) = self.rebuild() {
                    (self.moves, self.record) = saved;
                    return refuse(ErrorCode::Invalid, e);
                }
                let now = Instant::now();
                let mut clock = self.clock.clone();
                clock.stop(now);
                if !self.moves.is_empty() {
                    clock.start(self.record.position().mover(), now);
                }
                // The reopened ply's stored proposals are void: forgotten before the takeback
                // is stored, so a restart never brings them back.
                let game = self.id.clone();
                if let Err(e) = self
                    .app
                    .writer
                    .exec(move |store| async move { store.clear_proposals(&game).await })
                    .await
                {
                    (self.moves, self.record) = saved;
                    self.refresh_legal();
                    return refuse(ErrorCode::Storage, format!("the takeback was not saved: {e}"));
                }
                let event = GameEvent::TakenBack {
                    moves: n as u32,
                    position: PublicPosition::of(&self.record.position()),
                    clock: clock.state(now),
                };
                self.refresh_legal();
                if let Err(e) = self.publish(vec![event]).await {
                    (self.moves, self.record) = saved;
                    self.refresh_legal();
                    return Err(e);
                }
                self.clock = clock;
                self.proposals.reset(self.moves.len() as u32);
                self.summary.moves.store(self.moves.len() as u32, Relaxed);
                Ok(())
            }
            OfferKind::Rematch => {
                let seat = |p: &Player| match (&p.user, p.ai) {
                    (_, Some(level)) => SeatSpec::Ai(level),
                    (Some(id), None) => {
                        // Both players are stored: they sat in this game.
                        SeatSpec::Human { id: id.clone(), name: p.name.clone(), session: None }
                    }
                    (None, None) => SeatSpec::Ai(1),
                };
                let spec = GameSpec {
                    kind: self.kind,
                    options: self.options.clone(),
                    clock: self.tc,
                    rated: self.rated,
                    seats: [seat(&self.players[1]), seat(&self.players[0])],
                };
                let game = start_game(&self.app, spec).await?;
                self.rematch = Some(game.clone());
                self.publish(vec![GameEvent::Rematch { game }]).await
            }
        }
    }

    /// Plays `text` for `side`, read at `at`.
    async fn play(&mut self, side: Side, text: &str, at: Instant) -> Result<(), Refusal> {
        let received = std::time::Instant::now();
        let pos = self.record.position();
        let mv = pos.parse_move(text).map_err(|e| (ErrorCode::IllegalMove, e.to_string()))?;
        let canonical = pos.move_text(mv);
        let mut display = pos.display_move(mv);
        // A Banqi flip: the server's deal says what is revealed.
        let recorded = match (canonical.strip_suffix('?'), &self.dealer) {
            (Some(square), Some(dealer)) => {
                let piece = dealer.identity(square).ok_or_else(|| {
                    (ErrorCode::IllegalMove, format!("{square} holds no face-down piece"))
                })?;
                display = format!("{square}={}", piece.letter());
                display.clone()
            }
            _ => canonical,
        };
        let mut clock = self.clock.clone();
        if let Err(expired) = clock.press(side, at) {
            self.clock = clock;
            self.time_out(expired).await?;
            return refuse(ErrorCode::GameOver, "time ran out before the move arrived");
        }
        self.record.play_text(&recorded).map_err(|e| (ErrorCode::IllegalMove, e.to_string()))?;
        let ply = self.moves.len() as u32;
        let info = MoveInfo { mv: recorded.clone(), display, seat: side.into() };
        let now = Instant::now();
        let event = GameEvent::Moved {
            ply,
            info: info.clone(),
            position: PublicPosition::of(&self.record.position()),
            clock: clock.state(now),
        };
        self.moves.push(info);
        self.refresh_legal();
        let request = proposal_form(&recorded);
        let judged = self.proposals.judge(&request);
        if let Err(e) = self.publish_with(vec![event], Some((side, request, judged))).await {
            self.moves.pop();
            let _ = self.rebuild();
            self.refresh_legal();
            return Err(e);
        }
        self.clock = clock;
        // Open offers lapse when a move is played.
        self.offers.clear();
        self.summary.moves.store(self.moves.len() as u32, Relaxed);
        self.app.metrics.moves.fetch_add(1, Relaxed);
        self.app.metrics.move_latency.observe(received.elapsed().as_micros() as u64);
        if let Next::Over(outcome) = self.record.judge(false) {
            self.end(outcome.winner, outcome.reason.as_str()).await?;
        }
        Ok(())
    }

    /// Ends the game when time ran out: a flagged seat loses (rules §12.4), an expired game
    /// timer decides on points (§13.3).
    async fn time_out(&mut self, expired: Expired) -> Result<(), Refusal> {
        match expired {
            Expired::Flag(side) => self.end(Some(side.opponent()), "time").await,
            Expired::GameTime => match self.record.judge(true) {
                Next::Over(outcome) => self.end(outcome.winner, outcome.reason.as_str()).await,
                // Only scored formats have a game timer, and those are decided on time.
                _ => self.end(None, "time").await,
            },
        }
    }

    /// Settles the ply that `side` just ended by playing `played` (as judged, and stored with
    /// the move): the proposals of the next ply start. When anyone proposed, returns the
    /// reveal as JSON and the scores of those who proposed, by user, for spectators to get
    /// with the move.
    fn settle(&mut self, side: Side, played: String, judged: Judged) -> Option<Revealed> {
        self.send_acks();
        let ply = self.proposals.ply();
        let scored = self.proposals.settle(side, judged.crowd.as_ref());
        self.tally_dirty = false;
        judged.crowd.as_ref()?;
        let reveal = Reveal {
            ply,
            played,
            counts: judged.counts,
            matched: judged.matched,
            crowd: self.proposals.crowd(),
        };
        let json = serde_json::to_string(&reveal).unwrap_or_else(|_| "null".into());
        Some((json, scored.into_iter().collect()))
    }

    async fn on_deadline(&mut self) {
        let now = Instant::now();
        if let Some(expired) = self.clock.expired(now) {
            self.clock.stop(now);
            if let Err((_, e)) = self.time_out(expired).await {
                tracing::error!(game = %self.id, "could not end the game on time: {e}");
            }
        }
    }

    /// Ends the game: the end is stored, then told, then archived (export, ratings).
    async fn end(&mut self, winner: Option<Side>, reason: &str) -> Result<(), Refusal> {
        if self.result.is_some() {
            return refuse(ErrorCode::GameOver, "the game is over");
        }
        let now = Instant::now();
        self.clock.stop(now);
        let result = GameResult {
            winner: winner.map(seat_of),
            reason: reason.to_string(),
            points: self.record.points(),
        };
        let seed = self.dealer.as_ref().map(Dealer::reveal_seed);
        let event = GameEvent::Ended {
            result: result.clone(),
            clock: self.clock.state(now),
            seed: seed.clone(),
            crowd: self.proposals.crowd(),
        };
        self.result = Some(result);
        self.revealed_seed = seed;
        self.offers.clear();
        if let Err(e) = self.store_events(std::slice::from_ref(&event), None).await {
            self.result = None;
            self.revealed_seed = None;
            return Err(e);
        }
        self.ai_stop.store(true, Relaxed);
        self.summary.over.store(true, Relaxed);
        self.app.metrics.live_games.fetch_sub(1, Relaxed);
        self.legal = String::from("[]");
        // Archived before anyone hears of the end: whoever asks for the record once they
        // know the game is over gets it.
        self.store_finish().await;
        self.broadcast_events(vec![event], None);
        Ok(())
    }

    /// Writes the finished game: result, crowd record, export and rating changes.
    async fn store_finish(&mut self) {
        let Some(result) = self.result.clone() else { return };
        let mut ratings = Vec::new();
        let accounts = self.players.iter().all(|p| p.user.is_some() && p.ai.is_none());
        if self.rated && accounts && result.reason != "aborted" {
            let score = |i: usize| match result.winner {
                None => 0.5,
                Some(w) if (w == Seat::First) == (i == 0) => 1.0,
                Some(_) => 0.0,
            };
            let current: Vec<(Rating, i64)> = self
                .players
                .iter()
                .map(|p| match &p.rating {
                    Some(r) => {
                        (Rating { rating: r.rating, rd: r.rd, volatility: r.volatility }, r.games)
                    }
                    None => (Rating::default(), 0),
                })
                .collect();
            for i in 0..2 {
                let new = current[i].0.after(current[1 - i].0, score(i));
                if let Some(user) = &self.players[i].user {
                    ratings.push(RatingRow {
                        user_id: user.clone(),
                        kind: self.kind.name().to_string(),
                        rating: new.rating,
                        rd: new.rd,
                        volatility: new.volatility,
                        games: current[i].1 + 1,
                    });
                }
            }
        }
        let names = [self.players[0].name.clone(), self.players[1].name.clone()];
        let finish = Finish {
            game_id: self.id.clone(),
            result: serde_json::to_string(&result).unwrap_or_default(),
            crowd: serde_json::to_string(&self.proposals.crowd()).unwrap_or_default(),
            export: export(
                &self.start,
                &self.record,
                &names,
                &self.moves,
                &result,
                self.dealer.as_ref(),
            ),
            ended_ms: crate::ids::now_ms(),
            ratings,
        };
        match self.app.writer.exec(move |store| async move { store.finish(&finish).await }).await {
            Ok(()) => self.finished_stored = true,
            Err(e) => tracing::error!(game = %self.id, "could not archive the game: {e}"),
        }
    }

    /// Starts the engine's search when it is the engine's move.
    fn maybe_ai(&mut self) {
        if self.ai_busy {
            return;
        }
        let Some(side) = self.to_move() else { return };
        let Some(level) = self.players[side.index()].ai else { return };
        let Some(tx) = self.self_tx.as_ref().and_then(|w| w.upgrade()) else { return };
        self.ai_busy = true;
        // The record, not only the position: the repetition rules need the history.
        let record = self.record.clone();
        let ply = self.moves.len() as u32;
        let stop = self.ai_stop.clone();
        let config = &self.app.config;
        // The engine's calibrated level tightens these limits by its depth, node budget
        // (scaled to the game's speed) and share of the time.
        let level = Level::new(level).unwrap_or_default();
        let mut time = config.ai_max_time;
        let mut soft_time = None;
        let now = Instant::now();
        // The engine's own clock, or the game timer of a scored format if that is shorter.
        let own = (!self.tc.untimed()).then(|| self.clock.remaining(side, now));
        if let Some(left) = own.into_iter().chain(self.clock.game_left(now)).min() {
            let clock = EngineClock {
                remaining_ms: left,
                increment_ms: self.tc.increment_ms,
                moves_to_go: None,
            };
            let (soft, hard) = Limits::from_clock(clock, 50);
            time = time.min(hard);
            soft_time = Some(soft.min(time));
        }
        let limits =
            Limits { depth: None, nodes: Some(config.ai_max_nodes), time: Some(time), soft_time };
        tokio::spawn(async move {
            // Bounded blocking work: a node and time budget, on the blocking pool.
            let best = tokio::task::spawn_blocking(move || {
                let mut engine = Engine::new();
                engine.set_level(level);
                engine.search(&record, &limits, &stop, |_| {}).best
            })
            .await
            .ok()
            .flatten();
            let _ = tx.send(Cmd::Ai { ply, mv: best }).await;
        });
    }
}

/// A ply's reveal, as JSON, with the scores of those who proposed on it by user: what
/// spectators get with the move that ended the ply.
type Revealed = (String, HashMap<String, (u32, u32)>);

/// An event frame with the legal moves added (a `legal` field).
fn with_legal(plain: &str, legal: &str) -> String {
    with_field(plain, "legal", legal)
}

/// Sleeps until `at`, or forever.
async fn wait(at: Option<Instant>) {
    match at {
        Some(at) => sleep_until(at).await,
        None => std::future::pending().await,
    }
}
