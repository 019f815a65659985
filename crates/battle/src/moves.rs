//! A checked move: a step, a capture, a bomber flight, a shot, or a last-rank move with its
//! removal choice.

use crate::Square;
use crate::tables::NO_SQ;

/// Flag: the moving piece captures the enemy piece on the destination.
pub(crate) const CAPTURE: u8 = 1;
/// Flag: a bomber passes over one friendly piece.
pub(crate) const JUMP: u8 = 2;
/// Flag: a gun or machine gun shoots the piece on `to` and stays put.
pub(crate) const SHOT: u8 = 4;
/// Flag: a soldier ends on its last rank and leaves the board with the chosen enemy piece.
pub(crate) const LAST_RANK: u8 = 8;

/// A legal move of a [`Position`](crate::Position); obtain one from
/// [`Position::parse_move`](crate::Position::parse_move) or the move generator. Four bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) flags: u8,
    /// The square of the enemy piece removed by a last-rank move, or `NO_SQ`.
    pub(crate) removal: u8,
}

impl Move {
    #[inline(always)]
    pub(crate) const fn new(from: u8, to: u8, flags: u8, removal: u8) -> Move {
        Move { from, to, flags, removal }
    }

    /// The square of the moving (or shooting) piece.
    pub const fn from(self) -> Square {
        sq(self.from)
    }

    /// The destination, or for a shot the square of the piece shot.
    pub const fn to(self) -> Square {
        sq(self.to)
    }

    /// Whether the piece captures by moving onto `to` (written `x`).
    pub const fn is_capture(self) -> bool {
        self.flags & CAPTURE != 0
    }

    /// Whether a bomber passes over a friendly piece (written `^`).
    pub const fn is_jump(self) -> bool {
        self.flags & JUMP != 0
    }

    /// Whether this is a shot (written `*`): the shooter stays on `from`.
    pub const fn is_shot(self) -> bool {
        self.flags & SHOT != 0
    }

    /// Whether a soldier ends on its last rank (written with an `@` suffix).
    pub const fn is_last_rank(self) -> bool {
        self.flags & LAST_RANK != 0
    }

    /// The enemy piece chosen for removal by a last-rank move (`None` for `@-` and for every
    /// other move).
    pub const fn removal(self) -> Option<Square> {
        if self.removal == NO_SQ { None } else { Some(sq(self.removal)) }
    }

    /// Whether some piece leaves the board (resets the 150-ply count).
    pub const fn removes_piece(self) -> bool {
        self.flags & (CAPTURE | SHOT | LAST_RANK) != 0
    }
}

const fn sq(i: u8) -> Square {
    Square::from_dense(i)
}
