//! The board as the terminal draws it, derived from the game's own board description
//! (`cannonade_wire::Geometry`, built from `Game::board`, the same the browser draws from):
//! indexed lookups of which squares exist and their terrain, the river as a gap between two
//! ranks, and the presentation the description implies (points or cells, Chinese piece names,
//! colours, seat names). Nothing here is written per game.

use cannonade_games::GameKind;
use cannonade_wire::{Geometry, Layout};

/// A square on the drawing grid: 0-based file (left to right as the first player sees it)
/// and 0-based rank (from the first player's edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// 0-based file.
    pub file: u8,
    /// 0-based rank.
    pub rank: u8,
}

/// What kind of ground a square is, from the description's regions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// Ordinary ground (a chessboard's squares are light or dark by parity).
    Plain,
    /// A region drawn with its corners' diagonals: a Xiangqi palace.
    Palace,
    /// Water (Commander Chess's sea): only ships stand here.
    Water,
    /// Coast (Commander Chess's mixed squares): ships and land units both stand here.
    Mixed,
}

/// A line drawn between two ranks: the river.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gap {
    /// The line lies between rank `below` and rank `below + 1`.
    pub below: u8,
    /// The text written along it (may be empty).
    pub label: String,
    /// Files where the line can be crossed in a special way (fords).
    pub fords: Vec<u8>,
    /// The first file the line covers (Commander's river opens into the sea at file c).
    pub from_file: u8,
}

/// The colours of a game's pieces: the upper-case letters' colour first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Palette {
    /// Red against black.
    RedBlack,
    /// Red against white.
    RedWhite,
    /// Red against blue.
    RedBlue,
}

/// How a board is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardShape {
    /// Number of files.
    pub files: u8,
    /// Number of ranks.
    pub ranks: u8,
    /// Whether pieces stand on the points where lines cross rather than inside squares.
    pub points: bool,
    /// Whether the plain squares alternate light and dark like a chessboard (cells).
    pub checkered: bool,
    /// Whether pieces have Chinese names to draw instead of letters (the legend's `cn.`
    /// pieces: Xiangqi and Banqi).
    pub chinese: bool,
    /// The piece colours.
    pub palette: Palette,
    /// Lines between ranks.
    pub gaps: Vec<Gap>,
    /// What the two seats are called before anything else is known: their colours, or
    /// First and Second where the colours are decided in play.
    pub seat_names: [String; 2],
    /// A line explaining the marks and colours particular to this board (may be empty).
    pub legend: String,
    file_labels: Vec<String>,
    rank_labels: Vec<String>,
    /// Which squares exist, by `rank * files + file`.
    exists: Vec<bool>,
    /// The terrain of each square, by `rank * files + file`.
    terrain: Vec<Terrain>,
}

/// The river's label on a board with Chinese piece names.
const CHINESE_RIVER: &str = "楚 河      漢 界";

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

impl BoardShape {
    /// The shape of `kind`'s board, from its description.
    pub fn of(kind: GameKind) -> BoardShape {
        BoardShape::from_geometry(&Geometry::of(kind))
    }

    /// The shape a board description gives.
    pub fn from_geometry(g: &Geometry) -> BoardShape {
        let (files, ranks) = (g.files, g.ranks);
        let n = files as usize * ranks as usize;
        let file_of = |label: &str| g.file_labels.iter().position(|f| f == label);
        let mut shape = BoardShape {
            files,
            ranks,
            points: g.layout == Layout::Points,
            checkered: g.layout == Layout::Cells,
            chinese: g.pieces.iter().any(|p| p.symbol.starts_with("cn.")),
            palette: Palette::RedBlack,
            gaps: Vec::new(),
            seat_names: ["First".into(), "Second".into()],
            legend: String::new(),
            file_labels: g.file_labels.clone(),
            rank_labels: g.rank_labels.clone(),
            exists: vec![true; n],
            terrain: vec![Terrain::Plain; n],
        };
        for name in &g.missing {
            if let Some(i) = shape.parse_any(name).and_then(|c| shape.index(c)) {
                shape.exists[i] = false;
            }
        }
        let mut legend = Vec::new();
        for region in &g.regions {
            let terrain = match region.kind.as_str() {
                _ if region.diagonals => Terrain::Palace,
                "water" => Terrain::Water,
                "coast" => Terrain::Mixed,
                _ => Terrain::Plain,
            };
            for name in &region.squares {
                if let Some(i) = shape.parse_any(name).and_then(|c| shape.index(c)) {
                    shape.terrain[i] = terrain;
                }
            }
            let note = match terrain {
                Terrain::Palace => "palaces shaded, ╳ their centres",
                Terrain::Water => "sea/coast in blue, ▒ fords",
                _ => "",
            };
            if !note.is_empty() && !legend.contains(&note) {
                legend.push(note);
            }
        }
        if let Some(river) = &g.river {
            let below = g.rank_labels.iter().position(|r| *r == river.after_rank);
            if let Some(below) = below {
                shape.gaps.push(Gap {
                    below: below as u8,
                    label: if shape.chinese { CHINESE_RIVER.into() } else { String::new() },
                    fords: river.fords.iter().filter_map(|f| file_of(f)).map(|f| f as u8).collect(),
                    from_file: river.files.iter().filter_map(|f| file_of(f)).min().unwrap_or(0)
                        as u8,
                });
            }
        }
        let colour = |upper: bool| {
            g.pieces
                .iter()
                .find(|p| {
                    p.info.colour != "unknown"
                        && p.info.letter.chars().next().is_some_and(|c| c.is_uppercase() == upper)
                })
                .map(|p| p.info.colour.as_str())
        };
        shape.palette = match colour(false) {
            Some("white") => Palette::RedWhite,
            Some("blue") => Palette::RedBlue,
            _ => Palette::RedBlack,
        };
        if g.pieces.iter().any(|p| p.info.colour == "unknown") {
            legend.push("▓▓ face down (letters: ?)");
        } else if let (Some(first), Some(second)) = (colour(true), colour(false)) {
            shape.seat_names = [capitalised(first), capitalised(second)];
        }
        shape.legend = legend.join("; ");
        shape
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        (cell.file < self.files && cell.rank < self.ranks)
            .then(|| cell.rank as usize * self.files as usize + cell.file as usize)
    }

