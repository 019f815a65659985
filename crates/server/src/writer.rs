//! The one writer: every write to the store goes through this task. Game events are
//! group-committed (whatever has queued up goes in one transaction, then each actor is
//! answered; an actor broadcasts a move only after its answer), and the other writes (new
//! games, users, finished games) run between batches. Spectators' proposals and the users
//! to store with them go in the same transaction as the events. With SQLite one writer
//! means no lock contention between writers; with PostgreSQL it costs nothing.
//!
//! Under load, commits start at least [`Config::commit_interval`](crate::Config) apart: a
//! commit's cost is mostly per transaction, so waiting a few milliseconds to gather more
//! rows costs that little latency and saves most commits (a lone move after a quiet spell
//! is committed at once).

use crate::metrics::Metrics;
use crate::user::UserCtx;
use cannonade_store::{ChatRow, Commit, EventRow, ProposalRow, Store, StoreError};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

type Reply = oneshot::Sender<Result<(), StoreError>>;
type Task = Box<dyn FnOnce(Arc<dyn Store>) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

enum Job {
    Append(Vec<EventRow>, Reply),
    Propose(ProposalRow, Reply),
    Chat(ChatRow, Reply),
    /// Users to store with the next commit if they are not stored yet; nobody waits.
    Users(Vec<Arc<UserCtx>>),
    Exec(Task),
}

/// The handle actors and handlers write through.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<Job>,
    health: watch::Receiver<bool>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Job::Append(rows, _) => write!(f, "Append({} rows)", rows.len()),
            Job::Propose(row, _) => write!(f, "Propose({}, {})", row.game_id, row.ply),
            Job::Chat(row, _) => write!(f, "Chat({}, {})", row.game_id, row.n),
            Job::Users(users) => write!(f, "Users({})", users.len()),
            Job::Exec(_) => f.write_str("Exec"),
        }
    }
}

/// At most this many events per transaction.
const MAX_BATCH: usize = 1024;

/// What one group commit holds.
#[derive(Default)]
struct Batch {
    events: Vec<(Vec<EventRow>, Reply)>,
    proposals: Vec<(ProposalRow, Reply)>,
    chat: Vec<(ChatRow, Reply)>,
    users: Vec<Arc<UserCtx>>,
}

/// Commits a batch in one transaction and answers each request; `Ok` when the store took it
/// (or there was nothing to write). When it fails, each request (and the users) is tried
/// alone, so one bad request does not fail its neighbours; the batch counts as failed when
/// any of them fails.
async fn commit(store: &Arc<dyn Store>, metrics: &Metrics, batch: Batch) -> Result<(), StoreError> {
    let Batch { events, proposals, chat, users } = batch;
    let players = crate::user::unsaved_once(&users);
    let all: Vec<EventRow> = events.iter().flat_map(|(r, _)| r.iter().cloned()).collect();
    let rows: Vec<ProposalRow> = proposals.iter().map(|(r, _)| r.clone()).collect();
    let lines: Vec<ChatRow> = chat.iter().map(|(r, _)| r.clone()).collect();
    let whole = Commit { events: &all, players: &players, proposals: &rows, chat: &lines };
    if whole.is_empty() {
        return Ok(());
    }
    let started = std::time::Instant::now();
    let result = store.commit(whole).await;
    metrics.store_commit.observe(started.elapsed().as_micros() as u64);
    metrics.store_batches.inc();
    let requests = events.len() + proposals.len() + chat.len() + (!players.is_empty()) as usize;
    match result {
        Ok(()) => {
            users.iter().for_each(|u| crate::user::saved(u));
            replies(events, proposals, chat).for_each(|reply| drop(reply.send(Ok(()))));
            Ok(())
        }
        Err(e) if requests > 1 => {
            tracing::warn!("batched commit failed ({e}); retrying one by one");
            let mut failed = None;
            let mut answer = |reply: Reply, result: Result<(), StoreError>| {
                if let Err(e) = &result {
                    failed.get_or_insert(e.clone());
                }
                let _ = reply.send(result);
            };
            for (rows, reply) in events {
                answer(reply, store.append(&rows, &[]).await);
            }
            for (row, reply) in proposals {
                answer(reply, store.propose(std::slice::from_ref(&row)).await);
            }
            for (row, reply) in chat {
                answer(reply, store.add_chat(&row).await);
            }
            if !players.is_empty() {
                match store.append(&[], &players).await {
                    Ok(()) => users.iter().for_each(|u| crate::user::saved(u)),
                    Err(e) => tracing::warn!("{} new users not stored: {e}", players.len()),
                }
            }
            failed.map_or(Ok(()), Err)
        }
        Err(e) => {
            if !players.is_empty() {
                tracing::warn!("{} new users not stored: {e}", players.len());
            }
            replies(events, proposals, chat).for_each(|reply| drop(reply.send(Err(e.clone()))));
            Err(e)
        }
    }
}

