//! The shared state of a running server.

use crate::cluster::{Bus, Cluster, Inbox, Local};
use crate::config::Config;
use crate::engines::Engines;
use crate::game::Games;
use crate::ids::NoRandom;
use crate::limits::Limiter;
use crate::lobby::Lobby;
use crate::metrics::Metrics;
use crate::online::Online;
use crate::writer::Writer;
use cannonade_store::Store;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

/// Everything the handlers, sockets and game actors share.
pub struct App {
    /// Settings.
    pub config: Config,
    /// Persistence.
    pub store: Arc<dyn Store>,
    /// Group-commit writer of game events.
    pub writer: Writer,
    /// The engine service: every search runs there.
    pub engines: Engines,
    /// Counters for `/metrics`.
    pub metrics: Arc<Metrics>,
    /// Games in memory by id, and what their shells work with.
    pub games: Arc<Games>,
    /// Seeks and the lobby stream.
    pub lobby: Arc<Lobby>,
    /// Sessions seen since start.
    pub sessions: Arc<crate::session::Sessions>,
    /// Open connections by user id (to tell a user their game started).
    pub online: Arc<Online>,
    /// The other nodes, when this server is one of several (`--redis`).
    pub cluster: OnceLock<Arc<Cluster>>,
    /// Limits per client.
    pub limiter: Arc<Limiter>,
    /// Game reviews pending on this node.
    pub reviews: Arc<crate::reviews::Reviews>,
    /// The analysis boards' searches on this node.
    pub analyses: Arc<crate::analysis::Analyses>,
    next_conn: AtomicU64,
}

/// Reviews stored through the writer, as every write of a node goes (its batching, and its
/// refusal while the store is unhealthy).
fn put_review(writer: Writer) -> crate::reviews::PutReview {
    Arc::new(move |row| {
        let writer = writer.clone();
        Box::pin(async move {
            let put = writer.exec(move |store| async move { store.put_review(&row).await });
            put.await.map_err(|e| e.to_string())
        })
    })
}

impl App {
    /// A new server state; fails without the OS random source (no id could be made).
    pub fn new(config: Config, store: Arc<dyn Store>) -> Result<Arc<App>, NoRandom> {
        // The high half random: connection ids of two nodes do not meet.
        let first_conn = u64::from(u32::from_le_bytes(crate::ids::random_bytes::<4>()?)) << 32 | 1;
        let metrics = Arc::new(Metrics::default());
        let writer = Writer::start(store.clone(), metrics.clone(), config.commit_interval);
        let engines = Engines::start(config.engine_threads);
        let reviews = Arc::new(crate::reviews::Reviews::new(crate::reviews::Handles {
            store: store.clone(),
            engines: engines.clone(),
            depth: config.review_depth,
            per_user: config.limits.reviews_per_user,
            put: put_review(writer.clone()),
        }));
        let analyses = crate::analysis::Analyses::new(engines.clone(), &config.limits);
        let limiter = Arc::new(Limiter::new(config.limits.clone()));
        let online = Arc::new(Online::default());
        let sessions = Arc::new(crate::session::Sessions::new(crate::session::Handles {
            ttl: config.session_ttl,
            store: store.clone(),
            writer: writer.clone(),
            limiter: limiter.clone(),
            online: online.clone(),
        }));
        let games = Games::new(crate::game::Handles {
            config: config.clone(),
            store: store.clone(),
            writer: writer.clone(),
            engines: engines.clone(),
            metrics: metrics.clone(),
            reviews: reviews.clone(),
            online: online.clone(),
        });
        Ok(Arc::new(App {
            writer,
            analyses,
            engines,
            store,
            metrics,
            games,
            sessions,
            online,
            cluster: OnceLock::new(),
            limiter,
            reviews,
            lobby: Arc::new(Lobby::new(config.limits.seeks_per_user)),
            config,
            next_conn: AtomicU64::new(first_conn),
        }))
    }

    /// A fresh connection id.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Relaxed)
    }

    /// Whether this node runs the game `id` (its shell is here, not a relay to another node).
    pub fn runs_game(&self, id: &str) -> bool {
        self.games.runs(id)
    }

    /// Joins this node to the others as `node` on `bus` (which must deliver
    /// [`crate::cluster::topics`]`(node)` to `inbox`).
    pub fn join_cluster(&self, node: &str, bus: Arc<dyn Bus>, inbox: Inbox) -> Arc<Cluster> {
        let local = Local {
            games: self.games.clone(),
            lobby: self.lobby.clone(),
            sessions: self.sessions.clone(),
            online: self.online.clone(),
        };
        let cluster = Cluster::start(&local, node, bus, inbox);
        let _ = self.cluster.set(cluster.clone());
        cluster
    }

    /// The cluster, when this node is one of several.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.get()
    }

    /// Counts an error event sent.
    pub fn count_error(&self) {
        self.metrics.errors.inc();
    }
}
