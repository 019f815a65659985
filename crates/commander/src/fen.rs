//! FEN (section 14.1): a strict reader with typed errors and the canonical writer.
//!
//! `<board> <side> - - <halfmove> <fullmove>`; trailing fields may be missing (defaults
//! `- - 0 1`). Stack letters are accepted in any order and written canonically.

use crate::attacks::{attacked, facing};
use crate::board::{FILES, NPOINTS, can_stand, name};
use crate::piece::{Kind, LEGAL, Unit, canonical_order, carrier, colour, heroes, kinds};
use crate::position::{Board, NONE, Position, unit_of};
use std::fmt;

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// More than six fields.
    TooManyFields,
    /// The board does not have 12 ranks.
    RankCount(usize),
    /// A rank (1–12) does not cover exactly 11 points.
    RankWidth {
        /// The rank number.
        rank: u8,
    },
    /// An unexpected character on a rank.
    BadChar {
        /// The rank number.
        rank: u8,
        /// The character.
        ch: char,
    },
    /// Two numbers next to each other, or a number out of 1–11.
    BadNumber {
        /// The rank number.
        rank: u8,
    },
    /// `(` inside a stack, or `)` without `(`, or a stack never closed, or empty `()`.
    Parentheses {
        /// The rank number.
        rank: u8,
    },
    /// A `+` not followed by a piece letter.
    DanglingPlus {
        /// The rank number.
        rank: u8,
    },
    /// Upper- and lower-case letters in one stack.
    MixedCase {
        /// The point.
        point: String,
    },
    /// Not a legal stack (section 9.1), or a kind twice on one point.
    IllegalStack {
        /// The point.
        point: String,
    },
    /// A unit on a point its carrier may not stand on (rule S).
    CannotStand {
        /// The point.
        point: String,
    },
    /// A side has more than one Commander.
    TwoCommanders {
        /// `"red"` or `"blue"`.
        side: &'static str,
    },
    /// The side not to move has no Commander. (The side to move may lack it: its Commander
    /// was captured in the last deploy turn and it has lost.)
    NoCommander {
        /// `"red"` or `"blue"`.
        side: &'static str,
    },
    /// The side field is not `r` or `b`.
    BadSide(String),
    /// Field 3 or 4 is not `-`.
    BadPlaceholder(String),
    /// A counter is not a number (or the full-move number is 0).
    BadCounter(String),
    /// The Commanders face each other.
    CommandersFace,
    /// The side not to move is in check.
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::TooManyFields => write!(f, "more than six fields"),
            FenError::RankCount(n) => write!(f, "{n} ranks instead of 12"),
            FenError::RankWidth { rank } => write!(f, "rank {rank} does not cover 11 points"),
            FenError::BadChar { rank, ch } => write!(f, "unexpected {ch:?} on rank {rank}"),
            FenError::BadNumber { rank } => write!(f, "bad run of empty points on rank {rank}"),
            FenError::Parentheses { rank } => {
                write!(f, "unbalanced or nested stack on rank {rank}")
            }
            FenError::DanglingPlus { rank } => write!(f, "'+' without a piece on rank {rank}"),
            FenError::MixedCase { point } => write!(f, "mixed colours in the stack on {point}"),
            FenError::IllegalStack { point } => write!(f, "illegal stack on {point}"),
            FenError::CannotStand { point } => write!(f, "the unit on {point} may not stand there"),
            FenError::TwoCommanders { side } => write!(f, "{side} has more than one Commander"),
            FenError::NoCommander { side } => write!(f, "{side} has no Commander"),
            FenError::BadSide(s) => write!(f, "side to move {s:?} is not r or b"),
            FenError::BadPlaceholder(s) => write!(f, "expected '-' but found {s:?}"),
            FenError::BadCounter(s) => write!(f, "bad move counter {s:?}"),
            FenError::CommandersFace => write!(f, "the Commanders face each other"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

/// Reads one unit token starting at `bytes[*i]`: `+`? letter, or `(` (`+`? letter)+ `)`.
fn read_unit(bytes: &[u8], i: &mut usize, rank: u8, point: u8) -> Result<Unit, FenError> {
    let mut pieces: Vec<(char, bool)> = Vec::with_capacity(3);
    let stacked = bytes[*i] == b'(';
    if stacked {
        *i += 1;
    }
    loop {
        let hero = bytes.get(*i) == Some(&b'+');
        if hero {
            *i += 1;
        }
        match bytes.get(*i).copied() {
            Some(c) if c.is_ascii_alphabetic() && Kind::from_letter(c as char).is_some() => {
                pieces.push((c as char, hero));
                *i += 1;
                if !stacked {
                    break;
                }
            }
            _ if hero => return Err(FenError::DanglingPlus { rank }),
            Some(b')') if stacked && !pieces.is_empty() => {
                *i += 1;
                break;
            }
            Some(b'(' | b')') | None => return Err(FenError::Parentheses { rank }),
            Some(c) => return Err(FenError::BadChar { rank, ch: c as char }),
        }
    }
    let upper = pieces[0].0.is_ascii_uppercase();
    if pieces.iter().any(|(c, _)| c.is_ascii_uppercase() != upper) {
        return Err(FenError::MixedCase { point: name(point) });
    }
    let (mut k, mut h) = (0u16, 0u16);
    for &(c, hero) in &pieces {
        let kind = Kind::from_letter(c).ok_or(FenError::BadChar { rank, ch: c })?;
        if k & kind.bit() != 0 {
            return Err(FenError::IllegalStack { point: name(point) });
        }
        k |= kind.bit();
        if hero {
            h |= kind.bit();
        }
    }
    if !LEGAL[k as usize] {
        return Err(FenError::IllegalStack { point: name(point) });
    }
    if !can_stand(carrier(k) == Kind::Navy, point) {
        return Err(FenError::CannotStand { point: name(point) });
    }
    Ok(unit_of(if upper { 0 } else { 1 }, k, h))
}

fn read_board(text: &str) -> Result<[Unit; NPOINTS], FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 12 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut units = [0; NPOINTS];
    for (row, r) in ranks.iter().enumerate() {
        let rank = 12 - row as u8;
        let bytes = r.as_bytes();
        let mut i = 0;
        let mut file = 0u8;
        let mut after_number = false;
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_digit() {
                if after_number {
                    return Err(FenError::BadNumber { rank });
                }
                let mut n = c - b'0';
                i += 1;
                if n == 1 && matches!(bytes.get(i), Some(b'0' | b'1')) {
                    n = 10 + bytes[i] - b'0';
                    i += 1;
                }
                if n == 0 {
                    return Err(FenError::BadNumber { rank });
                }
                file = file.saturating_add(n);
                after_number = true;
                if file > FILES {
                    return Err(FenError::RankWidth { rank });
                }
                continue;
            }
            after_number = false;
            if file >= FILES {
                return Err(FenError::RankWidth { rank });
            }
            let point = (rank - 1) * FILES + file;
            units[point as usize] = read_unit(bytes, &mut i, rank, point)?;
            file += 1;
        }
        if file != FILES {
            return Err(FenError::RankWidth { rank });
        }
    }
    Ok(units)
}

