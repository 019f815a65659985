//! `cannonade selfplay`: the engine plays itself from random openings and writes the quiet
//! positions it met with its search score and the game's result, one line each, for training
//! an evaluation (`cannonade-train`, docs/engine.md "The Xiangqi network").
//!
//! A line is `FEN | score | result`: the score in centipawns and the result (1, 0.5 or 0) both
//! from the first seat's view (Red in Xiangqi). A position is written when its side to move is
//! not in check, the engine's move is not a capture and the score is not a mate: the
//! evaluation is meant to judge quiet positions, and quiescence settles the others.
//!
//! Banqi games are dealt from the seed, so every flip is resolved by the deal; the engine
//! searches the public position and the lines hold the public position too (face-down pieces
//! as `X`, the pool of unseen pieces in the text), never the deal.

use crate::match_runner::{Rng, dealt};
use anyhow::{Result, bail};
use cannonade_core::{Next, Side};
use cannonade_engine::{Engine, Limits};
use cannonade_games::{AnyGame, AnyRecord, GameKind};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Arguments of `cannonade selfplay`.
#[derive(clap::Args)]
pub struct Args {
    /// The game (Banqi games are dealt from the seed).
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Nodes the engine searches per move.
    #[arg(long, default_value_t = 6000)]
    nodes: u64,
    /// Random plies before the engine takes over.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Games played at once, one thread each.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The file the positions are appended to.
    #[arg(long)]
    out: PathBuf,
}

/// A score beyond which the game is decided: after `DECIDED_PLIES` such plies in a row for
/// the same side, the game is scored as won without playing it out.
const DECIDED_SCORE: i32 = 2_500;
const DECIDED_PLIES: usize = 6;
/// An opening more lopsided than this by the engine's first search is discarded.
const OPENING_MAX_SCORE: i32 = 300;
/// Plies after which an unfinished game is scored a draw.
const MAX_PLIES: usize = 400;

/// One position to write: its text and its score from the first seat's view.
struct Sample {
    fen: String,
    score: i32,
}

