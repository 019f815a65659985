//! Reading PGN: the text split into games, each game's tags read into a spec and a start,
//! and its moves replayed, so a game that reads is a legal game.

use super::banqi_record;
use super::game::{DERIVED, Ended};
use super::token::{Token, cut, tokens};
use super::xiangqi_import::{Ranks, from_one_based, guess, plain_wxf, san};
use super::{PgnError, PgnErrorKind, PgnGame, PgnResult};
use crate::{AnyRecord, GameError, GameKind, GameSpec};
use cannonade_core::{Next, Side};

/// The largest text read (a long game is a few kilobytes; a match file a few megabytes).
pub const MAX_PGN_BYTES: usize = 64 << 20;

/// A move as the file writes it.
struct RawMove<'a> {
    line: usize,
    text: &'a str,
    clock: Option<u64>,
}

/// A game as the file splits it, before any of it is understood.
#[derive(Default)]
struct RawGame<'a> {
    line: usize,
    tags: Vec<(usize, &'a str, String)>,
    moves: Vec<RawMove<'a>>,
    marker: Option<PgnResult>,
}

impl RawGame<'_> {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty() && self.marker.is_none()
    }
}

/// Reads every game of a PGN text, replaying each.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let raw = split(text)?;
    raw.into_iter().enumerate().map(|(i, g)| build(g, i + 1)).collect()
}

/// Reads every game of a PGN text on its own: a game that does not replay is its own
/// error, and the others still read. Only text that cannot be split into games (an unclosed
/// comment, a broken tag) fails as a whole.
pub fn read_each(text: &str) -> Result<Vec<Result<PgnGame, PgnError>>, PgnError> {
    Ok(split(text)?.into_iter().enumerate().map(|(i, g)| build(g, i + 1)).collect())
}

/// Reads a text holding one game (the first, when it holds more).
pub fn read_game(text: &str) -> Result<PgnGame, PgnError> {
    let raw = split(text)?;
    let first =
        raw.into_iter().next().ok_or(PgnError { line: 1, game: 0, kind: PgnErrorKind::Empty })?;
    build(first, 1)
}

/// A move symbol without its move number (`12.`, `12...`); empty when it was only a number.
fn move_part(symbol: &str) -> &str {
    let digits = symbol.bytes().take_while(u8::is_ascii_digit).count();
    if digits == symbol.len() {
        ""
    } else if digits > 0 && (symbol[digits..].starts_with('.') || symbol[digits..].starts_with('…'))
    {
        symbol[digits..].trim_start_matches(['.', '…'])
    } else {
        symbol
    }
}

/// The clock of a `[%clk h:mm:ss]` command in a comment, in milliseconds.
pub fn clock(comment: &str) -> Option<u64> {
    let at = comment.find("[%clk")?;
    let body = comment[at + 5..].trim_start();
    let body = &body[..body.find(']')?];
    let mut ms = 0u64;
    let mut parts = body.trim().split(':');
    let count = body.trim().split(':').count();
    if !(1..=3).contains(&count) {
        return None;
    }
    for (i, part) in parts.by_ref().enumerate() {
        if i + 1 < count {
            ms = ms.checked_add(part.parse::<u64>().ok()?)?.checked_mul(60)?;
        } else {
            let (s, frac) = part.split_once('.').unwrap_or((part, ""));
            let whole: u64 = s.parse().ok()?;
            let frac_ms: u64 = match frac.len() {
                0 => 0,
                n if n <= 3 && frac.bytes().all(|b| b.is_ascii_digit()) => {
                    frac.parse::<u64>().ok()? * 10u64.pow(3 - n as u32)
                }
                _ => return None,
            };
            ms = ms.checked_add(whole)?.checked_mul(1000)?.checked_add(frac_ms)?;
        }
    }
    Some(ms)
}

/// Parentheses that do not pair up around a variation, found at `line` in game `game`.
fn unbalanced(line: usize, game: usize) -> PgnError {
    PgnError { line, game, kind: PgnErrorKind::Variation }
}

/// Ends the game being split, keeping it unless nothing was in it.
fn finish<'a>(game: &mut RawGame<'a>, games: &mut Vec<RawGame<'a>>) {
    let done = std::mem::take(game);
    if !done.is_empty() {
        games.push(done);
    }
}

