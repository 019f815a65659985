//! `cannonade verify <record>`: replays a finished Banqi game's PGN record against its
//! revealed seed (records in the Banqi rules' own format, §9.5, read too).

use anyhow::{Context, Result, bail};
use cannonade_games::pgn::read_game;
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
    // PGN, or a record as Banqi's rules write it (§9.5), which the PGN reader also takes.
    let game = read_game(&text).context("the record is not a valid PGN game record")?;
    let checked = game.verify_deal();
    match checked {
        Ok(moves) => {
            println!("verified: every flip of the {moves} moves follows from the seed");
            Ok(())
        }
        Err(e) => bail!("NOT verified: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_banqi::{DealSeed, deal_from_seed};
    use cannonade_games::pgn::{PgnGame, PgnResult, write_game};
    use cannonade_games::{AnyGame, AnyRecord, GameKind, GameSpec};

    /// The record the server exports: the public start, a few plies with each flip's piece,
    /// the commitment and the revealed seed.
    fn record(seed: &DealSeed) -> PgnGame {
        let dealt =
            AnyGame::BanqiDealt(deal_from_seed(&cannonade_banqi::Position::startpos(), seed));
        let mut full = AnyRecord::new(dealt);
        let mut public = AnyRecord::from_spec(&GameSpec::standard(GameKind::Banqi));
        for _ in 0..12 {
            let Some(&mv) = full.position().legal_moves().first() else { break };
            full.play(mv).unwrap();
            public.play_text(full.moves_text().last().unwrap()).unwrap();
        }
        let mut game = PgnGame::new(public);
        game.deal = Some(seed.commitment().to_string());
        game.seed = Some(seed.to_hex());
        game.result = PgnResult::Draw;
        game
    }

    fn verify_text(text: &str) -> Result<()> {
        let path =
            std::env::temp_dir().join(format!("cannonade-verify-{}.pgn", std::process::id()));
        std::fs::write(&path, text)?;
        let result = run(Args { record: path.clone() });
        let _ = std::fs::remove_file(&path);
        result
    }

    #[test]
    fn a_record_whose_flips_follow_the_seed_verifies() {
        let seed = DealSeed::from_bytes([7; 32]);
        assert!(verify_text(&write_game(&record(&seed))).is_ok());
    }

    #[test]
    fn a_tampered_flip_or_seed_is_reported() {
        let seed = DealSeed::from_bytes([7; 32]);
        let mut rec = record(&seed);
        // Another seed does not match the published commitment.
        rec.seed = Some(DealSeed::from_bytes([8; 32]).to_hex());
        assert!(verify_text(&write_game(&rec)).is_err());
        // The right seed and commitment but a different first flip result: the forged
        // record still replays (both pieces are possible) but not from this seed.
        let good = record(&seed);
        let text = write_game(&good);
        let first = good.record.moves_text()[0].clone();
        let (square, letter) = first.split_once('=').expect("the first move is a flip");
        let other = if letter == "p" { "P" } else { "p" };
        let forged = text.replacen(&format!(" {first}"), &format!(" {square}={other}"), 1);
        assert_ne!(forged, text);
        assert!(verify_text(&forged).is_err());
        assert!(verify_text("not a record").is_err());
    }
}
