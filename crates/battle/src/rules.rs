//! Chess-Battle behind the core [`Rules`] trait.

use crate::judge::occurrences;
use crate::{Move, Position};
use cannonade_core::{MoveBuf, Next, NoChance, Record, Rules, Side};

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

    /// Threefold repetition (D-15) sits between stalemate and the 150-ply rule.
    fn adjudicate(record: &Record<Self>) -> Next {
        record.position().judge(occurrences(record) >= 3)
    }
}
