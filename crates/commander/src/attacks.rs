//! Attacks on a point (section 11.1), the Commanders' line of sight (11.2) and the
//! air-defense zones that limit flights (section 8).

use crate::board::{NPOINTS, file, in_zone, rank, ray};
use crate::piece::{Kind, Profile, Unit, air_radius, bit, colour, heroes, kinds};
use crate::position::{Board, NONE};
use cannonade_geom::bits::Bits64;

/// Profiles of every kind, plain and heroic.
pub(crate) static PROFILES: [[Profile; 2]; 11] = {
    let mut t = [[Profile::of(Kind::Commander, false); 2]; 11];
    let mut i = 0;
    while i < 11 {
        t[i] = [
            Profile::of(Kind::from_index(i as u32), false),
            Profile::of(Kind::from_index(i as u32), true),
        ];
        i += 1;
    }
    t
};

/// The longest capture of any piece (heroic Air Force and Navy).
const MAX_REACH: usize = 5;

/// The most points [`attackers`] can name for one target: it looks `MAX_REACH` points along
/// each of 8 lines, and a point lies on one line from the target.
pub(crate) const ATTACKER_POINTS: usize = 8 * MAX_REACH;

/// Whether a piece of kind `kind` standing `k` points away along a line (diagonal or not)
/// with `blockers` units in between can capture a unit whose carrier is (`navy`) or is not a
/// Navy — ignoring air defense (section 6.2, step 7a with the ranges of section 3).
#[inline]
pub(crate) fn reaches(
    kind: Kind,
    hero: bool,
    diag: bool,
    k: usize,
    blockers: u32,
    navy: bool,
) -> bool {
    let pr = &PROFILES[kind as usize][hero as usize];
    if diag && !pr.diagonal {
        return false;
    }
    let mut rc = pr.rc[diag as usize] as usize;
    if kind == Kind::Navy && !navy {
        rc -= 1;
    }
    k <= rc && (pr.past || blockers == 0)
}

/// The air-defense providers of one side: point and radius.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Providers {
    /// Room for a provider on every point: a set has six, but the FEN reader accepts any
    /// number of pieces (rules 14.1), and a shorter list once dropped the ninth provider,
    /// letting a plane dive through its zone.
    list: [(u8, u8); NPOINTS],
    n: usize,
}

impl Providers {
    /// The providers among the units of side `side`.
    pub(crate) fn of(b: &Board, side: usize) -> Providers {
        let mut pv = Providers { list: [(0, 0); NPOINTS], n: 0 };
        for p in b.occ[side].iter() {
            let r = air_radius(b.units[p as usize]);
            if r > 0 {
                pv.list[pv.n] = (p, r);
                pv.n += 1;
            }
        }
        pv
    }

    /// Which providers cover `q`: 0 none, `i + 1` exactly provider `i`, [`MULTI`] several.
    #[inline]
    pub(crate) fn cover(&self, q: u8) -> u8 {
        let mut z = 0;
        for (i, &(p, r)) in self.list[..self.n].iter().enumerate() {
            if in_zone(p, q, r) {
                if z != 0 {
                    return MULTI;
                }
                z = i as u8 + 1;
            }
        }
        z
    }

    /// The cover of every point.
    pub(crate) fn map(&self) -> AirMap {
        let mut m = [0u8; NPOINTS];
        if self.n > 0 {
            for (q, slot) in m.iter_mut().enumerate() {
                *slot = self.cover(q as u8);
            }
        }
        m
    }
}

/// Cover of one point by several providers.
pub(crate) const MULTI: u8 = 0xFF;

/// Provider cover of every point (see [`Providers::cover`]).
pub(crate) type AirMap = [u8; NPOINTS];

/// The air-defense state of a flight (section 8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Air {
    /// Outside every zone so far.
    Safe,
    /// Inside exactly one zone: may only dive (kamikaze) or land on a friend.
    Kamikaze,
    /// Shot down: the ray ends.
    Down,
}

/// The running flight check of section 8.3.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flight {
    zone: u8,
    left: bool,
    down: bool,
}

impl Flight {
    /// Enters a point covered by `z` (see [`Providers::cover`]) and returns the new state.
    #[inline]
    pub(crate) fn enter(&mut self, z: u8) -> Air {
        if z == MULTI {
            self.down = true;
        } else if z == 0 {
            self.left |= self.zone != 0;
        } else if self.zone == 0 {
            self.zone = z;
        } else if self.zone != z {
            self.down = true;
        }
        if self.down || self.left {
            self.down = true;
            Air::Down
        } else if self.zone == 0 {
            Air::Safe
        } else {
            Air::Kamikaze
        }
    }
}

/// Visits every piece of side `by` that could capture on `c` (normal, stay or kamikaze, as a
/// single piece or any group leaving its stack — a group captures exactly like its carrier
/// alone, so it is enough to try each piece on its own). `f(point, kind)` returns `true` to
/// stop; the function returns whether it stopped.
pub(crate) fn attackers(b: &Board, c: u8, by: usize, mut f: impl FnMut(u8, Kind) -> bool) -> bool {
    let navy = kinds(b.units[c as usize]) & bit::N != 0;
    let mut providers: Option<Providers> = None;
    for d in 0..8 {
        let diag = d >= 4;
        let line = ray(c, d);
        let mut blockers = 0;
        for (i, &q) in line.iter().take(MAX_REACH).enumerate() {
            let u = b.units[q as usize];
            if u == 0 {
                continue;
            }
            if colour(u) == by {
                let k = i + 1;
                let h = heroes(u);
                for kb in Bits64(kinds(u) as u64) {
                    let kind = Kind::from_index(kb as u32);
                    let hero = h >> kb & 1 != 0;
                    if !reaches(kind, hero, diag, k, blockers, navy) {
                        continue;
                    }
                    if kind == Kind::AirForce && !hero {
                        let pv = providers.get_or_insert_with(|| Providers::of(b, 1 - by));
                        // The flight goes from q back towards c: line[i-1], ..., line[0], c.
                        let mut fl = Flight::default();
                        let path = line[..i].iter().rev().chain(std::iter::once(&c));
                        if path.into_iter().any(|&p| fl.enter(pv.cover(p)) == Air::Down) {
                            continue;
                        }
                    }
                    if f(q, kind) {
                        return true;
                    }
                }
            }
            blockers += 1;
        }
    }
    false
}

/// Whether side `by` attacks point `c`.
#[inline]
pub(crate) fn attacked(b: &Board, c: u8, by: usize) -> bool {
    attackers(b, c, by, |_, _| true)
}

/// Whether every point strictly between `a` and `z` (on one file or rank) is empty, counting
/// `ignore` as empty; `false` when they share no file or rank.
#[inline]
pub(crate) fn line_clear(units: &[Unit; NPOINTS], a: u8, z: u8, ignore: u8) -> bool {
    let step: i16 = if file(a) == file(z) {
        11
    } else if rank(a) == rank(z) {
        1
    } else {
        return false;
    };
    let (lo, hi) = if a < z { (a as i16, z as i16) } else { (z as i16, a as i16) };
    let mut p = lo + step;
    while p < hi {
        if units[p as usize] != 0 && p != ignore as i16 {
            return false;
        }
        p += step;
    }
    true
}

/// Whether the two Commanders face each other (section 11.2).
#[inline]
pub(crate) fn facing(b: &Board) -> bool {
    b.cmd[0] != NONE && b.cmd[1] != NONE && line_clear(&b.units, b.cmd[0], b.cmd[1], NONE)
}
