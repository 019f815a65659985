//! PGN: the one record format of every game (docs/record-format.md).
//!
//! A game is the standard tags (Event, Site, Date, Round, White and Black for the first and
//! second seat, Result, Termination, Variant, FEN and SetUp for another start, TimeControl),
//! ours (Options, Format and Points for Commander Chess's scored formats, Banqi's Deal
//! commitment and its Seed after the end), and the moves in the game's display notation
//! (WXF for Xiangqi; a Banqi flip with the piece it revealed, `d2=C`), with clock comments
//! `{[%clk 0:04:59]}`.
//!
//! Reading takes what outside programs write: move numbers, NAGs, annotation marks, engine
//! comments `{+0.35/12 0.2s}` and variations in parentheses are skipped; every notation the
//! game reads is accepted, with Xiangqi's 0- and 1-based coordinates and Fairy-Stockfish's
//! SAN ([`xiangqi_import`]); a file may hold many games. Every game is replayed, so a game that
//! reads is legal, and an error names its line, the game and the move.
//!
//! ```
//! use cannonade_games::pgn::{PgnGame, read_game, write_game};
//! use cannonade_games::{AnyRecord, GameKind, GameSpec};
//! let mut record = AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi));
//! record.play_text("h2e2").unwrap();
//! let text = write_game(&PgnGame::new(record));
//! assert!(text.contains("[Variant \"xiangqi\"]") && text.contains("1. C2=5 *"));
//! let back = read_game("[Variant \"xiangqi\"]\n1. h3e3 {+0.35/12 0.2s} h10g8 *").unwrap();
//! assert_eq!(back.record.moves_text(), ["h2e2", "h9g7"]);
//! ```

pub mod banqi_record;
mod date;
mod deal;
mod error;
mod game;
mod read;
mod result;
mod token;
mod write;
pub mod xiangqi_import;

pub use date::date_tag;
pub use error::{PgnError, PgnErrorKind};
pub use game::{Annotation, DERIVED, Ended, PgnGame};
pub use read::{MAX_PGN_BYTES, clock, read_each, read_game, read_games};
pub use result::PgnResult;
pub use write::{write_game, write_games};

#[cfg(test)]
mod tests;
