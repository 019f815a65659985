//! The legal moves as the board offers them: each with the squares its text names, so the
//! cursor can pick a piece, then a target, then (when several moves share both) one of them
//! from a list. The rules are the game's: moves come from [`AnyGame::legal_moves`] and their
//! texts from [`AnyGame::move_text`]; this file only reads square names out of those texts.

use crate::board_shape::{BoardShape, Cell};
use cannonade_games::{AnyGame, AnyMove};

/// A legal move and how it is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveChoice {
    /// The move.
    pub mv: AnyMove,
    /// Its canonical text.
    pub text: String,
    /// Its text for people (WXF in Xiangqi).
    pub display: String,
    /// The squares its text names, in order: the piece's square first. A Banqi flip names
    /// one; a move names its destination second; further squares are chain landings,
    /// Chess-Battle removals or Commander deploy steps.
    pub squares: Vec<Cell>,
}

impl MoveChoice {
    /// The square of the piece that moves (or is flipped).
    pub fn from(&self) -> Option<Cell> {
        self.squares.first().copied()
    }

    /// The square the cursor picks after the piece: the second square named, or the piece's
    /// own square for a move that names one (a flip).
    pub fn target(&self) -> Option<Cell> {
        self.squares.get(1).or(self.squares.first()).copied()
    }
}

/// Square names in a move text: a lower-case letter followed by digits, in order.
pub fn square_names(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_lowercase() && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
            let start = i;
            i += 1;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            out.push(&text[start..i]);
        } else {
            i += 1;
        }
    }
    out
}

/// Every legal move of a position with its squares.
pub fn choices(game: &AnyGame, geometry: &BoardShape) -> Vec<MoveChoice> {
    game.legal_moves()
        .into_iter()
        .map(|mv| {
            let text = game.move_text(mv);
            let squares =
                square_names(&text).into_iter().filter_map(|n| geometry.parse(n)).collect();
            MoveChoice { mv, display: game.display_move(mv), text, squares }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::GameKind;

    #[test]
    fn square_names_are_read_from_every_notation() {
        assert_eq!(square_names("h2e2"), ["h2", "e2"]);
        assert_eq!(square_names("d2?"), ["d2"]);
        assert_eq!(square_names("a1xa3xc3"), ["a1", "a3", "c3"]);
        assert_eq!(square_names("e11-e12@f12"), ["e11", "e12", "f12"]);
        assert_eq!(square_names("e5*a9"), ["e5", "a9"]);
        assert_eq!(square_names("(TI)e4e6"), ["e4", "e6"]);
        assert_eq!(square_names("e4::T>xe6,I>e5"), ["e4", "e6", "e5"]);
        assert!(square_names("").is_empty());
        assert!(square_names("0000").is_empty());
    }

    #[test]
    fn every_start_move_has_a_piece_square_holding_a_piece() {
        for kind in GameKind::available_games() {
            let game = AnyGame::start(kind).unwrap();
            let g = BoardShape::of(game.kind());
            let view = crate::BoardView::of(&game, &g).unwrap();
            let all = choices(&game, &g);
            assert_eq!(all.len() as u64, game.count_legal(), "{kind}");
            for c in &all {
                let from = c.from().unwrap_or_else(|| panic!("{kind}: {} has no square", c.text));
                assert!(view.at(from).is_some(), "{kind}: {} starts on an empty square", c.text);
            }
        }
    }
}
