//! Commander Chess: material by kind (stacked pieces included). Terrain, air defence and the
//! points race are not evaluated yet; the game's own points follow from the captures.

use crate::params::{COMMANDER_TEMPO, COMMANDER_VALUES};
use crate::{Evaluate, Repetition};
use cannonade_commander::{Move, Position};

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

impl Evaluate for Position {
    const MOVE_INDEXES: usize = 256 * 256;

    fn evaluate(&self) -> i32 {
        let us = self.turn();
        COMMANDER_TEMPO + material(self, us) - material(self, 1 - us)
    }

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

    fn repetition(&self) -> Repetition {
        Repetition::Draw { occurrence: 3 }
    }

    fn reversible_plies(&self) -> usize {
        self.halfmove() as usize
    }
}
