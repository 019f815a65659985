//! This node's games by id, and the narrow handles their shells work with: where they are
//! stored and written, the engines, the reviews, the counters, this node's sockets and,
//! through [`Peers`], the other nodes. Games know nothing of the server's whole state, and
//! nothing of the cluster but this trait, which it implements.

use super::GameHandle;
use super::view::{Audience, SocketScore};
use crate::ai_board::AiAsker;
use crate::config::Config;
use crate::conn::{Conn, Frame};
use crate::engines::Engines;
use crate::lock::lock;
use crate::metrics::Metrics;
use crate::online::Online;
use crate::reviews::Reviews;
use crate::writer::Writer;
use cannonade_store::Store;
use cannonade_wire::ServerMsg;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// A boxed future of the other nodes' answers.
pub type PeerFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, String>> + Send + 'a>>;

/// What games need of the other nodes, when this node is one of several: leases, the
/// frames for their sockets, and the way to a game another node runs.
pub trait Peers: Send + Sync {
    /// Takes the lease of a game this node is creating or loading; `Ok(true)` when it is
    /// this node's.
    fn claim<'a>(&'a self, game: &'a str) -> PeerFuture<'a, bool>;
    /// The game's handle on this node: its shell if this node holds (or takes) the lease,
    /// else a relay to the node that holds it. `None` if there is no such game.
    fn open(self: Arc<Self>, game: String) -> PeerFuture<'static, Option<GameHandle>>;
    /// Sends a game's frame to the sockets of `node` that `audience` admits; `v` is the
    /// version of the game event it carries, if any; the sockets in `scores` get it with
    /// their score added.
    fn broadcast(
        &self,
        node: &str,
        game: &str,
        audience: Audience,
        v: Option<u64>,
        frame: &Frame,
        scores: Vec<SocketScore>,
    );
    /// Tells `node` that this node does not run `game` any more.
    fn redirect(&self, node: &str, game: &str);
    /// Moves this node's sockets of a game whose lease this node lost to wherever the game
    /// runs now (in a task of its own).
    fn rehome(self: Arc<Self>, game: String, conns: Vec<Conn>);
    /// Sends a frame to the sockets of `user` on the other nodes.
    fn tell_user(&self, user: &str, frame: &Frame);
}

/// What a game's shell works with.
pub struct Handles {
    /// Settings (clocks' grace, the engine's limits, the games' limits).
    pub config: Config,
    /// Where games are read.
    pub store: Arc<dyn Store>,
    /// Where they are written (its batching, and its refusal while the store is unhealthy).
    pub writer: Writer,
    /// The engine service: the AI's moves and the crowd's judgements.
    pub engines: Engines,
    /// Counters for `/metrics`.
    pub metrics: Arc<Metrics>,
    /// Reviews of finished games.
    pub reviews: Arc<Reviews>,
    /// This node's sockets by user (to tell players their game started).
    pub online: Arc<Online>,
}

/// This node's games, shells and relays, by id.
pub struct Games {
    list: Mutex<HashMap<String, GameHandle>>,
    /// What the shells work with.
    pub h: Handles,
    peers: OnceLock<Arc<dyn Peers>>,
    ai_workers: OnceLock<AiAsker>,
}

impl Games {
    /// No games yet.
    pub fn new(h: Handles) -> Arc<Games> {
        Arc::new(Games {
            list: Mutex::default(),
            h,
            peers: OnceLock::new(),
            ai_workers: OnceLock::new(),
        })
    }

    /// The games, locked: keep the guard briefly and never across an await.
    pub fn list(&self) -> MutexGuard<'_, HashMap<String, GameHandle>> {
        lock(&self.list)
    }

    /// The handle of game `id` on this node, if it has one.
    pub fn get(&self, id: &str) -> Option<GameHandle> {
        self.list().get(id).cloned()
    }

    /// Whether this node runs the game `id` (its shell is here, not a relay to another node).
    pub fn runs(&self, id: &str) -> bool {
        self.list().get(id).is_some_and(|h| !h.summary.relayed && !h.tx.is_closed())
    }

    /// Joins the games to the other nodes (once, when this node joins a cluster).
    pub fn join(&self, peers: Arc<dyn Peers>) {
        let _ = self.peers.set(peers);
    }

    /// The other nodes, when this node is one of several.
    pub fn peers(&self) -> Option<&Arc<dyn Peers>> {
        self.peers.get()
    }

    /// Sends the AI's moves to `cannonade worker` processes from now on (once, at start).
    pub fn send_ai_to_workers(&self, asker: AiAsker) {
        let _ = self.ai_workers.set(asker);
    }

    /// Where the AI's moves go when not to this node's engines.
    pub fn ai_workers(&self) -> Option<&AiAsker> {
        self.ai_workers.get()
    }

    /// Sends `msg` to every open socket of `user` (on every node).
    pub fn tell_user(&self, user: &str, msg: &ServerMsg) {
        let frame = Frame::from(msg.to_json());
        if let Some(peers) = self.peers() {
            peers.tell_user(user, &frame);
        }
        self.h.online.tell(user, &frame);
    }
}
