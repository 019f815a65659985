//! Training positions: the lines `cannonade selfplay` writes (`FEN | score | result`, score
//! and result from the first seat's view), kept as their pieces with the score and result
//! from the side to move's view. The network's inputs are computed per batch, so that a
//! position can be seen mirrored left to right as well where the game is symmetric that way
//! (Xiangqi and Chess-Battle; Commander's sea is on one wing), doubling what the data shows.

use anyhow::{Context, Result};
use cannonade_core::Side;
use cannonade_engine::nnue::{Features, NetGame};
use std::io::BufRead;

/// Most active inputs per side: pieces on a board (Chess-Battle starts with 48, Commander
/// with 38) and Commander's heroes. A position with more is skipped.
pub const MAX_ACTIVE: usize = 64;

/// One position: its game, its inputs (seat · kinds + kind index, and square), the side to move, and
/// the search score and game result from the side to move's view.
#[derive(Clone, Copy)]
pub struct Sample {
    game: NetGame,
    pieces: [(u8, u8); MAX_ACTIVE],
    count: u8,
    first_to_move: bool,
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
    /// The inputs of the position, or of its mirror image left to right when `flip` (worth
    /// the same in a symmetric game; a game without mirror images keeps its squares).
    pub fn inputs(&self, flip: bool) -> Inputs {
        match self.game {
            NetGame::Xiangqi => self.inputs_as::<cannonade_xiangqi::Position>(flip),
            NetGame::ChessBattle => self.inputs_as::<cannonade_battle::Position>(flip),
            NetGame::Commander => self.inputs_as::<cannonade_commander::Position>(flip),
        }
    }

    fn inputs_as<P: Features>(&self, flip: bool) -> Inputs {
        let pieces = &self.pieces[..self.count as usize];
        let square = |sq: u8| if flip { P::mirror_square(sq) } else { sq };
        // The royal piece is kind 0 in every game with a network.
        let royal = |seat: usize| {
            let code = (seat * P::KINDS) as u8;
            pieces.iter().find(|&&(p, _)| p == code).map_or(0, |&(_, sq)| square(sq))
        };
        let stm = if self.first_to_move { 0 } else { 1 };
        let (own_mirror, other_mirror) = (P::mirrors(royal(stm)), P::mirrors(royal(1 - stm)));
        let mut out = Inputs { own: [0; MAX_ACTIVE], other: [0; MAX_ACTIVE], count: pieces.len() };
        for (i, &(p, sq)) in pieces.iter().enumerate() {
            let (owner, kind, sq) = (p as usize / P::KINDS, p as usize % P::KINDS, square(sq));
            out.own[i] = P::feature(stm, own_mirror, owner, kind, sq) as u16;
            out.other[i] = P::feature(1 - stm, other_mirror, owner, kind, sq) as u16;
        }
        out
    }

    /// Takes the pieces and side to move of `pos`; `None` if it has too many pieces.
    fn fill<P: Features>(mut self, pos: &P) -> Option<Sample> {
        self.first_to_move = pos.mover() == Side::First;
        let mut fits = true;
        pos.for_each_piece(|owner, kind, sq| match self.pieces.get_mut(self.count as usize) {
            Some(slot) => {
                *slot = ((owner * P::KINDS + kind) as u8, sq);
                self.count += 1;
            }
            None => fits = false,
        });
        fits.then_some(self)
    }
}

/// The fields of a `cannonade selfplay` line `FEN | score | result`; `None` if it has not
/// got them.
pub fn fields(line: &str) -> Option<(&str, f32, f32)> {
    let mut parts = line.split('|').map(str::trim);
    let fen = parts.next()?;
    let score: f32 = parts.next()?.parse().ok()?;
    let result: f32 = parts.next()?.parse().ok()?;
    Some((fen, score, result))
}

/// Reads a line of `game`; `None` for a line that is not a valid sample.
pub fn parse(line: &str, game: NetGame) -> Option<Sample> {
    let (fen, score, result) = fields(line)?;
    let empty =
        Sample { game, pieces: [(0, 0); MAX_ACTIVE], count: 0, first_to_move: true, score, result };
    let mut s = match game {
        NetGame::Xiangqi => empty.fill(&cannonade_xiangqi::Position::from_fen(fen).ok()?),
        NetGame::ChessBattle => empty.fill(&cannonade_battle::Position::from_fen(fen).ok()?),
        NetGame::Commander => empty.fill(&cannonade_commander::Position::from_fen(fen).ok()?),
    }?;
    if !s.first_to_move {
        s.score = -s.score;
        s.result = 1.0 - s.result;
    }
    Some(s)
}

/// Reads every file; returns the samples and how many lines were skipped.
pub fn load(paths: &[String], game: NetGame) -> Result<(Vec<Sample>, usize)> {
    load_lines(paths, |line| parse(line, game))
}

