//! The position: piece placement as bitboards plus a mailbox, side to move and counters.

use crate::tables::TRANSPOSED;
use crate::zobrist::{SIDE_KEY, piece_key};
use crate::{Colour, Kind, Move, Piece, Square};

/// The repetition rule a game is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RepetitionRule {
    /// The seed rule: the ply that makes a position occur for the third time loses.
    #[default]
    Seed,
    /// AXF/WXF-style: perpetual check and perpetual chase lose, other repetitions draw.
    Asian,
}

impl RepetitionRule {
    /// `"seed"` or `"asian"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            RepetitionRule::Seed => "seed",
            RepetitionRule::Asian => "asian",
        }
    }

    /// The rule named `seed` or `asian`.
    pub fn parse(name: &str) -> Option<RepetitionRule> {
        match name.to_ascii_lowercase().as_str() {
            "seed" => Some(RepetitionRule::Seed),
            "asian" => Some(RepetitionRule::Asian),
            _ => None,
        }
    }
}

/// A game's rule options, fixed when the game is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Options {
    /// How repetitions are judged.
    pub repetition: RepetitionRule,
}

/// Plies without a capture after which the game is drawn.
pub const MOVE_LIMIT: u16 = 120;

/// A valid Xiangqi position: one general per side in its palace, every piece on a point it can
/// reach, generals not facing, the side not to move not in check.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// Piece index + 1 per square, 0 = empty.
    pub(crate) board: [u8; 90],
    pub(crate) by_colour: [u128; 2],
    pub(crate) by_kind: [u128; 7],
    /// Occupancy in file-major order (`file * 10 + rank`), for file lookups.
    pub(crate) occ_t: u128,
    pub(crate) generals: [u8; 2],
    pub(crate) side: Colour,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) hash: u64,
    pub(crate) options: Options,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(crate::fen::START_FEN)
            .unwrap_or_else(|_| unreachable!("the start FEN is valid"))
    }

    /// An empty board for the setup code; not valid until filled and checked.
    pub(crate) fn empty(side: Colour) -> Position {
        Position {
            board: [0; 90],
            by_colour: [0; 2],
            by_kind: [0; 7],
            occ_t: 0,
            generals: [0; 2],
            side,
            halfmove: 0,
            fullmove: 1,
            hash: if side == Colour::Black { SIDE_KEY } else { 0 },
            options: Options::default(),
        }
    }

    /// Puts a piece on an empty square (setup only).
    pub(crate) fn put(&mut self, sq: u8, p: Piece) {
        debug_assert_eq!(self.board[sq as usize], 0);
        self.board[sq as usize] = p.index() as u8 + 1;
        self.by_colour[p.colour.index()] |= 1u128 << sq;
        self.by_kind[p.kind.index()] |= 1u128 << sq;
        self.occ_t |= 1u128 << TRANSPOSED[sq as usize];
        self.hash ^= piece_key(p.index(), sq);
        if p.kind == Kind::General {
            self.generals[p.colour.index()] = sq;
        }
    }

    /// The piece on a point.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.board[sq.index() as usize] {
            0 => None,
            p => Some(Piece::from_index(p as usize - 1)),
        }
    }

    /// The colour to move.
    #[inline]
    pub fn side_to_move(&self) -> Colour {
        self.side
    }

    /// Plies since the last capture (the FEN halfmove field), at most [`MOVE_LIMIT`].
    pub fn halfmove(&self) -> u16 {
        self.halfmove
    }

    /// The FEN fullmove number: 1 at the start, +1 after each Black ply.
    pub fn fullmove(&self) -> u16 {
        self.fullmove
    }

    /// The rule options of the game.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The same position played under other options.
    pub fn with_options(mut self, options: Options) -> Position {
        self.options = options;
        self
    }

    /// The points holding pieces of a colour, as a bit set (bit = square index).
    pub fn colour_set(&self, c: Colour) -> u128 {
        self.by_colour[c.index()]
    }

    /// The points holding pieces of a kind (both colours).
    pub fn kind_set(&self, k: Kind) -> u128 {
        self.by_kind[k.index()]
    }

    /// The points holding pieces of a colour and kind.
    #[inline]
    pub fn pieces(&self, c: Colour, k: Kind) -> u128 {
        self.by_colour[c.index()] & self.by_kind[k.index()]
    }

    /// All occupied points.
    #[inline]
    pub fn occupied(&self) -> u128 {
        self.by_colour[0] | self.by_colour[1]
    }

    /// The general of a colour.
    #[inline]
    pub fn general(&self, c: Colour) -> Square {
        Square::from_index(self.generals[c.index()])
    }

    /// The Zobrist hash of placement and side to move (counters excluded).
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Colour::Black { SIDE_KEY } else { 0 };
        for (sq, &p) in self.board.iter().enumerate() {
            if p != 0 {
                h ^= piece_key(p as usize - 1, sq as u8);
            }
        }
        h
    }

    /// Whether the two positions have the same placement and side to move (what repetition
    /// compares).
    pub fn same_placement(&self, other: &Position) -> bool {
        self.hash == other.hash && self.side == other.side && self.board == other.board
    }

    /// Whether neither side has a chariot, horse, cannon or soldier.
    pub fn dead_material(&self) -> bool {
        (self.by_kind[Kind::Horse.index()]
            | self.by_kind[Kind::Chariot.index()]
            | self.by_kind[Kind::Cannon.index()]
            | self.by_kind[Kind::Soldier.index()])
            == 0
    }

    /// Whether a move captures.
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        self.board[mv.to().index() as usize] != 0
    }

    /// Plays a legal move.
    pub fn play_move(&mut self, mv: Move) {
        let (from, to) = (mv.from().index(), mv.to().index());
        let p = self.board[from as usize] as usize - 1;
        let captured = self.board[to as usize];
        let (colour, kind) = (p / 7, p % 7);
        let (fb, tb) = (1u128 << from, 1u128 << to);
        self.board[from as usize] = 0;
        self.board[to as usize] = p as u8 + 1;
        self.by_colour[colour] ^= fb | tb;
        self.by_kind[kind] ^= fb | tb;
        self.occ_t ^= 1u128 << TRANSPOSED[from as usize];
        self.hash ^= piece_key(p, from) ^ piece_key(p, to) ^ SIDE_KEY;
        if captured != 0 {
            let c = captured as usize - 1;
            self.by_colour[c / 7] ^= tb;
            self.by_kind[c % 7] ^= tb;
            self.hash ^= piece_key(c, to);
            self.halfmove = 0;
        } else {
            self.occ_t ^= 1u128 << TRANSPOSED[to as usize];
            // It stops at the limit: moves past the draw are still generated (perft, search,
            // `position … moves` past the end), and the FEN reader refuses larger counters.
            self.halfmove = (self.halfmove + 1).min(MOVE_LIMIT);
        }
        if kind == Kind::General.index() {
            self.generals[colour] = to;
        }
        if self.side == Colour::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = !self.side;
    }

    /// The same placement with the other side to move and the capture counter at zero: a pass,
    /// which the rules do not allow, for engines' null-move pruning. The result is a valid
    /// position only when the side to move is not in check.
    pub fn passed(&self) -> Position {
        let mut p = self.with_side(!self.side);
        p.halfmove = 0;
        p
    }

    /// The same placement with the other side to move (used by the chase judge to ask what
    /// the side that just moved could do next). May be an invalid position.
    pub(crate) fn with_side(&self, side: Colour) -> Position {
        let mut p = self.clone();
        if p.side != side {
            p.side = side;
            p.hash ^= SIDE_KEY;
        }
        p
    }
}
