//! Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), one game at a time, and
//! the speed categories ratings are kept by.

use cannonade_wire::TimeControl;
use std::f64::consts::PI;

/// A rating whose deviation is above this is provisional: shown with `?` and left off the
/// leaderboards (lichess's bound).
pub const PROVISIONAL_RD: f64 = 110.0;

/// The speed category of a clock, as lichess splits them: ratings are kept per game and
/// speed, as a player's bullet play says little of their classical play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Speed {
    /// Under 3 minutes estimated.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// Days per move.
    Correspondence,
}

impl Speed {
    /// Every category, fastest first.
    pub const ALL: [Speed; 5] =
        [Speed::Bullet, Speed::Blitz, Speed::Rapid, Speed::Classical, Speed::Correspondence];

    /// The category of a clock setting: a correspondence clock is `Correspondence`
    /// whatever its days, any other as [`Speed::of`] says.
    pub fn of_clock(tc: TimeControl) -> Option<Speed> {
        if tc.is_correspondence() {
            return Some(Speed::Correspondence);
        }
        Speed::of(tc.initial_ms, tc.increment_ms)
    }

    /// The category of a clock by its estimated duration per player, initial time + 40 ×
    /// increment (lichess's estimate of a game of 40 moves); `None` for an untimed game,
    /// which is never rated (the lobby refuses rated untimed seeks).
    pub fn of(initial_ms: u64, increment_ms: u64) -> Option<Speed> {
        if initial_ms == 0 && increment_ms == 0 {
            return None;
        }
        let estimate = initial_ms.saturating_add(increment_ms.saturating_mul(40));
        const MINUTE: u64 = 60_000;
        Some(match estimate {
            e if e < 3 * MINUTE => Speed::Bullet,
            e if e < 8 * MINUTE => Speed::Blitz,
            e if e < 25 * MINUTE => Speed::Rapid,
            _ => Speed::Classical,
        })
    }

    /// Its name in URLs, the store and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The category named `name` (as [`Speed::name`] writes it).
    pub fn parse(name: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.name() == name)
    }
}

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

impl From<&cannonade_store::RatingRow> for Rating {
    fn from(r: &cannonade_store::RatingRow) -> Rating {
        Rating { rating: r.rating, rd: r.rd, volatility: r.volatility }
    }
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
    fn speeds_follow_lichess_bounds() {
        let m = 60_000;
        assert_eq!(Speed::of(0, 0), None);
        assert_eq!(Speed::of(m, 0), Some(Speed::Bullet));
        assert_eq!(Speed::of(2 * m, 1000), Some(Speed::Bullet), "2+1 is 2:40");
        assert_eq!(Speed::of(3 * m, 0), Some(Speed::Blitz), "3 minutes is no longer bullet");
        assert_eq!(Speed::of(3 * m, 2000), Some(Speed::Blitz));
        assert_eq!(Speed::of(5 * m, 3000), Some(Speed::Blitz), "5+3 is 7 minutes");
        assert_eq!(Speed::of(10 * m, 5000), Some(Speed::Rapid));
        assert_eq!(Speed::of(25 * m, 0), Some(Speed::Classical));
        assert_eq!(Speed::of(u64::MAX, u64::MAX), Some(Speed::Classical));
        for s in Speed::ALL {
            assert_eq!(Speed::parse(s.name()), Some(s));
        }
        assert_eq!(Speed::parse("Blitz"), None);
        assert_eq!(Speed::of_clock(TimeControl::correspondence(1)), Some(Speed::Correspondence));
        assert_eq!(Speed::of_clock(TimeControl::fischer(5 * m, 3000)), Some(Speed::Blitz));
    }

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