pub fn run(args: Args) -> Result<()> {
    let kind: GameKind = args.game.parse()?;
    let out = Mutex::new(
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&args.out)
            .map(std::io::BufWriter::new)?,
    );
    let next_game = AtomicUsize::new(0);
    let positions = AtomicUsize::new(0);
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {msg} [{elapsed_precise} < {eta}]",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| {
                let mut engine = Engine::new();
                loop {
                    let g = next_game.fetch_add(1, Ordering::Relaxed);
                    if g >= args.games {
                        break;
                    }
                    let mut rng =
                        Rng::new(args.seed ^ (g as u64).wrapping_mul(0xA076_1D64_78BD_642F));
                    let written = play_game(kind, &args, &mut engine, &mut rng)
                        .and_then(|(samples, result)| write_game(&out, &samples, result));
                    match written {
                        Ok(n) => {
                            let total = positions.fetch_add(n, Ordering::Relaxed) + n;
                            bar.set_message(format!("{total} positions"));
                            bar.inc(1);
                        }
                        Err(e) => {
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(e);
                            }
                            next_game.store(args.games, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    bar.finish();
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    out.into_inner().map_err(|_| anyhow::anyhow!("a writer thread panicked"))?.flush()?;
    eprintln!("{} positions from {} games", positions.load(Ordering::Relaxed), args.games);
    Ok(())
}

/// Appends a game's samples with its result; returns how many were written.
fn write_game(
    out: &Mutex<std::io::BufWriter<std::fs::File>>,
    samples: &[Sample],
    result: f32,
) -> Result<usize> {
    let mut text = String::new();
    for s in samples {
        text.push_str(&format!("{} | {} | {}\n", s.fen, s.score, result));
    }
    let mut w = out.lock().map_err(|_| anyhow::anyhow!("a writer thread panicked"))?;
    w.write_all(text.as_bytes())?;
    Ok(samples.len())
}

/// The number of pieces in a position's text (letters of its first field): a move that
/// lowers it captured something.
fn pieces(fen: &str) -> usize {
    fen.split(' ').next().unwrap_or("").chars().filter(char::is_ascii_alphabetic).count()
}

/// Plays one game from a random opening; returns its samples and the first seat's result.
fn play_game(
    kind: GameKind,
    args: &Args,
    engine: &mut Engine,
    rng: &mut Rng,
) -> Result<(Vec<Sample>, f32)> {
    engine.clear();
    let limits = Limits { nodes: Some(args.nodes), ..Limits::default() };
    let stop = AtomicBool::new(false);
    // Random plies, redrawn until the opening leaves a playable, roughly even game.
    let mut record = loop {
        let mut record = AnyRecord::new(dealt(AnyGame::start(kind)?, rng)?);
        for _ in 0..args.random_plies {
            let legal = record.position().legal_moves();
            if legal.is_empty() || !matches!(record.next(), Next::Player(_)) {
                break;
            }
            record.play(legal[rng.below(legal.len())])?;
        }
        if matches!(record.next(), Next::Player(_)) {
            let r = engine.search(&record, &limits, &stop, |_| {});
            if r.score.abs() <= OPENING_MAX_SCORE {
                break record;
            }
        }
    };
    let mut samples = Vec::new();
    let mut decided: Option<(Side, usize)> = None;
    let result = loop {
        let side = match record.next() {
            Next::Over(o) => {
                break match o.winner {
                    None => 0.5,
                    Some(w) => (w == Side::First) as u8 as f32,
                };
            }
            Next::Chance => bail!("a chance event waited in a dealt game"),
            Next::Player(side) => side,
        };
        if record.len() >= MAX_PLIES {
            break 0.5;
        }
        let pos = record.position();
        let r = engine.search(&record, &limits, &stop, |_| {});
        let Some(mv) = r.best else { bail!("the engine found no move in {}", pos.fen()) };
        let first_view = if side == Side::First { r.score } else { -r.score };
        // A decided game is scored without playing it out.
        if r.score.abs() >= DECIDED_SCORE {
            let winner = if first_view > 0 { Side::First } else { Side::Second };
            let run = match decided {
                Some((w, n)) if w == winner => n + 1,
                _ => 1,
            };
            if run >= DECIDED_PLIES {
                break (winner == Side::First) as u8 as f32;
            }
            decided = Some((winner, run));
        } else {
            decided = None;
        }
        // The public text: a dealt Banqi position would otherwise show its face-down pieces.
        let fen = pos.public().fen();
        let mut after = pos.clone();
        after.play(mv)?;
        if !pos.in_check()
            && r.score.abs() < DECIDED_SCORE
            && pieces(&after.public().fen()) == pieces(&fen)
        {
            samples.push(Sample { fen, score: first_view });
        }
        record.play(mv)?;
    };
    Ok((samples, result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_banqi::Position as Banqi;

    fn args(game: &str) -> Args {
        Args {
            game: game.into(),
            games: 1,
            nodes: 300,
            random_plies: 4,
            threads: 1,
            seed: 3,
            out: PathBuf::new(),
        }
    }

    /// A Banqi game is played out from a deal, and its lines hold public positions only: each
    /// reads as a public position (a full one, naming face-down pieces, is refused) that has
    /// a side to move.
    #[test]
    fn banqi_selfplay_writes_public_positions_of_a_dealt_game() {
        let mut engine = Engine::new();
        let mut rng = Rng::new(5);
        let (samples, result) =
            play_game(GameKind::Banqi, &args("banqi"), &mut engine, &mut rng).unwrap();
        assert!([0.0, 0.5, 1.0].contains(&result), "{result}");
        assert!(samples.len() > 10, "{} samples", samples.len());
        for s in &samples {
            let pos = Banqi::from_fen(&s.fen).unwrap_or_else(|e| panic!("{}: {e}", s.fen));
            assert!(pos.turn().is_some(), "{}", s.fen);
        }
        // The deal differs from game to game: another seed flips other pieces first.
        let mut other = Rng::new(6);
        let (again, _) =
            play_game(GameKind::Banqi, &args("banqi"), &mut engine, &mut other).unwrap();
        assert_ne!(samples[0].fen, again[0].fen);
    }
}
