//! An efficiently updatable neural network (NNUE) for the Xiangqi evaluation: the pieces on
//! their points, seen from each side, feed one hidden layer per side (the *accumulator*, kept
//! up to date move by move in the search), whose squared clipped activations give the value.
//!
//! The network is trained by `cannonade-train` on positions from the engine's own games
//! (`cannonade selfplay`); docs/engine.md ("The Xiangqi network") tells how. Its file format
//! (little-endian):
//!
//! | field | type |
//! |---|---|
//! | magic `CNNX`, version 1 | 4 bytes, `u32` |
//! | inputs, hidden size | `u32`, `u32` |
//! | scale: centipawns per unit of output | `f32` |
//! | input weights, `inputs × hidden`, feature-major | `i16`, × [`QA`] |
//! | hidden biases | `i16` × hidden, × [`QA`] |
//! | output weights, own side's half first | `i16` × 2·hidden, × [`QB`] |
//! | output bias | `i32`, × [`QA`]·[`QB`] |
//!
//! ```
//! use cannonade_engine::nnue::{self, Network};
//! use cannonade_xiangqi::{Colour, Position};
//! let pos = Position::startpos();
//! // 32 pieces, each one input of each side's half.
//! assert_eq!(nnue::xiangqi_features(&pos, Colour::Red).count(), 32);
//! // A network of zero weights (a trained one comes from `cannonade-train`) values
//! // every position at its output bias: here nothing.
//! let zeros = vec![0; nnue::XIANGQI_INPUTS * nnue::HIDDEN];
//! let file = nnue::write_network(1.0, &zeros, &[0; nnue::HIDDEN], &[0; 2 * nnue::HIDDEN], 0);
//! let net = Network::from_bytes(&file).unwrap();
//! assert_eq!(net.evaluate_position(&pos), 0);
//! ```

use cannonade_geom::bits::Bits128;
use cannonade_xiangqi::{Colour, Kind, Piece, Position, Square};
use std::sync::OnceLock;

/// Inputs of the Xiangqi network per side: own and enemy pieces, 7 kinds, 90 points.
pub const XIANGQI_INPUTS: usize = 2 * 7 * 90;
/// Hidden units per side.
pub const HIDDEN: usize = 256;
/// Quantisation of the input layer and the activations: 1.0 is this.
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;

const MAGIC: &[u8; 4] = b"CNNX";
const VERSION: u32 = 1;

/// Whether a side's view of the board is mirrored left to right: when its general stands
/// right of the centre (`general_file` > 4), so that each side always sees its general on
/// the left half or the centre and positions that are mirror images share their inputs.
#[inline]
pub const fn mirrors(general_file: u8) -> bool {
    general_file > 4
}

/// Whether `side`'s view of `pos` is mirrored (see [`mirrors`]).
#[inline]
pub fn mirrored(pos: &Position, side: Colour) -> bool {
    mirrors(pos.general(side).file())
}

/// The input of `piece` on the point of index `sq` in the half of `side`, whose view is
/// mirrored when `mirror`: own pieces first, points counted from the side's own back rank.
#[inline]
pub fn xiangqi_feature(side: Colour, mirror: bool, piece: Piece, sq: u8) -> usize {
    let (file, rank) = (sq % 9, sq / 9);
    let rank = if side == Colour::Red { rank } else { 9 - rank } as usize;
    let file = if mirror { 8 - file } else { file } as usize;
    let enemy = (piece.colour != side) as usize;
    (enemy * 7 + piece.kind.index()) * 90 + rank * 9 + file
}

/// The active inputs of `side`'s half of the network in `pos`.
pub fn xiangqi_features(pos: &Position, side: Colour) -> impl Iterator<Item = usize> + '_ {
    let mirror = mirrored(pos, side);
    [Colour::Red, Colour::Black].into_iter().flat_map(move |c| {
        Kind::ALL.into_iter().flat_map(move |k| {
            Bits128(pos.pieces(c, k))
                .map(move |sq| xiangqi_feature(side, mirror, Piece::new(c, k), sq))
        })
    })
}

