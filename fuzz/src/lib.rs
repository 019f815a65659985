//! What the fuzz targets share: the seed positions of each game (its perft file), the layout
//! of an input, and the invariant checks written once over the core testkit's `Conformance`.
//!
//! Every check panics with the input's position text and what failed, so a crash report says
//! what to fix without a debugger.

use cannonade_core::testkit::Conformance;
use cannonade_core::{Game, MoveBuf, Next, Reason, Rules, Weighted};
use std::collections::HashSet;

/// The perft files, one per game: positions chosen for their special rules.
pub mod perft {
    /// `testdata/perft/xiangqi.perft`.
    pub const XIANGQI: &str = include_str!("../../testdata/perft/xiangqi.perft");
    /// `testdata/perft/banqi.perft`.
    pub const BANQI: &str = include_str!("../../testdata/perft/banqi.perft");
    /// `testdata/perft/chessbattle.perft`.
    pub const BATTLE: &str = include_str!("../../testdata/perft/chessbattle.perft");
    /// `testdata/perft/commander.perft`.
    pub const COMMANDER: &str = include_str!("../../testdata/perft/commander.perft");
}

/// A playout checks at most this many positions: enough to reach flips, captures, deploys and
/// removals from a seed position, few enough to keep an execution short.
pub const MAX_STEPS: usize = 8;

/// The positions of a perft file as [`read_position`] text: the text before the first `;`,
/// with Banqi's `; rules <options>` field written as its ` ; <options>` suffix.
pub fn seed_texts(perft_file: &str) -> Vec<String> {
    perft_file
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut fields = l.split(';').map(str::trim);
            let fen = fields.next().unwrap_or_default().to_string();
            match fields.find_map(|f| f.strip_prefix("rules ")) {
                Some(options) => format!("{fen} ; {}", options.trim()),
                None => fen,
            }
        })
        .collect()
}

/// Reads `<position> [; <options>]`: the game's position text, and rule options applied to
/// it (`Game::with_options`) when a ` ; ` follows.
pub fn read_position<G: Game>(text: &str) -> Result<G, String> {
    let (fen, options) = text.split_once(" ; ").unwrap_or((text, ""));
    let pos = G::from_fen(fen).map_err(|e| e.to_string())?;
    if options.is_empty() { Ok(pos) } else { pos.with_options(options).map_err(|e| e.to_string()) }
}

/// The seed positions of a perft file, read with the game's own reader; a seed that does not
/// read is a broken perft file, so it panics.
pub fn seed_positions<G: Game>(perft_file: &str) -> Vec<G> {
    seed_texts(perft_file)
        .iter()
        .map(|t| read_position(t).unwrap_or_else(|e| panic!("seed {t}: {e}")))
        .collect()
}

/// Splits an input at its first newline: `(line, rest)`; without one, all of it is the line.
pub fn split_line(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// The input layout of the move-text targets: byte 0 picks a seed position, byte 1 (mod
/// `max_plies`) is how many plies to play from it, each chosen by one of the following bytes,
/// and the rest is the text to read there. `None` when the input is too short or the text is
/// not UTF-8.
pub fn position_and_text<'a, G: Rules>(
    seeds: &[G],
    data: &'a [u8],
    max_plies: u8,
) -> Option<(G, &'a str)> {
    let (&pick, data) = data.split_first()?;
    let (&plies, data) = data.split_first()?;
    let plies = (plies % max_plies.max(1)) as usize;
    if data.len() < plies {
        return None;
    }
    let (choices, text) = data.split_at(plies);
    let mut pos = seeds[pick as usize % seeds.len()].clone();
    let mut buf = MoveBuf::new();
    for &c in choices {
        if !step(&mut pos, &mut buf, &mut Vec::new(), c) {
            break;
        }
    }
    Some((pos, std::str::from_utf8(text).ok()?))
}

/// Moves one step on from `pos`: resolves a pending chance event or plays a legal move, each
/// picked by `choice`. False when the game has no move left (it is over by having none).
fn step<G: Rules>(
    pos: &mut G,
    buf: &mut MoveBuf<G::Move>,
    chances: &mut Vec<Weighted<G::Chance>>,
    choice: u8,
) -> bool {
    if pos.chance_pending() {
        pos.chance_outcomes(chances);
        match chances.get(choice as usize % chances.len().max(1)) {
            Some(w) => pos.resolve(w.outcome),
            None => return false,
        }
        return true;
    }
    pos.legal_moves(buf);
    if buf.is_empty() {
        return false;
    }
    pos.play(buf[choice as usize % buf.len()]);
    true
}

