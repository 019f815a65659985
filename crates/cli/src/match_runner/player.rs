//! The players of a match: UCI engines in child processes, and two built-in opponents (a
//! random mover and a greedy one-ply player) for measuring the engine against a floor.

use anyhow::{Context, Result, anyhow, bail};
use cannonade_banqi::misty;
use cannonade_games::spec::{Format, format_name};
use cannonade_games::{AnyGame, AnyRecord, GameKind};
use cannonade_xiangqi::{Ranks, UciMove};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long an engine may take to start or answer `isready`.
const HANDSHAKE: Duration = Duration::from_secs(20);

/// An engine as the command line describes it: `cmd=…,name=…,ranks=one,variant=…,
/// dialect=misty,shift=N,option.Name=Value`. The built-in players are `cmd=random` and
/// `cmd=greedy`.
#[derive(Clone, Debug)]
pub struct Spec {
    /// Display name.
    pub name: String,
    /// Program and arguments, split on whitespace.
    pub cmd: Vec<String>,
    /// Xiangqi ranks numbered 1–10 (Fairy-Stockfish).
    pub ranks_from_one: bool,
    /// The `UCI_Variant` value to send (default: our game name).
    pub variant: Option<String>,
    /// Other options, in order.
    pub options: Vec<(String, String)>,
    /// Banqi in MistyBanqi's dialect (`shared/rules/banqi-engine-protocols.md`): the
    /// plies its no-progress count is told less than ours, so that its draw horizon
    /// (40) falls on our rule's ply (`shift=20` for our 60); `None`: our own dialect.
    pub misty: Option<u32>,
}

impl Spec {
    /// Reads a spec string.
    pub fn parse(text: &str) -> Result<Spec> {
        let mut spec = Spec {
            name: String::new(),
            cmd: Vec::new(),
            ranks_from_one: false,
            variant: None,
            options: Vec::new(),
            misty: None,
        };
        let mut shift = None;
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| anyhow!("engine spec part '{part}' is not key=value"))?;
            match key {
                "cmd" => spec.cmd = value.split_whitespace().map(String::from).collect(),
                "name" => spec.name = value.to_string(),
                "ranks" => {
                    spec.ranks_from_one = match value {
                        "one" | "1" => true,
                        "zero" | "0" => false,
                        _ => bail!("ranks must be one or zero, not '{value}'"),
                    }
                }
                "variant" => spec.variant = Some(value.to_string()),
                "dialect" => {
                    spec.misty = match value {
                        "misty" => Some(0),
                        "uci" => None,
                        _ => bail!("dialect must be uci or misty, not '{value}'"),
                    }
                }
                "shift" => {
                    shift = Some(value.parse().map_err(|_| anyhow!("shift must be a ply count"))?)
                }
                k if k.starts_with("option.") => {
                    spec.options.push((k["option.".len()..].to_string(), value.to_string()))
                }
                _ => bail!(
                    "unknown engine spec key '{key}' (cmd, name, ranks, variant, dialect, shift, option.X)"
                ),
            }
        }
        match (&mut spec.misty, shift) {
            (Some(s), Some(n)) => *s = n,
            (None, Some(_)) => bail!("shift= goes with dialect=misty"),
            _ => {}
        }
        if spec.cmd.is_empty() {
            bail!("engine spec '{text}' has no cmd=");
        }
        if spec.name.is_empty() {
            spec.name = spec.cmd[0].rsplit('/').next().unwrap_or("engine").to_string();
        }
        Ok(spec)
    }
}

/// What one move may cost.
#[derive(Clone, Copy, Debug)]
pub enum MoveLimit {
    /// Milliseconds per move.
    MoveTime(u64),
    /// Nodes per move.
    Nodes(u64),
    /// Plies per move.
    Depth(u32),
    /// A clock: this player's and the opponent's remaining time (first seat first) and the
    /// increment, milliseconds.
    Clock { first_ms: u64, second_ms: u64, inc_ms: u64 },
}

/// A player that chooses moves for a game record.
pub enum Player {
    /// A UCI engine process.
    Uci(UciEngine),
    /// Uniformly random legal moves.
    Random(Rng),
    /// The move with the best static value one ply ahead (captures first), ties at random.
    Greedy(Rng),
}

/// A small deterministic random generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

impl Player {
    /// Starts the player of a spec for a game.
    /// `format` is told to an engine that offers a `Format` option (ours); the built-in
    /// players and other engines play the standard game.
    pub fn start(spec: &Spec, kind: GameKind, format: Format, seed: u64) -> Result<Player> {
        match spec.cmd[0].as_str() {
            "random" => Ok(Player::Random(Rng::new(seed))),
            "greedy" => Ok(Player::Greedy(Rng::new(seed))),
            _ => UciEngine::start(spec, kind, format).map(Player::Uci),
        }
    }

