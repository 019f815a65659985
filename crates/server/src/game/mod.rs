//! Live games. Each game is a [`room::GameRoom`] — a pure state machine of the game's whole
//! state: decide a command, apply its events — inside a `shell::Shell`, the one task that
//! stores, applies and tells. Everything else talks to a game through its [`GameHandle`].

mod ai_pace;
mod ai_reply;
pub mod clock;
pub mod command;
mod dealer;
pub mod event;
mod export;
mod games;
pub mod import;
pub mod room;
mod shell;
pub mod view;
mod your_turn;

use crate::conn::Conn;
use crate::ids;
use crate::incident;
use crate::lobby::check_settings;
use crate::refusal::Refusal;
use crate::user::UserCtx;
use cannonade_banqi::DealSeed;
use cannonade_core::Side;
use cannonade_games::{AnyGame, AnyMove, GameKind};
use cannonade_store::{EventRow, GameRow};
use cannonade_wire::{ClientMsg, ErrorCode, Role, ServerMsg, TimeControl};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32};
use tokio::sync::mpsc;
use tokio::time::Instant;
pub use view::{Audience, SocketScore, with_score};

pub use dealer::Dealer;
pub use games::{Games, Handles, PeerFuture, Peers};
pub use your_turn::{YourTurn, your_turn};

/// What a game shows in the lobby, updated by its actor.
#[derive(Debug)]
pub struct Summary {
    /// The game.
    pub kind: GameKind,
    /// The players' names.
    pub names: [String; 2],
    /// Moves played.
    pub moves: AtomicU32,
    /// Spectators.
    pub spectators: AtomicU32,
    /// Finished.
    pub over: AtomicBool,
    /// The game runs on another node; this node only relays it (not listed as its own).
    pub relayed: bool,
    /// The user playing alone (against the engine, or both seats in hot seat): such games
    /// count against [`crate::limits::Limits::solo_games_per_user`].
    pub solo: Option<String>,
    /// The users in the seats, first seat first (`None`: the engine).
    pub users: [Option<String>; 2],
    /// The seat to move while the game runs: 0 none, 1 first, 2 second (the "your turn"
    /// list reads it without asking the actor).
    pub to_move: AtomicU8,
}

impl Summary {
    /// The summary of a game with no move played yet.
    pub fn new(kind: GameKind, names: [String; 2], relayed: bool) -> Summary {
        Summary {
            kind,
            names,
            moves: Default::default(),
            spectators: Default::default(),
            over: Default::default(),
            relayed,
            solo: None,
            users: [None, None],
            to_move: Default::default(),
        }
    }

