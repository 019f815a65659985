//! A record played elsewhere, kept as a finished game: the row and the events a game played
//! here would have left, so the replay, the export and (later) the engine's review serve it
//! like any other game. Pure: the caller stores the result in one transaction
//! ([`cannonade_store::Store::import_game`]).
//!
//! What a PGN file holds maps onto the events as follows: each move becomes a `moved`
//! event with the clocks its `%clk` comments give (the time control's start where a move
//! has none), and the end an `ended` event with the file's result. The reason is the file's
//! `Termination` when it names one of ours (`checkmate`, `time`…), else the end our rules
//! give when they agree with the file's result, else the termination's own word
//! (`adjudication`); a game without a result (`*`) is kept as aborted. The export is the
//! file's game rewritten in our canonical PGN with every tag kept, so exporting an import
//! gives back its result and termination.

use crate::archive::stored::StoredEvent;
use cannonade_core::Reason;
use cannonade_games::pgn::{PgnGame, PgnResult, write_game};
use cannonade_store::{EventRow, GameRow, Store, StoreError};
use cannonade_wire::{ClockState, CrowdRecord, GameResult, MoveInfo, Seat};

/// The longest player name kept from a file (longer ones are cut).
const NAME_CHARS: usize = 40;

/// The longest termination word kept as a reason.
const REASON_CHARS: usize = 32;

/// An imported game: its row (status `over`) and its events, numbered from 1.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The game's row.
    pub row: GameRow,
    /// Its events, in order.
    pub events: Vec<EventRow>,
}

/// The row and events of `game`, stored under `id` at `now_ms`.
pub fn import(game: &PgnGame, id: String, now_ms: i64) -> Imported {
    let record = &game.record;
    let (initial_ms, increment_ms) =
        game.tag("TimeControl").and_then(time_control).unwrap_or((0, 0));
    let mut remaining = [initial_ms; 2];
    let mut events = Vec::with_capacity(record.len() + 1);
    for (ply, (played, clock)) in record.moves().into_iter().zip(&game.clocks).enumerate() {
        if let Some(ms) = clock {
            remaining[played.seat.index()] = *ms;
        }
        let seat: Seat = played.seat.into();
        events.push(StoredEvent::Moved {
            ply: ply as u32,
            info: MoveInfo { mv: played.text, display: played.display, seat },
            clock: ClockState { remaining_ms: remaining, running: None, game_ms: None },
            crowd: None,
            at: None,
        });
    }
    // The seed is shown as the deal's proof only when every flip follows from it.
    let proven = game.verify_deal().is_ok();
    let seed = game.seed.clone().filter(|_| proven);
    let result = GameResult {
        winner: match game.result {
            PgnResult::FirstWins => Some(Seat::First),
            PgnResult::SecondWins => Some(Seat::Second),
            PgnResult::Draw | PgnResult::Unknown => None,
        },
        reason: reason(game),
        points: record.points(),
    };
    events.push(StoredEvent::Ended {
        result: result.clone(),
        clock: ClockState { remaining_ms: remaining, running: None, game_ms: None },
        seed: seed.clone(),
        crowd: CrowdRecord::default(),
    });
    let name = |tag: &str| player_name(game.tag(tag));
    let row = GameRow {
        kind: record.kind().name().to_string(),
        options: record.spec().options_text(),
        start_fen: record.start().fen(),
        initial_ms: initial_ms as i64,
        increment_ms: increment_ms as i64,
        rated: false,
        users: [None, None],
        names: [name("White"), name("Black")],
        ai: [None, None],
        seed,
        commitment: game.deal.clone(),
        status: "over".into(),
        // Serialising these wire types cannot fail (no maps with non-string keys).
        result: serde_json::to_string(&result).ok(),
        crowd: serde_json::to_string(&CrowdRecord::default()).ok(),
        export: Some(write_game(game)),
        created_ms: now_ms,
        ended_ms: Some(now_ms),
        days_per_move: 0,
        id,
    };
    let events = events
        .iter()
        .enumerate()
        .map(|(i, e)| EventRow {
            game_id: row.id.clone(),
            v: i as i64 + 1,
            body: serde_json::to_string(e).unwrap_or_default(),
        })
        .collect();
    Imported { row, events }
}

/// The most games one import request may hold (the command line has no bound).
pub const MAX_GAMES_PER_REQUEST: usize = 200;

