//! Xiangqi FEN: no text panics the reader; a FEN that reads round-trips through its own
//! text with the same hash; the syntax step and the one-call reader agree.
#![no_main]

use cannonade_fuzz::position_round_trip;
use cannonade_xiangqi::{Position, Setup};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let by_steps = Setup::parse(text).and_then(|s| s.validate());
    let at_once = Position::from_fen(text);
    assert_eq!(by_steps.as_ref().map(Position::fen), at_once.as_ref().map(Position::fen));
    if let Some(pos) = position_round_trip::<Position>(text) {
        // Every error and every position can be shown without panicking.
        let _ = pos.pretty();
    }
    if let Err(e) = at_once {
        let _ = e.to_string();
    }
});
