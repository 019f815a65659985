//! `cannonade uci`: the engine protocol loop. Reading and formatting live in
//! `cannonade-protocol`; this file holds the session state and the I/O. Searches run on a
//! worker thread so `isready` and `stop` are answered while the engine thinks. Nothing read
//! from the GUI can make the session panic: every error is answered with
//! `info string error: …` and the session goes on.

use anyhow::Result;
use cannonade_engine::{Clock, Engine, Level, Limits, MAX_LINES};
use cannonade_games::spec::{Format, format_name, parse_format};
use cannonade_games::{AnyGame, AnyRecord, GameError, GameKind, GameSpec};
use cannonade_protocol::{
    Command, Go, Info, OptionKind, PositionStart, Score, bestmove, option_line,
};
use cannonade_xiangqi::{Ranks, UciMove};
use std::fmt::Display;
use std::io::{BufRead, Write};
use std::ops::RangeInclusive;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Of a `go movetime`, at most this many milliseconds are kept back for the reply (the
/// search checks the time every thousand nodes or so).
const MOVETIME_MARGIN_MS: u64 = 5;

pub fn run() -> Result<()> {
    let stdin = std::io::stdin();
    run_session(stdin.lock(), std::io::stdout());
    Ok(())
}

/// Lines going to the GUI, shared by the command loop and the search thread.
type Out<W> = Arc<Mutex<W>>;

fn say<W: Write>(out: &Out<W>, line: &str) {
    // A GUI that went away cannot be told anything more; the loop ends at end of input.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

struct Search {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The game the GUI asked for, option by option. Every option is kept whatever the order the
/// GUI sends them in: a GUI may set `Repetition Rule` or `Format` before `UCI_Variant`, and
/// `UCI_Variant` and `ucinewgame` change nothing else. An option of another game is kept and
/// applies when that game is chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
struct GameSettings {
    variant: GameKind,
    /// Xiangqi's `repetition=` value (`seed` or `asian`), checked when set.
    repetition: String,
    /// Commander Chess's scored format.
    format: Format,
}

impl GameSettings {
    /// The game these settings describe.
    fn spec(&self) -> GameSpec {
        let options = match self.variant {
            GameKind::Xiangqi => format!("repetition={}", self.repetition),
            GameKind::Commander => format!("format={}", format_name(self.format)),
            _ => String::new(),
        };
        // Both values were checked when they were set.
        GameSpec::parse(self.variant, &options).unwrap_or_else(|_| GameSpec::standard(self.variant))
    }
}

struct Session<W: Write + Send + 'static> {
    out: Out<W>,
    game: GameSettings,
    ranks_from_one: bool,
    move_overhead: u64,
    record: AnyRecord,
    search: Option<Search>,
    engine: Arc<Mutex<Engine>>,
    skill: Level,
    limit_strength: bool,
    elo: u32,
}

/// Runs a UCI session until `quit` or the end of input.
pub fn run_session<R: BufRead, W: Write + Send + 'static>(input: R, output: W) {
    let out = Arc::new(Mutex::new(output));
    let game = GameSettings {
        variant: GameKind::Xiangqi,
        repetition: "seed".into(),
        format: Format::Standard,
    };
    let mut s = Session {
        out,
        record: AnyRecord::from_spec(&game.spec()),
        game,
        ranks_from_one: false,
        move_overhead: 30,
        search: None,
        engine: Arc::new(Mutex::new(Engine::new())),
        skill: Level::MAX,
        limit_strength: false,
        elo: cannonade_engine::ELO_RANGE.1,
    };
    for line in input.lines() {
        let Ok(line) = line else { break };
        match Command::parse(&line) {
            Ok(Command::Quit) => break,
            Ok(cmd) => {
                if let Err(e) = s.handle(cmd) {
                    s.error(&e);
                }
            }
            Err(cannonade_protocol::ParseError::Empty) => {}
            Err(e) => s.error(&e.to_string()),
        }
    }
    s.stop_search();
}

impl<W: Write + Send + 'static> Session<W> {
    fn error(&self, message: &str) {
        say(&self.out, &format!("info string error: {message}"));
    }

    fn handle(&mut self, cmd: Command) -> Result<(), String> {
        match cmd {
            Command::Uci => {
                say(&self.out, &format!("id name Cannonade {}", env!("CARGO_PKG_VERSION")));
                say(&self.out, "id author the Cannonade developers");
                for (name, kind) in options() {
                    say(&self.out, &option_line(name, &kind));
                }
                say(&self.out, "uciok");
            }
            Command::IsReady => say(&self.out, "readyok"),
            Command::UciNewGame => {
                self.stop_search();
                self.with_engine(Engine::clear);
                self.record = AnyRecord::from_spec(&self.game.spec());
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::Position { start, moves } => {
                self.stop_search();
                self.record = self.build_record(&start, &moves)?;
            }
            Command::Go(go) => self.go(go)?,
            Command::Stop | Command::PonderHit => {
                if matches!(cmd, Command::Stop) {
                    self.stop_search();
                }
            }
            Command::Display => {
                for line in self.record.position().pretty().lines() {
                    say(&self.out, line);
                }
            }
            Command::Eval => {
                let value = cannonade_engine::evaluate_any(&self.record.position());
                say(&self.out, &format!("Static evaluation: {value} cp (side to move)"));
            }
            Command::Quit => {}
        }
        Ok(())
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value_of =
            |what: &str| value.map(str::trim).ok_or(format!("option {name} needs a {what} value"));
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let kind: GameKind =
                    value_of("game")?.parse().map_err(|e: GameError| e.to_string())?;
                if !kind.available() {
                    return Err(GameError::NotAvailable(kind).to_string());
                }
                self.stop_search();
                self.game.variant = kind;
                self.record = AnyRecord::from_spec(&self.game.spec());
            }
            "uci_ranksfromone" => self.ranks_from_one = parse_bool(value_of("true/false")?)?,
            "repetition rule" => {
                let rule = value_of("seed/asian")?.to_ascii_lowercase();
                GameSpec::parse(GameKind::Xiangqi, &format!("repetition={rule}"))
                    .map_err(|e| e.to_string())?;
                self.game.repetition = rule;
            }
            "format" => {
                self.game.format = parse_format(value_of("standard/tactical/fullforce")?)
                    .map_err(|e| e.to_string())?;
            }
            "move overhead" => {
                self.move_overhead = value_of("number")?
                    .parse::<u64>()
                    .ok()
                    .filter(|v| *v <= 5000)
                    .ok_or("Move Overhead must be 0..5000")?;
            }
            "hash" => {
                let mb = parse_spin(value_of("number")?, 1..=4096, "Hash", " (MiB)")?;
                self.stop_search();
                self.with_engine(|e| e.set_hash_mb(mb));
            }
            "multipv" => {
                let lines = parse_spin(value_of("number")?, 1..=MAX_LINES, "MultiPV", "")?;
                self.stop_search();
                self.with_engine(|e| e.set_lines(lines));
            }
            "clear hash" => {
                self.stop_search();
                self.with_engine(Engine::clear);
            }
            "skill level" => {
                self.skill = value_of("number")?
                    .parse::<u8>()
                    .ok()
                    .and_then(Level::new)
                    .ok_or("Skill Level must be 1..10")?;
                self.apply_level();
            }
            "uci_limitstrength" => {
                self.limit_strength = parse_bool(value_of("true/false")?)?;
                self.apply_level();
            }
            "uci_elo" => {
                let (lo, hi) = cannonade_engine::ELO_RANGE;
                self.elo = parse_spin(value_of("number")?, lo..=hi, "UCI_Elo", "")?;
                self.apply_level();
            }
            "use nnue" => {
                let on = parse_bool(value_of("true/false")?)?;
                self.switch_evaluation(on);
            }
            "evalfile" => {
                let path = value_of("path")?;
                let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
                cannonade_engine::nnue::Network::use_file(&bytes)
                    .map_err(|e| format!("{path}: {e}"))?;
                self.switch_evaluation(true);
            }
            "threads" => {
                let max = cannonade_engine::max_threads();
                let threads = parse_spin(value_of("number")?, 1..=max, "Threads", "")?;
                self.stop_search();
                self.with_engine(|e| e.set_threads(threads));
            }
            "ponder" => {}
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
    }

    /// Evaluates with the networks (`true`) or the hand-written evaluations.
    fn switch_evaluation(&mut self, network: bool) {
        self.stop_search();
        // A different evaluation scores differently: old table entries would mislead.
        self.with_engine(Engine::clear);
        cannonade_engine::use_networks(network);
    }

    /// Runs `f` on the engine (no search is running when this is called).
    fn with_engine(&self, f: impl FnOnce(&mut Engine)) {
        if let Ok(mut e) = self.engine.lock() {
            f(&mut e);
        }
    }

    /// The level from `Skill Level`, or from `UCI_Elo` under `UCI_LimitStrength`.
    fn apply_level(&mut self) {
        self.stop_search();
        let level = if self.limit_strength { Level::from_elo(self.elo) } else { self.skill };
        self.with_engine(|e| e.set_level(level));
    }

    /// Move text from the GUI in the engine's notation.
    fn gui_to_engine(&self, text: &str) -> Result<String, String> {
        if self.game.variant == GameKind::Xiangqi && self.ranks_from_one {
            let m = UciMove::parse(text, Ranks::FromOne).map_err(|e| e.to_string())?;
            Ok(m.to_text(Ranks::FromZero))
        } else {
            Ok(text.to_string())
        }
    }

    fn build_record(&self, start: &PositionStart, moves: &[String]) -> Result<AnyRecord, String> {
        let spec = self.game.spec();
        let game = match start {
            PositionStart::StartPos => spec.start(),
            PositionStart::Fen(fen) => spec.position(fen).map_err(|e| e.to_string())?,
        };
        let mut record = AnyRecord::with_start(&spec, game).map_err(|e| e.to_string())?;
        for (i, text) in moves.iter().enumerate() {
            let engine_text =
                self.gui_to_engine(text).map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
            record
                .play_text_past_end(&engine_text)
                .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        }
        Ok(record)
    }

    fn stop_search(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop.store(true, Ordering::Relaxed);
            let _ = search.handle.join();
        }
    }

    fn go(&mut self, go: Go) -> Result<(), String> {
        self.stop_search();
        let game = self.record.position();
        if let Some(depth) = go.perft {
            if depth > 10 {
                return Err(format!(
                    "perft depth {depth} is too deep for the protocol (at most 10)"
                ));
            }
            let ranks_from_one = self.ranks_from_one && self.game.variant == GameKind::Xiangqi;
            let parts = game.divide(depth, |_, _| {});
            let mut total = 0;
            for (mv, n) in &parts {
                total += n;
                say(&self.out, &format!("{}: {n}", to_gui(mv, ranks_from_one)));
            }
            say(&self.out, "");
            say(&self.out, &format!("Nodes searched: {}", if depth == 0 { 1 } else { total }));
            say(&self.out, "");
            return Ok(());
        }
        let limits = self.limits(&go, &game);
        let record = self.record.clone();
        let engine = Arc::clone(&self.engine);
        let wait_for_stop = go.infinite || go.ponder;
        let stop = Arc::new(AtomicBool::new(false));
        let out = Arc::clone(&self.out);
        let ranks_from_one = self.ranks_from_one && self.game.variant == GameKind::Xiangqi;
        let thread_stop = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            // Nothing else holds the engine while a search runs; a poisoned lock (a panic
            // in an earlier search) still holds a usable engine.
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
            let result = engine.search(&record, &limits, &thread_stop, |p| {
                let score = if p.score.abs() >= cannonade_engine::MATE - 256 {
                    let plies = cannonade_engine::MATE - p.score.abs();
                    Score::Mate(p.score.signum() * (plies + 1) / 2)
                } else {
                    Score::Cp(p.score)
                };
                let info = Info {
                    depth: Some(p.depth),
                    seldepth: Some(p.seldepth),
                    score: Some(score),
                    nodes: Some(p.nodes),
                    nps: Some(p.nodes * 1000 / p.millis.max(1)),
                    time: Some(p.millis),
                    pv: p.pv.iter().map(|m| to_gui(m, ranks_from_one)).collect(),
                    multipv: Some(p.line),
                    ..Info::default()
                };
                say(&out, &info.to_string());
            });
            // In infinite and ponder mode the GUI must say stop before it hears a move.
            while wait_for_stop && !thread_stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let best = result.best_text.map(|m| to_gui(&m, ranks_from_one));
            let ponder = result.pv.get(1).map(|m| to_gui(m, ranks_from_one));
            say(&out, &bestmove(best.as_deref(), ponder.as_deref()));
        });
        self.search = Some(Search { stop, handle });
        Ok(())
    }

    fn limits(&self, go: &Go, game: &AnyGame) -> Limits {
        let mut limits = Limits { depth: go.depth, nodes: go.nodes, ..Limits::default() };
        if let Some(mate) = go.mate {
            limits.depth = Some(limits.depth.unwrap_or(u32::MAX).min(mate.saturating_mul(2)));
        }
        if let Some(mt) = go.movetime {
            // A fixed time per move is no clock to lose on: only the last time check's lag
            // is kept in hand (as Stockfish does), not the whole overhead.
            let margin = self.move_overhead.min(MOVETIME_MARGIN_MS);
            limits.time = Some(Duration::from_millis(mt.saturating_sub(margin).max(1)));
        } else {
            let first = game.mover() == cannonade_core::Side::First;
            let (time, inc) = if first { (go.wtime, go.winc) } else { (go.btime, go.binc) };
            if let Some(t) = time {
                let clock = Clock {
                    remaining_ms: t,
                    increment_ms: inc.unwrap_or(0),
                    moves_to_go: go.movestogo,
                };
                let (soft, hard) = Limits::from_clock(clock, self.move_overhead);
                limits.soft_time = Some(soft);
                limits.time = Some(hard);
            }
        }
        limits
    }
}

