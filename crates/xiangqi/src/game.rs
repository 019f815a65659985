//! Xiangqi at the edges ([`Game`]): its notations, options and board.

use crate::tables::{HALF, PALACE};
use crate::{FenError, MoveError, OptionsError, Position, RepetitionRule, Square};
use cannonade_core::{Board, Game, Layout, Region, River};

/// The seven pieces as the legend names them, FEN letters.
pub(crate) const PIECES: [(char, &str); 7] = [
    ('K', "general"),
    ('A', "advisor"),
    ('B', "elephant"),
    ('N', "horse"),
    ('R', "chariot"),
    ('C', "cannon"),
    ('P', "soldier"),
];

impl Game for Position {
    const NAME: &'static str = crate::NAME;
    const TITLE: &'static str = "Xiangqi";

    type PositionError = FenError;
    type MoveError = MoveError;
    type OptionsError = OptionsError;
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

    fn options(&self) -> String {
        Position::options(self).text()
    }

    fn with_options(&self, text: &str) -> Result<Position, OptionsError> {
        let options = Position::options(self).with_text(text)?;
        Ok(self.clone().with_options(options))
    }

    /// Coordinates (`h2e2`, ICCS `H2-E2`), WXF (`C2.5`) or Chinese (`炮二平五`).
    fn parse_move(&self, text: &str) -> Result<crate::Move, MoveError> {
        match Position::parse_move(self, text) {
            Err(MoveError::Syntax(_)) if !text.trim().is_empty() => {
                if text.trim().is_ascii() {
                    self.parse_wxf(text.trim())
                } else {
                    self.parse_chinese(text.trim())
                }
            }
            other => other,
        }
    }

    fn move_text(&self, mv: crate::Move) -> String {
        mv.to_string()
    }

    fn display_move(&self, mv: crate::Move) -> String {
        self.wxf(mv)
    }

    fn pretty(&self) -> String {
        Position::pretty(self)
    }

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    fn check_square(&self) -> Option<String> {
        Position::in_check(self).then(|| self.general(self.side_to_move()).to_string())
    }

    fn seat_colours(&self) -> Option<[&'static str; 2]> {
        Some(["red", "black"])
    }

    fn board() -> Board {
        let mut board = Board::grid(Layout::Points, 9, 10, 0);
        let name = |i: u32| Square::from_index(i as u8).to_string();
        // Each palace is the palace points of one half; the river follows Red's half.
        board.regions = HALF
            .iter()
            .map(|&half| Region {
                kind: "palace".into(),
                squares: (0..90).filter(|&i| (PALACE & half) >> i & 1 != 0).map(name).collect(),
                diagonals: true,
            })
            .collect();
        let river_below = (127 - HALF[0].leading_zeros()) / 9;
        board.river = Some(River {
            after_rank: board.rank_labels[river_below as usize].clone(),
            files: board.file_labels.clone(),
            fords: Vec::new(),
        });
        board.pieces = Board::legend(["red", "black"], &PIECES);
        board
    }

    fn placement(&self) -> Vec<(String, String)> {
        (0..90u8)
            .map(Square::from_index)
            .filter_map(|sq| Some((sq.to_string(), self.piece_at(sq)?.fen_char().to_string())))
            .collect()
    }

    fn public(&self) -> Position {
        self.clone()
    }
}

impl RepetitionRule {
    /// The core rule this option stands for: the seed rule loses the third occurrence, the
    /// Asian rule judges the cycle (perpetual check and chase).
    pub const fn core(self) -> cannonade_core::RepetitionRule {
        match self {
            RepetitionRule::Seed => cannonade_core::RepetitionRule::Loses { occurrence: 3 },
            RepetitionRule::Asian => cannonade_core::RepetitionRule::Judged { occurrence: 3 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notation_reads_the_same_move() {
        let p = Position::startpos();
        let want = Position::parse_move(&p, "h2e2").unwrap();
        for text in ["h2e2", "H2-E2", "C2.5", "C2=5", "炮二平五"] {
            assert_eq!(Game::parse_move(&p, text).ok(), Some(want), "{text}");
        }
        assert!(matches!(Game::parse_move(&p, "h2h8"), Err(MoveError::Illegal(_))));
        assert!(Game::parse_move(&p, "").is_err());
        assert!(Game::parse_move(&p, "Z9.9").is_err());
    }

    #[test]
    fn the_board_has_two_palaces_and_a_river_after_rank_4() {
        let b = <Position as Game>::board();
        let palaces: Vec<_> = b.regions.iter().filter(|r| r.kind == "palace").collect();
        assert_eq!(palaces.len(), 2);
        assert_eq!(palaces[0].squares, ["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"]);
        assert_eq!(palaces[1].squares[0], "d7");
        let river = b.river.as_ref().expect("a river");
        assert_eq!((river.after_rank.as_str(), river.files.len()), ("4", 9));
        assert_eq!(b.squares().count(), 90);
    }

    #[test]
    fn the_start_places_32_pieces() {
        let placed = Position::startpos().placement();
        assert_eq!(placed.len(), 32);
        assert!(placed.contains(&("e0".into(), "K".into())));
        assert!(placed.contains(&("b7".into(), "c".into())));
    }
}
