//! The game record of 9.5: tags, then one recorded move per ply.
//!
//! ```text
//! [Game "Banqi"]
//! [Rules "standard"]
//! [First "Ann"]
//! [Red "Bob"] [Black "Ann"]
//! [Deal "commit:66687aad…"]
//! [Seed "0000…"]
//! [Result "red"] [Reason "elimination"]
//! a3=r e1=p e4=c h4=N …
//! ```
//!
//! Project extension: `[Seed "<64 hex digits>"]`, the deal seed revealed after the game,
//! checked against `[Deal "commit:<sha256 hex>"]` by [`GameRecord::verify`].

use crate::bfen::FenError;
use crate::deal::{
    Commitment, DealSeed, SeedError, VerifyError, deal_from_seed, verify_against_deal,
};
use crate::full::FullPosition;
use crate::notation::{MoveError, MoveSyntax, recorded_flip};
use crate::options::{Options, OptionsError};
use crate::piece::Colour;
use crate::position::Position;
use cannonade_core::{Outcome, Reason, Record};
use std::fmt;

/// The `Result` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Red won.
    Red,
    /// Black won.
    Black,
    /// A draw.
    Draw,
}

impl GameResult {
    /// `red`, `black` or `draw`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::Red => "red",
            GameResult::Black => "black",
            GameResult::Draw => "draw",
        }
    }
}

/// The `Reason` tag's name of a [`Reason`] (9.5); core names for reasons 9.5 does not list.
pub fn reason_tag(reason: Reason) -> &'static str {
    match reason {
        Reason::NoMoves => "no-move",
        Reason::MoveLimit => "no-progress",
        Reason::Resignation => "resign",
        other => other.as_str(),
    }
}

fn parse_reason(text: &str) -> Option<Reason> {
    match text {
        "no-progress" => Some(Reason::MoveLimit),
        "resign" => Some(Reason::Resignation),
        t => Reason::parse(t),
    }
}

/// Why a record was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// A tag is malformed (unclosed bracket or quote, missing value).
    TagSyntax(String),
    /// A tag 9.5 does not define.
    UnknownTag(String),
    /// A tag given twice.
    RepeatedTag(String),
    /// The `Game` tag is not `Banqi`.
    NotBanqi(String),
    /// The `Rules` tag is not a valid option string.
    Rules(OptionsError),
    /// The `Start` tag is not a valid public BFEN.
    Start(FenError),
    /// The `Deal` tag is neither a full BFEN nor `commit:<hash>`.
    Deal(String),
    /// The full BFEN of the `Deal` tag does not redact to the start position.
    DealNotStart,
    /// The `Seed` tag is not 64 hexadecimal digits.
    Seed(SeedError),
    /// The `Result` tag is not `red`, `black` or `draw`.
    Result(String),
    /// The `Reason` tag names no known reason.
    Reason(String),
    /// A move cannot be played in the replayed game.
    Move {
        /// The ply, counted from 1.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why.
        error: MoveError,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::TagSyntax(t) => write!(f, "malformed tag `{t}`"),
            RecordError::UnknownTag(t) => write!(f, "unknown tag `{t}`"),
            RecordError::RepeatedTag(t) => write!(f, "tag `{t}` given twice"),
            RecordError::NotBanqi(g) => write!(f, "the record is of game `{g}`, not Banqi"),
            RecordError::Rules(e) => write!(f, "Rules tag: {e}"),
            RecordError::Start(e) => write!(f, "Start tag: {e}"),
            RecordError::Deal(e) => write!(f, "Deal tag: {e}"),
            RecordError::DealNotStart => f.write_str("the Deal tag's position is not the start"),
            RecordError::Seed(e) => write!(f, "Seed tag: {e}"),
            RecordError::Result(r) => write!(f, "Result `{r}` is not red, black or draw"),
            RecordError::Reason(r) => write!(f, "unknown Reason `{r}`"),
            RecordError::Move { ply, text, error } => write!(f, "ply {ply}: `{text}`: {error}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// The `Deal` tag: the whole deal (archives, local games) or a commitment to the seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealTag {
    /// `[Deal "<full BFEN of the start>"]`.
    Full(FullPosition),
    /// `[Deal "commit:<sha256 hex>"]`.
    Commit(Commitment),
}

/// A Banqi game record (9.5). Moves are kept in recorded form and are checked by replaying
/// them from the start whenever a record is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The options (`Rules` tag).
    pub options: Options,
    /// The first player's name.
    pub first: Option<String>,
    /// Red's name.
    pub red: Option<String>,
    /// Black's name.
    pub black: Option<String>,
    /// The start position (`Start` tag; the standard start when absent).
    pub start: Position,
    /// The `Deal` tag, if any.
    pub deal: Option<DealTag>,
    /// The revealed seed (`Seed` tag, after the game).
    pub seed: Option<DealSeed>,
    /// The result.
    pub result: Option<GameResult>,
    /// Why the game ended.
    pub reason: Option<Reason>,
    /// The moves in recorded form (`d2=C`, `d2-d3`, `d2xd3`, `a1xa3xc3`).
    pub moves: Vec<String>,
}

