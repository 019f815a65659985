//! Move notation (section 8): `FROM-TO`, `FROMxTO`, `FROM^TO`, `FROM^xTO`, `FROM*TO`, with
//! `@SQ` or `@-` after every last-rank move. Text is read into a syntactic [`MoveText`]
//! first and becomes a [`Move`] only by matching a legal move of the position.

use crate::moves::{CAPTURE, JUMP, SHOT};
use crate::{Move, Position, Square};
use cannonade_core::MoveBuf;

/// The marker between the two squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Marker {
    /// `-`: a move to an empty square.
    Step,
    /// `x`: a capture by moving.
    Capture,
    /// `^`: a bomber flight over a friendly piece.
    Jump,
    /// `^x`: a bomber flight over a friendly piece that captures.
    JumpCapture,
    /// `*`: a shot.
    Shot,
}

impl Marker {
    const fn text(self) -> &'static str {
        match self {
            Marker::Step => "-",
            Marker::Capture => "x",
            Marker::Jump => "^",
            Marker::JumpCapture => "^x",
            Marker::Shot => "*",
        }
    }

    const fn of(mv: Move) -> Marker {
        if mv.flags & SHOT != 0 {
            Marker::Shot
        } else if mv.flags & JUMP != 0 {
            if mv.flags & CAPTURE != 0 { Marker::JumpCapture } else { Marker::Jump }
        } else if mv.flags & CAPTURE != 0 {
            Marker::Capture
        } else {
            Marker::Step
        }
    }
}

/// A move as written, checked for syntax only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The square of the moving or shooting piece.
    pub from: Square,
    /// The marker.
    pub marker: Marker,
    /// The destination or target.
    pub to: Square,
    /// `None` without suffix, `Some(None)` for `@-`, `Some(Some(sq))` for `@sq`.
    pub removal: Option<Option<Square>>,
}

/// Why a move string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in this notation; `at` is the byte offset where reading failed.
    Syntax {
        /// The text.
        text: String,
        /// Byte offset of the problem.
        at: usize,
    },
    /// A well-formed name of one of the 16 missing corner squares.
    MissingSquare(String),
    /// No legal move goes from this square to that one (with this removal).
    Illegal(String),
    /// A legal move exists but is written with another marker (`-`, `x`, `^`, `^x`, `*`).
    WrongMarker {
        /// The text as given.
        text: String,
        /// The canonical spelling of the move it names.
        canonical: String,
    },
    /// A soldier move to the last rank written without its `@` suffix.
    MissingRemoval(String),
    /// An `@` suffix on a move that does not reach the last rank.
    UnexpectedRemoval(String),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Syntax { text, at } => write!(f, "cannot read move {text:?} at byte {at}"),
            MoveError::MissingSquare(s) => write!(f, "square {s} does not exist on this board"),
            MoveError::Illegal(s) => write!(f, "{s} is not a legal move here"),
            MoveError::WrongMarker { text, canonical } => {
                write!(f, "{text} names the move {canonical}, whose marker differs")
            }
            MoveError::MissingRemoval(s) => {
                write!(f, "{s} reaches the last rank and needs an @ suffix naming the removal")
            }
            MoveError::UnexpectedRemoval(s) => {
                write!(f, "{s} has an @ suffix but does not reach the last rank")
            }
        }
    }
}

impl std::error::Error for MoveError {}

impl MoveText {
    /// Reads a move string; trailing `+` and `#` are ignored.
    pub fn parse(text: &str) -> Result<MoveText, MoveError> {
        let syntax = |at| MoveError::Syntax { text: text.into(), at };
        let body = text.trim_end_matches(['+', '#']);
        let bytes = body.as_bytes();
        let square = |at: usize| -> Result<(Square, usize), MoveError> {
            match Square::parse_prefix(&bytes[at.min(bytes.len())..]) {
                Some((Some(sq), used)) => Ok((sq, at + used)),
                Some((None, used)) => Err(MoveError::MissingSquare(body[at..at + used].into())),
                None => Err(syntax(at)),
            }
        };
        let (from, at) = square(0)?;
        let rest = &body[at..];
        let marker =
            [Marker::JumpCapture, Marker::Jump, Marker::Capture, Marker::Step, Marker::Shot]
                .into_iter()
                .find(|m| rest.starts_with(m.text()))
                .ok_or_else(|| syntax(at))?;
        let (to, at) = square(at + marker.text().len())?;
        let removal = match &body[at..] {
            "" => None,
            "@-" => Some(None),
            s if s.starts_with('@') => {
                let (sq, end) = square(at + 1)?;
                if end != body.len() {
                    return Err(syntax(end));
                }
                Some(Some(sq))
            }
            _ => return Err(syntax(at)),
        };
        Ok(MoveText { from, marker, to, removal })
    }
}

impl std::fmt::Display for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}{}", self.from, self.marker.text(), self.to)?;
        match self.removal {
            None => Ok(()),
            Some(None) => f.write_str("@-"),
            Some(Some(sq)) => write!(f, "@{sq}"),
        }
    }
}

impl Position {
    /// The written form of a legal move, as [`MoveText`].
    pub fn move_text(&self, mv: Move) -> MoveText {
        MoveText {
            from: mv.from(),
            marker: Marker::of(mv),
            to: mv.to(),
            removal: if mv.is_last_rank() { Some(mv.removal()) } else { None },
        }
    }

