//! End of the game, in the order of section 7: elimination, no legal move, no progress
//! (position rules, [`Position::judge`]), then repetition (history, [`repetition`]).

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

/// Applies the repetition rule (D-7) after the position rules: `positions` is a game's
/// history, oldest first, ending with the current position. Only positions since the last
/// flip or capture can repeat, so the walk back stops at the first one with counter 0.
pub(crate) fn repetition<'a>(
    positions: impl DoubleEndedIterator<Item = &'a Position>,
    current: &Position,
) -> Next {
    let next = current.judge();
    let limit = current.options.repetition_limit as u32;
    if !matches!(next, Next::Player(_)) || limit == 0 {
        return next;
    }
    let mut seen = 0u32;
    for p in positions.rev() {
        if p.pending.is_some() {
            break;
        }
        if p.same_public_position(current) {
            seen += 1;
        }
        if p.noprog == 0 {
            break;
        }
    }
    if seen >= limit { Next::Over(Outcome::draw(Reason::Repetition)) } else { next }
}
