//! Attack detection: which points a side attacks, and whether a general is in check.

use crate::tables::{
    DIAGONAL_NEIGHBOURS, FILE_CANNON, FILE_ROOK, FILE_SPREAD, HORSE_ATTACKERS, RANK_CANNON,
    RANK_ROOK, SOLDIER_ATTACKERS,
};
use crate::{Colour, Kind, Position};

/// Reach of a chariot on `sq` and the cannon capture candidates from `sq`, given the
/// occupancy in rank-major (`occ`) and file-major (`occ_t`) order.
#[inline]
pub(crate) fn sliders(sq: u8, occ: u128, occ_t: u128) -> (u128, u128) {
    let (f, r) = ((sq % 9) as usize, (sq / 9) as usize);
    let rank_occ = ((occ >> (9 * r)) as usize) & 0x1FF;
    let file_occ = ((occ_t >> (10 * f)) as usize) & 0x3FF;
    let rook = ((RANK_ROOK[f][rank_occ] as u128) << (9 * r))
        | (FILE_SPREAD[FILE_ROOK[r][file_occ] as usize] << f);
    let cannon = ((RANK_CANNON[f][rank_occ] as u128) << (9 * r))
        | (FILE_SPREAD[FILE_CANNON[r][file_occ] as usize] << f);
    (rook, cannon)
}

/// Occupancy of the four orthogonal neighbours of `sq` as horse-leg bits (N, S, E, W).
#[inline]
pub(crate) fn leg_mask(occ: u128, sq: u8) -> usize {
    // Shifting up by 10 first lets negative offsets down to −10 be read without a branch.
    let x = ((occ << 10) >> sq) as u32;
    (((x >> 19) & 1) | ((x >> 1) & 1) << 1 | ((x >> 11) & 1) << 2 | ((x >> 9) & 1) << 3) as usize
}

/// Occupancy of the four diagonal neighbours of `sq` (NE, NW, SE, SW): horse legs of attacks
/// on `sq`, and elephant eyes.
#[inline]
pub(crate) fn diagonal_mask(occ: u128, sq: u8) -> usize {
    let x = ((occ << 10) >> sq) as u32;
    (((x >> 20) & 1) | ((x >> 18) & 1) << 1 | ((x >> 2) & 1) << 2 | (x & 1) << 3) as usize
}

impl Position {
    /// Whether `attacker`'s pieces in `theirs` (a subset of its pieces: captured ones removed)
    /// attack `sq` on a board with occupancy `occ`/`occ_t`. The general attacks along its file
    /// like a chariot, which is how the facing rule is enforced.
    #[inline]
    pub(crate) fn attacked_with(
        &self,
        sq: u8,
        attacker: Colour,
        occ: u128,
        occ_t: u128,
        theirs: u128,
    ) -> bool {
        let (rook, cannon) = sliders(sq, occ, occ_t);
        let k = &self.by_kind;
        rook & theirs & (k[Kind::Chariot.index()] | k[Kind::General.index()]) != 0
            || cannon & theirs & k[Kind::Cannon.index()] != 0
            || HORSE_ATTACKERS[sq as usize][diagonal_mask(occ, sq)]
                & theirs
                & k[Kind::Horse.index()]
                != 0
            || SOLDIER_ATTACKERS[attacker.index()][sq as usize] & theirs & k[Kind::Soldier.index()]
                != 0
    }

    /// Whether a colour's general is attacked (or faces the other general).
    pub fn general_attacked(&self, c: Colour) -> bool {
        let them = !c;
        self.attacked_with(
            self.generals[c.index()],
            them,
            self.occupied(),
            self.occ_t,
            self.by_colour[them.index()],
        )
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.general_attacked(self.side)
    }

    /// The points from which pieces of `by` could capture on `sq` right now, ignoring whether
    /// the capture would be legal (the general counts along its file).
    pub fn attackers_of(&self, sq: crate::Square, by: Colour) -> u128 {
        let s = sq.index();
        let occ = self.occupied();
        let theirs = self.by_colour[by.index()];
        let (rook, cannon) = sliders(s, occ, self.occ_t);
        let k = &self.by_kind;
        let mut set = rook & theirs & k[Kind::Chariot.index()]
            | cannon & theirs & k[Kind::Cannon.index()]
            | HORSE_ATTACKERS[s as usize][diagonal_mask(occ, s)] & theirs & k[Kind::Horse.index()]
            | SOLDIER_ATTACKERS[by.index()][s as usize] & theirs & k[Kind::Soldier.index()];
        let general = self.generals[by.index()];
        if crate::tables::GENERAL_MOVES[general as usize] & (1u128 << s) != 0 {
            set |= 1u128 << general;
        }
        let advisors = theirs & k[Kind::Advisor.index()];
        for a in cannonade_geom::bits::Bits128(advisors) {
            if crate::tables::ADVISOR_MOVES[a as usize] & (1u128 << s) != 0 {
                set |= 1u128 << a;
            }
        }
        for e in cannonade_geom::bits::Bits128(theirs & k[Kind::Elephant.index()]) {
            let eyes = diagonal_mask(occ, e);
            if crate::tables::ELEPHANT_MOVES[e as usize][eyes] & (1u128 << s) != 0 {
                set |= 1u128 << e;
            }
        }
        set
    }

    /// The points a chariot on `sq` could move to or capture on (up to and including the
    /// first piece in each direction, whatever its colour), on the current board.
    pub fn chariot_reach(&self, sq: crate::Square) -> u128 {
        sliders(sq.index(), self.occupied(), self.occ_t).0
    }

    /// The points a cannon on `sq` could capture on (the first piece beyond a screen in
    /// each direction), whatever stands there.
    pub fn cannon_targets(&self, sq: crate::Square) -> u128 {
        sliders(sq.index(), self.occupied(), self.occ_t).1
    }

    /// The points a horse on `sq` could move to or capture on (legs not blocked), whatever
    /// stands there.
    pub fn horse_reach(&self, sq: crate::Square) -> u128 {
        crate::tables::HORSE_MOVES[sq.index() as usize][leg_mask(self.occupied(), sq.index())]
    }

    /// The squares that diagonal neighbours of the general occupy; used by move generation.
    #[inline]
    pub(crate) fn general_diagonals(&self, c: Colour) -> u128 {
        DIAGONAL_NEIGHBOURS[self.generals[c.index()] as usize]
    }
}
