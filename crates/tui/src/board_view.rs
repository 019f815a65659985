//! What stands on each square, read from the placement field of the position text that
//! [`AnyGame::fen`] writes. Only the public position is ever read here, so nothing hidden can
//! be drawn.
//!
//! The placement is the common shape of all four games' notations: ranks from the far edge
//! down, separated by `/`; each rank lists its existing squares left to right; a run of empty
//! squares is a decimal number; a piece is a letter, upper case for the first colour; `+`
//! before a letter marks a Commander Chess hero, `( … )` a Commander Chess stack (carrier
//! first); `X`/`x` is a face-down Banqi piece.

use crate::geometry::{Cell, Geometry};
use cannonade_games::AnyGame;
use std::collections::HashMap;

/// One piece of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The letter as written: upper case for the first colour.
    pub letter: char,
    /// A Commander Chess hero.
    pub hero: bool,
}

impl Piece {
    /// Whether the piece has the first colour (upper case).
    pub fn first_colour(self) -> bool {
        self.letter.is_ascii_uppercase()
    }
}

/// What stands on a square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Occupant {
    /// A face-down Banqi piece: nobody knows what it is.
    FaceDown,
    /// A piece, or a stack of pieces with its carrier first.
    Unit(Vec<Piece>),
}

impl Occupant {
    /// Whether the unit has the first colour (`None` for a face-down piece).
    pub fn first_colour(&self) -> Option<bool> {
        match self {
            Occupant::FaceDown => None,
            Occupant::Unit(pieces) => pieces.first().map(|p| p.first_colour()),
        }
    }
}

/// Why a placement could not be read onto the board (a bug, never the user's input: the text
/// comes from the rules crates).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewError(pub String);

impl std::fmt::Display for ViewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot draw the position: {}", self.0)
    }
}

impl std::error::Error for ViewError {}

/// The occupied squares of a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardView {
    occupants: HashMap<Cell, Occupant>,
}

impl BoardView {
    /// Reads the public view of a position.
    pub fn of(game: &AnyGame, geometry: &Geometry) -> Result<BoardView, ViewError> {
        BoardView::read(&game.public().fen(), geometry)
    }

    /// Reads the placement field (the text up to the first space) of a position string.
    pub fn read(fen: &str, geometry: &Geometry) -> Result<BoardView, ViewError> {
        let placement = fen.split(' ').next().unwrap_or("");
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != geometry.ranks as usize {
            return Err(ViewError(format!(
                "{} ranks in the placement, the board has {}",
                rows.len(),
                geometry.ranks
            )));
        }
        let mut occupants = HashMap::new();
        for (row, text) in rows.iter().enumerate() {
            let rank = geometry.ranks - 1 - row as u8;
            let squares: Vec<Cell> = (0..geometry.files)
                .map(|file| Cell { file, rank })
                .filter(|c| geometry.exists(*c))
                .collect();
            let mut next = 0usize;
            let mut place = |occupant: Option<Occupant>, next: &mut usize| match squares.get(*next)
            {
                Some(cell) => {
                    if let Some(o) = occupant {
                        occupants.insert(*cell, o);
                    }
                    *next += 1;
                    Ok(())
                }
                None => Err(ViewError(format!("rank {} is too long", rank + 1))),
            };
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut run = d as usize;
                    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                        run = run * 10 + d as usize;
                        chars.next();
                        if run > 64 {
                            return Err(ViewError(format!("run too long in rank {}", rank + 1)));
                        }
                    }
                    for _ in 0..run {
                        place(None, &mut next)?;
                    }
                } else if c == 'X' || c == 'x' {
                    place(Some(Occupant::FaceDown), &mut next)?;
                } else if c == '(' {
                    let mut pieces = Vec::new();
                    let mut hero = false;
                    loop {
                        match chars.next() {
                            Some(')') => break,
                            Some('+') => hero = true,
                            Some(l) if l.is_ascii_alphabetic() => {
                                pieces.push(Piece { letter: l, hero });
                                hero = false;
                            }
                            _ => return Err(ViewError(format!("bad stack in rank {}", rank + 1))),
                        }
                    }
                    if pieces.is_empty() {
                        return Err(ViewError(format!("empty stack in rank {}", rank + 1)));
                    }
                    place(Some(Occupant::Unit(pieces)), &mut next)?;
                } else if c == '+' {
                    match chars.next() {
                        Some(l) if l.is_ascii_alphabetic() => place(
                            Some(Occupant::Unit(vec![Piece { letter: l, hero: true }])),
                            &mut next,
                        )?,
                        _ => return Err(ViewError(format!("bad hero in rank {}", rank + 1))),
                    }
                } else if c.is_ascii_alphabetic() {
                    place(Some(Occupant::Unit(vec![Piece { letter: c, hero: false }])), &mut next)?;
                } else {
                    return Err(ViewError(format!("unexpected {c:?} in rank {}", rank + 1)));
                }
            }
            if next != squares.len() {
                return Err(ViewError(format!("rank {} is too short", rank + 1)));
            }
        }
        Ok(BoardView { occupants })
    }

    /// What stands on a square.
    pub fn at(&self, cell: Cell) -> Option<&Occupant> {
        self.occupants.get(&cell)
    }
}

