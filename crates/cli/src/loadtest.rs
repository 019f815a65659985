//! `cannonade loadtest`: bots that play random legal moves with think time, spectators that
//! watch (and, with `--proposals`, propose), reconnect churn; then move→opponent and
//! move→spectator latencies. Loopback only, bounded in count and time.

use anyhow::{Context, Result, bail};
use cannonade_wire::{ClientMsg, GameEvent, OfferKind, Role, Seat, ServerMsg, TimeControl};
use futures_util::{SinkExt, StreamExt};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpSocket;
use tokio::sync::{Semaphore, oneshot, watch};
use tokio::time::{Instant, sleep_until};
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

type Ws = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// Arguments of `cannonade loadtest`.
#[derive(clap::Args, Clone)]
pub struct Args {
    /// A server's websocket address, on this machine: `ws://127.0.0.1:PORT`. Give several
    /// (nodes of one cluster) to spread the sockets: the two players of a game go to two
    /// different nodes, spectators round the nodes.
    #[arg(long = "url", required = true)]
    urls: Vec<String>,
    /// Run this many processes, each with its share of the games (a game, its bots and its
    /// spectators stay in one process), and merge their figures: one process may hold only
    /// so many open sockets.
    #[arg(long, default_value_t = 1)]
    procs: usize,
    /// Internal: this process is share `I/N` of a `--procs N` run.
    #[arg(long, hide = true)]
    part: Option<String>,
    /// Live games (two bot sockets each); 0 opens only idle spectator sockets.
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Games against the engine besides the live games: a bot each, on the levels 1 to 10 in
    /// turn, playing random legal moves with the same think time; their reply times are
    /// reported per level. They include the engine's person-like pause unless the server
    /// runs with `serve --ai-instant`, which measures the search and its queue alone.
    #[arg(long, default_value_t = 0)]
    ai_games: usize,
    /// Spectator sockets, spread evenly over the games.
    #[arg(long, default_value_t = 0)]
    spectators: usize,
    /// Seconds to run after everyone is connected (and the warm-up).
    #[arg(long, default_value_t = 30)]
    duration: u64,
    /// Seconds the load runs unmeasured once everyone is connected, so the servers work off
    /// the backlog of the connection storm (thousands of sockets, games and their first
    /// moves at once) before anything is measured.
    #[arg(long, default_value_t = 5)]
    warmup: u64,
    /// Spectators propose a random legal move every ply.
    #[arg(long)]
    proposals: bool,
    /// Mean think time of a bot per move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// The game the bots play.
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// Percent of spectators that disconnect and resume (with their last version) every 10 s.
    #[arg(long, default_value_t = 2)]
    churn: u32,
    /// Bots and spectators whose socket fails (a node restarted or killed) connect again,
    /// to their own node or the next, and carry on; for the cluster fault runs
    /// (`scripts/cluster-faults.py`).
    #[arg(long)]
    reconnect: bool,
    /// Write the moves the players were told of, by game, to this file (JSON: game id →
    /// move texts by ply), to check against the store after the run.
    #[arg(long)]
    told: Option<std::path::PathBuf>,
    /// Also print move→opponent latency second by second of the run (by when each move was
    /// sent), to see when the slow moves happen.
    #[arg(long)]
    timeline: bool,
    /// Every game is rated: each bot first registers an account over HTTP, from its own
    /// loopback address as a person's browser would (the server throttles registrations
    /// per address and hashes a bounded number of passwords at once), and plays with it.
    #[arg(long)]
    rated: bool,
    /// Players and spectators each write a chat line every this many seconds on average
    /// during the run (players in the players' room, spectators in the spectators'); the
    /// time from a line sent to each of its readers is reported. 0: no chat.
    #[arg(long, default_value_t = 0)]
    chat: u64,
    /// Internal: the run's tag, the same in all its processes, in the `--rated` accounts'
    /// names (so runs on one database do not collide).
    #[arg(long, hide = true)]
    tag: Option<String>,
}

/// Games being set up at once: a server creating thousands of games in the same second
/// measures its store, not its play.
static SEATING: Semaphore = Semaphore::const_new(64);

/// Registrations under way at once in a process: the server hashes a few passwords at a
/// time and refuses a registration that waited 5 s for its turn.
static REGISTERING: Semaphore = Semaphore::const_new(8);

/// The password of the `--rated` bots' accounts.
const PASSWORD: &str = "load-test-password";

/// How long setting up may take before the run starts without the stragglers.
const SETUP: Duration = Duration::from_secs(300);
/// The longest a socket may take to connect and be welcomed.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// The largest load the tool will generate.
const MAX_GAMES: usize = 20_000;
const MAX_SPECTATORS: usize = 100_000;
const MAX_DURATION: u64 = 3600;
/// After the run's end no bot moves and no spectator proposes, but everyone goes on reading
/// this long, so the moves sent just before the end are measured too.
const DRAIN: Duration = Duration::from_secs(2);

/// What one process measured: merged over processes by `--procs`.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct Report {
    seated_s: f64,
    connected_s: f64,
    open: u64,
    failed: u64,
    moves: u64,
    reconnects: u64,
    opponent: Vec<u32>,
    /// When each move→opponent sample's move was sent, milliseconds into the run.
    #[serde(default)]
    opponent_sent: Vec<u32>,
    spectator: Vec<u32>,
    errors: BTreeMap<String, u64>,
    /// Frames read by spectators during the run, by their tag.
    #[serde(default)]
    frames: BTreeMap<String, u64>,
    /// The moves players were told of, by game: the move texts by ply.
    #[serde(default)]
    told: BTreeMap<String, Vec<String>>,
    /// Pairs of bots whose last move came more than [`STALLED`] before the end of the run.
    #[serde(default)]
    stalled: u64,
    /// The engine's reply times in games against it, by level: from the bot's move sent to
    /// the engine's move read, microseconds.
    #[serde(default)]
    ai: BTreeMap<u8, Vec<u32>>,
    /// Chat lines sent during the run.
    #[serde(default)]
    chat_sent: u64,
    /// From a chat line sent to each reader's copy (the writer's own included),
    /// microseconds.
    #[serde(default)]
    chat: Vec<u32>,
    /// Rated games seated (`--rated`: the server said so in the players' snapshots).
    #[serde(default)]
    rated: u64,
}

/// A pair of bots whose last move is older than this at the end of the run has a game that
/// did not continue.
const STALLED: Duration = Duration::from_secs(15);

impl Report {
    fn merge(&mut self, other: Report) {
        self.seated_s = self.seated_s.max(other.seated_s);
        self.connected_s = self.connected_s.max(other.connected_s);
        self.open += other.open;
        self.failed += other.failed;
        self.moves += other.moves;
        self.reconnects += other.reconnects;
        self.opponent.extend(other.opponent);
        self.opponent_sent.extend(other.opponent_sent);
        self.spectator.extend(other.spectator);
        for (what, n) in other.errors {
            *self.errors.entry(what).or_default() += n;
        }
        for (tag, n) in other.frames {
            *self.frames.entry(tag).or_default() += n;
        }
        self.told.extend(other.told);
        self.stalled += other.stalled;
        for (level, v) in other.ai {
            self.ai.entry(level).or_default().extend(v);
        }
        self.chat_sent += other.chat_sent;
        self.chat.extend(other.chat);
        self.rated += other.rated;
    }

