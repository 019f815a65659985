//! The engine thinking on a background thread, so the board keeps answering keys.

use cannonade_engine::{AnyProgress, AnyResult, Engine, Level, Limits};
use cannonade_games::AnyRecord;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

enum Report {
    Progress(AnyProgress),
    Done(AnyResult),
    Failed(String),
}

/// The name of the search thread; the panic hook of [`crate::run`] leaves the terminal alone
/// for it (the board goes on and shows the failure).
pub const ENGINE_THREAD: &str = "cannonade-engine";

/// A search running on its own thread. Dropping it asks the search to stop; the thread ends
/// by itself moments later and its answer is thrown away.
pub struct EngineJob {
    stop: Arc<AtomicBool>,
    reports: Receiver<Report>,
    started: Instant,
    progress: Option<AnyProgress>,
    /// The number of record steps when the search began: the answer belongs to that position.
    pub ply: usize,
}

/// What [`EngineJob::poll`] found.
#[derive(Debug)]
pub enum Poll {
    /// Still thinking.
    Thinking,
    /// The search finished with this result.
    Done(AnyResult),
    /// The search failed (a bug in it): the board shows why and goes on.
    Failed(String),
    /// The thread ended without an answer.
    Lost,
}

impl EngineJob {
    /// Starts the engine at `level` on the game's current position, with its history for the
    /// repetition rules (a Banqi game through its public view: the engine never sees a deal).
    pub fn start(record: &AnyRecord, level: Level, limits: Limits, ply: usize) -> EngineJob {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, reports) = channel();
        let record = record.clone();
        let flag = Arc::clone(&stop);
        let spawned = std::thread::Builder::new().name(ENGINE_THREAD.into()).spawn(move || {
            let progress = tx.clone();
            let search = std::panic::AssertUnwindSafe(|| {
                let mut engine = Engine::new();
                engine.set_level(level);
                engine.search(&record, &limits, &flag, |p| {
                    let _ = progress.send(Report::Progress(p.clone()));
                })
            });
            let report = match std::panic::catch_unwind(search) {
                Ok(result) => Report::Done(result),
                Err(panic) => Report::Failed(
                    panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "the search panicked".into()),
                ),
            };
            let _ = tx.send(report);
        });
        // No thread (out of resources): the receiver is disconnected and `poll` says Lost.
        drop(spawned);
        EngineJob { stop, reports, started: Instant::now(), progress: None, ply }
    }

    /// Collects what the search reported since the last call.
    pub fn poll(&mut self) -> Poll {
        loop {
            match self.reports.try_recv() {
                Ok(Report::Progress(p)) => self.progress = Some(p),
                Ok(Report::Done(r)) => return Poll::Done(r),
                Ok(Report::Failed(why)) => return Poll::Failed(why),
                Err(TryRecvError::Empty) => return Poll::Thinking,
                Err(TryRecvError::Disconnected) => return Poll::Lost,
            }
        }
    }

    /// How long the search has run.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The last completed depth's report.
    pub fn progress(&self) -> Option<&AnyProgress> {
        self.progress.as_ref()
    }
}

impl Drop for EngineJob {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
