//! The trait every game implements.

use crate::{MoveBuf, Next, Outcome, Reason, Record, RepetitionRule, Side};
use std::fmt::Debug;
use std::hash::Hash;

/// A chance outcome and its integer weight. The probability of an outcome is its weight
/// divided by the sum of the weights of all outcomes offered at that node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weighted<C> {
    /// The outcome.
    pub outcome: C,
    /// Its weight, always at least 1.
    pub weight: u32,
}

/// The chance type of games without chance: it has no values, so a chance node can never be
/// reached and [`Rules::resolve`] can never be called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoChance {}

/// The rules of one game, as every generic consumer (perft, search, records, the server)
/// needs them: who acts next, the legal moves, playing a move, chance events, and a hash.
///
/// A value of a type implementing `Rules` is always a *valid* position: text is parsed into an
/// unchecked setup first and becomes a position only by validation, and a `Move` is obtained
/// only by checking a syntactic move against a position. So [`Rules::play`] may assume its
/// move is legal.
///
/// ```
/// use cannonade_core::{MoveBuf, Next, NoChance, Rules, Side};
///
/// /// Take-away: remove 1 or 2 stones; whoever cannot move loses.
/// #[derive(Clone, Debug)]
/// struct Nim { stones: u8, mover: Side }
///
/// impl Rules for Nim {
///     type Move = u8;
///     type Chance = NoChance;
///     fn next(&self) -> Next {
///         if self.stones == 0 {
///             Next::Over(cannonade_core::Outcome::loss(self.mover, cannonade_core::Reason::NoMoves))
///         } else {
///             Next::Player(self.mover)
///         }
///     }
///     fn mover(&self) -> Side { self.mover }
///     fn legal_moves(&self, buf: &mut MoveBuf<u8>) {
///         buf.clear();
///         buf.extend((1..=2).filter(|&n| n <= self.stones));
///     }
///     fn play(&mut self, mv: u8) { self.stones -= mv; self.mover = !self.mover; }
///     fn resolve(&mut self, c: NoChance) { match c {} }
///     fn hash(&self) -> u64 { (self.stones as u64) << 1 | self.mover.index() as u64 }
/// }
///
/// let game = Nim { stones: 4, mover: Side::First };
/// assert_eq!(cannonade_core::perft(&game, 3), 4);
/// ```
pub trait Rules: Clone + Debug + Send + Sync + 'static {
    /// A checked move of this game. Small and `Copy`; it may rely on the position it was
    /// made for.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// The outcome of a chance event ([`NoChance`] for games without chance).
    type Chance: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// Who acts next, judged from this position alone (mate, stalemate, counters, material).
    /// Rules that need the game's history (repetition) are applied by
    /// [`Rules::adjudicate`] on a [`Record`].
    fn next(&self) -> Next;

    /// The seat that chooses the next move: the side to move, or at a chance node the seat
    /// that will move once the chance event is resolved. Defined even when the game is over.
    fn mover(&self) -> Side;

    /// Whether a chance event must be resolved before anyone moves. Cheap, unlike
    /// [`Rules::next`], which may generate moves.
    fn chance_pending(&self) -> bool {
        false
    }

    /// Writes every legal move into `buf` (cleared first). Empty at a chance node. Moves are
    /// generated even when [`Rules::next`] says the game is over by a draw rule, so perft and
    /// analysis can look past such rules.
    fn legal_moves(&self, buf: &mut MoveBuf<Self::Move>);

    /// The number of legal moves. Games override it when counting is cheaper than listing
    /// (perft's bulk counting at the last ply).
    fn count_legal(&self) -> u64 {
        let mut buf = MoveBuf::new();
        self.legal_moves(&mut buf);
        buf.len() as u64
    }

    /// Plays a legal move.
    fn play(&mut self, mv: Self::Move);

    /// Writes the outcomes of the pending chance event with their weights into `out`
    /// (cleared first). Empty when no chance event is pending.
    fn chance_outcomes(&self, out: &mut Vec<Weighted<Self::Chance>>) {
        out.clear();
    }

    /// Resolves the pending chance event with one of the outcomes offered by
    /// [`Rules::chance_outcomes`].
    fn resolve(&mut self, outcome: Self::Chance);

    /// A 64-bit hash of everything that decides the future of the game from here (what
    /// repetition compares), updated incrementally.
    fn hash(&self) -> u64;

    /// How this game treats a position that occurs again (see [`crate::repetition`]).
    fn repetition(&self) -> RepetitionRule {
        RepetitionRule::Off
    }

    /// How many plies back a position equal to this one can lie: the plies since the last
    /// irreversible move (a capture, a flip). Unbounded by default.
    fn reversible_plies(&self) -> usize {
        usize::MAX
    }

    /// Whether `other` is the same position as this one for repetition: the same placement
    /// and seat to move, whatever the move counters say. By hash unless the game compares
    /// exactly.
    fn same_position(&self, other: &Self) -> bool {
        self.hash() == other.hash()
    }

    /// Who loses a repetition cycle under [`RepetitionRule::Judged`]: `cycle` runs from the
    /// first occurrence of the repeated position to its latest. A draw by default.
    fn judge_cycle(cycle: &[Self]) -> Outcome {
        let _ = cycle;
        Outcome::draw(Reason::Repetition)
    }

    /// Judges a whole game record: the position's own [`Rules::next`] plus every rule that
    /// needs the history, in the order the game's rules give.
    fn adjudicate(record: &Record<Self>) -> Next {
        record.position().next()
    }
}
