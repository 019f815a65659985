//! One game of a PGN file: the record (spec, start and moves), the tags that describe it,
//! clock readings, the written result and termination, and a Banqi deal's commitment and
//! seed.

use super::PgnResult;
use crate::AnyRecord;
use cannonade_core::{Next, Outcome};

/// Where the game's own rules ended it: after how many moves, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The number of moves played when the rules ended the game (a PGN file may go on).
    pub moves: usize,
    /// The outcome by the rules.
    pub outcome: Outcome,
}

/// A game as a PGN file holds it.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// The game: spec (Variant, Options, Format), start (FEN) and every move, replayed.
    pub record: AnyRecord,
    /// Every other tag in file order (Event, Site, Date, Round, White, Black, TimeControl,
    /// and any tag we do not know, kept as written).
    pub tags: Vec<(String, String)>,
    /// The `Result` tag (or the termination marker when the tag is absent).
    pub result: PgnResult,
    /// The `Termination` tag as written (`checkmate`, `adjudication`, `normal`, …).
    pub termination: Option<String>,
    /// The clock left after each move (`{[%clk 0:04:59]}`), in milliseconds, one entry per
    /// move of [`AnyRecord::moves`].
    pub clocks: Vec<Option<u64>>,
    /// Banqi: the commitment to the deal's seed (`Deal "commit:<sha256 hex>"`).
    pub deal: Option<String>,
    /// Banqi: the deal's seed, revealed after the end (`Seed`, 64 hex digits).
    pub seed: Option<String>,
    /// Where the rules ended the game, if they did.
    pub ended: Option<Ended>,
    /// What a reviewer says about each move, by move index (the writer writes them; the
    /// reader, which skips NAGs and comments, leaves this empty).
    pub annotations: Vec<Annotation>,
}

/// A reviewer's note on one move: a numeric annotation glyph (`$2` for `?`) and a comment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    /// The NAG's number.
    pub nag: Option<u8>,
    /// The comment's text (braces in it are written as parentheses, since a `}` would end
    /// the comment).
    pub comment: Option<String>,
}

/// Tags the writer derives from the record and the fields above; the reader takes them out
/// of [`PgnGame::tags`].
pub const DERIVED: [&str; 10] = [
    "Variant",
    "FEN",
    "SetUp",
    "Options",
    "Format",
    "Points",
    "Result",
    "Termination",
    "Deal",
    "Seed",
];

impl PgnGame {
    /// A game of `record` with no tags: its result and termination are what the rules give
    /// (`*` while it goes on).
    pub fn new(record: AnyRecord) -> PgnGame {
        let moves = record.moves().len();
        let ended = match record.next() {
            Next::Over(outcome) => Some(Ended { moves, outcome }),
            _ => None,
        };
        PgnGame {
            result: ended.map_or(PgnResult::Unknown, |e| PgnResult::of(e.outcome)),
            termination: ended.map(|e| e.outcome.reason.as_str().to_string()),
            clocks: vec![None; moves],
            record,
            tags: Vec::new(),
            deal: None,
            seed: None,
            ended,
            annotations: Vec::new(),
        }
    }

    /// The value of a tag of [`PgnGame::tags`].
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets a tag of [`PgnGame::tags`], replacing its value if it is there.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }
}
