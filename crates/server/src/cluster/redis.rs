//! The bus on Redis, through the `redis` crate: PUBLISH/SUBSCRIBE for the topics, `SET NX PX`
//! leases renewed by a compare-and-extend script, `GETDEL` for seeks, `PEXPIRE` to keep them
//! alive. Commands share one multiplexed connection that reconnects by itself (the crate's
//! `ConnectionManager`: concurrent calls are pipelined); publishes queue in a task of their
//! own that sends what piles up as one pipeline, a topic's messages bundled into one
//! `PUBLISH` (the batching the two-node load goal was reached with); the subscription has a
//! connection of its own, named so that `CLIENT LIST` shows it.

use super::bus::{Bus, BusError, BusFuture, Inbound, Inbox};
use futures_util::StreamExt;
use futures_util::future::try_join_all;
use redis::aio::{ConnectionManager, ConnectionManagerConfig, PubSub};
use redis::{Client, Script};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot};

impl From<redis::RedisError> for BusError {
    fn from(e: redis::RedisError) -> BusError {
        BusError(e.to_string())
    }
}

/// Under load, publishing pipelines start at least this far apart, so each carries what
/// queued up meanwhile: every write costs this node, Redis and the node it is for a wake-up
/// and a system call each, whatever it holds. A message after a quiet spell goes at once.
const WRITE_INTERVAL: Duration = Duration::from_millis(1);

/// How long a command may wait for its answer (the crate's default, half a second, is
/// shorter than a busy Redis may need for a chunk of renewals).
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(5);

/// The first byte of a payload that holds several messages (a message itself never starts
/// with it: it starts with its JSON header).
const BUNDLE: u8 = 0;

/// Several messages in one payload: [`BUNDLE`], then each message's length (`u32`, little
/// endian) and bytes.
fn bundle(messages: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(1 + messages.iter().map(|m| m.len() + 4).sum::<usize>());
    out.push(BUNDLE);
    for m in messages {
        out.extend_from_slice(&(m.len() as u32).to_le_bytes());
        out.extend_from_slice(m);
    }
    out
}

/// The messages in a payload: those of a bundle, or the payload itself. A bundle cut short
/// yields the messages that are whole.
fn unbundle(payload: Vec<u8>) -> Vec<Vec<u8>> {
    if payload.first() != Some(&BUNDLE) {
        return vec![payload];
    }
    let mut out = Vec::new();
    let mut rest = &payload[1..];
    while let Some((len, tail)) = rest.split_first_chunk::<4>() {
        let len = u32::from_le_bytes(*len) as usize;
        let Some((message, tail)) = tail.split_at_checked(len) else { break };
        out.push(message.to_vec());
        rest = tail;
    }
    out
}

/// One pipeline of the publishes that queued up behind `first` (up to about 64 KiB), each
/// topic's messages bundled into one `PUBLISH`, in the order they came.
fn batch(
    first: (String, Vec<u8>),
    rx: &mut mpsc::UnboundedReceiver<(String, Vec<u8>)>,
) -> redis::Pipeline {
    let mut topics: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
    let mut size = 0;
    let mut next = Some(first);
    while let Some((topic, payload)) = next.take() {
        size += payload.len();
        match topics.iter_mut().find(|(t, _)| *t == topic) {
            Some((_, messages)) => messages.push(payload),
            None => topics.push((topic, vec![payload])),
        }
        if size < 1 << 16 {
            next = rx.try_recv().ok();
        }
    }
    let mut pipe = redis::pipe();
    for (topic, messages) in &topics {
        match messages.as_slice() {
            [one] => pipe.cmd("PUBLISH").arg(topic).arg(one).ignore(),
            many => pipe.cmd("PUBLISH").arg(topic).arg(bundle(many)).ignore(),
        };
    }
    pipe
}

/// Sends the node's publishes as they queue up. A publish that fails is lost, as one sent
/// just before a connection drops: the nodes that miss messages resync their sockets.
async fn publish_all(
    mut conn: ConnectionManager,
    mut rx: mpsc::UnboundedReceiver<(String, Vec<u8>)>,
) {
    let mut last_write: Option<tokio::time::Instant> = None;
    while let Some(first) = rx.recv().await {
        if let Some(due) = last_write.map(|at| at + WRITE_INTERVAL)
            && tokio::time::Instant::now() < due
        {
            tokio::time::sleep_until(due).await;
        }
        last_write = Some(tokio::time::Instant::now());
        let pipe = batch(first, &mut rx);
        if let Err(e) = pipe.query_async::<()>(&mut conn).await {
            tracing::warn!("redis: publishing failed ({e}); those messages are lost");
        }
    }
}

