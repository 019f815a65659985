//! `cannonade serve`: the online server on embedded SQLite (or PostgreSQL).

use anyhow::{Context, Result};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `cannonade serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The store: `sqlite://FILE` (created if missing) or `postgres://USER@HOST/DB`.
    #[arg(long, default_value = "sqlite://cannonade.db")]
    db: String,
    /// Serve the web client from this directory instead of the built-in page.
    #[arg(long)]
    web: Option<PathBuf>,
    /// Seconds a disconnected player has to come back before the opponent may claim the win.
    #[arg(long, default_value_t = 60)]
    grace: u64,
    /// Run as one of several nodes sharing this Redis (`redis://127.0.0.1:6379`) and the
    /// `--db` PostgreSQL: each game runs on the node holding its lease, the others relay.
    #[arg(long)]
    redis: Option<String>,
    /// The least time between the starts of two group commits, in milliseconds: under load
    /// each commit gathers this long's moves (fewer, larger transactions), at the cost of up
    /// to this long more per move.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=1000))]
    commit_ms: u64,
    /// Searches (AI moves, analysis) that may run at once on this node; by default the cores
    /// but one, at least one.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    engine_threads: Option<u16>,
    /// The engine answers as soon as its search ends, without a person's pause (for tests
    /// and load runs).
    #[arg(long)]
    ai_instant: bool,
    /// Search every position of a game review to this depth instead of each game's default
    /// (docs/analysis.md); a low depth makes reviews quick, for tests.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    review_depth: Option<u32>,
    /// Game reviews go to `cannonade worker` processes through --redis instead of this
    /// node's engines (which then play AI moves only).
    #[arg(long, requires = "redis")]
    review_workers: bool,
    /// AI moves and analysis board slices go to `cannonade worker` processes through
    /// --redis; this node searches one itself only when no worker takes it within half a
    /// second or answers in time.
    #[arg(long, requires = "redis")]
    ai_workers: bool,
    /// The namespace of the engine jobs' keys on Redis (the workers' --namespace).
    #[arg(long, default_value = cannonade_server::job_redis::DEFAULT_NAMESPACE)]
    namespace: String,
    /// Behind a reverse proxy: take the client's address from `X-Forwarded-For`, HTTPS from
    /// `X-Forwarded-Proto` (cookies then `Secure`) and the host from `X-Forwarded-Host`, and
    /// leave connection counts per address to the proxy. Only with a proxy that sets them.
    #[arg(long)]
    trust_proxy: bool,
    /// Mark the session cookie `Secure` always (the site is reached over HTTPS only).
    #[arg(long)]
    secure_cookies: bool,
    /// An origin besides the server's own whose pages may open a websocket
    /// (`https://example.org`); repeat for several.
    #[arg(long = "allow-origin")]
    allowed_origins: Vec<String>,
    /// Open connections (HTTP and websockets) one address may hold.
    #[arg(long, default_value_t = 64)]
    connections_per_address: usize,
}

pub fn run(args: Args) -> Result<()> {
    tracing_subscriber::fmt()
        .with_max_level(tracing_subscriber::filter::LevelFilter::INFO)
        .with_target(false)
        .init();
    if args.redis.is_some() && args.db.starts_with("sqlite:") {
        anyhow::bail!("--redis needs a store the nodes share: --db postgres://…");
    }
    let config = cannonade_server::Config {
        addr: args.addr,
        db: args.db,
        web_dir: args.web,
        grace: Duration::from_secs(args.grace),
        redis: args.redis,
        commit_interval: Duration::from_millis(args.commit_ms),
        engine_threads: args
            .engine_threads
            .map_or_else(cannonade_server::engines::default_threads, usize::from),
        ai_pacing: !args.ai_instant,
        review_depth: args.review_depth,
        ai_workers: args.ai_workers.then(|| args.namespace.clone()),
        review_workers: args.review_workers.then_some(args.namespace),
        trust_proxy: args.trust_proxy,
        secure_cookies: args.secure_cookies,
        allowed_origins: args.allowed_origins,
        limits: cannonade_server::limits::Limits {
            connections_per_address: args.connections_per_address.max(1),
            ..Default::default()
        },
        ..cannonade_server::Config::default()
    };
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(cannonade_server::serve(config)).context("the server failed")?;
    Ok(())
}
