//! Zobrist keys for placement and side to move.

const KEYS: [u64; 14 * 90 + 1] = cannonade_geom::random::keys(0x5851_F42D_4C95_7F2D);

/// The key XORed in when Black is to move.
pub const SIDE_KEY: u64 = KEYS[14 * 90];

/// The key of piece index `p` (0..14) on square `sq`.
#[inline]
pub fn piece_key(p: usize, sq: u8) -> u64 {
    KEYS[p * 90 + sq as usize]
}
