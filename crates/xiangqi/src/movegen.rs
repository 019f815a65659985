//! Legal move generation.
//!
//! Pieces are generated from the tables; legality is decided without playing the move. When
//! the side to move is not in check, a move can only expose its own general if it leaves a
//! point on the general's rank or file (opening a chariot, cannon or facing-general line) or
//! one of its diagonal neighbours (a horse leg), or lands on the general's rank or file
//! (becoming a cannon screen). Every other move is legal outright and is counted by popcount;
//! only the few others, general moves and evasions get the full attack test.

use crate::attacks::{diagonal_mask, leg_mask, sliders};
use crate::tables::{
    ADVISOR_MOVES, ALL, ELEPHANT_MOVES, FILE, GENERAL_MOVES, HORSE_MOVES, RANK, SOLDIER_MOVES,
    TRANSPOSED,
};
use crate::{Kind, Move, Position};
use cannonade_core::MoveBuf;
use cannonade_geom::bits::Bits128;

/// Receives generated moves: either counts them or lists them.
pub(crate) trait Sink {
    /// One legal move.
    fn one(&mut self, from: u8, to: u8);
    /// Legal moves from `from` to every point of `targets`.
    fn many(&mut self, from: u8, targets: u128);
}

/// Counts moves.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline]
    fn one(&mut self, _from: u8, _to: u8) {
        self.0 += 1;
    }
    #[inline]
    fn many(&mut self, _from: u8, targets: u128) {
        self.0 += targets.count_ones() as u64;
    }
}

/// Lists moves into a buffer.
pub(crate) struct Lister<'a>(pub &'a mut MoveBuf<Move>);

impl Sink for Lister<'_> {
    #[inline]
    fn one(&mut self, from: u8, to: u8) {
        self.0.push(Move::new(from, to));
    }
    #[inline]
    fn many(&mut self, from: u8, targets: u128) {
        for to in Bits128(targets) {
            self.0.push(Move::new(from, to));
        }
    }
}

impl Position {
    /// Feeds every legal move of the side to move to `sink`.
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        self.generate_onto(sink, ALL);
    }

    /// Feeds the legal moves of the side to move that end on a point of `onto` to `sink`.
    #[inline(always)]
    fn generate_onto<S: Sink>(&self, sink: &mut S, onto: u128) {
        let us = self.side;
        let them = !us;
        let own = self.by_colour[us.index()];
        let opp = self.by_colour[them.index()];
        let occ = own | opp;
        let occ_t = self.occ_t;
        let ksq = self.generals[us.index()];
        let in_check = self.attacked_with(ksq, them, occ, occ_t, opp);
        // Points where a move ending or starting needs the full test.
        let (land, leave) = if in_check {
            (ALL, ALL)
        } else {
            let lines = RANK[ksq as usize / 9] | FILE[ksq as usize % 9];
            (lines, lines | self.general_diagonals(us))
        };

        let test = |from: u8, to: u8| {
            let (fb, tb) = (1u128 << from, 1u128 << to);
            let occ2 = (occ & !fb) | tb;
            let occ_t2 =
                (occ_t & !(1u128 << TRANSPOSED[from as usize])) | 1u128 << TRANSPOSED[to as usize];
            let k = if from == ksq { to } else { ksq };
            !self.attacked_with(k, them, occ2, occ_t2, opp & !tb)
        };
        let emit = |sink: &mut S, from: u8, targets: u128| {
            let targets = targets & !own & onto;
            if (1u128 << from) & leave != 0 {
                for to in Bits128(targets) {
                    if test(from, to) {
                        sink.one(from, to);
                    }
                }
            } else {
                sink.many(from, targets & !land);
                for to in Bits128(targets & land) {
                    if test(from, to) {
                        sink.one(from, to);
                    }
                }
            }
        };

        let k = &self.by_kind;
        for from in Bits128(own & k[Kind::Chariot.index()]) {
            let (rook, _) = sliders(from, occ, occ_t);
            emit(sink, from, rook);
        }
        for from in Bits128(own & k[Kind::Cannon.index()]) {
            let (rook, cannon) = sliders(from, occ, occ_t);
            emit(sink, from, (rook & !occ) | (cannon & opp));
        }
        for from in Bits128(own & k[Kind::Horse.index()]) {
            emit(sink, from, HORSE_MOVES[from as usize][leg_mask(occ, from)]);
        }
        for from in Bits128(own & k[Kind::Soldier.index()]) {
            emit(sink, from, SOLDIER_MOVES[us.index()][from as usize]);
        }
        for from in Bits128(own & k[Kind::Elephant.index()]) {
            emit(sink, from, ELEPHANT_MOVES[from as usize][diagonal_mask(occ, from)]);
        }
        for from in Bits128(own & k[Kind::Advisor.index()]) {
            emit(sink, from, ADVISOR_MOVES[from as usize]);
        }
        for to in Bits128(GENERAL_MOVES[ksq as usize] & !own & onto) {
            if test(ksq, to) {
                sink.one(ksq, to);
            }
        }
    }

    /// Every legal move, into `buf` (cleared first).
    pub fn legal_moves_into(&self, buf: &mut MoveBuf<Move>) {
        buf.clear();
        self.generate(&mut Lister(buf));
    }

    /// Every legal capture, into `buf` (cleared first): what quiescence searches, without
    /// listing the quiet moves it would throw away.
    pub fn legal_captures_into(&self, buf: &mut MoveBuf<Move>) {
        buf.clear();
        let opp = self.by_colour[(!self.side).index()];
        self.generate_onto(&mut Lister(buf), opp);
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut buf = MoveBuf::with_capacity(64);
        self.legal_moves_into(&mut buf);
        buf.into_vec()
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }

    /// Whether `from`→`to` is a legal move for the side to move (pseudo-legal for its piece,
    /// and not exposing its general).
    pub fn is_legal(&self, from: crate::Square, to: crate::Square) -> bool {
        match self.piece_at(from) {
            Some(p) if p.colour == self.side => {}
            _ => return false,
        }
        let mut found = false;
        let mut probe = Probe { from: from.index(), to: to.index(), found: &mut found };
        self.generate(&mut probe);
        found
    }
}

/// Looks for one particular move.
struct Probe<'a> {
    from: u8,
    to: u8,
    found: &'a mut bool,
}

impl Sink for Probe<'_> {
    fn one(&mut self, from: u8, to: u8) {
        if from == self.from && to == self.to {
            *self.found = true;
        }
    }
    fn many(&mut self, from: u8, targets: u128) {
        if from == self.from && targets & (1u128 << self.to) != 0 {
            *self.found = true;
        }
    }
}
