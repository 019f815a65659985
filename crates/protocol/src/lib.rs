//! The engine protocol: UCI as Xiangqi GUIs and Fairy-Stockfish speak it, plus `UCI_Variant`
//! for the other games, `go perft` and `d`. This crate only turns lines into [`Command`]s and
//! engine output into lines; the I/O loop lives in the CLI.
//!
//! ```
//! use cannonade_protocol::{Command, Go, PositionStart};
//! let cmd = Command::parse("position fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 moves d0d1").unwrap();
//! assert_eq!(cmd, Command::Position {
//!     start: PositionStart::Fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1".into()),
//!     moves: vec!["d0d1".into()],
//! });
//! assert!(matches!(Command::parse("go depth 3"), Ok(Command::Go(Go { depth: Some(3), .. }))));
//! assert!(Command::parse("go depth many").is_err());
//! ```
#![forbid(unsafe_code)]

mod command;
mod output;

pub use command::{Command, Go, ParseError, PositionStart};
pub use output::{Info, OptionKind, Score, bestmove, option_line};
