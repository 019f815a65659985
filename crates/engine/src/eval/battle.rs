//! Chess-Battle: material, soldiers marching on the last rank (each one that arrives removes
//! an enemy piece of its owner's choice), shooting lines of guns and machine guns, and
//! centralisation (levels 1–9); at level 10 the network (`nnue`).

use super::network;
use crate::Evaluate;
use crate::nnue::{Accumulator, NetGame, Network};
use crate::params::{
    BATTLE_CENTRE, BATTLE_LINE_SQUARE, BATTLE_SIGHT_PERCENT, BATTLE_SOLDIER_ADVANCE, BATTLE_TEMPO,
    BATTLE_VALUES,
};
use cannonade_battle::{Kind, Move, PLY_LIMIT, Position, Square};
use cannonade_core::{Outcome, Reason, Side};

/// The shot lines of a gun (sideways, forward, diagonally forward) for a side, as (file,
/// rank) steps; machine guns shoot along all eight.
fn gun_lines(side: Side) -> [(i32, i32); 5] {
    let f = if side == Side::First { 1 } else { -1 };
    [(-1, 0), (1, 0), (0, f), (-1, f), (1, f)]
}

const ALL_LINES: [(i32, i32); 8] =
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// A shooter's line: open squares, and the value of the enemy piece in its sights.
fn sight(
    pos: &Position,
    from: Square,
    side: Side,
    (df, dr): (i32, i32),
    range: i32,
    gun: bool,
) -> i32 {
    let (mut f, mut r) = (from.file() as i32, from.rank() as i32);
    let mut score = 0;
    for _ in 0..range {
        f += df;
        r += dr;
        let Some(sq) = (0..12)
            .contains(&f)
            .then_some(())
            .and_then(|_| (0..12).contains(&r).then(|| Square::new(f as u8, r as u8)).flatten())
        else {
            break;
        };
        match pos.piece_at(sq) {
            None => score += BATTLE_LINE_SQUARE,
            Some(p) => {
                let shootable = p.kind != Kind::Headquarter && (gun || p.kind != Kind::Tank);
                if p.side != side && shootable {
                    score += BATTLE_VALUES[p.kind.index()] * BATTLE_SIGHT_PERCENT / 100;
                }
                break;
            }
        }
    }
    score
}

/// Closeness to the middle of the board, 0 (edge) to 5 (centre).
fn centrality(sq: Square) -> i32 {
    let d = |x: u8| ((2 * x as i32 - 11).abs() - 1) / 2;
    5 - d(sq.file()).max(d(sq.rank()))
}

/// The hand-written evaluation for the side to move.
pub(crate) fn classical(pos: &Position) -> i32 {
    let mut score = [0i32; 2];
    for sq in Square::all() {
        let Some(p) = pos.piece_at(sq) else { continue };
        let s = &mut score[p.side.index()];
        *s += BATTLE_VALUES[p.kind.index()];
        match p.kind {
            Kind::Soldier => {
                let advanced =
                    if p.side == Side::First { sq.rank() } else { 11 - sq.rank() } as usize;
                *s += BATTLE_SOLDIER_ADVANCE[advanced];
            }
            Kind::Gun => {
                *s += BATTLE_CENTRE * centrality(sq);
                for line in gun_lines(p.side) {
                    *s += sight(pos, sq, p.side, line, 5, true);
                }
            }
            Kind::MachineGun => {
                *s += BATTLE_CENTRE * centrality(sq);
                for line in ALL_LINES {
                    *s += sight(pos, sq, p.side, line, 3, false);
                }
            }
            Kind::Cavalry => *s += BATTLE_CENTRE * centrality(sq),
            _ => {}
        }
    }
    let us = pos.side_to_move().index();
    BATTLE_TEMPO + score[us] - score[1 - us]
}

/// The network, unless this search evaluates by hand ([`network::networks_on`]).
#[inline]
fn network() -> Option<&'static Network> {
    if network::networks_on() { Network::of(NetGame::ChessBattle) } else { None }
}

impl Evaluate for Position {
    type Acc = Accumulator;

    const MOVE_INDEXES: usize = 128 * 128;
    const NODE_RATE: u32 = crate::params::BATTLE_NODE_RATE;

    network::evaluate_by_network!(Position);

    fn move_index(&self, mv: Move) -> usize {
        mv.from().index() as usize * 128 + mv.to().index() as usize
    }

    fn tactical_value(&self, mv: Move) -> Option<i32> {
        if !mv.removes_piece() {
            return None;
        }
        let value = |sq: Option<Square>| {
            sq.and_then(|s| self.piece_at(s)).map_or(0, |p| BATTLE_VALUES[p.kind.index()])
        };
        let victim = if mv.is_shot() || mv.is_capture() { value(Some(mv.to())) } else { 0 };
        let removed = if mv.is_last_rank() { value(mv.removal()) } else { 0 };
        let attacker = if mv.is_shot() { 0 } else { value(Some(mv.from())) };
        Some((victim + removed) * 16 - attacker / 16)
    }

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    fn quick_outcome(&self) -> Option<Outcome> {
        if self.clock() >= PLY_LIMIT {
            Some(Outcome::draw(Reason::MoveLimit))
        } else if self.piece_count(Side::First) == 1 && self.piece_count(Side::Second) == 1 {
            Some(Outcome::draw(Reason::DeadMaterial))
        } else {
            None
        }
    }

    fn stuck_outcome(&self) -> Outcome {
        if Position::in_check(self) {
            Outcome::loss(self.side_to_move(), Reason::Checkmate)
        } else {
            Outcome::draw(Reason::Stalemate)
        }
    }

    fn null_move(&self) -> Option<Position> {
        Some(self.passed())
    }
}