/// Why a network file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// The file does not start with the magic and version this build reads.
    Format,
    /// Its sizes differ from this build's.
    Shape {
        /// Inputs in the file.
        inputs: u32,
        /// Hidden units in the file.
        hidden: u32,
    },
    /// The file is shorter or longer than its sizes say.
    Length,
    /// The network is already in use in this process.
    InUse,
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetworkError::Format => write!(f, "not a Cannonade network file (version {VERSION})"),
            NetworkError::Shape { inputs, hidden } => write!(
                f,
                "network of {inputs} inputs and {hidden} hidden units, this build takes \
                 {XIANGQI_INPUTS} and {HIDDEN}"
            ),
            NetworkError::Length => write!(f, "network file of the wrong length"),
            NetworkError::InUse => {
                write!(
                    f,
                    "the Xiangqi network is already in use (choose it before the first search)"
                )
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// One side's hidden layer before activation, in units of [`QA`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(64))]
pub struct Half(pub [i16; HIDDEN]);

/// Both sides' halves, indexed by [`Colour::index`], and whether each side's view is mirrored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    halves: [Half; 2],
    mirror: [bool; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { halves: [Half([0; HIDDEN]); 2], mirror: [false; 2] }
    }
}

/// A quantised network.
#[derive(Debug)]
pub struct Network {
    /// Centipawns per unit of output.
    scale: f32,
    input: Vec<Half>,
    bias: Half,
    output: [[i16; HIDDEN]; 2],
    output_bias: i32,
}

/// The network shipped with the engine: trained by `cannonade-train` on 860 k positions of
/// `cannonade selfplay` (docs/engine.md, "The Xiangqi network").
static XIANGQI_NET: &[u8] = include_bytes!("../nets/xiangqi.nnue");

/// The Xiangqi network in use, fixed at its first use.
static XIANGQI: OnceLock<Network> = OnceLock::new();

impl Network {
    /// Reads a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(4).ok_or(NetworkError::Format)? != MAGIC || r.u32()? != VERSION {
            return Err(NetworkError::Format);
        }
        let (inputs, hidden) = (r.u32()?, r.u32()?);
        if inputs as usize != XIANGQI_INPUTS || hidden as usize != HIDDEN {
            return Err(NetworkError::Shape { inputs, hidden });
        }
        let scale = f32::from_bits(r.u32()?);
        let mut input = vec![Half([0; HIDDEN]); XIANGQI_INPUTS];
        for row in &mut input {
            r.i16s(&mut row.0)?;
        }
        let mut bias = Half([0; HIDDEN]);
        r.i16s(&mut bias.0)?;
        let mut output = [[0; HIDDEN]; 2];
        for half in &mut output {
            r.i16s(half)?;
        }
        let output_bias = r.u32()? as i32;
        if r.at != bytes.len() || !scale.is_finite() {
            return Err(NetworkError::Length);
        }
        Ok(Network { scale, input, bias, output, output_bias })
    }

    /// The Xiangqi network of this process: the one built into the engine, unless
    /// [`Network::use_xiangqi_file`] chose another before the first evaluation.
    pub fn xiangqi() -> &'static Network {
        XIANGQI.get_or_init(|| {
            // Built in at compile time, and a test reads it: never fails at run time.
            Network::from_bytes(XIANGQI_NET)
                .unwrap_or_else(|e| panic!("the built-in Xiangqi network: {e}"))
        })
    }

    /// Makes the network in `bytes` this process's Xiangqi network (for trying a newly
    /// trained one). Only before the first evaluation: the network is fixed from then on, so
    /// reading it costs the search nothing.
    pub fn use_xiangqi_file(bytes: &[u8]) -> Result<(), NetworkError> {
        let net = Network::from_bytes(bytes)?;
        XIANGQI.set(net).map_err(|_| NetworkError::InUse)
    }

    /// `side`'s half computed from the pieces.
    fn refresh_half(&self, pos: &Position, side: Colour, half: &mut Half) {
        half.0 = self.bias.0;
        for f in xiangqi_features(pos, side) {
            add(&mut half.0, &self.input[f].0);
        }
    }

    /// The accumulator of `pos`, computed from its pieces.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::default();
        for side in [Colour::Red, Colour::Black] {
            let i = side.index();
            acc.mirror[i] = mirrored(pos, side);
            self.refresh_half(pos, side, &mut acc.halves[i]);
        }
        acc
    }

    /// The accumulator of `child`, reached from `parent` (whose accumulator is `acc`) by
    /// moving the piece on `from` to `to`: the moved piece's inputs change, a captured
    /// piece's input goes, and a side whose general crosses the centre file is refreshed.
    pub fn update(
        &self,
        parent: &Position,
        child: &Position,
        from: Square,
        to: Square,
        acc: &Accumulator,
        out: &mut Accumulator,
    ) {
        let Some(moved) = parent.piece_at(from) else {
            *out = self.refresh(child);
            return;
        };
        let captured = parent.piece_at(to);
        for side in [Colour::Red, Colour::Black] {
            let i = side.index();
            let mirror = mirrored(child, side);
            out.mirror[i] = mirror;
            if mirror != acc.mirror[i] {
                self.refresh_half(child, side, &mut out.halves[i]);
                continue;
            }
            let sub = &self.input[xiangqi_feature(side, mirror, moved, from.index())].0;
            let put = &self.input[xiangqi_feature(side, mirror, moved, to.index())].0;
            let half = &mut out.halves[i].0;
            match captured {
                None => move_feature(half, &acc.halves[i].0, sub, put),
                Some(c) => {
                    let gone = &self.input[xiangqi_feature(side, mirror, c, to.index())].0;
                    move_capture(half, &acc.halves[i].0, sub, put, gone);
                }
            }
        }
    }

    /// The value for the side to move of a position whose accumulator is `acc`, in
    /// centipawns.
    pub fn evaluate(&self, acc: &Accumulator, to_move: Colour) -> i32 {
        let us = &acc.halves[to_move.index()].0;
        let them = &acc.halves[(!to_move).index()].0;
        let sum = screlu_dot(us, &self.output[0]) + screlu_dot(them, &self.output[1]);
        let raw = sum / QA as i64 + self.output_bias as i64;
        (raw as f32 * self.scale / (QA * QB) as f32) as i32
    }

    /// The value of a position for its side to move, from scratch.
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&self.refresh(pos), pos.side_to_move())
    }
}