    /// Prepares for a new game.
    pub fn new_game(&mut self) -> Result<()> {
        match self {
            Player::Uci(e) => e.new_game(),
            _ => Ok(()),
        }
    }

    /// The player's move (in our engine notation) for the current position of `record`,
    /// with the time it took.
    pub fn choose(&mut self, record: &AnyRecord, limit: MoveLimit) -> Result<(String, Duration)> {
        let start = Instant::now();
        let position = record.position().public();
        let mv = match self {
            Player::Uci(e) => return e.go(record, limit),
            Player::Random(rng) => {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    bail!("no legal move");
                }
                moves[rng.below(moves.len())]
            }
            Player::Greedy(rng) => {
                let mover = position.mover();
                let mut best = Vec::new();
                let mut best_value = i32::MIN;
                for mv in position.legal_moves() {
                    let mut child = position.clone();
                    child.play(mv)?;
                    let v = cannonade_engine::evaluate_any(&child);
                    let v = if child.mover() == mover { v } else { -v };
                    if v > best_value {
                        best_value = v;
                        best.clear();
                    }
                    if v == best_value {
                        best.push(mv);
                    }
                }
                if best.is_empty() {
                    bail!("no legal move");
                }
                best[rng.below(best.len())]
            }
        };
        Ok((position.engine_move_text(mv), start.elapsed()))
    }
}

/// A UCI engine in a child process; its output lines arrive through a channel so that
/// every wait has a deadline.
pub struct UciEngine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    ranks_from_one: bool,
    misty: Option<u32>,
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl UciEngine {
    fn start(spec: &Spec, kind: GameKind, format: Format) -> Result<UciEngine> {
        let mut child = Command::new(&spec.cmd[0])
            .args(&spec.cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting engine '{}'", spec.cmd.join(" ")))?;
        let stdin = child.stdin.take().ok_or_else(|| anyhow!("engine has no stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| anyhow!("engine has no stdout"))?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = UciEngine {
            name: spec.name.clone(),
            child,
            stdin,
            lines,
            ranks_from_one: spec.ranks_from_one && kind == GameKind::Xiangqi,
            misty: spec.misty,
        };
        if spec.misty.is_some() && kind != GameKind::Banqi {
            bail!("dialect=misty plays Banqi only");
        }
        e.send("uci")?;
        let mut offers_format = false;
        e.wait_for(
            |l| {
                offers_format |= l.starts_with("option name Format ");
                l == "uciok"
            },
            HANDSHAKE,
        )?;
        let variant = spec.variant.clone().unwrap_or_else(|| kind.name().to_string());
        // Options first: a VariantPath must be loaded before the variant it defines is chosen.
        for (name, value) in &spec.options {
            e.send(&format!("setoption name {name} value {value}"))?;
        }
        if e.misty.is_none() {
            e.send(&format!("setoption name UCI_Variant value {variant}"))?;
        }
        // An `option.Format=` of the spec wins (to pit a format-blind build against one).
        let own_format = spec.options.iter().any(|(n, _)| n.eq_ignore_ascii_case("Format"));
        if offers_format && !own_format && kind == GameKind::Commander {
            e.send(&format!("setoption name Format value {}", format_name(format)))?;
        }
        e.new_game()?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .with_context(|| format!("engine {} stopped listening", self.name))
    }

    /// Waits for a line satisfying `done`; errors on timeout or end of output. Error lines
    /// from our own engine are reported.
    fn wait_for(
        &mut self,
        mut done: impl FnMut(&str) -> bool,
        timeout: Duration,
    ) -> Result<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if line.starts_with("info string error") {
                        bail!("engine {} said: {line}", self.name);
                    }
                    if done(line.trim()) {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    bail!("engine {} did not answer in time", self.name)
                }
                Err(RecvTimeoutError::Disconnected) => bail!("engine {} exited", self.name),
            }
        }
    }

    fn new_game(&mut self) -> Result<()> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for(|l| l == "readyok", HANDSHAKE).map(|_| ())
    }

    fn ours_to_engine(&self, text: &str) -> String {
        if self.ranks_from_one
            && let Ok(m) = UciMove::parse(text, Ranks::FromZero)
        {
            return m.to_text(Ranks::FromOne);
        }
        text.to_string()
    }

    fn engine_to_ours(&self, text: &str) -> String {
        if self.ranks_from_one
            && let Ok(m) = UciMove::parse(text, Ranks::FromOne)
        {
            return m.to_text(Ranks::FromZero);
        }
        text.to_string()
    }

    /// The `position` command of our dialect: the start and every move.
    fn position(&self, record: &AnyRecord) -> Result<String> {
        let moves: Vec<String> =
            record.moves_text().iter().map(|m| self.ours_to_engine(m)).collect();
        let start = record.start();
        let start_text = if start == AnyGame::start(record.kind())?
            || start.public() == AnyGame::start(record.kind())?
        {
            "startpos".to_string()
        } else {
            format!("fen {}", start.fen())
        };
        Ok(if moves.is_empty() {
            format!("position {start_text}")
        } else {
            format!("position {start_text} moves {}", moves.join(" "))
        })
    }

    fn go(&mut self, record: &AnyRecord, limit: MoveLimit) -> Result<(String, Duration)> {
        let position = match self.misty {
            Some(shift) => misty_position(record, shift)?,
            None => self.position(record)?,
        };
        self.send(&position)?;
        let (go, timeout) = match limit {
            MoveLimit::MoveTime(ms) => {
                (format!("go movetime {ms}"), Duration::from_millis(ms * 4 + 5_000))
            }
            MoveLimit::Nodes(n) => (format!("go nodes {n}"), Duration::from_secs(600)),
            MoveLimit::Depth(d) => (format!("go depth {d}"), Duration::from_secs(600)),
            MoveLimit::Clock { first_ms, second_ms, inc_ms } => (
                format!("go wtime {first_ms} btime {second_ms} winc {inc_ms} binc {inc_ms}"),
                Duration::from_millis(first_ms.max(second_ms) + inc_ms + 5_000),
            ),
        };
        let asked = Instant::now();
        self.send(&go)?;
        let line = self.wait_for(|l| l.starts_with("bestmove"), timeout)?;
        let took = asked.elapsed();
        let mv = line
            .split_whitespace()
            .nth(1)
            .ok_or_else(|| anyhow!("engine {} sent '{line}'", self.name))?;
        let mv = match self.misty {
            Some(_) => misty::move_from_misty(mv)
                .map_err(|e| anyhow!("engine {} sent '{line}': {e}", self.name))?,
            None => self.engine_to_ours(mv),
        };
        Ok((mv, took))
    }
}

