//! Versioned game events: what every audience of a game may know, in order.

use crate::common::{ClockState, CrowdRecord, GameResult, MoveInfo, OfferKind, Seat};
use crate::position::PublicPosition;
use serde::{Deserialize, Serialize};

/// One event in a game's history. The server stores each before sending it, numbers it (the
/// `v` of [`crate::ServerMsg::Event`]), and replays them to clients that missed some.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "e", rename_all = "snake_case")]
pub enum GameEvent {
    /// A move was played.
    Moved {
        /// The number of moves before this one (0 for the first move).
        ply: u32,
        /// The move.
        #[serde(flatten)]
        info: MoveInfo,
        /// The position after it.
        position: PublicPosition,
        /// The clocks after it (increment added).
        clock: ClockState,
    },
    /// A player made an offer.
    Offered {
        /// What.
        kind: OfferKind,
        /// By whom.
        seat: Seat,
    },
    /// An offer was declined or withdrawn (or lapsed because a move was played).
    Declined {
        /// What.
        kind: OfferKind,
        /// By whom.
        seat: Seat,
    },
    /// Moves were taken back (an accepted takeback).
    TakenBack {
        /// How many moves were removed from the end of the list.
        moves: u32,
        /// The position now.
        position: PublicPosition,
        /// The clocks now.
        clock: ClockState,
    },
    /// The game ended.
    Ended {
        /// The result.
        result: GameResult,
        /// The moves' clocks at the end.
        clock: ClockState,
        /// Banqi: the deal's seed, revealed so anyone can check the flips against the
        /// commitment published at the start.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<String>,
        /// The spectators' record against the players' moves.
        crowd: CrowdRecord,
    },
    /// A rematch was agreed: the new game's id.
    Rematch {
        /// The new game.
        game: String,
    },
}
