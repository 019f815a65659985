//! The analysis board's messages: a position asked for (a start and moves from it), the
//! position as the rules see it, and the engine's lines as a search deepens.

use crate::common::{GameResult, LegalMove};
use crate::position::PublicPosition;
use cannonade_games::GameKind;
use serde::{Deserialize, Serialize};

/// The most moves a position request may hold (a record longer than this is asked for from
/// a later position's FEN).
pub const MAX_ANALYSIS_MOVES: usize = 600;

/// A position for the analysis board: the game's start (or a position in its notation) and
/// the moves played from it, so the repetition rules see the history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The game.
    pub game: GameKind,
    /// Rule options `key=value,…`, as for a seek.
    #[serde(default)]
    pub options: String,
    /// The start in the game's notation (a public BFEN for Banqi); absent: the game's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// Moves from the start, each a text of the `legal` list it was picked from (a Banqi
    /// flip with the piece it revealed: `d2=C`).
    #[serde(default)]
    pub moves: Vec<String>,
}

/// A move of the analysed line, as given and as people read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineMove {
    /// The move text.
    pub mv: String,
    /// The move in the game's notation as people read it (WXF for Xiangqi).
    pub display: String,
}

/// The answer to a [`PositionRequest`]: the position reached, what may be played there and
/// how the game stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnalysedPosition {
    /// The game.
    pub game: GameKind,
    /// The position reached.
    pub position: PublicPosition,
    /// The moves asked for, as played.
    pub moves: Vec<LineMove>,
    /// The moves that may be played next. A Banqi flip is listed once per piece it may
    /// reveal (`d2=C`, `d2=p`, …), as the analysis board decides what comes up.
    pub legal: Vec<LegalMove>,
    /// How the game ended by its rules at this position, if it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
}

/// An engine value for the side to move, as the review gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineValue {
    /// Centipawns (positive: the mover is better; in Banqi an expectation over the
    /// face-down pieces).
    Cp(i32),
    /// Mate in this many of the mover's moves (negative: the mover is mated).
    Mate(i32),
}

/// One of the engine's best lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineLine {
    /// The line's value for the side to move.
    pub value: LineValue,
    /// The line's moves, first move first, each as given and as read.
    pub moves: Vec<LineMove>,
    /// The squares of the first move, to draw it as an arrow.
    pub squares: Vec<String>,
}

/// Where an analysis stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisStatus {
    /// Waiting for an engine (the message's `place` says how many searches are ahead).
    Queued,
    /// An engine is on it; deeper lines will come.
    Running,
    /// Finished: the position's analysis time is used up, the search reached its depth, or
    /// the position has no move.
    Done,
}

/// One ply where spectators proposed, against the engine: values are the mover's. In a
/// finished game's review, and to spectators while the game goes on, for each ply once
/// played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrowdPly {
    /// Index of the move in the game.
    pub ply: usize,
    /// The seat that played it: 0 first, 1 second.
    pub seat: usize,
    /// The crowd's favourite (as proposed, engine notation).
    pub favourite: String,
    /// The favourite as people read it (WXF in Xiangqi).
    pub favourite_display: String,
    /// How many proposed it.
    pub votes: usize,
    /// How many proposed anything.
    pub proposers: usize,
    /// The mover's value of the favourite.
    pub favourite_value: LineValue,
    /// The mover's value of the move played.
    pub played_value: LineValue,
    /// The mover's value of the best move.
    pub best_value: LineValue,
    /// Whether the favourite was as good as the move played, or better.
    pub as_good: bool,
}
