//! The placement as bitboards: one `u128` per side and per kind over the dense squares.

use crate::piece::{code_kind, code_side};
use crate::tables::bit;

/// Kind indices into [`Board::kind`].
pub(crate) const HQ: usize = 0;
pub(crate) const BOMBER: usize = 1;
pub(crate) const TANK: usize = 2;
pub(crate) const GUN: usize = 3;
pub(crate) const MGUN: usize = 4;
pub(crate) const CAVALRY: usize = 5;
pub(crate) const SOLDIER: usize = 6;

/// Square sets by side and by kind. Small and `Copy`, so legality tests play a move on a
/// copy of it without touching the position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Board {
    /// Pieces of Red (0) and White (1).
    pub(crate) side: [u128; 2],
    /// Pieces of each kind, both sides.
    pub(crate) kind: [u128; 7],
}

impl Board {
    /// Every occupied square.
    #[inline(always)]
    pub(crate) const fn occ(&self) -> u128 {
        self.side[0] | self.side[1]
    }

    /// Pieces of one side and kind.
    #[inline(always)]
    pub(crate) const fn pieces(&self, side: usize, kind: usize) -> u128 {
        self.side[side] & self.kind[kind]
    }

    /// Adds or removes the piece with mailbox code `code` on `sq`.
    #[inline(always)]
    pub(crate) fn toggle(&mut self, sq: u8, code: u8) {
        let b = bit(sq);
        self.side[code_side(code)] ^= b;
        self.kind[code_kind(code)] ^= b;
    }
}
