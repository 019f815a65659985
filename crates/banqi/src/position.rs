//! The public position: what players, spectators and AI see. It has no place for the identity
//! of a face-down piece, so it cannot leak one.

use crate::hash;
use crate::moves::{Move, MoveKind};
use crate::options::{CannonRule, Options};
use crate::piece::{Colour, FULL_SET, Kind, Piece};
use crate::square::{DIRS, Square, jump_target};
use cannonade_core::Side;

/// What a square holds, as everybody sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A face-down piece: its identity is unknown (and not stored here).
    FaceDown,
    /// A face-up piece.
    FaceUp(Piece),
}

const EMPTY: u8 = 0;
const DOWN: u8 = 1;

#[inline]
const fn code(p: Piece) -> u8 {
    p.index() as u8 + 2
}

/// A public Banqi position (section 8.2): face-up pieces, face-down squares, the pool counts,
/// the seat to move and the colour of each seat, the no-progress counter, the ply count, the
/// options, and a flip that awaits its chance outcome.
///
/// It implements [`cannonade_core::Rules`] with flips as chance events: playing a flip makes
/// [`Rules::chance_pending`](cannonade_core::Rules::chance_pending) true, the outcomes are the
/// kinds still face down weighted by their pool counts, and `resolve(piece)` reveals.
/// Its `Debug` form is its BFEN.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// Mailbox: 0 empty, 1 face-down, 2 + piece index.
    pub(crate) cells: [u8; 32],
    pub(crate) occ: u32,
    pub(crate) down: u32,
    /// Face-up pieces by piece index.
    pub(crate) by_piece: [u32; 14],
    pub(crate) pool: [u8; 14],
    /// The colour of the first seat; `None` before the first flip.
    pub(crate) first: Option<Colour>,
    /// The seat to move (at a chance node: the seat that flipped).
    pub(crate) seat: Side,
    pub(crate) noprog: u16,
    pub(crate) ply: u32,
    pub(crate) pending: Option<u8>,
    pub(crate) options: Options,
    pub(crate) hash: u64,
}

impl Position {
    /// An empty board with nothing face down, first seat to move, colours unassigned.
    pub(crate) fn empty(options: Options) -> Position {
        Position {
            cells: [EMPTY; 32],
            occ: 0,
            down: 0,
            by_piece: [0; 14],
            pool: [0; 14],
            first: None,
            seat: Side::First,
            noprog: 0,
            ply: 0,
            pending: None,
            options,
            hash: 0,
        }
    }

    /// The standard start: all 32 pieces face down, nothing flipped (E1).
    pub fn startpos() -> Position {
        Position::startpos_with(Options::STANDARD)
    }

    /// The standard start under the given options.
    pub fn startpos_with(options: Options) -> Position {
        let mut p = Position::empty(options);
        p.cells = [DOWN; 32];
        p.occ = u32::MAX;
        p.down = u32::MAX;
        p.pool = FULL_SET;
        p.hash = p.compute_hash();
        p
    }

    /// What `sq` holds.
    pub fn cell(&self, sq: Square) -> Cell {
        match self.cells[sq.index()] {
            EMPTY => Cell::Empty,
            DOWN => Cell::FaceDown,
            c => Cell::FaceUp(Piece::from_index(c as usize - 2)),
        }
    }

    pub(crate) fn piece_at(&self, sq: u8) -> Option<Piece> {
        match self.cells[sq as usize & 31] {
            EMPTY | DOWN => None,
            c => Some(Piece::from_index(c as usize - 2)),
        }
    }

    /// How many pieces of this kind are still face down (public: section 8.2).
    pub fn pool_count(&self, piece: Piece) -> u8 {
        self.pool[piece.index()]
    }

    /// The face-down counts in pool order `K A B R N C P k a b r n c p`.
    pub fn pool(&self) -> [u8; 14] {
        self.pool
    }

    /// The squares holding `piece` face up, as a mask (bit `i` for the square of index `i`).
    #[inline]
    pub fn face_up_squares(&self, piece: Piece) -> u32 {
        self.by_piece[piece.index()]
    }

    /// The empty squares, as a mask (bit `i` for the square of index `i`).
    #[inline]
    pub fn empty_squares(&self) -> u32 {
        !self.occ
    }

    /// Number of face-down pieces.
    pub fn face_down_count(&self) -> u32 {
        self.down.count_ones()
    }

    /// The colour played by `seat`, once the first flip has assigned colours.
    pub fn colour_of(&self, seat: Side) -> Option<Colour> {
        self.first.map(|c| if seat == Side::First { c } else { c.other() })
    }

