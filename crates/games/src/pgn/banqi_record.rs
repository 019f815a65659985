//! Banqi's game record as its rules write it (rules §9.5), read as PGN: the rules' tags are
//! PGN tags under other names, so the one reader takes them and the writer puts out PGN's
//! (`cannonade pgn convert` turns such a record into ours).
//!
//! | §9.5 | PGN |
//! |---|---|
//! | `Game "Banqi"` | `Variant "banqi"` (the reader takes `Game` as `Variant`) |
//! | `Rules "standard"` or options | `Options` (nothing for `standard`) |
//! | `Start` | `FEN` |
//! | `First`, `Red`, `Black` (names by colour) | `White` (the first player), `Black` (the other) |
//! | `Result "red"`, `"black"`, `"draw"` | `1-0`, `0-1`, `1/2-1/2` by the seat that played the colour |
//! | `Reason` (`no-move`, `no-progress`, `resign`, …) | `Termination` (`no_moves`, `move_limit`, `resignation`, …) |
//! | `Deal "commit:…"` | `Deal` |
//! | `Deal "<full BFEN>"` (a deal given openly) | `DealPosition`, which [`PgnGame::verify_deal`](super::PgnGame::verify_deal) checks flips against |

use super::PgnErrorKind;
use crate::{AnyGame, AnyRecord};
use cannonade_banqi::Colour;
use cannonade_core::Reason;

use super::PgnResult;

/// The tag holding a deal given openly (a full BFEN of the start).
pub const DEAL_POSITION: &str = "DealPosition";

/// A §9.5 result by colour, to be turned into seats once the moves are replayed.
pub(super) struct ColourResult {
    line: usize,
    value: String,
}

type Tags<'a> = Vec<(usize, &'a str, String)>;

fn take<'a>(tags: &mut Tags<'a>, name: &str) -> Option<(usize, String)> {
    let i = tags.iter().position(|(_, n, _)| *n == name)?;
    let (line, _, value) = tags.remove(i);
    Some((line, value))
}

/// Rewrites the tags of a §9.5 record (a `Game` tag and no `Variant`) into PGN's; the
/// colour result comes back to be read after the replay. Other files are left as they are.
pub(super) fn translate(tags: &mut Tags<'_>) -> Option<ColourResult> {
    let has = |tags: &Tags<'_>, name: &str| tags.iter().any(|(_, n, _)| *n == name);
    if !has(tags, "Game") || has(tags, "Variant") {
        return None;
    }
    if let Some((line, rules)) = take(tags, "Rules")
        && rules != "standard"
    {
        tags.push((line, "Options", rules));
    }
    if let Some((line, start)) = take(tags, "Start") {
        tags.push((line, "FEN", start));
    }
    if let Some((line, reason)) = take(tags, "Reason") {
        let named = match reason.as_str() {
            "no-move" => Some(Reason::NoMoves),
            "no-progress" => Some(Reason::MoveLimit),
            "resign" => Some(Reason::Resignation),
            other => Reason::parse(other),
        };
        tags.push((line, "Termination", named.map_or(reason, |r| r.as_str().to_string())));
    }
    if let Some((line, deal)) = take(tags, "Deal") {
        let name = if deal.starts_with("commit:") { "Deal" } else { DEAL_POSITION };
        tags.push((line, name, deal));
    }
    let first = take(tags, "First");
    let red = take(tags, "Red");
    let black = take(tags, "Black");
    match first {
        Some((line, first)) => {
            let other = match (&red, &black) {
                (Some((_, r)), Some((_, b))) if *r == first => Some(b.clone()),
                (Some((_, r)), Some((_, b))) if *b == first => Some(r.clone()),
                _ => None,
            };
            tags.push((line, "White", first));
            if let Some(other) = other {
                tags.push((line, "Black", other));
            }
        }
        // Names by colour without the first player's: kept, under names PGN does not read.
        None => {
            if let Some((line, r)) = red {
                tags.push((line, "RedPlayer", r));
            }
            if let Some((line, b)) = black {
                tags.push((line, "BlackPlayer", b));
            }
        }
    }
    take(tags, "Result").map(|(line, value)| ColourResult { line, value })
}

impl ColourResult {
    /// The result by seat, read on the replayed game (colours are the first flip's).
    pub(super) fn by_seat(&self, record: &AnyRecord) -> Result<PgnResult, (usize, PgnErrorKind)> {
        let bad =
            || (self.line, PgnErrorKind::Value { tag: "Result".into(), value: self.value.clone() });
        let colour = match self.value.as_str() {
            "draw" => return Ok(PgnResult::Draw),
            "red" => Colour::Red,
            "black" => Colour::Black,
            // A §9.5 file may also carry PGN's markers.
            other => return PgnResult::parse(other).ok_or_else(bad),
        };
        let AnyGame::Banqi(position) = record.position() else { return Err(bad()) };
        // Before the first flip nobody plays a colour: a colour cannot have won.
        Ok(match position.seat_of(colour).ok_or_else(bad)? {
            cannonade_core::Side::First => PgnResult::FirstWins,
            cannonade_core::Side::Second => PgnResult::SecondWins,
        })
    }
}
