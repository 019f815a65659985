//! Commander Chess (Cờ Tư Lệnh) behind the Cannonade [`Rules`](cannonade_core::Rules) trait,
//! as `shared/rules/commander.md` defines it.
//!
//! * 11 × 12 points with water, mixed and land terrain, the river and its two fords, the
//!   river mouth, the standing rule S, the heavy crossing rule H and the Navy corner rule K
//!   ([`board`]).
//! * Eleven pieces, stacks and their carriers ([`piece`]); air defense and attacks.
//! * A whole turn — a move, a combination or a multi-step deploy from a stack — is ONE
//!   [`Move`], so the side changes only at turn boundaries; the legal move list holds one
//!   turn per distinct end position, which makes the generic perft count what section 15
//!   counts ([`moves`]).
//! * Heroes, check, the Commanders' line of sight, every end condition of section 12 (the
//!   position-only ones in `next()`, repetition in `adjudicate`), and the points and timed
//!   formats of section 13 ([`points`]).
//! * FEN and the turn notation of section 14 (with the peer's short form on input).
//!
//! ```
//! use cannonade_commander::Position;
//! use cannonade_core::{perft, Rules};
//!
//! let pos = Position::startpos();
//! assert_eq!(perft(&pos, 1), 116);
//! let mv = pos.parse_move("Fe2&c4").unwrap();
//! assert_eq!(pos.move_to_string(mv), "Fe2&c4");
//! let mut next = pos.clone();
//! next.play(mv);
//! assert!(next.fen().starts_with("6c4/"));
//! ```
#![forbid(unsafe_code)]

mod attacks;
pub mod board;
#[cfg(test)]
mod conformance_tests;
mod fen;
mod game;
mod judge;
mod movegen;
pub mod moves;
mod notation;
pub mod piece;
pub mod points;
mod position;
#[cfg(any(test, feature = "testkit"))]
mod reference;
mod rules;
mod zobrist;

pub use fen::{FenError, START_FEN};
pub use judge::{NO_CAPTURE_LIMIT, seat};
pub use moves::{Move, Op, Step};
pub use notation::MoveError;
pub use piece::Kind;
pub use position::Position;

/// The registry name of the game.
pub const NAME: &str = "commander";
