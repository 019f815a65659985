//! The shared state of a running server.

use crate::config::Config;
use crate::game::GameHandle;
use crate::lobby::Lobby;
use crate::metrics::Metrics;
use crate::session::UserCtx;
use crate::writer::Writer;
use axum::extract::ws::Utf8Bytes;
use cannonade_store::Store;
use cannonade_wire::ServerMsg;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::mpsc;

/// One text frame, serialised once and shared by every socket it goes to.
pub type Frame = Utf8Bytes;

/// Everything the handlers, sockets and game actors share.
pub struct App {
    /// Settings.
    pub config: Config,
    /// Persistence.
    pub store: Arc<dyn Store>,
    /// Group-commit writer of game events.
    pub writer: Writer,
    /// Counters for `/metrics`.
    pub metrics: Arc<Metrics>,
    /// Games in memory by id.
    pub games: Mutex<HashMap<String, GameHandle>>,
    /// Seeks and the lobby stream.
    pub lobby: Lobby,
    /// Sessions seen since start, by token hash.
    pub sessions: Mutex<HashMap<String, Arc<UserCtx>>>,
    /// Open connections by user id (to tell a user their game started).
    pub online: Mutex<HashMap<String, Vec<Conn>>>,
    next_conn: AtomicU64,
}

/// Locks a mutex, going on with the data if a thread panicked while holding it: every
/// critical section here leaves the data consistent at each step.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One websocket as the rest of the server sees it.
#[derive(Clone, Debug)]
pub struct Conn {
    /// Unique per connection.
    pub id: u64,
    /// Its session's user.
    pub user: Arc<UserCtx>,
    /// Its outgoing queue.
    pub tx: mpsc::Sender<Frame>,
}

/// Outgoing frames a connection may have queued before it counts as too slow.
pub const CONN_QUEUE: usize = 512;

impl Conn {
    /// Queues a message; `false` when the connection is gone or too far behind.
    pub fn send(&self, msg: &ServerMsg) -> bool {
        self.send_frame(Frame::from(msg.to_json()))
    }

    /// Queues a prepared frame.
    pub fn send_frame(&self, frame: Frame) -> bool {
        self.tx.try_send(frame).is_ok()
    }
}

impl App {
    /// A new server state.
    pub fn new(config: Config, store: Arc<dyn Store>) -> Arc<App> {
        let metrics = Arc::new(Metrics::default());
        Arc::new(App {
            writer: Writer::start(store.clone(), metrics.clone()),
            config,
            store,
            metrics,
            games: Mutex::new(HashMap::new()),
            lobby: Lobby::new(),
            sessions: Mutex::new(HashMap::new()),
            online: Mutex::new(HashMap::new()),
            next_conn: AtomicU64::new(1),
        })
    }

    /// A fresh connection id.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Relaxed)
    }

    /// Sends `msg` to every open connection of `user_id`.
    pub fn tell_user(&self, user_id: &str, msg: &ServerMsg) {
        let frame = Frame::from(msg.to_json());
        if let Some(conns) = lock(&self.online).get(user_id) {
            for c in conns {
                c.send_frame(frame.clone());
            }
        }
    }

    /// Counts an error event sent.
    pub fn count_error(&self) {
        self.metrics.errors.fetch_add(1, Relaxed);
    }
}
