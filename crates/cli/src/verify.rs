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

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_banqi::{DealSeed, DealTag, Position, deal_from_seed};
    use cannonade_core::Rules;

    /// A record of a few plies played from the deal of `seed`, with the commitment and the
    /// revealed seed.
    fn record(seed: &DealSeed) -> GameRecord {
        let start = Position::startpos();
        let mut full = deal_from_seed(&start, seed);
        let mut rec = GameRecord::new(start);
        for _ in 0..12 {
            let mut buf = cannonade_core::MoveBuf::new();
            full.legal_moves(&mut buf);
            let Some(&mv) = buf.first() else { break };
            rec.moves.push(full.recorded_move(mv));
            full.play(mv);
        }
        rec.deal = Some(DealTag::Commit(seed.commitment()));
        rec.seed = Some(seed.clone());
        rec
    }

    fn verify_text(text: &str) -> Result<()> {
        let path =
            std::env::temp_dir().join(format!("cannonade-verify-{}.txt", std::process::id()));
        std::fs::write(&path, text)?;
        let result = run(Args { record: path.clone() });
        let _ = std::fs::remove_file(&path);
        result
    }

    #[test]
    fn a_record_whose_flips_follow_the_seed_verifies() {
        let seed = DealSeed::from_bytes([7; 32]);
        assert!(verify_text(&record(&seed).to_string()).is_ok());
    }

    #[test]
    fn a_tampered_flip_or_seed_is_reported() {
        let seed = DealSeed::from_bytes([7; 32]);
        let mut rec = record(&seed);
        // Another seed does not match the published commitment.
        rec.seed = Some(DealSeed::from_bytes([8; 32]));
        assert!(verify_text(&rec.to_string()).is_err());
        // A record with the right seed and commitment but a different first flip result.
        let good = record(&seed);
        let text = good.to_string();
        let first = &good.moves[0];
        let (square, letter) = first.split_once('=').expect("the first move is a flip");
        let other = if letter == "p" { "P" } else { "p" };
        let forged = text.replacen(first.as_str(), &format!("{square}={other}"), 1);
        assert_ne!(forged, text);
        assert!(verify_text(&forged).is_err());
        assert!(verify_text("not a record").is_err());
    }
}
