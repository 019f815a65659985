//! Engine levels for the terminal board: the engine's own calibrated levels 1–10
//! ([`cannonade_engine::Level`]), within a thinking time that keeps even the top level
//! answering in a few seconds.

use cannonade_engine::{Level, Limits};
use std::time::Duration;

/// The weakest level.
pub const MIN_LEVEL: u8 = Level::MIN.number();
/// The strongest level.
pub const MAX_LEVEL: u8 = Level::MAX.number();

/// The engine's level for a seat's level number, clamped to [`MIN_LEVEL`]..=[`MAX_LEVEL`].
///
/// ```
/// use cannonade_tui::{MAX_LEVEL, engine_level};
/// assert_eq!(engine_level(3).number(), 3);
/// assert_eq!(engine_level(200).number(), MAX_LEVEL);
/// ```
pub fn engine_level(level: u8) -> Level {
    Level::new(level.clamp(MIN_LEVEL, MAX_LEVEL)).unwrap_or_default()
}

/// The time every level may think: the level then takes its share and its budgets
/// ([`Level::restrict`]). The top level stops deepening after a second and never thinks
/// longer than three.
pub fn think_limits() -> Limits {
    Limits {
        time: Some(Duration::from_secs(3)),
        soft_time: Some(Duration::from_secs(1)),
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_the_engine_s_and_clamped() {
        assert_eq!((MIN_LEVEL, MAX_LEVEL), (1, 10));
        for n in MIN_LEVEL..=MAX_LEVEL {
            assert_eq!(engine_level(n).number(), n);
        }
        assert_eq!(engine_level(0), Level::MIN);
        assert_eq!(engine_level(200), Level::MAX);
    }
}
