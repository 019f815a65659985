//! One slice of a multi-line search: the analysis board's unit of engine work, run on a
//! node's engines or, through Redis, on a worker's (the AI board carries it). The
//! engine searches for a bounded time at full strength and reports each depth once all its
//! lines are in; what the reports become on the page is the analysis board's business, so a
//! worker needs nothing but the engine to run one.

use cannonade_engine::{AnyProgress, Engine, Level, Limits};
use cannonade_games::AnyRecord;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// One of a depth's best lines as the engine gave it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PvLine {
    /// The line's score for the side to move (the engine's units).
    pub score: i32,
    /// Its moves, in the game's notation.
    pub pv: Vec<String>,
}

/// A completed depth: every line of it, best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepthLines {
    /// The depth.
    pub depth: u32,
    /// Nodes this slice searched until then.
    pub nodes: u64,
    /// The lines, best first.
    pub lines: Vec<PvLine>,
}

/// How a slice ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SliceEnd {
    /// Milliseconds it searched.
    pub took_ms: u64,
    /// The search ended by itself before its time (every line decided, or the deepest
    /// depth): another slice would tell nothing new.
    pub finished: bool,
}

impl SliceEnd {
    /// The time the slice searched.
    pub fn took(&self) -> Duration {
        Duration::from_millis(self.took_ms)
    }
}

/// Searches `record`'s position for `lines` best lines for at most `time` (less when `stop`
/// is set), handing `report` each completed depth. The engine keeps its table, so the next
/// slice of the same position starts where this one left off.
pub fn search(
    engine: &mut Engine,
    record: &AnyRecord,
    lines: u32,
    time: Duration,
    stop: &AtomicBool,
    mut report: impl FnMut(DepthLines),
) -> SliceEnd {
    let started = Instant::now();
    if stop.load(Relaxed) {
        return SliceEnd { took_ms: 0, finished: false };
    }
    let lines = lines.max(1);
    engine.set_level(Level::MAX);
    engine.set_lines(lines);
    let limits = Limits { time: Some(time), ..Default::default() };
    let mut depth: Vec<PvLine> = Vec::new();
    engine.search(record, &limits, stop, |p: &AnyProgress| {
        if p.line == 1 {
            depth.clear();
        }
        depth.push(PvLine { score: p.score, pv: p.pv.clone() });
        if p.line == lines {
            report(DepthLines {
                depth: p.depth,
                nodes: p.nodes,
                lines: std::mem::take(&mut depth),
            });
        }
    });
    engine.set_lines(1);
    let took = started.elapsed();
    SliceEnd { took_ms: took.as_millis() as u64, finished: took < time && !stop.load(Relaxed) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::{GameKind, GameSpec};

    #[test]
    fn every_report_holds_all_the_lines_of_a_deeper_depth() {
        let record = AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi));
        let mut engine = Engine::new();
        let mut reports = Vec::new();
        let stop = AtomicBool::new(false);
        search(&mut engine, &record, 3, Duration::from_millis(300), &stop, |d| reports.push(d));
        assert!(!reports.is_empty());
        for (i, d) in reports.iter().enumerate() {
            assert_eq!(d.lines.len(), 3, "depth {}", d.depth);
            assert!(d.lines.windows(2).all(|w| w[0].score >= w[1].score), "best first");
            assert!(d.lines.iter().all(|l| !l.pv.is_empty()));
            if i > 0 {
                assert!(d.depth > reports[i - 1].depth);
                assert!(d.nodes >= reports[i - 1].nodes);
            }
        }
    }

    #[test]
    fn a_stopped_slice_searches_nothing() {
        let record = AnyRecord::from_spec(&GameSpec::standard(GameKind::ChessBattle));
        let mut engine = Engine::new();
        let stop = AtomicBool::new(true);
        let mut reports = 0;
        let end = search(&mut engine, &record, 2, Duration::from_secs(5), &stop, |_| reports += 1);
        assert_eq!((reports, end), (0, SliceEnd { took_ms: 0, finished: false }));
    }
}
