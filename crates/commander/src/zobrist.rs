//! Zobrist keys: one per (colour, kind, heroic, point) and one for Blue to move. A stack's
//! key is the XOR of its pieces' keys, which is faithful because a point holds at most one
//! piece of each kind.

use crate::board::NPOINTS;
use crate::piece::{Unit, colour, heroes, kinds};
use cannonade_geom::bits::Bits64;
use cannonade_geom::random::keys;

const PIECE_KEYS: usize = 2 * 11 * 2 * NPOINTS;
static KEYS: [u64; PIECE_KEYS + 1] = keys(0xC07_u64 << 40 ^ 0x7E11_A0C3);

/// The key of Blue to move.
#[inline]
pub fn side_key() -> u64 {
    KEYS[PIECE_KEYS]
}

/// The key of unit `u` standing on `p` (0 for an empty point).
#[inline]
pub fn unit_key(u: Unit, p: u8) -> u64 {
    if u == 0 {
        return 0;
    }
    let c = colour(u);
    let h = heroes(u);
    let mut key = 0;
    for k in Bits64(kinds(u) as u64) {
        let hero = (h >> k) as usize & 1;
        key ^= KEYS[((c * 11 + k as usize) * 2 + hero) * NPOINTS + p as usize];
    }
    key
}
