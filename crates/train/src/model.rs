//! The network in floating point while it trains: forward and backward passes over a batch,
//! Adam, and the quantised file the engine reads.
//!
//! value = b₂ + Σ w₂·screlu(own) + Σ w₂'·screlu(other), with each side's hidden layer
//! b₁ + Σ of its active inputs' rows and screlu(x) = clamp(x, 0, 1)², and b₂, w₂ and w₂'
//! those of the position's output bucket (by its number of pieces,
//! [`cannonade_engine::nnue::output_bucket`]). The prediction is sigmoid(value); the value
//! times the scale is centipawns, as in the engine.
//!
//! With factors, an input's row is its own weights plus its (own or enemy, kind) pair's
//! factor row, which every point of that pair shares: what a kind is worth anywhere is
//! learnt from all of its positions, and the rows learn only where it stands. The file holds
//! the sums, so the engine never sees the factors.

use crate::data::{Inputs, Sample};
use cannonade_engine::nnue::{HIDDEN, NetGame, QA, QB, output_bucket, write_network};
use cannonade_geom::random::SplitMix64;

/// Weights stay within this bound so that they quantise into 16 bits (and the engine's
/// `c · w` product stays within 16 bits).
const CLIP: f32 = 1.98;

/// The network's parameters, or a gradient of the same shape: `game`'s inputs, the factor
/// rows of its (own or enemy, kind) pairs (none without factors), and `output_bias.len()`
/// output buckets of `2 · HIDDEN` output weights each.
#[derive(Clone)]
pub struct Params {
    pub game: NetGame,
    pub input: Vec<f32>,
    pub factor: Vec<f32>,
    pub bias: Vec<f32>,
    pub output: Vec<f32>,
    pub output_bias: Vec<f32>,
}

impl Params {
    /// All zero, for a network of `game` with `buckets` output buckets, with factor rows
    /// when `factors`.
    pub fn zeros(game: NetGame, buckets: usize, factors: bool) -> Params {
        let pairs = if factors { game.inputs() / game.points() } else { 0 };
        Params {
            game,
            input: vec![0.0; game.inputs() * HIDDEN],
            factor: vec![0.0; pairs * HIDDEN],
            bias: vec![0.0; HIDDEN],
            output: vec![0.0; buckets * 2 * HIDDEN],
            output_bias: vec![0.0; buckets],
        }
    }

