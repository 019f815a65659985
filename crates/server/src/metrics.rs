//! Prometheus metrics: the server's counters, gauges and latency histograms as
//! `prometheus-client` metrics (atomics inside, so the hot paths only add), and the engine
//! service's queue read from its own counters at each scrape. `/metrics` answers in the
//! OpenMetrics text format, which Prometheus reads.

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The content type of [`Metrics::render`]'s text.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Bucket bounds of the latency histograms, in milliseconds.
const BUCKETS_MS: [u64; 11] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 5000];

/// A latency histogram in seconds, observed in microseconds.
#[derive(Debug)]
pub struct Histogram(prometheus_client::metrics::histogram::Histogram);

impl Default for Histogram {
    fn default() -> Histogram {
        let bounds = BUCKETS_MS.iter().map(|&ms| ms as f64 / 1000.0);
        Histogram(prometheus_client::metrics::histogram::Histogram::new(bounds))
    }
}

impl Histogram {
    /// Records one duration, in microseconds.
    pub fn observe(&self, micros: u64) {
        self.0.observe(micros as f64 / 1e6);
    }
}

/// The server's counters and gauges.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Open websockets.
    pub sockets: Gauge,
    /// Password hashes computed (logins, unknown names included, and registrations).
    pub password_hashes: Counter,
    /// Live games in memory.
    pub live_games: Gauge,
    /// Moves accepted.
    pub moves: Counter,
    /// Client messages read.
    pub messages_in: Counter,
    /// Frames queued to clients.
    pub frames_out: Counter,
    /// Error events sent.
    pub errors: Counter,
    /// Subscriptions dropped because a client fell too far behind.
    pub slow_drops: Counter,
    /// Store batches committed.
    pub store_batches: Counter,
    /// From a move's receipt to its broadcast, store commit included.
    pub move_latency: Histogram,
    /// The duration of one group commit of game events.
    pub store_commit: Histogram,
    /// Game reviews pending on this node (set at each scrape).
    pub reviews_pending: Gauge,
    /// Review jobs waiting on Redis for a `cannonade worker`, every node's (set at each
    /// scrape, on a node that sends its reviews to workers).
    pub review_jobs_waiting: Gauge,
    /// AI moves `cannonade worker` processes answered (set at each scrape, on a node that
    /// sends its AI moves to workers).
    pub ai_moves_from_workers: Gauge,
    /// AI moves the node searched itself because no worker answered in time.
    pub ai_moves_taken_over: Gauge,
    /// Analysis board slices workers searched (set like `ai_moves_from_workers`).
    pub analysis_slices_from_workers: Gauge,
    /// Analysis board slices the node searched itself because no worker answered in time.
    pub analysis_slices_taken_over: Gauge,
}

impl Metrics {
    /// The text exposition, the engine service's queue included.
    pub fn render(&self, engines: &crate::engines::EngineStats) -> String {
        // A registry a scrape: it holds clones (the same atomics), and a scrape every few
        // seconds can afford the few allocations.
        let mut r = Registry::default();
        r.register("cannonade_sockets", "Open websockets", self.sockets.clone());
        r.register("cannonade_live_games", "Live games in memory", self.live_games.clone());
        r.register("cannonade_moves", "Moves accepted", self.moves.clone());
        r.register(
            "cannonade_password_hashes",
            "Password hashes computed",
            self.password_hashes.clone(),
        );
        r.register("cannonade_messages_in", "Client messages read", self.messages_in.clone());
        r.register("cannonade_frames_out", "Frames queued to clients", self.frames_out.clone());
        r.register("cannonade_errors", "Error events sent", self.errors.clone());
        r.register(
            "cannonade_slow_drops",
            "Game subscriptions dropped because the client fell behind",
            self.slow_drops.clone(),
        );
        r.register(
            "cannonade_store_batches",
            "Store batches committed",
            self.store_batches.clone(),
        );
        r.register(
            "cannonade_move_latency_seconds",
            "From a move's receipt to its broadcast, store commit included",
            self.move_latency.0.clone(),
        );
        r.register(
            "cannonade_store_commit_seconds",
            "One group commit of game events to the store",
            self.store_commit.0.clone(),
        );
        r.register(
            "cannonade_reviews_pending",
            "Game reviews pending on this node",
            self.reviews_pending.clone(),
        );
        r.register(
            "cannonade_review_jobs_waiting",
            "Review jobs waiting on Redis for a worker, every node's",
            self.review_jobs_waiting.clone(),
        );
        r.register(
            "cannonade_ai_moves_from_workers",
            "AI moves answered by workers, since the node started",
            self.ai_moves_from_workers.clone(),
        );
        r.register(
            "cannonade_ai_moves_taken_over",
            "AI moves searched here because no worker answered in time, since the node started",
            self.ai_moves_taken_over.clone(),
        );
        r.register(
            "cannonade_analysis_slices_from_workers",
            "Analysis board slices searched by workers, since the node started",
            self.analysis_slices_from_workers.clone(),
        );
        r.register(
            "cannonade_analysis_slices_taken_over",
            "Analysis board slices searched here because no worker answered in time, since the node started",
            self.analysis_slices_taken_over.clone(),
        );
        engine_metrics(&mut r, engines);
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = encode(&mut out, &r);
        out
    }
}

