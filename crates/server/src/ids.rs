//! Random identifiers and session tokens from the operating system's CSPRNG. Without it
//! nothing is made: ids and tokens must not be guessable, so a failing source is an error
//! ([`NoRandom`]), never a fallback.

use rand_core::{OsRng, TryRngCore};
use sha2::{Digest, Sha256};

/// The operating system's random source failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoRandom(pub String);

impl std::fmt::Display for NoRandom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the operating system's random source failed: {}", self.0)
    }
}

impl std::error::Error for NoRandom {}

/// The refusal a client gets: an internal error with an id to quote, the cause logged.
impl From<NoRandom> for crate::refusal::Refusal {
    fn from(e: NoRandom) -> Self {
        let id = error_id();
        tracing::error!(error_id = %id, "{e}");
        (cannonade_wire::ErrorCode::Internal, format!("internal error {id}"))
    }
}

/// `n` random bytes from the OS.
pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], NoRandom> {
    let mut out = [0u8; N];
    #[cfg(test)]
    if tests::BROKEN.get() {
        return Err(NoRandom("broken for a test".into()));
    }
    OsRng.try_fill_bytes(&mut out).map_err(|e| NoRandom(e.to_string()))?;
    Ok(out)
}

/// Crockford's base32 digits (no I, L, O, U: nothing to misread), lower-case as ids are
/// shown.
const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// `bytes` as base32 digits, one per byte (its low five bits).
fn base32(bytes: &[u8]) -> String {
    bytes.iter().map(|b| ALPHABET[(b & 31) as usize] as char).collect()
}

/// A short id for games, seeks and invites (10 characters, 50 bits).
pub fn short_id() -> Result<String, NoRandom> {
    Ok(base32(&random_bytes::<10>()?))
}

/// A random bit (who sits first).
pub fn coin() -> Result<bool, NoRandom> {
    Ok(random_bytes::<1>()?[0] & 1 == 0)
}

/// An id for an internal error, logged beside the error and given to the client to quote.
/// It needs to be unique, not secret: a counter when the random source fails (a logged
/// failure must not fail again for want of an id).
pub fn error_id() -> String {
    short_id().unwrap_or_else(|_| {
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        format!("seq-{n}")
    })
}

/// A session token: 32 random bytes as hex.
pub fn token() -> Result<String, NoRandom> {
    Ok(hex(&random_bytes::<32>()?))
}

/// What the store keeps of a token: its SHA-256, so a leaked database opens no session.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Milliseconds since the Unix epoch (for records, not for clocks).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// Makes this thread's random source fail.
        pub(super) static BROKEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// Without the OS source there are no ids and no tokens (a clock hash would be
    /// guessable), but errors still get an id to quote.
    #[test]
    fn a_failing_random_source_makes_nothing() {
        BROKEN.set(true);
        assert!(short_id().is_err());
        assert!(token().is_err());
        assert!(coin().is_err());
        let (a, b) = (error_id(), error_id());
        BROKEN.set(false);
        assert_ne!(a, b);
        assert!(short_id().is_ok());
    }

    /// Every digit of the alphabet is distinct and Crockford's: 32 symbols, no I, L, O, U,
    /// so each of the 50 bits of an id counts.
    #[test]
    fn the_alphabet_is_crockford_base32() {
        let set: std::collections::BTreeSet<u8> = ALPHABET.iter().copied().collect();
        assert_eq!(set.len(), 32, "a digit appears twice");
        for bad in [b'i', b'l', b'o', b'u'] {
            assert!(!set.contains(&bad), "{}", bad as char);
        }
        let all: Vec<u8> = (0..32).collect();
        let text = base32(&all);
        assert_eq!(text.len(), 32);
        assert_eq!(text.bytes().collect::<std::collections::BTreeSet<_>>(), set);
    }

    #[test]
    fn ids_and_tokens_have_their_lengths() {
        let id = short_id().unwrap();
        assert_eq!(id.len(), 10);
        assert!(id.bytes().all(|b| ALPHABET.contains(&b)));
        let t = token().unwrap();
        assert_eq!(t.len(), 64);
        assert_ne!(t, token().unwrap());
    }
}
