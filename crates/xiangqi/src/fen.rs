//! FEN reading and writing in the dialect of Fairy-Stockfish and Pikafish.

use crate::tables::REACHABLE;
use crate::{Colour, Kind, Piece, Position, Square};

/// The starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A position as read from text, not yet validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Piece per point, index `rank * 9 + file`.
    pub board: [Option<Piece>; 90],
    /// Side to move.
    pub side: Colour,
    /// Plies since the last capture.
    pub halfmove: u16,
    /// Move number.
    pub fullmove: u16,
}

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// The placement does not have ten ranks.
    RankCount(usize),
    /// A rank field does not describe exactly nine points (rank numbered 0–9).
    RankLength {
        /// The rank, 9 for the first field.
        rank: u8,
    },
    /// A character that is neither a piece letter nor a digit 1–9.
    BadChar(char),
    /// The side field is not `w`/`r` or `b`.
    BadSide(String),
    /// The castling or en-passant field is not `-`.
    BadField(String),
    /// A move counter is not a number in range.
    BadCounter(String),
    /// More than six fields.
    TrailingFields,
    /// A side has no general, or more than one.
    GeneralCount(Colour, u32),
    /// Too many pieces of a kind.
    TooMany(Piece, u32),
    /// A piece stands where it can never be (general or advisor outside its palace, elephant
    /// across the river or off its points, soldier behind its start).
    Unreachable(Piece, Square),
    /// The generals face each other on an open file.
    GeneralsFacing,
    /// The side that is not to move is in check.
    OpponentInCheck,
}

impl std::fmt::Display for FenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(n) => write!(f, "the board has {n} ranks, not 10"),
            FenError::RankLength { rank } => {
                write!(f, "rank {rank} does not describe exactly 9 points")
            }
            FenError::BadChar(c) => write!(f, "unexpected character '{c}' in the board"),
            FenError::BadSide(s) => write!(f, "side to move '{s}' is not w or b"),
            FenError::BadField(s) => write!(f, "field '{s}' should be -"),
            FenError::BadCounter(s) => write!(f, "move counter '{s}' is not valid"),
            FenError::TrailingFields => write!(f, "too many fields"),
            FenError::GeneralCount(c, n) => write!(f, "{c:?} has {n} generals, not 1"),
            FenError::TooMany(p, n) => write!(
                f,
                "{:?} has {n} pieces of kind {}, at most {} allowed",
                p.colour,
                p.kind.name(),
                p.kind.max_count()
            ),
            FenError::Unreachable(p, sq) => {
                write!(f, "{:?} {} cannot stand on {sq}", p.colour, p.kind.name())
            }
            FenError::GeneralsFacing => write!(f, "the generals face each other"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

impl Setup {
    /// Reads a FEN liberally: `E`/`H` synonyms, fields after the side optional, `r` accepted
    /// for Red. Checks only the syntax; see [`Setup::validate`].
    pub fn parse(text: &str) -> Result<Setup, FenError> {
        let mut fields = text.split_ascii_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut board = [None; 90];
        for (i, field) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0u8;
            for c in field.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as u8;
                } else if let Some(p) = Piece::from_fen_char(c) {
                    if file < 9 {
                        board[(rank * 9 + file) as usize] = Some(p);
                    }
                    file += 1;
                } else {
                    return Err(FenError::BadChar(c));
                }
                if file > 9 {
                    return Err(FenError::RankLength { rank });
                }
            }
            if file != 9 {
                return Err(FenError::RankLength { rank });
            }
        }
        let side = match fields.next() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Colour::Red,
            Some("b") | Some("B") => Colour::Black,
            Some(s) => return Err(FenError::BadSide(s.chars().take(16).collect())),
        };
        for _ in 0..2 {
            if let Some(f) = fields.next()
                && f != "-"
            {
                return Err(FenError::BadField(f.chars().take(16).collect()));
            }
        }
        let counter = |f: Option<&str>, default: u16| -> Result<u16, FenError> {
            match f {
                None => Ok(default),
                Some(s) => {
                    s.parse().map_err(|_| FenError::BadCounter(s.chars().take(16).collect()))
                }
            }
        };
        let halfmove = counter(fields.next(), 0)?;
        let fullmove = counter(fields.next(), 1)?.max(1);
        if fields.next().is_some() {
            return Err(FenError::TrailingFields);
        }
        if halfmove > crate::position::MOVE_LIMIT {
            return Err(FenError::BadCounter(halfmove.to_string()));
        }
        Ok(Setup { board, side, halfmove, fullmove })
    }

    /// Checks the setup against the rules and makes it a position.
    pub fn validate(&self) -> Result<Position, FenError> {
        let mut pos = Position::empty(self.side);
        let mut counts = [[0u32; 7]; 2];
        for (sq, p) in self.board.iter().enumerate() {
            if let Some(p) = *p {
                let square = Square::from_index(sq as u8);
                counts[p.colour.index()][p.kind.index()] += 1;
                if REACHABLE[p.colour.index()][p.kind.index()] & square.bit() == 0 {
                    return Err(FenError::Unreachable(p, square));
                }
                pos.put(sq as u8, p);
            }
        }
        for c in [Colour::Red, Colour::Black] {
            let n = counts[c.index()][Kind::General.index()];
            if n != 1 {
                return Err(FenError::GeneralCount(c, n));
            }
            for k in Kind::ALL {
                let n = counts[c.index()][k.index()];
                if n > k.max_count() {
                    return Err(FenError::TooMany(Piece::new(c, k), n));
                }
            }
        }
        pos.halfmove = self.halfmove;
        pos.fullmove = self.fullmove;
        if pos.generals_face() {
            return Err(FenError::GeneralsFacing);
        }
        if pos.general_attacked(!pos.side) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(pos)
    }
}

impl Position {
    /// Reads and validates a FEN.
    ///
    /// ```
    /// use cannonade_xiangqi::{Position, FenError};
    /// let p = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap();
    /// assert_eq!(p.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    /// assert_eq!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w"), Err(FenError::GeneralsFacing));
    /// ```
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        Setup::parse(text)?.validate()
    }

    /// Writes the FEN (all six fields, letters `K A B N R C P`).
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(80);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match self.piece_at(Square::from_index(rank * 9 + file)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side == Colour::Red { 'w' } else { 'b' };
        format!("{s} {side} - - {} {}", self.halfmove, self.fullmove)
    }

    /// Whether the generals stand on one file with nothing between them.
    pub fn generals_face(&self) -> bool {
        let (r, b) = (self.generals[0], self.generals[1]);
        if r % 9 != b % 9 {
            return false;
        }
        let between =
            crate::tables::FILE[(r % 9) as usize] & ((1u128 << b) - 1) & !((1u128 << (r + 1)) - 1);
        between & self.occupied() == 0
    }
}
