//! The stored form of a game event: the event without the positions. A position is what the
//! rules make of the start and the moves, so the store keeps only the moves (with the clocks
//! read at the time, offers, the result…) and loading a game replays them, which recovery did
//! anyway. A Xiangqi move costs about 125 bytes in the store instead of about 550. A move
//! also keeps what only the server needs: how its ply's spectator proposals went.
//!
//! Rows written before this form (the whole wire event, positions included) read as the same
//! type: the compact fields are a subset of the full event's and unknown fields are ignored.

use cannonade_wire::{
    ClockState, CrowdRecord, GameEvent, GameResult, MoveInfo, OfferKind, PublicPosition, Seat,
};
use serde::{Deserialize, Serialize};

use super::proposals::PlyCrowd;

/// A game event as the store keeps it (same tags and field names as [`GameEvent`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "e", rename_all = "snake_case")]
pub enum StoredEvent {
    /// A move, with the clocks after it.
    Moved {
        /// Moves before this one.
        ply: u32,
        /// The move.
        #[serde(flatten)]
        info: MoveInfo,
        /// The clocks after it.
        clock: ClockState,
        /// How the spectators' proposals for this ply went (never sent: the wire's reveal
        /// carries the counts); absent when nobody proposed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        crowd: Option<PlyCrowd>,
        /// When it was stored, in ms since the Unix epoch: written for correspondence games,
        /// whose clocks run on across a restart (the monotonic clock does not survive one).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<i64>,
    },
    /// An offer.
    Offered {
        /// What.
        kind: OfferKind,
        /// By whom.
        seat: Seat,
    },
    /// An offer declined.
    Declined {
        /// What.
        kind: OfferKind,
        /// By whom.
        seat: Seat,
    },
    /// Moves taken back.
    TakenBack {
        /// How many.
        moves: u32,
        /// The clocks after.
        clock: ClockState,
        /// When it was stored (as for a move).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<i64>,
    },
    /// The end.
    Ended {
        /// The result.
        result: GameResult,
        /// The clocks at the end.
        clock: ClockState,
        /// Banqi: the revealed seed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<String>,
        /// The crowd's record.
        crowd: CrowdRecord,
    },
    /// A rematch was agreed.
    Rematch {
        /// The new game.
        game: String,
    },
}

impl StoredEvent {
    /// The stored form of `event`.
    pub fn of(event: &GameEvent) -> StoredEvent {
        match event.clone() {
            GameEvent::Moved { ply, info, clock, .. } => {
                StoredEvent::Moved { ply, info, clock, crowd: None, at: None }
            }
            GameEvent::Offered { kind, seat } => StoredEvent::Offered { kind, seat },
            GameEvent::Declined { kind, seat } => StoredEvent::Declined { kind, seat },
            GameEvent::TakenBack { moves, clock, .. } => {
                StoredEvent::TakenBack { moves, clock, at: None }
            }
            GameEvent::Ended { result, clock, seed, crowd } => {
                StoredEvent::Ended { result, clock, seed, crowd }
            }
            GameEvent::Rematch { game } => StoredEvent::Rematch { game },
        }
    }

    /// The wire event, given the position after it (asked for only by the events that carry
    /// one).
    pub fn into_event(self, position: impl FnOnce() -> PublicPosition) -> GameEvent {
        match self {
            StoredEvent::Moved { ply, info, clock, .. } => {
                GameEvent::Moved { ply, info, position: position(), clock }
            }
            StoredEvent::Offered { kind, seat } => GameEvent::Offered { kind, seat },
            StoredEvent::Declined { kind, seat } => GameEvent::Declined { kind, seat },
            StoredEvent::TakenBack { moves, clock, .. } => {
                GameEvent::TakenBack { moves, position: position(), clock }
            }
            StoredEvent::Ended { result, clock, seed, crowd } => {
                GameEvent::Ended { result, clock, seed, crowd }
            }
            StoredEvent::Rematch { game } => GameEvent::Rematch { game },
        }
    }

    /// The stored form of a move `event` whose ply's proposals went as `crowd`.
    pub fn of_move(event: &GameEvent, crowd: Option<PlyCrowd>) -> StoredEvent {
        match StoredEvent::of(event) {
            StoredEvent::Moved { ply, info, clock, .. } => {
                StoredEvent::Moved { ply, info, clock, crowd, at: None }
            }
            other => other,
        }
    }

    /// The event stamped with the wall-clock time `wall_ms` it is stored at, if it sets the
    /// clocks (a move, a takeback); other events are as they were.
    pub fn stamped(mut self, wall_ms: i64) -> StoredEvent {
        if let StoredEvent::Moved { at, .. } | StoredEvent::TakenBack { at, .. } = &mut self {
            *at = Some(wall_ms);
        }
        self
    }

    /// When a move or takeback was stored (ms since the Unix epoch), if it was stamped.
    pub fn stamp(&self) -> Option<i64> {
        match self {
            StoredEvent::Moved { at, .. } | StoredEvent::TakenBack { at, .. } => *at,
            _ => None,
        }
    }

    /// The text stored in the `body` column.
    pub fn to_body(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::{AnyGame, GameKind};

    fn moved() -> GameEvent {
        let mut game = AnyGame::start(GameKind::Xiangqi).unwrap();
        let mv = game.parse_move("h2e2").unwrap();
        let display = game.display_move(mv);
        game.play(mv).unwrap();
        GameEvent::Moved {
            ply: 0,
            info: MoveInfo { mv: "h2e2".into(), display, seat: Seat::First },
            position: PublicPosition::of(&game),
            clock: ClockState {
                remaining_ms: [299_000, 300_000],
                running: Some(Seat::Second),
                game_ms: None,
            },
        }
    }

    #[test]
    fn a_stored_move_keeps_everything_but_the_position_and_is_under_a_quarter_of_the_size() {
        let event = moved();
        let GameEvent::Moved { position, .. } = &event else { unreachable!() };
        let body = StoredEvent::of(&event).to_body();
        let full = serde_json::to_string(&event).unwrap();
        assert!(body.len() * 4 < full.len(), "{} vs {} bytes: {body}", body.len(), full.len());
        let back: StoredEvent = serde_json::from_str(&body).unwrap();
        assert_eq!(back.into_event(|| position.clone()), event);
    }

    #[test]
    fn rows_in_the_old_full_form_still_read() {
        let event = moved();
        let full = serde_json::to_string(&event).unwrap();
        let read: StoredEvent = serde_json::from_str(&full).unwrap();
        assert_eq!(read, StoredEvent::of(&event));
    }
}
