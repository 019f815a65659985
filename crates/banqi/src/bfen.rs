//! BFEN (9.2) and full BFEN (9.3): parsing into an unchecked [`Setup`], validation, writing.

use crate::options::Options;
use crate::piece::{Colour, FULL_SET, Piece};
use crate::position::{Cell, Position};
use crate::square::Square;
use cannonade_core::Side;
use std::fmt;

/// Why a position string was rejected. Never names a hidden identity of a valid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Wrong number of space-separated fields.
    FieldCount {
        /// Fields found.
        found: usize,
        /// What was expected, such as "5 (public BFEN)".
        expected: &'static str,
    },
    /// The board field does not have exactly 4 ranks.
    RankCount(usize),
    /// A rank (1–4) does not describe exactly 8 squares.
    RankWidth {
        /// The rank, 1–4.
        rank: u8,
        /// The squares it describes.
        squares: usize,
    },
    /// A character that is neither a piece letter, `X` nor a digit 1–8.
    BoardChar {
        /// The rank, 1–4.
        rank: u8,
        /// The character.
        ch: char,
    },
    /// Two digits in a row in a rank (a run of empty squares is one digit).
    AdjacentDigits {
        /// The rank, 1–4.
        rank: u8,
    },
    /// The turn field is not `r`, `b` or `-`.
    Turn(String),
    /// The pool field is malformed (the text says how).
    Pool(String),
    /// The pool's total differs from the number of `X` on the board.
    PoolMismatch {
        /// Pieces in the pool.
        pool: u32,
        /// `X` squares on the board.
        face_down: u32,
    },
    /// More pieces of a kind (face up + face down) than the full set has.
    TooMany {
        /// The piece letter.
        piece: char,
        /// Face-up plus pool count.
        count: u32,
        /// The full set's count.
        max: u8,
    },
    /// The no-progress or ply field is not a number in range.
    Counter {
        /// `"noprog"` or `"ply"`.
        field: &'static str,
        /// The text found.
        text: String,
    },
    /// Turn `-` (nothing flipped yet) with a face-up piece on the board.
    FaceUpBeforeFirstFlip,
    /// Turn `-` with a ply or no-progress count other than 0: no ply is possible before the
    /// first flip.
    PliesBeforeFirstFlip,
    /// Turn `-` with no face-down piece: nobody could ever move.
    NothingToFlip,
    /// A sixth field with hidden identities given where a public position was asked for.
    HiddenInPublic,
    /// A full BFEN without its sixth (hidden) field.
    MissingHidden,
    /// The hidden field holds a character that is not a piece letter.
    HiddenChar(char),
    /// The hidden field has a different number of letters than the board has `X`.
    HiddenCount {
        /// Letters in the hidden field.
        letters: usize,
        /// `X` squares on the board.
        face_down: usize,
    },
    /// The hidden letters are not the pool (for this piece, the counts differ).
    HiddenNotPool(char),
    /// The pending-flip field (`d2?`) is malformed or does not name a face-down square.
    PendingFlip(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount { found, expected } => {
                write!(f, "found {found} fields, expected {expected}")
            }
            FenError::RankCount(n) => write!(f, "the board has {n} ranks, expected 4"),
            FenError::RankWidth { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares, expected 8")
            }
            FenError::BoardChar { rank, ch } => {
                write!(f, "rank {rank}: unexpected character `{ch}`")
            }
            FenError::AdjacentDigits { rank } => write!(f, "rank {rank}: two digits in a row"),
            FenError::Turn(t) => write!(f, "turn `{t}` is not `r`, `b` or `-`"),
            FenError::Pool(why) => write!(f, "pool: {why}"),
            FenError::PoolMismatch { pool, face_down } => write!(
                f,
                "the pool holds {pool} pieces but the board has {face_down} face-down squares"
            ),
            FenError::TooMany { piece, count, max } => {
                write!(f, "{count} pieces `{piece}` face up and face down, the set has {max}")
            }
            FenError::Counter { field, text } => write!(f, "{field} `{text}` is not a valid count"),
            FenError::FaceUpBeforeFirstFlip => {
                f.write_str("turn `-` (nothing flipped yet) but a piece is face up")
            }
            FenError::PliesBeforeFirstFlip => {
                f.write_str("turn `-` (nothing flipped yet) needs no-progress and ply 0")
            }
            FenError::NothingToFlip => f.write_str("turn `-` but no piece is face down"),
            FenError::HiddenInPublic => f.write_str(
                "hidden identities are not allowed in a public position (use the full position)",
            ),
            FenError::MissingHidden => f.write_str("a full BFEN needs its sixth (hidden) field"),
            FenError::HiddenChar(c) => write!(f, "hidden field: `{c}` is not a piece letter"),
            FenError::HiddenCount { letters, face_down } => write!(
                f,
                "hidden field has {letters} letters but the board has {face_down} face-down squares"
            ),
            FenError::HiddenNotPool(c) => {
                write!(f, "hidden field: the count of `{c}` differs from the pool")
            }
            FenError::PendingFlip(t) => {
                write!(f, "pending flip `{t}` is not `<square>?` on a face-down square")
            }
        }
    }
}

