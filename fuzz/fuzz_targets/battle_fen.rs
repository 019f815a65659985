//! Chess-Battle BFEN: no text panics the reader; a position that reads round-trips through
//! its own text with the same hash, and its setup is the setup its text reads as.
#![no_main]

use cannonade_battle::{Position, Setup};
use cannonade_fuzz::position_round_trip;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Setup::parse(text) {
        Ok(setup) => {
            if let Ok(pos) = Position::from_setup(&setup) {
                // The clock and number are kept, so the validated position gives back the setup.
                assert_eq!(pos.setup(), setup, "{text:?}");
                let _ = pos.pretty();
            }
        }
        Err(e) => drop(e.to_string()),
    }
    position_round_trip::<Position>(text);
});
