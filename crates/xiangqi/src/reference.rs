//! A slow, obviously-correct move generator written straight from the rules text on a plain
//! mailbox, sharing nothing with the bitboard generator. The conformance checks compare the
//! two at every position of random games.

use crate::{Colour, Kind, Move, Piece, Position};

type Board = [Option<Piece>; 90];

fn at(f: i32, r: i32) -> Option<usize> {
    ((0..9).contains(&f) && (0..10).contains(&r)).then_some((r * 9 + f) as usize)
}

fn in_own_palace(c: Colour, f: i32, r: i32) -> bool {
    (3..=5).contains(&f) && if c == Colour::Red { r <= 2 } else { r >= 7 }
}

fn own_half(c: Colour, r: i32) -> bool {
    if c == Colour::Red { r <= 4 } else { r >= 5 }
}

/// Points the piece on `from` could capture on, were an enemy standing there.
fn attack_targets(b: &Board, from: usize) -> Vec<usize> {
    let Some(p) = b[from] else { return vec![] };
    let (f, r) = ((from % 9) as i32, (from / 9) as i32);
    let mut out = Vec::new();
    let orth = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    match p.kind {
        Kind::General => {
            for (df, dr) in orth {
                if in_own_palace(p.colour, f + df, r + dr) {
                    out.extend(at(f + df, r + dr));
                }
            }
        }
        Kind::Advisor => {
            for (df, dr) in diag {
                if in_own_palace(p.colour, f + df, r + dr) {
                    out.extend(at(f + df, r + dr));
                }
            }
        }
        Kind::Elephant => {
            for (df, dr) in diag {
                if let (Some(eye), Some(to)) = (at(f + df, r + dr), at(f + 2 * df, r + 2 * dr))
                    && b[eye].is_none()
                    && own_half(p.colour, r + 2 * dr)
                {
                    out.push(to);
                }
            }
        }
        Kind::Horse => {
            for (lf, lr) in orth {
                let Some(leg) = at(f + lf, r + lr) else { continue };
                if b[leg].is_some() {
                    continue;
                }
                // Continue one step diagonally away from the start.
                let sides = if lf == 0 { [(1, lr), (-1, lr)] } else { [(lf, 1), (lf, -1)] };
                for (df, dr) in sides {
                    out.extend(at(f + lf + df, r + lr + dr));
                }
            }
        }
        Kind::Chariot => {
            for (df, dr) in orth {
                let (mut x, mut y) = (f + df, r + dr);
                while let Some(s) = at(x, y) {
                    out.push(s);
                    if b[s].is_some() {
                        break;
                    }
                    x += df;
                    y += dr;
                }
            }
        }
        Kind::Cannon => {
            for (df, dr) in orth {
                let (mut x, mut y) = (f + df, r + dr);
                let mut screens = 0;
                while let Some(s) = at(x, y) {
                    if b[s].is_some() {
                        screens += 1;
                        if screens == 2 {
                            out.push(s);
                            break;
                        }
                    }
                    x += df;
                    y += dr;
                }
            }
        }
        Kind::Soldier => {
            let fwd = if p.colour == Colour::Red { 1 } else { -1 };
            out.extend(at(f, r + fwd));
            if !own_half(p.colour, r) {
                out.extend(at(f - 1, r));
                out.extend(at(f + 1, r));
            }
        }
    }
    out
}

/// Destinations of the piece on `from` ignoring checks.
fn pseudo_targets(b: &Board, from: usize) -> Vec<usize> {
    let Some(p) = b[from] else { return vec![] };
    let mut out: Vec<usize> = if p.kind == Kind::Cannon {
        let (f, r) = ((from % 9) as i32, (from / 9) as i32);
        let mut quiet = Vec::new();
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(s) = at(x, y) {
                if b[s].is_some() {
                    break;
                }
                quiet.push(s);
                x += df;
                y += dr;
            }
        }
        quiet.extend(attack_targets(b, from).into_iter().filter(|&s| b[s].is_some()));
        quiet
    } else {
        attack_targets(b, from)
    };
    out.retain(|&s| b[s].is_none_or(|q| q.colour != p.colour));
    out
}

fn general_of(b: &Board, c: Colour) -> Option<usize> {
    (0..90).find(|&s| b[s] == Some(Piece::new(c, Kind::General)))
}

/// Whether `c`'s general is attacked or faces the other general.
fn exposed(b: &Board, c: Colour) -> bool {
    let (Some(g), Some(e)) = (general_of(b, c), general_of(b, !c)) else { return true };
    if g % 9 == e % 9 {
        let (lo, hi) = (g.min(e), g.max(e));
        if (lo + 9..hi).step_by(9).all(|s| b[s].is_none()) {
            return true;
        }
    }
    (0..90).any(|s| b[s].is_some_and(|p| p.colour != c) && attack_targets(b, s).contains(&g))
}

impl Position {
    /// Every legal move, by the slow mailbox method.
    pub fn reference_moves(&self) -> Vec<Move> {
        let mut b: Board = [None; 90];
        for (s, slot) in b.iter_mut().enumerate() {
            *slot = self.piece_at(crate::Square::from_index(s as u8));
        }
        let mut out = Vec::new();
        for from in 0..90 {
            if b[from].is_none_or(|p| p.colour != self.side) {
                continue;
            }
            for to in pseudo_targets(&b, from) {
                let mut next = b;
                next[to] = next[from].take();
                if !exposed(&next, self.side) {
                    out.push(Move::new(from as u8, to as u8));
                }
            }
        }
        out
    }
}
