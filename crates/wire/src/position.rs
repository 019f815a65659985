//! A position as clients see it.

use crate::common::Seat;
use cannonade_core::{Next, Side};
use cannonade_games::AnyGame;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The colour of a seat's pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PieceColour {
    /// Red (the first seat everywhere but in Banqi, where the first flip decides).
    Red,
    /// Black (Xiangqi, Banqi).
    Black,
    /// White (Chess-Battle).
    White,
    /// Blue (Commander Chess).
    Blue,
}

impl PieceColour {
    fn named(name: &str) -> Option<PieceColour> {
        match name {
            "red" => Some(PieceColour::Red),
            "black" => Some(PieceColour::Black),
            "white" => Some(PieceColour::White),
            "blue" => Some(PieceColour::Blue),
            _ => None,
        }
    }
}

/// The squares under each seat's air defence (Commander Chess).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AirDefence {
    /// Covered by the first seat's providers.
    pub first: Vec<String>,
    /// Covered by the second seat's providers.
    pub second: Vec<String>,
}

/// A public position: its notation and its pieces by square, so a client draws it without
/// parsing anything. The only constructor, [`PublicPosition::of`], takes the public view of
/// the game first, so a Banqi deal (the identities of face-down pieces) cannot get into one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicPosition {
    fen: String,
    pieces: BTreeMap<String, String>,
    to_move: Option<Seat>,
    in_check: bool,
    /// The square of the royal piece in check.
    check: Option<String>,
    /// Each seat's piece colour, first seat first (`None`: Banqi before the first flip).
    colours: Option<[PieceColour; 2]>,
    // Boxed: only Commander positions have one, and events carry positions by value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    air_defence: Option<Box<AirDefence>>,
}

/// Commander Chess's air defence zones per seat, `None` in games without them.
fn air_defence(game: &AnyGame) -> Option<Box<AirDefence>> {
    let zones = game.zones();
    let seat = |side| {
        zones
            .iter()
            .filter(move |z| z.kind == "air-defence" && z.seat == side)
            .flat_map(|z| z.squares.clone())
    };
    if zones.is_empty() {
        return None;
    }
    Some(Box::new(AirDefence {
        first: seat(Side::First).collect(),
        second: seat(Side::Second).collect(),
    }))
}

impl PublicPosition {
    /// The public view of `game` (a dealt Banqi position is redacted first).
    pub fn of(game: &AnyGame) -> PublicPosition {
        let public = game.public();
        let fen = public.fen();
        let pieces = public.placement().into_iter().collect();
        let to_move = match public.next() {
            Next::Player(side) => Some(side.into()),
            _ => None,
        };
        PublicPosition {
            fen,
            pieces,
            to_move,
            in_check: public.in_check(),
            check: public.check_square(),
            colours: public
                .seat_colours()
                .and_then(|[a, b]| Some([PieceColour::named(a)?, PieceColour::named(b)?])),
            air_defence: air_defence(&public),
        }
    }

    /// The position in the game's notation (public BFEN for Banqi: `X` is a face-down piece).
    pub fn fen(&self) -> &str {
        &self.fen
    }

    /// The pieces by square name: the game's piece letter (upper case for the first seat in
    /// Xiangqi and Chess-Battle, for Red in Banqi), `X` for a face-down Banqi piece.
    pub fn pieces(&self) -> &BTreeMap<String, String> {
        &self.pieces
    }

    /// The seat to move, `None` when the game is over by the position's own rules.
    pub fn to_move(&self) -> Option<Seat> {
        self.to_move
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// The square of the side to move's royal piece while it is in check.
    pub fn check(&self) -> Option<&str> {
        self.check.as_deref()
    }

    /// Each seat's piece colour (`red`, `black`, `white`, `blue`), first seat first; `None`
    /// in Banqi until the first flip decides them.
    pub fn colours(&self) -> Option<[PieceColour; 2]> {
        self.colours
    }

    /// Commander Chess: the squares under each seat's air defence.
    pub fn air_defence(&self) -> Option<&AirDefence> {
        self.air_defence.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::GameKind;

    #[test]
    fn xiangqi_start_lists_its_32_pieces_by_point() {
        let p = PublicPosition::of(&AnyGame::start(GameKind::Xiangqi).unwrap());
        assert_eq!(p.pieces().len(), 32);
        assert_eq!(p.pieces()["e0"], "K");
        assert_eq!(p.pieces()["e9"], "k");
        assert_eq!(p.pieces()["b2"], "C");
        assert_eq!(p.to_move(), Some(Seat::First));
        assert_eq!(p.check(), None);
        assert!(p.air_defence().is_none());
    }

    #[test]
    fn the_square_in_check_is_the_generals() {
        let game = AnyGame::from_fen(GameKind::Xiangqi, "4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
        let p = PublicPosition::of(&game);
        assert!(p.in_check());
        assert_eq!(p.check(), Some("e9"));
    }

    #[test]
    fn commander_start_has_unit_texts_colours_and_both_air_defences() {
        let p = PublicPosition::of(&AnyGame::start(GameKind::Commander).unwrap());
        assert_eq!(p.pieces()["g1"], "C");
        assert_eq!(p.pieces()["g12"], "c");
        assert_eq!(p.colours(), Some([PieceColour::Red, PieceColour::Blue]));
        let zones = p.air_defence().expect("Commander positions carry air defence");
        // Red's Missile on g3 (radius 2) covers g5; Blue's mirror covers g8.
        assert!(zones.first.contains(&"g5".to_string()));
        assert!(zones.second.contains(&"g8".to_string()));
        assert!(!zones.first.contains(&"g8".to_string()));
    }

    #[test]
    fn banqi_colours_are_unknown_until_the_first_flip() {
        let mut game = AnyGame::start(GameKind::Banqi).unwrap();
        assert_eq!(PublicPosition::of(&game).colours(), None);
        game.play(game.parse_move("d2?").unwrap()).unwrap();
        game.resolve_text("c").unwrap();
        let p = PublicPosition::of(&game);
        assert_eq!(p.colours(), Some([PieceColour::Black, PieceColour::Red]));
    }

    #[test]
    fn chess_battle_start_reads_the_cross_board() {
        let game = AnyGame::start(GameKind::ChessBattle).unwrap();
        let p = PublicPosition::of(&game);
        let count =
            game.fen().split(' ').next().unwrap().chars().filter(|c| c.is_alphabetic()).count();
        assert_eq!(p.pieces().len(), count);
        assert!(p.pieces().keys().all(|sq| !["a1", "b2", "l12", "k11"].contains(&sq.as_str())));
    }

    #[test]
    fn a_dealt_banqi_position_is_redacted() {
        let dealt = AnyGame::from_fen(
            GameKind::Banqi,
            "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX - K1A2B2R2N2C2P5k1a2b2r2n2c2p5 0 0 \
             BpAncpaNrpRPbnPPNkCbpPrKcaPCpARB",
        )
        .unwrap();
        let p = PublicPosition::of(&dealt);
        assert_eq!(p.pieces().len(), 32);
        assert!(p.pieces().values().all(|v| v == "X"));
        let json = serde_json::to_string(&p).unwrap();
        assert!(!json.contains("BpAncpaN"));
    }
}
