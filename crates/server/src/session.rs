//! Sessions and accounts: an anonymous user per random token, or an account (name + argon2
//! password). Anonymous users reach the store only when they take a seat, so spectators cost
//! no write.

use crate::ids;
use crate::state::{App, lock};
use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use cannonade_store::{NewPlayer, StoreError, User};
use cannonade_wire::UserInfo;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A session's user.
#[derive(Debug)]
pub struct UserCtx {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// An account (may play rated games).
    pub account: bool,
    token_hash: String,
    persisted: AtomicBool,
}

impl UserCtx {
    /// A user whose socket is on another node, as that node vouched for it (already stored
    /// if it holds a seat).
    pub fn remote(info: UserInfo) -> UserCtx {
        UserCtx {
            id: info.id,
            name: info.name,
            account: info.account,
            token_hash: String::new(),
            persisted: AtomicBool::new(true),
        }
    }

    /// The user as the wire shows it.
    pub fn info(&self) -> UserInfo {
        UserInfo { id: self.id.clone(), name: self.name.clone(), account: self.account }
    }
}

/// Why an account request failed.
#[derive(Debug)]
pub enum AccountError {
    /// The name or password does not meet the rules (the text says which).
    Invalid(String),
    /// The name is taken.
    Taken,
    /// Wrong name or password.
    Denied,
    /// The store failed.
    Store(StoreError),
}

impl std::fmt::Display for AccountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AccountError::Invalid(why) => f.write_str(why),
            AccountError::Taken => f.write_str("that name is taken"),
            AccountError::Denied => f.write_str("wrong name or password"),
            AccountError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AccountError {}

fn cache(app: &App, ctx: Arc<UserCtx>) -> Arc<UserCtx> {
    lock(&app.sessions).insert(ctx.token_hash.clone(), ctx.clone());
    ctx
}

/// The user of an existing session `token` (in memory or in the store), `None` when the
/// token is malformed or unknown.
pub async fn known(app: &App, token: &str) -> Result<Option<Arc<UserCtx>>, StoreError> {
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let hash = ids::token_hash(token);
    if let Some(ctx) = lock(&app.sessions).get(&hash).cloned() {
        return Ok(Some(ctx));
    }
    Ok(app.store.session_user(&hash).await?.map(|user| {
        let ctx = UserCtx {
            id: user.id,
            name: user.name,
            account: user.password_hash.is_some(),
            token_hash: hash,
            persisted: AtomicBool::new(true),
        };
        cache(app, Arc::new(ctx))
    }))
}

/// The display name of the anonymous user `id`: the whole id, since names are unique in the
/// store (a 6-letter prefix, as before, collided about once in 20 runs of 10,000 players,
/// and the colliding player's first game could not be saved).
fn anonymous_name(id: &str) -> String {
    format!("anon-{id}")
}

/// The user of `token`, or a new anonymous session when there is none or it is unknown.
/// Returns the token to use from now on.
pub async fn resolve(
    app: &App,
    token: Option<String>,
) -> Result<(String, Arc<UserCtx>), StoreError> {
    if let Some(token) = token
        && let Some(ctx) = known(app, &token).await?
    {
        return Ok((token, ctx));
    }
    let token = ids::token();
    let id = ids::short_id();
    let ctx = UserCtx {
        name: anonymous_name(&id),
        id,
        account: false,
        token_hash: ids::token_hash(&token),
        persisted: AtomicBool::new(false),
    };
    Ok((token, cache(app, Arc::new(ctx))))
}

/// The user and session to write with the game where this user takes a seat, if they are
/// not in the store yet (an anonymous user's first seat).
pub fn unsaved(user: &UserCtx) -> Option<NewPlayer> {
    if user.persisted.load(Ordering::Acquire) {
        return None;
    }
    Some(NewPlayer {
        user: User {
            id: user.id.clone(),
            name: user.name.clone(),
            password_hash: None,
            created_ms: ids::now_ms(),
        },
        token_hash: user.token_hash.clone(),
    })
}