    /// Small random weights (a fixed seed: runs repeat); the factor rows start at zero.
    pub fn random(game: NetGame, buckets: usize, factors: bool, seed: u64) -> Params {
        let mut rng = SplitMix64(seed);
        let mut uniform =
            |bound: f32| ((rng.next_u64() >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0) * bound;
        let mut p = Params::zeros(game, buckets, factors);
        let input_bound = 1.0 / (game.inputs() as f32).sqrt();
        p.input.iter_mut().for_each(|w| *w = uniform(input_bound));
        let output_bound = 1.0 / (2.0 * HIDDEN as f32).sqrt();
        p.output.iter_mut().for_each(|w| *w = uniform(output_bound));
        p
    }

    /// Adds another gradient into this one.
    pub fn add(&mut self, other: &Params) {
        let pairs = [
            (&mut self.input, &other.input),
            (&mut self.factor, &other.factor),
            (&mut self.bias, &other.bias),
            (&mut self.output, &other.output),
            (&mut self.output_bias, &other.output_bias),
        ];
        for (a, b) in pairs {
            a.iter_mut().zip(b.iter()).for_each(|(x, y)| *x += y);
        }
    }

    /// Zeroes a gradient for reuse.
    pub fn clear(&mut self) {
        for s in [
            &mut self.input,
            &mut self.factor,
            &mut self.bias,
            &mut self.output,
            &mut self.output_bias,
        ] {
            s.fill(0.0);
        }
    }

    /// Input `f`'s factor row, if the network has factors.
    fn factor_row(&self, f: usize) -> Option<std::ops::Range<usize>> {
        (!self.factor.is_empty()).then(|| row(f / self.game.points()))
    }

    /// The weights the engine gets: each input's row plus its factor row.
    pub fn merged_input(&self) -> Vec<f32> {
        let mut input = self.input.clone();
        for (f, row) in input.chunks_mut(HIDDEN).enumerate() {
            if let Some(r) = self.factor_row(f) {
                row.iter_mut().zip(&self.factor[r]).for_each(|(w, v)| *w += v);
            }
        }
        input
    }

    /// The output bucket of a position with these inputs.
    fn bucket(&self, x: &Inputs) -> usize {
        output_bucket(self.game, x.count, self.output_bias.len())
    }
}

/// Where row `i` of `HIDDEN` weights lies in [`Params::input`] or [`Params::factor`].
fn row(i: usize) -> std::ops::Range<usize> {
    i * HIDDEN..(i + 1) * HIDDEN
}

/// Where bucket `bucket`'s `2 · HIDDEN` weights lie in [`Params::output`].
fn bucket_weights(bucket: usize) -> std::ops::Range<usize> {
    bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// One side's hidden layer for its active inputs.
fn hidden(p: &Params, active: &[u16], out: &mut [f32; HIDDEN]) {
    out.copy_from_slice(&p.bias);
    for &f in active {
        out.iter_mut().zip(&p.input[row(f as usize)]).for_each(|(h, w)| *h += w);
        if let Some(r) = p.factor_row(f as usize) {
            out.iter_mut().zip(&p.factor[r]).for_each(|(h, w)| *h += w);
        }
    }
}

/// The value (before the sigmoid) of a position's inputs.
pub fn value(p: &Params, x: &Inputs) -> f32 {
    let (mut own, mut other) = ([0.0; HIDDEN], [0.0; HIDDEN]);
    hidden(p, &x.own[..x.count], &mut own);
    hidden(p, &x.other[..x.count], &mut other);
    output(p, p.bucket(x), &own, &other)
}

/// The output of bucket `bucket` for the two hidden layers.
fn output(p: &Params, bucket: usize, own: &[f32; HIDDEN], other: &[f32; HIDDEN]) -> f32 {
    let w = &p.output[bucket_weights(bucket)];
    let mut v = p.output_bias[bucket];
    for i in 0..HIDDEN {
        let (a, b) = (own[i].clamp(0.0, 1.0), other[i].clamp(0.0, 1.0));
        v += w[i] * a * a + w[HIDDEN + i] * b * b;
    }
    v
}

/// The training target of a sample: its score and result blended (`lambda` of the score).
pub fn target(s: &Sample, scale: f32, lambda: f32) -> f32 {
    lambda * sigmoid(s.score / scale) + (1.0 - lambda) * s.result
}

/// Adds the gradient of the squared error over `batch` into `grad`; returns the summed loss.
/// Each position is seen as it is or mirrored, at random by `seed`.
pub fn backward(
    p: &Params,
    batch: &[Sample],
    scale: f32,
    lambda: f32,
    seed: u64,
    grad: &mut Params,
) -> f64 {
    let mut loss = 0.0;
    let (mut own, mut other) = ([0.0f32; HIDDEN], [0.0f32; HIDDEN]);
    let (mut d_own, mut d_other) = ([0.0f32; HIDDEN], [0.0f32; HIDDEN]);
    let mut rng = SplitMix64(seed);
    let mut bits = 0;
    for (i, s) in batch.iter().enumerate() {
        if i % 64 == 0 {
            bits = rng.next_u64();
        }
        let x = s.inputs(bits >> (i % 64) & 1 == 1);
        let (own_in, other_in) = (&x.own[..x.count], &x.other[..x.count]);
        hidden(p, own_in, &mut own);
        hidden(p, other_in, &mut other);
        let bucket = p.bucket(&x);
        let pred = sigmoid(output(p, bucket, &own, &other));
        let err = pred - target(s, scale, lambda);
        loss += (err * err) as f64;
        let g = 2.0 * err * pred * (1.0 - pred);
        grad.output_bias[bucket] += g;
        let w = &p.output[bucket_weights(bucket)];
        let gw = &mut grad.output[bucket_weights(bucket)];
        for i in 0..HIDDEN {
            let (a, b) = (own[i].clamp(0.0, 1.0), other[i].clamp(0.0, 1.0));
            gw[i] += g * a * a;
            gw[HIDDEN + i] += g * b * b;
            // d screlu / dx = 2x inside (0, 1), else 0 (and a = 0 below it).
            d_own[i] = if own[i] < 1.0 { g * w[i] * 2.0 * a } else { 0.0 };
            d_other[i] = if other[i] < 1.0 { g * w[HIDDEN + i] * 2.0 * b } else { 0.0 };
            grad.bias[i] += d_own[i] + d_other[i];
        }
        for (active, d) in [(own_in, &d_own), (other_in, &d_other)] {
            for &f in active {
                grad.input[row(f as usize)].iter_mut().zip(d.iter()).for_each(|(w, g)| *w += g);
                if let Some(r) = p.factor_row(f as usize) {
                    grad.factor[r].iter_mut().zip(d.iter()).for_each(|(w, g)| *w += g);
                }
            }
        }
    }
    loss
}

/// Adam's moments.
pub struct Adam {
    m: Params,
    v: Params,
    t: i32,
}

impl Adam {
    /// Fresh moments for a network of `game` with `buckets` output buckets (and factor
    /// rows when `factors`).
    pub fn new(game: NetGame, buckets: usize, factors: bool) -> Adam {
        let zeros = || Params::zeros(game, buckets, factors);
        Adam { m: zeros(), v: zeros(), t: 0 }
    }

    /// One step of size `lr` along the mean gradient `grad` (summed over `n` samples).
    pub fn step(&mut self, p: &mut Params, grad: &Params, n: usize, lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let scale = 1.0 / n as f32;
        let update = |w: &mut f32, m: &mut f32, v: &mut f32, g: f32| {
            let g = g * scale;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        };
        let sets = [
            (&mut p.input, &mut self.m.input, &mut self.v.input, &grad.input),
            (&mut p.factor, &mut self.m.factor, &mut self.v.factor, &grad.factor),
            (&mut p.bias, &mut self.m.bias, &mut self.v.bias, &grad.bias),
            (&mut p.output, &mut self.m.output, &mut self.v.output, &grad.output),
        ];
        for (w, m, v, g) in sets {
            for i in 0..w.len() {
                update(&mut w[i], &mut m[i], &mut v[i], g[i]);
                w[i] = w[i].clamp(-CLIP, CLIP);
            }
        }
        // The output biases are i32s in the file: they need no clipping.
        for (i, w) in p.output_bias.iter_mut().enumerate() {
            update(w, &mut self.m.output_bias[i], &mut self.v.output_bias[i], grad.output_bias[i]);
        }
    }
}

/// The network file of `p`, quantised as the engine reads it.
pub fn quantise(p: &Params, scale: f32) -> Vec<u8> {
    let q =
        |w: f32, by: i32| (w * by as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
    // A sum of a row and a factor row may pass the bound one of them keeps to.
    let input: Vec<i16> = p.merged_input().iter().map(|&w| q(w.clamp(-CLIP, CLIP), QA)).collect();
    let bias: Vec<i16> = p.bias.iter().map(|&w| q(w, QA)).collect();
    let output: Vec<i16> = p.output.iter().map(|&w| q(w, QB)).collect();
    let output_bias: Vec<i32> =
        p.output_bias.iter().map(|&b| (b * (QA * QB) as f32).round() as i32).collect();
    write_network(scale, &input, &bias, &output, &output_bias)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::parse;
    use cannonade_engine::nnue::{NetGame, Network};
    use cannonade_xiangqi::Position;

    /// The engine's quantised network gives what the floating-point one gives, within the
    /// rounding of its weights.
    #[test]
    fn the_engine_evaluates_as_the_trainer_does() {
        let mut p = Params::random(NetGame::Xiangqi, 8, true, 7);
        // Larger weights than at the start of training, so the activations are not all tiny;
        // factor rows that differ by kind, so a row merged with the wrong one shows.
        p.input.iter_mut().for_each(|w| *w *= 8.0);
        p.factor
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = ((i * 37 % 101) as f32 - 50.0) * 0.004);
        p.output.iter_mut().for_each(|w| *w *= 8.0);
        p.bias.iter_mut().enumerate().for_each(|(i, b)| *b = (i % 7) as f32 * 0.05);
        p.output_bias.iter_mut().enumerate().for_each(|(i, b)| *b = 0.1 - i as f32 * 0.03);
        let scale = 400.0;
        let net = Network::from_bytes(&quantise(&p, scale)).unwrap();
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "2bak4/4a4/4b1n2/p3c3p/2p3p2/6P2/P3P3P/2N1B1C2/4A4/2BAK4 b - - 0 1",
            "3k5/9/9/9/9/2C6/9/9/9/5K3 w - - 0 1",
        ] {
            let x = parse(&format!("{fen} | 0 | 0.5"), NetGame::Xiangqi).unwrap().inputs(false);
            let want = value(&p, &x) * scale;
            let pos = Position::from_fen(fen).unwrap();
            let got = net.evaluate_position(&pos, pos.side_to_move().index()) as f32;
            // Rounding errors are independent and uniform (a standard deviation of 0.29 of
            // a step): each output weight's (a step of 1/QB) times its activation squared,
            // and each unclipped activation's (its inputs' and bias's, a step of 1/QA each)
            // times twice the activation and its weight. Four standard deviations of the sum.
            let (mut own, mut other) = ([0.0; HIDDEN], [0.0; HIDDEN]);
            hidden(&p, &x.own[..x.count], &mut own);
            hidden(&p, &x.other[..x.count], &mut other);
            let sd_act = ((x.count + 1) as f32).sqrt() * 0.29 / QA as f32;
            let variance: f32 = own
                .iter()
                .chain(&other)
                .zip(&p.output[bucket_weights(p.bucket(&x))])
                .map(|(&h, w)| {
                    let a = h.clamp(0.0, 1.0);
                    let from_weight = a * a * 0.29 / QB as f32;
                    let slope = if h > 0.0 && h < 1.0 { 2.0 * a * w } else { 0.0 };
                    from_weight.powi(2) + (slope * sd_act).powi(2)
                })
                .sum();
            let bound = 4.0 * variance.sqrt() * scale + 1.0;
            assert!((got - want).abs() <= bound, "{fen}: {got} against {want} (±{bound})");
            // Tight enough to catch a misplaced weight, which moves the value by its size.
            assert!(bound < 0.5 * want.abs().max(100.0), "{fen}: ±{bound}");
        }
    }
}
