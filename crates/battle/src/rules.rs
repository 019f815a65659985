//! Chess-Battle behind the core [`Rules`] trait.

use crate::{Move, Position};
use cannonade_core::{MoveBuf, Next, NoChance, Record, RepetitionRule, Rules, Side};

impl Rules for Position {
    type Move = Move;
    type Chance = NoChance;

    fn next(&self) -> Next {
        self.judge(false)
    }

    fn mover(&self) -> Side {
        self.mover
    }

    fn legal_moves(&self, buf: &mut MoveBuf<Move>) {
        crate::movegen::legal_moves(self, buf);
    }

    fn count_legal(&self) -> u64 {
        crate::movegen::count_legal(self)
    }

    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    fn resolve(&mut self, outcome: NoChance) {
        match outcome {}
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// Threefold repetition draws (D-15).
    fn repetition(&self) -> RepetitionRule {
        RepetitionRule::Draw { occurrence: 3 }
    }

    /// Plies since a piece last left the board: no position before that can come back.
    fn reversible_plies(&self) -> usize {
        self.clock as usize
    }

    fn same_position(&self, other: &Position) -> bool {
        Position::same_position(self, other)
    }

    /// Threefold repetition (D-15) sits between stalemate and the 150-ply rule.
    fn adjudicate(record: &Record<Self>) -> Next {
        let repeated = cannonade_core::repetition::verdict(record.positions()).is_some();
        record.position().judge(repeated)
    }
}
