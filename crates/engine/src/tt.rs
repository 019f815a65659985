//! The transposition table: one entry per bucket, keyed by the game's 64-bit hash, replaced
//! by depth within a search and always across searches.
//!
//! The table is shared by the threads of a search (Lazy SMP) without locks and without
//! `unsafe`: an entry is two `AtomicU64`s, the data packed into one word and the key stored
//! XOR the data in the other. A probe that reads halves of two different stores sees a key
//! that matches nothing and misses; it never returns another position's data. The move is
//! kept as the low 29 bits of [`Evaluate::move_code`], which the search matches against the
//! node's legal moves, so a stored move is only ever used after it was found among them.

use crate::Evaluate;
use crate::search::MATE_BOUND;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The exact value.
    Exact,
    /// A lower bound (the search failed high).
    Lower,
    /// An upper bound (the search failed low).
    Upper,
}

impl Bound {
    /// What the value `best` of a search with the window (`alpha`, `beta`) is: a lower bound
    /// at or above `beta`, an upper bound at or below `alpha`, else exact.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The [`Evaluate::move_code`] of the best move, if the search found one.
    pub mv: Option<u32>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
}

impl Entry {
    /// Whether the stored score settles a search with the window (`alpha`, `beta`): exact,
    /// or a bound on the side of the window that the search would fail to.
    pub fn settles(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

// The data word: move code (bits 0..29), score (i16, 32..48), depth (i8, 48..56), bound (0 for
// an empty slot, 56..58), move present (58), generation (59..64, mod 32).
const CODE_BITS: u32 = 29;
const CODE_MASK: u64 = (1 << CODE_BITS) - 1;
const HAS_MOVE: u64 = 1 << 58;
const GENERATION_SHIFT: u32 = 59;
const GENERATION_MASK: u8 = 0x1F;

fn pack(mv: Option<u32>, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let code = mv.map_or(0, |c| c as u64 & CODE_MASK | HAS_MOVE);
    let bound = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    // Scores stay within ±(MATE + MAX_PLY) and depths within the ply limit: both fit.
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let depth = depth.clamp(-1, i8::MAX as i32) as i8 as u8 as u64;
    code | score << 32
        | depth << 48
        | bound << 56
        | ((generation & GENERATION_MASK) as u64) << GENERATION_SHIFT
}

/// The entry of a data word, `None` for an empty slot.
fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Entry {
        mv: (data & HAS_MOVE != 0).then_some((data & CODE_MASK) as u32),
        score: (data >> 32) as u16 as i16 as i32,
        depth: (data >> 48) as u8 as i8 as i16,
        bound,
    })
}

fn generation_of(data: u64) -> u8 {
    (data >> GENERATION_SHIFT) as u8 & GENERATION_MASK
}

/// One slot: the key XOR the data, and the data.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A fixed-size table of entries, shared by reference between the threads of a search.
/// Typed by the game's move only so that a table is never reused across games.
#[derive(Debug)]
pub(crate) struct Table<M> {
    slots: Vec<Slot>,
    generation: AtomicU8,
    game: PhantomData<fn() -> M>,
}

impl<M> Table<M> {
    /// A table of about `megabytes` MiB.
    pub fn new(megabytes: usize) -> Self {
        let size = std::mem::size_of::<Slot>();
        let n = (megabytes.max(1) << 20) / size;
        let slots = std::iter::repeat_with(Slot::default).take(n.next_power_of_two() / 2).collect();
        Table { slots, generation: AtomicU8::new(0), game: PhantomData }
    }

    fn slot(&self, key: u64) -> &Slot {
        // Multiply-shift spreads the high bits over the index range.
        &self.slots[((key as u128 * self.slots.len() as u128) >> 64) as usize]
    }

    /// Starts a new search: older entries become replaceable.
    pub fn new_search(&mut self) {
        let g = self.generation.get_mut();
        *g = g.wrapping_add(1) & GENERATION_MASK;
    }

    /// The entry for `key`, with a mate score made relative to `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let slot = self.slot(key);
        // Relaxed is enough: the XOR check, not the memory order, rejects a torn entry.
        let data = slot.data.load(Ordering::Relaxed);
        if slot.check.load(Ordering::Relaxed) ^ data != key {
            return None;
        }
        unpack(data).map(|e| Entry { score: from_tt(e.score, ply), ..e })
    }

    /// Stores a result, keeping a deeper entry of the current search for another key.
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Option<u32>,
        score: i32,
        depth: i32,
        bound: Bound,
    ) {
        let slot = self.slot(key);
        let generation = self.generation.load(Ordering::Relaxed);
        let old_data = slot.data.load(Ordering::Relaxed);
        let old_key = slot.check.load(Ordering::Relaxed) ^ old_data;
        let old = unpack(old_data);
        if let Some(old) = old
            && old_key != key
            && generation_of(old_data) == generation
            && old.depth as i32 > depth + 2
        {
            return;
        }
        let mv = mv.or_else(|| old.filter(|_| old_key == key).and_then(|e| e.mv));
        let data = pack(mv, to_tt(score, ply), depth, bound, generation);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

/// The [`Evaluate::move_code`] of `mv` as the table keeps it.
pub(crate) fn code<G: Evaluate>(mv: G::Move) -> u32 {
    G::move_code(mv) & CODE_MASK as u32
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let mut t: Table<u8> = Table::new(1);
        t.new_search();
        for (i, &(mv, score, depth, bound)) in [
            (Some(0), -30_050, -1, Bound::Upper),
            (None, 0, 0, Bound::Exact),
            (Some(CODE_MASK as u32), 30_050, 127, Bound::Lower),
            (Some(12_345), -7, 33, Bound::Exact),
        ]
        .iter()
        .enumerate()
        {
            let key = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1);
            assert!(t.probe(key, 0).is_none());
            t.store(key, 0, mv, score, depth, bound);
            let e = t.probe(key, 0).unwrap();
            assert_eq!((e.mv, e.score, e.depth as i32, e.bound), (mv, score, depth, bound));
            assert!(t.probe(key ^ 1, 0).is_none());
        }
    }

    /// A key of 0 does not match an empty slot.
    #[test]
    fn empty_slots_miss() {
        let t: Table<u8> = Table::new(1);
        assert!(t.probe(0, 0).is_none());
    }
}
