//! Xiangqi: material, piece squares, king safety and cannon screens.

use super::network;
use crate::Evaluate;
use crate::nnue::{Accumulator, NetGame, Network};
use crate::params::{
    XIANGQI_CANNON_SCREENS, XIANGQI_CHARIOT_MOBILITY, XIANGQI_CHARIOT_MOBILITY_BASE,
    XIANGQI_CROSSED_SOLDIER, XIANGQI_GENERAL_OFF_CENTRE, XIANGQI_GENERAL_RAISED,
    XIANGQI_HORSE_MOBILITY, XIANGQI_HORSE_MOBILITY_BASE, XIANGQI_KING_ATTACK_DIVISOR,
    XIANGQI_KING_ATTACK_MAX, XIANGQI_KING_ATTACK_UNITS, XIANGQI_MISSING_DEFENDER, XIANGQI_TEMPO,
    XIANGQI_VALUES,
};
use cannonade_core::{MoveBuf, Outcome, Reason, Rules};
use cannonade_geom::bits::Bits128;
use cannonade_xiangqi::tables::{FILE, HALF, PALACE, SOLDIER_MOVES};
use cannonade_xiangqi::{Colour, Kind, MOVE_LIMIT, Move, Position, Square};

/// Piece-square bonus of a kind on (file, rank) seen from its own side (rank 0 = own back
/// rank), built once from small formulas so the shape is readable.
const fn square_bonus(kind: usize, file: i32, rank: i32) -> i32 {
    let centre = 4 - if file > 4 { file - 4 } else { 4 - file };
    match kind {
        // Horse: centre and the middle of the board, never the back rank corners.
        3 => {
            let r = [-12, -2, 4, 8, 14, 16, 18, 14, 6, -4][rank as usize];
            r + 3 * centre
        }
        // Chariot: develop off the back rank, press forward, stay near the middle files.
        4 => {
            let r = [-6, 2, 2, 4, 8, 10, 12, 14, 12, 8][rank as usize];
            r + centre
        }
        // Cannon: the central file and its own half.
        5 => {
            let r = [0, 2, 4, 2, 0, 0, 0, 2, 4, 0][rank as usize];
            r + if file == 4 { 10 } else { centre }
        }
        // Soldier: across the river it grows, most near the palace, less on the last rank.
        6 => {
            let r = [0, 0, 0, 0, 4, 10, 22, 28, 24, 4][rank as usize];
            r + if rank >= 5 { 4 * centre } else { 0 }
        }
        _ => 0,
    }
}

/// The bonus table, indexed `[kind][square]` from Red's view.
static PST: [[i32; 90]; 7] = {
    let mut t = [[0; 90]; 7];
    let mut k = 0;
    while k < 7 {
        let mut sq = 0;
        while sq < 90 {
            t[k][sq] = square_bonus(k, (sq % 9) as i32, (sq / 9) as i32);
            sq += 1;
        }
        k += 1;
    }
    t
};

/// The square seen from Black's side.
#[inline]
fn mirror(sq: u8) -> usize {
    (9 - sq / 9) as usize * 9 + (sq % 9) as usize
}

/// Red-positive material and squares of one colour.
fn material(pos: &Position, c: Colour) -> i32 {
    let mut score = 0;
    for k in Kind::ALL {
        let set = pos.pieces(c, k);
        score += XIANGQI_VALUES[k.index()] * set.count_ones() as i32;
        if matches!(k, Kind::Horse | Kind::Chariot | Kind::Cannon | Kind::Soldier) {
            for sq in Bits128(set) {
                let s = if c == Colour::Red { sq as usize } else { mirror(sq) };
                score += PST[k.index()][s];
            }
        }
        if k == Kind::Soldier {
            let crossed = set & HALF[1 - c.index()];
            score += XIANGQI_CROSSED_SOLDIER * crossed.count_ones() as i32;
        }
    }
    score
}

