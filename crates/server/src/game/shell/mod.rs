//! The shell of one game: the async task around its [`GameRoom`]. It is the game's only
//! writer: a request becomes a decision of the room, the decision's events are stored, then
//! applied, then told — in that order, so nothing told is ever unstored and nothing is ever
//! rolled back. It also keeps what is not the game's history: the sockets that follow the
//! game, who of the players is connected, the engine's searches, throttled frames
//! (spectator counts, tallies), and the game's hand-over between nodes.
//!
//! Players' requests and everything else come through two mailboxes, the players' first:
//! a flood of chat or proposals never delays a move.

mod ai;
mod audience;
mod finish;
mod restore;
mod side;

use super::ai_reply::{AiReply, Answer};
use super::clock::Ms;
use super::command::Command;
use super::event::{Decision, Effect, Event};
use super::room::{GameRoom, Seated};
use super::view::{self, Audience};
use super::{Cmd, GameHandle, GameSpec, Games, SeatSpec, Summary, start_game};
use crate::archive::stored::StoredEvent;
use crate::conn::{Conn, Frame};
use crate::rating::{PROVISIONAL_RD, Rating};
use crate::refusal::Refusal;
use cannonade_store::{EventRow, StoreError};
use cannonade_wire::{ChatLine, ClientMsg, ErrorCode, Role, ServerMsg};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

/// How often spectator counts and tallies go out at most. Once a second still reads as live
/// on a board; at half a second tallies were about a third of all frames under load, since a
/// ply's proposals arrive over its first seconds (docs/server.md).
const FLUSH_EVERY: Duration = Duration::from_millis(1000);

/// Requests queued for a game's second mailbox (chat, proposals, joins) before more are
/// refused: a flood waits here, never in front of a move.
pub const SIDE_QUEUE: usize = 256;

/// The origin of the server's monotonic milliseconds.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// `at` in milliseconds on the server's monotonic clock.
pub fn ms(at: Instant) -> Ms {
    at.saturating_duration_since(epoch()).as_millis() as Ms
}

/// The instant of `ms`.
fn instant(at: Ms) -> Instant {
    epoch() + Duration::from_millis(at)
}

/// A move's reveal as JSON and the scores of those who proposed on its ply, by user.
type RevealFrame = (String, HashMap<String, (u32, u32)>);

/// A socket following the game.
struct Sub {
    role: Role,
    conn: Conn,
}

/// A chat line and the store's answer to it (the socket to tell when it failed).
type ChatStored = (ChatLine, Result<(), (Conn, StoreError)>);

/// The shell of one game.
pub struct Shell {
    games: Arc<Games>,
    room: GameRoom,
    /// Every game event as sent (without legal moves): version `i + 1` is `events[i]`. Kept
    /// as JSON, which is both what a replay sends and smaller than the typed event.
    events: Vec<Frame>,
    /// The legal moves as the JSON list sent with the last event (`[]` when nobody is to
    /// move), written once a ply.
    legal: String,
    finished_stored: bool,
    subs: HashMap<u64, Sub>,
    online: [u32; 2],
    offline_since: [Option<Ms>; 2],
    tally_dirty: bool,
    /// Stored proposals not acknowledged yet (socket, ply, move): their `proposal_ok` goes
    /// out with the game's next tally, or before the move that ends their ply, so that it
    /// shares the spectator's socket write with that frame instead of costing one of its own.
    acks: Vec<(Conn, u32, String)>,
    /// Chat lines given to the store and not answered yet: the next line's number follows.
    chat_pending: i64,
    /// The number of the last chat line told (or refused): the next is told only after it.
    chat_told: i64,
    /// Chat lines answered by the store before an earlier one: each line's store task
    /// answers on its own, and the lines of one group commit race to say so; they wait
    /// here to be told in the order they were written.
    chat_held: std::collections::BTreeMap<i64, ChatStored>,
    spectators_sent: u32,
    flush_at: Option<Instant>,
    /// The engine's search and its move held until its pause ends.
    ai: AiReply,
    summary: Arc<Summary>,
    idle_since: Option<Instant>,
    /// When a client last asked anything of the game (an untimed game nobody touches for
    /// [`crate::limits::Limits::untimed_idle`] ends).
    touched: Instant,
    self_tx: Option<mpsc::WeakSender<Cmd>>,
    /// This node lost the game's lease: the shell ends after the current command.
    handed_over: bool,
    /// The plies whose crowd favourite the engine judged while the game went on, for
    /// spectators who join later.
    crowd_judged: Vec<cannonade_wire::CrowdPly>,
}

