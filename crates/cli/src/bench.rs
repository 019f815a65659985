//! `cannonade bench`: fixed positions of every game searched to a fixed depth by a fresh
//! engine; the total node count is the signature (`Bench: N`) that commits changing the
//! search quote. `--perft` counts move-generation leaves instead (the rules' speed).
//! `--threads N` searches with N threads (Lazy SMP) to measure their speed: the node count
//! then depends on how the threads interleave, so only the one-thread signature is a
//! signature.

use anyhow::{Context, Result, bail};
use cannonade_engine::{Engine, Limits};
use cannonade_games::{AnyGame, AnyRecord, GameKind};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `cannonade bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Only this game.
    #[arg(long)]
    game: Option<String>,
    /// Search depth for every position (default: each game's bench depth).
    #[arg(long)]
    depth: Option<u32>,
    /// Count perft leaves at each position's perft depth instead of searching.
    #[arg(long)]
    perft: bool,
    /// Search threads (1 to the machine's cores); above 1 the node count varies from run to
    /// run and is no signature.
    #[arg(long, default_value_t = 1)]
    threads: usize,
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

/// The search depth of each game's bench: a second or so per game on a laptop core.
fn search_depth(kind: GameKind) -> u32 {
    match kind {
        GameKind::Xiangqi => 10,
        GameKind::Banqi => 7,
        GameKind::ChessBattle => 6,
        GameKind::Commander => 4,
    }
}

/// The positions of a game's bench file with their perft depths.
fn read(kind: GameKind) -> Result<Vec<(AnyGame, u32)>> {
    let mut out = Vec::new();
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
        out.push((AnyGame::from_fen(kind, fen.trim())?, depth));
    }
    Ok(out)
}

pub fn run(args: Args) -> Result<()> {
    let games: Vec<GameKind> = match &args.game {
        Some(name) => vec![name.parse()?],
        None => GameKind::available_games().collect(),
    };
    let what = if args.perft { "perft" } else { "search" };
    let max = cannonade_engine::max_threads();
    if !(1..=max).contains(&args.threads) {
        bail!("--threads must be 1..{max} on this machine");
    }
    let mut total = 0u64;
    let start = Instant::now();
    for kind in games {
        let mut game_nodes = 0u64;
        let game_start = Instant::now();
        for (number, (game, perft_depth)) in read(kind)?.into_iter().enumerate() {
            let (depth, n) = if args.perft {
                (perft_depth, game.perft(perft_depth))
            } else {
                let depth = args.depth.unwrap_or(search_depth(kind));
                let limits = Limits { depth: Some(depth), ..Limits::default() };
                let record = AnyRecord::new(game);
                let mut engine = Engine::new();
                engine.set_threads(args.threads);
                let r = engine.search(&record, &limits, &AtomicBool::new(false), |_| {});
                (depth, r.nodes)
            };
            game_nodes += n;
            eprintln!("{kind} position {}: {what} {depth} = {n}", number + 1);
        }
        let secs = game_start.elapsed().as_secs_f64().max(1e-9);
        eprintln!("{kind}: {game_nodes} nodes, {:.0} nodes/s", game_nodes as f64 / secs);
        total += game_nodes;
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    eprintln!("Total time (ms) : {}", (secs * 1000.0) as u64);
    eprintln!("Nodes/second    : {}", (total as f64 / secs) as u64);
    if args.threads > 1 && !args.perft {
        // Stdout keeps one line; the signature's caveat goes with the timings.
        eprintln!("Threads         : {} (the node count is no signature)", args.threads);
    }
    println!("Bench: {total}");
    Ok(())
}
