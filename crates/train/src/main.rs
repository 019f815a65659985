//! `cannonade-train`: trains a network of the engine (Xiangqi, Chess-Battle or Commander) on the
//! positions `cannonade selfplay` writes, and saves it in the engine's format
//! (`cannonade_engine::nnue`); for Banqi, which has no network, it fits the hand-written
//! evaluation's weights instead (`banqi.rs`) and writes them as `name = value` lines.
//!
//! ```text
//! cannonade-train --data a.txt --data b.txt --out xiangqi.nnue
//! cannonade-train --game chessbattle --data battle.txt --out battle.nnue
//! cannonade-train --game banqi --data banqi.txt --out banqi-weights.txt
//! ```
//!
//! The target of a position blends its search score, mapped to an expected result by a
//! sigmoid whose scale is fitted to the games' results, with the game's result itself. The
//! loss is the squared error of the network's sigmoid against it (docs/engine.md, "The
//! Xiangqi network").

mod banqi;
mod data;
mod model;
mod scale;

use anyhow::{Result, bail};
use cannonade_engine::BanqiWeights;
use cannonade_engine::nnue::{MAX_OUTPUT_BUCKETS, NetGame};
use cannonade_games::GameKind;
use cannonade_geom::random::SplitMix64;
use clap::Parser;
use data::Sample;
use model::{Adam, Params};
use scale::fit_scale;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "cannonade-train", about = "Trains a network of the engine")]
struct Args {
    /// The game of the positions: xiangqi, chessbattle or commander (a network), or banqi
    /// (the evaluation's weights).
    #[arg(long, default_value = "xiangqi", value_parser = parse_game)]
    game: Target,
    /// A file of `cannonade selfplay` positions (repeat for several).
    #[arg(long, required = true)]
    data: Vec<String>,
    /// Where to write the network.
    #[arg(long)]
    out: String,
    /// Passes over the data (Banqi: rounds of the weights' search).
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// Adam's step size at the start (lowered tenfold over the last 40 % of the epochs).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Share of the search score in the target (the rest is the game's result).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Centipawns per unit of the sigmoid's argument (fitted to the data when not given).
    #[arg(long)]
    scale: Option<f32>,
    /// Threads computing gradients.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Output buckets: the last layer's weights chosen by the number of pieces on the board.
    /// 1, a single set, is what the built-in networks have; 8 fitted a million Xiangqi
    /// positions worse than 1 (docs/engine.md, "The Xiangqi network", fifth generation).
    #[arg(long, default_value_t = 1, value_parser = parse_buckets)]
    buckets: usize,
    /// Factor rows: each (own or enemy, kind) pair's weights shared by all its points and
    /// learnt alongside the per-point rows, then added into them in the file. They help when
    /// the data is small for the inputs (docs/engine.md, "The Commander network").
    #[arg(long)]
    factors: bool,
    /// Seed of the shuffle and the initial weights.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// What is trained: a game's network, or Banqi's evaluation weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Net(NetGame),
    BanqiWeights,
}

/// The game, by the names `cannonade selfplay --game` takes.
fn parse_game(name: &str) -> Result<Target, String> {
    let kind: GameKind = name.parse().map_err(|e| format!("{e}"))?;
    if kind == GameKind::Banqi {
        return Ok(Target::BanqiWeights);
    }
    NetGame::of_kind(kind).map(Target::Net).ok_or_else(|| format!("{kind} has no network"))
}

/// A number of output buckets the engine reads.
fn parse_buckets(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_OUTPUT_BUCKETS).contains(&n) => Ok(n),
        _ => Err(format!("output buckets are a whole number from 1 to {MAX_OUTPUT_BUCKETS}")),
    }
}

