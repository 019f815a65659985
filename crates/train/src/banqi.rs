//! Banqi has no network: `cannonade-train --game banqi` fits the weights of its hand-written
//! evaluation (`cannonade_engine::BanqiWeights`) to the results of the games its positions
//! came from instead. Texel's method: the sigmoid of the evaluation, at a scale fitted to
//! the data first, predicts the result from the side to move's view, and a local search
//! moves one weight at a time by its step while the squared error falls, halving the steps
//! when no move helps. Positions are `cannonade selfplay --game banqi` lines (public
//! positions: the deal is never written).

use crate::data::{fields, load_lines};
use crate::scale::fit_scale;
use anyhow::Result;
use cannonade_banqi::Position;
use cannonade_core::{Rules, Side};
use cannonade_engine::{BanqiEval, BanqiWeights};

/// A position and its game's result from its side to move's view (1 won, 0 lost).
pub struct Sample {
    pos: Position,
    result: f32,
}

/// Reads a line `FEN | score | result` (result from the first seat's view; the score is not
/// used); `None` for a line that is not one or a result outside 0 to 1.
pub fn parse(line: &str) -> Option<Sample> {
    let (fen, _score, result) = fields(line)?;
    let pos = Position::from_fen(fen).ok()?;
    if !(0.0..=1.0).contains(&result) {
        return None;
    }
    let result = if pos.mover() == Side::First { result } else { 1.0 - result };
    Some(Sample { pos, result })
}

/// Reads every file; returns the samples and how many lines were skipped.
pub fn load(paths: &[String]) -> Result<(Vec<Sample>, usize)> {
    load_lines(paths, parse)
}

/// The weights the search moves, with their names (as `params` spells them) and first steps.
const WEIGHTS: [(&str, i32); 15] = [
    ("general", 20),
    ("advisor", 20),
    ("elephant", 20),
    ("chariot", 20),
    ("horse", 20),
    ("cannon", 20),
    ("soldier", 20),
    ("prey", 2),
    ("predator", 2),
    ("down_percent", 5),
    ("threat_percent", 5),
    ("hanging_percent", 5),
    ("general_danger", 40),
    ("mobility", 2),
    ("safe_percent", 5),
];

/// Weight `i` of `w`, in the order of [`WEIGHTS`].
fn weight(w: &mut BanqiWeights, i: usize) -> &mut i32 {
    match i {
        0..7 => &mut w.values[i],
        7 => &mut w.prey,
        8 => &mut w.predator,
        9 => &mut w.down_percent,
        10 => &mut w.threat_percent,
        11 => &mut w.hanging_percent,
        12 => &mut w.general_danger,
        13 => &mut w.mobility,
        _ => &mut w.safe_percent,
    }
}

/// `w` as `name = value` lines.
pub fn describe(w: &BanqiWeights) -> String {
    let mut w = *w;
    WEIGHTS
        .iter()
        .enumerate()
        .map(|(i, (name, _))| format!("{name} = {}\n", weight(&mut w, i)))
        .collect()
}

/// The probability of a win from the side to move's view for evaluation `cp`.
fn sigmoid(cp: i32, scale: f64) -> f64 {
    1.0 / (1.0 + (-(cp as f64) / scale).exp())
}

