//! A game's board as a rules-free client draws it: the grid, the squares that exist, the
//! regions and river drawn specially, and the legend of piece letters. Each game describes
//! its own ([`crate::Game::board`]) from its rules tables, so the browser and the terminal
//! need no code of their own per game.

/// Whether pieces stand on line intersections or inside cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Layout {
    /// On the points where lines cross (Xiangqi, Commander Chess).
    Points,
    /// Inside squares (Banqi, Chess-Battle).
    Cells,
}

/// A named set of squares drawn specially: a Xiangqi `palace` (with its diagonals), or one of
/// Commander Chess's terrain classes, `water`, `coast` (mixed: ships and land units) and
/// `land`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Region {
    /// What it is: `palace`, `water`, `coast`, `land`.
    pub kind: String,
    /// Its squares.
    pub squares: Vec<String>,
    /// Draw the diagonals of its corners (the palace's cross).
    pub diagonals: bool,
}

/// A river: the gap between two ranks over some files, with fords where it may be waded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct River {
    /// The rank label on the first seat's bank: the river lies between it and the next rank.
    pub after_rank: String,
    /// The files it spans (Xiangqi: all; Commander: `c`–`k`, it opens into the sea).
    pub files: Vec<String>,
    /// The files where it has a ford (Commander: `f` and `h`).
    pub fords: Vec<String>,
}

/// A piece letter and what to call it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PieceInfo {
    /// The letter as it appears in [`crate::Game::placement`] (a Commander unit text is
    /// several of them: `(N+FT)`, carrier first, `+` before a hero).
    pub letter: String,
    /// Its name in English (`chariot`); clients translate it by this key.
    pub name: String,
    /// Its colour: `red`, `black`, `white` or `blue`; `unknown` for a face-down piece.
    pub colour: String,
}

/// The board of one game. Square names are `<file letter><rank label>`; files run left to
/// right from the first seat's view, ranks bottom to top.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Board {
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

impl Board {
    /// A rectangular board with files `a…` and ranks numbered from `first_rank`, and nothing
    /// else yet: callers fill in what their board has.
    pub fn grid(layout: Layout, files: u8, ranks: u8, first_rank: u32) -> Board {
        Board {
            layout,
            files,
            ranks,
            file_labels: (0..files).map(|i| ((b'a' + i) as char).to_string()).collect(),
            rank_labels: (0..ranks as u32).map(|i| (first_rank + i).to_string()).collect(),
            missing: Vec::new(),
            regions: Vec::new(),
            river: None,
            pieces: Vec::new(),
        }
    }

    /// The name of the square at `file`, `rank` (0-based, from the first seat's bottom left).
    pub fn square_name(&self, file: usize, rank: usize) -> String {
        format!("{}{}", self.file_labels[file], self.rank_labels[rank])
    }

    /// Every existing square by name, rank by rank from the bottom, files left to right.
    pub fn squares(&self) -> impl Iterator<Item = String> + '_ {
        (0..self.ranks as usize).flat_map(move |r| {
            (0..self.files as usize)
                .map(move |f| self.square_name(f, r))
                .filter(|sq| !self.missing.contains(sq))
        })
    }

    /// The legend for two colours (`colours[0]` is the first seat's, written upper case),
    /// one entry per `(letter, name)` of `kinds` and colour.
    pub fn legend(colours: [&str; 2], kinds: &[(char, &str)]) -> Vec<PieceInfo> {
        let mut out = Vec::new();
        for (i, colour) in colours.iter().enumerate() {
            for (letter, name) in kinds {
                let letter =
                    if i == 0 { letter.to_ascii_uppercase() } else { letter.to_ascii_lowercase() };
                out.push(PieceInfo {
                    letter: letter.to_string(),
                    name: name.to_string(),
                    colour: colour.to_string(),
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_names_its_squares_from_the_bottom_left() {
        let mut b = Board::grid(Layout::Points, 9, 10, 0);
        assert_eq!(b.square_name(0, 0), "a0");
        assert_eq!(b.square_name(8, 9), "i9");
        b.missing.push("a0".into());
        let all: Vec<String> = b.squares().collect();
        assert_eq!(all.len(), 89);
        assert_eq!(all[0], "b0");
    }

    #[test]
    fn the_legend_writes_the_first_seat_upper_case() {
        let l = Board::legend(["red", "black"], &[('K', "general")]);
        assert_eq!((l[0].letter.as_str(), l[0].colour.as_str()), ("K", "red"));
        assert_eq!((l[1].letter.as_str(), l[1].colour.as_str()), ("k", "black"));
    }
}