/// Whoever waits for the requests of a batch.
fn replies(
    events: Vec<(Vec<EventRow>, Reply)>,
    proposals: Vec<(ProposalRow, Reply)>,
    chat: Vec<(ChatRow, Reply)>,
) -> impl Iterator<Item = Reply> {
    events
        .into_iter()
        .map(|(_, r)| r)
        .chain(proposals.into_iter().map(|(_, r)| r))
        .chain(chat.into_iter().map(|(_, r)| r))
}

/// While the store fails, it is probed this often; the first probe that writes makes it
/// healthy again.
const PROBE_EVERY: Duration = Duration::from_secs(1);

impl Writer {
    /// Starts the writer task; commits start at least `interval` apart.
    pub fn start(store: Arc<dyn Store>, metrics: Arc<Metrics>, interval: Duration) -> Writer {
        let (tx, mut rx) = mpsc::channel::<Job>(8192);
        let (healthy, health) = watch::channel(true);
        tokio::spawn(async move {
            let mut later: Vec<Task> = Vec::new();
            let mut last_commit: Option<Instant> = None;
            loop {
                // While the store fails, a probe write every second tells when it takes
                // writes again (a full disk freed), without waiting for a move to try.
                let first = if *healthy.borrow() {
                    rx.recv().await
                } else {
                    match tokio::time::timeout(PROBE_EVERY, rx.recv()).await {
                        Ok(job) => job,
                        Err(_) => {
                            if store.probe().await.is_ok() {
                                tracing::info!("the store takes writes again");
                                healthy.send_replace(true);
                            }
                            continue;
                        }
                    }
                };
                let Some(first) = first else { break };
                if let Some(due) = last_commit.map(|at| at + interval)
                    && Instant::now() < due
                {
                    tokio::time::sleep_until(due).await;
                }
                let mut batch = Batch::default();
                let mut rows = 0;
                let mut next = Some(first);
                while let Some(job) = next.take() {
                    match job {
                        Job::Append(r, reply) => {
                            rows += r.len();
                            batch.events.push((r, reply));
                        }
                        Job::Propose(row, reply) => {
                            rows += 1;
                            batch.proposals.push((row, reply));
                        }
                        Job::Chat(row, reply) => {
                            rows += 1;
                            batch.chat.push((row, reply));
                        }
                        Job::Users(u) => {
                            rows += u.len();
                            batch.users.extend(u);
                        }
                        Job::Exec(task) => later.push(task),
                    }
                    if rows < MAX_BATCH {
                        next = rx.try_recv().ok();
                    }
                }
                last_commit = Some(Instant::now());
                let ok = commit(&store, &metrics, batch).await.is_ok();
                if ok != *healthy.borrow() {
                    if ok {
                        tracing::info!("the store takes writes again");
                    } else {
                        tracing::error!("the store cannot take writes; games are held");
                    }
                    healthy.send_replace(ok);
                }
                for task in later.drain(..) {
                    task(store.clone()).await;
                }
            }
        });
        Writer { tx, health }
    }

    /// Whether the store takes writes: `false` from a failed commit until a write (a later
    /// commit or the writer's probe) succeeds. Games hold their clocks meanwhile.
    pub fn health(&self) -> watch::Receiver<bool> {
        self.health.clone()
    }

    /// Commits `rows`; returns once they are durable (or failed, with nothing written).
    pub async fn append(&self, rows: Vec<EventRow>) -> Result<(), StoreError> {
        self.commit_with(|reply| Job::Append(rows, reply)).await
    }

    /// Stores a chat line with the next group commit; returns once it is durable (or
    /// failed).
    pub async fn chat(&self, row: ChatRow) -> Result<(), StoreError> {
        self.commit_with(|reply| Job::Chat(row, reply)).await
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
        if !crate::user::is_saved(&user) {
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
