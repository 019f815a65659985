//! The engine thinking on a background thread, so the board keeps answering keys.

use cannonade_engine::{AnyProgress, AnyResult, Limits, search_any};
use cannonade_games::AnyGame;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

enum Report {
    Progress(AnyProgress),
    Done(AnyResult),
}

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
    /// The thread ended without an answer (it panicked): the board says so and goes on.
    Lost,
}

impl EngineJob {
    /// Starts searching `game` (its public view: the engine never sees a Banqi deal).
    pub fn start(game: &AnyGame, limits: Limits, ply: usize) -> EngineJob {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, reports) = channel();
        let game = game.public();
        let flag = Arc::clone(&stop);
        std::thread::spawn(move || {
            let progress = tx.clone();
            let result = search_any(&game, &limits, &flag, |p| {
                let _ = progress.send(Report::Progress(p.clone()));
            });
            let _ = tx.send(Report::Done(result));
        });
        EngineJob { stop, reports, started: Instant::now(), progress: None, ply }
    }

    /// Collects what the search reported since the last call.
    pub fn poll(&mut self) -> Poll {
        loop {
            match self.reports.try_recv() {
                Ok(Report::Progress(p)) => self.progress = Some(p),
                Ok(Report::Done(r)) => return Poll::Done(r),
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
