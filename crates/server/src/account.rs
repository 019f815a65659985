//! Accounts: a name and an Argon2 password. Attempts are throttled per address and per name
//! ([`crate::limits`]); hashes run on the blocking pool, a bounded number at once; an
//! unknown name costs the same hash as a wrong password, so the answer's time does not
//! tell whether a name exists.

use crate::ids::{self, NoRandom};
use crate::limits::TooSoon;
use crate::session::SessionError;
use crate::state::App;
use crate::user::UserCtx;
use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use cannonade_store::{StoreError, User};
use std::net::IpAddr;
use std::sync::{Arc, OnceLock};

/// Why an account request failed.
#[derive(Debug)]
pub enum AccountError {
    /// The name or password does not meet the rules (the text says which).
    Invalid(String),
    /// The name is taken (in any case).
    Taken,
    /// Wrong name or password.
    Denied,
    /// A change of password gave the wrong current password.
    WrongPassword,
    /// The request has no account's session (an anonymous one cannot change a password).
    NoAccount,
    /// Too many attempts from this address or for this name.
    TooSoon(TooSoon),
    /// Every password hash slot stayed busy: try again shortly.
    Busy,
    /// The store failed.
    Store(StoreError),
    /// The server failed otherwise (no random source, a hash task lost).
    Internal(String),
}

impl std::fmt::Display for AccountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AccountError::Invalid(why) => f.write_str(why),
            AccountError::Taken => f.write_str("that name is taken"),
            AccountError::Denied => f.write_str("wrong name or password"),
            AccountError::WrongPassword => f.write_str("wrong password"),
            AccountError::NoAccount => f.write_str("log in first"),
            AccountError::TooSoon(e) => write!(f, "{e}"),
            AccountError::Busy => f.write_str("the server is busy: try again in a moment"),
            AccountError::Store(e) => write!(f, "{e}"),
            AccountError::Internal(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for AccountError {}

impl From<SessionError> for AccountError {
    fn from(e: SessionError) -> AccountError {
        match e {
            SessionError::Store(e) => AccountError::Store(e),
            SessionError::NoRandom(e) => AccountError::Internal(e.to_string()),
            SessionError::TooSoon(e) => AccountError::TooSoon(e),
        }
    }
}

impl From<NoRandom> for AccountError {
    fn from(e: NoRandom) -> AccountError {
        AccountError::Internal(e.to_string())
    }
}

/// Whether `name` starts with a reserved prefix, in any case: `anon` (anonymous users are
/// `anon-<id>`) or `ai` (the engine's seats), each followed by a non-letter or nothing, so
/// `Anon-x`, `AI_5` and `ai9` are reserved and `Aiden` is not.
fn reserved(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["anon", "ai"].iter().any(|prefix| {
        lower
            .strip_prefix(prefix)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphabetic()))
    })
}

/// Whether `name` has the form of a player's name: 3 to 20 letters, digits, `_` or `-`
/// (anonymous players' `anon-<id>` too). Other text names nobody.
pub(crate) fn name_form(name: &str) -> bool {
    let ok_chars = name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    (3..=20).contains(&name.len()) && ok_chars
}

fn check_name(name: &str) -> Result<(), AccountError> {
    if !name_form(name) {
        return Err(AccountError::Invalid("a name is 3 to 20 letters, digits, '_' or '-'".into()));
    }
    if reserved(name) {
        return Err(AccountError::Invalid(
            "names starting with anon or AI (then a digit, '-' or '_') are reserved".into(),
        ));
    }
    Ok(())
}

fn check_password(password: &str) -> Result<(), AccountError> {
    if password.chars().count() < 8 || password.len() > 256 {
        return Err(AccountError::Invalid("a password has 8 to 256 characters".into()));
    }
    Ok(())
}

/// Runs a password hash on the blocking pool once a slot is free (waiting at most
/// [`crate::limits::Limits::hash_wait`]): 300 logins at once once took 1.7 GB.
async fn hash_work<T: Send + 'static>(
    app: &App,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AccountError> {
    let wait = app.limiter.limits.hash_wait;
    let _slot = tokio::time::timeout(wait, app.limiter.hashes.acquire())
        .await
        .map_err(|_| AccountError::Busy)?
        .map_err(|_| AccountError::Busy)?;
    app.metrics.password_hashes.inc();
    tokio::task::spawn_blocking(work).await.map_err(|e| AccountError::Internal(e.to_string()))
}

/// A stored hash to check against when a name has none (unknown, or anonymous): the same
/// work as a real check, and never a match for any password.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let Ok(salt) = SaltString::encode_b64(b"cannonade-dummy-") else { return String::new() };
        Argon2::default()
            .hash_password(b"no password", &salt)
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

/// A new Argon2 hash of `password` with a fresh salt, made on the blocking pool.
async fn new_hash(app: &App, password: &str) -> Result<String, AccountError> {
    let salt = ids::random_bytes::<16>()?;
    let password = password.to_string();
    hash_work(app, move || {
        let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| e.to_string())
    })
    .await?
    .map_err(AccountError::Internal)
}