    fn print(mut self, args: &Args) -> Result<()> {
        if let Some(path) = &args.told {
            let told = std::mem::take(&mut self.told);
            std::fs::write(path, serde_json::to_string(&told)?)
                .with_context(|| format!("writing {}", path.display()))?;
        }
        println!(
            "{} games seated in {:.1} s; {} sockets open ({} failed) in {:.1} s",
            args.games, self.seated_s, self.open, self.failed, self.connected_s
        );
        println!(
            "ran {} s (after {} s of warm-up) with {} games and {} spectators (proposals: {}) on {} node(s) from {} process(es)",
            args.duration,
            args.warmup,
            args.games,
            args.spectators,
            args.proposals,
            args.urls.len(),
            args.procs
        );
        println!(
            "moves: {} ({:.1}/s); reconnects: {}",
            self.moves,
            self.moves as f64 / args.duration as f64,
            self.reconnects
        );
        if args.timeline {
            timeline(&self.opponent, &self.opponent_sent);
        }
        percentiles("move→opponent", self.opponent);
        percentiles("move→spectator", self.spectator);
        if args.rated {
            println!("rated games: {} of {}", self.rated, args.games);
        }
        if args.chat > 0 {
            println!(
                "chat lines: {} ({:.1}/s)",
                self.chat_sent,
                self.chat_sent as f64 / args.duration as f64
            );
            percentiles("chat line→reader", std::mem::take(&mut self.chat));
        }
        for (level, v) in std::mem::take(&mut self.ai) {
            percentiles(&format!("engine reply, level {level:>2}"), v);
        }
        let per_second: Vec<String> = self
            .frames
            .iter()
            .map(|(tag, n)| format!("{tag} {:.0}", *n as f64 / args.duration as f64))
            .collect();
        println!("frames to spectators per second: {}", per_second.join(", "));
        if args.reconnect {
            println!(
                "games whose last move was more than {} s before the end: {} of {}",
                STALLED.as_secs(),
                self.stalled,
                args.games
            );
        }
        if self.errors.is_empty() {
            println!("errors: none");
        } else {
            for (what, n) in &self.errors {
                println!("error ×{n}: {what}");
            }
        }
        Ok(())
    }
}

#[derive(Default)]
struct Shared {
    /// The last move sent per game: (ply, when).
    sent: Mutex<HashMap<String, (u32, Instant)>>,
    /// The start of the measured run: moves sent before it (while thousands of sockets
    /// were still connecting) are not measured.
    from: std::sync::OnceLock<Instant>,
    moves: AtomicU64,
    errors: Mutex<BTreeMap<String, u64>>,
    reconnects: AtomicU64,
    open: AtomicU64,
    failed_connects: AtomicU64,
    opponent: Mutex<Vec<u32>>,
    opponent_sent: Mutex<Vec<u32>>,
    spectator: Mutex<Vec<u32>>,
    /// Frames read by spectators during the run, by tag (index into [`FRAME_TAGS`]).
    frames: [AtomicU64; FRAME_TAGS.len()],
    /// The moves players were told of, by game (texts by ply).
    told: Mutex<HashMap<String, Vec<String>>>,
    /// When each pair of bots last saw a move.
    last_move: Mutex<HashMap<usize, Instant>>,
    /// The engine's reply times during the run, by level (microseconds).
    ai: Mutex<BTreeMap<u8, Vec<u32>>>,
    chat_sent: AtomicU64,
    /// Chat line→reader times (microseconds).
    chat: Mutex<Vec<u32>>,
    /// Players seated in a rated game (two a game).
    rated_seats: AtomicU64,
}

impl Shared {
    /// A player of `pair` was told that `mv` was played at `ply` of `game`. A different move
    /// at a ply already told of means a told move was lost (and replaced).
    fn told(&self, game: &str, pair: usize, ply: u32, mv: &str, now: Instant) {
        self.last_move.lock().unwrap_or_else(|e| e.into_inner()).insert(pair, now);
        let mut told = self.told.lock().unwrap_or_else(|e| e.into_inner());
        let moves = told.entry(game.to_string()).or_default();
        let ply = ply as usize;
        match moves.get(ply) {
            Some(known) if known != mv => {
                let was = known.clone();
                drop(told);
                self.error(format!("a told move was replaced: {game} ply {ply} {was} → {mv}"));
            }
            Some(_) => {}
            None if ply == moves.len() => moves.push(mv.to_string()),
            None => {
                drop(told);
                self.error(format!("a move of {game} told before the ones before it"));
            }
        }
    }

    /// A player was shown `moves` as the game so far: fewer than it was told of means told
    /// moves were lost.
    fn shown(&self, game: &str, moves: &[cannonade_wire::MoveInfo]) {
        let mut told = self.told.lock().unwrap_or_else(|e| e.into_inner());
        let known = told.entry(game.to_string()).or_default();
        let agree = known.iter().zip(moves).all(|(k, m)| *k == m.mv);
        let missing = known.len().saturating_sub(moves.len());
        if moves.len() > known.len() {
            known.extend(moves[known.len()..].iter().map(|m| m.mv.clone()));
        }
        drop(told);
        if !agree || missing > 0 {
            self.error(format!("a snapshot of {game} lacks {missing} told move(s) or differs"));
        }
    }

    /// The text of a chat line sent now, during the run: it carries when it was sent, so
    /// its readers (in this process, with the game) can time it. `None` outside the run.
    fn chat_line(&self) -> Option<String> {
        let from = *self.from.get()?;
        self.chat_sent.fetch_add(1, Relaxed);
        Some(format!("{CHAT_PREFIX}{}", from.elapsed().as_micros()))
    }

    /// A chat frame (its text, or the whole frame) was read `now`: times it if it is one
    /// of this run's lines.
    fn chat_read(&self, text: &str, now: Instant) {
        let Some(from) = self.from.get() else { return };
        let Some((_, rest)) = text.split_once(CHAT_PREFIX) else { return };
        let digits = rest.find(|c: char| !c.is_ascii_digit()).map_or(rest, |end| &rest[..end]);
        let Ok(us) = digits.parse::<u64>() else { return };
        let sent = *from + Duration::from_micros(us);
        let latency = now.saturating_duration_since(sent).as_micros() as u32;
        self.chat.lock().unwrap_or_else(|e| e.into_inner()).push(latency);
    }

    fn error(&self, what: String) {
        *self.errors.lock().unwrap_or_else(|e| e.into_inner()).entry(what).or_default() += 1;
    }

    /// The latency of `ply` of `game` read `now`, in microseconds, with when the move was
    /// sent (milliseconds into the run); `None` for another ply or a move sent before the run.
    fn latency(&self, game: &str, ply: u32, now: Instant) -> Option<(u32, u32)> {
        let sent = self.sent.lock().unwrap_or_else(|e| e.into_inner());
        let &(p, at) = sent.get(game)?;
        let from = *self.from.get()?;
        (p == ply && at >= from).then(|| {
            let latency = now.saturating_duration_since(at).as_micros() as u32;
            (latency, (at - from).as_millis() as u32)
        })
    }
}

/// How a chat line of the tool starts; the microseconds into the run it was sent follow.
const CHAT_PREFIX: &str = "load chat at ";

/// A tiny generator for choices (no need for cryptographic randomness here).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

struct Target {
    server: SocketAddr,
    url: String,
    slots: Semaphore,
}

