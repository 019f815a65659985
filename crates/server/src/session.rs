//! Sessions: an anonymous user per random token, or an account's login. A token lasts
//! [`crate::Config::session_ttl`] after its last use; a user lists and ends their sessions.
//! Anonymous users reach the store only when they take a seat, so spectators cost no write.

use crate::conn::Conn;
use crate::ids::{self, NoRandom};
use crate::limits::{Limiter, TooSoon};
use crate::lock::lock;
use crate::online::Online;
use crate::user::{UserCtx, is_saved, saved, unsaved_once};
use crate::writer::Writer;
use cannonade_store::{SessionRow, Store, StoreError, User};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// Why no session could be had.
#[derive(Debug)]
pub enum SessionError {
    /// The store failed.
    Store(StoreError),
    /// No random token could be made.
    NoRandom(NoRandom),
    /// This address opened too many anonymous sessions lately.
    TooSoon(TooSoon),
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionError::Store(e) => write!(f, "{e}"),
            SessionError::NoRandom(e) => write!(f, "{e}"),
            SessionError::TooSoon(e) => write!(f, "new sessions from this address: {e}"),
        }
    }
}

impl std::error::Error for SessionError {}

impl From<StoreError> for SessionError {
    fn from(e: StoreError) -> SessionError {
        SessionError::Store(e)
    }
}

impl From<NoRandom> for SessionError {
    fn from(e: NoRandom) -> SessionError {
        SessionError::NoRandom(e)
    }
}

/// The other nodes, told when sessions of a user end so they close their sockets too (the
/// cluster, when this node is one of several).
pub trait OtherNodes: Send + Sync {
    /// Tells the other nodes that `ended` sessions of `user` ended.
    fn sessions_ended(&self, user: &str, ended: Ended);
}

/// What sessions need of the node: where they are stored and written, the address limits on
/// new anonymous ones, and the sockets to close when one ends.
pub struct Handles {
    /// How long a session lasts after its last use.
    pub ttl: Duration,
    /// Where sessions are read.
    pub store: Arc<dyn Store>,
    /// Where they are written (its batching, and its refusal while the store is unhealthy).
    pub writer: Writer,
    /// New anonymous sessions per address.
    pub limiter: Arc<Limiter>,
    /// This node's sockets, closed when their session ends.
    pub online: Arc<Online>,
}

/// The sessions this node has seen, by token hash, and what they are kept with.
pub struct Sessions {
    cache: Mutex<HashMap<String, Arc<UserCtx>>>,
    h: Handles,
    others: OnceLock<Arc<dyn OtherNodes>>,
}

impl Sessions {
    /// No sessions yet.
    pub fn new(h: Handles) -> Sessions {
        Sessions { cache: Mutex::new(HashMap::new()), h, others: OnceLock::new() }
    }

    /// Tells `others` from now on when sessions end (set once, when the cluster starts).
    pub fn tell(&self, others: Arc<dyn OtherNodes>) {
        let _ = self.others.set(others);
    }

    fn cache(&self, ctx: Arc<UserCtx>) -> Arc<UserCtx> {
        lock(&self.cache).insert(ctx.token_hash.clone(), ctx.clone());
        ctx
    }

    /// How long a session goes between notes of its use in the store (and, on this node,
    /// between reads of it): a thirtieth of its life, so at most one write a day per session
    /// at the default 30 days, and a session ended elsewhere is over here within that time.
    fn touch_every(&self) -> i64 {
        (self.h.ttl.as_millis() as i64 / 30).max(1)
    }

    fn ttl_ms(&self) -> i64 {
        self.h.ttl.as_millis().min(i64::MAX as u128) as i64
    }

