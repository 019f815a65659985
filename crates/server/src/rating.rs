//! Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), one game at a time.

use std::f64::consts::PI;

/// A Glicko-2 rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 at the start).
    pub rating: f64,
    /// Its deviation (350 at the start).
    pub rd: f64,
    /// Its volatility (0.06 at the start).
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating { rating: 1500.0, rd: 350.0, volatility: 0.06 }
    }
}

const SCALE: f64 = 173.7178;
const TAU: f64 = 0.5;

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

impl Rating {
    /// The rating after one game against `opponent` with `score` (1 win, 0.5 draw, 0 loss).
    pub fn after(self, opponent: Rating, score: f64) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.rd / SCALE;
        let mu_j = (opponent.rating - 1500.0) / SCALE;
        let phi_j = opponent.rd / SCALE;
        let gj = g(phi_j);
        let e = 1.0 / (1.0 + (-gj * (mu - mu_j)).exp());
        let v = 1.0 / (gj * gj * e * (1.0 - e));
        let delta = v * gj * (score - e);
        // The new volatility by the Illinois algorithm (step 5 of the paper).
        let a = (self.volatility * self.volatility).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let (mut fa, mut fb) = (f(big_a), f(big_b));
        for _ in 0..100 {
            if (big_b - big_a).abs() <= 1e-6 {
                break;
            }
            let c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = c;
            fb = fc;
        }
        let sigma = (big_a / 2.0).exp();
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * gj * (score - e);
        Rating { rating: mu_new * SCALE + 1500.0, rd: phi_new * SCALE, volatility: sigma }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_raises_a_loss_lowers_and_both_narrow_the_deviation() {
        let a = Rating::default();
        let b = Rating::default();
        let won = a.after(b, 1.0);
        let lost = b.after(a, 0.0);
        assert!(won.rating > 1500.0 && lost.rating < 1500.0);
        assert!((won.rating - 1500.0 + lost.rating - 1500.0).abs() < 1e-6, "symmetric");
        assert!(won.rd < 350.0);
        let drew = a.after(b, 0.5);
        assert!((drew.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn glickmans_example_first_game() {
        // The paper's player (1500, 200, 0.06) against (1400, 30) winning moves to about
        // 1563.6 when the three games are combined; one win alone gives a rise near +63.
        let p = Rating { rating: 1500.0, rd: 200.0, volatility: 0.06 };
        let r = p.after(Rating { rating: 1400.0, rd: 30.0, volatility: 0.06 }, 1.0);
        assert!(r.rating > 1550.0 && r.rating < 1580.0, "{r:?}");
        assert!((r.volatility - 0.06).abs() < 0.001);
    }
}
