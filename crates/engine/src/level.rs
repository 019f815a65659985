//! Playing levels for people: 1 (a beginner's opponent) to 10 (full strength), weakened by
//! depth, nodes, evaluation noise and a share of the thinking time (the table is in
//! [`crate::params::LEVELS`]).

use crate::Limits;
use crate::params::{LEVEL_ELO, LEVELS, XIANGQI_NODE_RATE};

/// A playing level, 1 to 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// The `UCI_Elo` range the levels are spread over: from level 1's Elo to level 10's.
pub const ELO_RANGE: (u32, u32) = (LEVEL_ELO[0], LEVEL_ELO[LEVEL_ELO.len() - 1]);

impl Level {
    /// Full strength.
    pub const MAX: Level = Level(10);
    /// The weakest level.
    pub const MIN: Level = Level(1);

    /// Level `n`, if it is 1 to 10.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= 1 && n <= 10 { Some(Level(n)) } else { None }
    }

    /// The level's number, 1 to 10.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The level whose Elo is nearest to `elo` (clamped to [`ELO_RANGE`]).
    ///
    /// ```
    /// use cannonade_engine::Level;
    /// assert_eq!(Level::from_elo(800), Level::MIN);
    /// assert_eq!(Level::from_elo(2390), Level::MAX);
    /// assert_eq!(Level::from_elo(1500).number(), 3);
    /// ```
    pub fn from_elo(elo: u32) -> Level {
        let (lo, hi) = ELO_RANGE;
        let e = elo.clamp(lo, hi);
        let nearest = (0..LEVEL_ELO.len()).min_by_key(|&i| LEVEL_ELO[i].abs_diff(e)).unwrap_or(0);
        Level(nearest as u8 + 1)
    }

    /// The level's `UCI_Elo`: the measured ladder's shape scaled onto [`ELO_RANGE`]
    /// ([`crate::params::LEVEL_ELO`]).
    pub fn nominal_elo(self) -> u32 {
        LEVEL_ELO[self.0 as usize - 1]
    }

    /// Evaluation noise in ± centipawns.
    pub fn noise(self) -> i32 {
        LEVELS[self.0 as usize - 1].2
    }

    /// The caller's limits, tightened by the level's depth, its node budget scaled by the
    /// game's node rate (percent of Xiangqi's, [`crate::Evaluate::NODE_RATE`]) and its share
    /// of the time.
    ///
    /// ```
    /// use cannonade_engine::{Level, Limits};
    /// let five = Level::new(5).unwrap();
    /// // A game searched at a tenth of Xiangqi's speed gets a tenth of the nodes.
    /// let xiangqi = five.restrict(&Limits::default(), 100).nodes.unwrap();
    /// assert_eq!(five.restrict(&Limits::default(), 10).nodes, Some(xiangqi / 10));
    /// ```
    pub fn restrict(self, limits: &Limits, node_rate: u32) -> Limits {
        let (depth, nodes, _, time_percent) = LEVELS[self.0 as usize - 1];
        let mut l = limits.clone();
        if depth != u32::MAX {
            l.depth = Some(l.depth.map_or(depth, |d| d.min(depth)));
        }
        if nodes != u64::MAX {
            let nodes = (nodes * node_rate as u64 / XIANGQI_NODE_RATE as u64).max(1);
            l.nodes = Some(l.nodes.map_or(nodes, |n| n.min(nodes)));
        }
        if time_percent < 100 {
            let share = |t: std::time::Duration| t * time_percent / 100;
            l.time = l.time.map(share);
            l.soft_time = l.soft_time.map(share);
        }
        l
    }
}

impl Default for Level {
    fn default() -> Self {
        Level::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game's node rate, slowest first.
    const RATES: [u32; 4] = [
        crate::params::COMMANDER_NODE_RATE,
        crate::params::BATTLE_NODE_RATE,
        XIANGQI_NODE_RATE,
        crate::params::BANQI_NODE_RATE,
    ];

    #[test]
    fn levels_are_monotonic_in_every_game() {
        let given = Limits {
            time: Some(std::time::Duration::from_millis(400)),
            soft_time: Some(std::time::Duration::from_millis(200)),
            ..Limits::default()
        };
        for rate in RATES {
            for n in 1..10 {
                let (a, b) = (Level(n), Level(n + 1));
                let (la, lb) = (a.restrict(&given, rate), b.restrict(&given, rate));
                assert!(la.depth.unwrap_or(u32::MAX) < lb.depth.unwrap_or(u32::MAX));
                assert!(la.nodes.unwrap_or(u64::MAX) < lb.nodes.unwrap_or(u64::MAX), "{rate} {n}");
                // A level never thinks longer than the one above it: when time binds before
                // the budgets, more time is more strength.
                assert!(la.time <= lb.time && la.soft_time <= lb.soft_time, "{rate} {n}");
                assert!(a.noise() >= b.noise());
                assert!(a.nominal_elo() < b.nominal_elo());
            }
            assert_eq!(Level::MAX.restrict(&Limits::default(), rate), Limits::default());
        }
        assert_eq!(Level::MAX.noise(), 0);
    }

    #[test]
    fn node_budgets_scale_with_the_game_s_speed() {
        let nodes = |level: u8, rate| Level(level).restrict(&Limits::default(), rate).nodes;
        for n in 1..10 {
            assert_eq!(nodes(n, XIANGQI_NODE_RATE), Some(LEVELS[n as usize - 1].1));
            for pair in RATES.windows(2) {
                assert!(nodes(n, pair[0]) < nodes(n, pair[1]));
            }
        }
        // The caller's own budget still caps it.
        let given = Limits { nodes: Some(1_000), ..Limits::default() };
        assert_eq!(Level(9).restrict(&given, 300).nodes, Some(1_000));
    }

    #[test]
    fn levels_below_ten_think_half_as_long() {
        let given = Limits {
            time: Some(std::time::Duration::from_millis(400)),
            soft_time: Some(std::time::Duration::from_millis(200)),
            ..Limits::default()
        };
        for n in 1..10 {
            let l = Level(n).restrict(&given, XIANGQI_NODE_RATE);
            assert_eq!(l.time, Some(std::time::Duration::from_millis(200)));
            assert_eq!(l.soft_time, Some(std::time::Duration::from_millis(100)));
        }
        assert_eq!(Level::MAX.restrict(&given, XIANGQI_NODE_RATE), given);
    }

    #[test]
    fn elo_maps_onto_levels() {
        assert_eq!(Level::from_elo(0), Level::MIN);
        assert_eq!(Level::from_elo(10_000), Level::MAX);
        for n in 1..=10 {
            let l = Level(n);
            assert_eq!(Level::from_elo(l.nominal_elo()), l);
        }
        assert_eq!(Level::MIN.nominal_elo(), ELO_RANGE.0);
        assert_eq!(Level::MAX.nominal_elo(), ELO_RANGE.1);
        // Between two levels, the nearer one.
        assert_eq!(Level::from_elo(1700), Level(4));
        assert_eq!(Level::from_elo(1800), Level(5));
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(11), None);
    }
}
