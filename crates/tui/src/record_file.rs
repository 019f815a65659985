//! The text record of a game, the same shape for every game (docs/record-format.md):
//!
//! ```text
//! # comments start with '#'
//! game xiangqi
//! options repetition=seed
//! start rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1
//! result first checkmate
//!
//! h2e2
//! h9g7
//! ```
//!
//! Header lines `key value` up to the first blank line, then one move per line in the game's
//! own notation, as [`AnyRecord::moves_text`] writes them. Reading replays every move, so a
//! record that loads is a legal game.

use cannonade_core::{Next, Outcome, Reason, Side};
use cannonade_games::{AnyGame, AnyRecord, GameError, GameKind};

/// The largest record read (a long game is a few kilobytes).
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordFileError {
    /// The text is larger than [`MAX_RECORD_BYTES`].
    TooLarge(usize),
    /// No `game` line.
    MissingGame,
    /// A header line is not `key value`, or names an unknown key.
    BadHeader {
        /// 1-based line number.
        line: usize,
        /// The line (cut short).
        text: String,
    },
    /// A header key given twice.
    Repeated {
        /// 1-based line number.
        line: usize,
        /// The key.
        key: String,
    },
    /// The game name, the options or the start position is not valid.
    Game {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        error: GameError,
    },
    /// A move is not legal where it is played.
    Move {
        /// 1-based line number.
        line: usize,
        /// The move as written (cut short).
        text: String,
        /// What is wrong.
        error: GameError,
    },
    /// The `result` line is not `first|second|draw <reason>`.
    BadResult {
        /// 1-based line number.
        line: usize,
    },
    /// The `result` line disagrees with the game the moves give.
    ResultMismatch {
        /// The result as written.
        written: String,
        /// The result by the rules (`unfinished` when the game goes on).
        replayed: String,
    },
}

impl std::fmt::Display for RecordFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordFileError::TooLarge(n) => {
                write!(f, "the record is {n} bytes; records over {MAX_RECORD_BYTES} are refused")
            }
            RecordFileError::MissingGame => write!(f, "the record has no 'game' line"),
            RecordFileError::BadHeader { line, text } => write!(
                f,
                "line {line}: {text:?} is not a header (game, options, start or result followed by a value)"
            ),
            RecordFileError::Repeated { line, key } => {
                write!(f, "line {line}: '{key}' is given twice")
            }
            RecordFileError::Game { line, error } => write!(f, "line {line}: {error}"),
            RecordFileError::Move { line, text, error } => {
                write!(f, "line {line}: move {text:?}: {error}")
            }
            RecordFileError::BadResult { line } => write!(
                f,
                "line {line}: a result is 'first', 'second' or 'draw' followed by a reason such as checkmate"
            ),
            RecordFileError::ResultMismatch { written, replayed } => {
                write!(f, "the record says '{written}' but its moves give '{replayed}'")
            }
        }
    }
}

impl std::error::Error for RecordFileError {}

/// An outcome as a record writes it: `first checkmate`, `draw repetition`.
pub fn outcome_text(outcome: Outcome) -> String {
    let who = match outcome.winner {
        Some(Side::First) => "first",
        Some(Side::Second) => "second",
        None => "draw",
    };
    format!("{who} {}", outcome.reason.as_str())
}

fn parse_outcome(text: &str) -> Option<Outcome> {
    let (who, reason) = text.split_once(' ')?;
    let reason = Reason::parse(reason.trim())?;
    match who {
        "first" => Some(Outcome::win(Side::First, reason)),
        "second" => Some(Outcome::win(Side::Second, reason)),
        "draw" => Some(Outcome::draw(reason)),
        _ => None,
    }
}

