//! Messages from a client to the server.

use crate::analysis::PositionRequest;
use crate::common::{OfferKind, RangeRequest, TimeControl};
use cannonade_games::GameKind;
use serde::{Deserialize, Serialize};

/// A message from a client. JSON objects tagged by `t`; unknown fields are refused so a typo
/// gets an error instead of being ignored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Liveness check; answered by `pong` with the same `n`.
    Ping {
        /// Echoed back.
        #[serde(default)]
        n: u64,
    },
    /// Start receiving the lobby (seeks and live games).
    LobbySubscribe,
    /// Stop receiving the lobby.
    LobbyUnsubscribe,
    /// Offer a game to anyone in the lobby.
    Seek {
        /// The game.
        game: GameKind,
        /// Rule options `key=value,…` (Xiangqi `repetition=asian`, Banqi's options).
        #[serde(default)]
        options: String,
        /// The clock.
        clock: TimeControl,
        /// Rated (accounts only) or casual.
        #[serde(default)]
        rated: bool,
        /// Only players rated in this range may see and take it (accounts only, timed
        /// games only); absent: open to all.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        range: Option<RangeRequest>,
    },
    /// Make a private seek reachable only through its invite code (`/invite/CODE`).
    Invite {
        /// The game.
        game: GameKind,
        /// Rule options.
        #[serde(default)]
        options: String,
        /// The clock.
        clock: TimeControl,
        /// Rated or casual.
        #[serde(default)]
        rated: bool,
        /// As for `seek`: only players rated in this range may take it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        range: Option<RangeRequest>,
    },
    /// Withdraw one's own seek or invite.
    CancelSeek {
        /// The seek id or invite code.
        id: String,
    },
    /// Accept a seek from the lobby or an invite by its code.
    AcceptSeek {
        /// The seek id or invite code.
        id: String,
    },
    /// Start a game against the engine.
    PlayAi {
        /// The game.
        game: GameKind,
        /// Rule options.
        #[serde(default)]
        options: String,
        /// The clock (`initial_ms: 0` for none).
        clock: TimeControl,
        /// Strength 1 (weakest) to 10, the engine's calibrated levels.
        level: u8,
        /// The human's seat; `null` for a random one.
        #[serde(default)]
        seat: Option<crate::Seat>,
        /// A start position in the game's notation (the board editor's); absent: the
        /// game's own. Not for Banqi, whose games start face down from a fair deal.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fen: Option<String>,
    },
    /// Start a hot-seat game: this client holds both seats.
    Hotseat {
        /// The game.
        game: GameKind,
        /// Rule options.
        #[serde(default)]
        options: String,
        /// The clock.
        clock: TimeControl,
        /// A start position, as for `play_ai`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fen: Option<String>,
    },
    /// Join a game's stream as its player (if the session holds a seat) or a spectator.
    /// `since` is the last event version the client has: it gets the missing events, or a
    /// snapshot when it has none or too old a version.
    Watch {
        /// The game id.
        game: String,
        /// The last version seen.
        #[serde(default)]
        since: Option<u64>,
    },
    /// Leave a game's stream.
    Unwatch {
        /// The game id.
        game: String,
    },
    /// Play a move for the seat to move.
    Move {
        /// The game id.
        game: String,
        /// The ply the move is for (the number of moves played so far): a move made on an
        /// outdated board is refused with `stale_ply`.
        ply: u32,
        /// A move text from the `legal` list.
        mv: String,
    },
    /// Resign.
    Resign {
        /// The game id.
        game: String,
    },
    /// Offer a draw, a takeback or a rematch.
    Offer {
        /// The game id.
        game: String,
        /// What is offered.
        kind: OfferKind,
    },
    /// Accept the opponent's offer.
    Accept {
        /// The game id.
        game: String,
        /// Which offer.
        kind: OfferKind,
    },
    /// Decline the opponent's offer.
    Decline {
        /// The game id.
        game: String,
        /// Which offer.
        kind: OfferKind,
    },
    /// Call the game off before both seats have moved.
    Abort {
        /// The game id.
        game: String,
    },
    /// Claim the win after the opponent's disconnection grace period ran out.
    Claim {
        /// The game id.
        game: String,
    },
    /// Say something: players in the players' room, spectators in the spectators' room.
    Chat {
        /// The game id.
        game: String,
        /// At most [`crate::MAX_CHAT_CHARS`] characters.
        text: String,
    },
    /// A spectator's guess of the next move (one per spectator per ply, replaceable until the
    /// player moves).
    Propose {
        /// The game id.
        game: String,
        /// The ply it is for.
        ply: u32,
        /// A legal move text.
        mv: String,
    },
    /// Start the engine on a position of the analysis board (replacing this socket's
    /// previous analysis): answered by `analysis` messages with the same `id`.
    Analyse {
        /// Chosen by the client to match the answers to the request.
        id: u32,
        /// How many best lines (1 to [`crate::MAX_ANALYSIS_LINES`]).
        #[serde(default = "one_line")]
        lines: u32,
        /// The position.
        position: PositionRequest,
    },
    /// Stop this socket's analysis (the board was closed).
    StopAnalysis,
}

fn one_line() -> u32 {
    1
}

impl ClientMsg {
    /// The game a message is about, if any.
    pub fn game(&self) -> Option<&str> {
        match self {
            ClientMsg::Watch { game, .. }
            | ClientMsg::Unwatch { game }
            | ClientMsg::Move { game, .. }
            | ClientMsg::Resign { game }
            | ClientMsg::Offer { game, .. }
            | ClientMsg::Accept { game, .. }
            | ClientMsg::Decline { game, .. }
            | ClientMsg::Abort { game }
            | ClientMsg::Claim { game }
            | ClientMsg::Chat { game, .. }
            | ClientMsg::Propose { game, .. } => Some(game),
            _ => None,
        }
    }

    /// A seat's act in its game (a move, a resignation, an offer and its answer, an abort
    /// or a claim). These are bounded per socket only: a flood from the player's other tabs
    /// or from others behind the same address must not keep a player from moving.
    pub fn is_play(&self) -> bool {
        matches!(
            self,
            ClientMsg::Move { .. }
                | ClientMsg::Resign { .. }
                | ClientMsg::Offer { .. }
                | ClientMsg::Accept { .. }
                | ClientMsg::Decline { .. }
                | ClientMsg::Abort { .. }
                | ClientMsg::Claim { .. }
        )
    }

    /// Reads a client frame; the error text names what is wrong.
    pub fn parse(text: &str) -> Result<ClientMsg, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}
