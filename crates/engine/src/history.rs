//! What the search learns about quiet moves from its cut-offs, kept by the [`crate::Engine`]
//! from one search of a game to the next: the history of each move's from and to points,
//! the counter-move of each move, and the continuation history (a quiet move rated by the
//! piece-and-point moves one and two plies before it). Cleared with the transposition table
//! at a new game, halved at each new search so that the newest cut-offs weigh most.

use crate::Evaluate;
use crate::params::HISTORY_MAX;

/// The move-ordering statistics of one game (see the module's doc).
pub(crate) struct MoveHistory<G: Evaluate> {
    /// By [`Evaluate::move_index`]: how often the move refuted, less how often it failed.
    butterfly: Vec<i32>,
    /// By move index: the quiet reply that last refuted that move.
    counters: Vec<Option<G::Move>>,
    /// By the [`Evaluate::piece_to`] of a move one or two plies before and the piece-to of a
    /// quiet move. Empty where the game has no [`Evaluate::PIECE_TO_INDEXES`]. Entries stay
    /// within ±[`HISTORY_MAX`], which `i16` holds.
    continuation: Vec<i16>,
}

impl<G: Evaluate> Clone for MoveHistory<G> {
    fn clone(&self) -> Self {
        MoveHistory {
            butterfly: self.butterfly.clone(),
            counters: self.counters.clone(),
            continuation: self.continuation.clone(),
        }
    }
}

impl<G: Evaluate> Default for MoveHistory<G> {
    fn default() -> Self {
        MoveHistory {
            butterfly: vec![0; G::MOVE_INDEXES],
            counters: vec![None; G::MOVE_INDEXES],
            continuation: vec![0; G::PIECE_TO_INDEXES * G::PIECE_TO_INDEXES],
        }
    }
}

/// Moves a history entry towards `bonus`'s sign, by less the nearer it is to the bound
/// (so it never leaves ±[`HISTORY_MAX`]).
fn bump(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// Where a quiet move stands in the game's history: its move index and, for the
/// continuation history, the slots of the moves one and two plies before it (known ones).
#[derive(Clone, Copy, Debug)]
pub(crate) struct QuietKey {
    index: usize,
    slots: [Option<usize>; 2],
}

impl<G: Evaluate> MoveHistory<G> {
    /// Whether this game keeps a continuation history (then the search records each move's
    /// [`Evaluate::piece_to`]).
    pub(crate) fn keeps_continuation(&self) -> bool {
        !self.continuation.is_empty()
    }

    /// The key of quiet `mv` in `pos`, after the moves whose piece-to indexes were
    /// `before` (one ply back, then two).
    pub(crate) fn key(&self, pos: &G, mv: G::Move, before: [Option<usize>; 2]) -> QuietKey {
        let index = pos.move_index(mv);
        if !self.keeps_continuation() {
            return QuietKey { index, slots: [None, None] };
        }
        let to = pos.piece_to(mv);
        QuietKey { index, slots: before.map(|b| b.map(|ctx| ctx * G::PIECE_TO_INDEXES + to)) }
    }

    /// A quiet move's rating: its history and its continuation histories, each within
    /// ±[`HISTORY_MAX`].
    pub(crate) fn score(&self, key: QuietKey) -> i32 {
        let continued: i32 =
            key.slots.into_iter().flatten().map(|s| self.continuation[s] as i32).sum();
        self.butterfly[key.index] + continued
    }

    /// The quiet reply that last refuted the move with index `previous`.
    pub(crate) fn counter(&self, previous: usize) -> Option<G::Move> {
        self.counters[previous]
    }

    /// A quiet move (`cut`) refuted a node at `depth`, after the move with index `previous`:
    /// raises its history, lowers that of the quiet moves `tried` before it, and makes it
    /// the counter-move.
    pub(crate) fn reward(
        &mut self,
        cut: (G::Move, QuietKey),
        tried: impl IntoIterator<Item = QuietKey>,
        previous: Option<usize>,
        depth: i32,
    ) {
        if let Some(previous) = previous {
            self.counters[previous] = Some(cut.0);
        }
        let bonus = (depth * depth).min(400);
        let keys = [(cut.1, bonus)].into_iter().chain(tried.into_iter().map(|k| (k, -bonus)));
        for (key, b) in keys {
            bump(&mut self.butterfly[key.index], b);
            for slot in key.slots.into_iter().flatten() {
                let mut h = self.continuation[slot] as i32;
                bump(&mut h, b);
                self.continuation[slot] = h as i16;
            }
        }
    }

    /// At a new search of the game: the earlier searches' lessons count half.
    pub(crate) fn age(&mut self) {
        self.butterfly.iter_mut().for_each(|h| *h /= 2);
        self.continuation.iter_mut().for_each(|h| *h /= 2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::Rules;
    use cannonade_xiangqi::Position;

    fn quiet_moves(pos: &Position) -> Vec<cannonade_xiangqi::Move> {
        let mut buf = cannonade_core::MoveBuf::new();
        Rules::legal_moves(pos, &mut buf);
        buf.iter().copied().filter(|&m| pos.tactical_value(m).is_none()).collect()
    }

    /// However many cut-offs reward or punish a move, its entries stay within the bound
    /// (the continuation history is kept in `i16`).
    #[test]
    fn entries_stay_within_the_bound() {
        let pos = Position::startpos();
        let moves = quiet_moves(&pos);
        let mut h = MoveHistory::<Position>::default();
        let before = [Some(5), Some(700)];
        let (cut, other) = (h.key(&pos, moves[0], before), h.key(&pos, moves[1], before));
        for _ in 0..10_000 {
            h.reward((moves[0], cut), [other], Some(3), 40);
        }
        assert_eq!(h.score(cut), 3 * HISTORY_MAX);
        assert_eq!(h.score(other), -3 * HISTORY_MAX);
        assert_eq!(h.counter(3), Some(moves[0]));
    }

    /// The continuation history tells apart the same move after different moves before it.
    #[test]
    fn continuation_depends_on_the_moves_before() {
        let pos = Position::startpos();
        let moves = quiet_moves(&pos);
        let mut h = MoveHistory::<Position>::default();
        let after_a = h.key(&pos, moves[0], [Some(10), None]);
        let after_b = h.key(&pos, moves[0], [Some(11), None]);
        h.reward((moves[0], after_a), [], None, 10);
        // The same from and to points: the butterfly part is shared, the continuation not.
        assert!(h.score(after_a) > h.score(after_b));
        assert!(h.score(after_b) > 0);
    }

    /// Ageing halves what was learnt.
    #[test]
    fn ageing_halves() {
        let pos = Position::startpos();
        let moves = quiet_moves(&pos);
        let mut h = MoveHistory::<Position>::default();
        let key = h.key(&pos, moves[0], [Some(1), Some(2)]);
        h.reward((moves[0], key), [], None, 10);
        let before = h.score(key);
        h.age();
        assert_eq!(h.score(key), before / 2);
    }
}
