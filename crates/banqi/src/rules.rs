//! The [`Rules`] implementations: the public position with flips as chance events, and the
//! omniscient position with flips resolved from the deal.

use crate::full::FullPosition;
use crate::moves::Move;
use crate::piece::Piece;
use crate::position::Position;
use cannonade_core::{MoveBuf, Next, NoChance, Record, RepetitionRule, Rules, Side, Weighted};

/// The position's own verdict, then repetition when the game goes on.
fn judge_record<G: Rules>(own: Next, positions: &[G]) -> Next {
    if !matches!(own, Next::Player(_)) {
        return own;
    }
    cannonade_core::repetition::verdict(positions).map_or(own, Next::Over)
}

impl Rules for Position {
    type Move = Move;
    /// The piece a flip reveals.
    type Chance = Piece;

    fn next(&self) -> Next {
        self.judge()
    }

    fn mover(&self) -> Side {
        // At a chance node the flipping seat's ply is made: the other seat moves next.
        if self.pending.is_some() { !self.seat } else { self.seat }
    }

    fn chance_pending(&self) -> bool {
        self.pending.is_some()
    }

    fn legal_moves(&self, buf: &mut MoveBuf<Move>) {
        self.generate(buf);
    }

    fn count_legal(&self) -> u64 {
        self.count_moves()
    }

    fn play(&mut self, mv: Move) {
        self.apply(mv);
    }

    /// The kinds still face down, weighted by their pool counts.
    fn chance_outcomes(&self, out: &mut Vec<Weighted<Piece>>) {
        out.clear();
        if self.pending.is_some() {
            out.extend(
                Piece::ALL
                    .into_iter()
                    .filter(|p| self.pool[p.index()] > 0)
                    .map(|p| Weighted { outcome: p, weight: self.pool[p.index()] as u32 }),
            );
        }
    }

    fn resolve(&mut self, piece: Piece) {
        self.reveal(piece);
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn repetition(&self) -> RepetitionRule {
        crate::game::repetition_rule(self.options)
    }

    /// Plies since the last flip or capture: neither can be undone.
    fn reversible_plies(&self) -> usize {
        self.noprog as usize
    }

    fn same_position(&self, other: &Position) -> bool {
        self.same_public_position(other)
    }

    /// Section 7's order: elimination, no legal move, no progress (the position's own
    /// rules), then repetition (D-7).
    fn adjudicate(record: &Record<Self>) -> Next {
        judge_record(record.position().judge(), record.positions())
    }
}

impl Rules for FullPosition {
    type Move = Move;
    type Chance = NoChance;

    fn next(&self) -> Next {
        self.public().judge()
    }

    fn mover(&self) -> Side {
        self.public().seat
    }

    fn legal_moves(&self, buf: &mut MoveBuf<Move>) {
        self.public().generate(buf);
    }

    fn count_legal(&self) -> u64 {
        self.public().count_moves()
    }

    fn play(&mut self, mv: Move) {
        self.apply(mv);
    }

    fn resolve(&mut self, c: NoChance) {
        match c {}
    }

    fn hash(&self) -> u64 {
        self.hash_value()
    }

    fn repetition(&self) -> RepetitionRule {
        self.public().repetition()
    }

    fn reversible_plies(&self) -> usize {
        self.public().reversible_plies()
    }

    fn same_position(&self, other: &FullPosition) -> bool {
        self.public().same_public_position(other.public())
    }

    fn adjudicate(record: &Record<Self>) -> Next {
        judge_record(record.position().public().judge(), record.positions())
    }
}
