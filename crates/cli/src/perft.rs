//! `cannonade perft <game> [--fen F] <depth> [--divide]`.

use anyhow::{Context, Result};
use cannonade_games::{AnyGame, GameKind};
use indicatif::{ProgressBar, ProgressStyle};
use std::time::Instant;

/// Arguments of `cannonade perft`.
#[derive(clap::Args)]
pub struct Args {
    /// The game: xiangqi, banqi, chessbattle or commander.
    game: String,
    /// Depth in plies.
    depth: u32,
    /// Start from this position instead of the standard start.
    #[arg(long)]
    fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: Args) -> Result<()> {
    let kind: GameKind = args.game.parse()?;
    let game = match &args.fen {
        Some(fen) => AnyGame::from_fen(kind, fen)?,
        None => AnyGame::start(kind)?,
    };
    anyhow::ensure!(args.depth <= 12, "depth {} is more than this tool will try (12)", args.depth);
    let start = Instant::now();
    // A bar over the root moves on runs long enough to want one; hidden when not a terminal.
    let bar = if args.depth >= 5 {
        let bar = ProgressBar::new(game.count_legal());
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} root moves, {elapsed} {msg}")
                .context("progress style")?,
        );
        Some(bar)
    } else {
        None
    };
    let parts = game.divide(args.depth, |mv, n| {
        if let Some(bar) = &bar {
            bar.inc(1);
            bar.set_message(format!("{mv}: {n}"));
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let total: u64 = if args.depth == 0 { 1 } else { parts.iter().map(|p| p.1).sum() };
    let elapsed = start.elapsed();
    if args.divide {
        for (mv, n) in &parts {
            println!("{mv}: {n}");
        }
        println!();
    }
    println!("Nodes searched: {total}");
    let nps = (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    eprintln!("time {} ms, {nps} leaves/s", elapsed.as_millis());
    Ok(())
}
