//! When a search stops.

use std::time::Duration;

/// Search limits; the search stops at the first one reached (or when its stop flag is set).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Maximum time.
    pub time: Option<Duration>,
}

impl Limits {
    /// Time for one move from a clock: a slice of the remaining time plus most of the
    /// increment, less a safety margin for I/O, never below a few milliseconds.
    pub fn from_clock(
        remaining_ms: u64,
        increment_ms: u64,
        moves_to_go: Option<u32>,
        overhead_ms: u64,
    ) -> Duration {
        let moves = moves_to_go.unwrap_or(30).clamp(1, 50) as u64;
        let budget = remaining_ms / moves + increment_ms * 3 / 4;
        let cap = remaining_ms.saturating_sub(overhead_ms) / 2;
        Duration::from_millis(budget.min(cap).saturating_sub(overhead_ms).max(5))
    }
}
