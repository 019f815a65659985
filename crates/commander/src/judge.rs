//! The end of the game (section 12), in the rules' order: a captured Commander (possible
//! only in a later deploy step), checkmate, stalemate, then the
//! draws — repetition (history, via [`Rules::adjudicate`]) and the 100-turn rule.

use crate::movegen::generate;
use crate::position::{NONE, Position};
use cannonade_core::{Next, Outcome, Reason, Record, Side};

/// Turns without a capture after which the game is drawn (section 12.3).
pub const NO_CAPTURE_LIMIT: u32 = 100;

/// The seat of a colour: Red (0) moves first (D5).
pub fn seat(colour: usize) -> Side {
    if colour == 0 { Side::First } else { Side::Second }
}

impl Position {
    /// Whether the side to move has at least one legal turn.
    pub fn has_legal_turn(&self) -> bool {
        generate(self, |_| true)
    }

    /// The position-only end rules: checkmate (12.1), stalemate (12.2), the 100-turn rule
    /// (12.3).
    pub(crate) fn judge(&self) -> Next {
        let side = seat(self.turn);
        if self.b.cmd[self.turn] == NONE {
            return Next::Over(Outcome::loss(side, Reason::Capture));
        }
        if !self.has_legal_turn() {
            return Next::Over(if self.in_check() {
                Outcome::loss(side, Reason::Checkmate)
            } else {
                Outcome::draw(Reason::Stalemate)
            });
        }
        if self.halfmove >= NO_CAPTURE_LIMIT {
            return Next::Over(Outcome::draw(Reason::MoveLimit));
        }
        Next::Player(side)
    }
}

/// Section 12 in order on a whole record: checkmate and stalemate, then the third
/// occurrence of a position, then the 100-turn rule.
pub(crate) fn adjudicate(record: &Record<Position>) -> Next {
    let next = record.position().judge();
    if let Next::Over(o) = next
        && matches!(o.reason, Reason::Checkmate | Reason::Stalemate)
    {
        return next;
    }
    cannonade_core::repetition::verdict(record.positions()).map_or(next, Next::Over)
}
