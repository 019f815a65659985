//! The checked move: one whole turn.
//!
//! The core `Rules` trait has no notion of a sub-move, and the search and the server must see
//! the side change only when a turn ends, so a whole turn — a move, a combination, or a
//! deploy of several steps from one stack — is ONE [`Move`]: the stack point and up to three
//! steps, each a group of kinds leaving that point with its destination and operation. A
//! move or combination of a single piece or a whole stack is a one-step turn whose group is
//! everything on the point.
//!
//! Perft counts distinct positions (rules 15.1), so the legal move list holds one move per
//! distinct resulting position: the *least* turn reaching it in the order of [`Move::cmp`]
//! (by start point, then step by step, a turn that is a prefix of another first; a step by
//! larger groups first, then destination, then operation). That choice is a pure function
//! of the position, so the fast generator and the slow reference agree on it.

use std::cmp::Ordering;

/// What a step does at its destination (section 14.3 letters in brackets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Op {
    /// A plain move to an empty point (no letter).
    Move = 0,
    /// Normal capture: the target is removed and the unit moves there (`x`).
    Capture = 1,
    /// Stay capture or bombing: the target is removed and the unit stays (`_`). Both give the
    /// same position, so they are one operation.
    Stay = 2,
    /// Kamikaze: the target and the attacking Air Force unit are both removed (`@`).
    Kamikaze = 3,
    /// Combination with a friendly unit (`&`).
    Combine = 4,
}

impl Op {
    /// The notation letter ("" for a plain move).
    pub const fn text(self) -> &'static str {
        match self {
            Op::Move => "",
            Op::Capture => "x",
            Op::Stay => "_",
            Op::Kamikaze => "@",
            Op::Combine => "&",
        }
    }

    /// Whether the operation removes an enemy unit.
    pub const fn is_capture(self) -> bool {
        matches!(self, Op::Capture | Op::Stay | Op::Kamikaze)
    }
}

/// One step of a turn: the kinds leaving the stack point, where they go and what they do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// The kinds of the group (a bit set of [`crate::Kind`]s).
    pub group: u16,
    /// Destination (or target) point.
    pub to: u8,
    /// The operation.
    pub op: Op,
}

impl Step {
    const NONE: Step = Step { group: 0, to: 0, op: Op::Move };

    /// The sort key of steps: larger groups first, then kind set, destination, operation.
    #[inline]
    pub(crate) fn key(self) -> (u32, u16, u8, Op) {
        (3 - self.group.count_ones(), self.group, self.to, self.op)
    }
}

/// A whole turn (see the module docs). Obtained only from [`crate::Position`]'s generator or
/// its move parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) len: u8,
    pub(crate) steps: [Step; 3],
}

impl Move {
    pub(crate) fn new(from: u8) -> Move {
        Move { from, len: 0, steps: [Step::NONE; 3] }
    }

    pub(crate) fn push(&mut self, s: Step) {
        self.steps[self.len as usize] = s;
        self.len += 1;
    }

    pub(crate) fn pop(&mut self) {
        self.len -= 1;
        self.steps[self.len as usize] = Step::NONE;
    }

    /// The point the turn starts from (the moving unit or the deployed stack).
    pub fn from(&self) -> u8 {
        self.from
    }

    /// The steps in the order played.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    /// Whether any step captures.
    pub fn is_capture(&self) -> bool {
        self.steps().iter().any(|s| s.op.is_capture())
    }
}

impl PartialOrd for Move {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Move {
    /// The canonical order: start point, then the steps lexicographically (a prefix first).
    fn cmp(&self, other: &Self) -> Ordering {
        self.from.cmp(&other.from).then_with(|| {
            let a = self.steps().iter().map(|s| s.key());
            let b = other.steps().iter().map(|s| s.key());
            a.cmp(b)
        })
    }
}
