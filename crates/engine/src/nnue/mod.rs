//! An efficiently updatable neural network (NNUE) for the evaluation of Xiangqi,
//! Chess-Battle and Commander Chess: the pieces on their squares, seen from each side ([`Features`]), feed one
//! hidden layer per side (the *accumulator*, kept up to date move by move in the search),
//! whose squared clipped activations give the value.
//!
//! A network is trained by `cannonade-train` on positions from the engine's own games
//! (`cannonade selfplay`); docs/engine.md ("The Xiangqi network") tells how. Its file format
//! (little-endian):
//!
//! | field | type |
//! |---|---|
//! | magic `CNNX`, version 2 | 4 bytes, `u32` |
//! | inputs, hidden size, output buckets | `u32`, `u32`, `u32` |
//! | scale: centipawns per unit of output | `f32` |
//! | input weights, `inputs × hidden`, feature-major | `i16`, × [`QA`] |
//! | hidden biases | `i16` × hidden, × [`QA`] |
//! | output weights by bucket, own side's half first | `i16` × buckets·2·hidden, × [`QB`] |
//! | output biases by bucket | `i32` × buckets, × [`QA`]·[`QB`] |
//!
//! The output bucket of a position is chosen by how many pieces are on the board
//! ([`output_bucket`]): an ending is valued by other weights than an opening. Version 1
//! files (one bucket, no bucket count) are still read.
//!
//! ```
//! use cannonade_engine::nnue::{self, Network};
//! use cannonade_xiangqi::Position;
//! let pos = Position::startpos();
//! // 32 pieces, each one input of each side's half.
//! assert_eq!(nnue::features(&pos, 0).len(), 32);
//! // A network of zero weights (a trained one comes from `cannonade-train`) values
//! // every position at its output bias: here nothing.
//! let zeros = vec![0; nnue::XIANGQI_INPUTS * nnue::HIDDEN];
//! let file = nnue::write_network(1.0, &zeros, &[0; nnue::HIDDEN], &[0; 2 * nnue::HIDDEN], &[0]);
//! let net = Network::from_bytes(&file).unwrap();
//! assert_eq!(net.evaluate_position(&pos, 0), 0);
//! ```

mod battle;
mod commander;
mod xiangqi;

pub use battle::BATTLE_INPUTS;
use cannonade_core::Rules;
pub use commander::COMMANDER_INPUTS;
pub use xiangqi::XIANGQI_INPUTS;

use cannonade_games::GameKind;
use std::sync::OnceLock;

/// Hidden units per side.
pub const HIDDEN: usize = 256;
/// Quantisation of the input layer and the activations: 1.0 is this.
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;

const MAGIC: &[u8; 4] = b"CNNX";
/// The version this build writes; it reads 1 as well.
const VERSION: u32 = 2;
/// Most output buckets a file may have.
pub const MAX_OUTPUT_BUCKETS: usize = 16;

/// The output bucket of a position with `active` inputs in each half (its pieces, plus
/// Commander's hero inputs) in a network of `buckets` buckets for `game`: the pieces of
/// the game's start cut into equal spans, fewest first.
pub fn output_bucket(game: NetGame, active: usize, buckets: usize) -> usize {
    (active.saturating_sub(1) * buckets / game.start_active()).min(buckets.max(1) - 1)
}

/// The games that have networks; a file's number of inputs tells which it is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetGame {
    /// [`XIANGQI_INPUTS`] inputs.
    Xiangqi,
    /// [`BATTLE_INPUTS`] inputs.
    ChessBattle,
    /// [`COMMANDER_INPUTS`] inputs.
    Commander,
}

impl NetGame {
    /// Every game that has networks.
    pub const ALL: [NetGame; 3] = [NetGame::Xiangqi, NetGame::ChessBattle, NetGame::Commander];

    /// Inputs per side of this game's networks.
    pub const fn inputs(self) -> usize {
        match self {
            NetGame::Xiangqi => XIANGQI_INPUTS,
            NetGame::ChessBattle => BATTLE_INPUTS,
            NetGame::Commander => COMMANDER_INPUTS,
        }
    }

    /// The points of the game's board. Every input is an (own or enemy, kind) pair on a
    /// point, numbered `pair · points + point` (a test checks it), so that a trainer can
    /// share what a kind is worth wherever it stands (`cannonade-train --factors`).
    pub const fn points(self) -> usize {
        match self {
            NetGame::Xiangqi => xiangqi::POINTS,
            NetGame::ChessBattle => battle::SQUARES,
            NetGame::Commander => cannonade_commander::board::NPOINTS,
        }
    }

