//! What the search needs to know about a game beyond the core [`Rules`] trait: its
//! evaluation, which moves are tactical, check and cheap end tests. The repetition rule is
//! the game's own ([`Rules::repetition`]), the one its records are judged by.
//! One implementation per game lives in `eval/`; the rules crates know nothing of it.

use cannonade_core::{MoveBuf, Next, Outcome, Reason, Rules};

/// A game the search can play: [`Rules`] plus evaluation and search knowledge. The value is
/// always from the view of [`Rules::mover`].
pub trait Evaluate: Rules {
    /// Size of the index space of [`Evaluate::move_index`] (history tables).
    const MOVE_INDEXES: usize;

    /// What a draw costs the side the search plays for, in centipawns (contempt).
    const CONTEMPT: i32 = crate::params::DRAW_CONTEMPT;

    /// How fast this game's search visits nodes, in percent of Xiangqi's; a level's node
    /// budget is scaled by it ([`crate::params::XIANGQI_NODE_RATE`]).
    const NODE_RATE: u32 = crate::params::XIANGQI_NODE_RATE;

    /// What the evaluation keeps up to date move by move (a network's accumulator), `()` for
    /// an evaluation computed from the position alone. It must not depend on the side to
    /// move: the search gives a null move's position a copy of its parent's.
    type Acc: Clone + Default + Send + 'static;

    /// The position's value in centipawns for the seat to move.
    fn evaluate(&self) -> i32;

    /// Computes the accumulator of this position from scratch.
    fn refresh(&self, _acc: &mut Self::Acc) {}

    /// The accumulator of `child`, reached from this position (whose accumulator is `acc`)
    /// by `mv`, into `out`. The default computes it from scratch.
    fn update(&self, child: &Self, _mv: Self::Move, _acc: &Self::Acc, out: &mut Self::Acc) {
        child.refresh(out);
    }

    /// The value for the seat to move given this position's accumulator.
    fn evaluate_with(&self, _acc: &Self::Acc) -> i32 {
        self.evaluate()
    }

    /// A small index of a move (from and to squares) for history tables.
    fn move_index(&self, mv: Self::Move) -> usize;

    /// Size of the index space of [`Evaluate::piece_to`]; 0 where the game keeps no
    /// continuation history.
    const PIECE_TO_INDEXES: usize = 0;

    /// The moving piece (its owner and kind) and the point it goes to, as an index below
    /// [`Evaluate::PIECE_TO_INDEXES`]: the continuation history rates a quiet move by the
    /// piece-and-point moves made one and two plies before it, which say more about what a
    /// reply is for than its from and to points alone.
    fn piece_to(&self, _mv: Self::Move) -> usize {
        0
    }

    /// A 32-bit code of a move, as the shared transposition table keeps it (its low 29 bits):
    /// equal moves have equal codes, and the legal moves of one position should differ in
    /// them. A collision only costs move ordering: the search plays the first legal move
    /// with the stored code. The default mixes the move's [`Hash`](std::hash::Hash).
    fn move_code(mv: Self::Move) -> u32 {
        use std::hash::{Hash, Hasher};
        let mut h = Fold(0);
        mv.hash(&mut h);
        let h = h.finish();
        (h ^ h >> 32) as u32
    }

    /// For a move that quiescence must search (a capture, a shot, a removing last-rank move):
    /// its ordering value, most valuable victim first, least valuable attacker next.
    /// `None` for a quiet move.
    fn tactical_value(&self, mv: Self::Move) -> Option<i32>;

    /// The legal tactical moves into `buf` (cleared first), for quiescence. The default
    /// filters the legal moves; a game with a cheaper generator overrides it.
    fn tactical_moves(&self, buf: &mut MoveBuf<Self::Move>) {
        self.legal_moves(buf);
        buf.retain(|&m| self.tactical_value(m).is_some());
    }

    /// Whether a tactical move very probably loses material: a capture by a piece worth more
    /// than its victim onto a point the opponent can take back on. Quiescence skips such
    /// moves and move ordering tries them after the killers. `false` where the game has no
    /// cheap test.
    fn losing_capture(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Whether the side to move is in check (false in games without check).
    fn in_check(&self) -> bool {
        false
    }

    /// An end of the game decided by the position alone *other than* having no legal move
    /// (move limits, dead material, elimination). Called at every node, so it must be cheap.
    fn quick_outcome(&self) -> Option<Outcome> {
        match self.next() {
            Next::Over(o) => Some(o),
            _ => None,
        }
    }

    /// The outcome when the side to move has no legal move.
    fn stuck_outcome(&self) -> Outcome {
        match self.next() {
            Next::Over(o) => o,
            _ => Outcome::loss(self.mover(), Reason::NoMoves),
        }
    }

    /// The outcome when a draw rule that the search judges itself (repetition) ends the game
    /// here: a draw, unless the game's format decides it otherwise.
    fn drawn(&self, reason: Reason) -> Outcome {
        Outcome::draw(reason)
    }

    /// The position with the turn passed, for null-move pruning; `None` where passing is
    /// not sound or not available (zugzwang-prone games, multi-step turns).
    fn null_move(&self) -> Option<Self> {
        None
    }
}

/// A small multiply-rotate hasher (FxHash's step) for [`Evaluate::move_code`]: moves are a
/// few integers, and the code is computed for every legal move of a node with a stored move.
struct Fold(u64);

impl std::hash::Hasher for Fold {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }

    fn write_u16(&mut self, i: u16) {
        self.write_u64(i as u64);
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x517C_C1B7_2722_0A95);
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
