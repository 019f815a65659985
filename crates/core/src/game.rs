//! What the edges of the system need from a game beyond its rules: its name, reading and
//! writing positions, moves and options, its board, and what a client draws.
//!
//! Every game implements [`Game`] once; the enum over all games (`cannonade-games`), the
//! conformance testkit, records and clients are written against this trait, so adding a game
//! adds no dispatch code anywhere else.

use crate::{Board, Rules, Side};
use std::fmt::{Debug, Display};

/// A move as a record writes it: the move, and the outcome of the chance event it starts when
/// the record names it.
pub type Recorded<M, C> = (M, Option<C>);

/// A named set of points drawn over a position, such as Commander Chess's air defence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    /// What it is (`air-defence`).
    pub kind: &'static str,
    /// Whose it is.
    pub seat: Side,
    /// Its squares, by name.
    pub squares: Vec<String>,
}

/// A game as the edges see it: [`Rules`] plus its registry name, notation and board.
///
/// Text is read at the edge: [`Game::from_fen`] validates a position and
/// [`Game::parse_move`] checks a move against the position, each with the game's own small
/// error type; every other method writes text from checked values.
pub trait Game: Rules {
    /// The registry name, used everywhere (CLI, `UCI_Variant`, wire, store): `xiangqi`.
    const NAME: &'static str;
    /// The name people read: `Xiangqi`.
    const TITLE: &'static str;

    /// Why a position text was refused.
    type PositionError: Display + Debug;
    /// Why a move text was refused.
    type MoveError: Display + Debug;
    /// Why an options text was refused.
    type OptionsError: Display + Debug;
    /// What everybody may see of a position: `Self`, except where the type holds secrets
    /// (a Banqi deal).
    type Public: Game<Move = Self::Move, Public = Self::Public>;

    /// The standard starting position with the default options, as everybody sees it (a
    /// game with secrets starts from a deal of its own, never from a standard one).
    fn start() -> Self::Public;

    /// Reads and validates a position in the game's notation.
    fn from_fen(text: &str) -> Result<Self, Self::PositionError>;

    /// The position in the game's notation; [`Game::from_fen`] reads it back.
    fn fen(&self) -> String;

    /// The rule options in force as `key=value,…` (what [`Game::with_options`] reads), empty
    /// for a game without options.
    fn options(&self) -> String {
        String::new()
    }

    /// This position under the rule options `text` (`key=value,…`); options it does not
    /// name take their defaults. Unknown options and values are errors, never ignored.
    fn with_options(&self, text: &str) -> Result<Self, Self::OptionsError>;

    /// Reads a move in any of the game's notations and checks it against this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError>;

    /// The canonical text of a legal move of this position; [`Game::parse_move`] reads it
    /// back as the same move.
    fn move_text(&self, mv: Self::Move) -> String;

    /// The move as people read it (WXF for Xiangqi); also accepted by [`Game::parse_move`].
    fn display_move(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }

    /// The move as the engine protocol writes it (compact where the game has such a form).
    fn engine_move(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }

    /// The move as a game record writes it: the canonical text, except that a position
    /// that knows the outcome of the chance event its move starts (a dealt Banqi flip)
    /// writes it too (`d2=C`).
    fn recorded_move(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }

    /// The record's text of a move whose chance event came out as `outcome` (`d2=C`).
    fn resolved_move(&self, mv: Self::Move, outcome: Self::Chance) -> String {
        format!("{}={}", self.move_text(mv), self.chance_text(outcome))
    }

    /// Reads a move as a record writes it: the move, and the outcome of the chance event it
    /// starts when the text names it (a Banqi flip recorded `d2=C` in a public position).
    fn parse_recorded(
        &self,
        text: &str,
    ) -> Result<Recorded<Self::Move, Self::Chance>, Self::MoveError> {
        Ok((self.parse_move(text)?, None))
    }

    /// The text of a chance outcome (a Banqi piece letter).
    fn chance_text(&self, outcome: Self::Chance) -> String {
        format!("{outcome:?}")
    }

    /// Reads a chance outcome that the pending chance event can have; `None` otherwise
    /// (and always in games without chance).
    fn parse_chance(&self, _text: &str) -> Option<Self::Chance> {
        None
    }

    /// A readable board diagram with the position's notation.
    fn pretty(&self) -> String;

    /// Whether the side to move is in check (false in games without check).
    fn in_check(&self) -> bool {
        false
    }

    /// The square of the side to move's royal piece while it is in check.
    fn check_square(&self) -> Option<String> {
        None
    }

    /// The colour of each seat's pieces, first seat first; `None` while undecided (Banqi
    /// before the first flip).
    fn seat_colours(&self) -> Option<[&'static str; 2]>;

    /// The board: what a client needs to draw any position of the game.
    fn board() -> Board;

    /// The units on the board as `(square, unit text)`: the letters of the board's piece
    /// legend (a Commander stack is several, `(N+FT)`; a face-down Banqi piece is `X`).
    fn placement(&self) -> Vec<(String, String)>;

    /// Zones drawn over the position (Commander Chess's air defence); none by default.
    fn zones(&self) -> Vec<Zone> {
        Vec::new()
    }

    /// What everybody may see of this position.
    fn public(&self) -> Self::Public;
}

/// A position read by a game that can hold secrets: with them, or only what everybody sees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Read<D, P> {
    /// The text held the secrets (a dealt Banqi position).
    Full(D),
    /// The text held the public position only.
    Public(P),
}

/// A game type that holds secrets (Banqi with its deal) beside its public type.
pub trait Hidden: Game {
    /// Reads either form of the game's position text.
    fn read(text: &str) -> Result<Read<Self, Self::Public>, Self::PositionError>;
}

/// Why a game without rule options refused an options text: it names one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoOptions(pub String);

impl NoOptions {
    /// `Ok` for an empty text (or only separators), the refusal otherwise.
    pub fn check(text: &str) -> Result<(), NoOptions> {
        match text.split(',').map(str::trim).find(|s| !s.is_empty()) {
            None => Ok(()),
            Some(item) => Err(NoOptions(item.chars().take(40).collect())),
        }
    }
}

impl Display for NoOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "this game has no rule options ('{}')", self.0)
    }
}

impl std::error::Error for NoOptions {}
