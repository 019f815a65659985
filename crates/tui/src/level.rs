//! Engine levels for the terminal board. The engine issue is adding proper levels to the
//! engine itself; until then this one function maps a level to search limits, and swapping
//! it for the engine's own mapping is a one-line change.

use cannonade_engine::Limits;
use std::time::Duration;

/// The weakest level.
pub const MIN_LEVEL: u8 = 1;
/// The strongest level.
pub const MAX_LEVEL: u8 = 8;

/// The search limits of a level (clamped to [`MIN_LEVEL`]..=[`MAX_LEVEL`]): level `n`
/// searches `n` plies deep, within a node budget that grows fourfold per level and a time
/// cap of 0.4 s per level, so even the top level answers in a few seconds.
pub fn limits_for_level(level: u8) -> Limits {
    let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
    Limits {
        depth: Some(level as u32),
        nodes: Some(2_000 * 4u64.pow(level as u32)),
        time: Some(Duration::from_millis(400 * level as u64)),
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_and_are_clamped() {
        for level in MIN_LEVEL..MAX_LEVEL {
            let (a, b) = (limits_for_level(level), limits_for_level(level + 1));
            assert!(a.depth < b.depth && a.nodes < b.nodes && a.time < b.time, "{level}");
        }
        assert_eq!(limits_for_level(0), limits_for_level(MIN_LEVEL));
        assert_eq!(limits_for_level(200), limits_for_level(MAX_LEVEL));
    }
}
