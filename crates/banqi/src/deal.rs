//! Verifiable deals (8.3.7, 8.5 "pre-dealt", D-10): a secret seed from the operating system,
//! its SHA-256 commitment published at the start, the seed revealed at the end, and a replay
//! that checks every recorded flip against the deal the seed determines.
//!
//! How a seed determines the deal (also in `docs/rules/banqi.md`):
//! 1. The generator is ChaCha20 (`rand_chacha::ChaCha20Rng::from_seed`): key = the 32 seed
//!    bytes, nonce 0, block counter from 0; its keystream is read as little-endian `u32`s.
//! 2. `below(n)`: draw `x` until `x < n · ⌊2³² / n⌋`, return `x mod n` (no bias).
//! 3. The pool is listed in pool order `K A B R N C P k a b r n c p`, each piece as often as
//!    its count (the standard start: `K A A B B R R N N C C P P P P P k a a …`).
//! 4. Fisher–Yates: for `i` from `len − 1` down to 1, swap entries `i` and `below(i + 1)`.
//! 5. The `k`-th entry is the identity of the `k`-th face-down square in square-index order
//!    (`a1`, `b1`, …, `h1`, `a2`, …, `h4`).

use crate::full::FullPosition;
use crate::notation::{MoveError, MoveSyntax};
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;
use cannonade_core::Rules;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng, TryRngCore};
use sha2::{Digest, Sha256};
use std::fmt;

/// The secret 32-byte seed of a game's deal. Its `Debug` form does not show it.
#[derive(Clone, PartialEq, Eq)]
pub struct DealSeed([u8; 32]);

/// The SHA-256 hash of a [`DealSeed`], published when the game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Commitment([u8; 32]);

/// Why a seed or commitment could not be made or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeedError {
    /// The operating system's random source failed.
    Os(String),
    /// Not 64 hexadecimal digits.
    Hex(String),
}

impl fmt::Display for SeedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeedError::Os(e) => write!(f, "the operating system's random source failed: {e}"),
            SeedError::Hex(t) => write!(f, "`{t}` is not 64 hexadecimal digits"),
        }
    }
}

impl std::error::Error for SeedError {}

fn to_hex(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(text: &str) -> Result<[u8; 32], SeedError> {
    let err = || SeedError::Hex(text.to_string());
    let t = text.trim();
    if t.len() != 64 || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(err());
    }
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&t[2 * i..2 * i + 2], 16).map_err(|_| err())?;
    }
    Ok(out)
}

impl DealSeed {
    /// A fresh seed from the operating system's cryptographically secure source.
    pub fn random() -> Result<DealSeed, SeedError> {
        let mut seed = [0u8; 32];
        rand_core::OsRng.try_fill_bytes(&mut seed).map_err(|e| SeedError::Os(e.to_string()))?;
        Ok(DealSeed(seed))
    }

    /// A seed from known bytes (tests, replays).
    pub const fn from_bytes(bytes: [u8; 32]) -> DealSeed {
        DealSeed(bytes)
    }

    /// The seed bytes.
    pub fn bytes(&self) -> [u8; 32] {
        self.0
    }

    /// The seed as 64 lower-case hexadecimal digits (revealed when the game ends).
    pub fn to_hex(&self) -> String {
        to_hex(&self.0)
    }

    /// Reads 64 hexadecimal digits.
    pub fn from_hex(text: &str) -> Result<DealSeed, SeedError> {
        from_hex(text).map(DealSeed)
    }

    /// The commitment: SHA-256 of the 32 seed bytes.
    pub fn commitment(&self) -> Commitment {
        Commitment(Sha256::digest(self.0).into())
    }
}

impl fmt::Debug for DealSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DealSeed(<secret>)")
    }
}

impl Commitment {
    /// Reads 64 hexadecimal digits.
    pub fn from_hex(text: &str) -> Result<Commitment, SeedError> {
        from_hex(text).map(Commitment)
    }

    /// Whether `seed` is the seed committed to.
    pub fn matches(&self, seed: &DealSeed) -> bool {
        seed.commitment() == *self
    }
}

impl fmt::Display for Commitment {
    /// 64 lower-case hexadecimal digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_hex(&self.0))
    }
}

/// An unbiased draw in `0..n` from the ChaCha20 stream (`n` ≥ 1).
fn below(rng: &mut ChaCha20Rng, n: u32) -> u32 {
    let limit = (1u64 << 32) / n as u64 * n as u64;
    loop {
        let x = rng.next_u32() as u64;
        if x < limit {
            return (x % n as u64) as u32;
        }
    }
}

