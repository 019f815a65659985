//! When a search stops, and how much of a clock one move may use.

use crate::params::{DEFAULT_MOVES_TO_GO, HARD_TIME_FACTOR, MAX_CLOCK_PERCENT, SOFT_TIME_PERCENT};
use std::time::Duration;

/// Search limits; the search stops at the first one reached (or when its stop flag is set).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Hard time limit: the search stops in the middle of an iteration.
    pub time: Option<Duration>,
    /// Soft time limit: no new iteration starts after it.
    pub soft_time: Option<Duration>,
}

/// A player's clock as `go wtime/btime winc/binc movestogo` gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left, milliseconds.
    pub remaining_ms: u64,
    /// Increment per move, milliseconds.
    pub increment_ms: u64,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

impl Limits {
    /// Soft and hard limits for one move from a clock: a slice of the remaining time plus
    /// most of the increment, the hard limit a few slices but never more than a fixed share
    /// of what is left after `overhead_ms` (the GUI's and the pipe's latency), so a search
    /// never loses on time.
    pub fn from_clock(clock: Clock, overhead_ms: u64) -> (Duration, Duration) {
        // Shares are taken in u128 and sums saturate: a GUI may send any u64 (`go wtime
        // 9704189641294348287` overflowed), and the results only shrink from there.
        let share = |ms: u64, num: u64, den: u64| (ms as u128 * num as u128 / den as u128) as u64;
        let moves = clock.moves_to_go.map_or(DEFAULT_MOVES_TO_GO, |m| m.clamp(1, 50) as u64);
        let usable = clock.remaining_ms.saturating_sub(overhead_ms);
        let slice = (usable / moves).saturating_add(share(clock.increment_ms, 3, 4));
        let cap = match moves {
            1 => share(usable, 3, 4),
            2 => share(usable, 2, 5),
            _ => share(usable, MAX_CLOCK_PERCENT, 100),
        };
        let hard = slice.saturating_mul(HARD_TIME_FACTOR).min(cap).max(1);
        let soft = share(slice, SOFT_TIME_PERCENT, 100).min(hard);
        (Duration::from_millis(soft), Duration::from_millis(hard))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_limits_keep_a_reserve() {
        for remaining in [0, 5, 100, 1_000, 60_000, 3_600_000] {
            for inc in [0, 100, 5_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let clock =
                        Clock { remaining_ms: remaining, increment_ms: inc, moves_to_go: mtg };
                    let (soft, hard) = Limits::from_clock(clock, 30);
                    assert!(soft <= hard, "{clock:?}");
                    let reserve = remaining.saturating_sub(30) * 3 / 4;
                    assert!(hard.as_millis() as u64 <= reserve.max(1), "{clock:?} {hard:?}");
                }
            }
        }
    }

    #[test]
    fn huge_clock_values_do_not_overflow() {
        // The fuzzer's `go wtime 9704189641294348287` (fuzz/regressions/uci/) panicked.
        for ms in [9_704_189_641_294_348_287, u64::MAX] {
            for mtg in [None, Some(1), Some(2)] {
                let clock = Clock { remaining_ms: ms, increment_ms: ms, moves_to_go: mtg };
                let (soft, hard) = Limits::from_clock(clock, 30);
                assert!(soft <= hard && hard.as_millis() <= (ms as u128 - 30) * 3 / 4, "{clock:?}");
            }
        }
    }

    #[test]
    fn fewer_moves_to_go_means_more_time() {
        let at = |m| {
            Limits::from_clock(
                Clock { remaining_ms: 60_000, increment_ms: 0, moves_to_go: Some(m) },
                30,
            )
            .1
        };
        assert!(at(1) > at(10));
        assert!(at(10) > at(40));
    }
}
