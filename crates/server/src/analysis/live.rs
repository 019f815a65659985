//! The analysis board's engine. A request (a position and a number of lines) becomes a
//! search in slices: each slice is one job of the engine service at
//! [`Priority::Analysis`] (after AI moves, before reviews), so an AI move waits for at most
//! one slice, and an engine that served the position keeps its table for the next slice.
//! After each completed depth the lines go to the client; the search stops when the
//! socket asks for another position or closes, when the position's time is used, or when
//! deeper search can tell nothing new. A user runs at most a bounded number at once.
//!
//! On a node started with `--ai-workers` each slice is offered to the `cannonade worker`
//! processes first ([`AiAsker::slice`]); the depths a worker completes come back through
//! Redis to the same reporter, and a slice no worker answers is searched here.

use crate::ai_board::AiAsker;
use crate::engines::{Engines, Priority};
use crate::limits::Limits;
use crate::lock::lock;
use crate::slice::{self, DepthLines, PvLine};
use cannonade_core::Next;
use cannonade_engine::review::judge::Eval;
use cannonade_games::{AnyGame, AnyRecord};
use cannonade_wire::{AnalysisStatus, EngineLine, LegalMove, LineMove, ServerMsg};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// Where an analysis's messages go (a socket's queue; a test's list).
pub type Sender = Arc<dyn Fn(ServerMsg) + Send + Sync>;

/// The analysis service of a node.
pub struct Analyses {
    engines: Engines,
    time: Duration,
    slice: Duration,
    per_user: usize,
    /// Running analyses per user id.
    users: Mutex<HashMap<String, usize>>,
    /// Set when the slices go to `cannonade worker` processes first (`serve --ai-workers`).
    workers: OnceLock<AiAsker>,
}

impl std::fmt::Debug for Analyses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analyses").field("time", &self.time).field("slice", &self.slice).finish()
    }
}

/// A user already runs as many analyses as one may.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooMany(pub usize);

impl std::fmt::Display for TooMany {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at most {} analysis boards at once: close one first", self.0)
    }
}

/// A running analysis: dropping it (the socket moved on or closed) stops the search.
#[derive(Debug)]
pub struct Running {
    stop: Arc<AtomicBool>,
    user: String,
    service: Arc<Analyses>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
        let mut users = lock(&self.service.users);
        if let Some(n) = users.get_mut(&self.user) {
            *n -= 1;
            if *n == 0 {
                users.remove(&self.user);
            }
        }
    }
}

/// What one analysis searches and where it reports.
struct Request {
    id: u32,
    lines: u32,
    record: AnyRecord,
    stop: Arc<AtomicBool>,
    send: Sender,
    /// The engine queue's key: one per socket, so a socket's slices meet their own table.
    key: String,
}

impl Analyses {
    /// The service on `engines`, bounded by `limits`.
    pub fn new(engines: Engines, limits: &Limits) -> Arc<Analyses> {
        Arc::new(Analyses {
            engines,
            time: limits.analysis_time,
            slice: limits.analysis_slice.max(Duration::from_millis(10)),
            per_user: limits.analyses_per_user.max(1),
            users: Mutex::new(HashMap::new()),
            workers: OnceLock::new(),
        })
    }

    /// From now on the slices go to `cannonade worker` processes through `asker` (this
    /// node's engines search a slice no worker answers). Set once; later calls are ignored.
    pub fn send_to_workers(&self, asker: AiAsker) {
        let _ = self.workers.set(asker);
    }

