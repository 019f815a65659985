//! A game room: the whole state of one game and the rules of play around the game's own
//! rules — seats, clocks, offers, proposals, chat, the end — as a pure state machine. No
//! runtime, no sockets, no store: [`GameRoom::decide`] turns a [`Command`] into a
//! [`Decision`] without changing anything, and [`GameRoom::apply`] applies one decided
//! [`Event`]. The shell (`shell/`) stores a decision's events before it applies them and
//! tells anyone, and a game restored from the store is its stored events applied again: live
//! play and restore take the same path, and nothing is ever rolled back.

use super::clock::{Clock, Expired, Ms};
use super::command::Command;
use super::dealer::Dealer;
use super::event::{Decision, Event};
use crate::archive::proposals::Proposals;
use crate::archive::stored::StoredEvent;
use crate::refusal::Refusal;
use cannonade_core::{Next, Side};
use cannonade_games::{AnyGame, AnyRecord, GameSpec};
use cannonade_store::RatingRow;
use cannonade_wire::{
    ChatLine, ClockState, ErrorCode, GameResult, MAX_CHAT_CHARS, MoveInfo, OfferKind, Reveal, Role,
    Room, Seat, TimeControl,
};
use std::collections::{HashMap, VecDeque};

/// Chat lines a room keeps for late joiners.
pub const CHAT_KEPT: usize = 50;

/// A seat's occupant.
#[derive(Clone, Debug, PartialEq)]
pub struct Seated {
    /// The user, `None` for the engine.
    pub user: Option<String>,
    /// The name shown.
    pub name: String,
    /// The engine's level when the engine plays this seat.
    pub ai: Option<u8>,
    /// The rating at the start, in a rated game.
    pub rating: Option<RatingRow>,
}

/// How a ply's proposals went, kept from the last move applied for the spectators' frames:
/// the reveal and the new scores of those who proposed, by user.
pub type LastReveal = (Reveal, HashMap<String, (u32, u32)>);

/// What a game is, fixed when it is created.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The game id.
    pub id: String,
    /// The game: kind, options, format.
    pub spec: GameSpec,
    /// The start position (the spec's options applied).
    pub start: AnyGame,
    /// Rated or casual.
    pub rated: bool,
    /// The clock setting.
    pub tc: TimeControl,
    /// The seats, first seat first.
    pub players: [Seated; 2],
    /// Banqi: the deal (its seed is the server's secret until the end).
    pub dealer: Option<Dealer>,
    /// Banqi: the commitment to the seed, published at the start.
    pub commitment: Option<String>,
    /// How long a player may be gone before the opponent may claim the win.
    pub grace_ms: u64,
    /// When the game was made (ms since the Unix epoch): its record's `Date`.
    pub created_ms: i64,
}

/// Characters a chat line or a shown name may not hold: control characters (NUL, line breaks) and the
/// bidirectional controls that make a line read differently from what was sent (U+202E
/// turns `gg 1-0` around; hardening issue, finding 6).
pub(crate) fn hidden_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// What the store keeps of a game besides its setup, to restore it from
/// ([`GameRoom::restore`]).
#[derive(Debug, Default)]
pub struct History {
    /// The game's events, in order.
    pub events: Vec<StoredEvent>,
    /// The open ply's proposals: (user, move).
    pub open_proposals: Vec<(String, String)>,
    /// The chat lines kept, oldest first.
    pub chat: Vec<ChatLine>,
    /// The number of chat lines ever written.
    pub chat_count: i64,
}

/// The state of one game.
#[derive(Debug)]
pub struct GameRoom {
    setup: Setup,
    record: AnyRecord,
    moves: Vec<MoveInfo>,
    clock: Clock,
    offers: Vec<(OfferKind, Seat)>,
    result: Option<GameResult>,
    revealed_seed: Option<String>,
    rematch: Option<String>,
    proposals: Proposals,
    chat: VecDeque<ChatLine>,
    /// Chat lines ever written (the last one's number).
    chat_count: i64,
    /// Game events applied: the version of the last one.
    version: u64,
    /// The reveal of the last move applied, when anyone proposed on its ply.
    last_reveal: Option<LastReveal>,
    /// The clocks are held (the store cannot take moves): the time they were paused.
    paused: bool,
}

