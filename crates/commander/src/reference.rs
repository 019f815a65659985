//! The slow reference generator for the conformance testkit: written from the rules text
//! with coordinates, sharing no move-generation code with the fast generator. It tries every
//! sequence of deploy steps (every order, no pruning), judges each end position, and keeps
//! for every distinct end board the least turn in [`Move`]'s order.

#![allow(clippy::needless_range_loop)] // point indices are the clearest here

use crate::moves::{Move, Op, Step};
use crate::piece::{Kind, LEGAL, Unit, bit, carrier, colour, heroes, kinds, sub_unit};
use crate::position::Position;
use std::collections::BTreeMap;

type Units = [Unit; 132];

fn at(x: i32, y: i32) -> Option<usize> {
    ((0..11).contains(&x) && (0..12).contains(&y)).then_some((y * 11 + x) as usize)
}

fn xy(p: usize) -> (i32, i32) {
    ((p % 11) as i32, (p / 11) as i32)
}

/// Section 2.1 and rule S.
fn may_stand(navy: bool, p: usize) -> bool {
    let (x, y) = xy(p);
    let water = x <= 1;
    let mixed = x == 2 || ((x == 3 || x == 4) && (y == 5 || y == 6));
    if navy { water || mixed } else { !water }
}

const DIRS: [(i32, i32); 8] =
    [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)];

fn has(u: Unit, k: Kind) -> bool {
    kinds(u) & k.bit() != 0
}

fn hero_of(u: Unit, k: Kind) -> bool {
    heroes(u) & k.bit() != 0
}

fn find_commander(b: &Units, c: usize) -> Option<usize> {
    (0..132).find(|&p| b[p] != 0 && colour(b[p]) == c && has(b[p], Kind::Commander))
}

/// Section 11.2: both Commanders on one line with nothing between (`skip` counts as empty).
fn faces(b: &Units, p: usize, q: usize, skip: Option<usize>) -> bool {
    let ((x0, y0), (x1, y1)) = (xy(p), xy(q));
    if x0 != x1 && y0 != y1 {
        return false;
    }
    let (dx, dy) = ((x1 - x0).signum(), (y1 - y0).signum());
    let (mut x, mut y) = (x0 + dx, y0 + dy);
    while (x, y) != (x1, y1) {
        let r = (y * 11 + x) as usize;
        if b[r] != 0 && Some(r) != skip {
            return false;
        }
        x += dx;
        y += dy;
    }
    true
}

/// Air-defense providers of colour `c`: (x, y, radius).
fn providers(b: &Units, c: usize) -> Vec<(i32, i32, i32)> {
    let mut v = Vec::new();
    for p in 0..132 {
        let u = b[p];
        if u == 0 || colour(u) != c {
            continue;
        }
        let (x, y) = xy(p);
        let k = kinds(u);
        let r = if has(u, Kind::Navy) {
            1 + hero_of(u, Kind::Navy) as i32
        } else if k == bit::G {
            1 + hero_of(u, Kind::AntiAir) as i32
        } else if k == bit::S {
            2 + hero_of(u, Kind::Missile) as i32
        } else {
            0
        };
        if r > 0 {
            v.push((x, y, r));
        }
    }
    v
}