    /// The active inputs of each half in the game's start position (a test checks them).
    pub const fn start_active(self) -> usize {
        match self {
            NetGame::Xiangqi => 32,
            NetGame::ChessBattle => 48,
            NetGame::Commander => 38,
        }
    }

    /// The network game of `kind`, if it has networks.
    pub fn of_kind(kind: GameKind) -> Option<NetGame> {
        match kind {
            GameKind::Xiangqi => Some(NetGame::Xiangqi),
            GameKind::ChessBattle => Some(NetGame::ChessBattle),
            GameKind::Commander => Some(NetGame::Commander),
            GameKind::Banqi => None,
        }
    }

    /// The game whose networks have `inputs` inputs per side.
    pub fn of_inputs(inputs: usize) -> Option<NetGame> {
        NetGame::ALL.into_iter().find(|g| g.inputs() == inputs)
    }

    /// Where this process keeps the game's network once chosen.
    fn slot(self) -> &'static OnceLock<Network> {
        match self {
            NetGame::Xiangqi => &XIANGQI,
            NetGame::ChessBattle => &BATTLE,
            NetGame::Commander => &COMMANDER,
        }
    }

    /// The file of the network built into the engine for this game; `None` for a game
    /// whose trained networks have not yet beaten its hand-written evaluation (Commander:
    /// docs/engine.md, "The Commander network"), which then plays by hand unless
    /// [`Network::use_file`] gives it one.
    fn built_in(self) -> Option<&'static [u8]> {
        match self {
            NetGame::Xiangqi => Some(XIANGQI_NET),
            NetGame::ChessBattle => Some(BATTLE_NET),
            NetGame::Commander => None,
        }
    }
}

/// How a game's pieces feed a network. Each side's half of the inputs holds every piece as
/// (own or enemy, kind, square), with the squares seen from that side: ranks counted from its
/// own back rank, and, in a game symmetric left to right, files reversed when its royal
/// piece stands right of the middle, so that mirror-image positions share their inputs.
/// Sides are indexed 0 (first seat) and 1.
pub trait Features: Rules {
    /// Inputs per side.
    const INPUTS: usize;
    /// The game.
    const GAME: NetGame;
    /// Kind indexes per owner (`kind` below is less than this); the royal piece is 0.
    const KINDS: usize;
    /// The input of a piece of seat `owner` and kind index `kind` on the square of index
    /// `sq` in `side`'s half, whose view is mirrored when `mirror`.
    fn feature(side: usize, mirror: bool, owner: usize, kind: usize, sq: u8) -> usize;
    /// Whether a side whose royal piece stands on the square of index `royal` sees the
    /// board mirrored.
    fn mirrors(royal: u8) -> bool;
    /// The index of a square's mirror image left to right, where a piece stands in the
    /// mirror image of a position that is worth the same; the square itself in a game
    /// without such images.
    fn mirror_square(sq: u8) -> u8;
    /// The square index of `side`'s royal piece.
    fn royal(&self, side: usize) -> u8;
    /// Calls `f(owner, kind, square)` for every piece on the board.
    fn for_each_piece(&self, f: impl FnMut(usize, usize, u8));
    /// What the legal move `mv`, which leads to `child`, changes on this position's board.
    fn delta(&self, child: &Self, mv: Self::Move) -> Delta;
}

/// Whether `side`'s view of `pos` is mirrored (see [`Features::mirrors`]).
#[inline]
pub fn mirrored<P: Features>(pos: &P, side: usize) -> bool {
    P::mirrors(pos.royal(side))
}

/// The active inputs of `side`'s half of the network in `pos`.
pub fn features<P: Features>(pos: &P, side: usize) -> Vec<usize> {
    let mirror = mirrored(pos, side);
    let mut out = Vec::with_capacity(64);
    pos.for_each_piece(|owner, kind, sq| out.push(P::feature(side, mirror, owner, kind, sq)));
    out
}

/// A piece on a square, as a move's [`Delta`] names it: (seat, kind index, square index).
pub type Placed = (u8, u8, u8);

/// Most inputs a [`Delta`] lists each way; a move that changes more (a Commander stack that
/// captures a stack) has its halves computed afresh.
const DELTA_MOST: usize = 8;