/// The name of a piece as drawn: a Chinese character for Xiangqi and Banqi (two columns
/// wide), else its letter as the position text writes it (lower case for the second colour,
/// so the sides differ even without colours), with `+` before a hero.
pub fn piece_label(piece: Piece, chinese: bool) -> String {
    if !chinese {
        let mut s = String::new();
        if piece.hero {
            s.push('+');
        }
        s.push(piece.letter);
        return s;
    }
    let (red, black) = match piece.letter.to_ascii_uppercase() {
        'K' => ('帥', '將'),
        'A' => ('仕', '士'),
        'B' | 'E' => ('相', '象'),
        'R' => ('俥', '車'),
        'N' | 'H' => ('傌', '馬'),
        'C' => ('炮', '砲'),
        'P' => ('兵', '卒'),
        other => return other.to_string(),
    };
    if piece.first_colour() { red } else { black }.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::GameKind;

    #[test]
    fn every_available_start_reads_onto_its_board() {
        for kind in GameKind::available_games() {
            let game = AnyGame::start(kind).unwrap();
            let g = Geometry::of(&game);
            let view = BoardView::of(&game, &g).unwrap();
            assert!(g.cells().any(|c| view.at(c).is_some()), "{kind}: no piece drawn");
            assert_eq!(
                view.occupants.len(),
                g.cells().filter(|c| view.at(*c).is_some()).count(),
                "{kind}: a piece on a missing square"
            );
        }
    }

    #[test]
    fn xiangqi_start_has_the_generals_on_the_e_file() {
        let game = AnyGame::start(GameKind::Xiangqi).unwrap();
        let g = Geometry::of(&game);
        let view = BoardView::of(&game, &g).unwrap();
        let at = |n: &str| view.at(g.parse(n).unwrap()).cloned();
        assert_eq!(at("e0"), Some(Occupant::Unit(vec![Piece { letter: 'K', hero: false }])));
        assert_eq!(at("e9"), Some(Occupant::Unit(vec![Piece { letter: 'k', hero: false }])));
        assert_eq!(at("e4"), None);
    }

    #[test]
    fn chess_battle_short_ranks_start_at_file_c() {
        let game = AnyGame::start(GameKind::ChessBattle).unwrap();
        let g = Geometry::of(&game);
        let view = BoardView::of(&game, &g).unwrap();
        // GCMBHMCG on rank 1, c to j: the headquarter on g1.
        let hq = view.at(g.parse("g1").unwrap()).unwrap();
        assert_eq!(hq, &Occupant::Unit(vec![Piece { letter: 'H', hero: false }]));
    }

    #[test]
    fn banqi_start_is_all_face_down() {
        let game = AnyGame::start(GameKind::Banqi).unwrap();
        let g = Geometry::of(&game);
        let view = BoardView::of(&game, &g).unwrap();
        assert!(g.cells().all(|c| view.at(c) == Some(&Occupant::FaceDown)));
    }

    #[test]
    fn stacks_and_heroes_are_read() {
        let g = Geometry::of(&AnyGame::start(GameKind::Banqi).unwrap());
        let view = BoardView::read("(NF+T)7/8/+c7/8 r - 0 1", &g).unwrap();
        let stack = view.at(Cell { file: 0, rank: 3 }).unwrap();
        let letters: Vec<(char, bool)> = match stack {
            Occupant::Unit(p) => p.iter().map(|p| (p.letter, p.hero)).collect(),
            Occupant::FaceDown => Vec::new(),
        };
        assert_eq!(letters, [('N', false), ('F', false), ('T', true)]);
        assert_eq!(stack.first_colour(), Some(true));
        assert_eq!(view.at(Cell { file: 0, rank: 1 }).and_then(|o| o.first_colour()), Some(false));
    }

    #[test]
    fn bad_placements_are_errors_not_panics() {
        let g = Geometry::of(&AnyGame::start(GameKind::Banqi).unwrap());
        for bad in [
            "",
            "8/8/8",
            "9/8/8/8",
            "7/8/8/8",
            "(/8/8/8",
            "()7/8/8/8",
            "+/8/8/8",
            "99999999999/8/8/8",
            "%7/8/8/8",
        ] {
            assert!(BoardView::read(bad, &g).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn chinese_labels_differ_by_colour() {
        let red = Piece { letter: 'K', hero: false };
        let black = Piece { letter: 'k', hero: false };
        assert_eq!(piece_label(red, true), "帥");
        assert_eq!(piece_label(black, true), "將");
        assert_eq!(piece_label(black, false), "k");
        assert_eq!(piece_label(Piece { letter: 'T', hero: true }, false), "+T");
    }
}
