//! The fast move generator: the ray procedure of section 6.2 for one unit, and whole turns —
//! single-piece moves directly, stacks by a depth-first search over deploy steps (section
//! 9.4) that keeps one turn per distinct end position (section 15.1).
//!
//! Why the search finds the least turn of [`Move::cmp`] for every end position: it visits
//! step sequences in that order and skips a sequence only when an earlier one reached the
//! same intermediate state (board and pieces still free to act); everything reachable from
//! that state is then reachable from the earlier prefix too, with a smaller turn. Stay
//! captures that leave the mover's pieces where they were give the same position whichever
//! unit fires, so across all units only the first (least) one per target is kept.

use crate::attacks::{Air, AirMap, Flight, PROFILES, Providers, line_clear};
use crate::board::{CORNER, Points, can_stand, heavy_may_cross, ray};
use crate::moves::{Move, Op, Step};
use crate::piece::{Kind, LEGAL, Unit, bit, carrier, colour, heroes, kinds, sub_unit};
use crate::position::{Board, NONE, Position};

/// At most this many options for one unit (a heroic Commander: 8 rays of up to 11 points).
const MAX_OPTS: usize = 96;

/// The step options of one unit, as (destination, operation).
pub(crate) struct Opts {
    list: [(u8, Op); MAX_OPTS],
    n: usize,
}

impl Opts {
    pub(crate) fn new() -> Opts {
        Opts { list: [(0, Op::Move); MAX_OPTS], n: 0 }
    }

    #[inline]
    fn push(&mut self, to: u8, op: Op) {
        if self.n < MAX_OPTS {
            self.list[self.n] = (to, op);
            self.n += 1;
        }
    }

    /// The options found.
    pub(crate) fn as_slice(&self) -> &[(u8, Op)] {
        &self.list[..self.n]
    }
}

/// Whether a unit (by its carrier) needs the air-defense map for its flights.
#[inline]
fn checks_air(u: Unit) -> bool {
    carrier(kinds(u)) == Kind::AirForce && heroes(u) & bit::F == 0
}

/// The ray procedure (section 6.2) for unit `u` leaving `s`: every move, capture and
/// combination it can make. `whole` allows bombing (a whole unit, not a deploy step); `air`
/// is the enemy's air-defense cover (only read for a non-heroic Air Force).
pub(crate) fn unit_steps(b: &Board, s: u8, u: Unit, whole: bool, air: &AirMap, out: &mut Opts) {
    let side = colour(u);
    let ks = kinds(u);
    let ck = carrier(ks);
    let hero = heroes(u) & ck.bit() != 0;
    let pr = &PROFILES[ck as usize][hero as usize];
    let is_cmd = ck == Kind::Commander;
    let is_air = ck == Kind::AirForce;
    let checked = is_air && !hero;
    let navy = ck == Kind::Navy;
    let enemy_cmd = b.cmd[1 - side];
    // The start point counts as empty for the exposure test when nothing stays behind.
    let ignore = if kinds(b.units[s as usize]) == ks { s } else { NONE };
    let ndirs = if pr.diagonal { 8 } else { 4 };
    #[allow(clippy::needless_range_loop)] // d indexes several tables
    for d in 0..ndirs {
        let diag = (d >= 4) as usize;
        let rm = pr.rm[diag] as usize;
        let rc = pr.rc[diag] as usize;
        let reach = rm.max(rc);
        let mut shut = false;
        let mut passed = false;
        let mut fl = Flight::default();
        let mut state = Air::Safe;
        let mut prev = s;
        for (i, &p) in ray(s, d).iter().enumerate() {
            let k = i + 1;
            if is_cmd && enemy_cmd != NONE && line_clear(&b.units, p, enemy_cmd, ignore) {
                break;
            }
            if checked {
                state = fl.enter(air[p as usize]);
                if state == Air::Down {
                    break;
                }
            }
            if k > reach {
                break;
            }
            let stand = can_stand(navy, p);
            if !is_air && !shut {
                shut = !stand
                    || (pr.heavy && !heavy_may_cross(s, p, d))
                    || (navy && CORNER[prev as usize][d]);
            }
            prev = p;
            let v = b.units[p as usize];
            if v == 0 {
                if k <= rm && !shut && !passed && stand && state == Air::Safe {
                    out.push(p, Op::Move);
                }
                continue;
            }
            let vk = kinds(v);
            if colour(v) != side {
                let vnavy = vk & bit::N != 0;
                if k <= rc && (!is_cmd || k == 1) && !(navy && !vnavy && k + 1 > rc) {
                    if state == Air::Kamikaze {
                        out.push(p, Op::Kamikaze);
                    } else if stand {
                        out.push(p, Op::Capture);
                        if is_air && whole {
                            out.push(p, Op::Stay);
                        }
                    } else {
                        out.push(p, Op::Stay);
                    }
                }
            } else if vk & ks == 0
                && LEGAL[(vk | ks) as usize]
                && k <= rm
                && !shut
                && !passed
                && can_stand(carrier(vk | ks) == Kind::Navy, p)
            {
                out.push(p, Op::Combine);
            }
            let blocks = if is_air {
                false
            } else if navy {
                vk & bit::N != 0
            } else {
                true
            };
            passed |= blocks;
            if is_cmd || (passed && !(is_air || pr.past)) {
                break;
            }
        }
    }
}

/// A small set of nonzero 64-bit keys (open addressing).
struct KeySet {
    slots: Vec<u64>,
    n: usize,
}

impl KeySet {
    fn new() -> KeySet {
        KeySet { slots: vec![0; 256], n: 0 }
    }