fn refuse<T>(code: ErrorCode, text: impl Into<String>) -> Result<T, Refusal> {
    Err((code, text.into()))
}

/// A recorded move in the form spectators propose it: a Banqi flip is recorded with what it
/// revealed (`d2=C`) and proposed as a request (`d2?`).
pub fn proposal_form(recorded: &str) -> String {
    match recorded.split_once('=') {
        Some((square, _)) => format!("{square}?"),
        None => recorded.to_string(),
    }
}

impl GameRoom {
    /// A new game, nothing played.
    pub fn new(setup: Setup) -> Result<GameRoom, String> {
        let record =
            AnyRecord::with_start(&setup.spec, setup.start.clone()).map_err(|e| e.to_string())?;
        if setup.dealer.is_some() != matches!(setup.start, AnyGame::Banqi(_)) {
            return Err("a deal belongs to a Banqi game, and every Banqi game has one".into());
        }
        Ok(GameRoom {
            clock: Clock::new(setup.tc, setup.spec.game_ms()),
            setup,
            record,
            moves: Vec::new(),
            offers: Vec::new(),
            result: None,
            revealed_seed: None,
            rematch: None,
            proposals: Proposals::default(),
            chat: VecDeque::new(),
            chat_count: 0,
            version: 0,
            last_reveal: None,
            paused: false,
        })
    }

    // ---- What the room is ----

    /// The game id.
    pub fn id(&self) -> &str {
        &self.setup.id
    }

    /// What the game is.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The game's record: its spec, start, positions and moves.
    pub fn record(&self) -> &AnyRecord {
        &self.record
    }

    /// The moves played, as told.
    pub fn moves(&self) -> &[MoveInfo] {
        &self.moves
    }

    /// The version of the last game event applied (0 before any).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// The seed of the deal, once revealed at the end.
    pub fn revealed_seed(&self) -> Option<&str> {
        self.revealed_seed.as_deref()
    }

    /// The rematch's game id, once agreed.
    pub fn rematch(&self) -> Option<&str> {
        self.rematch.as_deref()
    }

    /// Open offers.
    pub fn offers(&self) -> &[(OfferKind, Seat)] {
        &self.offers
    }

    /// The clocks.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The spectators' proposals and scores.
    pub fn proposals(&self) -> &Proposals {
        &self.proposals
    }

    /// The chat lines kept, oldest first.
    pub fn chat(&self) -> impl Iterator<Item = &ChatLine> {
        self.chat.iter()
    }

    /// The number of chat lines ever written.
    pub fn chat_count(&self) -> i64 {
        self.chat_count
    }

    /// The reveal of the last move applied, if anyone proposed on its ply.
    pub fn last_reveal(&self) -> Option<&LastReveal> {
        self.last_reveal.as_ref()
    }

    /// Whether the clocks are held.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// The role of `user`: a seat, both seats (hot-seat) or a spectator.
    pub fn role_of(&self, user: &str) -> Role {
        let holds = |i: usize| self.setup.players[i].user.as_deref() == Some(user);
        match (holds(0), holds(1)) {
            (true, true) => Role::Both,
            (true, false) => Role::First,
            (false, true) => Role::Second,
            (false, false) => Role::Spectator,
        }
    }

    /// Whether one user holds both seats.
    pub fn hotseat(&self) -> bool {
        let [a, b] = &self.setup.players;
        a.user.is_some() && a.user == b.user
    }

    /// The seat to move, while the game runs.
    pub fn to_move(&self) -> Option<Side> {
        if self.result.is_some() {
            return None;
        }
        match self.record.next() {
            Next::Player(side) => Some(side),
            _ => None,
        }
    }

    /// The engine's seat and level when it is the engine's move.
    pub fn ai_turn(&self) -> Option<(Side, u8)> {
        let side = self.to_move()?;
        self.setup.players[side.index()].ai.map(|level| (side, level))
    }

