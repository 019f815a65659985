//! Xiangqi moves as outside programs write them, turned into ours.
//!
//! Our coordinates count ranks from 0 (`h2e2`, as UCCI and ICCS do); Fairy-Stockfish, cutechess
//! and pychess-variants count them from 1 (`h3e3`, `h10g8`). A file says neither, so the
//! reader decides per game ([`guess`]): a rank 10 means 1-based, a rank 0 means 0-based, and
//! a game that has neither is replayed as 0-based first and as 1-based if that fails.
//! pychess-variants' database export writes Fairy-Stockfish's SAN (`Che3`, `Hg8`, `Rxf2`,
//! 1-based), read by [`san`].

use crate::{AnyGame, AnyMove, GameKind};

/// How a file numbers the ranks of coordinate moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranks {
    /// From 0, as we write them (`h2e2`).
    Zero,
    /// From 1, as Fairy-Stockfish writes them (`h3e3`).
    One,
}

/// A square `a`–`i` and a rank 0–10 at the start of `text`, and what follows.
fn square(text: &str) -> Option<(char, u8, &str)> {
    let mut chars = text.chars();
    let file = chars.next().filter(|c| ('a'..='i').contains(c))?;
    let rest = chars.as_str();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let rank: u8 = rest[..digits].parse().ok()?;
    (rank <= 10).then_some((file, rank, &rest[digits..]))
}

/// A coordinate move `h2e2` / `h2-e2`: both squares.
fn coordinate(text: &str) -> Option<((char, u8), (char, u8))> {
    let (f1, r1, rest) = square(text)?;
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let (f2, r2, rest) = square(rest)?;
    rest.is_empty().then_some(((f1, r1), (f2, r2)))
}

/// The convention the moves of a game show, if any move shows it.
pub fn guess<'a>(moves: impl IntoIterator<Item = &'a str>) -> Option<Ranks> {
    for text in moves {
        if let Some(((_, r1), (_, r2))) = coordinate(text) {
            if r1 == 10 || r2 == 10 {
                return Some(Ranks::One);
            }
            if r1 == 0 || r2 == 0 {
                return Some(Ranks::Zero);
            }
        }
    }
    None
}

/// A 1-based coordinate move in our 0-based form; `None` when `text` is not one.
pub fn from_one_based(text: &str) -> Option<String> {
    let ((f1, r1), (f2, r2)) = coordinate(text)?;
    (r1 >= 1 && r2 >= 1).then(|| format!("{f1}{}{f2}{}", r1 - 1, r2 - 1))
}

/// A move in Fairy-Stockfish's Xiangqi SAN (`Che3`, `Pe5`, `Rxf2`, `R2f2`; 1-based ranks;
/// `H`/`N` horse, `E`/`B` elephant): the one legal move it names.
pub fn san(game: &AnyGame, text: &str) -> Option<AnyMove> {
    if game.kind() != GameKind::Xiangqi {
        return None;
    }
    let text = text.trim_end_matches(['+', '#']);
    let mut chars = text.chars();
    let piece = normal(chars.next()?)?;
    let body = chars.as_str();
    // The target is the last square; before it an optional `x` and an optional origin file
    // and rank.
    let split = body.rfind(|c: char| ('a'..='i').contains(&c))?;
    let (f_to, r_to, rest) = square(&body[split..])?;
    if !rest.is_empty() || r_to == 0 {
        return None;
    }
    let origin = body[..split].strip_suffix('x').unwrap_or(&body[..split]);
    let mut file = None;
    let mut rank = None;
    let mut o = origin.chars().peekable();
    if let Some(c) = o.next_if(|c| ('a'..='i').contains(c)) {
        file = Some(c);
    }
    let digits: String = o.collect();
    if !digits.is_empty() {
        let r: u8 = digits.parse().ok()?;
        if !(1..=10).contains(&r) {
            return None;
        }
        rank = Some(r - 1);
    }
    let placement = game.placement();
    let target = (f_to, r_to - 1);
    let mut found = None;
    for mv in game.legal_moves() {
        let Some((from, to)) = coordinate(&game.move_text(mv)) else { continue };
        if to != target || file.is_some_and(|f| f != from.0) || rank.is_some_and(|r| r != from.1) {
            continue;
        }
        let name = format!("{}{}", from.0, from.1);
        let unit = placement.iter().find(|(sq, _)| *sq == name).map(|(_, u)| u.as_str());
        if unit.and_then(|u| u.chars().next()).and_then(normal) != Some(piece) {
            continue;
        }
        if found.replace(mv).is_some() {
            return None;
        }
    }
    found
}

