//! Banqi (半棋 / 暗棋, Chinese dark chess) for Cannonade, as `shared/rules/banqi.md` defines it.
//!
//! Secrecy is a property of the types:
//! * [`Position`] is the public state (section 8.2) — face-up pieces, face-down squares, the
//!   pool counts, seats and colours, the counters and the options. It has no field that could
//!   hold a hidden identity. It implements [`Rules`](cannonade_core::Rules) with every flip a
//!   chance event whose outcomes are the kinds still face down, weighted by their counts.
//! * [`FullPosition`] adds the identities of the face-down pieces (the deal). It implements
//!   `Rules` too, resolving each flip from the deal at once; [`FullPosition::redact`] is the
//!   one way back to a `Position`.
//!
//! Deals are verifiable: a [`DealSeed`] from the operating system drives a ChaCha20 shuffle
//! ([`deal_from_seed`]); its [`Commitment`] (SHA-256) is published at the start, the seed is
//! revealed at the end and [`verify_flips`] replays the record's flips (the record itself is PGN, read by
//! `cannonade-games`).
//!
//! ```
//! use cannonade_banqi::{FullPosition, Position, Piece};
//! use cannonade_core::{Next, Rules, perft};
//!
//! // E3: the first flip decides the colours.
//! let mut game = FullPosition::from_fen(
//!     "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - K1A2B2R2N2C2P5k1a2b2r2n2c2p5 0 0 \
//!      BpAncpaNrpRPbnPPNkCbpPrKcaPCpARB").unwrap();
//! let flip = game.parse_move("a1?").unwrap();
//! assert_eq!(game.recorded_move(flip), "a1=c");
//! game.play(flip);
//! assert_eq!(game.redact().fen(),
//!            "XXXXXXXX/XXXXXXXX/XXXXXXXX/cXXXXXXX r K1A2B2R2N2C2P5k1a2b2r2n2c1p5 0 1");
//!
//! // The public view: a flip is a chance event over the pool.
//! let mut public = Position::startpos();
//! public.play(public.parse_move("d2?").unwrap());
//! assert_eq!(public.next(), Next::Chance);
//! public.resolve(Piece::from_letter('C').unwrap());
//! assert_eq!(public.fen(), "XXXXXXXX/XXXXXXXX/XXXCXXXX/XXXXXXXX b K1A2B2R2N2C1P5k1a2b2r2n2c2p5 0 1");
//! assert_eq!(perft(&FullPosition::from_fen("7P/3k4/2nKp3/3c4 r - 10 57 -").unwrap(), 2), 60);
//! ```
#![forbid(unsafe_code)]

mod bfen;
mod deal;
mod full;
mod game;
mod hash;
mod judge;
pub mod misty;
mod movegen;
mod moves;
mod notation;
mod options;
mod piece;
mod position;
#[cfg(any(test, feature = "testkit"))]
mod reference;
mod rules;
mod square;

pub use bfen::{FenError, Setup};
pub use deal::{
    Commitment, DealSeed, SeedError, VerifyError, deal_from_seed, verify_against_deal, verify_flips,
};
pub use full::FullPosition;
pub use moves::{Move, MoveKind};
pub use notation::{MoveError, MoveSyntax, recorded_flip};
pub use options::{CannonRule, ICGA_NOPROG_LIMIT, Options, OptionsError, UNIMPLEMENTED};
pub use piece::{Colour, FULL_SET, Kind, Piece};
pub use position::{Cell, Position};
pub use square::Square;

/// The registry name of the game.
pub const NAME: &str = "banqi";

/// A position string of either kind: five fields (public) or a sixth with the hidden
/// identities (full). A pending flip (`d2?`) makes a public position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    /// A public BFEN.
    Public(Position),
    /// A full BFEN.
    Full(FullPosition),
}

impl AnyPosition {
    /// Reads a public or full BFEN under the given options.
    pub fn from_fen_with(text: &str, options: Options) -> Result<AnyPosition, FenError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        match fields.get(5) {
            Some(f) if !f.ends_with('?') => {
                FullPosition::from_fen_with(text, options).map(AnyPosition::Full)
            }
            _ => Position::from_fen_with(text, options).map(AnyPosition::Public),
        }
    }

    /// The public position (redacting a full one).
    pub fn public(&self) -> Position {
        match self {
            AnyPosition::Public(p) => p.clone(),
            AnyPosition::Full(f) => f.redact(),
        }
    }
}

#[cfg(test)]
mod tests;