    /// When a clock runs out if nobody moves.
    pub fn deadline(&self) -> Option<Ms> {
        if self.result.is_some() { None } else { self.clock.deadline() }
    }

    // ---- Deciding ----

    /// What `cmd` does to the game, changing nothing. A refusal says why nothing happens.
    pub fn decide(&self, cmd: &Command) -> Result<Decision, Refusal> {
        match cmd {
            Command::Move { user, ply, mv, at } => {
                let role = self.role_of(user);
                let Some(side) = self.to_move() else {
                    return refuse(ErrorCode::GameOver, "the game is over");
                };
                if !role.is_player() {
                    return refuse(ErrorCode::Forbidden, "spectators cannot move (use `propose`)");
                }
                if !role.holds(side.into()) {
                    return refuse(ErrorCode::NotYourTurn, "it is your opponent's move");
                }
                self.check_ply(*ply)?;
                self.decide_move(side, mv, *at)
            }
            Command::Ai { ply, mv, at } => {
                let Some((side, _)) = self.ai_turn() else { return Ok(Decision::nothing()) };
                let Some(mv) = mv.filter(|_| *ply as usize == self.moves.len()) else {
                    return Ok(Decision::nothing());
                };
                let text = self.record.position().move_text(mv);
                self.decide_move(side, &text, *at)
            }
            Command::Propose { user, ply, mv } => {
                if self.role_of(user) != Role::Spectator {
                    return refuse(ErrorCode::Forbidden, "only spectators propose moves");
                }
                if self.to_move().is_none() {
                    return refuse(ErrorCode::GameOver, "the game is over");
                }
                self.check_ply(*ply)?;
                let pos = self.record.position();
                let m = pos.parse_move(mv).map_err(|e| (ErrorCode::IllegalMove, e.to_string()))?;
                let mv = pos.move_text(m);
                Ok(Decision::events(vec![Event::Proposed { user: user.clone(), ply: *ply, mv }]))
            }
            Command::Resign { user, at } => {
                let seat = self.acting_seat(self.role_of(user))?;
                Ok(self.end(Some(seat.opponent()), "resignation", *at))
            }
            Command::Abort { user, at } => {
                self.acting_seat(self.role_of(user))?;
                if self.moves.len() >= 2 {
                    return refuse(
                        ErrorCode::Invalid,
                        "a game can be aborted only before both sides moved",
                    );
                }
                Ok(self.end(None, "aborted", *at))
            }
            Command::Claim { user, at, opponent_offline_since } => {
                let seat = self.acting_seat(self.role_of(user))?;
                let other = seat.opponent();
                if self.setup.players[other.index()].ai.is_some() || self.hotseat() {
                    return refuse(ErrorCode::Invalid, "there is nobody to claim against");
                }
                if self.setup.tc.is_correspondence() {
                    // A correspondence player may be away for days: only their clock ends it.
                    return refuse(
                        ErrorCode::Invalid,
                        "a correspondence game ends by its clocks, not by absence",
                    );
                }
                let Some(since) = opponent_offline_since else {
                    return refuse(ErrorCode::Invalid, "your opponent is connected");
                };
                let ready = since + self.setup.grace_ms;
                if *at < ready {
                    let ms = ready - at;
                    return refuse(
                        ErrorCode::Invalid,
                        format!("your opponent has {ms} ms left to come back"),
                    );
                }
                Ok(self.end(Some(seat), "abandonment", *at))
            }
            Command::Offer { user, kind, at } => self.decide_offer(self.role_of(user), *kind, *at),
            Command::Accept { user, kind, at } => {
                let seat = self.player_seat(self.role_of(user))?;
                let Some(&(_, by)) =
                    self.offers.iter().find(|(k, s)| k == kind && *s != seat.into())
                else {
                    return refuse(ErrorCode::Invalid, "there is no such offer from your opponent");
                };
                self.carry_out(*kind, by.into(), *at)
            }
            Command::Decline { user, kind } => {
                let seat = self.player_seat(self.role_of(user))?;
                if !self.offers.iter().any(|(k, s)| k == kind && *s != seat.into()) {
                    return refuse(ErrorCode::Invalid, "there is no such offer from your opponent");
                }
                Ok(Decision::game(StoredEvent::Declined { kind: *kind, seat: seat.into() }))
            }
            Command::Chat { user, name, text } => {
                let text = text.trim();
                let chars = text.chars().count();
                if text.is_empty() || chars > MAX_CHAT_CHARS {
                    return refuse(
                        ErrorCode::Invalid,
                        format!("a chat line has 1 to {MAX_CHAT_CHARS} characters"),
                    );
                }
                if text.chars().any(hidden_char) {
                    return refuse(
                        ErrorCode::Invalid,
                        "a chat line holds no control or text-direction characters",
                    );
                }
                let room =
                    if self.role_of(user).is_player() { Room::Players } else { Room::Spectators };
                let line = ChatLine { room, from: name.clone(), text: text.to_string() };
                Ok(Decision::events(vec![Event::Chat(line)]))
            }
            Command::Tick { at } => match self.clock.expired(*at).filter(|_| self.result.is_none())
            {
                Some(expired) => Ok(self.time_out(expired, *at)),
                None => Ok(Decision::nothing()),
            },
            Command::Idle { at } => {
                if self.result.is_some() {
                    return refuse(ErrorCode::GameOver, "the game is over");
                }
                if !self.setup.tc.untimed() {
                    return refuse(ErrorCode::Invalid, "a timed game ends by its clocks");
                }
                Ok(self.end(None, "aborted", *at))
            }
            Command::RematchCreated { game } => {
                Ok(Decision::game(StoredEvent::Rematch { game: game.clone() }))
            }
        }
    }

