//! The core [`Rules`] implementation: one [`Move`] is one whole turn, so the side changes
//! exactly when a turn ends.

use crate::judge::{adjudicate, seat};
use crate::movegen::generate;
use crate::moves::Move;
use crate::position::Position;
use cannonade_core::{MoveBuf, Next, NoChance, Record, RepetitionRule, Rules, Side};

impl Rules for Position {
    type Move = Move;
    type Chance = NoChance;

    fn next(&self) -> Next {
        self.judge()
    }

    fn mover(&self) -> Side {
        seat(self.turn)
    }

    fn legal_moves(&self, buf: &mut MoveBuf<Move>) {
        buf.clear();
        generate(self, |m| {
            buf.push(m);
            false
        });
    }

    fn count_legal(&self) -> u64 {
        let mut n = 0;
        generate(self, |_| {
            n += 1;
            false
        });
        n
    }

    fn play(&mut self, mv: Move) {
        self.apply(mv);
    }

    fn resolve(&mut self, outcome: NoChance) {
        match outcome {}
    }

    fn hash(&self) -> u64 {
        self.full_hash()
    }

    /// The third occurrence of a position draws (section 12.3).
    fn repetition(&self) -> RepetitionRule {
        RepetitionRule::Draw { occurrence: 3 }
    }

    /// Turns since the last capture: no position before one can come back.
    fn reversible_plies(&self) -> usize {
        self.halfmove() as usize
    }

    fn same_position(&self, other: &Position) -> bool {
        self.full_hash() == other.full_hash() && self == other
    }

    fn adjudicate(record: &Record<Self>) -> Next {
        adjudicate(record)
    }
}