fn shuffle(samples: &mut [Sample], rng: &mut SplitMix64) {
    for i in (1..samples.len()).rev() {
        samples.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// The mean squared error of the network over `samples`.
fn mean_loss(p: &Params, samples: &[Sample], scale: f32, lambda: f32) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let pred = 1.0 / (1.0 + (-model::value(p, &s.inputs(false))).exp());
            ((pred - model::target(s, scale, lambda)) as f64).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

fn main() -> Result<()> {
    let args = Args::parse();
    match args.game {
        Target::Net(game) => train_net(&args, game),
        Target::BanqiWeights => fit_banqi(&args),
    }
}

/// Fits Banqi's evaluation weights from the engine's, the scale fitted to them first.
fn fit_banqi(args: &Args) -> Result<()> {
    let started = Instant::now();
    let (samples, skipped) = banqi::load(&args.data)?;
    if samples.len() < 1000 {
        bail!("{} positions are too few to fit on", samples.len());
    }
    // Held out, as for a network, from the end: whole games the fit never saw. A tenth, as
    // a Banqi game gives ~150 positions that share one result and 2 % would be few games.
    let held = (samples.len() / 10).max(1);
    let (train, valid) = samples.split_at(samples.len() - held);
    let start = BanqiWeights::DEFAULT;
    let scale = args.scale.map_or_else(|| banqi::scale_for(&start, train), f64::from);
    let threads = args.threads.max(1);
    eprintln!(
        "{} positions ({skipped} lines skipped) read in {:.1} s; sigmoid scale {scale:.1} cp; \
         loss {:.6}, held-out {:.6}",
        samples.len(),
        started.elapsed().as_secs_f32(),
        banqi::loss(&start, train, scale, threads),
        banqi::loss(&start, valid, scale, threads),
    );
    let fitted = banqi::fit(start, train, scale, threads, args.epochs, |round, loss, w| {
        let held_out = banqi::loss(w, valid, scale, threads);
        eprintln!("round {round:>3}: loss {loss:.6}, held-out {held_out:.6}");
    });
    let text = banqi::describe(&fitted);
    std::fs::write(&args.out, &text)?;
    print!("{text}");
    eprintln!("wrote {} after {:.0} s", args.out, started.elapsed().as_secs_f32());
    Ok(())
}

/// Trains a network of `game`.
fn train_net(args: &Args, game: NetGame) -> Result<()> {
    let started = Instant::now();
    let (mut samples, skipped) = data::load(&args.data, game)?;
    if samples.len() < 1000 {
        bail!("{} positions are too few to train on", samples.len());
    }
    eprintln!(
        "{} positions ({skipped} lines skipped) read in {:.1} s",
        samples.len(),
        started.elapsed().as_secs_f32()
    );
    let mut rng = SplitMix64(args.seed);
    // Held out: the last 2 % in file order. `cannonade selfplay` writes a game's positions
    // together, so these are whole games (but one) the training never saw; positions drawn
    // at random would share their games' results with the training set and flatter it.
    let held = (samples.len() / 50).max(1);
    let at = samples.len() - held;
    let (train, valid) = samples.split_at_mut(at);
    shuffle(train, &mut rng);
    let scale = args.scale.unwrap_or_else(|| {
        fit_scale(&train.iter().map(|s| (s.score, s.result)).collect::<Vec<_>>())
    });
    eprintln!("sigmoid scale {scale:.1} cp; {} to train, {} held out", train.len(), valid.len());

    let mut params = Params::random(game, args.buckets, args.factors, args.seed);
    let mut adam = Adam::new(game, args.buckets, args.factors);
    let threads = args.threads.max(1);
    let mut grads: Vec<Params> =
        (0..threads).map(|_| Params::zeros(game, args.buckets, args.factors)).collect();
    for epoch in 0..args.epochs {
        let t = Instant::now();
        let progress = epoch as f32 / args.epochs as f32;
        let lr = if progress < 0.6 {
            args.lr
        } else if progress < 0.85 {
            args.lr * 0.3
        } else {
            args.lr * 0.1
        };
        shuffle(train, &mut rng);
        let mut train_loss = 0.0;
        for batch in train.chunks(args.batch) {
            let per = batch.len().div_ceil(threads);
            let p = &params;
            let seed = rng.next_u64();
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(per))
                    .enumerate()
                    .map(|(k, (g, part))| {
                        scope.spawn(move || {
                            g.clear();
                            model::backward(p, part, scale, args.lambda, seed + k as u64, g)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or(f64::NAN)).collect()
            });
            train_loss += losses.iter().sum::<f64>();
            let (first, rest) = grads.split_at_mut(1);
            let used = batch.chunks(per).count();
            for g in &rest[..used - 1] {
                first[0].add(g);
            }
            adam.step(&mut params, &first[0], batch.len(), lr);
        }
        let valid_loss = mean_loss(&params, valid, scale, args.lambda);
        eprintln!(
            "epoch {:>3}: lr {lr:.5}, train loss {:.6}, held-out loss {valid_loss:.6} ({:.1} s)",
            epoch + 1,
            train_loss / train.len() as f64,
            t.elapsed().as_secs_f32()
        );
        std::fs::write(&args.out, model::quantise(&params, scale))?;
    }
    eprintln!("wrote {} after {:.0} s", args.out, started.elapsed().as_secs_f32());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_read_by_their_registry_names_and_banqi_fits_its_weights() {
        assert_eq!(parse_game("xiangqi"), Ok(Target::Net(NetGame::Xiangqi)));
        assert_eq!(parse_game("Chess-Battle"), Ok(Target::Net(NetGame::ChessBattle)));
        assert_eq!(parse_game("banqi"), Ok(Target::BanqiWeights));
        assert_eq!(parse_game("commander"), Ok(Target::Net(NetGame::Commander)));
        assert!(parse_game("checkers").is_err());
    }

    #[test]
    fn output_buckets_are_counted_from_one_to_the_engines_most() {
        assert_eq!(parse_buckets("8"), Ok(8));
        assert_eq!(parse_buckets("1"), Ok(1));
        for bad in ["0", "17", "-1", "eight"] {
            assert!(parse_buckets(bad).is_err(), "{bad}");
        }
    }
}
