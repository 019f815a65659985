//! The fast legal move generator.
//!
//! Pseudo-legal moves are produced in batches (one piece, one kind of move, a set of
//! targets) and handed to a [`Sink`] that lists or counts the legal ones. Legality is judged
//! after the whole move, removals included (section 6.2), with one shortcut: when the mover is
//! not in check, a move other than a headquarter move can only expose the headquarter by
//! emptying a square on one of its 8 lines that holds an enemy bomber, tank, gun or machine
//! gun — adding a piece never opens a line, the move adds no enemy piece, and leapers,
//! soldiers and the enemy headquarter attack regardless of what moves. Every other move is
//! tested by playing it on a copy of the bitboards.

use crate::Position;
use crate::attacks::hq_attacked;
use crate::board::{BOMBER, CAVALRY, GUN, HQ, MGUN, SOLDIER, TANK};
use crate::moves::{CAPTURE, JUMP, LAST_RANK, Move, SHOT};
use crate::tables::{
    CAVALRY as LEAPS, E, FORWARD5, KING, LAST_RANK as LAST, LINES, N, NO_SQ, RAY, S,
    SOLDIER_CAPTURES, STEP, W, WHITE_SQUARES, before, bit, distance, nearest,
};
use cannonade_core::MoveBuf;
use cannonade_geom::bits::Bits128;

/// What one generation pass knows about the mover.
pub(crate) struct Gen<'a> {
    pos: &'a Position,
    them: usize,
    hq: u8,
    /// The squares on those lines of the mover's headquarter that hold an enemy line piece.
    lines: u128,
    in_check: bool,
}

impl<'a> Gen<'a> {
    fn new(pos: &'a Position) -> Gen<'a> {
        let us = pos.mover.index();
        let hq = pos.hq[us];
        let b = &pos.board;
        // Only lines holding an enemy bomber, tank, gun or machine gun can ever attack along
        // them: our moves add no enemy pieces.
        let liners = b.side[us ^ 1] & (b.kind[BOMBER] | b.kind[TANK] | b.kind[GUN] | b.kind[MGUN]);
        let mut lines = 0;
        if LINES[hq as usize] & liners != 0 {
            for ray in RAY[hq as usize] {
                if ray & liners != 0 {
                    lines |= ray;
                }
            }
        }
        Gen { pos, them: us ^ 1, hq, lines, in_check: hq_attacked(b, hq, us ^ 1) }
    }

    /// Whether the shortcut applies: not in check and not a headquarter move.
    #[inline(always)]
    fn calm(&self, from: u8) -> bool {
        !self.in_check && from != self.hq
    }

    /// Legality of a move whose removals are all known: the shortcut, else the full test.
    #[inline]
    fn legal(&self, from: u8, to: u8, flags: u8, removal: u8) -> bool {
        if self.calm(from) {
            let mut emptied = if flags & SHOT != 0 { bit(to) } else { bit(from) };
            if flags & CAPTURE != 0 {
                emptied |= bit(to);
            }
            if removal != NO_SQ {
                emptied |= bit(removal);
            }
            if emptied & self.lines == 0 {
                return true;
            }
        }
        self.legal_full(from, to, flags, removal)
    }

    /// Plays the move on a copy of the bitboards and looks at the mover's headquarter.
    #[inline(never)]
    fn legal_full(&self, from: u8, to: u8, flags: u8, removal: u8) -> bool {
        let mb = &self.pos.mailbox;
        let mut b = self.pos.board;
        let mut hq = self.hq;
        if flags & SHOT != 0 {
            b.toggle(to, mb[to as usize]);
        } else {
            let code = mb[from as usize];
            b.toggle(from, code);
            if flags & CAPTURE != 0 {
                b.toggle(to, mb[to as usize]);
            }
            if flags & LAST_RANK != 0 {
                if removal != NO_SQ {
                    b.toggle(removal, mb[removal as usize]);
                }
            } else {
                b.toggle(to, code);
                if from == hq {
                    hq = to;
                }
            }
        }
        !hq_attacked(&b, hq, self.them)
    }
}

/// Receives pseudo-legal moves in batches and keeps the legal ones.
pub(crate) trait Sink {
    /// Moves of the piece on `from` to every square of `targets`, all with `flags`
    /// (never a last-rank move).
    fn batch(&mut self, g: &Gen<'_>, from: u8, targets: u128, flags: u8);

    /// A soldier's move from `from` to `to` on its last rank, with `flags` (0 or
    /// [`CAPTURE`]); `choices` are the enemy pieces it may remove (none: `@-`).
    fn last_rank(&mut self, g: &Gen<'_>, from: u8, to: u8, flags: u8, choices: u128);
}

/// Lists legal moves into a buffer.
struct List<'b>(&'b mut MoveBuf<Move>);

impl Sink for List<'_> {
    #[inline]
    fn batch(&mut self, g: &Gen<'_>, from: u8, targets: u128, flags: u8) {
        for to in Bits128(targets) {
            if g.legal(from, to, flags, NO_SQ) {
                self.0.push(Move::new(from, to, flags, NO_SQ));
            }
        }
    }

