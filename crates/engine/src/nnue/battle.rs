//! How a Chess-Battle position feeds a network: 7 kinds of own and enemy pieces on the 128
//! squares, each side counting ranks from its own back rank and seeing its headquarter on
//! the left half of the board.

use super::{Delta, Features, NetGame};
use cannonade_battle::{Move, Position, Square};
use cannonade_core::Side;

/// The squares of the Chess-Battle board.
pub(super) const SQUARES: usize = 128;
/// Inputs of the Chess-Battle network per side: own and enemy pieces, 7 kinds, 128 squares.
pub const BATTLE_INPUTS: usize = 2 * 7 * SQUARES;

/// The square index a side sees for each square: `VIEW[2 * side + mirror][sq]`, with ranks
/// counted from the side's back rank and files reversed when mirrored. The cross board is
/// symmetric both ways, so every view of a square is a square.
const VIEW: [[u8; 128]; 4] = {
    let mut view = [[0u8; 128]; 4];
    let mut sq = 0;
    while sq < 128 {
        let Some(s) = Square::from_index(sq as u8) else { panic!("dense index") };
        let (file, rank) = (s.file(), s.rank());
        let mut v = 0;
        while v < 4 {
            let r = if v / 2 == 1 { 11 - rank } else { rank };
            let f = if v % 2 == 1 { 11 - file } else { file };
            let Some(t) = Square::new(f, r) else { panic!("the board is symmetric") };
            view[v][sq] = t.index();
            v += 1;
        }
        sq += 1;
    }
    view
};

impl Features for Position {
    const INPUTS: usize = BATTLE_INPUTS;
    const GAME: NetGame = NetGame::ChessBattle;
    const KINDS: usize = 7;

    #[inline]
    fn feature(side: usize, mirror: bool, owner: usize, kind: usize, sq: u8) -> usize {
        let seen = VIEW[2 * side + mirror as usize][(sq & 127) as usize] as usize;
        let enemy = (owner != side) as usize;
        (enemy * 7 + kind) * SQUARES + seen
    }

    /// Mirrored when the headquarter stands right of the middle (files g to l).
    #[inline]
    fn mirrors(royal: u8) -> bool {
        Square::from_index(royal).is_some_and(|s| s.file() > 5)
    }

    fn mirror_square(sq: u8) -> u8 {
        VIEW[1][(sq & 127) as usize]
    }

    #[inline]
    fn royal(&self, side: usize) -> u8 {
        self.headquarter([Side::First, Side::Second][side]).index()
    }

    fn for_each_piece(&self, mut f: impl FnMut(usize, usize, u8)) {
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                f(p.side.index(), p.kind.index(), sq.index());
            }
        }
    }

    /// A shot takes off its target alone; a move takes the mover off its square and the
    /// piece it captures, and puts the mover down unless it reached its last rank, where it
    /// leaves the board with the enemy piece chosen for removal.
    fn delta(&self, _child: &Position, mv: Move) -> Delta {
        let mut d = Delta::default();
        let mut off = |sq: Square| {
            if let Some(p) = self.piece_at(sq) {
                d.off((p.side.index() as u8, p.kind.index() as u8, sq.index()));
            }
        };
        if mv.is_shot() {
            off(mv.to());
            return d;
        }
        off(mv.from());
        if mv.is_capture() {
            off(mv.to());
        }
        if mv.is_last_rank() {
            if let Some(r) = mv.removal() {
                off(r);
            }
        } else if let Some(p) = self.piece_at(mv.from()) {
            d.on((p.side.index() as u8, p.kind.index() as u8, mv.to().index()));
        }
        d
    }
}
