//! Why PGN text could not be read: always with the line, the game, and the move when a move
//! is at fault.

use crate::GameError;

/// Why PGN text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The 1-based line where the problem starts.
    pub line: usize,
    /// The 1-based number of the game in the file (0 while splitting the text).
    pub game: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// What is wrong with PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// The text is larger than [`super::MAX_PGN_BYTES`].
    TooLarge(usize),
    /// A `{` comment is never closed.
    UnclosedComment,
    /// A tag is not `[Name "value"]` on one line (the start of it).
    BadTag(String),
    /// A `]`, `}` or `"` outside a tag or comment.
    Unexpected(char),
    /// A `)` without its `(`, or a `(` never closed.
    Variation,
    /// A tag given twice.
    Repeated(String),
    /// No `Variant` tag, or one naming no game of ours.
    Variant(String),
    /// The options, format or start position is not valid for the game.
    Game(GameError),
    /// A tag value is not what the tag holds (`Result`, `SetUp`, `Deal`, `Seed`).
    Value {
        /// The tag.
        tag: String,
        /// The value (cut short).
        value: String,
    },
    /// A move cannot be played where it stands.
    Move {
        /// The move's number as PGN counts it (`14.` or `14...`).
        number: String,
        /// The move as written (cut short).
        text: String,
        /// Why.
        error: GameError,
    },
    /// The text holds no game.
    Empty,
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}", self.line)?;
        if self.game > 0 {
            write!(f, " (game {})", self.game)?;
        }
        f.write_str(": ")?;
        match &self.kind {
            PgnErrorKind::TooLarge(n) => write!(
                f,
                "the text is {n} bytes; PGN over {} bytes is refused",
                super::MAX_PGN_BYTES
            ),
            PgnErrorKind::UnclosedComment => f.write_str("a '{' comment is never closed"),
            PgnErrorKind::BadTag(t) => write!(f, "{t:?} is not a tag [Name \"value\"]"),
            PgnErrorKind::Unexpected(c) => write!(f, "unexpected '{c}'"),
            PgnErrorKind::Variation => f.write_str("unbalanced parentheses around a variation"),
            PgnErrorKind::Repeated(t) => write!(f, "tag {t} is given twice"),
            PgnErrorKind::Variant(v) if v.is_empty() => {
                f.write_str("no Variant tag says which game this is")
            }
            PgnErrorKind::Variant(v) => write!(f, "Variant {v:?} is not a game Cannonade plays"),
            PgnErrorKind::Game(e) => write!(f, "{e}"),
            PgnErrorKind::Value { tag, value } => write!(f, "{tag} {value:?} is not valid"),
            PgnErrorKind::Move { number, text, error } => {
                write!(f, "move {number} {text}: {error}")
            }
            PgnErrorKind::Empty => f.write_str("no game found"),
        }
    }
}

impl std::error::Error for PgnError {}
