//! How a game stands: somebody to act, a chance event, or finished with a reason.

use crate::Side;

/// Who acts next, or how the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Next {
    /// The player in this seat chooses a move.
    Player(Side),
    /// A chance event (a Banqi flip's identity) must be resolved before play goes on.
    Chance,
    /// The game is over.
    Over(Outcome),
}

/// The result of a finished game: the winning seat (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The seat that won, or `None` for a draw.
    pub winner: Option<Side>,
    /// Which rule ended the game.
    pub reason: Reason,
}

impl Outcome {
    /// A win for `side`.
    pub const fn win(side: Side, reason: Reason) -> Outcome {
        Outcome { winner: Some(side), reason }
    }

    /// A loss for `side`, that is a win for its opponent.
    pub const fn loss(side: Side, reason: Reason) -> Outcome {
        Outcome { winner: Some(side.opponent()), reason }
    }

    /// A draw.
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome { winner: None, reason }
    }
}

/// The rule that ended a game. One list for all games so records and the server can name
/// every ending the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// The side to move has no legal move (games without check, such as Banqi).
    NoMoves,
    /// A colour has no piece left (Banqi).
    Elimination,
    /// A repeated position (a loss for the repeater under Xiangqi's seed rule, a draw
    /// elsewhere).
    Repetition,
    /// Perpetual check (Xiangqi's `asian` rule).
    PerpetualCheck,
    /// Perpetual chase (Xiangqi's `asian` rule).
    PerpetualChase,
    /// Too many plies without a capture or other progress.
    MoveLimit,
    /// Neither side can win any more with the material left.
    DeadMaterial,
    /// A commander, headquarter or general was captured (games where that ends play).
    Capture,
    /// Decided by points (Commander Chess's timed formats).
    Points,
    /// A player resigned.
    Resignation,
    /// The players agreed to a draw.
    Agreement,
    /// A player ran out of time.
    Timeout,
    /// A player left the game and did not come back within the grace period.
    Abandonment,
    /// The game was called off before it really started.
    Aborted,
}

impl Reason {
    /// Every reason, in declaration order.
    pub const ALL: [Reason; 16] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::NoMoves,
        Reason::Elimination,
        Reason::Repetition,
        Reason::PerpetualCheck,
        Reason::PerpetualChase,
        Reason::MoveLimit,
        Reason::DeadMaterial,
        Reason::Capture,
        Reason::Points,
        Reason::Resignation,
        Reason::Agreement,
        Reason::Timeout,
        Reason::Abandonment,
        Reason::Aborted,
    ];

    /// The name used in records and on the wire, such as `"checkmate"` or `"move-limit"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::NoMoves => "no-move",
            Reason::Elimination => "elimination",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::PerpetualChase => "perpetual-chase",
            Reason::MoveLimit => "move-limit",
            Reason::DeadMaterial => "dead-material",
            Reason::Capture => "capture",
            Reason::Points => "points",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::Timeout => "time",
            Reason::Abandonment => "abandonment",
            Reason::Aborted => "aborted",
        }
    }

    /// The reason named by [`Reason::as_str`].
    pub fn parse(name: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.as_str() == name)
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_names_round_trip() {
        for r in Reason::ALL {
            assert_eq!(Reason::parse(r.as_str()), Some(r));
        }
        assert_eq!(Reason::parse("nonsense"), None);
    }

    #[test]
    fn loss_is_the_opponents_win() {
        assert_eq!(Outcome::loss(Side::First, Reason::Checkmate).winner, Some(Side::Second));
        assert_eq!(Outcome::draw(Reason::MoveLimit).winner, None);
    }
}
