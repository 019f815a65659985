//! Zobrist keys, built at compile time.

use cannonade_geom::random::keys;

const CELL_KEYS: [u64; 32 * 16] = keys(0xB4_0001);
const POOL_KEYS: [u64; 14 * 8] = keys(0xB4_0002);
const MISC_KEYS: [u64; 3] = keys(0xB4_0003);
const PENDING_KEYS: [u64; 32] = keys(0xB4_0004);
const HIDDEN_KEYS: [u64; 32 * 16] = keys(0xB4_0005);

/// Key of a square's content: `code` 1 = face-down, 2.. = face-up piece (0 = empty = no key).
#[inline]
pub(crate) fn cell(sq: usize, code: u8) -> u64 {
    if code == 0 { 0 } else { CELL_KEYS[sq * 16 + (code as usize & 15)] }
}

/// Key of "`count` pieces of this kind are still face down" (a full set has at most 5).
#[inline]
pub(crate) fn pool(piece: usize, count: u8) -> u64 {
    POOL_KEYS[piece * 8 + (count as usize & 7)]
}

/// Key of "the second seat is to move".
pub(crate) fn second_to_move() -> u64 {
    MISC_KEYS[0]
}

/// Key of the first seat's colour (0 red, 1 black); none before the first flip.
pub(crate) fn first_colour(colour: usize) -> u64 {
    MISC_KEYS[1 + (colour & 1)]
}

/// Key of a pending flip of `sq`.
#[inline]
pub(crate) fn pending(sq: usize) -> u64 {
    PENDING_KEYS[sq & 31]
}

/// Key of the hidden identity `piece` under `sq` (omniscient positions only).
#[inline]
pub(crate) fn hidden(sq: usize, piece: usize) -> u64 {
    HIDDEN_KEYS[(sq & 31) * 16 + (piece & 15)]
}
