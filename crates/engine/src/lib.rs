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
///
/// A dealt Banqi position is searched through its public view: the engine never sees a deal.
pub fn search_any(
    game: &AnyGame,
    limits: &Limits,
    stop: &AtomicBool,
    on_progress: impl FnMut(&AnyProgress),
) -> AnyResult {
    match game.public() {
        AnyGame::Xiangqi(p) => run(&p, limits, stop, on_progress, AnyMove::Xiangqi),
        AnyGame::Banqi(p) => run(&p, limits, stop, on_progress, AnyMove::Banqi),
        AnyGame::ChessBattle(p) => run(&p, limits, stop, on_progress, AnyMove::ChessBattle),
        AnyGame::Commander(p) => run(&p, limits, stop, on_progress, AnyMove::Commander),
        AnyGame::BanqiDealt(_) => unreachable!("public() removes the deal"),
    }
}

fn run<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(&AnyProgress),
    wrap: fn(G::Move) -> AnyMove,
) -> AnyResult
where
    AnyGame: From<G>,
{
    let game = AnyGame::from(pos.clone());
    // Texts of a line, each move written in the position it is played from.
    let line_text = |pv: &[G::Move]| {
        let mut at = game.clone();
        let mut out = Vec::with_capacity(pv.len());
        for &m in pv {
            out.push(at.engine_move_text(wrap(m)));
            if at.play(wrap(m)).is_err() {
                break;
            }
        }
        out
    };
    let r = search(pos, limits, stop, |pr| {
        on_progress(&AnyProgress {
            depth: pr.depth,
            score: pr.score,
            nodes: pr.nodes,
            millis: pr.millis,
            pv: line_text(&pr.pv),
        })
    });
    AnyResult {
        best: r.best.map(wrap),
        best_text: r.best.map(|m| game.engine_move_text(wrap(m))),
        score: r.score,
        depth: r.depth,
        nodes: r.nodes,
        pv: line_text(&r.pv),
    }
}
