//! A position as clients see it.

use crate::common::Seat;
use crate::geometry::Geometry;
use cannonade_core::Next;
use cannonade_games::AnyGame;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A public position: its notation and its pieces by square, so a client draws it without
/// parsing anything. The only constructor, [`PublicPosition::of`], takes the public view of
/// the game first, so a Banqi deal (the identities of face-down pieces) cannot get into one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicPosition {
    fen: String,
    pieces: BTreeMap<String, String>,
    to_move: Option<Seat>,
    in_check: bool,
}

impl PublicPosition {
    /// The public view of `game` (a dealt Banqi position is redacted first).
    pub fn of(game: &AnyGame) -> PublicPosition {
        let public = game.public();
        let fen = public.fen();
        let pieces =
            Geometry::of(public.kind()).map(|g| g.read_placement(&fen)).unwrap_or_default();
        let to_move = match public.next() {
            Next::Player(side) => Some(side.into()),
            _ => None,
        };
        PublicPosition { fen, pieces, to_move, in_check: public.in_check() }
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
