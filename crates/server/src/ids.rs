//! Random identifiers and session tokens from the operating system's CSPRNG.

use rand_core::{OsRng, TryRngCore};
use sha2::{Digest, Sha256};

/// `n` random bytes; falls back to a clock-and-counter mix only if the OS source fails, so a
/// broken random source never panics the server (ids stay unique, tokens get logged).
pub(crate) fn random_bytes<const N: usize>() -> [u8; N] {
    let mut out = [0u8; N];
    if OsRng.try_fill_bytes(&mut out).is_err() {
        tracing::error!("the OS random source failed; ids fall back to a hash of the clock");
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let h = Sha256::digest(format!("{t}:{n}"));
        for (o, b) in out.iter_mut().zip(h.iter().cycle()) {
            *o = *b;
        }
    }
    out
}

const ALPHABET: &[u8; 32] = b"abcdefghjkmnpqrstuvwxyz23456789z";

/// A short id for games, seeks and invites (10 characters, 50 bits).
pub fn short_id() -> String {
    random_bytes::<10>().iter().map(|b| ALPHABET[(b & 31) as usize] as char).collect()
}

/// A session token: 32 random bytes as hex.
pub fn token() -> String {
    hex(&random_bytes::<32>())
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
