//! The server's clocks: measured with the monotonic clock of the runtime (so tests can pause
//! time), never taken from a client. Besides each seat's clock, a game of one of Commander
//! Chess's scored formats has a game timer (rules §13.3): the time of the whole game, which
//! runs whenever a seat's clock runs.

use cannonade_core::Side;
use cannonade_wire::{ClockState, TimeControl};
use tokio::time::Instant;

/// Two clocks, at most one running, and an optional game timer.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    remaining: [u64; 2],
    /// The game timer's time left when the running clock started (`None`: no game timer).
    game: Option<u64>,
    running: Option<(Side, Instant)>,
}

/// Time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expired {
    /// A seat's clock reached zero before its side moved.
    Flag(Side),
    /// The game timer reached zero.
    GameTime,
}

impl Clock {
    /// Fresh clocks, none running; `game_ms` is the game timer of a scored format.
    pub fn new(tc: TimeControl, game_ms: Option<u64>) -> Clock {
        Clock { tc, remaining: [tc.initial_ms; 2], game: game_ms, running: None }
    }

    /// Clocks restored at the times of a stored state, none running.
    pub fn restored(tc: TimeControl, state: &ClockState) -> Clock {
        Clock { tc, remaining: state.remaining_ms, game: state.game_ms, running: None }
    }

    /// Whether the game has no clock and no game timer.
    pub fn untimed(&self) -> bool {
        self.tc.untimed() && self.game.is_none()
    }

    /// Time run since the running clock started.
    fn elapsed(&self, now: Instant) -> u64 {
        self.running.map_or(0, |(_, since)| now.saturating_duration_since(since).as_millis() as u64)
    }

    /// Time left for `side` at `now`.
    pub fn remaining(&self, side: Side, now: Instant) -> u64 {
        let base = self.remaining[side.index()];
        match self.running {
            Some((s, _)) if s == side => base.saturating_sub(self.elapsed(now)),
            _ => base,
        }
    }

