//! Writing PGN: the seven standard tags, what the record says about itself (Variant, FEN and
//! SetUp, Options, Format, Points, Termination, Deal, Seed after the end), the other tags,
//! then the moves in the game's display notation with clock comments.

use super::{PgnGame, PgnResult};
use crate::AnyRecord;
use crate::spec::format_name;
use std::fmt::Write;

/// The seven tags every PGN game has, in their order, with their unknown values.
const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

/// A tag value between quotes, escaped; a line break would end the tag, so it becomes a space.
fn quoted(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', " ")
}

/// `h:mm:ss`, with tenths when the clock has them.
fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    match ms % 1000 {
        0 => format!("{h}:{m:02}:{s:02}"),
        frac => format!("{h}:{m:02}:{s:02}.{:03}", frac).trim_end_matches('0').to_string(),
    }
}

/// Whether `text` stands in movetext as one symbol that reads back as itself (not a move
/// number, a result, a NAG, a comment or a variation).
fn one_symbol(text: &str) -> bool {
    let number = text.starts_with(|c: char| c.is_ascii_digit()) && text.contains('.');
    !number && super::token::one_symbol(text)
}

/// The text of each move: its display notation where that is one symbol that reads back as
/// the same move (WXF in Xiangqi), else the recorded text (a Banqi flip with its piece).
fn written_moves(record: &AnyRecord) -> Vec<String> {
    let moves = record.moves();
    let Ok(mut replay) = AnyRecord::with_start(record.spec(), record.start()) else {
        return moves.into_iter().map(|m| m.text).collect();
    };
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        let position = replay.position();
        let same = |text: &str| position.parse_move(text).ok();
        let display = mv.display != mv.text
            && one_symbol(&mv.display)
            && same(&mv.display).is_some()
            && same(&mv.display) == same(&mv.text);
        let _ = replay.play_text_past_end(&mv.text);
        out.push(if display { mv.display } else { mv.text });
    }
    out
}

/// Writes one game as PGN (ending with a blank line, so games can follow).
pub fn write_game(game: &PgnGame) -> String {
    let record = &game.record;
    let spec = record.spec();
    let mut tags: Vec<(String, String)> = Vec::new();
    for (name, unknown) in ROSTER {
        tags.push((name.into(), game.tag(name).unwrap_or(unknown).into()));
    }
    tags.push(("Result".into(), game.result.as_str().into()));
    if let Some(t) = &game.termination {
        tags.push(("Termination".into(), t.clone()));
    }
    tags.push(("Variant".into(), spec.kind().name().into()));
    let start = record.start();
    if start != spec.start() {
        tags.push(("FEN".into(), start.fen()));
        tags.push(("SetUp".into(), "1".into()));
    }
    if !spec.rules().is_empty() {
        tags.push(("Options".into(), spec.rules().into()));
    }
    if spec.format() != crate::spec::Format::Standard {
        tags.push(("Format".into(), format_name(spec.format()).into()));
    }
    if let Some([first, second]) = record.points() {
        tags.push(("Points".into(), format!("{first}-{second}")));
    }
    if let Some(deal) = &game.deal {
        tags.push(("Deal".into(), format!("commit:{deal}")));
    }
    // The seed opens the deal: written only once the game is over.
    if let (Some(seed), true) = (&game.seed, game.result != PgnResult::Unknown) {
        tags.push(("Seed".into(), seed.clone()));
    }
    for (name, value) in &game.tags {
        if !tags.iter().any(|(n, _)| n == name) {
            tags.push((name.clone(), value.clone()));
        }
    }
    let mut out = String::new();
    for (name, value) in tags {
        let _ = writeln!(out, "[{name} \"{}\"]", quoted(&value));
    }
    out.push('\n');
    let mut words = Vec::new();
    let second_first = record.start().mover() == cannonade_core::Side::Second;
    for (i, mv) in written_moves(record).into_iter().enumerate() {
        let half = i + usize::from(second_first);
        if half.is_multiple_of(2) {
            words.push(format!("{}.", half / 2 + 1));
        } else if i == 0 {
            words.push(format!("{}...", half / 2 + 1));
        }
        words.push(mv);
        if let Some(Some(ms)) = game.clocks.get(i) {
            words.push(format!("{{[%clk {}]}}", clock_text(*ms)));
        }
        if let Some(note) = game.annotations.get(i) {
            if let Some(nag) = note.nag {
                words.push(format!("${nag}"));
            }
            if let Some(comment) = &note.comment {
                words.push(format!("{{{}}}", comment.replace('{', "(").replace('}', ")")));
            }
        }
    }
    words.push(game.result.as_str().into());
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Writes several games, one after the other.
pub fn write_games<'a>(games: impl IntoIterator<Item = &'a PgnGame>) -> String {
    games.into_iter().map(write_game).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::{Annotation, read_game};
    use crate::{GameKind, GameSpec};

    #[test]
    fn annotations_are_written_after_their_move_and_read_back_as_the_same_game() {
        let mut record = AnyRecord::from_spec(&GameSpec::standard(GameKind::Xiangqi));
        for m in ["h2e2", "h9g7", "b0c2"] {
            record.play_text(m).unwrap();
        }
        let mut game = PgnGame::new(record);
        game.annotations = vec![
            Annotation { nag: None, comment: Some("[%eval 0.20]".into()) },
            Annotation { nag: Some(4), comment: Some("[%eval 3.10] best {h0g2}".into()) },
        ];
        let text = write_game(&game);
        assert!(
            text.contains("1. C2=5 {[%eval 0.20]} H8+7 $4 {[%eval 3.10] best (h0g2)} 2. H8+7"),
            "{text}"
        );
        let back = read_game(&text).unwrap();
        assert_eq!(back.record.moves_text(), game.record.moves_text());
    }

    #[test]
    fn clocks_are_written_as_hours_minutes_seconds() {
        assert_eq!(clock_text(299_000), "0:04:59");
        assert_eq!(clock_text(3_723_500), "1:02:03.5");
        assert_eq!(
            super::super::read::clock(&format!("[%clk {}]", clock_text(3_723_500))),
            Some(3_723_500)
        );
    }
}
