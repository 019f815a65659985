//! A slow reference move generator, written for clarity straight from the rules text and
//! sharing no move-generation code with the fast generator: a plain 12×12 array, every
//! piece walked square by square, every candidate move played on a copy and the mover's
//! headquarter tested by listing all of the opponent's captures and shots.
//!
//! It backs the conformance testkit and checks the perft numbers we add ourselves.

use crate::moves::{CAPTURE, JUMP, LAST_RANK, SHOT};
use crate::tables::NO_SQ;
use crate::{Kind, Move, Piece, Position, Square};
use cannonade_core::Side;

/// How a reference move gets to its target square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    Step,
    Capture,
    Jump,
    JumpCapture,
    Shot,
}

/// A move of the reference generator: squares as (file, rank), 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RefMove {
    from: (i32, i32),
    to: (i32, i32),
    way: Way,
    /// For a soldier reaching its last rank: `Some(None)` when nothing can be chosen.
    removal: Option<Option<(i32, i32)>>,
}

/// A position of the reference generator.
#[derive(Clone, Debug)]
pub struct RefBoard {
    /// `cells[file][rank]`.
    cells: [[Option<Piece>; 12]; 12],
    mover: Side,
}

/// Whether a square exists: on the 12×12 grid and not in a 2×2 corner (section 1.2).
fn exists(f: i32, r: i32) -> bool {
    let on_grid = (0..12).contains(&f) && (0..12).contains(&r);
    let corner = !(2..=9).contains(&f) && !(2..=9).contains(&r);
    on_grid && !corner
}

/// Red's forward is up the ranks, White's down (section 3).
fn forward(side: Side) -> i32 {
    if side == Side::First { 1 } else { -1 }
}

const KING_DIRS: [(i32, i32); 8] =
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

impl RefBoard {
    /// The reference view of a position.
    pub fn from_position(pos: &Position) -> RefBoard {
        let mut cells = [[None; 12]; 12];
        for sq in Square::all() {
            cells[sq.file() as usize][sq.rank() as usize] = pos.piece_at(sq);
        }
        RefBoard { cells, mover: pos.side_to_move() }
    }

    fn get(&self, (f, r): (i32, i32)) -> Option<Piece> {
        self.cells[f as usize][r as usize]
    }

    fn set(&mut self, (f, r): (i32, i32), p: Option<Piece>) {
        self.cells[f as usize][r as usize] = p;
    }

    fn is_empty(&self, sq: (i32, i32)) -> bool {
        exists(sq.0, sq.1) && self.get(sq).is_none()
    }

    fn is_enemy(&self, sq: (i32, i32), side: Side) -> bool {
        exists(sq.0, sq.1) && self.get(sq).is_some_and(|p| p.side != side)
    }

    fn is_enemy_not_tank(&self, sq: (i32, i32), side: Side) -> bool {
        self.is_enemy(sq, side) && self.get(sq).is_some_and(|p| p.kind != Kind::Tank)
    }

