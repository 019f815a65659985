//! Prometheus metrics, kept in atomics and written in the text exposition format by hand
//! (a handful of counters needs no metrics library), with the engine service's queue.

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
    /// The text exposition, the engine service's queue included.
    pub fn render(&self, engines: &crate::engines::EngineStats) -> String {
        let mut out = String::new();
        engine_lines(&mut out, engines);
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

/// The engine service's queue and wait times (issue 24.3), per priority (`ai_move`,
/// `background`): jobs waiting now, searches running, jobs done, and the total wait with the
/// number of jobs that waited (their ratio is the mean wait over any window).
fn engine_lines(out: &mut String, e: &crate::engines::EngineStats) {
    const PRIORITY: [&str; 2] = ["ai_move", "background"];
    let mut per_priority = |name: &str, kind: &str, help: &str, v: &dyn Fn(usize) -> String| {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
        for (i, p) in PRIORITY.iter().enumerate() {
            let _ = writeln!(out, "{name}{{priority=\"{p}\"}} {}", v(i));
        }
    };
    per_priority("cannonade_engine_queued", "gauge", "Engine jobs waiting now.", &|i| {
        e.queued[i].load(Relaxed).to_string()
    });
    per_priority(
        "cannonade_engine_wait_seconds_total",
        "counter",
        "Time engine jobs waited in the queue.",
        &|i| (e.wait_us[i].load(Relaxed) as f64 / 1e6).to_string(),
    );
    per_priority("cannonade_engine_waited_total", "counter", "Engine jobs that waited.", &|i| {
        e.waited[i].load(Relaxed).to_string()
    });
    let _ = writeln!(
        out,
        "# HELP cannonade_engine_running Searches running now.\n\
         # TYPE cannonade_engine_running gauge\ncannonade_engine_running {}\n\
         # HELP cannonade_engine_jobs_total Engine jobs done.\n\
         # TYPE cannonade_engine_jobs_total counter\ncannonade_engine_jobs_total {}",
        e.running.load(Relaxed),
        e.done.load(Relaxed)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative() {
        let m = Metrics::default();
        m.move_latency.observe(500); // 0.5 ms
        m.move_latency.observe(30_000); // 30 ms
        let text = m.render(&crate::engines::EngineStats::default());
        assert!(text.contains("cannonade_move_latency_seconds_bucket{le=\"0.001\"} 1"));
        assert!(text.contains("cannonade_move_latency_seconds_bucket{le=\"0.05\"} 2"));
        assert!(text.contains("cannonade_move_latency_seconds_count 2"));
        // Each histogram counts only its own observations.
        m.store_commit.observe(7_000);
        let text = m.render(&crate::engines::EngineStats::default());
        assert!(text.contains("cannonade_store_commit_seconds_bucket{le=\"0.005\"} 0"));
        assert!(text.contains("cannonade_store_commit_seconds_bucket{le=\"0.01\"} 1"));
        assert!(text.contains("cannonade_move_latency_seconds_count 2"));
    }

    #[test]
    fn the_engine_queue_is_shown_per_priority() {
        let e = crate::engines::EngineStats::default();
        e.queued[0].store(3, Relaxed);
        e.wait_us[1].store(2_500_000, Relaxed);
        e.waited[1].store(5, Relaxed);
        e.done.store(9, Relaxed);
        let text = Metrics::default().render(&e);
        assert!(text.contains("cannonade_engine_queued{priority=\"ai_move\"} 3"), "{text}");
        assert!(text.contains("cannonade_engine_queued{priority=\"background\"} 0"), "{text}");
        assert!(text.contains("cannonade_engine_wait_seconds_total{priority=\"background\"} 2.5"));
        assert!(text.contains("cannonade_engine_waited_total{priority=\"background\"} 5"));
        assert!(text.contains("cannonade_engine_jobs_total 9"), "{text}");
        // Every line is a comment or `name{labels} value`.
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (_, value) = line.rsplit_once(' ').unwrap();
            assert!(value.parse::<f64>().is_ok(), "{line}");
        }
    }
}
