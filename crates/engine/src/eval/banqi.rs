//! Banqi from the public state: material of face-up pieces and of the face-down pool, each
//! piece valued by the enemy pieces it can take and that can take it, the captures that
//! the side to move threatens or suffers, how close the pieces that can take a general
//! (soldiers, the other general, cannons) are to one with nowhere to go, and how many steps
//! the face-up pieces can make.

use crate::Evaluate;
use crate::params::{
    BANQI_CONTEMPT, BANQI_DOWN_PERCENT, BANQI_GENERAL_DANGER, BANQI_HANGING_PERCENT,
    BANQI_MOBILITY, BANQI_PREDATOR, BANQI_PREY, BANQI_SAFE_PERCENT, BANQI_THREAT_PERCENT,
    BANQI_VALUES,
};
use cannonade_banqi::{CannonRule, Cell, Colour, Kind, Move, Piece, Position, Square};

/// Whether a piece of kind `a` can ever take one of kind `t` under the cannon rule.
const fn can_take(a: Kind, t: Kind, cannon: CannonRule) -> bool {
    match (a, cannon) {
        (Kind::Cannon, CannonRule::Jump) => true,
        _ => a.takes_by_step(t, matches!(cannon, CannonRule::Step)),
    }
}

/// The weights of the Banqi evaluation. The engine plays with [`BanqiWeights::DEFAULT`] (the
/// constants of `params`); `cannonade-train --game banqi` fits them to games' results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BanqiWeights {
    /// Base value of each kind, highest rank first (general, advisor, elephant, chariot,
    /// horse, cannon, soldier).
    pub values: [i32; 7],
    /// Added to a kind's value per enemy piece (up or down) it can take.
    pub prey: i32,
    /// Taken from a kind's value per enemy piece (up or down) that can take it.
    pub predator: i32,
    /// Percentage of its value a face-down piece counts for its colour.
    pub down_percent: i32,
    /// Percentage of the victim's value for the best capture the side to move threatens.
    pub threat_percent: i32,
    /// Percentage of the value of the side to move's worst attacked, undefended piece.
    pub hanging_percent: i32,
    /// Centipawns per unit (64) of a general's danger (how soon the enemy can take it when it
    /// has nowhere to go).
    pub general_danger: i32,
    /// Centipawns per step a face-up piece can make onto an empty point.
    pub mobility: i32,
    /// Percentage added to a kind's value while no enemy piece (up or down) can take it: such
    /// a piece hunts without risk, and endings are won by it.
    pub safe_percent: i32,
}

impl BanqiWeights {
    /// The weights the engine plays with.
    pub const DEFAULT: BanqiWeights = BanqiWeights {
        values: BANQI_VALUES,
        prey: BANQI_PREY,
        predator: BANQI_PREDATOR,
        down_percent: BANQI_DOWN_PERCENT,
        threat_percent: BANQI_THREAT_PERCENT,
        hanging_percent: BANQI_HANGING_PERCENT,
        general_danger: BANQI_GENERAL_DANGER,
        mobility: BANQI_MOBILITY,
        safe_percent: BANQI_SAFE_PERCENT,
    };
}

/// The Banqi evaluation with a set of weights: the weights and, per cannon rule (`Jump`,
/// `Step`), kind `k` and enemy kind `t`, what each enemy piece of kind `t` (face up or down)
/// adds to the value of kind `k`, as prey less as predator. A table, because the evaluation
/// is most of the time a Banqi search spends.
#[derive(Clone, Debug)]
pub struct BanqiEval {
    weights: BanqiWeights,
    kind_weights: [[[i32; 7]; 7]; 2],
    /// Per cannon rule and kind, the enemy kinds that can take it, as bits by kind index.
    predators: [[u8; 7]; 2],
}

/// The evaluation the engine plays with, its table built at compile time.
static DEFAULT_EVAL: BanqiEval = BanqiEval::new(BanqiWeights::DEFAULT);

impl BanqiEval {
    /// The evaluation with `weights`.
    pub const fn new(weights: BanqiWeights) -> BanqiEval {
        let mut out = [[[0; 7]; 7]; 2];
        let mut predators = [[0u8; 7]; 2];
        let rules = [CannonRule::Jump, CannonRule::Step];
        let mut r = 0;
        while r < 2 {
            let mut k = 0;
            while k < 7 {
                let mut t = 0;
                while t < 7 {
                    let (kind, target) = (Kind::ALL[k], Kind::ALL[t]);
                    if can_take(kind, target, rules[r]) {
                        out[r][k][t] += weights.prey;
                    }
                    if can_take(target, kind, rules[r]) {
                        out[r][k][t] -= weights.predator;
                        predators[r][k] |= 1 << t;
                    }
                    t += 1;
                }
                k += 1;
            }
            r += 1;
        }
        BanqiEval { weights, kind_weights: out, predators }
    }

    /// The value of each of `colour`'s kinds, from `counts` (every piece on the board or in
    /// the pool, by piece index): its base value, plus the enemy pieces it can take, less
    /// those that can take it, and more while none can.
    fn kind_values(&self, counts: &[i32; 14], colour: Colour, cannon: CannonRule) -> [i32; 7] {
        let rule = (cannon == CannonRule::Step) as usize;
        let weights = &self.kind_weights[rule];
        let enemy = &counts[colour.other().index() * 7..][..7];
        let alive = enemy.iter().enumerate().fold(0u8, |m, (t, &n)| m | (((n > 0) as u8) << t));
        let mut values = [0; 7];
        for k in 0..7 {
            let v: i32 = weights[k].iter().zip(enemy).map(|(w, n)| w * n).sum();
            let value = (self.weights.values[k] + v).max(10);
            let safe = self.predators[rule][k] & alive == 0;
            values[k] = value + if safe { value * self.weights.safe_percent / 100 } else { 0 };
        }
        values
    }

