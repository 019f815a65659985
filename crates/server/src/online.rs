//! The open connections of this node by user: how a user is told something (their game
//! started, their session ended) on every socket they have here.

use crate::conn::{Conn, Frame};
use crate::lock::lock;
use std::collections::HashMap;
use std::sync::Mutex;

/// This node's open connections by user id.
#[derive(Default)]
pub struct Online {
    by_user: Mutex<HashMap<String, Vec<Conn>>>,
}

impl Online {
    /// Counts `conn` among its user's connections.
    pub fn add(&self, conn: Conn) {
        lock(&self.by_user).entry(conn.user.id.clone()).or_default().push(conn);
    }

    /// Forgets the connection `id` of `user_id` (it closed).
    pub fn remove(&self, user_id: &str, id: u64) {
        let mut by_user = lock(&self.by_user);
        if let Some(list) = by_user.get_mut(user_id) {
            list.retain(|c| c.id != id);
            if list.is_empty() {
                by_user.remove(user_id);
            }
        }
    }

    /// Sends a frame to every connection of `user_id` on this node.
    pub fn tell(&self, user_id: &str, frame: &Frame) {
        self.each(user_id, |c| {
            c.send_frame(frame.clone());
        });
    }

    /// The connection `id` of `user_id` on this node.
    pub fn find(&self, user_id: &str, id: u64) -> Option<Conn> {
        lock(&self.by_user).get(user_id)?.iter().find(|c| c.id == id).cloned()
    }

    /// Calls `f` with each connection of `user_id` on this node (under the map's lock: `f`
    /// must not block).
    pub fn each(&self, user_id: &str, mut f: impl FnMut(&Conn)) {
        if let Some(conns) = lock(&self.by_user).get(user_id) {
            conns.iter().for_each(&mut f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::Out;
    use crate::user::UserCtx;
    use std::sync::Arc;
    use tokio::sync::mpsc;

    fn conn(id: u64, user: &str) -> (Conn, mpsc::Receiver<Frame>) {
        let (tx, rx) = mpsc::channel(4);
        let user = Arc::new(UserCtx::new(user.into(), user.into(), false, format!("h{id}"), false));
        (Conn { id, user, tx: Out::Local(tx) }, rx)
    }

    /// A user is told on each of their sockets and only theirs, and a closed socket is
    /// forgotten (the last one takes the user with it).
    #[test]
    fn a_user_is_told_on_each_open_socket_and_no_other() {
        let online = Online::default();
        let (a1, mut r1) = conn(1, "a");
        let (a2, mut r2) = conn(2, "a");
        let (b, mut rb) = conn(3, "b");
        for c in [a1, a2, b] {
            online.add(c);
        }
        online.tell("a", &Frame::from("hi"));
        assert_eq!(r1.try_recv().ok().as_deref(), Some("hi"));
        assert_eq!(r2.try_recv().ok().as_deref(), Some("hi"));
        assert!(rb.try_recv().is_err());
        online.remove("a", 1);
        online.tell("a", &Frame::from("again"));
        assert!(r1.try_recv().is_err());
        assert_eq!(r2.try_recv().ok().as_deref(), Some("again"));
        assert!(online.find("a", 1).is_none());
        assert_eq!(online.find("a", 2).map(|c| c.id), Some(2));
        online.remove("a", 2);
        assert!(lock(&online.by_user).get("a").is_none());
        assert_eq!(online.find("b", 3).map(|c| c.id), Some(3));
    }
}
