//! How a Commander Chess position feeds a network: the 11 kinds of own and enemy pieces on
//! the 132 points, a piece in a stack as much as one alone, and one more input for a point
//! whose unit holds a hero; each side counts ranks from its own back rank. The board has
//! no mirror images (the sea runs along files a and b), so no view is mirrored.

use super::{Delta, Features, NetGame};
use cannonade_commander::board::NPOINTS;
use cannonade_commander::{Kind, Move, Position};

/// Kind indexes per owner: the 11 kinds (their discriminants, the Commander 0) and
/// [`HERO`].
const KINDS: usize = 12;

/// The kind index of "a heroic piece stands in this unit" (the Commander's own heroism,
/// which only marks the Commander, is left out: its kind says as much).
pub(super) const HERO: usize = 11;

/// Inputs of the Commander network per side: own and enemy pieces, 12 kind indexes, 132
/// points.
pub const COMMANDER_INPUTS: usize = 2 * KINDS * NPOINTS;

/// A unit as the network sees it: owner, kinds and whether it holds a hero.
fn unit(pos: &Position, p: u8) -> Option<(usize, u16, bool)> {
    pos.unit_at(p).map(|(c, kinds, heroes)| (c, kinds, heroes & !Kind::Commander.bit() != 0))
}

/// Calls `f(kind index)` for each kind of `kinds` and, when `hero`, for [`HERO`].
fn each_input(kinds: u16, hero: bool, mut f: impl FnMut(usize)) {
    let mut k = kinds;
    while k != 0 {
        f(k.trailing_zeros() as usize);
        k &= k - 1;
    }
    if hero {
        f(HERO);
    }
}

impl Features for Position {
    const INPUTS: usize = COMMANDER_INPUTS;
    const GAME: NetGame = NetGame::Commander;
    const KINDS: usize = KINDS;

    #[inline]
    fn feature(side: usize, _mirror: bool, owner: usize, kind: usize, sq: u8) -> usize {
        let (file, rank) = (sq as usize % 11, sq as usize / 11);
        let rank = if side == 0 { rank } else { 11 - rank.min(11) };
        let enemy = (owner != side) as usize;
        (enemy * KINDS + kind) * NPOINTS + rank * 11 + file
    }

    /// Never: the sea makes the two wings different.
    #[inline]
    fn mirrors(_royal: u8) -> bool {
        false
    }

    fn mirror_square(sq: u8) -> u8 {
        sq
    }

    #[inline]
    fn royal(&self, side: usize) -> u8 {
        self.commander(side).unwrap_or(0)
    }

    fn for_each_piece(&self, mut f: impl FnMut(usize, usize, u8)) {
        for c in 0..2 {
            for p in self.occupied(c) {
                if let Some((owner, kinds, hero)) = unit(self, p) {
                    each_input(kinds, hero, |k| f(owner, k, p));
                }
            }
        }
    }

    /// The board before and after, point by point: a turn moves a unit along several
    /// steps, takes stacks, drops or loads pieces, and can make heroes of units it did not
    /// move (any that now check the enemy Commander), so the move alone does not say which
    /// points changed.
    fn delta(&self, child: &Position, _mv: Move) -> Delta {
        let mut d = Delta::default();
        for p in 0..NPOINTS as u8 {
            let (before, after) = (unit(self, p), unit(child, p));
            if before == after {
                continue;
            }
            match (before, after) {
                (Some((a, ka, ha)), Some((b, kb, hb))) if a == b => {
                    let (a8, p8) = (a as u8, p);
                    each_input(ka & !kb, ha && !hb, |k| d.off((a8, k as u8, p8)));
                    each_input(kb & !ka, hb && !ha, |k| d.on((a8, k as u8, p8)));
                }
                _ => {
                    if let Some((a, ka, ha)) = before {
                        each_input(ka, ha, |k| d.off((a as u8, k as u8, p)));
                    }
                    if let Some((b, kb, hb)) = after {
                        each_input(kb, hb, |k| d.on((b as u8, k as u8, p)));
                    }
                }
            }
        }
        d
    }
}
