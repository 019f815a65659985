//! `cannonade pgn`: PGN files of any game (docs/record-format.md) checked, converted into
//! our canonical PGN, and replayed.

use anyhow::{Context, Result, bail};
use cannonade_games::AnyRecord;
use cannonade_games::pgn::{PgnError, PgnGame, PgnResult, read_each, read_games, write_game};
use cannonade_server::game::import::{import_all, store_all};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `cannonade pgn`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Replays every game and prints one line per game: the result and termination our
    /// rules give, and what the file says. Fails when a game does not replay.
    Check {
        /// PGN files (`-` for standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Rewrites every game into Cannonade's canonical PGN (display notation, our tags).
    Convert {
        /// The PGN file (`-` for standard input).
        file: PathBuf,
        /// Where to write (standard output when left out).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Prints every position of the games: each move with the position after it.
    Replay {
        /// The PGN file (`-` for standard input).
        file: PathBuf,
        /// Only this game (counted from 1).
        #[arg(long)]
        game: Option<usize>,
        /// Draw the board after every move, not only its notation.
        #[arg(long)]
        board: bool,
    },
    /// Imports every game into a server's store as a finished game (replay, export and
    /// review then serve it like a game played there); prints one id per game. A file with
    /// a game that does not replay imports nothing.
    Import {
        /// PGN files (`-` for standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The store: a SQLite file (`sqlite://cannonade.db`, made if missing) or a
        /// PostgreSQL URL, as `cannonade serve --db` takes it.
        #[arg(long, default_value = "sqlite://cannonade.db")]
        db: String,
    },
}

fn read_text(path: &Path) -> Result<String> {
    if path.as_os_str() == "-" {
        return std::io::read_to_string(std::io::stdin()).context("reading standard input");
    }
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

/// Every game of a file, each read on its own (a game that does not replay is an error of
/// its own, the others still read).
fn games(path: &Path) -> Result<Vec<Result<PgnGame, PgnError>>> {
    let text = read_text(path)?;
    read_each(&text).with_context(|| format!("{} is not PGN", path.display()))
}

/// One line about a game: our rules' verdict, where they reached it, and the file's.
pub fn check_line(game: &PgnGame) -> String {
    let moves = game.record.moves().len();
    let ours = match game.ended {
        Some(end) => {
            let at = if end.moves < moves {
                format!(" at move {} of {moves}", end.moves)
            } else {
                format!(" after {moves} moves")
            };
            format!("{} {}{at}", PgnResult::of(end.outcome), end.outcome.reason.as_str())
        }
        None => format!("* unfinished after {moves} moves"),
    };
    let written = match &game.termination {
        Some(t) => format!("{} {t}", game.result),
        None => game.result.to_string(),
    };
    format!("{} {ours} (file: {written})", game.record.kind().name())
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Check { files } => {
            let mut failed = 0usize;
            let mut total = 0usize;
            for path in &files {
                for (i, game) in games(path)?.into_iter().enumerate() {
                    total += 1;
                    match game {
                        Ok(g) => println!("{}:{}: {}", path.display(), i + 1, check_line(&g)),
                        Err(e) => {
                            failed += 1;
                            println!("{}:{}: does not replay: {e}", path.display(), i + 1);
                        }
                    }
                }
            }
            if failed > 0 {
                bail!("{failed} of {total} games do not replay");
            }
            Ok(())
        }
        Command::Convert { file, output } => {
            let mut out = String::new();
            for game in games(&file)? {
                out.push_str(&write_game(&game?));
            }
            match output {
                Some(path) => std::fs::write(&path, out)
                    .with_context(|| format!("writing {}", path.display())),
                None => std::io::stdout().write_all(out.as_bytes()).context("writing"),
            }
        }
        Command::Replay { file, game, board } => {
            let all = games(&file)?;
            if let Some(n) = game
                && (n == 0 || n > all.len())
            {
                bail!("{} holds {} games", file.display(), all.len());
            }
            for (i, g) in all.into_iter().enumerate() {
                if game.is_some_and(|n| n != i + 1) {
                    continue;
                }
                replay(i + 1, &g?, board)?;
            }
            Ok(())
        }
        Command::Import { files, db } => import(&files, &db),
    }
}

/// Reads every file (all must read, so nothing is half imported), then stores each game.
fn import(files: &[PathBuf], db: &str) -> Result<()> {
    let mut games = Vec::new();
    for file in files {
        let text = read_text(file)?;
        let read =
            read_games(&text).with_context(|| format!("{} does not import", file.display()))?;
        games.extend(read);
    }
    let imported = import_all(&games)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let store = cannonade_store::SqlStore::connect(db)
            .await
            .with_context(|| format!("opening the store {db}"))?;
        store_all(&store, &imported).await.context("storing the games")
    })?;
    let mut out = std::io::stdout().lock();
    for (game, i) in games.iter().zip(&imported) {
        writeln!(out, "{} {}", i.row.id, check_line(game))?;
    }
    Ok(())
}

/// Prints a game's start and the position after each move.
fn replay(number: usize, game: &PgnGame, board: bool) -> Result<()> {
    let spec = game.record.spec();
    println!("game {number}: {spec}");
    let mut record = AnyRecord::with_start(spec, game.record.start())?;
    let show = |r: &AnyRecord| {
        if board { r.position().pretty() } else { r.position().fen() }
    };
    println!("start {}", show(&record));
    for (i, mv) in game.record.moves().iter().enumerate() {
        record.play_text_past_end(&mv.text)?;
        println!("{}. {} {}", i + 1, mv.display, show(&record));
    }
    println!("{}", check_line(game));
    Ok(())
}