    fn last_rank(&mut self, g: &Gen<'_>, from: u8, to: u8, flags: u8, choices: u128) {
        let flags = flags | LAST_RANK;
        if choices == 0 && g.legal(from, to, flags, NO_SQ) {
            self.0.push(Move::new(from, to, flags, NO_SQ));
        }
        for r in Bits128(choices) {
            if g.legal(from, to, flags, r) {
                self.0.push(Move::new(from, to, flags, r));
            }
        }
    }
}

/// Counts legal moves, in bulk where the shortcut covers a whole batch.
struct Count(u64);

impl Count {
    #[inline]
    fn test_each(&mut self, g: &Gen<'_>, from: u8, targets: u128, flags: u8) {
        for to in Bits128(targets) {
            self.0 += g.legal_full(from, to, flags, NO_SQ) as u64;
        }
    }
}

impl Sink for Count {
    #[inline]
    fn batch(&mut self, g: &Gen<'_>, from: u8, targets: u128, flags: u8) {
        if targets == 0 {
            return;
        }
        if !g.calm(from) || (flags & SHOT == 0 && bit(from) & g.lines != 0) {
            return self.test_each(g, from, targets, flags);
        }
        // Only removed targets on the headquarter's lines can matter now.
        let risky = if flags & (SHOT | CAPTURE) != 0 { targets & g.lines } else { 0 };
        self.0 += (targets ^ risky).count_ones() as u64;
        self.test_each(g, from, risky, flags);
    }

