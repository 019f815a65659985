//! Cannonade's terminal board: play any of the games on one device, against a friend
//! (hot-seat) or the engine.
//!
//! [`App`] holds the game and reacts to keys; [`draw()`] renders it with ratatui; [`run`] drives
//! both in a real terminal. The board knows no rules: legal moves and their texts come from
//! [`cannonade_games::AnyGame`], what stands where from `Game::placement`, and how the board looks
//! from the game's own board description ([`BoardShape`], derived from `cannonade_wire::Geometry`
//! like the browser's). Games are saved as PGN, the one record format
//! ([`cannonade_games::pgn`], docs/record-format.md).
//!
//! ```
//! use cannonade_games::{AnyRecord, GameKind};
//! use cannonade_tui::{App, Seat, local_start};
//! use ratatui::crossterm::event::KeyCode;
//! let start = local_start(GameKind::Xiangqi).unwrap();
//! let mut app = App::new(AnyRecord::new(start), [Seat::Human, Seat::Human]);
//! app.press(KeyCode::Char(':'));
//! app.type_text("h2e2");
//! app.press(KeyCode::Enter);
//! assert_eq!(app.record().moves_text(), ["h2e2"]);
//! ```
#![forbid(unsafe_code)]

mod app;
mod board_shape;
mod board_view;
mod draw;
mod engine_job;
mod input_wait;
mod level;
mod move_choice;
mod terminal;

pub use app::{App, Message, Mode, Purpose, Seat, load_record, local_start, record_text};
pub use board_shape::{BoardShape, Cell, Gap, Palette, Terrain};
pub use board_view::{BoardView, Occupant, Piece, ViewError, piece_label};
pub use draw::{MIN_HEIGHT, MIN_WIDTH, draw};
pub use engine_job::{ENGINE_THREAD, EngineJob, Poll};
pub use level::{MAX_LEVEL, MIN_LEVEL, engine_level, think_limits};
pub use move_choice::{MoveChoice, choices, square_names};
pub use terminal::{restore_terminal, run};
