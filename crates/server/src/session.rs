//! Sessions: an anonymous user per random token, or an account's login. A token lasts
//! [`crate::Config::session_ttl`] after its last use; a user lists and ends their sessions.
//! Anonymous users reach the store only when they take a seat, so spectators cost no write.

use crate::ids::{self, NoRandom};
use crate::limits::TooSoon;
use crate::lock::lock;
use crate::state::App;
use crate::user::{UserCtx, is_saved, saved, unsaved_once};
use cannonade_store::{SessionRow, StoreError, User};
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

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

pub(crate) fn cache(app: &App, ctx: Arc<UserCtx>) -> Arc<UserCtx> {
    lock(&app.sessions).insert(ctx.token_hash.clone(), ctx.clone());
    ctx
}

/// How long a session goes between notes of its use in the store (and, on this node,
/// between reads of it): a thirtieth of its life, so at most one write a day per session
/// at the default 30 days, and a session ended elsewhere is over here within that time.
fn touch_every(app: &App) -> i64 {
    (app.config.session_ttl.as_millis() as i64 / 30).max(1)
}

fn ttl_ms(app: &App) -> i64 {
    app.config.session_ttl.as_millis().min(i64::MAX as u128) as i64
}

/// The user of an existing, unexpired session `token` (in memory or in the store), `None`
/// when the token is malformed, unknown or expired. A use slides the expiry.
pub async fn known(app: &App, token: &str) -> Result<Option<Arc<UserCtx>>, StoreError> {
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let hash = ids::token_hash(token);
    let now = ids::now_ms();
    let cached = lock(&app.sessions).get(&hash).cloned();
    if let Some(ctx) = cached {
        if now - ctx.last_ms.load(Ordering::Relaxed) > ttl_ms(app) {
            lock(&app.sessions).remove(&hash);
            return Ok(None);
        }
        let stored = is_saved(&ctx);
        if !stored || now - ctx.checked_ms.load(Ordering::Relaxed) < touch_every(app) {
            ctx.last_ms.store(now, Ordering::Relaxed);
            return Ok(Some(ctx));
        }
        // Read it again (it stays cached meanwhile): it may have been ended on another node.
    }
    let found = app.store.session_of(&hash).await?;
    let Some((user, row)) = found.filter(|(_, row)| now - row.last_ms <= ttl_ms(app)) else {
        lock(&app.sessions).remove(&hash);
        return Ok(None);
    };
    if now - row.last_ms >= touch_every(app) {
        let h = hash.clone();
        app.writer.exec(move |store| async move { store.touch_session(&h, now).await }).await?;
    }
    let ctx = UserCtx::new(user.id, user.name, user.password_hash.is_some(), hash, true);
    Ok(Some(cache(app, Arc::new(ctx))))
}

/// The display name of the anonymous user `id`: the whole id, since names are unique in the
/// store (a 6-letter prefix, as before, collided about once in 20 runs of 10,000 players,
/// and the colliding player's first game could not be saved).
fn anonymous_name(id: &str) -> String {
    format!("anon-{id}")
}

/// The user of `token`, or a new anonymous session for a client at `addr` when there is
/// none or it is unknown or expired (at most so many a second per address). Returns the
/// token to use from now on.
pub async fn resolve(
    app: &App,
    token: Option<String>,
    addr: IpAddr,
) -> Result<(String, Arc<UserCtx>), SessionError> {
    if let Some(token) = token
        && let Some(ctx) = known(app, &token).await?
    {
        return Ok((token, ctx));
    }
    app.limiter.anonymous_session(addr).map_err(SessionError::TooSoon)?;
    let token = ids::token()?;
    let id = ids::short_id()?;
    let ctx = UserCtx::new(id.clone(), anonymous_name(&id), false, ids::token_hash(&token), false);
    Ok((token, cache(app, Arc::new(ctx))))
}

/// A new session for a stored user (a login or a registration).
pub(crate) async fn open(app: &App, user: User) -> Result<(String, Arc<UserCtx>), SessionError> {
    let token = ids::token()?;
    let hash = ids::token_hash(&token);
    let (h, id) = (hash.clone(), user.id.clone());
    app.writer.exec(move |store| async move { store.create_session(&h, &id).await }).await?;
    let ctx = UserCtx::new(user.id, user.name, user.password_hash.is_some(), hash, true);
    Ok((token, cache(app, Arc::new(ctx))))
}

