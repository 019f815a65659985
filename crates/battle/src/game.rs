//! Chess-Battle at the edges ([`Game`]): notation and the cross board.

use crate::{FenError, Move, MoveError, Position, Square};
use cannonade_core::{Board, Game, Layout, NoOptions};

/// The pieces as the legend names them (rules §2), letters as in the position notation.
const PIECES: [(char, &str); 7] = [
    ('H', "headquarter"),
    ('B', "bomber"),
    ('T', "tank"),
    ('G', "gun"),
    ('M', "machine gun"),
    ('C', "cavalry"),
    ('S', "soldier"),
];

impl Game for Position {
    const NAME: &'static str = crate::NAME;
    const TITLE: &'static str = "Chess-Battle";

    type PositionError = FenError;
    type MoveError = MoveError;
    type OptionsError = NoOptions;
    type Public = Position;

    fn start() -> Position {
        Position::startpos()
    }

    fn from_fen(text: &str) -> Result<Position, FenError> {
        Position::from_fen(text)
    }

    fn fen(&self) -> String {
        Position::fen(self)
    }

    fn with_options(&self, text: &str) -> Result<Position, NoOptions> {
        NoOptions::check(text).map(|()| self.clone())
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        // The canonical text, else the text people read (`Gd2(×d6)`); the first error says why.
        Position::parse_move(self, text).or_else(|e| self.parse_display(text).map_err(|_| e))
    }

    fn move_text(&self, mv: Move) -> String {
        self.move_to_string(mv)
    }

    fn display_move(&self, mv: Move) -> String {
        self.display(mv)
    }

    fn pretty(&self) -> String {
        Position::pretty(self)
    }

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    fn check_square(&self) -> Option<String> {
        Position::in_check(self).then(|| self.headquarter(self.side_to_move()).to_string())
    }

    fn seat_colours(&self) -> Option<[&'static str; 2]> {
        Some(["red", "white"])
    }

    /// The 12×12 grid without its four 2×2 corners (rules §1.2).
    fn board() -> Board {
        let mut board = Board::grid(Layout::Cells, 12, 12, 1);
        let existing: Vec<String> = Square::all().map(|sq| sq.to_string()).collect();
        let all: Vec<String> = board.squares().collect();
        board.missing = all.into_iter().filter(|sq| !existing.contains(sq)).collect();
        board.pieces = Board::legend(["red", "white"], &PIECES);
        board
    }

    fn placement(&self) -> Vec<(String, String)> {
        Square::all()
            .filter_map(|sq| Some((sq.to_string(), self.piece_at(sq)?.letter().to_string())))
            .collect()
    }

    fn public(&self) -> Position {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cross_board_has_128_squares_and_no_corners() {
        let b = <Position as Game>::board();
        assert_eq!(b.squares().count(), 128);
        for corner in ["a1", "b2", "l12", "k11", "a12", "l1"] {
            assert!(b.missing.contains(&corner.to_string()), "{corner}");
        }
    }

    #[test]
    fn the_start_placement_matches_the_notation() {
        let p = Position::startpos();
        let fen = p.fen();
        let letters = fen.split(' ').next().unwrap().chars().filter(|c| c.is_alphabetic());
        assert_eq!(p.placement().len(), letters.count());
    }

    #[test]
    fn chess_battle_has_no_options() {
        let p = Position::startpos();
        assert!(p.with_options("").is_ok());
        assert!(p.with_options("repetition=asian").is_err());
    }
}
