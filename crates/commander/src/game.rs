//! Commander Chess at the edges ([`Game`]): notation, terrain, stacks and air defence.

use crate::board::{FILES, FORDS, NPOINTS, RIVER_BELOW, TERRAIN, Terrain, name};
use crate::fen::unit_text;
use crate::piece::colour;
use crate::{FenError, Kind, Move, MoveError, Position};
use cannonade_core::{Board, Game, Layout, NoOptions, Region, River, Side, Zone};

/// What the legend calls each kind (rules §3).
fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Commander => "commander",
        Kind::Infantry => "infantry",
        Kind::Tank => "tank",
        Kind::Militia => "militia",
        Kind::Engineer => "engineer",
        Kind::Artillery => "artillery",
        Kind::AntiAir => "anti-air gun",
        Kind::Missile => "missile",
        Kind::AirForce => "air force",
        Kind::Navy => "navy",
        Kind::Headquarters => "headquarters",
    }
}

impl Game for Position {
    const NAME: &'static str = crate::NAME;
    const TITLE: &'static str = "Commander Chess";

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

    /// The scored formats (rules §13.3) belong to the game as played, not to the position:
    /// they are the game spec's (`cannonade-games`), so positions have no options.
    fn with_options(&self, text: &str) -> Result<Position, NoOptions> {
        NoOptions::check(text).map(|()| self.clone())
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        // The canonical text, else the text people read (`Te4×e6, Ie4–e5`); the first error says why.
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
        if !Position::in_check(self) {
            return None;
        }
        self.commander(self.turn()).map(name)
    }

    fn seat_colours(&self) -> Option<[&'static str; 2]> {
        Some(["red", "blue"])
    }

    /// Section 2: 11 files × 12 ranks of points, water, coast and land, the river between
    /// ranks 6 and 7 with its fords.
    fn board() -> Board {
        let mut board = Board::grid(Layout::Points, FILES, (NPOINTS / FILES as usize) as u8, 1);
        let terrain = |kind: &str, class: Terrain| Region {
            kind: kind.into(),
            squares: (0..NPOINTS as u8)
                .filter(|&p| TERRAIN[p as usize] == class)
                .map(name)
                .collect(),
            diagonals: false,
        };
        board.regions = vec![
            terrain("water", Terrain::Water),
            terrain("coast", Terrain::Mixed),
            terrain("land", Terrain::Land),
        ];
        // The river spans the files whose bank is not sea.
        let bank = RIVER_BELOW as usize * FILES as usize;
        board.river = Some(River {
            after_rank: board.rank_labels[RIVER_BELOW as usize].clone(),
            files: (0..FILES as usize)
                .filter(|&f| TERRAIN[bank + f] != Terrain::Water)
                .map(|f| board.file_labels[f].clone())
                .collect(),
            fords: FORDS.iter().map(|&f| board.file_labels[f as usize].clone()).collect(),
        });
        let kinds: Vec<(char, &str)> =
            Kind::ALL.iter().map(|&k| (k.letter(), kind_name(k))).collect();
        board.pieces = Board::legend(["red", "blue"], &kinds);
        board
    }

    /// Unit texts as the FEN writes them: a stack whole, carrier first, `+` before a hero.
    fn placement(&self) -> Vec<(String, String)> {
        self.b
            .units
            .iter()
            .enumerate()
            .filter(|&(_, &u)| u != 0)
            .map(|(p, &u)| (name(p as u8), unit_text(u, colour(u) == 0)))
            .collect()
    }

    /// The points under each seat's air defence (section 8), as move generation sees them.
    fn zones(&self) -> Vec<Zone> {
        [Side::First, Side::Second]
            .into_iter()
            .map(|seat| Zone {
                kind: "air-defence",
                seat,
                squares: self.air_defence(seat.index()).iter().map(name).collect(),
            })
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
    fn terrain_of_section_2_and_a_river_with_two_fords() {
        let b = <Position as Game>::board();
        assert_eq!((b.layout, b.files, b.ranks), (Layout::Points, 11, 12));
        let count =
            |kind: &str| b.regions.iter().find(|r| r.kind == kind).map_or(0, |r| r.squares.len());
        assert_eq!((count("water"), count("coast"), count("land")), (24, 16, 92));
        let river = b.river.as_ref().expect("a river");
        assert_eq!(river.after_rank, "6");
        assert_eq!(river.files.join(""), "cdefghijk");
        assert_eq!(river.fords, ["f", "h"]);
        assert_eq!(b.pieces.len(), 22);
    }

    #[test]
    fn stacks_and_heroes_are_placed_whole() {
        let p =
            Position::from_fen("6c4/11/9g1/11/11/11/+N10/11/6G4/11/4(E+G)2S3/1(N+FT)3C5 r - - 0 1")
                .unwrap();
        let placed: std::collections::BTreeMap<String, String> =
            p.placement().into_iter().collect();
        assert_eq!(placed["g12"], "c");
        assert_eq!(placed["a6"], "+N");
        assert_eq!(placed["e2"], "(E+G)");
        assert_eq!(placed["b1"], "(N+FT)");
        assert_eq!(placed.len(), 8);
    }

    #[test]
    fn each_seat_has_an_air_defence_zone() {
        let zones = Position::startpos().zones();
        assert_eq!(zones.len(), 2);
        // Red's Missile on g3 (radius 2) covers g5; Blue's mirror covers g8.
        assert!(zones[0].squares.contains(&"g5".to_string()));
        assert!(zones[1].squares.contains(&"g8".to_string()));
    }
}