/// The deal that `seed` determines for the face-down pieces of `start` (see the module
/// documentation for the exact procedure). A pending flip of `start` is dropped: the deal
/// covers every face-down square.
pub fn deal_from_seed(start: &Position, seed: &DealSeed) -> FullPosition {
    let mut rng = ChaCha20Rng::from_seed(seed.0);
    let mut pieces: Vec<Piece> = Piece::ALL
        .into_iter()
        .flat_map(|p| std::iter::repeat_n(p, start.pool_count(p) as usize))
        .collect();
    for i in (1..pieces.len()).rev() {
        let j = below(&mut rng, i as u32 + 1) as usize;
        pieces.swap(i, j);
    }
    let mut public = start.clone();
    public.pending = None;
    public.hash = public.compute_hash();
    let ids: Vec<(Square, Piece)> = Square::in_mask(public.down).zip(pieces).collect();
    match FullPosition::new(public, &ids) {
        Ok(full) => full,
        // The pieces are exactly the pool and the squares exactly the face-down ones.
        Err(e) => unreachable!("a seeded deal always fits its position: {e}"),
    }
}

/// Why a record's flips could not be verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The revealed seed does not hash to the published commitment.
    CommitmentMismatch,
    /// The record has no seed (or no commitment) to verify against.
    Missing(&'static str),
    /// A recorded flip shows another piece than the seed dealt (the first such flip).
    FlipMismatch {
        /// The ply, counted from 1 at the record's start.
        ply: usize,
        /// The square flipped.
        square: Square,
        /// The piece the record says was revealed.
        recorded: Option<Piece>,
        /// The piece the seed dealt there.
        dealt: Option<Piece>,
    },
    /// A recorded move is not legal (or not readable) in the replayed position.
    Move {
        /// The ply, counted from 1.
        ply: usize,
        /// The move as recorded.
        text: String,
        /// What is wrong with it.
        error: MoveError,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |p: &Option<Piece>| p.map_or("nothing".to_string(), |p| format!("`{p}`"));
        match self {
            VerifyError::CommitmentMismatch => {
                f.write_str("the revealed seed does not match the published commitment")
            }
            VerifyError::Missing(what) => write!(f, "the record has no {what}"),
            VerifyError::FlipMismatch { ply, square, recorded, dealt } => write!(
                f,
                "ply {ply}: the flip of {square} is recorded as {} but the seed dealt {}",
                name(recorded),
                name(dealt)
            ),
            VerifyError::Move { ply, text, error } => write!(f, "ply {ply}: `{text}`: {error}"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Replays `moves` (recorded forms, such as `d2=C` and `a1xa3`) from `start` on the deal
/// `deal` and checks that every flip revealed the dealt piece. Returns the final omniscient
/// position, or the first mismatch or illegal move.
pub fn verify_against_deal<S: AsRef<str>>(
    deal: &FullPosition,
    moves: &[S],
) -> Result<FullPosition, VerifyError> {
    let mut full = deal.clone();
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        let ply = i + 1;
        let err = |error| VerifyError::Move { ply, text: text.to_string(), error };
        let syntax = MoveSyntax::parse(text).map_err(err)?;
        let mv = full.public().check_syntax(&syntax, text).map_err(err)?;
        if let MoveSyntax::Flip { square, revealed } = syntax {
            let dealt = full.identity(square);
            if revealed.is_none() || revealed != dealt {
                return Err(VerifyError::FlipMismatch { ply, square, recorded: revealed, dealt });
            }
        }
        full.play(mv);
    }
    Ok(full)
}

/// Replays `moves` from `start` with the deal of `seed` ([`deal_from_seed`]) and confirms
/// that every recorded flip follows from the seed; the error names the first mismatch.
pub fn verify_flips<S: AsRef<str>>(
    start: &Position,
    seed: &DealSeed,
    moves: &[S],
) -> Result<FullPosition, VerifyError> {
    verify_against_deal(&deal_from_seed(start, seed), moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_commit_and_deal_reproducibly() {
        let seed = DealSeed::from_bytes([7; 32]);
        assert_eq!(DealSeed::from_hex(&seed.to_hex()), Ok(seed.clone()));
        assert!(seed.commitment().matches(&seed));
        assert!(!seed.commitment().matches(&DealSeed::from_bytes([8; 32])));
        assert_eq!(Commitment::from_hex(&seed.commitment().to_string()), Ok(seed.commitment()));
        assert_eq!(format!("{seed:?}"), "DealSeed(<secret>)");
        let a = deal_from_seed(&Position::startpos(), &seed);
        let b = deal_from_seed(&Position::startpos(), &seed);
        assert_eq!(a.fen(), b.fen());
        assert_ne!(
            a.fen(),
            deal_from_seed(&Position::startpos(), &DealSeed::from_bytes([8; 32])).fen()
        );
        assert!(DealSeed::random().is_ok());
        assert!(DealSeed::from_hex("xyz").is_err());
    }

    #[test]
    fn sha256_of_a_known_seed() {
        // SHA-256 of 32 zero bytes.
        let c = DealSeed::from_bytes([0; 32]).commitment().to_string();
        assert_eq!(c, "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925");
    }
}
