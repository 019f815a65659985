//! Whether a headquarter stands attacked: by a move, a bomber flight or a shot (D-13).

use crate::board::{BOMBER, Board, CAVALRY, GUN, HQ, MGUN, SOLDIER, TANK};
use crate::tables::{
    CAVALRY as LEAPS, FORWARD5, KING, LINES, ORTHO, RAY, SOLDIER_ATTACKERS, bit, distance, nearest,
};

/// Whether side `by` (0 Red, 1 White) could capture or shoot a headquarter on `k`. Only used
/// for headquarters, which no immunity protects.
#[inline]
pub(crate) fn hq_attacked(b: &Board, k: u8, by: usize) -> bool {
    let ks = k as usize;
    let mine = b.side[by];
    if (LEAPS[ks] & b.kind[CAVALRY]
        | KING[ks] & b.kind[HQ]
        | SOLDIER_ATTACKERS[by][ks] & b.kind[SOLDIER])
        & mine
        != 0
    {
        return true;
    }
    let liners = mine & (b.kind[BOMBER] | b.kind[TANK] | b.kind[GUN] | b.kind[MGUN]);
    if LINES[ks] & liners == 0 {
        return false;
    }
    let occ = b.occ();
    let bombers = mine & b.kind[BOMBER];
    // Seen from the target, a gun of `by` stands in the mirror image of its shooting
    // directions, which is the other side's shooting set.
    let gun_dirs = FORWARD5[by ^ 1];
    for (d, &ray) in RAY[ks].iter().enumerate() {
        if ray & liners == 0 {
            continue;
        }
        let b1 = nearest(ray & occ, d);
        let bb1 = bit(b1);
        if bb1 & mine == 0 {
            // The defender's own piece shields the headquarter from everything on this line.
            continue;
        }
        if bb1 & bombers != 0 {
            return true;
        }
        let dist = distance(k, b1);
        if (bb1 & b.kind[GUN] != 0 && dist <= 5 && gun_dirs >> d & 1 != 0)
            || (bb1 & b.kind[MGUN] != 0 && dist <= 3)
            || (bb1 & b.kind[TANK] != 0 && dist <= 2 && ORTHO >> d & 1 != 0)
        {
            return true;
        }
        // A bomber may fly over exactly this one friendly piece.
        let rest = RAY[b1 as usize][d];
        if rest & bombers != 0 && bit(nearest(rest & occ, d)) & bombers != 0 {
            return true;
        }
    }
    false
}
