//! The edge of the rules: one enum over every game, for the CLI, the engine protocol, the
//! server and the store. Inside, each game keeps its own static types; here they meet as
//! [`AnyGame`] (a position), [`AnyMove`] and [`AnyRecord`] (a game with its history and its
//! [`GameSpec`]), named by the registry [`GameKind`]. All of it is generated from one list,
//! [`registry!`], and written once over [`cannonade_core::Game`]: a fifth game is its own
//! crate plus one line there.
//!
//! ```
//! use cannonade_games::{AnyGame, GameKind};
//! let kind: GameKind = "xiangqi".parse().unwrap();
//! let mut game = AnyGame::start(kind).unwrap();
//! let mv = game.parse_move("h2e2").unwrap();
//! assert_eq!(game.move_text(mv), "h2e2");
//! assert_eq!(game.display_move(mv), "C2=5");
//! game.play(mv).unwrap();
//! assert_eq!(game.perft(1), 45); // the h-file opened for Black's cannon
//! assert!(matches!("chess".parse::<GameKind>(), Err(_)));
//! ```
#![forbid(unsafe_code)]

mod any_game;
mod any_record;
mod error;
mod kind;
pub mod pgn;
pub mod registry;
pub mod spec;

pub use any_game::{AnyGame, AnyMove, Registered};
pub use any_record::{AnyHistory, AnyRecord, PlayedMove};
pub use error::GameError;
pub use kind::GameKind;
pub use registry::reexport;
pub use spec::GameSpec;
