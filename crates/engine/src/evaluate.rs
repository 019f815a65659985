//! Static evaluation, one implementation per game.

use cannonade_core::Rules;
use cannonade_xiangqi::{Colour, Kind, Position};

/// A game the search can evaluate.
pub trait Evaluate: Rules {
    /// The position's value in centipawns for the side to move.
    fn evaluate(&self) -> i32;
}

/// Xiangqi material values, indexed by [`Kind`].
const XIANGQI_VALUES: [i32; 7] = [0, 120, 120, 400, 900, 450, 100];

impl Evaluate for Position {
    fn evaluate(&self) -> i32 {
        let mut score = 0;
        for k in Kind::ALL {
            let v = XIANGQI_VALUES[k.index()];
            let red = self.pieces(Colour::Red, k);
            let black = self.pieces(Colour::Black, k);
            score += v * (red.count_ones() as i32 - black.count_ones() as i32);
            if k == Kind::Soldier {
                // Crossed soldiers are worth about twice as much.
                let crossed_red = red & cannonade_xiangqi::tables::HALF[1];
                let crossed_black = black & cannonade_xiangqi::tables::HALF[0];
                score += v * (crossed_red.count_ones() as i32 - crossed_black.count_ones() as i32);
            }
        }
        if self.side_to_move() == Colour::Red { score } else { -score }
    }
}

/// Banqi piece values from the highest rank down (general, advisor, elephant, chariot, horse,
/// cannon, soldier):
/// the public state only, face-down pieces count for nobody.
const BANQI_VALUES: [i32; 7] = [600, 270, 120, 60, 30, 300, 40];

impl Evaluate for cannonade_banqi::Position {
    fn evaluate(&self) -> i32 {
        use cannonade_banqi::{Cell, Square};
        let Some(turn) = self.turn() else { return 0 };
        let mut score = 0;
        for i in 0..32u8 {
            let Some(sq) = Square::new(i) else { continue };
            if let Cell::FaceUp(p) = self.cell(sq) {
                let v = BANQI_VALUES[7 - p.kind().rank() as usize];
                score += if p.colour() == turn { v } else { -v };
            }
        }
        score
    }
}

/// Chess-Battle piece values by kind (headquarter, bomber, tank, gun, machine gun, cavalry,
/// soldier).
const BATTLE_VALUES: [i32; 7] = [0, 900, 500, 450, 350, 300, 100];

impl Evaluate for cannonade_battle::Position {
    fn evaluate(&self) -> i32 {
        let mover = self.side_to_move();
        cannonade_battle::Square::all()
            .filter_map(|sq| self.piece_at(sq))
            .map(|p| {
                let v = BATTLE_VALUES[p.kind.index()];
                if p.side == mover { v } else { -v }
            })
            .sum()
    }
}

impl Evaluate for cannonade_commander::Position {
    /// The difference of the two sides' material in the game's own points.
    fn evaluate(&self) -> i32 {
        use cannonade_commander::points::material_value;
        let us = self.turn();
        material_value(self, us) as i32 - material_value(self, 1 - us) as i32
    }
}
