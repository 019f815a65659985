//! Seats at the table.

/// A seat: the player who moves first and the one who moves second.
///
/// Seats are not colours. In Xiangqi the first seat always plays Red, but in Banqi the colour
/// of each seat is decided by the first flip, so everything generic (search, records, clocks,
/// outcomes) talks about seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player who makes the first move of the game.
    First,
    /// The other player.
    Second,
}

impl Side {
    /// Both seats, first seat first.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other seat.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first seat, 1 for the second: an index into per-seat arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"first"` or `"second"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }
}

impl std::ops::Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.opponent()
    }
}