/// Activity of colour `c`'s pieces: the mobility of its chariots and horses (the points each
/// reaches that its own pieces do not hold), and the attack of all its pieces on the enemy
/// palace.
fn activity(pos: &Position, c: Colour) -> i32 {
    let own = pos.colour_set(c);
    let palace = PALACE & HALF[1 - c.index()];
    let mut score = 0;
    let (mut units, mut attackers) = (0, 0u32);
    let mut attack = |kind: Kind, reach: u128| {
        let hits = (reach & palace).count_ones() as i32;
        if hits > 0 {
            units += XIANGQI_KING_ATTACK_UNITS[kind.index()] * hits;
            attackers += 1;
        }
    };
    for sq in Bits128(pos.pieces(c, Kind::Chariot)).filter_map(Square::new) {
        let reach = pos.chariot_reach(sq);
        attack(Kind::Chariot, reach);
        let n = (reach & !own).count_ones() as i32;
        score += XIANGQI_CHARIOT_MOBILITY * (n - XIANGQI_CHARIOT_MOBILITY_BASE);
    }
    for sq in Bits128(pos.pieces(c, Kind::Horse)).filter_map(Square::new) {
        let reach = pos.horse_reach(sq);
        attack(Kind::Horse, reach);
        let n = (reach & !own).count_ones() as i32;
        score += XIANGQI_HORSE_MOBILITY * (n - XIANGQI_HORSE_MOBILITY_BASE);
    }
    for sq in Bits128(pos.pieces(c, Kind::Cannon)).filter_map(Square::new) {
        attack(Kind::Cannon, pos.cannon_targets(sq));
    }
    for sq in Bits128(pos.pieces(c, Kind::Soldier) & HALF[1 - c.index()]) {
        attack(Kind::Soldier, SOLDIER_MOVES[c.index()][sq as usize]);
    }
    score + king_attack(units, attackers)
}

/// The worth of an attack on the enemy palace of `units` by `attackers` pieces: nothing from
/// one piece alone, then growing with the square of the units.
fn king_attack(units: i32, attackers: u32) -> i32 {
    if attackers < 2 {
        return 0;
    }
    (units * units / XIANGQI_KING_ATTACK_DIVISOR).min(XIANGQI_KING_ATTACK_MAX)
}

/// King safety of colour `c`: missing defenders weighed by enemy attackers across the river,
/// the general's exposure, and enemy cannons on its file.
fn king_safety(pos: &Position, c: Colour) -> i32 {
    let them = !c;
    let defenders = (pos.pieces(c, Kind::Advisor) | pos.pieces(c, Kind::Elephant)).count_ones();
    let attackers = ((pos.pieces(them, Kind::Chariot)
        | pos.pieces(them, Kind::Horse)
        | pos.pieces(them, Kind::Cannon)
        | pos.pieces(them, Kind::Soldier))
        & HALF[c.index()])
    .count_ones() as i32;
    let mut score = -XIANGQI_MISSING_DEFENDER * (4 - defenders as i32) * attackers;
    let g = pos.general(c);
    score -= XIANGQI_GENERAL_OFF_CENTRE * (g.file() as i32 - 4).abs();
    let raised = if c == Colour::Red { g.rank() } else { 9 - g.rank() };
    score -= XIANGQI_GENERAL_RAISED * raised as i32;
    let file = FILE[g.file() as usize];
    let occ = pos.occupied();
    for cannon in Bits128(pos.pieces(them, Kind::Cannon) & file) {
        let (lo, hi) = if cannon < g.index() { (cannon, g.index()) } else { (g.index(), cannon) };
        let between = ((1u128 << hi) - (1u128 << (lo + 1))) & file & occ;
        let n = (between.count_ones() as usize).min(3);
        score -= XIANGQI_CANNON_SCREENS[n];
    }
    score
}

