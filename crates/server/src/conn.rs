//! A connection as the rest of the server sees it: a socket of this node (its outgoing
//! queue) or of another node (reached through the cluster's bus, seen here only as the
//! [`Bus`] it is), and the frames they are sent.

use crate::user::UserCtx;
use axum::extract::ws::Utf8Bytes;
use cannonade_wire::ServerMsg;
use std::sync::Arc;
use tokio::sync::mpsc;

/// What a connection of another node needs of the cluster's bus.
pub trait Bus: Send + Sync + std::fmt::Debug {
    /// Hands `frame` to node `node` for its socket `conn` of user `user`.
    fn send_to(&self, node: &str, user: &str, conn: u64, frame: &Frame);
    /// Tells node `node` that its socket `conn` has `game`'s events up to `v`: broadcasts
    /// from here on reach it.
    fn synced(&self, node: &str, game: &str, conn: u64, v: u64);
}

/// One text frame, serialised once and shared by every socket it goes to.
pub type Frame = Utf8Bytes;

/// One websocket as the rest of the server sees it.
#[derive(Clone, Debug)]
pub struct Conn {
    /// Unique per connection (ids start at a random point, so that connections of
    /// different nodes do not share one).
    pub id: u64,
    /// Its session's user.
    pub user: Arc<UserCtx>,
    /// Its outgoing queue.
    pub tx: Out,
}

/// Where a connection's frames go.
#[derive(Clone, Debug)]
pub enum Out {
    /// The queue of a socket of this node.
    Local(mpsc::Sender<Frame>),
    /// A socket of another node, reached through the bus.
    Remote(Arc<RemoteConn>),
}

/// A socket of another node, as the owner of a game sees it.
#[derive(Debug)]
pub struct RemoteConn {
    /// The node it is on.
    pub node: Arc<str>,
    /// Its connection id there.
    pub conn: u64,
    /// Its user (to find it on its node).
    pub user: String,
    /// The bus to reach it.
    pub bus: Arc<dyn Bus>,
}

impl Out {
    /// Queues a frame without waiting: `Full` when a local socket is too far behind. A frame
    /// for another node's socket is handed to the bus.
    pub fn try_send(&self, frame: Frame) -> Result<(), mpsc::error::TrySendError<Frame>> {
        match self {
            Out::Local(tx) => tx.try_send(frame),
            Out::Remote(r) => {
                r.bus.send_to(&r.node, &r.user, r.conn, &frame);
                Ok(())
            }
        }
    }

    /// The node of a remote socket.
    pub fn remote_node(&self) -> Option<&Arc<str>> {
        match self {
            Out::Local(_) => None,
            Out::Remote(r) => Some(&r.node),
        }
    }
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
