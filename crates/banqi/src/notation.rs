//! Move notation (9.4): flip requests `d2?`, recorded flips `d2=C`, steps `d2-d3`, captures
//! `d2xd3`, chains `a1xa3xc3`, and the compact engine form (`d2d2` flips, `d2d3` moves).

use crate::full::FullPosition;
use crate::moves::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;
use cannonade_core::{MoveBuf, Rules};
use std::fmt;

/// A move as written, checked for syntax only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveSyntax {
    /// A flip: `d2?` or compact `d2d2` (`revealed: None`), or recorded `d2=C`.
    Flip {
        /// The square flipped.
        square: Square,
        /// The piece revealed, in the recorded form.
        revealed: Option<Piece>,
    },
    /// A step or capture (`d2-d3`, `d2xd3`, compact `d2d3`) or a chain (`a1xa3xc3`,
    /// compact `a1a3c3`): the from-square and every landing square.
    Path(Vec<Square>),
}

/// Why a move text was rejected. Never names a hidden identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in any form of 9.4.
    Syntax(String),
    /// A flip of a square that holds no face-down piece.
    NotFaceDown(Square),
    /// A recorded flip reveals a piece of which none is face down.
    NotInPool(Piece),
    /// A recorded flip (`d2=C`) on a public position is the only form that says what was
    /// revealed; a flip request (`d2?`) cannot be replayed without it.
    OutcomeMissing(Square),
    /// A recorded flip that contradicts the deal of an omniscient position.
    DealMismatch(Square),
    /// No legal move goes this way (the text is the move as given).
    Illegal(String),
    /// A flip awaits its outcome: no move can be played before it is resolved.
    ChancePending,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(t) => write!(f, "`{t}` is not a Banqi move"),
            MoveError::NotFaceDown(sq) => write!(f, "{sq} holds no face-down piece"),
            MoveError::NotInPool(p) => write!(f, "no face-down `{p}` remains"),
            MoveError::OutcomeMissing(sq) => {
                write!(f, "the flip of {sq} needs its revealed piece (`{sq}=C`)")
            }
            MoveError::DealMismatch(sq) => {
                write!(f, "the recorded piece of {sq} is not the one dealt")
            }
            MoveError::Illegal(t) => write!(f, "`{t}` is not a legal move here"),
            MoveError::ChancePending => f.write_str("a flip awaits its outcome"),
        }
    }
}

impl std::error::Error for MoveError {}

impl MoveSyntax {
    /// Reads any move form of 9.4.
    pub fn parse(text: &str) -> Result<MoveSyntax, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        let bytes = text.trim().as_bytes();
        let (first, mut i) = Square::parse_prefix(bytes).ok_or_else(syntax)?;
        match bytes.get(i) {
            Some(b'?') if i + 1 == bytes.len() => {
                return Ok(MoveSyntax::Flip { square: first, revealed: None });
            }
            Some(b'=') if i + 2 == bytes.len() => {
                let p = Piece::from_letter(bytes[i + 1] as char).ok_or_else(syntax)?;
                return Ok(MoveSyntax::Flip { square: first, revealed: Some(p) });
            }
            _ => {}
        }
        let mut path = vec![first];
        // Separators: all `-`/`x` (either, interchangeably) or none (compact form).
        let separated = matches!(bytes.get(i), Some(b'-' | b'x'));
        while i < bytes.len() {
            if separated {
                if !matches!(bytes[i], b'-' | b'x') {
                    return Err(syntax());
                }
                i += 1;
            }
            let (sq, used) = Square::parse_prefix(&bytes[i..]).ok_or_else(syntax)?;
            path.push(sq);
            i += used;
            if path.len() > 17 {
                return Err(syntax());
            }
        }
        match path.as_slice() {
            [_] => Err(syntax()),
            [a, b] if a == b && !separated => Ok(MoveSyntax::Flip { square: *a, revealed: None }),
            _ => Ok(MoveSyntax::Path(path)),
        }
    }
}

