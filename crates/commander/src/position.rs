//! The position: a mailbox of unit words with occupancy, Commander points and an
//! incremental Zobrist hash; playing steps; hero promotions (section 10); turn legality
//! (section 11.3).

use crate::attacks::{ATTACKER_POINTS, Providers, attacked, attackers, facing};
use crate::board::{NPOINTS, Points, can_stand};
use crate::moves::{Move, Op};
use crate::piece::{
    Kind, Unit, air_radius, bit, carrier, colour, heroes, kinds, make_unit, sub_unit, unit_points,
};
use crate::zobrist::{side_key, unit_key};
use cannonade_geom::bits::Bits64;

/// No Commander on the board (never in a valid position).
pub(crate) const NONE: u8 = 0xFF;

/// Everything standing on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// The unit on each point (0 = empty).
    pub(crate) units: [Unit; NPOINTS],
    /// Points holding a unit of each colour.
    pub(crate) occ: [Points; 2],
    /// The point of each Commander (alone or in a stack).
    pub(crate) cmd: [u8; 2],
    /// Pieces of each colour besides the Commander, stacked ones included.
    pub(crate) others: [u8; 2],
    /// Zobrist hash of the placement.
    pub(crate) hash: u64,
}

impl Board {
    /// An empty board.
    pub(crate) fn empty() -> Board {
        Board {
            units: [0; NPOINTS],
            occ: [Points::default(); 2],
            cmd: [NONE; 2],
            others: [0; 2],
            hash: 0,
        }
    }

    /// Puts `u` (0 = nothing) on `p`, keeping every derived field in step.
    #[inline]
    pub(crate) fn set(&mut self, p: u8, u: Unit) {
        let old = self.units[p as usize];
        if old == u {
            return;
        }
        self.hash ^= unit_key(old, p) ^ unit_key(u, p);
        if old != 0 {
            let c = colour(old);
            self.occ[c].remove(p);
            self.others[c] -= (kinds(old) & !bit::C).count_ones() as u8;
            if kinds(old) & bit::C != 0 && self.cmd[c] == p {
                self.cmd[c] = NONE;
            }
        }
        if u != 0 {
            let c = colour(u);
            self.occ[c].insert(p);
            self.others[c] += (kinds(u) & !bit::C).count_ones() as u8;
            if kinds(u) & bit::C != 0 {
                self.cmd[c] = p;
            }
        }
        self.units[p as usize] = u;
    }

    /// Plays one step of side `side`: the kinds `group` leave `s` and do `op` at `to`.
    /// Returns the enemy unit removed and the own unit lost (kamikaze), for the points.
    #[inline]
    pub(crate) fn step(&mut self, s: u8, group: u16, to: u8, op: Op) -> (Unit, Unit) {
        let here = self.units[s as usize];
        let g = sub_unit(here, group);
        let rest = sub_unit(here, !group);
        let target = self.units[to as usize];
        match op {
            Op::Move => {
                self.set(s, rest);
                self.set(to, g);
                (0, 0)
            }
            Op::Capture => {
                self.set(s, rest);
                self.set(to, g);
                (target, 0)
            }
            Op::Stay => {
                self.set(to, 0);
                (target, 0)
            }
            Op::Kamikaze => {
                self.set(s, rest);
                self.set(to, 0);
                (target, g)
            }
            Op::Combine => {
                self.set(s, rest);
                self.set(to, target | g);
                (0, 0)
            }
        }
    }

    /// Sets the heroic mark of `kind` in the unit on `p`.
    #[inline]
    fn make_hero(&mut self, p: u8, kind: Kind) {
        let u = self.units[p as usize];
        if heroes(u) & kind.bit() == 0 {
            self.set(p, u | (kind.bit() as u32) << 11);
        }
    }

    /// Hero promotions after a step by `mover` (section 10.1, 10.2): every piece of the mover
    /// attacking the enemy Commander, then the last guard of each side.
    pub(crate) fn promote(&mut self, mover: usize) {
        let c = self.cmd[1 - mover];
        if c != NONE {
            // The kinds to promote on each attacking point. `attackers` names the kinds of
            // one point one after another, and at most ATTACKER_POINTS points; a list sized
            // by piece counts once dropped attackers of a crowded Commander.
            let mut found = [(0u8, 0u16); ATTACKER_POINTS];
            let mut n = 0;
            let units = &self.units;
            attackers(self, c, mover, |q, k| {
                if heroes(units[q as usize]) & k.bit() == 0 {
                    if n > 0 && found[n - 1].0 == q {
                        found[n - 1].1 |= k.bit();
                    } else {
                        found[n] = (q, k.bit());
                        n += 1;
                    }
                }
                false
            });
            for &(q, ks) in &found[..n] {
                for kb in Bits64(ks as u64) {
                    self.make_hero(q, Kind::from_index(kb as u32));
                }
            }
        }
        for side in 0..2 {
            if self.others[side] == 1 {
                for p in self.occ[side].iter() {
                    let k = kinds(self.units[p as usize]) & !bit::C;
                    if k != 0 {
                        self.make_hero(p, Kind::from_index(k.trailing_zeros()));
                    }
                }
            }
        }
    }