/// `acc += row`.
#[inline]
fn add(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*r);
    }
}

/// `out = acc - sub + put`.
#[inline]
fn move_feature(
    out: &mut [i16; HIDDEN],
    acc: &[i16; HIDDEN],
    sub: &[i16; HIDDEN],
    put: &[i16; HIDDEN],
) {
    for i in 0..HIDDEN {
        out[i] = acc[i].wrapping_sub(sub[i]).wrapping_add(put[i]);
    }
}

/// `out = acc - sub + put - gone`.
#[inline]
fn move_capture(
    out: &mut [i16; HIDDEN],
    acc: &[i16; HIDDEN],
    sub: &[i16; HIDDEN],
    put: &[i16; HIDDEN],
    gone: &[i16; HIDDEN],
) {
    for i in 0..HIDDEN {
        out[i] = acc[i].wrapping_sub(sub[i]).wrapping_add(put[i]).wrapping_sub(gone[i]);
    }
}

/// Σ clamp(x, 0, QA)² · w, the squared clipped activations against the output weights. The
/// product `c · w` fits in 16 bits (|w| < 128 after training's clipping), and its product
/// with `c` is summed in 32-bit lanes, which the compiler turns into `pmaddwd`.
#[inline]
fn screlu_dot(x: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i64 {
    let mut sum = 0i32;
    for i in 0..HIDDEN {
        let c = x[i].clamp(0, QA as i16);
        sum = sum.wrapping_add((c.wrapping_mul(w[i])) as i32 * c as i32);
    }
    sum as i64
}

/// A cursor over a network file.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let s = self.bytes.get(self.at..self.at + n)?;
        self.at += n;
        Some(s)
    }

    fn u32(&mut self) -> Result<u32, NetworkError> {
        let b = self.take(4).ok_or(NetworkError::Length)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16s(&mut self, out: &mut [i16]) -> Result<(), NetworkError> {
        let b = self.take(2 * out.len()).ok_or(NetworkError::Length)?;
        for (o, c) in out.iter_mut().zip(b.chunks_exact(2)) {
            *o = i16::from_le_bytes([c[0], c[1]]);
        }
        Ok(())
    }
}

