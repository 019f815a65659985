//! End of the game, in the order of section 7: elimination, no legal move, no progress
//! (position rules, [`Position::judge`]), then repetition (history: core's counter under
//! this game's rule, in `rules.rs`).

use crate::piece::Colour;
use crate::position::Position;
use cannonade_core::{Next, Outcome, Reason};

impl Position {
    /// Section 7 for the position alone: elimination (red checked first), no legal move,
    /// no progress. `Next::Chance` while a flip awaits its outcome.
    pub fn judge(&self) -> Next {
        if self.pending.is_some() {
            return Next::Chance;
        }
        if self.first.is_some() {
            for colour in Colour::BOTH {
                if self.pieces_left(colour) == 0 {
                    let seat = self.seat_of(colour).unwrap_or(self.seat);
                    return Next::Over(Outcome::loss(seat, Reason::Elimination));
                }
            }
            if !self.has_moves() {
                return Next::Over(Outcome::loss(self.seat, Reason::NoMoves));
            }
        }
        let limit = self.options.noprog_limit;
        if limit != 0 && self.noprog >= limit {
            return Next::Over(Outcome::draw(Reason::MoveLimit));
        }
        Next::Player(self.seat)
    }
}
