//! `cannonade match`: two players (UCI engines such as ours, another build of ours or
//! Fairy-Stockfish, or the built-in random and greedy players) play any game with our rules
//! as the referee, from an opening suite with colours swapped per pair, in parallel, with a
//! progress bar, a record of every game, W/D/L with Elo ± 95 % and an optional SPRT.

mod player;
mod stats;

use anyhow::{Context, Result, anyhow, bail};
use cannonade_banqi::{DealSeed, deal_from_seed};
use cannonade_core::{Next, Outcome, Side};
use cannonade_games::GameSpec;
use cannonade_games::pgn::{PgnGame, PgnResult, write_game};
use cannonade_games::spec::Format;
use cannonade_games::{AnyGame, AnyRecord, GameKind};
use indicatif::{ProgressBar, ProgressStyle};
pub(crate) use player::Rng;
use player::{MoveLimit, Player, Spec};
use stats::{Sprt, Tally, Verdict};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Arguments of `cannonade match`.
#[derive(clap::Args)]
pub struct Args {
    /// The game: xiangqi, banqi, chessbattle.
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// A player, twice: `cmd=PROGRAM ARGS,name=N,ranks=one,variant=V,option.NAME=VALUE`
    /// (`dialect=misty,shift=N` for MistyBanqi), or `cmd=random` / `cmd=greedy` for the
    /// built-in players. Results are the first's.
    #[arg(long = "engine", short = 'e', required = true, num_args = 1)]
    engines: Vec<String>,
    /// Games to play (rounded up to whole pairs).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Milliseconds per move.
    #[arg(long)]
    movetime: Option<u64>,
    /// Nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Plies per move.
    #[arg(long)]
    depth: Option<u32>,
    /// A clock per game, `SECONDS+INCREMENT` (such as `10+0.1`).
    #[arg(long)]
    tc: Option<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// An opening file: `moves …` or `fen FEN [moves …]` per line (default: the built-in
    /// Xiangqi suite, random openings for the other games).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random plies of the generated openings (games without an opening file).
    #[arg(long, default_value_t = 2)]
    random_plies: usize,
    /// Seed of generated openings, Banqi deals and the built-in players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Options of the game as the server takes them: rules options (`repetition=asian`,
    /// Banqi options) and Commander Chess's `format=tactical|fullforce`, which the referee
    /// judges by and tells to engines that offer a `Format` option; under a scored format
    /// `--max-plies` stands in for the game timer (decided on points).
    #[arg(long)]
    rules: Option<String>,
    /// Appends every game to this file as PGN (docs/record-format.md): players, result,
    /// the referee's reason as the Termination, start and moves.
    #[arg(long)]
    records: Option<PathBuf>,
    /// Stop early on an SPRT verdict: `ELO0,ELO1` (alpha = beta = 0.05).
    #[arg(long)]
    sprt: Option<String>,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 600)]
    max_plies: usize,
}

/// The limit per move, and the clock if any.
#[derive(Clone, Copy, Debug)]
enum Control {
    PerMove(MoveLimit),
    Clock { base_ms: u64, inc_ms: u64 },
}

/// One opening: a start position and moves in our notation.
#[derive(Clone, Debug)]
struct Opening {
    fen: Option<String>,
    moves: Vec<String>,
}

/// How one game ended, from the first player's view.
struct GameResult {
    score: f64,
    reason: String,
    record: AnyRecord,
    first_is_a: bool,
}

