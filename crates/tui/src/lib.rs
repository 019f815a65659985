//! Cannonade's terminal board: play any of the games on one device, against a friend
//! (hot-seat) or the engine.
//!
//! [`App`] holds the game and reacts to keys; [`draw()`] renders it with ratatui; [`run`] drives
//! both in a real terminal. The board knows no rules: legal moves and their texts come from
//! [`cannonade_games::AnyGame`], what stands where from the position text, and how the board
//! looks from a per-game [`Geometry`]. Games are saved in the text record format of
//! [`record_file`] (docs/record-format.md).
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
mod board_view;
mod draw;
mod engine_job;
mod geometry;
mod input_wait;
mod level;
mod move_choice;
pub mod record_file;
mod terminal;

pub use app::{App, Message, Mode, Purpose, Seat, load_record, local_start};
pub use board_view::{BoardView, Occupant, Piece, ViewError, piece_label};
pub use draw::{MIN_HEIGHT, MIN_WIDTH, draw};
pub use engine_job::{ENGINE_THREAD, EngineJob, Poll};
pub use geometry::{Cell, Gap, Geometry, Palette, Terrain};
pub use level::{MAX_LEVEL, MIN_LEVEL, engine_level, think_limits};
pub use move_choice::{MoveChoice, choices, square_names};
pub use terminal::{restore_terminal, run};