/// Why games could not be imported.
#[derive(Debug)]
pub enum ImportError {
    /// The operating system gave no randomness for the games' ids.
    NoRandom(crate::ids::NoRandom),
    /// The store refused the write.
    Store(StoreError),
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportError::NoRandom(e) => e.fmt(f),
            ImportError::Store(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ImportError {}

impl From<crate::ids::NoRandom> for ImportError {
    fn from(e: crate::ids::NoRandom) -> ImportError {
        ImportError::NoRandom(e)
    }
}

impl From<StoreError> for ImportError {
    fn from(e: StoreError) -> ImportError {
        ImportError::Store(e)
    }
}

/// The rows and events of `games`, each under a new id, imported now.
pub fn import_all(games: &[PgnGame]) -> Result<Vec<Imported>, ImportError> {
    let now_ms = crate::ids::now_ms();
    games.iter().map(|g| Ok(import(g, crate::ids::short_id()?, now_ms))).collect()
}

/// Stores imported games, each in one transaction of its own.
pub async fn store_all(store: &dyn Store, games: &[Imported]) -> Result<(), StoreError> {
    for g in games {
        store.import_game(&g.row, &g.events).await?;
    }
    Ok(())
}

/// The reason of the end (see the module's documentation).
fn reason(game: &PgnGame) -> String {
    if game.result == PgnResult::Unknown {
        return Reason::Aborted.as_str().to_string();
    }
    let written = game.termination.as_deref().map(str::trim).unwrap_or("");
    if let Some(r) = Reason::parse(written) {
        return r.as_str().to_string();
    }
    if let Some(ended) = game.ended
        && PgnResult::of(ended.outcome) == game.result
    {
        return ended.outcome.reason.as_str().to_string();
    }
    // PGN's own words for the common ends.
    match written.to_ascii_lowercase().as_str() {
        "time forfeit" => return Reason::Timeout.as_str().to_string(),
        "abandoned" => return Reason::Abandonment.as_str().to_string(),
        _ => {}
    }
    let word: String = written
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == ' ' || *c == '-')
        .take(REASON_CHARS)
        .collect::<String>()
        .trim()
        .to_ascii_lowercase()
        .replace(' ', "-");
    if word.is_empty() { "unknown".to_string() } else { word }
}

/// A player's name from a tag: printable, at most [`NAME_CHARS`] characters, `?` when
/// missing.
fn player_name(tag: Option<&str>) -> String {
    let name: String = tag
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control() && !super::room::hidden_char(*c))
        .take(NAME_CHARS)
        .collect();
    let name = name.trim();
    if name.is_empty() { "?".to_string() } else { name.to_string() }
}

/// PGN's `TimeControl` (`300+2`, seconds, fractions allowed) in milliseconds; `None` for
/// `-`, `?` and forms we do not read (`40/9000:300`), which import as untimed.
fn time_control(text: &str) -> Option<(u64, u64)> {
    let (initial, increment) = text.split_once('+').unwrap_or((text, "0"));
    let ms = |s: &str| -> Option<u64> {
        let secs: f64 = s.trim().parse().ok()?;
        (secs.is_finite() && (0.0..=1e7).contains(&secs)).then(|| (secs * 1000.0).round() as u64)
    };
    Some((ms(initial)?, ms(increment)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_games::pgn::read_game;

    fn imported(text: &str) -> Imported {
        import(&read_game(text).unwrap_or_else(|e| panic!("{e}")), "g1".into(), 1_000)
    }

    fn stored(events: &[EventRow]) -> Vec<StoredEvent> {
        events.iter().map(|e| serde_json::from_str(&e.body).unwrap()).collect()
    }

    #[test]
    fn an_outside_game_becomes_a_finished_game_with_its_clocks() {
        let text = "[White \"Ann\"]\n[Black \"Bob\"]\n[Variant \"xiangqi\"]\n\
                    [TimeControl \"300+2\"]\n[Termination \"adjudication\"]\n[Result \"1-0\"]\n\
                    1. h3e3 {[%clk 0:04:58]} h10g8 {[%clk 0:04:59.5]} 2. h1g3 1-0";
        let got = imported(text);
        assert_eq!(got.row.status, "over");
        assert_eq!(got.row.names, ["Ann".to_string(), "Bob".to_string()]);
        assert_eq!((got.row.initial_ms, got.row.increment_ms), (300_000, 2_000));
        let events = stored(&got.events);
        assert_eq!(events.len(), 4);
        assert_eq!(got.events.iter().map(|e| e.v).collect::<Vec<_>>(), [1, 2, 3, 4]);
        let StoredEvent::Moved { clock, info, .. } = &events[2] else { panic!("{events:?}") };
        // The third move has no reading: each seat keeps its last one.
        assert_eq!(clock.remaining_ms, [298_000, 299_500]);
        assert_eq!(info.mv, "h0g2");
        let StoredEvent::Ended { result, .. } = &events[3] else { panic!("{events:?}") };
        assert_eq!(result.winner, Some(Seat::First));
        assert_eq!(result.reason, "adjudication");
        let back = read_game(got.row.export.as_deref().unwrap()).unwrap();
        assert_eq!(back.result, PgnResult::FirstWins);
        assert_eq!(back.termination.as_deref(), Some("adjudication"));
    }

    #[test]
    fn the_rules_name_the_end_when_the_file_does_not() {
        // Fool's mate-like quick loss is not available in Xiangqi; a resigned game with a
        // `normal` termination keeps the word, a game the rules ended takes their reason.
        let got = imported("[Variant \"xiangqi\"]\n[Termination \"normal\"]\n1. h3e3 0-1");
        let StoredEvent::Ended { result, .. } = stored(&got.events).pop().unwrap() else {
            panic!()
        };
        assert_eq!((result.winner, result.reason.as_str()), (Some(Seat::Second), "normal"));
        let got = imported("[Variant \"xiangqi\"]\n1. h3e3 *");
        let StoredEvent::Ended { result, .. } = stored(&got.events).pop().unwrap() else {
            panic!()
        };
        assert_eq!((result.winner, result.reason.as_str()), (None, "aborted"));
    }

    #[test]
    fn names_and_clock_tags_from_outside_are_bounded() {
        let long = "x".repeat(300);
        let text = format!(
            "[White \"{long}\"]\n[Black \"\"]\n[TimeControl \"40/9000:300\"]\n\
             [Variant \"xiangqi\"]\n1. h3e3 *"
        );
        let got = imported(&text);
        assert_eq!(got.row.names[0].chars().count(), NAME_CHARS);
        assert_eq!(got.row.names[1], "?");
        assert_eq!((got.row.initial_ms, got.row.increment_ms), (0, 0));
        assert_eq!(time_control("1e300+0"), None);
        assert_eq!(time_control("2.5+0.5"), Some((2_500, 500)));
    }
}