/// Extends a lease if it is still the caller's, and takes it again if nobody holds it (a
/// Redis that restarted empty forgot every lease: the node running the game is still its
/// owner, and relays wait a renewal before they take a free lease, see `relay::check`).
const RENEW: &str = "local held = {} for i, key in ipairs(KEYS) do \
    local h = redis.call('get', key) \
    if h == ARGV[1] then held[i] = redis.call('pexpire', key, ARGV[2]) \
    elseif not h then redis.call('set', key, ARGV[1], 'PX', ARGV[2]) held[i] = 1 \
    else held[i] = 0 end end return held";

/// Leases renewed by one call of [`RENEW`]: one call for a node's thousands of games kept
/// Redis (and the node's commands, publishes among them, queued behind it) busy for a few
/// milliseconds every third of a lease, and one call a game cost a command apiece.
const RENEW_CHUNK: usize = 256;

/// A node's connection to Redis.
#[derive(Clone)]
pub struct RedisBus {
    conn: ConnectionManager,
    publish: mpsc::UnboundedSender<(String, Vec<u8>)>,
    renew: Script,
}

impl std::fmt::Debug for RedisBus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RedisBus")
    }
}

impl RedisBus {
    /// Connects to `url` (`redis://HOST:PORT`) and listens to `topics`.
    pub async fn connect(url: &str, topics: &[String]) -> Result<(RedisBus, Inbox), BusError> {
        let client = Client::open(url)?;
        let config = ConnectionManagerConfig::new()
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            .set_connection_timeout(Some(Duration::from_secs(2)));
        // Fails early when Redis is not there at all.
        let conn = ConnectionManager::new_with_config(client.clone(), config).await?;
        let (tx, rx) = mpsc::unbounded_channel();
        let (subscribed_tx, subscribed) = oneshot::channel();
        tokio::spawn(subscribe(client, topics.to_vec(), tx, subscribed_tx));
        let _ = tokio::time::timeout(Duration::from_secs(5), subscribed).await;
        let (publish, queued) = mpsc::unbounded_channel();
        tokio::spawn(publish_all(conn.clone(), queued));
        Ok((RedisBus { conn, publish, renew: Script::new(RENEW) }, rx))
    }
}

/// The name of the subscription connection of a node listening to `topics` (`CLIENT LIST`
/// shows it).
pub fn subscription_name(topics: &[String]) -> String {
    let first = topics.first().map(String::as_str).unwrap_or_default();
    format!("cannonade-sub-{}", first.replace(|c: char| !c.is_ascii_alphanumeric(), "-"))
}

/// Opens the subscription connection, named `name` (the crate's subscriber sets no name on
/// its own, so the connection is named before it is handed over: `+OK` is its answer).
async fn named_pubsub(client: &Client, name: &str) -> Result<PubSub, BusError> {
    let info = client.get_connection_info();
    let addr = match info.addr() {
        redis::ConnectionAddr::Tcp(host, port) => format!("{host}:{port}"),
        other => return Err(BusError(format!("redis: only TCP addresses are used, not {other}"))),
    };
    let io = |e: std::io::Error| BusError(format!("redis {addr}: {e}"));
    let mut stream = TcpStream::connect(&addr).await.map_err(io)?;
    let _ = stream.set_nodelay(true);
    let setname = redis::cmd("CLIENT").arg("SETNAME").arg(name).get_packed_command();
    stream.write_all(&setname).await.map_err(io)?;
    let mut ok = [0u8; 5];
    stream.read_exact(&mut ok).await.map_err(io)?;
    if &ok != b"+OK\r\n" {
        return Err(BusError(format!("redis {addr}: CLIENT SETNAME was refused")));
    }
    Ok(PubSub::new(info.redis_settings(), stream).await?)
}

