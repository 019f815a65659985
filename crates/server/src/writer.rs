//! The one writer: every write to the store goes through this task. Game events are
//! group-committed (whatever has queued up goes in one transaction, then each actor is
//! answered; an actor broadcasts a move only after its answer), and the other writes (new
//! games, users, finished games) run between batches. Spectators' proposals are
//! group-committed the same way, in a transaction of their own beside the events'. With
//! SQLite one writer means no lock contention between writers; with PostgreSQL it costs
//! nothing.

use crate::metrics::Metrics;
use crate::session::{self, UserCtx};
use cannonade_store::{EventRow, ProposalRow, Store, StoreError};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

type Reply = oneshot::Sender<Result<(), StoreError>>;
type Task = Box<dyn FnOnce(Arc<dyn Store>) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

enum Job {
    Append(Vec<EventRow>, Reply),
    Propose(ProposalRow, Reply),
    /// Users to store with the next commit if they are not stored yet; nobody waits.
    Users(Vec<Arc<UserCtx>>),
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
            Job::Append(rows, _) => write!(f, "Append({} rows)", rows.len()),
            Job::Propose(row, _) => write!(f, "Propose({}, {})", row.game_id, row.ply),
            Job::Users(users) => write!(f, "Users({})", users.len()),
            Job::Exec(_) => f.write_str("Exec"),
        }
    }
}

/// At most this many events per transaction.
const MAX_BATCH: usize = 1024;

/// Stores a batch of proposals in one transaction and answers each; when it fails, each is
/// tried alone, so one bad row does not fail its neighbours.
async fn commit_proposals(store: &Arc<dyn Store>, batch: Vec<(ProposalRow, Reply)>) {
    if batch.is_empty() {
        return;
    }
    let rows: Vec<ProposalRow> = batch.iter().map(|(r, _)| r.clone()).collect();
    match store.propose(&rows).await {
        Ok(()) => batch.into_iter().for_each(|(_, reply)| drop(reply.send(Ok(())))),
        Err(e) if batch.len() == 1 => {
            batch.into_iter().for_each(|(_, r)| drop(r.send(Err(e.clone()))))
        }
        Err(e) => {
            tracing::warn!("batched proposals failed ({e}); retrying one by one");
            for (row, reply) in batch {
                let _ = reply.send(store.propose(std::slice::from_ref(&row)).await);
            }
        }
    }
}

async fn commit(
    store: &Arc<dyn Store>,
    metrics: &Metrics,
    batch: Vec<(Vec<EventRow>, Reply)>,
    users: Vec<Arc<UserCtx>>,
) {
    let players = session::unsaved_once(&users);
    if batch.is_empty() && players.is_empty() {
        return;
    }
    let all: Vec<EventRow> = batch.iter().flat_map(|(r, _)| r.iter().cloned()).collect();
    let started = std::time::Instant::now();
    let result = store.append(&all, &players).await;
    metrics.store_commit.observe(started.elapsed().as_micros() as u64);
    metrics.store_batches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    match result {
        Ok(()) => {
            users.iter().for_each(|u| session::saved(u));
            for (_, reply) in batch {
                let _ = reply.send(Ok(()));
            }
        }
        // One bad request must not fail its neighbours: retry each alone, the users too.
        Err(e) if batch.len() + (!players.is_empty()) as usize > 1 => {
            tracing::warn!("batched commit failed ({e}); retrying one by one");
            for (rows, reply) in batch {
                let _ = reply.send(store.append(&rows, &[]).await);
            }
            match store.append(&[], &players).await {
                Ok(()) => users.iter().for_each(|u| session::saved(u)),
                Err(e) => tracing::warn!("{} new users not stored: {e}", players.len()),
            }
        }
        Err(e) => {
            if !players.is_empty() {
                tracing::warn!("{} new users not stored: {e}", players.len());
            }
            for (_, reply) in batch {
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
                let mut proposals = Vec::new();
                let mut users = Vec::new();
                let mut rows = 0;
                let mut next = Some(first);
                while let Some(job) = next.take() {
                    match job {
                        Job::Append(r, reply) => {
                            rows += r.len();
                            batch.push((r, reply));
                        }
                        Job::Propose(row, reply) => {
                            rows += 1;
                            proposals.push((row, reply));
                        }
                        Job::Users(u) => {
                            rows += u.len();
                            users.extend(u);
                        }
                        Job::Exec(task) => later.push(task),
                    }
                    if rows < MAX_BATCH {
                        next = rx.try_recv().ok();
                    }
                }
                commit(&store, &metrics, batch, users).await;
                commit_proposals(&store, proposals).await;
                for task in later.drain(..) {
                    task(store.clone()).await;
                }
            }
        });
        Writer { tx }
    }

    /// Commits `rows`; returns once they are durable (or failed, with nothing written).
    pub async fn append(&self, rows: Vec<EventRow>) -> Result<(), StoreError> {
        self.commit_with(|reply| Job::Append(rows, reply)).await
    }

    /// Stores a spectator's proposal with the next group commit; returns once it is durable
    /// (or failed).
    pub async fn propose(&self, row: ProposalRow) -> Result<(), StoreError> {
        self.commit_with(|reply| Job::Propose(row, reply)).await
    }

    /// Queues a job for the next group commit and waits for its answer.
    async fn commit_with(&self, job: impl FnOnce(Reply) -> Job) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(job(reply)).await.map_err(|_| StoreError("the writer has stopped".into()))?;
        answer.await.map_err(|_| StoreError("the writer has stopped".into()))?
    }

    /// Stores `user` (and their session) with the next group commit unless they are stored
    /// by then, without waiting: for a spectator whose proposals will be scored under their
    /// id, so the session keeps that id (and their score) across a restart. Many such users
    /// cost a few multi-row inserts in a commit that happens anyway, not a commit each. A
    /// failed write is logged; the user's next proposal asks again.
    pub fn store_user_soon(&self, user: Arc<UserCtx>) {
        if !session::is_saved(&user) {
            let _ = self.tx.try_send(Job::Users(vec![user]));
        }
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