    /// The seat playing `colour`, once colours are assigned.
    pub fn seat_of(&self, colour: Colour) -> Option<Side> {
        self.first.map(|c| if c == colour { Side::First } else { Side::Second })
    }

    /// The colour to move; `None` before the first flip. At a chance node, the colour of the
    /// seat that flipped (if already assigned).
    pub fn turn(&self) -> Option<Colour> {
        self.colour_of(self.seat)
    }

    /// Plies since the last flip or capture.
    pub fn noprog(&self) -> u16 {
        self.noprog
    }

    /// Plies played since the start.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The square of a flip that waits for its outcome (a chance node).
    pub fn pending_flip(&self) -> Option<Square> {
        self.pending.map(Square::at)
    }

    /// The options this game is played with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The same position under other options (options do not enter the hash).
    pub fn with_options(mut self, options: Options) -> Position {
        self.options = options;
        self
    }

    /// Face-up pieces plus face-down pieces of `colour` (section 7's `pieces_left`).
    pub fn pieces_left(&self, colour: Colour) -> u32 {
        let range = colour.index() * 7..colour.index() * 7 + 7;
        self.by_piece[range.clone()].iter().map(|b| b.count_ones()).sum::<u32>()
            + self.pool[range].iter().map(|&n| n as u32).sum::<u32>()
    }

    /// Face-up squares of `colour`.
    #[inline]
    pub(crate) fn up(&self, colour: Colour) -> u32 {
        let b = &self.by_piece[colour.index() * 7..colour.index() * 7 + 7];
        b[0] | b[1] | b[2] | b[3] | b[4] | b[5] | b[6]
    }

    /// Whether `other` shows the same public board with the same seat to move and the same
    /// colours (what the repetition rule compares).
    pub fn same_public_position(&self, other: &Position) -> bool {
        self.hash == other.hash
            && self.cells == other.cells
            && self.seat == other.seat
            && self.first == other.first
            && self.pool == other.pool
            && self.pending == other.pending
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (sq, &c) in self.cells.iter().enumerate() {
            h ^= hash::cell(sq, c);
        }
        for (i, &n) in self.pool.iter().enumerate() {
            h ^= hash::pool(i, n);
        }
        if self.seat == Side::Second {
            h ^= hash::second_to_move();
        }
        if let Some(c) = self.first {
            h ^= hash::first_colour(c.index());
        }
        if let Some(sq) = self.pending {
            h ^= hash::pending(sq as usize);
        }
        h
    }

    /// Puts a face-up piece on an empty square (setup only).
    pub(crate) fn put_up(&mut self, sq: u8, p: Piece) {
        self.cells[sq as usize] = code(p);
        self.occ |= 1 << sq;
        self.by_piece[p.index()] |= 1 << sq;
    }

    /// Puts a face-down piece on an empty square (setup only).
    pub(crate) fn put_down(&mut self, sq: u8) {
        self.cells[sq as usize] = DOWN;
        self.occ |= 1 << sq;
        self.down |= 1 << sq;
    }

    fn end_ply(&mut self, progress: bool) {
        self.noprog = if progress { 0 } else { self.noprog.saturating_add(1) };
        self.ply = self.ply.saturating_add(1);
        self.seat = !self.seat;
        self.hash ^= hash::second_to_move();
    }

    /// Whether a piece of this kind captures by jumping under the current options.
    #[inline]
    pub(crate) fn jumps(&self, kind: Kind) -> bool {
        kind == Kind::Cannon && self.options.cannon == CannonRule::Jump
    }

    /// The target square of a capture hop in direction `d` from `from` on the current board.
    #[inline]
    pub(crate) fn hop_target(&self, from: u8, kind: Kind, d: usize) -> u8 {
        if self.jumps(kind) {
            jump_target(from, d, self.occ).unwrap_or(from)
        } else {
            let (df, dr) = DIRS[d];
            (from as i8 + df + 8 * dr) as u8 & 31
        }
    }

    /// Moves the face-up piece on `from` to `to`, removing whatever face-up piece stood there.
    pub(crate) fn relocate(&mut self, from: u8, to: u8) {
        let (f, t) = (from as usize, to as usize);
        let mover = self.cells[f];
        let target = self.cells[t];
        self.hash ^= hash::cell(f, mover) ^ hash::cell(t, mover) ^ hash::cell(t, target);
        if target >= 2 {
            self.by_piece[target as usize - 2] &= !(1 << to);
        }
        self.by_piece[mover as usize - 2] ^= (1 << from) | (1 << to);
        self.cells[t] = mover;
        self.cells[f] = EMPTY;
        self.occ = (self.occ & !(1 << from)) | (1 << to);
    }

