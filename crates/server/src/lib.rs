//! The Cannonade online server: HTTP and one websocket per tab (axum), a lobby, one actor
//! task per live game (the only writer of its board, clocks and events), spectators and
//! their move proposals, Banqi deals kept secret until the end, and every accepted move
//! committed to the store before it is told to anyone.
//!
//! [`serve`] runs it; [`start`] runs it on a given listener and returns its address, for
//! tests and tools. The wire protocol is [`cannonade_wire`] (`docs/protocol-wire.md`).
#![forbid(unsafe_code)]

mod account;
pub mod ai_board;
pub mod analysis;
pub mod archive;
mod client;
pub mod cluster;
mod config;
mod conn;
mod connections;
pub mod engines;
pub mod game;
mod http;
mod ids;
mod incident;
pub mod job_redis;
pub mod limits;
pub mod listener;
mod lobby;
mod lobby_view;
mod lock;
mod metrics;
mod online;
mod profile;
mod rating;
mod refusal;
pub mod reviews;
mod seek_range;
mod session;
pub mod slice;
mod socket;
mod state;
mod user;
pub mod worker;
mod writer;

pub use config::Config;
pub use http::router;
pub use metrics::Metrics;
pub use rating::{PROVISIONAL_RD, Rating, Speed};
pub use state::App;

use cannonade_store::SqlStore;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// The server could not start.
#[derive(Debug)]
pub struct ServeError(pub String);

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ServeError {}

/// Opens the store (applying migrations), joins the other nodes if `config.redis` says so,
/// brings back every live game (this node's share of them) and returns the shared state.
pub async fn build(config: Config) -> Result<Arc<App>, ServeError> {
    let bus = match &config.redis {
        Some(url) => {
            let node = ids::short_id().map_err(|e| ServeError(e.to_string()))?;
            let (bus, inbox) = cluster::RedisBus::connect(url, &cluster::topics(&node))
                .await
                .map_err(|e| ServeError(format!("{url}: {e}")))?;
            Some((node, Arc::new(bus) as Arc<dyn cluster::Bus>, inbox))
        }
        None => None,
    };
    build_with(config, bus).await
}

/// [`build`] with a given bus: `(node id, bus, inbox)`, the bus listening to
/// [`cluster::topics`]`(node id)`.
pub async fn build_with(
    config: Config,
    bus: Option<(String, Arc<dyn cluster::Bus>, cluster::Inbox)>,
) -> Result<Arc<App>, ServeError> {
    let store = SqlStore::connect(&config.db)
        .await
        .map_err(|e| ServeError(format!("{}: {e}", config.db)))?;
    let workers = match (&config.review_workers, &config.redis) {
        (None, _) => None,
        (Some(ns), Some(url)) => Some(
            reviews::board::ReviewBoard::connect(url, ns)
                .await
                .map_err(|e| ServeError(format!("{url}: {e}")))?,
        ),
        (Some(_), None) => {
            return Err(ServeError("reviews go to workers through Redis: set redis too".into()));
        }
    };
    let ai_workers = match (&config.ai_workers, &config.redis) {
        (None, _) => None,
        (Some(ns), Some(url)) => {
            let board = ai_board::AiBoard::connect(url, ns).await;
            let asker = match board {
                Ok(board) => board.asker().await,
                Err(e) => Err(e),
            };
            Some(asker.map_err(|e| ServeError(format!("{url}: {e}")))?)
        }
        (Some(_), None) => {
            return Err(ServeError("AI moves go to workers through Redis: set redis too".into()));
        }
    };
    let app = App::new(config, Arc::new(store)).map_err(|e| ServeError(e.to_string()))?;
    if let Some(asker) = ai_workers {
        app.analyses.send_to_workers(asker.clone());
        app.games.send_ai_to_workers(asker);
        tracing::info!("AI moves and analysis slices go to `cannonade worker` processes");
    }
    if let Some(board) = workers {
        app.reviews.send_to_workers(board);
        tracing::info!("game reviews go to `cannonade worker` processes");
    }
    if let Some((node, bus, inbox)) = bus {
        app.join_cluster(&node, bus, inbox);
        tracing::info!("node {node} joined the cluster");
    }
    let n = game::recover(&app.games).await.map_err(ServeError)?;
    if n > 0 {
        tracing::info!("restored {n} live games");
    }
    match app.reviews.resume().await {
        Ok(0) => {}
        Ok(n) => tracing::info!("queued {n} reviews again, left pending by the last stop"),
        Err(e) => tracing::warn!("the reviews left pending by the last stop were not queued: {e}"),
    }
    let lobby_app = Arc::downgrade(&app);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(2));
        loop {
            tick.tick().await;
            let Some(app) = lobby_app.upgrade() else { break };
            if let Some(cluster) = app.cluster() {
                let (games, live) = lobby_view::local_live_games(&app, 100);
                cluster.publish_lobby(app.lobby.public_seeks(), games, live);
            }
            app.lobby.refresh(&app);
        }
    });
    let sweep_app = Arc::downgrade(&app);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(SWEEP_EVERY);
        loop {
            tick.tick().await;
            let Some(app) = sweep_app.upgrade() else { break };
            app.limiter.sweep();
            if let Err(e) = app.sessions.sweep().await {
                tracing::warn!("expired sessions not swept: {e}");
            }
        }
    });
    Ok(app)
}

/// How often expired sessions, idle untimed games and the limiters' old keys are swept.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// Starts the server on `listener`; returns its address and the task serving it.
pub async fn start(
    config: Config,
    listener: tokio::net::TcpListener,
) -> Result<(SocketAddr, Arc<App>, tokio::task::JoinHandle<()>), ServeError> {
    let app = build(config).await?;
    serve_on(app, listener)
}

/// Serves a built state on `listener`; returns its address and the task serving it.
pub fn serve_on(
    app: Arc<App>,
    listener: tokio::net::TcpListener,
) -> Result<(SocketAddr, Arc<App>, tokio::task::JoinHandle<()>), ServeError> {
    let addr = listener.local_addr().map_err(|e| ServeError(e.to_string()))?;
    let task = tokio::spawn(service(&app, listener, std::future::pending()));
    Ok((addr, app, task))
}

/// The server on `listener` until `stop`: connections bounded per address (unless a
/// trusted proxy is every connection's peer), request heads bounded in time, each request
/// told its peer.
fn service(
    app: &Arc<App>,
    listener: tokio::net::TcpListener,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> impl std::future::Future<Output = ()> + Send + 'static {
    let limiter = (!app.config.trust_proxy).then(|| app.limiter.clone());
    connections::serve(
        listener::Bounded::new(listener, limiter),
        router(app.clone()),
        app.config.limits.header_timeout,
        stop,
    )
}

/// Connections the kernel may hold for the server to accept (it caps this at
/// `net.core.somaxconn`). The standard library's 128 drops SYNs when thousands of clients
/// reconnect at once, as after a restart, and each dropped SYN costs its client a second or
/// more of back-off.
const LISTEN_BACKLOG: u32 = 4096;

/// A listening socket at `addr` with [`LISTEN_BACKLOG`].
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = match addr {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Runs the server at `config.addr` until Ctrl-C.
pub async fn serve(config: Config) -> Result<(), ServeError> {
    let listener = listen(config.addr)
        .map_err(|e| ServeError(format!("cannot listen on {}: {e}", config.addr)))?;
    let addr = listener.local_addr().map_err(|e| ServeError(e.to_string()))?;
    let app = build(config).await?;
    tracing::info!("listening on http://{addr}");
    service(&app, listener, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await;
    Ok(())
}
