//! The pure part of a review: an engine value as a win chance, a move's loss judged as an
//! inaccuracy, a mistake or a blunder, and accuracy figures. No search here, so every rule
//! is tested on numbers alone (docs/analysis.md gives the reasons for each constant).

use crate::MATE;
use crate::search::MATE_BOUND;
use cannonade_games::GameKind;
use serde::{Deserialize, Serialize};

/// An engine value for the side to move: centipawns, or a forced mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    /// Centipawns (positive: the mover is better).
    Cp(i32),
    /// Mate in this many of the mover's moves (negative: the mover is mated).
    Mate(i32),
}

/// Centipawns a mate stands for when a mate meets centipawns (in a loss), larger than any
/// material balance of the four games.
pub const MATE_CP: i32 = 10_000;

impl Eval {
    /// The value of a search score (mate scores are `MATE - plies`).
    pub fn from_score(score: i32) -> Eval {
        if score.abs() >= MATE_BOUND {
            let plies = MATE - score.abs();
            let moves = (plies + 1) / 2;
            Eval::Mate(if score > 0 { moves.max(1) } else { -moves.max(1) })
        } else {
            Eval::Cp(score)
        }
    }

    /// Centipawns, a mate counted as [`MATE_CP`] and centipawns capped there.
    pub fn cp(self) -> i32 {
        match self {
            Eval::Cp(c) => c.clamp(-MATE_CP, MATE_CP),
            Eval::Mate(m) if m > 0 => MATE_CP,
            Eval::Mate(_) => -MATE_CP,
        }
    }

    /// As PGN's `[%eval …]` writes it: pawns with two decimals, or `#n` / `#-n`.
    pub fn pgn(self) -> String {
        match self {
            Eval::Cp(c) => {
                let sign = if c < 0 { "-" } else { "" };
                format!("{sign}{}.{:02}", c.unsigned_abs() / 100, c.unsigned_abs() % 100)
            }
            Eval::Mate(m) => format!("#{m}"),
        }
    }
}

/// How bad a move was, from the mover's win chance lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// A small loss (PGN `?!`, NAG 6).
    Inaccuracy,
    /// A loss that matters (PGN `?`, NAG 2).
    Mistake,
    /// A loss that changes the game (PGN `??`, NAG 4).
    Blunder,
}

impl Judgement {
    /// The PGN numeric annotation glyph.
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The mark people write after the move.
    pub fn mark(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// Per game: the logistic's slope and the win-chance losses of the three judgements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// Slope of the logistic, per centipawn: `ln 3 / k` where `k` is the centipawns of a
    /// minor piece of the game, so a minor piece up is a 75 % win chance, as in chess.
    pub slope: f64,
    /// Losses of win chance (on the 0 to 1 scale) from which a move is an inaccuracy, a
    /// mistake, a blunder.
    pub thresholds: [f64; 3],
}

impl Scale {
    /// The scale of a game (docs/analysis.md).
    pub fn of(kind: GameKind) -> Scale {
        let ln3 = 3f64.ln();
        match kind {
            // A horse or cannon (420, 460).
            GameKind::Xiangqi => Scale { slope: ln3 / 440.0, thresholds: [0.05, 0.10, 0.15] },
            // A cannon (200): the piece that decides most Banqi endgames after the general;
            // the thresholds are wider because every value is an expectation over the
            // face-down pieces, which a shallow search sees coarsely.
            GameKind::Banqi => Scale { slope: ln3 / 200.0, thresholds: [0.075, 0.125, 0.175] },
            // A cavalry or machine gun (330, 360).
            GameKind::ChessBattle => Scale { slope: ln3 / 345.0, thresholds: [0.05, 0.10, 0.15] },
            // An artillery (300).
            GameKind::Commander => Scale { slope: ln3 / 300.0, thresholds: [0.05, 0.10, 0.15] },
        }
    }

    /// The mover's chance to win, 0 to 1, of a value (a draw counts half).
    pub fn win_chance(&self, eval: Eval) -> f64 {
        1.0 / (1.0 + (-self.slope * eval.cp() as f64).exp())
    }

