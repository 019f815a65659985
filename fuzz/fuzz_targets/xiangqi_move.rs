//! Xiangqi move text: coordinate (ranks from 0 and from 1, ICCS), WXF and Chinese. No text
//! panics a reader; a move any reader accepts is legal, and every notation's text for it
//! reads back to it. Input layout: `cannonade_fuzz::position_and_text`.
#![no_main]

use cannonade_fuzz::{check_read_move, perft, position_and_text, seed_positions};
use cannonade_xiangqi::{Position, Ranks, RepetitionRule, Square, UciMove};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

static SEEDS: LazyLock<Vec<Position>> = LazyLock::new(|| seed_positions(perft::XIANGQI));

fuzz_target!(|data: &[u8]| {
    let Some((pos, text)) = position_and_text(&SEEDS, data, 8) else { return };
    for ranks in [Ranks::FromZero, Ranks::FromOne] {
        if let Ok(m) = UciMove::parse(text, ranks) {
            assert_eq!(UciMove::parse(&m.to_text(ranks), ranks), Ok(m), "{text:?}");
        }
        if let Ok(mv) = pos.parse_move_in(text, ranks) {
            check_read_move(&pos, text, mv);
        }
    }
    for read in [Position::parse_wxf, Position::parse_chinese] {
        match read(&pos, text) {
            Ok(mv) => {
                check_read_move(&pos, text, mv);
                // The Chinese form is no text of the generic Game interface: checked here.
                assert_eq!(pos.parse_chinese(&pos.chinese(mv)), Ok(mv), "{text:?}");
            }
            Err(e) => drop(e.to_string()),
        }
    }
    let _ = Square::parse(text);
    let _ = RepetitionRule::parse(text);
});
