//! The server's clocks: measured by the server, never taken from a client. Times are
//! milliseconds on a monotonic scale the caller gives ([`Ms`]), so the clocks are plain data
//! that tests drive without a runtime. Besides each seat's clock, a game of one of Commander
//! Chess's scored formats has a game timer (rules §13.3): the time of the whole game, which
//! runs whenever a seat's clock runs.
//!
//! A move is charged to its mover up to the moment the server received it
//! ([`Clock::press`]); the opponent's clock starts when the move is sent to the opponent
//! ([`Clock::start`]), so the time the server spends storing a move (and whatever queues in
//! front of it) is nobody's.

use cannonade_core::Side;
use cannonade_wire::{ClockState, TimeControl};

/// The clock setting a stored game row holds.
pub fn time_control(row: &cannonade_store::GameRow) -> TimeControl {
    match u32::try_from(row.days_per_move) {
        Ok(days) if days > 0 => TimeControl::correspondence(days),
        _ => TimeControl::fischer(row.initial_ms.max(0) as u64, row.increment_ms.max(0) as u64),
    }
}

/// Milliseconds on the server's monotonic clock.
pub type Ms = u64;

/// Two clocks, at most one running, and an optional game timer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    remaining: [u64; 2],
    /// The game timer's time left when the running clock started (`None`: no game timer).
    game: Option<u64>,
    running: Option<(Side, Ms)>,
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

    /// Clocks at the times of a stored state, none running.
    pub fn restored(tc: TimeControl, state: &ClockState) -> Clock {
        Clock { tc, remaining: state.remaining_ms, game: state.game_ms, running: None }
    }

    /// Whether the game has no clock and no game timer.
    pub fn untimed(&self) -> bool {
        self.tc.untimed() && self.game.is_none()
    }

    /// Time run since the running clock started.
    fn elapsed(&self, now: Ms) -> u64 {
        self.running.map_or(0, |(_, since)| now.saturating_sub(since))
    }

    /// Time left for `side` at `now`.
    pub fn remaining(&self, side: Side, now: Ms) -> u64 {
        let base = self.remaining[side.index()];
        match self.running {
            Some((s, _)) if s == side => base.saturating_sub(self.elapsed(now)),
            _ => base,
        }
    }

    /// Time left on the game timer at `now`, if the game has one.
    pub fn game_left(&self, now: Ms) -> Option<u64> {
        self.game.map(|g| g.saturating_sub(self.elapsed(now)))
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(s, _)| s)
    }

    /// What has run out at `now`, if anything: the game timer is looked at first.
    pub fn expired(&self, now: Ms) -> Option<Expired> {
        let side = self.running()?;
        if self.game_left(now) == Some(0) {
            Some(Expired::GameTime)
        } else if !self.tc.untimed() && self.remaining(side, now) == 0 {
            Some(Expired::Flag(side))
        } else {
            None
        }
    }

    /// Starts `side`'s clock at `now` (a running clock is stopped first and charged).
    pub fn start(&mut self, side: Side, now: Ms) {
        self.stop(now);
        if !self.untimed() {
            self.running = Some((side, now));
        }
    }

    /// Stops the running clock, charging it and the game timer the time used.
    pub fn stop(&mut self, now: Ms) {
        if let Some((side, _)) = self.running {
            self.remaining[side.index()] = self.remaining(side, now);
            self.game = self.game_left(now);
            self.running = None;
        }
    }

    /// `side` completed a move received at `at`: its time used is charged (to its clock and
    /// the game timer), the increment added, and the clocks stopped until the move reaches
    /// the opponent ([`Clock::start`]). A move on a stopped clock (the game's first moves)
    /// charges nothing. `Err` when time ran out before the move; the clocks are then stopped
    /// at zero.
    pub fn press(&mut self, side: Side, at: Ms) -> Result<(), Expired> {
        if self.untimed() {
            return Ok(());
        }
        let charged = self.running() == Some(side);
        if charged && let Some(expired) = self.expired(at) {
            self.stop(at);
            return Err(expired);
        }
        self.stop(at);
        if charged && !self.tc.untimed() {
            let left = &mut self.remaining[side.index()];
            if self.tc.is_correspondence() {
                // Each move has the whole period: the time left is set back, never added to.
                *left = self.tc.initial_ms;
            } else {
                *left += self.tc.increment_ms;
            }
        }
        Ok(())
    }

    /// Charges `side`'s clock `ms` that passed outside the monotonic scale: a correspondence
    /// game's time while the server was down (see `GameRoom::restore`). Nothing for a side
    /// whose clock does not run.
    pub fn charge(&mut self, side: Side, ms: u64) {
        if self.running() == Some(side) {
            let left = &mut self.remaining[side.index()];
            *left = left.saturating_sub(ms);
        }
    }

    /// When the running side's time or the game timer runs out, whichever comes first.
    pub fn deadline(&self) -> Option<Ms> {
        let (side, since) = self.running?;
        let flag = (!self.tc.untimed()).then(|| since + self.remaining[side.index()]);
        match (flag, self.game.map(|g| since + g)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The clocks as sent to clients: `running` is the seat whose clock runs, or the seat
    /// about to be started by `next`.
    pub fn state(&self, now: Ms) -> ClockState {
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

    const TC: TimeControl = TimeControl::fischer(10_000, 1_000);

    /// A move pressed at `at`, reaching the opponent at `sent`.
    fn moved(c: &mut Clock, side: Side, at: Ms, sent: Ms) -> Result<(), Expired> {
        c.press(side, at)?;
        c.start(side.opponent(), sent);
        Ok(())
    }

    #[test]
    fn a_press_charges_the_time_used_and_adds_the_increment() {
        let mut c = Clock::new(TC, None);
        moved(&mut c, Side::First, 0, 0).unwrap(); // the first move charges nothing
        assert_eq!(c.running(), Some(Side::Second));
        moved(&mut c, Side::Second, 2_500, 2_500).unwrap();
        assert_eq!(c.remaining(Side::Second, 2_500), 10_000 - 2_500 + 1_000);
        assert_eq!(c.remaining(Side::First, 2_500), 10_000);
        assert_eq!(c.remaining(Side::First, 2_900), 9_600);
    }

    /// The time between receiving a move and sending it on (storing it) is charged to
    /// neither side.
    #[test]
    fn the_opponents_clock_starts_when_the_move_is_sent() {
        let mut c = Clock::new(TC, None);
        moved(&mut c, Side::First, 0, 0).unwrap();
        // Second's move arrives at 1 s and is told to First at 38 s (a store under load).
        moved(&mut c, Side::Second, 1_000, 38_000).unwrap();
        assert_eq!(c.remaining(Side::Second, 38_000), 10_000 - 1_000 + 1_000);
        assert_eq!(c.remaining(Side::First, 38_000), 10_000);
        assert_eq!(c.deadline(), Some(48_000));
    }

    #[test]
    fn a_move_after_the_deadline_flags() {
        let mut c = Clock::new(TC, None);
        moved(&mut c, Side::First, 0, 0).unwrap();
        assert_eq!(c.deadline(), Some(10_000));
        assert_eq!(c.press(Side::Second, 10_000), Err(Expired::Flag(Side::Second)));
        assert_eq!(c.remaining(Side::Second, 10_000), 0);
        assert_eq!(c.running(), None);
    }

    #[test]
    fn untimed_clocks_never_run() {
        let mut c = Clock::new(TimeControl::fischer(0, 0), None);
        moved(&mut c, Side::First, 0, 0).unwrap();
        assert_eq!(c.deadline(), None);
        assert_eq!(c.state(5).running, None);
    }

    #[test]
    fn a_stopped_clock_charges_nothing_while_stopped() {
        let mut c = Clock::new(TC, None);
        moved(&mut c, Side::First, 0, 0).unwrap();
        c.stop(1_000);
        assert_eq!(c.remaining(Side::Second, 61_000), 9_000);
        c.start(Side::Second, 61_000);
        assert_eq!(c.remaining(Side::Second, 61_500), 8_500);
    }

    #[test]
    fn the_game_timer_runs_for_both_sides_and_runs_out_first_on_points() {
        // Rules §13.3: one timer for the whole game, whoever is thinking.
        let mut c = Clock::new(TC, Some(5_000));
        moved(&mut c, Side::First, 0, 0).unwrap(); // the first move charges nothing
        assert_eq!(c.game_left(0), Some(5_000));
        moved(&mut c, Side::Second, 2_000, 2_000).unwrap();
        moved(&mut c, Side::First, 4_500, 4_500).unwrap();
        assert_eq!(c.state(4_500).game_ms, Some(500));
        // The second seat has 9 s of its own left; the game timer ends first.
        assert_eq!(c.remaining(Side::Second, 4_500), 9_000);
        assert_eq!(c.deadline(), Some(5_000));
        assert_eq!(c.expired(4_500), None);
        assert_eq!(c.expired(5_000), Some(Expired::GameTime));
        assert_eq!(c.press(Side::Second, 5_000), Err(Expired::GameTime));
        assert_eq!(c.state(5_000).game_ms, Some(0));
        assert_eq!(c.running(), None);
    }

    #[test]
    fn a_seat_clock_still_flags_inside_the_game_time() {
        let mut c = Clock::new(TC, Some(60_000));
        moved(&mut c, Side::First, 0, 0).unwrap();
        assert_eq!(c.deadline(), Some(10_000));
        assert_eq!(c.expired(10_000), Some(Expired::Flag(Side::Second)));
        assert_eq!(c.game_left(10_000), Some(50_000));
    }

    #[test]
    fn a_restored_game_timer_is_not_charged_for_the_downtime() {
        let stored = ClockState {
            remaining_ms: [7_000, 8_000],
            running: Some(cannonade_wire::Seat::Second),
            game_ms: Some(3_000),
        };
        let mut c = Clock::restored(TC, &stored);
        assert_eq!(c.game_left(600_000), Some(3_000));
        c.start(Side::Second, 600_000);
        assert_eq!(
            (c.game_left(601_000), c.remaining(Side::Second, 601_000)),
            (Some(2_000), 7_000)
        );
        assert_eq!(c.deadline(), Some(603_000));
    }

    #[test]
    fn a_correspondence_move_sets_the_days_back_to_the_whole_period() {
        const DAYS3: u64 = 3 * cannonade_wire::DAY_MS;
        let mut c = Clock::new(TimeControl::correspondence(3), None);
        assert_eq!(c.remaining(Side::First, 0), DAYS3);
        moved(&mut c, Side::First, 0, 0).unwrap();
        // Second takes two days and a bit: back to three days, not 3 - 2 + anything.
        let two_days = 2 * cannonade_wire::DAY_MS + 5_000;
        moved(&mut c, Side::Second, two_days, two_days).unwrap();
        assert_eq!(c.remaining(Side::Second, two_days), DAYS3);
        assert_eq!(c.deadline(), Some(two_days + DAYS3));
        // First lets all three days pass: a flag.
        assert_eq!(c.press(Side::First, two_days + DAYS3), Err(Expired::Flag(Side::First)));
    }

    #[test]
    fn a_charge_takes_from_the_running_side_only() {
        let mut c = Clock::new(TimeControl::correspondence(1), None);
        moved(&mut c, Side::First, 0, 0).unwrap();
        c.charge(Side::First, 1_000);
        c.charge(Side::Second, 3_600_000);
        assert_eq!(c.remaining(Side::First, 0), cannonade_wire::DAY_MS);
        assert_eq!(c.remaining(Side::Second, 0), cannonade_wire::DAY_MS - 3_600_000);
        c.charge(Side::Second, 2 * cannonade_wire::DAY_MS);
        assert_eq!(c.expired(0), Some(Expired::Flag(Side::Second)));
    }

    #[test]
    fn a_game_timer_alone_runs_without_seat_clocks() {
        let mut c = Clock::new(TimeControl::fischer(0, 0), Some(1_000));
        moved(&mut c, Side::First, 0, 0).unwrap();
        assert_eq!(c.expired(999), None, "an untimed seat never flags");
        moved(&mut c, Side::Second, 999, 999).unwrap();
        assert_eq!(c.expired(1_000), Some(Expired::GameTime));
    }
}
