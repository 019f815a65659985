//! `cannonade review`: every game of a PGN file reviewed by the engine and written back as
//! PGN with `[%eval …]` comments, NAGs on inaccuracies, mistakes and blunders, and the best
//! move of each marked move (docs/analysis.md). The output is read back before it is
//! written, so a file that comes out is one the project's PGN reader takes.

use anyhow::{Context, Result, bail};
use cannonade_engine::review::annotate::annotations;
use cannonade_engine::review::judge::Judgement;
use cannonade_engine::review::{Review, ReviewOptions, default_depth, review};
use cannonade_engine::{Engine, Limits};
use cannonade_games::pgn::{PgnGame, read_games, write_game};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `cannonade review`.
#[derive(clap::Args)]
pub struct Args {
    /// The PGN file (`-` for standard input).
    file: PathBuf,
    /// Search depth of every position (default: the game's review depth).
    #[arg(long)]
    depth: Option<u32>,
    /// Where to write the annotated PGN (standard output when left out).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// A game with its review's annotations.
pub fn annotated(
    game: &PgnGame,
    depth: Option<u32>,
    engine: &mut Engine,
) -> Result<(PgnGame, Review)> {
    let depth = depth.unwrap_or_else(|| default_depth(game.record.kind()));
    let options = ReviewOptions {
        limits: Limits { depth: Some(depth), ..Limits::default() },
        ..Default::default()
    };
    let r = review(&game.record, &options, engine, &AtomicBool::new(false))?;
    let mut out = game.clone();
    out.annotations = annotations(&r);
    Ok((out, r))
}

/// Writes the games and checks that the text reads back as the same games.
pub fn written(games: &[PgnGame]) -> Result<String> {
    let text: String = games.iter().map(write_game).collect();
    let back = read_games(&text).context("the annotated PGN does not read back")?;
    let same = back.len() == games.len()
        && back.iter().zip(games).all(|(b, g)| b.record.moves_text() == g.record.moves_text());
    if !same {
        bail!("the annotated PGN reads back as other games");
    }
    Ok(text)
}

/// One line per game on standard error: accuracy and marks per seat, and the time taken.
fn summary(number: usize, r: &Review, seconds: f64) -> String {
    let seat = |s: usize| {
        let acc = r.accuracy[s].map_or("-".into(), |a| format!("{a:.1}"));
        format!(
            "accuracy {acc}, {} ?!, {} ?, {} ??",
            r.count(s, Judgement::Inaccuracy),
            r.count(s, Judgement::Mistake),
            r.count(s, Judgement::Blunder)
        )
    };
    format!(
        "game {number}: {} plies at depth {} in {seconds:.1} s; first seat {}; second seat {}",
        r.plies.len(),
        r.depth.unwrap_or(0),
        seat(0),
        seat(1)
    )
}

/// Runs `cannonade review`.
pub fn run(args: Args) -> Result<()> {
    let text = if args.file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("reading standard input")?
    } else {
        std::fs::read_to_string(&args.file)
            .with_context(|| format!("reading {}", args.file.display()))?
    };
    let games =
        read_games(&text).with_context(|| format!("{} does not read", args.file.display()))?;
    let mut engine = Engine::new();
    let mut out = Vec::with_capacity(games.len());
    for (i, game) in games.iter().enumerate() {
        let started = Instant::now();
        // Each game from an empty table, so a game's review does not depend on the file.
        engine.clear();
        let (annotated, r) = annotated(game, args.depth, &mut engine)
            .with_context(|| format!("reviewing game {}", i + 1))?;
        eprintln!("{}", summary(i + 1, &r, started.elapsed().as_secs_f64()));
        out.push(annotated);
    }
    let text = written(&out)?;
    match args.output {
        Some(path) => {
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
        }
        None => std::io::stdout().write_all(text.as_bytes()).context("writing"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::pgn::read_game;

    #[test]
    fn a_blunder_comes_out_marked_with_the_best_move_and_reads_back() {
        let pgn = "[Variant \"xiangqi\"]\n[FEN \"r2k5/9/9/9/9/R8/9/9/9/5K3 w - - 0 1\"]\n\
                   [SetUp \"1\"]\n\n1. f0f1 a9a4 *\n";
        let game = read_game(pgn).unwrap();
        let (annotated, r) = annotated(&game, Some(4), &mut Engine::new()).unwrap();
        assert_eq!(r.plies.len(), 2);
        let text = written(&[annotated]).unwrap();
        assert!(text.contains("$4 {[%eval"), "{text}");
        assert!(text.contains("Blunder. Best: R9+5"), "{text}");
        // Black's reply is no mistake: only one NAG in the file.
        assert_eq!(text.matches('$').count(), 1, "{text}");
        let back = read_game(&text).unwrap();
        assert_eq!(back.record.moves_text(), game.record.moves_text());
    }
}