impl GameRecord {
    /// An empty record of a game starting at `start` (its options become the `Rules` tag).
    pub fn new(start: Position) -> GameRecord {
        GameRecord {
            options: start.options(),
            first: None,
            red: None,
            black: None,
            start,
            deal: None,
            seed: None,
            result: None,
            reason: None,
            moves: Vec::new(),
        }
    }

    /// Fills the `Result` and `Reason` tags from an outcome reached in `at` (seats are
    /// turned into colours; an outcome before colours were assigned leaves `Result` empty).
    pub fn set_outcome(&mut self, outcome: Outcome, at: &Position) {
        self.result = match outcome.winner {
            None => Some(GameResult::Draw),
            Some(seat) => at.colour_of(seat).map(|c| match c {
                Colour::Red => GameResult::Red,
                Colour::Black => GameResult::Black,
            }),
        };
        self.reason = Some(outcome.reason);
    }

    /// Replays the moves on the public start: a core [`Record`] with each flip as a move
    /// followed by its chance outcome, so [`Record::next`] applies every rule.
    pub fn replay(&self) -> Result<Record<Position>, RecordError> {
        let mut record = Record::new(self.start.clone());
        for (i, text) in self.moves.iter().enumerate() {
            let err = |error| RecordError::Move { ply: i + 1, text: text.clone(), error };
            let syntax = MoveSyntax::parse(text).map_err(err)?;
            let mv = record.position().check_syntax(&syntax, text).map_err(err)?;
            record.play(mv);
            if let MoveSyntax::Flip { square, revealed } = syntax {
                record.resolve(revealed.ok_or_else(|| err(MoveError::OutcomeMissing(square)))?);
            }
        }
        Ok(record)
    }

    /// Confirms the record's flips: with a `Seed`, that it matches the committed hash and
    /// that every flip follows from it; otherwise against the full deal of the `Deal` tag.
    /// Returns the final omniscient position.
    pub fn verify(&self) -> Result<FullPosition, VerifyError> {
        match (&self.seed, &self.deal) {
            (Some(seed), Some(DealTag::Commit(c))) => {
                if !c.matches(seed) {
                    return Err(VerifyError::CommitmentMismatch);
                }
                verify_against_deal(&deal_from_seed(&self.start, seed), &self.moves)
            }
            (Some(_), _) => Err(VerifyError::Missing("commitment (Deal \"commit:…\")")),
            (None, Some(DealTag::Full(deal))) => verify_against_deal(deal, &self.moves),
            (None, _) => Err(VerifyError::Missing("seed (Seed tag) or full deal")),
        }
    }

    /// Reads a record, replaying its moves to check them.
    pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
        let (tags, moves) = split_tags(text)?;
        let get = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        for (i, (name, _)) in tags.iter().enumerate() {
            if !TAGS.contains(&name.as_str()) {
                return Err(RecordError::UnknownTag(name.clone()));
            }
            if tags[..i].iter().any(|(n, _)| n == name) {
                return Err(RecordError::RepeatedTag(name.clone()));
            }
        }
        if let Some(g) = get("Game")
            && !g.eq_ignore_ascii_case("banqi")
        {
            return Err(RecordError::NotBanqi(g.to_string()));
        }
        let options: Options =
            get("Rules").map_or(Ok(Options::STANDARD), str::parse).map_err(RecordError::Rules)?;
        let start = match get("Start") {
            Some(s) => Position::from_fen_with(s, options).map_err(RecordError::Start)?,
            None => Position::startpos_with(options),
        };
        let deal = match get("Deal") {
            None => None,
            Some(d) => Some(match d.strip_prefix("commit:") {
                Some(h) => DealTag::Commit(
                    Commitment::from_hex(h).map_err(|e| RecordError::Deal(e.to_string()))?,
                ),
                None => {
                    let full = FullPosition::from_fen_with(d, options)
                        .map_err(|e| RecordError::Deal(e.to_string()))?;
                    if full.redact() != start {
                        return Err(RecordError::DealNotStart);
                    }
                    DealTag::Full(full)
                }
            }),
        };
        let seed = get("Seed").map(DealSeed::from_hex).transpose().map_err(RecordError::Seed)?;
        let result = match get("Result") {
            None => None,
            Some("red") => Some(GameResult::Red),
            Some("black") => Some(GameResult::Black),
            Some("draw") => Some(GameResult::Draw),
            Some(r) => return Err(RecordError::Result(r.to_string())),
        };
        let reason = get("Reason")
            .map(|r| parse_reason(r).ok_or_else(|| RecordError::Reason(r.to_string())))
            .transpose()?;
        let name = |t: &str| get(t).map(str::to_string);
        let mut record = GameRecord {
            options,
            first: name("First"),
            red: name("Red"),
            black: name("Black"),
            start,
            deal,
            seed,
            result,
            reason,
            moves,
        };
        // Check every move and keep it in canonical recorded form.
        let replayed = record.replay()?;
        record.moves = canonical_moves(&replayed);
        Ok(record)
    }
}

