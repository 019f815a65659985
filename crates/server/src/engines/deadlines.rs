//! AI moves in the engine service: the earliest deadline first, and under overload the
//! time before each deadline shared among the moves waiting, so that every move is answered
//! by its deadline (a weaker move in time rather than a strong one late).
//!
//! A move's deadline is its ask plus its level's time budget. The search that an engine takes
//! gets an end: its deadline when there are engines enough for every move waiting, else its
//! share of the time left, `threads / moves` of it (processor sharing, the moves waiting
//! included). A new move shortens the ends of the searches running (never lengthens them),
//! and the service's referee stops each search at its end; a stopped search answers with the
//! best move of its last completed depth. Nothing is searched twice: unlike the analysis
//! board's slices, a move's search runs once, for as long as the load allows.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The least time a search gets from its start whatever the load (a move searched a few
/// plies deep beats none): below it the overload shows as late moves, not random ones.
pub(super) const LEAST_SEARCH: Duration = Duration::from_millis(10);

/// A move waiting, ordered by deadline and then by arrival.
struct Waiting<J> {
    deadline: Instant,
    seq: u64,
    job: J,
}

impl<J> Waiting<J> {
    fn key(&self) -> (Instant, u64) {
        (self.deadline, self.seq)
    }
}

impl<J> PartialEq for Waiting<J> {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl<J> Eq for Waiting<J> {}

impl<J> PartialOrd for Waiting<J> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<J> Ord for Waiting<J> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// The AI moves waiting, earliest deadline first (equal deadlines in arrival order).
pub(super) struct Deadlines<J> {
    heap: BinaryHeap<Reverse<Waiting<J>>>,
    seq: u64,
}

impl<J> Default for Deadlines<J> {
    fn default() -> Self {
        Deadlines { heap: BinaryHeap::new(), seq: 0 }
    }
}

impl<J> Deadlines<J> {
    /// Puts `job` in line, due at `deadline`.
    pub(super) fn push(&mut self, deadline: Instant, job: J) {
        self.seq += 1;
        self.heap.push(Reverse(Waiting { deadline, seq: self.seq, job }));
    }

    /// The job with the earliest deadline, and that deadline.
    pub(super) fn pop(&mut self) -> Option<(Instant, J)> {
        self.heap.pop().map(|Reverse(w)| (w.deadline, w.job))
    }

    /// Moves waiting.
    pub(super) fn len(&self) -> usize {
        self.heap.len()
    }

    /// Moves that an engine takes before one due at `deadline` pushed now.
    pub(super) fn ahead_of(&self, deadline: Instant) -> usize {
        self.heap.iter().filter(|Reverse(w)| w.deadline <= deadline).count()
    }
}

/// A move being searched, which the referee stops at `end`.
pub(super) struct Running {
    /// The service's number for the search.
    pub id: u64,
    /// When an engine took it.
    pub started: Instant,
    /// When its answer is due.
    pub deadline: Instant,
    /// When the referee stops it: only ever moved earlier.
    pub end: Instant,
    /// Its stop flag (`None`: a job nobody may stop, which still counts in the sharing).
    pub cut: Option<Arc<AtomicBool>>,
}

/// When a search due at `deadline`, started at `started`, ends if judged at `now` while
/// `sharing` moves (waiting and being searched, this one included) share `threads` engines:
/// at its deadline when every move has an engine, else after its share of the time left
/// (`threads / sharing` of it), and never before [`LEAST_SEARCH`] from its start.
pub(super) fn share_end(
    now: Instant,
    started: Instant,
    deadline: Instant,
    sharing: usize,
    threads: usize,
) -> Instant {
    let left = deadline.saturating_duration_since(now);
    let share =
        if sharing <= threads { left } else { left.mul_f64(threads as f64 / sharing as f64) };
    (now + share).max(started + LEAST_SEARCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn the_earliest_deadline_goes_first_and_ties_keep_their_order() {
        let now = Instant::now();
        let mut d = Deadlines::default();
        d.push(now + 300 * MS, "late");
        d.push(now + 100 * MS, "first");
        d.push(now + 100 * MS, "second");
        d.push(now + 200 * MS, "middle");
        assert_eq!(d.ahead_of(now + 150 * MS), 2);
        assert_eq!(d.ahead_of(now), 0);
        let order: Vec<_> = std::iter::from_fn(|| d.pop().map(|(_, j)| j)).collect();
        assert_eq!(order, ["first", "second", "middle", "late"]);
        assert_eq!(d.len(), 0);
    }

    #[test]
    fn with_an_engine_for_every_move_a_search_runs_to_its_deadline() {
        let now = Instant::now();
        let deadline = now + 1500 * MS;
        assert_eq!(share_end(now, now, deadline, 1, 1), deadline);
        assert_eq!(share_end(now, now, deadline, 2, 2), deadline);
    }

    /// Ten moves on one engine, all due in a second: each gets a tenth of it, so the last
    /// taken still has its tenth before the deadline.
    #[test]
    fn under_overload_the_time_left_is_shared() {
        let now = Instant::now();
        let deadline = now + 1000 * MS;
        assert_eq!(share_end(now, now, deadline, 10, 1), now + 100 * MS);
        assert_eq!(share_end(now, now, deadline, 10, 2), now + 200 * MS);
        // Judged again 50 ms into its search, with 20 moves now: 47.5 ms from then.
        let later = now + 50 * MS;
        assert_eq!(share_end(later, now, deadline, 20, 1), later + 47_500 * MS / 1000);
    }

    #[test]
    fn a_search_gets_its_least_time_even_past_its_deadline() {
        let now = Instant::now();
        assert_eq!(share_end(now, now, now - 5 * MS, 3, 1), now + LEAST_SEARCH);
        assert_eq!(share_end(now, now, now + 50 * MS, 100, 1), now + LEAST_SEARCH);
        // Judged later, the least time still counts from its start.
        assert_eq!(share_end(now + 4 * MS, now, now + 50 * MS, 100, 1), now + LEAST_SEARCH);
    }
}