    /// Plays a legal move. A flip only marks the square as pending; [`Position::reveal`]
    /// completes the ply.
    pub(crate) fn apply(&mut self, mv: Move) {
        let from = mv.origin();
        match mv.kind() {
            MoveKind::Flip => {
                self.pending = Some(from);
                self.hash ^= hash::pending(from as usize);
            }
            MoveKind::Step => {
                self.relocate(from, mv.to().index() as u8);
                self.end_ply(false);
            }
            MoveKind::Capture => {
                let kind = self.piece_at(from).map_or(Kind::Soldier, Piece::kind);
                let mut cur = from;
                for i in 0..mv.captures() {
                    let t = self.hop_target(cur, kind, mv.dir(i));
                    self.relocate(cur, t);
                    cur = t;
                }
                self.end_ply(true);
            }
        }
    }

    /// Completes a pending flip by revealing `piece` (which must be in the pool).
    pub(crate) fn reveal(&mut self, piece: Piece) {
        let Some(sq) = self.pending.take() else { return };
        self.hash ^= hash::pending(sq as usize);
        self.reveal_at(sq, piece);
    }

    /// Turns the face-down piece on `sq` face up as `piece` and ends the ply.
    pub(crate) fn reveal_at(&mut self, sq: u8, piece: Piece) {
        let s = sq as usize;
        self.hash ^= hash::cell(s, DOWN) ^ hash::cell(s, code(piece));
        self.cells[s] = code(piece);
        self.down &= !(1 << sq);
        self.by_piece[piece.index()] |= 1 << sq;
        let i = piece.index();
        let n = self.pool[i];
        self.hash ^= hash::pool(i, n) ^ hash::pool(i, n.saturating_sub(1));
        self.pool[i] = n.saturating_sub(1);
        if self.first.is_none() {
            // 4.2: the first revealed piece's colour is the first player's colour.
            let c = piece.colour();
            self.first = Some(c);
            self.hash ^= hash::first_colour(c.index());
        }
        self.end_ply(true);
    }

    /// The squares a capture lands on, in order (one for a single capture).
    pub fn landings(&self, mv: Move) -> Vec<Square> {
        if !mv.is_capture() {
            return vec![mv.to()];
        }
        let from = mv.origin();
        let kind = self.piece_at(from).map_or(Kind::Soldier, Piece::kind);
        let mut scratch = self.clone();
        let mut cur = from;
        let mut out = Vec::with_capacity(mv.captures() as usize);
        for i in 0..mv.captures() {
            let t = scratch.hop_target(cur, kind, mv.dir(i));
            scratch.relocate(cur, t);
            out.push(Square::at(t));
            cur = t;
        }
        out
    }

    /// Sorts moves into the canonical order of 9.4: flips by square, then steps and captures
    /// by from-square, then landing squares in order (chains after their prefixes).
    pub fn sort_canonical(&self, moves: &mut [Move]) {
        moves.sort_by_cached_key(|&mv| (!mv.is_flip(), mv.from(), self.landings(mv)));
    }

    /// The board of [`Position::pretty`], shared with the omniscient position.
    pub(crate) fn pretty_with(&self, hidden: impl Fn(usize) -> Option<Piece>) -> String {
        let mut s = String::new();
        for rank in (0..4u8).rev() {
            s.push_str(&format!("{} ", rank + 1));
            for file in 0..8u8 {
                let sq = (rank * 8 + file) as usize;
                s.push(' ');
                s.push(match self.cells[sq] {
                    EMPTY => '.',
                    DOWN => hidden(sq).map_or('X', |p| p.letter()),
                    c => Piece::from_index(c as usize - 2).letter(),
                });
                if hidden(sq).is_some() && self.cells[sq] == DOWN {
                    s.push('\'');
                } else {
                    s.push(' ');
                }
            }
            s.push('\n');
        }
        s.push_str("   a  b  c  d  e  f  g  h\n");
        let turn = match self.turn() {
            Some(c) => format!("{} ({} seat)", c.name(), self.seat.as_str()),
            None => "first seat, colours not yet assigned".to_string(),
        };
        s.push_str(&format!("to move: {turn}\n"));
        s.push_str(&format!(
            "face down: {}  no-progress: {}  ply: {}  rules: {}\n",
            crate::bfen::pool_field(&self.pool),
            self.noprog,
            self.ply,
            self.options
        ));
        if let Some(sq) = self.pending {
            s.push_str(&format!("flip of {} awaits its outcome\n", Square::at(sq)));
        }
        s
    }

    /// A readable multi-line board (`X` = face-down, `.` = empty), for `d` in the engine
    /// protocol and for terminals.
    pub fn pretty(&self) -> String {
        self.pretty_with(|_| None)
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({:?}, {})", self.fen(), self.options)
    }
}
