//! Match statistics: score, Elo difference with a 95 % interval, and the sequential
//! probability ratio test (the normal approximation fishtest uses).

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won by the first engine.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost by the first engine.
    pub losses: u32,
}

/// The Elo difference that a score fraction means.
fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference.
fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score fraction (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 { 0.5 } else { (self.wins as f64 + self.draws as f64 / 2.0) / n as f64 }
    }

    /// Variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// The Elo difference and the half-width of its 95 % interval.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let s = self.score();
        let se = (self.variance() / n).sqrt();
        let (lo, hi) = (elo_of(s - 1.96 * se), elo_of(s + 1.96 * se));
        (elo_of(s), (hi - lo) / 2.0)
    }

    /// The log-likelihood ratio of H1 (Elo `elo1`) against H0 (Elo `elo0`).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let var = self.variance();
        if self.games() == 0 || var == 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        let n = self.games() as f64;
        n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }
}

/// An SPRT of H0: Elo = `elo0` against H1: Elo = `elo1` with error rates `alpha` and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1 accepted.
    H1,
    /// H0 accepted.
    H0,
    /// More games needed.
    Continue,
}

impl Sprt {
    /// The bounds (lower, upper) of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The verdict on a tally.
    pub fn verdict(&self, t: &Tally) -> Verdict {
        let llr = t.llr(self.elo0, self.elo1);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo() {
        let t = Tally { wins: 10, draws: 20, losses: 10 };
        let (elo, margin) = t.elo();
        assert!(elo.abs() < 1e-9);
        assert!(margin > 0.0 && margin < 200.0);
    }

    #[test]
    fn elo_grows_with_score_and_interval_shrinks_with_games() {
        let a = Tally { wins: 30, draws: 10, losses: 10 };
        let b = Tally { wins: 60, draws: 20, losses: 20 };
        assert!(a.elo().0 > 100.0);
        assert!((a.elo().0 - b.elo().0).abs() < 1e-9);
        assert!(b.elo().1 < a.elo().1);
    }

    #[test]
    fn sprt_decides_clear_cases() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        assert_eq!(sprt.verdict(&Tally { wins: 600, draws: 200, losses: 200 }), Verdict::H1);
        assert_eq!(sprt.verdict(&Tally { wins: 200, draws: 200, losses: 600 }), Verdict::H0);
        assert_eq!(sprt.verdict(&Tally { wins: 3, draws: 2, losses: 3 }), Verdict::Continue);
    }
}
