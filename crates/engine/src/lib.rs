//! The search that plays Cannonade's games: generic over [`cannonade_core::Rules`] and
//! monomorphised per game, with an [`Evaluate`] implementation per game (evaluation and the
//! game knowledge the search needs), behind the [`Engine`] facade, which keeps the
//! transposition table between moves, applies the playing [`Level`] and reports progress to
//! a listener.
//!
//! The search: iterative deepening, principal-variation search with aspiration windows, a
//! transposition table keyed by the game's hash, quiescence over captures and shots, move
//! ordering (hash move, MVV-LVA, killers, history), check extensions, null-move and reverse
//! futility pruning, late-move reductions, expectimax with Star1 and Star2 pruning at Banqi's
//! chance nodes, and each game's repetition rule on the search path and the game's history.
//!
//! ```
//! use cannonade_engine::{Engine, Limits};
//! use cannonade_games::{AnyGame, AnyRecord, GameKind};
//! use std::sync::atomic::AtomicBool;
//! let record = AnyRecord::new(AnyGame::start(GameKind::Xiangqi).unwrap());
//! let mut engine = Engine::new();
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! let result = engine.search(&record, &limits, &AtomicBool::new(false), |_| {});
//! assert!(result.best.is_some());
//! ```
#![forbid(unsafe_code)]

mod eval;
mod game;
mod history;
mod level;
mod limits;
pub mod nnue;
mod pacing;
pub mod params;
pub mod review;
mod search;
#[cfg(test)]
mod smp_tests;
mod tt;

pub use eval::banqi::{BanqiEval, BanqiWeights};
pub use eval::use_networks;
pub use game::Evaluate;
pub use level::{ELO_RANGE, Level};
pub use limits::{Clock, Limits};
pub use pacing::{LOW_CLOCK_MS, MAX_PAUSE, Pacing};
pub use search::{MATE, Progress, SearchResult, Style, repetition_at_root, search};

use cannonade_commander::points::{Armies, Format};
use cannonade_games::{AnyGame, AnyHistory, AnyMove, AnyRecord};
use eval::Scored;
use history::MoveHistory;
use std::any::Any;
use std::sync::atomic::AtomicBool;
use tt::Table;

/// What an [`Engine`] keeps from one search of a game to the next: the transposition table
/// and the move history.
type Memory<G> = (Table<<G as cannonade_core::Rules>::Move>, MoveHistory<G>);

/// Positions of the game's history handed to the search (repetition needs no more: every
/// game's no-progress limit is shorter).
const HISTORY_LIMIT: usize = 400;

/// The most best lines one search finds (see [`Engine::set_lines`]).
pub const MAX_LINES: u32 = 8;

/// The most threads a search may use: the machine's cores (1 where they are unknown).
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The result of a search, with moves as text in the game's engine notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnyResult {
    /// The best move found, `None` when there is no legal move.
    pub best: Option<AnyMove>,
    /// Its text.
    pub best_text: Option<String>,
    /// Score in centipawns from the side to move's view (mate scores near ±[`MATE`]).
    pub score: i32,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation as text.
    pub pv: Vec<String>,
}

/// Progress of a search, with moves as text.
#[derive(Clone, Debug)]
pub struct AnyProgress {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score from the side to move's view.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub millis: u64,
    /// The principal variation as text.
    pub pv: Vec<String>,
    /// Which of the best lines this is, 1 for the best (see [`Engine::set_lines`]).
    pub line: u32,
}

/// The engine: a transposition table and move history kept between searches, a hash size
/// and a level.
pub struct Engine {
    hash_mb: usize,
    /// The [`Memory`] of the game searched last.
    table: Option<Box<dyn Any + Send>>,
    level: Level,
    lines: u32,
    threads: usize,
    searches: u64,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("hash_mb", &self.hash_mb)
            .field("level", &self.level)
            .field("threads", &self.threads)
            .finish()
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine at full strength with a 16 MiB table.
    pub fn new() -> Engine {
        Engine { hash_mb: 16, table: None, level: Level::MAX, lines: 1, threads: 1, searches: 0 }
    }