impl std::error::Error for FenError {}

/// A position string split into its fields and checked for syntax only: the board may still
/// contradict the pool, and so on. [`Setup::validate`] turns it into a [`Position`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Each square: empty, face-down, or a face-up piece.
    pub board: [Cell; 32],
    /// The colour to move; `None` for `-`.
    pub turn: Option<Colour>,
    /// The pool counts in pool order.
    pub pool: [u8; 14],
    /// The no-progress counter.
    pub noprog: u16,
    /// The ply count.
    pub ply: u32,
    /// The sixth field, if any (hidden identities, or a pending flip `d2?`).
    pub extra: Option<String>,
}

impl Setup {
    /// Splits and reads the fields of a public or full BFEN.
    pub fn parse(text: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        if !(5..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount { found: fields.len(), expected: "5 or 6" });
        }
        let board = parse_board(fields[0])?;
        let turn = match fields[1] {
            "r" => Some(Colour::Red),
            "b" => Some(Colour::Black),
            "-" => None,
            t => return Err(FenError::Turn(t.to_string())),
        };
        let pool = parse_pool(fields[2])?;
        let noprog = counter(fields[3], "noprog")?;
        let noprog = u16::try_from(noprog)
            .map_err(|_| FenError::Counter { field: "noprog", text: fields[3].to_string() })?;
        let ply = counter(fields[4], "ply")?;
        Ok(Setup { board, turn, pool, noprog, ply, extra: fields.get(5).map(|s| s.to_string()) })
    }

    /// Checks the public fields (9.2's validity rules) and builds the position, ignoring
    /// [`Setup::extra`].
    pub fn validate(&self, options: Options) -> Result<Position, FenError> {
        let mut pos = Position::empty(options);
        let mut face_down = 0u32;
        let mut up_counts = [0u32; 14];
        for (i, cell) in self.board.iter().enumerate() {
            match *cell {
                Cell::Empty => {}
                Cell::FaceDown => {
                    face_down += 1;
                    pos.put_down(i as u8);
                }
                Cell::FaceUp(p) => {
                    up_counts[p.index()] += 1;
                    pos.put_up(i as u8, p);
                }
            }
        }
        let pool_total: u32 = self.pool.iter().map(|&n| n as u32).sum();
        if pool_total != face_down {
            return Err(FenError::PoolMismatch { pool: pool_total, face_down });
        }
        for p in Piece::ALL {
            let count = up_counts[p.index()] + self.pool[p.index()] as u32;
            if count > FULL_SET[p.index()] as u32 {
                return Err(FenError::TooMany { piece: p.letter(), count, max: p.full_count() });
            }
        }
        pos.pool = self.pool;
        pos.noprog = self.noprog;
        pos.ply = self.ply;
        match self.turn {
            None => {
                if up_counts.iter().any(|&n| n > 0) {
                    return Err(FenError::FaceUpBeforeFirstFlip);
                }
                if self.ply != 0 || self.noprog != 0 {
                    return Err(FenError::PliesBeforeFirstFlip);
                }
                if face_down == 0 {
                    return Err(FenError::NothingToFlip);
                }
            }
            Some(t) => {
                // D-14: BFEN names the colour to move; the seat to move follows from the
                // ply parity (the first seat moves at even plies).
                let to_move = t;
                pos.seat = if self.ply.is_multiple_of(2) { Side::First } else { Side::Second };
                pos.first = Some(if pos.seat == Side::First { to_move } else { to_move.other() });
            }
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }
}