/// Splits the text into games: tags, moves (variations, NAGs and comments other than clocks
/// left out) and the termination marker. A tag after moves starts the next game.
fn split(text: &str) -> Result<Vec<RawGame<'_>>, PgnError> {
    if text.len() > MAX_PGN_BYTES {
        return Err(PgnError { line: 1, game: 0, kind: PgnErrorKind::TooLarge(text.len()) });
    }
    let mut games = Vec::new();
    let mut game = RawGame::default();
    let mut in_moves = false;
    let mut depth = 0usize;
    let mut open_line = 0;
    for located in tokens(text)? {
        let line = located.line;
        if game.is_empty() {
            game.line = line;
        }
        match located.token {
            Token::Tag { name, value } => {
                if in_moves || depth > 0 {
                    if depth > 0 {
                        return Err(unbalanced(open_line, games.len() + 1));
                    }
                    finish(&mut game, &mut games);
                    game.line = line;
                    in_moves = false;
                }
                game.tags.push((line, name, value));
            }
            Token::Comment(c) if depth == 0 => {
                if let (Some(ms), Some(last)) = (clock(c), game.moves.last_mut()) {
                    last.clock = Some(ms);
                }
            }
            Token::Comment(_) | Token::Nag => {}
            Token::Open => {
                if depth == 0 {
                    open_line = line;
                }
                depth += 1;
                in_moves = true;
            }
            Token::Close => {
                if depth == 0 {
                    return Err(unbalanced(line, games.len() + 1));
                }
                depth -= 1;
            }
            Token::Result(r) if depth == 0 => {
                game.marker = Some(r);
                finish(&mut game, &mut games);
                in_moves = false;
            }
            Token::Result(_) => {}
            Token::Symbol(s) => {
                in_moves = true;
                let text = move_part(s);
                if depth == 0 && !text.is_empty() {
                    game.moves.push(RawMove { line, text, clock: None });
                }
            }
        }
    }
    if depth > 0 {
        return Err(unbalanced(open_line, games.len() + 1));
    }
    finish(&mut game, &mut games);
    Ok(games)
}

/// A tag value that is 64 hexadecimal digits (after `prefix`).
fn hex64<'a>(value: &'a str, prefix: &str) -> Option<&'a str> {
    let hex = value.strip_prefix(prefix)?;
    (hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit())).then_some(hex)
}

/// Understands one game: its tags, then its moves replayed.
fn build(mut raw: RawGame<'_>, number: usize) -> Result<PgnGame, PgnError> {
    let err = |line, kind| PgnError { line, game: number, kind };
    let by_colour = banqi_record::translate(&mut raw.tags);
    for (i, (line, name, _)) in raw.tags.iter().enumerate() {
        if raw.tags[..i].iter().any(|(_, n, _)| n == name) {
            return Err(err(*line, PgnErrorKind::Repeated(name.to_string())));
        }
    }
    let get =
        |name: &str| raw.tags.iter().find(|(_, n, _)| *n == name).map(|(l, _, v)| (*l, v.as_str()));
    // `Game` is what our records wrote before this format, and Banqi's rules file writes.
    let (variant_line, variant) = get("Variant")
        .or_else(|| get("Game"))
        .ok_or(err(raw.line, PgnErrorKind::Variant(String::new())))?;
    let kind: GameKind =
        variant.parse().map_err(|_| err(variant_line, PgnErrorKind::Variant(cut(variant))))?;
    let format = get("Format");
    let options = get("Options");
    let options_text =
        [format.map(|(_, f)| format!("format={f}")), options.map(|(_, o)| o.to_string())]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(",");
    let options_line = options.or(format).map_or(raw.line, |(l, _)| l);
    let spec = GameSpec::parse(kind, &options_text)
        .map_err(|e| err(options_line, PgnErrorKind::Game(e)))?;
    let record = match get("FEN") {
        Some((line, fen)) => {
            let start = spec.position(fen).map_err(|e| err(line, PgnErrorKind::Game(e)))?;
            AnyRecord::with_start(&spec, start).map_err(|e| err(line, PgnErrorKind::Game(e)))?
        }
        None => AnyRecord::from_spec(&spec),
    };
    let value = |tag: &str, line, v: &str| {
        err(line, PgnErrorKind::Value { tag: tag.into(), value: cut(v) })
    };
    let result = match get("Result") {
        Some((line, r)) => PgnResult::parse(r).ok_or_else(|| value("Result", line, r))?,
        None => raw.marker.unwrap_or(PgnResult::Unknown),
    };
    let deal = match get("Deal") {
        Some((line, d)) => {
            Some(hex64(d, "commit:").ok_or_else(|| value("Deal", line, d))?.to_ascii_lowercase())
        }
        None => None,
    };
    let seed = match get("Seed") {
        Some((line, s)) => {
            Some(hex64(s, "").ok_or_else(|| value("Seed", line, s))?.to_ascii_lowercase())
        }
        None => None,
    };
    let conventions: &[Ranks] = match (kind, guess(raw.moves.iter().map(|m| m.text))) {
        (GameKind::Xiangqi, None) => &[Ranks::Zero, Ranks::One],
        (GameKind::Xiangqi, Some(Ranks::One)) => &[Ranks::One],
        _ => &[Ranks::Zero],
    };
    let mut failure: Option<(usize, PgnError)> = None;
    let mut replayed = None;
    for &ranks in conventions {
        match replay(record.clone(), &raw.moves, ranks) {
            Ok(done) => {
                replayed = Some(done);
                break;
            }
            Err((ply, kind)) => {
                let line = raw.moves[ply].line;
                if failure.as_ref().is_none_or(|(p, _)| ply > *p) {
                    failure = Some((ply, err(line, kind)));
                }
            }
        }
    }
    let (record, ended) = match replayed {
        Some(done) => done,
        None => return Err(failure.map(|(_, e)| e).unwrap_or(err(raw.line, PgnErrorKind::Empty))),
    };
    let result = match by_colour {
        Some(colour) => colour.by_seat(&record).map_err(|(line, kind)| err(line, kind))?,
        None => result,
    };
    Ok(PgnGame {
        record,
        tags: raw
            .tags
            .iter()
            .filter(|(_, n, _)| !DERIVED.contains(n) && *n != "Game")
            .map(|(_, n, v)| (n.to_string(), v.clone()))
            .collect(),
        result,
        termination: get("Termination").map(|(_, t)| t.to_string()),
        clocks: raw.moves.iter().map(|m| m.clock).collect(),
        deal,
        seed,
        ended,
        annotations: Vec::new(),
    })
}

