//! Training positions: the lines `cannonade selfplay` writes (`FEN | score | result`, score
//! and result from Red's view), kept as their pieces with the score and result from the side
//! to move's view. The network's inputs are computed per batch, so that a position can be
//! seen mirrored left to right as well (the game is symmetric), doubling what the data shows.

use anyhow::{Context, Result};
use cannonade_engine::nnue::{mirrors, xiangqi_feature};
use cannonade_geom::bits::Bits128;
use cannonade_xiangqi::{Colour, Kind, Piece, Position};
use std::io::BufRead;

/// Most pieces on a board, so most active inputs per side.
pub const MAX_ACTIVE: usize = 32;

/// One position: its pieces (piece index and point), the side to move, and the search score
/// and game result from the side to move's view.
#[derive(Clone, Copy)]
pub struct Sample {
    pieces: [(u8, u8); MAX_ACTIVE],
    count: u8,
    red_to_move: bool,
    pub score: f32,
    pub result: f32,
}

/// The active inputs of both halves of a sample: the side to move's, then the other side's.
pub struct Inputs {
    pub own: [u16; MAX_ACTIVE],
    pub other: [u16; MAX_ACTIVE],
    pub count: usize,
}

impl Sample {
    /// The inputs of the position, or of its mirror image left to right when `flip`.
    pub fn inputs(&self, flip: bool) -> Inputs {
        let pieces = &self.pieces[..self.count as usize];
        let point = |sq: u8| if flip { sq - sq % 9 + (8 - sq % 9) } else { sq };
        let general = |c: Colour| {
            pieces
                .iter()
                .find(|&&(p, _)| Piece::from_index(p as usize) == Piece::new(c, Kind::General))
                .map_or(4, |&(_, sq)| point(sq) % 9)
        };
        let stm = if self.red_to_move { Colour::Red } else { Colour::Black };
        let (own_mirror, other_mirror) = (mirrors(general(stm)), mirrors(general(!stm)));
        let mut out = Inputs { own: [0; MAX_ACTIVE], other: [0; MAX_ACTIVE], count: pieces.len() };
        for (i, &(p, sq)) in pieces.iter().enumerate() {
            let (piece, sq) = (Piece::from_index(p as usize), point(sq));
            out.own[i] = xiangqi_feature(stm, own_mirror, piece, sq) as u16;
            out.other[i] = xiangqi_feature(!stm, other_mirror, piece, sq) as u16;
        }
        out
    }
}

/// Reads a line; `None` for a line that is not a valid sample.
pub fn parse(line: &str) -> Option<Sample> {
    let mut parts = line.split('|').map(str::trim);
    let pos = Position::from_fen(parts.next()?).ok()?;
    let score: f32 = parts.next()?.parse().ok()?;
    let result: f32 = parts.next()?.parse().ok()?;
    let red_to_move = pos.side_to_move() == Colour::Red;
    let mut s = Sample { pieces: [(0, 0); MAX_ACTIVE], count: 0, red_to_move, score, result };
    for c in [Colour::Red, Colour::Black] {
        for k in Kind::ALL {
            for sq in Bits128(pos.pieces(c, k)) {
                s.pieces[s.count as usize] = (Piece::new(c, k).index() as u8, sq);
                s.count += 1;
            }
        }
    }
    if !red_to_move {
        s.score = -s.score;
        s.result = 1.0 - s.result;
    }
    Some(s)
}

/// Reads every file; returns the samples and how many lines were skipped.
pub fn load(paths: &[String]) -> Result<(Vec<Sample>, usize)> {
    let mut samples = Vec::new();
    let mut skipped = 0;
    for path in paths {
        let file = std::fs::File::open(path).with_context(|| format!("opening {path}"))?;
        for line in std::io::BufReader::new(file).lines() {
            let line = line.with_context(|| format!("reading {path}"))?;
            match parse(&line) {
                Some(s) => samples.push(s),
                None => skipped += 1,
            }
        }
    }
    Ok((samples, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_engine::nnue::xiangqi_features;

    fn sorted(v: &[u16]) -> Vec<u16> {
        let mut v = v.to_vec();
        v.sort_unstable();
        v
    }

    /// The inputs are the engine's, from the side to move's view, and the mirror image's
    /// inputs are those of the mirrored position.
    #[test]
    fn inputs_are_the_engines() {
        let fens = [
            (
                "2bak4/4a4/4b1n2/p3c3p/2p3p2/6P2/P3P3P/2N1B1C2/4A4/2BAK4 w - - 0 1",
                "4kab2/4a4/2n1b4/p3c3p/2p3p2/2P6/P3P3P/2C1B1N2/4A4/4KAB2 w - - 0 1",
            ),
            ("3k5/9/9/9/9/2C6/9/9/9/5K3 b - - 0 1", "5k3/9/9/9/9/6C2/9/9/9/3K5 b - - 0 1"),
        ];
        for (fen, mirror) in fens {
            let s = parse(&format!("{fen} | 40 | 1")).unwrap();
            let pos = Position::from_fen(fen).unwrap();
            let stm = pos.side_to_move();
            let want = |p: &Position, side| {
                let mut v: Vec<u16> = xiangqi_features(p, side).map(|f| f as u16).collect();
                v.sort_unstable();
                v
            };
            let inputs = s.inputs(false);
            assert_eq!(sorted(&inputs.own[..inputs.count]), want(&pos, stm));
            assert_eq!(sorted(&inputs.other[..inputs.count]), want(&pos, !stm));
            let flipped = s.inputs(true);
            let mirror = Position::from_fen(mirror).unwrap();
            assert_eq!(sorted(&flipped.own[..flipped.count]), want(&mirror, stm));
            assert_eq!(sorted(&flipped.other[..flipped.count]), want(&mirror, !stm));
        }
    }

    #[test]
    fn lines_read_from_the_side_to_moves_view() {
        let red =
            parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 40 | 1")
                .unwrap();
        assert_eq!((red.count, red.score, red.result), (32, 40.0, 1.0));
        let black =
            parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4C2/9/RNBAKABNR b - - 1 1 | 40 | 1")
                .unwrap();
        assert_eq!((black.score, black.result), (-40.0, 0.0));
        // The start seen by either side to move gives that side the same inputs.
        let start_black = parse(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1 | 0 | 0.5",
        )
        .unwrap();
        let (a, b) = (red.inputs(false), start_black.inputs(false));
        assert_eq!(sorted(&a.own), sorted(&b.own));
        assert!(parse("not a position | 1 | 1").is_none());
        assert!(parse("4k4/9/9/9/9/9/9/9/9/4K4 w | x | 1").is_none());
    }
}