    fn last_rank(&mut self, g: &Gen<'_>, from: u8, to: u8, flags: u8, choices: u128) {
        let flags = flags | LAST_RANK;
        if choices == 0 {
            self.0 += g.legal(from, to, flags, NO_SQ) as u64;
            return;
        }
        let mut risky = choices;
        let emptied = bit(from) | if flags & CAPTURE != 0 { bit(to) } else { 0 };
        if g.calm(from) && emptied & g.lines == 0 {
            risky &= g.lines;
            self.0 += (choices ^ risky).count_ones() as u64;
        }
        for r in Bits128(risky) {
            self.0 += g.legal_full(from, to, flags, r) as u64;
        }
    }
}

/// Every legal move of the side to move, into `buf` (cleared first).
pub(crate) fn legal_moves(pos: &Position, buf: &mut MoveBuf<Move>) {
    buf.clear();
    generate(pos, &mut List(buf));
}

/// The number of legal moves of the side to move.
pub(crate) fn count_legal(pos: &Position) -> u64 {
    let mut c = Count(0);
    generate(pos, &mut c);
    c.0
}

/// The empty squares from `s` along direction `d` up to the first piece, and that piece's
/// square ([`NO_SQ`] when the line runs out first).
#[inline(always)]
fn slide(s: u8, d: usize, occ: u128) -> (u128, u8) {
    let ray = RAY[s as usize][d];
    let m = ray & occ;
    if m == 0 {
        return (ray, NO_SQ);
    }
    let b = nearest(m, d);
    (before(s, d, b), b)
}

/// Generates the pseudo-legal moves of the side to move into `sink`.
fn generate(pos: &Position, sink: &mut impl Sink) {
    let g = Gen::new(pos);
    let b = &pos.board;
    let us = pos.mover.index();
    let own = b.side[us];
    let enemy = b.side[g.them];
    let occ = own | enemy;
    // Machine guns, cavalry and soldiers cannot take a tank.
    let soft = enemy & !b.kind[TANK];

    // Headquarter: one step, capturing anything.
    let k = KING[g.hq as usize] & !own;
    sink.batch(&g, g.hq, k & !occ, 0);
    sink.batch(&g, g.hq, k & enemy, CAPTURE);

    for s in Bits128(b.pieces(us, BOMBER)) {
        let (mut quiet, mut take, mut jump, mut jump_take) = (0u128, 0u128, 0u128, 0u128);
        for d in 0..8 {
            let (empties, b1) = slide(s, d, occ);
            quiet |= empties;
            if b1 == NO_SQ {
                continue;
            }
            if bit(b1) & enemy != 0 {
                take |= bit(b1);
                continue;
            }
            // Fly over the friendly piece on b1 (D-7) as far as the next piece.
            let (empties, b2) = slide(b1, d, occ);
            jump |= empties;
            if b2 != NO_SQ {
                jump_take |= bit(b2) & enemy;
            }
        }
        sink.batch(&g, s, quiet, 0);
        sink.batch(&g, s, take, CAPTURE);
        sink.batch(&g, s, jump, JUMP);
        sink.batch(&g, s, jump_take, JUMP | CAPTURE);
    }

    for s in Bits128(b.pieces(us, TANK)) {
        let (mut quiet, mut take) = (0u128, 0u128);
        for d in [N, E, S, W] {
            let n1 = STEP[s as usize][d];
            if n1 == NO_SQ {
                continue;
            }
            if bit(n1) & occ != 0 {
                take |= bit(n1) & enemy;
                continue;
            }
            quiet |= bit(n1);
            let n2 = STEP[n1 as usize][d];
            if n2 != NO_SQ {
                quiet |= bit(n2) & !occ;
                take |= bit(n2) & enemy;
            }
        }
        sink.batch(&g, s, quiet, 0);
        sink.batch(&g, s, take, CAPTURE);
    }

    for (kind, dirs, reach, targets) in [(GUN, FORWARD5[us], 5, enemy), (MGUN, 0xFF, 3, soft)] {
        for s in Bits128(b.pieces(us, kind)) {
            sink.batch(&g, s, KING[s as usize] & !occ, 0);
            let mut shots = 0u128;
            for (d, &ray) in RAY[s as usize].iter().enumerate() {
                if dirs >> d & 1 == 0 {
                    continue;
                }
                let m = ray & occ;
                if m != 0 {
                    let b1 = nearest(m, d);
                    if distance(s, b1) <= reach {
                        shots |= bit(b1) & targets;
                    }
                }
            }
            sink.batch(&g, s, shots, SHOT);
        }
    }

    for s in Bits128(b.pieces(us, CAVALRY)) {
        let t = LEAPS[s as usize];
        sink.batch(&g, s, t & !occ, 0);
        sink.batch(&g, s, t & soft, CAPTURE);
    }

    let last = LAST[us];
    // On its last rank a soldier takes one enemy piece other than the headquarter with it.
    let choices = enemy & !b.kind[HQ];
    for s in Bits128(b.pieces(us, SOLDIER)) {
        let mut quiet = KING[s as usize] & !occ;
        if bit(s) & WHITE_SQUARES != 0 {
            for (d, &mid) in STEP[s as usize].iter().enumerate() {
                if mid != NO_SQ && bit(mid) & occ == 0 {
                    let to = STEP[mid as usize][d];
                    if to != NO_SQ {
                        quiet |= bit(to) & !occ;
                    }
                }
            }
        }
        let take = SOLDIER_CAPTURES[us][s as usize] & soft;
        sink.batch(&g, s, quiet & !last, 0);
        sink.batch(&g, s, take & !last, CAPTURE);
        for to in Bits128(quiet & last) {
            sink.last_rank(&g, s, to, 0, choices);
        }
        for to in Bits128(take & last) {
            sink.last_rank(&g, s, to, CAPTURE, choices & !bit(to));
        }
    }
}
