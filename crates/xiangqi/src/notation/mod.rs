//! Display notations: WXF (English, rules §9.3) and traditional Chinese (§9.4).
//!
//! Both are built from one description of a move ((`Described`)): which piece (by file, or by
//! its place among same pieces on one file), the direction, and the last number. Reading
//! either notation matches the text against the description of every legal move, so reading
//! and writing cannot disagree.

mod chinese;
mod wxf;

use crate::{Colour, Kind, Move, MoveError, Position, Square};
use cannonade_geom::bits::Bits128;

/// How the moving piece is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Which {
    /// The only such piece on its file: its file number (1–9, from the mover's right).
    File(u8),
    /// The front of two on one file.
    Front,
    /// The rear of two on one file.
    Rear,
    /// Soldiers: position `order` (1 = frontmost) among `of` on a file, and the file.
    Order { order: u8, of: u8, file: u8 },
}

/// Which way the piece goes, from its owner's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    Forward,
    Backward,
    Sideways,
}

/// A move described for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Described {
    pub colour: Colour,
    pub kind: Kind,
    pub which: Which,
    pub direction: Direction,
    /// Points travelled (straight moves of K, R, C, P) or destination file number.
    pub number: u8,
}

/// File number of a point from `c`'s own right, 1–9.
fn file_number(c: Colour, sq: Square) -> u8 {
    match c {
        Colour::Red => 9 - sq.file(),
        Colour::Black => sq.file() + 1,
    }
}

/// How far forward a point is for `c` (higher = nearer the opponent).
fn advance(c: Colour, sq: Square) -> i32 {
    match c {
        Colour::Red => sq.rank() as i32,
        Colour::Black => 9 - sq.rank() as i32,
    }
}

impl Position {
    pub(crate) fn describe(&self, mv: Move) -> Option<Described> {
        let piece = self.piece_at(mv.from())?;
        let (c, kind) = (piece.colour, piece.kind);
        let (from, to) = (mv.from(), mv.to());
        let same = self.pieces(c, kind);
        let on_file = |file: u8| {
            let mut v: Vec<Square> = Bits128(same & crate::tables::FILE[file as usize])
                .map(Square::from_index)
                .collect();
            v.sort_by_key(|&s| -advance(c, s));
            v
        };
        let mine = on_file(from.file());
        let pos_in_file = mine.iter().position(|&s| s == from)? as u8;
        let which = if mine.len() == 1 || matches!(kind, Kind::Advisor | Kind::Elephant) {
            Which::File(file_number(c, from))
        } else if kind == Kind::Soldier {
            let crowded_files = (0..9u8).filter(|&f| on_file(f).len() >= 2).count();
            if mine.len() == 2 && crowded_files == 1 {
                if pos_in_file == 0 { Which::Front } else { Which::Rear }
            } else {
                Which::Order {
                    order: pos_in_file + 1,
                    of: mine.len() as u8,
                    file: file_number(c, from),
                }
            }
        } else if pos_in_file == 0 {
            Which::Front
        } else {
            Which::Rear
        };
        let delta = advance(c, to) - advance(c, from);
        let direction = match delta.signum() {
            1 => Direction::Forward,
            -1 => Direction::Backward,
            _ => Direction::Sideways,
        };
        let straight = matches!(kind, Kind::General | Kind::Chariot | Kind::Cannon | Kind::Soldier);
        let number = if direction == Direction::Sideways || !straight {
            file_number(c, to)
        } else {
            delta.unsigned_abs() as u8
        };
        Some(Described { colour: c, kind, which, direction, number })
    }

    /// Finds the one legal move whose text under `write` equals `text`.
    fn find_by_notation(
        &self,
        text: &str,
        write: impl Fn(&Position, Move) -> String,
    ) -> Result<Move, MoveError> {
        let mut found = self.legal_moves().into_iter().filter(|&m| write(self, m) == text);
        match (found.next(), found.next()) {
            (Some(m), None) => Ok(m),
            (None, _) => Err(MoveError::NoMatch(text.chars().take(16).collect())),
            (Some(_), Some(_)) => Err(MoveError::Ambiguous(text.chars().take(16).collect())),
        }
    }
}
