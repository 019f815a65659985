//! Group commit: game actors hand their events to one writer task, which commits whatever
//! has queued up in a single transaction and then answers each actor. An actor broadcasts a
//! move only after its answer, so nothing is told before it is durable, and a thousand moves
//! arriving together cost one commit.

use crate::metrics::Metrics;
use cannonade_store::{EventRow, Store, StoreError};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

type Request = (Vec<EventRow>, oneshot::Sender<Result<(), StoreError>>);

/// The handle actors write through.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<Request>,
}

/// At most this many events per transaction.
const MAX_BATCH: usize = 1024;

impl Writer {
    /// Starts the writer task.
    pub fn start(store: Arc<dyn Store>, metrics: Arc<Metrics>) -> Writer {
        let (tx, mut rx) = mpsc::channel::<Request>(8192);
        tokio::spawn(async move {
            while let Some(first) = rx.recv().await {
                let mut batch = vec![first];
                let mut rows = batch[0].0.len();
                while rows < MAX_BATCH {
                    match rx.try_recv() {
                        Ok(req) => {
                            rows += req.0.len();
                            batch.push(req);
                        }
                        Err(_) => break,
                    }
                }
                let all: Vec<EventRow> =
                    batch.iter().flat_map(|(r, _)| r.iter().cloned()).collect();
                let result = store.append(&all).await;
                metrics.store_batches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                match result {
                    Ok(()) => {
                        for (_, reply) in batch {
                            let _ = reply.send(Ok(()));
                        }
                    }
                    // One bad request must not fail its neighbours: retry each alone.
                    Err(e) if batch.len() > 1 => {
                        tracing::warn!("batched commit failed ({e}); retrying one by one");
                        for (rows, reply) in batch {
                            let _ = reply.send(store.append(&rows).await);
                        }
                    }
                    Err(e) => {
                        for (_, reply) in batch {
                            let _ = reply.send(Err(e.clone()));
                        }
                    }
                }
            }
        });
        Writer { tx }
    }

    /// Commits `rows`; returns once they are durable (or failed, with nothing written).
    pub async fn append(&self, rows: Vec<EventRow>) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send((rows, reply))
            .await
            .map_err(|_| StoreError("the writer has stopped".into()))?;
        answer.await.map_err(|_| StoreError("the writer has stopped".into()))?
    }
}