pub fn run(args: Args) -> Result<()> {
    let kind: GameKind = args.game.parse()?;
    if !kind.available() {
        bail!("{kind} is not available in this build");
    }
    if args.engines.len() != 2 {
        bail!("give exactly two players with -e (got {})", args.engines.len());
    }
    let specs = [Spec::parse(&args.engines[0])?, Spec::parse(&args.engines[1])?];
    let control = control(&args)?;
    game_spec(&args, kind)?;
    let openings = openings(&args, kind)?;
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let pairs = args.games.div_ceil(2);
    let total = pairs * 2;
    let next_game = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let tally = Mutex::new(Tally::default());
    let records = match &args.records {
        Some(p) => Some(Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("opening {}", p.display()))?,
        )),
        None => None,
    };
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed_precise} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let errors = Mutex::new(Vec::<String>::new());
    std::thread::scope(|scope| {
        for worker in 0..args.concurrency.clamp(1, 64) {
            let (specs, openings, control) = (&specs, &openings, control);
            let (next_game, stop, tally, records, bar, errors) =
                (&next_game, &stop, &tally, &records, &bar, &errors);
            let args = &args;
            scope.spawn(move || {
                let mut players: [Option<Player>; 2] = [None, None];
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let g = next_game.fetch_add(1, Ordering::Relaxed);
                    if g >= total {
                        break;
                    }
                    let seed = args.seed ^ (worker as u64) << 32 ^ g as u64;
                    match play_game(
                        args,
                        kind,
                        specs,
                        &mut players,
                        &openings[(g / 2) % openings.len()],
                        g,
                        control,
                        seed,
                    ) {
                        Ok(r) => {
                            let a_score = if r.first_is_a { r.score } else { 1.0 - r.score };
                            let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                            match a_score {
                                s if s > 0.75 => t.wins += 1,
                                s if s < 0.25 => t.losses += 1,
                                _ => t.draws += 1,
                            }
                            let (elo, margin) = t.elo();
                            bar.set_message(format!(
                                "{} W {} D {} L {}  Elo {elo:+.0} ± {margin:.0}",
                                specs[0].name, t.wins, t.draws, t.losses
                            ));
                            if let Some(sprt) = sprt
                                && sprt.verdict(&t) != Verdict::Continue
                            {
                                stop.store(true, Ordering::Relaxed);
                            }
                            drop(t);
                            if let Some(file) = records {
                                let (first, second) = if r.first_is_a {
                                    (&specs[0].name, &specs[1].name)
                                } else {
                                    (&specs[1].name, &specs[0].name)
                                };
                                let mut game = PgnGame::new(r.record.clone());
                                game.set_tag("Event", "cannonade match");
                                game.set_tag("Round", (g + 1).to_string());
                                game.set_tag("White", first.as_str());
                                game.set_tag("Black", second.as_str());
                                // The referee's verdict, adjudications included.
                                game.result = match r.score {
                                    s if s > 0.75 => PgnResult::FirstWins,
                                    s if s < 0.25 => PgnResult::SecondWins,
                                    _ => PgnResult::Draw,
                                };
                                game.termination = Some(r.reason.clone());
                                let line = write_game(&game);
                                if let Ok(mut f) = file.lock() {
                                    let _ = f.write_all(line.as_bytes());
                                }
                            }
                            bar.inc(1);
                        }
                        Err(e) => {
                            errors
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push(format!("game {}: {e:#}", g + 1));
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    bar.finish();
    let t = *tally.lock().unwrap_or_else(|e| e.into_inner());
    let (elo, margin) = t.elo();
    println!(
        "{} vs {} ({kind}): {} games, W {} D {} L {}, score {:.1} %, Elo {elo:+.1} ± {margin:.1} (95 %)",
        specs[0].name,
        specs[1].name,
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        t.score() * 100.0
    );
    if let Some(sprt) = sprt {
        let (lo, hi) = sprt.bounds();
        println!(
            "SPRT [{}, {}]: LLR {:.2} ({lo:.2}, {hi:.2}) {:?}",
            sprt.elo0,
            sprt.elo1,
            t.llr(sprt.elo0, sprt.elo1),
            sprt.verdict(&t)
        );
    }
    let errors = errors.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(first) = errors.first() {
        bail!("the match stopped: {first}");
    }
    Ok(())
}

fn control(args: &Args) -> Result<Control> {
    let given =
        [args.movetime.is_some(), args.nodes.is_some(), args.depth.is_some(), args.tc.is_some()];
    if given.iter().filter(|&&g| g).count() > 1 {
        bail!("give only one of --movetime, --nodes, --depth, --tc");
    }
    Ok(if let Some(ms) = args.movetime {
        Control::PerMove(MoveLimit::MoveTime(ms))
    } else if let Some(n) = args.nodes {
        Control::PerMove(MoveLimit::Nodes(n))
    } else if let Some(d) = args.depth {
        Control::PerMove(MoveLimit::Depth(d))
    } else if let Some(tc) = &args.tc {
        let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
        let secs = |s: &str| -> Result<u64> {
            let v: f64 =
                s.trim().parse().with_context(|| format!("--tc '{tc}': not SECONDS+INCREMENT"))?;
            if !(0.0..=86_400.0).contains(&v) {
                bail!("--tc '{tc}': out of range");
            }
            Ok((v * 1000.0) as u64)
        };
        Control::Clock { base_ms: secs(base)?, inc_ms: secs(inc)? }
    } else {
        Control::PerMove(MoveLimit::MoveTime(100))
    })
}

fn parse_sprt(text: &str) -> Result<Sprt> {
    let v: Vec<f64> = text
        .split(',')
        .map(|s| s.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| anyhow!("--sprt '{text}': expected ELO0,ELO1"))?;
    match v.as_slice() {
        [elo0, elo1] if elo0 < elo1 => {
            Ok(Sprt { elo0: *elo0, elo1: *elo1, alpha: 0.05, beta: 0.05 })
        }
        _ => bail!("--sprt '{text}': expected ELO0,ELO1 with ELO0 < ELO1"),
    }
}

/// The opening suite: the file given, the built-in Xiangqi suite, or random plies.
fn openings(args: &Args, kind: GameKind) -> Result<Vec<Opening>> {
    let text = match &args.openings {
        Some(path) => Some(
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?,
        ),
        None if kind == GameKind::Xiangqi => {
            Some(include_str!("../../../../testdata/openings/xiangqi.txt").to_string())
        }
        None => None,
    };
    let Some(text) = text else {
        // Generated: random legal plies from the start (Banqi deals vary per pair anyway).
        let mut rng = Rng::new(args.seed);
        let mut out = Vec::new();
        for _ in 0..64 {
            let mut game = start(kind, args, None, 0)?;
            let mut moves = Vec::new();
            for _ in 0..args.random_plies {
                let position = game.position();
                let legal = position.public().legal_moves();
                if legal.is_empty() || !matches!(game.next(), Next::Player(_)) {
                    break;
                }
                let mv = legal[rng.below(legal.len())];
                let text = position.public().engine_move_text(mv);
                game.play_text(&text)?;
                moves.push(text);
            }
            if kind == GameKind::Banqi {
                // Recorded flips name the piece, which depends on the deal: keep the squares.
                moves =
                    moves.iter().map(|m| m.split('=').next().unwrap_or(m).to_string()).collect();
            }
            out.push(Opening { fen: None, moves });
        }
        return Ok(out);
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (fen, moves) = if let Some(rest) = line.strip_prefix("fen ") {
            match rest.split_once(" moves ") {
                Some((f, m)) => (Some(f.trim().to_string()), m),
                None => (Some(rest.trim().to_string()), ""),
            }
        } else if let Some(m) = line.strip_prefix("moves") {
            (None, m)
        } else {
            bail!("opening line {}: expected 'moves …' or 'fen … [moves …]'", i + 1);
        };
        let opening = Opening { fen, moves: moves.split_whitespace().map(String::from).collect() };
        // Check it now, so a bad suite fails before any game.
        let mut game = start(kind, args, opening.fen.as_deref(), 0)?;
        for m in &opening.moves {
            game.play_text(m).with_context(|| format!("opening line {}: move {m}", i + 1))?;
        }
        out.push(opening);
    }
    if out.is_empty() {
        bail!("the opening suite is empty");
    }
    Ok(out)
}

/// The game, with its options from `--rules`.
fn game_spec(args: &Args, kind: GameKind) -> Result<GameSpec> {
    GameSpec::parse(kind, args.rules.as_deref().unwrap_or("")).map_err(|e| anyhow!("--rules: {e}"))
}

/// The start of a game: the position, the rule options and for Banqi the deal of `pair`.
fn start(kind: GameKind, args: &Args, fen: Option<&str>, pair: u64) -> Result<AnyRecord> {
    let spec = game_spec(args, kind)?;
    let game = match fen {
        Some(f) => spec.position(f)?,
        None => spec.start(),
    };
    // Both games of a pair get the same deal, so colours are the only difference.
    let game = dealt(game, &mut Rng::new(args.seed ^ pair.wrapping_mul(0xA076_1D64_78BD_642F)))?;
    Ok(AnyRecord::with_start(&spec, game)?)
}

/// `game` with its face-down pieces dealt from `rng` when it is a public Banqi position (the
/// referee then resolves each flip from the deal); any other game as it is.
pub(crate) fn dealt(game: AnyGame, rng: &mut Rng) -> Result<AnyGame> {
    let AnyGame::Banqi(public) = &game else { return Ok(game) };
    let hex: String = (0..4).map(|_| format!("{:016x}", rng.next())).collect();
    let seed = DealSeed::from_hex(&hex).map_err(|e| anyhow!("{e}"))?;
    Ok(AnyGame::BanqiDealt(deal_from_seed(public, &seed)))
}

/// The first seat's score in a finished game.
fn first_score(o: Outcome) -> f64 {
    match o.winner {
        Some(Side::First) => 1.0,
        Some(Side::Second) => 0.0,
        None => 0.5,
    }
}

/// Plays game `g` (pair `g / 2`, colours swapped in odd games).
#[allow(clippy::too_many_arguments)]
fn play_game(
    args: &Args,
    kind: GameKind,
    specs: &[Spec; 2],
    players: &mut [Option<Player>; 2],
    opening: &Opening,
    g: usize,
    control: Control,
    seed: u64,
) -> Result<GameResult> {
    let first_is_a = g.is_multiple_of(2);
    let format = game_spec(args, kind)?.format();
    let mut record = start(kind, args, opening.fen.as_deref(), (g / 2) as u64)?;
    for m in &opening.moves {
        record.play_text(m).with_context(|| format!("opening move {m}"))?;
    }
    for (i, p) in players.iter_mut().enumerate() {
        let ready = p.as_mut().is_some_and(|player| player.new_game().is_ok());
        if !ready {
            *p = Some(Player::start(&specs[i], kind, format, seed.wrapping_add(i as u64))?);
        }
    }
    // Seat → player index.
    let index = |side: Side| if (side == Side::First) == first_is_a { 0 } else { 1 };
    let mut clocks = match control {
        Control::Clock { base_ms, .. } => [base_ms as i64; 2],
        Control::PerMove(_) => [0; 2],
    };
    let finish = |score: f64, reason: String, record: AnyRecord| GameResult {
        score,
        reason,
        record,
        first_is_a,
    };
    loop {
        let side = match record.judge(false) {
            Next::Over(o) => return Ok(finish(first_score(o), o.reason.to_string(), record)),
            Next::Chance => bail!("the referee holds the deal, so no chance event can wait"),
            Next::Player(side) => side,
        };
        if record.len() >= args.max_plies {
            // A scored format's game timer: the points decide.
            if format != Format::Standard
                && let Next::Over(o) = record.judge(true)
            {
                let reason = format!("{}-at-the-ply-limit", o.reason);
                return Ok(finish(first_score(o), reason, record));
            }
            return Ok(finish(0.5, "adjudicated-draw".into(), record));
        }
        let lose = if side == Side::First { 0.0 } else { 1.0 };
        let limit = match control {
            Control::PerMove(l) => l,
            Control::Clock { inc_ms, .. } => MoveLimit::Clock {
                first_ms: clocks[0].max(0) as u64,
                second_ms: clocks[1].max(0) as u64,
                inc_ms,
            },
        };
        let i = index(side);
        let player = players[i].as_mut().ok_or_else(|| anyhow!("player not started"))?;
        let (mv, took) = match player.choose(&record, limit) {
            Ok(x) => x,
            Err(e) => {
                // A crashed or silent engine forfeits; it is restarted for the next game.
                players[i] = None;
                return Ok(finish(
                    lose,
                    format!("forfeit ({})", e.to_string().replace(' ', "_")),
                    record,
                ));
            }
        };
        if let Control::Clock { inc_ms, .. } = control {
            let c = &mut clocks[side.index()];
            *c -= took.as_millis() as i64;
            if *c < 0 {
                return Ok(finish(lose, "time".into(), record));
            }
            *c += inc_ms as i64;
        }
        if record.play_text(&mv).is_err() {
            return Ok(finish(lose, format!("illegal-move-{mv}"), record));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::pgn::read_games;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn args(line: &str) -> Args {
        Cli::try_parse_from(std::iter::once("match").chain(line.split_whitespace()))
            .map(|c| c.args)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn built_in_players_finish_every_game_with_a_record() {
        for kind in GameKind::available_games() {
            let path = std::env::temp_dir()
                .join(format!("cannonade-match-{kind}-{}.pgn", std::process::id()));
            let _ = std::fs::remove_file(&path);
            let a = args(&format!(
                "--game {kind} -e cmd=greedy -e cmd=random --games 4 --concurrency 2 --max-plies 200 --records {}",
                path.display()
            ));
            run(a).unwrap_or_else(|e| panic!("{kind}: {e:#}"));
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let _ = std::fs::remove_file(&path);
            // Every record replays under our rules.
            let games = read_games(&text).unwrap_or_else(|e| panic!("{kind}: {e}\n{text}"));
            assert_eq!(games.len(), 4, "{kind}: {text}");
            for game in &games {
                assert_eq!(game.record.kind(), kind);
                assert!(game.result != PgnResult::Unknown && game.termination.is_some());
            }
        }
    }

    #[test]
    fn colours_swap_within_a_pair() {
        let path =
            std::env::temp_dir().join(format!("cannonade-match-swap-{}.pgn", std::process::id()));
        let _ = std::fs::remove_file(&path);
        run(args(&format!(
            "--game chessbattle -e cmd=random,name=A -e cmd=random,name=B --games 2 --max-plies 10 --records {}",
            path.display()
        )))
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let _ = std::fs::remove_file(&path);
        let games = read_games(&text).unwrap();
        let players: Vec<(&str, &str)> =
            games.iter().map(|g| (g.tag("White").unwrap(), g.tag("Black").unwrap())).collect();
        assert_eq!(players, [("A", "B"), ("B", "A")], "{text}");
    }

    #[test]
    fn a_scored_format_is_refereed_on_points() {
        let path = std::env::temp_dir()
            .join(format!("cannonade-match-tactical-{}.pgn", std::process::id()));
        let _ = std::fs::remove_file(&path);
        run(args(&format!(
            "--game commander --rules format=tactical -e cmd=greedy -e cmd=random --games 4 --max-plies 40 --records {}",
            path.display()
        )))
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let _ = std::fs::remove_file(&path);
        let games = read_games(&text).unwrap();
        assert_eq!(games.len(), 4, "{text}");
        // An objective, or the ply limit standing in for the game timer: points decide.
        for game in &games {
            let why = game.termination.as_deref().unwrap_or("");
            assert!(why == "points" || why == "points-at-the-ply-limit", "{why}");
        }
        // The format is Commander Chess's alone.
        assert!(
            run(args("--game xiangqi --rules format=tactical -e cmd=random -e cmd=random"))
                .is_err()
        );
    }

    #[test]
    fn bad_specs_and_limits_are_refused() {
        assert!(Spec::parse("name=x").is_err());
        assert!(Spec::parse("cmd=x,ranks=two").is_err());
        assert!(Spec::parse("cmd=x,colour=red").is_err());
        let s =
            Spec::parse("cmd=/usr/games/fairy-stockfish,ranks=one,option.Skill Level=3").unwrap();
        assert_eq!(s.name, "fairy-stockfish");
        assert_eq!(s.options, vec![("Skill Level".to_string(), "3".to_string())]);
        assert!(control(&args("-e cmd=random -e cmd=random --movetime 5 --nodes 9")).is_err());
        assert!(control(&args("-e cmd=random -e cmd=random --tc 10+x")).is_err());
        assert!(parse_sprt("5,0").is_err());
        assert!(run(args("-e cmd=random")).is_err());
    }

    #[test]
    fn the_built_in_xiangqi_suite_is_legal() {
        let suite = openings(&args("-e cmd=random -e cmd=random"), GameKind::Xiangqi).unwrap();
        assert!(suite.len() >= 20);
    }
}