impl Target {
    /// Connects from a spread of loopback source addresses: one address alone runs out of
    /// ephemeral ports near 28,000 sockets.
    async fn connect(&self, n: usize, token: Option<&str>) -> Result<(Ws, String)> {
        let _slot = self.slots.acquire().await?;
        // A connection the server never answers (its SYN or upgrade lost in a storm) fails
        // instead of holding the whole run at its start.
        tokio::time::timeout(CONNECT_TIMEOUT, self.open(n, token))
            .await
            .map_err(|_| anyhow::anyhow!("no welcome within {CONNECT_TIMEOUT:?}"))?
    }

    /// A connection to the server from client `n`'s own loopback address.
    async fn stream(&self, n: usize) -> Result<tokio::net::TcpStream> {
        let socket = TcpSocket::new_v4()?;
        if self.server.ip().is_loopback() && self.server.is_ipv4() {
            socket.bind(SocketAddr::from((
                Ipv4Addr::new(127, 0, (n / 250 % 250) as u8, (n % 250 + 2) as u8),
                0,
            )))?;
        }
        Ok(socket.connect(self.server).await?)
    }

    /// Registers the account `name` for client `n` (from its address) and returns the
    /// session's token. A server busy hashing passwords, or throttling, is asked again
    /// after a pause, until the set-up's time is out.
    async fn register(&self, n: usize, name: &str) -> Result<String> {
        use http_body_util::{BodyExt, Full};
        use hyper::body::Bytes;
        let _slot = REGISTERING.acquire().await?;
        let body = serde_json::json!({ "name": name, "password": PASSWORD }).to_string();
        let give_up = Instant::now() + SETUP;
        loop {
            let io = hyper_util::rt::TokioIo::new(self.stream(n).await?);
            let (mut sender, conn) = hyper::client::conn::http1::handshake(io).await?;
            tokio::spawn(conn);
            let request = hyper::Request::post("/api/register")
                .header(hyper::header::HOST, self.server.to_string())
                .header(hyper::header::CONTENT_TYPE, "application/json")
                .body(Full::new(Bytes::from(body.clone())))?;
            let res = sender.send_request(request).await?;
            let status = res.status();
            let answer = res.into_body().collect().await?.to_bytes();
            if status.is_success() {
                #[derive(serde::Deserialize)]
                struct Registered {
                    token: String,
                }
                return Ok(serde_json::from_slice::<Registered>(&answer)?.token);
            }
            let again = matches!(status.as_u16(), 429 | 503);
            if !again || Instant::now() > give_up {
                bail!("registering {name}: {status} {}", String::from_utf8_lossy(&answer));
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }

    async fn open(&self, n: usize, token: Option<&str>) -> Result<(Ws, String)> {
        let stream = self.stream(n).await?;
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("{}/ws", self.url).into_client_request()?;
        if let Some(t) = token {
            request
                .headers_mut()
                .insert("cookie", cannonade_wire::session_cookie_header(t).parse()?);
        }
        // Small buffers, as on the server: tens of thousands of sockets share this process.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            // tungstenite zeroes the read buffer's free room before every read; 4 KiB
            // holds a whole move frame.
            .read_buffer_size(4 * 1024)
            .write_buffer_size(8 * 1024);
        let (mut ws, res) =
            tokio_tungstenite::client_async_with_config(request, stream, Some(config)).await?;
        // A new session comes as a cookie; a resumed one keeps its token.
        let set = cannonade_wire::session_from_set_cookies(
            res.headers().get_all("set-cookie").iter().filter_map(|v| v.to_str().ok()),
        )
        .map(str::to_string);
        let Some(token) = set.or(token.map(str::to_string)) else {
            bail!("the server set no session cookie");
        };
        match recv(&mut ws).await? {
            Some(ServerMsg::Welcome { .. }) => Ok((ws, token)),
            other => bail!("expected a welcome, got {other:?}"),
        }
    }
}

/// The next message; `None` when the socket closed.
async fn recv(ws: &mut Ws) -> Result<Option<ServerMsg>> {
    Ok(match text(ws).await? {
        Some(t) => Some(serde_json::from_str(&t)?),
        None => None,
    })
}

/// The next text frame, unparsed; `None` when the socket closed.
async fn text(ws: &mut Ws) -> Result<Option<Utf8Bytes>> {
    loop {
        match ws.next().await {
            None => return Ok(None),
            Some(Err(e)) => return Err(e.into()),
            Some(Ok(Message::Text(t))) => return Ok(Some(t)),
            Some(Ok(_)) => continue,
        }
    }
}

/// What a spectator reads of a frame: the tag, the version and the move's ply, skipping the
/// rest (position and piece lists) and borrowing its strings from the frame, so that
/// thousands of spectators in this process cost little next to the server they measure.
#[derive(serde::Deserialize)]
struct Peek<'a> {
    #[serde(borrow)]
    t: &'a str,
    #[serde(borrow)]
    game: Option<&'a str>,
    v: Option<u64>,
    #[serde(borrow)]
    event: Option<PeekEvent<'a>>,
    #[serde(borrow)]
    legal: Option<Vec<PeekMove<'a>>>,
    moves: Option<Vec<serde::de::IgnoredAny>>,
    #[serde(borrow)]
    code: Option<Cow<'a, str>>,
    #[serde(borrow)]
    message: Option<Cow<'a, str>>,
}

#[derive(serde::Deserialize)]
struct PeekEvent<'a> {
    #[serde(borrow)]
    e: &'a str,
    ply: Option<u32>,
    #[serde(borrow)]
    game: Option<&'a str>,
}

/// A legal move as the tool reads it: its text, borrowed from the frame (move texts have no
/// escapes).
#[derive(serde::Deserialize)]
struct PeekMove<'a> {
    #[serde(borrow)]
    mv: &'a str,
}

/// One of `legal` at random, drawn when the list arrives: the tool plays or proposes one
/// move a ply, so it keeps one string, not the list.
fn pick(legal: Option<Vec<PeekMove<'_>>>, rng: &mut Rng) -> Option<String> {
    let legal = legal.filter(|l| !l.is_empty())?;
    Some(legal[rng.below(legal.len() as u64) as usize].mv.to_string())
}

/// The tags of the frames spectators count; the first six they skip without parsing, as
/// they have no use for them (the server writes the tag first) and the tool's own cost is on
/// the cores it measures.
const FRAME_TAGS: [&str; 9] =
    ["tally", "reveal", "score", "proposal_ok", "spectators", "chat", "event", "snapshot", "error"];
const SKIPPED_TAGS: usize = 6;

/// The next frame a spectator needs, to be read as a [`Peek`]; `None` when the socket
/// closed. Counts the frames by tag once the run is on.
async fn peek(ws: &mut Ws, shared: &Shared) -> Result<Option<Utf8Bytes>> {
    while let Some(t) = text(ws).await? {
        let tag = FRAME_TAGS.iter().position(|tag| {
            t.strip_prefix(r#"{"t":""#)
                .and_then(|rest| rest.strip_prefix(tag))
                .is_some_and(|rest| rest.starts_with('"'))
        });
        if let Some(i) = tag
            && shared.from.get().is_some()
        {
            shared.frames[i].fetch_add(1, Relaxed);
            if FRAME_TAGS[i] == "chat" {
                shared.chat_read(&t, Instant::now());
            }
        }
        if tag.is_some_and(|i| i < SKIPPED_TAGS) {
            continue;
        }
        return Ok(Some(t));
    }
    Ok(None)
}

/// What a bot reads: a move (most of its frames, read without building the whole message),
/// or any other message in full.
enum BotFrame {
    /// A move: the game, its ply, who made it, and one of the legal moves after it (drawn at
    /// random) when the bot gets them.
    Moved {
        game: String,
        ply: u32,
        seat: Seat,
        /// The move's recorded text.
        mv: String,
        pick: Option<String>,
    },
    Other(Box<ServerMsg>),
}

/// A `moved` event as a bot reads it.
#[derive(serde::Deserialize)]
struct MovedPeek<'a> {
    #[serde(borrow)]
    game: &'a str,
    #[serde(borrow)]
    event: MovedEventPeek<'a>,
    #[serde(borrow)]
    legal: Option<Vec<PeekMove<'a>>>,
}