/// Move text from the engine in the GUI's notation.
fn to_gui(text: &str, ranks_from_one: bool) -> String {
    if ranks_from_one && let Ok(m) = UciMove::parse(text, Ranks::FromZero) {
        return m.to_text(Ranks::FromOne);
    }
    text.to_string()
}

/// A spin option's value, refused unless it is a number in `range` (`unit` ends the error).
fn parse_spin<T>(v: &str, range: RangeInclusive<T>, name: &str, unit: &str) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display,
{
    v.parse::<T>()
        .ok()
        .filter(|v| range.contains(v))
        .ok_or_else(|| format!("{name} must be {}..{}{unit}", range.start(), range.end()))
}

fn parse_bool(v: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(format!("'{other}' is not true or false")),
    }
}

fn options() -> Vec<(&'static str, OptionKind)> {
    vec![
        (
            "UCI_Variant",
            OptionKind::Combo {
                default: GameKind::Xiangqi.name().into(),
                vars: GameKind::ALL.iter().map(|k| k.name().to_string()).collect(),
            },
        ),
        ("UCI_RanksFromOne", OptionKind::Check(false)),
        (
            "Repetition Rule",
            OptionKind::Combo { default: "seed".into(), vars: vec!["seed".into(), "asian".into()] },
        ),
        (
            "Format",
            OptionKind::Combo {
                default: "standard".into(),
                vars: [Format::Standard, Format::Tactical, Format::FullForce]
                    .map(|f| format_name(f).to_string())
                    .into(),
            },
        ),
        ("Hash", OptionKind::Spin { default: 16, min: 1, max: 4096 }),
        ("Clear Hash", OptionKind::Button),
        ("MultiPV", OptionKind::Spin { default: 1, min: 1, max: MAX_LINES as i64 }),
        // Up to the machine's cores (Lazy SMP); a weaker level searches on one whatever this says.
        (
            "Threads",
            OptionKind::Spin { default: 1, min: 1, max: cannonade_engine::max_threads() as i64 },
        ),
        ("Ponder", OptionKind::Check(false)),
        ("Move Overhead", OptionKind::Spin { default: 30, min: 0, max: 5000 }),
        ("Skill Level", OptionKind::Spin { default: 10, min: 1, max: 10 }),
        ("Use NNUE", OptionKind::Check(true)),
        ("EvalFile", OptionKind::String(String::new())),
        ("UCI_LimitStrength", OptionKind::Check(false)),
        (
            "UCI_Elo",
            OptionKind::Spin {
                default: cannonade_engine::ELO_RANGE.1 as i64,
                min: cannonade_engine::ELO_RANGE.0 as i64,
                max: cannonade_engine::ELO_RANGE.1 as i64,
            },
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().map_err(|_| std::io::ErrorKind::Other)?.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &str) -> String {
        let out = Shared::default();
        run_session(std::io::Cursor::new(input.to_string()), out.clone());
        let bytes = out.0.lock().map(|v| v.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    #[test]
    fn handshake_lists_options_and_variants() {
        let out = session("uci\nisready\n");
        assert!(out.contains("option name UCI_Variant type combo default xiangqi var xiangqi var banqi var chessbattle var commander"));
        assert!(out.contains("option name UCI_RanksFromOne type check default false"));
        assert!(out.contains("uciok\nreadyok\n"));
    }

    #[test]
    fn go_perft_prints_like_fairy_stockfish() {
        let out = session("position startpos moves h2e2\ngo perft 1\n");
        assert!(out.contains("h9g7: 1\n"), "{out}");
        assert!(out.ends_with("\nNodes searched: 45\n\n"), "{out}");
        let out = session(
            "setoption name UCI_RanksFromOne value true\nposition startpos moves h3e3 h10g8\ngo perft 1\n",
        );
        assert!(out.contains("b1c3: 1\n"), "{out}");
        assert!(out.contains("Nodes searched: 35"), "{out}"); // pyffish agrees
    }

    #[test]
    fn go_returns_a_legal_best_move() {
        let out = session("position fen 4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1\ngo depth 2\n");
        assert!(out.contains("bestmove b7b9") || out.contains("bestmove b7f7"), "{out}");
        let out = session("position fen 5k3/9/9/9/3r5/9/9/6n2/9/4K4 w - - 0 1\ngo depth 2\n");
        assert!(out.contains("bestmove (none)"), "{out}");
        let out = session("position startpos\ngo infinite\nisready\nstop\n");
        assert!(out.contains("readyok"), "{out}");
        assert!(out.contains("bestmove "), "{out}");
    }

    #[test]
    fn bad_input_is_answered_and_the_session_goes_on() {
        let out = session(
            "fly\nposition fen nonsense\nposition startpos moves h2e2 h2e2\nsetoption name UCI_Variant value chess\n\
             setoption name Bogus value 1\ngo depth x\nposition startpos moves a0a1\nd\n",
        );
        let errors = out.lines().filter(|l| l.starts_with("info string error:")).count();
        assert_eq!(errors, 6, "{out}");
        assert!(
            out.contains("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/1NBAKABNR b"),
            "{out}"
        );
    }

    #[test]
    fn eval_prints_the_static_value_and_a_network_needs_a_good_file() {
        // Black to move, a chariot down.
        let out = session(
            "position fen rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b\neval\n",
        );
        let value: i32 = out
            .lines()
            .find_map(|l| l.strip_prefix("Static evaluation: "))
            .and_then(|l| l.split(' ').next()?.parse().ok())
            .unwrap_or_else(|| panic!("{out}"));
        assert!(value < -300, "{out}");
        // A missing or malformed network file is an error and changes nothing (a good one
        // would switch every search in this test process).
        let junk = std::env::temp_dir().join(format!("cannonade-junk-{}.nnue", std::process::id()));
        std::fs::write(&junk, b"CNNX junk").unwrap();
        let out = session(&format!(
            "setoption name EvalFile value /nonexistent.nnue\nsetoption name EvalFile value {}\n",
            junk.display()
        ));
        let _ = std::fs::remove_file(&junk);
        let errors: Vec<&str> =
            out.lines().filter(|l| l.starts_with("info string error:")).collect();
        assert_eq!(errors.len(), 2, "{out}");
        assert!(errors[0].contains("/nonexistent.nnue"), "{out}");
        assert!(errors[1].contains("network file"), "{out}");
    }

    #[test]
    fn banqi_perft_and_moves_in_compact_form() {
        let e12 = "XXXnXX2/rXRXbXXa/NXXXXPrX/XP1CAR1X b K1A1B2C1P2k1b1n1c2p4 4 40 BpAcppPnPkCbpKcB";
        let out = session(&format!(
            "setoption name UCI_Variant value banqi\nposition fen {e12}\ngo perft 2\n"
        ));
        assert!(out.contains("a1a1: "), "{out}");
        assert!(out.contains("Nodes searched: 379\n"), "{out}");
        let out = session(
            "setoption name UCI_Variant value banqi\nposition startpos moves d2=C\ngo depth 1\n",
        );
        assert!(out.lines().any(|l| l.starts_with("bestmove ") && l.len() == 13), "{out}");
        let out = session("setoption name UCI_Variant value banqi\nposition startpos moves d2=Q\n");
        assert!(out.contains("info string error:"), "{out}");
    }

    #[test]
    fn chessbattle_perft_and_search() {
        let out = session(
            "setoption name UCI_Variant value chessbattle\nposition startpos\ngo perft 2\n",
        );
        assert!(out.contains("Nodes searched: 2704\n"), "{out}");
        let out = session(
            "setoption name UCI_Variant value chessbattle\nposition startpos moves d3-d5\ngo depth 1\n",
        );
        assert!(out.contains("bestmove "), "{out}");
    }

    #[test]
    fn strength_options_set_levels_and_refuse_bad_values() {
        let out = session("uci\n");
        assert!(out.contains("option name Skill Level type spin default 10 min 1 max 10"), "{out}");
        assert!(out.contains("option name UCI_LimitStrength type check default false"), "{out}");
        assert!(
            out.contains("option name UCI_Elo type spin default 2400 min 800 max 2400"),
            "{out}"
        );
        let out = session(
            "setoption name Skill Level value 1\nposition startpos\ngo depth 20\nisready\n",
        );
        // Level 1 searches one ply whatever the GUI asks.
        assert!(out.contains("info depth 1 "), "{out}");
        assert!(!out.contains("info depth 2 "), "{out}");
        assert!(out.contains("bestmove "), "{out}");
        let out = session(
            "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 800\nposition startpos\ngo depth 20\nisready\n",
        );
        assert!(!out.contains("info depth 2 "), "{out}");
        let out = session(
            "setoption name Skill Level value 11\nsetoption name UCI_Elo value 100\nsetoption name Hash value 0\n",
        );
        assert_eq!(out.matches("info string error:").count(), 3, "{out}");
    }

    /// `Threads` goes up to the machine's cores; searches with all of them still end by
    /// depth and by nodes with a move, and `stop` (the end of the input) ends them.
    #[test]
    fn threads_option_searches_and_ends() {
        let max = cannonade_engine::max_threads();
        let out = session("uci\n");
        assert!(out.contains(&format!("option name Threads type spin default 1 min 1 max {max}")));
        let threads = format!("setoption name Threads value {max}\nposition startpos\n");
        for go in ["go depth 5\nisready\n", "go nodes 20000\nisready\n", "go infinite\n"] {
            let out = session(&format!("{threads}{go}"));
            assert!(out.contains("bestmove "), "{go}: {out}");
            assert!(!out.contains("error"), "{go}: {out}");
        }
        let out = session(&format!(
            "setoption name Threads value 0\nsetoption name Threads value {}\n",
            max + 1
        ));
        assert_eq!(out.matches("info string error: Threads must be 1..").count(), 2, "{out}");
    }

    #[test]
    fn multipv_reports_each_line_with_its_number() {
        let out = session("uci\n");
        assert!(out.contains("option name MultiPV type spin default 1 min 1 max 8"), "{out}");
        // The session stops the search at the end of its input: the deepest depth reported
        // is complete, all its lines together.
        let out =
            session("setoption name MultiPV value 3\nposition startpos\ngo depth 3\nisready\n");
        let deepest =
            out.lines().filter_map(|l| l.strip_prefix("info depth ")).next_back().unwrap();
        let prefix = format!("info depth {} ", deepest.split(' ').next().unwrap());
        let last: Vec<&str> = out.lines().filter(|l| l.starts_with(&prefix)).collect();
        assert_eq!(last.len(), 3, "{out}");
        let firsts: std::collections::HashSet<&str> = last
            .iter()
            .map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap())
            .collect();
        assert_eq!(firsts.len(), 3, "three different first moves: {out}");
        for (i, line) in last.iter().enumerate() {
            assert!(line.contains(&format!(" multipv {} ", i + 1)), "{out}");
        }
        let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap();
        assert!(last[0].contains(&format!(" pv {}", best.split(' ').next().unwrap())), "{out}");
        let out = session("setoption name MultiPV value 0\nsetoption name MultiPV value 9\n");
        assert_eq!(out.matches("info string error: MultiPV must be 1..8").count(), 2, "{out}");
    }

    #[test]
    fn the_format_option_plays_commander_for_its_objectives() {
        let out = session("uci\n");
        assert!(
            out.contains("option name Format type combo default standard var standard var tactical var fullforce"),
            "{out}"
        );
        // Red's tank can take Blue's only Navy: the sea objective ends a tactical game.
        let go = "position fen 9c1/11/9im/11/11/11/11/11/n1T8/9IM/11/10C r - - 0 1\ngo depth 2\nisready\n";
        let tactical = session(&format!(
            "setoption name Format value tactical\nsetoption name UCI_Variant value commander\n{go}"
        ));
        assert!(tactical.contains("score mate 1 "), "{tactical}");
        assert!(tactical.contains("bestmove Tc4_a4"), "{tactical}");
        let standard = session(&format!("setoption name UCI_Variant value commander\n{go}"));
        assert!(!standard.contains("score mate"), "{standard}");
        let out = session("setoption name Format value blitz\n");
        assert!(out.contains("info string error: invalid options: format must be"), "{out}");
    }

    /// Every option is kept whatever the order: the rule options set before or after
    /// `UCI_Variant`, and across `ucinewgame`, give the same game.
    #[test]
    fn options_do_not_depend_on_their_order() {
        let lines = [
            "setoption name Repetition Rule value asian",
            "setoption name UCI_Variant value xiangqi",
            "setoption name Format value tactical",
            "ucinewgame",
        ];
        // Every order of the four lines (24 of them).
        let mut orders: Vec<Vec<usize>> = vec![vec![]];
        for _ in 0..lines.len() {
            let mut longer = Vec::new();
            for o in &orders {
                for i in (0..lines.len()).filter(|i| !o.contains(i)) {
                    longer.push([o.as_slice(), &[i]].concat());
                }
            }
            orders = longer;
        }
        assert_eq!(orders.len(), 24);
        for order in orders {
            let out = Shared::default();
            let mut s = Session {
                out: Arc::new(Mutex::new(out)),
                game: GameSettings {
                    variant: GameKind::Xiangqi,
                    repetition: "seed".into(),
                    format: Format::Standard,
                },
                ranks_from_one: false,
                move_overhead: 30,
                record: AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi)),
                search: None,
                engine: Arc::new(Mutex::new(Engine::new())),
                skill: Level::MAX,
                limit_strength: false,
                elo: cannonade_engine::ELO_RANGE.1,
            };
            for &i in &order {
                let cmd = Command::parse(lines[i]).unwrap();
                s.handle(cmd).unwrap();
            }
            s.handle(Command::parse("position startpos").unwrap()).unwrap();
            let texts: Vec<&str> = order.iter().map(|&i| lines[i]).collect();
            assert_eq!(s.record.spec().options_text(), "repetition=asian", "{texts:?}");
            assert_eq!(s.record.position().options(), "repetition=asian", "{texts:?}");
            // The Commander format waits for Commander, in whatever order it came.
            s.handle(Command::parse("setoption name UCI_Variant value commander").unwrap())
                .unwrap();
            assert_eq!(s.record.spec().options_text(), "format=tactical", "{texts:?}");
            s.handle(Command::parse("setoption name UCI_Variant value xiangqi").unwrap()).unwrap();
            assert_eq!(s.record.spec().options_text(), "repetition=asian", "{texts:?}");
        }
    }

    #[test]
    fn every_game_can_be_chosen_and_counted() {
        for kind in GameKind::available_games() {
            let out = session(&format!("setoption name UCI_Variant value {kind}\ngo perft 1\nd\n"));
            assert!(!out.contains("info string error"), "{kind}: {out}");
            let n = AnyGame::start(kind).map(|g| g.count_legal()).unwrap_or(0);
            assert!(out.contains(&format!("Nodes searched: {n}\n")), "{kind}: {out}");
        }
    }

    #[test]
    fn commander_turns_in_its_notation() {
        let out =
            session("setoption name UCI_Variant value commander\nposition startpos\ngo perft 2\n");
        assert!(out.contains("Nodes searched: 13460\n"), "{out}");
        let out =
            session("setoption name UCI_Variant value commander\nposition startpos\ngo depth 1\n");
        assert!(out.contains("bestmove "), "{out}");
    }
}