    /// Records the seat to move (`None`: nobody, or the game is over).
    pub fn set_to_move(&self, side: Option<Side>) {
        let n = match side {
            None => 0,
            Some(Side::First) => 1,
            Some(Side::Second) => 2,
        };
        self.to_move.store(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// The seat `user` holds if it is that seat's move; `None` in a game `user` plays on
    /// both seats (hot seat: the turn is always theirs).
    pub(crate) fn user_to_move(&self, user: &str) -> Option<Side> {
        let side = match self.to_move.load(std::sync::atomic::Ordering::Relaxed) {
            1 => Side::First,
            2 => Side::Second,
            _ => return None,
        };
        let seated = |i: usize| self.users[i].as_deref() == Some(user);
        (seated(side.index()) && !seated(side.opponent().index())).then_some(side)
    }
}

/// The user playing alone in a game seating `users` with engine levels `ai`: the human of a
/// game against the engine, or the one user in both seats.
pub fn solo_player(users: &[Option<String>; 2], ai: &[Option<i64>; 2]) -> Option<String> {
    match (users, ai) {
        ([Some(a), Some(b)], _) if a == b => Some(a.clone()),
        ([Some(a), None], [None, Some(_)]) | ([None, Some(a)], [Some(_), None]) => Some(a.clone()),
        _ => None,
    }
}

/// How many live games of this node `user` plays alone.
pub fn solo_games(games: &Games, user: &str) -> usize {
    games
        .list()
        .values()
        .filter(|h| {
            h.summary.solo.as_deref() == Some(user)
                && !h.summary.over.load(std::sync::atomic::Ordering::Relaxed)
                && !h.tx.is_closed()
        })
        .count()
}

/// The role of `user` in a game whose seats hold `users`.
pub fn role_of(users: &[Option<String>; 2], user: &str) -> Role {
    let first = users[0].as_deref() == Some(user);
    let second = users[1].as_deref() == Some(user);
    match (first, second) {
        (true, true) => Role::Both,
        (true, false) => Role::First,
        (false, true) => Role::Second,
        (false, false) => Role::Spectator,
    }
}

/// A message to a game actor.
#[derive(Debug)]
pub enum Cmd {
    /// A socket joins the game's stream; `since` is its last event version.
    Join {
        /// The socket.
        conn: Conn,
        /// Its last version.
        since: Option<u64>,
    },
    /// A socket leaves.
    Leave {
        /// Its id.
        conn_id: u64,
    },
    /// This node lost the game's lease: the actor hands its sockets over and ends.
    Lost,
    /// The sockets of another node that follow the game, all of them: the others left.
    Following {
        /// The node.
        node: String,
        /// Its sockets in the game.
        conns: Vec<u64>,
    },
    /// A client's request about this game, read at `at`.
    Client {
        /// The socket.
        conn: Conn,
        /// The request.
        msg: ClientMsg,
        /// When the socket read it (clocks charge from here).
        at: Instant,
    },
    /// The start and the position after each move, for replay.
    Positions {
        /// Where to send them (an error if the stored moves no longer replay).
        reply: tokio::sync::oneshot::Sender<Result<cannonade_wire::Positions, String>>,
    },
    /// A spectator's proposal for `ply` has been stored (or could not be).
    Proposed {
        /// The spectator's socket.
        conn: Conn,
        /// The ply proposed for.
        ply: u32,
        /// The move as the game writes it.
        mv: String,
        /// The store's answer.
        stored: Result<(), cannonade_store::StoreError>,
    },
    /// A chat line has been stored (or could not be: the socket to tell).
    Chatted {
        /// The line's number in the game (lines are told in this order).
        n: i64,
        /// The line.
        line: cannonade_wire::ChatLine,
        /// The store's answer.
        stored: Result<(), (Conn, cannonade_store::StoreError)>,
    },
    /// The crowd's favourite of ply `judged.ply` valued by the engine (spectators only).
    CrowdJudged {
        /// The move the judged ply ended with: a judgement of a ply taken back since is
        /// dropped.
        played: String,
        /// The judgement.
        judged: cannonade_wire::CrowdPly,
    },
    /// The engine's move for ply `ply`.
    Ai {
        /// The search that found it: the answer of a search called off since is dropped.
        search: u64,
        /// The ply searched.
        ply: u32,
        /// The move (`None`: no move found).
        mv: Option<AnyMove>,
        /// When it is played: the engine's pause ends then.
        due: Instant,
    },
}

/// The way to a game's shell.
#[derive(Clone, Debug)]
pub struct GameHandle {
    /// Its mailbox for players' requests and the game's own work (served first).
    pub tx: mpsc::Sender<Cmd>,
    /// Its mailbox for the rest (chat, proposals), bounded: a flood is refused here.
    pub side: mpsc::Sender<Cmd>,
    /// Its lobby summary.
    pub summary: Arc<Summary>,
}

impl GameHandle {
    /// Hands a client's request to the game: chat and proposals through the second
    /// mailbox, refused when it is full; the rest through the first. `Err` when the game
    /// is gone or too busy.
    pub async fn client(&self, conn: Conn, msg: ClientMsg, at: Instant) -> Result<(), Refusal> {
        let side = matches!(msg, ClientMsg::Chat { .. } | ClientMsg::Propose { .. });
        let cmd = Cmd::Client { conn, msg, at };
        if side {
            return self.side.try_send(cmd).map_err(|e| match e {
                mpsc::error::TrySendError::Full(_) => (
                    ErrorCode::RateLimited,
                    "the game is busy with chat and proposals; try again in a moment".into(),
                ),
                mpsc::error::TrySendError::Closed(_) => {
                    (ErrorCode::NotFound, "the game closed; watch it again".into())
                }
            });
        }
        self.tx
            .send(cmd)
            .await
            .map_err(|_| (ErrorCode::NotFound, "the game closed; watch it again".into()))
    }
}

/// Who sits in a seat of a game being created.
#[derive(Clone, Debug)]
pub enum SeatSpec {
    /// A user.
    Human {
        /// User id.
        id: String,
        /// Name.
        name: String,
        /// Their session, when they may not be in the store yet: an anonymous user is
        /// written with the game where they take their first seat.
        session: Option<Arc<UserCtx>>,
    },
    /// The engine at a level 1–10.
    Ai(u8),
}

/// A game to create.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// The game.
    pub kind: GameKind,
    /// Rule options.
    pub options: String,
    /// The clock.
    pub clock: TimeControl,
    /// Rated.
    pub rated: bool,
    /// The seats, first seat first.
    pub seats: [SeatSpec; 2],
    /// A start position in the game's notation (the board editor's), `None` for the
    /// game's own.
    pub start: Option<String>,
}

/// Creates a game: checks the settings, draws a Banqi seed, stores the game, starts its
/// actor and tells both players' sockets. Returns the game id.
pub async fn start_game(games: &Arc<Games>, spec: GameSpec) -> Result<String, Refusal> {
    let (start, options) = check_settings(spec.kind, &spec.options, spec.clock, spec.rated)?;
    let start = match &spec.start {
        Some(fen) => crate::lobby::custom_start(&options, fen, spec.rated)?,
        None => start,
    };
    let seed = match &start {
        AnyGame::Banqi(_) => Some(DealSeed::random().map_err(|e| {
            (ErrorCode::Storage, incident::logged("no random seed for the deal", e))
        })?),
        _ => None,
    };
    let seat = |s: &SeatSpec| match s {
        SeatSpec::Human { id, name, .. } => (Some(id.clone()), name.clone(), None),
        SeatSpec::Ai(level) => (None, format!("AI level {level}"), Some(*level as i64)),
    };
    let (u0, n0, a0) = seat(&spec.seats[0]);
    let (u1, n1, a1) = seat(&spec.seats[1]);
    let row = GameRow {
        id: ids::short_id()?,
        kind: spec.kind.name().to_string(),
        options: options.options_text(),
        start_fen: start.fen(),
        initial_ms: spec.clock.initial_ms as i64,
        increment_ms: spec.clock.increment_ms as i64,
        rated: spec.rated,
        users: [u0, u1],
        names: [n0, n1],
        ai: [a0, a1],
        commitment: seed.as_ref().map(|s| s.commitment().to_string()),
        seed: seed.map(|s| s.to_hex()),
        status: "live".into(),
        result: None,
        crowd: None,
        export: None,
        created_ms: ids::now_ms(),
        ended_ms: None,
        days_per_move: spec.clock.days_per_move.map_or(0, i64::from),
    };
    if let Some(peers) = games.peers() {
        // A new id: the lease is free; taking it makes the renewals cover the game.
        let mine = peers.claim(&row.id).await.map_err(|e| {
            (ErrorCode::Storage, incident::logged("the game could not be claimed", e))
        })?;
        if !mine {
            return Err((ErrorCode::Storage, "the new game's id is taken".into()));
        }
    }
    let stored = row.clone();
    let sessions: Vec<Arc<UserCtx>> = spec
        .seats
        .iter()
        .filter_map(|s| match s {
            SeatSpec::Human { session, .. } => session.clone(),
            SeatSpec::Ai(_) => None,
        })
        .collect();
    games
        .h
        .writer
        .exec(move |store| async move {
            // Decided on the writer task: of two games seating a new user at once, the
            // first writes them.
            let new = crate::user::unsaved_once(&sessions);
            store.create_game(&stored, &new).await?;
            sessions.iter().for_each(|u| crate::user::saved(u));
            Ok(())
        })
        .await
        .map_err(|e| (ErrorCode::Storage, incident::logged("the game could not be saved", e)))?;
    let id = row.id.clone();
    let users = row.users.clone();
    load(games, row, Vec::new())
        .await
        .map_err(|e| (ErrorCode::Storage, incident::logged("the game could not be started", e)))?;
    for (i, user) in users.iter().enumerate() {
        if let Some(user) = user {
            let both = users[1 - i].as_deref() == Some(user.as_str());
            let role = if both {
                Role::Both
            } else if i == 0 {
                Role::First
            } else {
                Role::Second
            };
            if both && i == 1 {
                continue;
            }
            games.tell_user(user, &ServerMsg::GameStarted { game: id.clone(), role });
        }
    }
    Ok(id)
}

/// Starts the actor of a stored game from its row and events (new, recovered at start-up,
/// or a finished one opened for viewing) and registers it. If another task registered the
/// same game meanwhile, that one is kept.
pub async fn load(
    games: &Arc<Games>,
    row: GameRow,
    events: Vec<EventRow>,
) -> Result<GameHandle, String> {
    let shell = shell::Shell::restore(games, row, events).await?;
    let id = shell.id().to_string();
    let mut list = games.list();
    if let Some(existing) = list.get(&id) {
        return Ok(existing.clone());
    }
    let handle = shell.spawn();
    list.insert(id, handle.clone());
    Ok(handle)
}

/// The handle of a game in memory, or loaded from the store (with other nodes: run here if
/// this node may own it, else relayed to its owner).
pub async fn get_or_load(games: &Arc<Games>, id: &str) -> Result<Option<GameHandle>, String> {
    if let Some(h) = games.get(id).filter(|h| !h.tx.is_closed()) {
        return Ok(Some(h));
    }
    if let Some(peers) = games.peers() {
        return peers.clone().open(id.to_string()).await;
    }
    let Some((row, events)) = stored(games, id).await? else {
        return Ok(None);
    };
    games.list().retain(|gid, h| gid != id || !h.tx.is_closed());
    load(games, row, events).await.map(Some)
}

/// The positions of a game for replay; `None` for an unknown game. The game's actor answers
/// when it runs on this node; otherwise (another node runs it, or nobody: a finished game)
/// they are built from the store, which holds every told move.
pub async fn positions(
    games: &Games,
    id: &str,
) -> Result<Option<cannonade_wire::Positions>, String> {
    let local = games.get(id).filter(|h| !h.summary.relayed);
    if let Some(handle) = local {
        let (reply, answer) = tokio::sync::oneshot::channel();
        if handle.tx.send(Cmd::Positions { reply }).await.is_ok()
            && let Ok(positions) = answer.await
        {
            return positions.map(Some);
        }
        // The actor stopped meanwhile: the store has all it told.
    }
    stored_positions(games, id).await
}

/// The positions of a game for replay as the store has them; `None` for an unknown game.
async fn stored_positions(
    games: &Games,
    id: &str,
) -> Result<Option<cannonade_wire::Positions>, String> {
    let Some((row, events)) = stored(games, id).await? else {
        return Ok(None);
    };
    crate::archive::replay::from_store(&row, &events).map(Some)
}

/// A game's row and every event, as the store has them; `None` for an unknown game.
pub async fn stored(games: &Games, id: &str) -> Result<Option<(GameRow, Vec<EventRow>)>, String> {
    crate::archive::stored_in(games.h.store.as_ref(), id).await
}

/// Brings every live game of the store back (server start); with other nodes, those whose
/// lease is free. Clocks resume at the times stored with the last move: the downtime is not
/// charged, except to the mover of a correspondence game, whose days run on the wall clock.
pub async fn recover(games: &Arc<Games>) -> Result<usize, String> {
    let rows = games.h.store.live_games().await.map_err(|e| e.to_string())?;
    let mut n = 0;
    for row in rows {
        let id = row.id.clone();
        if let Some(peers) = games.peers()
            && !peers.claim(&id).await?
        {
            continue;
        }
        n += 1;
        let events = games.h.store.events(&id).await.map_err(|e| e.to_string())?;
        if let Err(e) = load(games, row, events).await {
            tracing::error!(game = %id, "could not restore the game: {e}");
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::Out;

    fn conn() -> Conn {
        let (tx, _rx) = mpsc::channel(1);
        let user = UserCtx::remote(cannonade_wire::UserInfo {
            id: "u1".into(),
            name: "Anon-u1".into(),
            account: false,
        });
        Conn { id: 1, user: Arc::new(user), tx: Out::Local(tx) }
    }

    fn chat(n: usize) -> ClientMsg {
        ClientMsg::Chat { game: "g".into(), text: format!("line {n}") }
    }

    /// Chat and proposals go to the game's second mailbox, which refuses them once full
    /// instead of making the sender (and the moves behind it) wait; a move still goes
    /// through the first, and a closed game is said to be gone (hardening issue, finding 2:
    /// a flood of 90 to 180 chat lines a second delayed a move by 37 s).
    #[tokio::test]
    async fn a_full_side_mailbox_refuses_chat_and_lets_moves_through() {
        let (tx, mut rx) = mpsc::channel(4);
        let (side, mut side_rx) = mpsc::channel(shell::SIDE_QUEUE);
        let handle = GameHandle {
            tx,
            side,
            summary: Arc::new(Summary::new(GameKind::Xiangqi, Default::default(), false)),
        };
        for n in 0..shell::SIDE_QUEUE {
            handle.client(conn(), chat(n), Instant::now()).await.unwrap();
        }
        let (code, _) = handle.client(conn(), chat(999), Instant::now()).await.unwrap_err();
        assert_eq!(code, ErrorCode::RateLimited);
        let propose = ClientMsg::Propose { game: "g".into(), ply: 0, mv: "h2e2".into() };
        let (code, _) = handle.client(conn(), propose, Instant::now()).await.unwrap_err();
        assert_eq!(code, ErrorCode::RateLimited, "proposals share the chat's mailbox");
        let mv = ClientMsg::Move { game: "g".into(), ply: 0, mv: "h2e2".into() };
        handle.client(conn(), mv.clone(), Instant::now()).await.unwrap();
        assert!(matches!(rx.try_recv(), Ok(Cmd::Client { msg: ClientMsg::Move { .. }, .. })));
        // The game takes one line: there is room for one more, in order.
        assert!(matches!(
            side_rx.try_recv(),
            Ok(Cmd::Client { msg: ClientMsg::Chat { text, .. }, .. }) if text == "line 0"
        ));
        handle.client(conn(), chat(1000), Instant::now()).await.unwrap();
        drop((rx, side_rx));
        let (code, _) = handle.client(conn(), chat(1001), Instant::now()).await.unwrap_err();
        assert_eq!(code, ErrorCode::NotFound, "a closed game");
        let (code, _) = handle.client(conn(), mv, Instant::now()).await.unwrap_err();
        assert_eq!(code, ErrorCode::NotFound, "a closed game");
    }
}
