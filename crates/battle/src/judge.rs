//! The end of the game, in the order of section 6.3: checkmate, stalemate, threefold
//! repetition, the 150-ply rule, bare headquarters.

use crate::Position;
use cannonade_core::{Next, Outcome, Reason};

/// Plies without a piece leaving the board after which the game is drawn (D-16).
pub const PLY_LIMIT: u32 = 150;

impl Position {
    /// Applies the end rules in order; `repeated` says whether this position has now occurred
    /// for the third time (only a [`Record`] knows).
    pub(crate) fn judge(&self, repeated: bool) -> Next {
        if crate::movegen::count_legal(self) == 0 {
            return Next::Over(if self.in_check() {
                Outcome::loss(self.mover, Reason::Checkmate)
            } else {
                Outcome::draw(Reason::Stalemate)
            });
        }
        if repeated {
            return Next::Over(Outcome::draw(Reason::Repetition));
        }
        // Mate on the 150th ply was already caught above (D-16).
        if self.clock >= PLY_LIMIT {
            return Next::Over(Outcome::draw(Reason::MoveLimit));
        }
        if self.board.side[0].count_ones() == 1 && self.board.side[1].count_ones() == 1 {
            return Next::Over(Outcome::draw(Reason::DeadMaterial));
        }
        Next::Player(self.mover)
    }

    /// Whether two positions have the same placement and side to move (what repetition
    /// compares; the counters do not count).
    pub fn same_position(&self, other: &Position) -> bool {
        self.hash == other.hash && self.mover == other.mover && self.mailbox == other.mailbox
    }
}
