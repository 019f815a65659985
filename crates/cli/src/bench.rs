//! `cannonade bench`: fixed positions per game, a node-count signature and the speed.

use anyhow::{Context, Result, bail};
use cannonade_games::{AnyGame, GameKind};
use std::time::Instant;

/// Arguments of `cannonade bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Only this game.
    #[arg(long)]
    game: Option<String>,
}

/// Bench positions per game: the files of testdata/bench, built into the binary.
fn positions(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Xiangqi => include_str!("../../../testdata/bench/xiangqi.txt"),
        GameKind::Banqi => include_str!("../../../testdata/bench/banqi.txt"),
        GameKind::ChessBattle => include_str!("../../../testdata/bench/chessbattle.txt"),
        GameKind::Commander => include_str!("../../../testdata/bench/commander.txt"),
    }
}

pub fn run(args: Args) -> Result<()> {
    let games: Vec<GameKind> = match &args.game {
        Some(name) => vec![name.parse()?],
        None => GameKind::available_games().collect(),
    };
    let mut total = 0u64;
    let start = Instant::now();
    for kind in games {
        let mut game_nodes = 0u64;
        let game_start = Instant::now();
        let mut number = 0;
        for (i, line) in positions(kind).lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((fen, depth)) = line.rsplit_once(';') else {
                bail!("bench file of {kind}, line {}: expected 'FEN ; depth'", i + 1)
            };
            let depth: u32 =
                depth.trim().parse().with_context(|| format!("bench depth on line {}", i + 1))?;
            let game = AnyGame::from_fen(kind, fen.trim())?;
            let n = game.perft(depth);
            game_nodes += n;
            number += 1;
            eprintln!("{kind} position {number}: perft {depth} = {n}");
        }
        let secs = game_start.elapsed().as_secs_f64().max(1e-9);
        eprintln!("{kind}: {game_nodes} nodes, {:.0} nodes/s", game_nodes as f64 / secs);
        total += game_nodes;
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    eprintln!("Total time (ms) : {}", (secs * 1000.0) as u64);
    eprintln!("Nodes/second    : {}", (total as f64 / secs) as u64);
    println!("Bench: {total}");
    Ok(())
}