    /// The judgement of a move that takes the mover's value from `best` (the position's
    /// value, best play) to `played`; `None` for a good move.
    pub fn judge(&self, best: Eval, played: Eval) -> Option<Judgement> {
        let lost = self.win_chance(best) - self.win_chance(played);
        let [inaccuracy, mistake, blunder] = self.thresholds;
        if lost >= blunder {
            Some(Judgement::Blunder)
        } else if lost >= mistake {
            Some(Judgement::Mistake)
        } else if lost >= inaccuracy {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }
}

/// The accuracy of one move, 0 to 100, from the win chances (0 to 1) before and after it:
/// 100 for no loss, falling off exponentially with the percentage points lost (the curve
/// lichess fitted to its games: `103.17 e^(-0.0435 Δ) - 3.17`).
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    let lost = ((before - after) * 100.0).max(0.0);
    (103.1668 * (-0.04354 * lost).exp() - 3.1669).clamp(0.0, 100.0)
}

/// A player's accuracy over their moves' accuracies: the mean of the arithmetic and the
/// harmonic means, so one blunder pulls the figure down more than an average would (the
/// harmonic mean punishes the worst moves) without one move deciding it. `None` for no move.
pub fn player_accuracy(moves: &[f64]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let n = moves.len() as f64;
    let mean = moves.iter().sum::<f64>() / n;
    // A move of accuracy 0 would make the harmonic mean 0: count it as 1.
    let harmonic = n / moves.iter().map(|a| 1.0 / a.max(1.0)).sum::<f64>();
    Some((mean + harmonic) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINDS: [GameKind; 4] =
        [GameKind::Xiangqi, GameKind::Banqi, GameKind::ChessBattle, GameKind::Commander];

    #[test]
    fn scores_become_centipawns_or_mates_in_moves() {
        assert_eq!(Eval::from_score(35), Eval::Cp(35));
        assert_eq!(Eval::from_score(MATE - 1), Eval::Mate(1));
        assert_eq!(Eval::from_score(MATE - 3), Eval::Mate(2));
        assert_eq!(Eval::from_score(-(MATE - 2)), Eval::Mate(-1));
        assert_eq!(Eval::from_score(-(MATE - 4)), Eval::Mate(-2));
        assert_eq!(Eval::Mate(-2).cp(), -MATE_CP);
        assert_eq!(
            (Eval::Cp(-5).pgn(), Eval::Cp(123).pgn(), Eval::Mate(-3).pgn()),
            ("-0.05".into(), "1.23".into(), "#-3".into())
        );
    }

    #[test]
    fn the_win_chance_rises_with_the_value_and_is_even_at_zero() {
        for kind in KINDS {
            let s = Scale::of(kind);
            assert!((s.win_chance(Eval::Cp(0)) - 0.5).abs() < 1e-9);
            let mut last = 0.0;
            for cp in (-3000..=3000).step_by(50) {
                let w = s.win_chance(Eval::Cp(cp));
                assert!(w > last && (0.0..=1.0).contains(&w), "{kind:?} {cp}");
                last = w;
            }
            assert!(s.win_chance(Eval::Mate(3)) > 0.999 && s.win_chance(Eval::Mate(-1)) < 0.001);
        }
    }

    #[test]
    fn the_same_loss_counts_less_when_already_winning_by_a_lot() {
        let s = Scale::of(GameKind::Xiangqi);
        // A chariot thrown away from an equal game is a blunder; from nine chariots up,
        // nothing.
        assert_eq!(s.judge(Eval::Cp(0), Eval::Cp(-950)), Some(Judgement::Blunder));
        assert_eq!(s.judge(Eval::Cp(9000), Eval::Cp(8050)), None);
        // Worse losses never judge milder.
        let mut last = None;
        for loss in (0..2000).step_by(10) {
            let j = s.judge(Eval::Cp(100), Eval::Cp(100 - loss));
            assert!(j >= last, "{loss}");
            last = j;
        }
        assert_eq!(last, Some(Judgement::Blunder));
        // A gain (the search saw more after the move) is never a mistake.
        assert_eq!(s.judge(Eval::Cp(0), Eval::Cp(300)), None);
        // Missing a mate for an overwhelming position is no blunder; walking into one is.
        assert_eq!(s.judge(Eval::Mate(2), Eval::Cp(3000)), None);
        assert_eq!(s.judge(Eval::Cp(0), Eval::Mate(-2)), Some(Judgement::Blunder));
    }

    #[test]
    fn thresholds_rise_and_nags_are_the_standard_ones() {
        for kind in KINDS {
            let [a, b, c] = Scale::of(kind).thresholds;
            assert!(0.0 < a && a < b && b < c && c < 0.5);
        }
        let nags: Vec<u8> = [Judgement::Inaccuracy, Judgement::Mistake, Judgement::Blunder]
            .map(Judgement::nag)
            .into();
        assert_eq!(nags, [6, 2, 4]);
    }

    #[test]
    fn accuracy_is_full_without_loss_and_falls_with_it() {
        assert!((move_accuracy(0.6, 0.6) - 100.0).abs() < 0.01);
        assert!((move_accuracy(0.6, 0.7) - 100.0).abs() < 0.01);
        assert!(move_accuracy(0.6, 0.5) < move_accuracy(0.6, 0.55));
        assert_eq!(move_accuracy(1.0, 0.0), 0.0);
        assert_eq!(player_accuracy(&[]), None);
        let steady = player_accuracy(&[80.0, 80.0, 80.0, 80.0]).unwrap();
        let one_blunder = player_accuracy(&[100.0, 100.0, 100.0, 20.0]).unwrap();
        assert!((steady - 80.0).abs() < 1e-9);
        // The same mean with one bad move scores lower.
        assert!(one_blunder < steady);
        assert!(player_accuracy(&[0.0, 100.0]).is_some_and(|a| a > 0.0 && a < 100.0));
    }
}