fn parse_board(field: &str) -> Result<[Cell; 32], FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 4 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board = [Cell::Empty; 32];
    for (i, text) in ranks.iter().enumerate() {
        let rank = 4 - i as u8;
        let mut file = 0usize;
        let mut last_digit = false;
        for ch in text.chars() {
            let cell_count = if let Some(d) = ch.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(FenError::BoardChar { rank, ch });
                }
                if last_digit {
                    return Err(FenError::AdjacentDigits { rank });
                }
                last_digit = true;
                d as usize
            } else {
                last_digit = false;
                let cell = if ch == 'X' {
                    Cell::FaceDown
                } else {
                    Cell::FaceUp(Piece::from_letter(ch).ok_or(FenError::BoardChar { rank, ch })?)
                };
                if file < 8 {
                    board[(rank as usize - 1) * 8 + file] = cell;
                }
                1
            };
            file += cell_count;
        }
        if file != 8 {
            return Err(FenError::RankWidth { rank, squares: file });
        }
    }
    Ok(board)
}

fn parse_pool(field: &str) -> Result<[u8; 14], FenError> {
    let mut pool = [0u8; 14];
    if field == "-" {
        return Ok(pool);
    }
    let bytes = field.as_bytes();
    let mut i = 0;
    let mut last: Option<usize> = None;
    while i < bytes.len() {
        let ch = bytes[i] as char;
        let piece = Piece::from_letter(ch)
            .ok_or_else(|| FenError::Pool(format!("`{ch}` is not a piece letter")))?;
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let digits = &field[start..i];
        if digits.is_empty() {
            return Err(FenError::Pool(format!("`{ch}` has no count")));
        }
        let n: u8 = match digits.parse() {
            Ok(n) if n > 0 && !digits.starts_with('0') => n,
            _ => return Err(FenError::Pool(format!("`{ch}{digits}`: counts are 1 or more"))),
        };
        if last.is_some_and(|l| l >= piece.index()) {
            return Err(FenError::Pool(format!(
                "`{ch}` out of order (the order is KABRNCPkabrncp, each once)"
            )));
        }
        last = Some(piece.index());
        pool[piece.index()] = n;
    }
    Ok(pool)
}

fn counter(text: &str, field: &'static str) -> Result<u32, FenError> {
    let ok = !text.is_empty()
        && text.len() <= 9
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    match text.parse::<u32>() {
        Ok(n) if ok => Ok(n),
        _ => Err(FenError::Counter { field, text: text.to_string() }),
    }
}

/// The pool field: letter+count pairs in pool order, or `-`.
pub(crate) fn pool_field(pool: &[u8; 14]) -> String {
    let s: String = Piece::ALL
        .iter()
        .filter(|p| pool[p.index()] > 0)
        .map(|p| format!("{}{}", p.letter(), pool[p.index()]))
        .collect();
    if s.is_empty() { "-".to_string() } else { s }
}

