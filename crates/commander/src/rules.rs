//! The core [`Rules`] implementation: one [`Move`] is one whole turn, so the side changes
//! exactly when a turn ends.

use crate::judge::{adjudicate, seat};
use crate::movegen::generate;
use crate::moves::Move;
use crate::position::Position;
use cannonade_core::{MoveBuf, Next, NoChance, Record, Rules, Side};

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

    fn adjudicate(record: &Record<Self>) -> Next {
        adjudicate(record)
    }
}
