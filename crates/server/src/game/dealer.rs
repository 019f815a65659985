//! Banqi's secret: the deal drawn from a seed the server keeps until the end.
//!
//! Neither [`cannonade_banqi::FullPosition`] nor [`DealSeed`] implements `Serialize` or
//! `Display`, and the wire types accept positions only through
//! `cannonade_wire::PublicPosition::of`, which redacts: handing the deal to a message does not
//! compile. The seed leaves only through [`Dealer::reveal_seed`], called when the game ends.

use cannonade_banqi::{self as banqi, Commitment, DealSeed, FullPosition, Piece};

/// The deal of one Banqi game. Its `Debug` shows nothing of the deal or the seed.
#[derive(Clone)]
pub struct Dealer {
    deal: FullPosition,
    seed: DealSeed,
}

impl Dealer {
    /// The deal of `seed` for the public start `start`.
    pub fn new(start: &banqi::Position, seed: DealSeed) -> Dealer {
        Dealer { deal: banqi::deal_from_seed(start, &seed), seed }
    }

    /// The piece under a face-down square. Face-down pieces never move, so the start deal
    /// answers for the whole game.
    pub fn identity(&self, square: &str) -> Option<Piece> {
        banqi::Square::parse(square).and_then(|sq| self.deal.identity(sq))
    }

    /// The commitment published at the start.
    pub fn commitment(&self) -> Commitment {
        self.seed.commitment()
    }

    /// The seed as hex: for the store (server side) and, at the end, for everyone.
    pub fn reveal_seed(&self) -> String {
        self.seed.to_hex()
    }

    /// The seed itself (for the exported record).
    pub fn seed(&self) -> &DealSeed {
        &self.seed
    }
}

impl std::fmt::Debug for Dealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Dealer(commitment {})", self.seed.commitment())
    }
}
