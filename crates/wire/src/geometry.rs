//! Board geometry: what a rules-free client needs to draw any game's board.

use cannonade_games::GameKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Whether pieces stand on line intersections or inside cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// On the points where lines cross (Xiangqi).
    Points,
    /// Inside squares (Banqi, Chess-Battle).
    Cells,
}

/// A named set of squares drawn specially: a Xiangqi `palace` (with its diagonals), or one of
/// Commander Chess's terrain classes, `water`, `coast` (mixed: ships and land units) and
/// `land`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    /// What it is: `palace`, `water`, `coast`, `land`.
    pub kind: String,
    /// Its squares.
    pub squares: Vec<String>,
    /// Draw the diagonals of its corners (the palace's cross).
    pub diagonals: bool,
}

/// A river: the gap between two ranks over some files, with fords where it may be waded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct River {
    /// The rank label on the first seat's bank: the river lies between it and the next rank.
    pub after_rank: String,
    /// The files it spans (Xiangqi: all; Commander: `c`–`k`, it opens into the sea).
    pub files: Vec<String>,
    /// The files where it has a ford (Commander: `f` and `h`).
    pub fords: Vec<String>,
}

/// A piece letter and what to call it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceInfo {
    /// The letter as it appears in [`crate::PublicPosition`] pieces (a Commander unit text is
    /// several of them: `(N+FT)`, carrier first, `+` before a hero).
    pub letter: String,
    /// Its name.
    pub name: String,
    /// Its colour: `red`, `black`, `white` or `blue`; `unknown` for a face-down piece.
    pub colour: String,
}

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

fn letters(n: usize) -> Vec<String> {
    (0..n).map(|i| ((b'a' + i as u8) as char).to_string()).collect()
}

fn numbers(from: usize, n: usize) -> Vec<String> {
    (from..from + n).map(|i| i.to_string()).collect()
}