    /// Sets how many threads a search at full strength uses (Lazy SMP), from 1 to
    /// [`max_threads`]. A weaker [`Level`] always searches on one thread: its node budget
    /// and noise were calibrated there, and a level should play the same on any machine.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, max_threads());
    }

    /// How many threads a search at full strength uses (see [`Engine::set_threads`]).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Sets the table size in MiB (the table is rebuilt at the next search).
    pub fn set_hash_mb(&mut self, megabytes: usize) {
        self.hash_mb = megabytes.clamp(1, 4096);
        self.table = None;
    }

    /// Forgets every stored result and the move history.
    pub fn clear(&mut self) {
        self.table = None;
    }

    /// Sets the playing level.
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// The playing level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Sets how many best lines a search finds and reports (MultiPV, at least 1): each
    /// completed depth calls the progress listener once per line, best first (at most
    /// [`MAX_LINES`]). The search's
    /// move is the best line's; more lines share the time, so play stays at one.
    pub fn set_lines(&mut self, lines: u32) {
        self.lines = lines.clamp(1, MAX_LINES);
    }

    /// Searches the current position of a game, with its history for the repetition rules,
    /// under the game's spec: a Commander Chess game of a scored format is played for its
    /// points and objectives. A dealt Banqi game is searched through its public view: the
    /// engine never sees a deal.
    ///
    /// ```
    /// use cannonade_engine::{Engine, Limits, MATE};
    /// use cannonade_games::{AnyRecord, GameKind, GameSpec};
    /// use std::sync::atomic::AtomicBool;
    /// // Red's tank can take Blue's only Navy: the sea objective, which ends a tactical game.
    /// let fen = "9c1/11/9im/11/11/11/11/11/n1T8/9IM/11/10C r - - 0 1";
    /// let limits = Limits { depth: Some(2), ..Limits::default() };
    /// let stop = AtomicBool::new(false);
    /// let tactical = GameSpec::parse(GameKind::Commander, "format=tactical").unwrap();
    /// let record = AnyRecord::with_start(&tactical, tactical.position(fen).unwrap()).unwrap();
    /// let r = Engine::new().search(&record, &limits, &stop, |_| {});
    /// assert_eq!((r.best_text.as_deref(), r.score), (Some("Tc4_a4"), MATE - 1));
    /// // In the standard game the Navy is only material.
    /// let standard = GameSpec::standard(GameKind::Commander);
    /// let record = AnyRecord::with_start(&standard, standard.position(fen).unwrap()).unwrap();
    /// let plain = Engine::new().search(&record, &limits, &stop, |_| {});
    /// assert!(plain.score < MATE / 2);
    /// ```
    pub fn search(
        &mut self,
        record: &AnyRecord,
        limits: &Limits,
        stop: &AtomicBool,
        on_progress: impl FnMut(&AnyProgress),
    ) -> AnyResult {
        fn tail<G: Clone>(positions: &[G]) -> &[G] {
            let before = &positions[..positions.len().saturating_sub(1)];
            &before[before.len().saturating_sub(HISTORY_LIMIT)..]
        }
        let format = record.spec().format();
        // One arm per registered game: each is searched by its own evaluation.
        match record.history() {
            AnyHistory::Xiangqi(r) => self.run(
                r.position(),
                tail(r.positions()),
                limits,
                stop,
                on_progress,
                AnyMove::Xiangqi,
            ),
            AnyHistory::Banqi(r) => self.run(
                r.position(),
                tail(r.positions()),
                limits,
                stop,
                on_progress,
                AnyMove::Banqi,
            ),
            AnyHistory::BanqiDealt(r) => {
                let history: Vec<_> = tail(r.positions()).iter().map(|p| p.redact()).collect();
                let pos = r.position().redact();
                self.run(&pos, &history, limits, stop, on_progress, AnyMove::Banqi)
            }
            AnyHistory::ChessBattle(r) => self.run(
                r.position(),
                tail(r.positions()),
                limits,
                stop,
                on_progress,
                AnyMove::ChessBattle,
            ),
            AnyHistory::Commander(r) if format != Format::Standard => {
                let start = Armies::of(r.start());
                let scored =
                    |p: &cannonade_commander::Position| Scored::new(p.clone(), start, format);
                let history: Vec<Scored> = tail(r.positions()).iter().map(scored).collect();
                let pos = scored(r.position());
                self.run(&pos, &history, limits, stop, on_progress, AnyMove::Commander)
            }
            AnyHistory::Commander(r) => self.run(
                r.position(),
                tail(r.positions()),
                limits,
                stop,
                on_progress,
                AnyMove::Commander,
            ),
        }
    }

    /// Searches a position without history.
    pub fn search_position(
        &mut self,
        game: &AnyGame,
        limits: &Limits,
        stop: &AtomicBool,
        on_progress: impl FnMut(&AnyProgress),
    ) -> AnyResult {
        self.search(&AnyRecord::new(game.public()), limits, stop, on_progress)
    }

    fn run<G: Evaluate>(
        &mut self,
        pos: &G,
        history: &[G],
        limits: &Limits,
        stop: &AtomicBool,
        mut on_progress: impl FnMut(&AnyProgress),
        wrap: fn(G::Move) -> AnyMove,
    ) -> AnyResult
    where
        AnyGame: From<G>,
    {
        let mut memory: Box<Memory<G>> = self
            .table
            .take()
            .and_then(|t| t.downcast::<Memory<G>>().ok())
            .unwrap_or_else(|| Box::new((Table::new(self.hash_mb), MoveHistory::default())));
        memory.1.age();
        let (table, moves) = &mut *memory;
        self.searches += 1;
        let noise = self.level.noise();
        let seed = if noise == 0 {
            0
        } else {
            // Weak levels vary from game to game.
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            nanos ^ self.searches.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        };
        let limits = self.level.restrict(limits, G::NODE_RATE);
        let game = AnyGame::from(pos.clone());
        // Texts of a line, each move written in the position it is played from.
        let line_text = |pv: &[G::Move]| {
            let mut at = game.clone();
            let mut out = Vec::with_capacity(pv.len());
            for &m in pv {
                out.push(at.engine_move_text(wrap(m)));
                if at.play(wrap(m)).is_err() {
                    break;
                }
            }
            out
        };
        let threads = if self.level < Level::MAX { 1 } else { self.threads };
        let r = search::search_with(
            pos,
            history,
            &limits,
            stop,
            table,
            moves,
            Style { noise, seed, classical: self.level < Level::MAX, lines: self.lines },
            threads,
            |pr| {
                on_progress(&AnyProgress {
                    depth: pr.depth,
                    seldepth: pr.seldepth,
                    score: pr.score,
                    nodes: pr.nodes,
                    millis: pr.millis,
                    pv: line_text(&pr.pv),
                    line: pr.line,
                })
            },
        );
        self.table = Some(memory);
        AnyResult {
            best: r.best.map(wrap),
            best_text: r.best.map(|m| game.engine_move_text(wrap(m))),
            score: r.score,
            depth: r.depth,
            nodes: r.nodes,
            pv: line_text(&r.pv),
        }
    }
}