/// Legal moves are legal, hashes agree, notation round-trips: from `pos`, along the playout
/// `choices` picks (at most [`MAX_STEPS`] positions), checks at every position that
/// * the incremental hash equals the one recomputed from scratch;
/// * the position's text reads back to the same text and hash, and its options text applies
///   to give the same options;
/// * the fast generator lists no move twice and `count_legal` agrees;
/// * chance outcomes are offered exactly at chance nodes with positive, distinct weights, and
///   `next()` agrees with the move list;
/// * the move played there reads back from each of its texts (canonical, display, engine,
///   recorded);
///
/// and at the last position, that the game's own invariants hold
/// (`Conformance::check_invariants`, which for Xiangqi reads back every legal move in every
/// notation) and the moves are exactly those of the slow reference generator. Unlike the
/// testkit's `check_position` it does those two once per input and reads back only the moves
/// it plays: they are quadratic or slow (Commander Chess's reference generator above all) and
/// would take most of each execution, and the fuzzer makes every position a last one anyway.
pub fn playout<G: Conformance>(mut pos: G, choices: &[u8]) {
    let start = pos.fen();
    let mut buf = MoveBuf::new();
    let mut chances = Vec::new();
    let steps = (choices.len() + 1).min(MAX_STEPS);
    for (i, &c) in choices.iter().chain(std::iter::once(&0)).take(steps).enumerate() {
        let fail = |e: String| -> ! { panic!("from {start}, step {i} at {}: {e}", pos.fen()) };
        if let Err(e) = check_step(&pos, &mut buf, &mut chances) {
            fail(e);
        }
        if i + 1 == steps || (!pos.chance_pending() && buf.is_empty()) {
            if let Err(e) = pos.check_invariants(&chances) {
                fail(e);
            }
            // At a chance node there are no moves to compare.
            if !pos.chance_pending()
                && let Err(e) = check_reference(&pos, &buf)
            {
                fail(e);
            }
        }
        if pos.chance_pending() {
            pos.resolve(chances[c as usize % chances.len()].outcome);
            continue;
        }
        if buf.is_empty() {
            break;
        }
        let mv = buf[c as usize % buf.len()];
        if let Err(e) = check_move_texts(&pos, mv) {
            fail(e);
        }
        pos.play(mv);
    }
}

/// Every text of the legal move `mv` (canonical, display, engine, recorded) reads back as it.
fn check_move_texts<G: Game>(pos: &G, mv: G::Move) -> Result<(), String> {
    let recorded = pos.recorded_move(mv);
    match pos.parse_recorded(&recorded) {
        Ok((back, _)) if back == mv => {}
        Ok((other, _)) => {
            return Err(format!("recorded {recorded} reads back as {}", pos.move_text(other)));
        }
        Err(e) => return Err(format!("recorded {recorded} does not read back: {e}")),
    }
    for text in [pos.move_text(mv), pos.display_move(mv), pos.engine_move(mv)] {
        match pos.parse_move(&text) {
            Ok(back) if back == mv => {}
            Ok(other) => return Err(format!("{text} reads back as {}", pos.move_text(other))),
            Err(e) => return Err(format!("{text} does not read back: {e}")),
        }
    }
    Ok(())
}

/// The fast generator's moves `buf` at `pos` are exactly the slow reference generator's.
fn check_reference<G: Conformance>(pos: &G, buf: &MoveBuf<G::Move>) -> Result<(), String> {
    let fast: HashSet<G::Move> = buf.iter().copied().collect();
    let slow: HashSet<G::Move> = pos.reference_moves().into_iter().collect();
    if slow != fast {
        let missing: Vec<String> = slow.difference(&fast).map(|m| pos.move_text(*m)).collect();
        let extra: Vec<String> = fast.difference(&slow).map(|m| pos.move_text(*m)).collect();
        return Err(format!("generator misses {missing:?} and wrongly lists {extra:?}"));
    }
    Ok(())
}