fn parse_result(text: &Option<String>) -> Option<cannonade_wire::GameResult> {
    text.as_deref().and_then(|t| serde_json::from_str(t).ok())
}

impl Shell {
    /// The game's id.
    pub fn id(&self) -> &str {
        self.room.id()
    }

    /// Starts the task; the game is then reachable only through the handle.
    pub fn spawn(mut self) -> GameHandle {
        let (tx, rx) = mpsc::channel(1024);
        let (side_tx, side_rx) = mpsc::channel(SIDE_QUEUE);
        self.self_tx = Some(tx.downgrade());
        let handle = GameHandle { tx, side: side_tx, summary: self.summary.clone() };
        if self.room.result().is_none() {
            self.games.h.metrics.live_games.inc();
        }
        tokio::spawn(self.run(rx, side_rx));
        handle
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>, mut side: mpsc::Receiver<Cmd>) {
        // A game that ended before a crash but whose end was not archived is archived now.
        if self.room.result().is_some() && !self.finished_stored {
            // Its rating changes were never shown; they are stored and can be read on the
            // players' profiles.
            let _ = self.store_finish().await;
        }
        // A move that ended the game was stored but its end was not (a crash in between,
        // before moves and their end were stored together).
        if let Some(decision) = self.room.unrecorded_end(self.now())
            && let Err((_, e)) = self.carry_out(decision, None).await
        {
            tracing::error!(game = %self.id(), "could not end the game: {e}");
        }
        let mut health = self.games.h.writer.health();
        if !*health.borrow_and_update() {
            self.store_down();
        }
        self.maybe_ai();
        loop {
            let deadline = self.room.deadline().map(instant);
            let linger = match (self.room.result().is_some(), self.subs.is_empty(), self.idle_since)
            {
                (true, true, Some(t)) => Some(t + self.games.h.config.linger),
                _ => None,
            };
            let untouched = (self.room.result().is_none() && self.room.setup().tc.untimed())
                .then(|| self.touched + self.games.h.config.limits.untimed_idle);
            tokio::select! {
                biased;
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = wait(deadline) => self.on_deadline().await,
                _ = wait(self.ai.due()) => self.play_ai().await,
                changed = health.changed() => match changed {
                    Ok(()) => {
                        if *health.borrow_and_update() { self.store_up() } else { self.store_down() }
                    }
                    Err(_) => break,
                },
                cmd = side.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = wait(self.flush_at) => self.flush(),
                _ = wait(untouched) => self.on_untouched().await,
                _ = wait(linger) => break,
            }
            if self.handed_over {
                break;
            }
            if self.room.result().is_some() && self.subs.is_empty() {
                self.idle_since.get_or_insert_with(Instant::now);
            } else {
                self.idle_since = None;
            }
            self.maybe_ai();
        }
        self.ai.call_off();
        let mut games = self.games.list();
        if games.get(self.room.id()).is_some_and(|h| Arc::ptr_eq(&h.summary, &self.summary)) {
            games.remove(self.room.id());
        }
    }

