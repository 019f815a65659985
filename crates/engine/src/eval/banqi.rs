//! Banqi from the public state: material of face-up pieces and of the face-down pool, each
//! piece valued by the enemy pieces it can take and that can take it, and the captures that
//! the side to move threatens or suffers.

use crate::Evaluate;
use crate::params::{
    BANQI_CONTEMPT, BANQI_DOWN_PERCENT, BANQI_HANGING_PERCENT, BANQI_PREDATOR, BANQI_PREY,
    BANQI_THREAT_PERCENT, BANQI_VALUES,
};
use cannonade_banqi::{CannonRule, Cell, Colour, Kind, Move, Piece, Position, Square};

/// Whether a piece of kind `a` can ever take one of kind `t` under the cannon rule.
fn can_take(a: Kind, t: Kind, cannon: CannonRule) -> bool {
    match (a, cannon) {
        (Kind::Cannon, CannonRule::Jump) => true,
        _ => a.takes_by_step(t, cannon == CannonRule::Step),
    }
}

/// The value of each of `colour`'s kinds in this position: its base value, plus the enemy
/// pieces (face up or down) it can take, less those that can take it.
fn kind_values(pos: &Position, colour: Colour, cannon: CannonRule) -> [i32; 7] {
    let enemy = colour.other();
    let mut enemy_count = [0i32; 7];
    for sq in (0..32).filter_map(Square::new) {
        if let Cell::FaceUp(p) = pos.cell(sq)
            && p.colour() == enemy
        {
            enemy_count[p.kind() as usize] += 1;
        }
    }
    for k in Kind::ALL {
        enemy_count[k as usize] += pos.pool_count(Piece::new(enemy, k)) as i32;
    }
    let mut values = [0; 7];
    for k in Kind::ALL {
        let mut v = BANQI_VALUES[k as usize];
        for t in Kind::ALL {
            let n = enemy_count[t as usize];
            if can_take(k, t, cannon) {
                v += BANQI_PREY * n;
            }
            if can_take(t, k, cannon) {
                v -= BANQI_PREDATOR * n;
            }
        }
        values[k as usize] = v.max(10);
    }
    values
}

/// The face-up piece on a square.
fn up(pos: &Position, file: i32, rank: i32) -> Option<Piece> {
    if !(0..8).contains(&file) || !(0..4).contains(&rank) {
        return None;
    }
    match Square::from_coords(file as u8, rank as u8).map(|s| pos.cell(s)) {
        Some(Cell::FaceUp(p)) => Some(p),
        _ => None,
    }
}

impl Evaluate for Position {
    type Acc = ();

    const MOVE_INDEXES: usize = 32 * 32;
    const CONTEMPT: i32 = BANQI_CONTEMPT;
    const NODE_RATE: u32 = crate::params::BANQI_NODE_RATE;

    fn evaluate(&self) -> i32 {
        let Some(us) = self.turn() else { return 0 };
        let cannon = self.options().cannon;
        let values =
            [kind_values(self, Colour::Red, cannon), kind_values(self, Colour::Black, cannon)];
        let mut material = [0i32; 2];
        for c in Colour::BOTH {
            for k in Kind::ALL {
                let down = self.pool_count(Piece::new(c, k)) as i32;
                material[c.index()] +=
                    values[c.index()][k as usize] * down * BANQI_DOWN_PERCENT / 100;
            }
        }
        // Adjacent step captures: the best one the side to move threatens, and the worst
        // undefended loss it faces.
        let mut best_threat = 0;
        let mut worst_hanging = 0;
        let step_rule = cannon == CannonRule::Step;
        for sq in (0..32).filter_map(Square::new) {
            let Cell::FaceUp(p) = self.cell(sq) else { continue };
            let c = p.colour();
            let v = values[c.index()][p.kind() as usize];
            material[c.index()] += v;
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            let neighbours = [(f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)];
            let mut attacked = false;
            let mut defended = false;
            for (nf, nr) in neighbours {
                let Some(q) = up(self, nf, nr) else { continue };
                if q.colour() == c {
                    defended |= q.kind() != Kind::Cannon || step_rule;
                } else if q.kind() != Kind::Cannon || step_rule {
                    attacked |= q.kind().takes_by_step(p.kind(), step_rule);
                }
            }
            if attacked {
                if c == us {
                    if !defended {
                        worst_hanging = worst_hanging.max(v);
                    }
                } else {
                    best_threat = best_threat.max(v);
                }
            }
        }
        material[us.index()] - material[us.other().index()]
            + best_threat * BANQI_THREAT_PERCENT / 100
            - worst_hanging * BANQI_HANGING_PERCENT / 100
    }

    fn move_index(&self, mv: Move) -> usize {
        mv.from().index() * 32 + mv.to().index()
    }

    fn tactical_value(&self, mv: Move) -> Option<i32> {
        if !mv.is_capture() {
            return None;
        }
        let victim = match self.cell(mv.to()) {
            Cell::FaceUp(p) => BANQI_VALUES[p.kind() as usize],
            _ => 0,
        };
        let attacker = match self.cell(mv.from()) {
            Cell::FaceUp(p) => BANQI_VALUES[p.kind() as usize],
            _ => 0,
        };
        Some(victim * 16 * mv.captures() as i32 - attacker / 16)
    }
}
