//! The slow reference move generator, written from the rules text with coordinates and the
//! capture table as literal data, sharing nothing with the fast generator; and the
//! conformance-testkit hooks.

use crate::full::FullPosition;
use crate::moves::Move;
use crate::options::CannonRule;
use crate::piece::{Kind, Piece};
use crate::position::{Cell, Position};
use crate::square::Square;

/// Section 5.3 as printed: row = attacker, column = target, `x` adjacent, `j` cannon jump.
const TABLE: [&str; 7] =
    ["xxxxxx.", ".xxxxxx", "..xxxxx", "...xxxx", "....xxx", "jjjjjjj", "x.....x"];

const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

fn at(file: i32, rank: i32) -> Option<Square> {
    if (0..8).contains(&file) && (0..4).contains(&rank) {
        Square::from_coords(file as u8, rank as u8)
    } else {
        None
    }
}

/// A plain board for the reference: what stands where.
type Board = [Cell; 32];

/// The capture squares of the piece `me` standing on `sq` (one hop), on `board`.
fn captures_from(board: &Board, sq: Square, me: Piece, cannon: CannonRule) -> Vec<(usize, Square)> {
    let mut out = Vec::new();
    let row = TABLE[me.kind() as usize].as_bytes();
    for (d, (df, dr)) in STEPS.into_iter().enumerate() {
        let (f, r) = (sq.file() as i32, sq.rank() as i32);
        if me.kind() == Kind::Cannon && cannon == CannonRule::Jump {
            // Walk: skip empties, the first occupied square is the screen, skip empties, the
            // next occupied square is the only possible target.
            let mut k = 1;
            let mut screen_seen = false;
            while let Some(t) = at(f + df * k, r + dr * k) {
                match board[t.index()] {
                    Cell::Empty => {}
                    cell if !screen_seen => {
                        let _ = cell;
                        screen_seen = true;
                    }
                    Cell::FaceUp(p) if p.colour() != me.colour() => {
                        out.push((d, t));
                        break;
                    }
                    _ => break,
                }
                k += 1;
            }
        } else if let Some(t) = at(f + df, r + dr)
            && let Cell::FaceUp(p) = board[t.index()]
        {
            let allowed = if me.kind() == Kind::Cannon {
                // cannon=step: rank 2 captures cannons and soldiers.
                matches!(p.kind(), Kind::Cannon | Kind::Soldier)
            } else {
                row[p.kind() as usize] == b'x'
            };
            if p.colour() != me.colour() && allowed {
                out.push((d, t));
            }
        }
    }
    out
}

fn chains(board: &Board, sq: Square, me: Piece, mv: Move, pos: &Position, out: &mut Vec<Move>) {
    for (d, t) in captures_from(board, sq, me, pos.options().cannon) {
        let next = mv.then(d, t.index() as u8);
        out.push(next);
        let mut b = *board;
        b[t.index()] = Cell::FaceUp(me);
        b[sq.index()] = Cell::Empty;
        chains(&b, t, me, next, pos, out);
    }
}

/// Every legal move of `pos`, found the slow way.
pub(crate) fn reference_moves(pos: &Position) -> Vec<Move> {
    use cannonade_core::Rules;
    let mut out = Vec::new();
    if pos.chance_pending() {
        return out;
    }
    let board: Board = std::array::from_fn(|i| pos.cell(Square::ALL[i]));
    for sq in Square::ALL {
        if board[sq.index()] == Cell::FaceDown {
            out.push(Move::flip(sq.index() as u8));
        }
    }
    let Some(us) = pos.turn() else { return out };
    for sq in Square::ALL {
        let Cell::FaceUp(me) = board[sq.index()] else { continue };
        if me.colour() != us {
            continue;
        }
        for (df, dr) in STEPS {
            if let Some(t) = at(sq.file() as i32 + df, sq.rank() as i32 + dr)
                && board[t.index()] == Cell::Empty
            {
                out.push(Move::step(sq.index() as u8, t.index() as u8));
            }
        }
        for (d, t) in captures_from(&board, sq, me, pos.options().cannon) {
            let mv = Move::capture(sq.index() as u8, d, t.index() as u8);
            out.push(mv);
            if pos.options().chain_capture {
                let mut b = board;
                b[t.index()] = Cell::FaceUp(me);
                b[sq.index()] = Cell::Empty;
                chains(&b, t, me, mv, pos, &mut out);
            }
        }
    }
    out
}

#[cfg(any(test, feature = "testkit"))]
mod conformance {
    use super::*;
    use cannonade_core::Weighted;
    use cannonade_core::testkit::Conformance;

    /// Section 8.2 and the chance model: the pool equals the face-down count, chance weights
    /// equal the pool counts, colours are assigned once anything is face up.
    fn public_invariants(pos: &Position, chances: &[Weighted<Piece>]) -> Result<(), String> {
        let pool_total: u32 = pos.pool().iter().map(|&n| n as u32).sum();
        if pool_total != pos.face_down_count() {
            return Err(format!("pool {pool_total} but {} face down", pos.face_down_count()));
        }
        if pos.pending_flip().is_some() {
            for p in Piece::ALL {
                let w = chances.iter().find(|w| w.outcome == p).map_or(0, |w| w.weight);
                if w != pos.pool_count(p) as u32 {
                    return Err(format!("weight of {p} is {w}, pool count {}", pos.pool_count(p)));
                }
            }
        }
        let any_up = Square::ALL.iter().any(|&s| matches!(pos.cell(s), Cell::FaceUp(_)));
        if any_up && pos.turn().is_none() {
            return Err("a piece is face up but colours are unassigned".into());
        }
        for p in Piece::ALL {
            let up = Square::ALL.iter().filter(|&&s| pos.cell(s) == Cell::FaceUp(p)).count();
            if up + pos.pool_count(p) as usize > p.full_count() as usize {
                return Err(format!("more {p} than the set has"));
            }
        }
        // Secrecy: the public text never carries a sixth field with identities.
        let fen = pos.fen();
        if fen.split_whitespace().nth(5).is_some_and(|f| !f.ends_with('?')) {
            return Err(format!("public BFEN carries hidden identities: {fen}"));
        }
        Ok(())
    }

    impl Conformance for Position {
        fn reference_moves(&self) -> Vec<Move> {
            reference_moves(self)
        }

        fn recomputed_hash(&self) -> u64 {
            self.compute_hash()
        }

        fn check_invariants(&self, chances: &[Weighted<Piece>]) -> Result<(), String> {
            public_invariants(self, chances)
        }
    }

    impl Conformance for FullPosition {
        fn reference_moves(&self) -> Vec<Move> {
            reference_moves(self.public())
        }

        fn recomputed_hash(&self) -> u64 {
            self.compute_hash()
        }

        fn check_invariants(&self, _: &[Weighted<cannonade_core::NoChance>]) -> Result<(), String> {
            public_invariants(self.public(), &[])?;
            if self.redact().fen() != self.fen().rsplit_once(' ').map_or("", |(p, _)| p) {
                return Err("the public BFEN is not a prefix of the full BFEN".into());
            }
            Ok(())
        }
    }
}