    /// Time left on the game timer at `now`, if the game has one.
    pub fn game_left(&self, now: Instant) -> Option<u64> {
        self.game.map(|g| g.saturating_sub(self.elapsed(now)))
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(s, _)| s)
    }

    /// What has run out at `now`, if anything: the game timer is looked at first.
    pub fn expired(&self, now: Instant) -> Option<Expired> {
        let side = self.running()?;
        if self.game_left(now) == Some(0) {
            Some(Expired::GameTime)
        } else if !self.tc.untimed() && self.remaining(side, now) == 0 {
            Some(Expired::Flag(side))
        } else {
            None
        }
    }

    /// Starts `side`'s clock (stopping the other without charging it).
    pub fn start(&mut self, side: Side, now: Instant) {
        if !self.untimed() {
            self.running = Some((side, now));
        }
    }

    /// Stops the running clock, charging it and the game timer the time used.
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.remaining[side.index()] = self.remaining(side, now);
            self.game = self.game_left(now);
            self.running = None;
        }
    }

    /// `side` completed a move at `now`: its time used is charged (to its clock and the game
    /// timer) and the increment added, and the opponent's clock starts. A move on a stopped
    /// clock (the game's first moves) charges nothing. `Err` when time ran out before the
    /// move; the clocks are then stopped at zero.
    pub fn press(&mut self, side: Side, now: Instant) -> Result<(), Expired> {
        if self.untimed() {
            return Ok(());
        }
        if let Some((running, _)) = self.running
            && running == side
        {
            if let Some(expired) = self.expired(now) {
                self.stop(now);
                return Err(expired);
            }
            let left = self.remaining(side, now);
            self.game = self.game_left(now);
            if !self.tc.untimed() {
                self.remaining[side.index()] = left + self.tc.increment_ms;
            }
        }
        self.running = Some((side.opponent(), now));
        Ok(())
    }

    /// When the running side's time or the game timer runs out, whichever comes first.
    pub fn deadline(&self) -> Option<Instant> {
        let (side, since) = self.running?;
        let ms = |left: u64| since + std::time::Duration::from_millis(left);
        let flag = (!self.tc.untimed()).then(|| ms(self.remaining[side.index()]));
        match (flag, self.game.map(ms)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
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
            game_ms: self.game_left(now),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_wire::Seat;
    use std::time::Duration;

    const TC: TimeControl = TimeControl { initial_ms: 10_000, increment_ms: 1_000 };

    #[tokio::test(start_paused = true)]
    async fn a_press_charges_the_time_used_and_adds_the_increment() {
        let mut c = Clock::new(TC, None);
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
        let mut c = Clock::new(TC, None);
        c.press(Side::First, Instant::now()).unwrap();
        let deadline = c.deadline().unwrap();
        assert_eq!(deadline - Instant::now(), Duration::from_millis(10_000));
        tokio::time::advance(Duration::from_millis(10_000)).await;
        assert_eq!(c.press(Side::Second, Instant::now()), Err(Expired::Flag(Side::Second)));
        assert_eq!(c.remaining(Side::Second, Instant::now()), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn untimed_clocks_never_run() {
        let mut c = Clock::new(TimeControl { initial_ms: 0, increment_ms: 0 }, None);
        c.press(Side::First, Instant::now()).unwrap();
        assert_eq!(c.deadline(), None);
        assert_eq!(c.state(Instant::now()).running, None);
    }

    #[tokio::test(start_paused = true)]
    async fn a_stopped_clock_charges_nothing_while_stopped() {
        let mut c = Clock::new(TC, None);
        c.press(Side::First, Instant::now()).unwrap();
        tokio::time::advance(Duration::from_millis(1_000)).await;
        c.stop(Instant::now());
        tokio::time::advance(Duration::from_secs(60)).await;
        assert_eq!(c.remaining(Side::Second, Instant::now()), 9_000);
        c.start(Side::Second, Instant::now());
        tokio::time::advance(Duration::from_millis(500)).await;
        assert_eq!(c.remaining(Side::Second, Instant::now()), 8_500);
    }

    #[tokio::test(start_paused = true)]
    async fn the_game_timer_runs_for_both_sides_and_runs_out_first_on_points() {
        // Rules §13.3: one timer for the whole game, whoever is thinking.
        let mut c = Clock::new(TC, Some(5_000));
        c.press(Side::First, Instant::now()).unwrap(); // the first move charges nothing
        assert_eq!(c.game_left(Instant::now()), Some(5_000));
        tokio::time::advance(Duration::from_millis(2_000)).await;
        c.press(Side::Second, Instant::now()).unwrap();
        tokio::time::advance(Duration::from_millis(2_500)).await;
        c.press(Side::First, Instant::now()).unwrap();
        assert_eq!(c.state(Instant::now()).game_ms, Some(500));
        // The second seat has 9 s of its own left; the game timer ends first.
        assert_eq!(c.remaining(Side::Second, Instant::now()), 9_000);
        assert_eq!(c.deadline().unwrap() - Instant::now(), Duration::from_millis(500));
        assert_eq!(c.expired(Instant::now()), None);
        tokio::time::advance(Duration::from_millis(500)).await;
        assert_eq!(c.expired(Instant::now()), Some(Expired::GameTime));
        assert_eq!(c.press(Side::Second, Instant::now()), Err(Expired::GameTime));
        assert_eq!(c.state(Instant::now()).game_ms, Some(0));
        assert_eq!(c.running(), None);
    }

    #[tokio::test(start_paused = true)]
    async fn a_seat_clock_still_flags_inside_the_game_time() {
        let mut c = Clock::new(TC, Some(60_000));
        c.press(Side::First, Instant::now()).unwrap();
        assert_eq!(c.deadline().unwrap() - Instant::now(), Duration::from_millis(10_000));
        tokio::time::advance(Duration::from_millis(10_000)).await;
        assert_eq!(c.expired(Instant::now()), Some(Expired::Flag(Side::Second)));
        assert_eq!(c.game_left(Instant::now()), Some(50_000));
    }

    #[tokio::test(start_paused = true)]
    async fn a_restored_game_timer_is_not_charged_for_the_downtime() {
        let stored = ClockState {
            remaining_ms: [7_000, 8_000],
            running: Some(Seat::Second),
            game_ms: Some(3_000),
        };
        let mut c = Clock::restored(TC, &stored);
        tokio::time::advance(Duration::from_secs(600)).await;
        assert_eq!(c.game_left(Instant::now()), Some(3_000));
        c.start(Side::Second, Instant::now());
        tokio::time::advance(Duration::from_millis(1_000)).await;
        let now = Instant::now();
        assert_eq!((c.game_left(now), c.remaining(Side::Second, now)), (Some(2_000), 7_000));
        assert_eq!(c.deadline().unwrap() - now, Duration::from_millis(2_000));
    }

    #[tokio::test(start_paused = true)]
    async fn a_game_timer_alone_runs_without_seat_clocks() {
        let mut c = Clock::new(TimeControl { initial_ms: 0, increment_ms: 0 }, Some(1_000));
        c.press(Side::First, Instant::now()).unwrap();
        tokio::time::advance(Duration::from_millis(999)).await;
        assert_eq!(c.expired(Instant::now()), None, "an untimed seat never flags");
        c.press(Side::Second, Instant::now()).unwrap();
        tokio::time::advance(Duration::from_millis(1)).await;
        assert_eq!(c.expired(Instant::now()), Some(Expired::GameTime));
    }
}