fn legend(colours: [&str; 2], kinds: &[(char, &str)]) -> Vec<PieceInfo> {
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

/// The Chinese games' seven pieces (Banqi names the horse and chariot in its own order).
const CHINESE: [(char, &str); 7] = [
    ('K', "general"),
    ('A', "advisor"),
    ('B', "elephant"),
    ('N', "horse"),
    ('R', "chariot"),
    ('C', "cannon"),
    ('P', "soldier"),
];

fn xiangqi() -> Geometry {
    use cannonade_xiangqi::tables::{HALF, PALACE};
    let (files, ranks) = (letters(9), numbers(0, 10));
    let name = |i: u32| format!("{}{}", files[(i % 9) as usize], ranks[(i / 9) as usize]);
    // Each palace is the palace squares of one half; the river follows Red's half.
    let regions = HALF
        .iter()
        .map(|&half| {
            let set = PALACE & half;
            Region {
                kind: "palace".into(),
                squares: (0..90).filter(|&i| (set >> i) & 1 != 0).map(name).collect(),
                diagonals: true,
            }
        })
        .collect();
    let river_below = (127 - HALF[0].leading_zeros()) / 9;
    Geometry {
        game: GameKind::Xiangqi,
        layout: Layout::Points,
        files: 9,
        ranks: 10,
        regions,
        river: Some(River {
            after_rank: ranks[river_below as usize].clone(),
            files: files.clone(),
            fords: Vec::new(),
        }),
        file_labels: files,
        rank_labels: ranks,
        missing: Vec::new(),
        pieces: legend(["red", "black"], &CHINESE),
    }
}

fn banqi() -> Geometry {
    let mut pieces = legend(["red", "black"], &CHINESE);
    pieces.push(PieceInfo {
        letter: "X".into(),
        name: "face-down".into(),
        colour: "unknown".into(),
    });
    Geometry {
        game: GameKind::Banqi,
        layout: Layout::Cells,
        files: 8,
        ranks: 4,
        file_labels: letters(8),
        rank_labels: numbers(1, 4),
        missing: Vec::new(),
        regions: Vec::new(),
        river: None,
        pieces,
    }
}

fn chess_battle() -> Geometry {
    let (files, ranks) = (letters(12), numbers(1, 12));
    let existing: Vec<String> = cannonade_battle::Square::all().map(|sq| sq.to_string()).collect();
    let missing = ranks
        .iter()
        .flat_map(|r| files.iter().map(move |f| format!("{f}{r}")))
        .filter(|sq| !existing.contains(sq))
        .collect();
    Geometry {
        game: GameKind::ChessBattle,
        layout: Layout::Cells,
        files: 12,
        ranks: 12,
        missing,
        file_labels: files,
        rank_labels: ranks,
        regions: Vec::new(),
        river: None,
        pieces: legend(
            ["red", "white"],
            &[
                ('H', "headquarter"),
                ('B', "bomber"),
                ('T', "tank"),
                ('G', "gun"),
                ('M', "machine gun"),
                ('C', "cavalry"),
                ('S', "soldier"),
            ],
        ),
    }
}

fn commander() -> Geometry {
    use cannonade_commander::Kind;
    use cannonade_commander::board::{FILES, FORDS, NPOINTS, RIVER_BELOW, TERRAIN, Terrain, name};
    let (files, ranks) = (letters(FILES as usize), numbers(1, NPOINTS / FILES as usize));
    let terrain = |kind: &str, class: Terrain| Region {
        kind: kind.into(),
        squares: (0..NPOINTS as u8).filter(|&p| TERRAIN[p as usize] == class).map(name).collect(),
        diagonals: false,
    };
    // The river spans the files whose bank is not sea.
    let bank = RIVER_BELOW as usize * FILES as usize;
    let river_files = (0..FILES as usize)
        .filter(|&f| TERRAIN[bank + f] != Terrain::Water)
        .map(|f| files[f].clone())
        .collect();
    let name_of = |kind: Kind| match kind {
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
    };
    let kinds: Vec<(char, &str)> = Kind::ALL.iter().map(|&k| (k.letter(), name_of(k))).collect();
    Geometry {
        game: GameKind::Commander,
        layout: Layout::Points,
        files: FILES,
        ranks: ranks.len() as u8,
        regions: vec![
            terrain("water", Terrain::Water),
            terrain("coast", Terrain::Mixed),
            terrain("land", Terrain::Land),
        ],
        river: Some(River {
            after_rank: ranks[RIVER_BELOW as usize].clone(),
            files: river_files,
            fords: FORDS.iter().map(|&f| files[f as usize].clone()).collect(),
        }),
        file_labels: files,
        rank_labels: ranks,
        missing: Vec::new(),
        pieces: legend(["red", "blue"], &kinds),
    }
}

impl Geometry {
    /// The board of `game`, with its regions and river read from the rules crate's own
    /// tables.
    pub fn of(game: GameKind) -> Geometry {
        match game {
            GameKind::Xiangqi => xiangqi(),
            GameKind::Banqi => banqi(),
            GameKind::ChessBattle => chess_battle(),
            GameKind::Commander => commander(),
        }
    }

    /// The existing squares of each rank, top rank first, files left to right: the order in
    /// which a FEN placement lists them.
    fn rows_top_down(&self) -> Vec<Vec<String>> {
        self.rank_labels
            .iter()
            .rev()
            .map(|rank| {
                self.file_labels
                    .iter()
                    .map(|file| format!("{file}{rank}"))
                    .filter(|sq| !self.missing.contains(sq))
                    .collect()
            })
            .collect()
    }

    /// Reads the placement field of a position of `game` (see [`read_placement`]) with
    /// the game's squares in placement order built once: every position the server sends is
    /// read this way, and naming the squares anew each time cost more than the reading.
    pub(crate) fn placement_of(game: GameKind, fen: &str) -> BTreeMap<String, String> {
        static ROWS: [OnceLock<Vec<Vec<String>>>; 4] = [const { OnceLock::new() }; 4];
        let slot = match game {
            GameKind::Xiangqi => 0,
            GameKind::Banqi => 1,
            GameKind::ChessBattle => 2,
            GameKind::Commander => 3,
        };
        let rows = ROWS[slot].get_or_init(|| Geometry::of(game).rows_top_down());
        read_placement(rows, fen)
    }
}

/// Reads the placement field of a position's notation (ranks top to bottom separated by `/`,
/// runs of empty squares as numbers) into unit texts by square, the board's squares given as
/// `rows_top_down` lists them. A unit text is a letter, `+` and a letter (a hero), or a
/// parenthesised group of those (a stack, carrier first); it is copied whole, so no rule of
/// what may stack is needed here. Text that does not fit the board is skipped: it comes from
/// our own writer.
fn read_placement(rows: &[Vec<String>], fen: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let placement = fen.split(' ').next().unwrap_or("");
    for (row, text) in rows.iter().zip(placement.split('/')) {
        let mut i = 0usize;
        let mut run = 0usize;
        let mut unit = String::new();
        let mut depth = 0u32;
        for ch in text.chars() {
            if depth == 0 && unit.is_empty() && ch.is_ascii_digit() {
                run = run * 10 + ch.to_digit(10).unwrap_or(0) as usize;
                continue;
            }
            i += run;
            run = 0;
            unit.push(ch);
            match ch {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if depth > 0 || ch == '+' || ch == '(' {
                continue;
            }
            if let Some(sq) = row.get(i) {
                out.insert(sq.clone(), std::mem::take(&mut unit));
            }
            unit.clear();
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_available_game_has_a_geometry_with_its_square_count() {
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
        }
    }

    fn region<'a>(g: &'a Geometry, kind: &str) -> Vec<&'a Region> {
        g.regions.iter().filter(|r| r.kind == kind).collect()
    }

    #[test]
    fn xiangqi_palaces_and_river_come_from_the_rules_tables() {
        let g = Geometry::of(GameKind::Xiangqi);
        let palaces = region(&g, "palace");
        assert_eq!(palaces.len(), 2);
        assert_eq!(palaces[0].squares, ["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"]);
        assert_eq!(palaces[1].squares[0], "d7");
        let river = g.river.expect("Xiangqi has a river");
        assert_eq!((river.after_rank.as_str(), river.files.len()), ("4", 9));
        assert!(river.fords.is_empty());
    }

    #[test]
    fn commander_terrain_of_section_2_and_its_river_with_two_fords() {
        let g = Geometry::of(GameKind::Commander);
        assert_eq!((g.layout, g.files, g.ranks), (Layout::Points, 11, 12));
        let count = |kind| region(&g, kind)[0].squares.len();
        assert_eq!((count("water"), count("coast"), count("land")), (24, 16, 92));
        for mouth in ["d6", "e6", "d7", "e7", "c1"] {
            assert!(region(&g, "coast")[0].squares.contains(&mouth.to_string()), "{mouth}");
        }
        let river = g.river.expect("Commander has a river");
        assert_eq!(river.after_rank, "6");
        assert_eq!(river.files.join(""), "cdefghijk");
        assert_eq!(river.fords, ["f", "h"]);
        assert_eq!(g.pieces.len(), 22);
    }

    #[test]
    fn unit_texts_are_read_whole_stacks_and_heroes_included() {
        let g = Geometry::of(GameKind::Commander);
        let pieces = Geometry::placement_of(
            g.game,
            "6c4/11/9g1/11/11/11/+N10/11/6G4/11/4(E+G)2S3/1(N+FT)3C5 r - - 0 1",
        );
        assert_eq!(pieces["g12"], "c");
        assert_eq!(pieces["a6"], "+N");
        assert_eq!(pieces["e2"], "(E+G)");
        assert_eq!(pieces["h2"], "S");
        assert_eq!(pieces["b1"], "(N+FT)");
        assert_eq!(pieces["f1"], "C");
        assert_eq!(pieces.len(), 8);
    }
}
