//! A user as the server holds them: who they are, their session's token hash, and whether
//! they are in the store yet (an anonymous user is written with their first seat, by the
//! writer). No server state: the sessions (`session.rs`) make and end them.

use crate::ids;
use cannonade_store::{NewPlayer, User};
use cannonade_wire::{ErrorCode, UserInfo};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

/// A session's user.
#[derive(Debug)]
pub struct UserCtx {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// An account (may play rated games).
    pub account: bool,
    pub(crate) token_hash: String,
    pub(crate) persisted: AtomicBool,
    /// When the session was last used (ms since the Unix epoch).
    pub(crate) last_ms: AtomicI64,
    /// When this node last read the session from the store: a session ended on another
    /// node ends here at the next read.
    pub(crate) checked_ms: AtomicI64,
    /// Wakes this session's idle sockets when it ends (`session::close_ended`).
    pub(crate) ended: tokio::sync::Notify,
    /// The session ended because a login or registration replaced it.
    pub(crate) replaced: AtomicBool,
}

impl UserCtx {
    /// A user whose socket is on another node, as that node vouched for it (already stored
    /// if it holds a seat).
    pub fn remote(info: UserInfo) -> UserCtx {
        UserCtx::new(info.id, info.name, info.account, String::new(), true)
    }

    pub(crate) fn new(
        id: String,
        name: String,
        account: bool,
        token_hash: String,
        saved: bool,
    ) -> UserCtx {
        let now = ids::now_ms();
        UserCtx {
            id,
            name,
            account,
            token_hash,
            persisted: AtomicBool::new(saved),
            last_ms: AtomicI64::new(now),
            checked_ms: AtomicI64::new(now),
            ended: tokio::sync::Notify::new(),
            replaced: AtomicBool::new(false),
        }
    }

    /// Why a socket of this session closes once the session has ended: a login or
    /// registration replaced it, or it was ended (logout, the session list, a new password,
    /// expiry).
    pub fn end_notice(&self) -> (ErrorCode, &'static str) {
        if self.replaced.load(Ordering::Relaxed) {
            (ErrorCode::SessionReplaced, "this session was replaced by a login")
        } else {
            (ErrorCode::Forbidden, "this session has ended: log in again")
        }
    }

    /// The user as the wire shows it.
    pub fn info(&self) -> UserInfo {
        UserInfo { id: self.id.clone(), name: self.name.clone(), account: self.account }
    }

    /// The hash of this session's token: the id it is listed and ended by.
    pub fn session_id(&self) -> &str {
        &self.token_hash
    }
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
