//! The position: placement (bitboards and a mailbox), side to move, counters and the
//! incrementally updated Zobrist hash; playing a move on it.

use crate::attacks::hq_attacked;
use crate::board::{Board, HQ};
use crate::moves::{CAPTURE, LAST_RANK, Move, SHOT};
use crate::piece::{Piece, code_kind};
use crate::tables::{NO_SQ, SQUARES};
use crate::{Kind, Square};
use cannonade_core::Side;
use cannonade_geom::random::keys;

/// Zobrist keys: one per piece code (1..=14) and square, then one for "White to move".
const KEYS: [u64; 14 * SQUARES + 1] = keys(0xC4E5_5BA7_7133_1933);
const WHITE_TO_MOVE: u64 = KEYS[14 * SQUARES];

#[inline(always)]
fn key(code: u8, sq: u8) -> u64 {
    KEYS[(code as usize - 1) * SQUARES + sq as usize]
}

/// A valid Chess-Battle position: exactly one headquarter per side and the side not to move
/// not in check. Obtain one from [`Position::startpos`] or [`Position::from_fen`].
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) board: Board,
    /// Piece code per square, 0 when empty.
    pub(crate) mailbox: [u8; SQUARES],
    /// Square of each side's headquarter.
    pub(crate) hq: [u8; 2],
    pub(crate) mover: Side,
    /// Plies since a piece last left the board (150-ply rule).
    pub(crate) clock: u32,
    /// Full-move number, raised after each White move.
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
}

impl PartialEq for Position {
    /// Same placement, side to move and counters.
    fn eq(&self, other: &Position) -> bool {
        self.mailbox == other.mailbox
            && self.mover == other.mover
            && self.clock == other.clock
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}

/// The standard start (section 2.2).
pub(crate) const START_FEN: &str =
    "gcmbhmcg/sssstsss/2ssssssss2/12/12/12/12/12/12/2SSSSSSSS2/SSSSTSSS/GCMBHMCG r 0 1";

impl Position {
    /// The standard starting position, Red to move.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN)
            .unwrap_or_else(|_| unreachable!("the start position is valid"))
    }

    /// Builds a position from a placement without validating it; `hq` is filled from the
    /// placement (the caller checks there is exactly one per side).
    pub(crate) fn assemble(
        placement: &[Option<Piece>; SQUARES],
        mover: Side,
        clock: u32,
        fullmove: u32,
    ) -> Position {
        let mut pos = Position {
            board: Board::default(),
            mailbox: [0; SQUARES],
            hq: [NO_SQ; 2],
            mover,
            clock,
            fullmove,
            hash: 0,
        };
        for (sq, p) in placement.iter().enumerate() {
            if let Some(p) = *p {
                pos.put(sq as u8, p.code());
                if p.kind == Kind::Headquarter {
                    pos.hq[p.side.index()] = sq as u8;
                }
            }
        }
        if mover == Side::Second {
            pos.hash ^= WHITE_TO_MOVE;
        }
        pos
    }

    #[inline(always)]
    fn put(&mut self, sq: u8, code: u8) {
        self.board.toggle(sq, code);
        self.mailbox[sq as usize] = code;
        self.hash ^= key(code, sq);
    }

    #[inline(always)]
    fn take(&mut self, sq: u8) -> u8 {
        let code = self.mailbox[sq as usize];
        self.board.toggle(sq, code);
        self.mailbox[sq as usize] = 0;
        self.hash ^= key(code, sq);
        code
    }

    /// Plays a legal move (copy-make: the caller clones first if it needs the old position).
    pub(crate) fn play_move(&mut self, mv: Move) {
        let us = self.mover;
        if mv.flags & SHOT != 0 {
            self.take(mv.to);
        } else {
            let code = self.take(mv.from);
            if mv.flags & CAPTURE != 0 {
                self.take(mv.to);
            }
            if mv.flags & LAST_RANK != 0 {
                // The soldier leaves the board, and with it the chosen enemy piece (D-12).
                if mv.removal != NO_SQ {
                    self.take(mv.removal);
                }
            } else {
                self.put(mv.to, code);
                if code_kind(code) == HQ {
                    self.hq[us.index()] = mv.to;
                }
            }
        }
        self.clock = if mv.removes_piece() { 0 } else { self.clock.saturating_add(1) };
        if us == Side::Second {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.mover = !us;
        self.hash ^= WHITE_TO_MOVE;
    }

    /// The hash recomputed from the placement and side to move.
    #[cfg(any(test, feature = "testkit"))]
    pub(crate) fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.mover == Side::Second { WHITE_TO_MOVE } else { 0 };
        for (sq, &code) in self.mailbox.iter().enumerate() {
            if code != 0 {
                h ^= key(code, sq as u8);
            }
        }
        h
    }

    /// The same placement with the other side to move and the clock at zero: a pass, which
    /// the rules do not allow, for engines' null-move pruning. The result is a valid position
    /// only when the side to move is not in check.
    pub fn passed(&self) -> Position {
        let mut p = self.clone();
        p.mover = !p.mover;
        p.hash ^= WHITE_TO_MOVE;
        p.clock = 0;
        p
    }

    /// The piece on a square.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.mailbox[sq.index() as usize] {
            0 => None,
            code => Some(Piece::from_code(code)),
        }
    }

    /// The seat to move: Red is [`Side::First`], White [`Side::Second`].
    pub fn side_to_move(&self) -> Side {
        self.mover
    }

    /// Plies since a piece last left the board.
    pub fn clock(&self) -> u32 {
        self.clock
    }

    /// The full-move number.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The square of a side's headquarter.
    pub fn headquarter(&self, side: Side) -> Square {
        Square::from_dense(self.hq[side.index()])
    }

    /// Whether `side`'s headquarter is attacked.
    pub fn is_attacked(&self, side: Side) -> bool {
        let s = side.index();
        hq_attacked(&self.board, self.hq[s], s ^ 1)
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.is_attacked(self.mover)
    }

    /// Number of pieces of a side.
    pub fn piece_count(&self, side: Side) -> u32 {
        self.board.side[side.index()].count_ones()
    }

    /// A readable board for terminals: rank 12 at the top, upper case Red, lower case White,
    /// `.` an empty square, blank a missing one; then the side to move and the position string.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        for rank in (0..12u8).rev() {
            out.push_str(&format!("{:>3} ", rank + 1));
            for file in 0..12u8 {
                let c = match Square::new(file, rank) {
                    None => ' ',
                    Some(sq) => self.piece_at(sq).map_or('.', |p| p.letter()),
                };
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str("     a b c d e f g h i j k l\n");
        let side = if self.mover == Side::First { "Red" } else { "White" };
        out.push_str(&format!("{side} to move{}\n", if self.in_check() { " (check)" } else { "" }));
        out.push_str(&format!("Fen: {}\n", self.fen()));
        out.push_str(&format!("Key: {:016x}\n", self.hash));
        out
    }
}