/// The users of `users` not in the store yet, once each. Called on the writer task, which
/// runs one write at a time, so of two writes naming a new user the first writes them.
pub fn unsaved_once<'a>(users: impl IntoIterator<Item = &'a Arc<UserCtx>>) -> Vec<NewPlayer> {
    let mut new: Vec<NewPlayer> = Vec::new();
    for p in users.into_iter().filter_map(|u| unsaved(u)) {
        if !new.iter().any(|n| n.user.id == p.user.id) {
            new.push(p);
        }
    }
    new
}

/// Whether the user is in the store already.
pub fn is_saved(user: &UserCtx) -> bool {
    user.persisted.load(Ordering::Acquire)
}

/// Notes that the user is in the store (their first game, or the first move that scored
/// their proposal, was written).
pub fn saved(user: &UserCtx) {
    user.persisted.store(true, Ordering::Release);
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

fn check_name(name: &str) -> Result<(), AccountError> {
    let ok_chars = name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !(3..=20).contains(&name.len()) || !ok_chars {
        return Err(AccountError::Invalid("a name is 3 to 20 letters, digits, '_' or '-'".into()));
    }
    if name.starts_with("anon-") || name.starts_with("AI") {
        return Err(AccountError::Invalid("names starting with anon- or AI are reserved".into()));
    }
    Ok(())
}

async fn new_session(app: &App, user: User) -> Result<(String, Arc<UserCtx>), AccountError> {
    let token = ids::token();
    let hash = ids::token_hash(&token);
    let (h, id) = (hash.clone(), user.id.clone());
    app.writer
        .exec(move |store| async move { store.create_session(&h, &id).await })
        .await
        .map_err(AccountError::Store)?;
    let ctx = UserCtx {
        id: user.id,
        name: user.name,
        account: true,
        token_hash: hash,
        persisted: AtomicBool::new(true),
    };
    Ok((token, cache(app, Arc::new(ctx))))
}

/// Creates an account and a session for it.
pub async fn register(
    app: &App,
    name: &str,
    password: &str,
) -> Result<(String, Arc<UserCtx>), AccountError> {
    check_name(name)?;
    if password.chars().count() < 8 || password.len() > 256 {
        return Err(AccountError::Invalid("a password has 8 to 256 characters".into()));
    }
    if app.store.user_by_name(name).await.map_err(AccountError::Store)?.is_some() {
        return Err(AccountError::Taken);
    }
    let password = password.to_string();
    // Argon2 takes tens of milliseconds and megabytes: off the async threads.
    let hash = tokio::task::spawn_blocking(move || {
        let salt = SaltString::encode_b64(&ids::random_bytes::<16>())
            .map_err(|e| AccountError::Invalid(e.to_string()))?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| AccountError::Invalid(e.to_string()))
    })
    .await
    .map_err(|e| AccountError::Invalid(e.to_string()))??;
    let user = User {
        id: ids::short_id(),
        name: name.to_string(),
        password_hash: Some(hash),
        created_ms: ids::now_ms(),
    };
    // A concurrent registration of the same name loses on the unique index.
    let row = user.clone();
    app.writer
        .exec(move |store| async move { store.create_user(&row).await })
        .await
        .map_err(|_| AccountError::Taken)?;
    new_session(app, user).await
}

/// Checks a password and opens a new session.
pub async fn login(
    app: &App,
    name: &str,
    password: &str,
) -> Result<(String, Arc<UserCtx>), AccountError> {
    let user = app
        .store
        .user_by_name(name)
        .await
        .map_err(AccountError::Store)?
        .ok_or(AccountError::Denied)?;
    let Some(stored) = user.password_hash.clone() else { return Err(AccountError::Denied) };
    let password = password.to_string();
    let ok = tokio::task::spawn_blocking(move || {
        PasswordHash::new(&stored)
            .map(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
            .unwrap_or(false)
    })
    .await
    .unwrap_or(false);
    if !ok {
        return Err(AccountError::Denied);
    }
    new_session(app, user).await
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
