//! The checked move: a flip, a step or a capture (a chain of captures under `chain_capture`).

use crate::square::Square;

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// Turn a face-down piece face up.
    Flip,
    /// Move a face-up piece to an adjacent empty square.
    Step,
    /// Capture one face-up enemy piece, or a chain of them (option `chain_capture`).
    Capture,
}

/// A legal move of a Banqi position, 8 bytes.
///
/// A capture is stored as its from-square and the direction of each hop (2 bits a hop, up to
/// 16 hops), because on a given board a direction fixes the target: the adjacent square, or
/// for a jumping cannon the first piece beyond the screen. `to` caches the final landing
/// square. The derived order is the canonical order of 9.4 for every move but chains (flips
/// by square; then by from-square, then to-square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    kind: MoveKind,
    from: u8,
    to: u8,
    hops: u8,
    dirs: u32,
}

impl Move {
    /// A flip of `sq`.
    pub(crate) const fn flip(sq: u8) -> Move {
        Move { kind: MoveKind::Flip, from: sq, to: sq, hops: 0, dirs: 0 }
    }

    /// A step from `from` to the adjacent empty `to`.
    pub(crate) const fn step(from: u8, to: u8) -> Move {
        Move { kind: MoveKind::Step, from, to, hops: 0, dirs: 0 }
    }

    /// A single capture in direction `dir` landing on `to`.
    pub(crate) const fn capture(from: u8, dir: usize, to: u8) -> Move {
        Move { kind: MoveKind::Capture, from, to, hops: 1, dirs: dir as u32 }
    }

    /// This capture extended by one more hop in direction `dir` landing on `to`.
    pub(crate) const fn then(self, dir: usize, to: u8) -> Move {
        Move {
            kind: MoveKind::Capture,
            from: self.from,
            to,
            hops: self.hops + 1,
            dirs: self.dirs | (dir as u32) << (2 * self.hops as u32),
        }
    }

    /// What the move does.
    pub const fn kind(self) -> MoveKind {
        self.kind
    }

    /// Whether the move is a flip.
    pub const fn is_flip(self) -> bool {
        matches!(self.kind, MoveKind::Flip)
    }

    /// Whether the move captures.
    pub const fn is_capture(self) -> bool {
        matches!(self.kind, MoveKind::Capture)
    }

    /// The square flipped, or the square the piece moves from.
    pub const fn from(self) -> Square {
        Square::at(self.from)
    }

    /// The final landing square (the flipped square for a flip).
    pub const fn to(self) -> Square {
        Square::at(self.to)
    }

    /// The number of captures (0 for flips and steps, more than 1 only for chains).
    pub const fn captures(self) -> u32 {
        self.hops as u32
    }

    /// The direction of hop `i` (0 = east, 1 = north, 2 = west, 3 = south).
    pub(crate) const fn dir(self, i: u32) -> usize {
        ((self.dirs >> (2 * i)) & 3) as usize
    }

    pub(crate) const fn origin(self) -> u8 {
        self.from
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_small_and_ordered_canonically() {
        assert_eq!(std::mem::size_of::<Move>(), 8);
        let mut v = [Move::step(9, 10), Move::capture(9, 1, 17), Move::flip(30), Move::flip(2)];
        v.sort();
        assert_eq!(v, [Move::flip(2), Move::flip(30), Move::step(9, 10), Move::capture(9, 1, 17)]);
        let chain = Move::capture(0, 1, 16).then(0, 18);
        assert_eq!(
            (chain.captures(), chain.dir(0), chain.dir(1), chain.to().index()),
            (2, 1, 0, 18)
        );
    }
}