/// A public Banqi position of the referee's dealt record at step `i`, in MistyBanqi's
/// letters, with its no-progress count.
fn misty_at(record: &AnyRecord, i: usize) -> Result<(Vec<String>, usize)> {
    let game = record.position_at(i).ok_or_else(|| anyhow!("no position at step {i}"))?;
    let AnyGame::Banqi(public) = game.public() else { bail!("dialect=misty plays Banqi only") };
    let fields: Vec<String> = misty::to_misty(&public).split(' ').map(str::to_string).collect();
    let count = fields.get(3).and_then(|c| c.parse().ok());
    let count = count.ok_or_else(|| anyhow!("no clock field in {fields:?}"))?;
    Ok((fields, count))
}

/// The `position` command of MistyBanqi's dialect for the referee's dealt record (one step
/// a move): the public position after the last flip or capture and the quiet moves since,
/// so that the engine sees repetitions, never a face-down piece's identity. With `shift`,
/// the position sent is up to `shift` quiet moves later and its count is lowered: the
/// engine's count is ours less `shift` (not below 0).
pub fn misty_position(record: &AnyRecord, shift: u32) -> Result<String> {
    let len = record.len();
    let moves = record.moves();
    if moves.len() != len {
        bail!("dialect=misty needs the referee's record, one step a move");
    }
    let shift = shift as usize;
    // Our count now, the quiet moves of it in the record (a start may carry a count), and
    // those skipped for the shift.
    let (_, count) = misty_at(record, len)?;
    let quiet = count.min(len);
    let skipped = shift.min(quiet);
    let from = len - quiet + skipped;
    let (mut fields, _) = misty_at(record, from)?;
    // With the moves after it, the engine counts ours less the shift (not below 0).
    fields[3] = (count.saturating_sub(shift) - (quiet - skipped)).to_string();
    let mut text = format!("position fen {}", fields.join(" "));
    for (i, played) in moves.iter().enumerate().skip(from) {
        let game = record.position_at(i).ok_or_else(|| anyhow!("no position at step {i}"))?;
        let mv = game.parse_move(&played.text)?;
        let mv = misty::move_to_misty(&game.engine_move_text(mv))?;
        text.push_str(if i == from { " moves " } else { " " });
        text.push_str(&mv);
    }
    Ok(text)
}

#[cfg(test)]
#[path = "misty_tests.rs"]
mod misty_tests;