impl Position {
    /// Reads a move in any form of 9.4 and checks it against this position. A recorded flip
    /// `d2=C` gives the flip move (its piece must still be in the pool); the caller resolves
    /// the chance event with the piece, or uses [`Position::play_text`].
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.check_syntax(&MoveSyntax::parse(text)?, text)
    }

    pub(crate) fn check_syntax(&self, syntax: &MoveSyntax, text: &str) -> Result<Move, MoveError> {
        if self.pending.is_some() {
            return Err(MoveError::ChancePending);
        }
        let mut buf = MoveBuf::new();
        self.legal_moves(&mut buf);
        match syntax {
            MoveSyntax::Flip { square, revealed } => {
                if self.down & square.bit() == 0 {
                    return Err(MoveError::NotFaceDown(*square));
                }
                if let Some(p) = revealed
                    && self.pool[p.index()] == 0
                {
                    return Err(MoveError::NotInPool(*p));
                }
                Ok(Move::flip(square.index() as u8))
            }
            MoveSyntax::Path(path) => buf
                .iter()
                .copied()
                .filter(|m| !m.is_flip() && m.from() == path[0])
                .find(|&m| self.landings(m) == path[1..])
                .ok_or_else(|| MoveError::Illegal(text.trim().to_string())),
        }
    }

    /// Plays a move given as text, as in a record: a flip must be in recorded form `d2=C`
    /// and is resolved with that piece. Returns the move played.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let syntax = MoveSyntax::parse(text)?;
        let mv = self.check_syntax(&syntax, text)?;
        if let MoveSyntax::Flip { square, revealed } = syntax {
            let piece = revealed.ok_or(MoveError::OutcomeMissing(square))?;
            self.play(mv);
            self.resolve(piece);
        } else {
            self.play(mv);
        }
        Ok(mv)
    }

    /// The canonical notation of a legal move: `d2?`, `d2-d3`, `d2xd3`, `a1xa3xc3`.
    pub fn move_to_string(&self, mv: Move) -> String {
        match mv.kind() {
            crate::MoveKind::Flip => format!("{}?", mv.from()),
            crate::MoveKind::Step => format!("{}-{}", mv.from(), mv.to()),
            crate::MoveKind::Capture => {
                let mut s = mv.from().to_string();
                for sq in self.landings(mv) {
                    s.push('x');
                    s.push_str(&sq.to_string());
                }
                s
            }
        }
    }

    /// The compact engine form: from-square and to-square, a flip as the same square twice
    /// (`d2d2`); a chain lists every landing square (`a1a3c3`).
    pub fn move_to_compact(&self, mv: Move) -> String {
        if mv.is_flip() {
            return format!("{0}{0}", mv.from());
        }
        let mut s = mv.from().to_string();
        for sq in self.landings(mv) {
            s.push_str(&sq.to_string());
        }
        s
    }
}

/// The recorded form of a flip: `d2=C`.
pub fn recorded_flip(square: Square, revealed: Piece) -> String {
    format!("{square}={revealed}")
}

impl FullPosition {
    /// Reads a move in any form and checks it; a recorded flip `d2=C` must match the deal.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = MoveSyntax::parse(text)?;
        let mv = self.public().check_syntax(&syntax, text)?;
        if let MoveSyntax::Flip { square, revealed: Some(p) } = syntax
            && self.identity(square) != Some(p)
        {
            return Err(MoveError::DealMismatch(square));
        }
        Ok(mv)
    }

    /// Plays a move given as text; flips reveal the dealt piece.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = self.parse_move(text)?;
        self.play(mv);
        Ok(mv)
    }

    /// The canonical notation of a legal move (a flip as the request `d2?`).
    pub fn move_to_string(&self, mv: Move) -> String {
        self.public().move_to_string(mv)
    }

    /// The compact engine form (see [`Position::move_to_compact`]).
    pub fn move_to_compact(&self, mv: Move) -> String {
        self.public().move_to_compact(mv)
    }

    /// The recorded form of a legal move: a flip shows the dealt piece (`d2=C`).
    pub fn recorded_move(&self, mv: Move) -> String {
        match self.identity(mv.from()) {
            Some(p) if mv.is_flip() => recorded_flip(mv.from(), p),
            _ => self.public().move_to_string(mv),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap_or(Square::ALL[0])
    }

    #[test]
    fn every_form_of_9_4_parses() {
        let flip = |s, r| Ok(MoveSyntax::Flip { square: sq(s), revealed: r });
        assert_eq!(MoveSyntax::parse("d2?"), flip("d2", None));
        assert_eq!(MoveSyntax::parse("d2d2"), flip("d2", None));
        assert_eq!(MoveSyntax::parse("d2=C"), flip("d2", Piece::from_letter('C')));
        assert_eq!(MoveSyntax::parse("d2=e"), flip("d2", Piece::from_letter('b')));
        let path = |v: &[&str]| Ok(MoveSyntax::Path(v.iter().map(|s| sq(s)).collect()));
        assert_eq!(MoveSyntax::parse("d2-d3"), path(&["d2", "d3"]));
        assert_eq!(MoveSyntax::parse("d2xd3"), path(&["d2", "d3"]));
        assert_eq!(MoveSyntax::parse("d2d3"), path(&["d2", "d3"]));
        assert_eq!(MoveSyntax::parse("a1xa3xc3"), path(&["a1", "a3", "c3"]));
        assert_eq!(MoveSyntax::parse("a1a3c3"), path(&["a1", "a3", "c3"]));
        for bad in ["", "d2", "d2=", "d2=Q", "d2?x", "d2-", "d2-d3x", "d2d3-d4", "i1i1", "d5d5"] {
            assert!(MoveSyntax::parse(bad).is_err(), "{bad}");
        }
    }
}
