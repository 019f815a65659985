//! The one writer: every write to the store goes through this task. Game events are
//! group-committed (whatever has queued up goes in one transaction, then each actor is
//! answered; an actor broadcasts a move only after its answer), and the other writes (new
//! games, users, finished games) run between batches. With SQLite one writer means no lock
//! contention between writers; with PostgreSQL it costs nothing.

use crate::metrics::Metrics;
use crate::session::{self, UserCtx};
use cannonade_store::{EventRow, NewPlayer, Store, StoreError};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

type Reply = oneshot::Sender<Result<(), StoreError>>;
type Task = Box<dyn FnOnce(Arc<dyn Store>) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

/// Events to append, the users to write with them if they are not stored yet, and who waits.
type Append = (Vec<EventRow>, Vec<Arc<UserCtx>>, Reply);

enum Job {
    Append(Append),
    Exec(Task),
}

/// The handle actors and handlers write through.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Job::Append((rows, ..)) => write!(f, "Append({} rows)", rows.len()),
            Job::Exec(_) => f.write_str("Exec"),
        }
    }
}

/// At most this many events per transaction.
const MAX_BATCH: usize = 1024;

/// The users of `users` not stored yet, once each (decided here, on the writer task, as a
/// new game's players are, so a user is written once).
fn unsaved<'a>(users: impl Iterator<Item = &'a Arc<UserCtx>>) -> Vec<NewPlayer> {
    let mut new: Vec<NewPlayer> = Vec::new();
    for p in users.filter_map(|u| session::unsaved(u)) {
        if !new.iter().any(|n| n.user.id == p.user.id) {
            new.push(p);
        }
    }
    new
}

async fn commit(store: &Arc<dyn Store>, metrics: &Metrics, batch: Vec<Append>) {
    if batch.is_empty() {
        return;
    }
    let all: Vec<EventRow> = batch.iter().flat_map(|(r, ..)| r.iter().cloned()).collect();
    let players = unsaved(batch.iter().flat_map(|(_, u, _)| u));
    let started = std::time::Instant::now();
    let result = store.append(&all, &players).await;
    metrics.store_commit.observe(started.elapsed().as_micros() as u64);
    metrics.store_batches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    match result {
        Ok(()) => {
            for (_, users, reply) in batch {
                users.iter().for_each(|u| session::saved(u));
                let _ = reply.send(Ok(()));
            }
        }
        // One bad request must not fail its neighbours: retry each alone.
        Err(e) if batch.len() > 1 => {
            tracing::warn!("batched commit failed ({e}); retrying one by one");
            for (rows, users, reply) in batch {
                let result = store.append(&rows, &unsaved(users.iter())).await;
                if result.is_ok() {
                    users.iter().for_each(|u| session::saved(u));
                }
                let _ = reply.send(result);
            }
        }
        Err(e) => {
            for (.., reply) in batch {
                let _ = reply.send(Err(e.clone()));
            }
        }
    }
}

impl Writer {
    /// Starts the writer task.
    pub fn start(store: Arc<dyn Store>, metrics: Arc<Metrics>) -> Writer {
        let (tx, mut rx) = mpsc::channel::<Job>(8192);
        tokio::spawn(async move {
            let mut later: Vec<Task> = Vec::new();
            while let Some(first) = rx.recv().await {
                let mut batch = Vec::new();
                let mut rows = 0;
                let mut next = Some(first);
                while let Some(job) = next.take() {
                    match job {
                        Job::Append(append) => {
                            rows += append.0.len();
                            batch.push(append);
                        }
                        Job::Exec(task) => later.push(task),
                    }
                    if rows < MAX_BATCH {
                        next = rx.try_recv().ok();
                    }
                }
                commit(&store, &metrics, batch).await;
                for task in later.drain(..) {
                    task(store.clone()).await;
                }
            }
        });
        Writer { tx }
    }

    /// Commits `rows`, with those of `users` not stored yet; returns once they are durable
    /// (or failed, with nothing written).
    pub async fn append(
        &self,
        rows: Vec<EventRow>,
        users: Vec<Arc<UserCtx>>,
    ) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Job::Append((rows, users, reply)))
            .await
            .map_err(|_| StoreError("the writer has stopped".into()))?;
        answer.await.map_err(|_| StoreError("the writer has stopped".into()))?
    }

    /// Runs another write on the writer task and returns its result.
    pub async fn exec<T, F>(
        &self,
        write: impl FnOnce(Arc<dyn Store>) -> F + Send + 'static,
    ) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: Future<Output = Result<T, StoreError>> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let task: Task = Box::new(move |store| {
            Box::pin(async move {
                let _ = reply.send(write(store).await);
            })
        });
        self.tx
            .send(Job::Exec(task))
            .await
            .map_err(|_| StoreError("the writer has stopped".into()))?;
        answer.await.map_err(|_| StoreError("the writer has stopped".into()))?
    }
}