    fn now(&self) -> Ms {
        ms(Instant::now())
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
                self.touched = Instant::now();
                if let Err((code, text)) = self.client(&conn, msg, ms(at)).await {
                    self.games.h.metrics.errors.inc();
                    conn.send(&ServerMsg::error(code, text, Some(self.room.id())));
                }
            }
            Cmd::Proposed { conn, ply, mv, stored } => match stored {
                // Applied once stored: the tally counts only proposals that a restart keeps.
                Ok(()) => {
                    let event = Event::Proposed { user: conn.user.id.clone(), ply, mv: mv.clone() };
                    let now = self.now();
                    if self.room.apply(&event, now).is_ok()
                        && self.room.proposals().is_current(&conn.user.id, ply, &mv)
                    {
                        self.tally_dirty = true;
                        self.acks.push((conn, ply, mv));
                        self.schedule_flush();
                    }
                }
                Err(e) => {
                    let text = self.storage_error("the proposal could not be saved", &e);
                    conn.send(&ServerMsg::error(ErrorCode::Storage, text, Some(self.room.id())));
                }
            },
            Cmd::Chatted { n, line, stored } => {
                self.chat_held.insert(n, (line, stored));
                while let Some((line, stored)) = self.chat_held.remove(&(self.chat_told + 1)) {
                    self.chat_told += 1;
                    self.tell_chat(line, stored);
                }
            }
            Cmd::CrowdJudged { played, judged } => self.crowd_judged(&played, judged),
            Cmd::Ai { search, ply, mv, due } => {
                // Played when its pause ends (the loop's timer), or now if it has.
                if self.ai.answered(search, Answer { ply, mv }, due) && due <= Instant::now() {
                    self.play_ai().await;
                }
            }
        }
    }

    /// A store error for the log and for a client: the client gets what failed and an id
    /// to quote, never the store's own text.
    fn storage_error(&self, what: &str, e: &StoreError) -> String {
        crate::incident::logged(what, format_args!("game {}: {e}", self.id()))
    }

    async fn client(&mut self, conn: &Conn, msg: ClientMsg, at: Ms) -> Result<(), Refusal> {
        let user = conn.user.id.clone();
        let cmd = match msg {
            ClientMsg::Move { ply, mv, .. } => Command::Move { user, ply, mv, at },
            ClientMsg::Propose { ply, mv, .. } => {
                let decision = self.room.decide(&Command::Propose { user, ply, mv })?;
                for event in decision.events {
                    if let Event::Proposed { user, ply, mv } = event {
                        self.store_proposal(conn, user, ply, mv);
                    }
                }
                return Ok(());
            }
            ClientMsg::Chat { text, .. } => {
                let name = conn.user.name.clone();
                let decision = self.room.decide(&Command::Chat { user, name, text })?;
                for event in decision.events {
                    if let Event::Chat(line) = event {
                        self.store_chat(conn, line);
                    }
                }
                return Ok(());
            }
            ClientMsg::Resign { .. } => Command::Resign { user, at },
            ClientMsg::Abort { .. } => Command::Abort { user, at },
            ClientMsg::Claim { .. } => {
                let seat = match self.room.role_of(&user) {
                    Role::First => Some(1),
                    Role::Second => Some(0),
                    _ => None,
                };
                let opponent_offline_since = seat.and_then(|s| self.offline_since[s]);
                Command::Claim { user, at, opponent_offline_since }
            }
            ClientMsg::Offer { kind, .. } => Command::Offer { user, kind, at },
            ClientMsg::Accept { kind, .. } => Command::Accept { user, kind, at },
            ClientMsg::Decline { kind, .. } => Command::Decline { user, kind },
            other => {
                return Err((ErrorCode::BadMessage, format!("{other:?} is not a game request")));
            }
        };
        let received = std::time::Instant::now();
        let decision = self.room.decide(&cmd)?;
        let is_move = matches!(cmd, Command::Move { .. });
        self.carry_out(decision, None).await?;
        if is_move {
            self.games.h.metrics.moves.inc();
            self.games.h.metrics.move_latency.observe(received.elapsed().as_micros() as u64);
        }
        Ok(())
    }

    /// Carries out a decision: its effects that come first, its events stored in one
    /// transaction, then applied and told one by one, then its other effects. When the
    /// store fails nothing is applied or told, and the error is returned.
    async fn carry_out(&mut self, decision: Decision, _conn: Option<&Conn>) -> Result<(), Refusal> {
        let Decision { events, effects, reply } = decision;
        if effects.contains(&Effect::ClearProposals) {
            let game = self.room.id().to_string();
            if let Err(e) = self
                .games
                .h
                .writer
                .exec(move |store| async move { store.clear_proposals(&game).await })
                .await
            {
                return Err((
                    ErrorCode::Storage,
                    self.storage_error("the takeback was not saved", &e),
                ));
            }
        }
        let games: Vec<StoredEvent> = events
            .iter()
            .filter_map(|e| match e {
                Event::Game(g) => Some(g.clone()),
                _ => None,
            })
            .collect();
        if !games.is_empty() {
            let base = self.room.version() as i64;
            // A correspondence game's moves carry the wall-clock time, which a restart
            // charges to the mover (`GameRoom::restore`).
            let wall = self.room.setup().tc.is_correspondence().then(crate::ids::now_ms);
            let rows = games
                .iter()
                .enumerate()
                .map(|(i, e)| EventRow {
                    game_id: self.room.id().to_string(),
                    v: base + i as i64 + 1,
                    body: match wall {
                        Some(ms) => e.clone().stamped(ms).to_body(),
                        None => e.to_body(),
                    },
                })
                .collect();
            if let Err(e) = self.games.h.writer.append(rows).await {
                return Err((
                    ErrorCode::Storage,
                    self.storage_error("the game could not be saved", &e),
                ));
            }
        }
        // Stored: from here on it happened. The opponent's clock starts now, as the move
        // goes out.
        let now = self.now();
        for event in &events {
            if let Event::Game(e) = event {
                if matches!(e, StoredEvent::Moved { .. }) {
                    // The ply's acknowledgements go out before the move that ends it.
                    self.send_acks();
                }
                if let Err(err) = self.room.apply(event, now) {
                    // Stored events that do not apply are a bug: the game stops here.
                    tracing::error!(game = %self.id(), "a stored event does not apply: {err}");
                    return Err((ErrorCode::Invalid, "the game cannot go on".into()));
                }
                self.after_game_event(e).await;
            }
        }
        if effects.contains(&Effect::CreateRematch) {
            self.create_rematch().await?;
        }
        match reply {
            Some(refusal) => Err(refusal),
            None => Ok(()),
        }
    }

    /// What follows an applied game event: its frame kept for replays and sent, lobby
    /// counters, and at the end the archive.
    async fn after_game_event(&mut self, event: &StoredEvent) {
        self.refresh_legal();
        let frame = view::event_frame(&self.room, event);
        self.events.push(frame.clone());
        self.summary.moves.store(self.room.moves().len() as u32, Relaxed);
        self.summary.set_to_move(self.room.to_move());
        match event {
            StoredEvent::Moved { .. } => {
                self.tally_dirty = false;
                let reveal = self.room.last_reveal().map(|(r, scores)| {
                    (serde_json::to_string(r).unwrap_or_else(|_| "null".into()), scores.clone())
                });
                self.broadcast(&frame, reveal);
                self.judge_crowd();
            }
            StoredEvent::TakenBack { .. } => {
                // The engine's answer was for a position taken back.
                self.ai.call_off();
                let moves = self.room.moves().len();
                self.crowd_judged.retain(|j| j.ply < moves);
                self.broadcast(&frame, None);
            }
            StoredEvent::Ended { .. } => {
                self.ai.call_off();
                self.summary.over.store(true, Relaxed);
                self.games.h.metrics.live_games.dec();
                // Archived before anyone hears of the end: whoever asks for the record once
                // they know the game is over gets it. The rating changes ride on the end's
                // frame (docs/protocol-wire.md), so players see them with the result.
                let changes = self.store_finish().await;
                let frame = match changes.and_then(|c| serde_json::to_string(&c).ok()) {
                    Some(changes) => {
                        let frame =
                            Frame::from(view::with_field(frame.as_str(), "ratings", &changes));
                        if let Some(last) = self.events.last_mut() {
                            *last = frame.clone();
                        }
                        frame
                    }
                    None => frame,
                };
                self.broadcast(&frame, None);
            }
            _ => self.broadcast(&frame, None),
        }
    }

    async fn create_rematch(&mut self) -> Result<(), Refusal> {
        let seat = |p: &Seated| match (&p.user, p.ai) {
            (_, Some(level)) => SeatSpec::Ai(level),
            // Both players are stored: they sat in this game.
            (Some(id), None) => {
                SeatSpec::Human { id: id.clone(), name: p.name.clone(), session: None }
            }
            (None, None) => SeatSpec::Ai(1),
        };
        let setup = self.room.setup();
        let spec = GameSpec {
            kind: setup.spec.kind(),
            options: setup.spec.options_text(),
            clock: setup.tc,
            rated: setup.rated,
            seats: [seat(&setup.players[1]), seat(&setup.players[0])],
            // The same start again (a Banqi game is dealt anew from its own).
            start: (setup.spec.kind() != cannonade_games::GameKind::Banqi)
                .then(|| setup.start.fen()),
        };
        let game = start_game(&self.games, spec).await?;
        let decision = self.room.decide(&Command::RematchCreated { game })?;
        Box::pin(self.carry_out(decision, None)).await
    }

    fn players_of(&self) -> [cannonade_wire::PlayerInfo; 2] {
        std::array::from_fn(|i| {
            let setup = self.room.setup();
            let p = &setup.players[i];
            // In a rated game a player not yet rated at this game and speed plays as the
            // default rating, provisional (as lichess shows `1500?`).
            let rating = match &p.rating {
                Some(r) => Some(Rating::from(r)),
                None if setup.rated && p.user.is_some() && p.ai.is_none() => {
                    Some(Rating::default())
                }
                None => None,
            };
            cannonade_wire::PlayerInfo {
                name: p.name.clone(),
                rating: rating.map(|r| r.rating.round() as i32),
                provisional: rating.is_some_and(|r| r.rd > PROVISIONAL_RD),
                ai: p.ai.is_some(),
                online: p.ai.is_some() || self.online[i] > 0,
            }
        })
    }

    /// The start and the position after each move, replayed from the move list (public
    /// views: a Banqi deal never gets in).
    fn positions(&self) -> Result<cannonade_wire::Positions, String> {
        let setup = self.room.setup();
        let positions =
            crate::archive::replay::positions(&setup.spec, &setup.start, self.room.moves())?;
        Ok(cannonade_wire::Positions {
            game: self.room.id().to_string(),
            v: self.room.version(),
            positions,
        })
    }

    /// Nobody touched this untimed game for a long while: it ends.
    async fn on_untouched(&mut self) {
        let at = self.now();
        // Whatever happens, the next try is a whole while away (a store that is down
        // must not make this spin).
        self.touched = Instant::now();
        match self.room.decide(&Command::Idle { at }) {
            Ok(d) => {
                if let Err((_, e)) = self.carry_out(d, None).await {
                    tracing::warn!(game = %self.id(), "an idle game could not be ended: {e}");
                }
            }
            Err((_, e)) => tracing::warn!(game = %self.id(), "idle: {e}"),
        }
    }

    async fn on_deadline(&mut self) {
        let at = self.now();
        match self.room.decide(&Command::Tick { at }) {
            Ok(d) => {
                if let Err((_, e)) = self.carry_out(d, None).await {
                    tracing::error!(game = %self.id(), "could not end the game on time: {e}");
                    // The store is down: the clocks wait for it (store_up starts them).
                    self.room.pause(at);
                }
            }
            Err((_, e)) => tracing::error!(game = %self.id(), "time: {e}"),
        }
    }

    /// The store cannot take writes: the clocks stop and the players are told; moves are
    /// refused until it can.
    fn store_down(&mut self) {
        if self.room.result().is_some() || self.room.paused() {
            return;
        }
        self.room.pause(self.now());
        let frame = Frame::from(view::store_down_notice(self.room.id()).to_json());
        self.send_where(&frame, Audience::Players);
        self.send_clock();
    }

    /// The store takes writes again: the clocks run on.
    fn store_up(&mut self) {
        if !self.room.paused() {
            return;
        }
        self.room.resume(self.now());
        let frame = Frame::from(view::store_up_notice(self.room.id()).to_json());
        self.send_where(&frame, Audience::Players);
        self.send_clock();
    }
}

/// Sleeps until `at`, or forever.
async fn wait(at: Option<Instant>) {
    match at {
        Some(at) => sleep_until(at).await,
        None => std::future::pending().await,
    }
}
