//! Board geometry: what a rules-free client needs to draw any game's board.

use cannonade_games::GameKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Whether pieces stand on line intersections or inside cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// On the points where lines cross (Xiangqi).
    Points,
    /// Inside squares (Banqi, Chess-Battle).
    Cells,
}

/// A named set of squares drawn specially (a palace, a river bank…).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    /// What it is: `palace`, …
    pub kind: String,
    /// Its squares.
    pub squares: Vec<String>,
    /// Draw the diagonals of its corners (the palace's cross).
    pub diagonals: bool,
}

/// A piece letter and what to call it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceInfo {
    /// The letter as it appears in [`crate::PublicPosition`] pieces.
    pub letter: String,
    /// Its name.
    pub name: String,
    /// Its colour: `red`, `black` or `white`; `unknown` for a face-down piece.
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
    /// Regions to draw.
    pub regions: Vec<Region>,
    /// A river between this rank label and the next (Xiangqi: between 4 and 5).
    pub river_after_rank: Option<String>,
    /// The pieces' letters and names.
    pub pieces: Vec<PieceInfo>,
}

fn names(files: &[String], ranks: &[String], f: impl Fn(usize, usize) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    for (r, rank) in ranks.iter().enumerate() {
        for (c, file) in files.iter().enumerate() {
            if f(c, r) {
                out.push(format!("{file}{rank}"));
            }
        }
    }
    out
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

impl Geometry {
    /// The board of `game`, `None` for a game this build does not describe yet.
    pub fn of(game: GameKind) -> Option<Geometry> {
        let letters =
            |n: usize| (0..n).map(|i| ((b'a' + i as u8) as char).to_string()).collect::<Vec<_>>();
        let numbers =
            |from: usize, n: usize| (from..from + n).map(|i| i.to_string()).collect::<Vec<_>>();
        match game {
            GameKind::Xiangqi => {
                let (files, ranks) = (letters(9), numbers(0, 10));
                let palace = |lo: usize| {
                    names(&files, &ranks, |c, r| (3..=5).contains(&c) && (lo..lo + 3).contains(&r))
                };
                Some(Geometry {
                    game,
                    layout: Layout::Points,
                    files: 9,
                    ranks: 10,
                    regions: vec![
                        Region { kind: "palace".into(), squares: palace(0), diagonals: true },
                        Region { kind: "palace".into(), squares: palace(7), diagonals: true },
                    ],
                    file_labels: files,
                    rank_labels: ranks,
                    missing: Vec::new(),
                    river_after_rank: Some("4".into()),
                    pieces: legend(
                        ["red", "black"],
                        &[
                            ('K', "general"),
                            ('A', "advisor"),
                            ('B', "elephant"),
                            ('N', "horse"),
                            ('R', "chariot"),
                            ('C', "cannon"),
                            ('P', "soldier"),
                        ],
                    ),
                })
            }
            GameKind::Banqi => {
                let mut pieces = legend(
                    ["red", "black"],
                    &[
                        ('K', "general"),
                        ('A', "advisor"),
                        ('B', "elephant"),
                        ('R', "chariot"),
                        ('N', "horse"),
                        ('C', "cannon"),
                        ('P', "soldier"),
                    ],
                );
                pieces.push(PieceInfo {
                    letter: "X".into(),
                    name: "face-down".into(),
                    colour: "unknown".into(),
                });
                Some(Geometry {
                    game,
                    layout: Layout::Cells,
                    files: 8,
                    ranks: 4,
                    file_labels: letters(8),
                    rank_labels: numbers(1, 4),
                    missing: Vec::new(),
                    regions: Vec::new(),
                    river_after_rank: None,
                    pieces,
                })
            }
            GameKind::ChessBattle => {
                let (files, ranks) = (letters(12), numbers(1, 12));
                let corner = |c: usize, r: usize| !(2..=9).contains(&c) && !(2..=9).contains(&r);
                Some(Geometry {
                    game,
                    layout: Layout::Cells,
                    files: 12,
                    ranks: 12,
                    missing: names(&files, &ranks, corner),
                    file_labels: files,
                    rank_labels: ranks,
                    regions: Vec::new(),
                    river_after_rank: None,
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
                })
            }
            _ => None,
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

    /// Reads the placement field of a position's notation (ranks top to bottom separated by
    /// `/`, runs of empty squares as numbers, pieces as letters) into pieces by square.
    /// Characters that do not fit the board are skipped: the text comes from our own writer.
    pub(crate) fn read_placement(&self, fen: &str) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        let placement = fen.split(' ').next().unwrap_or("");
        for (row, text) in self.rows_top_down().iter().zip(placement.split('/')) {
            let mut i = 0usize;
            let mut run = 0usize;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    run = run * 10 + d as usize;
                    continue;
                }
                i += run;
                run = 0;
                if let Some(sq) = row.get(i) {
                    out.insert(sq.clone(), ch.to_string());
                }
                i += 1;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_available_game_has_a_geometry_with_its_square_count() {
        for kind in GameKind::available_games() {
            let Some(g) = Geometry::of(kind) else { continue };
            let squares = g.files as usize * g.ranks as usize - g.missing.len();
            let expected = match kind {
                GameKind::Xiangqi => 90,
                GameKind::Banqi => 32,
                GameKind::ChessBattle => 128,
                _ => squares,
            };
            assert_eq!(squares, expected, "{kind}");
        }
    }
}