#[derive(serde::Deserialize)]
struct MovedEventPeek<'a> {
    ply: u32,
    seat: Seat,
    #[serde(borrow)]
    mv: Cow<'a, str>,
}

/// The next frame a bot needs; `None` when the socket closed.
async fn bot_frame(ws: &mut Ws, rng: &mut Rng) -> Result<Option<BotFrame>> {
    let Some(t) = text(ws).await? else { return Ok(None) };
    let moved = t.starts_with(r#"{"t":"event""#) && t.contains(r#""e":"moved""#);
    Ok(Some(if moved {
        let m: MovedPeek = serde_json::from_str(&t)?;
        let pick = pick(m.legal, rng);
        BotFrame::Moved {
            game: m.game.to_string(),
            ply: m.event.ply,
            seat: m.event.seat,
            mv: m.event.mv.into_owned(),
            pick,
        }
    } else {
        BotFrame::Other(Box::new(serde_json::from_str(&t)?))
    }))
}

async fn send(ws: &mut Ws, msg: &ClientMsg) -> Result<()> {
    ws.send(Message::Text(serde_json::to_string(msg)?.into())).await?;
    Ok(())
}

fn check_url(url: &str) -> Result<SocketAddr> {
    let rest = url.strip_prefix("ws://").context("the URL must start with ws://")?;
    let hostport = rest.split('/').next().unwrap_or("");
    let hostport = hostport.replace("localhost", "127.0.0.1");
    let addr: SocketAddr =
        hostport.parse().with_context(|| format!("`{hostport}` is not HOST:PORT"))?;
    if !addr.ip().is_loopback() {
        bail!("the load tool talks to this machine only (127.0.0.1 or ::1), not {}", addr.ip());
    }
    Ok(addr)
}

pub fn run(args: Args) -> Result<()> {
    let servers = args.urls.iter().map(|u| check_url(u)).collect::<Result<Vec<_>>>()?;
    if args.games > MAX_GAMES
        || args.ai_games > MAX_GAMES
        || args.spectators > MAX_SPECTATORS
        || args.duration > MAX_DURATION
    {
        bail!("at most {MAX_GAMES} games, {MAX_SPECTATORS} spectators and {MAX_DURATION} s");
    }
    if args.games == 0 && args.proposals {
        bail!("--proposals needs games");
    }
    if !(1..=MAX_PROCS).contains(&args.procs) {
        bail!("--procs runs 1 to {MAX_PROCS} processes");
    }
    // A server that is not there fails the run at once, not after its bots and spectators
    // have each waited out their connect and set-up timeouts.
    for (addr, url) in servers.iter().zip(&args.urls) {
        std::net::TcpStream::connect_timeout(addr, Duration::from_secs(5))
            .with_context(|| format!("nothing answers at {url}: is `cannonade serve` running?"))?;
    }
    let kind: cannonade_games::GameKind = args.game.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let part = match &args.part {
        Some(p) => {
            let (i, n) = p.split_once('/').context("--part is I/N")?;
            Some((i.parse::<usize>()?, n.parse::<usize>()?))
        }
        None if args.procs > 1 => return parent(&args),
        None => None,
    };
    // A load process that is one of several runs on one thread: `--procs` already spreads
    // the load over the cores, and one thread per process spares the cores the wake-ups
    // between threads that the server being measured needs.
    let runtime = match part {
        Some(_) => tokio::runtime::Builder::new_current_thread().enable_all().build()?,
        None => tokio::runtime::Runtime::new()?,
    };
    let report = runtime.block_on(load(args.clone(), servers, kind, part))?;
    match part {
        Some(_) => println!("{}", serde_json::to_string(&report)?),
        None => report.print(&args)?,
    }
    Ok(())
}

/// The most processes `--procs` starts.
const MAX_PROCS: usize = 16;

/// Runs `--procs` children, each with a share; starts their clocks together once all are
/// connected, and merges their reports.
fn parent(args: &Args) -> Result<()> {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let exe = std::env::current_exe().context("finding this program")?;
    let forwarded: Vec<String> = std::env::args().skip(1).collect();
    // One tag for all the processes' account names.
    let tag = args.tag.clone().unwrap_or_else(run_tag);
    let mut children = Vec::new();
    for i in 0..args.procs {
        let mut child = Command::new(&exe)
            .args(&forwarded)
            .args(["--part", &format!("{i}/{}", args.procs)])
            .args(["--tag", &tag])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .context("starting a load process")?;
        let out = BufReader::new(child.stdout.take().context("no stdout")?);
        children.push((child, out));
    }
    // Each child says `ready` when its sockets are open; then all start at once.
    for (_, out) in &mut children {
        let mut line = String::new();
        while line.trim() != "ready" {
            line.clear();
            if out.read_line(&mut line)? == 0 {
                bail!("a load process ended before it was ready");
            }
        }
    }
    for (child, _) in &mut children {
        let stdin = child.stdin.as_mut().context("no stdin")?;
        stdin.write_all(b"go\n")?;
        stdin.flush()?;
    }
    eprintln!(
        "{} load processes connected: warming up {} s, then running {} s",
        args.procs, args.warmup, args.duration
    );
    let mut merged = Report::default();
    for (mut child, out) in children {
        let mut last = None;
        for line in out.lines() {
            let line = line?;
            if line.starts_with('{') {
                last = Some(line);
            }
        }
        child.wait()?;
        let report: Report = serde_json::from_str(&last.context("a load process gave no report")?)?;
        merged.merge(report);
    }
    merged.print(args)
}

/// Move→opponent latency by the second its move was sent: count, p50, p99 and max.
fn timeline(latency: &[u32], sent: &[u32]) {
    let mut by_second: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for (&us, &ms) in latency.iter().zip(sent) {
        by_second.entry(ms / 1000).or_default().push(us);
    }
    for (second, mut v) in by_second {
        v.sort_unstable();
        let at = |q: f64| v[((v.len() as f64 * q) as usize).min(v.len() - 1)] as f64 / 1000.0;
        println!(
            "  second {second:>3}: {:>5} moves, p50 {:>7.1} ms, p99 {:>7.1} ms, max {:>7.1} ms",
            v.len(),
            at(0.5),
            at(0.99),
            at(1.0)
        );
    }
}

fn percentiles(name: &str, mut v: Vec<u32>) {
    if v.is_empty() {
        println!("{name}: no samples");
        return;
    }
    v.sort_unstable();
    let at = |q: f64| v[((v.len() as f64 * q) as usize).min(v.len() - 1)] as f64 / 1000.0;
    let within =
        |ms: u32| v.iter().filter(|&&x| x <= ms * 1000).count() as f64 * 100.0 / v.len() as f64;
    println!(
        "{name}: {} samples, p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms; within 50 ms {:.1}%, within 250 ms {:.1}%",
        v.len(),
        at(0.5),
        at(0.95),
        at(0.99),
        at(1.0),
        within(50),
        within(250)
    );
}

async fn load(
    args: Args,
    servers: Vec<SocketAddr>,
    kind: cannonade_games::GameKind,
    part: Option<(usize, usize)>,
) -> Result<Report> {
    let shared = Arc::new(Shared::default());
    let tag = args.tag.clone().unwrap_or_else(run_tag);
    let targets: Vec<Arc<Target>> = servers
        .iter()
        .zip(&args.urls)
        .map(|(&server, url)| {
            let url = url.trim_end_matches('/').trim_end_matches("/ws").to_string();
            Arc::new(Target { server, url, slots: Semaphore::new(256) })
        })
        .collect();
    let targets = Arc::new(targets);
    let route = |i: usize| Route { targets: targets.clone(), first: i, reconnect: args.reconnect };
    // A game, its bots and its spectators belong to one process: latencies are measured
    // against the mover's clock.
    let mine = |g: usize| part.is_none_or(|(i, n)| g % n == i);
    let started = Instant::now();
    // Everyone stops at the same moment; the clock starts once the bots are seated.
    let (ready_tx, ready_rx) = watch::channel::<Option<Instant>>(None);
    let mut games_ids = HashMap::new();
    let mut tasks = Vec::new();
    let mut seated = Vec::new();
    let mut total = 0u64;
    for g in (0..args.games).filter(|&g| mine(g)) {
        let (id_tx, id_rx) = watch::channel::<Option<String>>(None);
        games_ids.insert(g, id_rx);
        let (code_tx, code_rx) = oneshot::channel();
        let (seat_a, seat_b) = (oneshot::channel(), oneshot::channel());
        seated.push(seat_a.1);
        seated.push(seat_b.1);
        total += 2;
        let bot = |n: usize,
                   route: Route,
                   invite: Option<oneshot::Sender<String>>,
                   accept: Option<oneshot::Receiver<String>>,
                   seated: oneshot::Sender<()>,
                   id_tx: Option<watch::Sender<Option<String>>>| {
            let (shared, ready) = (shared.clone(), ready_rx.clone());
            let think = args.think_ms;
            let talk = Talk {
                account: args.rated.then(|| format!("lt-{tag}-{n}")),
                chat_ms: args.chat * 1000,
            };
            tokio::spawn(async move {
                if let Err(e) = bot(
                    n,
                    kind,
                    route,
                    shared.clone(),
                    invite,
                    accept,
                    seated,
                    id_tx,
                    ready,
                    think,
                    talk,
                )
                .await
                {
                    shared.error(format!("bot: {e}"));
                }
            })
        };
        // The two players on two nodes (when there are several).
        tasks.push(bot(2 * g, route(g), Some(code_tx), None, seat_a.0, Some(id_tx)));
        tasks.push(bot(2 * g + 1, route(g + 1), None, Some(code_rx), seat_b.0, None));
    }
    for a in (0..args.ai_games).filter(|&a| mine(a)) {
        let (shared, ready) = (shared.clone(), ready_rx.clone());
        let (route, think) = (route(a), args.think_ms);
        let (seat_tx, seat_rx) = oneshot::channel();
        seated.push(seat_rx);
        total += 1;
        tasks.push(tokio::spawn(async move {
            let level = (a % 10) as u8 + 1;
            let n = 2 * MAX_GAMES + MAX_SPECTATORS + a;
            if let Err(e) =
                ai_player(n, kind, level, route, shared.clone(), seat_tx, ready, think).await
            {
                shared.error(format!("AI game: {e}"));
            }
        }));
    }
    let setup_end = Instant::now() + SETUP;
    for s in seated {
        let _ = tokio::time::timeout_at(setup_end, s).await;
    }
    let seated_at = Instant::now();
    for s in 0..args.spectators {
        let game = if args.games > 0 { s % args.games } else { s };
        if !mine(game) {
            continue;
        }
        total += 1;
        let (shared, target, ready) = (shared.clone(), route(s), ready_rx.clone());
        let ids = games_ids.get(&game).cloned();
        let (proposals, churn, think) = (args.proposals, args.churn, args.think_ms);
        let chat_ms = args.chat * 1000;
        tasks.push(tokio::spawn(async move {
            if let Err(e) = spectator(
                2 * MAX_GAMES + s,
                target,
                shared.clone(),
                ids,
                ready,
                proposals,
                churn,
                think,
                chat_ms,
            )
            .await
            {
                shared.error(format!("spectator: {e}"));
            }
        }));
    }
    // Wait until the spectators are connected (or failed), then run.
    while shared.open.load(Relaxed) + shared.failed_connects.load(Relaxed) < total
        && Instant::now() < setup_end + SETUP
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let connected_at = Instant::now();
    if part.is_some() {
        // One of several processes: say so, and start when the parent says all are ready.
        println!("ready");
        tokio::task::spawn_blocking(|| {
            let mut line = String::new();
            std::io::stdin().read_line(&mut line)
        })
        .await??;
    } else {
        println!(
            "{} games seated in {:.1} s; {} sockets open in {:.1} s",
            args.games,
            (seated_at - started).as_secs_f64(),
            shared.open.load(Relaxed),
            (connected_at - started).as_secs_f64()
        );
    }
    tokio::time::sleep(Duration::from_secs(args.warmup)).await;
    let moves_before = shared.moves.load(Relaxed);
    shared.opponent.lock().unwrap_or_else(|e| e.into_inner()).clear();
    shared.opponent_sent.lock().unwrap_or_else(|e| e.into_inner()).clear();
    shared.spectator.lock().unwrap_or_else(|e| e.into_inner()).clear();
    let _ = shared.from.set(Instant::now());
    let end = Instant::now() + Duration::from_secs(args.duration);
    let _ = ready_tx.send(Some(end));
    tokio::time::sleep_until(end).await;
    let moves = shared.moves.load(Relaxed) - moves_before;
    let _ =
        tokio::time::timeout(Duration::from_secs(10), futures_util::future::join_all(tasks)).await;
    let take =
        |v: &Mutex<Vec<u32>>| std::mem::take(&mut *v.lock().unwrap_or_else(|e| e.into_inner()));
    let last_move = shared.last_move.lock().unwrap_or_else(|e| e.into_inner());
    let pairs = (0..args.games).filter(|&g| mine(g));
    let stalled =
        pairs.filter(|g| last_move.get(g).is_none_or(|&at| at + STALLED < end)).count() as u64;
    drop(last_move);
    let told = std::mem::take(&mut *shared.told.lock().unwrap_or_else(|e| e.into_inner()));
    let ai = std::mem::take(&mut *shared.ai.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(Report {
        seated_s: (seated_at - started).as_secs_f64(),
        connected_s: (connected_at - started).as_secs_f64(),
        open: shared.open.load(Relaxed),
        failed: shared.failed_connects.load(Relaxed),
        moves,
        reconnects: shared.reconnects.load(Relaxed),
        opponent: take(&shared.opponent),
        opponent_sent: take(&shared.opponent_sent),
        spectator: take(&shared.spectator),
        errors: std::mem::take(&mut *shared.errors.lock().unwrap_or_else(|e| e.into_inner())),
        frames: FRAME_TAGS
            .iter()
            .zip(&shared.frames)
            .map(|(tag, n)| (tag.to_string(), n.load(Relaxed)))
            .filter(|(_, n)| *n > 0)
            .collect(),
        told: told.into_iter().collect(),
        stalled,
        ai,
        chat_sent: shared.chat_sent.load(Relaxed),
        chat: take(&shared.chat),
        rated: shared.rated_seats.load(Relaxed) / 2,
    })
}

/// A tag for this run's account names: the time in seconds, in base 36 (five letters
/// repeat after two months).
fn run_tag() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut n = secs % 36u64.pow(5);
    let mut tag = String::new();
    for _ in 0..5 {
        tag.insert(0, char::from_digit((n % 36) as u32, 36).unwrap_or('0'));
        n /= 36;
    }
    tag
}

/// Whether the run is still on (bots move, spectators propose and churn): before the end.
fn running(end: Option<Instant>) -> bool {
    end.is_none_or(|end| Instant::now() < end)
}

/// The end of the run once it is known.
fn end_of(ready: &watch::Receiver<Option<Instant>>) -> Option<Instant> {
    *ready.borrow()
}

async fn wait(at: Option<Instant>) {
    match at {
        Some(at) => sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Where a bot or spectator connects and, with `--reconnect`, where it goes when its socket
/// fails: its own node first, then the others in turn.
#[derive(Clone)]
struct Route {
    targets: Arc<Vec<Arc<Target>>>,
    first: usize,
    reconnect: bool,
}

impl Route {
    fn target(&self) -> &Target {
        &self.targets[self.first % self.targets.len()]
    }

    /// The first connection of a bot or spectator, counted as open or failed: a new
    /// anonymous session, or the session of the account `name` it registers first.
    async fn open(&self, n: usize, shared: &Shared, name: Option<&str>) -> Result<(Ws, String)> {
        let opened = match name {
            Some(name) => match self.target().register(n, name).await {
                Ok(token) => self.target().connect(n, Some(&token)).await,
                Err(e) => Err(e),
            },
            None => self.target().connect(n, None).await,
        };
        let count = if opened.is_ok() { &shared.open } else { &shared.failed_connects };
        count.fetch_add(1, Relaxed);
        opened
    }

    /// Connects again with the session `token` after a lost socket, trying the nodes in turn
    /// (its own first) with a growing pause, until `until`: a node being restarted or killed
    /// refuses at once, and the cluster needs a few seconds to hand its games over.
    async fn reconnect(&self, n: usize, token: &str, until: Option<Instant>) -> Result<Ws> {
        let mut pause = Duration::from_millis(100);
        let mut attempt = 0;
        loop {
            let target = &self.targets[(self.first + attempt) % self.targets.len()];
            match target.connect(n, Some(token)).await {
                Ok((ws, _)) => return Ok(ws),
                Err(e) if !running(until) => return Err(e),
                Err(_) => {}
            }
            attempt += 1;
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_secs(2));
        }
    }
}

/// Whether a lost socket is to be reconnected: with `--reconnect`, until the run (and its
/// drain) is over.
fn recovers(route: &Route, end: Option<Instant>) -> bool {
    route.reconnect && running(end.map(|end| end + DRAIN))
}

/// A bot's game as it plays it; kept across reconnections.
struct BotPlay {
    /// The pair of bots (the game's index in the run).
    pair: usize,
    game: String,
    me: Role,
    choice: Option<String>,
    ply: u32,
    move_at: Option<Instant>,
    end: Option<Instant>,
    rng: Rng,
    think: u64,
    seated: Option<oneshot::Sender<()>>,
    permit: Option<tokio::sync::SemaphorePermit<'static>>,
    ids: Option<watch::Sender<Option<String>>>,
    /// Set when the opponent is the engine: the bot measures its replies, and starts a new
    /// game at the same level when one ends (so the load stays the same).
    engine: Option<EngineOpponent>,
    /// Its games are meant to be rated (`--rated`): a casual one is an error.
    rated: bool,
    chat: Chatter,
}

/// The engine as a bot's opponent.
struct EngineOpponent {
    level: u8,
    /// The message that starts a game against it.
    start: ClientMsg,
    /// When the bot's last move went out, until the engine answers it.
    sent: Option<Instant>,
}

/// What a player bot is besides a mover: an account (`--rated`) and a chatter (`--chat`).
struct Talk {
    /// The account it registers and plays with; anonymous without.
    account: Option<String>,
    /// Its mean time between chat lines, ms; 0 for none.
    chat_ms: u64,
}

/// When a bot or spectator writes its next chat line.
#[derive(Default)]
struct Chatter {
    every_ms: u64,
    at: Option<Instant>,
}

impl Chatter {
    /// A line every `every_ms` on average (none for 0), the first at a random moment.
    fn new(every_ms: u64, rng: &mut Rng) -> Chatter {
        let at =
            (every_ms > 0).then(|| Instant::now() + Duration::from_millis(rng.below(2 * every_ms)));
        Chatter { every_ms, at }
    }

    /// Its line is due: sends it on `ws` to `game` (during the run, once the game is known)
    /// and schedules the next.
    async fn speak(
        &mut self,
        ws: &mut Ws,
        game: &str,
        shared: &Shared,
        end: Option<Instant>,
        rng: &mut Rng,
    ) -> Result<()> {
        let every = self.every_ms;
        self.at = Some(Instant::now() + Duration::from_millis(every / 2 + rng.below(every)));
        if game.is_empty() || !running(end) {
            return Ok(());
        }
        if let Some(text) = shared.chat_line() {
            send(ws, &ClientMsg::Chat { game: game.to_string(), text }).await?;
        }
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
async fn bot(
    n: usize,
    kind: cannonade_games::GameKind,
    route: Route,
    shared: Arc<Shared>,
    invite: Option<oneshot::Sender<String>>,
    accept: Option<oneshot::Receiver<String>>,
    seated: oneshot::Sender<()>,
    ids: Option<watch::Sender<Option<String>>>,
    mut ready: watch::Receiver<Option<Instant>>,
    think: u64,
    talk: Talk,
) -> Result<()> {
    let (mut ws, token) = route.open(n, &shared, talk.account.as_deref()).await?;
    let clock = TimeControl::fischer(3_600_000, 0);
    let permit = if invite.is_some() { Some(SEATING.acquire().await?) } else { None };
    if let Some(invite) = invite {
        send(
            &mut ws,
            &ClientMsg::Invite {
                game: kind,
                options: String::new(),
                clock,
                rated: talk.account.is_some(),
                range: None,
            },
        )
        .await?;
        loop {
            if let Some(ServerMsg::InviteCreated { code, .. }) = recv(&mut ws).await? {
                let _ = invite.send(code);
                break;
            }
        }
    }
    if let Some(accept) = accept {
        let code = accept.await?;
        send(&mut ws, &ClientMsg::AcceptSeek { id: code }).await?;
    }
    let mut play = BotPlay::new(n, end_of(&ready), think, seated);
    (play.permit, play.ids) = (permit, ids);
    play.rated = talk.account.is_some();
    play.chat = Chatter::new(talk.chat_ms, &mut play.rng);
    play.run(ws, &token, n, &route, &shared, &mut ready).await
}

impl BotPlay {
    /// Bot `n`'s play before its game starts: the run ends at `end` (if known yet), it
    /// thinks about `think` ms a move, and tells `seated` when it has its seat.
    fn new(n: usize, end: Option<Instant>, think: u64, seated: oneshot::Sender<()>) -> BotPlay {
        BotPlay {
            pair: n / 2,
            game: String::new(),
            me: Role::Spectator,
            choice: None,
            ply: 0,
            move_at: None,
            end,
            rng: Rng(0x9E37_79B9_7F4A_7C15 ^ (n as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D)),
            think,
            seated: Some(seated),
            permit: None,
            ids: None,
            engine: None,
            rated: false,
            chat: Chatter::default(),
        }
    }

    /// Plays on `ws` (of the session `token`) until the run is over, connecting again on
    /// `route` when the socket fails and the run says so.
    async fn run(
        &mut self,
        mut ws: Ws,
        token: &str,
        n: usize,
        route: &Route,
        shared: &Shared,
        ready: &mut watch::Receiver<Option<Instant>>,
    ) -> Result<()> {
        loop {
            match self.play(&mut ws, shared, ready).await {
                Ok(()) => break,
                Err(_) if recovers(route, self.end) => {
                    ws = route.reconnect(n, token, self.end.map(|end| end + DRAIN)).await?;
                    shared.reconnects.fetch_add(1, Relaxed);
                    // The snapshot that answers says where the game is now.
                    self.choice = None;
                    self.move_at = None;
                    if let Some(engine) = &mut self.engine {
                        engine.sent = None;
                    }
                    if !self.game.is_empty() {
                        let watch = ClientMsg::Watch { game: self.game.clone(), since: None };
                        send(&mut ws, &watch).await?;
                    }
                }
                Err(e) => return Err(e),
            }
        }
        let _ = ws.close(None).await;
        Ok(())
    }

    /// Plays on `ws` until the run is over (`Ok`) or the socket fails (`Err`).
    async fn play(
        &mut self,
        ws: &mut Ws,
        shared: &Shared,
        ready: &mut watch::Receiver<Option<Instant>>,
    ) -> Result<()> {
        loop {
            let msg = tokio::select! {
                m = bot_frame(ws, &mut self.rng) => match m? { Some(m) => m, None => bail!("the server closed the socket") },
                _ = wait(self.move_at) => {
                    self.move_at = None;
                    if let Some(mv) = self.choice.take().filter(|_| running(self.end)) {
                        match &mut self.engine {
                            Some(engine) => engine.sent = Some(Instant::now()),
                            None => { shared.sent.lock().unwrap_or_else(|e| e.into_inner()).insert(self.game.clone(), (self.ply, Instant::now())); }
                        }
                        send(ws, &ClientMsg::Move { game: self.game.clone(), ply: self.ply, mv }).await?;
                    }
                    continue;
                }
                _ = wait(self.chat.at) => {
                    self.chat.speak(ws, &self.game, shared, self.end, &mut self.rng).await?;
                    continue;
                }
                _ = wait(self.end.map(|end| end + DRAIN)) => return Ok(()),
                r = ready.changed(), if self.end.is_none() => { r?; self.end = end_of(ready); continue; }
            };
            let now = Instant::now();
            let msg = match msg {
                BotFrame::Moved { game: g, ply: p, seat, mv, pick } => {
                    if g == self.game {
                        if self.engine.is_none() {
                            shared.told(&self.game, self.pair, p, &mv, now);
                        }
                        if let Some(engine) = self.engine.as_mut().filter(|_| !self.me.holds(seat))
                        {
                            engine.answered(shared, now);
                        } else if !self.me.holds(seat) {
                            if let Some((us, sent)) = shared.latency(&self.game, p, now) {
                                shared.opponent.lock().unwrap_or_else(|e| e.into_inner()).push(us);
                                let mut at =
                                    shared.opponent_sent.lock().unwrap_or_else(|e| e.into_inner());
                                at.push(sent);
                            }
                        } else {
                            shared.moves.fetch_add(1, Relaxed);
                        }
                        self.think_then(pick, p + 1, now);
                    }
                    continue;
                }
                BotFrame::Other(msg) => *msg,
            };
            match msg {
                ServerMsg::GameStarted { game: g, .. } => {
                    self.game = g;
                    send(ws, &ClientMsg::Watch { game: self.game.clone(), since: None }).await?;
                    if let Some(ids) = &self.ids {
                        let _ = ids.send(Some(self.game.clone()));
                    }
                }
                ServerMsg::Snapshot(s) => {
                    self.me = s.you;
                    if let Some(seated) = self.seated.take() {
                        let _ = seated.send(());
                        if s.rated {
                            shared.rated_seats.fetch_add(1, Relaxed);
                        } else if self.rated {
                            shared.error("a game meant to be rated is casual".into());
                        }
                    }
                    self.permit.take();
                    shared.shown(&s.game, &s.moves);
                    let pick = s.legal.filter(|l| !l.is_empty()).map(|l| {
                        let i = self.rng.below(l.len() as u64) as usize;
                        l[i].mv.clone()
                    });
                    self.think_then(pick, s.moves.len() as u32, now);
                }
                ServerMsg::Event { game: g, event, .. } if g == self.game => match event {
                    GameEvent::Ended { .. } => {
                        self.choice = None;
                        self.move_at = None;
                        if let Some(engine) = &mut self.engine {
                            engine.sent = None;
                            send(ws, &engine.start).await?;
                        } else if self.me == Role::First {
                            let offer = ClientMsg::Offer {
                                game: self.game.clone(),
                                kind: OfferKind::Rematch,
                            };
                            send(ws, &offer).await?;
                        }
                    }
                    GameEvent::Offered { kind: OfferKind::Rematch, seat }
                        if !self.me.holds(seat) =>
                    {
                        let accept =
                            ClientMsg::Accept { game: self.game.clone(), kind: OfferKind::Rematch };
                        send(ws, &accept).await?;
                    }
                    _ => {}
                },
                ServerMsg::Error { code, message, .. } => {
                    shared.error(format!("{code:?}: {message}"))
                }
                ServerMsg::Chat { line, .. } => shared.chat_read(&line.text, now),
                _ => {}
            }
        }
    }

    /// Plays `pick` at `ply` after a think, if there is one.
    fn think_then(&mut self, pick: Option<String>, ply: u32, now: Instant) {
        self.choice = pick;
        if self.choice.is_some() {
            self.ply = ply;
            let think = self.think;
            self.move_at =
                Some(now + Duration::from_millis(think / 2 + self.rng.below(think.max(1))));
        }
    }
}

/// A spectator's view of its game as it watches; kept across reconnections.
struct Watching {
    game: String,
    v: u64,
    choice: Option<String>,
    ply: u32,
    propose_at: Option<Instant>,
    end: Option<Instant>,
    churn_at: Option<Instant>,
    rng: Rng,
    proposals: bool,
    churn: u32,
    think: u64,
    chat: Chatter,
}

#[allow(clippy::too_many_arguments)]
async fn spectator(
    n: usize,
    route: Route,
    shared: Arc<Shared>,
    ids: Option<watch::Receiver<Option<String>>>,
    mut ready: watch::Receiver<Option<Instant>>,
    proposals: bool,
    churn: u32,
    think: u64,
    chat_ms: u64,
) -> Result<()> {
    let game = match ids {
        Some(mut ids) => tokio::time::timeout(SETUP, ids.wait_for(Option::is_some))
            .await
            .map_err(|_| anyhow::anyhow!("its game was never set up"))
            .inspect_err(|_| {
                shared.failed_connects.fetch_add(1, Relaxed);
            })??
            .clone()
            .unwrap_or_default(),
        None => String::new(),
    };
    let (mut ws, token) = route.open(n, &shared, None).await?;
    if !game.is_empty() {
        send(&mut ws, &ClientMsg::Watch { game: game.clone(), since: None }).await?;
    }
    let mut rng = Rng(0xD1B5_4A32_D192_ED03 ^ (n as u64 + 7).wrapping_mul(0x9E37_79B9));
    let churn_at = Some(Instant::now() + Duration::from_millis(10_000 + rng.below(10_000)));
    let chat = Chatter::new(chat_ms, &mut rng);
    let mut watching = Watching {
        game,
        v: 0,
        choice: None,
        ply: 0,
        propose_at: None,
        end: end_of(&ready),
        churn_at,
        rng,
        proposals,
        churn,
        think,
        chat,
    };
    loop {
        match watching.watch(&mut ws, n, &route, &token, &shared, &mut ready).await {
            Ok(()) => break,
            Err(_) if recovers(&route, watching.end) => {
                ws = route.reconnect(n, &token, watching.end.map(|end| end + DRAIN)).await?;
                shared.reconnects.fetch_add(1, Relaxed);
                // A proposal for the ply it knew may be stale now.
                watching.choice = None;
                watching.propose_at = None;
                watching.resume(&mut ws).await?;
            }
            Err(e) => return Err(e),
        }
    }
    let _ = ws.close(None).await;
    Ok(())
}

impl Watching {
    /// Asks for what was missed since the last version seen, on a new socket.
    async fn resume(&mut self, ws: &mut Ws) -> Result<()> {
        if !self.game.is_empty() {
            send(ws, &ClientMsg::Watch { game: self.game.clone(), since: Some(self.v) }).await?;
        }
        Ok(())
    }

    /// Watches on `ws` until the run is over (`Ok`) or the socket fails (`Err`).
    async fn watch(
        &mut self,
        ws: &mut Ws,
        n: usize,
        route: &Route,
        token: &str,
        shared: &Shared,
        ready: &mut watch::Receiver<Option<Instant>>,
    ) -> Result<()> {
        loop {
            let frame = tokio::select! {
                m = peek(ws, shared) => match m? { Some(m) => m, None => bail!("the server closed the socket") },
                _ = wait(self.propose_at) => {
                    self.propose_at = None;
                    if let Some(mv) = self.choice.take().filter(|_| running(self.end)) {
                        send(ws, &ClientMsg::Propose { game: self.game.clone(), ply: self.ply, mv }).await?;
                    }
                    continue;
                }
                _ = wait(self.churn_at), if !self.game.is_empty() && running(self.end) => {
                    self.churn_at = Some(Instant::now() + Duration::from_secs(10));
                    if self.rng.below(100) < self.churn as u64 {
                        let _ = ws.close(None).await;
                        *ws = route.target().connect(n, Some(token)).await?.0;
                        shared.reconnects.fetch_add(1, Relaxed);
                        self.resume(ws).await?;
                    }
                    continue;
                }
                _ = wait(self.chat.at) => {
                    self.chat.speak(ws, &self.game, shared, self.end, &mut self.rng).await?;
                    continue;
                }
                _ = wait(self.end.map(|end| end + DRAIN)) => return Ok(()),
                r = ready.changed(), if self.end.is_none() => { r?; self.end = end_of(ready); continue; }
            };
            let now = Instant::now();
            let msg: Peek = serde_json::from_str(&frame)?;
            match (msg.t, msg.event) {
                ("snapshot", _) => {
                    self.v = msg.v.unwrap_or(0);
                    self.ply = msg.moves.map_or(0, |m| m.len() as u32);
                    self.choice = pick(msg.legal, &mut self.rng);
                }
                ("event", Some(event)) if msg.game == Some(self.game.as_str()) => {
                    self.v = msg.v.unwrap_or(self.v);
                    match (event.e, event.ply, event.game) {
                        ("moved", Some(p), _) => {
                            if let Some((us, _)) = shared.latency(&self.game, p, now) {
                                shared.spectator.lock().unwrap_or_else(|e| e.into_inner()).push(us);
                            }
                            self.ply = p + 1;
                            self.choice = pick(msg.legal, &mut self.rng);
                            if self.proposals && self.choice.is_some() {
                                let delay = self.rng.below(self.think.max(2) / 2);
                                self.propose_at = Some(now + Duration::from_millis(delay));
                            }
                        }
                        ("rematch", _, Some(next)) => {
                            self.game = next.to_string();
                            self.v = 0;
                            let watch = ClientMsg::Watch { game: self.game.clone(), since: None };
                            send(ws, &watch).await?;
                        }
                        _ => {}
                    }
                }
                ("error", _) => shared.error(format!(
                    "{}: {}",
                    msg.code.unwrap_or_default(),
                    msg.message.unwrap_or_default()
                )),
                _ => {}
            }
        }
    }
}

impl EngineOpponent {
    /// The engine answered the bot's move `now`: its reply time counts if the move went out
    /// during the measured run.
    fn answered(&mut self, shared: &Shared, now: Instant) {
        let measured =
            shared.from.get().is_some_and(|from| self.sent.is_some_and(|at| at >= *from));
        if let Some(at) = self.sent.take().filter(|_| measured) {
            let us = now.saturating_duration_since(at).as_micros() as u32;
            let mut ai = shared.ai.lock().unwrap_or_else(|e| e.into_inner());
            ai.entry(self.level).or_default().push(us);
        }
    }
}

/// A bot playing the engine at `level`: random legal moves after a think, and the time from
/// each move sent to the engine's answer measured during the run.
#[allow(clippy::too_many_arguments)]
async fn ai_player(
    n: usize,
    kind: cannonade_games::GameKind,
    level: u8,
    route: Route,
    shared: Arc<Shared>,
    seated: oneshot::Sender<()>,
    mut ready: watch::Receiver<Option<Instant>>,
    think: u64,
) -> Result<()> {
    let (mut ws, token) = route.open(n, &shared, None).await?;
    let clock = TimeControl::fischer(3_600_000, 0);
    let start = ClientMsg::PlayAi {
        game: kind,
        options: String::new(),
        clock,
        level,
        seat: Some(Seat::First),
        fen: None,
    };
    send(&mut ws, &start).await?;
    let mut play = BotPlay::new(n, end_of(&ready), think, seated);
    play.engine = Some(EngineOpponent { level, start, sent: None });
    play.run(ws, &token, n, &route, &shared, &mut ready).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(mv: &str) -> cannonade_wire::MoveInfo {
        cannonade_wire::MoveInfo { mv: mv.into(), display: mv.into(), seat: Seat::First }
    }

    fn errors(shared: &Shared) -> Vec<String> {
        shared.errors.lock().unwrap().keys().cloned().collect()
    }

    /// The fault runs' own check: a told move replaced, or missing from a later snapshot, is
    /// an error; the same move told to both players, or a snapshot that agrees, is not.
    #[test]
    fn told_moves_that_go_missing_or_change_are_errors() {
        let shared = Shared::default();
        let now = Instant::now();
        shared.told("g", 0, 0, "a1a2", now);
        shared.told("g", 0, 0, "a1a2", now);
        shared.told("g", 0, 1, "b1b2", now);
        shared.shown("g", &[info("a1a2"), info("b1b2"), info("c1c2")]);
        assert!(errors(&shared).is_empty(), "{:?}", errors(&shared));
        assert_eq!(shared.told.lock().unwrap()["g"], ["a1a2", "b1b2", "c1c2"]);
        shared.shown("g", &[info("a1a2")]);
        assert_eq!(errors(&shared).len(), 1, "{:?}", errors(&shared));
        shared.told("g", 0, 1, "b1b3", now);
        assert_eq!(errors(&shared).len(), 2, "{:?}", errors(&shared));
    }
}