/// Writes a network file from its quantised parts (the trainer's side of the format).
pub fn write_network(
    scale: f32,
    input: &[i16],
    bias: &[i16],
    output: &[i16],
    output_bias: i32,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(24 + 2 * (input.len() + bias.len() + output.len()));
    out.extend_from_slice(MAGIC);
    for v in [VERSION, XIANGQI_INPUTS as u32, HIDDEN as u32, scale.to_bits()] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for &w in input.iter().chain(bias).chain(output) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&output_bias.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::{MoveBuf, Rules};

    /// A network of small pseudo-random weights (the accumulator's arithmetic does not care
    /// what they mean).
    fn random_net() -> Network {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: i64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x % (2 * m as u64 + 1)) as i64 - m) as i16
        };
        let input: Vec<i16> = (0..XIANGQI_INPUTS * HIDDEN).map(|_| next(60)).collect();
        let bias: Vec<i16> = (0..HIDDEN).map(|_| next(100)).collect();
        let output: Vec<i16> = (0..2 * HIDDEN).map(|_| next(100)).collect();
        Network::from_bytes(&write_network(400.0, &input, &bias, &output, 1234)).unwrap()
    }

    /// Updating the accumulator move by move gives what a refresh gives, along random games
    /// that capture and move generals across the centre file.
    #[test]
    fn updates_match_refreshes() {
        let net = random_net();
        let mut buf = MoveBuf::new();
        for game in 0..20u64 {
            let mut pos = Position::startpos();
            let mut acc = net.refresh(&pos);
            let mut seed = game * 7919 + 1;
            for _ in 0..200 {
                Rules::legal_moves(&pos, &mut buf);
                if buf.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let mv = buf[(seed >> 33) as usize % buf.len()];
                let mut child = pos.clone();
                child.play(mv);
                let mut next = Accumulator::default();
                net.update(&pos, &child, mv.from(), mv.to(), &acc, &mut next);
                assert_eq!(next, net.refresh(&child), "after {mv:?} in {pos:?}");
                assert_eq!(
                    net.evaluate(&next, child.side_to_move()),
                    net.evaluate_position(&child)
                );
                pos = child;
                acc = next;
            }
        }
    }

    #[test]
    fn mirror_images_evaluate_alike() {
        let net = random_net();
        let a = Position::from_fen("3k5/9/9/9/9/2C6/9/9/9/4K4 w").unwrap();
        let b = Position::from_fen("5k3/9/9/9/9/6C2/9/9/9/4K4 w").unwrap();
        // Black sees its general on d9 in both (b's is mirrored from f9), so its halves
        // agree; Red's general on e0 is not mirrored, so Red sees the cannons apart.
        assert_eq!(net.refresh(&a).halves[1], net.refresh(&b).halves[1]);
        assert_ne!(net.refresh(&a).halves[0], net.refresh(&b).halves[0]);
    }

    #[test]
    fn the_built_in_network_reads_and_values_the_start_about_even() {
        let net = Network::from_bytes(XIANGQI_NET).unwrap();
        let v = net.evaluate_position(&Position::startpos());
        assert!(v.abs() < 100, "{v}");
        // A chariot up is clearly better for the side that has it, whoever moves.
        let up =
            Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                .unwrap();
        assert!(net.evaluate_position(&up) > 300, "{}", net.evaluate_position(&up));
    }

    #[test]
    fn bad_files_are_refused() {
        assert_eq!(Network::from_bytes(b"CNNX").unwrap_err(), NetworkError::Length);
        assert_eq!(Network::from_bytes(b"XXXXXXXXXXXX").unwrap_err(), NetworkError::Format);
        let mut bytes = write_network(1.0, &[], &[], &[], 0);
        bytes[8] = 7;
        assert!(matches!(Network::from_bytes(&bytes), Err(NetworkError::Shape { .. })));
        let good = write_network(
            1.0,
            &vec![0; XIANGQI_INPUTS * HIDDEN],
            &[0; HIDDEN],
            &[0; 2 * HIDDEN],
            0,
        );
        assert!(Network::from_bytes(&good).is_ok());
        assert_eq!(Network::from_bytes(&good[..good.len() - 1]).unwrap_err(), NetworkError::Length);
    }
}
