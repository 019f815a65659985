//! What the engine's pause before answering a person is decided from, read off the game:
//! the position's legal moves, the engine's moves so far, whether its answer takes back
//! material just taken, the time it has left, and a seed from the game and the ply. The
//! pause itself is [`cannonade_engine::Pacing`] (docs/server.md, "The engine service").

use cannonade_engine::{Level, Pacing};
use cannonade_games::{AnyGame, AnyMove, AnyRecord};
use std::time::Duration;

/// The pause's inputs known before the search; the answer itself is known after it.
#[derive(Clone, Debug)]
pub struct PaceInputs {
    pacing: Pacing,
    /// The position searched.
    position: AnyGame,
    /// The opponent's last move captured.
    captured: bool,
}

impl PaceInputs {
    /// The inputs of the engine's pause at `level` in `record`'s position, ply `ply` of game
    /// `id`, having played `own_moves` moves, with `clock` (its time left — the shorter of
    /// its clock and a game timer — and increment, in ms; `None` untimed).
    pub fn read(
        record: &AnyRecord,
        level: Level,
        own_moves: u32,
        clock: Option<(u64, u64)>,
        id: &str,
        ply: u32,
    ) -> PaceInputs {
        let position = record.position();
        // A Banqi flip and its piece are two steps, neither a capture.
        let captured = record
            .len()
            .checked_sub(1)
            .and_then(|steps| record.position_at(steps))
            .is_some_and(|before| units(&before) > units(&position));
        let pacing = Pacing {
            level,
            legal_moves: position.legal_moves().len(),
            own_moves,
            recapture: false,
            clock,
            seed: seed(id, ply),
        };
        PaceInputs { pacing, position, captured }
    }

    /// The time from the opponent's move to the engine's `answer`, search included.
    pub fn pause(&self, answer: Option<AnyMove>) -> Duration {
        let recapture = self.captured && answer.is_some_and(|mv| captures(&self.position, mv));
        Pacing { recapture, ..self.pacing }.pause()
    }
}

/// Units on the board (a Commander stack is one).
fn units(position: &AnyGame) -> usize {
    position.placement().len()
}

/// Whether `mv` leaves fewer units on the board: a capture, whatever the game's way of
/// capturing (a Chess-Battle shot, a Commander strike that does not move).
fn captures(position: &AnyGame, mv: AnyMove) -> bool {
    let mut after = position.clone();
    after.play(mv).is_ok() && units(&after) < units(position)
}

/// A seed for the engine's pause at `ply` of game `id` (FNV-1a): varied from move to move
/// and game to game, and the same for the same move, so tests can repeat it.
fn seed(id: &str, ply: u32) -> u64 {
    id.bytes()
        .chain(ply.to_le_bytes())
        .fold(0xCBF2_9CE4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::GameKind;

    fn record(moves: &[&str]) -> AnyRecord {
        let mut record = AnyRecord::new(AnyGame::start(GameKind::Xiangqi).unwrap());
        for mv in moves {
            record.play_text(mv).unwrap();
        }
        record
    }

    fn inputs(record: &AnyRecord) -> PaceInputs {
        PaceInputs::read(record, Level::new(5).unwrap(), 10, None, "game", 7)
    }

    /// The cannon takes the horse and the chariot takes the cannon back: that answer is
    /// the obvious one and comes sooner than a quiet move there, or the same capture
    /// without a capture before it.
    #[test]
    fn a_recapture_comes_sooner_than_a_quiet_move() {
        let taken = record(&["b2b9"]);
        let position = taken.position();
        let back = position.parse_move("a9b9").unwrap();
        let quiet = position.parse_move("a9a8").unwrap();
        assert!(captures(&position, back));
        assert!(!captures(&position, quiet));
        let pace = inputs(&taken);
        assert!(pace.pause(Some(back)) < pace.pause(Some(quiet)));
        // No capture before: a capture is no recapture.
        let quiet_before = record(&["h2e2"]);
        let shot = quiet_before.position().parse_move("b7b0").unwrap();
        assert!(captures(&quiet_before.position(), shot));
        let pace = inputs(&quiet_before);
        assert_eq!(pace.pause(Some(shot)), pace.pause(None));
    }

    /// The seed follows the game and the ply, and nothing else.
    #[test]
    fn the_seed_is_the_game_and_ply() {
        assert_eq!(seed("game", 7), seed("game", 7));
        assert_ne!(seed("game", 7), seed("game", 8));
        assert_ne!(seed("game", 7), seed("gamf", 7));
    }
}
