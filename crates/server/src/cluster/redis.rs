//! The bus on Redis: PUBLISH/SUBSCRIBE for the topics, `SET NX PX` leases renewed by a
//! compare-and-extend script, `GETDEL` for seeks, `PEXPIRE` to keep them alive. Spoken in
//! RESP2 over two connections per node (commands, pipelined; and the subscription), written
//! here rather than taken from a crate: the `redis` crate is BSD-3-Clause (the project takes
//! MIT/Apache only), and the few commands used fit in this file.

use super::bus::{Bus, BusError, BusFuture, Inbound, Inbox};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot};

/// A Redis reply.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Reply {
    Status(String),
    Error(String),
    Int(i64),
    Bulk(Option<Vec<u8>>),
    Array(Option<Vec<Reply>>),
}

impl Reply {
    fn text(self) -> Result<Option<String>, BusError> {
        match self {
            Reply::Bulk(b) => Ok(b.map(|b| String::from_utf8_lossy(&b).into_owned())),
            Reply::Status(s) => Ok(Some(s)),
            Reply::Error(e) => Err(BusError(e)),
            other => Err(BusError(format!("unexpected reply {other:?}"))),
        }
    }
}

/// A command in RESP: an array of bulk strings.
fn encode(args: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + args.iter().map(|a| a.len() + 16).sum::<usize>());
    out.push(b'*');
    decimal(&mut out, args.len());
    for a in args {
        out.push(b'$');
        decimal(&mut out, a.len());
        out.extend_from_slice(a);
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// Appends `n` in decimal and a line end (no `format!`: every message to the bus is encoded).
fn decimal(out: &mut Vec<u8>, n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
    out.extend_from_slice(b"\r\n");
}

/// The largest bulk string or array accepted from the server.
const MAX_LEN: usize = 64 << 20;

async fn line<R: AsyncBufReadExt + Unpin>(r: &mut R) -> std::io::Result<String> {
    let mut s = String::new();
    if r.read_line(&mut s).await? == 0 {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(s.trim_end_matches(['\r', '\n']).to_string())
}

fn bad(what: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, what)
}

/// Reads one reply (arrays nest: boxed recursion).
fn read<'a, R: AsyncBufReadExt + Unpin + Send>(
    r: &'a mut R,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = std::io::Result<Reply>> + Send + 'a>> {
    Box::pin(async move {
        let l = line(r).await?;
        let (kind, rest) = l.split_at_checked(1).ok_or_else(|| bad("empty reply".into()))?;
        let len = || -> std::io::Result<i64> {
            let n: i64 = rest.parse().map_err(|_| bad(format!("bad length {rest}")))?;
            if n > MAX_LEN as i64 { Err(bad(format!("{n} is too long"))) } else { Ok(n) }
        };
        Ok(match kind {
            "+" => Reply::Status(rest.to_string()),
            "-" => Reply::Error(rest.to_string()),
            ":" => Reply::Int(rest.parse().map_err(|_| bad(format!("bad integer {rest}")))?),
            "$" => match len()? {
                n if n < 0 => Reply::Bulk(None),
                n => {
                    let mut buf = vec![0; n as usize + 2];
                    r.read_exact(&mut buf).await?;
                    buf.truncate(n as usize);
                    Reply::Bulk(Some(buf))
                }
            },
            "*" => match len()? {
                n if n < 0 => Reply::Array(None),
                n => {
                    let mut items = Vec::with_capacity(n as usize);
                    for _ in 0..n {
                        items.push(read(r).await?);
                    }
                    Reply::Array(Some(items))
                }
            },
            other => return Err(bad(format!("unknown reply type {other}"))),
        })
    })
}

/// The host and port of `redis://HOST:PORT[/…]`.
fn address(url: &str) -> Result<String, BusError> {
    let rest = url
        .strip_prefix("redis://")
        .ok_or_else(|| BusError(format!("{url}: expected redis://HOST:PORT")))?;
    let host = rest.split('/').next().unwrap_or_default();
    if host.contains('@') {
        return Err(BusError("passwords in the Redis URL are not supported".into()));
    }
    Ok(if host.contains(':') { host.to_string() } else { format!("{host}:6379") })
}

type Pending = Option<oneshot::Sender<Result<Reply, BusError>>>;

/// What the command connection is asked to write.
enum Job {
    /// A command in RESP, and who waits for its reply.
    Command(Vec<u8>, Pending),
    /// A message to publish on a topic: those that queue up for the same topic go out as
    /// one `PUBLISH` of a [`bundle`], so a move's frames for another node cost Redis and that
    /// node one message, not one each.
    Publish(String, Vec<u8>),
}

/// The least time between two writes of the command connection (see [`Commands::start`]).
const WRITE_INTERVAL: Duration = Duration::from_millis(1);

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

/// The bytes of one write: `first` and the jobs queued behind it (up to about 64 KiB), each
/// topic's messages bundled into one `PUBLISH`; whoever waits for a reply is queued in
/// `waiting` in the order of the commands written.
fn batch(
    first: Job,
    rx: &mut mpsc::UnboundedReceiver<Job>,
    waiting: &Mutex<VecDeque<Pending>>,
) -> Vec<u8> {
    let mut buf = Vec::new();
    let mut topics: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
    let mut size = 0;
    let mut next = Some(first);
    let mut queue = waiting.lock().unwrap_or_else(|e| e.into_inner());
    while let Some(job) = next.take() {
        match job {
            Job::Command(bytes, pending) => {
                size += bytes.len();
                buf.extend_from_slice(&bytes);
                queue.push_back(pending);
            }
            Job::Publish(topic, payload) => {
                size += payload.len();
                match topics.iter_mut().find(|(t, _)| *t == topic) {
                    Some((_, messages)) => messages.push(payload),
                    None => topics.push((topic, vec![payload])),
                }
            }
        }
        if size < 1 << 16 {
            next = rx.try_recv().ok();
        }
    }
    // Each topic's messages in the order they came; replies to PUBLISH are not awaited, so
    // they may follow the other commands of the batch.
    for (topic, messages) in &topics {
        let command = match messages.as_slice() {
            [one] => encode(&[b"PUBLISH", topic.as_bytes(), one]),
            many => encode(&[b"PUBLISH", topic.as_bytes(), &bundle(many)]),
        };
        buf.extend_from_slice(&command);
        queue.push_back(None);
    }
    buf
}

/// The command connection: commands are written as they come (several per write when they
/// queue up) and answered in order.
#[derive(Debug)]
struct Commands {
    tx: mpsc::UnboundedSender<Job>,
}

impl Commands {
    fn start(addr: String) -> Commands {
        let (tx, mut rx) = mpsc::unbounded_channel::<Job>();
        tokio::spawn(async move {
            loop {
                let stream = match TcpStream::connect(&addr).await {
                    Ok(s) => s,
                    Err(e) => {
                        tracing::warn!("redis {addr}: {e}; retrying");
                        tokio::time::sleep(Duration::from_millis(500)).await;
                        continue;
                    }
                };
                let _ = stream.set_nodelay(true);
                let (read_half, mut write_half) = stream.into_split();
                let waiting: Arc<Mutex<VecDeque<Pending>>> = Arc::default();
                let reader_waiting = waiting.clone();
                let mut reader = tokio::spawn(async move {
                    let mut r = BufReader::new(read_half);
                    loop {
                        let reply = match read(&mut r).await {
                            Ok(reply) => reply,
                            Err(e) => return e,
                        };
                        let next =
                            reader_waiting.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                        if let Some(Some(tx)) = next {
                            let _ = tx.send(Ok(reply));
                        }
                    }
                });
                let mut last_write: Option<tokio::time::Instant> = None;
                let failed = loop {
                    let first = tokio::select! {
                        job = rx.recv() => job,
                        r = &mut reader => break format!("{r:?}"),
                    };
                    let Some(first) = first else { return };
                    // Under load, writes start at least WRITE_INTERVAL apart, so each carries
                    // what queued up meanwhile: every write costs this node, Redis and the
                    // node it is for a wake-up and a system call each, whatever it holds. A
                    // message after a quiet spell goes at once.
                    if let Some(due) = last_write.map(|at| at + WRITE_INTERVAL)
                        && tokio::time::Instant::now() < due
                    {
                        tokio::time::sleep_until(due).await;
                    }
                    last_write = Some(tokio::time::Instant::now());
                    let buf = batch(first, &mut rx, &waiting);
                    if let Err(e) = write_half.write_all(&buf).await {
                        break e.to_string();
                    }
                };
                reader.abort();
                tracing::warn!("redis {addr}: connection lost ({failed}); reconnecting");
                for p in waiting.lock().unwrap_or_else(|e| e.into_inner()).drain(..).flatten() {
                    let _ = p.send(Err(BusError("the connection to Redis was lost".into())));
                }
            }
        });
        Commands { tx }
    }

    fn publish(&self, topic: &str, payload: Vec<u8>) {
        let _ = self.tx.send(Job::Publish(topic.to_string(), payload));
    }

    fn call(&self, args: &[&[u8]]) -> oneshot::Receiver<Result<Reply, BusError>> {
        let (tx, rx) = oneshot::channel();
        if let Err(mpsc::error::SendError(Job::Command(_, Some(tx)))) =
            self.tx.send(Job::Command(encode(args), Some(tx)))
        {
            let _ = tx.send(Err(BusError("the Redis connection task stopped".into())));
        }
        rx
    }
}

async fn answer(rx: oneshot::Receiver<Result<Reply, BusError>>) -> Result<Reply, BusError> {
    match rx.await {
        Ok(Ok(Reply::Error(e))) => Err(BusError(e)),
        Ok(r) => r,
        Err(_) => Err(BusError("no answer from Redis".into())),
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
#[derive(Debug)]
pub struct RedisBus {
    commands: Commands,
}

impl RedisBus {
    /// Connects to `url` (`redis://HOST:PORT`) and listens to `topics`.
    pub async fn connect(url: &str, topics: &[String]) -> Result<(RedisBus, Inbox), BusError> {
        let addr = address(url)?;
        // Fail early when Redis is not there at all.
        let probe =
            TcpStream::connect(&addr).await.map_err(|e| BusError(format!("{addr}: {e}")))?;
        drop(probe);
        let (tx, rx) = mpsc::unbounded_channel();
        let (subscribed_tx, subscribed) = oneshot::channel();
        tokio::spawn(subscribe(addr.clone(), topics.to_vec(), tx, subscribed_tx));
        let _ = tokio::time::timeout(Duration::from_secs(5), subscribed).await;
        let bus = RedisBus { commands: Commands::start(addr) };
        answer(bus.commands.call(&[b"PING"])).await?;
        Ok((bus, rx))
    }
}

/// The name of the subscription connection of a node listening to `topics` (`CLIENT LIST`
/// shows it).
pub fn subscription_name(topics: &[String]) -> String {
    let first = topics.first().map(String::as_str).unwrap_or_default();
    format!("cannonade-sub-{}", first.replace(|c: char| !c.is_ascii_alphanumeric(), "-"))
}

/// The subscription connection: every message of `topics` into `inbox`, reconnecting if the
/// connection drops. What was published meanwhile is lost: once subscribed again, the inbox
/// hears [`Inbound::Resubscribed`] and the node resyncs its sockets.
async fn subscribe(
    addr: String,
    topics: Vec<String>,
    inbox: mpsc::UnboundedSender<Inbound>,
    subscribed: oneshot::Sender<()>,
) {
    let mut subscribed = Some(subscribed);
    let name = subscription_name(&topics);
    let mut lost = false;
    loop {
        let run = async {
            let mut stream = TcpStream::connect(&addr).await?;
            // Its +OK is skipped below with the other replies that are not messages.
            stream.write_all(&encode(&[b"CLIENT", b"SETNAME", name.as_bytes()])).await?;
            let mut args: Vec<&[u8]> = vec![b"SUBSCRIBE"];
            args.extend(topics.iter().map(|t| t.as_bytes()));
            stream.write_all(&encode(&args)).await?;
            let mut r = BufReader::new(stream);
            let mut confirmed = 0;
            loop {
                let Reply::Array(Some(mut items)) = read(&mut r).await? else { continue };
                match items.as_mut_slice() {
                    [Reply::Bulk(Some(kind)), _, Reply::Bulk(Some(payload))]
                        if kind == b"message" =>
                    {
                        for message in unbundle(std::mem::take(payload)) {
                            if inbox.send(Inbound::Message(message)).is_err() {
                                return Ok(());
                            }
                        }
                    }
                    [Reply::Bulk(Some(kind)), ..] if kind == b"subscribe" => {
                        confirmed += 1;
                        if confirmed == topics.len() {
                            if let Some(s) = subscribed.take() {
                                let _ = s.send(());
                            }
                            if lost {
                                lost = false;
                                if inbox.send(Inbound::Resubscribed).is_err() {
                                    return Ok(());
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
        };
        let result: std::io::Result<()> = run.await;
        match result {
            Ok(()) => return,
            Err(e) => {
                lost = true;
                tracing::warn!("redis {addr}: subscription lost ({e}); reconnecting");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}

impl Bus for RedisBus {
    fn publish(&self, topic: &str, payload: Vec<u8>) {
        self.commands.publish(topic, payload);
    }

    fn lease<'a>(&'a self, key: &'a str, holder: &'a str, ttl: Duration) -> BusFuture<'a, String> {
        Box::pin(async move {
            let ms = ttl.as_millis().to_string();
            for _ in 0..3 {
                let set = self.commands.call(&[
                    b"SET",
                    key.as_bytes(),
                    holder.as_bytes(),
                    b"NX",
                    b"PX",
                    ms.as_bytes(),
                ]);
                if answer(set).await?.text()?.is_some() {
                    return Ok(holder.to_string());
                }
                match answer(self.commands.call(&[b"GET", key.as_bytes()])).await?.text()? {
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
            let ms = ttl.as_millis().to_string();
            // All sent before the first answer is awaited: one round trip for the lot.
            let calls: Vec<_> = keys
                .chunks(RENEW_CHUNK)
                .map(|chunk| {
                    let count = chunk.len().to_string();
                    let mut args: Vec<&[u8]> = vec![b"EVAL", RENEW.as_bytes(), count.as_bytes()];
                    args.extend(chunk.iter().map(|k| k.as_bytes()));
                    args.extend([holder.as_bytes(), ms.as_bytes()]);
                    (chunk.len(), self.commands.call(&args))
                })
                .collect();
            let mut held = Vec::with_capacity(keys.len());
            for (n, c) in calls {
                match answer(c).await? {
                    Reply::Array(Some(replies)) if replies.len() == n => {
                        held.extend(replies.into_iter().map(|r| r == Reply::Int(1)));
                    }
                    other => {
                        return Err(BusError(format!("renewing leases: unexpected {other:?}")));
                    }
                }
            }
            Ok(held)
        })
    }

    fn get<'a>(&'a self, key: &'a str) -> BusFuture<'a, Option<String>> {
        Box::pin(async move { answer(self.commands.call(&[b"GET", key.as_bytes()])).await?.text() })
    }

    fn put<'a>(&'a self, key: &'a str, value: &'a str, ttl: Duration) -> BusFuture<'a, ()> {
        Box::pin(async move {
            let ms = ttl.as_millis().to_string();
            let call = self.commands.call(&[
                b"SET",
                key.as_bytes(),
                value.as_bytes(),
                b"PX",
                ms.as_bytes(),
            ]);
            answer(call).await.map(|_| ())
        })
    }

    fn take<'a>(&'a self, key: &'a str) -> BusFuture<'a, Option<String>> {
        Box::pin(
            async move { answer(self.commands.call(&[b"GETDEL", key.as_bytes()])).await?.text() },
        )
    }

    fn touch<'a>(&'a self, keys: &'a [String], ttl: Duration) -> BusFuture<'a, Vec<bool>> {
        Box::pin(async move {
            let ms = ttl.as_millis().to_string();
            // Pipelined, as the renewals.
            let calls: Vec<_> = keys
                .iter()
                .map(|k| self.commands.call(&[b"PEXPIRE", k.as_bytes(), ms.as_bytes()]))
                .collect();
            let mut found = Vec::with_capacity(calls.len());
            for c in calls {
                found.push(answer(c).await? == Reply::Int(1));
            }
            Ok(found)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn replies_of_every_kind_are_read() {
        let input = b"+OK\r\n-ERR no\r\n:42\r\n$-1\r\n$5\r\nhe\r\no\r\n*2\r\n$1\r\na\r\n:1\r\n";
        let mut r = BufReader::new(&input[..]);
        assert_eq!(read(&mut r).await.unwrap(), Reply::Status("OK".into()));
        assert_eq!(read(&mut r).await.unwrap(), Reply::Error("ERR no".into()));
        assert_eq!(read(&mut r).await.unwrap(), Reply::Int(42));
        assert_eq!(read(&mut r).await.unwrap(), Reply::Bulk(None));
        assert_eq!(read(&mut r).await.unwrap(), Reply::Bulk(Some(b"he\r\no".to_vec())));
        assert_eq!(
            read(&mut r).await.unwrap(),
            Reply::Array(Some(vec![Reply::Bulk(Some(b"a".to_vec())), Reply::Int(1)]))
        );
        assert!(read(&mut r).await.is_err());
    }

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
    fn commands_are_arrays_of_bulk_strings() {
        assert_eq!(encode(&[b"GET", b"k"]), b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n");
        let long = [b'x'; 120];
        let mut want = b"*1\r\n$120\r\n".to_vec();
        want.extend_from_slice(&long);
        want.extend_from_slice(b"\r\n");
        assert_eq!(encode(&[&long]), want);
        assert_eq!(encode(&[]), b"*0\r\n");
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
        assert_eq!(address("redis://127.0.0.1").unwrap(), "127.0.0.1:6379");
        assert!(address("http://x").is_err());
    }
}
