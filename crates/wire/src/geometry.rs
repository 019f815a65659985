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
    /// The pieces' letters and names.
    pub pieces: Vec<PieceInfo>,
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
            pieces: b.pieces,
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