/// The mean squared error of the evaluation with `w` over `samples`, on `threads` threads.
pub fn loss(w: &BanqiWeights, samples: &[Sample], scale: f64, threads: usize) -> f64 {
    let eval = BanqiEval::new(*w);
    let per = samples.len().div_ceil(threads.max(1)).max(1);
    let sum: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(per)
            .map(|part| {
                let eval = &eval;
                scope.spawn(move || {
                    part.iter()
                        .map(|s| (sigmoid(eval.evaluate(&s.pos), scale) - s.result as f64).powi(2))
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(f64::NAN)).sum()
    });
    sum / samples.len().max(1) as f64
}

/// The sigmoid scale that best predicts the results from the evaluation with `w`.
pub fn scale_for(w: &BanqiWeights, samples: &[Sample]) -> f64 {
    let eval = BanqiEval::new(*w);
    let points: Vec<(f32, f32)> =
        samples.iter().map(|s| (eval.evaluate(&s.pos) as f32, s.result)).collect();
    fit_scale(&points) as f64
}

/// Texel's local search from `start`: tries each weight up and down by its step and keeps a
/// change that lowers the loss; when a whole round keeps none, halves the steps, until they
/// are all 1 and a round keeps nothing, or `rounds` rounds are done. `report` hears each
/// round's loss.
pub fn fit(
    start: BanqiWeights,
    samples: &[Sample],
    scale: f64,
    threads: usize,
    rounds: usize,
    mut report: impl FnMut(usize, f64, &BanqiWeights),
) -> BanqiWeights {
    let mut best = start;
    let mut best_loss = loss(&best, samples, scale, threads);
    let mut steps: Vec<i32> = WEIGHTS.iter().map(|&(_, s)| s).collect();
    for round in 0..rounds {
        let mut improved = false;
        for (i, &step) in steps.iter().enumerate() {
            for sign in [1, -1] {
                let mut trial = best;
                *weight(&mut trial, i) += sign * step;
                // Values and percentages below zero mean nothing to the evaluation.
                if *weight(&mut trial, i) < 0 {
                    continue;
                }
                let l = loss(&trial, samples, scale, threads);
                if l < best_loss {
                    (best, best_loss, improved) = (trial, l, true);
                    break;
                }
            }
        }
        report(round + 1, best_loss, &best);
        if !improved {
            if steps.iter().all(|&s| s == 1) {
                break;
            }
            for s in &mut steps {
                *s = (*s / 2).max(1);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions where the side with more material won: a fit must not make them less likely.
    fn samples() -> Vec<Sample> {
        let lines = [
            "8/8/8/R6k r - 0 0 | 0 | 1",
            "8/8/8/r6K b - 0 0 | 0 | 0",
            "8/8/2R5/A6k b - 0 0 | 0 | 1",
            "8/8/8/R1N4k b - 0 0 | 0 | 1",
            "8/8/8/r1n4K r - 0 0 | 0 | 0",
        ];
        lines.iter().map(|l| parse(l).unwrap()).collect()
    }

    #[test]
    fn results_are_read_from_the_side_to_moves_view() {
        // Red moves first in these positions; the line's result is the first seat's.
        let s = parse("8/8/8/R6k r - 0 0 | 12 | 1").unwrap();
        assert_eq!(s.result, 1.0);
        assert!(parse("8/8/8/R6k r - 0 0 | 12 | 2").is_none());
        assert!(parse("not a position | 0 | 1").is_none());
        assert!(parse("8/8/8/R6k r - 0 0 | twelve | 1").is_none());
    }

    #[test]
    fn the_fit_never_raises_the_loss_and_moves_the_weights() {
        let data = samples();
        let start = BanqiWeights { values: [10; 7], ..BanqiWeights::DEFAULT };
        let before = loss(&start, &data, 200.0, 2);
        let mut losses = Vec::new();
        let fitted = fit(start, &data, 200.0, 2, 20, |_, l, _| losses.push(l));
        let after = loss(&fitted, &data, 200.0, 2);
        assert!(after < before, "{after} vs {before}");
        assert!(losses.windows(2).all(|w| w[1] <= w[0]), "{losses:?}");
        assert_ne!(fitted, start);
    }

    #[test]
    fn every_weight_is_named_once_and_reached() {
        let mut w = BanqiWeights::DEFAULT;
        for i in 0..WEIGHTS.len() {
            *weight(&mut w, i) = 1000 + i as i32;
        }
        let text = describe(&w);
        for (i, (name, _)) in WEIGHTS.iter().enumerate() {
            assert!(text.contains(&format!("{name} = {}\n", 1000 + i)), "{text}");
        }
        assert_eq!(text.lines().count(), WEIGHTS.len());
    }
}
