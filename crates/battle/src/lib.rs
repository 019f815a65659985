//! Chess-Battle (A. S. Yurgelevich, 1933) for Cannonade, exactly as the project's rules file
//! `chess-battle.md` fixes it (decisions D-1 … D-20).
//!
//! The board is a 12×12 grid without its four 2×2 corners: 128 squares, files a–l, ranks
//! 1–12. Red ([`Side::First`](cannonade_core::Side::First)) moves first from ranks 1–3;
//! White is [`Side::Second`](cannonade_core::Side::Second). Note that in the position string
//! `w` means White, the *second* player. Guns and machine guns capture by shooting without
//! moving, the bomber may fly over one friendly piece, the tank is immune to machine guns,
//! cavalry and soldiers, and a soldier reaching its last rank leaves the board together with
//! an enemy piece of its owner's choice (each choice a separate move).
//!
//! * [`Position`] implements [`cannonade_core::Rules`]; [`Position::startpos`],
//!   [`Position::from_fen`] / [`Position::fen`] (section 7, via the unchecked [`Setup`]),
//!   [`Position::parse_move`] / [`Position::move_to_string`] (section 8, via the syntactic
//!   [`MoveText`]), [`Position::pretty`].
//! * Threefold repetition needs the history: use [`cannonade_core::Record`], whose `next()`
//!   calls this game's `adjudicate`.
//!
//! ```
//! use cannonade_battle::Position;
//! use cannonade_core::{Record, Rules, perft};
//!
//! let start = Position::startpos();
//! assert_eq!(perft(&start, 2), 2_704);
//! // d3 is a white square, so its soldier may move two squares.
//! let mv = start.parse_move("d3-d5").unwrap();
//! assert_eq!(start.move_to_string(mv), "d3-d5");
//! let mut game = Record::new(start);
//! game.play(mv);
//! assert_eq!(
//!     game.position().fen(),
//!     "gcmbhmcg/sssstsss/2ssssssss2/12/12/12/12/3S8/12/2S1SSSSSS2/SSSSTSSS/GCMBHMCG w 1 1"
//! );
//! // A shot is written with `*`; the wrong marker is a typed error.
//! let pos = Position::from_fen("4h3/8/12/12/12/12/12/4s7/4M7/12/8/4H3 r 0 1").unwrap();
//! assert!(pos.parse_move("e4*e5").is_ok());
//! assert!(pos.parse_move("e4xe5").is_err());
//! ```
#![forbid(unsafe_code)]

mod attacks;
mod board;
mod fen;
mod game;
mod judge;
mod movegen;
mod moves;
mod notation;
mod piece;
mod position;
#[cfg(any(test, feature = "testkit"))]
pub mod reference;
mod rules;
mod square;
mod tables;
#[cfg(test)]
mod tests;

pub use fen::{FenError, Setup};
pub use judge::PLY_LIMIT;
pub use moves::Move;
pub use notation::{Marker, MoveError, MoveText};
pub use piece::{Kind, Piece};
pub use position::Position;
pub use square::Square;

/// The game's name in the registry, the CLI and `UCI_Variant`.
pub const NAME: &str = "chessbattle";
