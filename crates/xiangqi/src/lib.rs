//! Xiangqi (Chinese chess) for Cannonade, exactly as the project's rules specify: all seven
//! pieces with horse legs, elephant eyes, river and palaces, cannon screens, the flying
//! general, checkmate and stalemate as losses, the seed repetition rule (the ply that makes a
//! position occur for the third time loses) or the `asian` perpetual check/chase rule, the
//! 120-ply no-capture draw and the dead-material draw.
//!
//! Positions are u128 bitboards (one bit per point, index `rank * 9 + file`) with a mailbox.
//! Text is parsed at the edge: a FEN becomes a [`Setup`] and only validation makes it a
//! [`Position`]; a coordinate string becomes a [`UciMove`] and only checking it against a
//! position makes it a [`Move`].
//!
//! ```
//! use cannonade_core::{perft, Record, Next, Reason, Side};
//! use cannonade_xiangqi::Position;
//!
//! let start = Position::startpos();
//! assert_eq!(perft(&start, 3), 79_666);
//!
//! let mv = start.parse_move("h2e2").unwrap();
//! assert_eq!(start.wxf(mv), "C2=5");
//! assert_eq!(start.chinese(mv), "炮二平五");
//!
//! // Two chariots mate on the back rank.
//! let mut game = Record::new(Position::from_fen("4k4/R8/1R7/9/9/9/9/9/9/3K5 w").unwrap());
//! game.play(game.position().parse_move("b7b9").unwrap());
//! assert!(matches!(game.next(), Next::Over(o) if o.reason == Reason::Checkmate
//!     && o.winner == Some(Side::First)));
//! ```
#![forbid(unsafe_code)]

mod attacks;
#[cfg(any(test, feature = "testkit"))]
mod conformance;
mod fen;
mod game;
mod judge;
mod movegen;
mod mv;
pub mod notation;
mod options;
mod piece;
mod position;
#[cfg(any(test, feature = "testkit"))]
pub mod reference;
mod rules;
mod square;
pub mod tables;
mod zobrist;

pub use fen::{FenError, START_FEN, Setup};
pub use judge::{chased_pieces, gives_check};
pub use mv::{Move, MoveError, Ranks, UciMove};
pub use options::OptionsError;
pub use piece::{Colour, Kind, Piece};
pub use position::{MOVE_LIMIT, Options, Position, RepetitionRule};
pub use square::{BOARD, Square};

/// The name of this game in the registry.
pub const NAME: &str = "xiangqi";
