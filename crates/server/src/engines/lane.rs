//! Background work in the engine service: a queue per game and the games in turn, so that
//! no game's jobs (a review's hundred positions, an analysis slice after slice) hold back
//! another's.

use super::Job;
use std::collections::{HashMap, VecDeque};

/// The jobs of one priority: a queue per game and the games in turn.
#[derive(Default)]
pub(super) struct Lane {
    turn: VecDeque<String>,
    jobs: HashMap<String, VecDeque<Job>>,
}

impl Lane {
    pub(super) fn push(&mut self, game: &str, job: Job) {
        let queue = self.jobs.entry(game.to_string()).or_default();
        if queue.is_empty() {
            self.turn.push_back(game.to_string());
        }
        queue.push_back(job);
    }

    /// The next job: of `preferred`'s game if it is among the next `window` games in turn
    /// (those the service's engines serve in this round anyway), else of the game whose turn
    /// it is. A wider preference would starve the others: a game that queues its next job
    /// as soon as its last one ends (an analysis, slice after slice) would be found waiting
    /// by the engine that just served it, every time.
    pub(super) fn pop(&mut self, preferred: Option<&str>, window: usize) -> Option<(String, Job)> {
        let near = preferred.and_then(|g| self.turn.iter().take(window).position(|t| t == g));
        let game = match near {
            Some(at) => self.turn.remove(at)?,
            None => self.turn.pop_front()?,
        };
        let queue = self.jobs.get_mut(&game)?;
        let job = queue.pop_front()?;
        if queue.is_empty() {
            self.jobs.remove(&game);
        } else {
            self.turn.push_back(game.clone());
        }
        Some((game, job))
    }

    pub(super) fn len(&self) -> usize {
        self.jobs.values().map(VecDeque::len).sum()
    }

    /// Jobs that run before a job of `game` pushed now, turn by turn: `game`'s own queued
    /// jobs, and from every other game as many as it has turns before this job's.
    pub(super) fn ahead_of(&self, game: &str) -> usize {
        let own = self.jobs.get(game).map_or(0, VecDeque::len);
        let mut before = true;
        let mut ahead = own;
        for g in &self.turn {
            if g == game {
                before = false;
                continue;
            }
            let jobs = self.jobs.get(g).map_or(0, VecDeque::len);
            ahead += jobs.min(own + before as usize);
        }
        ahead
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn job() -> Job {
        Job { work: Box::new(|_| {}), queued: Instant::now() }
    }

    #[test]
    fn games_take_turns_within_a_priority() {
        let mut level = Lane::default();
        for _ in 0..3 {
            level.push("a", job());
        }
        level.push("b", job());
        level.push("c", job());
        let order: Vec<String> =
            std::iter::from_fn(|| level.pop(None, 1).map(|(g, _)| g)).collect();
        assert_eq!(order, ["a", "b", "c", "a", "a"]);
    }

    /// Two engines serve the next two games of a round: the one that served `b` takes `b`'s
    /// next job (its table holds `b`'s positions) though `a` is first in turn.
    #[test]
    fn an_engine_prefers_the_game_it_served_within_the_round() {
        let mut level = Lane::default();
        level.push("a", job());
        level.push("b", job());
        assert_eq!(level.pop(Some("b"), 2).map(|(g, _)| g).as_deref(), Some("b"));
        assert_eq!(level.pop(Some("b"), 2).map(|(g, _)| g).as_deref(), Some("a"));
        assert!(level.pop(Some("b"), 2).is_none());
    }

    /// A game that queues its next job as soon as its last one ends (an analysis, slice
    /// after slice) does not keep its engine from the game whose turn it is.
    #[test]
    fn the_game_just_served_does_not_starve_the_others() {
        let mut level = Lane::default();
        level.push("new", job());
        let mut order = Vec::new();
        for _ in 0..3 {
            // The analysis re-queued before the one engine looks again.
            level.push("analysis", job());
            order.push(level.pop(Some("analysis"), 1).map(|(g, _)| g).unwrap());
        }
        assert_eq!(order, ["new", "analysis", "analysis"]);
    }
}