    /// Inserts `k`; `true` when it was new.
    fn insert(&mut self, k: u64) -> bool {
        let k = k | 1;
        if 2 * (self.n + 1) > self.slots.len() {
            let bigger = vec![0; self.slots.len() * 2];
            let old = std::mem::replace(&mut self.slots, bigger);
            self.n = 0;
            for x in old.into_iter().filter(|&x| x != 0) {
                self.insert(x);
            }
        }
        let mask = self.slots.len() - 1;
        let mut i = (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & mask;
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = k;
                    self.n += 1;
                    return true;
                }
                x if x == k => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }
}

/// Mixes the set of pieces still free to act into a state key.
#[inline]
fn free_key(r: u16) -> u64 {
    (r as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93).rotate_left(23)
}

/// The groups a stack holding `r` can send in one step, in step order (larger first).
fn groups(r: u16) -> impl Iterator<Item = u16> {
    let mut v = [0u16; 8];
    let mut n = 0;
    let mut sub = r;
    while sub != 0 {
        if LEGAL[sub as usize] {
            v[n] = sub;
            n += 1;
        }
        sub = (sub - 1) & r;
    }
    v[..n].sort_unstable_by_key(|&g| (3 - g.count_ones(), g));
    v.into_iter().take(n)
}

/// Generates the legal turns of a position, one per distinct end position, handing each to
/// `sink`; stops early (returning `true`) when `sink` returns `true`.
pub(crate) fn generate(pos: &Position, sink: impl FnMut(Move) -> bool) -> bool {
    generate_from(pos, None, sink)
}

/// [`generate`] restricted to the unit on `only` when given (stay captures are then not
/// merged with those of other units).
pub(crate) fn generate_from(
    pos: &Position,
    only: Option<u8>,
    mut sink: impl FnMut(Move) -> bool,
) -> bool {
    let b = &pos.b;
    let me = pos.turn;
    let mut g = Gen { me, stays: Points::default(), air: None };
    for s in b.occ[me].iter() {
        if only.is_some_and(|o| o != s) {
            continue;
        }
        let u = b.units[s as usize];
        let stop = if kinds(u).count_ones() == 1 {
            g.single(b, s, u, &mut sink)
        } else {
            let mut st = StackSearch {
                states: KeySet::new(),
                finals: KeySet::new(),
                mv: Move::new(s),
                full: kinds(u),
            };
            g.deploy(b, s, kinds(u), &mut st, &mut sink)
        };
        if stop {
            return true;
        }
    }
    false
}

struct Gen {
    me: usize,
    /// Targets whose plain stay capture has been handled already.
    stays: Points,
    /// The enemy's air-defense cover of the root board.
    air: Option<Box<AirMap>>,
}

struct StackSearch {
    states: KeySet,
    finals: KeySet,
    mv: Move,
    full: u16,
}

impl Gen {
    fn root_air(&mut self, b: &Board) -> &AirMap {
        let me = self.me;
        self.air.get_or_insert_with(|| Box::new(Providers::of(b, 1 - me).map()))
    }

    /// A single piece: every step is a whole turn.
    fn single(&mut self, b: &Board, s: u8, u: Unit, sink: &mut impl FnMut(Move) -> bool) -> bool {
        let mut opts = Opts::new();
        if checks_air(u) {
            let air = *self.root_air(b);
            unit_steps(b, s, u, true, &air, &mut opts);
        } else {
            unit_steps(b, s, u, true, &[0; 132], &mut opts);
        }
        let group = kinds(u);
        for &(to, op) in opts.as_slice() {
            if op == Op::Stay {
                if self.stays.contains(to) {
                    continue;
                }
                self.stays.insert(to);
            }
            let mut nb = b.clone();
            nb.step(s, group, to, op);
            nb.promote(self.me);
            if nb.safe(self.me) {
                let mut mv = Move::new(s);
                mv.push(Step { group, to, op });
                if sink(mv) {
                    return true;
                }
            }
        }
        false
    }

    /// A stack: whole moves and deploys, depth first in step order.
    fn deploy(
        &mut self,
        b: &Board,
        s: u8,
        r: u16,
        st: &mut StackSearch,
        sink: &mut impl FnMut(Move) -> bool,
    ) -> bool {
        let depth = st.mv.len;
        let mut air: Option<Box<AirMap>> = None;
        let zero = [0u8; 132];
        for group in groups(r) {
            let u = sub_unit(b.units[s as usize], group);
            let whole = depth == 0 && group == st.full;
            let mut opts = Opts::new();
            let map: &AirMap = if checks_air(u) {
                if depth == 0 {
                    air.get_or_insert_with(|| Box::new(*self.root_air(b)))
                } else {
                    air.get_or_insert_with(|| Box::new(Providers::of(b, 1 - self.me).map()))
                }
            } else {
                &zero
            };
            unit_steps(b, s, u, whole, map, &mut opts);
            let list = &mut opts.list[..opts.n];
            list.sort_unstable();
            for &(to, op) in list.iter() {
                let mut nb = b.clone();
                nb.step(s, group, to, op);
                nb.promote(self.me);
                let r2 = r & !group;
                if !st.states.insert(nb.hash ^ free_key(r2)) {
                    continue;
                }
                st.mv.push(Step { group, to, op });
                if nb.stands(s) && nb.safe(self.me) {
                    let new = if depth == 0 && op == Op::Stay {
                        let new = !self.stays.contains(to);
                        self.stays.insert(to);
                        new
                    } else {
                        st.finals.insert(nb.hash)
                    };
                    if new && sink(st.mv) {
                        return true;
                    }
                }
                if r2 != 0 && depth + 1 < 3 && self.deploy(&nb, s, r2, st, sink) {
                    return true;
                }
                st.mv.pop();
            }
        }
        false
    }
}