/// Ends `user`'s session `session_id` (a token hash): `false` when they have none by that
/// id. Its sockets on this node close at their next message.
pub async fn end(app: &App, user: &UserCtx, session_id: &str) -> Result<bool, StoreError> {
    end_as(app, user, session_id, Ended::One(session_id.to_string())).await
}

/// Ends `user`'s anonymous session, replaced by a login or registration: as [`end`], and
/// its sockets say so as they close.
pub async fn replace(app: &App, user: &UserCtx) -> Result<bool, StoreError> {
    let id = user.session_id();
    end_as(app, user, id, Ended::Replaced(id.to_string())).await
}

async fn end_as(
    app: &App,
    user: &UserCtx,
    session_id: &str,
    ended: Ended,
) -> Result<bool, StoreError> {
    let mine = lock(&app.sessions).get(session_id).is_some_and(|c| c.id == user.id);
    if mine {
        close_ended(app, &user.id, &ended);
    }
    if !is_saved(user) {
        return Ok(mine);
    }
    let (uid, h) = (user.id.clone(), session_id.to_string());
    let stored =
        app.writer.exec(move |store| async move { store.delete_session(&uid, &h).await }).await?;
    if stored && let Some(cluster) = app.cluster() {
        cluster.sessions_ended(&user.id, ended);
    }
    Ok(mine || stored)
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

/// Forgets `user_id`'s `ended` sessions on this node and closes their sockets now, idle
/// ones included (a socket also finds its session gone at its next message).
pub fn close_ended(app: &App, user_id: &str, ended: &Ended) {
    lock(&app.sessions).retain(|hash, c| c.id != user_id || !ended.covers(hash));
    if let Some(conns) = lock(&app.online).get(user_id) {
        for c in conns.iter().filter(|c| ended.covers(&c.user.token_hash)) {
            if matches!(ended, Ended::Replaced(_)) {
                c.user.replaced.store(true, Ordering::Relaxed);
            }
            c.user.ended.notify_waiters();
        }
    }
}

/// Forgets, on this node, every session of `user`'s user but `user`'s own (a change of
/// password ended them in the store): their sockets close at their next message.
pub(crate) fn forget_others(app: &App, user: &UserCtx) {
    let ended = Ended::AllBut(user.token_hash.clone());
    close_ended(app, &user.id, &ended);
    if let Some(cluster) = app.cluster() {
        cluster.sessions_ended(&user.id, ended);
    }
}

/// Whether `user`'s session is still open on this node: a socket asks at each message, so a
/// session ended here (logout, the session list) closes its sockets at their next message.
/// Live sessions stay in this node's cache (a re-read puts them back at once); ended and
/// expired ones leave it.
pub fn is_open(app: &App, user: &UserCtx) -> bool {
    match lock(&app.sessions).get(&user.token_hash) {
        Some(ctx) => {
            // A socket in use keeps its session alive here.
            ctx.last_ms.store(ids::now_ms(), Ordering::Relaxed);
            true
        }
        None => false,
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

/// `user`'s unexpired sessions, the latest used first.
pub async fn list(app: &App, user: &UserCtx) -> Result<Vec<SessionInfo>, StoreError> {
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
    let rows: Vec<SessionRow> = app.store.user_sessions(&user.id).await?;
    Ok(rows
        .into_iter()
        .filter(|r| now - r.last_ms <= ttl_ms(app))
        .map(|r| SessionInfo {
            current: r.token_hash == user.token_hash,
            id: r.token_hash,
            created_ms: r.created_ms,
            last_ms: r.last_ms,
        })
        .collect())
}

/// Forgets expired sessions, in memory and in the store.
pub async fn sweep(app: &App) -> Result<(), StoreError> {
    let now = ids::now_ms();
    let ttl = ttl_ms(app);
    lock(&app.sessions).retain(|_, c| now - c.last_ms.load(Ordering::Relaxed) <= ttl);
    app.writer
        .exec(move |store| async move { store.delete_sessions_before(now - ttl).await.map(drop) })
        .await
}

/// Writes a user who holds no seat yet, on its own: a seek shared with other nodes is taken
/// on a node that has no session of the seeker to write with the game. Decided on the writer
/// task, as a game's new players are, so the user is written once.
pub async fn persist(app: &App, user: &Arc<UserCtx>) -> Result<(), StoreError> {
    if is_saved(user) {
        return Ok(());
    }
    let user = user.clone();
    app.writer
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
