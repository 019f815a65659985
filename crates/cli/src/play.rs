//! `cannonade play <game>`: the terminal board (crates/tui), hot-seat or against the engine.

use anyhow::{Context, Result, bail};
use cannonade_games::{AnyRecord, GameKind};
use cannonade_tui::{App, MAX_LEVEL, MIN_LEVEL, Seat, load_record, local_start};
use std::path::PathBuf;

/// Which seat the person at the keyboard takes against the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AsSeat {
    /// The player who moves first.
    First,
    /// The player who moves second.
    Second,
}

/// Arguments of `cannonade play`.
#[derive(clap::Args)]
pub struct Args {
    /// The game: xiangqi, banqi, chessbattle or commander (may be left out with --load).
    game: Option<String>,
    /// Play against the engine at this level (1 weakest … 10 strongest); without it, two
    /// people share the keyboard.
    #[arg(long, value_name = "LEVEL",
          value_parser = clap::value_parser!(u8).range(MIN_LEVEL as i64..=MAX_LEVEL as i64))]
    ai: Option<u8>,
    /// The seat you take (against the engine; in hot-seat it only turns the board).
    #[arg(long = "as", value_enum, default_value = "first")]
    seat: AsSeat,
    /// Start from a saved record (docs/record-format.md).
    #[arg(long, value_name = "RECORD")]
    load: Option<PathBuf>,
    /// Rule options, `key=value,…` (for example `repetition=asian` in Xiangqi).
    #[arg(long)]
    options: Option<String>,
}

pub fn run(args: Args) -> Result<()> {
    let kind = match &args.game {
        Some(name) => Some(name.parse::<GameKind>()?),
        None => None,
    };
    let record = match (&args.load, kind) {
        (Some(path), kind) => {
            let record = load_record(path).map_err(anyhow::Error::msg)?;
            if let Some(kind) = kind
                && kind != record.kind()
            {
                bail!("{} holds a game of {}, not {}", path.display(), record.kind(), kind);
            }
            if args.options.is_some() {
                bail!("--options cannot change a loaded record's rules");
            }
            record
        }
        (None, Some(kind)) => {
            let mut start = local_start(kind)?;
            if let Some(spec) = &args.options {
                start.apply_options(spec)?;
            }
            AnyRecord::new(start)
        }
        (None, None) => bail!("name a game (xiangqi, banqi, chessbattle, …) or --load a record"),
    };
    let seats = match (args.ai, args.seat) {
        (None, _) => [Seat::Human, Seat::Human],
        (Some(level), AsSeat::First) => [Seat::Human, Seat::Engine(level)],
        (Some(level), AsSeat::Second) => [Seat::Engine(level), Seat::Human],
    };
    let mut app = App::new(record, seats);
    app.set_flipped(args.seat == AsSeat::Second);
    if let Some(path) = &args.load {
        app.set_save_path(&path.to_string_lossy());
    }
    let app = cannonade_tui::run(app).context("the terminal board failed")?;
    match app.interrupted() {
        Some(Ok(path)) => eprintln!("Stopped by a signal; the game is saved in {path}"),
        Some(Err(reason)) => bail!("stopped by a signal, and {reason}"),
        None => {}
    }
    Ok(())
}
