//! Commander Chess: material by kind (stacked pieces included) and heroes, the advance of
//! the land army, and the Commander's safety: how far it has wandered, enemy units close to
//! it and whether its own air defence covers it. The points race follows from material, as
//! every capture scores the victim's value. A network (`nnue`) takes over at level 10 when
//! one is given (`EvalFile`): none is built in yet (docs/engine.md, "The Commander network").

use super::network;
use crate::Evaluate;
use crate::nnue::{Accumulator, NetGame, Network};
use crate::params::{
    COMMANDER_AIR_COVER, COMMANDER_EXPOSED_RANK, COMMANDER_FOOT_ADVANCE, COMMANDER_HERO,
    COMMANDER_NEAR_ENEMY, COMMANDER_SUPPORT_ADVANCE, COMMANDER_TEMPO, COMMANDER_VALUES,
};
use cannonade_commander::board::{file, in_zone, rank};
use cannonade_commander::{Kind, Move, Position};

/// Ranks advanced by colour `c` on point `p` (0 = its own back rank).
fn progress(c: usize, p: u8) -> usize {
    if c == 0 { rank(p) as usize } else { 11 - rank(p) as usize }
}

/// King distance between two points.
fn distance(a: u8, b: u8) -> u8 {
    file(a).abs_diff(file(b)).max(rank(a).abs_diff(rank(b)))
}

/// Everything but material for colour `c`, in centipawns.
fn placement(pos: &Position, c: usize) -> i32 {
    const FOOT: u16 = Kind::Infantry.bit() | Kind::Militia.bit() | Kind::Tank.bit();
    const SUPPORT: u16 = Kind::Artillery.bit() | Kind::Missile.bit() | Kind::AntiAir.bit();
    let own_cmd = pos.commander(c);
    let enemy_cmd = pos.commander(1 - c);
    let mut score = 0;
    let mut covered = false;
    for p in pos.occupied(c) {
        let Some((_, kinds, heroes)) = pos.unit_at(p) else { continue };
        let ahead = progress(c, p);
        score += COMMANDER_HERO * (heroes & !Kind::Commander.bit()).count_ones() as i32;
        score += COMMANDER_FOOT_ADVANCE[ahead] * (kinds & FOOT).count_ones() as i32;
        score += COMMANDER_SUPPORT_ADVANCE[ahead] * (kinds & SUPPORT).count_ones() as i32;
        if let Some(cmd) = own_cmd {
            let r = pos.air_radius_at(p);
            covered |= r > 0 && in_zone(p, cmd, r);
        }
        if let Some(them) = enemy_cmd
            && distance(p, them) <= 2
        {
            score += COMMANDER_NEAR_ENEMY;
        }
    }
    if let Some(cmd) = own_cmd {
        score -= COMMANDER_EXPOSED_RANK * progress(c, cmd).saturating_sub(2) as i32;
        if covered {
            score += COMMANDER_AIR_COVER;
        }
    }
    score
}

/// Material of colour `c` in centipawns.
fn material(pos: &Position, c: usize) -> i32 {
    pos.material(c).iter().zip(COMMANDER_VALUES).map(|(&n, v)| n as i32 * v).sum()
}

/// The kinds on a point, valued.
fn unit_value(pos: &Position, p: u8) -> i32 {
    pos.unit_at(p).map_or(0, |(_, kinds, _)| {
        (0..11).filter(|k| kinds & (1 << k) != 0).map(|k| COMMANDER_VALUES[k]).sum()
    })
}

/// The hand-written evaluation, for the side to move.
pub(crate) fn classical(pos: &Position) -> i32 {
    let us = pos.turn();
    COMMANDER_TEMPO + material(pos, us) - material(pos, 1 - us) + placement(pos, us)
        - placement(pos, 1 - us)
}

#[inline]
fn network() -> Option<&'static Network> {
    if network::networks_on() { Network::of(NetGame::Commander) } else { None }
}

impl Evaluate for Position {
    type Acc = Accumulator;

    const MOVE_INDEXES: usize = 256 * 256;
    const NODE_RATE: u32 = crate::params::COMMANDER_NODE_RATE;

    network::evaluate_by_network!(Position);

    fn move_index(&self, mv: Move) -> usize {
        let to = mv.steps().first().map_or(0, |s| s.to);
        mv.from() as usize * 256 + to as usize
    }

    fn tactical_value(&self, mv: Move) -> Option<i32> {
        if !mv.is_capture() {
            return None;
        }
        let victims: i32 =
            mv.steps().iter().filter(|s| s.op.is_capture()).map(|s| unit_value(self, s.to)).sum();
        Some(victims * 16 - unit_value(self, mv.from()) / 16)
    }

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
}
