//! The position notation ("BFEN", section 7): a strict reader into an unchecked [`Setup`],
//! its validation into a [`Position`], and the canonical writer.
//!
//! `<placement> <side> <clock> <number>`; ranks 12, 11, 2 and 1 describe the 8 squares c–j,
//! ranks 3–10 all 12 squares a–l. `r` is Red (the first player), `w` White (the second).

use crate::tables::SQUARES;
use crate::{Kind, Piece, Position, Square};
use cannonade_core::Side;

/// Why a position string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 2 or 4 space-separated fields (single spaces only).
    FieldCount(usize),
    /// The placement does not have 12 ranks.
    RankCount(usize),
    /// A character that is neither a piece letter nor a digit, in the given rank (1-based).
    BadChar {
        /// The rank (1–12).
        rank: u8,
        /// The character.
        ch: char,
    },
    /// A run of empty squares that is not a number 1–12 written without leading zero.
    BadRun {
        /// The rank (1–12).
        rank: u8,
        /// The digits as written.
        run: String,
    },
    /// A rank field covering the wrong number of squares.
    RankWidth {
        /// The rank (1–12).
        rank: u8,
        /// Squares the field describes.
        found: usize,
        /// Squares the rank has (8 or 12).
        expected: usize,
    },
    /// The side field is not `r` or `w`.
    BadSide(String),
    /// The clock field is not a decimal number.
    BadClock(String),
    /// The move number is not a decimal number of at least 1.
    BadMoveNumber(String),
    /// A side does not have exactly one headquarter.
    HeadquarterCount {
        /// The side.
        side: Side,
        /// How many headquarters it has.
        count: usize,
    },
    /// The side not to move is in check.
    OpponentInCheck,
}

impl std::fmt::Display for FenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FenError::FieldCount(n) => {
                write!(f, "expected 2 or 4 fields separated by single spaces, found {n}")
            }
            FenError::RankCount(n) => write!(f, "expected 12 ranks separated by '/', found {n}"),
            FenError::BadChar { rank, ch } => write!(f, "rank {rank}: unexpected character {ch:?}"),
            FenError::BadRun { rank, run } => {
                write!(f, "rank {rank}: {run:?} is not a run of 1 to 12 empty squares")
            }
            FenError::RankWidth { rank, found, expected } => {
                write!(f, "rank {rank} describes {found} squares but has {expected}")
            }
            FenError::BadSide(s) => write!(f, "side to move must be 'r' or 'w', not {s:?}"),
            FenError::BadClock(s) => write!(f, "bad ply clock {s:?}"),
            FenError::BadMoveNumber(s) => write!(f, "bad move number {s:?} (must be at least 1)"),
            FenError::HeadquarterCount { side, count } => {
                let name = if *side == Side::First { "Red" } else { "White" };
                write!(f, "{name} has {count} headquarters, not exactly one")
            }
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

/// A syntactically valid but unchecked position: what the text says, before the rules look
/// at it. [`Position::from_setup`] validates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, by dense square index.
    pub placement: [Option<Piece>; SQUARES],
    /// The side to move.
    pub mover: Side,
    /// Plies since a piece last left the board.
    pub clock: u32,
    /// The full-move number.
    pub fullmove: u32,
}

/// Squares a rank has and the first file it starts on.
fn rank_span(rank: u8) -> (u8, usize) {
    if (2..10).contains(&rank) { (0, 12) } else { (2, 8) }
}

fn number(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl Setup {
    /// Reads a position string strictly; the clock and number may be left out together.
    pub fn parse(text: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = text.split(' ').collect();
        if !(fields.len() == 2 || fields.len() == 4) || fields.iter().any(|f| f.is_empty()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 12 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut placement = [None; SQUARES];
        for (i, field) in ranks.iter().enumerate() {
            let rank = 11 - i as u8;
            let (first_file, width) = rank_span(rank);
            let bad_width = |found| FenError::RankWidth { rank: rank + 1, found, expected: width };
            let bytes = field.as_bytes();
            let mut pos = 0usize;
            let mut j = 0;
            while j < bytes.len() {
                let c = bytes[j];
                if c.is_ascii_digit() {
                    let len = bytes[j..].iter().take_while(|b| b.is_ascii_digit()).count();
                    let run = &field[j..j + len];
                    let n = match number(run) {
                        Some(n @ 1..=12) if !run.starts_with('0') => n as usize,
                        _ => return Err(FenError::BadRun { rank: rank + 1, run: run.into() }),
                    };
                    pos += n;
                    j += len;
                    continue;
                }
                let piece = Piece::from_letter(c as char)
                    .filter(|_| c.is_ascii_alphabetic())
                    .ok_or_else(|| FenError::BadChar {
                        rank: rank + 1,
                        ch: field[j..].chars().next().unwrap_or('?'),
                    })?;
                if pos >= width {
                    return Err(bad_width(pos + 1));
                }
                let sq = Square::new(first_file + pos as u8, rank)
                    .unwrap_or_else(|| unreachable!("rank spans cover existing squares"));
                placement[sq.index() as usize] = Some(piece);
                pos += 1;
                j += 1;
            }
            if pos != width {
                return Err(bad_width(pos));
            }
        }
        let mover = match fields[1] {
            "r" => Side::First,
            "w" => Side::Second,
            other => return Err(FenError::BadSide(other.into())),
        };
        let (clock, fullmove) = if fields.len() == 4 {
            let clock = number(fields[2]).ok_or_else(|| FenError::BadClock(fields[2].into()))?;
            let fullmove = number(fields[3])
                .filter(|&n| n >= 1)
                .ok_or_else(|| FenError::BadMoveNumber(fields[3].into()))?;
            (clock, fullmove)
        } else {
            (0, 1)
        };
        Ok(Setup { placement, mover, clock, fullmove })
    }
}

impl Position {
    /// Validates a setup: exactly one headquarter per side, the side not to move not in check.
    pub fn from_setup(setup: &Setup) -> Result<Position, FenError> {
        for side in Side::BOTH {
            let count = setup
                .placement
                .iter()
                .filter(|p| **p == Some(Piece { side, kind: Kind::Headquarter }))
                .count();
            if count != 1 {
                return Err(FenError::HeadquarterCount { side, count });
            }
        }
        let pos = Position::assemble(&setup.placement, setup.mover, setup.clock, setup.fullmove);
        if pos.is_attacked(!setup.mover) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(pos)
    }

    /// Reads and validates a position string.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        Position::from_setup(&Setup::parse(text)?)
    }

    /// The canonical position string (all four fields, runs merged).
    pub fn fen(&self) -> String {
        let mut out = String::with_capacity(96);
        for rank in (0..12u8).rev() {
            let (first_file, width) = rank_span(rank);
            let mut run = 0;
            for file in first_file..first_file + width as u8 {
                let p = Square::new(file, rank).and_then(|sq| self.piece_at(sq));
                match p {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        out.push(p.letter());
                    }
                }
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = if self.mover == Side::First { 'r' } else { 'w' };
        out.push_str(&format!(" {side} {} {}", self.clock, self.fullmove));
        out
    }

    /// The unchecked setup of this position.
    pub fn setup(&self) -> Setup {
        let mut placement = [None; SQUARES];
        for sq in Square::all() {
            placement[sq.index() as usize] = self.piece_at(sq);
        }
        Setup { placement, mover: self.mover, clock: self.clock, fullmove: self.fullmove }
    }
}
