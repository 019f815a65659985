//! Chess-Battle move text (`e2-e4`, captures, shots, bomber jumps, last-rank removals `@sq`
//! and `@-`, trailing `+`/`#`): no text panics the reader; a move that reads is legal and
//! its text reads back to it. Input layout: `cannonade_fuzz::position_and_text`.
#![no_main]

use cannonade_battle::{MoveText, Position};
use cannonade_fuzz::{check_read_move, perft, position_and_text, seed_positions};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

static SEEDS: LazyLock<Vec<Position>> = LazyLock::new(|| seed_positions(perft::BATTLE));

fuzz_target!(|data: &[u8]| {
    let Some((pos, text)) = position_and_text(&SEEDS, data, 8) else { return };
    match MoveText::parse(text) {
        Ok(syntax) => {
            let written = syntax.to_string();
            assert_eq!(MoveText::parse(&written).as_ref(), Ok(&syntax), "{text:?}");
            if let Ok(mv) = pos.check_move(&syntax) {
                assert_eq!(pos.parse_move(text), Ok(mv), "{text:?}");
            }
        }
        Err(e) => drop(e.to_string()),
    }
    match pos.parse_move(text) {
        Ok(mv) => check_read_move(&pos, text, mv),
        Err(e) => drop(e.to_string()),
    }
});
