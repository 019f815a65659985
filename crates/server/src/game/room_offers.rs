//! Offers in a game room: draws, takebacks and rematches, made by one side and carried out
//! when the other agrees (at once against the engine, which takes back but declines draws,
//! and in hot-seat play).

use super::{GameRoom, refuse};
use crate::archive::stored::StoredEvent;
use crate::game::clock::Ms;
use crate::game::event::{Decision, Effect, Event};
use crate::refusal::Refusal;
use cannonade_core::Side;
use cannonade_wire::{ClockState, ErrorCode, OfferKind, Role};

impl GameRoom {
    /// A player's offer: refused, made, or carried out when the other side agreed already
    /// (or is the engine, or the same person in hot-seat play).
    pub(super) fn decide_offer(
        &self,
        role: Role,
        kind: OfferKind,
        at: Ms,
    ) -> Result<Decision, Refusal> {
        let seat = self.player_seat(role)?;
        match kind {
            OfferKind::Rematch if self.result.is_none() => {
                return refuse(ErrorCode::Invalid, "a rematch is offered after the end");
            }
            OfferKind::Rematch if self.rematch.is_some() => {
                return refuse(ErrorCode::Invalid, "the rematch is already agreed");
            }
            OfferKind::Draw | OfferKind::Takeback if self.result.is_some() => {
                return refuse(ErrorCode::GameOver, "the game is over");
            }
            OfferKind::Takeback if self.setup.rated => {
                return refuse(ErrorCode::Invalid, "takebacks are for casual games");
            }
            OfferKind::Takeback if self.moves.is_empty() => {
                return refuse(ErrorCode::Invalid, "there is no move to take back");
            }
            OfferKind::Takeback if self.takeback_reveals(seat) => {
                // Taking a flip back and flipping elsewhere would reveal the deal piece by
                // piece (hardening issue, finding 6).
                return refuse(ErrorCode::Invalid, "a flip cannot be taken back");
            }
            _ => {}
        }
        let other = seat.opponent();
        // The opponent offered the same: that is an agreement.
        if self.offers.iter().any(|(k, s)| *k == kind && *s == other.into()) || self.hotseat() {
            return self.carry_out(kind, seat, at);
        }
        if self.offers.iter().any(|(k, s)| *k == kind && *s == seat.into()) {
            return refuse(ErrorCode::Invalid, "you already made this offer");
        }
        if self.setup.players[other.index()].ai.is_some() {
            // The engine takes back and plays again; it does not agree to draws.
            return match kind {
                OfferKind::Draw => refuse(ErrorCode::Invalid, "the engine declines the draw"),
                _ => self.carry_out(kind, seat, at),
            };
        }
        Ok(Decision::game(StoredEvent::Offered { kind, seat: seat.into() }))
    }

    /// Carries out an agreed offer made by `by`.
    pub(super) fn carry_out(&self, kind: OfferKind, by: Side, at: Ms) -> Result<Decision, Refusal> {
        match kind {
            OfferKind::Draw => Ok(self.end(None, "agreement", at)),
            OfferKind::Takeback => {
                let n = self.takeback_count(by);
                let keep = self.moves.len() - n;
                // The seat of the first move taken back moves again; its clock starts (none
                // before any move is left, as at the start).
                let mut clock = self.clock.clone();
                clock.stop(at);
                let running = (keep > 0 && !clock.untimed()).then(|| self.moves[keep].seat);
                let event = StoredEvent::TakenBack {
                    moves: n as u32,
                    clock: ClockState { running, ..clock.state(at) },
                    at: None,
                };
                Ok(Decision {
                    events: vec![Event::Game(event)],
                    effects: vec![Effect::ClearProposals],
                    reply: None,
                })
            }
            OfferKind::Rematch => {
                Ok(Decision { effects: vec![Effect::CreateRematch], ..Decision::default() })
            }
        }
    }

    /// How many moves a takeback asked by `by` undoes: back to `by`'s last move (one in
    /// hot-seat play).
    fn takeback_count(&self, by: Side) -> usize {
        let n = if self.hotseat() || self.record.position().mover() != by { 1 } else { 2 };
        n.min(self.moves.len())
    }

    /// Whether a takeback asked by `by` would undo a move that revealed hidden information.
    fn takeback_reveals(&self, by: Side) -> bool {
        let n = self.takeback_count(by);
        self.record.moves().iter().rev().take(n).any(|m| m.revealed)
    }
}
