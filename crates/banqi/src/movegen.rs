//! The fast legal-move generator: 32-bit square sets, neighbour and ray tables.

use crate::moves::Move;
use crate::piece::{Colour, Kind};
use crate::position::Position;
use crate::square::{ADJACENT, DIRS, jump_target, squares};
use cannonade_core::MoveBuf;

/// For each attacker kind, the enemy face-up squares it may take by an adjacent step.
#[inline]
fn step_targets(pos: &Position, enemy: Colour) -> [u32; 7] {
    let e = &pos.by_piece[enemy.index() * 7..enemy.index() * 7 + 7];
    // suffix[k]: enemies of rank ≤ rank(k).
    let s6 = e[6];
    let s5 = s6 | e[5];
    let s4 = s5 | e[4];
    let s3 = s4 | e[3];
    let s2 = s3 | e[2];
    let s1 = s2 | e[1];
    let s0 = s1 | e[0];
    let cannon = if pos.jumps(Kind::Cannon) { 0 } else { s5 };
    [s0 & !e[6], s1, s2, s3, s4, cannon, e[0] | e[6]]
}

/// The capture squares of a jumping cannon on `from` (any face-up enemy beyond one screen).
#[inline]
fn cannon_jumps(from: u8, occ: u32, enemy_up: u32) -> u32 {
    let mut t = 0;
    for d in 0..4 {
        if let Some(sq) = jump_target(from, d, occ) {
            t |= 1 << sq;
        }
    }
    t & enemy_up
}

impl Position {
    /// The colour whose pieces move, if colours are assigned and no chance event is pending.
    #[inline]
    fn moving_colour(&self) -> Option<Colour> {
        if self.pending.is_some() { None } else { self.turn() }
    }

    /// Destination squares of the face-up piece of kind `kind` on `from` (steps and single
    /// captures), with the enemy masks precomputed.
    #[inline]
    fn destinations(&self, from: u8, kind: Kind, targets: &[u32; 7], enemy_up: u32) -> u32 {
        let adj = ADJACENT[from as usize];
        let steps = adj & !self.occ;
        if self.jumps(kind) {
            steps | cannon_jumps(from, self.occ, enemy_up)
        } else {
            steps | (adj & targets[kind as usize])
        }
    }

    /// Writes every legal move, in canonical order when `chain_capture` is off.
    pub(crate) fn generate(&self, buf: &mut MoveBuf<Move>) {
        buf.clear();
        if self.pending.is_some() {
            return;
        }
        for sq in squares(self.down) {
            buf.push(Move::flip(sq));
        }
        let Some(us) = self.moving_colour() else { return };
        let enemy = us.other();
        let targets = step_targets(self, enemy);
        let enemy_up = self.up(enemy);
        for from in squares(self.up(us)) {
            let kind = self.piece_at(from).map_or(Kind::Soldier, |p| p.kind());
            let dests = self.destinations(from, kind, &targets, enemy_up);
            for to in squares(dests) {
                if self.occ & (1 << to) == 0 {
                    buf.push(Move::step(from, to));
                } else {
                    let mv = Move::capture(from, direction(from, to), to);
                    buf.push(mv);
                    if self.options.chain_capture {
                        self.extend_chain(mv, kind, buf);
                    }
                }
            }
        }
    }

    /// Pushes every continuation of the capture `mv` (chain captures), depth first.
    fn extend_chain(&self, mv: Move, kind: Kind, buf: &mut MoveBuf<Move>) {
        let mut after = self.clone();
        // Replay the chain so far on a scratch copy (chains are rare and short).
        let mut cur = mv.origin();
        for i in 0..mv.captures() {
            let t = after.hop_target(cur, kind, mv.dir(i));
            after.relocate(cur, t);
            cur = t;
        }
        let Some(us) = self.moving_colour() else { return };
        let enemy = us.other();
        let enemy_up = after.up(enemy);
        let caps = if after.jumps(kind) {
            cannon_jumps(cur, after.occ, enemy_up)
        } else {
            ADJACENT[cur as usize] & step_targets(&after, enemy)[kind as usize]
        };
        for to in squares(caps) {
            let next = mv.then(direction(cur, to), to);
            buf.push(next);
            self.extend_chain(next, kind, buf);
        }
    }

    /// The number of legal moves, counted without listing them (chains are listed).
    pub(crate) fn count_moves(&self) -> u64 {
        if self.pending.is_some() {
            return 0;
        }
        let mut n = self.down.count_ones() as u64;
        let Some(us) = self.moving_colour() else { return n };
        if self.options.chain_capture {
            let mut buf = MoveBuf::new();
            self.generate(&mut buf);
            return buf.len() as u64;
        }
        let enemy = us.other();
        let targets = step_targets(self, enemy);
        let enemy_up = self.up(enemy);
        for from in squares(self.up(us)) {
            let kind = self.piece_at(from).map_or(Kind::Soldier, |p| p.kind());
            n += self.destinations(from, kind, &targets, enemy_up).count_ones() as u64;
        }
        n
    }

    /// Whether the side to move has any legal move.
    pub(crate) fn has_moves(&self) -> bool {
        self.pending.is_none() && (self.down != 0 || self.count_moves() > 0)
    }
}

/// The direction (index into `DIRS`) from `from` towards `to` on the same line.
#[inline]
pub(crate) fn direction(from: u8, to: u8) -> usize {
    let (ff, fr, tf, tr) = (from % 8, from / 8, to % 8, to / 8);
    let d = if fr == tr {
        if tf > ff { (1, 0) } else { (-1, 0) }
    } else if tr > fr {
        (0, 1)
    } else {
        (0, -1)
    };
    DIRS.iter().position(|&x| x == d).unwrap_or(0)
}
