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

/// What reaches a node from the topics it listens to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inbound {
    /// A message, in the order it was published.
    Message(Vec<u8>),
    /// The subscription was lost and is back: what was published meanwhile is lost.
    Resubscribed,
}

/// What a node hears from its topics.
pub type Inbox = mpsc::UnboundedReceiver<Inbound>;

/// What server nodes share.
pub trait Bus: Send + Sync + 'static {
    /// Publishes `payload` on `topic` and returns at once. Messages published by one node
    /// arrive in the order they were published, whatever their topics.
    fn publish(&self, topic: &str, payload: Vec<u8>);
    /// Takes the lease `key` for `holder` for `ttl` if nobody holds it (extending it if
    /// `holder` does); returns who holds it afterwards.
    fn lease<'a>(&'a self, key: &'a str, holder: &'a str, ttl: Duration) -> BusFuture<'a, String>;
    /// Extends the leases among `keys` that `holder` still holds, and takes again those that
    /// nobody holds; per key, whether `holder` holds it now.
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
    listeners: Mutex<Listeners>,
    keys: Mutex<HashMap<String, (String, Instant)>>,
}

/// The nodes' inboxes and the topics each listens to.
#[derive(Debug, Default)]
struct Listeners {
    /// By node: its inbox, and whether its subscription is down (messages are lost).
    inboxes: Vec<(mpsc::UnboundedSender<Inbound>, bool)>,
    topics: HashMap<String, Vec<usize>>,
}

/// One node's end of a [`LocalHub`].
#[derive(Clone, Debug)]
pub struct LocalBus {
    hub: Arc<LocalHub>,
    /// Its inbox among the hub's.
    inbox: usize,
}

impl LocalHub {
    /// A new hub.
    pub fn new() -> Arc<LocalHub> {
        Arc::new(LocalHub::default())
    }

    /// A node's end, listening to `topics`.
    pub fn join(self: &Arc<LocalHub>, topics: &[String]) -> (LocalBus, Inbox) {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut listeners = self.listeners();
        let inbox = listeners.inboxes.len();
        listeners.inboxes.push((tx, false));
        for t in topics {
            listeners.topics.entry(t.clone()).or_default().push(inbox);
        }
        (LocalBus { hub: self.clone(), inbox }, rx)
    }

    fn listeners(&self) -> std::sync::MutexGuard<'_, Listeners> {
        self.listeners.lock().unwrap_or_else(|e| e.into_inner())
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

impl LocalBus {
    /// Loses this node's subscription, as a dropped connection to Redis does: what is
    /// published meanwhile never reaches it. (For tests of the resync.)
    pub fn drop_subscription(&self) {
        self.set_down(true);
    }

    /// Brings the subscription back; the node hears [`Inbound::Resubscribed`] first.
    pub fn resubscribe(&self) {
        self.set_down(false);
        if let Some((tx, _)) = self.hub.listeners().inboxes.get(self.inbox) {
            let _ = tx.send(Inbound::Resubscribed);
        }
    }

    fn set_down(&self, down: bool) {
        if let Some(inbox) = self.hub.listeners().inboxes.get_mut(self.inbox) {
            inbox.1 = down;
        }
    }

    fn keys(&self) -> std::sync::MutexGuard<'_, HashMap<String, (String, Instant)>> {
        self.hub.keys()
    }
}

impl Bus for LocalBus {
    fn publish(&self, topic: &str, payload: Vec<u8>) {
        let listeners = self.hub.listeners();
        for &i in listeners.topics.get(topic).into_iter().flatten() {
            if let Some((tx, false)) = listeners.inboxes.get(i) {
                let _ = tx.send(Inbound::Message(payload.clone()));
            }
        }
    }

    fn lease<'a>(&'a self, key: &'a str, holder: &'a str, ttl: Duration) -> BusFuture<'a, String> {
        let mut keys = self.keys();
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
        let mut map = self.keys();
        let until = Instant::now() + ttl;
        let held = keys
            .iter()
            .map(|k| match map.get_mut(k) {
                Some(e) if e.0 == holder => {
                    e.1 = until;
                    true
                }
                Some(e) if e.1 > Instant::now() => false,
                // Nobody holds it (it ran out, or the store of keys was emptied): taken again.
                _ => {
                    map.insert(k.clone(), (holder.to_string(), until));
                    true
                }
            })
            .collect();
        ready(held)
    }

    fn get<'a>(&'a self, key: &'a str) -> BusFuture<'a, Option<String>> {
        ready(self.keys().get(key).map(|e| e.0.clone()))
    }

    fn put<'a>(&'a self, key: &'a str, value: &'a str, ttl: Duration) -> BusFuture<'a, ()> {
        self.keys().insert(key.to_string(), (value.to_string(), Instant::now() + ttl));
        ready(())
    }

    fn take<'a>(&'a self, key: &'a str) -> BusFuture<'a, Option<String>> {
        ready(self.keys().remove(key).map(|e| e.0))
    }

    fn touch<'a>(&'a self, keys: &'a [String], ttl: Duration) -> BusFuture<'a, Vec<bool>> {
        let mut map = self.keys();
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

    /// A lease nobody holds (a Redis that restarted empty) is taken again by the node that
    /// renews it, never from a node that holds it.
    #[tokio::test]
    async fn renewing_a_lease_nobody_holds_takes_it_again() {
        let hub = LocalHub::new();
        let (bus, _) = hub.join(&[]);
        let ttl = Duration::from_secs(10);
        assert_eq!(bus.lease("held", "b", ttl).await.unwrap(), "b");
        let keys = ["free".to_string(), "held".to_string()];
        assert_eq!(bus.renew(&keys, "a", ttl).await.unwrap(), vec![true, false]);
        assert_eq!(bus.get("free").await.unwrap().as_deref(), Some("a"));
        assert_eq!(bus.get("held").await.unwrap().as_deref(), Some("b"));
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
        let message = |m: &[u8]| Some(Inbound::Message(m.to_vec()));
        assert_eq!(inbox_a.recv().await, message(b"one"));
        assert_eq!(inbox_a.recv().await, message(b"two"));
        a.drop_subscription();
        b.publish("t", b"lost".to_vec());
        a.resubscribe();
        b.publish("t", b"three".to_vec());
        assert_eq!(inbox_a.recv().await, Some(Inbound::Resubscribed));
        assert_eq!(inbox_a.recv().await, message(b"three"));
    }
}