/// The checks of [`playout`] at every position; leaves its legal moves in `buf` and its
/// chance outcomes in `chances`.
fn check_step<G: Conformance>(
    pos: &G,
    buf: &mut MoveBuf<G::Move>,
    chances: &mut Vec<Weighted<G::Chance>>,
) -> Result<(), String> {
    if pos.hash() != pos.recomputed_hash() {
        let (h, r) = (pos.hash(), pos.recomputed_hash());
        return Err(format!("incremental hash {h:#x}, recomputed {r:#x}"));
    }
    check_text(pos)?;
    pos.legal_moves(buf);
    pos.chance_outcomes(chances);
    if pos.count_legal() != buf.len() as u64 {
        return Err(format!("count_legal {} but {} moves listed", pos.count_legal(), buf.len()));
    }
    let fast: HashSet<G::Move> = buf.iter().copied().collect();
    if fast.len() != buf.len() {
        return Err("the generator lists a move twice".into());
    }
    if pos.chance_pending() {
        let distinct: HashSet<G::Chance> = chances.iter().map(|w| w.outcome).collect();
        if !buf.is_empty() {
            return Err("moves offered at a chance node".into());
        }
        if chances.is_empty() || chances.iter().any(|w| w.weight == 0) {
            return Err(format!("bad chance outcomes {chances:?}"));
        }
        if distinct.len() != chances.len() {
            return Err("a chance outcome is offered twice".into());
        }
        if pos.next() != Next::Chance {
            return Err(format!("chance pending but next() is {:?}", pos.next()));
        }
        return Ok(());
    }
    if !chances.is_empty() {
        return Err("chance outcomes offered where no chance event is pending".into());
    }
    match pos.next() {
        Next::Player(_) if buf.is_empty() => Err("next() names a player who has no move".into()),
        Next::Player(side) if side != pos.mover() => Err(format!("next() {side:?}, mover differs")),
        Next::Over(o)
            if !buf.is_empty()
                && matches!(o.reason, Reason::Checkmate | Reason::Stalemate | Reason::NoMoves) =>
        {
            Err(format!("next() says {} but there are legal moves", o.reason))
        }
        Next::Chance => Err("next() says chance but none is pending".into()),
        _ => Ok(()),
    }
}

/// The position's text reads back to the same text and hash, and its options text applies
/// to give the same options and position.
fn check_text<G: Conformance>(pos: &G) -> Result<(), String> {
    let text = pos.fen();
    let back = G::from_fen(&text).map_err(|e| format!("own text does not read: {e}"))?;
    if back.fen() != text || back.hash() != pos.hash() {
        return Err(format!("position text does not round-trip: {}", back.fen()));
    }
    let options = pos.options();
    let again = pos.with_options(&options).map_err(|e| format!("own options '{options}': {e}"))?;
    if again.options() != options || again.fen() != text || again.hash() != pos.hash() {
        return Err(format!("options '{options}' do not round-trip"));
    }
    Ok(())
}

/// The playout target of a game: the first line is a position ([`read_position`]), the
/// bytes after it pick the moves (see [`playout`]).
pub fn playout_from_text<G: Conformance>(data: &[u8]) {
    let (line, choices) = split_line(data);
    let Ok(text) = std::str::from_utf8(line) else { return };
    if let Ok(pos) = read_position::<G>(text) {
        playout(pos, choices);
    }
}

/// Checks a move the game's reader accepted from `text` in `pos`: it is one of the legal
/// moves, and each of the game's texts for it reads back to it.
pub fn check_read_move<G: Game>(pos: &G, text: &str, mv: G::Move) {
    let mut buf = MoveBuf::new();
    pos.legal_moves(&mut buf);
    assert!(buf.contains(&mv), "{text:?} read as {mv:?}, which is not legal in {}", pos.fen());
    if let Err(e) = check_move_texts(pos, mv) {
        panic!("{text:?} read as {}: {e}", pos.move_text(mv));
    }
}

/// Reads `text` as a position of the game ([`read_position`]) and, when it reads, checks
/// that its text and options round-trip and its hash is the recomputed one. Returns it.
pub fn position_round_trip<G: Conformance>(text: &str) -> Option<G> {
    let pos = read_position::<G>(text).ok()?;
    if let Err(e) = check_text(&pos) {
        panic!("{text:?}: {e}");
    }
    assert_eq!(pos.hash(), pos.recomputed_hash(), "{text:?}: the hash of a read position");
    Some(pos)
}