    /// The user of an existing, unexpired session `token` (in memory or in the store),
    /// `None` when the token is malformed, unknown or expired. A use slides the expiry.
    pub async fn known(&self, token: &str) -> Result<Option<Arc<UserCtx>>, StoreError> {
        if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(None);
        }
        let hash = ids::token_hash(token);
        let now = ids::now_ms();
        let cached = lock(&self.cache).get(&hash).cloned();
        if let Some(ctx) = cached {
            if now - ctx.last_ms.load(Ordering::Relaxed) > self.ttl_ms() {
                lock(&self.cache).remove(&hash);
                return Ok(None);
            }
            let stored = is_saved(&ctx);
            if !stored || now - ctx.checked_ms.load(Ordering::Relaxed) < self.touch_every() {
                ctx.last_ms.store(now, Ordering::Relaxed);
                return Ok(Some(ctx));
            }
            // Read it again (it stays cached meanwhile): it may have been ended on another node.
        }
        let found = self.h.store.session_of(&hash).await?;
        let Some((user, row)) = found.filter(|(_, row)| now - row.last_ms <= self.ttl_ms()) else {
            lock(&self.cache).remove(&hash);
            return Ok(None);
        };
        if now - row.last_ms >= self.touch_every() {
            let h = hash.clone();
            self.h
                .writer
                .exec(move |store| async move { store.touch_session(&h, now).await })
                .await?;
        }
        let ctx = UserCtx::new(user.id, user.name, user.password_hash.is_some(), hash, true);
        Ok(Some(self.cache(Arc::new(ctx))))
    }

    /// The user of `token`, or a new anonymous session for a client at `addr` when there is
    /// none or it is unknown or expired (at most so many a second per address). Returns the
    /// token to use from now on.
    pub async fn resolve(
        &self,
        token: Option<String>,
        addr: IpAddr,
    ) -> Result<(String, Arc<UserCtx>), SessionError> {
        if let Some(token) = token
            && let Some(ctx) = self.known(&token).await?
        {
            return Ok((token, ctx));
        }
        self.h.limiter.anonymous_session(addr).map_err(SessionError::TooSoon)?;
        let token = ids::token()?;
        let id = ids::short_id()?;
        let ctx =
            UserCtx::new(id.clone(), anonymous_name(&id), false, ids::token_hash(&token), false);
        Ok((token, self.cache(Arc::new(ctx))))
    }

    /// A new session for a stored user (a login or a registration).
    pub(crate) async fn open(&self, user: User) -> Result<(String, Arc<UserCtx>), SessionError> {
        let token = ids::token()?;
        let hash = ids::token_hash(&token);
        let (h, id) = (hash.clone(), user.id.clone());
        self.h.writer.exec(move |store| async move { store.create_session(&h, &id).await }).await?;
        let ctx = UserCtx::new(user.id, user.name, user.password_hash.is_some(), hash, true);
        Ok((token, self.cache(Arc::new(ctx))))
    }

    /// Ends `user`'s session `session_id` (a token hash): `false` when they have none by that
    /// id. Its sockets on this node close at their next message.
    pub async fn end(&self, user: &UserCtx, session_id: &str) -> Result<bool, StoreError> {
        self.end_as(user, session_id, Ended::One(session_id.to_string())).await
    }

    /// Ends `user`'s anonymous session, replaced by a login or registration: as
    /// [`Sessions::end`], and its sockets say so as they close.
    pub async fn replace(&self, user: &UserCtx) -> Result<bool, StoreError> {
        let id = user.session_id();
        self.end_as(user, id, Ended::Replaced(id.to_string())).await
    }

    async fn end_as(
        &self,
        user: &UserCtx,
        session_id: &str,
        ended: Ended,
    ) -> Result<bool, StoreError> {
        let mine = lock(&self.cache).get(session_id).is_some_and(|c| c.id == user.id);
        if mine {
            self.close_ended(&user.id, &ended);
        }
        if !is_saved(user) {
            return Ok(mine);
        }
        let (uid, h) = (user.id.clone(), session_id.to_string());
        let stored = self
            .h
            .writer
            .exec(move |store| async move { store.delete_session(&uid, &h).await })
            .await?;
        if stored && let Some(others) = self.others.get() {
            others.sessions_ended(&user.id, ended);
        }
        Ok(mine || stored)
    }

    /// Forgets `user_id`'s `ended` sessions on this node and closes their sockets now, idle
    /// ones included (a socket also finds its session gone at its next message).
    pub fn close_ended(&self, user_id: &str, ended: &Ended) {
        lock(&self.cache).retain(|hash, c| c.id != user_id || !ended.covers(hash));
        self.h.online.each(user_id, |c: &Conn| {
            if ended.covers(&c.user.token_hash) {
                if matches!(ended, Ended::Replaced(_)) {
                    c.user.replaced.store(true, Ordering::Relaxed);
                }
                c.user.ended.notify_waiters();
            }
        });
    }

    /// Forgets, on this node, every session of `user`'s user but `user`'s own (a change of
    /// password ended them in the store): their sockets close at their next message.
    pub(crate) fn forget_others(&self, user: &UserCtx) {
        let ended = Ended::AllBut(user.token_hash.clone());
        self.close_ended(&user.id, &ended);
        if let Some(others) = self.others.get() {
            others.sessions_ended(&user.id, ended);
        }
    }

    /// Whether `user`'s session is still open on this node: a socket asks at each message,
    /// so a session ended here (logout, the session list) closes its sockets at their next
    /// message. Live sessions stay in this node's cache (a re-read puts them back at once);
    /// ended and expired ones leave it.
    pub fn is_open(&self, user: &UserCtx) -> bool {
        match lock(&self.cache).get(&user.token_hash) {
            Some(ctx) => {
                // A socket in use keeps its session alive here.
                ctx.last_ms.store(ids::now_ms(), Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// `user`'s unexpired sessions, the latest used first.
    pub async fn list(&self, user: &UserCtx) -> Result<Vec<SessionInfo>, StoreError> {
        let now = ids::now_ms();
        let here = || SessionInfo {
            id: user.token_hash.clone(),
            created_ms: user.checked_ms.load(Ordering::Relaxed),
            last_ms: user.last_ms.load(Ordering::Relaxed),
            current: true,
        };
        if !is_saved(user) {
            return Ok(vec![here()]);
        }
        let rows: Vec<SessionRow> = self.h.store.user_sessions(&user.id).await?;
        Ok(rows
            .into_iter()
            .filter(|r| now - r.last_ms <= self.ttl_ms())
            .map(|r| SessionInfo {
                current: r.token_hash == user.token_hash,
                id: r.token_hash,
                created_ms: r.created_ms,
                last_ms: r.last_ms,
            })
            .collect())
    }

    /// Forgets expired sessions, in memory and in the store.
    pub async fn sweep(&self) -> Result<(), StoreError> {
        let now = ids::now_ms();
        let ttl = self.ttl_ms();
        lock(&self.cache).retain(|_, c| now - c.last_ms.load(Ordering::Relaxed) <= ttl);
        self.h
            .writer
            .exec(
                move |store| async move { store.delete_sessions_before(now - ttl).await.map(drop) },
            )
            .await
    }

    /// Writes a user who holds no seat yet, on its own: a seek shared with other nodes is
    /// taken on a node that has no session of the seeker to write with the game. Decided on
    /// the writer task, as a game's new players are, so the user is written once.
    pub async fn persist(&self, user: &Arc<UserCtx>) -> Result<(), StoreError> {
        if is_saved(user) {
            return Ok(());
        }
        let user = user.clone();
        self.h
            .writer
            .exec(move |store| async move {
                let new = unsaved_once([&user]);
                if !new.is_empty() {
                    store.append(&[], &new).await?;
                    saved(&user);
                }
                Ok(())
            })
            .await
    }
}

/// The display name of the anonymous user `id`: the whole id, since names are unique in the
/// store (a 6-letter prefix, as before, collided about once in 20 runs of 10,000 players,
/// and the colliding player's first game could not be saved).
fn anonymous_name(id: &str) -> String {
    format!("anon-{id}")
}

/// Which of a user's sessions ended, as a node tells the others.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ended {
    /// The session of this token hash (a logout, the session list).
    One(String),
    /// The anonymous session of this token hash, replaced by a login or registration.
    Replaced(String),
    /// Every session of the user but this one (a change of password).
    AllBut(String),
}

impl Ended {
    fn covers(&self, hash: &str) -> bool {
        match self {
            Ended::One(h) | Ended::Replaced(h) => h == hash,
            Ended::AllBut(keep) => keep != hash,
        }
    }
}

/// A session as its user's list shows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SessionInfo {
    /// Its id (the token's hash), to end it by.
    pub id: String,
    /// Made at (ms since the Unix epoch).
    pub created_ms: i64,
    /// Last used at (to within a thirtieth of the session's life).
    pub last_ms: i64,
    /// The session of the request.
    pub current: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are unique in the store, so two anonymous players whose ids share a prefix
    /// must not share a name (the second's first game would not be saved).
    #[test]
    fn anonymous_names_differ_wherever_ids_differ() {
        let (a, b) = (anonymous_name("whxeb70000"), anonymous_name("whxeb70001"));
        assert_ne!(a, b);
        assert!(a.starts_with("anon-") && b.starts_with("anon-"), "{a} {b}");
    }
}
