//! Board geometry: what a rules-free client needs to draw any game's board. Each game
//! describes its own board from its rules tables (`cannonade_core::Game::board`); this is that
//! description with the game's name, as sent to clients.

pub use cannonade_core::{Layout, PieceInfo, Region, River};
use cannonade_games::GameKind;
use serde::{Deserialize, Serialize};

/// The board of one game. Square names are `<file letter><rank number>`; files run left to
/// right from the first seat's view, ranks bottom to top.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Geometry {
    /// The game.
    pub game: GameKind,
    /// Points or cells.
    pub layout: Layout,
    /// Number of files (columns).
    pub files: u8,
    /// Number of ranks (rows).
    pub ranks: u8,
    /// The file letters, left to right.
    pub file_labels: Vec<String>,
    /// The rank labels, bottom to top (Xiangqi counts from 0).
    pub rank_labels: Vec<String>,
    /// Squares of the grid that do not exist (Chess-Battle's corners).
    pub missing: Vec<String>,
    /// Regions to draw: palaces, terrain.
    pub regions: Vec<Region>,
    /// The river, if the board has one.
    pub river: Option<River>,
    /// The pieces' letters, names, colours and symbols.
    pub pieces: Vec<LegendPiece>,
}

/// A piece of the legend as clients get it: the game's entry and the symbol its picture and
/// translated name are keyed by.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegendPiece {
    /// Letter, English name and colour, as the game describes the piece.
    #[serde(flatten)]
    pub info: PieceInfo,
    /// What to draw and call it, the same for both seats: `<family>.<name>` (`cn.horse` for
    /// Xiangqi's and Banqi's horse, `cmd.navy`, `cb.machine_gun`), `hidden` for a face-down
    /// piece. A client keys its pictures and translated names by this, so it needs no table
    /// of each game's letters.
    pub symbol: String,
}

impl LegendPiece {
    /// The legend entry `info` of `game` with its symbol.
    pub fn of(game: GameKind, info: PieceInfo) -> LegendPiece {
        // Xiangqi and Banqi share their pieces, so their pictures and names.
        let family = match game {
            GameKind::Xiangqi | GameKind::Banqi => "cn",
            GameKind::ChessBattle => "cb",
            GameKind::Commander => "cmd",
        };
        let symbol = if info.colour == "unknown" {
            "hidden".to_string()
        } else {
            format!("{family}.{}", info.name.replace([' ', '-'], "_"))
        };
        LegendPiece { info, symbol }
    }
}

impl Geometry {
    /// The board of `game`, as the game describes it.
    pub fn of(game: GameKind) -> Geometry {
        let b = game.board();
        Geometry {
            game,
            layout: b.layout,
            files: b.files,
            ranks: b.ranks,
            file_labels: b.file_labels,
            rank_labels: b.rank_labels,
            missing: b.missing,
            regions: b.regions,
            river: b.river,
            pieces: b.pieces.into_iter().map(|p| LegendPiece::of(game, p)).collect(),
        }
    }

    /// The name of the square at `file`, `rank` (0-based, from the first seat's bottom
    /// left), `None` when the grid has no such square or the board lacks it.
    pub fn square(&self, file: usize, rank: usize) -> Option<String> {
        let name = format!("{}{}", self.file_labels.get(file)?, self.rank_labels.get(rank)?);
        (!self.missing.contains(&name)).then_some(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_a_geometry_with_its_square_count() {
        for kind in GameKind::available_games() {
            let g = Geometry::of(kind);
            let squares = g.files as usize * g.ranks as usize - g.missing.len();
            let expected = match kind {
                GameKind::Xiangqi => 90,
                GameKind::Banqi => 32,
                GameKind::ChessBattle => 128,
                GameKind::Commander => 132,
            };
            assert_eq!(squares, expected, "{kind}");
            assert_eq!(g.file_labels.len(), g.files as usize);
            assert_eq!(g.rank_labels.len(), g.ranks as usize);
        }
    }

    /// Clients key pictures and translated names by symbol: every letter has one, the two
    /// seats' pieces of a kind share it, no two kinds of a game do, and it is sent beside
    /// the letter, name and colour.
    #[test]
    fn every_piece_has_a_symbol_shared_by_both_seats_only() {
        for kind in GameKind::available_games() {
            let g = Geometry::of(kind);
            for p in &g.pieces {
                let same: Vec<&LegendPiece> =
                    g.pieces.iter().filter(|q| q.symbol == p.symbol).collect();
                let expected = if p.symbol == "hidden" { 1 } else { 2 };
                assert_eq!(same.len(), expected, "{kind}: {}", p.symbol);
                assert!(same.iter().all(|q| q.info.letter.eq_ignore_ascii_case(&p.info.letter)));
                assert!(p.symbol.chars().all(|c| c.is_ascii_lowercase() || c == '.' || c == '_'));
            }
        }
        let g = Geometry::of(GameKind::Commander);
        let navy = g.pieces.iter().find(|p| p.info.letter == "N").unwrap();
        assert_eq!(navy.symbol, "cmd.navy");
        let json = serde_json::to_value(navy).unwrap();
        assert_eq!(json["letter"], "N");
        assert_eq!(json["colour"], "red");
        assert_eq!(json["symbol"], "cmd.navy");
    }

    #[test]
    fn squares_are_named_from_the_labels_and_missing_ones_are_none() {
        let battle = Geometry::of(GameKind::ChessBattle);
        assert_eq!(battle.square(0, 0), None);
        assert_eq!(battle.square(2, 0).as_deref(), Some("c1"));
        assert_eq!(battle.square(12, 0), None);
        let xiangqi = Geometry::of(GameKind::Xiangqi);
        assert_eq!(xiangqi.square(4, 0).as_deref(), Some("e0"));
    }
}
