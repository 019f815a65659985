//! Prometheus metrics, kept in atomics and written in the text exposition format by hand
//! (a handful of counters needs no metrics library).

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Bucket bounds of the move latency histogram, in milliseconds.
const BUCKETS_MS: [u64; 11] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 5000];

/// The server's counters and gauges.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Open websockets.
    pub sockets: AtomicU64,
    /// Live games in memory.
    pub live_games: AtomicU64,
    /// Moves accepted.
    pub moves: AtomicU64,
    /// Client messages read.
    pub messages_in: AtomicU64,
    /// Frames queued to clients.
    pub frames_out: AtomicU64,
    /// Error events sent.
    pub errors: AtomicU64,
    /// Subscriptions dropped because a client fell too far behind.
    pub slow_drops: AtomicU64,
    /// Store batches committed.
    pub store_batches: AtomicU64,
    latency_buckets: [AtomicU64; BUCKETS_MS.len()],
    latency_count: AtomicU64,
    latency_sum_us: AtomicU64,
}

impl Metrics {
    /// Records one move's latency from receipt to broadcast (store commit included).
    pub fn observe_move(&self, micros: u64) {
        let ms = micros / 1000;
        for (i, b) in BUCKETS_MS.iter().enumerate() {
            if ms < *b || (ms == *b && micros.is_multiple_of(1000)) {
                self.latency_buckets[i].fetch_add(1, Relaxed);
            }
        }
        self.latency_count.fetch_add(1, Relaxed);
        self.latency_sum_us.fetch_add(micros, Relaxed);
    }

    /// The text exposition.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let mut put = |name: &str, kind: &str, help: &str, v: u64| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}");
        };
        put("cannonade_sockets", "gauge", "Open websockets.", self.sockets.load(Relaxed));
        put(
            "cannonade_live_games",
            "gauge",
            "Live games in memory.",
            self.live_games.load(Relaxed),
        );
        put("cannonade_moves_total", "counter", "Moves accepted.", self.moves.load(Relaxed));
        put(
            "cannonade_messages_in_total",
            "counter",
            "Client messages read.",
            self.messages_in.load(Relaxed),
        );
        put(
            "cannonade_frames_out_total",
            "counter",
            "Frames queued to clients.",
            self.frames_out.load(Relaxed),
        );
        put("cannonade_errors_total", "counter", "Error events sent.", self.errors.load(Relaxed));
        put(
            "cannonade_slow_drops_total",
            "counter",
            "Game subscriptions dropped because the client fell behind.",
            self.slow_drops.load(Relaxed),
        );
        put(
            "cannonade_store_batches_total",
            "counter",
            "Store batches committed.",
            self.store_batches.load(Relaxed),
        );
        let name = "cannonade_move_latency_seconds";
        let _ = writeln!(
            out,
            "# HELP {name} From a move's receipt to its broadcast, store commit included.\n# TYPE {name} histogram"
        );
        for (i, b) in BUCKETS_MS.iter().enumerate() {
            let _ = writeln!(
                out,
                "{name}_bucket{{le=\"{}\"}} {}",
                *b as f64 / 1000.0,
                self.latency_buckets[i].load(Relaxed)
            );
        }
        let count = self.latency_count.load(Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(out, "{name}_sum {}", self.latency_sum_us.load(Relaxed) as f64 / 1e6);
        let _ = writeln!(out, "{name}_count {count}");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative() {
        let m = Metrics::default();
        m.observe_move(500); // 0.5 ms
        m.observe_move(30_000); // 30 ms
        let text = m.render();
        assert!(text.contains("cannonade_move_latency_seconds_bucket{le=\"0.001\"} 1"));
        assert!(text.contains("cannonade_move_latency_seconds_bucket{le=\"0.05\"} 2"));
        assert!(text.contains("cannonade_move_latency_seconds_count 2"));
    }
}
