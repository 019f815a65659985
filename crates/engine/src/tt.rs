//! The transposition table: one entry per bucket, keyed by the game's 64-bit hash, replaced
//! by depth within a search and always across searches.

use crate::search::MATE_BOUND;

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

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    generation: u8,
}

/// A fixed-size table of entries.
#[derive(Debug)]
pub(crate) struct Table<M> {
    entries: Vec<Option<Entry<M>>>,
    generation: u8,
}

impl<M: Copy> Table<M> {
    /// A table of about `megabytes` MiB.
    pub fn new(megabytes: usize) -> Self {
        let size = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let n = (megabytes.max(1) << 20) / size;
        Table { entries: vec![None; n.next_power_of_two() / 2], generation: 0 }
    }

    fn slot(&self, key: u64) -> usize {
        // Multiply-shift spreads the high bits over the index range.
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// Starts a new search: older entries become replaceable.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The entry for `key`, with a mate score made relative to `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry<M>> {
        let e = self.entries[self.slot(key)]?;
        (e.key == key).then(|| Entry { score: from_tt(e.score, ply), ..e })
    }

    /// Stores a result, keeping a deeper entry of the current search for another key.
    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        mv: Option<M>,
        score: i32,
        depth: i32,
        bound: Bound,
    ) {
        let i = self.slot(key);
        let generation = self.generation;
        if let Some(old) = &self.entries[i]
            && old.key != key
            && old.generation == generation
            && old.depth as i32 > depth + 2
        {
            return;
        }
        let mv = mv.or_else(|| self.entries[i].filter(|e| e.key == key).and_then(|e| e.mv));
        self.entries[i] = Some(Entry {
            key,
            mv,
            score: to_tt(score, ply),
            depth: depth.clamp(-1, i16::MAX as i32) as i16,
            bound,
            generation,
        });
    }
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
