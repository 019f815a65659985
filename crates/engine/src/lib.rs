//! The search that plays Cannonade's games: generic over [`cannonade_core::Rules`], with an
//! [`Evaluate`] implementation per game, stopped by limits or a flag, reporting progress to a
//! listener. [`search_any`] is the entry point for callers holding an [`AnyGame`].
//!
//! This first version is a plain iterative-deepening alpha-beta with a material evaluation;
//! the engine issue grows it (transposition table, quiescence, pruning, levels).
//!
//! ```
//! use cannonade_engine::{search_any, Limits};
//! use cannonade_games::{AnyGame, GameKind};
//! use std::sync::atomic::AtomicBool;
//! let game = AnyGame::start(GameKind::Xiangqi).unwrap();
//! let result = search_any(&game, &Limits { depth: Some(2), ..Limits::default() }, &AtomicBool::new(false), |_| {});
//! assert!(result.best.is_some());
//! ```
#![forbid(unsafe_code)]

mod evaluate;
mod limits;
mod search;

pub use evaluate::Evaluate;
pub use limits::Limits;
pub use search::{MATE, Progress, SearchResult, search};

use cannonade_games::{AnyGame, AnyMove};
use std::sync::atomic::AtomicBool;

/// The result of [`search_any`], with moves as text in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnyResult {
    /// The best move found, `None` when there is no legal move.
    pub best: Option<AnyMove>,
    /// Its text.
    pub best_text: Option<String>,
    /// Score in centipawns from the side to move's view (mate scores near ±[`MATE`]).
    pub score: i32,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation as text.
    pub pv: Vec<String>,
}

/// Progress of a search, with moves as text.
#[derive(Clone, Debug)]
pub struct AnyProgress {
    /// Depth completed.
    pub depth: u32,
    /// Score from the side to move's view.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub millis: u64,
    /// The principal variation as text.
    pub pv: Vec<String>,
}

/// Searches any game's position.
pub fn search_any(
    game: &AnyGame,
    limits: &Limits,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(&AnyProgress),
) -> AnyResult {
    match game {
        AnyGame::Xiangqi(p) => {
            let text = |pv: &[cannonade_xiangqi::Move]| pv.iter().map(|m| m.to_string()).collect();
            let r = search(p, limits, stop, |pr| {
                on_progress(&AnyProgress {
                    depth: pr.depth,
                    score: pr.score,
                    nodes: pr.nodes,
                    millis: pr.millis,
                    pv: text(&pr.pv),
                })
            });
            AnyResult {
                best: r.best.map(AnyMove::Xiangqi),
                best_text: r.best.map(|m| m.to_string()),
                score: r.score,
                depth: r.depth,
                nodes: r.nodes,
                pv: text(&r.pv),
            }
        }
    }
}