/// The options of unit `u` (kinds of the moving group) leaving `s`: (target, op). With
/// `attack`, the Commander's exposure stop (step 2) is skipped.
fn options(b: &Units, s: usize, u: Unit, whole: bool, attack: bool) -> Vec<(usize, Op)> {
    let mut out = Vec::new();
    let me = colour(u);
    let carrier = carrier(kinds(u));
    let hero = hero_of(u, carrier);
    let h = hero as i32;
    let navy = carrier == Kind::Navy;
    let air = carrier == Kind::AirForce;
    let heavy = matches!(carrier, Kind::Artillery | Kind::AntiAir | Kind::Missile);
    let past = matches!(carrier, Kind::Artillery | Kind::Missile | Kind::AirForce | Kind::Navy);
    let all_dirs = hero
        || matches!(
            carrier,
            Kind::Militia | Kind::Artillery | Kind::Missile | Kind::AirForce | Kind::Navy
        );
    let enemy_cmd = find_commander(b, 1 - me);
    let prov = providers(b, 1 - me);
    let leaves_empty = kinds(b[s]) == kinds(u);
    let (sx, sy) = xy(s);
    for (di, &(dx, dy)) in DIRS.iter().enumerate() {
        let diag = di >= 4;
        if diag && !all_dirs {
            continue;
        }
        let (rm, rc): (i32, i32) = match carrier {
            Kind::Commander => (99, 1),
            Kind::Infantry | Kind::Engineer | Kind::AntiAir | Kind::Militia => (1 + h, 1 + h),
            Kind::Tank => (2 + h, 2 + h),
            Kind::Artillery => (3 + h, 3 + h),
            Kind::Missile if diag => (1 + h, 1 + h),
            Kind::Missile => (2 + h, 2 + h),
            Kind::AirForce | Kind::Navy => (4 + h, 4 + h),
            Kind::Headquarters => (2 * h, 2 * h),
        };
        let reach = rm.max(rc);
        let (mut shut, mut passed) = (false, false);
        let mut zones: Vec<usize> = Vec::new();
        let mut left = false;
        for k in 1.. {
            let (x, y) = (sx + k * dx, sy + k * dy);
            let Some(p) = at(x, y) else { break };
            if carrier == Kind::Commander
                && !attack
                && let Some(e) = enemy_cmd
                && (e == p || faces(b, p, e, leaves_empty.then_some(s)))
            {
                break;
            }
            let mut kamikaze = false;
            if air && !hero {
                let z: Vec<usize> = (0..prov.len())
                    .filter(|&i| {
                        let (px, py, r) = prov[i];
                        (x - px).pow(2) + (y - py).pow(2) <= r * r
                    })
                    .collect();
                if z.is_empty() {
                    if !zones.is_empty() {
                        left = true;
                    }
                } else {
                    for i in z {
                        if !zones.contains(&i) {
                            zones.push(i);
                        }
                    }
                }
                if zones.len() > 1 || left {
                    break;
                }
                kamikaze = zones.len() == 1;
            }
            if k > reach {
                break;
            }
            if !air && !shut {
                let crossing = (sy <= 5) != (y <= 5);
                let ford_ok = dx == 0 && (sx == 5 || sx == 7);
                let (px, py) = (x - dx, y - dy);
                let corner =
                    [((2, 4), (3, 5)), ((3, 5), (2, 4)), ((2, 7), (3, 6)), ((3, 6), (2, 7))]
                        .contains(&((px, py), (x, y)));
                shut = !may_stand(navy, p) || (heavy && crossing && !ford_ok) || (navy && corner);
            }
            let v = b[p];
            if v == 0 {
                if k <= rm && !shut && !passed && may_stand(navy, p) && !kamikaze {
                    out.push((p, Op::Move));
                }
                continue;
            }
            if colour(v) != me {
                let mut ok = k <= rc;
                if carrier == Kind::Commander && k != 1 {
                    ok = false;
                }
                if navy && !has(v, Kind::Navy) && k > rc - 1 {
                    ok = false;
                }
                if ok {
                    if kamikaze {
                        out.push((p, Op::Kamikaze));
                    } else if may_stand(navy, p) {
                        out.push((p, Op::Capture));
                        if air && whole {
                            out.push((p, Op::Stay));
                        }
                    } else {
                        out.push((p, Op::Stay));
                    }
                }
            } else {
                let m = kinds(v) | kinds(u);
                if kinds(v) & kinds(u) == 0
                    && LEGAL[m as usize]
                    && k <= rm
                    && !shut
                    && !passed
                    && may_stand(m & bit::N != 0, p)
                {
                    out.push((p, Op::Combine));
                }
            }
            let blocks = if air {
                false
            } else if navy {
                has(v, Kind::Navy)
            } else {
                true
            };
            if blocks {
                passed = true;
            }
            if carrier == Kind::Commander || (passed && !air && !past) {
                break;
            }
        }
    }
    out
}

/// Whether colour `by` attacks point `c`: some piece of it, leaving alone, can capture there.
fn attacks(b: &Units, c: usize, by: usize) -> bool {
    (0..132).any(|p| b[p] != 0 && colour(b[p]) == by && piece_attackers(b, p, c).next().is_some())
}

/// The kinds of the unit on `p` that, leaving alone, can capture on `c`.
fn piece_attackers(b: &Units, p: usize, c: usize) -> impl Iterator<Item = Kind> + '_ {
    Kind::ALL.into_iter().filter(move |&k| {
        has(b[p], k)
            && options(b, p, sub_unit(b[p], k.bit()), false, true)
                .iter()
                .any(|&(t, op)| t == c && matches!(op, Op::Capture | Op::Stay | Op::Kamikaze))
    })
}

fn set_hero(b: &mut Units, p: usize, k: Kind) {
    b[p] |= (k.bit() as u32) << 11;
}

