//! Moves: the checked [`Move`] and the syntactic [`UciMove`] read from text.

use crate::Square;

/// A legal move of a particular position: from-point and to-point. Obtained only from move
/// generation or by checking a [`UciMove`] against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    #[inline]
    pub(crate) const fn new(from: u8, to: u8) -> Move {
        Move(from as u16 | (to as u16) << 7)
    }

    /// The point the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 0x7F) as u8)
    }

    /// The point the piece reaches.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 7) as u8)
    }

    /// The move as coordinates with 0-based ranks (`h2e2`).
    pub fn uci(self) -> UciMove {
        UciMove { from: self.from(), to: self.to() }
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

/// Coordinate move syntax, not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UciMove {
    /// From-point.
    pub from: Square,
    /// To-point.
    pub to: Square,
}

/// Which rank numbering coordinate moves use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Ranks {
    /// Ranks 0–9 (Pikafish, UCCI, our default): `h2e2`.
    #[default]
    FromZero,
    /// Ranks 1–10 (Fairy-Stockfish's plain UCI): `h3e3`, `b10c8`.
    FromOne,
}

impl Ranks {
    const fn base(self) -> u8 {
        match self {
            Ranks::FromZero => 0,
            Ranks::FromOne => 1,
        }
    }
}

/// Why a move could not be read or is not legal here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a coordinate move (`h2e2`, `H2-E2`, or `b10c8` with ranks from 1).
    Syntax(String),
    /// The null move `0000` is not a move that can be played.
    Null,
    /// There is no piece of the side to move on the from-point.
    NoPiece(Square),
    /// The piece cannot go there, or the move would leave its general in check or facing the
    /// other general.
    Illegal(String),
    /// No legal move has this notation (WXF or Chinese input).
    NoMatch(String),
    /// More than one legal move has this notation.
    Ambiguous(String),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "'{s}' is not a coordinate move such as h2e2"),
            MoveError::Null => write!(f, "the null move 0000 cannot be played"),
            MoveError::NoPiece(sq) => write!(f, "no piece of the side to move on {sq}"),
            MoveError::Illegal(s) => write!(f, "{s} is not a legal move in this position"),
            MoveError::NoMatch(s) => write!(f, "no legal move is written {s}"),
            MoveError::Ambiguous(s) => write!(f, "{s} names more than one legal move"),
        }
    }
}

impl std::error::Error for MoveError {}

impl UciMove {
    /// Parses `h2e2`, ICCS `H2-E2`, or with [`Ranks::FromOne`] Fairy-Stockfish's `h3e3` and
    /// `b10c8`.
    ///
    /// ```
    /// use cannonade_xiangqi::{Ranks, UciMove};
    /// let a = UciMove::parse("h2e2", Ranks::FromZero).unwrap();
    /// assert_eq!(UciMove::parse("H2-E2", Ranks::FromZero).unwrap(), a);
    /// assert_eq!(UciMove::parse("h3e3", Ranks::FromOne).unwrap(), a);
    /// assert_eq!(a.to_text(Ranks::FromOne), "h3e3");
    /// assert!(UciMove::parse("b10c8", Ranks::FromZero).is_err());
    /// ```
    pub fn parse(text: &str, ranks: Ranks) -> Result<UciMove, MoveError> {
        let err = || MoveError::Syntax(text.chars().take(16).collect());
        if text == "0000" {
            return Err(MoveError::Null);
        }
        let bytes = text.as_bytes();
        let (from, used) =
            crate::square::BOARD.parse_prefix(bytes, ranks.base()).ok_or_else(err)?;
        let mut rest = &bytes[used..];
        if let Some(stripped) = rest.strip_prefix(b"-") {
            rest = stripped;
        }
        let (to, used) = crate::square::BOARD.parse_prefix(rest, ranks.base()).ok_or_else(err)?;
        if used != rest.len() {
            return Err(err());
        }
        Ok(UciMove { from: Square::from_index(from), to: Square::from_index(to) })
    }

    /// The move as text in the given rank numbering.
    pub fn to_text(self, ranks: Ranks) -> String {
        format!("{}{}", self.from.name_from(ranks.base()), self.to.name_from(ranks.base()))
    }
}
