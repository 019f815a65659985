//! `cannonade verify <record>`: replays a finished Banqi record against its revealed seed.

use anyhow::{Context, Result, bail};
use cannonade_banqi::GameRecord;
use std::path::PathBuf;

/// Arguments of `cannonade verify`.
#[derive(clap::Args)]
pub struct Args {
    /// The game record file (`-` for standard input).
    record: PathBuf,
}

pub fn run(args: Args) -> Result<()> {
    let text = if args.record.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
            .context("reading the record from standard input")?
    } else {
        std::fs::read_to_string(&args.record)
            .with_context(|| format!("reading {}", args.record.display()))?
    };
    let record = GameRecord::parse(&text).context("the record is not a valid Banqi game record")?;
    match record.verify() {
        Ok(_) => {
            println!(
                "verified: every flip of the {} moves follows from the seed",
                record.moves.len()
            );
            Ok(())
        }
        Err(e) => bail!("NOT verified: {e}"),
    }
}