/// Whether `password` matches `stored` (the dummy hash when there is none: the same work).
async fn verify(app: &App, stored: Option<String>, password: &str) -> Result<bool, AccountError> {
    let password = password.to_string();
    hash_work(app, move || {
        let stored = stored.as_deref().unwrap_or_else(|| dummy_hash());
        PasswordHash::new(stored)
            .map(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
            .unwrap_or(false)
    })
    .await
}

/// Creates an account and a session for it. With `anonymous`, the request's anonymous
/// user, that user becomes the account (same id): the games it played in this browser stay
/// its games.
pub async fn register(
    app: &App,
    addr: IpAddr,
    name: &str,
    password: &str,
    anonymous: Option<Arc<UserCtx>>,
) -> Result<(String, Arc<UserCtx>), AccountError> {
    check_name(name)?;
    check_password(password)?;
    app.limiter.login(addr, name).map_err(AccountError::TooSoon)?;
    if app.store.user_by_name(name).await.map_err(AccountError::Store)?.is_some() {
        return Err(AccountError::Taken);
    }
    let hash = new_hash(app, password).await?;
    let anonymous = anonymous.filter(|u| !u.account);
    let id = match &anonymous {
        Some(anon) => anon.id.clone(),
        None => ids::short_id()?,
    };
    let user =
        User { id, name: name.to_string(), password_hash: Some(hash), created_ms: ids::now_ms() };
    let row = user.clone();
    let created = app
        .writer
        .exec(move |store| async move {
            store.claim_user(&row).await?;
            // On the writer task, as a game's new players are decided: a seat the old
            // anonymous session takes later (an open seek) must not write the user again.
            if let Some(anon) = &anonymous {
                crate::user::saved(anon);
            }
            Ok(())
        })
        .await;
    if let Err(e) = created {
        // A concurrent registration of the same name loses on the unique index; any other
        // failure is the store's.
        return match app.store.user_by_name(name).await {
            Ok(Some(_)) => Err(AccountError::Taken),
            _ => Err(AccountError::Store(e)),
        };
    }
    Ok(app.sessions.open(user).await?)
}

/// Checks a password and opens a new session.
pub async fn login(
    app: &App,
    addr: IpAddr,
    name: &str,
    password: &str,
) -> Result<(String, Arc<UserCtx>), AccountError> {
    app.limiter.login(addr, name).map_err(AccountError::TooSoon)?;
    if password.len() > 256 {
        return Err(AccountError::Denied);
    }
    let user = app.store.user_by_name(name).await.map_err(AccountError::Store)?;
    let stored = user.as_ref().and_then(|u| u.password_hash.clone());
    let real = stored.is_some();
    let ok = verify(app, stored, password).await?;
    match user {
        Some(user) if ok && real => Ok(app.sessions.open(user).await?),
        _ => Err(AccountError::Denied),
    }
}

/// Changes `user`'s password after checking the current one (throttled as logins are: it
/// is a password guess too). The session that asks stays; every other session of the user
/// ends, in the store and on this node (other nodes drop theirs at their next read of it).
pub async fn change_password(
    app: &App,
    addr: IpAddr,
    user: &UserCtx,
    old: &str,
    new: &str,
) -> Result<(), AccountError> {
    if !user.account {
        return Err(AccountError::NoAccount);
    }
    check_password(new)?;
    app.limiter.login(addr, &user.name).map_err(AccountError::TooSoon)?;
    if old.len() > 256 {
        return Err(AccountError::WrongPassword);
    }
    let stored = app.store.user_by_name(&user.name).await.map_err(AccountError::Store)?;
    let stored = stored.filter(|u| u.id == user.id).and_then(|u| u.password_hash);
    if !verify(app, stored, old).await? {
        return Err(AccountError::WrongPassword);
    }
    let hash = new_hash(app, new).await?;
    let (id, keep) = (user.id.clone(), user.session_id().to_string());
    app.writer
        .exec(move |store| async move { store.set_password(&id, &hash, &keep).await })
        .await
        .map_err(AccountError::Store)?;
    app.sessions.forget_others(user);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_prefixes_hold_in_any_case() {
        for name in ["anon-x1", "Anon-x1", "ANON_7", "anon", "AI", "ai9", "Ai-level", "aI_x"] {
            assert!(reserved(name), "{name}");
        }
        for name in ["Aiden", "annie", "anonymity", "kai", "bob"] {
            assert!(!reserved(name), "{name}");
        }
    }

    /// The dummy hash is a real Argon2 hash (the same work as a stored one) that matches
    /// no password.
    #[test]
    fn the_dummy_hash_costs_a_check_and_opens_nothing() {
        let h = PasswordHash::new(dummy_hash()).unwrap();
        assert_eq!(h.algorithm, argon2::Algorithm::Argon2id.ident());
        assert!(Argon2::default().verify_password(b"", &h).is_err());
    }
}