    /// Whether a turn of `mover` may end here: its Commander not attacked, the Commanders not
    /// facing (section 11.3).
    #[inline]
    pub(crate) fn safe(&self, mover: usize) -> bool {
        let c = self.cmd[mover];
        c != NONE && !facing(self) && !attacked(self, c, 1 - mover)
    }

    /// Whether the unit on `p` may stand there (rule S for its carrier).
    #[inline]
    pub(crate) fn stands(&self, p: u8) -> bool {
        let u = self.units[p as usize];
        u == 0 || can_stand(carrier(kinds(u)) == Kind::Navy, p)
    }

    /// The Zobrist hash recomputed from scratch.
    #[cfg(any(test, feature = "testkit"))]
    pub(crate) fn recompute_hash(&self) -> u64 {
        (0..NPOINTS as u8).fold(0, |h, p| h ^ unit_key(self.units[p as usize], p))
    }

    /// Builds a board from a unit per point.
    pub(crate) fn from_units(units: &[Unit; NPOINTS]) -> Board {
        let mut b = Board::empty();
        for (p, &u) in units.iter().enumerate() {
            b.set(p as u8, u);
        }
        b
    }
}

/// A Commander Chess position at a turn boundary: the board, the side to move, the
/// half-move and full-move counters and the points each side has scored since the position
/// the game started from (section 13.1; not part of the FEN).
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) b: Board,
    /// 0 = Red to move, 1 = Blue.
    pub(crate) turn: usize,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) points: [u32; 2],
}

impl PartialEq for Position {
    /// Positions are equal when board and side to move are (section 15.1); counters and
    /// points are not compared.
    fn eq(&self, other: &Self) -> bool {
        self.turn == other.turn && self.b.units == other.b.units
    }
}

impl Eq for Position {}

impl Position {
    /// Plays a legal turn (used by `Rules::play`).
    pub(crate) fn apply(&mut self, mv: Move) {
        let me = self.turn;
        let mut captured = false;
        for st in mv.steps() {
            let (taken, lost) = self.b.step(mv.from, st.group, st.to, st.op);
            if st.op.is_capture() {
                captured = true;
                self.points[me] += unit_points(taken);
                self.points[1 - me] += unit_points(lost);
            }
            self.b.promote(me);
        }
        self.halfmove = if captured { 0 } else { self.halfmove + 1 };
        if me == 1 {
            self.fullmove += 1;
        }
        self.turn = 1 - me;
    }

    /// The full hash: placement and side to move.
    #[inline]
    pub(crate) fn full_hash(&self) -> u64 {
        self.b.hash ^ if self.turn == 1 { side_key() } else { 0 }
    }

    /// The unit on point `p` as (colour, kinds, heroic kinds), `None` when empty. Colour 0 is
    /// Red. Kind sets are bit sets of [`Kind`] discriminants.
    pub fn unit_at(&self, p: u8) -> Option<(usize, u16, u16)> {
        let u = *self.b.units.get(p as usize)?;
        (u != 0).then(|| (colour(u), kinds(u), heroes(u)))
    }

    /// The colour to move: 0 Red, 1 Blue.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// Turns since the last capture of any kind.
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }

    /// Full-move number (starts at 1, increases after each Blue turn).
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// Points scored so far by Red (`[0]`) and Blue (`[1]`) since the position the game
    /// started from (section 13.1): the value of every enemy piece removed, heroic + 10,
    /// both sides scoring in a kamikaze.
    pub fn points(&self) -> [u32; 2] {
        self.points
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        let c = self.b.cmd[self.turn];
        c != NONE && attacked(&self.b, c, 1 - self.turn)
    }

    /// The point of colour `c`'s Commander (0 Red), alone or in a stack; `None` once it has
    /// been captured.
    pub fn commander(&self, c: usize) -> Option<u8> {
        let p = *self.b.cmd.get(c)?;
        (p != NONE).then_some(p)
    }

    /// The points under colour `c`'s air defence (0 Red, section 8.2): every point within
    /// the zone of one of its providers, as move generation sees them.
    pub fn air_defence(&self, c: usize) -> Points {
        let mut zone = Points::default();
        if c > 1 {
            return zone;
        }
        for (q, &cover) in Providers::of(&self.b, c).map().iter().enumerate() {
            if cover != 0 {
                zone.insert(q as u8);
            }
        }
        zone
    }

    /// The points holding a unit of colour `c` (0 Red), in increasing order.
    pub fn occupied(&self, c: usize) -> impl Iterator<Item = u8> {
        self.b.occ.get(c).copied().unwrap_or_default().iter()
    }

    /// The air-defence radius the unit on `p` projects (section 8.1; 0 when it provides
    /// none or the point is empty).
    pub fn air_radius_at(&self, p: u8) -> u8 {
        self.b.units.get(p as usize).map_or(0, |&u| if u == 0 { 0 } else { air_radius(u) })
    }

    /// Pieces of colour `c` (0 Red) standing on the board, stacked ones included, by kind.
    pub fn material(&self, c: usize) -> [u8; 11] {
        let mut m = [0u8; 11];
        for p in self.b.occ[c].iter() {
            for k in Bits64(kinds(self.b.units[p as usize]) as u64) {
                m[k as usize] += 1;
            }
        }
        m
    }
}

/// A unit word from parts (for the notation readers).
pub(crate) fn unit_of(c: usize, k: u16, h: u16) -> Unit {
    make_unit(c, k, h & k)
}