/// The subscription connection: every message of `topics` into `inbox`, reconnecting if the
/// connection drops. What was published meanwhile is lost: once subscribed again, the inbox
/// hears [`Inbound::Resubscribed`] and the node resyncs its sockets.
async fn subscribe(
    client: Client,
    topics: Vec<String>,
    inbox: mpsc::UnboundedSender<Inbound>,
    subscribed: oneshot::Sender<()>,
) {
    let mut subscribed = Some(subscribed);
    let name = subscription_name(&topics);
    let mut lost = false;
    loop {
        let run = async {
            let mut pubsub = named_pubsub(&client, &name).await?;
            if !topics.is_empty() {
                pubsub.subscribe(&topics).await?;
            }
            if let Some(s) = subscribed.take() {
                let _ = s.send(());
            }
            if lost {
                lost = false;
                if inbox.send(Inbound::Resubscribed).is_err() {
                    return Ok(true);
                }
            }
            let mut messages = pubsub.on_message();
            while let Some(msg) = messages.next().await {
                for message in unbundle(msg.get_payload_bytes().to_vec()) {
                    if inbox.send(Inbound::Message(message)).is_err() {
                        return Ok(true);
                    }
                }
            }
            Ok::<bool, BusError>(false)
        };
        match run.await {
            // The node is gone: nobody listens.
            Ok(true) => return,
            Ok(false) => tracing::warn!("redis: subscription lost; reconnecting"),
            Err(e) => tracing::warn!("redis: subscription lost ({e}); reconnecting"),
        }
        lost = true;
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

impl Bus for RedisBus {
    fn publish(&self, topic: &str, payload: Vec<u8>) {
        let _ = self.publish.send((topic.to_string(), payload));
    }

    fn lease<'a>(&'a self, key: &'a str, holder: &'a str, ttl: Duration) -> BusFuture<'a, String> {
        Box::pin(async move {
            let mut conn = self.conn.clone();
            let ms = ttl.as_millis() as u64;
            for _ in 0..3 {
                let set: Option<String> = redis::cmd("SET")
                    .arg(key)
                    .arg(holder)
                    .arg("NX")
                    .arg("PX")
                    .arg(ms)
                    .query_async(&mut conn)
                    .await?;
                if set.is_some() {
                    return Ok(holder.to_string());
                }
                let now: Option<String> = redis::cmd("GET").arg(key).query_async(&mut conn).await?;
                match now {
                    Some(h) if h == holder => {
                        self.renew(&[key.to_string()], holder, ttl).await?;
                        return Ok(h);
                    }
                    Some(h) => return Ok(h),
                    // It expired between the two calls: try again.
                    None => continue,
                }
            }
            Err(BusError(format!("the lease {key} keeps changing hands")))
        })
    }

    fn renew<'a>(
        &'a self,
        keys: &'a [String],
        holder: &'a str,
        ttl: Duration,
    ) -> BusFuture<'a, Vec<bool>> {
        Box::pin(async move {
            let ms = ttl.as_millis() as u64;
            // All sent before the first answer is awaited (the connection pipelines them):
            // one round trip for the lot.
            let calls = keys.chunks(RENEW_CHUNK).map(|chunk| {
                let mut conn = self.conn.clone();
                let mut call = self.renew.prepare_invoke();
                for k in chunk {
                    call.key(k);
                }
                call.arg(holder).arg(ms);
                async move {
                    let held: Vec<i64> = call.invoke_async(&mut conn).await?;
                    if held.len() != chunk.len() {
                        return Err(BusError(format!(
                            "renewing leases: {} answers for {} keys",
                            held.len(),
                            chunk.len()
                        )));
                    }
                    Ok(held)
                }
            });
            let chunks = try_join_all(calls).await?;
            Ok(chunks.into_iter().flatten().map(|h| h == 1).collect())
        })
    }

    fn get<'a>(&'a self, key: &'a str) -> BusFuture<'a, Option<String>> {
        Box::pin(async move {
            let mut conn = self.conn.clone();
            Ok(redis::cmd("GET").arg(key).query_async(&mut conn).await?)
        })
    }

    fn put<'a>(&'a self, key: &'a str, value: &'a str, ttl: Duration) -> BusFuture<'a, ()> {
        Box::pin(async move {
            let mut conn = self.conn.clone();
            let ms = ttl.as_millis() as u64;
            let mut set = redis::cmd("SET");
            set.arg(key).arg(value).arg("PX").arg(ms);
            Ok(set.query_async(&mut conn).await?)
        })
    }

    fn take<'a>(&'a self, key: &'a str) -> BusFuture<'a, Option<String>> {
        Box::pin(async move {
            let mut conn = self.conn.clone();
            Ok(redis::cmd("GETDEL").arg(key).query_async(&mut conn).await?)
        })
    }

    fn touch<'a>(&'a self, keys: &'a [String], ttl: Duration) -> BusFuture<'a, Vec<bool>> {
        Box::pin(async move {
            if keys.is_empty() {
                return Ok(Vec::new());
            }
            let mut conn = self.conn.clone();
            let ms = ttl.as_millis() as u64;
            // One pipeline, as the renewals.
            let mut pipe = redis::pipe();
            for k in keys {
                pipe.cmd("PEXPIRE").arg(k).arg(ms);
            }
            let found: Vec<i64> = pipe.query_async(&mut conn).await?;
            Ok(found.into_iter().map(|f| f == 1).collect())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Leases renewed in chunks come back one answer a key, in order, across chunks
    /// (against the Redis of `CANNONADE_TEST_REDIS`; skipped without it).
    #[tokio::test]
    async fn leases_renewed_in_chunks_answer_for_each_key() {
        let Ok(url) = std::env::var("CANNONADE_TEST_REDIS") else {
            eprintln!("CANNONADE_TEST_REDIS not set: skipped");
            return;
        };
        let (bus, _) = RedisBus::connect(&url, &[]).await.unwrap();
        let run = format!("renew-test-{}", std::process::id());
        let keys: Vec<String> = (0..RENEW_CHUNK + 44).map(|i| format!("{run}:{i}")).collect();
        let ttl = Duration::from_secs(5);
        // Every seventh key is held by another node; the last few are held by nobody, and
        // renewing takes them (as after a Redis that restarted empty).
        for (i, k) in keys.iter().enumerate().take(RENEW_CHUNK + 40) {
            let holder = if i % 7 == 3 { "other" } else { "me" };
            assert_eq!(bus.lease(k, holder, ttl).await.unwrap(), holder);
        }
        let held = bus.renew(&keys, "me", ttl).await.unwrap();
        let want: Vec<bool> =
            (0..keys.len()).map(|i| i >= RENEW_CHUNK + 40 || i % 7 != 3).collect();
        assert_eq!(held, want);
        assert_eq!(bus.get(&keys[keys.len() - 1]).await.unwrap().as_deref(), Some("me"));
        assert_eq!(bus.get(&keys[3]).await.unwrap().as_deref(), Some("other"));
        assert!(bus.renew(&[], "me", ttl).await.unwrap().is_empty());
    }

    #[test]
    fn bundles_split_into_their_messages() {
        let messages = vec![b"{\"m\":\"to\"}\nbody".to_vec(), Vec::new(), vec![BUNDLE + 1; 300]];
        assert_eq!(unbundle(bundle(&messages)), messages);
        // A plain message is its own payload.
        assert_eq!(unbundle(b"{\"m\":1}\n".to_vec()), vec![b"{\"m\":1}\n".to_vec()]);
        // A bundle cut short gives its whole messages.
        let mut cut = bundle(&messages);
        cut.truncate(cut.len() - 1);
        assert_eq!(unbundle(cut), messages[..2].to_vec());
    }

    /// Messages queued together go out as one pipeline, a topic's messages bundled.
    #[test]
    fn queued_publishes_are_bundled_per_topic() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        for (topic, m) in [("b", "2"), ("a", "3"), ("b", "4")] {
            tx.send((topic.to_string(), m.as_bytes().to_vec())).unwrap();
        }
        let pipe = batch(("a".to_string(), b"1".to_vec()), &mut rx);
        let packed = pipe.get_packed_pipeline();
        let mut want = redis::cmd("PUBLISH")
            .arg("a")
            .arg(bundle(&[b"1".to_vec(), b"3".to_vec()]))
            .get_packed_command();
        want.extend(
            redis::cmd("PUBLISH")
                .arg("b")
                .arg(bundle(&[b"2".to_vec(), b"4".to_vec()]))
                .get_packed_command(),
        );
        assert_eq!(packed, want);
    }
}
