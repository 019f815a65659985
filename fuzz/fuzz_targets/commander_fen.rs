//! Commander Chess FEN (stacks in parentheses, heroes): no text panics the reader; a
//! position that reads round-trips through its own text with the same hash.
#![no_main]

use cannonade_commander::Position;
use cannonade_fuzz::position_round_trip;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Position::from_fen(text) {
        Ok(pos) => drop(pos.pretty()),
        Err(e) => drop(e.to_string()),
    }
    position_round_trip::<Position>(text);
});