/// The static value of a position for its mover, without search: the evaluation, the
/// outcome of a finished position, or at a chance node the weighted mean over the outcomes.
/// For simple opponents (a greedy one-ply player) and tools.
pub fn evaluate_any(game: &AnyGame) -> i32 {
    fn value<G: Evaluate>(pos: &G) -> i32 {
        if pos.chance_pending() {
            let mut outcomes = Vec::new();
            pos.chance_outcomes(&mut outcomes);
            let total: i64 = outcomes.iter().map(|w| w.weight as i64).sum();
            let sum: i64 = outcomes
                .iter()
                .map(|w| {
                    let mut child = pos.clone();
                    child.resolve(w.outcome);
                    let v = value(&child);
                    w.weight as i64 * if child.mover() == pos.mover() { v } else { -v } as i64
                })
                .sum();
            return if total == 0 { 0 } else { (sum / total) as i32 };
        }
        match pos.quick_outcome() {
            Some(o) => match o.winner {
                None => 0,
                Some(w) if w == pos.mover() => MATE,
                Some(_) => -MATE,
            },
            None => pos.evaluate(),
        }
    }
    match game.public() {
        AnyGame::Xiangqi(p) => value(&p),
        AnyGame::Banqi(p) => value(&p),
        AnyGame::ChessBattle(p) => value(&p),
        AnyGame::Commander(p) => value(&p),
        AnyGame::BanqiDealt(p) => value(&p.redact()),
    }
}

/// Searches any game's position without history, with a fresh engine at full strength.
///
/// A dealt Banqi position is searched through its public view: the engine never sees a deal.
pub fn search_any(
    game: &AnyGame,
    limits: &Limits,
    stop: &AtomicBool,
    on_progress: impl FnMut(&AnyProgress),
) -> AnyResult {
    Engine::new().search_position(game, limits, stop, on_progress)
}
