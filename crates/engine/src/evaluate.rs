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