    /// The canonical string of a legal move (no `+` or `#`).
    pub fn move_to_string(&self, mv: Move) -> String {
        self.move_text(mv).to_string()
    }

    /// Checks a syntactic move against the legal moves of this position.
    pub fn check_move(&self, text: &MoveText) -> Result<Move, MoveError> {
        let mut buf = MoveBuf::new();
        crate::movegen::legal_moves(self, &mut buf);
        let same_squares: Vec<Move> =
            buf.iter().copied().filter(|m| m.from() == text.from && m.to() == text.to).collect();
        let Some(&first) = same_squares.first() else {
            return Err(MoveError::Illegal(text.to_string()));
        };
        if Marker::of(first) != text.marker {
            return Err(MoveError::WrongMarker {
                text: text.to_string(),
                canonical: self.move_to_string(first),
            });
        }
        match text.removal {
            None if first.is_last_rank() => Err(MoveError::MissingRemoval(text.to_string())),
            Some(_) if !first.is_last_rank() => Err(MoveError::UnexpectedRemoval(text.to_string())),
            None => Ok(first),
            Some(removal) => same_squares
                .into_iter()
                .find(|m| m.removal() == removal)
                .ok_or_else(|| MoveError::Illegal(text.to_string())),
        }
    }

    /// The move as people read it in a move list: the moving piece's letter in upper case
    /// whatever its side, its square, a sign and its target. `–` steps, `×` captures,
    /// `^` jumps over a friendly piece (`^×` capturing), `(×d6)` shoots without moving. A
    /// soldier reaching the last rank adds the piece it removes, `@Te12`, or `@–` when it
    /// removes none. Read back by [`Position::parse_display`].
    pub fn display(&self, mv: Move) -> String {
        let letter = self.piece_at(mv.from()).map_or('?', |p| p.kind.letter());
        let (from, to) = (mv.from(), mv.to());
        let mut s = match Marker::of(mv) {
            Marker::Step => format!("{letter}{from}\u{2013}{to}"),
            Marker::Capture => format!("{letter}{from}\u{d7}{to}"),
            Marker::Jump => format!("{letter}{from}^{to}"),
            Marker::JumpCapture => format!("{letter}{from}^\u{d7}{to}"),
            Marker::Shot => format!("{letter}{from}(\u{d7}{to})"),
        };
        if mv.is_last_rank() {
            match mv.removal().and_then(|sq| Some((sq, self.piece_at(sq)?))) {
                Some((sq, piece)) => s.push_str(&format!(" @{}{sq}", piece.kind.letter())),
                None => s.push_str(" @\u{2013}"),
            }
        }
        s
    }

    /// Reads a move written as [`Position::display`] writes it: the one legal move with that
    /// text.
    pub fn parse_display(&self, text: &str) -> Result<Move, MoveError> {
        let mut buf = MoveBuf::new();
        crate::movegen::legal_moves(self, &mut buf);
        let want = text.trim();
        let mut found = buf.iter().copied().filter(|&m| self.display(m) == want);
        match (found.next(), found.next()) {
            (Some(m), None) => Ok(m),
            _ => Err(MoveError::Illegal(want.into())),
        }
    }

    /// Reads a move string and checks it against this position.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.check_move(&MoveText::parse(text)?)
    }
}

#[cfg(test)]
mod display_tests {
    use super::*;
    use cannonade_core::Rules;

    fn legal(p: &Position) -> Vec<Move> {
        let mut buf = MoveBuf::new();
        p.legal_moves(&mut buf);
        buf.iter().copied().collect()
    }

    /// Every legal move's display text reads back as that move, along a deterministic
    /// playout that captures whenever it can (shots, jumps and last-rank removals come up).
    #[test]
    fn every_legal_move_round_trips_through_its_display_text() {
        let mut p = Position::startpos();
        let mut markers = std::collections::HashSet::new();
        for ply in 0..120 {
            let moves = legal(&p);
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                let text = p.display(m);
                assert_eq!(p.parse_display(&text), Ok(m), "{text} in {}", p.fen());
                markers.insert(Marker::of(m));
            }
            let captures: Vec<Move> =
                moves.iter().copied().filter(|&m| Marker::of(m) != Marker::Step).collect();
            let pool = if captures.is_empty() { &moves } else { &captures };
            p.play(pool[ply * 13 % pool.len()]);
        }
        assert!(markers.contains(&Marker::Shot), "a shot was displayed");
    }

    #[test]
    fn the_piece_letter_leads_and_white_is_upper_case_too() {
        let p = Position::startpos();
        let m = legal(&p)[0];
        let text = p.display(m);
        let letter = p.piece_at(m.from()).unwrap().kind.letter();
        assert!(text.starts_with(letter) && letter.is_ascii_uppercase(), "{text}");
        assert!(text.contains('\u{2013}') || text.contains('\u{d7}'), "{text}");
        let mut q = p.clone();
        q.play(m);
        let w = legal(&q)[0];
        assert!(q.display(w).starts_with(q.piece_at(w.from()).unwrap().kind.letter()));
        assert!(p.parse_display("Zz1-a1").is_err());
    }
}