/// Section 10 after a step of `mover`.
fn promotions(b: &mut Units, mover: usize) {
    if let Some(c) = find_commander(b, 1 - mover) {
        let mut found = Vec::new();
        for p in 0..132 {
            if b[p] != 0 && colour(b[p]) == mover {
                found.extend(piece_attackers(b, p, c).map(|k| (p, k)));
            }
        }
        for (p, k) in found {
            set_hero(b, p, k);
        }
    }
    for side in 0..2 {
        let pieces: Vec<(usize, Kind)> = (0..132)
            .filter(|&p| b[p] != 0 && colour(b[p]) == side)
            .flat_map(|p| {
                Kind::ALL.into_iter().filter(move |&k| k != Kind::Commander).map(move |k| (p, k))
            })
            .filter(|&(p, k)| has(b[p], k))
            .collect();
        if pieces.len() == 1 {
            set_hero(b, pieces[0].0, pieces[0].1);
        }
    }
}

fn play_step(b: &mut Units, s: usize, g: u16, to: usize, op: Op) {
    let moving = sub_unit(b[s], g);
    let rest = sub_unit(b[s], !g);
    match op {
        Op::Move | Op::Capture => {
            b[s] = rest;
            b[to] = moving;
        }
        Op::Stay => b[to] = 0,
        Op::Kamikaze => {
            b[s] = rest;
            b[to] = 0;
        }
        Op::Combine => {
            b[s] = rest;
            b[to] |= moving;
        }
    }
}

/// Whether a turn of `mover` may end on `b` with `s` its stack point.
fn turn_ends_ok(b: &Units, s: usize, mover: usize) -> bool {
    if b[s] != 0 && !may_stand(carrier(kinds(b[s])) == Kind::Navy, s) {
        return false;
    }
    let Some(mine) = find_commander(b, mover) else {
        return false;
    };
    let facing = find_commander(b, 1 - mover).is_some_and(|theirs| faces(b, mine, theirs, None));
    !facing && !attacks(b, mine, 1 - mover)
}

fn explore(
    b: &Units,
    s: usize,
    free: u16,
    full: u16,
    mover: usize,
    mv: &mut Move,
    out: &mut BTreeMap<Vec<Unit>, Move>,
) {
    if mv.len == 3 {
        return;
    }
    let mut g = free;
    while g != 0 {
        if LEGAL[g as usize] {
            let u = sub_unit(b[s], g);
            let whole = mv.len == 0 && g == full;
            for (to, op) in options(b, s, u, whole, false) {
                let mut nb = *b;
                play_step(&mut nb, s, g, to, op);
                promotions(&mut nb, mover);
                mv.push(Step { group: g, to: to as u8, op });
                if turn_ends_ok(&nb, s, mover) {
                    let e = out.entry(nb.to_vec()).or_insert(*mv);
                    if *mv < *e {
                        *e = *mv;
                    }
                }
                if free & !g != 0 {
                    explore(&nb, s, free & !g, full, mover, mv, out);
                }
                mv.pop();
            }
        }
        g = (g - 1) & free;
    }
}

/// Every legal turn, one (the least) per distinct end board.
pub(crate) fn reference_moves(pos: &Position) -> Vec<Move> {
    let b: Units = pos.b.units;
    let mover = pos.turn;
    let mut out = BTreeMap::new();
    for s in 0..132 {
        if b[s] != 0 && colour(b[s]) == mover {
            let mut mv = Move::new(s as u8);
            explore(&b, s, kinds(b[s]), kinds(b[s]), mover, &mut mv, &mut out);
        }
    }
    out.into_values().collect()
}

impl cannonade_core::testkit::Conformance for Position {
    fn reference_moves(&self) -> Vec<Move> {
        reference_moves(self)
    }

    fn recomputed_hash(&self) -> u64 {
        self.b.recompute_hash() ^ if self.turn == 1 { crate::zobrist::side_key() } else { 0 }
    }

    fn check_invariants(
        &self,
        _: &[cannonade_core::Weighted<cannonade_core::NoChance>],
    ) -> Result<(), String> {
        let fresh = crate::position::Board::from_units(&self.b.units);
        if fresh != self.b {
            return Err("derived board fields (occupancy, Commanders, counts) are stale".into());
        }
        for p in 0..132u8 {
            let u = self.b.units[p as usize];
            if u != 0
                && (!LEGAL[kinds(u) as usize] || heroes(u) & !kinds(u) != 0 || !self.b.stands(p))
            {
                return Err(format!("bad unit on point {p}"));
            }
        }
        Ok(())
    }
}