/// The board field of BFEN.
pub(crate) fn board_field(pos: &Position) -> String {
    let mut s = String::with_capacity(40);
    for rank in (0..4u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            let sq = Square::from_coords(file, rank).unwrap_or(Square::ALL[0]);
            let ch = match pos.cell(sq) {
                Cell::Empty => {
                    empty += 1;
                    continue;
                }
                Cell::FaceDown => 'X',
                Cell::FaceUp(p) => p.letter(),
            };
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            s.push(ch);
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// The face-down squares in the order of the hidden field: rank 4 `a`–`h` down to rank 1.
pub(crate) fn hidden_order(down: u32) -> impl Iterator<Item = usize> {
    (0..4usize)
        .rev()
        .flat_map(move |r| (0..8).map(move |f| r * 8 + f))
        .filter(move |&sq| down >> sq & 1 == 1)
}

impl Position {
    /// Reads a public BFEN (9.2) with the default options. A sixth field is accepted only as
    /// a pending flip `d2?` (a chance node, as [`Position::fen`] writes it); hidden identities
    /// are rejected with [`FenError::HiddenInPublic`].
    ///
    /// ```
    /// use cannonade_banqi::Position;
    /// let p = Position::from_fen("7P/3k4/2nKp3/3c4 r - 10 57").unwrap();
    /// assert_eq!(p.fen(), "7P/3k4/2nKp3/3c4 r - 10 57");
    /// assert!(Position::from_fen("8/8/8/8 r - 0 0 K").is_err());
    /// ```
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        Position::from_fen_with(text, Options::STANDARD)
    }

    /// [`Position::from_fen`] under the given options.
    pub fn from_fen_with(text: &str, options: Options) -> Result<Position, FenError> {
        let setup = Setup::parse(text)?;
        let mut pos = setup.validate(options)?;
        if let Some(extra) = &setup.extra {
            let Some(sq) = extra.strip_suffix('?') else {
                return Err(FenError::HiddenInPublic);
            };
            match Square::parse(sq) {
                Some(sq) if pos.down & sq.bit() != 0 => {
                    pos.pending = Some(sq.index() as u8);
                    pos.hash = pos.compute_hash();
                }
                _ => return Err(FenError::PendingFlip(extra.clone())),
            }
        }
        Ok(pos)
    }

    /// The public BFEN. At a chance node a sixth field names the flip awaiting its outcome
    /// (`d2?`, a project extension); the other fields are those before the flip.
    pub fn fen(&self) -> String {
        let mut s = self.fen_fields();
        if let Some(sq) = self.pending {
            s.push_str(&format!(" {}?", Square::ALL[sq as usize & 31]));
        }
        s
    }

    /// The five public fields.
    pub(crate) fn fen_fields(&self) -> String {
        let turn = self.turn().map_or('-', |c| c.letter());
        format!(
            "{} {} {} {} {}",
            board_field(self),
            turn,
            pool_field(&self.pool),
            self.noprog,
            self.ply
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - K1A2B2R2N2C2P5k1a2b2r2n2c2p5 0 0";

    #[test]
    fn start_position_string() {
        assert_eq!(Position::startpos().fen(), START);
        assert_eq!(Position::from_fen(START).map(|p| p.fen()), Ok(START.to_string()));
    }

    #[test]
    fn strict_validation_names_the_problem() {
        let bad = |s: &str| Position::from_fen(s).err();
        assert_eq!(bad("8/8/8 r - 0 0"), Some(FenError::RankCount(3)));
        assert_eq!(bad("9/8/8/8 r - 0 0"), Some(FenError::BoardChar { rank: 4, ch: '9' }));
        assert_eq!(bad("7/8/8/8 r - 0 0"), Some(FenError::RankWidth { rank: 4, squares: 7 }));
        assert_eq!(bad("44/8/8/8 r - 0 0"), Some(FenError::AdjacentDigits { rank: 4 }));
        assert_eq!(bad("Q7/8/8/8 r - 0 0"), Some(FenError::BoardChar { rank: 4, ch: 'Q' }));
        assert_eq!(bad("8/8/8/8 w - 0 0"), Some(FenError::Turn("w".into())));
        assert_eq!(bad("X7/8/8/8 r - 0 0"), Some(FenError::PoolMismatch { pool: 0, face_down: 1 }));
        assert!(matches!(bad("XX6/8/8/8 r K2 0 0"), Some(FenError::TooMany { piece: 'K', .. })));
        assert!(matches!(bad("X7/8/8/8 r P0 0 0"), Some(FenError::Pool(_))));
        assert!(matches!(bad("XX6/8/8/8 r kK 0 0"), Some(FenError::Pool(_))));
        assert!(matches!(bad("XX6/8/8/8 r k1K1 0 0"), Some(FenError::Pool(_))));
        assert!(matches!(bad("8/8/8/8 r - x 0"), Some(FenError::Counter { field: "noprog", .. })));
        assert!(matches!(bad("8/8/8/8 r - 0 -1"), Some(FenError::Counter { field: "ply", .. })));
        assert!(matches!(bad("8/8/8/8 r - 01 0"), Some(FenError::Counter { .. })));
        assert_eq!(bad("K7/8/8/8 - - 0 0"), Some(FenError::FaceUpBeforeFirstFlip));
        assert_eq!(bad("X7/8/8/8 - K1 0 2"), Some(FenError::PliesBeforeFirstFlip));
        assert_eq!(bad("8/8/8/8 - - 0 0"), Some(FenError::NothingToFlip));
        assert_eq!(bad("X7/8/8/8 r K1 0 0 K"), Some(FenError::HiddenInPublic));
        assert!(matches!(bad("X7/8/8/8 r K1 0 0 b1?"), Some(FenError::PendingFlip(_))));
        assert!(matches!(bad("8/8/8/8 r - 0"), Some(FenError::FieldCount { found: 4, .. })));
        assert!(Position::from_fen("X7/8/8/8 r K1 0 0 a4?").is_ok());
    }

    #[test]
    fn aliases_are_read_and_canonical_letters_written() {
        let p = Position::from_fen("Ee6/8/8/Hh6 r - 0 0").map(|p| p.fen());
        assert_eq!(p, Ok("Bb6/8/8/Nn6 r - 0 0".to_string()));
    }
}
