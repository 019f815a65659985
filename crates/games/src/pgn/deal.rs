//! A Banqi game's deal checked from its record: the revealed `Seed` must hash to the `Deal`
//! commitment, and every flip must show the piece that seed dealt.

use super::PgnGame;
use super::banqi_record::DEAL_POSITION;
use crate::AnyGame;
use cannonade_banqi::{
    Commitment, DealSeed, FullPosition, VerifyError, deal_from_seed, verify_against_deal,
};

impl PgnGame {
    /// Checks the deal of a Banqi game against its revealed seed; returns the number of
    /// moves checked.
    pub fn verify_deal(&self) -> Result<usize, VerifyError> {
        let AnyGame::Banqi(start) = self.record.start() else {
            return Err(VerifyError::Missing("public Banqi start (a Banqi game without its deal)"));
        };
        let moves = self.record.moves_text();
        if self.seed.is_none()
            && let Some(open) = self.tag(DEAL_POSITION)
        {
            // A deal given openly (Banqi's rules §9.5): its public part must be the start.
            let dealt = FullPosition::from_fen_with(open, start.options())
                .map_err(|_| VerifyError::Missing("valid deal position (DealPosition)"))?;
            if dealt.redact() != start {
                return Err(VerifyError::Missing("deal position of this start (DealPosition)"));
            }
            verify_against_deal(&dealt, &moves)?;
            return Ok(moves.len());
        }
        let deal =
            self.deal.as_deref().ok_or(VerifyError::Missing("commitment (Deal \"commit:…\")"))?;
        let seed = self.seed.as_deref().ok_or(VerifyError::Missing("seed (Seed tag)"))?;
        // Both were checked to be 64 hex digits when the game was read.
        let commitment =
            Commitment::from_hex(deal).map_err(|_| VerifyError::Missing("valid commitment"))?;
        let seed = DealSeed::from_hex(seed).map_err(|_| VerifyError::Missing("valid seed"))?;
        if !commitment.matches(&seed) {
            return Err(VerifyError::CommitmentMismatch);
        }
        verify_against_deal(&deal_from_seed(&start, &seed), &moves)?;
        Ok(moves.len())
    }
}
