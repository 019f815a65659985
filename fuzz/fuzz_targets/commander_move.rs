//! Commander Chess move text: the full turn notation of rules 14.3 (stack point, staying
//! unit, steps with their operations) and the short form of 14.4. No text panics the reader;
//! a turn that reads is legal and its text reads back to it. Input layout:
//! `cannonade_fuzz::position_and_text`.
#![no_main]

use cannonade_commander::Position;
use cannonade_fuzz::{check_read_move, perft, position_and_text, seed_positions};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

static SEEDS: LazyLock<Vec<Position>> = LazyLock::new(|| seed_positions(perft::COMMANDER));

/// At most one ply before the text: a Commander Chess move list (deploys of stacks) costs
/// far more than reading text, and the seeds already cover the special positions.
const MAX_PLIES: u8 = 2;

fuzz_target!(|data: &[u8]| {
    let Some((pos, text)) = position_and_text(&SEEDS, data, MAX_PLIES) else { return };
    match pos.parse_move(text) {
        Ok(mv) => check_read_move(&pos, text, mv),
        Err(e) => drop(e.to_string()),
    }
});
