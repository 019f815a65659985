//! The game termination marker and `Result` tag.

use cannonade_core::{Outcome, Side};

/// A game's result as PGN writes it: by seat (White is the first seat, Black the second).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PgnResult {
    /// `1-0`.
    FirstWins,
    /// `0-1`.
    SecondWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl PgnResult {
    /// Reads a termination marker.
    pub fn parse(text: &str) -> Option<PgnResult> {
        match text {
            "1-0" => Some(PgnResult::FirstWins),
            "0-1" => Some(PgnResult::SecondWins),
            "1/2-1/2" | "½-½" => Some(PgnResult::Draw),
            "*" => Some(PgnResult::Unknown),
            _ => None,
        }
    }

    /// The marker's text.
    pub const fn as_str(self) -> &'static str {
        match self {
            PgnResult::FirstWins => "1-0",
            PgnResult::SecondWins => "0-1",
            PgnResult::Draw => "1/2-1/2",
            PgnResult::Unknown => "*",
        }
    }

    /// The result of an outcome.
    pub fn of(outcome: Outcome) -> PgnResult {
        match outcome.winner {
            Some(Side::First) => PgnResult::FirstWins,
            Some(Side::Second) => PgnResult::SecondWins,
            None => PgnResult::Draw,
        }
    }
}

impl std::fmt::Display for PgnResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