/// What a move changed on the board: the inputs it took off (the mover from its origin,
/// captured and removed pieces) and those it put down (the mover on its destination; none
/// for a shot or a piece that left the board).
#[derive(Clone, Copy, Debug, Default)]
pub struct Delta {
    off: [Placed; DELTA_MOST],
    offs: u8,
    on: [Placed; DELTA_MOST],
    ons: u8,
    /// More changes than the lists hold: the update refreshes instead.
    overflow: bool,
}

impl Delta {
    /// Takes a piece off its square.
    #[inline]
    pub fn off(&mut self, p: Placed) {
        match self.off.get_mut(self.offs as usize) {
            Some(slot) => {
                *slot = p;
                self.offs += 1;
            }
            None => self.overflow = true,
        }
    }

    /// Puts a piece on a square.
    #[inline]
    pub fn on(&mut self, p: Placed) {
        match self.on.get_mut(self.ons as usize) {
            Some(slot) => {
                *slot = p;
                self.ons += 1;
            }
            None => self.overflow = true,
        }
    }
}

/// Why a network file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// The file does not start with the magic and a version this build reads.
    Format,
    /// Its sizes differ from this build's.
    Shape {
        /// Inputs in the file.
        inputs: u32,
        /// Hidden units in the file.
        hidden: u32,
        /// Output buckets in the file.
        buckets: u32,
    },
    /// The file is shorter or longer than its sizes say.
    Length,
    /// The game's network is already in use in this process.
    InUse(NetGame),
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetworkError::Format => {
                write!(f, "not a Cannonade network file (versions 1 to {VERSION})")
            }
            NetworkError::Shape { inputs, hidden, buckets } => write!(
                f,
                "network of {inputs} inputs, {hidden} hidden units and {buckets} output \
                 buckets, this build takes {XIANGQI_INPUTS} (Xiangqi), {BATTLE_INPUTS} \
                 (Chess-Battle) or {COMMANDER_INPUTS} (Commander), {HIDDEN}, and 1 to \
                 {MAX_OUTPUT_BUCKETS}"
            ),
            NetworkError::Length => write!(f, "network file of the wrong length"),
            NetworkError::InUse(game) => {
                write!(
                    f,
                    "the {game:?} network is already in use (choose it before the first search)"
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

/// Both sides' halves, indexed by seat (0 the first), whether each side's view is
/// mirrored, and how many inputs each half has on (which picks the output bucket).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    halves: [Half; 2],
    mirror: [bool; 2],
    active: u16,
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { halves: [Half([0; HIDDEN]); 2], mirror: [false; 2], active: 0 }
    }
}

/// A quantised network.
#[derive(Debug)]
pub struct Network {
    game: NetGame,
    /// Centipawns per unit of output.
    scale: f32,
    input: Vec<Half>,
    bias: Half,
    /// By output bucket: the weights of the side to move's half, then the other's.
    output: Vec<[[i16; HIDDEN]; 2]>,
    /// By output bucket.
    output_bias: Vec<i32>,
}

/// The network shipped with the engine: the sixth generation, trained by `cannonade-train`
/// (batch 1,024, factor rows) on 995 k positions of `cannonade selfplay` searched with the
/// fourth (docs/engine.md, "The Xiangqi network").
static XIANGQI_NET: &[u8] = include_bytes!("../../nets/xiangqi.nnue");

/// The Xiangqi network in use, fixed at its first use.
static XIANGQI: OnceLock<Network> = OnceLock::new();

/// The Chess-Battle network shipped with the engine: trained by `cannonade-train` on 279 k
/// positions of `cannonade selfplay` (docs/engine.md, "The Chess-Battle network").
static BATTLE_NET: &[u8] = include_bytes!("../../nets/battle.nnue");

/// The Chess-Battle network in use, fixed at its first use.
static BATTLE: OnceLock<Network> = OnceLock::new();

/// The Commander network in use: none is built in (see [`NetGame::built_in`]), so only one
/// chosen by [`Network::use_file`].
static COMMANDER: OnceLock<Network> = OnceLock::new();