/// The PGN number of the move at index `ply` of a game whose first mover is `first`.
fn move_number(ply: usize, first: Side) -> String {
    let half = ply + usize::from(first == Side::Second);
    format!("{}{}", half / 2 + 1, if half.is_multiple_of(2) { "." } else { "..." })
}

/// Replays the moves on `record`; on failure, the index of the move and why.
fn replay(
    mut record: AnyRecord,
    moves: &[RawMove<'_>],
    ranks: Ranks,
) -> Result<(AnyRecord, Option<Ended>), (usize, PgnErrorKind)> {
    let first = record.position().mover();
    let over = |r: &AnyRecord, moves| match r.next() {
        Next::Over(outcome) => Some(Ended { moves, outcome }),
        _ => None,
    };
    let mut ended = over(&record, 0);
    for (i, m) in moves.iter().enumerate() {
        play(&mut record, m.text, ranks).map_err(|error| {
            (i, PgnErrorKind::Move { number: move_number(i, first), text: cut(m.text), error })
        })?;
        if ended.is_none() {
            ended = over(&record, i + 1);
        }
    }
    Ok((record, ended))
}

/// Plays one move as written: in any notation of the game, past the end the rules give (an
/// outside file may go on); annotation marks (`!`, `?!`) and check marks (`+`, `#`) are
/// tolerated when the move does not read with them (a Banqi flip is `d2?`); for Xiangqi the
/// file's rank convention and Fairy-Stockfish's SAN.
fn play(record: &mut AnyRecord, text: &str, ranks: Ranks) -> Result<(), GameError> {
    let annotated = text.trim_end_matches(['!', '?']);
    let bare = annotated.trim_end_matches(['+', '#']);
    let mut first_error = None;
    let mut tried: Vec<&str> = Vec::with_capacity(3);
    for candidate in [text, annotated, bare] {
        if candidate.is_empty() || tried.contains(&candidate) {
            continue;
        }
        tried.push(candidate);
        let converted = match ranks {
            Ranks::One => from_one_based(candidate),
            Ranks::Zero => None,
        };
        match record.play_text_past_end(converted.as_deref().unwrap_or(candidate)) {
            Ok(_) => return Ok(()),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    let error = first_error.unwrap_or_else(|| GameError::Move("an empty move".into()));
    let position = record.position();
    match san(&position, bare).or_else(|| plain_wxf(&position, bare)) {
        Some(mv) => record.play(mv),
        None => Err(error),
    }
}
