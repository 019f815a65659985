//! Banqi from the public state: material of face-up pieces and of the face-down pool, each
//! piece valued by the enemy pieces it can take and that can take it, the captures that
//! the side to move threatens or suffers, how close the pieces that can take a general
//! (soldiers, the other general, cannons) are to one with nowhere to go, and how many steps
//! the face-up pieces can make.

use crate::Evaluate;
use crate::params::{
    BANQI_CONTEMPT, BANQI_DOWN_PERCENT, BANQI_GENERAL_DANGER, BANQI_HANGING_PERCENT,
    BANQI_MOBILITY, BANQI_PREDATOR, BANQI_PREY, BANQI_THREAT_PERCENT, BANQI_VALUES,
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

/// The cell at (`file`, `rank`); `None` off the board.
fn cell_at(pos: &Position, file: i32, rank: i32) -> Option<Cell> {
    if !(0..8).contains(&file) || !(0..4).contains(&rank) {
        return None;
    }
    Square::from_coords(file as u8, rank as u8).map(|s| pos.cell(s))
}

const STEPS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// How soon the enemy can take the face-up general on `at`, in 64ths; `enemy_cannons` are
/// the enemy's face-up cannons (the caller found both while scanning the board once). Its
/// soldiers and its general take by a step: one next to it counts 64, one that reaches a
/// point next to it in `n` steps over empty points 64 / 2^n (up to 4 steps). A cannon (under
/// the jumping rule) that has it in its sights counts 64, one a step away from that 32. The
/// sum is divided by one plus the general's ways out (empty neighbours no enemy stepper
/// touches). An attacker walking up to a general is a quiet move, which a shallow search does
/// not follow until the general is cornered; the records showed most lost games lost their
/// general so (to soldiers half the time, to cannons and to the other general a quarter
/// each). Face-down neighbours count as nothing: guessing at them walks the general into
/// corners.
pub(crate) fn general_danger(pos: &Position, at: Square, enemy_cannons: &[Square]) -> i32 {
    let Cell::FaceUp(general) = pos.cell(at) else { return 0 };
    let enemy = general.colour().other();
    // The enemy pieces that take a general by a step.
    let stepper = |cell: Option<Cell>| {
        matches!(cell, Some(Cell::FaceUp(p)) if p.colour() == enemy
            && matches!(p.kind(), Kind::Soldier | Kind::General))
    };
    let stepper_at = |f: i32, r: i32| stepper(cell_at(pos, f, r));
    let (gf, gr) = (at.file() as i32, at.rank() as i32);
    // Distance over empty points from the points next to the general (0 there).
    let mut dist = [u8::MAX; 32];
    let mut queue = [(0i32, 0i32); 32];
    let (mut head, mut tail) = (0, 0);
    let mut counted = [false; 32];
    let mut threat = 0;
    let mut ways_out = 0;
    for (df, dr) in STEPS {
        let (f, r) = (gf + df, gr + dr);
        let cell = cell_at(pos, f, r);
        if cell == Some(Cell::Empty) {
            dist[(r * 8 + f) as usize] = 0;
            queue[tail] = (f, r);
            tail += 1;
            if !STEPS.iter().any(|(ef, er)| stepper_at(f + ef, r + er)) {
                ways_out += 1;
            }
        } else if stepper(cell) {
            counted[(r * 8 + f) as usize] = true;
            threat += 64;
        }
    }
    while head < tail {
        let (f, r) = queue[head];
        head += 1;
        let d = dist[(r * 8 + f) as usize];
        if d >= 4 {
            continue;
        }
        for (df, dr) in STEPS {
            let (nf, nr) = (f + df, r + dr);
            let cell = cell_at(pos, nf, nr);
            let i = (nr * 8 + nf) as usize;
            if stepper(cell) && !counted[i] {
                counted[i] = true;
                threat += 64 >> (d + 1);
            } else if cell == Some(Cell::Empty) && dist[i] == u8::MAX {
                dist[i] = d + 1;
                queue[tail] = (nf, nr);
                tail += 1;
            }
        }
    }
    if pos.options().cannon == CannonRule::Jump {
        for &sq in enemy_cannons {
            let (cf, cr) = (sq.file() as i32, sq.rank() as i32);
            if in_sights(pos, (cf, cr), (gf, gr)) {
                threat += 64;
            } else if STEPS.iter().any(|(df, dr)| {
                let to = (cf + df, cr + dr);
                cell_at(pos, to.0, to.1) == Some(Cell::Empty) && in_sights(pos, to, (gf, gr))
            }) {
                threat += 32;
            }
        }
    }
    threat / (1 + ways_out)
}

/// Whether a cannon on `from` could jump onto `to`: the same file or rank, with exactly one
/// piece (face up or down) between.
fn in_sights(pos: &Position, from: (i32, i32), to: (i32, i32)) -> bool {
    if from == to || (from.0 != to.0 && from.1 != to.1) {
        return false;
    }
    let step = ((to.0 - from.0).signum(), (to.1 - from.1).signum());
    let mut at = (from.0 + step.0, from.1 + step.1);
    let mut screens = 0;
    while at != to {
        if cell_at(pos, at.0, at.1) != Some(Cell::Empty) {
            screens += 1;
        }
        at = (at.0 + step.0, at.1 + step.1);
    }
    screens == 1
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
        // Each side's general and cannons, for the general's danger below.
        let mut generals = [None; 2];
        let mut cannons = [[Square::ALL[0]; 2]; 2];
        let mut cannon_count = [0; 2];
        let mut mobility = [0i32; 2];
        for sq in (0..32).filter_map(Square::new) {
            let Cell::FaceUp(p) = self.cell(sq) else { continue };
            let c = p.colour();
            match p.kind() {
                Kind::General => generals[c.index()] = Some(sq),
                // A colour has two cannons (positions with more are refused).
                Kind::Cannon if cannon_count[c.index()] < 2 => {
                    cannons[c.index()][cannon_count[c.index()]] = sq;
                    cannon_count[c.index()] += 1;
                }
                _ => {}
            }
            let v = values[c.index()][p.kind() as usize];
            material[c.index()] += v;
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            let mut attacked = false;
            let mut defended = false;
            for (df, dr) in STEPS {
                let q = match cell_at(self, f + df, r + dr) {
                    Some(Cell::FaceUp(q)) => q,
                    Some(Cell::Empty) => {
                        mobility[c.index()] += 1;
                        continue;
                    }
                    _ => continue,
                };
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
        let danger_to = |c: Colour| match generals[c.index()] {
            Some(at) => {
                let enemy = c.other().index();
                general_danger(self, at, &cannons[enemy][..cannon_count[enemy]])
            }
            None => 0,
        };
        let danger = danger_to(us) - danger_to(us.other());
        material[us.index()] - material[us.other().index()]
            + best_threat * BANQI_THREAT_PERCENT / 100
            - worst_hanging * BANQI_HANGING_PERCENT / 100
            - danger * BANQI_GENERAL_DANGER / 64
            + (mobility[us.index()] - mobility[us.other().index()]) * BANQI_MOBILITY
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

#[cfg(test)]
mod tests {
    use super::*;

    use cannonade_banqi::Options;

    fn danger(fen: &str, colour: Colour) -> i32 {
        danger_in(&Position::from_fen(fen).unwrap(), colour)
    }

    /// `colour`'s general's danger, its square and the enemy cannons found by a scan.
    fn danger_in(pos: &Position, colour: Colour) -> i32 {
        let find = |p: Piece| {
            (0..32).filter_map(Square::new).filter(|&s| pos.cell(s) == Cell::FaceUp(p)).collect()
        };
        let generals: Vec<Square> = find(Piece::new(colour, Kind::General));
        let cannons: Vec<Square> = find(Piece::new(colour.other(), Kind::Cannon));
        generals.first().map_or(0, |&at| general_danger(pos, at, &cannons))
    }

    #[test]
    fn a_cornered_general_next_to_an_enemy_soldier_is_in_full_danger() {
        // Red general a1, its horse a2, a black soldier b1: no way out.
        assert_eq!(danger("8/8/N7/Kp6 r - 0 0", Colour::Red), 64);
        assert_eq!(danger("8/8/N7/Kp6 r - 0 0", Colour::Black), 0, "black has no general");
    }

    #[test]
    fn an_approaching_soldier_counts_less_and_ways_out_divide_it() {
        // Black soldier d4, red general d2: the soldier is one step from d3, next to the
        // general (32); d1, c2 and e2 are ways out, d3 is not (the soldier touches it).
        assert_eq!(danger("3p4/8/3K4/8 r - 0 0", Colour::Red), 32 / 4);
        // Soldier f4: three steps to a point next to the general (8), and all four
        // neighbours are ways out.
        assert_eq!(danger("5p2/8/3K4/8 r - 0 0", Colour::Red), 8 / 5);
    }

    #[test]
    fn the_enemy_general_threatens_like_a_soldier() {
        assert_eq!(danger("8/8/N7/Kk6 r - 0 0", Colour::Red), 64);
        // Both generals are in reach of the other: black's has two ways out (b2, c1).
        assert_eq!(danger("8/8/N7/Kk6 r - 0 0", Colour::Black), 64 / 3);
    }

    #[test]
    fn a_cannon_with_one_screen_before_the_general_threatens_it() {
        // Black cannon d4, red horse d3 between it and the red general d2: in its sights.
        let aimed = danger("3c4/3N4/3K4/8 r - 0 0", Colour::Red);
        assert_eq!(aimed, 64 / 4, "d1, c2 and e2 are ways out");
        // With no screen between it is no threat; a step away from a line with one screen
        // (c4-d4) it counts half.
        assert_eq!(danger("3c4/8/3K4/8 r - 0 0", Colour::Red), 0);
        assert_eq!(danger("2c5/3N4/3K4/8 r - 0 0", Colour::Red), 32 / 4);
        // Under the stepping cannon rule a cannon never takes a general.
        let step = Options { cannon: CannonRule::Step, ..Options::default() };
        let pos = Position::from_fen_with("3c4/3N4/3K4/8 r - 0 0", step).unwrap();
        assert_eq!(danger_in(&pos, Colour::Red), 0);
    }

    #[test]
    fn a_soldier_walled_off_by_pieces_or_a_general_without_soldiers_is_safe() {
        assert_eq!(danger("8/8/N7/KNp5 r - 0 0", Colour::Red), 0);
        assert_eq!(danger("8/8/3K4/8 r - 0 0", Colour::Red), 0);
        // A soldier of its own side is no danger.
        assert_eq!(danger("8/8/N7/KP6 r - 0 0", Colour::Red), 0);
    }

    #[test]
    fn the_evaluation_prefers_the_general_with_a_way_out() {
        let boxed = Position::from_fen("8/8/N7/Kp6 b - 0 0").unwrap().evaluate();
        let free = Position::from_fen("8/8/8/Kp5N b - 0 0").unwrap().evaluate();
        assert!(boxed > free, "black to move: {boxed} vs {free}");
    }

    #[test]
    fn a_boxed_in_piece_counts_less_than_a_free_one() {
        // The same red horses and chariot and a far black soldier: the chariot walled into
        // the corner by its horses (4 steps for red) against all three in the open (8).
        let boxed = Position::from_fen("7p/8/N7/RN6 r - 0 0").unwrap().evaluate();
        let free = Position::from_fen("7p/8/8/N1N1R3 r - 0 0").unwrap().evaluate();
        assert_eq!(free - boxed, 4 * BANQI_MOBILITY);
    }
}
