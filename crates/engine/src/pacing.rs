//! How long the engine takes to answer a person: a natural pause, not the 7–11 ms a search
//! at a low level takes (engine-strength issue, item 5). Stronger levels think longer, busy
//! positions longer than quiet ones, an only move, an obvious recapture and the opening come
//! quickly, and a low clock is never spent on show.

use crate::Level;
use std::time::Duration;

/// What the pause depends on.
#[derive(Clone, Copy, Debug)]
pub struct Pacing {
    /// The engine's level.
    pub level: Level,
    /// Legal moves in the position answered (a Banqi flip counts as one).
    pub legal_moves: usize,
    /// Moves the engine has played in this game so far.
    pub own_moves: u32,
    /// The answer takes back material just taken (the opponent captured, the engine
    /// captures): a person sees such a move at once.
    pub recapture: bool,
    /// The engine's time left and increment, in milliseconds; `None` in an untimed game. The
    /// time left is the shorter of its clock and a scored format's game timer.
    pub clock: Option<(u64, u64)>,
    /// Varies the pause from move to move (the game's id and ply hashed, say): the same
    /// inputs always give the same pause, so the server's tests are repeatable.
    pub seed: u64,
}

/// The longest pause, whatever the level and position.
pub const MAX_PAUSE: Duration = Duration::from_millis(4_000);

/// Below this much time left the engine answers at once.
pub const LOW_CLOCK_MS: u64 = 30_000;

impl Pacing {
    /// The time from the opponent's move to the engine's answer (search included: a search
    /// that took longer is not paused further).
    pub fn pause(&self) -> Duration {
        if let Some((left, _)) = self.clock
            && left < LOW_CLOCK_MS
        {
            return Duration::ZERO;
        }
        // 0.7 s at level 1 to 2.0 s at level 10 for a position of 20 to 40 moves.
        let base = 560.0 + 145.0 * f64::from(self.level.number());
        let busy = match self.legal_moves {
            0 | 1 => 0.3,
            n => (n as f64 / 30.0).clamp(0.6, 1.6),
        };
        let opening = if self.own_moves < 4 { 0.5 } else { 1.0 };
        let obvious = if self.recapture { 0.5 } else { 1.0 };
        // ±30 %, from the seed.
        let jitter = 0.7 + 0.6 * unit(self.seed);
        let mut ms = base * busy * opening * obvious * jitter;
        if let Some((left, increment)) = self.clock {
            // A person keeps most of a clock: at most 3 % of it and half the increment.
            ms = ms.min(left as f64 * 0.03 + increment as f64 * 0.5);
        }
        Duration::from_millis(ms as u64).min(MAX_PAUSE)
    }
}

/// A number in [0, 1) from `seed`.
fn unit(seed: u64) -> f64 {
    (crate::search::mix(seed.wrapping_add(0x9E37_79B9_7F4A_7C15)) >> 11) as f64
        / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pacing(level: u8, legal_moves: usize, own_moves: u32, clock: Option<(u64, u64)>) -> Pacing {
        let level = Level::new(level).unwrap();
        Pacing { level, legal_moves, own_moves, recapture: false, clock, seed: 7 }
    }

    /// A natural pause: well above a search's few milliseconds, below [`MAX_PAUSE`].
    #[test]
    fn every_level_pauses_like_a_person() {
        for level in 1..=10 {
            for seed in 0..200 {
                let p = Pacing { seed, ..pacing(level, 35, 10, None) }.pause();
                assert!(p >= Duration::from_millis(300) && p <= MAX_PAUSE, "{level} {seed}: {p:?}");
            }
        }
    }

    /// Same seed, same position: a stronger level never answers sooner; a busier position
    /// never sooner than a quieter one; an only move and the opening come quickly.
    #[test]
    fn stronger_levels_and_busier_positions_take_longer() {
        for level in 1..10 {
            assert!(pacing(level, 30, 10, None).pause() <= pacing(level + 1, 30, 10, None).pause());
        }
        for n in [2, 10, 20, 30, 45] {
            assert!(pacing(5, n, 10, None).pause() <= pacing(5, n + 5, 10, None).pause(), "{n}");
        }
        assert!(pacing(10, 1, 10, None).pause() < pacing(1, 30, 10, None).pause());
        assert!(pacing(5, 30, 1, None).pause() < pacing(5, 30, 10, None).pause());
        let recapture = Pacing { recapture: true, ..pacing(5, 30, 10, None) };
        assert!(recapture.pause() < pacing(5, 30, 10, None).pause());
    }

    fn any_pacing() -> impl Strategy<Value = Pacing> {
        let clock = prop_oneof![
            Just(None),
            (0u64..20_000_000, 0u64..60_000).prop_map(Some),
            // Correspondence: days per move.
            (0u64..14 * 86_400_000, Just(0u64)).prop_map(Some),
        ];
        (1u8..=10, 0usize..300, 0u32..200, any::<bool>(), clock, any::<u64>()).prop_map(
            |(level, legal_moves, own_moves, recapture, clock, seed)| Pacing {
                level: Level::new(level).unwrap(),
                legal_moves,
                own_moves,
                recapture,
                clock,
                seed,
            },
        )
    }

    proptest! {
        /// Whatever the level, position and clock: never more than [`MAX_PAUSE`], never
        /// more than 3 % of the clock and half the increment, nothing on a low clock.
        #[test]
        fn the_pause_stays_within_the_clock(p in any_pacing()) {
            let pause = p.pause();
            prop_assert!(pause <= MAX_PAUSE);
            if let Some((left, increment)) = p.clock {
                prop_assert!(pause.as_millis() as u64 <= left * 3 / 100 + increment / 2 + 1);
                if left < LOW_CLOCK_MS {
                    prop_assert_eq!(pause, Duration::ZERO);
                }
            }
            prop_assert_eq!(pause, p.pause());
        }

        /// The same move in a position with several: an only move is never slower, an obvious
        /// recapture never slower than the same position without one.
        #[test]
        fn easy_moves_are_never_slower(p in any_pacing()) {
            let only = Pacing { legal_moves: 1, ..p }.pause();
            let several = Pacing { legal_moves: p.legal_moves.max(2), ..p }.pause();
            prop_assert!(only <= several);
            let recapture = Pacing { recapture: true, ..p }.pause();
            let other = Pacing { recapture: false, ..p }.pause();
            prop_assert!(recapture <= other);
        }
    }

    /// Never when the clock is low, and never a large share of the clock.
    #[test]
    fn a_low_clock_is_not_spent_on_show() {
        assert_eq!(pacing(10, 40, 20, Some((LOW_CLOCK_MS - 1, 0))).pause(), Duration::ZERO);
        for left in [LOW_CLOCK_MS, 45_000, 60_000, 180_000] {
            let p = pacing(10, 40, 20, Some((left, 0))).pause();
            assert!(p.as_millis() as u64 <= left * 3 / 100, "{left}: {p:?}");
        }
        // An increment pays for a pause.
        let bare = pacing(8, 40, 20, Some((40_000, 0))).pause();
        assert!(pacing(8, 40, 20, Some((40_000, 2_000))).pause() > bare);
    }

    /// The pause varies from move to move, and the same move gets the same pause.
    #[test]
    fn the_seed_varies_the_pause_repeatably() {
        let pauses: std::collections::HashSet<Duration> =
            (0..50).map(|seed| Pacing { seed, ..pacing(5, 30, 10, None) }.pause()).collect();
        assert!(pauses.len() > 25, "{}", pauses.len());
        assert_eq!(pacing(5, 30, 10, None).pause(), pacing(5, 30, 10, None).pause());
    }
}