impl Position {
    /// Reads a FEN (section 14.1) strictly; see [`FenError`] for what is rejected.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields);
        }
        let units = read_board(fields[0])?;
        let turn = match fields.get(1).copied().unwrap_or("r") {
            "r" => 0,
            "b" => 1,
            s => return Err(FenError::BadSide(s.to_string())),
        };
        for f in fields.iter().skip(2).take(2) {
            if *f != "-" {
                return Err(FenError::BadPlaceholder(f.to_string()));
            }
        }
        let counter = |i: usize, default: u32| -> Result<u32, FenError> {
            match fields.get(i) {
                None => Ok(default),
                Some(s) => s.parse::<u32>().map_err(|_| FenError::BadCounter(s.to_string())),
            }
        };
        let halfmove = counter(4, 0)?;
        let fullmove = counter(5, 1)?;
        if fullmove == 0 {
            return Err(FenError::BadCounter("0".into()));
        }
        let mut commanders = [0; 2];
        for &u in units.iter().filter(|&&u| u != 0) {
            if kinds(u) & Kind::Commander.bit() != 0 {
                commanders[colour(u)] += 1;
            }
        }
        for (c, side) in [(0, "red"), (1, "blue")] {
            if commanders[c] > 1 {
                return Err(FenError::TwoCommanders { side });
            }
            // Only the side to move can have lost its Commander (captured during the
            // previous deploy turn; the game is then over).
            if commanders[c] == 0 && c != turn {
                return Err(FenError::NoCommander { side });
            }
        }
        let b = Board::from_units(&units);
        if facing(&b) {
            return Err(FenError::CommandersFace);
        }
        if b.cmd[turn] != NONE && attacked(&b, b.cmd[1 - turn], turn) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(Position { b, turn, halfmove, fullmove, points: [0, 0] })
    }

    /// The canonical FEN.
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(96);
        for rank in (0..12u8).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let u = self.b.units[(rank * FILES + file) as usize];
                if u == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push_str(&unit_text(u, colour(u) == 0));
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.turn == 0 { " r" } else { " b" });
        s.push_str(&format!(" - - {} {}", self.halfmove, self.fullmove));
        s
    }

    /// The standard initial position (section 4.1).
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).unwrap_or_else(|_| unreachable!("the start FEN is valid"))
    }
}

/// The FEN of the standard initial position.
pub const START_FEN: &str = "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/2N1GT1TG2/3A2S2A1/1N2FH1HF2/6C4 r - - 0 1";

/// The token of a unit: `+` before heroic pieces, stacks in parentheses, carrier first; upper
/// case when `upper`.
pub(crate) fn unit_text(u: Unit, upper: bool) -> String {
    let k = kinds(u);
    let h = heroes(u);
    let mut s = String::with_capacity(8);
    let stacked = k.count_ones() > 1;
    if stacked {
        s.push('(');
    }
    for kind in canonical_order(k) {
        if h & kind.bit() != 0 {
            s.push('+');
        }
        let c = kind.letter();
        s.push(if upper { c } else { c.to_ascii_lowercase() });
    }
    if stacked {
        s.push(')');
    }
    s
}
