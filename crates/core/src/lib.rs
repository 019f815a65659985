//! The rules core of Cannonade: the [`Rules`] trait that every game implements and everything
//! generic that stands on it — [`Next`] and [`Outcome`], seats ([`Side`]), move buffers,
//! [`Record`] (a game's history with its adjudication), [`perft()`], and, behind the `testkit`
//! feature, the random-playout conformance checks every game runs.
//!
//! The trait knows nothing about squares, pieces, evaluation or text: consumers that need
//! those work with the concrete game types or with the enum over all games at the edges.
#![forbid(unsafe_code)]

mod board;
mod game;
mod movebuf;
mod outcome;
pub mod perft;
mod record;
pub mod repetition;
mod rules;
mod side;
#[cfg(feature = "testkit")]
pub mod testkit;

pub use board::{Board, Layout, PieceInfo, Region, River};
pub use game::{Game, Hidden, NoOptions, Read, Recorded, Zone};
pub use movebuf::MoveBuf;
pub use outcome::{Next, Outcome, Reason};
pub use perft::{PerftCase, divide, parse_perft_file, perft};
pub use record::{Record, Step};
pub use repetition::RepetitionRule;
pub use rules::{NoChance, Rules, Weighted};
pub use side::Side;
