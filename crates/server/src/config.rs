//! Server settings.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// How a server runs. [`Config::default`] is what `cannonade serve` uses.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The store's URL (`sqlite://cannonade.db`, `postgres://…`).
    pub db: String,
    /// A directory of web assets served at `/` instead of the embedded placeholder page.
    pub web_dir: Option<PathBuf>,
    /// How long a disconnected player has to come back before the opponent may claim the win.
    pub grace: Duration,
    /// How long a finished game stays in memory without watchers.
    pub linger: Duration,
    /// Per-connection rate limit: messages per second (refill).
    pub rate_per_sec: u32,
    /// Per-connection rate limit: burst.
    pub rate_burst: u32,
    /// The engine's largest node budget for one move at any level, a bound on the work of
    /// one search beside [`Config::ai_max_time`]; the levels below 10 have budgets of their
    /// own ([`cannonade_engine::Level`]).
    pub ai_max_nodes: u64,
    /// The engine's longest think for one move.
    pub ai_max_time: Duration,
    /// The bus to other nodes (`redis://HOST:PORT`); `None`: this server is alone.
    pub redis: Option<String>,
    /// How long a node's lease on a game lasts without renewal: how long a game of a dead
    /// node waits before another node takes it.
    pub lease: Duration,
    /// The least time between the starts of two group commits (a move arriving after a
    /// quiet spell is committed at once; under load each commit gathers this long's rows).
    pub commit_interval: Duration,
    /// Searches that may run at once (AI moves and analysis): the engine service's threads.
    pub engine_threads: usize,
    /// The engine answers after a natural pause ([`cannonade_engine::Pacing`]) instead of
    /// as soon as its search ends; off for tests and load runs that want the engine fast.
    pub ai_pacing: bool,
    /// How long a session lasts after its last use (each use slides it).
    pub session_ttl: Duration,
    /// Marks the session cookie `Secure` on every answer (the server is reached over HTTPS
    /// only); behind a proxy, [`Config::trust_proxy`] does it per request.
    pub secure_cookies: bool,
    /// The server sits behind a reverse proxy that sets `X-Forwarded-For` (the client's
    /// address: its last entry), `X-Forwarded-Proto` (`https`: `Secure` cookies) and
    /// `X-Forwarded-Host`. Off, those headers are ignored: a client could forge them.
    pub trust_proxy: bool,
    /// Origins besides the server's own whose pages may open a websocket
    /// (`https://example.org`, exactly as browsers send them).
    pub allowed_origins: Vec<String>,
    /// The depth of every search of a game review; `None`: each game's default
    /// ([`cannonade_engine::review::default_depth`], docs/analysis.md).
    pub review_depth: Option<u32>,
    /// Game reviews go to `cannonade worker` processes through [`Config::redis`], under
    /// this namespace of keys (docs/server.md, "Reviews off the web nodes"), instead of this node's engines;
    /// `None`: the node reviews its games itself.
    pub review_workers: Option<String>,
    /// AI moves and analysis board slices go to `cannonade worker` processes through
    /// [`Config::redis`], under this namespace of keys (docs/server.md, "AI moves off the web
    /// nodes"); the node searches one itself only when no worker answers in time. `None`: the
    /// node searches them all.
    pub ai_workers: Option<String>,
    /// Limits per client.
    pub limits: crate::limits::Limits,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: "sqlite://cannonade.db".into(),
            web_dir: None,
            grace: Duration::from_secs(60),
            linger: Duration::from_secs(300),
            rate_per_sec: 20,
            rate_burst: 40,
            // Above what any game searches in `ai_max_time` (Banqi: about 3 M nodes a second).
            ai_max_nodes: 20_000_000,
            ai_max_time: Duration::from_secs(3),
            redis: None,
            lease: Duration::from_secs(10),
            // A commit costs the database mostly per transaction: at 3,000 games on two
            // nodes PostgreSQL used 9.3 s of CPU in 30 s with 4 ms and 6.0 s with 12 ms
            // (docs/server.md). 10 ms keeps commits to 100 a second a node, for at most
            // 10 ms more per move under load and nothing after a quiet spell.
            commit_interval: Duration::from_millis(10),
            engine_threads: crate::engines::default_threads(),
            ai_pacing: true,
            session_ttl: Duration::from_secs(30 * 24 * 3600),
            secure_cookies: false,
            trust_proxy: false,
            allowed_origins: Vec::new(),
            review_depth: None,
            review_workers: None,
            ai_workers: None,
            limits: crate::limits::Limits::default(),
        }
    }
}
