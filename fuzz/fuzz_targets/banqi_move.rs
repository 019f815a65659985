//! Banqi move text (every form of rules 9.4: `d2?`, `d2=C`, `d2-d3`, `d2xd3`, chains, the
//! compact `d2d3`/`d2d2`) in public and dealt positions, and MistyBanqi squares. No text
//! panics a reader; a move that reads is legal and its canonical and compact texts read back
//! to it; playing text plays a legal move. Input layout: `cannonade_fuzz::position_and_text`.
#![no_main]

use cannonade_banqi::misty::{move_from_misty, move_to_misty};
use cannonade_banqi::{FullPosition, MoveSyntax, Position};
use cannonade_core::testkit::Conformance;
use cannonade_core::{MoveBuf, Rules};
use cannonade_fuzz::{check_read_move, perft, position_and_text, read_position, seed_texts};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

/// Every seed as a public position (a full one redacted), and the full ones as they are.
static SEEDS: LazyLock<(Vec<Position>, Vec<FullPosition>)> = LazyLock::new(|| {
    let texts = seed_texts(perft::BANQI);
    let full: Vec<FullPosition> =
        texts.iter().filter_map(|t| read_position::<FullPosition>(t).ok()).collect();
    let public = texts
        .iter()
        .map(|t| {
            read_position::<Position>(t).unwrap_or_else(|_| {
                let full = read_position::<FullPosition>(t);
                full.unwrap_or_else(|e| panic!("seed {t}: {e}")).redact()
            })
        })
        .collect();
    (public, full)
});

fn is_legal<G: Rules>(pos: &G, mv: G::Move) -> bool {
    let mut buf = MoveBuf::new();
    pos.legal_moves(&mut buf);
    buf.contains(&mv)
}

fn check_public(pos: &Position, text: &str) {
    if let Ok(mv) = pos.parse_move(text) {
        check_read_move(pos, text, mv);
        assert_eq!(pos.parse_move(&pos.move_to_compact(mv)), Ok(mv), "compact {text:?}");
    }
    let mut after = pos.clone();
    if let Ok(mv) = after.play_text(text) {
        assert!(is_legal(pos, mv), "{text:?} played an illegal move");
        assert_eq!(after.hash(), after.recomputed_hash(), "{text:?}: hash after play_text");
    }
}

fn check_full(pos: &FullPosition, text: &str) {
    if let Ok(mv) = pos.parse_move(text) {
        check_read_move(pos, text, mv);
        assert_eq!(pos.parse_move(&pos.recorded_move(mv)), Ok(mv), "recorded {text:?}");
    }
    let mut after = pos.clone();
    if let Ok(mv) = after.play_text(text) {
        assert!(is_legal(pos, mv), "{text:?} played an illegal move");
        assert_eq!(after.hash(), after.recomputed_hash(), "{text:?}: hash after play_text");
    }
}

fuzz_target!(|data: &[u8]| {
    let (public, full) = &*SEEDS;
    if let Some((pos, text)) = position_and_text(public, data, 8) {
        check_public(&pos, text);
        if let Err(e) = MoveSyntax::parse(text) {
            let _ = e.to_string();
        }
        if let Ok(ours) = move_from_misty(text) {
            assert_eq!(move_to_misty(&ours).as_deref(), Ok(text.trim()), "{text:?}");
        }
        let _ = move_to_misty(text);
    }
    if let Some((pos, text)) = position_and_text(full, data, 8) {
        check_full(&pos, text);
    }
});