    /// Starts analysing `record`'s position with `lines` best lines for `user` (whose
    /// socket `conn` gets the messages through `send`, tagged `id`). Keep the answer while
    /// the analysis is wanted. Needs a tokio runtime.
    pub fn start(
        self: &Arc<Self>,
        user: &str,
        conn: u64,
        id: u32,
        lines: u32,
        record: AnyRecord,
        send: Sender,
    ) -> Result<Running, TooMany> {
        {
            let mut users = lock(&self.users);
            let n = users.entry(user.to_string()).or_default();
            if *n >= self.per_user {
                return Err(TooMany(self.per_user));
            }
            *n += 1;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let running = Running { stop: stop.clone(), user: user.to_string(), service: self.clone() };
        let request = Request { id, lines, record, stop, send, key: format!("analysis:{conn}") };
        let service = self.clone();
        tokio::spawn(async move { service.search(request).await });
        Ok(running)
    }

    /// Searches slice after slice until stopped, done or out of time.
    async fn search(&self, req: Request) {
        let position = req.record.position();
        let expected = (req.lines.max(1) as usize).min(position.legal_moves().len());
        if expected == 0 || matches!(req.record.next(), Next::Over(_)) {
            (req.send)(message(req.id, AnalysisStatus::Done, None, 0, 0, Vec::new()));
            return;
        }
        let reporter = Arc::new(Reporter {
            id: req.id,
            lines: expected,
            position,
            stop: req.stop.clone(),
            send: req.send.clone(),
            progress: Mutex::new(Progress::default()),
        });
        let mut used = Duration::ZERO;
        let mut first = true;
        while !req.stop.load(Relaxed) {
            let time = self.slice.min(self.time.saturating_sub(used));
            reporter.next_slice();
            let mut end = None;
            if let Some(workers) = self.workers.get() {
                let to = reporter.clone();
                end = workers
                    .slice(&req.key, &req.record, expected as u32, time, move |d| to.depth(d))
                    .await;
            }
            if end.is_none() {
                // No worker (or none answered): this node's engines.
                let (record, stop, to) = (req.record.clone(), req.stop.clone(), reporter.clone());
                let Some((answer, ahead)) =
                    self.engines.submit(&req.key, Priority::Analysis, move |engine| {
                        slice::search(engine, &record, expected as u32, time, &stop, |d| {
                            to.depth(d)
                        })
                    })
                else {
                    return;
                };
                if first && ahead > 0 {
                    (req.send)(message(
                        req.id,
                        AnalysisStatus::Queued,
                        Some(ahead as u32),
                        0,
                        0,
                        Vec::new(),
                    ));
                }
                let Ok(e) = answer.await else { return };
                end = Some(e);
            }
            first = false;
            let Some(end) = end else { return };
            used += end.took();
            if req.stop.load(Relaxed) {
                return;
            }
            if end.finished || used >= self.time {
                let p = lock(&reporter.progress).clone();
                (req.send)(message(req.id, AnalysisStatus::Done, None, p.depth, p.nodes, p.lines));
                return;
            }
        }
    }
}

/// What an analysis has sent so far (slices restart iterative deepening: a depth is sent
/// once, when it is deeper than any before).
#[derive(Clone, Debug, Default)]
struct Progress {
    depth: u32,
    /// Nodes of the slices before this one.
    nodes_before: u64,
    nodes: u64,
    lines: Vec<EngineLine>,
}

/// Turns one analysis's completed depths, from whichever engine searched its slice, into
/// messages to its socket.
struct Reporter {
    id: u32,
    lines: usize,
    position: AnyGame,
    stop: Arc<AtomicBool>,
    send: Sender,
    progress: Mutex<Progress>,
}

impl Reporter {
    /// A new slice begins: its node count adds to the slices' before it.
    fn next_slice(&self) {
        let mut p = lock(&self.progress);
        p.nodes_before = p.nodes;
    }

    /// A slice completed a depth: sent when it is deeper than any before (and the socket
    /// still wants this analysis). A report with another number of lines than asked for (a
    /// worker of another build) is passed over.
    fn depth(&self, d: DepthLines) {
        if self.stop.load(Relaxed) || d.lines.len() != self.lines {
            return;
        }
        let mut p = lock(&self.progress);
        p.nodes = p.nodes_before + d.nodes;
        if d.depth <= p.depth {
            return;
        }
        p.depth = d.depth;
        p.lines = d.lines.iter().map(|l| engine_line(&self.position, l)).collect();
        (self.send)(message(
            self.id,
            AnalysisStatus::Running,
            None,
            p.depth,
            p.nodes,
            p.lines.clone(),
        ));
    }
}

/// A search's line as the client shows it: its value and its moves as given and as read.
fn engine_line(position: &AnyGame, p: &PvLine) -> EngineLine {
    let mut at = position.clone();
    let mut moves = Vec::with_capacity(p.pv.len());
    for text in &p.pv {
        let Ok(mv) = at.parse_move(text) else { break };
        moves.push(LineMove { mv: at.move_text(mv), display: at.display_move(mv) });
        // A line goes no further than a chance event (a flip's piece is not known).
        if at.play(mv).is_err() || matches!(at.next(), Next::Chance | Next::Over(_)) {
            break;
        }
    }
    let squares = moves.first().map(|m| LegalMove::from_text(m.mv.clone()).squares);
    let value = crate::reviews::crowd::line_value(Eval::from_score(p.score));
    EngineLine { value, moves, squares: squares.unwrap_or_default() }
}

fn message(
    id: u32,
    status: AnalysisStatus,
    place: Option<u32>,
    depth: u32,
    nodes: u64,
    lines: Vec<EngineLine>,
) -> ServerMsg {
    ServerMsg::Analysis { id, status, place, depth, nodes, lines }
}
