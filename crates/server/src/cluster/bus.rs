//! The bus between server nodes: topics to publish on (each node listens to its own topic and
//! to the shared one) and a few keys with expiry (the per-game leases and the open seeks).
//! [`LocalHub`] is the in-process implementation (several nodes in one process, as the tests
//! run them); [`super::RedisBus`] is the one for separate processes.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// A bus call failed (the text says why).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BusError(pub String);

impl std::fmt::Display for BusError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bus: {}", self.0)
    }
}

impl std::error::Error for BusError {}

/// A boxed future of a bus call (the trait is used as `dyn Bus`).
pub type BusFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, BusError>> + Send + 'a>>;

/// The messages of the topics a node listens to, in the order they were published.
pub type Inbox = mpsc::UnboundedReceiver<Vec<u8>>;

/// What server nodes share.
pub trait Bus: Send + Sync + 'static {
    /// Publishes `payload` on `topic` and returns at once. Messages published by one node
    /// arrive in the order they were published, whatever their topics.
    fn publish(&self, topic: &str, payload: Vec<u8>);
    /// Takes the lease `key` for `holder` for `ttl` if nobody holds it (extending it if
    /// `holder` does); returns who holds it afterwards.
    fn lease<'a>(&'a self, key: &'a str, holder: &'a str, ttl: Duration) -> BusFuture<'a, String>;
    /// Extends the leases among `keys` that `holder` still holds; per key, whether it did.
    fn renew<'a>(
        &'a self,
        keys: &'a [String],
        holder: &'a str,
        ttl: Duration,
    ) -> BusFuture<'a, Vec<bool>>;
    /// The value of `key`.
    fn get<'a>(&'a self, key: &'a str) -> BusFuture<'a, Option<String>>;
    /// Sets `key` for `ttl`.
    fn put<'a>(&'a self, key: &'a str, value: &'a str, ttl: Duration) -> BusFuture<'a, ()>;
    /// Removes `key` and returns its value: of callers racing for it, one gets it.
    fn take<'a>(&'a self, key: &'a str) -> BusFuture<'a, Option<String>>;
    /// Extends the keys among `keys` that still exist to `ttl`, whoever set them; per key,
    /// whether it existed.
    fn touch<'a>(&'a self, keys: &'a [String], ttl: Duration) -> BusFuture<'a, Vec<bool>>;
}

/// An in-process bus that nodes of one process join.
#[derive(Debug, Default)]
pub struct LocalHub {
    topics: Mutex<HashMap<String, Vec<mpsc::UnboundedSender<Vec<u8>>>>>,
    keys: Mutex<HashMap<String, (String, Instant)>>,
}

/// One node's end of a [`LocalHub`].
#[derive(Clone, Debug)]
pub struct LocalBus(Arc<LocalHub>);

impl LocalHub {
    /// A new hub.
    pub fn new() -> Arc<LocalHub> {
        Arc::new(LocalHub::default())
    }

    /// A node's end, listening to `topics`.
    pub fn join(self: &Arc<LocalHub>, topics: &[String]) -> (LocalBus, Inbox) {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut map = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        for t in topics {
            map.entry(t.clone()).or_default().push(tx.clone());
        }
        (LocalBus(self.clone()), rx)
    }

    fn keys(&self) -> std::sync::MutexGuard<'_, HashMap<String, (String, Instant)>> {
        let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        keys.retain(|_, (_, until)| *until > now);
        keys
    }
}

fn ready<'a, T: Send + 'a>(value: T) -> BusFuture<'a, T> {
    Box::pin(std::future::ready(Ok(value)))
}

impl Bus for LocalBus {
    fn publish(&self, topic: &str, payload: Vec<u8>) {
        let mut map = self.0.topics.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(list) = map.get_mut(topic) {
            list.retain(|tx| tx.send(payload.clone()).is_ok());
        }
    }

    fn lease<'a>(&'a self, key: &'a str, holder: &'a str, ttl: Duration) -> BusFuture<'a, String> {
        let mut keys = self.0.keys();
        let until = Instant::now() + ttl;
        let entry = keys.entry(key.to_string()).or_insert_with(|| (holder.to_string(), until));
        if entry.0 == holder {
            entry.1 = until;
        }
        ready(entry.0.clone())
    }

    fn renew<'a>(
        &'a self,
        keys: &'a [String],
        holder: &'a str,
        ttl: Duration,
    ) -> BusFuture<'a, Vec<bool>> {
        let mut map = self.0.keys();
        let until = Instant::now() + ttl;
        let held = keys
            .iter()
            .map(|k| match map.get_mut(k) {
                Some(e) if e.0 == holder => {
                    e.1 = until;
                    true
                }
                _ => false,
            })
            .collect();
        ready(held)
    }

    fn get<'a>(&'a self, key: &'a str) -> BusFuture<'a, Option<String>> {
        ready(self.0.keys().get(key).map(|e| e.0.clone()))
    }

    fn put<'a>(&'a self, key: &'a str, value: &'a str, ttl: Duration) -> BusFuture<'a, ()> {
        self.0.keys().insert(key.to_string(), (value.to_string(), Instant::now() + ttl));
        ready(())
    }

    fn take<'a>(&'a self, key: &'a str) -> BusFuture<'a, Option<String>> {
        ready(self.0.keys().remove(key).map(|e| e.0))
    }

    fn touch<'a>(&'a self, keys: &'a [String], ttl: Duration) -> BusFuture<'a, Vec<bool>> {
        let mut map = self.0.keys();
        let until = Instant::now() + ttl;
        let found = keys.iter().map(|k| map.get_mut(k).map(|e| e.1 = until).is_some()).collect();
        ready(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_lease_has_one_holder_until_it_expires() {
        let hub = LocalHub::new();
        let (bus, _) = hub.join(&[]);
        let ttl = Duration::from_millis(50);
        assert_eq!(bus.lease("g", "a", ttl).await.unwrap(), "a");
        assert_eq!(bus.lease("g", "b", ttl).await.unwrap(), "a");
        assert_eq!(bus.renew(&["g".into()], "b", ttl).await.unwrap(), vec![false]);
        assert_eq!(bus.renew(&["g".into()], "a", ttl).await.unwrap(), vec![true]);
        tokio::time::sleep(Duration::from_millis(80)).await;
        assert_eq!(bus.lease("g", "b", ttl).await.unwrap(), "b");
    }

    #[tokio::test]
    async fn a_taken_key_goes_to_one_caller_and_topics_reach_their_listeners() {
        let hub = LocalHub::new();
        let (a, mut inbox_a) = hub.join(&["t".to_string()]);
        let (b, _) = hub.join(&[]);
        let ttl = || Duration::from_secs(5);
        a.put("seek", "x", ttl()).await.unwrap();
        assert_eq!(b.touch(&["seek".into(), "none".into()], ttl()).await.unwrap(), [true, false]);
        assert_eq!(b.take("seek").await.unwrap().as_deref(), Some("x"));
        assert_eq!(a.take("seek").await.unwrap(), None);
        b.publish("t", b"one".to_vec());
        b.publish("other", b"none".to_vec());
        b.publish("t", b"two".to_vec());
        assert_eq!(inbox_a.recv().await.unwrap(), b"one");
        assert_eq!(inbox_a.recv().await.unwrap(), b"two");
    }
}
