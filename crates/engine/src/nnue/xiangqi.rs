//! How a Xiangqi position feeds a network: 7 kinds of own and enemy pieces on 90 points,
//! each side counting ranks from its own back rank and seeing its general on the left half
//! or the centre file.

use super::{Delta, Features, NetGame};
use cannonade_geom::bits::Bits128;
use cannonade_xiangqi::{Colour, Kind, Move, Position};

/// The points of the Xiangqi board.
pub(super) const POINTS: usize = 90;
/// Inputs of the Xiangqi network per side: own and enemy pieces, 7 kinds, 90 points.
pub const XIANGQI_INPUTS: usize = 2 * 7 * POINTS;

const COLOURS: [Colour; 2] = [Colour::Red, Colour::Black];

impl Features for Position {
    const INPUTS: usize = XIANGQI_INPUTS;
    const GAME: NetGame = NetGame::Xiangqi;
    const KINDS: usize = 7;

    #[inline]
    fn feature(side: usize, mirror: bool, owner: usize, kind: usize, sq: u8) -> usize {
        let (file, rank) = (sq % 9, sq / 9);
        let rank = if side == 0 { rank } else { 9 - rank } as usize;
        let file = if mirror { 8 - file } else { file } as usize;
        let enemy = (owner != side) as usize;
        (enemy * 7 + kind) * POINTS + rank * 9 + file
    }

    /// Mirrored when the general stands right of the centre file.
    #[inline]
    fn mirrors(royal: u8) -> bool {
        royal % 9 > 4
    }

    fn mirror_square(sq: u8) -> u8 {
        sq - sq % 9 + (8 - sq % 9)
    }

    #[inline]
    fn royal(&self, side: usize) -> u8 {
        self.general(COLOURS[side]).index()
    }

    fn for_each_piece(&self, mut f: impl FnMut(usize, usize, u8)) {
        for (owner, c) in COLOURS.into_iter().enumerate() {
            for k in Kind::ALL {
                for sq in Bits128(self.pieces(c, k)) {
                    f(owner, k.index(), sq);
                }
            }
        }
    }

    /// The mover leaves its point and lands on the target, taking off what stood there.
    fn delta(&self, _child: &Position, mv: Move) -> Delta {
        let mut d = Delta::default();
        let (from, to) = (mv.from().index(), mv.to().index());
        if let Some(p) = self.piece_at(mv.from()) {
            d.off((p.colour.index() as u8, p.kind.index() as u8, from));
            d.on((p.colour.index() as u8, p.kind.index() as u8, to));
        }
        if let Some(c) = self.piece_at(mv.to()) {
            d.off((c.colour.index() as u8, c.kind.index() as u8, to));
        }
        d
    }
}