    /// `pos` valued for its side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let Some(us) = pos.turn() else { return 0 };
        let cannon = pos.options().cannon;
        // Every piece counted by kind, face up or down, and where the face-up ones stand.
        let mut counts = [0i32; 14];
        let mut face_up = 0u32;
        for (p, (count, &down)) in Piece::ALL.into_iter().zip(counts.iter_mut().zip(&pos.pool())) {
            let mask = pos.face_up_squares(p);
            *count = down as i32 + mask.count_ones() as i32;
            face_up |= mask;
        }
        let empty = pos.empty_squares();
        let values = [
            self.kind_values(&counts, Colour::Red, cannon),
            self.kind_values(&counts, Colour::Black, cannon),
        ];
        let mut material = [0i32; 2];
        for c in Colour::BOTH {
            for k in Kind::ALL {
                let down = pos.pool_count(Piece::new(c, k)) as i32;
                material[c.index()] +=
                    values[c.index()][k as usize] * down * self.weights.down_percent / 100;
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
        for (p, sq) in Piece::ALL
            .into_iter()
            .flat_map(|p| Square::in_mask(pos.face_up_squares(p)).map(move |sq| (p, sq)))
        {
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
            let mut attacked = false;
            let mut defended = false;
            mobility[c.index()] += (sq.neighbours() & empty).count_ones() as i32;
            for next in Square::in_mask(sq.neighbours() & face_up) {
                let Cell::FaceUp(q) = pos.cell(next) else { continue };
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
                general_danger(pos, at, &cannons[enemy][..cannon_count[enemy]])
            }
            None => 0,
        };
        let danger = danger_to(us) - danger_to(us.other());
        material[us.index()] - material[us.other().index()]
            + best_threat * self.weights.threat_percent / 100
            - worst_hanging * self.weights.hanging_percent / 100
            - danger * self.weights.general_danger / 64
            + (mobility[us.index()] - mobility[us.other().index()]) * self.weights.mobility
    }
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
        DEFAULT_EVAL.evaluate(self)
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

    /// Counts by piece index (red's kinds, then black's) from (piece, count) pairs.
    fn counts(pieces: &[(Piece, i32)]) -> [i32; 14] {
        let mut out = [0; 14];
        for &(p, n) in pieces {
            out[Piece::ALL.iter().position(|&q| q == p).unwrap()] = n;
        }
        out
    }

    #[test]
    fn a_kind_no_enemy_piece_can_take_gains_the_safe_percentage() {
        let plain = BanqiEval::new(BanqiWeights { safe_percent: 0, ..BanqiWeights::DEFAULT });
        let safe = BanqiEval::new(BanqiWeights { safe_percent: 50, ..BanqiWeights::DEFAULT });
        let (red_general, black_horse) =
            (Piece::new(Colour::Red, Kind::General), Piece::new(Colour::Black, Kind::Horse));
        let few = counts(&[(red_general, 1), (black_horse, 2)]);
        let g = Kind::General as usize;
        let red = |e: &BanqiEval, c: &[i32; 14]| e.kind_values(c, Colour::Red, CannonRule::Jump);
        let black =
            |e: &BanqiEval, c: &[i32; 14]| e.kind_values(c, Colour::Black, CannonRule::Jump);
        // Horses cannot take a general: it is worth half as much again.
        assert_eq!(red(&safe, &few)[g], red(&plain, &few)[g] * 3 / 2);
        // The general can take a horse: the horses' value does not change.
        let h = Kind::Horse as usize;
        assert_eq!(black(&safe, &few)[h], black(&plain, &few)[h]);
        // A soldier, face up or down, can take the general: no bonus.
        let soldier = counts(&[(red_general, 1), (Piece::new(Colour::Black, Kind::Soldier), 1)]);
        assert_eq!(red(&safe, &soldier)[g], red(&plain, &soldier)[g]);
        // Under the stepping rule a cannon cannot take a general; under the jumping rule it can.
        let cannon = counts(&[(red_general, 1), (Piece::new(Colour::Black, Kind::Cannon), 1)]);
        assert_eq!(red(&safe, &cannon)[g], red(&plain, &cannon)[g]);
        let step = |e: &BanqiEval| e.kind_values(&cannon, Colour::Red, CannonRule::Step)[g];
        assert_eq!(step(&safe), step(&plain) * 3 / 2);
    }

    #[test]
    fn the_engine_plays_with_the_default_weights() {
        let pos = Position::from_fen("2n2c2/1a3B1a/1bA3kR/rX6 b p1 1 124").unwrap();
        assert_eq!(pos.evaluate(), BanqiEval::new(BanqiWeights::DEFAULT).evaluate(&pos));
        let other = BanqiEval::new(BanqiWeights { mobility: 40, ..BanqiWeights::DEFAULT });
        assert_ne!(pos.evaluate(), other.evaluate(&pos));
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