/// Writes a record. A Banqi game that holds its deal writes the full start position, so the
/// file shows every face-down piece.
pub fn write_record(record: &AnyRecord) -> String {
    let start = record.start();
    let mut out = String::from("# Cannonade game record (docs/record-format.md)\n");
    out.push_str(&format!("game {}\n", record.kind().name()));
    let options = start.options();
    if !options.is_empty() {
        out.push_str(&format!("options {options}\n"));
    }
    out.push_str(&format!("start {}\n", start.fen()));
    if let Next::Over(outcome) = record.next() {
        out.push_str(&format!("result {}\n", outcome_text(outcome)));
    }
    out.push('\n');
    for mv in record.moves_text() {
        out.push_str(&mv);
        out.push('\n');
    }
    out
}

fn cut(text: &str) -> String {
    text.chars().take(40).collect()
}

/// Reads a record and replays it.
pub fn read_record(text: &str) -> Result<AnyRecord, RecordFileError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(RecordFileError::TooLarge(text.len()));
    }
    let mut game: Option<(usize, GameKind)> = None;
    let mut options: Option<(usize, String)> = None;
    let mut start: Option<(usize, String)> = None;
    let mut result: Option<(usize, String)> = None;
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    for (line, l) in lines.by_ref() {
        if l.is_empty() {
            break;
        }
        if l.starts_with('#') {
            continue;
        }
        let (key, value) = l.split_once(' ').unwrap_or((l, ""));
        let value = value.trim().to_string();
        let slot = match key {
            "game" => {
                let kind = value.parse().map_err(|error| RecordFileError::Game { line, error })?;
                if game.replace((line, kind)).is_some() {
                    return Err(RecordFileError::Repeated { line, key: key.into() });
                }
                continue;
            }
            "options" => &mut options,
            "start" => &mut start,
            "result" => &mut result,
            _ => return Err(RecordFileError::BadHeader { line, text: cut(l) }),
        };
        if value.is_empty() && key != "options" {
            return Err(RecordFileError::BadHeader { line, text: cut(l) });
        }
        if slot.replace((line, value)).is_some() {
            return Err(RecordFileError::Repeated { line, key: key.into() });
        }
    }
    let (game_line, kind) = game.ok_or(RecordFileError::MissingGame)?;
    let mut position = match &start {
        Some((line, fen)) => AnyGame::from_fen(kind, fen)
            .map_err(|error| RecordFileError::Game { line: *line, error })?,
        None => AnyGame::start(kind)
            .map_err(|error| RecordFileError::Game { line: game_line, error })?,
    };
    if let Some((line, spec)) = &options {
        position
            .apply_options(spec)
            .map_err(|error| RecordFileError::Game { line: *line, error })?;
    }
    let written = match &result {
        Some((line, text)) => {
            Some(parse_outcome(text).ok_or(RecordFileError::BadResult { line: *line })?)
        }
        None => None,
    };
    let mut record = AnyRecord::new(position);
    for (line, l) in lines {
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        record.play_text(l).map_err(|error| RecordFileError::Move { line, text: cut(l), error })?;
    }
    if let Some(written) = written {
        let replayed = match record.next() {
            Next::Over(o) => o,
            _ => {
                return Err(RecordFileError::ResultMismatch {
                    written: outcome_text(written),
                    replayed: "unfinished".into(),
                });
            }
        };
        if replayed != written {
            return Err(RecordFileError::ResultMismatch {
                written: outcome_text(written),
                replayed: outcome_text(replayed),
            });
        }
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays the first legal move `plies` times (resolving no chance: dealt or chance-free).
    fn played(start: AnyGame, plies: usize) -> AnyRecord {
        let mut r = AnyRecord::new(start);
        for _ in 0..plies {
            if !matches!(r.next(), Next::Player(_)) {
                break;
            }
            let mv = r.position().legal_moves()[0];
            r.play(mv).unwrap();
        }
        r
    }

    fn dealt_banqi() -> AnyGame {
        let seed = cannonade_banqi::DealSeed::from_hex(&"ab".repeat(32)).unwrap();
        AnyGame::BanqiDealt(cannonade_banqi::deal_from_seed(
            &cannonade_banqi::Position::startpos(),
            &seed,
        ))
    }

    #[test]
    fn every_game_round_trips_through_text() {
        let mut starts: Vec<AnyGame> =
            GameKind::available_games().map(|k| AnyGame::start(k).unwrap()).collect();
        starts.push(dealt_banqi());
        for start in starts {
            let dealt = start != start.public();
            let record = played(start, 12);
            let text = write_record(&record);
            let back = read_record(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.moves_text(), record.moves_text());
            assert_eq!(back.position(), record.position());
            assert_eq!(back.start(), record.start(), "dealt Banqi keeps its deal: {dealt}");
        }
    }

    #[test]
    fn options_are_kept() {
        let mut start = AnyGame::start(GameKind::Xiangqi).unwrap();
        start.apply_options("repetition=asian").unwrap();
        let text = write_record(&AnyRecord::new(start));
        assert!(text.contains("options repetition=asian"), "{text}");
        assert_eq!(read_record(&text).unwrap().start().options(), "repetition=asian");
    }

    #[test]
    fn a_finished_game_writes_and_checks_its_result() {
        // Two chariots against a bare general: b1b9 mates.
        let fen = "4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1";
        let mut r = AnyRecord::new(AnyGame::from_fen(GameKind::Xiangqi, fen).unwrap());
        let mate = r
            .position()
            .legal_moves()
            .into_iter()
            .find(|&m| {
                let mut p = r.position();
                p.play(m).unwrap();
                matches!(p.next(), Next::Over(o) if o.reason == Reason::Checkmate)
            })
            .expect("a mating move");
        r.play(mate).unwrap();
        let text = write_record(&r);
        assert!(text.contains("result first checkmate"), "{text}");
        assert!(read_record(&text).is_ok());
        let forged = text.replace("result first", "result second");
        assert!(matches!(read_record(&forged), Err(RecordFileError::ResultMismatch { .. })));
        let unfinished = "game xiangqi\nresult first checkmate\n";
        assert!(matches!(read_record(unfinished), Err(RecordFileError::ResultMismatch { .. })));
    }

    #[test]
    fn bad_records_name_the_problem() {
        type Check = fn(&RecordFileError) -> bool;
        let cases: [(&str, Check); 9] = [
            ("", |e| *e == RecordFileError::MissingGame),
            ("game chess\n", |e| matches!(e, RecordFileError::Game { line: 1, .. })),
            ("game xiangqi\nfoo bar\n", |e| {
                matches!(e, RecordFileError::BadHeader { line: 2, .. })
            }),
            ("game xiangqi\ngame banqi\n", |e| {
                matches!(e, RecordFileError::Repeated { line: 2, .. })
            }),
            ("game xiangqi\nstart nonsense\n", |e| {
                matches!(e, RecordFileError::Game { line: 2, .. })
            }),
            ("game xiangqi\noptions speed=fast\n", |e| {
                matches!(e, RecordFileError::Game { line: 2, .. })
            }),
            ("game xiangqi\n\nh2e2\nh2e2\n", |e| {
                matches!(e, RecordFileError::Move { line: 4, .. })
            }),
            ("game xiangqi\nresult red wins\n", |e| {
                matches!(e, RecordFileError::BadResult { line: 2 })
            }),
            ("game xiangqi\nstart\n", |e| matches!(e, RecordFileError::BadHeader { line: 2, .. })),
        ];
        for (text, expected) in cases {
            let e = read_record(text).expect_err(text);
            assert!(expected(&e), "{text:?} gave {e:?}");
            assert!(!e.to_string().is_empty());
        }
        let huge = "#".repeat(MAX_RECORD_BYTES + 1);
        assert!(matches!(read_record(&huge), Err(RecordFileError::TooLarge(_))));
    }

    #[test]
    fn a_public_banqi_record_replays_its_recorded_flips() {
        let dealt = played(dealt_banqi(), 6);
        let text = write_record(&dealt);
        // The same moves on the public start: the flips carry their pieces.
        let public_text =
            text.lines().filter(|l| !l.starts_with("start")).collect::<Vec<_>>().join("\n");
        let public = read_record(&public_text).unwrap_or_else(|e| panic!("{e}\n{public_text}"));
        assert_eq!(public.position().fen(), dealt.position().public().fen());
    }
}
