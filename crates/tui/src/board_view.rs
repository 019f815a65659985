//! What stands on each square, from the position's placement (`Game::placement`: square
//! names and unit texts, as the browser gets them). Only the public position is ever read
//! here, so nothing hidden can be drawn.
//!
//! A unit text is a piece letter (upper case for the first colour), `+` before a Commander
//! Chess hero, `( … )` around a Commander Chess stack (carrier first), or `X`/`x` for a
//! face-down Banqi piece.

use crate::board_shape::{BoardShape, Cell};
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
    pub fn of(game: &AnyGame, shape: &BoardShape) -> Result<BoardView, ViewError> {
        BoardView::read(&game.public().placement(), shape)
    }

    /// Places units given as `(square, unit text)` on the board.
    pub fn read(
        placement: &[(String, String)],
        shape: &BoardShape,
    ) -> Result<BoardView, ViewError> {
        let mut occupants = HashMap::new();
        for (square, unit) in placement {
            let cell = shape
                .parse(square)
                .ok_or_else(|| ViewError(format!("no square {square:?} on this board")))?;
            occupants.insert(
                cell,
                occupant(unit).ok_or_else(|| ViewError(format!("unit {unit:?} on {square}")))?,
            );
        }
        Ok(BoardView { occupants })
    }

    /// What stands on a square.
    pub fn at(&self, cell: Cell) -> Option<&Occupant> {
        self.occupants.get(&cell)
    }
}

/// Reads a unit text; `None` when it is not one.
fn occupant(text: &str) -> Option<Occupant> {
    if text == "X" || text == "x" {
        return Some(Occupant::FaceDown);
    }
    let inner = match text.strip_prefix('(') {
        Some(rest) => rest.strip_suffix(')')?,
        None => text,
    };
    let mut pieces = Vec::new();
    let mut hero = false;
    for c in inner.chars() {
        match c {
            '+' if !hero => hero = true,
            l if l.is_ascii_alphabetic() => {
                pieces.push(Piece { letter: l, hero });
                hero = false;
            }
            _ => return None,
        }
    }
    let single = inner.len() == text.len();
    (!pieces.is_empty() && !hero && (!single || pieces.len() == 1))
        .then_some(Occupant::Unit(pieces))
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

    fn view(kind: GameKind) -> (BoardShape, BoardView) {
        let shape = BoardShape::of(kind);
        let view = BoardView::of(&AnyGame::start(kind).unwrap(), &shape).unwrap();
        (shape, view)
    }

    #[test]
    fn every_start_reads_onto_its_board() {
        for kind in GameKind::available_games() {
            let game = AnyGame::start(kind).unwrap();
            let (shape, view) = view(kind);
            assert_eq!(view.occupants.len(), game.placement().len(), "{kind}");
            assert!(shape.cells().any(|c| view.at(c).is_some()), "{kind}: no piece drawn");
        }
    }

    #[test]
    fn xiangqi_start_has_the_generals_on_the_e_file() {
        let (g, view) = view(GameKind::Xiangqi);
        let at = |n: &str| view.at(g.parse(n).unwrap()).cloned();
        assert_eq!(at("e0"), Some(Occupant::Unit(vec![Piece { letter: 'K', hero: false }])));
        assert_eq!(at("e9"), Some(Occupant::Unit(vec![Piece { letter: 'k', hero: false }])));
        assert_eq!(at("e4"), None);
    }

    #[test]
    fn banqi_start_is_all_face_down_and_commander_has_both_commanders() {
        let (g, banqi) = view(GameKind::Banqi);
        assert!(g.cells().all(|c| banqi.at(c) == Some(&Occupant::FaceDown)));
        let (g, commander) = view(GameKind::Commander);
        let at = |n: &str| commander.at(g.parse(n).unwrap()).and_then(|o| o.first_colour());
        assert_eq!((at("g1"), at("g12")), (Some(true), Some(false)));
    }

    #[test]
    fn stacks_and_heroes_are_read_and_junk_is_refused() {
        let stack = occupant("(NF+T)").unwrap();
        let letters: Vec<(char, bool)> = match &stack {
            Occupant::Unit(p) => p.iter().map(|p| (p.letter, p.hero)).collect(),
            Occupant::FaceDown => Vec::new(),
        };
        assert_eq!(letters, [('N', false), ('F', false), ('T', true)]);
        assert_eq!(stack.first_colour(), Some(true));
        assert_eq!(occupant("+c").and_then(|o| o.first_colour()), Some(false));
        for bad in ["", "(", "()", "+", "NF", "(N", "%", "++T", "(T+)"] {
            assert_eq!(occupant(bad), None, "{bad:?}");
        }
        let g = BoardShape::of(GameKind::Banqi);
        assert!(BoardView::read(&[("z9".into(), "K".into())], &g).is_err());
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
