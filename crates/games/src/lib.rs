//! The edge of the rules: one enum over every game, for the CLI, the engine protocol, the
//! server and the store. Inside, each game keeps its own static types; here they meet as
//! [`AnyGame`] (a position), [`AnyMove`] and [`AnyRecord`] (a game with its history), named by
//! the registry [`GameKind`].
//!
//! ```
//! use cannonade_games::{AnyGame, GameKind};
//! let kind: GameKind = "xiangqi".parse().unwrap();
//! let mut game = AnyGame::start(kind).unwrap();
//! let mv = game.parse_move("h2e2").unwrap();
//! assert_eq!(game.move_text(mv), "h2e2");
//! game.play(mv).unwrap();
//! assert_eq!(game.perft(1), 45); // the h-file opened for Black's cannon
//! assert!(matches!("chess".parse::<GameKind>(), Err(_)));
//! ```
#![forbid(unsafe_code)]

mod any_game;
mod any_record;
mod error;
mod kind;
pub mod options;

pub use any_game::{AnyGame, AnyMove};
pub use any_record::AnyRecord;
pub use error::GameError;
pub use kind::GameKind;