const TAGS: [&str; 10] =
    ["Game", "Rules", "First", "Red", "Black", "Start", "Deal", "Seed", "Result", "Reason"];

/// The recorded form of every ply of a replayed game.
fn canonical_moves(record: &Record<Position>) -> Vec<String> {
    use cannonade_core::Step;
    let mut out = Vec::new();
    let steps = record.steps();
    let mut i = 0;
    while i < steps.len() {
        let pos = &record.positions()[i];
        match (steps[i], steps.get(i + 1)) {
            (Step::Move(mv), Some(&Step::Chance(p))) if mv.is_flip() => {
                out.push(recorded_flip(mv.from(), p));
                i += 2;
            }
            (Step::Move(mv), _) => {
                out.push(pos.move_to_string(mv));
                i += 1;
            }
            (Step::Chance(_), _) => i += 1,
        }
    }
    out
}

/// Splits the text into `[Name "value"]` tags and the move tokens after them.
/// `(name, value)` tags and the move tokens.
type Split = (Vec<(String, String)>, Vec<String>);

fn split_tags(text: &str) -> Result<Split, RecordError> {
    let mut tags = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut moves_from = text.len();
    while let Some(&(i, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if c != '[' {
            moves_from = i;
            break;
        }
        chars.next();
        let rest = &text[i..];
        let bad = || RecordError::TagSyntax(rest.lines().next().unwrap_or("").to_string());
        let mut name = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if c.is_whitespace() || c == '"' || c == ']' {
                break;
            }
            name.push(c);
            chars.next();
        }
        while chars.peek().is_some_and(|&(_, c)| c == ' ' || c == '\t') {
            chars.next();
        }
        if name.is_empty() || chars.next().map(|(_, c)| c) != Some('"') {
            return Err(bad());
        }
        let mut value = String::new();
        loop {
            match chars.next().map(|(_, c)| c) {
                None | Some('\n') => return Err(bad()),
                Some('"') => break,
                Some('\\') => match chars.next().map(|(_, c)| c) {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    _ => return Err(bad()),
                },
                Some(c) => value.push(c),
            }
        }
        while chars.peek().is_some_and(|&(_, c)| c == ' ' || c == '\t') {
            chars.next();
        }
        if chars.next().map(|(_, c)| c) != Some(']') {
            return Err(bad());
        }
        tags.push((name, value));
    }
    let moves = text[moves_from..].split_whitespace().map(str::to_string).collect();
    Ok((tags, moves))
}

fn quote(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', " ")
}

impl fmt::Display for GameRecord {
    /// The record with its tags in the order of 9.5 and 16 plies per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "[Game \"Banqi\"]")?;
        writeln!(f, "[Rules \"{}\"]", self.options)?;
        for (tag, v) in [("First", &self.first), ("Red", &self.red), ("Black", &self.black)] {
            if let Some(v) = v {
                writeln!(f, "[{tag} \"{}\"]", quote(v))?;
            }
        }
        if self.start != Position::startpos_with(self.options) {
            writeln!(f, "[Start \"{}\"]", self.start.fen())?;
        }
        match &self.deal {
            Some(DealTag::Full(d)) => writeln!(f, "[Deal \"{}\"]", d.fen())?,
            Some(DealTag::Commit(c)) => writeln!(f, "[Deal \"commit:{c}\"]")?,
            None => {}
        }
        if let Some(s) = &self.seed {
            writeln!(f, "[Seed \"{}\"]", s.to_hex())?;
        }
        if let Some(r) = self.result {
            writeln!(f, "[Result \"{}\"]", r.as_str())?;
        }
        if let Some(r) = self.reason {
            writeln!(f, "[Reason \"{}\"]", reason_tag(r))?;
        }
        for chunk in self.moves.chunks(16) {
            writeln!(f, "{}", chunk.join(" "))?;
        }
        Ok(())
    }
}

impl std::str::FromStr for GameRecord {
    type Err = RecordError;
    fn from_str(s: &str) -> Result<GameRecord, RecordError> {
        GameRecord::parse(s)
    }
}