    fn check_ply(&self, ply: u32) -> Result<(), Refusal> {
        if ply as usize != self.moves.len() {
            return refuse(
                ErrorCode::StalePly,
                format!("the game is at ply {}, not {ply}", self.moves.len()),
            );
        }
        Ok(())
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

    /// `side` plays `text`, received at `at`.
    fn decide_move(&self, side: Side, text: &str, at: Ms) -> Result<Decision, Refusal> {
        if self.paused {
            return refuse(
                ErrorCode::Storage,
                "moves are on hold: the server cannot save them right now, and the clocks are \
                 stopped until it can",
            );
        }
        let pos = self.record.position();
        let mv = pos.parse_move(text).map_err(|e| (ErrorCode::IllegalMove, e.to_string()))?;
        let canonical = pos.move_text(mv);
        let mut display = pos.display_move(mv);
        // A Banqi flip: the server's deal says what is revealed.
        let recorded = match (canonical.strip_suffix('?'), &self.setup.dealer) {
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
            let mut decision = self.time_out(expired, at);
            decision.reply =
                Some((ErrorCode::GameOver, "time ran out before the move arrived".into()));
            return Ok(decision);
        }
        let mut after = self.record.clone();
        after.play_text(&recorded).map_err(|e| (ErrorCode::IllegalMove, e.to_string()))?;
        let next = match after.next() {
            Next::Player(s) if !clock.untimed() => Some(s.into()),
            _ => None,
        };
        let judged = self.proposals.judge(&proposal_form(&recorded));
        let moved = StoredEvent::Moved {
            ply: self.moves.len() as u32,
            info: MoveInfo { mv: recorded, display, seat: side.into() },
            clock: ClockState { running: next, ..clock.state(at) },
            crowd: judged.crowd.clone(),
            at: None,
        };
        let mut events = vec![Event::Game(moved)];
        if let Next::Over(outcome) = after.next() {
            let mut crowd = self.proposals.clone();
            crowd.settle(side, judged.crowd.as_ref());
            events.push(Event::Game(self.ending(
                outcome.winner,
                outcome.reason.as_str(),
                &clock,
                at,
                &after,
                &crowd,
            )));
        }
        Ok(Decision::events(events))
    }

    /// The game ends now.
    fn end(&self, winner: Option<Side>, reason: &str, at: Ms) -> Decision {
        let event = self.ending(winner, reason, &self.clock, at, &self.record, &self.proposals);
        Decision::game(event)
    }

    /// The end event: the clocks stopped at `at`, the points of `record`, the crowd's record
    /// of `proposals`, and a Banqi deal's seed revealed.
    fn ending(
        &self,
        winner: Option<Side>,
        reason: &str,
        clock: &Clock,
        at: Ms,
        record: &AnyRecord,
        proposals: &Proposals,
    ) -> StoredEvent {
        let mut clock = clock.clone();
        clock.stop(at);
        StoredEvent::Ended {
            result: GameResult {
                winner: winner.map(Seat::from),
                reason: reason.to_string(),
                points: record.points(),
            },
            clock: clock.state(at),
            seed: self.setup.dealer.as_ref().map(Dealer::reveal_seed),
            crowd: proposals.crowd(),
        }
    }

    /// Ends the game when time ran out: a flagged seat loses (rules §12.4), an expired game
    /// timer decides on points (§13.3).
    fn time_out(&self, expired: Expired, at: Ms) -> Decision {
        let mut clock = self.clock.clone();
        clock.stop(at);
        let (winner, reason) = match expired {
            Expired::Flag(side) => (Some(side.opponent()), "time".to_string()),
            Expired::GameTime => match self.record.judge(true) {
                Next::Over(o) => (o.winner, o.reason.as_str().to_string()),
                // Only scored formats have a game timer, and those are decided on time.
                _ => (None, "time".to_string()),
            },
        };
        let event = self.ending(winner, &reason, &clock, at, &self.record, &self.proposals);
        Decision::game(event)
    }

    // ---- Applying ----

    /// Applies a decided (and stored) event at `now`: the only way the room's state changes,
    /// for live play and for restoring a game from the store alike. A running clock starts
    /// at `now`, so a restored game is not charged the downtime.
    pub fn apply(&mut self, event: &Event, now: Ms) -> Result<(), String> {
        match event {
            Event::Game(e) => {
                self.apply_game(e, now)?;
                self.version += 1;
            }
            Event::Chat(line) => {
                if self.chat.len() == CHAT_KEPT {
                    self.chat.pop_front();
                }
                self.chat.push_back(line.clone());
                self.chat_count += 1;
            }
            Event::Proposed { user, ply, mv } => {
                self.proposals.propose(user, *ply, mv);
            }
        }
        Ok(())
    }

    fn apply_game(&mut self, event: &StoredEvent, now: Ms) -> Result<(), String> {
        self.last_reveal = None;
        match event {
            StoredEvent::Moved { ply, info, clock, crowd, .. } => {
                if *ply as usize != self.moves.len() {
                    return Err(format!("a move for ply {ply} at ply {}", self.moves.len()));
                }
                // A stored move was refereed when it was decided (or is an imported
                // record's, which may go on past where our rules end the game): it only
                // has to be legal.
                self.record
                    .play_text_past_end(&info.mv)
                    .map_err(|e| format!("stored move {}: {e}", info.mv))?;
                let played = proposal_form(&info.mv);
                let judged = self.proposals.judge(&played);
                let scored = self.proposals.settle(info.seat.into(), crowd.as_ref());
                if crowd.is_some() {
                    let reveal = Reveal {
                        ply: *ply,
                        played,
                        counts: judged.counts,
                        matched: judged.matched,
                        crowd: self.proposals.crowd(),
                    };
                    self.last_reveal = Some((reveal, scored.into_iter().collect()));
                }
                self.moves.push(info.clone());
                self.set_clock(clock, now);
                // Open offers lapse when a move is played.
                self.offers.retain(|(k, _)| *k == OfferKind::Rematch);
            }
            StoredEvent::Offered { kind, seat } => self.offers.push((*kind, *seat)),
            StoredEvent::Declined { kind, .. } => self.offers.retain(|(k, _)| k != kind),
            StoredEvent::TakenBack { moves, clock, .. } => {
                let keep = self.moves.len().saturating_sub(*moves as usize);
                self.moves.truncate(keep);
                let mut record =
                    AnyRecord::with_start(self.record.spec(), self.setup.start.clone())
                        .map_err(|e| e.to_string())?;
                for m in &self.moves {
                    record.play_text(&m.mv).map_err(|e| format!("replaying {}: {e}", m.mv))?;
                }
                self.record = record;
                self.set_clock(clock, now);
                self.offers.clear();
                self.proposals.reset(keep as u32);
            }
            StoredEvent::Ended { result, clock, seed, .. } => {
                self.result = Some(result.clone());
                self.revealed_seed = seed.clone();
                self.offers.clear();
                self.clock = Clock::restored(self.setup.tc, clock);
            }
            StoredEvent::Rematch { game } => {
                self.rematch = Some(game.clone());
                self.offers.clear();
            }
        }
        Ok(())
    }

    /// The clocks of a stored state; the seat it names as running starts at `now` unless
    /// the clocks are held.
    fn set_clock(&mut self, state: &ClockState, now: Ms) {
        self.clock = Clock::restored(self.setup.tc, state);
        if let Some(seat) = state.running.filter(|_| !self.paused) {
            self.clock.start(seat.into(), now);
        }
    }

    // ---- What the shell controls outside the game's history ----

    /// Holds the clocks at `now` (the store cannot take moves; players are told): nothing
    /// runs until [`GameRoom::resume`], and moves are refused meanwhile.
    pub fn pause(&mut self, now: Ms) {
        if !self.paused {
            self.paused = true;
            self.clock.stop(now);
        }
    }

    /// Starts the held clocks again at `now`.
    pub fn resume(&mut self, now: Ms) {
        if self.paused {
            self.paused = false;
            if let Some(side) = self.to_move().filter(|_| !self.moves.is_empty()) {
                self.clock.start(side, now);
            }
        }
    }

    /// A spectator's proposal whose store write failed is withdrawn (unless replaced since);
    /// `true` when it was the live one.
    pub fn withdraw_proposal(&mut self, user: &str, ply: u32, mv: &str) -> bool {
        self.proposals.withdraw(user, ply, mv)
    }

    /// Restores a game from its setup and stored history: the game events (`after_each`
    /// sees the room after each), then the open ply's proposals and the chat lines kept,
    /// applied at `now`. `wall_now` is the wall-clock time (ms since the Unix epoch): a
    /// correspondence game's running clock is charged the wall-clock time since its last
    /// stamped move, so the mover's days ran on while the server was down (and may have run
    /// out: the next [`Command::Tick`] ends the game on time). Other games are not charged
    /// the downtime.
    pub fn restore(
        setup: Setup,
        history: History,
        now: Ms,
        wall_now: i64,
        mut after_each: impl FnMut(&GameRoom, &StoredEvent),
    ) -> Result<GameRoom, String> {
        let History { events, open_proposals, chat, chat_count } = history;
        let mut room = GameRoom::new(setup)?;
        let mut stamp = None;
        for (i, e) in events.into_iter().enumerate() {
            stamp = e.stamp().or(stamp);
            let event = Event::Game(e);
            room.apply(&event, now).map_err(|e| format!("event {}: {e}", i + 1))?;
            if let Event::Game(e) = &event {
                after_each(&room, e);
            }
        }
        if let (Some(side), Some(at), true) =
            (room.clock.running(), stamp, room.setup.tc.is_correspondence())
        {
            room.clock.charge(side, wall_now.saturating_sub(at).max(0) as u64);
        }
        room.last_reveal = None;
        if room.result.is_none() {
            let ply = room.moves.len() as u32;
            for (user, mv) in open_proposals {
                room.proposals.propose(&user, ply, &mv);
            }
        }
        for line in chat {
            room.apply(&Event::Chat(line), now)?;
        }
        room.chat_count = chat_count.max(room.chat_count);
        Ok(room)
    }

    /// The end the rules already give but the history lacks (a crash between storing a
    /// move and its end, before the two were stored together): the decision that ends it.
    pub fn unrecorded_end(&self, at: Ms) -> Option<Decision> {
        if self.result.is_some() {
            return None;
        }
        match self.record.judge(false) {
            Next::Over(o) => Some(self.end(o.winner, o.reason.as_str(), at)),
            _ => None,
        }
    }
}

#[path = "room_offers.rs"]
mod offers;

#[cfg(test)]
#[path = "room_tests.rs"]
mod tests;