/// Reads every line of every file with `parse`; returns what it read and how many lines it
/// refused.
pub fn load_lines<T>(
    paths: &[String],
    parse: impl Fn(&str) -> Option<T>,
) -> Result<(Vec<T>, usize)> {
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
    use cannonade_engine::nnue::features;

    fn sorted(v: &[u16]) -> Vec<u16> {
        let mut v = v.to_vec();
        v.sort_unstable();
        v
    }

    /// The sample of `fen` has the engine's inputs from the side to move's view, and its
    /// mirror image has those of `mirror`, the position reflected left to right.
    fn inputs_are_the_engines<P: Features>(
        game: NetGame,
        read: fn(&str) -> P,
        pairs: &[(&str, &str)],
    ) {
        for &(fen, mirror) in pairs {
            let s = parse(&format!("{fen} | 40 | 1"), game).unwrap();
            let pos = read(fen);
            let stm = pos.mover().index();
            let want = |p: &P, side| {
                let mut v: Vec<u16> = features(p, side).into_iter().map(|f| f as u16).collect();
                v.sort_unstable();
                v
            };
            let inputs = s.inputs(false);
            assert_eq!(sorted(&inputs.own[..inputs.count]), want(&pos, stm), "{fen}");
            assert_eq!(sorted(&inputs.other[..inputs.count]), want(&pos, 1 - stm), "{fen}");
            let flipped = s.inputs(true);
            let mirror = read(mirror);
            assert_eq!(sorted(&flipped.own[..flipped.count]), want(&mirror, stm), "{fen}");
            assert_eq!(sorted(&flipped.other[..flipped.count]), want(&mirror, 1 - stm), "{fen}");
        }
    }

    #[test]
    fn xiangqi_inputs_are_the_engines() {
        use cannonade_xiangqi::Position;
        let pairs = [
            (
                "2bak4/4a4/4b1n2/p3c3p/2p3p2/6P2/P3P3P/2N1B1C2/4A4/2BAK4 w - - 0 1",
                "4kab2/4a4/2n1b4/p3c3p/2p3p2/2P6/P3P3P/2C1B1N2/4A4/4KAB2 w - - 0 1",
            ),
            ("3k5/9/9/9/9/2C6/9/9/9/5K3 b - - 0 1", "5k3/9/9/9/9/6C2/9/9/9/3K5 b - - 0 1"),
        ];
        inputs_are_the_engines(NetGame::Xiangqi, |f| Position::from_fen(f).unwrap(), &pairs);
    }

    #[test]
    fn battle_inputs_are_the_engines() {
        use cannonade_battle::Position;
        let pairs = [
            (
                "gcmbhmcg/sssstsss/2ssssssss2/12/12/12/12/12/12/2SSSSSSSS2/SSSSTSSS/GCMBHMCG r 0 1",
                "gcmhbmcg/ssstssss/2ssssssss2/12/12/12/12/12/12/2SSSSSSSS2/SSSTSSSS/GCMHBMCG r 0 1",
            ),
            (
                "4h3/8/12/12/3G8/12/12/12/12/12/8/2H5 w 0 1",
                "3h4/8/12/12/8G3/12/12/12/12/12/8/5H2 w 0 1",
            ),
        ];
        inputs_are_the_engines(NetGame::ChessBattle, |f| Position::from_fen(f).unwrap(), &pairs);
    }

    /// Commander has no mirror images: a flipped sample keeps its inputs. Stacks give an
    /// input per piece, heroes one more.
    #[test]
    fn commander_inputs_are_the_engines() {
        use cannonade_commander::Position;
        let fens = [
            cannonade_commander::START_FEN,
            "9c1/11/9im/11/11/11/4i6/11/4(+TI)6/9IM/11/10C b - - 0 1",
            "10c/11/9im/11/11/11/2i8/11/11/1(NFT)1I7/11/6C4 r - - 0 1",
        ];
        let pairs: Vec<(&str, &str)> = fens.iter().map(|&f| (f, f)).collect();
        inputs_are_the_engines(NetGame::Commander, |f| Position::from_fen(f).unwrap(), &pairs);
        let game = NetGame::Commander;
        assert_eq!(parse(&format!("{} | 0 | 0.5", fens[0]), game).unwrap().count, 38);
        assert_eq!(parse(&format!("{} | 0 | 0.5", fens[1]), game).unwrap().count, 10);
    }

    #[test]
    fn lines_read_from_the_side_to_moves_view() {
        let game = NetGame::Xiangqi;
        let red = parse(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 40 | 1",
            game,
        )
        .unwrap();
        assert_eq!((red.count, red.score, red.result), (32, 40.0, 1.0));
        let black = parse(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4C2/9/RNBAKABNR b - - 1 1 | 40 | 1",
            game,
        )
        .unwrap();
        assert_eq!((black.score, black.result), (-40.0, 0.0));
        // The start seen by either side to move gives that side the same inputs.
        let start_black = parse(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1 | 0 | 0.5",
            game,
        )
        .unwrap();
        let (a, b) = (red.inputs(false), start_black.inputs(false));
        assert_eq!(sorted(&a.own), sorted(&b.own));
        assert!(parse("not a position | 1 | 1", game).is_none());
        assert!(parse("4k4/9/9/9/9/9/9/9/9/4K4 w | x | 1", game).is_none());
        // A line of another game is not a sample of this one.
        let battle_start =
            "gcmbhmcg/sssstsss/2ssssssss2/12/12/12/12/12/12/2SSSSSSSS2/SSSSTSSS/GCMBHMCG r 0 1";
        assert!(parse(&format!("{battle_start} | 0 | 0.5"), game).is_none());
        let s = parse(&format!("{battle_start} | 0 | 0.5"), NetGame::ChessBattle).unwrap();
        assert_eq!(s.count, 48);
    }
}
