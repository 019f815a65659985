//! `cannonade`: the command-line entry to Cannonade's games.

mod bench;
mod loadtest;
mod match_runner;
mod perft;
mod pgn;
mod play;
mod review;
mod selfplay;
mod serve;
mod uci;
mod verify;
mod worker;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// mimalloc rather than the system allocator: the server's many short-lived frames and
/// socket buffers made glibc's malloc about half of its CPU under load (docs/server.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "cannonade",
    version,
    about = "Xiangqi, Banqi, Chess-Battle and Commander Chess: rules, engine and tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaves of the legal-move tree (move-generation test and benchmark).
    Perft(perft::Args),
    /// Runs fixed positions of every game and prints a node-count signature with the speed.
    Bench(bench::Args),
    /// Plays two engines against each other with our rules as the referee.
    Match(match_runner::Args),
    /// Speaks the UCI engine protocol on standard input and output (UCI_Variant picks the game).
    Uci,
    /// Checks, converts and replays PGN files of any game (docs/record-format.md).
    Pgn(pgn::Args),
    /// Checks a finished Banqi game record: every flip must follow from the revealed seed.
    Verify(verify::Args),
    /// Reviews every game of a PGN file with the engine and writes it back annotated:
    /// `[%eval]` per move, `?!` `?` `??` as NAGs and the best move where one is marked.
    Review(review::Args),
    /// Plays a game on the terminal board: hot-seat, or against the engine with --ai.
    Play(play::Args),
    /// Runs the online server: lobby, live games, spectators (open the address in a browser).
    Serve(serve::Args),
    /// Takes engine work (AI moves, analysis slices, game reviews) that `serve --ai-workers` and
    /// `--review-workers` nodes put on Redis, so that it runs off the web nodes.
    Worker(worker::Args),
    /// Plays bots and spectators against a local server and prints latencies.
    Loadtest(loadtest::Args),
    /// Plays the engine against itself and writes scored quiet positions for training.
    Selfplay(selfplay::Args),
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Match(args) => match_runner::run(args),
        Command::Uci => uci::run(),
        Command::Verify(args) => verify::run(args),
        Command::Pgn(args) => pgn::run(args),
        Command::Play(args) => play::run(args),
        Command::Review(args) => review::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Worker(args) => worker::run(args),
        Command::Loadtest(args) => loadtest::run(args),
        Command::Selfplay(args) => selfplay::run(args),
    }
}