    /// Every move of `side` by the piece rules of section 4, before last-rank choices and
    /// before the check rule.
    fn pseudo_moves(&self, side: Side) -> Vec<RefMove> {
        let mut out = Vec::new();
        let fw = forward(side);
        // Left, right, forward, and both diagonals forward: gun shots and soldier captures.
        let forward5 = [(-1, 0), (1, 0), (0, fw), (-1, fw), (1, fw)];
        for f in 0..12 {
            for r in 0..12 {
                let Some(p) = (if exists(f, r) { self.get((f, r)) } else { None }) else {
                    continue;
                };
                if p.side != side {
                    continue;
                }
                let from = (f, r);
                let mut add = |to: (i32, i32), way: Way| {
                    out.push(RefMove { from, to, way, removal: None });
                };
                match p.kind {
                    Kind::Headquarter => {
                        for (df, dr) in KING_DIRS {
                            let to = (f + df, r + dr);
                            if self.is_empty(to) {
                                add(to, Way::Step);
                            } else if self.is_enemy(to, side) {
                                add(to, Way::Capture);
                            }
                        }
                    }
                    Kind::Bomber => {
                        for (df, dr) in KING_DIRS {
                            let mut passed_friend = false;
                            let mut to = (f + df, r + dr);
                            while exists(to.0, to.1) {
                                match self.get(to) {
                                    None => {
                                        add(to, if passed_friend { Way::Jump } else { Way::Step })
                                    }
                                    Some(q) if q.side != side => {
                                        let way = if passed_friend {
                                            Way::JumpCapture
                                        } else {
                                            Way::Capture
                                        };
                                        add(to, way);
                                        break;
                                    }
                                    Some(_) => {
                                        if passed_friend {
                                            break;
                                        }
                                        passed_friend = true;
                                    }
                                }
                                to = (to.0 + df, to.1 + dr);
                            }
                        }
                    }
                    Kind::Tank => {
                        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                            let one = (f + df, r + dr);
                            if self.is_enemy(one, side) {
                                add(one, Way::Capture);
                            }
                            if !self.is_empty(one) {
                                continue;
                            }
                            add(one, Way::Step);
                            let two = (f + 2 * df, r + 2 * dr);
                            if self.is_empty(two) {
                                add(two, Way::Step);
                            } else if self.is_enemy(two, side) {
                                add(two, Way::Capture);
                            }
                        }
                    }
                    Kind::Gun | Kind::MachineGun => {
                        for (df, dr) in KING_DIRS {
                            if self.is_empty((f + df, r + dr)) {
                                add((f + df, r + dr), Way::Step);
                            }
                        }
                        let (dirs, reach): (&[(i32, i32)], i32) =
                            if p.kind == Kind::Gun { (&forward5, 5) } else { (&KING_DIRS, 3) };
                        for &(df, dr) in dirs {
                            for dist in 1..=reach {
                                let to = (f + dist * df, r + dist * dr);
                                if self.is_empty(to) {
                                    continue;
                                }
                                let target_ok = if p.kind == Kind::Gun {
                                    self.is_enemy(to, side)
                                } else {
                                    self.is_enemy_not_tank(to, side)
                                };
                                if target_ok {
                                    add(to, Way::Shot);
                                }
                                break;
                            }
                        }
                    }
                    Kind::Cavalry => {
                        for (a, b) in [(1, 2), (1, 3), (2, 3)] {
                            for (x, y) in [(a, b), (b, a)] {
                                for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                                    let to = (f + sx * x, r + sy * y);
                                    if self.is_empty(to) {
                                        add(to, Way::Step);
                                    } else if self.is_enemy_not_tank(to, side) {
                                        add(to, Way::Capture);
                                    }
                                }
                            }
                        }
                    }
                    Kind::Soldier => {
                        for (df, dr) in KING_DIRS {
                            if self.is_empty((f + df, r + dr)) {
                                add((f + df, r + dr), Way::Step);
                            }
                        }
                        for (df, dr) in forward5 {
                            if self.is_enemy_not_tank((f + df, r + dr), side) {
                                add((f + df, r + dr), Way::Capture);
                            }
                        }
                        // White square: 1-based file + rank odd (D-3).
                        if ((f + 1) + (r + 1)) % 2 == 1 {
                            for (df, dr) in KING_DIRS {
                                if self.is_empty((f + df, r + dr))
                                    && self.is_empty((f + 2 * df, r + 2 * dr))
                                {
                                    add((f + 2 * df, r + 2 * dr), Way::Step);
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether `side` could capture or shoot a piece on `target` (D-13).
    fn attacks(&self, side: Side, target: (i32, i32)) -> bool {
        self.pseudo_moves(side)
            .iter()
            .any(|m| m.to == target && m.way != Way::Step && m.way != Way::Jump)
    }

    fn headquarter(&self, side: Side) -> Option<(i32, i32)> {
        (0..12)
            .flat_map(|f| (0..12).map(move |r| (f, r)))
            .filter(|&(f, r)| exists(f, r))
            .find(|&sq| self.get(sq) == Some(Piece { side, kind: Kind::Headquarter }))
    }

    /// The board after the complete move, removals included.
    fn after(&self, m: &RefMove) -> RefBoard {
        let mut b = self.clone();
        if m.way == Way::Shot {
            b.set(m.to, None);
        } else {
            let piece = b.get(m.from);
            b.set(m.from, None);
            b.set(m.to, piece);
            if let Some(removal) = m.removal {
                // Last rank: the soldier leaves, and the chosen enemy piece with it.
                b.set(m.to, None);
                if let Some(sq) = removal {
                    b.set(sq, None);
                }
            }
        }
        b.mover = !self.mover;
        b
    }

    /// Every legal move: last-rank choices expanded, then the check rule of 6.2.
    fn legal(&self) -> Vec<RefMove> {
        let us = self.mover;
        let last_rank = if us == Side::First { 11 } else { 0 };
        let mut candidates = Vec::new();
        for m in self.pseudo_moves(us) {
            let is_soldier = self.get(m.from).is_some_and(|p| p.kind == Kind::Soldier);
            if !(is_soldier && m.way != Way::Shot && m.to.1 == last_rank) {
                candidates.push(m);
                continue;
            }
            let mut options: Vec<Option<(i32, i32)>> = Vec::new();
            for f in 0..12 {
                for r in 0..12 {
                    let p = if exists(f, r) { self.get((f, r)) } else { None };
                    if (f, r) != m.to
                        && p.is_some_and(|p| p.side != us && p.kind != Kind::Headquarter)
                    {
                        options.push(Some((f, r)));
                    }
                }
            }
            if options.is_empty() {
                options.push(None);
            }
            candidates.extend(options.into_iter().map(|o| RefMove { removal: Some(o), ..m }));
        }
        candidates
            .into_iter()
            .filter(|m| {
                let b = self.after(m);
                b.headquarter(us).is_some_and(|hq| !b.attacks(!us, hq))
            })
            .collect()
    }

    /// Perft over the reference moves, played on reference boards.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.after(m).perft(depth - 1)).sum()
    }
}

fn dense((f, r): (i32, i32)) -> u8 {
    Square::new(f as u8, r as u8).map_or(NO_SQ, |s| s.index())
}

/// Every legal move of `pos`, found by the reference generator.
pub fn reference_moves(pos: &Position) -> Vec<Move> {
    RefBoard::from_position(pos)
        .legal()
        .into_iter()
        .map(|m| {
            let mut flags = match m.way {
                Way::Step => 0,
                Way::Capture => CAPTURE,
                Way::Jump => JUMP,
                Way::JumpCapture => JUMP | CAPTURE,
                Way::Shot => SHOT,
            };
            let mut removal = NO_SQ;
            if let Some(choice) = m.removal {
                flags |= LAST_RANK;
                removal = choice.map_or(NO_SQ, dense);
            }
            Move::new(dense(m.from), dense(m.to), flags, removal)
        })
        .collect()
}

/// Perft of `pos` with the reference generator.
pub fn reference_perft(pos: &Position, depth: u32) -> u64 {
    RefBoard::from_position(pos).perft(depth)
}

#[cfg(any(test, feature = "testkit"))]
impl cannonade_core::testkit::Conformance for Position {
    fn reference_moves(&self) -> Vec<Move> {
        reference_moves(self)
    }

    fn recomputed_hash(&self) -> u64 {
        self.hash_from_scratch()
    }

    fn check_invariants(
        &self,
        _chances: &[cannonade_core::Weighted<cannonade_core::NoChance>],
    ) -> Result<(), String> {
        self.check_consistency()
    }
}

impl Position {
    /// Bitboards, mailbox and headquarter squares agree; the side not to move is not in check.
    pub(crate) fn check_consistency(&self) -> Result<(), String> {
        for sq in Square::all() {
            let code = self.mailbox[sq.index() as usize];
            let b = 1u128 << sq.index();
            for side in 0..2 {
                for kind in 0..7 {
                    let here = self.board.side[side] & self.board.kind[kind] & b != 0;
                    let want = code != 0
                        && crate::piece::code_side(code) == side
                        && crate::piece::code_kind(code) == kind;
                    if here != want {
                        return Err(format!("bitboards and mailbox disagree on {sq}"));
                    }
                }
            }
        }
        for side in Side::BOTH {
            let hq = self.headquarter(side);
            if self.piece_at(hq) != Some(Piece { side, kind: Kind::Headquarter }) {
                return Err(format!("headquarter square of {side:?} is stale"));
            }
        }
        if self.is_attacked(!self.mover) {
            return Err("the side not to move is in check".into());
        }
        Ok(())
    }
}