/// A metric's labels: the engine queue's priority.
type Labels = Vec<(&'static str, &'static str)>;

/// The engine service's queue and wait times (issue 24.3), per priority (`ai_move`,
/// `analysis`, `background`): jobs waiting now, searches running, jobs done, and the total wait with the
/// number of jobs that waited (their ratio is the mean wait over any window). The service
/// keeps its own atomics (it knows nothing of Prometheus); a scrape reads them.
fn engine_metrics(r: &mut Registry, e: &crate::engines::EngineStats) {
    let queued = Family::<Labels, Gauge>::default();
    let wait = Family::<Labels, Counter<f64, AtomicU64>>::default();
    let waited = Family::<Labels, Counter>::default();
    for p in crate::engines::Priority::ALL {
        let (i, labels) = (p as usize, vec![("priority", p.name())]);
        queued.get_or_create(&labels).set(e.queued[i].load(Relaxed) as i64);
        wait.get_or_create(&labels).inc_by(e.wait_us[i].load(Relaxed) as f64 / 1e6);
        waited.get_or_create(&labels).inc_by(e.waited[i].load(Relaxed));
    }
    r.register("cannonade_engine_queued", "Engine jobs waiting now", queued);
    r.register("cannonade_engine_wait_seconds", "Time engine jobs waited in the queue", wait);
    r.register("cannonade_engine_waited", "Engine jobs that waited", waited);
    let running: Gauge = Gauge::default();
    running.set(e.running.load(Relaxed) as i64);
    r.register("cannonade_engine_running", "Searches running now", running);
    let done: Counter = Counter::default();
    done.inc_by(e.done.load(Relaxed));
    r.register("cannonade_engine_jobs", "Engine jobs done", done);
    let cut: Counter = Counter::default();
    cut.inc_by(e.cut.load(Relaxed));
    r.register(
        "cannonade_engine_ai_moves_cut",
        "AI searches stopped early to keep their deadline or another move's",
        cut,
    );
    let late: Counter = Counter::default();
    late.inc_by(e.late.load(Relaxed));
    r.register("cannonade_engine_ai_moves_late", "AI searches ended after their deadline", late);
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
        assert!(text.contains("cannonade_move_latency_seconds_bucket{le=\"0.001\"} 1"), "{text}");
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
    fn counters_and_gauges_are_shown_with_their_kinds() {
        let m = Metrics::default();
        m.moves.inc_by(3);
        m.sockets.inc();
        m.sockets.inc();
        m.sockets.dec();
        let text = m.render(&crate::engines::EngineStats::default());
        assert!(
            text.contains("# TYPE cannonade_moves counter\ncannonade_moves_total 3\n"),
            "{text}"
        );
        assert!(text.contains("# TYPE cannonade_sockets gauge\ncannonade_sockets 1\n"), "{text}");
        assert!(text.ends_with("# EOF\n"), "{text}");
    }

    #[test]
    fn the_engine_queue_is_shown_per_priority() {
        let e = crate::engines::EngineStats::default();
        e.queued[0].store(3, Relaxed);
        let background = crate::engines::Priority::Background as usize;
        e.wait_us[background].store(2_500_000, Relaxed);
        e.waited[background].store(5, Relaxed);
        e.done.store(9, Relaxed);
        let text = Metrics::default().render(&e);
        assert!(text.contains("cannonade_engine_queued{priority=\"ai_move\"} 3"), "{text}");
        assert!(text.contains("cannonade_engine_queued{priority=\"background\"} 0"), "{text}");
        assert!(text.contains("cannonade_engine_queued{priority=\"analysis\"} 0"), "{text}");
        assert!(text.contains("cannonade_engine_wait_seconds_total{priority=\"background\"} 2.5"));
        assert!(text.contains("cannonade_engine_waited_total{priority=\"background\"} 5"));
        assert!(text.contains("cannonade_engine_jobs_total 9"), "{text}");
        assert!(text.contains("cannonade_engine_ai_moves_cut_total 0"), "{text}");
        assert!(text.contains("cannonade_engine_ai_moves_late_total 0"), "{text}");
        // Every line is a comment or `name{labels} value`.
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (_, value) = line.rsplit_once(' ').unwrap();
            assert!(value.parse::<f64>().is_ok(), "{line}");
        }
    }
}