impl Network {
    /// Reads a network file of any game this build has networks for.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(4).ok_or(NetworkError::Format)? != MAGIC {
            return Err(NetworkError::Format);
        }
        let version = r.u32()?;
        if !(1..=VERSION).contains(&version) {
            return Err(NetworkError::Format);
        }
        let (inputs, hidden) = (r.u32()?, r.u32()?);
        let buckets = if version == 1 { 1 } else { r.u32()? };
        let game = NetGame::of_inputs(inputs as usize)
            .filter(|_| hidden as usize == HIDDEN)
            .filter(|_| (1..=MAX_OUTPUT_BUCKETS).contains(&(buckets as usize)))
            .ok_or(NetworkError::Shape { inputs, hidden, buckets })?;
        let scale = f32::from_bits(r.u32()?);
        let mut input = vec![Half([0; HIDDEN]); inputs as usize];
        for row in &mut input {
            r.i16s(&mut row.0)?;
        }
        let mut bias = Half([0; HIDDEN]);
        r.i16s(&mut bias.0)?;
        let mut output = vec![[[0; HIDDEN]; 2]; buckets as usize];
        for half in output.iter_mut().flatten() {
            r.i16s(half)?;
        }
        let mut output_bias = vec![0; buckets as usize];
        for b in &mut output_bias {
            *b = r.u32()? as i32;
        }
        if r.at != bytes.len() || !scale.is_finite() {
            return Err(NetworkError::Length);
        }
        Ok(Network { game, scale, input, bias, output, output_bias })
    }

    /// The game this network is for.
    pub fn game(&self) -> NetGame {
        self.game
    }

    /// `game`'s network in this process: the one built into the engine, unless
    /// [`Network::use_file`] chose another before the game's first evaluation; `None` for a
    /// game with neither.
    #[inline]
    pub fn of(game: NetGame) -> Option<&'static Network> {
        let slot = game.slot();
        if let Some(net) = slot.get() {
            return Some(net);
        }
        let bytes = game.built_in()?;
        Some(slot.get_or_init(|| {
            // Built in at compile time, and a test reads each: never fails at run time.
            Network::from_bytes(bytes)
                .unwrap_or_else(|e| panic!("the built-in {game:?} network: {e}"))
        }))
    }

    /// Makes the network in `bytes` this process's network for its game (for trying a newly
    /// trained one), and says which game that is. Only before the game's first evaluation:
    /// the network is fixed from then on, so reading it costs the search nothing.
    pub fn use_file(bytes: &[u8]) -> Result<NetGame, NetworkError> {
        let net = Network::from_bytes(bytes)?;
        let game = net.game;
        game.slot().set(net).map_err(|_| NetworkError::InUse(game))?;
        Ok(game)
    }

    /// `side`'s half computed from the pieces; returns how many inputs are on.
    fn refresh_half<P: Features>(
        &self,
        pos: &P,
        side: usize,
        mirror: bool,
        half: &mut Half,
    ) -> u16 {
        half.0 = self.bias.0;
        let mut active = 0;
        pos.for_each_piece(|owner, kind, sq| {
            add(&mut half.0, &self.input[P::feature(side, mirror, owner, kind, sq)].0);
            active += 1;
        });
        active
    }

    /// The accumulator of `pos`, computed from its pieces.
    pub fn refresh<P: Features>(&self, pos: &P) -> Accumulator {
        let mut acc = Accumulator::default();
        for side in 0..2 {
            acc.mirror[side] = mirrored(pos, side);
            acc.active = self.refresh_half(pos, side, acc.mirror[side], &mut acc.halves[side]);
        }
        acc
    }

    /// The accumulator of `child`, reached from `parent` (whose accumulator is `acc`) by
    /// `mv`: the inputs of the pieces the move took off and put down change, and a side
    /// whose royal piece crosses the middle (so its view flips) is refreshed.
    pub fn update<P: Features>(
        &self,
        parent: &P,
        child: &P,
        mv: P::Move,
        acc: &Accumulator,
        out: &mut Accumulator,
    ) {
        let delta = parent.delta(child, mv);
        out.active = acc.active + delta.ons as u16 - delta.offs as u16;
        for side in 0..2 {
            let mirror = mirrored(child, side);
            out.mirror[side] = mirror;
            if mirror != acc.mirror[side] || delta.overflow {
                out.active = self.refresh_half(child, side, mirror, &mut out.halves[side]);
                continue;
            }
            let row = |&(owner, kind, sq): &Placed| {
                &self.input[P::feature(side, mirror, owner as usize, kind as usize, sq)].0
            };
            let (half, from) = (&mut out.halves[side].0, &acc.halves[side].0);
            let off = &delta.off[..delta.offs as usize];
            match (off, &delta.on[..delta.ons as usize]) {
                ([a], [put]) => move_feature(half, from, row(a), row(put)),
                ([a, b], [put]) => move_capture(half, from, row(a), row(put), row(b)),
                (off, on) => {
                    *half = *from;
                    for p in off {
                        sub(half, row(p));
                    }
                    for p in on {
                        add(half, row(p));
                    }
                }
            }
        }
    }

    /// The value for the seat `to_move` (0 the first) of a position whose accumulator is
    /// `acc`, in centipawns.
    pub fn evaluate(&self, acc: &Accumulator, to_move: usize) -> i32 {
        let us = &acc.halves[to_move & 1].0;
        let them = &acc.halves[(to_move & 1) ^ 1].0;
        let bucket = output_bucket(self.game, acc.active as usize, self.output.len());
        let [w_us, w_them] = &self.output[bucket];
        let sum = screlu_dot(us, w_us) + screlu_dot(them, w_them);
        let raw = sum / QA as i64 + self.output_bias[bucket] as i64;
        (raw as f32 * self.scale / (QA * QB) as f32) as i32
    }

    /// The value of a position for `to_move`, from scratch.
    pub fn evaluate_position<P: Features>(&self, pos: &P, to_move: usize) -> i32 {
        self.evaluate(&self.refresh(pos), to_move)
    }
}

