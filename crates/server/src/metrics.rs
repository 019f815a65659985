//! Prometheus metrics, kept in atomics and written in the text exposition format by hand
//! (a handful of counters needs no metrics library).

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Bucket bounds of the latency histograms, in milliseconds.
const BUCKETS_MS: [u64; 11] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 5000];

/// A latency histogram in the Prometheus layout (cumulative buckets, sum and count).
#[derive(Debug, Default)]
pub struct Histogram {
    buckets: [AtomicU64; BUCKETS_MS.len()],
    count: AtomicU64,
    sum_us: AtomicU64,
}

impl Histogram {
    /// Records one duration, in microseconds.
    pub fn observe(&self, micros: u64) {
        let ms = micros / 1000;
        for (i, b) in BUCKETS_MS.iter().enumerate() {
            if ms < *b || (ms == *b && micros.is_multiple_of(1000)) {
                self.buckets[i].fetch_add(1, Relaxed);
            }
        }
        self.count.fetch_add(1, Relaxed);
        self.sum_us.fetch_add(micros, Relaxed);
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        for (i, b) in BUCKETS_MS.iter().enumerate() {
            let _ = writeln!(
                out,
                "{name}_bucket{{le=\"{}\"}} {}",
                *b as f64 / 1000.0,
                self.buckets[i].load(Relaxed)
            );
        }
        let count = self.count.load(Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(out, "{name}_sum {}", self.sum_us.load(Relaxed) as f64 / 1e6);
        let _ = writeln!(out, "{name}_count {count}");
    }
}

/// The server's counters and gauges.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Open websockets.
    pub sockets: AtomicU64,
    /// Password hashes computed (logins, unknown names included, and registrations).
    pub password_hashes: AtomicU64,
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
    /// From a move's receipt to its broadcast, store commit included.
    pub move_latency: Histogram,
    /// The duration of one group commit of game events.
    pub store_commit: Histogram,
}

impl Metrics {
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
            "cannonade_password_hashes_total",
            "counter",
            "Password hashes computed.",
            self.password_hashes.load(Relaxed),
        );
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
        self.move_latency.render(
            &mut out,
            "cannonade_move_latency_seconds",
            "From a move's receipt to its broadcast, store commit included.",
        );
        self.store_commit.render(
            &mut out,
            "cannonade_store_commit_seconds",
            "One group commit of game events to the store.",
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative() {
        let m = Metrics::default();
        m.move_latency.observe(500); // 0.5 ms
        m.move_latency.observe(30_000); // 30 ms
        let text = m.render();
        assert!(text.contains("cannonade_move_latency_seconds_bucket{le=\"0.001\"} 1"));
        assert!(text.contains("cannonade_move_latency_seconds_bucket{le=\"0.05\"} 2"));
        assert!(text.contains("cannonade_move_latency_seconds_count 2"));
        // Each histogram counts only its own observations.
        m.store_commit.observe(7_000);
        let text = m.render();
        assert!(text.contains("cannonade_store_commit_seconds_bucket{le=\"0.005\"} 0"));
        assert!(text.contains("cannonade_store_commit_seconds_bucket{le=\"0.01\"} 1"));
        assert!(text.contains("cannonade_move_latency_seconds_count 2"));
    }
}
