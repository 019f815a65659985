//! Points of the board and their names.

use cannonade_geom::Grid;

/// The board: 9 files × 10 ranks, index `rank * 9 + file`.
pub const BOARD: Grid = Grid::new(9, 10);

/// A point of the board, 0 (`a0`) to 89 (`i9`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square of an index, if `< 90`.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 90 { Some(Square(index)) } else { None }
    }

    /// The square of an index already known to be `< 90`.
    #[inline]
    pub(crate) const fn from_index(index: u8) -> Square {
        debug_assert!(index < 90);
        Square(index)
    }

    /// The square at `file` (0..9) and `rank` (0..10).
    pub const fn at(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 { Some(Square(rank * 9 + file)) } else { None }
    }

    /// Index 0..90.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// File 0 (`a`) .. 8 (`i`).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// Rank 0 .. 9 (Red's back rank is 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The single-bit set of this square.
    #[inline]
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// Parses `e0`-style names (0-based ranks, case-insensitive letter).
    pub fn parse(text: &str) -> Option<Square> {
        BOARD.parse_name(text, 0).map(Square)
    }

    /// The name with ranks counted from `base` (0 for ours, 1 for Fairy-Stockfish's UCI).
    pub fn name_from(self, base: u8) -> String {
        BOARD.name(self.0, base)
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}
