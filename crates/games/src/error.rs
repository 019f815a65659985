//! Errors at the edge of the rules.

use crate::GameKind;

/// Why a request about a game could not be carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// No game has this name.
    UnknownGame(String),
    /// The game exists but this build does not play it yet.
    NotAvailable(GameKind),
    /// The position text is not valid for the game; the message names the problem.
    Position(String),
    /// The move text is not a legal move here; the message says why.
    Move(String),
    /// The options text is not valid for the game; the message names the problem.
    Options(String),
    /// A move of one game was offered to another.
    WrongGame,
    /// The game is over: no move can be played.
    GameOver,
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::UnknownGame(name) => {
                let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
                write!(f, "unknown game '{name}' (games: {})", names.join(", "))
            }
            GameError::NotAvailable(k) => {
                write!(f, "{} is not available in this build yet", k.title())
            }
            GameError::Position(e) => write!(f, "invalid position: {e}"),
            GameError::Move(e) => write!(f, "invalid move: {e}"),
            GameError::Options(e) => write!(f, "invalid options: {e}"),
            GameError::WrongGame => write!(f, "the move belongs to another game"),
            GameError::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for GameError {}
