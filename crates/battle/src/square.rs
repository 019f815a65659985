//! Squares of the cross board and their names (`c1`, `a3`, `l10`, `g12`).

use crate::tables::{FILE, NO_SQ, RANK, SQUARES, at};
use cannonade_geom::Grid;

/// The full 12×12 grid the names are read on; 16 of its squares do not exist.
const GRID: Grid = Grid::new(12, 12);

/// One of the 128 existing squares: files a–l, ranks 1–12, the four 2×2 corners missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at 0-based `file` (a = 0) and `rank` (rank 1 = 0), if it exists.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        let i = at(file as i32, rank as i32);
        if i == NO_SQ { None } else { Some(Square(i)) }
    }

    /// The square with dense index `index` (0..128), numbered rank by rank from c1.
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES { Some(Square(index)) } else { None }
    }

    /// The square of a dense index known to be valid (masked, so never out of range).
    #[inline]
    pub(crate) const fn from_dense(index: u8) -> Square {
        Square(index & 127)
    }

    /// The dense index 0..128.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// 0-based file (a = 0 … l = 11).
    #[inline]
    pub const fn file(self) -> u8 {
        FILE[self.0 as usize]
    }

    /// 0-based rank (rank 1 = 0 … rank 12 = 11).
    #[inline]
    pub const fn rank(self) -> u8 {
        RANK[self.0 as usize]
    }

    /// Whether the square is white (the soldier's two-square move starts only there).
    pub const fn is_white(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }

    /// Parses a whole square name such as `c1` or `l10`. `Ok(None)` is a well-formed name of
    /// a missing corner square (`a1`); `Err(())` is not a name at all.
    pub(crate) fn parse_any(text: &str) -> Result<Option<Square>, ()> {
        match Square::parse_prefix(text.as_bytes()) {
            Some((sq, used)) if used == text.len() => Ok(sq),
            _ => Err(()),
        }
    }

    /// Reads a square name at the start of `bytes`: the square (`None` for a missing one)
    /// and the number of bytes used.
    pub(crate) fn parse_prefix(bytes: &[u8]) -> Option<(Option<Square>, usize)> {
        // Only lower-case names are canonical; the grid parser would accept upper case.
        if !bytes.first()?.is_ascii_lowercase() {
            return None;
        }
        let (g, used) = GRID.parse_prefix(bytes, 1)?;
        Some((Square::new(GRID.file(g), GRID.rank(g)), used))
    }

    /// Parses an existing square's name.
    pub fn parse(text: &str) -> Option<Square> {
        Square::parse_any(text).ok().flatten()
    }

    /// Every existing square, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("a1"), None);
        assert_eq!(Square::parse_any("a1"), Ok(None));
        assert_eq!(Square::parse_any("m1"), Err(()));
        assert_eq!(Square::parse("l10").map(|s| (s.file(), s.rank())), Some((11, 9)));
        assert!(Square::parse("C1").is_none());
    }

    #[test]
    fn square_colours_follow_d3() {
        let black = ["c1", "a3", "j12", "l10"];
        for name in black {
            assert!(!Square::parse(name).is_some_and(|s| s.is_white()), "{name}");
        }
        assert!(Square::parse("d1").is_some_and(|s| s.is_white()));
    }
}