/// `acc -= row`.
#[inline]
fn sub(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*r);
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

/// Writes a network file from its quantised parts (the trainer's side of the format); the
/// number of inputs is `input.len() / HIDDEN`, of output buckets `output_bias.len()` (and
/// `output` holds `2 · HIDDEN` weights for each).
pub fn write_network(
    scale: f32,
    input: &[i16],
    bias: &[i16],
    output: &[i16],
    output_bias: &[i32],
) -> Vec<u8> {
    let mut out = Vec::with_capacity(28 + 2 * (input.len() + bias.len() + output.len()));
    out.extend_from_slice(MAGIC);
    let sizes = [(input.len() / HIDDEN) as u32, HIDDEN as u32, output_bias.len() as u32];
    for v in [VERSION].into_iter().chain(sizes).chain([scale.to_bits()]) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for &w in input.iter().chain(bias).chain(output) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for b in output_bias {
        out.extend_from_slice(&b.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::{MoveBuf, Rules};

    /// A network of `inputs` inputs and small pseudo-random weights (the accumulator's
    /// arithmetic does not care what they mean).
    fn random_net(inputs: usize) -> Network {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: i64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x % (2 * m as u64 + 1)) as i64 - m) as i16
        };
        let input: Vec<i16> = (0..inputs * HIDDEN).map(|_| next(60)).collect();
        let bias: Vec<i16> = (0..HIDDEN).map(|_| next(100)).collect();
        let output: Vec<i16> = (0..2 * HIDDEN).map(|_| next(100)).collect();
        Network::from_bytes(&write_network(400.0, &input, &bias, &output, &[1234])).unwrap()
    }

    /// Plays `games` random games of up to 200 plies from `start`, calling `f(ply, parent,
    /// child, move)` for every move.
    fn random_games<P: Features + Clone>(
        start: &P,
        games: u64,
        mut f: impl FnMut(usize, &P, &P, P::Move),
    ) {
        let mut buf = MoveBuf::new();
        for game in 0..games {
            let mut pos = start.clone();
            let mut seed = game * 7919 + 1;
            for ply in 0..200 {
                pos.legal_moves(&mut buf);
                if buf.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let mv = buf[(seed >> 33) as usize % buf.len()];
                let mut child = pos.clone();
                child.play(mv);
                f(ply, &pos, &child, mv);
                pos = child;
            }
        }
    }

    /// Every input of every piece along random games from `start` is its (own or enemy,
    /// kind) pair's block of [`NetGame::points`] inputs, as the trainer's factoriser reads it.
    fn inputs_are_blocks_of_points<P: Features + Clone>(start: &P) {
        let points = P::GAME.points();
        assert_eq!(P::INPUTS, 2 * P::KINDS * points, "{:?}", P::GAME);
        random_games(start, 4, |_, _, child, _| {
            for side in 0..2 {
                let mirror = mirrored(child, side);
                child.for_each_piece(|owner, kind, sq| {
                    let f = P::feature(side, mirror, owner, kind, sq);
                    let pair = (owner != side) as usize * P::KINDS + kind;
                    assert_eq!(f / points, pair, "{:?}: square {sq}", P::GAME);
                });
            }
        });
    }

    #[test]
    fn every_games_inputs_are_blocks_of_points() {
        inputs_are_blocks_of_points(&cannonade_xiangqi::Position::startpos());
        inputs_are_blocks_of_points(&cannonade_battle::Position::startpos());
        inputs_are_blocks_of_points(&cannonade_commander::Position::startpos());
    }

    /// Plays random games from `start`, checking at every move that updating the
    /// accumulator gives what a refresh gives.
    fn updates_match_refreshes_from<P: Features + Clone + std::fmt::Debug>(start: &P, games: u64) {
        let net = random_net(P::INPUTS);
        assert_eq!(net.game(), P::GAME);
        let mut acc = Accumulator::default();
        random_games(start, games, |ply, pos, child, mv| {
            if ply == 0 {
                acc = net.refresh(pos);
            }
            let mut next = Accumulator::default();
            net.update(pos, child, mv, &acc, &mut next);
            assert_eq!(next, net.refresh(child), "after {mv:?} in {pos:?}");
            let mover = child.mover().index();
            assert_eq!(net.evaluate(&next, mover), net.evaluate_position(child, mover));
            acc = next;
        });
    }

    /// Along random Xiangqi games, which capture and move generals across the centre file.
    #[test]
    fn xiangqi_updates_match_refreshes() {
        updates_match_refreshes_from(&cannonade_xiangqi::Position::startpos(), 20);
    }

    /// Along random Chess-Battle games (captures, shots, bomber flights, headquarters that
    /// cross the middle), and from a position where soldiers reach their last rank, with a
    /// removal and without.
    #[test]
    fn battle_updates_match_refreshes() {
        use cannonade_battle::Position;
        updates_match_refreshes_from(&Position::startpos(), 20);
        // A removal to choose, and none (only the headquarter is left to White).
        for (fen, removes) in [
            ("g2bh3/2S5/12/12/12/12/12/12/12/12/2s5/4H3 r 0 1", true),
            ("4h3/2S5/12/12/12/12/12/12/12/12/8/4H3 r 0 1", false),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mut buf = MoveBuf::new();
            pos.legal_moves(&mut buf);
            assert!(buf.iter().any(|m| m.is_last_rank() && m.removal().is_some() == removes));
            updates_match_refreshes_from(&pos, 40);
        }
    }

    /// Along random Commander games (stacks that load, unload and take stacks, units made
    /// heroes where they did not move), and from positions with stacks and heroes; the
    /// games must make and lose heroes, or the test would not cover them.
    #[test]
    fn commander_updates_match_refreshes() {
        use super::commander::HERO;
        use cannonade_commander::Position;
        use cannonade_commander::board::NPOINTS;
        let start = Position::startpos();
        updates_match_refreshes_from(&start, 12);
        for fen in [
            "10c/11/9im/11/11/11/2i8/11/11/1(NFT)1I7/11/6C4 r - - 0 1",
            "9c1/11/9im/11/11/11/4i6/11/4(+TI)6/9IM/11/10C r - - 0 1",
            "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/3e2m2ei/2i8/11/2IE5EI/2N1G(TM)1TG2/3A2S2A1/1N2FH1HF2/6C4 r - - 2 2",
        ] {
            updates_match_refreshes_from(&Position::from_fen(fen).unwrap(), 6);
        }
        // Heroes come and go along such games.
        let heroes = |p: &Position| {
            (0..2)
                .map(|side| {
                    features(p, side)
                        .iter()
                        .filter(|&&f| f / NPOINTS % Position::KINDS == HERO)
                        .count()
                })
                .sum::<usize>()
        };
        let (mut made, mut lost) = (0, 0);
        random_games(&start, 12, |_, pos, child, _| {
            let (a, b) = (heroes(pos), heroes(child));
            made += (b > a) as usize;
            lost += (b < a) as usize;
        });
        assert!(made > 0 && lost > 0, "heroes made {made}, lost {lost}");
    }

    /// The second seat sees the board with ranks counted from its own side: a position and
    /// its colour-swapped image (ranks reversed, files kept: the sea stays on the left) give
    /// the two halves swapped.
    #[test]
    fn commander_colour_flips_evaluate_alike() {
        use cannonade_commander::Position;
        let net = random_net(COMMANDER_INPUTS);
        let a =
            Position::from_fen("9c1/11/9im/11/11/11/4i6/11/4(+TI)6/9IM/11/10C r - - 0 1").unwrap();
        let b =
            Position::from_fen("10c/11/9im/4(+ti)6/11/4I6/11/11/11/9IM/11/9C1 b - - 0 1").unwrap();
        let (fa, fb) = (net.refresh(&a), net.refresh(&b));
        assert_eq!((fa.halves[0], fa.halves[1]), (fb.halves[1], fb.halves[0]));
        assert_eq!(net.evaluate(&fa, 0), net.evaluate(&fb, 1));
    }

    #[test]
    fn xiangqi_mirror_images_evaluate_alike() {
        use cannonade_xiangqi::Position;
        let net = random_net(XIANGQI_INPUTS);
        let a = Position::from_fen("3k5/9/9/9/9/2C6/9/9/9/4K4 w").unwrap();
        let b = Position::from_fen("5k3/9/9/9/9/6C2/9/9/9/4K4 w").unwrap();
        // Black sees its general on d9 in both (b's is mirrored from f9), so its halves
        // agree; Red's general on e0 is not mirrored, so Red sees the cannons apart.
        assert_eq!(net.refresh(&a).halves[1], net.refresh(&b).halves[1]);
        assert_ne!(net.refresh(&a).halves[0], net.refresh(&b).halves[0]);
    }

    #[test]
    fn battle_mirror_images_and_colour_flips_evaluate_alike() {
        use cannonade_battle::Position;
        let net = random_net(BATTLE_INPUTS);
        // The same position reflected left to right, and with the colours and ranks swapped.
        let a = Position::from_fen("4h3/8/12/12/3G8/12/12/12/12/12/8/2H5 r 0 1").unwrap();
        let b = Position::from_fen("3h4/8/12/12/8G3/12/12/12/12/12/8/5H2 r 0 1").unwrap();
        let c = Position::from_fen("2h5/8/12/12/12/12/12/3g8/12/12/8/4H3 w 0 1").unwrap();
        let (a, b, c) = (net.refresh(&a), net.refresh(&b), net.refresh(&c));
        assert_eq!(a.halves, b.halves);
        assert_eq!((a.halves[0], a.halves[1]), (c.halves[1], c.halves[0]));
        assert_eq!(net.evaluate(&a, 0), net.evaluate(&c, 1));
    }

    #[test]
    fn the_built_in_network_reads_and_values_the_start_about_even() {
        use cannonade_xiangqi::Position;
        let net = Network::from_bytes(NetGame::Xiangqi.built_in().unwrap()).unwrap();
        assert_eq!(net.game(), NetGame::Xiangqi);
        let v = net.evaluate_position(&Position::startpos(), 0);
        assert!(v.abs() < 100, "{v}");
        // A chariot up is clearly better for the side that has it, whoever moves.
        let up =
            Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                .unwrap();
        assert!(net.evaluate_position(&up, 0) > 300, "{}", net.evaluate_position(&up, 0));
    }

    #[test]
    fn the_built_in_battle_network_reads_and_values_the_start_about_even() {
        use cannonade_battle::Position;
        let net = Network::from_bytes(NetGame::ChessBattle.built_in().unwrap()).unwrap();
        assert_eq!(net.game(), NetGame::ChessBattle);
        let v = net.evaluate_position(&Position::startpos(), 0);
        assert!(v.abs() < 100, "{v}");
        // A bomber up is clearly better for the side that has it, whoever moves.
        let up =
            "gcm1hmcg/sssstsss/2ssssssss2/12/12/12/12/12/12/2SSSSSSSS2/SSSSTSSS/GCMBHMCG r 0 1";
        let up = Position::from_fen(up).unwrap();
        let (red, white) = (net.evaluate_position(&up, 0), net.evaluate_position(&up, 1));
        assert!(red > 300 && white < -300, "{red}, {white}");
    }

    /// Every game's start has the active inputs its output buckets are cut from.
    #[test]
    fn start_positions_have_their_active_inputs() {
        assert_eq!(
            features(&cannonade_xiangqi::Position::startpos(), 0).len(),
            NetGame::Xiangqi.start_active()
        );
        assert_eq!(
            features(&cannonade_battle::Position::startpos(), 0).len(),
            NetGame::ChessBattle.start_active()
        );
        assert_eq!(
            features(&cannonade_commander::Position::startpos(), 0).len(),
            NetGame::Commander.start_active()
        );
        assert_eq!(NetGame::Xiangqi.start_active(), 32);
        // The buckets cover the counts from one piece to the start's, fewest first.
        let g = NetGame::Xiangqi;
        assert_eq!((output_bucket(g, 1, 8), output_bucket(g, 32, 8)), (0, 7));
        assert_eq!(output_bucket(g, 40, 8), 7);
        assert_eq!(output_bucket(g, 32, 1), 0);
    }

    /// A network of several output buckets values a position by the bucket of its piece
    /// count: here each bucket's bias alone (all weights zero) tells which was used.
    #[test]
    fn the_output_bucket_follows_the_pieces() {
        use cannonade_xiangqi::Position;
        let zeros = vec![0; XIANGQI_INPUTS * HIDDEN];
        let biases: Vec<i32> = (0..8).map(|b| b * QA * QB).collect();
        let output = vec![0; 8 * 2 * HIDDEN];
        let net = Network::from_bytes(&write_network(1.0, &zeros, &[0; HIDDEN], &output, &biases))
            .unwrap();
        // 32 pieces: the last bucket; 3: the first.
        assert_eq!(net.evaluate_position(&Position::startpos(), 0), 7);
        let few = Position::from_fen("3k5/9/9/9/9/2C6/9/9/9/4K4 w").unwrap();
        assert_eq!(net.evaluate_position(&few, 0), 0);
        // The count follows captures move by move (the update tests compare accumulators,
        // counts included, with refreshes).
        let sixteen = Position::from_fen("rnbak4/9/1c7/p1p6/9/9/P1P6/1C7/9/RNBA1K3 w").unwrap();
        assert_eq!(net.evaluate_position(&sixteen, 0), 3);
    }

    /// A version-1 file (one output bucket, no bucket count) still reads and values as its
    /// version-2 copy does.
    #[test]
    fn version_one_files_still_read() {
        use cannonade_xiangqi::Position;
        let net = random_net(XIANGQI_INPUTS);
        let v2 = {
            let input: Vec<i16> = net.input.iter().flat_map(|h| h.0).collect();
            let output: Vec<i16> = net.output[0].iter().flatten().copied().collect();
            write_network(net.scale, &input, &net.bias.0, &output, &net.output_bias)
        };
        // Version 1: the same without the bucket count.
        let mut v1 = v2.clone();
        v1[4] = 1;
        v1.drain(16..20);
        let (a, b) = (Network::from_bytes(&v1).unwrap(), Network::from_bytes(&v2).unwrap());
        let pos = Position::startpos();
        assert_eq!(a.evaluate_position(&pos, 0), b.evaluate_position(&pos, 0));
        assert_eq!(a.evaluate_position(&pos, 0), net.evaluate_position(&pos, 0));
    }

    #[test]
    fn bad_files_are_refused() {
        assert_eq!(Network::from_bytes(b"CNNX").unwrap_err(), NetworkError::Length);
        assert_eq!(Network::from_bytes(b"XXXXXXXXXXXX").unwrap_err(), NetworkError::Format);
        let mut bytes = write_network(1.0, &[], &[], &[], &[0]);
        bytes[8] = 7;
        assert!(matches!(Network::from_bytes(&bytes), Err(NetworkError::Shape { .. })));
        let mut bytes = write_network(1.0, &[], &[], &[], &[0]);
        bytes[4] = 3;
        assert_eq!(Network::from_bytes(&bytes).unwrap_err(), NetworkError::Format);
        for game in NetGame::ALL {
            let zeros = vec![0; game.inputs() * HIDDEN];
            let none = write_network(1.0, &zeros, &[0; HIDDEN], &[], &[]);
            assert!(matches!(Network::from_bytes(&none), Err(NetworkError::Shape { .. })));
            let good = write_network(1.0, &zeros, &[0; HIDDEN], &[0; 2 * HIDDEN], &[0]);
            assert_eq!(Network::from_bytes(&good).map(|n| n.game()), Ok(game));
            let short = &good[..good.len() - 1];
            assert_eq!(Network::from_bytes(short).unwrap_err(), NetworkError::Length);
        }
    }
}
