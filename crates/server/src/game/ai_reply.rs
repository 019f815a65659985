//! The engine's answer on its way to the board. A search runs on the engine service while
//! the game goes on; its move comes back to the shell and is held until the pause decided
//! for it ([`super::ai_pace`]) ends, so the wait is a timer in the shell, not a sleeping
//! task. A takeback or the end calls the answer off: the search is told to stop, and a move
//! from a search called off, or held when it is called off, is dropped, so a move searched
//! for one position is never played in another.

use cannonade_games::AnyMove;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use tokio::time::Instant;

/// The engine's move, once its pause is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The ply searched.
    pub ply: u32,
    /// The move (`None`: the search found none).
    pub mv: Option<AnyMove>,
}

/// The state of the engine's answer in one game: idle, searching, or a move held until due.
#[derive(Debug)]
pub struct AiReply {
    /// The number of the current search: an answer from another one is stale.
    search: u64,
    /// A search runs or its move is held: no second search starts.
    busy: bool,
    /// Tells the current search to stop early.
    stop: Arc<AtomicBool>,
    /// The move searched, and when it may be played.
    held: Option<(Answer, Instant)>,
}

impl Default for AiReply {
    fn default() -> Self {
        AiReply { search: 0, busy: false, stop: Arc::new(AtomicBool::new(false)), held: None }
    }
}

impl AiReply {
    /// Whether a search runs or its move waits for its pause to end.
    pub fn busy(&self) -> bool {
        self.busy
    }

    /// A new search: its number (to give back with its answer) and the flag that stops it.
    pub fn start(&mut self) -> (u64, Arc<AtomicBool>) {
        self.search = self.search.wrapping_add(1);
        self.busy = true;
        self.held = None;
        self.stop = Arc::new(AtomicBool::new(false));
        (self.search, self.stop.clone())
    }

    /// Search `search` answered `answer`, to be played at `due`. Held and `true`, unless the
    /// search was called off since (then dropped, `false`).
    pub fn answered(&mut self, search: u64, answer: Answer, due: Instant) -> bool {
        if !self.busy || search != self.search || self.held.is_some() {
            return false;
        }
        self.held = Some((answer, due));
        true
    }

    /// When the held move may be played; `None` while searching or idle.
    pub fn due(&self) -> Option<Instant> {
        self.held.map(|(_, due)| due)
    }

    /// The held move once it is due at `now`; the engine is idle again.
    pub fn take(&mut self, now: Instant) -> Option<Answer> {
        let (answer, due) = self.held?;
        if now < due {
            return None;
        }
        self.held = None;
        self.busy = false;
        Some(answer)
    }

    /// The position the search was for is gone (a takeback, the end, the game handed over):
    /// the search stops, and neither its answer nor a held move will be played.
    pub fn call_off(&mut self) {
        self.stop.store(true, Relaxed);
        self.search = self.search.wrapping_add(1);
        self.busy = false;
        self.held = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn answer(ply: u32) -> Answer {
        Answer { ply, mv: None }
    }

    /// A move is held until its pause ends, then played once, and the engine is free again.
    #[test]
    fn a_move_waits_for_its_pause_and_is_played_once() {
        let now = Instant::now();
        let mut ai = AiReply::default();
        let (search, _) = ai.start();
        assert!(ai.busy());
        assert_eq!(ai.due(), None);
        let due = now + Duration::from_millis(1500);
        assert!(ai.answered(search, answer(3), due));
        assert_eq!(ai.due(), Some(due));
        assert_eq!(ai.take(now + Duration::from_millis(1499)), None);
        assert!(ai.busy(), "a held move keeps a second search from starting");
        assert_eq!(ai.take(due), Some(answer(3)));
        assert!(!ai.busy());
        assert_eq!(ai.take(due + Duration::from_secs(1)), None);
        assert_eq!(ai.due(), None);
    }

    /// Called off during the search or the pause: the search is told to stop, its move is
    /// never played, and the next search's answer is not mistaken for the old one's.
    #[test]
    fn a_move_called_off_is_never_played() {
        let now = Instant::now();
        let mut ai = AiReply::default();
        // During the pause.
        let (first, stop) = ai.start();
        assert!(ai.answered(first, answer(1), now + Duration::from_secs(2)));
        ai.call_off();
        assert!(stop.load(Relaxed));
        assert!(!ai.busy());
        assert_eq!(ai.due(), None);
        assert_eq!(ai.take(now + Duration::from_secs(3)), None);
        // During the search: its late answer is dropped, the new search's is kept.
        let (second, stop) = ai.start();
        ai.call_off();
        assert!(stop.load(Relaxed));
        let (third, stop) = ai.start();
        assert!(!stop.load(Relaxed), "a new search starts unstopped");
        assert!(!ai.answered(second, answer(1), now));
        assert!(!ai.answered(first, answer(1), now));
        assert_eq!(ai.take(now), None);
        assert!(ai.answered(third, answer(1), now));
        assert!(!ai.answered(third, answer(1), now), "one answer per search");
        assert_eq!(ai.take(now), Some(answer(1)));
    }
}