/// The hand-written evaluation for the side to move: material and squares, activity, king
/// safety and cannon screens, and the tempo.
pub(crate) fn classical(pos: &Position) -> i32 {
    let side = |c| material(pos, c) + activity(pos, c) + king_safety(pos, c);
    let (red, black) = (side(Colour::Red), side(Colour::Black));
    let score = red - black;
    XIANGQI_TEMPO + if pos.side_to_move() == Colour::Red { score } else { -score }
}

/// The network, unless this search evaluates by hand ([`network::networks_on`]).
#[inline]
fn network() -> Option<&'static Network> {
    if network::networks_on() { Network::of(NetGame::Xiangqi) } else { None }
}

impl Evaluate for Position {
    const MOVE_INDEXES: usize = 90 * 90;

    type Acc = Accumulator;

    network::evaluate_by_network!(Position);

    fn move_index(&self, mv: Move) -> usize {
        mv.from().index() as usize * 90 + mv.to().index() as usize
    }

    const PIECE_TO_INDEXES: usize = 14 * 90;

    fn piece_to(&self, mv: Move) -> usize {
        let piece = self.piece_at(mv.from()).map_or(0, |p| p.colour.index() * 7 + p.kind.index());
        piece * 90 + mv.to().index() as usize
    }

    fn tactical_value(&self, mv: Move) -> Option<i32> {
        let victim = self.piece_at(mv.to())?;
        let attacker = self.piece_at(mv.from()).map_or(0, |p| XIANGQI_VALUES[p.kind.index()]);
        Some(XIANGQI_VALUES[victim.kind.index()] * 16 - attacker / 16)
    }

    fn tactical_moves(&self, buf: &mut MoveBuf<Move>) {
        self.legal_captures_into(buf);
    }

    fn losing_capture(&self, mv: Move) -> bool {
        let (Some(victim), Some(attacker)) = (self.piece_at(mv.to()), self.piece_at(mv.from()))
        else {
            return false;
        };
        if XIANGQI_VALUES[attacker.kind.index()] <= XIANGQI_VALUES[victim.kind.index()] {
            return false;
        }
        // One step of the exchange: the opponent's pieces that reach the point after the
        // capture (the capturer no longer screens or blocks from its old point).
        let mut after = self.clone();
        after.play_move(mv);
        after.attackers_of(mv.to(), after.side_to_move()) != 0
    }

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    fn quick_outcome(&self) -> Option<Outcome> {
        if self.halfmove() >= MOVE_LIMIT {
            Some(Outcome::draw(Reason::MoveLimit))
        } else if self.dead_material() {
            Some(Outcome::draw(Reason::DeadMaterial))
        } else {
            None
        }
    }

    fn stuck_outcome(&self) -> Outcome {
        let reason = if Position::in_check(self) { Reason::Checkmate } else { Reason::Stalemate };
        Outcome::loss(self.mover(), reason)
    }

    fn null_move(&self) -> Option<Position> {
        Some(self.passed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn red_activity(fen: &str) -> i32 {
        activity(&Position::from_fen(fen).unwrap(), Colour::Red)
    }

    #[test]
    fn king_attack_counts_only_pieces_working_together() {
        // A chariot on the open d-file reaches d7–d9; a horse on c6 reaches d8 and e7.
        let chariot = red_activity("4k4/9/9/9/9/9/9/9/9/3R1K3 w");
        let both = red_activity("4k4/9/9/2N6/9/9/9/9/9/3R1K3 w");
        let horse = red_activity("4k4/9/9/2N6/9/9/9/9/9/5K3 w");
        let without = red_activity("4k4/9/9/9/9/9/9/9/9/5K3 w");
        let alone = (chariot - without) + (horse - without);
        assert!(both - without > alone, "{both} against {alone} for the two alone");
        assert_eq!(king_attack(40, 1), 0);
        assert_eq!(king_attack(1_000, 3), XIANGQI_KING_ATTACK_MAX);
    }
}
