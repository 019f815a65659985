//! The server's clocks: measured with the monotonic clock of the runtime (so tests can pause
//! time), never taken from a client.

use cannonade_core::Side;
use cannonade_wire::{ClockState, TimeControl};
use tokio::time::Instant;

/// Two clocks, at most one running.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    remaining: [u64; 2],
    running: Option<(Side, Instant)>,
}

/// A clock reached zero before its side moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged(pub Side);

impl Clock {
    /// Fresh clocks, none running.
    pub fn new(tc: TimeControl) -> Clock {
        Clock { tc, remaining: [tc.initial_ms; 2], running: None }
    }

    /// Clocks restored at the given remaining times, none running.
    pub fn restored(tc: TimeControl, remaining: [u64; 2]) -> Clock {
        Clock { tc, remaining, running: None }
    }

    /// Whether the game has no clock.
    pub fn untimed(&self) -> bool {
        self.tc.untimed()
    }

    /// Time left for `side` at `now`.
    pub fn remaining(&self, side: Side, now: Instant) -> u64 {
        let base = self.remaining[side.index()];
        match self.running {
            Some((s, since)) if s == side => {
                base.saturating_sub(now.saturating_duration_since(since).as_millis() as u64)
            }
            _ => base,
        }
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(s, _)| s)
    }

    /// Starts `side`'s clock (stopping the other without charging it).
    pub fn start(&mut self, side: Side, now: Instant) {
        if !self.untimed() {
            self.running = Some((side, now));
        }
    }

    /// Stops the running clock, charging it the time used.
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.remaining[side.index()] = self.remaining(side, now);
            self.running = None;
        }
    }

    /// `side` completed a move at `now`: its time used is charged and the increment added, and
    /// the opponent's clock starts. A move on a stopped clock (the game's first moves) charges
    /// nothing. `Err` when the time ran out before the move.
    pub fn press(&mut self, side: Side, now: Instant) -> Result<(), Flagged> {
        if self.untimed() {
            return Ok(());
        }
        if let Some((running, _)) = self.running
            && running == side
        {
            let left = self.remaining(side, now);
            if left == 0 {
                self.remaining[side.index()] = 0;
                self.running = None;
                return Err(Flagged(side));
            }
            self.remaining[side.index()] = left + self.tc.increment_ms;
        }
        self.running = Some((side.opponent(), now));
        Ok(())
    }

    /// When the running side's time runs out.
    pub fn deadline(&self) -> Option<Instant> {
        let (side, since) = self.running?;
        Some(since + std::time::Duration::from_millis(self.remaining[side.index()]))
    }

    /// Sets both clocks (a takeback keeps the times as they are now).
    pub fn set(&mut self, remaining: [u64; 2]) {
        self.remaining = remaining;
    }

    /// The clocks as sent to clients.
    pub fn state(&self, now: Instant) -> ClockState {
        ClockState {
            remaining_ms: [self.remaining(Side::First, now), self.remaining(Side::Second, now)],
            running: self.running().map(Into::into),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    const TC: TimeControl = TimeControl { initial_ms: 10_000, increment_ms: 1_000 };

    #[tokio::test(start_paused = true)]
    async fn a_press_charges_the_time_used_and_adds_the_increment() {
        let mut c = Clock::new(TC);
        let t0 = Instant::now();
        c.press(Side::First, t0).unwrap(); // the first move charges nothing
        assert_eq!(c.running(), Some(Side::Second));
        tokio::time::advance(Duration::from_millis(2_500)).await;
        c.press(Side::Second, Instant::now()).unwrap();
        assert_eq!(c.remaining(Side::Second, Instant::now()), 10_000 - 2_500 + 1_000);
        assert_eq!(c.remaining(Side::First, Instant::now()), 10_000);
        tokio::time::advance(Duration::from_millis(400)).await;
        assert_eq!(c.remaining(Side::First, Instant::now()), 9_600);
    }

    #[tokio::test(start_paused = true)]
    async fn a_move_after_the_deadline_flags() {
        let mut c = Clock::new(TC);
        c.press(Side::First, Instant::now()).unwrap();
        let deadline = c.deadline().unwrap();
        assert_eq!(deadline - Instant::now(), Duration::from_millis(10_000));
        tokio::time::advance(Duration::from_millis(10_000)).await;
        assert_eq!(c.press(Side::Second, Instant::now()), Err(Flagged(Side::Second)));
        assert_eq!(c.remaining(Side::Second, Instant::now()), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn untimed_clocks_never_run() {
        let mut c = Clock::new(TimeControl { initial_ms: 0, increment_ms: 0 });
        c.press(Side::First, Instant::now()).unwrap();
        assert_eq!(c.deadline(), None);
        assert_eq!(c.state(Instant::now()).running, None);
    }

    #[tokio::test(start_paused = true)]
    async fn a_stopped_clock_charges_nothing_while_stopped() {
        let mut c = Clock::new(TC);
        c.press(Side::First, Instant::now()).unwrap();
        tokio::time::advance(Duration::from_millis(1_000)).await;
        c.stop(Instant::now());
        tokio::time::advance(Duration::from_secs(60)).await;
        assert_eq!(c.remaining(Side::Second, Instant::now()), 9_000);
        c.start(Side::Second, Instant::now());
        tokio::time::advance(Duration::from_millis(500)).await;
        assert_eq!(c.remaining(Side::Second, Instant::now()), 8_500);
    }
}
