//! The shell of one game: the async task around its [`GameRoom`]. It is the game's only
//! writer: a request becomes a decision of the room, the decision's events are stored, then
//! applied, then told — in that order, so nothing told is ever unstored and nothing is ever
//! rolled back. It also keeps what is not the game's history: the sockets that follow the
//! game, who of the players is connected, the engine's searches, throttled frames
//! (spectator counts, tallies), and the game's hand-over between nodes.
//!
//! Players' requests and everything else come through two mailboxes, the players' first:
//! a flood of chat or proposals never delays a move.

use super::ai_pace::PaceInputs;
use super::ai_reply::{AiReply, Answer};
use super::clock::Ms;
use super::command::Command;
use super::event::{Decision, Effect, Event};
use super::export::{About, export};
use super::room::{GameRoom, History, Seated, Setup};
use super::view::{self, Audience, SocketScore};
use super::{Cmd, Dealer, GameHandle, GameSpec, Games, SeatSpec, Summary, start_game};
use crate::archive::stored::StoredEvent;
use crate::conn::{Conn, Frame, Out};
use crate::rating::{PROVISIONAL_RD, Rating, Speed};
use crate::refusal::Refusal;
use crate::reviews::live_crowd;
use cannonade_banqi::DealSeed;
use cannonade_engine::{Clock as EngineClock, Level, Limits};
use cannonade_games::AnyGame;
use cannonade_store::{ChatRow, EventRow, Finish, GameRow, ProposalRow, RatingRow, StoreError};
use cannonade_wire::{ChatLine, ClientMsg, ErrorCode, LegalMove, Role, Score, Seat, ServerMsg};
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

    /// Rebuilds a game from its stored row and events: its room is the stored events
    /// applied, as live play applied them.
    pub async fn restore(
        games: &Arc<Games>,
        row: GameRow,
        events: Vec<cannonade_store::EventRow>,
    ) -> Result<Shell, String> {
        let (spec, start) = crate::archive::replay::start_of(&row)?;
        let kind = spec.kind();
        let dealer = match (&row.seed, &start) {
            (Some(hex), AnyGame::Banqi(p)) => {
                Some(Dealer::new(p, DealSeed::from_hex(hex).map_err(|e| e.to_string())?))
            }
            (Some(_), _) => return Err("a seed for a game without a deal".into()),
            _ => None,
        };
        let tc = super::clock::time_control(&row);
        let speed = Speed::of_clock(tc);
        let mut players = Vec::new();
        for i in 0..2 {
            let rating = match (&row.users[i], row.rated, speed) {
                (Some(u), true, Some(speed)) => games
                    .h
                    .store
                    .rating(u, kind.name(), speed.name())
                    .await
                    .map_err(|e| e.to_string())?,
                _ => None,
            };
            players.push(Seated {
                user: row.users[i].clone(),
                name: row.names[i].clone(),
                ai: row.ai[i].map(|l| l.clamp(1, 10) as u8),
                rating,
            });
        }
        let players: [Seated; 2] = [players[0].clone(), players[1].clone()];
        let setup = Setup {
            id: row.id.clone(),
            spec,
            start,
            rated: row.rated,
            tc,
            players,
            dealer,
            commitment: row.commitment.clone(),
            grace_ms: games.h.config.grace.as_millis() as u64,
            created_ms: row.created_ms,
        };
        let mut stored = Vec::with_capacity(events.len());
        for e in &events {
            stored.push(
                serde_json::from_str::<StoredEvent>(&e.body)
                    .map_err(|err| format!("event {}: {err}", e.v))?,
            );
        }
        let chat_rows = games.h.store.chat(&row.id, super::room::CHAT_KEPT as u32).await;
        let chat_rows = chat_rows.map_err(|e| e.to_string())?;
        let chat_count = chat_rows.last().map_or(0, |l| l.n);
        let mut chat = Vec::with_capacity(chat_rows.len());
        for line in &chat_rows {
            chat.push(
                serde_json::from_str::<ChatLine>(&line.body)
                    .map_err(|e| format!("chat {}: {e}", line.n))?,
            );
        }
        let ply = stored.iter().fold(0i64, |n, e| match e {
            StoredEvent::Moved { .. } => n + 1,
            StoredEvent::TakenBack { moves, .. } => n - *moves as i64,
            _ => n,
        });
        let proposals = if row.status == "over" {
            Vec::new()
        } else {
            games.h.store.proposals(&row.id, ply).await.map_err(|e| e.to_string())?
        };
        let now = ms(Instant::now());
        // The events' frames as clients get them in a replay, each with the position after
        // it.
        let mut frames = Vec::with_capacity(stored.len());
        let history = History {
            events: stored,
            open_proposals: proposals.into_iter().map(|p| (p.user_id, p.mv)).collect(),
            chat,
            chat_count,
        };
        let mut room = GameRoom::restore(setup, history, now, crate::ids::now_ms(), |room, e| {
            frames.push(view::event_frame(room, e))
        })?;
        if room.result().is_none()
            && let Some(r) = parse_result(&row.result)
        {
            // A result stored with the game but whose end event was not (an old crash).
            let _ = room.apply(
                &Event::Game(StoredEvent::Ended {
                    result: r,
                    clock: room.clock().state(now),
                    seed: room.setup().dealer.as_ref().map(Dealer::reveal_seed),
                    crowd: room.proposals().crowd(),
                }),
                now,
            );
        }
        let names = [row.names[0].clone(), row.names[1].clone()];
        let solo = super::solo_player(&row.users, &row.ai);
        let summary = Arc::new(Summary {
            solo,
            users: row.users.clone(),
            ..Summary::new(kind, names, false)
        });
        summary.moves.store(room.moves().len() as u32, Relaxed);
        summary.over.store(room.result().is_some(), Relaxed);
        summary.set_to_move(room.to_move());
        let offline_since =
            std::array::from_fn(|i| room.setup().players[i].ai.is_none().then_some(now));
        let mut shell = Shell {
            games: games.clone(),
            room,
            events: frames,
            legal: String::from("[]"),
            finished_stored: row.status == "over",
            subs: HashMap::new(),
            online: [0, 0],
            offline_since,
            tally_dirty: false,
            acks: Vec::new(),
            chat_pending: chat_count,
            chat_told: chat_count,
            chat_held: std::collections::BTreeMap::new(),
            spectators_sent: 0,
            flush_at: None,
            ai: AiReply::default(),
            summary,
            idle_since: None,
            touched: Instant::now(),
            self_tx: None,
            handed_over: false,
            crowd_judged: Vec::new(),
        };
        shell.refresh_legal();
        Ok(shell)
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

    /// Plays the engine's held move once its pause is over.
    async fn play_ai(&mut self) {
        let Some(Answer { ply, mv }) = self.ai.take(Instant::now()) else { return };
        let at = self.now();
        match self.room.decide(&Command::Ai { ply, mv, at }) {
            Ok(d) if mv.is_none() || d.events.is_empty() => {
                if mv.is_none() && self.room.ai_turn().is_some() {
                    tracing::warn!(game = %self.id(), "the engine found no move");
                }
                let _ = self.carry_out(d, None).await;
            }
            Ok(d) => {
                if let Err((_, e)) = self.carry_out(d, None).await {
                    tracing::warn!(game = %self.id(), "the engine's move was not saved: {e}");
                }
            }
            Err((_, e)) => tracing::warn!(game = %self.id(), "the engine's move was refused: {e}"),
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

    /// Stores a proposal off the game's path; it counts once stored (`Cmd::Proposed`).
    fn store_proposal(&mut self, conn: &Conn, user: String, ply: u32, mv: String) {
        let Some(tx) = self.self_tx.as_ref().and_then(|w| w.upgrade()) else { return };
        let row = ProposalRow {
            game_id: self.room.id().to_string(),
            user_id: user,
            ply: ply as i64,
            mv: mv.clone(),
        };
        let writer = self.games.h.writer.clone();
        let conn = conn.clone();
        tokio::spawn(async move {
            let stored = writer.propose(row).await;
            let _ = tx.send(Cmd::Proposed { conn, ply, mv, stored }).await;
        });
    }

    /// Tells a stored chat line to its room (or its writer that it could not be stored).
    fn tell_chat(&mut self, line: ChatLine, stored: Result<(), (Conn, StoreError)>) {
        match stored {
            Ok(()) => {
                let room = line.room;
                let _ = self.room.apply(&Event::Chat(line.clone()), self.now());
                let msg = ServerMsg::Chat { game: self.room.id().to_string(), line };
                let to = if room == cannonade_wire::Room::Players {
                    Audience::All
                } else {
                    Audience::Spectators
                };
                self.send_where(&Frame::from(msg.to_json()), to);
            }
            Err((conn, e)) => {
                let text = self.storage_error("the chat line could not be saved", &e);
                conn.send(&ServerMsg::error(ErrorCode::Storage, text, Some(self.room.id())));
            }
        }
    }

    /// Stores a chat line off the game's path (with the next group commit); it is shown
    /// once stored (`Cmd::Chatted`).
    fn store_chat(&mut self, conn: &Conn, line: ChatLine) {
        let Some(tx) = self.self_tx.as_ref().and_then(|w| w.upgrade()) else { return };
        self.chat_pending += 1;
        let row = ChatRow {
            game_id: self.room.id().to_string(),
            n: self.chat_pending,
            body: serde_json::to_string(&line).unwrap_or_default(),
        };
        let n = row.n;
        let writer = self.games.h.writer.clone();
        let conn = conn.clone();
        tokio::spawn(async move {
            let stored = writer.chat(row).await.map_err(|e| (conn, e));
            let _ = tx.send(Cmd::Chatted { n, line, stored }).await;
        });
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

    /// Has the engine judge the crowd's favourite of the ply the last move ended, when
    /// spectators proposed on it: a background job whose answer comes back as
    /// [`Cmd::CrowdJudged`] (docs/analysis.md).
    fn judge_crowd(&self) {
        let Some((reveal, _)) = self.room.last_reveal() else { return };
        let engines = self.games.h.engines.clone();
        let Some(ask) = live_crowd::Ask::of(reveal, self.room.record(), &engines) else { return };
        let Some(tx) = self.self_tx.as_ref().and_then(|w| w.upgrade()) else { return };
        let depth = self.games.h.config.review_depth;
        let game = self.id().to_string();
        tokio::spawn(async move {
            let played = ask.played.clone();
            if let Some(judged) = live_crowd::judge(&engines, &game, depth, ask).await {
                let _ = tx.send(Cmd::CrowdJudged { played, judged }).await;
            }
        });
    }

    /// Tells spectators the engine's judgement of a ply's crowd, unless the ply was taken
    /// back meanwhile.
    fn crowd_judged(&mut self, played: &str, judged: cannonade_wire::CrowdPly) {
        if self.room.moves().get(judged.ply).is_none_or(|m| m.mv != played) {
            return;
        }
        let msg = ServerMsg::CrowdJudged { game: self.id().to_string(), judged: judged.clone() };
        self.crowd_judged.push(judged);
        self.send_where(&Frame::from(msg.to_json()), Audience::Spectators);
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

    fn refresh_legal(&mut self) {
        self.legal = if self.room.to_move().is_some() {
            let pos = self.room.record().position();
            LegalMove::list_json(&pos, &pos.legal_moves())
        } else {
            String::from("[]")
        };
    }

    /// Whether a role receives the legal moves: the seat to move and spectators.
    fn gets_legal(&self, role: Role) -> bool {
        match self.room.to_move() {
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
                    Some(&(hits, total)) => view::with_score(frame, hits, total),
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
        if let Some(peers) = self.games.peers() {
            for (node, scores) in nodes {
                peers.broadcast(node, self.room.id(), to, v, frame, scores);
            }
        }
        self.games.h.metrics.frames_out.inc_by(sent);
        for (id, behind) in slow {
            if behind {
                self.games.h.metrics.slow_drops.inc();
            }
            self.leave(id);
        }
    }

    /// Sends the last event's frame: the legal moves go with it to the seat to move and to
    /// spectators, and a move's reveal (JSON) to spectators with each one's score (by user).
    fn broadcast(&mut self, without: &Frame, reveal: Option<RevealFrame>) {
        let v = self.room.version();
        let mover = self.room.to_move().map(Seat::from);
        let with = mover.map(|_| Frame::from(view::with_legal(without.as_str(), &self.legal)));
        // With a reveal, spectators get their own frame (the move, its legal moves, the
        // reveal and each one's score), so the players' frames go to players only.
        match mover.zip(with.as_ref()) {
            Some((mover, with)) => {
                let to = if reveal.is_some() {
                    Audience::Mover(mover)
                } else {
                    Audience::WithLegal(mover)
                };
                self.send_versioned(with, to, Some(v), None);
                self.send_versioned(without, Audience::WithoutLegal(mover), Some(v), None);
            }
            None => {
                let to = if reveal.is_some() { Audience::Players } else { Audience::All };
                self.send_versioned(without, to, Some(v), None);
            }
        }
        if let Some((reveal, scores)) = reveal {
            let base = with.as_ref().unwrap_or(without);
            let frame = Frame::from(view::with_field(base.as_str(), "reveal", &reveal));
            self.send_versioned(&frame, Audience::Spectators, Some(v), Some(&scores));
        }
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

    fn join(&mut self, conn: Conn, since: Option<u64>) {
        let role = self.room.role_of(&conn.user.id);
        let v = self.room.version();
        let now = self.now();
        match since {
            Some(s) if s <= v => {
                // The missing events, the last with the legal moves if this role gets them,
                // then the clocks as they are now.
                let give_legal = self.gets_legal(role);
                for (i, frame) in self.events.iter().enumerate().skip(s as usize) {
                    if i + 1 == self.events.len() && give_legal {
                        conn.send_frame(Frame::from(view::with_legal(frame.as_str(), &self.legal)));
                    } else {
                        conn.send_frame(frame.clone());
                    }
                }
                conn.send(&ServerMsg::Clock {
                    game: self.room.id().to_string(),
                    clock: self.room.clock().state(now),
                });
            }
            _ => {
                let legal = self.gets_legal(role).then(|| {
                    let pos = self.room.record().position();
                    pos.legal_moves().into_iter().map(|m| LegalMove::of(&pos, m)).collect()
                });
                let snapshot = view::snapshot(
                    &self.room,
                    role,
                    now,
                    self.spectator_count(),
                    self.players_of(),
                    legal,
                    &self.crowd_judged,
                );
                conn.send(&ServerMsg::Snapshot(Box::new(snapshot)));
            }
        }
        // A spectator's own score, which a reload or a restart would otherwise hide until the
        // next reveal.
        if role == Role::Spectator
            && let Some((hits, total)) = self.room.proposals().score(&conn.user.id)
        {
            conn.send(&ServerMsg::Score {
                game: self.room.id().to_string(),
                score: Score { hits, total },
            });
        }
        if self.room.paused() && role.is_player() {
            conn.send(&view::store_down_notice(self.room.id()));
        }
        if let Out::Remote(r) = &conn.tx {
            // After its frames on the same topic: its node hands it broadcasts from here.
            r.bus.synced(&r.node, self.room.id(), r.conn, v);
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
    /// the shell ends, this node's sockets move to the game's new owner, and the nodes of
    /// the other sockets are told to look for it.
    fn hand_over(&mut self) {
        self.handed_over = true;
        self.ai.call_off();
        if self.room.result().is_none() {
            self.games.h.metrics.live_games.dec();
        }
        let Some(peers) = self.games.peers().cloned() else { return };
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
            peers.redirect(&node, self.room.id());
        }
        peers.rehome(self.room.id().to_string(), local);
    }

    fn leave(&mut self, conn_id: u64) {
        if let Some(sub) = self.subs.remove(&conn_id) {
            self.seat_presence(sub.role, -1);
            self.schedule_flush();
        }
    }

    /// Counts a player's sockets; tells everyone when a seat comes or goes.
    fn seat_presence(&mut self, role: Role, delta: i32) {
        if self.room.hotseat() {
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
        self.offline_since[seat] = (!now_online).then(|| self.now());
        if self.room.result().is_some() {
            return;
        }
        let msg = ServerMsg::Presence {
            game: self.room.id().to_string(),
            seat: if seat == 0 { Seat::First } else { Seat::Second },
            online: now_online,
            // Nobody claims a correspondence game for absence.
            claim_in_ms: (!now_online && !self.room.setup().tc.is_correspondence())
                .then(|| self.games.h.config.grace.as_millis() as u64),
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
            let msg = ServerMsg::Spectators { game: self.room.id().to_string(), count };
            self.send_where(&Frame::from(msg.to_json()), Audience::All);
        }
        self.send_acks();
        if self.tally_dirty {
            self.tally_dirty = false;
            let msg = ServerMsg::Tally {
                game: self.room.id().to_string(),
                ply: self.room.proposals().ply(),
                counts: self.room.proposals().tally(),
            };
            self.send_where(&Frame::from(msg.to_json()), Audience::Spectators);
        }
    }

    /// Acknowledges the stored proposals that are still their spectators' live ones.
    fn send_acks(&mut self) {
        for (conn, ply, mv) in std::mem::take(&mut self.acks) {
            if self.room.proposals().is_current(&conn.user.id, ply, &mv) {
                conn.send(&ServerMsg::ProposalOk { game: self.room.id().to_string(), ply, mv });
            }
        }
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

    fn send_clock(&mut self) {
        let msg = ServerMsg::Clock {
            game: self.room.id().to_string(),
            clock: self.room.clock().state(self.now()),
        };
        self.send_where(&Frame::from(msg.to_json()), Audience::All);
    }

    /// Writes the finished game: result, crowd record, export and rating changes. Returns
    /// the rating changes of a rated game, as the end's frame carries them (`None` when no
    /// rating changed, or the store failed).
    async fn store_finish(&mut self) -> Option<cannonade_wire::RatingChanges> {
        let result = self.room.result().cloned()?;
        let setup = self.room.setup();
        let mut ratings = Vec::new();
        let mut changes = Vec::new();
        let accounts = setup.players.iter().all(|p| p.user.is_some() && p.ai.is_none());
        let speed = Speed::of_clock(setup.tc);
        if let Some(speed) = speed.filter(|_| setup.rated && accounts && result.reason != "aborted")
        {
            let score = |i: usize| match result.winner {
                None => 0.5,
                Some(w) if (w == Seat::First) == (i == 0) => 1.0,
                Some(_) => 0.0,
            };
            let current: Vec<(Rating, i64)> = setup
                .players
                .iter()
                .map(|p| match &p.rating {
                    Some(r) => (Rating::from(r), r.games),
                    None => (Rating::default(), 0),
                })
                .collect();
            for i in 0..2 {
                let new = current[i].0.after(current[1 - i].0, score(i));
                if let Some(user) = &setup.players[i].user {
                    let (before, after) =
                        (current[i].0.rating.round() as i64, new.rating.round() as i64);
                    changes.push(cannonade_wire::RatingChange {
                        before,
                        after,
                        diff: after - before,
                        provisional: new.rd > PROVISIONAL_RD,
                    });
                    ratings.push(RatingRow {
                        user_id: user.clone(),
                        kind: setup.spec.kind().name().to_string(),
                        speed: speed.name().to_string(),
                        rating: new.rating,
                        rd: new.rd,
                        volatility: new.volatility,
                        games: current[i].1 + 1,
                    });
                }
            }
        }
        let names = [setup.players[0].name.clone(), setup.players[1].name.clone()];
        let finish = Finish {
            game_id: self.room.id().to_string(),
            result: serde_json::to_string(&result).unwrap_or_default(),
            crowd: serde_json::to_string(&self.room.proposals().crowd()).unwrap_or_default(),
            export: export(
                self.room.record(),
                &About {
                    id: self.room.id(),
                    names: &names,
                    result: &result,
                    tc: setup.tc,
                    created_ms: setup.created_ms,
                    dealer: setup.dealer.as_ref(),
                },
            ),
            ended_ms: crate::ids::now_ms(),
            ratings,
        };
        match self
            .games
            .h
            .writer
            .exec(move |store| async move { store.finish(&finish).await })
            .await
        {
            Ok(()) => {
                self.finished_stored = true;
                // Every finished game is reviewed in the background (an aborted one never
                // started: nothing to review).
                if result.reason != "aborted" {
                    let record = self.room.record().clone();
                    self.games.h.reviews.game_over(self.room.id(), record);
                }
            }
            Err(e) => {
                tracing::error!(game = %self.id(), "could not archive the game: {e}");
                return None;
            }
        }
        let seats: [cannonade_wire::RatingChange; 2] = changes.try_into().ok()?;
        Some(cannonade_wire::RatingChanges { speed: speed?.name().to_string(), seats })
    }

    /// Starts the engine's search when it is the engine's move.
    fn maybe_ai(&mut self) {
        if self.ai.busy() || self.room.paused() {
            return;
        }
        let Some((side, level)) = self.room.ai_turn() else { return };
        let Some(tx) = self.self_tx.as_ref().and_then(|w| w.upgrade()) else { return };
        // The record, not only the position: the repetition rules need the history.
        let record = self.room.record().clone();
        let ply = self.room.moves().len() as u32;
        let (search, stop) = self.ai.start();
        let config = &self.games.h.config;
        // The engine's calibrated level tightens these limits by its depth, node budget
        // (scaled to the game's speed) and share of the time.
        let level = Level::new(level).unwrap_or_default();
        let mut time = config.ai_max_time;
        let mut soft_time = None;
        let now = self.now();
        let clock = self.room.clock();
        // The engine's own clock, or the game timer of a scored format if that is shorter.
        let own = (!self.room.setup().tc.untimed()).then(|| clock.remaining(side, now));
        if let Some(left) = own.into_iter().chain(clock.game_left(now)).min() {
            let clock = EngineClock {
                remaining_ms: left,
                increment_ms: self.room.setup().tc.increment_ms,
                moves_to_go: None,
            };
            let (soft, hard) = Limits::from_clock(clock, 50);
            time = time.min(hard);
            soft_time = Some(soft.min(time));
        }
        let limits =
            Limits { depth: None, nodes: Some(config.ai_max_nodes), time: Some(time), soft_time };
        let pace = config.ai_pacing.then(|| {
            let own_moves = self.room.moves().iter().filter(|m| m.seat == side.into()).count();
            // The same time left as the search's: a game timer counts when shorter.
            let left = own.into_iter().chain(clock.game_left(now)).min();
            let clock = left.map(|left| (left, self.room.setup().tc.increment_ms));
            PaceInputs::read(&record, level, own_moves as u32, clock, self.room.id(), ply)
        });
        let engines = self.games.h.engines.clone();
        let game = self.room.id().to_string();
        let started = Instant::now();
        tokio::spawn(async move {
            let best = engines.best_move(&game, level, record, limits, stop).await;
            // A person's pause counts from the engine's turn and includes the search (and
            // its wait in the engine service's queue); the shell holds the move until then.
            let due = started + pace.map_or(Duration::ZERO, |pace| pace.pause(best));
            let _ = tx.send(Cmd::Ai { search, ply, mv: best, due }).await;
        });
    }
}

/// Sleeps until `at`, or forever.
async fn wait(at: Option<Instant>) {
    match at {
        Some(at) => sleep_until(at).await,
        None => std::future::pending().await,
    }
}
