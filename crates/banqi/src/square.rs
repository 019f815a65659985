//! The 8 × 4 board: square names and the precomputed neighbour and ray tables.

use cannonade_geom::Grid;
use std::fmt;

/// The Banqi board: 8 files `a`–`h`, 4 ranks `1`–`4`, index `(rank − 1) × 8 + file`.
pub const BOARD: Grid = Grid::new(8, 4);

/// A square of the board, `a1` = 0 … `h4` = 31.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Every square in index order.
    pub const ALL: [Square; 32] = {
        let mut out = [Square(0); 32];
        let mut i = 0;
        while i < 32 {
            out[i] = Square(i as u8);
            i += 1;
        }
        out
    };

    /// The square with this index, if it is below 32.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 32 { Some(Square(index)) } else { None }
    }

    /// The square at `file` (0 = `a`) and `rank` (0 = rank 1), if on the board.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 4 { Some(Square(rank * 8 + file)) } else { None }
    }

    /// Index 0–31.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0–7 (`a`–`h`).
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// Rank 0–3 (rank `1`–`4`).
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The squares of a mask (bit `i` for the square of index `i`), lowest first.
    #[inline]
    pub fn in_mask(mask: u32) -> impl Iterator<Item = Square> {
        squares(mask).map(Square)
    }

    /// The squares sharing an edge with this one, as a mask.
    #[inline]
    pub const fn neighbours(self) -> u32 {
        ADJACENT[self.0 as usize]
    }

    /// The one-bit mask of this square.
    #[inline]
    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    /// Parses a whole square name such as `d2`.
    pub fn parse(text: &str) -> Option<Square> {
        BOARD.parse_name(text, 1).map(Square)
    }

    /// Parses a square name at the start of `bytes`; returns it and the bytes used.
    pub(crate) fn parse_prefix(bytes: &[u8]) -> Option<(Square, usize)> {
        BOARD.parse_prefix(bytes, 1).map(|(s, n)| (Square(s), n))
    }

    pub(crate) const fn at(index: u8) -> Square {
        Square(index & 31)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// The four directions, in the order used to encode chain captures: east, north, west, south.
pub(crate) const DIRS: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Whether direction `d` runs towards higher square indices (east, north).
#[inline]
pub(crate) const fn ascending(d: usize) -> bool {
    d < 2
}

const fn build_rays() -> [[u32; 32]; 4] {
    let mut rays = [[0u32; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 32 {
            let mut cur = sq as u8;
            let mut mask = 0u32;
            while let Some(next) = BOARD.offset(cur, DIRS[d].0, DIRS[d].1) {
                mask |= 1 << next;
                cur = next;
            }
            rays[d][sq] = mask;
            sq += 1;
        }
        d += 1;
    }
    rays
}

/// `RAYS[d][sq]`: every square beyond `sq` in direction `d`, up to the edge.
pub(crate) const RAYS: [[u32; 32]; 4] = build_rays();

const fn build_adjacent() -> [u32; 32] {
    let mut adj = [0u32; 32];
    let mut sq = 0;
    while sq < 32 {
        let mut d = 0;
        while d < 4 {
            if let Some(n) = BOARD.offset(sq as u8, DIRS[d].0, DIRS[d].1) {
                adj[sq] |= 1 << n;
            }
            d += 1;
        }
        sq += 1;
    }
    adj
}

/// `ADJACENT[sq]`: the squares sharing an edge with `sq`.
pub(crate) const ADJACENT: [u32; 32] = build_adjacent();

/// The nearest square of `set` (a subset of a ray in direction `d`) to the ray's origin.
#[inline]
pub(crate) const fn nearest(d: usize, set: u32) -> u8 {
    if ascending(d) { set.trailing_zeros() as u8 } else { 31 - set.leading_zeros() as u8 }
}

/// The square a cannon on `from` jumps to in direction `d` over exactly one occupied square
/// of `occ`: the first occupied square beyond the screen, if any.
#[inline]
pub(crate) const fn jump_target(from: u8, d: usize, occ: u32) -> Option<u8> {
    let near = RAYS[d][from as usize] & occ;
    if near == 0 {
        return None;
    }
    let screen = nearest(d, near);
    let far = RAYS[d][screen as usize] & occ;
    if far == 0 { None } else { Some(nearest(d, far)) }
}

/// Iterates the set bits of a square mask, lowest first.
#[inline]
pub(crate) fn squares(mut mask: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let sq = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(sq)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_indices_agree_with_section_1() {
        assert_eq!(Square::parse("a1").map(Square::index), Some(0));
        assert_eq!(Square::parse("h1").map(Square::index), Some(7));
        assert_eq!(Square::parse("a2").map(Square::index), Some(8));
        assert_eq!(Square::parse("h4").map(Square::index), Some(31));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a5"), None);
        assert_eq!(Square::parse("a0"), None);
        for sq in Square::ALL {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
    }

    #[test]
    fn corner_and_middle_neighbours() {
        assert_eq!(ADJACENT[0], (1 << 1) | (1 << 8));
        assert_eq!(ADJACENT[9].count_ones(), 4);
        assert_eq!(RAYS[0][0].count_ones(), 7);
        assert_eq!(RAYS[1][0].count_ones(), 3);
        assert_eq!(jump_target(0, 0, (1 << 2) | (1 << 4) | (1 << 6)), Some(4));
        assert_eq!(jump_target(0, 0, 1 << 2), None);
    }
}