/// A WXF move that names its piece by file where WXF would name it front or rear (`R1-1`
/// for the front of two chariots on file 1, when only that one can make the move), as
/// Fairy-Stockfish writes it: the one legal move it can mean.
pub fn plain_wxf(game: &AnyGame, text: &str) -> Option<AnyMove> {
    if game.kind() != GameKind::Xiangqi {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let [letter, file, direction, number] = chars[..] else { return None };
    let letter = normal(letter)?;
    if !file.is_ascii_digit() || !"+-=.".contains(direction) || !number.is_ascii_digit() {
        return None;
    }
    let direction = if direction == '.' { '=' } else { direction };
    let red = game.mover() == cannonade_core::Side::First;
    let mut found = None;
    for mv in game.legal_moves() {
        let ours: Vec<char> = game.display_move(mv).chars().collect();
        let Some(((from_file, _), _)) = coordinate(&game.move_text(mv)) else { continue };
        let index = from_file as u8 - b'a';
        // Files are counted from each player's right: a is Red's 9 and Black's 1.
        let counted = if red { 9 - index } else { index + 1 };
        let piece = ours.first().copied().filter(char::is_ascii_alphabetic).unwrap_or('P');
        let tail = &ours[ours.len().saturating_sub(2)..];
        if normal(piece) == Some(letter)
            && char::from(b'0' + counted) == file
            && tail == [direction, number]
            && found.replace(mv).is_some()
        {
            return None;
        }
    }
    found
}

/// A piece letter in one spelling: the FEN's (`N`, `B`) or SAN's (`H`, `E`).
fn normal(c: char) -> Option<char> {
    match c.to_ascii_uppercase() {
        'N' | 'H' => Some('H'),
        'B' | 'E' => Some('E'),
        c @ ('K' | 'A' | 'R' | 'C' | 'P') => Some(c),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ranks_a_game_shows_decide_its_convention() {
        assert_eq!(guess(["C2=5", "h10g8"]), Some(Ranks::One));
        assert_eq!(guess(["h2e2", "h9g7", "b0c2"]), Some(Ranks::Zero));
        assert_eq!(guess(["h3e3", "b8b4"]), None);
        assert_eq!(from_one_based("h10g8").as_deref(), Some("h9g7"));
        assert_eq!(from_one_based("h3-e3").as_deref(), Some("h2e2"));
        assert_eq!(from_one_based("h0e2"), None);
        assert_eq!(from_one_based("j3e3"), None);
    }

    #[test]
    fn fairy_stockfish_san_names_one_legal_move() {
        let start = AnyGame::start(GameKind::Xiangqi).unwrap();
        for (san_text, ours) in
            [("Che3", "h2e2"), ("Hg3", "h0g2"), ("Ece3", "c0e2"), ("Pe5", "e3e4"), ("Ra2", "a0a1")]
        {
            let mv = san(&start, san_text).unwrap_or_else(|| panic!("{san_text}"));
            assert_eq!(start.move_text(mv), ours, "{san_text}");
        }
        // Two cannons reach e3: the file is needed; no piece of ours is a queen.
        assert_eq!(san(&start, "Ce3"), None);
        assert_eq!(san(&start, "Qe3"), None);
        assert_eq!(san(&start, "Re9"), None);
    }

    #[test]
    fn a_wxf_move_by_file_names_the_one_piece_that_can_make_it() {
        // Two red chariots on file 1 (i): only the front one can step back one.
        let game = AnyGame::from_fen(
            GameKind::Xiangqi,
            "r1b1kab2/4a4/n5r2/p7R/8c/6p2/P1P1P1PcP/2N3NCB/9/2BAKA2R w - - 1 12",
        )
        .unwrap();
        let mv = plain_wxf(&game, "R1-1").unwrap();
        assert_eq!((game.move_text(mv).as_str(), game.display_move(mv).as_str()), ("i6i5", "R+-1"));
        // Both can go forward or sideways on some moves: no single move.
        assert_eq!(plain_wxf(&game, "R1+1"), None);
        assert_eq!(plain_wxf(&game, "Q1-1"), None);
    }
}