    /// Whether the square exists (Chess-Battle's corners do not).
    pub fn exists(&self, cell: Cell) -> bool {
        self.index(cell).is_some_and(|i| self.exists[i])
    }

    /// The terrain of a square.
    pub fn terrain(&self, cell: Cell) -> Terrain {
        self.index(cell).map_or(Terrain::Plain, |i| self.terrain[i])
    }

    /// Every existing square, rank by rank from the first player's edge.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.ranks)
            .flat_map(move |rank| (0..self.files).map(move |file| Cell { file, rank }))
            .filter(|c| self.exists(*c))
    }

    /// The label of a rank (`0` for Xiangqi's first, `1` elsewhere).
    pub fn rank_label(&self, rank: u8) -> &str {
        self.rank_labels.get(rank as usize).map_or("?", String::as_str)
    }

    /// The name of a square in the game's notation (`e0` in Xiangqi, `c1` elsewhere).
    pub fn name(&self, cell: Cell) -> String {
        let file = self.file_labels.get(cell.file as usize).map_or("?", String::as_str);
        format!("{file}{}", self.rank_label(cell.rank))
    }

    /// The grid square a name denotes, whether or not the board has it.
    fn parse_any(&self, name: &str) -> Option<Cell> {
        let split = name.find(|c: char| c.is_ascii_digit())?;
        let (file, rank) = name.split_at(split);
        let file = self.file_labels.iter().position(|f| f == file)?;
        let rank = self.rank_labels.iter().position(|r| r == rank)?;
        Some(Cell { file: file as u8, rank: rank as u8 })
    }

    /// The square a name denotes, if it exists on this board.
    pub fn parse(&self, name: &str) -> Option<Cell> {
        self.parse_any(name).filter(|c| self.exists(*c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_counts_match_the_descriptions() {
        for kind in GameKind::ALL {
            let shape = BoardShape::of(kind);
            assert_eq!(shape.cells().count(), kind.board().squares().count(), "{kind}");
            for cell in shape.cells() {
                assert_eq!(shape.parse(&shape.name(cell)), Some(cell), "{kind}");
            }
        }
    }

    #[test]
    fn missing_squares_and_junk_names_do_not_parse() {
        let battle = BoardShape::of(GameKind::ChessBattle);
        for name in ["a1", "b2", "k1", "l2", "a11", "b12", "k12", "l11", "", "a", "A1", "c01"] {
            assert_eq!(battle.parse(name), None, "{name:?}");
        }
        let xiangqi = BoardShape::of(GameKind::Xiangqi);
        assert_eq!(xiangqi.parse("a0"), Some(Cell { file: 0, rank: 0 }));
        assert_eq!(xiangqi.parse("a10"), None);
    }

    #[test]
    fn the_description_gives_terrain_river_and_names() {
        let xiangqi = BoardShape::of(GameKind::Xiangqi);
        assert_eq!(xiangqi.terrain(xiangqi.parse("e1").unwrap()), Terrain::Palace);
        assert_eq!(xiangqi.terrain(xiangqi.parse("c1").unwrap()), Terrain::Plain);
        assert_eq!(xiangqi.gaps.len(), 1);
        assert!(xiangqi.chinese && xiangqi.points);
        assert_eq!(xiangqi.seat_names, ["Red".to_string(), "Black".to_string()]);
        let commander = BoardShape::of(GameKind::Commander);
        let t = |name: &str| commander.terrain(commander.parse(name).unwrap());
        assert_eq!((t("a1"), t("c7"), t("d5")), (Terrain::Water, Terrain::Mixed, Terrain::Plain));
        assert_eq!(commander.palette, Palette::RedBlue);
        assert!(!commander.gaps[0].fords.is_empty());
        let banqi = BoardShape::of(GameKind::Banqi);
        assert_eq!(banqi.seat_names, ["First".to_string(), "Second".to_string()]);
        assert!(banqi.checkered && banqi.legend.contains("face down"));
    }
}
